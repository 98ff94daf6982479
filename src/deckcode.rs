//! Deck codes: a deck as a short, shareable string, and back.
//!
//! A code is base64url (no padding) of this byte layout — see
//! `docs/deck-codes.md`, which is the specification:
//!
//! ```text
//! version   u8        = 1 (no format) or 2 (with a format)
//! pool      [u8; 4]   FNV-1a 32 of the game's sorted "id\0kind\n" lines (big-endian)
//! game      varint length, UTF-8 bytes
//! name      varint length, UTF-8 bytes
//! format    (version 2 only) varint length (1 or more), UTF-8 bytes
//! zones     varint count, then per zone (ascending manifest order):
//!   zone    varint index in the manifest's zones
//!   lines   varint count (1 or more), then per line (ascending card order):
//!     card  varint gap: sorted-id index minus the previous line's (first: the index)
//!     count varint copies (1 to 10,000)
//! ```
//!
//! Varints are unsigned LEB128 in their shortest form, at most 5 bytes.
//! A deck has exactly one code: the encoder sorts and merges, and the
//! decoder refuses every other spelling of the same deck.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use indexmap::IndexMap;

use crate::config::Manifest;
use crate::link::CardPool;

/// The layout version of a code without a format.
pub const VERSION: u8 = 1;

/// The layout version of a code with a format (the format follows the name).
pub const VERSION_WITH_FORMAT: u8 = 2;

/// The most copies of one card a line may hold.
pub const MAX_COUNT: u32 = 10_000;

/// The longest deck name, in characters. One bound for every place a
/// deck comes from — a deck file, a code, a text list, the deck builder —
/// so that a deck one of them takes, every other (and the printed
/// decklist) takes too.
pub const MAX_NAME: usize = 200;

/// The largest value a varint may hold (it then takes 5 bytes).
const MAX_VARINT: u64 = u32::MAX as u64;

/// A deck as a code carries it: game, name, format, and per zone the cards
/// and counts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CodeDeck {
    /// The game id.
    pub game: String,
    /// The deck's name.
    pub name: String,
    /// The format the deck is built for (a `[formats.<id>]` of the game's
    /// manifest), if it names one.
    pub format: Option<String>,
    /// Zone id → (card id, copies), in any order.
    pub zones: IndexMap<String, Vec<(String, u32)>>,
}

/// Why a code cannot be made or read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CodeError {
    /// Not base64url, or the bytes end early or run on.
    #[error("this is not a deck code: {0}")]
    Malformed(&'static str),
    /// Another spelling of a deck whose code is different: one deck has
    /// one code.
    #[error("this is not a deck code as carta writes it: {0}")]
    NotCanonical(&'static str),
    /// Made by another layout version.
    #[error(
        "this deck code has layout version {0}; this carta reads versions {VERSION} and {VERSION_WITH_FORMAT}"
    )]
    Version(u8),
    /// Made for a game the workspace does not have.
    #[error("this deck code is for the game `{0}`, which is not in this workspace")]
    UnknownGame(String),
    /// Made for another version of the game's cards.
    #[error(
        "this deck code was made for another version of the cards of `{0}` (the card pool differs); ask for a new code"
    )]
    Pool(String),
    /// Names a zone or card the game does not have.
    #[error("the deck names {0}, which the game does not have")]
    Unknown(String),
    /// Puts a card in a zone that does not take its kind.
    #[error(
        "the deck puts `{card}` (of kind `{kind}`) in the zone `{zone}`, which does not take that kind"
    )]
    ZoneKind {
        /// The card.
        card: String,
        /// Its kind.
        kind: String,
        /// The zone.
        zone: String,
    },
    /// A line with no copies or more than [`MAX_COUNT`].
    #[error("the deck has {count} copies of `{card}`; a code holds 1 to {MAX_COUNT}")]
    Count {
        /// The card.
        card: String,
        /// Its copies (after merging the lines that name it).
        count: u64,
    },
    /// A format that is empty.
    #[error("the deck's format is empty")]
    EmptyFormat,
    /// A name longer than [`MAX_NAME`] characters.
    #[error("the deck's name is longer than {MAX_NAME} characters")]
    NameTooLong,
}

/// The short hash of a card pool that codes carry.
pub fn pool_hash(pool: &CardPool) -> u32 {
    hash_cards(pool.iter().map(|c| (c.id.as_str(), c.kind.as_str())))
}

/// The pool hash of cards given as `(id, kind)`, in any order (a game
/// client takes them from a bundle's records): FNV-1a 32 over the bytes
/// `id`, `0x00`, `kind`, `0x0A` of every card, sorted by id bytewise.
pub fn hash_cards<'a>(cards: impl IntoIterator<Item = (&'a str, &'a str)>) -> u32 {
    let mut lines: Vec<(&str, &str)> = cards.into_iter().collect();
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

/// What codes need of a card pool, worked out once for the many codes of
/// one pool (the deck builder answers every verdict with a code; sorting
/// and hashing a pool of 20,000 cards for each would cost more than
/// judging the deck): its cards in the order of their ids (a card's number
/// in a code) and its pool hash. Good only for the pool it was made from.
#[derive(Debug, Clone)]
pub struct PoolIndex {
    /// Pool positions, by id bytewise.
    sorted: Vec<usize>,
    hash: u32,
}

impl PoolIndex {
    /// The index of `pool`.
    pub fn new(pool: &CardPool) -> Self {
        let mut sorted: Vec<usize> = (0..pool.len()).collect();
        sorted.sort_unstable_by(|&a, &b| pool.card(a).id.cmp(&pool.card(b).id));
        PoolIndex {
            sorted,
            hash: pool_hash(pool),
        }
    }

    /// The card's number in codes: its id's rank.
    fn number(&self, pool: &CardPool, id: &str) -> Option<usize> {
        self.sorted
            .binary_search_by(|&c| pool.card(c).id.as_str().cmp(id))
            .ok()
    }

    /// The id of card number `i`.
    fn id<'p>(&self, pool: &'p CardPool, i: usize) -> Option<&'p str> {
        self.sorted.get(i).map(|&c| pool.card(c).id.as_str())
    }
}

/// Checks that `card` may stand in zone `zone` of `manifest`.
fn check_zone_kind(
    manifest: &Manifest,
    pool: &CardPool,
    zone: &str,
    card: &str,
) -> Result<(), CodeError> {
    let kind = pool.get(card).map(|c| c.kind.as_str()).unwrap_or_default();
    let takes = manifest
        .zones
        .get(zone)
        .is_some_and(|z| z.kinds.iter().any(|k| k == kind));
    if takes {
        Ok(())
    } else {
        Err(CodeError::ZoneKind {
            card: card.to_owned(),
            kind: kind.to_owned(),
            zone: zone.to_owned(),
        })
    }
}

/// Encodes a deck of the game whose manifest is `manifest` and whose cards
/// are `pool`. Lines naming the same card in the same zone are merged;
/// zones and lines are sorted; empty zones are left out.
///
/// # Errors
/// A zone or card the game does not have, a card in a zone that does not
/// take its kind, a card with more than [`MAX_COUNT`] copies (or none), an
/// empty format, a name longer than [`MAX_NAME`] characters.
pub fn encode(deck: &CodeDeck, manifest: &Manifest, pool: &CardPool) -> Result<String, CodeError> {
    encode_in(deck, manifest, pool, &PoolIndex::new(pool))
}

/// [`encode`], with the pool's [`PoolIndex`] made already.
///
/// # Errors
/// As [`encode`].
pub fn encode_in(
    deck: &CodeDeck,
    manifest: &Manifest,
    pool: &CardPool,
    index: &PoolIndex,
) -> Result<String, CodeError> {
    let mut zones: Vec<(usize, Vec<(usize, u64)>)> = Vec::new();
    for (zone, lines) in &deck.zones {
        let z = manifest
            .zones
            .get_index_of(zone)
            .ok_or_else(|| CodeError::Unknown(format!("the zone `{zone}`")))?;
        let at = if let Some(at) = zones.iter().position(|(x, _)| *x == z) {
            at
        } else {
            zones.push((z, Vec::new()));
            zones.len() - 1
        };
        for (id, count) in lines {
            let i = index
                .number(pool, id)
                .ok_or_else(|| CodeError::Unknown(format!("the card `{id}`")))?;
            check_zone_kind(manifest, pool, zone, id)?;
            let cards = &mut zones[at].1;
            match cards.iter_mut().find(|(c, _)| *c == i) {
                Some((_, n)) => *n += u64::from(*count),
                None => cards.push((i, u64::from(*count))),
            }
        }
    }
    let mut out = vec![if deck.format.is_some() {
        VERSION_WITH_FORMAT
    } else {
        VERSION
    }];
    out.extend(index.hash.to_be_bytes());
    put_str(&mut out, &deck.game);
    put_str(&mut out, checked_name(&deck.name)?);
    if let Some(format) = &deck.format {
        if format.is_empty() {
            return Err(CodeError::EmptyFormat);
        }
        put_str(&mut out, format);
    }
    zones.retain(|(_, cards)| !cards.is_empty());
    zones.sort_unstable();
    put_varint(&mut out, zones.len() as u64);
    for (z, mut cards) in zones {
        cards.sort_unstable();
        put_varint(&mut out, z as u64);
        put_varint(&mut out, cards.len() as u64);
        let mut previous = 0;
        for (i, count) in cards {
            if !(1..=u64::from(MAX_COUNT)).contains(&count) {
                return Err(CodeError::Count {
                    card: index.id(pool, i).unwrap_or_default().to_owned(),
                    count,
                });
            }
            put_varint(&mut out, (i - previous) as u64);
            put_varint(&mut out, count);
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

/// Decodes a code made for the game whose manifest is `manifest` and whose
/// cards are `pool`. Only the one code carta writes for a deck decodes:
/// any other spelling of it is refused.
///
/// # Errors
/// A malformed or non-canonical code, another layout version, another
/// pool, a zone or card index out of range, a card in a zone that does not
/// take its kind.
pub fn decode(code: &str, manifest: &Manifest, pool: &CardPool) -> Result<CodeDeck, CodeError> {
    decode_in(code, manifest, pool, &PoolIndex::new(pool))
}

/// [`decode`], with the pool's [`PoolIndex`] made already.
///
/// # Errors
/// As [`decode`].
pub fn decode_in(
    code: &str,
    manifest: &Manifest,
    pool: &CardPool,
    index: &PoolIndex,
) -> Result<CodeDeck, CodeError> {
    let bytes = bytes_of(code)?;
    let mut r = Reader {
        bytes: &bytes,
        at: 1,
    };
    let hash = u32::from_be_bytes(r.take(4)?.try_into().expect("four bytes"));
    let game = r.string()?;
    if hash != index.hash {
        return Err(CodeError::Pool(game));
    }
    let name = r.string()?;
    checked_name(&name)?;
    let format = if bytes[0] == VERSION_WITH_FORMAT {
        let format = r.string()?;
        if format.is_empty() {
            return Err(CodeError::NotCanonical(
                "its format is empty (a deck without a format has a version 1 code)",
            ));
        }
        Some(format)
    } else {
        None
    };
    let mut zones = IndexMap::new();
    let n_zones = r.varint()?;
    let mut last_zone = None;
    for _ in 0..n_zones {
        let z = r.varint()? as usize;
        if last_zone.is_some_and(|l| z <= l) {
            return Err(CodeError::NotCanonical("its zones are out of order"));
        }
        last_zone = Some(z);
        let (zone, _) = manifest
            .zones
            .get_index(z)
            .ok_or_else(|| CodeError::Unknown(format!("zone number {z}")))?;
        let lines = read_lines(&mut r, manifest, pool, index, zone)?;
        zones.insert(zone.clone(), lines);
    }
    if r.at != bytes.len() {
        return Err(CodeError::Malformed("it has bytes after the deck"));
    }
    Ok(CodeDeck {
        game,
        name,
        format,
        zones,
    })
}

/// `name`, when it is at most [`MAX_NAME`] characters long.
fn checked_name(name: &str) -> Result<&str, CodeError> {
    if name.chars().count() > MAX_NAME {
        return Err(CodeError::NameTooLong);
    }
    Ok(name)
}

/// One zone's lines of a code: `(card id, copies)` in card order.
fn read_lines(
    r: &mut Reader<'_>,
    manifest: &Manifest,
    pool: &CardPool,
    index: &PoolIndex,
    zone: &str,
) -> Result<Vec<(String, u32)>, CodeError> {
    let n_lines = r.varint()?;
    if n_lines == 0 {
        return Err(CodeError::NotCanonical("it lists an empty zone"));
    }
    let mut lines = Vec::new();
    let mut card = 0usize;
    for k in 0..n_lines {
        let gap = r.varint()? as usize;
        if k > 0 && gap == 0 {
            return Err(CodeError::NotCanonical("it lists a card twice in a zone"));
        }
        card = card
            .checked_add(gap)
            .ok_or(CodeError::Malformed("a card index overflows"))?;
        let id = index
            .id(pool, card)
            .ok_or_else(|| CodeError::Unknown(format!("card number {card}")))?;
        check_zone_kind(manifest, pool, zone, id)?;
        let count = r.varint()?;
        let count = u32::try_from(count)
            .ok()
            .filter(|c| (1..=MAX_COUNT).contains(c))
            .ok_or_else(|| CodeError::Count {
                card: id.to_owned(),
                count,
            })?;
        lines.push((id.to_owned(), count));
    }
    Ok(lines)
}

/// The deck file of a decoded deck: `game`, `name`, `format` (when the
/// code has one), then one table per zone with one `card = copies` line
/// per card, in the code's order.
pub fn to_toml(deck: &CodeDeck) -> String {
    let quote = |s: &str| toml::Value::String(s.to_owned()).to_string();
    let mut out = format!(
        "game = {}\nname = {}\n",
        quote(&deck.game),
        quote(&deck.name)
    );
    if let Some(format) = &deck.format {
        out.push_str(&format!("format = {}\n", quote(format)));
    }
    for (zone, lines) in &deck.zones {
        out.push_str(&format!("\n[{zone}]\n"));
        for (id, count) in lines {
            out.push_str(&format!("{id} = {count}\n"));
        }
    }
    out
}

/// The bytes of a code: base64url without padding, the canonical spelling
/// only (no spaces around it, unused trailing bits zero), a known version.
fn bytes_of(code: &str) -> Result<Vec<u8>, CodeError> {
    if code.trim() != code {
        return Err(CodeError::NotCanonical(
            "it has spaces or line breaks around it",
        ));
    }
    let bytes = URL_SAFE_NO_PAD
        .decode(code)
        .map_err(|_| CodeError::Malformed("it is not base64url text without padding"))?;
    match bytes.first() {
        None => Err(CodeError::Malformed("it is empty")),
        Some(&v) if v != VERSION && v != VERSION_WITH_FORMAT => Err(CodeError::Version(v)),
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

    /// A varint in its shortest form, at most 5 bytes, at most `u32::MAX`.
    fn varint(&mut self) -> Result<u64, CodeError> {
        let mut n = 0u64;
        for k in 0..5 {
            let b = self.take(1)?[0];
            n |= u64::from(b & 0x7f) << (7 * k);
            if b & 0x80 == 0 {
                if k > 0 && b == 0 {
                    return Err(CodeError::NotCanonical(
                        "a number is written with more bytes than it needs",
                    ));
                }
                if n > MAX_VARINT {
                    return Err(CodeError::Malformed("a number is too large"));
                }
                return Ok(n);
            }
        }
        Err(CodeError::Malformed("a number is too long"))
    }

    fn string(&mut self) -> Result<String, CodeError> {
        let len = self.varint()? as usize;
        let bytes = self.take(len)?;
        String::from_utf8(bytes.to_vec()).map_err(|_| CodeError::Malformed("a text is not UTF-8"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn varints_round_trip_in_their_shortest_form_only() {
        for n in [0, 1, 127, 128, 300, MAX_VARINT] {
            let mut out = Vec::new();
            put_varint(&mut out, n);
            assert_eq!(Reader { bytes: &out, at: 0 }.varint(), Ok(n));
        }
        // 1 written in two bytes, 0 in two bytes: another spelling, refused
        for overlong in [&[0x81, 0x00][..], &[0x80, 0x00]] {
            assert!(matches!(
                Reader {
                    bytes: overlong,
                    at: 0
                }
                .varint(),
                Err(CodeError::NotCanonical(_))
            ));
        }
        let mut out = Vec::new();
        put_varint(&mut out, MAX_VARINT + 1);
        assert!(Reader { bytes: &out, at: 0 }.varint().is_err());
        let six = [0x80, 0x80, 0x80, 0x80, 0x80, 0x01];
        assert_eq!(
            Reader { bytes: &six, at: 0 }.varint(),
            Err(CodeError::Malformed("a number is too long"))
        );
    }

    #[test]
    fn garbage_is_refused_without_panicking() {
        let manifest: Manifest = toml::from_str(
            "id = \"g\"\nname = \"G\"\nlanguage = \"en\"\n[kinds.k]\nname = \"K\"\n",
        )
        .unwrap();
        for code in [
            "",
            "!!!",
            "AA",
            "AQ",
            "AQAAAAA",
            "Ag",
            "AQAAAAD_____Dw",
            "AQ==",
        ] {
            assert!(
                decode(code, &manifest, &CardPool::default()).is_err(),
                "{code}"
            );
        }
        assert_eq!(game_of("Aw"), Err(CodeError::Version(3)));
    }

    /// Issue 53: a name of [`MAX_NAME`] characters is coded and decoded;
    /// one more is refused both ways, as by every other reader of decks.
    #[test]
    fn a_name_longer_than_the_limit_is_refused_both_ways() {
        let manifest: Manifest = toml::from_str(
            "id = \"g\"\nname = \"G\"\nlanguage = \"en\"\n[kinds.k]\nname = \"K\"\n",
        )
        .unwrap();
        let pool = CardPool::default();
        let mut deck = CodeDeck {
            game: "g".into(),
            name: "é".repeat(MAX_NAME),
            format: None,
            zones: IndexMap::new(),
        };
        let code = encode(&deck, &manifest, &pool).unwrap();
        assert_eq!(decode(&code, &manifest, &pool), Ok(deck.clone()));
        deck.name.push('x');
        assert_eq!(encode(&deck, &manifest, &pool), Err(CodeError::NameTooLong));
        let mut bytes = vec![VERSION];
        bytes.extend(pool_hash(&pool).to_be_bytes());
        put_str(&mut bytes, &deck.game);
        put_str(&mut bytes, &deck.name);
        put_varint(&mut bytes, 0);
        let long = URL_SAFE_NO_PAD.encode(bytes);
        assert_eq!(decode(&long, &manifest, &pool), Err(CodeError::NameTooLong));
    }
}
