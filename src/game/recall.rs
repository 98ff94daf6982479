//! `carta check` with its cache: each game's verdict repeated from its
//! record when the record answers for every input (see [`super::record`]),
//! else the game compiled (each unchanged card file from its cache entry)
//! and a new record written.

use serde::{Deserialize, Serialize};

use super::compile::finish;
use super::compiled::Game;
use super::head::{Decks, Head, Keep, prepare};
use super::record::{Draft, Record, Why, record_key, same_art, same_texts, scan};
use super::stored::restore;
use crate::cache::{Framed, read_record};
use crate::diag::Diagnostics;
use crate::i18n::Coverage;
use crate::load::{LoadError, Workspace};

/// A game as `carta check` saw it.
#[derive(Debug)]
pub enum Checked {
    /// Compiled by this check (boxed: a game is large, a recalled one
    /// small), and whether its compile found no error.
    Compiled(Box<Game>, Option<Draft>, bool),
    /// Unchanged since the check that left its record: its verdict repeated.
    Recalled(Recalled),
}

impl Checked {
    /// The game's id.
    pub fn id(&self) -> &str {
        match self {
            Checked::Compiled(g, ..) => g.id(),
            Checked::Recalled(r) => &r.id,
        }
    }

    /// How many cards the game has.
    pub fn cards(&self) -> usize {
        match self {
            Checked::Compiled(g, ..) => g.pool.len(),
            Checked::Recalled(r) => r.cards,
        }
    }

    /// How many card files came from the check cache.
    pub fn reused_files(&self) -> usize {
        match self {
            Checked::Compiled(g, ..) => g.reused_files,
            Checked::Recalled(r) => r.reused_files,
        }
    }

    /// How much each declared language covers (`None`: not checked).
    pub fn coverage(&self) -> Option<&[Coverage]> {
        match self {
            Checked::Compiled(g, ..) => g.i18n.coverage.as_deref(),
            Checked::Recalled(r) => r.coverage.as_deref(),
        }
    }
}

/// What the record of an unchanged game says.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Recalled {
    /// The game's id.
    pub id: String,
    /// How many cards it has.
    pub cards: usize,
    /// How many card files were taken unchanged.
    pub reused_files: usize,
    /// Its translations' coverage, as last checked.
    pub coverage: Option<Vec<Coverage>>,
}

/// Whether a game's editor schemas carry the keys its record names (the
/// editor schemas are a layer above the game: `commands::check` answers).
pub type EditorFresh<'a> = &'a dyn Fn(&str, &[String]) -> bool;

/// Checks the named games (all when `games` is empty) with their decks, as
/// `carta check` does: with `cached`, through the check cache, repeating
/// the verdict of a game whose record vouches that nothing it depends on
/// changed and whose editor schemas carry the keys recorded (`fresh`).
///
/// # Errors
/// When the workspace or a file cannot be read, or a named game does not exist.
pub fn check_all(
    ws: &mut Workspace,
    games: &[String],
    cached: bool,
    diags: &mut Diagnostics,
    fresh: EditorFresh<'_>,
) -> Result<Vec<Checked>, LoadError> {
    let keep = if cached {
        Keep::RulesCached
    } else {
        Keep::Rules
    };
    let mut out = Vec::new();
    for id in ws.select_games(games)? {
        // The record is read beside the manifest and the schemas, which
        // tell the key it must carry.
        let root = ws.root().to_path_buf();
        let errors_before = diags.error_count();
        let (head, read) = rayon::join(
            || prepare(ws, &id, keep, diags),
            || cached.then(|| read_record::<Record>(&root, &id)).flatten(),
        );
        let Some(head) = head? else {
            continue;
        };
        match recall(ws, &head, diags, fresh, read)? {
            Ok(recalled) => {
                tracing::debug!(game = id, "record: verdict repeated");
                out.push(Checked::Recalled(recalled));
            }
            Err(why) => {
                if cached {
                    tracing::debug!(game = id, "record: {why}; compiling");
                }
                let (game, draft) = finish(ws, head, Decks::Players, keep, diags)?;
                let clean = diags.error_count() == errors_before;
                out.push(Checked::Compiled(Box::new(game), draft, clean));
            }
        }
    }
    Ok(out)
}

/// The game's verdict from its record (as `read` ahead), when the record
/// vouches for every input; else why not. Changes nothing in `ws` or
/// `diags` unless it repeats the verdict.
fn recall(
    ws: &mut Workspace,
    head: &Head,
    diags: &mut Diagnostics,
    fresh: EditorFresh<'_>,
    read: Option<Framed<Record>>,
) -> Result<Result<Recalled, Why>, LoadError> {
    let Some(cache) = &head.cache else {
        return Ok(Err("no cache".into()));
    };
    let game = head.manifest.manifest.id.as_str();
    let Some(mut record) = cache.record(read, record_key(ws)) else {
        return Ok(Err(
            "no record of this carta, manifest, schemas and limits".into()
        ));
    };
    let marks = match scan(ws, head, &record)? {
        Ok(marks) => marks,
        Err(why) => return Ok(Err(why)),
    };
    if let Err(why) = same_art(ws, &record) {
        return Ok(Err(why));
    }
    if !fresh(game, &record.editor) {
        return Ok(Err("the editor schemas are not the ones it wrote".into()));
    }
    let decks_before = record.decks.clone();
    if let Err(why) = same_texts(ws, game, &mut record)? {
        return Ok(Err(why));
    }
    let Some(restored) = restore(ws, &record.files, &record.diagnostics) else {
        return Ok(Err("a recorded diagnostic cannot be placed".into()));
    };
    diags.extend(restored);
    let reused = marks
        .iter()
        .zip(&record.cards)
        .filter(|((_, now), (_, then))| now.content == then.content)
        .count();
    // Marks that moved (an edit the record answered, a touch) are written,
    // so that the next check does not read those files again.
    if marks != record.cards || decks_before != record.decks {
        record.cards = marks;
        cache.put_record(record_key(ws), &record);
    }
    Ok(Ok(Recalled {
        id: game.to_owned(),
        cards: record.total,
        reused_files: reused,
        coverage: record.coverage,
    }))
}
