//! `carta deck export | import`: deck files as text deck lists and back
//! ([`crate::decklist`]), and printable tournament decklists.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::{CommandError, Report, open_deck, plural, write_unless_exists};
use crate::deck;
use crate::deckcode::{self, CodeDeck};
use crate::decklist::{self, NameBy, print::Printed};
use crate::diag::{Diagnostic, Diagnostics, Severity};
use crate::emit::EmitError;
use crate::game::{Game, Games};
use crate::load::Workspace;
use crate::write::{self, Folder};

/// What `deck export` writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Export {
    /// A text list, cards by name or id.
    List(NameBy),
    /// The printable decklist (HTML), a page per deck.
    Decklist,
}

/// One deck file read for export: the deck, its player, its game's id,
/// whether it is legal and its code.
struct Exported {
    deck: CodeDeck,
    player: Option<String>,
    legal: bool,
    code: Option<String>,
}

/// `carta deck export FILE…`: each deck file as a text list (on stdout, or
/// into `out`), or all of them as one printable decklist. Nothing is
/// written when a deck names a card, zone or format its game lacks.
///
/// # Errors
/// When the workspace or a file cannot be read, or the output written.
pub(crate) fn export(
    root: &Path,
    files: &[PathBuf],
    what: Export,
    (out, force): (Option<&Path>, bool),
) -> Result<Report, CommandError> {
    let mut ws = Workspace::open(root)?;
    let mut diags = Diagnostics::new();
    let mut games = Games::default();
    let mut decks: Vec<Exported> = Vec::new();
    let mut game_of = None;
    for path in files {
        let mut found = Vec::new();
        if let Some((parsed, game)) = open_deck(&mut ws, path, &mut games, &mut diags, &mut found)?
        {
            if game_of.get_or_insert_with(|| parsed.game.clone()) != &parsed.game {
                found.push(
                    Diagnostic::error("list::game", "the decks are of different games")
                        .at(parsed.file, parsed.game_span.clone(), "another game")
                        .with_help("export the decks of one game at a time"),
                );
            } else if let Some(e) = exported(&parsed, game, &mut found) {
                decks.push(e);
            }
        }
        diags.extend(found);
    }
    if diags.has_errors() || decks.is_empty() {
        return Ok(Report::new(ws, diags, "nothing written")?);
    }
    let game_id = game_of.expect("a deck was read");
    let game = games.get(&mut ws, &game_id, &mut diags)?.expect("compiled");
    let text = match what {
        Export::List(by) => decks
            .iter()
            .map(|d| decklist::render(game, &d.deck, d.player.as_deref(), by))
            .collect::<Vec<_>>()
            .join("\n"),
        Export::Decklist => {
            let printed: Vec<Printed<'_>> = decks
                .iter()
                .map(|d| Printed {
                    deck: &d.deck,
                    player: d.player.as_deref(),
                    legal: Some(d.legal),
                    code: d.code.as_deref(),
                })
                .collect();
            decklist::print::html(game, &printed)
        }
    };
    let summary = if let Some(path) = out {
        if !write_out(path, text.as_bytes(), force, &mut diags)? {
            return Ok(Report::new(ws, diags, "nothing written")?);
        }
        let n = decks.len();
        format!("wrote {n} deck{} to {}", plural(n), path.display())
    } else {
        // A closed pipe (`| head`) is not an error worth reporting.
        let _ = std::io::stdout().lock().write_all(text.as_bytes());
        String::new()
    };
    Ok(Report::new(ws, diags, summary)?)
}

/// A deck file resolved against its game for export (its legality judged
/// on the side), or `None` once its unknown cards, zones or format are
/// reported.
fn exported(parsed: &deck::DeckFile, game: &Game, found: &mut Vec<Diagnostic>) -> Option<Exported> {
    let rules = deck::rules_for(parsed, &game.rules, found)?;
    deck::resolve(parsed, &game.manifest, &game.pool, rules, found)?;
    let mut verdict = Vec::new();
    let judged = deck::judge(
        parsed,
        &game.manifest,
        &game.pool,
        &game.rules,
        &mut verdict,
    );
    let legal = judged.is_some() && !verdict.iter().any(|d| d.severity == Severity::Error);
    let deck = CodeDeck {
        game: parsed.game.clone(),
        name: parsed.name.clone(),
        format: parsed.format.as_ref().map(|(f, _)| f.clone()),
        zones: deck::zones_of(parsed),
    };
    let code = deckcode::encode(&deck, &game.manifest.manifest, &game.pool).ok();
    Some(Exported {
        deck,
        player: parsed.player.clone(),
        legal,
        code,
    })
}

/// `carta deck import LIST`: a text list read as a deck of `game` (or of
/// the game its `Game:` line names), printed as a deck file or written to
/// `out`. Every unknown name is reported at its line and column, with the
/// closest card's name; then nothing is written.
///
/// # Errors
/// When the workspace or the list cannot be read, or the output written.
pub(crate) fn import(
    root: &Path,
    list: &Path,
    game: Option<&str>,
    (out, force): (Option<&Path>, bool),
) -> Result<Report, CommandError> {
    let mut ws = Workspace::open(root)?;
    let mut diags = Diagnostics::new();
    let file = ws.read_deck_path(list, &mut diags)?;
    if !ws.is_text(file) {
        return Ok(Report::new(ws, diags, "nothing written")?);
    }
    let text = Arc::clone(&ws.sources.get(file).text);
    let Some(game_id) = game_for(&ws, file, &text, game, &mut diags)? else {
        return Ok(Report::new(ws, diags, "nothing written")?);
    };
    let mut games = Games::default();
    let Some(compiled) = games.get(&mut ws, &game_id, &mut diags)? else {
        return Ok(Report::new(ws, diags, "nothing written")?);
    };
    let (read, problems) = decklist::parse(&text, compiled);
    for p in &problems {
        diags.push(p.to_diagnostic(file));
    }
    if !problems.is_empty() || diags.has_errors() {
        return Ok(Report::new(ws, diags, "nothing written")?);
    }
    let stem = list
        .file_stem()
        .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
    let deck = read.to_code_deck(&game_id, &stem);
    let toml = decklist::deck_file(&deck, read.player.as_deref());
    let lines: usize = deck.zones.values().map(Vec::len).sum();
    let summary = if let Some(path) = out {
        if !write_out(path, toml.as_bytes(), force, &mut diags)? {
            return Ok(Report::new(ws, diags, "nothing written")?);
        }
        format!(
            "imported {lines} line{} into {}",
            plural(lines),
            path.display()
        )
    } else {
        let _ = std::io::stdout().lock().write_all(toml.as_bytes());
        String::new()
    };
    Ok(Report::new(ws, diags, summary)?)
}

/// The game a list is for: `--game`, else its `Game:` line; either must be
/// a game of the workspace, and they must agree.
fn game_for(
    ws: &Workspace,
    file: crate::diag::FileId,
    text: &str,
    given: Option<&str>,
    diags: &mut Diagnostics,
) -> Result<Option<String>, CommandError> {
    let named = decklist::game_named(text);
    let known = ws.game_ids()?;
    let game = match (given, named.as_deref()) {
        (Some(g), Some(n)) if g != n => {
            let at = text.find(n).map_or(0..0, |i| i..i + n.len());
            diags.push(
                Diagnostic::error(
                    "list::game",
                    format!("the list is for `{n}`, not for `{g}`"),
                )
                .at(file, at, "the list's game")
                .with_help("drop `--game`, or the list's `Game:` line"),
            );
            return Ok(None);
        }
        (Some(g), _) | (None, Some(g)) => g.to_owned(),
        (None, None) => {
            diags.push(
                Diagnostic::error("list::game", "the list does not say which game it is for")
                    .at(file, 0..0, "no `Game:` line")
                    .with_help("pass `--game <game id>`, or add a line `Game: <game id>`"),
            );
            return Ok(None);
        }
    };
    if known.contains(&game) {
        return Ok(Some(game));
    }
    diags.push(
        Diagnostic::error(
            "list::game",
            format!("there is no game `{game}` in this workspace"),
        )
        .with_help(crate::suggest::help(
            &game,
            known.iter().map(String::as_str),
            "games",
        )),
    );
    Ok(None)
}

/// Writes `bytes` to `path` (named on the command line, relative to the
/// current directory) atomically, never over an existing file without
/// `force`; whether it wrote. A missing folder on the way is created, as
/// for any output the user names (`-o decks/<game>/x.toml` in a fresh
/// clone, where no player's deck was saved yet).
fn write_out(
    path: &Path,
    bytes: &[u8],
    force: bool,
    diags: &mut Diagnostics,
) -> Result<bool, CommandError> {
    let (dir, name) = write::split(path);
    let dir = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    let folder = Folder::create(dir).map_err(EmitError::from)?;
    let shown = path.display().to_string();
    write_unless_exists(&folder, name, bytes, force, ("list::exists", &shown), diags)
}
