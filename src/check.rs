//! `carta check`: the pipeline load → validate → link, game by game.

use crate::deck::{self, DeckFile};
use crate::diag::{Diagnostic, Diagnostics};
use crate::link::{CardPool, link};
use crate::load::{LoadError, Workspace};
use crate::manifest::{self, LoadedManifest};
use crate::rules::{self, Rules};
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::diag::FileId;
use crate::load::{CheckCache, hash_text};
use crate::validate::{FileCards, GameSchemas, read_cards};

/// A game that passed loading: its manifest and its linked cards.
#[derive(Debug)]
pub struct Game {
    /// The manifest and its spans.
    pub manifest: LoadedManifest,
    /// Every card, linked.
    pub pool: CardPool,
    /// The compiled deck and box rules.
    pub rules: Rules,
    /// What printing needs of each kind's schema (labels, references, the
    /// default face's fields).
    pub display: std::collections::BTreeMap<String, crate::validate::display::KindDisplay>,
    /// The example decks under `cards/<game>/decks/` that parsed.
    pub decks: Vec<DeckFile>,
    /// How many card files were unchanged since the last `carta check` and
    /// taken from its cache instead of being parsed and validated again.
    pub reused_files: usize,
}

/// What a check keeps of the cards.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fields {
    /// Every field (`carta build` and whatever emits the cards).
    All,
    /// Only the fields the game's rules read (`carta check`: a 20,000-card
    /// game then fits in a fraction of the memory).
    Rules,
    /// As `Rules`, and reusing (and refreshing) the check cache under
    /// `build/.cache/` for card files unchanged since the last check.
    RulesCached,
}

/// Whether to check the decks under `cards/<game>/decks/` too.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decks {
    /// Check them (`carta check`, `carta build`).
    Check,
    /// Leave them (`carta deck check` checks the files it is given).
    Skip,
}

/// Checks the named games (all when `games` is empty), reporting every
/// problem into `diags`. Returns the games that could be loaded.
///
/// # Errors
/// When the workspace or a file cannot be read, or a named game does not exist.
pub fn check(
    ws: &mut Workspace,
    games: &[String],
    diags: &mut Diagnostics,
) -> Result<Vec<Game>, LoadError> {
    check_keeping(ws, games, Fields::All, diags)
}

/// [`check`], keeping only some of the cards' fields.
///
/// # Errors
/// As [`check`].
pub fn check_keeping(
    ws: &mut Workspace,
    games: &[String],
    fields: Fields,
    diags: &mut Diagnostics,
) -> Result<Vec<Game>, LoadError> {
    let mut out = Vec::new();
    for game in ws.select_games(games)? {
        if let Some(g) = check_game_keeping(ws, &game, Decks::Check, fields, diags)? {
            out.push(g);
        }
    }
    Ok(out)
}

/// Loads, validates and links one game, compiles its rules, checks its box
/// rules and (with [`Decks::Check`]) its example decks.
///
/// # Errors
/// When a file cannot be read.
pub fn check_game(
    ws: &mut Workspace,
    game: &str,
    decks: Decks,
    diags: &mut Diagnostics,
) -> Result<Option<Game>, LoadError> {
    check_game_keeping(ws, game, decks, Fields::All, diags)
}

/// [`check_game`], keeping only some of the cards' fields.
///
/// # Errors
/// As [`check_game`].
pub fn check_game_keeping(
    ws: &mut Workspace,
    game: &str,
    decks: Decks,
    fields: Fields,
    diags: &mut Diagnostics,
) -> Result<Option<Game>, LoadError> {
    let errors_before = diags.error_count();
    let manifest_file = ws.read(&format!("cards/{game}/game.toml"), diags)?;
    let Some(manifest) = manifest::parse(game, manifest_file, &ws.sources, diags) else {
        return Ok(None);
    };
    let (schemas, schema_files) = compile_schemas(ws, &manifest, diags)?;
    let kinds = manifest.manifest.kind_ids();
    let keep = (fields != Fields::All).then(|| {
        let mut keep = std::collections::BTreeSet::new();
        let m = &manifest.manifest;
        m.deck_rules
            .iter()
            .chain(&m.box_rules)
            .for_each(|r| r.fields(&mut keep));
        keep
    });
    // Each file is parsed and validated as soon as it is read, in parallel;
    // its text stays in memory only when it has something to report, or
    // when every field is kept anyway (build).
    let card_files = ws.card_files(game)?;
    // `carta check` reuses what an earlier check found in unchanged files.
    let cache = (fields == Fields::RulesCached).then(|| {
        let mut key = format!("{:?}", keep);
        for &f in std::iter::once(&manifest.file).chain(&schema_files) {
            let file = ws.sources.get(f);
            key.push_str(&format!("\u{0}{}\u{0}{}", file.name, file.text));
        }
        CheckCache::new(ws.root(), game, hash_text(&key))
    });
    let reused = AtomicUsize::new(0);
    let per_file = ws.read_each(
        &card_files,
        fields == Fields::All,
        diags,
        |file, rel, text| {
            let content = cache.as_ref().map(|_| hash_text(text));
            let hit = cache
                .as_ref()
                .zip(content)
                .and_then(|(cache, content)| cache.get(rel, content));
            if let Some(mut cards) = hit {
                cards.iter_mut().for_each(|c| c.file = file);
                reused.fetch_add(1, Ordering::Relaxed);
                return (
                    FileCards {
                        cards,
                        diagnostics: Vec::new(),
                    },
                    false,
                );
            }
            let found = read_cards(file, text, &kinds, &schemas, keep.as_ref());
            let report = !found.diagnostics.is_empty();
            if let (Some(cache), Some(content), false) = (&cache, content, report) {
                cache.put(rel, content, &found.cards);
            }
            (found, report)
        },
    )?;
    if let Some(cache) = &cache {
        cache.prune(&card_files);
    }
    let mut cards = Vec::new();
    for f in per_file.into_iter().flatten() {
        diags.extend(f.diagnostics);
        cards.extend(f.cards);
    }
    let pool = link(cards, diags);
    // Rules counted over cards with errors would only repeat those errors.
    let cards_ok = diags.error_count() == errors_before;
    let rules = rules::compile(&manifest, &pool, &schemas, diags);
    let mut found = Vec::new();
    if cards_ok {
        deck::check_box(&manifest, &pool, &rules.boxed, &mut found);
    }
    let mut game = Game {
        manifest,
        pool,
        rules,
        display: schemas.display(),
        decks: Vec::new(),
        reused_files: reused.into_inner(),
    };
    if decks == Decks::Check && cards_ok {
        // Decks are independent too: each is read and checked as it is read.
        let deck_files = ws.deck_files(game_id(&game))?;
        let checked = ws.read_each(
            &deck_files,
            fields == Fields::All,
            diags,
            |file, _, text| {
                let mut out = Vec::new();
                let deck = check_deck(&game, file, text, &mut out);
                let report = !out.is_empty();
                ((deck, out), report)
            },
        )?;
        for (deck, out) in checked.into_iter().flatten() {
            found.extend(out);
            // Only emitters need the decks once they are checked.
            if fields == Fields::All {
                game.decks.extend(deck);
            }
        }
    }
    diags.extend(found);
    Ok(Some(game))
}

fn game_id(game: &Game) -> &str {
    &game.manifest.manifest.id
}

/// Parses one deck file of `game`, resolves it and checks it against the
/// deck rules; returns the parsed deck when it is for this game.
pub fn check_deck(
    game: &Game,
    file: crate::diag::FileId,
    text: &str,
    out: &mut Vec<Diagnostic>,
) -> Option<DeckFile> {
    let parsed = deck::parse(file, text, out)?;
    if parsed.game != game_id(game) {
        out.push(
            Diagnostic::error(
                "deck::game",
                format!(
                    "this deck is for `{}`, but it is in the decks of `{}`",
                    parsed.game,
                    game_id(game)
                ),
            )
            .at(file, parsed.game_span.clone(), "another game")
            .with_help(format!(
                "write `game = \"{}\"`, or move the file to that game's `decks/`",
                game_id(game)
            )),
        );
        return None;
    }
    if let Some(resolved) =
        deck::resolve(&parsed, &game.manifest, &game.pool, &game.rules.deck, out)
    {
        deck::check(&parsed, &resolved, &game.manifest, &game.rules.deck, out);
    }
    Some(parsed)
}

/// Reads the game's schema files (its `schemas/<game>/` folder and any other
/// path a kind names) and compiles one validator per kind.
fn compile_schemas(
    ws: &mut Workspace,
    manifest: &LoadedManifest,
    diags: &mut Diagnostics,
) -> Result<(GameSchemas, Vec<FileId>), LoadError> {
    let m = &manifest.manifest;
    let paths = m.schema_paths();
    let mut files = ws.schema_files(&m.id)?;
    for path in paths.values() {
        if !files.contains(path) && ws.exists(path) {
            files.push(path.clone());
        }
    }
    let mut ids = ws.read_many(&files, diags)?;
    ids.retain(|&f| ws.is_text(f));
    let kinds = m.kind_ids();
    let docs = GameSchemas::parse_files(&ids, &ws.sources, &kinds, diags);
    let parsed: Vec<String> = docs.iter().map(|d| d.uri.clone()).collect();
    let by_uri = paths
        .iter()
        .map(|(k, p)| (k.clone(), crate::validate::uri_of(p)))
        .collect();
    let (schemas, missing) = GameSchemas::compile(docs, &by_uri, diags);
    for kind in missing {
        let path = &paths[&kind];
        if parsed.contains(&crate::validate::uri_of(path)) || files.contains(path) {
            continue; // present but broken: already reported at the schema file
        }
        let pointer = format!("/kinds/{kind}");
        let span = manifest.spans.key_span(&pointer).unwrap_or(0..0);
        diags.push(
            Diagnostic::error(
                "schema::missing",
                format!("kind `{kind}` has no schema: `{path}` does not exist"),
            )
            .at(manifest.file, span, "declared here")
            .with_help(format!(
                "create `{path}`, or set `schema = \"…\"` on the kind"
            )),
        );
    }
    Ok((schemas, ids))
}
