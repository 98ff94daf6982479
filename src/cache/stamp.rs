//! A file's stamp: what identifies its contents without reading them.

use std::fs;
use std::time::{SystemTime, UNIX_EPOCH};

/// What identifies a file's contents without reading them: its size,
/// modification and change times and inode. Caches trust it the way make
/// and cargo trust modification times, and only for files not changed in
/// the last second (see [`Stamp::settled`]). The change time is the
/// kernel's own: a tool that sets the modification time back (`touch -d`,
/// `cp -p`, an unpacked archive) still moves it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stamp {
    /// Size in bytes.
    pub len: u64,
    /// Modification time, in nanoseconds since the Unix epoch.
    pub modified: u64,
    /// Status change time, in nanoseconds since the Unix epoch (0 where
    /// there is none).
    pub changed: u64,
    /// The inode (0 where there is none).
    pub inode: u64,
}

impl Stamp {
    /// The stamp of a file's metadata (`None` when it has no time).
    pub fn of(meta: &fs::Metadata) -> Option<Stamp> {
        let modified = meta.modified().ok()?.duration_since(UNIX_EPOCH).ok()?;
        #[cfg(unix)]
        let (inode, changed) = {
            use std::os::unix::fs::MetadataExt;
            let secs = u64::try_from(meta.ctime()).ok()?;
            let nanos = u64::try_from(meta.ctime_nsec()).ok()?;
            (
                meta.ino(),
                secs.checked_mul(1_000_000_000)?.checked_add(nanos)?,
            )
        };
        #[cfg(not(unix))]
        let (inode, changed) = (0, 0);
        Some(Stamp {
            len: meta.len(),
            modified: u64::try_from(modified.as_nanos()).ok()?,
            changed,
            inode,
        })
    }

    /// Whether the file was last modified or changed more than a second
    /// before `now`: an edit within the same clock tick as a check could
    /// leave the stamp unchanged, so a younger stamp is not worth
    /// remembering.
    pub fn settled(&self, now: SystemTime) -> bool {
        let now = now
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| u64::try_from(d.as_nanos()).unwrap_or(u64::MAX));
        self.modified
            .max(self.changed)
            .saturating_add(1_000_000_000)
            < now
    }

    /// The stamp as a cache keeps it.
    pub fn words(&self) -> [u64; 4] {
        [self.len, self.modified, self.changed, self.inode]
    }
}

/// Whether `stamp` is the one kept as `words` ([`settled_stamp`]): never
/// when none was kept (all 0: too fresh to trust).
pub fn same_stamp(words: [u64; 4], stamp: Stamp) -> bool {
    words != [0; 4] && words == stamp.words()
}

/// A stamp as a cache keeps it: all 0 when there is none or it is too
/// fresh to trust.
pub fn settled_stamp(stamp: Option<Stamp>) -> [u64; 4] {
    stamp
        .filter(|s| s.settled(SystemTime::now()))
        .map_or([0; 4], |s| s.words())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn a_stamp_is_settled_a_second_after_its_last_change_either_time() {
        let at = |ns: u64| UNIX_EPOCH + Duration::from_nanos(ns);
        let s = Stamp {
            len: 1,
            modified: 5_000_000_000,
            changed: 7_000_000_000,
            inode: 1,
        };
        assert!(!s.settled(at(7_500_000_000)), "changed half a second ago");
        assert!(s.settled(at(8_000_000_001)));
        assert_eq!(settled_stamp(None), [0; 4]);
        assert!(!same_stamp([0; 4], s), "nothing kept matches nothing");
        assert!(same_stamp(s.words(), s));
        let touched_back = Stamp {
            changed: 9_000_000_000,
            ..s
        };
        assert!(
            !same_stamp(s.words(), touched_back),
            "the change time moves when the modification time is set back"
        );
    }
}
