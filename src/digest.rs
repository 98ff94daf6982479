//! Short names from content: the SHA-256 of some bytes, as lowercase hex.
//! Art file names, translation source hashes, editor-schema keys, TTS
//! object ids and the bundle's source hash all spell a digest this way.

use sha2::{Digest, Sha256};

/// `bytes` as lowercase hex, two digits a byte.
pub fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write as _;
    let mut out = String::with_capacity(2 * bytes.len());
    for b in bytes {
        let _ = write!(out, "{b:02x}");
    }
    out
}

/// The first `len` bytes of the SHA-256 of `data`, as hex (`2 * len` digits).
pub fn sha256_hex(data: &[u8], len: usize) -> String {
    let digest = Sha256::digest(data);
    hex(&digest[..len.min(digest.len())])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spells_digests_in_lowercase_hex() {
        assert_eq!(hex(&[0, 0x0f, 0xab]), "000fab");
        // SHA-256("abc") starts ba7816bf.
        assert_eq!(sha256_hex(b"abc", 4), "ba7816bf");
        assert_eq!(sha256_hex(b"abc", 64).len(), 64);
    }
}
