//! Deck codes: a deck as a short, shareable string, and back.
//!
//! A code is base64url (no padding) of this byte layout — see
//! `docs/deck-codes.md`:
//!
//! ```text
//! version   u8        = 1
//! pool      [u8; 4]   FNV-1a 32 of the game's sorted "id\0kind\n" lines (big-endian)
//! game      varint length, UTF-8 bytes
//! name      varint length, UTF-8 bytes
//! zones     varint count, then per zone (ascending manifest order):
//!   zone    varint index in the manifest's zones
//!   lines   varint count, then per line (ascending card order):
//!     card  varint gap: sorted-id index minus the previous line's (first: the index)
//!     count varint copies (1 or more)
//! ```
//!
//! Varints are unsigned LEB128. Sorting zones and lines makes the code
//! canonical: one deck has one code.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use indexmap::IndexMap;

use crate::link::CardPool;

/// The layout version this build writes and reads.
pub const VERSION: u8 = 1;

/// A deck as a code carries it: game, name, and per zone the cards and counts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CodeDeck {
    /// The game id.
    pub game: String,
    /// The deck's name.
    pub name: String,
    /// Zone id → (card id, copies), in any order.
    pub zones: IndexMap<String, Vec<(String, u32)>>,
}

/// Why a code cannot be made or read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CodeError {
    /// Not base64url, or the bytes end early or run on.
    #[error("this is not a deck code: {0}")]
    Malformed(&'static str),
    /// Made by another layout version.
    #[error("this deck code has layout version {0}; this carta reads version {VERSION}")]
    Version(u8),
    /// Made for another version of the game's cards.
    #[error(
        "this deck code was made for another version of the cards of `{0}` (the card pool differs); ask for a new code"
    )]
    Pool(String),
    /// Names a zone or card the game does not have.
    #[error("the deck names {0}, which the game does not have")]
    Unknown(String),
}

/// The short hash of a card pool that codes carry.
pub fn pool_hash(pool: &CardPool) -> u32 {
    let mut lines: Vec<(&str, &str)> = pool
        .iter()
        .map(|c| (c.id.as_str(), c.kind.as_str()))
        .collect();
    lines.sort_unstable();
    let mut h: u32 = 0x811c_9dc5;
    for (id, kind) in lines {
        for b in id.bytes().chain([0]).chain(kind.bytes()).chain([b'\n']) {
            h ^= u32::from(b);
            h = h.wrapping_mul(0x0100_0193);
        }
    }
    h
}

fn sorted_ids(pool: &CardPool) -> Vec<&str> {
    let mut ids: Vec<&str> = pool.ids().collect();
    ids.sort_unstable();
    ids
}

/// Encodes a deck of a game whose zones (in manifest order) are `zones`.
///
/// # Errors
/// A zone or card the game does not have.
pub fn encode(deck: &CodeDeck, zones: &[String], pool: &CardPool) -> Result<String, CodeError> {
    let ids = sorted_ids(pool);
    let mut out = vec![VERSION];
    out.extend(pool_hash(pool).to_be_bytes());
    put_str(&mut out, &deck.game);
    put_str(&mut out, &deck.name);
    let mut encoded: Vec<(usize, Vec<(usize, u32)>)> = Vec::new();
    for (zone, lines) in &deck.zones {
        let z = zones
            .iter()
            .position(|x| x == zone)
            .ok_or_else(|| CodeError::Unknown(format!("the zone `{zone}`")))?;
        let mut cards = Vec::with_capacity(lines.len());
        for (id, count) in lines {
            let i = ids
                .binary_search(&id.as_str())
                .map_err(|_| CodeError::Unknown(format!("the card `{id}`")))?;
            match cards.iter_mut().find(|(c, _)| *c == i) {
                Some((_, n)) => *n += count,
                None => cards.push((i, *count)),
            }
        }
        cards.sort_unstable();
        match encoded.iter_mut().find(|(x, _)| *x == z) {
            Some((_, existing)) => {
                existing.extend(cards);
                existing.sort_unstable();
            }
            None => encoded.push((z, cards)),
        }
    }
    encoded.retain(|(_, cards)| !cards.is_empty());
    encoded.sort_unstable();
    put_varint(&mut out, encoded.len() as u64);
    for (z, cards) in encoded {
        put_varint(&mut out, z as u64);
        put_varint(&mut out, cards.len() as u64);
        let mut previous = 0;
        for (i, count) in cards {
            put_varint(&mut out, (i - previous) as u64);
            put_varint(&mut out, u64::from(count));
            previous = i;
        }
    }
    Ok(URL_SAFE_NO_PAD.encode(out))
}

/// The game a code is for (read without knowing the game's cards).
///
/// # Errors
/// A malformed code or another layout version.
pub fn game_of(code: &str) -> Result<String, CodeError> {
    let bytes = bytes_of(code)?;
    let mut r = Reader {
        bytes: &bytes,
        at: 5,
    };
    r.string()
}

/// Decodes a code made for this game's card pool.
///
/// # Errors
/// A malformed code, another layout version, another pool, or a zone or
/// card index out of range.
pub fn decode(code: &str, zones: &[String], pool: &CardPool) -> Result<CodeDeck, CodeError> {
    let bytes = bytes_of(code)?;
    let mut r = Reader {
        bytes: &bytes,
        at: 1,
    };
    let hash = u32::from_be_bytes(r.take(4)?.try_into().expect("four bytes"));
    let game = r.string()?;
    if hash != pool_hash(pool) {
        return Err(CodeError::Pool(game));
    }
    let name = r.string()?;
    let ids = sorted_ids(pool);
    let mut out = IndexMap::new();
    let n_zones = r.varint()?;
    let mut last_zone = None;
    for _ in 0..n_zones {
        let z = usize::try_from(r.varint()?)
            .map_err(|_| CodeError::Malformed("a zone index is too large"))?;
        if last_zone.is_some_and(|l| z <= l) {
            return Err(CodeError::Malformed("zones are out of order"));
        }
        last_zone = Some(z);
        let zone = zones
            .get(z)
            .ok_or_else(|| CodeError::Unknown(format!("zone number {z}")))?;
        let n_lines = r.varint()?;
        let mut lines = Vec::new();
        let mut card = 0u64;
        for k in 0..n_lines {
            let gap = r.varint()?;
            if k > 0 && gap == 0 {
                return Err(CodeError::Malformed("a card is listed twice"));
            }
            card = card
                .checked_add(gap)
                .ok_or(CodeError::Malformed("a card index overflows"))?;
            let id = usize::try_from(card)
                .ok()
                .and_then(|i| ids.get(i))
                .ok_or_else(|| CodeError::Unknown(format!("card number {card}")))?;
            let count = r.varint()?;
            let count = u32::try_from(count)
                .ok()
                .filter(|&c| (1..=10_000).contains(&c))
                .ok_or(CodeError::Malformed("a count is out of range"))?;
            lines.push(((*id).to_owned(), count));
        }
        out.insert(zone.clone(), lines);
    }
    if r.at != bytes.len() {
        return Err(CodeError::Malformed("it has bytes after the deck"));
    }
    Ok(CodeDeck {
        game,
        name,
        zones: out,
    })
}

/// The deck file (TOML, CONTRACT format) of a decoded deck.
pub fn to_toml(deck: &CodeDeck) -> String {
    let quote = |s: &str| toml::Value::String(s.to_owned()).to_string();
    let mut out = format!(
        "game = {}\nname = {}\n",
        quote(&deck.game),
        quote(&deck.name)
    );
    for (zone, lines) in &deck.zones {
        out.push_str(&format!("\n[{zone}]\n"));
        for (id, count) in lines {
            out.push_str(&format!("{id} = {count}\n"));
        }
    }
    out
}

fn bytes_of(code: &str) -> Result<Vec<u8>, CodeError> {
    let bytes = URL_SAFE_NO_PAD
        .decode(code.trim())
        .map_err(|_| CodeError::Malformed("it is not base64url text"))?;
    match bytes.first() {
        None => Err(CodeError::Malformed("it is empty")),
        Some(&v) if v != VERSION => Err(CodeError::Version(v)),
        Some(_) if bytes.len() < 5 => Err(CodeError::Malformed("it ends early")),
        Some(_) => Ok(bytes),
    }
}

fn put_varint(out: &mut Vec<u8>, mut n: u64) {
    loop {
        let byte = (n & 0x7f) as u8;
        n >>= 7;
        if n == 0 {
            out.push(byte);
            return;
        }
        out.push(byte | 0x80);
    }
}

fn put_str(out: &mut Vec<u8>, s: &str) {
    put_varint(out, s.len() as u64);
    out.extend(s.as_bytes());
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take(&mut self, n: usize) -> Result<&[u8], CodeError> {
        let end = self
            .at
            .checked_add(n)
            .filter(|&e| e <= self.bytes.len())
            .ok_or(CodeError::Malformed("it ends early"))?;
        let s = &self.bytes[self.at..end];
        self.at = end;
        Ok(s)
    }

    fn varint(&mut self) -> Result<u64, CodeError> {
        let mut n = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.take(1)?[0];
            n |= u64::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                return Ok(n);
            }
        }
        Err(CodeError::Malformed("a number is too long"))
    }

    fn string(&mut self) -> Result<String, CodeError> {
        let len = usize::try_from(self.varint()?)
            .map_err(|_| CodeError::Malformed("a text is too long"))?;
        let bytes = self.take(len)?;
        String::from_utf8(bytes.to_vec()).map_err(|_| CodeError::Malformed("a text is not UTF-8"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn varints_round_trip() {
        for n in [0, 1, 127, 128, 300, u64::from(u32::MAX), u64::MAX] {
            let mut out = Vec::new();
            put_varint(&mut out, n);
            assert_eq!(Reader { bytes: &out, at: 0 }.varint(), Ok(n));
        }
    }

    #[test]
    fn garbage_is_refused_without_panicking() {
        for code in ["", "!!!", "AA", "AQ", "AQAAAAA", "Ag", "AQAAAAD_____Dw"] {
            assert!(decode(code, &[], &CardPool::default()).is_err(), "{code}");
        }
        assert_eq!(game_of("Ag"), Err(CodeError::Version(2)));
    }
}
