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
    // system; a check of 20,000 cards frees most of what it allocates within
    // its 0.15 s, and the delay held ~13 MiB of it resident at the peak.
    // Returning it after 10 ms (mimalloc 2's default) costs no measurable
    // time (docs/performance.md).
    // SAFETY: sets a plain integer option before any other thread exists.
    unsafe { mi_option_set(MI_OPTION_PURGE_DELAY, 10) };
    // Small pages: a run that repeats a verdict touches a few MB, and a
    // 2 MiB page cleared for each would cost it a tenth of its time; a
    // cold build gains no time from huge ones.
    #[cfg(target_os = "linux")]
    let _ = rustix::thread::disable_transparent_huge_pages(true);
    let args: Vec<_> = std::env::args_os().collect();
    // A process that runs round after round (`watch`, `serve`) hands freed
    // memory back lazily (`MADV_FREE`): the system reclaims it when it
    // needs it, and until then the next round reuses it without a page
    // fault and the kernel clearing it again — a fifth to a third of a
    // round's CPU at 20,000 cards (docs/performance.md). A run of one
    // command returns it at once, so that what it holds at its peak stays
    // small.
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
    // `madvise` at a time (0.3–0.6 ms of a 12 ms re-check). The only other
    // exit work, flushing the standard streams, is done here.
    let _ = std::io::stdout().flush();
    let _ = std::io::stderr().flush();
    // SAFETY: `_exit` is always safe to call; nothing is left to run.
    unsafe { _exit(c_int::from(code)) }
}
