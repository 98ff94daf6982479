//! The content hash of a game's sources.

use std::fmt;

use sha2::{Digest, Sha256};

/// The SHA-256 of a game's source files, independent of where the workspace
/// lies: for each file, sorted by its workspace-relative `/`-separated path,
/// the path's UTF-8 bytes, a 0 byte, the text's length as a little-endian
/// u64, then the text.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct SourceHash(pub [u8; 32]);

impl SourceHash {
    /// The hash of `(path, text)` pairs, in any order (they are sorted by
    /// path; a path given twice counts once).
    pub fn of<'a>(files: impl IntoIterator<Item = (&'a str, &'a str)>) -> Self {
        let sorted: std::collections::BTreeMap<&str, &str> = files.into_iter().collect();
        let mut h = SourceHasher::default();
        for (path, text) in sorted {
            h.add(path, text);
        }
        h.finish()
    }

    /// The hash as 64 lowercase hex digits.
    pub fn to_hex(&self) -> String {
        crate::digest::hex(&self.0)
    }
}

/// A [`SourceHash`] made one file at a time, so that no more than one
/// file's text need be in memory: files must come sorted by path, each
/// path once.
#[derive(Default)]
pub struct SourceHasher(Sha256);

impl SourceHasher {
    /// Adds the next file.
    pub fn add(&mut self, path: &str, text: &str) {
        self.0.update(path.as_bytes());
        self.0.update([0]);
        self.0.update((text.len() as u64).to_le_bytes());
        self.0.update(text.as_bytes());
    }

    /// The hash of the files added.
    pub fn finish(self) -> SourceHash {
        SourceHash(self.0.finalize().into())
    }
}

impl fmt::Display for SourceHash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_hex())
    }
}

impl fmt::Debug for SourceHash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "SourceHash({})", self.to_hex())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hash_ignores_order_and_sees_paths_and_texts() {
        let a = SourceHash::of([("a.toml", "x"), ("b.toml", "y")]);
        assert_eq!(a, SourceHash::of([("b.toml", "y"), ("a.toml", "x")]));
        assert_ne!(a, SourceHash::of([("a.toml", "x"), ("c.toml", "y")]));
        assert_ne!(a, SourceHash::of([("a.toml", "x"), ("b.toml", "z")]));
        // the length prefix keeps path/text boundaries apart
        assert_ne!(SourceHash::of([("a", "bc")]), SourceHash::of([("ab", "c")]));
        assert_eq!(a.to_hex().len(), 64);
    }
}
