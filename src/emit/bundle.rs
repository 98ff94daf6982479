//! The bundle emitter: `<game>/<game>.carta`, the binary file game clients
//! load ([`crate::bundle`] is the format and its reader). The bundle is
//! staged in its pieces (header, sections, blocks: `bundle::Encoded`),
//! never joined in memory, and its decks are encoded straight from the
//! deck files ([`DeckView`]).

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use rayon::prelude::*;
use serde::{Serialize, Serializer};
use serde_json::Value;

use super::fields::Fields;
use super::{EmitError, Emitter, Stage};
use crate::bundle::{self, Encoded, PackedRecord, SourceHash};
use crate::deck::{DeckEntry, DeckFile, DeckZone};
use crate::diag::{Diagnostic, Diagnostics, FileId, SourceMap};
use crate::game::Game;
use crate::i18n::{Key, Scope};
use crate::load::{LoadError, Workspace};
use crate::markup;
use crate::validate::{PackedFields, RawCard};

/// Writes each game's bundle.
#[derive(Debug, Clone, Copy, Default)]
pub struct BundleEmitter;

impl Emitter for BundleEmitter {
    fn name(&self) -> &'static str {
        "bundle"
    }

    fn emit(
        &self,
        game: &Game,
        ws: &mut Workspace,
        stage: &mut Stage,
        diags: &mut Diagnostics,
    ) -> Result<(), EmitError> {
        let decks: Vec<DeckView<'_>> = game
            .decks
            .iter()
            .map(|d| DeckView::of(d, &ws.sources))
            .collect();
        if let Some(encoded) = encode_pieces(game, &decks, ws, diags)? {
            let path = bundle_path(Path::new(""), game.id());
            stage.write_with(&path, |file| encoded.write_to(file))?;
        }
        Ok(())
    }
}

/// Where the bundle of game `game` goes under the output folder `out`.
pub fn bundle_path(out: &Path, game: &str) -> PathBuf {
    out.join(game).join(format!("{game}.{}", bundle::EXTENSION))
}

/// The source hash of `game`: every file of the game that the check read
/// (its `cards/<game>/` folder, its `schemas/<game>/` folder and the schema
/// of each kind), by workspace-relative path. A file whose text was not
/// kept is read again, one at a time.
///
/// # Errors
/// When such a file cannot be read again or has changed since.
pub fn source_hash(game: &Game, ws: &Workspace) -> Result<SourceHash, LoadError> {
    let m = &game.manifest.manifest;
    let cards = format!("cards/{}/", m.id);
    let schemas = format!("schemas/{}/", m.id);
    let kind_schemas = m.schema_paths();
    let mut files: Vec<(&str, FileId)> = ws
        .sources
        .iter()
        .filter(|(_, f)| {
            f.name.starts_with(&cards)
                || f.name.starts_with(&schemas)
                || kind_schemas.values().any(|p| *p == f.name)
        })
        .map(|(id, f)| (f.name.as_str(), id))
        .collect();
    // A path read twice counts once, with its last reading.
    files.sort_unstable();
    let mut hasher = bundle::SourceHasher::default();
    for (i, &(name, id)) in files.iter().enumerate() {
        if files.get(i + 1).is_some_and(|next| next.0 == name) {
            continue;
        }
        hasher.add(name, &ws.text_of(id)?);
    }
    Ok(hasher.finish())
}

/// Each card's translations, in pool order (language → dotted field →
/// text), and the text fields of every card that hold markup, parsed:
/// each card's packed fields unpacked once for both.
fn card_texts(game: &Game) -> (Vec<bundle::Translated>, bundle::Markup) {
    let m = &game.manifest.manifest;
    // Each kind's text fields found once, and the cards on every core:
    // each card's walk is independent of the others', and there is one
    // per card of the pool.
    let text_fields: BTreeMap<&str, Vec<String>> = m
        .kinds
        .keys()
        .map(|k| (k.as_str(), markup::text_fields(&game.schemas, k)))
        .collect();
    let cards: Vec<&RawCard> = game.pool.iter().collect();
    let per_card: Vec<_> = cards
        .par_iter()
        .map(|card| {
            let fields = Fields::of(card);
            let names = text_fields
                .get(card.kind.as_str())
                .map_or(&[][..], Vec::as_slice);
            let texts: BTreeMap<String, Value> = names
                .iter()
                .filter_map(|field| {
                    let text = fields.str(field)?;
                    Some((field.clone(), stored(&markup::parse_in(m, text))?))
                })
                .collect();
            let marked = (!texts.is_empty()).then(|| (card.id.clone(), texts));
            (card_translations(game, card), marked)
        })
        .collect();
    let mut markup = bundle::Markup::new();
    let mut translated = Vec::with_capacity(per_card.len());
    for (one, marked) in per_card {
        translated.push(one);
        markup.extend(marked);
    }
    (translated, markup)
}

/// One card's translations (language → dotted field → text).
fn card_translations(game: &Game, card: &RawCard) -> bundle::Translated {
    let catalogs = &game.i18n.catalogs;
    let mut out = bundle::Translated::new();
    let scope = Scope::Card(card.id.clone());
    // Most cards of a large game have no translation: their fields are
    // not unpacked to find what a translation could name.
    if !catalogs.iter().any(|c| c.has_scope(&scope)) {
        return out;
    }
    let strings = game.i18n.sources.card_strings(card);
    for catalog in catalogs {
        let texts: BTreeMap<String, String> = strings
            .iter()
            .filter_map(|(field, _, _)| {
                let entry = catalog.get(&Key::new(scope.clone(), field.clone()))?;
                Some((field.clone(), entry.text.clone()))
            })
            .collect();
        if !texts.is_empty() {
            out.insert(catalog.lang.clone(), texts);
        }
    }
    out
}

/// The game section's texts: the enum labels (the first kind's, in manifest
/// order, where two kinds label a value) and, per language with a
/// translation file, the manifest's strings and labels it translates.
fn game_texts(game: &Game, markup: bundle::Markup) -> bundle::GameTexts {
    let mut texts = bundle::GameTexts::default();
    for kind in game.manifest.manifest.kinds.keys() {
        for p in game
            .schemas
            .kind(kind)
            .map(|k| &game.schemas.marks(k).labels)
            .into_iter()
            .flatten()
        {
            for (value, label) in p.labels.iter() {
                texts
                    .labels
                    .entry(value.clone())
                    .or_insert_with(|| label.clone());
            }
        }
    }
    let mut source = game.manifest.manifest.clone();
    let mut places = Vec::new();
    source.texts_mut(&mut |section, id, field, _| {
        places.push((section.to_owned(), id.to_owned(), field.to_owned()));
    });
    for catalog in &game.i18n.catalogs {
        let mut one = bundle::ManifestTexts::default();
        for (section, id, field) in &places {
            let entry = Key::in_manifest(section, id, field).and_then(|k| catalog.get(&k));
            if let Some(entry) = entry {
                one.insert(section, id, field, entry.text.clone());
            }
        }
        for value in texts.labels.keys() {
            if let Some(entry) = catalog.get(&Key::new(Scope::Label(value.clone()), "")) {
                one.labels.insert(value.clone(), entry.text.clone());
            }
        }
        one.markup = translated_markup(game, catalog);
        if !one.is_empty() {
            texts.i18n.insert(catalog.lang.clone(), one);
        }
    }
    texts.markup = markup;
    texts
}

/// `nodes` as the bundle stores them, when they hold markup (not one plain text).
fn stored(nodes: &[markup::Node]) -> Option<serde_json::Value> {
    let plain = matches!(nodes, [] | [markup::Node::Text(_)]);
    (!plain).then(|| serde_json::to_value(nodes).expect("nodes serialize"))
}

/// The translated text fields of `catalog` that hold markup, parsed.
fn translated_markup(game: &Game, catalog: &crate::i18n::Catalog) -> bundle::Markup {
    let m = &game.manifest.manifest;
    let mut out = bundle::Markup::new();
    for (key, entry) in &catalog.entries {
        let Scope::Card(id) = &key.scope else {
            continue;
        };
        let Some(card) = game.pool.get(id) else {
            continue;
        };
        if !markup::text_fields(&game.schemas, &card.kind).contains(&key.field) {
            continue;
        }
        if let Some(nodes) = stored(&markup::parse_in(m, &entry.text)) {
            out.entry(id.clone())
                .or_default()
                .insert(key.field.clone(), nodes);
        }
    }
    out
}

/// A checked deck file as the bundle stores it: a [`bundle::DeckRecord`]'s
/// fields, borrowed from the deck rather than copied (as records, every
/// deck's ids would be copied once more, for nothing but encoding them).
#[derive(Debug, Serialize)]
pub struct DeckView<'a> {
    name: &'a str,
    file: &'a str,
    zones: Zones<'a>,
}

impl<'a> DeckView<'a> {
    /// The view of `deck`, whose file is in `sources`.
    pub fn of(deck: &'a DeckFile, sources: &'a SourceMap) -> Self {
        DeckView {
            name: &deck.name,
            file: &sources.get(deck.file).name,
            zones: Zones(&deck.zones),
        }
    }
}

/// Each zone in the order written: card id → copies.
#[derive(Debug)]
struct Zones<'a>(&'a [DeckZone]);

impl Serialize for Zones<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.0.iter().map(|z| (&z.id, Counts(&z.entries))))
    }
}

/// A zone's cards: id → copies.
struct Counts<'a>(&'a [DeckEntry]);

impl Serialize for Counts<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.0.iter().map(|e| (&e.id, e.count)))
    }
}

/// Encodes the bundle of one checked game of the workspace `ws`. A
/// failure (a field nested too deep) is reported as a diagnostic at the
/// card.
///
/// # Errors
/// When a source file cannot be read again for the source hash, or has
/// changed since the check.
pub fn encode_game(
    game: &Game,
    decks: &[DeckView<'_>],
    ws: &Workspace,
    diags: &mut Diagnostics,
) -> Result<Option<Vec<u8>>, LoadError> {
    Ok(encode_pieces(game, decks, ws, diags)?.map(Encoded::into_bytes))
}

/// [`encode_game`] in pieces.
fn encode_pieces(
    game: &Game,
    decks: &[DeckView<'_>],
    ws: &Workspace,
    diags: &mut Diagnostics,
) -> Result<Option<Encoded>, LoadError> {
    // The source hash reads every source file again, in path order, one
    // at a time: it goes on beside the texts, which take both cores in
    // bursts.
    let (hash, (translated, markup)) = rayon::join(|| source_hash(game, ws), || card_texts(game));
    let hash = hash?;
    // A game compiled with every field has them packed, as the bundle
    // stores them; any other is packed here.
    let packed: Vec<Cow<'_, PackedFields>> = game
        .pool
        .iter()
        .map(|card| {
            card.packed.as_ref().map_or_else(
                || Cow::Owned(PackedFields::pack(&card.fields)),
                Cow::Borrowed,
            )
        })
        .collect();
    let cards: Vec<PackedRecord<'_>> = game
        .pool
        .iter()
        .zip(&translated)
        .zip(&packed)
        .map(|((card, t), fields)| PackedRecord {
            id: &card.id,
            kind: &card.kind,
            name: &card.name,
            copies: card.copies,
            fields,
            i18n: Some(t).filter(|t| !t.is_empty()),
            errata: &card.errata,
        })
        .collect();
    match bundle::encode_records(
        &game.manifest.manifest,
        Some(&game.manifest.written),
        &game_texts(game, markup),
        &cards,
        decks,
        hash,
    ) {
        Ok(encoded) => Ok(Some(encoded)),
        Err(e) => {
            let place = match &e {
                bundle::EncodeError::TooDeep { id, .. }
                | bundle::EncodeError::RecordTooLarge { id, .. }
                | bundle::EncodeError::DuplicateId(id) => {
                    game.pool.get(id).map(|c| (c.file, c.header.clone()))
                }
                _ => None,
            };
            let d = Diagnostic::error("bundle::encode", e.to_string());
            diags.push(match place {
                Some((file, span)) => d.at(file, span, "in this card"),
                None => d.at(game.manifest.file, 0..0, "in this game"),
            });
            Ok(None)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_deck_view_encodes_as_its_record_does() {
        let mut sources = SourceMap::default();
        let text = "game = \"g\"\nname = \"Fogo\"\n\n[side]\nb = 1\n\n[main]\nz = 3\na = 2\n";
        let file = sources.add("cards/g/decks/fogo.toml", text);
        let deck = crate::deck::parse(file, text, &mut Vec::new()).unwrap();
        let record = bundle::DeckRecord {
            name: "Fogo".into(),
            file: "cards/g/decks/fogo.toml".into(),
            zones: [
                (
                    "side".to_owned(),
                    [("b".to_owned(), 1)].into_iter().collect(),
                ),
                (
                    "main".to_owned(),
                    [("z".to_owned(), 3), ("a".to_owned(), 2)]
                        .into_iter()
                        .collect(),
                ),
            ]
            .into_iter()
            .collect(),
        };
        let view = DeckView::of(&deck, &sources);
        assert_eq!(
            rmp_serde::to_vec_named(&[view]).unwrap(),
            rmp_serde::to_vec_named(&[record]).unwrap()
        );
    }
}
