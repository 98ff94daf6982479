//! Headless Chromium, the renderer behind `carta export`: the same HTML the
//! sheets are, printed to PDF or photographed to PNG by the browser a
//! designer checks them in. Each job is one browser process with a fresh
//! profile; jobs run in parallel, a bounded number at a time, with a
//! progress bar when stderr is a terminal.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The environment variable naming the browser binary.
pub const CHROMIUM_ENV: &str = "CARTA_CHROMIUM";

/// How long one job may take before the browser is stopped.
const JOB_TIMEOUT: Duration = Duration::from_mins(3);

/// Why the browser could not render.
#[derive(Debug, thiserror::Error)]
pub enum ChromiumError {
    /// No browser to run.
    #[error(
        "no Chromium to render with: install Debian's `chromium` package (`apt-get install chromium`), or set {CHROMIUM_ENV} to a Chromium or Chrome binary"
    )]
    Missing,
    /// The browser could not be started or failed on a page.
    #[error("Chromium failed on `{page}`: {message}")]
    Failed {
        /// The page it was rendering.
        page: PathBuf,
        /// What went wrong (its stderr's last lines, or the I/O error).
        message: String,
    },
}

/// What to make of a page.
#[derive(Debug, Clone)]
pub enum Job {
    /// Print `page` to the PDF file `out` (page size from the page's `@page`).
    Pdf {
        /// The HTML file.
        page: PathBuf,
        /// The PDF to write.
        out: PathBuf,
    },
    /// Photograph the top-left `width` × `height` CSS pixels of `page` at
    /// `scale` device pixels per CSS pixel into the PNG file `out`.
    Screenshot {
        /// The HTML file.
        page: PathBuf,
        /// The PNG to write.
        out: PathBuf,
        /// The window's width, in CSS pixels.
        width: u32,
        /// The window's height, in CSS pixels.
        height: u32,
        /// Device pixels per CSS pixel (dpi / 96).
        scale: f64,
    },
}

impl Job {
    fn page(&self) -> &Path {
        match self {
            Job::Pdf { page, .. } | Job::Screenshot { page, .. } => page,
        }
    }

    fn out(&self) -> &Path {
        match self {
            Job::Pdf { out, .. } | Job::Screenshot { out, .. } => out,
        }
    }
}

/// A headless Chromium binary.
#[derive(Debug, Clone)]
pub struct Chromium {
    binary: PathBuf,
}

impl Chromium {
    /// `$CARTA_CHROMIUM`, or `chromium` / `chromium-browser` /
    /// `google-chrome` on the `PATH`.
    ///
    /// # Errors
    /// [`ChromiumError::Missing`] when there is none.
    pub fn find() -> Result<Chromium, ChromiumError> {
        if let Some(p) = std::env::var_os(CHROMIUM_ENV) {
            let binary = PathBuf::from(p);
            return if binary.is_file() {
                Ok(Chromium { binary })
            } else {
                Err(ChromiumError::Missing)
            };
        }
        let path = std::env::var_os("PATH").unwrap_or_default();
        for name in ["chromium", "chromium-browser", "google-chrome"] {
            for dir in std::env::split_paths(&path) {
                let binary = dir.join(name);
                if binary.is_file() {
                    return Ok(Chromium { binary });
                }
            }
        }
        Err(ChromiumError::Missing)
    }

    /// Runs `jobs`, at most `parallel` browsers at a time, showing progress
    /// as `what` on a terminal.
    ///
    /// # Errors
    /// The first job that failed.
    pub fn run_all(&self, jobs: &[Job], parallel: usize, what: &str) -> Result<(), ChromiumError> {
        let bar = progress(jobs.len(), what);
        let next = Mutex::new(0usize);
        let failure: Mutex<Option<ChromiumError>> = Mutex::new(None);
        std::thread::scope(|s| {
            for _ in 0..parallel.clamp(1, jobs.len().max(1)) {
                s.spawn(|| {
                    loop {
                        let i = {
                            let mut n = next.lock().expect("no worker panics holding it");
                            let i = *n;
                            *n += 1;
                            i
                        };
                        let stop = failure
                            .lock()
                            .expect("no worker panics holding it")
                            .is_some();
                        let Some(job) = jobs.get(i).filter(|_| !stop) else {
                            break;
                        };
                        if let Err(e) = self.run(job) {
                            failure
                                .lock()
                                .expect("no worker panics holding it")
                                .get_or_insert(e);
                        }
                        bar.inc(1);
                    }
                });
            }
        });
        bar.finish_and_clear();
        match failure.into_inner().expect("no worker panicked") {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    /// Runs one job in a fresh profile.
    fn run(&self, job: &Job) -> Result<(), ChromiumError> {
        let failed = |message: String| ChromiumError::Failed {
            page: job.page().to_path_buf(),
            message,
        };
        let profile = tempfile::tempdir().map_err(|e| failed(e.to_string()))?;
        // Chromium's log goes to a file: a pipe nobody reads while waiting
        // would block a chatty browser until the timeout.
        let log_path = profile.path().join("stderr.log");
        let log = std::fs::File::create(&log_path).map_err(|e| failed(e.to_string()))?;
        let mut child = self
            .command(job, profile.path())
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .map_err(|e| failed(format!("cannot start `{}`: {e}", self.binary.display())))?;
        let started = Instant::now();
        let status = loop {
            match child.try_wait().map_err(|e| failed(e.to_string()))? {
                Some(status) => break status,
                None if started.elapsed() > JOB_TIMEOUT => {
                    let _ = child.kill();
                    let _ = child.wait();
                    return Err(failed(format!(
                        "no result after {} s",
                        JOB_TIMEOUT.as_secs()
                    )));
                }
                None => std::thread::sleep(Duration::from_millis(20)),
            }
        };
        if !status.success() || !job.out().is_file() {
            let stderr = std::fs::read_to_string(&log_path).unwrap_or_default();
            let tail: Vec<&str> = stderr.lines().rev().take(3).collect();
            return Err(failed(format!(
                "{status}: {}",
                tail.into_iter().rev().collect::<Vec<_>>().join(" / ")
            )));
        }
        Ok(())
    }

    /// The browser's command line for `job`, with its profile in `profile`.
    fn command(&self, job: &Job, profile: &Path) -> Command {
        let mut cmd = Command::new(&self.binary);
        cmd.args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
        ])
        .arg(format!("--user-data-dir={}", profile.display()));
        match job {
            Job::Pdf { out, .. } => {
                cmd.arg("--no-pdf-header-footer")
                    .arg(format!("--print-to-pdf={}", out.display()));
            }
            Job::Screenshot {
                out,
                width,
                height,
                scale,
                ..
            } => {
                cmd.arg(format!("--window-size={width},{height}"))
                    .arg(format!("--force-device-scale-factor={scale}"))
                    .arg(format!("--screenshot={}", out.display()));
            }
        }
        cmd.arg(file_url(job.page()));
        cmd
    }
}

/// The `file://` URL of an absolute path.
pub fn file_url(path: &Path) -> String {
    let mut url = String::from("file://");
    for b in path.to_string_lossy().bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'/' | b'-' | b'_' | b'.' | b'~' => {
                url.push(b as char);
            }
            _ => url.push_str(&format!("%{b:02X}")),
        }
    }
    url
}

/// A progress bar on stderr when it is a terminal, else a hidden one.
fn progress(len: usize, what: &str) -> indicatif::ProgressBar {
    if !std::io::stderr().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(len as u64);
    if let Ok(style) =
        indicatif::ProgressStyle::with_template("{msg} [{bar:30}] {pos}/{len} ({eta})")
    {
        bar.set_style(style.progress_chars("=> "));
    }
    bar.set_message(what.to_owned());
    bar
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_urls_escape_what_a_url_cannot_hold() {
        assert_eq!(
            file_url(Path::new("/srv/jogos/a b/Fúria#1.png")),
            "file:///srv/jogos/a%20b/F%C3%BAria%231.png"
        );
    }
}
