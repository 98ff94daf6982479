//! The reader: a verified bundle, and its cards one at a time.

use std::ops::Range;
use std::path::Path;

use rayon::prelude::*;
use serde::Serialize;
use serde::ser::{SerializeMap, SerializeSeq};
use serde_json::{Map, Value};

use super::error::BundleError;
use super::format::{Header, u32_at};
use super::game::manifest_of;
use super::inflate::Inflater;
use super::numbers::{
    BLOCK_ENTRY_LEN, HEADER_LEN, INDEX_ENTRY_LEN, MAX_BLOCK, MAX_DEPTH, MAX_INFLATE_RATIO,
};
use super::record::{Card, CardRef, DeckRecord};
use super::texts::GameTexts;
use super::view::one_value;
use crate::config::Manifest;

/// A bundle, opened and verified.
///
/// Opening checks the header, both checksums, the bounds of every section,
/// the whole index and the block table, and decodes the manifest and the
/// decks; card records are inflated and decoded only when asked for, so
/// opening a large bundle and reading one card is fast. Nothing read from
/// the file is trusted: every length is checked against the bytes that are
/// there, a block may not claim to inflate to more than DEFLATE allows, and
/// nesting is capped at [`MAX_DEPTH`](super::MAX_DEPTH), so a damaged or
/// crafted file gives a [`BundleError`], never a panic or a huge allocation.
///
/// ```no_run
/// use carta::bundle::Bundle;
///
/// let bundle = Bundle::open("build/intrepidos/intrepidos.carta")?;
/// println!("{} ({} cards)", bundle.manifest().name, bundle.len());
/// if let Some(card) = bundle.card("escudo-orc")? {
///     println!("{} is a {}: {:?}", card.name, card.kind, card.field("bonus"));
/// }
/// for card in bundle.cards() {
///     let card = card?;
///     println!("{}", card.id);
/// }
/// # Ok::<(), carta::bundle::BundleError>(())
/// ```
#[derive(Debug, Clone)]
pub struct Bundle {
    bytes: Vec<u8>,
    header: Header,
    /// The game section as stored, unknown keys included.
    game: Value,
    manifest: Manifest,
    /// The game section's labels and translations.
    texts: GameTexts,
    /// The decks section as stored, unknown keys included.
    deck_values: Value,
    decks: Vec<DeckRecord>,
    /// The index entries, as a range of `bytes`.
    entries: Range<usize>,
    /// The concatenated ids, as a range of `bytes`.
    ids: Range<usize>,
    /// The blocks of records.
    blocks: Vec<Block>,
}

/// One zlib block of records.
#[derive(Debug, Clone)]
struct Block {
    /// Where the stored (compressed) bytes lie in the bundle.
    stored: Range<usize>,
    /// How many bytes they inflate to.
    raw_len: usize,
    /// The index entries whose records the block holds.
    entries: Range<usize>,
}

impl Bundle {
    /// Reads and verifies the bundle at `path`.
    ///
    /// # Errors
    /// [`BundleError::Io`] when the file cannot be read; any other variant
    /// when it is not a valid bundle.
    pub fn open(path: impl AsRef<Path>) -> Result<Self, BundleError> {
        let path = path.as_ref();
        let bytes = std::fs::read(path).map_err(|source| BundleError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        Self::from_bytes(bytes)
    }

    /// Verifies a bundle held in memory.
    ///
    /// # Errors
    /// When the bytes are not a valid bundle.
    pub fn from_bytes(bytes: impl Into<Vec<u8>>) -> Result<Self, BundleError> {
        let bytes = bytes.into();
        let header = Header::parse(&bytes)?;
        let payload = &bytes[HEADER_LEN..];
        let found = crc32fast::hash(payload);
        if found != header.payload_crc32 {
            return Err(BundleError::PayloadChecksum {
                expected: header.payload_crc32,
                found,
            });
        }
        let s = header.sections;
        let game = one_value(s.game.slice(payload, "game")?, MAX_DEPTH + 2, "game")?;
        let manifest = manifest_of(&game)?;
        let texts = GameTexts::of(&game)?;
        let deck_values = one_value(s.decks.slice(payload, "decks")?, MAX_DEPTH + 2, "decks")?;
        // Deck keys this carta does not know are ignored here and kept in
        // `deck_values`.
        let decks: Vec<DeckRecord> = serde_json::from_value(deck_values.clone())
            .map_err(|e| BundleError::corrupt("decks", e.to_string()))?;
        if decks.len() != header.deck_count as usize {
            return Err(BundleError::corrupt(
                "decks",
                format!(
                    "{} decks, the header says {}",
                    decks.len(),
                    header.deck_count
                ),
            ));
        }
        let index = s.index.slice(payload, "index")?;
        let cards_start = HEADER_LEN + s.cards.offset as usize;
        let mut blocks = check_blocks(s.cards.slice(payload, "cards")?, cards_start)?;
        let (entries, ids) = check_index(index, header.card_count, &mut blocks)?;
        let base = HEADER_LEN + s.index.offset as usize;
        Ok(Bundle {
            entries: base + entries.start..base + entries.end,
            ids: base + ids.start..base + ids.end,
            blocks,
            bytes,
            header,
            game,
            manifest,
            texts,
            deck_values,
            decks,
        })
    }

    /// The header: format and carta versions, source hash, sections.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// The game manifest, as this carta knows it (keys added by a later
    /// minor version are not in it; [`Bundle::game`] has them).
    pub fn manifest(&self) -> &Manifest {
        &self.manifest
    }

    /// The game manifest in language `lang`: kind, zone, format and rule
    /// names (and the rest of the manifest's text) translated where the
    /// bundle has a translation into `lang`, as written elsewhere.
    ///
    /// ```no_run
    /// # let bundle = carta::bundle::Bundle::open("build/intrepidos/intrepidos.carta")?;
    /// assert_eq!(bundle.manifest_in("en").kinds["action"].name, "Action");
    /// assert_eq!(bundle.manifest_in("fr").kinds["action"].name, "Ação");
    /// # Ok::<(), carta::bundle::BundleError>(())
    /// ```
    pub fn manifest_in(&self, lang: &str) -> Manifest {
        self.texts.manifest_in(&self.manifest, lang)
    }

    /// The printed label of enum value `value` in `lang`, falling back to
    /// the game's own language; `None` when no schema of the game labels it.
    pub fn label_in(&self, value: &str, lang: &str) -> Option<&str> {
        self.texts.label_in(value, lang)
    }

    /// The game section as stored: every key, numbers as the manifest
    /// writes them.
    pub fn game(&self) -> &Value {
        &self.game
    }

    /// The example decks, in the order they were written.
    pub fn decks(&self) -> &[DeckRecord] {
        &self.decks
    }

    /// How many cards the bundle holds.
    pub fn len(&self) -> usize {
        self.header.card_count as usize
    }

    /// Whether the bundle holds no card.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The size of the whole bundle in bytes.
    pub fn size(&self) -> usize {
        self.bytes.len()
    }

    /// How many blocks of records the bundle holds.
    pub fn block_count(&self) -> usize {
        self.blocks.len()
    }

    /// The card ids, in byte order.
    pub fn ids(&self) -> impl ExactSizeIterator<Item = &str> {
        (0..self.len()).map(|i| self.id_at(i))
    }

    /// The card with id `id`, inflating only its block and decoding only its
    /// record.
    ///
    /// # Errors
    /// When the block or the record is damaged.
    pub fn card(&self, id: &str) -> Result<Option<Card>, BundleError> {
        let (mut lo, mut hi) = (0, self.len());
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            match self.id_bytes(mid).cmp(id.as_bytes()) {
                std::cmp::Ordering::Less => lo = mid + 1,
                std::cmp::Ordering::Greater => hi = mid,
                std::cmp::Ordering::Equal => {
                    let mut inflater = Inflater::new();
                    let raw = self.inflate(self.entry(mid, 2), &mut inflater)?;
                    return self.card_in(mid, raw)?.to_card().map(Some);
                }
            }
        }
        Ok(None)
    }

    /// Every card, in id order, decoded as the iterator reaches it (each
    /// block is inflated once). After an error the iterator ends.
    pub fn cards(&self) -> impl Iterator<Item = Result<Card, BundleError>> + '_ {
        Cards {
            bundle: self,
            next: 0,
            block: 0,
            inflater: Inflater::new(),
            inflated: false,
            done: false,
        }
    }

    /// Every card, in id order, decoded on all cores (blocks are independent).
    ///
    /// # Errors
    /// When a block or a record is damaged.
    pub fn decode_all(&self) -> Result<Vec<Card>, BundleError> {
        let per_block: Vec<Vec<Card>> = (0..self.blocks.len())
            .into_par_iter()
            .map_init(Inflater::new, |inflater, b| {
                let raw = self.inflate(b, inflater)?;
                self.blocks[b]
                    .entries
                    .clone()
                    .map(|i| self.card_in(i, raw)?.to_card())
                    .collect()
            })
            .collect::<Result<_, _>>()?;
        Ok(per_block.into_iter().flatten().collect())
    }

    /// Calls `f` with a borrowed view of every card, in id order, inflating
    /// each block once into one buffer that is reused: nothing is allocated
    /// per card, and per block only when a block is larger than every one
    /// before it. Stops at the first damaged block or record.
    ///
    /// # Errors
    /// When a block or a record is damaged.
    pub fn visit(&self, mut f: impl FnMut(CardRef<'_>)) -> Result<(), BundleError> {
        let mut inflater = Inflater::new();
        for (b, block) in self.blocks.iter().enumerate() {
            let raw = self.inflate(b, &mut inflater)?;
            for i in block.entries.clone() {
                f(self.card_in(i, raw)?);
            }
        }
        Ok(())
    }

    /// The bundle as the JSON that `carta decompile` prints:
    /// `{"game": …, "cards": […], "decks": […]}`: the game and decks
    /// sections as stored (keys this carta does not know included), each
    /// card as written in its source file.
    ///
    /// # Errors
    /// When a block or a record is damaged.
    pub fn to_json(&self) -> Result<Value, BundleError> {
        let cards = self
            .cards()
            .map(|c| c.map(|c| card_json(&c)))
            .collect::<Result<Vec<_>, _>>()?;
        let mut map = Map::new();
        map.insert("game".into(), self.game.clone());
        map.insert("cards".into(), Value::Array(cards));
        map.insert("decks".into(), self.deck_values.clone());
        Ok(Value::Object(map))
    }

    /// Writes [`Bundle::to_json`]'s JSON, pretty-printed, to `out` as it
    /// walks the cards, so that only one block and one card are in memory
    /// at a time, whatever the bundle inflates to.
    ///
    /// # Errors
    /// When a block or a record is damaged, or `out` fails (an
    /// [`BundleError::Io`] naming `path`).
    pub fn write_json(&self, out: impl std::io::Write, path: &Path) -> Result<(), BundleError> {
        let damaged = std::cell::RefCell::new(None);
        let whole = Whole {
            bundle: self,
            damaged: &damaged,
        };
        let mut ser = serde_json::Serializer::pretty(out);
        let written = whole.serialize(&mut ser);
        if let Some(e) = damaged.into_inner() {
            return Err(e);
        }
        written.map_err(|e| BundleError::Io {
            path: path.to_path_buf(),
            source: e.into(),
        })
    }

    /// Field `k` (0..5) of index entry `i`.
    fn entry(&self, i: usize, k: usize) -> usize {
        u32_at(
            &self.bytes,
            self.entries.start + i * INDEX_ENTRY_LEN + 4 * k,
        ) as usize
    }

    fn id_at(&self, i: usize) -> &str {
        // Checked to be UTF-8 and in bounds when the bundle was opened.
        std::str::from_utf8(self.id_bytes(i)).unwrap_or_default()
    }

    fn id_bytes(&self, i: usize) -> &[u8] {
        let start = self.ids.start + self.entry(i, 0);
        &self.bytes[start..start + self.entry(i, 1)]
    }

    /// Inflates block `b` with `inflater`, which must come out exactly as
    /// long as the block table says.
    fn inflate<'i>(&self, b: usize, inflater: &'i mut Inflater) -> Result<&'i [u8], BundleError> {
        let block = &self.blocks[b];
        inflater
            .inflate(&self.bytes[block.stored.clone()], block.raw_len)
            .map_err(|e| BundleError::corrupt("cards", format!("block {b}: {e}")))
    }

    /// The record of entry `i`, viewed in its inflated block: it must be the
    /// card the entry names, of a kind the manifest declares.
    fn card_in<'a>(&self, i: usize, raw: &'a [u8]) -> Result<CardRef<'a>, BundleError> {
        let start = self.entry(i, 3);
        let record = raw
            .get(start..start + self.entry(i, 4))
            .ok_or_else(|| BundleError::corrupt("cards", "a record lies outside its block"))?;
        let card = CardRef::parse(record).map_err(|e| {
            BundleError::corrupt("cards", format!("the record of `{}`: {e}", self.id_at(i)))
        })?;
        if !self.manifest.kinds.contains_key(card.kind) {
            return Err(BundleError::corrupt(
                "cards",
                format!(
                    "card `{}` is of kind `{}`, which the game section does not declare",
                    card.id, card.kind
                ),
            ));
        }
        if card.id.as_bytes() != self.id_bytes(i) {
            return Err(BundleError::corrupt(
                "cards",
                format!(
                    "the index entry `{}` points at card `{}`",
                    self.id_at(i),
                    card.id
                ),
            ));
        }
        Ok(card)
    }
}

/// The iterator of [`Bundle::cards`].
struct Cards<'a> {
    bundle: &'a Bundle,
    /// The next entry.
    next: usize,
    /// The block that holds it.
    block: usize,
    /// Inflates each block into one buffer.
    inflater: Inflater,
    /// Whether the inflater holds that block.
    inflated: bool,
    /// Whether an error ended the iteration.
    done: bool,
}

impl Iterator for Cards<'_> {
    type Item = Result<Card, BundleError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done || self.next >= self.bundle.len() {
            return None;
        }
        let blocks = &self.bundle.blocks;
        while blocks[self.block].entries.end <= self.next {
            self.block += 1;
            self.inflated = false;
        }
        if !self.inflated {
            if let Err(e) = self.bundle.inflate(self.block, &mut self.inflater) {
                self.done = true;
                return Some(Err(e));
            }
            self.inflated = true;
        }
        let card = self
            .bundle
            .card_in(self.next, self.inflater.inflated())
            .and_then(|c| c.to_card());
        self.next += 1;
        self.done = card.is_err();
        Some(card)
    }
}

/// Checks the block table of the cards section (which starts at `start` in
/// the bundle): blocks back to back right after the table up to the end of
/// the section, each inflating to at most [`MAX_BLOCK`] bytes and to no
/// more than DEFLATE can expand its stored bytes to.
fn check_blocks(cards: &[u8], start: usize) -> Result<Vec<Block>, BundleError> {
    let bad = |detail: String| BundleError::corrupt("cards", detail);
    if cards.len() < 4 {
        return Err(bad("shorter than its block count".into()));
    }
    let count = u32_at(cards, 0) as usize;
    let table_end = count
        .checked_mul(BLOCK_ENTRY_LEN)
        .and_then(|n| n.checked_add(4))
        .filter(|&end| end <= cards.len())
        .ok_or_else(|| {
            bad(format!(
                "{count} blocks do not fit in {} bytes",
                cards.len()
            ))
        })?;
    let mut blocks = Vec::with_capacity(count);
    let mut expected = table_end;
    for b in 0..count {
        let at = 4 + b * BLOCK_ENTRY_LEN;
        let [offset, stored, raw] = [0, 4, 8].map(|k| u32_at(cards, at + k) as usize);
        if offset != expected || stored == 0 || raw == 0 {
            return Err(bad(format!("block {b} is not where the one before ends")));
        }
        if raw > MAX_BLOCK || raw > stored.saturating_mul(MAX_INFLATE_RATIO) {
            return Err(bad(format!(
                "block {b} claims to inflate {stored} bytes to {raw}"
            )));
        }
        expected += stored;
        if expected > cards.len() {
            return Err(bad(format!("block {b} runs past the section")));
        }
        blocks.push(Block {
            stored: start + offset..start + expected,
            raw_len: raw,
            entries: 0..0,
        });
    }
    if expected != cards.len() {
        return Err(bad("the blocks do not fill the section".into()));
    }
    Ok(blocks)
}

/// Checks the index against the blocks, and records which entries each
/// block holds; returns where the entries and the ids lie within `index`.
/// The index's entry count (the header's card count) and where its
/// entries end.
fn index_count(index: &[u8], card_count: u32) -> Result<(u32, usize), BundleError> {
    let bad = |detail: String| BundleError::corrupt("index", detail);
    if index.len() < 4 {
        return Err(bad("shorter than its count".into()));
    }
    let count = u32_at(index, 0);
    if count != card_count {
        return Err(bad(format!(
            "{count} entries, the header says {card_count}"
        )));
    }
    let entries_end = (count as usize)
        .checked_mul(INDEX_ENTRY_LEN)
        .and_then(|n| n.checked_add(4))
        .filter(|&end| end <= index.len())
        .ok_or_else(|| {
            bad(format!(
                "{count} entries do not fit in {} bytes",
                index.len()
            ))
        })?;
    Ok((count, entries_end))
}

fn check_index(
    index: &[u8],
    card_count: u32,
    blocks: &mut [Block],
) -> Result<(Range<usize>, Range<usize>), BundleError> {
    let bad = |detail: String| BundleError::corrupt("index", detail);
    let (count, entries_end) = index_count(index, card_count)?;
    let ids = &index[entries_end..];
    let (mut id_end, mut block, mut rec_end) = (0usize, 0usize, 0usize);
    let mut previous: Option<&[u8]> = None;
    for i in 0..count as usize {
        let at = 4 + i * INDEX_ENTRY_LEN;
        let [id_off, id_len, b, rec_off, rec_len] =
            [0, 4, 8, 12, 16].map(|k| u32_at(index, at + k) as usize);
        if i > 0 && b == block + 1 && rec_end == blocks[block].raw_len {
            blocks[block].entries.end = i;
            (block, rec_end) = (b, 0);
            blocks[block].entries.start = i;
        }
        if id_off != id_end || b != block || rec_off != rec_end || id_len == 0 || rec_len == 0 {
            return Err(bad(format!(
                "entry {i} does not start where the one before ends"
            )));
        }
        id_end += id_len;
        rec_end += rec_len;
        if blocks.get(block).is_none_or(|bl| rec_end > bl.raw_len) {
            return Err(bad(format!("entry {i} points past its block")));
        }
        let id = ids
            .get(id_off..id_end)
            .ok_or_else(|| bad(format!("the id of entry {i} lies outside the index")))?;
        if std::str::from_utf8(id).is_err() {
            return Err(bad(format!("the id of entry {i} is not UTF-8")));
        }
        if previous.is_some_and(|p| p >= id) {
            return Err(bad(format!("entry {i} is out of order")));
        }
        previous = Some(id);
    }
    let blocks_covered = match blocks.last() {
        None => count == 0,
        Some(last) => block + 1 == blocks.len() && rec_end == last.raw_len,
    };
    if id_end != ids.len() || !blocks_covered {
        return Err(bad(
            "the entries do not cover the ids and the blocks exactly".into(),
        ));
    }
    if let Some(last) = blocks.last_mut() {
        last.entries.end = count as usize;
    }
    Ok((4..entries_end, entries_end..index.len()))
}

/// The bundle as `carta decompile` writes it, its cards serialized as they
/// are decoded; the first damaged record ends the walk and is kept in
/// `damaged`.
struct Whole<'b> {
    bundle: &'b Bundle,
    damaged: &'b std::cell::RefCell<Option<BundleError>>,
}

impl Serialize for Whole<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(3))?;
        map.serialize_entry("game", &self.bundle.game)?;
        map.serialize_entry("cards", &CardsJson(self))?;
        map.serialize_entry("decks", &self.bundle.deck_values)?;
        map.end()
    }
}

/// The cards array of [`Whole`].
struct CardsJson<'w, 'b>(&'w Whole<'b>);

impl Serialize for CardsJson<'_, '_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(self.0.bundle.len()))?;
        for card in self.0.bundle.cards() {
            match card {
                Ok(card) => seq.serialize_element(&card_json(&card))?,
                Err(e) => {
                    let message = e.to_string();
                    *self.0.damaged.borrow_mut() = Some(e);
                    return Err(serde::ser::Error::custom(message));
                }
            }
        }
        seq.end()
    }
}

/// A card as `carta decompile` shows it: as in its source, with its
/// translations.
fn card_json(c: &Card) -> Value {
    let mut json = c.to_source_json();
    if let (Value::Object(map), false) = (&mut json, c.i18n.is_empty()) {
        let i18n = serde_json::to_value(&c.i18n).expect("strings serialize");
        map.insert("i18n".into(), i18n);
    }
    json
}
