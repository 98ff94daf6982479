//! The one layout of every cache file: a header, then one `MessagePack`
//! value.
//!
//! ```text
//! magic     8 bytes  what the file is ("carta-v6" a record, …)
//! program   u64 LE   the running carta's key (`cache::program`)
//! key       u64 LE   what else the value was made from (the cache's own)
//! checksum  u64 LE   CRC-32 of the payload, against damage
//! payload            `MessagePack`: the value
//! ```

use serde::Serialize;
use serde::de::{Deserialize, DeserializeOwned};

use super::{Key, MAX_FILE, program};
use crate::write::Folder;

const HEADER: usize = 32;

/// `value` framed under `magic` and `key` into `bytes` (emptied first; a
/// buffer of about the right size spares its growth). `None` when the
/// program cannot be identified or the value does not serialize.
pub fn frame<T: Serialize + ?Sized>(
    mut bytes: Vec<u8>,
    magic: [u8; 8],
    key: Key,
    value: &T,
) -> Option<Vec<u8>> {
    let program = program()?;
    bytes.clear();
    bytes.extend(&magic);
    for word in [program, key, 0] {
        bytes.extend(word.to_le_bytes());
    }
    // The payload is written after the header, whose checksum is filled
    // in last: one buffer, not the payload copied into a second.
    rmp_serde::encode::write(&mut bytes, value).ok()?;
    let sum = checksum(&bytes[HEADER..]);
    bytes[24..HEADER].copy_from_slice(&sum.to_le_bytes());
    Some(bytes)
}

/// The key and payload framed in `bytes` under `magic` by this program,
/// if intact.
pub fn framed(bytes: &[u8], magic: [u8; 8]) -> Option<(Key, &[u8])> {
    let (header, payload) = bytes.split_at_checked(HEADER)?;
    let word = |at: usize| u64::from_le_bytes(header[at..at + 8].try_into().expect("8 bytes"));
    (header[..8] == magic && Some(word(8)) == program() && word(24) == checksum(payload))
        .then(|| (word(16), payload))
}

/// The value framed in `bytes` under `magic` and `key` by this program, if
/// intact and of type `T`.
pub fn unframe<'a, T: Deserialize<'a>>(bytes: &'a [u8], magic: [u8; 8], key: Key) -> Option<T> {
    let (found, payload) = framed(bytes, magic)?;
    (found == key).then(|| rmp_serde::from_slice(payload).ok())?
}

/// A cache file read before its key is known (the key is worked out
/// beside the read): its key and value.
pub struct Framed<T> {
    /// The key it was written under.
    pub key: Key,
    /// Its value.
    pub value: T,
}

impl<T> Framed<T> {
    /// The value, if it was written under `key`.
    pub fn under(self, key: Key) -> Option<T> {
        (self.key == key).then_some(self.value)
    }
}

/// File `name` of `folder`, framed under `magic` by this program, whatever
/// its key (a link, FIFO or device there is not read).
pub fn read_framed<T: DeserializeOwned>(
    folder: &Folder,
    name: &str,
    magic: [u8; 8],
) -> Option<Framed<T>> {
    let bytes = folder.read(name, MAX_FILE)?;
    let (key, payload) = framed(&bytes, magic)?;
    let value = rmp_serde::from_slice(payload).ok()?;
    Some(Framed { key, value })
}

/// Writes `value` framed under `magic` and `key` into file `name` of
/// `folder`, replacing it without following a link there; says whether it
/// did (a cache file that cannot be written is only missed by the next
/// run).
pub fn write_framed<T: Serialize + ?Sized>(
    folder: &Folder,
    name: &str,
    magic: [u8; 8],
    key: Key,
    value: &T,
) -> bool {
    frame(buffer_for(folder, name), magic, key, value)
        .is_some_and(|bytes| folder.replace(name, &bytes).is_ok())
}

/// The checksum of a payload: its CRC-32.
fn checksum(payload: &[u8]) -> u64 {
    u64::from(crc32fast::hash(payload))
}

/// An empty buffer for the bytes that will replace file `name` of
/// `folder`, of about the size they end at: that of the file, as a cache
/// written after each run changes little.
fn buffer_for(folder: &Folder, name: &str) -> Vec<u8> {
    let like = folder.file_len(name).and_then(|n| usize::try_from(n).ok());
    let like = like.unwrap_or(0);
    Vec::with_capacity((like + like / 16).max(64 << 10))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_frame_reads_back_only_with_its_magic_key_and_bytes_intact() {
        let value = vec![("a".to_owned(), 1u64), ("b".to_owned(), 2)];
        let bytes = frame(Vec::new(), *b"carta-t1", 7, &value).unwrap();
        let back: Vec<(String, u64)> = unframe(&bytes, *b"carta-t1", 7).unwrap();
        assert_eq!(back, value);
        assert!(unframe::<Vec<(String, u64)>>(&bytes, *b"carta-t2", 7).is_none());
        assert!(unframe::<Vec<(String, u64)>>(&bytes, *b"carta-t1", 8).is_none());
        for at in [0, 9, 17, 25, bytes.len() - 1] {
            let mut damaged = bytes.clone();
            damaged[at] ^= 1;
            assert!(
                unframe::<Vec<(String, u64)>>(&damaged, *b"carta-t1", 7).is_none(),
                "byte {at} flipped"
            );
        }
        assert!(
            unframe::<Vec<(String, u64)>>(&bytes[..bytes.len() - 1], *b"carta-t1", 7).is_none()
        );
        assert!(unframe::<Vec<(String, u64)>>(&bytes[..20], *b"carta-t1", 7).is_none());
        let reused = frame(Vec::with_capacity(3), *b"carta-t1", 7, &value).unwrap();
        assert_eq!(reused, bytes, "the buffer's size changes nothing");
    }
}
