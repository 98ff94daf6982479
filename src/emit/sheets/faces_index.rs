//! The faces cache's file (see `reuse`): where the last output holds each
//! card's face and back and each sheet.
//!
//! ```text
//! magic    8 bytes  "carta-r3"
//! game     16 bytes the game's key
//! index             (below)
//! length   u64 LE   of the index
//! checksum u64 LE   of the index
//! magic    8 bytes  "carta-r3"
//! ```
//!
//! The index is fixed-width little-endian fields, so that 20,000 cards'
//! entries are read and written in a pass each (through `rmp_serde` they
//! were a tenth of a rebuild's sheets):
//!
//! ```text
//! len      u64      the output's length
//! cards    u32      how many card entries follow, then each:
//!   key      2 × u64
//!   face     u64, u32   offset and length
//!   backed   u8         1 when a back follows, else 0
//!   back     u64, u32   offset and length (present when backed)
//!   sum      u64
//!   read     u32        how many cards the face read, then each:
//!     id       u32 length, UTF-8 bytes
//!     hash     u64
//! sheets   u32      how many sheet entries follow, then each:
//!   key      2 × u64
//!   at, len  2 × u64
//!   sum      u64
//! ```
//!
//! Nothing may follow the last entry; any other length, count or string,
//! or a face, back or sheet that lies past the output's length, refuses
//! the whole body.

use std::hash::BuildHasher;

const MAGIC: &[u8; 8] = b"carta-r3";
const HEADER: usize = 24;
const FOOTER: usize = 24;

/// The checksum of the index and of a sheet's bytes: foldhash
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
#[derive(Debug, Clone, PartialEq)]
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
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Part {
    pub(super) key: Key,
    pub(super) at: u64,
    pub(super) len: u64,
    /// The checksum of the sheet's bytes.
    pub(super) sum: u64,
}

/// What the cache file says of the output it describes.
#[derive(Debug, Default, PartialEq)]
pub(super) struct Index {
    /// The output's length in bytes.
    pub(super) len: u64,
    pub(super) cards: Vec<Slot>,
    pub(super) sheets: Vec<Part>,
}

impl Index {
    /// The cache file of this index for the game whose key is `game`;
    /// `None` when it cannot be encoded. The body is encoded in place,
    /// after the header: at 100,000 cards it is 13 MiB, held once.
    pub(super) fn file(&self, game: Key) -> Option<Vec<u8>> {
        let mut file = Vec::with_capacity(
            HEADER + 16 + self.cards.len() * 60 + self.sheets.len() * 40 + FOOTER,
        );
        file.extend_from_slice(MAGIC);
        for word in game {
            file.extend_from_slice(&word.to_le_bytes());
        }
        self.encode(&mut file)?;
        let body = &file[HEADER..];
        let footer = [
            (body.len() as u64).to_le_bytes(),
            checksum(body).to_le_bytes(),
        ];
        file.extend_from_slice(footer.as_flattened());
        file.extend_from_slice(MAGIC);
        Some(file)
    }

    /// The index of cache file `file`, when it is intact and was written
    /// for the game whose key is `game`.
    pub(super) fn read(file: &[u8], game: Key) -> Option<Index> {
        let body = file.get(HEADER..file.len().checked_sub(FOOTER)?)?;
        let (header, footer) = (&file[..HEADER], &file[file.len() - FOOTER..]);
        let word =
            |b: &[u8], at: usize| u64::from_le_bytes(b[at..at + 8].try_into().expect("8 bytes"));
        let same_game = word(header, 8) == game[0] && word(header, 16) == game[1];
        let intact = &header[..8] == MAGIC
            && &footer[16..] == MAGIC
            && word(footer, 0) == body.len() as u64
            && checksum(body) == word(footer, 8);
        if !(same_game && intact) {
            return None;
        }
        Index::decode(body)
    }

    /// Appends the body that [`Index::decode`] reads back to `out`;
    /// `None` when a count or a length does not fit its field.
    fn encode(&self, out: &mut Vec<u8>) -> Option<()> {
        let count = |n: usize| u32::try_from(n).ok().map(u32::to_le_bytes);
        out.extend_from_slice(&self.len.to_le_bytes());
        out.extend_from_slice(&count(self.cards.len())?);
        for slot in &self.cards {
            key(out, slot.key);
            span(out, slot.face);
            match slot.back {
                Some(back) => {
                    out.push(1);
                    span(out, back);
                }
                None => out.push(0),
            }
            out.extend_from_slice(&slot.sum.to_le_bytes());
            out.extend_from_slice(&count(slot.read.len())?);
            for (id, hash) in &slot.read {
                out.extend_from_slice(&count(id.len())?);
                out.extend_from_slice(id.as_bytes());
                out.extend_from_slice(&hash.to_le_bytes());
            }
        }
        out.extend_from_slice(&count(self.sheets.len())?);
        for part in &self.sheets {
            key(out, part.key);
            for word in [part.at, part.len, part.sum] {
                out.extend_from_slice(&word.to_le_bytes());
            }
        }
        Some(())
    }

    /// The index `body` holds, when it is exactly one.
    fn decode(body: &[u8]) -> Option<Index> {
        let mut r = Reader(body);
        let len = r.u64()?;
        // Each entry takes at least this many bytes: a count larger than
        // the body could hold is refused before anything is allocated.
        let cards = r.count(41)?;
        let mut index = Index {
            len,
            cards: Vec::with_capacity(cards),
            sheets: Vec::new(),
        };
        for _ in 0..cards {
            let key = r.key()?;
            let face = r.span()?;
            let back = match r.take(1)?[0] {
                0 => None,
                1 => Some(r.span()?),
                _ => return None,
            };
            let sum = r.u64()?;
            let reads = r.count(12)?;
            let mut read = Vec::with_capacity(reads);
            for _ in 0..reads {
                let n = r.count(1)?;
                let id = std::str::from_utf8(r.take(n)?).ok()?.to_owned();
                read.push((id, r.u64()?));
            }
            index.cards.push(Slot {
                key,
                face,
                back,
                sum,
                read,
            });
        }
        let sheets = r.count(40)?;
        index.sheets.reserve_exact(sheets);
        for _ in 0..sheets {
            let key = r.key()?;
            let (at, len, sum) = (r.u64()?, r.u64()?, r.u64()?);
            index.sheets.push(Part { key, at, len, sum });
        }
        // Every face, back and sheet lies within the output: a hostile or
        // damaged index cannot have a rebuild read (and allocate) past it.
        let within = |at: u64, len: u64| at.checked_add(len).is_some_and(|end| end <= index.len);
        let spans = |s: &Slot| {
            within(s.face.0, u64::from(s.face.1))
                && s.back.is_none_or(|(at, len)| within(at, u64::from(len)))
        };
        let inside =
            index.cards.iter().all(spans) && index.sheets.iter().all(|p| within(p.at, p.len));
        (r.0.is_empty() && inside).then_some(index)
    }
}

fn key(out: &mut Vec<u8>, key: Key) {
    out.extend_from_slice(&key[0].to_le_bytes());
    out.extend_from_slice(&key[1].to_le_bytes());
}

fn span(out: &mut Vec<u8>, (at, len): (u64, u32)) {
    out.extend_from_slice(&at.to_le_bytes());
    out.extend_from_slice(&len.to_le_bytes());
}

/// What is left of a body being decoded.
struct Reader<'b>(&'b [u8]);

impl<'b> Reader<'b> {
    fn take(&mut self, n: usize) -> Option<&'b [u8]> {
        let (head, rest) = self.0.split_at_checked(n)?;
        self.0 = rest;
        Some(head)
    }

    fn u32(&mut self) -> Option<u32> {
        Some(u32::from_le_bytes(self.take(4)?.try_into().ok()?))
    }

    fn u64(&mut self) -> Option<u64> {
        Some(u64::from_le_bytes(self.take(8)?.try_into().ok()?))
    }

    fn key(&mut self) -> Option<Key> {
        Some([self.u64()?, self.u64()?])
    }

    fn span(&mut self) -> Option<(u64, u32)> {
        Some((self.u64()?, self.u32()?))
    }

    /// A count of items of at least `each` bytes, when what is left could
    /// hold them.
    fn count(&mut self, each: usize) -> Option<usize> {
        let n = usize::try_from(self.u32()?).ok()?;
        (n.checked_mul(each)? <= self.0.len()).then_some(n)
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

    fn body_of(index: &Index) -> Vec<u8> {
        let mut body = Vec::new();
        index.encode(&mut body).unwrap();
        body
    }

    #[test]
    fn an_index_reads_back_as_written_and_nothing_else_is_read() {
        let body = body_of(&index());
        assert_eq!(Index::decode(&body), Some(index()));
        assert_eq!(
            Index::decode(&body_of(&Index::default())),
            Some(Index::default())
        );
        // Cut anywhere, or followed by a byte: refused.
        for cut in 0..body.len() {
            assert_eq!(Index::decode(&body[..cut]), None, "cut at {cut}");
        }
        let mut longer = body.clone();
        longer.push(0);
        assert_eq!(Index::decode(&longer), None);
        // A back flag other than 0 or 1, an id that is not UTF-8, a count
        // larger than the body: refused.
        let flag = 8 + 4 + 16 + 12;
        let mut bad = body.clone();
        bad[flag] = 2;
        assert_eq!(Index::decode(&bad), None);
        let at = body.windows(3).position(|w| w == "ão".as_bytes()).unwrap();
        let mut bad = body.clone();
        bad[at] = 0xff;
        assert_eq!(Index::decode(&bad), None);
        let mut bad = body;
        bad[8..12].copy_from_slice(&u32::MAX.to_le_bytes());
        assert_eq!(Index::decode(&bad), None);
        // A sheet, a face or a back past the output's end, or at an offset
        // whose end overflows: refused.
        let past = |edit: fn(&mut Index)| {
            let mut index = index();
            edit(&mut index);
            Index::decode(&body_of(&index))
        };
        assert_eq!(past(|i| i.sheets[0].len = i.len), None);
        assert_eq!(past(|i| i.cards[0].face.0 = i.len - 19), None);
        assert_eq!(past(|i| i.cards[1].back = Some((u64::MAX, 1))), None);
        assert_eq!(
            past(|i| i.sheets[0].at = i.len - i.sheets[0].len),
            Some({
                let mut index = index();
                index.sheets[0].at = index.len - index.sheets[0].len;
                index
            })
        );
    }

    #[test]
    fn a_cache_file_is_read_for_its_own_game_and_intact_only() {
        let file = index().file([5, 6]).unwrap();
        assert_eq!(Index::read(&file, [5, 6]), Some(index()));
        assert_eq!(Index::read(&file, [5, 7]), None, "another game");
        for at in [0, 30, file.len() - 20, file.len() - 1] {
            let mut bad = file.clone();
            bad[at] ^= 1;
            assert_eq!(Index::read(&bad, [5, 6]), None, "byte {at}");
        }
        assert_eq!(Index::read(&file[..file.len() - 1], [5, 6]), None);
    }
}
