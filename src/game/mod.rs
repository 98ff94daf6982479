//! The compiled game: one game's manifest, schemas, linked card pool, rules
//! and example decks, made by running the stages load → validate → link →
//! rules over it. Every command and every emitter takes a [`Game`].

use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::deck::{self, DeckFile};
use crate::diag::{self, Diagnostic, Diagnostics, FileId, Severity};
use crate::i18n::{self, Translations};
use crate::link::{CardPool, link};
use crate::load::{CheckCache, LoadError, Mark, ReadProblem, Stamp, Workspace, hash_text};
use crate::rules::{self, Rules};

pub mod partials;
mod recall;

pub use self::recall::{Checked, Draft, Recalled, check_all, remember};
use crate::validate::{self, FileCards, GameSchemas, LoadedManifest, RawCard, read_cards};

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
}

impl Game {
    /// The game's id (its folder name).
    pub fn id(&self) -> &str {
        &self.manifest.manifest.id
    }

    /// The game in `lang` (its own language or one of its translations):
    /// every translated string put in, the source text where a translation
    /// is missing; and the keys of what kept its source text.
    /// `sources` are its translatable strings ([`translatable`]).
    pub fn localized(&self, lang: &str, sources: &i18n::Sources) -> (Game, Vec<String>) {
        let catalog = (lang != self.manifest.manifest.language)
            .then(|| self.i18n.catalog(lang))
            .flatten();
        let l = i18n::localize(
            lang,
            &self.manifest.manifest,
            self.pool.iter(),
            sources,
            catalog,
        );
        // Relinking the same ids reports nothing new.
        let pool = link(l.cards, &mut Diagnostics::new());
        let game = Game {
            manifest: LoadedManifest {
                manifest: l.manifest,
                ..self.manifest.clone()
            },
            pool,
            rules: self.rules.clone(),
            schemas: self.schemas.clone(),
            decks: Vec::new(),
            i18n: self.i18n.only(lang),
            templates: self.templates.clone(),
            reused_files: 0,
        };
        (game, l.untranslated)
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
    /// Check them (`carta check`, `carta build`).
    Check,
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
    Ok(Some(finish(ws, head, decks, keep, diags)?.0))
}

/// What compiling a game starts from: its manifest and compiled schemas,
/// what is kept of its cards and, with [`Keep::RulesCached`], its cache.
struct Head {
    manifest: LoadedManifest,
    schemas: GameSchemas,
    kinds: Vec<String>,
    kept: BTreeSet<String>,
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
    let manifest_file = ws.read(&format!("cards/{game}/game.toml"), diags)?;
    if !ws.is_text(manifest_file) {
        return Ok(None);
    }
    let Some(manifest) = validate::manifest::parse(game, manifest_file, &ws.sources, diags) else {
        return Ok(None);
    };
    let (schemas, schema_files) = compile_schemas(ws, &manifest, diags)?;
    let kept = kept_fields(ws.root(), &manifest, &schemas);
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
        pack: keep.all_fields(),
        cache,
        errors_before,
    }))
}

/// Reads the cards, links them, compiles the rules, checks translations,
/// box rules and (with [`Decks::Check`]) the example decks. With the check
/// cache, also returns what the game's record needs.
fn finish(
    ws: &mut Workspace,
    head: Head,
    decks: Decks,
    keep: Keep,
    diags: &mut Diagnostics,
) -> Result<(Game, Option<recall::Draft>), LoadError> {
    let (since, first_file) = (diags.len(), ws.sources.len());
    let read = read_card_files(ws, &head, diags)?;
    let templates = partials::check(ws, &head.manifest.manifest.id, diags)?;
    let Head {
        manifest,
        schemas,
        cache,
        errors_before,
        ..
    } = head;
    let pool = link(read.cards, diags);
    crate::art::check(ws, &manifest.manifest, &schemas, pool.iter(), diags);
    crate::markup::check(ws, &manifest.manifest, &schemas, pool.iter(), diags);
    // Rules counted over cards with errors would only repeat those errors.
    let cards_ok = diags.error_count() == errors_before;
    let rules = rules::compile(&manifest, &pool, &schemas, diags);
    let i18n = translations(ws, &manifest, &schemas, &pool, cards_ok, diags)?;
    for c in &i18n.catalogs {
        // Translated card text takes the same markup as the source.
        let texts = c.entries.iter().filter_map(|(k, e)| match &k.scope {
            i18n::Scope::Card(id) => Some((
                format!("the {} translation of card `{id}`", c.lang),
                e.text.as_str(),
                &e.text_span,
            )),
            _ => None,
        });
        crate::markup::check_translated(ws, &manifest.manifest, c.file, texts, diags);
    }
    let mut game = Game {
        manifest,
        pool,
        rules,
        schemas,
        decks: Vec::new(),
        i18n,
        templates,
        reused_files: read.reused,
    };
    if decks == Decks::Check {
        // Shown with `-v`: where each rule comes from.
        diags.extend(rules::sources(&game.manifest, &game.rules));
    }
    let mut deck_marks = Vec::new();
    if cards_ok {
        let mut found = Vec::new();
        deck::check_box(&game.manifest, &game.pool, &game.rules.boxed, &mut found);
        diags.extend(found);
    }
    if decks == Decks::Check
        && let Some(trust) = Trust::of(diags.reported(since..diags.len()), cards_ok)
    {
        deck_marks = check_example_decks(ws, &mut game, keep, &trust, diags)?;
    }
    let draft = cache.map(|cache| recall::Draft {
        cache,
        cards: read.marks,
        decks: deck_marks,
        diagnostics: since..diags.len(),
        files: first_file..ws.sources.len(),
    });
    Ok((game, draft))
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
    let sources = i18n::Sources::of(&game.manifest, &game.schemas, &game.pool);
    Ok(std::borrow::Cow::Owned(sources.with_phrases(phrases)))
}

/// Checks the game's translations over a pool without card errors (like
/// rules); nothing when it declares none.
fn translations(
    ws: &mut Workspace,
    manifest: &LoadedManifest,
    schemas: &GameSchemas,
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
        i18n::Sources::of(manifest, schemas, pool).with_phrases(i18n::phrases::read(
            ws,
            &manifest.manifest.id,
            diags,
        )?)
    };
    let coverage = i18n::check(&sources, &catalogs, manifest, pool, diags);
    Ok(Translations {
        sources,
        catalogs,
        coverage: Some(coverage),
    })
}

/// The field names rules read and, in a game with a translation file to
/// check, the fields that hold translatable text: all a compile keeps of
/// a card unpacked (a build keeps every field packed besides).
fn kept_fields(root: &Path, manifest: &LoadedManifest, schemas: &GameSchemas) -> BTreeSet<String> {
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
    // Art and the markup of text are checked at every compile, so art
    // paths and text fields are kept.
    for kind in m.kind_ids() {
        fields.extend(crate::art::art_fields(m, schemas, &kind));
        fields.extend(crate::markup::text_fields(schemas, &kind));
    }
    fields
}

/// The cards of a game's files, and how they were found.
struct CardFiles {
    cards: Vec<RawCard>,
    /// How many files came from the check cache.
    reused: usize,
    /// Each card file and the mark of its cache entry (`None`: not cached).
    marks: Vec<(String, Option<Mark>)>,
}

/// Reads, parses and validates every card file of the game, each as soon
/// as it is read, in parallel; with the check cache, unchanged files come
/// from it.
fn read_card_files(
    ws: &mut Workspace,
    head: &Head,
    diags: &mut Diagnostics,
) -> Result<CardFiles, LoadError> {
    let game = head.manifest.manifest.id.clone();
    let card_files = ws.card_files(&game, diags)?;
    let cache = head.cache.as_ref();
    let reused = AtomicUsize::new(0);
    // An unchanged file (same stamp) is taken from the cache unread.
    let reuse = |file: FileId, rel: &str, stamp| {
        let (mut cards, mark) = cache?.get_stamped::<Vec<RawCard>>(rel, stamp)?;
        for c in &mut cards {
            c.file = file;
        }
        reused.fetch_add(1, Ordering::Relaxed);
        let found = FileCards {
            cards,
            diagnostics: Vec::new(),
        };
        Some((found, Some(mark)))
    };
    // A file's text stays in memory only when it has something to report:
    // what needs it later reads it again (`Workspace::text_of`, `restore`).
    let first = ws.sources.len();
    let types = validate::SheetTypes::new(&head.manifest, &head.schemas);
    let per_file = ws.read_cards_stamped(
        &card_files,
        &types,
        diags,
        reuse,
        |file, rel, text, stamp| {
            let (found, mark, hit) = check_card_text(head, file, rel, text, stamp);
            if hit {
                reused.fetch_add(1, Ordering::Relaxed);
            }
            let report = !found.diagnostics.is_empty();
            ((found, mark), report)
        },
    )?;
    if let Some(cache) = cache {
        cache.prune(&card_files);
    }
    let mut out = CardFiles {
        cards: Vec::new(),
        reused: reused.into_inner(),
        marks: Vec::with_capacity(card_files.len()),
    };
    for (i, (rel, f)) in card_files.into_iter().zip(per_file).enumerate() {
        let mark = f.as_ref().and_then(|(_, m)| *m);
        out.marks.push((rel, mark));
        if let Some((mut f, _)) = f {
            // A spreadsheet's column problems, found once per card, are
            // shown once per column.
            let id = FileId(u32::try_from(first + i).expect("fewer than 2^32 files"));
            if let Some(cells) = ws.sources.get(id).cells.clone() {
                crate::diag::fold_header_repeats(&mut f.diagnostics, id, &cells);
            }
            diags.extend(f.diagnostics);
            out.cards.extend(f.cards);
        }
    }
    Ok(out)
}

/// Checks the text of one card file, through the check cache when there
/// is one: its cards and diagnostics, the mark of its cache entry (`None`
/// when it is not cached: it has diagnostics, or there is no cache), and
/// whether it came from the cache.
fn check_card_text(
    head: &Head,
    file: FileId,
    rel: &str,
    text: &str,
    stamp: Option<Stamp>,
) -> (FileCards, Option<Mark>, bool) {
    let cache = head.cache.as_ref();
    let content = cache.map(|_| hash_text(text));
    let hit = cache.zip(content).and_then(|(cache, content)| {
        let (cards, _) = cache.get::<Vec<RawCard>>(rel, content)?;
        // Same text, new stamp (touched, checked out): remember the
        // stamp, so that next time the file is not read.
        let mark = cache.put(rel, content, stamp, &cards, recall::shape(&cards));
        Some((cards, mark))
    });
    if let Some((mut cards, mark)) = hit {
        for c in &mut cards {
            c.file = file;
        }
        let found = FileCards {
            cards,
            diagnostics: Vec::new(),
        };
        return (found, mark, true);
    }
    let found = if crate::load::sheet::is_card_sheet(rel) {
        read_shadow(head, file, text)
    } else {
        read_cards(
            file,
            text,
            &head.kinds,
            &head.schemas,
            Some(&head.kept),
            head.pack,
        )
    };
    let mark = match (cache, content) {
        (Some(cache), Some(content)) if found.diagnostics.is_empty() => cache.put(
            rel,
            content,
            stamp,
            &found.cards,
            recall::shape(&found.cards),
        ),
        _ => None,
    };
    (found, mark, false)
}

/// The cards of a spreadsheet's shadow, read a slice of cards at a time:
/// a sheet of 20,000 cards is one file, and one parsed tree of all its
/// cards would take the memory of them all at once (a shadow's `[[card]]`
/// lines start its cards, since no value in it spans lines).
fn read_shadow(head: &Head, file: FileId, text: &str) -> FileCards {
    const CARDS_PER_SLICE: usize = 500;
    let starts: Vec<usize> = text
        .match_indices("\n[[card]]\n")
        .map(|(i, _)| i + 1)
        .skip(CARDS_PER_SLICE)
        .step_by(CARDS_PER_SLICE)
        .collect();
    let mut out = FileCards::default();
    let bounds = std::iter::once(0).chain(starts.iter().copied());
    let ends = starts.iter().copied().chain(std::iter::once(text.len()));
    for (from, to) in bounds.zip(ends) {
        let part = read_cards(
            file,
            &text[from..to],
            &head.kinds,
            &head.schemas,
            Some(&head.kept),
            head.pack,
        );
        out.cards.extend(part.cards.into_iter().map(|mut c| {
            let shift = |s: &mut std::ops::Range<usize>| *s = s.start + from..s.end + from;
            shift(&mut c.header);
            shift(&mut c.id_span);
            c.refs.iter_mut().for_each(|r| shift(&mut r.span));
            c
        }));
        out.diagnostics
            .extend(part.diagnostics.into_iter().map(|mut d| {
                for label in d.primary.iter_mut().chain(d.labels.iter_mut()) {
                    label.span = label.span.start + from..label.span.end + from;
                }
                d
            }));
    }
    out
}

/// Checks the decks under `cards/<game>/decks/`, each as it is read (decks
/// are independent); keeps them on the game when every field is kept (only
/// emitters need them once they are checked). Returns each deck file with
/// the mark of what was read (its stamp and text), for the game's record.
fn check_example_decks(
    ws: &mut Workspace,
    game: &mut Game,
    keep: Keep,
    trust: &Trust,
    diags: &mut Diagnostics,
) -> Result<Vec<(String, Option<Mark>)>, LoadError> {
    let deck_files = ws.deck_files(game.id(), diags)?;
    let never = |_: FileId, _: &str, _: Stamp| None;
    // As a card file's, a deck file's text stays only when it has
    // something to report.
    let checked =
        ws.read_each_stamped(&deck_files, false, diags, never, |file, _, text, stamp| {
            let mut out = Vec::new();
            let deck = check_deck(game, file, text, trust, &mut out);
            let report = !out.is_empty();
            let mark = (keep == Keep::RulesCached).then(|| recall::text_mark(text, stamp));
            ((deck, out, mark), report)
        })?;
    let mut marks = Vec::with_capacity(deck_files.len());
    for (rel, checked) in deck_files.into_iter().zip(checked) {
        let Some((deck, out, mark)) = checked else {
            marks.push((rel, None));
            continue;
        };
        marks.push((rel, mark));
        diags.extend(out);
        if keep.all_fields() {
            game.decks.extend(deck);
        }
    }
    Ok(marks)
}

/// Which decks can be judged while some cards have errors: every card
/// that is in the pool is known, so a deck line naming no card of it is
/// always an error; the rules judge a deck only when none of its cards
/// comes from a card file with errors (their counts would repeat them).
#[derive(Debug, Default)]
struct Trust {
    /// The card files with errors (none when the pool is clean).
    tainted: HashSet<FileId>,
}

impl Trust {
    /// The trust a compile's card diagnostics `found` allow, or `None` when
    /// decks cannot be judged at all: a card file that could not be read or
    /// parsed may hold any id, so no deck line can be called unknown.
    fn of(found: &[Diagnostic], cards_ok: bool) -> Option<Trust> {
        if cards_ok {
            return Some(Trust::default());
        }
        let errors = || found.iter().filter(|d| d.severity == Severity::Error);
        let unread = errors().any(|d| {
            d.code.starts_with("toml::") || d.code.starts_with("load::") || d.code == diag::ELIDED
        });
        if unread {
            return None;
        }
        let tainted = errors()
            .filter_map(|d| d.primary.as_ref().map(|l| l.file))
            .collect();
        Some(Trust { tainted })
    }

    /// Whether the rules may judge `resolved`, a deck of `pool`.
    fn judges(&self, resolved: &deck::ResolvedDeck, pool: &CardPool) -> bool {
        resolved.view.zones.iter().flatten().all(|e| {
            let card = pool.card(usize::try_from(e.card).expect("u32 fits usize"));
            !self.tainted.contains(&card.file)
        })
    }
}

/// Parses one deck file of `game`, resolves it and checks it against the
/// deck rules (those `trust` allows); returns the parsed deck when it is
/// for this game.
fn check_deck(
    game: &Game,
    file: FileId,
    text: &str,
    trust: &Trust,
    out: &mut Vec<Diagnostic>,
) -> Option<DeckFile> {
    let parsed = deck::parse(file, text, out)?;
    if parsed.game != game.id() {
        out.push(
            Diagnostic::error(
                "deck::game",
                format!(
                    "this deck is for `{}`, but it is in the decks of `{}`",
                    parsed.game,
                    game.id()
                ),
            )
            .at(file, parsed.game_span.clone(), "another game")
            .with_help(format!(
                "write `game = \"{}\"`, or move the file to that game's `decks/`",
                game.id()
            )),
        );
        return None;
    }
    if trust.tainted.is_empty() {
        deck::judge(&parsed, &game.manifest, &game.pool, &game.rules, out);
    } else if let Some(set) = deck::rules_for(&parsed, &game.rules, out)
        && let Some(resolved) = deck::resolve(&parsed, &game.manifest, &game.pool, set, out)
        && trust.judges(&resolved, &game.pool)
    {
        deck::check(&parsed, &resolved, &game.manifest, set, out);
    }
    Some(parsed)
}

/// The game's schema files — its `schemas/<game>/` folder and any other
/// path a kind names, when it stays inside the workspace — and the paths
/// refused (reported).
fn schema_files(
    ws: &mut Workspace,
    manifest: &LoadedManifest,
    paths: &BTreeMap<String, String>,
    diags: &mut Diagnostics,
) -> Result<(Vec<String>, Vec<String>), LoadError> {
    let mut files = ws.schema_files(&manifest.manifest.id, diags)?;
    let mut refused = Vec::new();
    for (kind, path) in paths {
        if files.contains(path) {
            continue;
        }
        // Refused by the walk of the schemas folder: reported there.
        if ws.was_refused(path) {
            refused.push(path.clone());
            continue;
        }
        // A kind may name any schema file, but only inside the workspace.
        match ws.locate(path) {
            Ok(()) => files.push(path.clone()),
            Err(ReadProblem::Missing) => {}
            Err(problem) => {
                refused.push(path.clone());
                let pointer = format!("/kinds/{kind}/schema");
                let span = manifest.spans.value_span(&pointer).unwrap_or(0..0);
                diags.push(
                    Diagnostic::error(problem.code(), problem.message(path))
                        .at(manifest.file, span, "this schema path")
                        .with_help(
                            "schema paths are relative to the workspace root and stay inside it",
                        ),
                );
            }
        }
    }
    Ok((files, refused))
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
    let (files, refused) = schema_files(ws, manifest, &paths, diags)?;
    let mut ids = ws.read_many(&files, diags)?;
    ids.retain(|&f| ws.is_text(f));
    let kinds = m.kind_ids();
    let docs = GameSchemas::parse_files(&ids, &ws.sources, &kinds, diags);
    let parsed: Vec<String> = docs.iter().map(|d| d.uri.clone()).collect();
    let by_uri = paths
        .iter()
        .map(|(k, p)| (k.clone(), validate::uri_of(p)))
        .collect();
    let (schemas, missing) = GameSchemas::compile(docs, &by_uri, diags);
    for kind in missing {
        let path = &paths[&kind];
        if parsed.contains(&validate::uri_of(path))
            || files.contains(path)
            || refused.contains(path)
        {
            continue; // present but broken or refused: already reported
        }
        let span = manifest
            .spans
            .key_span(&format!("/kinds/{kind}"))
            .unwrap_or(0..0);
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

    /// Remembers a game compiled elsewhere (with its decks, for example).
    pub fn insert(&mut self, game: Game) {
        self.compiled.insert(game.id().to_owned(), Some(game));
    }
}
