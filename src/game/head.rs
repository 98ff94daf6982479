//! What compiling a game starts from: its manifest, its compiled schemas,
//! the fields a compile reads of each card and, through the check cache,
//! the key of everything besides a card file's own text that checking it
//! depends on.

use std::collections::BTreeSet;
use std::path::Path;

use super::schemas::compile_schemas;
use crate::cache::{CheckCache, hash_text};
use crate::diag::Diagnostics;
use crate::i18n;
use crate::load::{LoadError, Workspace};
use crate::validate::{self, GameSchemas, LoadedManifest};

/// What a compiled game keeps of the cards.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Keep {
    /// Every field (`carta build` and whatever emits the cards): packed
    /// (`RawCard::all_fields` unpacks them), and unpacked what the rules
    /// read.
    All,
    /// Only the fields the game's rules read (`carta check`: a 20,000-card
    /// game then fits in a fraction of the memory).
    Rules,
    /// As `Rules`, and reusing (and refreshing) the check cache under
    /// `build/.cache/` for card files unchanged since the last check.
    RulesCached,
    /// As `All`, through a cache of its own (`build/.cache/<game>.all/`:
    /// packed fields make larger entries than a check's, and the two
    /// would overwrite each other's): a rebuild reads again only the card
    /// files that changed (`carta build`, `carta watch`).
    AllCached,
}

impl Keep {
    /// Whether every field is kept (packed).
    pub(super) fn all_fields(self) -> bool {
        matches!(self, Keep::All | Keep::AllCached)
    }

    /// Whether it goes through a cache.
    fn cached(self) -> bool {
        matches!(self, Keep::RulesCached | Keep::AllCached)
    }
}

/// Whether to check the decks under `cards/<game>/decks/` too.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decks {
    /// Check them (`carta build`).
    Check,
    /// Check them, and the player's collection of the game
    /// (`decks/<game>/collection.toml`: `carta check`; a player's file
    /// never fails the game's build).
    Players,
    /// Leave them (`carta deck check` checks the files it is given).
    Skip,
}

/// What compiling a game starts from: its manifest and compiled schemas,
/// the fields kept of its cards and, through a cache, the cache.
pub(super) struct Head {
    pub(super) manifest: LoadedManifest,
    pub(super) schemas: GameSchemas,
    pub(super) kinds: Vec<String>,
    /// The fields a compile keeps of each card ([`read_fields`]).
    pub(super) fields: BTreeSet<String>,
    /// Fields read only while a file is read (for its markup check), then
    /// dropped from its cards: no later stage reads them.
    pub(super) transient: BTreeSet<String>,
    /// Whether every field is kept packed besides ([`Keep::all_fields`]).
    pub(super) pack: bool,
    pub(super) cache: Option<CheckCache>,
    pub(super) errors_before: usize,
}

/// Reads and checks the manifest and compiles the kind schemas. `None`
/// when the game has no usable manifest (reported).
///
/// # Errors
/// When a file cannot be read, or the cache's folder is a link.
pub(super) fn prepare(
    ws: &mut Workspace,
    game: &str,
    keep: Keep,
    diags: &mut Diagnostics,
) -> Result<Option<Head>, LoadError> {
    let errors_before = diags.error_count();
    let rel = format!("cards/{game}/game.toml");
    let manifest_file = ws.read(&rel, diags)?;
    if !ws.is_text(manifest_file) {
        return Ok(None);
    }
    let Some(manifest) = validate::manifest::parse(game, manifest_file, &ws.sources, diags) else {
        return Ok(None);
    };
    let (schemas, schema_files) = compile_schemas(ws, &manifest, diags)?;
    let (fields, transient) = read_fields(ws.root(), &manifest, &schemas);
    let cache = keep.cached().then(|| {
        // Everything besides a file's own text that its result depends on.
        let mut key = format!("{fields:?}");
        for &f in std::iter::once(&manifest.file).chain(&schema_files) {
            let file = ws.sources.get(f);
            key.push_str(&format!("\u{0}{}\u{0}{}", file.name, file.text));
        }
        let name = if keep.all_fields() {
            format!("{game}.all")
        } else {
            game.to_owned()
        };
        CheckCache::new(ws.root(), game, &name, hash_text(&key))
    });
    let cache = cache.transpose()?.flatten();
    Ok(Some(Head {
        kinds: manifest.manifest.kind_ids(),
        manifest,
        schemas,
        fields,
        transient,
        pack: keep.all_fields(),
        cache,
        errors_before,
    }))
}

/// The fields a compile keeps of each card unpacked (a build keeps every
/// field packed besides): those the rules read, the art fields (checked at
/// every compile) and, in a game with a translation file to check, the
/// fields that hold translatable text. Then the text fields only a file's
/// markup check reads, kept while the file is read and dropped after.
pub(super) fn read_fields(
    root: &Path,
    manifest: &LoadedManifest,
    schemas: &GameSchemas,
) -> (BTreeSet<String>, BTreeSet<String>) {
    let m = &manifest.manifest;
    // A catalog that turns out unreadable only makes this keep more.
    let catalogs = m
        .translations
        .iter()
        .any(|lang| root.join(i18n::file_path(&m.id, lang)).exists());
    let mut fields = if catalogs {
        i18n::sources::translatable_fields(manifest, schemas)
    } else {
        BTreeSet::new()
    };
    m.all_rules().for_each(|r| r.fields(&mut fields));
    if let Some(play) = &m.play {
        play.fields(&mut fields);
    }
    let mut text = BTreeSet::new();
    for kind in m.kind_ids() {
        fields.extend(crate::art::art_fields(m, schemas, &kind));
        text.extend(crate::markup::text_fields(schemas, &kind));
    }
    let transient = text.difference(&fields).cloned().collect();
    fields.extend(text);
    (fields, transient)
}
