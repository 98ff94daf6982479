//! Compiling a game: load → validate → link → rules → decks, for one game
//! ([`compile`]), for several ([`compile_all`]), or each once per run as
//! commands ask ([`Games`]).

use std::collections::BTreeMap;

use super::cards::read_card_files;
use super::compiled::{Game, titled_kinds};
use super::decks::{Trust, check_collection, check_example_decks, says_unread};
use super::head::{Decks, Head, Keep, prepare};
use super::partials;
use super::record::{CollectionMark, Draft};
use crate::cache::Mark;
use crate::deck;
use crate::diag::{Diagnostics, Severity};
use crate::i18n::{self, Translations};
use crate::link::{CardPool, Unlinked, link_beside};
use crate::load::{LoadError, Workspace};
use crate::rules;
use crate::validate::{GameSchemas, LoadedManifest};

/// Compiles the named games (all when `games` is empty) with their decks,
/// reporting every problem into `diags`. Returns the games that could be
/// loaded.
///
/// # Errors
/// When the workspace or a file cannot be read, or a named game does not exist.
pub fn compile_all(
    ws: &mut Workspace,
    games: &[String],
    keep: Keep,
    diags: &mut Diagnostics,
) -> Result<Vec<Game>, LoadError> {
    let mut out = Vec::new();
    for game in ws.select_games(games)? {
        out.extend(compile(ws, &game, Decks::Check, keep, diags)?);
    }
    Ok(out)
}

/// Loads, validates and links one game, compiles its rules, checks its box
/// rules and (with [`Decks::Check`]) its example decks. `None` when the
/// game has no usable manifest (reported).
///
/// # Errors
/// When a file cannot be read.
pub fn compile(
    ws: &mut Workspace,
    game: &str,
    decks: Decks,
    keep: Keep,
    diags: &mut Diagnostics,
) -> Result<Option<Game>, LoadError> {
    let Some(head) = prepare(ws, game, keep, diags)? else {
        return Ok(None);
    };
    Ok(Some(finish(ws, head, decks, keep, diags)?.0))
}

/// The game's box rules over its pool (only over a pool without card
/// errors: the caller's to know).
fn check_box(game: &Game, diags: &mut Diagnostics) {
    let mut found = Vec::new();
    deck::check_box(&game.manifest, &game.pool, &game.rules.boxed, &mut found);
    diags.extend(found);
}

/// Reads the cards, links them, compiles the rules, checks translations,
/// box rules and (with [`Decks::Check`]) the example decks. With the check
/// cache, also returns what the game's record needs.
///
/// # Errors
/// When a file cannot be read.
pub(super) fn finish(
    ws: &mut Workspace,
    head: Head,
    decks: Decks,
    keep: Keep,
    diags: &mut Diagnostics,
) -> Result<(Game, Option<Draft>), LoadError> {
    let (since, first_file) = (diags.len(), ws.sources.len());
    let read = read_card_files(ws, &head, diags)?;
    let unread = diags
        .reported(since..diags.len())
        .iter()
        .any(|d| d.severity == Severity::Error && says_unread(d));
    let unlinked = Unlinked::new(read.unlinked, unread);
    let (templates, pool) = link_beside_templates(ws, &head, (read.cards, unlinked), diags)?;
    let Head {
        manifest,
        schemas,
        cache,
        errors_before,
        ..
    } = head;
    crate::art::check(ws, &manifest.manifest, &schemas, pool.iter(), diags);
    // Rules counted over cards with errors would only repeat those errors.
    let cards_ok = diags.error_count() == errors_before;
    let rules = rules::compile(&manifest, &pool, &schemas, diags);
    let parts = (&manifest, &schemas, &templates);
    let i18n = translations(ws, parts, &pool, cards_ok, diags)?;
    check_translated_markup(ws, &manifest.manifest, &i18n, diags);
    let mut game = Game {
        manifest,
        pool,
        rules,
        schemas,
        decks: Vec::new(),
        i18n,
        templates,
        reused_files: read.reused,
        cached: cache.is_some(),
    };
    if decks != Decks::Skip {
        // Shown with `-v`: where each rule comes from.
        diags.extend(rules::sources(&game.manifest, &game.rules));
    }
    if cards_ok {
        check_box(&game, diags);
    }
    let trust = Trust::of(diags.reported(since..diags.len()), cards_ok);
    let (deck_marks, collection) = players(ws, &mut game, (decks, keep, trust), diags)?;
    let draft = cache.map(|cache| Draft {
        cache,
        cards: read.marks,
        decks: deck_marks,
        collection,
        diagnostics: since..diags.len(),
        files: first_file..ws.sources.len(),
    });
    Ok((game, draft))
}

/// The game's templates checked ([`partials::check`]) while its cards
/// link: neither reads what the other makes. The diagnostics keep the
/// order a serial run gives them (the templates' first).
fn link_beside_templates(
    ws: &mut Workspace,
    head: &Head,
    (cards, unlinked): (Vec<crate::validate::RawCard>, Unlinked),
    diags: &mut Diagnostics,
) -> Result<(partials::Templates, CardPool), LoadError> {
    let mut linked = Diagnostics::new();
    let (templates, pool) = rayon::join(
        || partials::check(ws, &head.manifest.manifest.id, diags),
        || link_beside(cards, unlinked, &mut linked),
    );
    diags.extend(linked);
    Ok((templates?, pool))
}

/// Each example deck file read, and the mark of its text.
type DeckMarks = Vec<(String, Option<Mark>)>;

/// Checks the example decks (with [`Decks::Check`] or [`Decks::Players`])
/// and the player's collection (with [`Decks::Players`]) as far as `trust`
/// allows (none when `None`); what each read, for the game's record.
fn players(
    ws: &mut Workspace,
    game: &mut Game,
    (decks, keep, trust): (Decks, Keep, Option<Trust>),
    diags: &mut Diagnostics,
) -> Result<(DeckMarks, CollectionMark), LoadError> {
    let Some(trust) = trust.filter(|_| decks != Decks::Skip) else {
        return Ok((Vec::new(), None));
    };
    let marks = check_example_decks(ws, game, keep, &trust, diags)?;
    let collection = if decks == Decks::Players {
        check_collection(ws, game, diags)?
    } else {
        None
    };
    Ok((marks, collection))
}

/// Checks the game's translations over a pool without card errors (like
/// rules); nothing when it declares none.
fn translations(
    ws: &mut Workspace,
    (manifest, schemas, templates): (&LoadedManifest, &GameSchemas, &partials::Templates),
    pool: &CardPool,
    cards_ok: bool,
    diags: &mut Diagnostics,
) -> Result<Translations, LoadError> {
    if !cards_ok || manifest.manifest.translations.is_empty() {
        return Ok(Translations::default());
    }
    let catalogs = i18n::check::read(ws, manifest, diags)?;
    // Without a catalog to check them against, a compile has no use for
    // the game's strings (a check did not even keep their fields); what
    // needs them anyway makes them ([`translatable`]).
    let sources = if catalogs.is_empty() {
        i18n::Sources::default()
    } else {
        let phrases = i18n::phrases::read(ws, &manifest.manifest.id, diags)?;
        let titled = titled_kinds(ws, &manifest.manifest, templates);
        i18n::Sources::of(manifest, schemas, pool)
            .with_phrases(phrases)
            .with_titles(schemas, &titled)
    };
    let coverage = i18n::check(&sources, &catalogs, manifest, pool, diags);
    Ok(Translations {
        sources,
        catalogs,
        coverage: Some(coverage),
        source: None,
    })
}

/// Checks the markup of the translated card texts of `i18n`: it takes the
/// same markup as the source.
fn check_translated_markup(
    ws: &Workspace,
    manifest: &crate::config::Manifest,
    i18n: &Translations,
    diags: &mut Diagnostics,
) {
    for c in &i18n.catalogs {
        let texts = c.entries.iter().filter_map(|(k, e)| match &k.scope {
            i18n::Scope::Card(id) => Some((
                format!("the {} translation of card `{id}`", c.lang),
                e.text.as_str(),
                &e.text_span,
            )),
            _ => None,
        });
        crate::markup::check_translated(ws, manifest, c.file, texts, diags);
    }
}

/// Games compiled on demand, each once per run, however many deck files
/// name it (`deck check`, `deck code`, `print`). A game that failed to load
/// is remembered as `None`.
#[derive(Debug, Default)]
pub struct Games {
    compiled: BTreeMap<String, Option<Game>>,
}

impl Games {
    /// Game `id`, compiled (without its example decks) the first time it is asked for.
    ///
    /// # Errors
    /// When a file cannot be read.
    pub fn get(
        &mut self,
        ws: &mut Workspace,
        id: &str,
        diags: &mut Diagnostics,
    ) -> Result<Option<&Game>, LoadError> {
        if !self.compiled.contains_key(id) {
            let game = compile(ws, id, Decks::Skip, Keep::All, diags)?;
            self.compiled.insert(id.to_owned(), game);
        }
        Ok(self.compiled[id].as_ref())
    }

    /// Game `id`, if [`Games::get`] compiled it.
    pub fn compiled(&self, id: &str) -> Option<&Game> {
        self.compiled.get(id)?.as_ref()
    }

    /// Remembers a game compiled elsewhere (with its decks, for example).
    pub fn insert(&mut self, game: Game) {
        self.compiled.insert(game.id().to_owned(), Some(game));
    }
}
