//! The player's collection for `carta deck check`: the file named by
//! `--collection`, a `collection.toml` among the files named (as a shell
//! expands `decks/<game>/*.toml`), or else the game's own
//! (`decks/<game>/collection.toml`, read through the jail); and what each
//! judged deck needs beyond it — warnings, never an error of the game's
//! rules (owning cards is not a deck rule).

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

use crate::collection::{self, Collection};
use crate::deck::DeckFile;
use crate::diag::{Diagnostic, Diagnostics, Label};
use crate::game::{Game, Games};
use crate::load::{LoadError, Workspace};

/// At most this many other lines of one card are labelled.
const MAX_LABELS: usize = 8;

/// The collections of one run, by game.
#[derive(Debug, Default)]
pub(super) struct Owned {
    /// Collections named on the command line, by their game (`None`: the
    /// file did not parse); they stand in for the game's own.
    named: BTreeMap<String, Option<Collection>>,
    /// The games' own collections, read when a deck of the game is judged.
    own: BTreeMap<String, Option<Collection>>,
}

impl Owned {
    /// Whether `path` names a collection rather than a deck.
    pub(super) fn is_collection(path: &Path) -> bool {
        path.file_name().is_some_and(|n| n == collection::FILE_NAME)
    }

    /// Reads the collection the user named (`--collection FILE`, or a
    /// `collection.toml` among the deck files) and checks it against its
    /// game; it is then the collection of that game for this run.
    ///
    /// # Errors
    /// When the file cannot be read.
    pub(super) fn name(
        &mut self,
        ws: &mut Workspace,
        path: &Path,
        games: &mut Games,
        diags: &mut Diagnostics,
    ) -> Result<(), LoadError> {
        let file = ws.read_path(path, diags)?;
        if !ws.is_text(file) {
            return Ok(());
        }
        let text = Arc::clone(&ws.sources.get(file).text);
        let mut found = Vec::new();
        let parsed = collection::parse(file, &text, &mut found);
        if let Some(c) = &parsed {
            if ws.game_ids()?.contains(&c.game) {
                if let Some(game) = games.get(ws, &c.game, diags)? {
                    collection::check(c, game.id(), &game.pool, &mut found);
                }
            } else {
                found.push(
                    Diagnostic::error(
                        "collection::game",
                        format!("there is no game `{}` in this workspace", c.game),
                    )
                    .at(file, c.game_span.clone(), "unknown game"),
                );
            }
        }
        diags.extend(found);
        if let Some(c) = parsed {
            self.named.insert(c.game.clone(), Some(c));
        }
        Ok(())
    }

    /// The collection a deck of `game` is held against: one named for it,
    /// or the game's own (`decks/<game>/collection.toml`, read and
    /// checked the first time), or none.
    ///
    /// # Errors
    /// When the file cannot be read.
    pub(super) fn of(
        &mut self,
        ws: &mut Workspace,
        game: &Game,
        diags: &mut Diagnostics,
    ) -> Result<Option<&Collection>, LoadError> {
        let id = game.id();
        if self.named.contains_key(id) {
            return Ok(self.named[id].as_ref());
        }
        if !self.own.contains_key(id) {
            let own = read_own(ws, game, diags)?;
            self.own.insert(id.to_owned(), own);
        }
        Ok(self.own[id].as_ref())
    }
}

/// The game's own collection, when it has one: read through the jail,
/// parsed and checked.
fn read_own(
    ws: &mut Workspace,
    game: &Game,
    diags: &mut Diagnostics,
) -> Result<Option<Collection>, LoadError> {
    let rel = collection::path_of(game.id());
    if std::fs::symlink_metadata(ws.root().join(&rel)).is_err() {
        return Ok(None);
    }
    let file = ws.read(&rel, diags)?;
    if !ws.is_text(file) {
        return Ok(None);
    }
    let text = Arc::clone(&ws.sources.get(file).text);
    let mut found = Vec::new();
    let parsed = collection::parse(file, &text, &mut found);
    if let Some(c) = &parsed {
        collection::check(c, game.id(), &game.pool, &mut found);
    }
    diags.extend(found);
    Ok(parsed.filter(|c| c.game == game.id()))
}

/// Reports each card deck `deck` needs more copies of than `owned` holds,
/// as a warning at its first line (its other lines labelled); returns the
/// line under the verdict that totals them (`None`: nothing is missing).
pub(super) fn report_missing(
    deck: &DeckFile,
    (owned, shown): (&Collection, &str),
    deck_name: &str,
    out: &mut Vec<Diagnostic>,
) -> Option<String> {
    let lines = deck
        .zones
        .iter()
        .flat_map(|z| z.entries.iter().map(|e| (e.id.as_str(), e.count)));
    let missing = owned.missing(lines);
    if missing.is_empty() {
        return None;
    }
    for m in &missing {
        let mut at = deck
            .zones
            .iter()
            .flat_map(|z| &z.entries)
            .filter(|e| e.id == m.card);
        let first = at.next().expect("a missing card comes from a deck line");
        let mut d = Diagnostic::warning(
            "collection::missing",
            format!(
                "the deck needs {} of `{}`, the collection has {}: {} missing",
                m.needed, m.card, m.owned, m.missing
            ),
        )
        .at(
            deck.file,
            first.span.clone(),
            format!("{} missing", m.missing),
        )
        .with_help("owning cards is not a rule of the game: the deck stays legal");
        for e in at.take(MAX_LABELS) {
            d = d.with_label(Label::new(
                deck.file,
                e.span.clone(),
                format!("{} more here", e.count),
            ));
        }
        out.push(d);
    }
    let copies: u64 = missing.iter().map(|m| u64::from(m.missing)).sum();
    Some(format!(
        "{deck_name}: {copies} cop{} of {} card{} missing from `{shown}`",
        if copies == 1 { "y" } else { "ies" },
        missing.len(),
        super::plural(missing.len())
    ))
}
