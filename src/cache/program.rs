//! The identity of the running carta, which keys every cache.
//!
//! A version string says nothing of the code behind it (carta's stayed
//! `0.1.0` through hundreds of commits), so a cache keyed by it repeats an
//! older build's verdicts after an upgrade. The executable's file is what
//! changes with every build and every install: its device, inode, size,
//! modification and change times. The change time cannot be set back by
//! any tool, and a binary rebuilt, copied or patched in place gets a new
//! one. It is read once, from the file the process runs (`/proc/self/exe`
//! on Linux, which stays the running file even after an install replaced
//! the path), so a process never writes caches under another build's key.

use std::sync::OnceLock;

/// The environment variable whose value is mixed into every cache key:
/// tests set it to stand for a rebuilt binary, and a user may set it to
/// keep caches apart.
pub(crate) const SALT: &str = "CARTA_CACHE_SALT";

/// The key of the running program (`None` when its executable cannot be
/// identified: then no cache is trusted or written).
pub fn program() -> Option<u64> {
    static KEY: OnceLock<Option<u64>> = OnceLock::new();
    *KEY.get_or_init(|| {
        let key = identity().map(|exe| {
            let salt = std::env::var_os(SALT);
            super::hash_of(&(env!("CARGO_PKG_VERSION"), exe, salt))
        });
        if key.is_none() {
            tracing::debug!("no cache: the running executable cannot be identified");
        }
        key
    })
}

/// The running executable's device, and its stamp: inode, size, and
/// modification and change times.
fn identity() -> Option<(u64, [u64; 4])> {
    #[cfg(target_os = "linux")]
    let meta = std::fs::metadata("/proc/self/exe");
    #[cfg(not(target_os = "linux"))]
    let meta = std::env::current_exe().and_then(std::fs::metadata);
    let meta = meta.ok()?;
    #[cfg(unix)]
    let device = std::os::unix::fs::MetadataExt::dev(&meta);
    // Without a change time the executable cannot be told from a copy.
    #[cfg(not(unix))]
    return None;
    #[cfg(unix)]
    Some((device, super::Stamp::of(&meta)?.words()))
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_running_program_has_a_key_and_keeps_it() {
        let key = super::program();
        assert!(key.is_some(), "a test binary can be identified");
        assert_eq!(super::program(), key);
    }
}
