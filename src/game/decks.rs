//! A game's example decks checked: each read, parsed and judged as it is
//! read, and which of them can be judged while some cards have errors;
//! and, for `carta check`, the player's collection of the game.

use std::collections::HashSet;

use super::compiled::Game;
use super::head::Keep;
use super::record::CollectionMark;
use crate::cache::{Mark, Stamp, hash_text};
use crate::collection;
use crate::deck::{self, DeckFile};
use crate::diag::{self, Diagnostic, Diagnostics, FileId, Severity};
use crate::link::CardPool;
use crate::load::{LoadError, Workspace};

/// Checks the decks under `cards/<game>/decks/`, each as it is read (decks
/// are independent); keeps them on the game when every field is kept (only
/// emitters need them once they are checked). Returns each deck file with
/// the mark of what was read (its stamp and text), for the game's record.
pub(super) fn check_example_decks(
    ws: &mut Workspace,
    game: &mut Game,
    keep: Keep,
    trust: &Trust,
    diags: &mut Diagnostics,
) -> Result<Vec<(String, Option<Mark>)>, LoadError> {
    let deck_files = ws.deck_files(game.id(), diags)?;
    let game_ref: &Game = game;
    // As a card file's, a deck file's text stays only when it has
    // something to report.
    let reuse = |_: FileId, _: &str, _: Stamp| None;
    let checked = ws.read_decks_stamped(&deck_files, diags, reuse, |file, _, text, stamp| {
        let mut out = Vec::new();
        let deck = check_deck(game_ref, file, text, trust, &mut out);
        let report = !out.is_empty();
        ((deck, out, Mark::of_text(text, stamp)), report)
    })?;
    let mut marks = Vec::with_capacity(deck_files.len());
    for (rel, checked) in deck_files.into_iter().zip(checked) {
        let Some((deck, out, mark)) = checked else {
            marks.push((rel, None));
            continue;
        };
        marks.push((rel, Some(mark)));
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
pub(super) struct Trust {
    /// The card files with errors (none when the pool is clean).
    tainted: HashSet<FileId>,
}

impl Trust {
    /// The trust a compile's card diagnostics `found` allow, or `None` when
    /// decks cannot be judged at all: a card file that could not be read or
    /// parsed may hold any id, so no deck line can be called unknown.
    pub(super) fn of(found: &[Diagnostic], cards_ok: bool) -> Option<Trust> {
        if cards_ok {
            return Some(Trust::default());
        }
        let errors = || found.iter().filter(|d| d.severity == Severity::Error);
        if errors().any(says_unread) {
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

/// Whether error `d` says that a file could not be read or parsed (or
/// stands for errors not kept, which may): a card file it points into may
/// hold any id.
pub(super) fn says_unread(d: &Diagnostic) -> bool {
    d.code.starts_with("toml::")
        || d.code.starts_with("load::")
        || d.code == "sheet::unreadable"
        || d.code == diag::ELIDED
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

/// Checks the player's collection of `game` (`decks/<game>/collection.toml`),
/// when there is one: read through the workspace's jail (a link out, a
/// FIFO or a file over the size limit is reported, never read), parsed,
/// and its card ids checked against the pool.
pub(super) fn check_collection(
    ws: &mut Workspace,
    game: &Game,
    diags: &mut Diagnostics,
) -> Result<CollectionMark, LoadError> {
    let rel = collection::path_of(game.id());
    if std::fs::symlink_metadata(ws.root().join(&rel)).is_err() {
        return Ok(None);
    }
    let file = ws.read(&rel, diags)?;
    if !ws.is_text(file) {
        return Ok(Some(None));
    }
    let text = std::sync::Arc::clone(&ws.sources.get(file).text);
    let mut out = Vec::new();
    if let Some(parsed) = collection::parse(file, &text, &mut out) {
        collection::check(&parsed, game.id(), &game.pool, &mut out);
    }
    diags.extend(out);
    Ok(Some(Some(hash_text(&text))))
}
