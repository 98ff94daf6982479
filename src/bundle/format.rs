//! The fixed-width parts of the format: the header and the section table.
//! `docs/bundle-format.md` is the specification; this file follows it.

use super::error::BundleError;
use super::hash::SourceHash;
use super::numbers::{FORMAT_VERSION, HEADER_LEN, MAGIC};

/// The longest carta version string the header holds.
const VERSION_LEN: usize = 32;

/// A byte range of the payload (offsets count from the payload's first byte).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Section {
    /// Where the section starts, from the start of the payload.
    pub offset: u32,
    /// Its length in bytes.
    pub len: u32,
}

impl Section {
    /// The section's bytes within `payload`, if it lies inside.
    pub(crate) fn slice<'a>(
        self,
        payload: &'a [u8],
        name: &'static str,
    ) -> Result<&'a [u8], BundleError> {
        let start = self.offset as usize;
        start
            .checked_add(self.len as usize)
            .and_then(|end| payload.get(start..end))
            .ok_or_else(|| {
                BundleError::corrupt(
                    name,
                    format!(
                        "section at {}..+{} lies outside the {}-byte payload",
                        self.offset,
                        self.len,
                        payload.len()
                    ),
                )
            })
    }
}

/// The four sections, in the order they are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Sections {
    /// The game manifest (`MessagePack` map).
    pub game: Section,
    /// The example decks (`MessagePack` array).
    pub decks: Section,
    /// The index: card ids in byte order, with the place of each record.
    pub index: Section,
    /// The card records (`MessagePack` maps) in id order, in zlib blocks.
    pub cards: Section,
}

/// The decoded header of a bundle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Header {
    /// The format's major version ([`FORMAT_VERSION`]).
    pub format_version: u16,
    /// The format's minor version ([`FORMAT_MINOR`] when this carta wrote
    /// the file; any value reads).
    pub format_minor: u16,
    /// How many cards the bundle holds.
    pub card_count: u32,
    /// How many decks it holds.
    pub deck_count: u32,
    /// The SHA-256 of the game's source files.
    pub source_hash: SourceHash,
    /// The version of carta that wrote the bundle.
    pub carta_version: String,
    /// The length of the payload (everything after the header).
    pub payload_len: u32,
    /// The CRC-32 of the payload.
    pub payload_crc32: u32,
    /// Where each section lies in the payload.
    pub sections: Sections,
}

impl Header {
    /// Encodes the header, computing its own checksum.
    pub(crate) fn to_bytes(&self) -> [u8; HEADER_LEN] {
        let mut b = [0u8; HEADER_LEN];
        b[0..8].copy_from_slice(&MAGIC);
        b[8..10].copy_from_slice(&self.format_version.to_le_bytes());
        b[10..12].copy_from_slice(&self.format_minor.to_le_bytes());
        b[12..16].copy_from_slice(&self.card_count.to_le_bytes());
        b[16..48].copy_from_slice(&self.source_hash.0);
        let v = self.carta_version.as_bytes();
        let n = v.len().min(VERSION_LEN);
        b[48..48 + n].copy_from_slice(&v[..n]);
        b[80..84].copy_from_slice(&self.payload_len.to_le_bytes());
        b[84..88].copy_from_slice(&self.payload_crc32.to_le_bytes());
        let s = &self.sections;
        for (i, sec) in [s.game, s.decks, s.index, s.cards].iter().enumerate() {
            let at = 88 + 8 * i;
            b[at..at + 4].copy_from_slice(&sec.offset.to_le_bytes());
            b[at + 4..at + 8].copy_from_slice(&sec.len.to_le_bytes());
        }
        b[120..124].copy_from_slice(&self.deck_count.to_le_bytes());
        let crc = crc32fast::hash(&b[..124]);
        b[124..128].copy_from_slice(&crc.to_le_bytes());
        b
    }

    /// Decodes and checks the header at the start of `bytes`: magic, major
    /// version, its own checksum, and the payload length against the file.
    pub(crate) fn parse(bytes: &[u8]) -> Result<Header, BundleError> {
        if bytes.len() < MAGIC.len() || bytes[..MAGIC.len()] != MAGIC {
            return Err(BundleError::NotABundle);
        }
        let Some(b) = bytes.get(..HEADER_LEN) else {
            return Err(BundleError::Truncated {
                expected: HEADER_LEN as u64,
                actual: bytes.len() as u64,
            });
        };
        let format_version = u16_at(b, 8);
        if format_version != FORMAT_VERSION {
            return Err(BundleError::Version {
                found: format_version,
            });
        }
        if crc32fast::hash(&b[..124]) != u32_at(b, 124) {
            return Err(BundleError::HeaderChecksum);
        }
        let header = Header {
            format_version,
            format_minor: u16_at(b, 10),
            card_count: u32_at(b, 12),
            deck_count: u32_at(b, 120),
            source_hash: SourceHash(b[16..48].try_into().expect("32 bytes")),
            carta_version: parse_version(&b[48..80])?,
            payload_len: u32_at(b, 80),
            payload_crc32: u32_at(b, 84),
            sections: Sections {
                game: section_at(b, 88),
                decks: section_at(b, 96),
                index: section_at(b, 104),
                cards: section_at(b, 112),
            },
        };
        let expected = HEADER_LEN as u64 + u64::from(header.payload_len);
        let actual = bytes.len() as u64;
        if actual < expected {
            return Err(BundleError::Truncated { expected, actual });
        }
        if actual > expected {
            return Err(BundleError::TrailingBytes { expected, actual });
        }
        Ok(header)
    }
}

fn parse_version(field: &[u8]) -> Result<String, BundleError> {
    let end = field.iter().position(|&c| c == 0).unwrap_or(field.len());
    if field[end..].iter().any(|&c| c != 0) {
        return Err(BundleError::corrupt(
            "header",
            "the carta version is not NUL-padded",
        ));
    }
    std::str::from_utf8(&field[..end])
        .map(str::to_owned)
        .map_err(|_| BundleError::corrupt("header", "the carta version is not UTF-8"))
}

fn u16_at(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([b[at], b[at + 1]])
}

pub(crate) fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

fn section_at(b: &[u8], at: usize) -> Section {
    Section {
        offset: u32_at(b, at),
        len: u32_at(b, at + 4),
    }
}

/// The longest version string the header can hold.
pub(crate) const fn version_capacity() -> usize {
    VERSION_LEN
}
