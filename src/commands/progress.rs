//! Progress of long commands on a terminal: a bar on stderr, drawn only
//! when stderr is a terminal and diagnostics are human-readable (never in
//! `--message-format json`, never into a pipe or a log file).

use std::io::IsTerminal;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};

/// A progress bar that may be hidden; it clears itself when dropped.
#[derive(Debug)]
pub(crate) struct Progress(ProgressBar);

impl Progress {
    /// A bar of `len` steps, drawn only when `wanted` and stderr is a terminal.
    pub(crate) fn new(wanted: bool, len: usize) -> Self {
        if !wanted || !std::io::stderr().is_terminal() {
            return Progress(ProgressBar::hidden());
        }
        let bar = ProgressBar::new(len as u64);
        bar.set_style(
            ProgressStyle::with_template("{spinner} [{bar:30}] {pos}/{len} {msg}")
                .expect("a valid template")
                .progress_chars("=> "),
        );
        bar.enable_steady_tick(Duration::from_millis(100));
        Progress(bar)
    }

    /// Says what the next step is.
    pub(crate) fn step(&self, what: String) {
        self.0.set_message(what);
    }

    /// Marks a step done.
    pub(crate) fn done(&self) {
        self.0.inc(1);
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.0.finish_and_clear();
    }
}
