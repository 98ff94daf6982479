//! The CONTRACT's card form: a file of `[[card]]` tables, each with the
//! reserved fields `id`, `kind`, `name` and `copies`; the rest is validated
//! against the kind's schema and scanned for card references.

use std::collections::BTreeSet;
use std::sync::Arc;

use serde_json::{Map, Value};
use toml::Spanned;
use toml::de::{DeTable, DeValue};

use super::documents::PathStep;
use super::errata::{ERRATA, Erratum, read_errata};
use super::messages::{Subject, diagnose};
use super::packed::PackedFields;
use super::schemas::{GameSchemas, KindSchema, RefPattern};
use crate::diag::{Cap, Diagnostic, FileId, Span};
use crate::limits::max_diagnostics_per_file;
use crate::load::{parse_toml, table_to_json};
use crate::suggest;

/// The fields carta reads itself; kind schemas describe the others.
pub const RESERVED: [&str; 4] = ["id", "kind", "name", "copies"];

/// The keys a card table may hold besides its kind's fields: the reserved
/// fields and its errata ([`super::errata`]), which is not a field.
pub const CARD_KEYS: [&str; 5] = ["id", "kind", "name", "copies", ERRATA];

/// The most physical copies a card may declare (a sanity bound, not a game rule).
pub const MAX_COPIES: i64 = 10_000;

/// A card read from its file and checked against its schema, not yet linked.
/// It serializes (without its file, which the reader sets) for the check cache.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct RawCard {
    /// The card's id.
    pub id: String,
    /// The card's kind (a declared one).
    pub kind: String,
    /// The display name.
    pub name: String,
    /// Physical copies in the box, if the card says.
    pub copies: Option<u32>,
    /// Its published history, oldest first as written: `[[card.errata]]`.
    pub errata: Vec<Erratum>,
    /// The fields but the reserved ones, as authored: every one, or only
    /// those the compile kept (what the rules read) when every field is
    /// in [`RawCard::packed`] or was dropped. Emitters read
    /// [`RawCard::all_fields`].
    pub fields: Map<String, Value>,
    /// Every field but the reserved ones, packed, when the compile kept
    /// them all (`carta build`): then `fields` holds only the kept ones.
    pub packed: Option<PackedFields>,
    /// The file the card is in.
    #[serde(skip)]
    pub file: FileId,
    /// The span of the card's `[[card]]` header line.
    pub header: Span,
    /// The span of the card's id value.
    pub id_span: Span,
    /// The card references in its fields.
    pub refs: Vec<CardRef>,
    /// The names in every field, kept or not ([`names_of_json`]): what a
    /// template can name (`{{fields.stats.power}}`), so a check that keeps
    /// only some fields still sees a rename that a face would fail on.
    pub names: u64,
}

impl RawCard {
    /// Every field but the reserved ones: unpacked when the card keeps
    /// them packed, else its `fields`.
    pub fn all_fields(&self) -> std::borrow::Cow<'_, Map<String, Value>> {
        match &self.packed {
            Some(packed) => std::borrow::Cow::Owned(packed.unpack()),
            None => std::borrow::Cow::Borrowed(&self.fields),
        }
    }

    /// Every field but the reserved ones, taken out to be changed and put
    /// back with [`RawCard::set_all_fields`].
    pub fn take_all_fields(&mut self) -> Map<String, Value> {
        match &self.packed {
            Some(packed) => packed.unpack(),
            None => std::mem::take(&mut self.fields),
        }
    }

    /// Replaces every field; a card that keeps them packed packs them
    /// again and keeps in `fields` the same fields as before.
    pub fn set_all_fields(&mut self, fields: Map<String, Value>) {
        if self.packed.is_none() {
            self.fields = fields;
            return;
        }
        self.packed = Some(PackedFields::pack(&fields));
        self.fields = fields
            .into_iter()
            .filter(|(k, _)| self.fields.contains_key(k))
            .collect();
    }
}

/// A field value that names another card.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct CardRef {
    /// The id named.
    pub target: String,
    /// The kinds the named card may have.
    pub kinds: Arc<[String]>,
    /// Where the id is written.
    pub span: Span,
    /// The field, as a person reads it (`astral_allies[0]`).
    pub field: String,
}

/// The cards of one file and what was wrong with them.
#[derive(Debug, Default)]
pub struct FileCards {
    /// Cards with a usable id and kind (even when their fields have errors,
    /// so that references to them do not cascade into more errors).
    pub cards: Vec<RawCard>,
    /// The ids of cards with a valid id left out of `cards` for an error
    /// (an unknown kind, reported): they exist, so naming one is no error.
    pub unlinked: Vec<String>,
    /// Everything reported about the file.
    pub diagnostics: Vec<Diagnostic>,
}

/// The cards of a file through `toml`'s tree, reporting everything: what
/// [`super::clean::read_cards`] falls back to when a file is not clean.
pub(super) fn read_in_full(
    file: FileId,
    text: &str,
    kinds: &[String],
    schemas: &GameSchemas,
    keep: Option<&BTreeSet<String>>,
    pack: bool,
) -> FileCards {
    let mut out = FileCards::default();
    let (doc, syntax_ok) = parse_toml(file, text, &mut out.diagnostics);
    if syntax_ok && (text.trim().is_empty() || doc.get_ref().is_empty()) {
        out.diagnostics.push(
            Diagnostic::warning("card::empty-file", "this card file holds no cards")
                .at(file, 0..0, "empty file")
                .with_help("add a card with a `[[card]]` table, or delete the file"),
        );
        return out;
    }
    let cx = FileContext {
        file,
        text,
        kinds,
        schemas,
        keep,
        pack,
        syntax_ok,
    };
    let mut saw_cards = false;
    // A file of thousands of broken cards keeps the diagnostics of a few.
    let mut cap = Cap::new(max_diagnostics_per_file());
    for (key, value) in doc.get_ref() {
        let Some(array) = card_array(file, key, value, &mut out.diagnostics) else {
            continue;
        };
        saw_cards = true;
        for card in array {
            cx.push_card(card, &mut out);
            cap.settle(&mut out.diagnostics);
        }
    }
    if !saw_cards && syntax_ok && out.diagnostics.is_empty() {
        out.diagnostics.push(
            Diagnostic::error("card::no-cards", "this card file holds no `[[card]]` table").at(
                file,
                0..0,
                "no cards in this file",
            ),
        );
    }
    out
}

/// What every card of one file is read with.
struct FileContext<'a> {
    file: FileId,
    text: &'a str,
    kinds: &'a [String],
    schemas: &'a GameSchemas,
    keep: Option<&'a BTreeSet<String>>,
    /// Whether to keep every field packed.
    pack: bool,
    /// Whether the file parsed without a syntax error.
    syntax_ok: bool,
}

impl FileContext<'_> {
    /// Reads one `[[card]]` table into `out`.
    fn push_card(&self, card: &Spanned<DeValue<'_>>, out: &mut FileCards) {
        let Some(table) = card.get_ref().as_table() else {
            return; // `card_array` let only tables through
        };
        let header = header_of(self.text, card.span());
        // After a syntax error the recovered tree is partial: keep its
        // cards for linking (so references to them do not cascade into
        // errors) but report nothing more about them.
        let mut scratch = Vec::new();
        let sink = if self.syntax_ok {
            &mut out.diagnostics
        } else {
            &mut scratch
        };
        match self.read_card(table, header, sink) {
            Ok(mut raw) => {
                finish_card(&mut raw, self.keep, self.pack);
                out.cards.push(raw);
            }
            Err(Some(id)) => out.unlinked.push(id),
            Err(None) => {}
        }
    }
}

/// The hash of one step below the name or index hashed as `parent`: the
/// path of a value within a card's fields, whatever its value.
pub(super) fn name_step(parent: u64, step: NameStep<'_>) -> u64 {
    use std::hash::BuildHasher;
    foldhash::fast::FixedState::with_seed(parent).hash_one(step)
}

/// One step of a path within a card's fields: a table's key or an array's
/// index.
#[derive(Hash)]
pub(super) enum NameStep<'a> {
    Key(&'a str),
    Index(usize),
}

/// The names and indices of every value in `fields`, hashed: each path's
/// hash ([`name_step`]) summed, so the order they are written in does not
/// matter (the cheap reader's tree sums the same, `clean::names_of_table`).
pub(super) fn names_of_json(fields: &Map<String, Value>) -> u64 {
    fn walk(value: &Value, at: u64, sum: &mut u64) {
        let mut step = |step, value| {
            let h = name_step(at, step);
            *sum = sum.wrapping_add(h);
            walk(value, h, sum);
        };
        match value {
            Value::Object(map) => map.iter().for_each(|(k, v)| step(NameStep::Key(k), v)),
            Value::Array(items) => {
                (items.iter().enumerate()).for_each(|(i, v)| step(NameStep::Index(i), v));
            }
            _ => {}
        }
    }
    let mut sum = 0u64;
    for (k, v) in fields {
        let h = name_step(0, NameStep::Key(k));
        sum = sum.wrapping_add(h);
        walk(v, h, &mut sum);
    }
    sum
}

/// Packs a card's fields (with `pack`) and keeps of them only `keep`.
pub(super) fn finish_card(raw: &mut RawCard, keep: Option<&BTreeSet<String>>, pack: bool) {
    if pack {
        raw.packed = Some(PackedFields::pack(&raw.fields));
    }
    if let Some(keep) = keep {
        // A new map, not `retain`: the old one's capacity would stay allocated.
        raw.fields = std::mem::take(&mut raw.fields)
            .into_iter()
            .filter(|(k, _)| keep.contains(k))
            .collect();
    }
}

/// The `[[card]]` array of a top-level entry of a card file, or `None`
/// after reporting an entry that is not one.
fn card_array<'t, 'v>(
    file: FileId,
    key: &Spanned<std::borrow::Cow<'t, str>>,
    value: &'v Spanned<DeValue<'t>>,
    diags: &mut Vec<Diagnostic>,
) -> Option<&'v toml::de::DeArray<'t>> {
    if key.get_ref() != "card" {
        let hint = suggest::closest(key.get_ref(), ["card"]);
        diags.push(
            Diagnostic::error(
                "card::not-a-card",
                format!(
                    "`{}` is not a card: a card file holds only `[[card]]` tables",
                    key.get_ref()
                ),
            )
            .at(file, key.span(), "not `[[card]]`")
            .with_help(if hint.is_some() {
                "did you mean `[[card]]`?"
            } else {
                "put each card in a `[[card]]` table"
            }),
        );
        return None;
    }
    let array = value
        .get_ref()
        .as_array()
        .filter(|a| a.iter().all(|v| v.get_ref().is_table()));
    if array.is_none() {
        diags.push(
            Diagnostic::error("card::not-a-card", "`card` must be an array of tables")
                .at(file, key.span(), "not an array of tables")
                .with_help("write each card under its own `[[card]]` header (two brackets)"),
        );
    }
    array
}

/// The span of the first line of a card table (its `[[card]]` header).
pub(super) fn header_of(text: &str, span: Span) -> Span {
    let start = span.start.min(text.len());
    let line_end = text[start..].find('\n').map_or(text.len(), |i| start + i);
    start..line_end.min(span.end.max(start)).max(start)
}

impl FileContext<'_> {
    /// Validates a card's `fields` against its kind's `schema` (when the
    /// file parsed), reporting every error; returns the fields.
    fn validate(
        &self,
        table: &DeTable<'_>,
        header: &Span,
        id: &str,
        schema: Option<&KindSchema>,
        fields: Map<String, Value>,
        diags: &mut Vec<Diagnostic>,
    ) -> Map<String, Value> {
        // jsonschema validates a `Value`: the map moves in and back out.
        let instance = Value::Object(fields);
        let validator = schema
            .filter(|_| self.syntax_ok)
            .map(|k| self.schemas.validator(k));
        if let Some(None) = validator {
            diags.push(
                Diagnostic::error(
                    "schema::invalid-schema",
                    format!("the schema of card `{id}`'s kind did not compile"),
                )
                .at(self.file, header.clone(), "this card")
                .with_help(
                    "run `carta check --no-cache`, which compiles every schema and says why",
                ),
            );
        }
        if let Some(validator) = validator.flatten().filter(|v| !v.is_valid(&instance)) {
            let subject = Subject {
                file: self.file,
                table,
                span: header.clone(),
                noun: format!("card `{id}`"),
                extra_root_keys: &CARD_KEYS,
                schemas: self.schemas,
            };
            diagnose(validator.iter_errors(&instance), &subject, diags);
        }
        let Value::Object(fields) = instance else {
            unreachable!("built as an object above")
        };
        fields
    }

    /// One card: its reserved fields checked, its other fields validated
    /// against its kind's schema (when the file parsed), its references
    /// collected. An error when it has no usable id, kind or fields: with
    /// its id, when that is valid.
    fn read_card(
        &self,
        table: &DeTable<'_>,
        header: Span,
        diags: &mut Vec<Diagnostic>,
    ) -> Result<RawCard, Option<String>> {
        let file = self.file;
        let get = |name: &str| {
            table
                .iter()
                .find(|(k, _)| k.get_ref() == name)
                .map(|(_, v)| v)
        };
        let id = valid_id(
            file,
            reserved_string(file, &header, get("id"), "id", diags),
            diags,
        );
        let name = reserved_string(file, &header, get("name"), "name", diags);
        let copies = read_copies(file, get("copies"), diags);
        let errata = get(ERRATA)
            .map(|v| read_errata(file, v, diags))
            .unwrap_or_default();
        let kind = reserved_string(file, &header, get("kind"), "kind", diags);
        let kind = known_kind(file, kind, self.kinds, diags);
        let Some((id, id_span)) = id else {
            return Err(None);
        };
        let Some((kind, _)) = kind else {
            return Err(Some(id));
        };
        let fields = match table_to_json(table) {
            Ok(mut map) => {
                for r in CARD_KEYS {
                    map.shift_remove(r);
                }
                map
            }
            Err((span, message)) => {
                diags.push(Diagnostic::error("schema::type", message).at(file, span, "here"));
                return Err(Some(id));
            }
        };
        let names = names_of_json(&fields);
        let schema = self.schemas.kind(&kind);
        let fields = self.validate(table, &header, &id, schema, fields, diags);
        let refs = schema
            .map(|s| collect_refs(table, &self.schemas.marks(s).refs))
            .unwrap_or_default();
        Ok(RawCard {
            id,
            kind,
            name: name.map(|n| n.0).unwrap_or_default(),
            copies,
            errata,
            fields,
            packed: None,
            file,
            header,
            id_span,
            refs,
            names,
        })
    }
}

/// The id, if it is a valid one; reports it otherwise.
fn valid_id(
    file: FileId,
    id: Option<(String, Span)>,
    diags: &mut Vec<Diagnostic>,
) -> Option<(String, Span)> {
    id.filter(|(id, span)| {
        let ok = is_valid_id(id);
        if !ok {
            diags.push(
                Diagnostic::error("card::id", format!("`{id}` is not a valid card id"))
                    .at(file, span.clone(), "invalid id")
                    .with_help(format!(
                        "ids use lowercase ASCII letters, digits and single dashes, such as `{}`",
                        slug(id)
                    )),
            );
        }
        ok
    })
}

/// The kind, if the game declares it; reports it otherwise.
fn known_kind(
    file: FileId,
    kind: Option<(String, Span)>,
    kinds: &[String],
    diags: &mut Vec<Diagnostic>,
) -> Option<(String, Span)> {
    kind.filter(|(kind, span)| {
        let known = kinds.iter().any(|k| k == kind);
        if !known {
            diags.push(
                Diagnostic::error(
                    "card::unknown-kind",
                    format!("`{kind}` is not a kind of this game"),
                )
                .at(file, span.clone(), "unknown kind")
                .with_help(suggest::help(
                    kind,
                    kinds.iter().map(String::as_str),
                    "the game declares",
                )),
            );
        }
        known
    })
}

/// Reads a reserved string field, reporting it missing (at the header) or mistyped.
fn reserved_string(
    file: FileId,
    header: &Span,
    value: Option<&Spanned<DeValue<'_>>>,
    name: &str,
    diags: &mut Vec<Diagnostic>,
) -> Option<(String, Span)> {
    let Some(value) = value else {
        diags.push(
            Diagnostic::error(missing_code(name), format!("this card has no `{name}`"))
                .at(file, header.clone(), format!("`{name}` is missing"))
                .with_help(format!(
                    "every card needs `id`, `kind` and `name`; add `{name} = \"…\"`"
                )),
        );
        return None;
    };
    match value.get_ref().as_str() {
        Some(s) if !s.trim().is_empty() => Some((s.to_owned(), value.span())),
        Some(_) => {
            diags.push(
                Diagnostic::error(missing_code(name), format!("`{name}` must not be empty")).at(
                    file,
                    value.span(),
                    "empty",
                ),
            );
            None
        }
        None => {
            diags.push(
                Diagnostic::error(
                    "card::reserved-type",
                    format!(
                        "`{name}` must be a string, but it is {}",
                        value.get_ref().type_str()
                    ),
                )
                .at(file, value.span(), "expected a string"),
            );
            None
        }
    }
}

fn missing_code(name: &str) -> &'static str {
    match name {
        "id" => "card::missing-id",
        "kind" => "card::missing-kind",
        _ => "card::missing-name",
    }
}

fn read_copies(
    file: FileId,
    value: Option<&Spanned<DeValue<'_>>>,
    diags: &mut Vec<Diagnostic>,
) -> Option<u32> {
    let value = value?;
    let n = value
        .get_ref()
        .as_integer()
        .and_then(|i| i64::from_str_radix(i.as_str(), i.radix()).ok());
    match n {
        Some(n) if (1..=MAX_COPIES).contains(&n) => u32::try_from(n).ok(),
        _ => {
            diags.push(
                Diagnostic::error("card::copies", format!("`copies` must be a whole number from 1 to {MAX_COPIES}"))
                    .at(file, value.span(), "not a valid number of copies")
                    .with_help("`copies` is how many physical copies of this card the box holds; leave it out for 1"),
            );
            None
        }
    }
}

/// Whether `id` has the CONTRACT's form: lowercase ASCII, digits and single dashes.
pub fn is_valid_id(id: &str) -> bool {
    !id.is_empty()
        && !id.starts_with('-')
        && !id.ends_with('-')
        && !id.contains("--")
        && id
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

/// A valid id suggested for an invalid one (a neutral one when nothing of
/// it is left).
fn slug(text: &str) -> String {
    let slug = suggest::slug(text, usize::MAX);
    if slug.is_empty() {
        "card-1".into()
    } else {
        slug
    }
}

/// Finds the strings at each reference pattern's path in a card.
fn collect_refs(table: &DeTable<'_>, patterns: &[RefPattern]) -> Vec<CardRef> {
    let mut out = Vec::new();
    for pattern in patterns {
        for (value, field) in follow(table, &pattern.path) {
            if let Some(target) = value.get_ref().as_str() {
                out.push(CardRef {
                    target: target.to_owned(),
                    kinds: Arc::clone(&pattern.kinds),
                    span: value.span(),
                    field,
                });
            }
        }
    }
    out.sort_by_key(|r| r.span.start);
    out.dedup_by(|a, b| a.span == b.span);
    out
}

/// Every value reached from `table` along `path`, with its display path.
fn follow<'t, 'src>(
    table: &'t DeTable<'src>,
    path: &[PathStep],
) -> Vec<(&'t Spanned<DeValue<'src>>, String)> {
    let Some((first, rest)) = path.split_first() else {
        return Vec::new();
    };
    let mut frontier: Vec<(&Spanned<DeValue<'_>>, String)> = match first {
        PathStep::Key(k) => table
            .iter()
            .filter(|(key, _)| key.get_ref() == k)
            .map(|(_, v)| (v, k.clone()))
            .collect(),
        PathStep::AnyKey => table
            .iter()
            .map(|(k, v)| (v, k.get_ref().to_string()))
            .collect(),
        PathStep::AnyItem => Vec::new(),
    };
    for step in rest {
        let mut next = Vec::new();
        for (value, display) in frontier {
            match (step, value.get_ref()) {
                (PathStep::Key(k), DeValue::Table(t)) => {
                    next.extend(
                        t.iter()
                            .filter(|(key, _)| key.get_ref() == k)
                            .map(|(_, v)| (v, format!("{display}.{k}"))),
                    );
                }
                (PathStep::AnyKey, DeValue::Table(t)) => {
                    next.extend(
                        t.iter()
                            .map(|(k, v)| (v, format!("{display}.{}", k.get_ref()))),
                    );
                }
                (PathStep::AnyItem, DeValue::Array(items)) => {
                    next.extend(
                        items
                            .iter()
                            .enumerate()
                            .map(|(i, v)| (v, format!("{display}[{i}]"))),
                    );
                }
                _ => {}
            }
        }
        frontier = next;
    }
    frontier
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_follow_the_contract() {
        for ok in ["escudo-orc", "a", "sota-1", "7-tierra"] {
            assert!(is_valid_id(ok), "{ok}");
        }
        for bad in ["", "Escudo", "escudo_orc", "-a", "a-", "a--b", "guardião"] {
            assert!(!is_valid_id(bad), "{bad}");
        }
    }

    #[test]
    fn slugs_suggest_a_valid_id() {
        assert_eq!(slug("Guardião do Norte"), "guardiao-do-norte");
        assert_eq!(slug("Escudo_Orc"), "escudo-orc");
    }
}
