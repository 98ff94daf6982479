//! The player's collection in the builder: `decks/<game>/collection.toml`
//! read (through the read jail) for the page's owned counts and for what a
//! deck needs beyond it ([`crate::collection::Collection::missing`], the
//! code `carta deck check` reports with), and one card's count set from
//! the page — the file rewritten in place (its comments and order kept,
//! by `toml_edit`) and written atomically through [`crate::write`], never
//! through a link.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use indexmap::IndexMap;
use serde::Serialize;
use serde_json::{Value, json};

use super::{GameCatalog, Invalid, ValidDeck};
use crate::cache::Stamp;
use crate::collection::{self, Collection, MAX_OWNED};
use crate::diag::{Diagnostic, LineIndex, Phrase, Severity, SourceMap};
use crate::l10n::Lang;
use crate::load::{Jail, ReadProblem};
use crate::write::Folder;

/// One change of the file at a time (two tabs, two players on a LAN).
static WRITING: Mutex<()> = Mutex::new(());

/// A problem of the collection file, where the page shows it.
#[derive(Debug, Clone, Serialize)]
pub(super) struct FileProblem {
    code: &'static str,
    message: String,
    help: Option<String>,
    line: usize,
    column: usize,
}

/// The collection as the page gets it.
#[derive(Debug, Clone, Serialize)]
pub(super) struct Owned {
    /// The workspace-relative file.
    file: String,
    /// Whether the file exists.
    exists: bool,
    /// Card id → copies owned (the file's lines that read).
    cards: IndexMap<String, u32>,
    /// The file's errors (a file with errors is not changed from the page).
    problems: Vec<FileProblem>,
}

/// Why a count was not set.
#[derive(Debug)]
pub(super) enum SetError {
    /// The request or the file is not usable (422), worded in the page's
    /// language.
    Invalid(Invalid),
    /// The file or its folder is a link or not a file (403).
    Refused(String),
    /// It could not be written (500).
    Io(String),
}

/// A collection file as read: its text, and what its parse found (the
/// check against the pool is made on every use: under `watch --serve` the
/// pool changes while the file does not).
#[derive(Debug)]
struct Read {
    text: String,
    parsed: Option<Collection>,
    found: Vec<Diagnostic>,
}

/// The last read of each collection file, by the file's stamp: every
/// verdict asks what the deck lacks, and a collection of a 20,000-card
/// game is worth parsing once, not on every click. Only a settled stamp
/// (unchanged for a second) is trusted, as the check cache does.
static LAST: Mutex<BTreeMap<PathBuf, (Stamp, Arc<Read>)>> = Mutex::new(BTreeMap::new());

/// The collection file of `g` read now, or as last read when its stamp is
/// unchanged: `Ok(None)` when there is none, `Err` why it cannot be read.
/// Its card ids are not checked here (see [`Read`]).
fn load(root: &Path, g: &GameCatalog) -> Result<Option<Arc<Read>>, String> {
    let rel = collection::path_of(g.id());
    let max = crate::limits::Limits::from_env()
        .map_err(|e| e.to_string())?
        .max_file_bytes;
    let jail = Jail::new(root, max).map_err(|e| e.to_string())?;
    let path = root.join(&rel);
    let stamp = jail
        .stamp(&path)
        .filter(|s| s.settled(std::time::SystemTime::now()));
    let last = || {
        LAST.lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    };
    if let Some(s) = stamp
        && let Some((at, read)) = last().get(&path)
        && *at == s
    {
        return Ok(Some(Arc::clone(read)));
    }
    let text = match jail.read(&path) {
        Ok(bytes) => String::from_utf8(bytes).map_err(|_| format!("`{rel}` is not UTF-8 text"))?,
        Err(ReadProblem::Missing) => return Ok(None),
        Err(problem) => return Err(problem.message(&rel)),
    };
    let file = SourceMap::new().add(rel, text.as_str());
    let mut found = Vec::new();
    let parsed = collection::parse(file, &text, &mut found);
    let read = Arc::new(Read {
        text,
        parsed,
        found,
    });
    if let Some(s) = stamp {
        last().insert(path, (s, Arc::clone(&read)));
    }
    Ok(Some(read))
}

/// The collection of `g` as it is now, with its problems (parsed and
/// checked as `carta check` does).
pub(super) fn read(root: &Path, g: &GameCatalog) -> Owned {
    let file = collection::path_of(g.id());
    let read = match load(root, g) {
        Ok(Some(read)) => read,
        Ok(None) => return owned(file, false, None, Vec::new()),
        Err(why) => {
            let problem = FileProblem {
                code: "load::unreadable",
                message: why,
                help: None,
                line: 1,
                column: 1,
            };
            return owned(file, true, None, vec![problem]);
        }
    };
    let mut checked = Vec::new();
    if let Some(c) = &read.parsed {
        collection::check(c, g.id(), &g.game.pool, &mut checked);
    }
    let lines = LineIndex::new(&read.text);
    let problems = read
        .found
        .iter()
        .chain(&checked)
        .filter(|d| d.severity == Severity::Error)
        .map(|d| {
            let at = d.primary.as_ref().map_or(0, |l| l.span.start);
            let (line, column) = crate::decklist::line_col(&read.text, &lines, at);
            FileProblem {
                code: d.code,
                message: d.message.clone(),
                help: d.help.clone().filter(|h| !h.is_empty()),
                line,
                column,
            }
        })
        .collect();
    owned(file, true, read.parsed.as_ref(), problems)
}

fn owned(file: String, exists: bool, c: Option<&Collection>, problems: Vec<FileProblem>) -> Owned {
    let cards = c.map_or_else(IndexMap::new, |c| {
        c.cards
            .iter()
            .map(|(id, (n, _))| (id.clone(), *n))
            .collect()
    });
    Owned {
        file,
        exists,
        cards,
        problems,
    }
}

/// What `deck` needs beyond the player's collection, for the verdict:
/// `null` without a collection; `{file, error}` when it cannot be read;
/// else `{file, missing: [{card, needed, owned, missing}], total}`; the
/// error in `lang`, where carta words it.
pub(super) fn missing(root: &Path, g: &GameCatalog, deck: &ValidDeck, lang: Lang) -> Value {
    let file = collection::path_of(g.id());
    let read = match load(root, g) {
        Ok(Some(read)) => read,
        Ok(None) => return Value::Null,
        Err(why) => return json!({ "file": file, "error": why }),
    };
    let c = match &read.parsed {
        Some(c) if c.game == g.id() => c,
        Some(c) => {
            let why = Invalid(Phrase::new("collection-other-game").with("game", &c.game));
            return json!({ "file": file, "error": why.word(lang) });
        }
        None => {
            let why = read.found.first().map_or_else(
                || Invalid(Phrase::new("collection-no-parse")).word(lang),
                |d| d.message.clone(),
            );
            return json!({ "file": file, "error": why });
        }
    };
    let pool = &g.game.pool;
    let lines = deck
        .view
        .zones
        .iter()
        .flatten()
        .map(|e| (pool.card(e.card as usize).id.as_str(), e.count));
    let missing = c.missing(lines);
    let total: u64 = missing.iter().map(|m| u64::from(m.missing)).sum();
    json!({ "file": file, "missing": missing, "total": total })
}

/// Sets the copies of `card` owned to `count` (0 removes its line) in the
/// collection of `g` under `root`, creating the file when there is none;
/// returns the collection as written.
pub(super) fn set(root: &Path, g: &GameCatalog, card: &str, count: i64) -> Result<Owned, SetError> {
    if g.game.pool.position(card).is_none() {
        let why = Phrase::new("collection-unknown-card")
            .with("card", card)
            .with("game", g.id());
        return Err(SetError::Invalid(Invalid(why)));
    }
    if !(0..=MAX_OWNED).contains(&count) {
        let why = Phrase::new("collection-bad-count")
            .with("max", MAX_OWNED.to_string())
            .with("count", count.to_string());
        return Err(SetError::Invalid(Invalid(why)));
    }
    let _one = WRITING
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let before = read(root, g);
    if let Some(p) = before.problems.first() {
        let why = Phrase::new("collection-has-problems")
            .with("file", &before.file)
            .with("line", p.line.to_string())
            .with("column", p.column.to_string())
            .with("message", &p.message);
        return Err(SetError::Invalid(Invalid(why)));
    }
    let text = load(root, g)
        .map_err(|why| SetError::Invalid(Invalid::text(why)))?
        .map(|read| read.text.clone())
        .unwrap_or_default();
    let edited = edit(&text, g.id(), card, count)?;
    write(root, g.id(), &edited)?;
    Ok(read(root, g))
}

/// `text` (a collection without problems, or empty) with `card`'s line set
/// to `count`, or removed for 0; everything else as it was.
fn edit(text: &str, game: &str, card: &str, count: i64) -> Result<String, SetError> {
    let mut doc: toml_edit::DocumentMut = text
        .parse()
        .map_err(|e: toml_edit::TomlError| SetError::Invalid(Invalid::text(e.to_string())))?;
    if !doc.contains_key("game") {
        doc.insert("game", toml_edit::value(game));
    }
    let cards = doc
        .entry("cards")
        .or_insert_with(toml_edit::table)
        .as_table_mut()
        .ok_or_else(|| SetError::Invalid(Invalid::text("`cards` is not a table".into())))?;
    if count == 0 {
        cards.remove(card);
    } else if let Some(old) = cards.get_mut(card).and_then(toml_edit::Item::as_value_mut) {
        // The value's own comment (`2 # foil`) stays with the new count.
        let decor = old.decor().clone();
        *old = count.into();
        *old.decor_mut() = decor;
    } else {
        cards.insert(card, toml_edit::value(count));
    }
    Ok(doc.to_string())
}

/// Writes `text` as `decks/<game>/collection.toml`: a new file synced and
/// renamed over the old one, every folder reached without following a
/// link.
fn write(root: &Path, game: &str, text: &str) -> Result<(), SetError> {
    let failed = |e: crate::write::WriteError| {
        if e.is_refusal() {
            SetError::Refused(e.to_string())
        } else {
            SetError::Io(e.to_string())
        }
    };
    let dir = Folder::workspace(root)
        .and_then(|root| root.sub(format!("decks/{game}")))
        .map_err(failed)?;
    dir.write_atomic(collection::FILE_NAME, text.as_bytes(), true)
        .map_err(failed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_edit_keeps_the_files_comments_and_order() {
        let text = "# mine\ngame = \"g\"\n\n[cards]\nb = 1 # foil\na = 2\n";
        let once = edit(text, "g", "a", 3).unwrap_or_else(|_| panic!("edited"));
        assert_eq!(
            once,
            "# mine\ngame = \"g\"\n\n[cards]\nb = 1 # foil\na = 3\n"
        );
        let foil = edit(&once, "g", "b", 4).unwrap_or_else(|_| panic!("edited"));
        assert_eq!(
            foil,
            "# mine\ngame = \"g\"\n\n[cards]\nb = 4 # foil\na = 3\n"
        );
        let gone = edit(&once, "g", "b", 0).unwrap_or_else(|_| panic!("edited"));
        assert_eq!(gone, "# mine\ngame = \"g\"\n\n[cards]\na = 3\n");
        let new = edit("", "g", "c", 1).unwrap_or_else(|_| panic!("edited"));
        assert_eq!(new, "game = \"g\"\n\n[cards]\nc = 1\n");
    }
}
