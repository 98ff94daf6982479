//! The compiled game: one game's manifest, schemas, linked card pool, rules
//! and example decks, made by running the stages load → validate → link →
//! rules over it. Every command and every emitter takes a [`Game`].

use std::collections::{BTreeMap, BTreeSet};

use crate::deck::{self, DeckFile};
use crate::diag::Diagnostics;
use crate::i18n::{self, Translations};
use crate::link::{CardPool, link};
use crate::load::{CheckCache, LoadError, Workspace, hash_text};
use crate::rules::{self, Rules};

mod added;
mod cards;
mod changes;
mod decks;
mod kept;
pub mod ledger;
pub mod partials;
mod prior;
mod recall;
mod record;
mod renamed;
mod schemas;

use self::cards::{CardFiles, kept_fields, read_card_files};
use self::decks::{Trust, check_collection, check_example_decks};
pub use self::recall::{Answered, Checked, Draft, Recalled, check_all, remember};
use self::record::CollectionMark;
pub use self::renamed::{CardLines, CardsDigest, EditorSchemas};
use self::schemas::compile_schemas;
use crate::validate::{self, GameSchemas, LoadedManifest};

/// A game that passed loading: its manifest and its linked cards.
#[derive(Debug)]
pub struct Game {
    /// The manifest and its spans.
    pub manifest: LoadedManifest,
    /// Every card, linked.
    pub pool: CardPool,
    /// The compiled deck and box rules.
    pub rules: Rules,
    /// The kinds' compiled schemas and their documents.
    pub schemas: GameSchemas,
    /// The example decks under `cards/<game>/decks/` that parsed.
    pub decks: Vec<DeckFile>,
    /// Its translations (`cards/<game>/i18n/`).
    pub i18n: Translations,
    /// Its templates (`templates/<game>/*.hbs`), read and checked once.
    pub templates: partials::Checked,
    /// How many card files were unchanged since the last `carta check` and
    /// taken from its cache instead of being parsed and validated again.
    pub reused_files: usize,
    /// Whether it was compiled through the check cache (without
    /// `--no-cache`): what is derived from it may keep caches of its own
    /// beside it (the editor deck schema's index).
    pub cached: bool,
}

impl Game {
    /// The game's id (its folder name).
    pub fn id(&self) -> &str {
        &self.manifest.manifest.id
    }

    /// The catalog of `lang`, unless it is the game's own language.
    fn catalog_of(&self, lang: &str) -> Option<&i18n::Catalog> {
        (lang != self.manifest.manifest.language)
            .then(|| self.i18n.catalog(lang))
            .flatten()
    }

    /// The keys of the strings of `sources` ([`translatable`]) that keep
    /// their source text in `lang`.
    pub fn untranslated(&self, lang: &str, sources: &i18n::Sources) -> Vec<String> {
        i18n::untranslated(
            lang,
            &self.manifest.manifest,
            sources,
            self.catalog_of(lang),
        )
    }

    /// The game in `lang` (its own language or one of its translations):
    /// every translated string put in, the source text where a translation
    /// is missing.
    #[must_use]
    pub fn localized(&self, lang: &str) -> Game {
        // Localizing reads the strings only through a catalog, and a game
        // with catalogs read its strings when it was compiled.
        let l = i18n::localize(
            lang,
            &self.manifest.manifest,
            self.pool.iter(),
            &self.i18n.sources,
            self.catalog_of(lang),
        );
        // Relinking the same ids reports nothing new.
        let pool = link(l.cards, &mut Diagnostics::new());
        Game {
            manifest: LoadedManifest {
                manifest: l.manifest,
                ..self.manifest.clone()
            },
            pool,
            rules: self.rules.clone(),
            schemas: self.schemas.clone(),
            decks: Vec::new(),
            i18n: self.i18n.only(lang, &self.manifest.manifest.language),
            templates: self.templates.clone(),
            reused_files: 0,
            cached: false,
        }
    }
}

/// What a compiled game keeps of the cards.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Keep {
    /// Every field (`carta build` and whatever emits the cards): packed
    /// ([`RawCard::all_fields`] unpacks them), and unpacked what `Rules`
    /// keeps.
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
    fn all_fields(self) -> bool {
        matches!(self, Keep::All | Keep::AllCached)
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
    Ok(Some(finish(ws, head, decks, keep, diags, None)?.0))
}

/// What compiling a game starts from: its manifest and compiled schemas,
/// what is kept of its cards and, with [`Keep::RulesCached`], its cache.
struct Head {
    manifest: LoadedManifest,
    schemas: GameSchemas,
    kinds: Vec<String>,
    kept: BTreeSet<String>,
    /// Fields kept only while a file is read (for its markup check), then
    /// dropped from its cards: no later stage reads them.
    unkept: BTreeSet<String>,
    /// Whether every field is kept packed besides ([`Keep::All`]).
    pack: bool,
    cache: Option<CheckCache>,
    errors_before: usize,
}

/// Reads and checks the manifest and compiles the kind schemas. `None`
/// when the game has no usable manifest (reported).
fn prepare(
    ws: &mut Workspace,
    game: &str,
    keep: Keep,
    diags: &mut Diagnostics,
) -> Result<Option<Head>, LoadError> {
    let errors_before = diags.error_count();
    let rel = format!("cards/{game}/game.toml");
    // Unchanged since a check that found no error: valid by its schema.
    let valid = ws.jail().kept(&rel);
    let manifest_file = ws.read(&rel, diags)?;
    if !ws.is_text(manifest_file) {
        return Ok(None);
    }
    let parsed = validate::manifest::parse(game, manifest_file, &ws.sources, diags, valid);
    let Some(manifest) = parsed else {
        return Ok(None);
    };
    let (schemas, schema_files) = compile_schemas(ws, &manifest, diags)?;
    let (kept, unkept) = kept_fields(ws.root(), &manifest, &schemas);
    let cache = matches!(keep, Keep::RulesCached | Keep::AllCached).then(|| {
        // Everything besides a file's own text that its result depends on.
        let mut key = format!("{kept:?}");
        for &f in std::iter::once(&manifest.file).chain(&schema_files) {
            let file = ws.sources.get(f);
            key.push_str(&format!("\u{0}{}\u{0}{}", file.name, file.text));
        }
        let name = if keep.all_fields() {
            format!("{game}.all")
        } else {
            game.to_owned()
        };
        CheckCache::new(ws.root(), &name, hash_text(&key))
    });
    let cache = cache.transpose()?.flatten();
    Ok(Some(Head {
        kinds: manifest.manifest.kind_ids(),
        manifest,
        schemas,
        kept,
        unkept,
        pack: keep.all_fields(),
        cache,
        errors_before,
    }))
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
/// cache, also returns what the game's record needs. With a `prior`, the
/// cards and the standing deck verdicts are taken from the record.
fn finish(
    ws: &mut Workspace,
    head: Head,
    decks: Decks,
    keep: Keep,
    diags: &mut Diagnostics,
    prior: Option<prior::Prior>,
) -> Result<(Game, Option<recall::Draft>), LoadError> {
    let (since, first_file) = (diags.len(), ws.sources.len());
    let (read, verdicts, old_pool) = if let Some(p) = prior {
        let taken = taken_cards(ws, &head, p.files, p.reused, p.removed);
        (taken, p.verdicts, p.pool)
    } else {
        (read_card_files(ws, &head, diags)?, None, None)
    };
    let (templates, pool) = link_beside_templates(ws, &head, read.cards, diags)?;
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
    // A recorded verdict stands only where the decks are judged as it was.
    let verdicts = verdicts.filter(|_| cards_ok);
    if cards_ok {
        check_box(&game, diags);
    }
    let trust = Trust::of(diags.reported(since..diags.len()), cards_ok);
    let (deck_marks, collection) = players(
        ws,
        &mut game,
        (decks, keep, trust, verdicts.as_ref()),
        diags,
    )?;
    let draft = cache.map(|cache| recall::Draft {
        cache,
        cards: read.marks,
        decks: deck_marks,
        trusted: cards_ok,
        pool: old_pool,
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
    cards: Vec<crate::validate::RawCard>,
    diags: &mut Diagnostics,
) -> Result<(partials::Checked, CardPool), LoadError> {
    let mut linked = Diagnostics::new();
    let (templates, pool) = rayon::join(
        || partials::check(ws, &head.manifest.manifest.id, diags),
        || link(cards, &mut linked),
    );
    diags.extend(linked);
    Ok((templates?, pool))
}

/// The cards a compile takes from the record ([`prior::Prior::files`]):
/// each file registered unread, as a cached file is; the entries of the
/// files that are gone pruned.
fn taken_cards(
    ws: &mut Workspace,
    head: &Head,
    files: Vec<(String, crate::load::Mark, Vec<crate::validate::RawCard>)>,
    reused: usize,
    removed: bool,
) -> CardFiles {
    let mut out = CardFiles {
        cards: Vec::with_capacity(files.iter().map(|f| f.2.len()).sum()),
        reused,
        marks: Vec::with_capacity(files.len()),
    };
    for (rel, mark, mut cards) in files {
        let file = ws.sources.add_unread(rel.clone());
        for c in &mut cards {
            c.file = file;
        }
        out.cards.append(&mut cards);
        out.marks.push((rel, Some(mark)));
    }
    if removed && let Some(cache) = &head.cache {
        let rels: Vec<String> = out.marks.iter().map(|(r, _)| r.clone()).collect();
        cache.prune(&rels);
    }
    out
}

/// Each example deck file read, and the mark of its text.
type DeckMarks = Vec<prior::DeckMark>;

/// Checks the example decks (with [`Decks::Check`] or [`Decks::Players`])
/// and the player's collection (with [`Decks::Players`]) as far as `trust`
/// allows (none when `None`); what each read, for the game's record.
fn players(
    ws: &mut Workspace,
    game: &mut Game,
    (decks, keep, trust, verdicts): (Decks, Keep, Option<Trust>, Option<&prior::Verdicts>),
    diags: &mut Diagnostics,
) -> Result<(DeckMarks, CollectionMark), LoadError> {
    let Some(trust) = trust.filter(|_| decks != Decks::Skip) else {
        return Ok((Vec::new(), None));
    };
    let marks = check_example_decks(ws, game, keep, (&trust, verdicts), diags)?;
    let collection = if decks == Decks::Players {
        check_collection(ws, game, diags)?
    } else {
        None
    };
    Ok((marks, collection))
}

/// The translatable strings of `game`, compiled with every field kept
/// ([`Keep::All`]): those its compile kept when it has a translation file
/// to check, or made now when it has none yet — for what needs them
/// anyway (sheets in a language without a file, a first export for
/// translators).
///
/// # Errors
/// When a template cannot be read.
pub fn translatable<'g>(
    ws: &mut Workspace,
    game: &'g Game,
    diags: &mut Diagnostics,
) -> Result<std::borrow::Cow<'g, i18n::Sources>, LoadError> {
    if !game.i18n.catalogs.is_empty() || game.manifest.manifest.translations.is_empty() {
        return Ok(std::borrow::Cow::Borrowed(&game.i18n.sources));
    }
    let phrases = i18n::phrases::read(ws, game.id(), diags)?;
    let titled = titled_kinds(ws, &game.manifest.manifest, &game.templates);
    let sources = i18n::Sources::of(&game.manifest, &game.schemas, &game.pool)
        .with_phrases(phrases)
        .with_titles(&game.schemas, &titled);
    Ok(std::borrow::Cow::Owned(sources))
}

/// The kinds whose face may print the default face's titles: those with
/// no face template of their own (`<kind>.hbs`, or the game's
/// `face.hbs`), and every kind when a template of the game reads `layout`
/// or the templates are not rendered (a cycle of partials).
fn titled_kinds(
    ws: &Workspace,
    manifest: &crate::config::Manifest,
    templates: &partials::Checked,
) -> Vec<String> {
    let has = |name: &str| templates.files.iter().any(|(n, _)| n == name);
    let reads_layout = !templates.sound
        || templates
            .files
            .iter()
            .any(|(_, f)| ws.sources.get(*f).text.contains("layout"));
    manifest
        .kinds
        .keys()
        .filter(|k| reads_layout || !(has("face.hbs") || has(&format!("{k}.hbs"))))
        .cloned()
        .collect()
}

/// Checks the game's translations over a pool without card errors (like
/// rules); nothing when it declares none.
fn translations(
    ws: &mut Workspace,
    (manifest, schemas, templates): (&LoadedManifest, &GameSchemas, &partials::Checked),
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
