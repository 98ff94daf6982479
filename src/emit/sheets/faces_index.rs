//! The faces cache's file (see `reuse`): where the last output holds each
//! card's face and back and each sheet, framed as every cache file is
//! (`crate::cache`: keyed by the program and the game's key, checksummed).
//!
//! An index whose face, back or sheet lies past the output's length is
//! refused whole: a damaged or hostile one cannot make a rebuild read (and
//! allocate) past the output.

use std::hash::BuildHasher;

use serde::{Deserialize, Serialize};

use crate::cache::{frame, hash_of, unframe};

const MAGIC: [u8; 8] = *b"carta-r4";

/// The checksum of a sheet's or a face's bytes: foldhash
/// with a fixed seed (fast on long texts, the same in every run of one
/// build of carta).
pub(super) fn checksum(bytes: &[u8]) -> u64 {
    foldhash::fast::FixedState::with_seed(0).hash_one(bytes)
}

/// 128 bits of hash: two foldhash hashers fed the same input after
/// different seeds.
pub(super) type Key = [u64; 2];

/// The other cards a face read, each with its hash then.
pub(super) type ReadCards = Vec<(String, u64)>;

/// Where one card's face (and, duplex, back) lie in the output.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(super) struct Slot {
    pub(super) key: Key,
    /// Offset and length of the face's HTML.
    pub(super) face: (u64, u32),
    /// Offset and length of the back's HTML, when the sheets print backs.
    pub(super) back: Option<(u64, u32)>,
    /// The checksum of the face and back bytes.
    pub(super) sum: u64,
    /// The other cards the face or back read, each with its hash then.
    pub(super) read: ReadCards,
}

/// Where one sheet (its faces page and, duplex, its backs page) lies in
/// the output.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub(super) struct Part {
    pub(super) key: Key,
    pub(super) at: u64,
    pub(super) len: u64,
    /// The checksum of the sheet's bytes.
    pub(super) sum: u64,
}

/// What the cache file says of the output it describes.
#[derive(Debug, Default, PartialEq, Serialize, Deserialize)]
pub(super) struct Index {
    /// The output's length in bytes.
    pub(super) len: u64,
    pub(super) cards: Vec<Slot>,
    pub(super) sheets: Vec<Part>,
}

impl Index {
    /// The cache file of this index for the game whose key is `game`;
    /// `None` when it cannot be encoded.
    pub(super) fn file(&self, game: Key) -> Option<Vec<u8>> {
        frame(Vec::new(), MAGIC, hash_of(&game), self)
    }

    /// The index of cache file `file`, when it is intact, was written by
    /// this carta for the game whose key is `game`, and every face, back
    /// and sheet it names lies within the output.
    pub(super) fn read(file: &[u8], game: Key) -> Option<Index> {
        let index: Index = unframe(file, MAGIC, hash_of(&game))?;
        let within = |at: u64, len: u64| at.checked_add(len).is_some_and(|end| end <= index.len);
        let spans = |s: &Slot| {
            within(s.face.0, u64::from(s.face.1))
                && s.back.is_none_or(|(at, len)| within(at, u64::from(len)))
        };
        let inside =
            index.cards.iter().all(spans) && index.sheets.iter().all(|p| within(p.at, p.len));
        inside.then_some(index)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn index() -> Index {
        Index {
            len: 1_234_567,
            cards: vec![
                Slot {
                    key: [1, 2],
                    face: (100, 20),
                    back: None,
                    sum: 7,
                    read: Vec::new(),
                },
                Slot {
                    key: [u64::MAX, 0],
                    face: (300, 40),
                    back: Some((900, 41)),
                    sum: 8,
                    read: vec![("Guardião".to_owned(), 9), (String::new(), 10)],
                },
            ],
            sheets: vec![Part {
                key: [3, 4],
                at: 50,
                len: 2_000,
                sum: 11,
            }],
        }
    }

    #[test]
    fn an_index_reads_back_for_its_own_game_intact_and_within_its_output_only() {
        let file = index().file([5, 6]).unwrap();
        assert_eq!(Index::read(&file, [5, 6]), Some(index()));
        assert_eq!(
            Index::read(&Index::default().file([5, 6]).unwrap(), [5, 6]),
            Some(Index::default())
        );
        assert_eq!(Index::read(&file, [5, 7]), None, "another game");
        for at in [0, 10, 30, file.len() - 20, file.len() - 1] {
            let mut bad = file.clone();
            bad[at] ^= 1;
            assert_eq!(Index::read(&bad, [5, 6]), None, "byte {at}");
        }
        for cut in [0, 31, 32, file.len() - 1] {
            assert_eq!(Index::read(&file[..cut], [5, 6]), None, "cut at {cut}");
        }
        // A sheet, a face or a back past the output's end, or at an offset
        // whose end overflows: refused.
        let past = |edit: fn(&mut Index)| {
            let mut index = index();
            edit(&mut index);
            Index::read(&index.file([5, 6]).unwrap(), [5, 6])
        };
        assert_eq!(past(|i| i.sheets[0].len = i.len), None);
        assert_eq!(past(|i| i.cards[0].face.0 = i.len - 19), None);
        assert_eq!(past(|i| i.cards[1].back = Some((u64::MAX, 1))), None);
        let at_end = |i: &mut Index| i.sheets[0].at = i.len - i.sheets[0].len;
        let mut expected = index();
        at_end(&mut expected);
        assert_eq!(past(at_end), Some(expected));
    }
}
