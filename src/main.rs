//! The `carta` binary: parse the arguments, run, exit.

use std::ffi::{c_int, c_long};
use std::io::Write;

// A compiler allocates many small strings and tables per card; mimalloc
// serves that pattern markedly faster than the system allocator.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

unsafe extern "C" {
    /// mimalloc's `mi_option_set` (mimalloc.h), linked in with the allocator.
    fn mi_option_set(option: c_int, value: c_long);
    /// The C library's `_exit` (unistd.h): ends the process at once,
    /// without running its exit handlers.
    fn _exit(status: c_int) -> !;
}

/// `mi_option_purge_decommits` in mimalloc.h's `mi_option_t` (5 in v2 and v3).
const MI_OPTION_PURGE_DECOMMITS: c_int = 5;

/// `mi_option_purge_delay` in mimalloc.h's `mi_option_t` (15 in v2 and v3).
const MI_OPTION_PURGE_DELAY: c_int = 15;

fn main() {
    // mimalloc 3 keeps freed memory for a second before returning it to the
    // system; a check frees most of what it allocates well within that, and
    // the delay kept it resident at the peak; mimalloc 2's short delay
    // does not.
    // SAFETY: sets a plain integer option before any other thread exists.
    unsafe { mi_option_set(MI_OPTION_PURGE_DELAY, 10) };
    // Small pages: a run that repeats a verdict touches little memory, and a
    // huge page cleared for each piece of it would cost more than the run;
    // a cold build gains no time from huge ones.
    #[cfg(target_os = "linux")]
    let _ = rustix::thread::disable_transparent_huge_pages(true);
    let args: Vec<_> = std::env::args_os().collect();
    // A process that runs round after round (`watch`, `serve`) hands freed
    // memory back lazily (`MADV_FREE`): the system reclaims it when it
    // needs it, and until then the next round reuses it without a page
    // fault and the kernel clearing it again. A run of one command returns
    // it at once, so that what it holds at its peak stays small.
    let code = match carta::cli::parse(&args) {
        Ok(cli) => {
            if cli.command.runs_until_stopped() {
                // SAFETY: as above, before any other thread exists.
                unsafe { mi_option_set(MI_OPTION_PURGE_DECOMMITS, 0) };
            }
            carta::cli::run(cli)
        }
        Err(code) => code,
    };
    // The kernel takes the whole address space back at exit; mimalloc's
    // exit handler would first hand every freed page back to it, one
    // `madvise` at a time, on the path a re-check's user waits for. The
    // only other exit work, flushing the standard streams, is done here.
    let _ = std::io::stdout().flush();
    let _ = std::io::stderr().flush();
    // SAFETY: `_exit` is always safe to call; nothing is left to run.
    unsafe { _exit(c_int::from(code)) }
}
