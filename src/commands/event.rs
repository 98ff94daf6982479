//! `carta deck check --event PATH`: an event's submissions — a folder of
//! deck files or a file of codes (`player: CODE` lines, share links too) —
//! judged under the event's game and format by [`crate::event`], as the
//! organisers' page judges them, printed as its table or its CSV.

use std::io::Write as _;
use std::path::{Path, PathBuf};

use super::{CommandError, Report, plural};
use crate::diag::{Diagnostic, Diagnostics};
use crate::event::{self, Requirements, Row, Submission};
use crate::game::Games;
use crate::load::{LoadError, Workspace};

/// `carta deck check --event PATH [--game G] [--format F] [--csv]`.
///
/// # Errors
/// When the workspace or a submission cannot be read.
pub(crate) fn check(
    root: &Path,
    path: &Path,
    event: &Requirements,
    csv: bool,
) -> Result<Report, CommandError> {
    let mut ws = Workspace::open(root)?;
    let mut diags = Diagnostics::new();
    let subs = submissions(&mut ws, path, &mut diags)?;
    let mut games = Games::default();
    let known = ws.game_ids()?;
    if let Some(g) = &event.game {
        if !known.contains(g) {
            diags.push(
                Diagnostic::error(
                    "event::game",
                    format!("there is no game `{g}` in this workspace"),
                )
                .with_help(crate::suggest::help(
                    g,
                    known.iter().map(String::as_str),
                    "games",
                )),
            );
            return Ok(Report::new(ws, diags, "no deck judged")?);
        }
    } else if event.format.is_some() {
        diags.push(
            Diagnostic::error("event::format", "an event's format needs its game")
                .with_help("name the game with `--game`"),
        );
        return Ok(Report::new(ws, diags, "no deck judged")?);
    }
    // Every game of the workspace a submission may name, compiled once.
    for id in &known {
        games.get(&mut ws, id, &mut diags)?;
    }
    if let Some((g, f)) = event.game.as_ref().zip(event.format.as_ref()) {
        let formats = games.compiled(g).map(|game| &game.rules.formats);
        if formats.is_some_and(|fs| !fs.contains_key(f)) {
            let fs = formats.expect("checked");
            diags.push(
                Diagnostic::error("event::format", format!("`{f}` is not a format of `{g}`"))
                    .with_help(crate::suggest::help(
                        f,
                        fs.keys().map(String::as_str),
                        "formats",
                    )),
            );
            return Ok(Report::new(ws, diags, "no deck judged")?);
        }
    }
    let rows = event::judge(|id| games.compiled(id), &subs, event);
    let text = if csv { event::csv(&rows) } else { table(&rows) };
    // A closed pipe (`| head`) is not an error worth reporting.
    let _ = std::io::stdout().lock().write_all(text.as_bytes());
    let summary = verdict(&rows, &mut diags);
    Ok(Report::new(ws, diags, summary)?)
}

/// The submissions at `path`: each `.toml` file of a folder (by name), or
/// each line of a file.
pub(super) fn submissions(
    ws: &mut Workspace,
    path: &Path,
    diags: &mut Diagnostics,
) -> Result<Vec<Submission>, LoadError> {
    let io = |source| LoadError::Io {
        path: path.to_path_buf(),
        source,
    };
    if !path.is_dir() {
        let file = ws.read_path(path, diags)?;
        let text = ws.sources.get(file).text.clone();
        let name = ws.sources.get(file).name.clone();
        return Ok(event::submissions_of_lines(&text, &name));
    }
    let mut files: Vec<PathBuf> = std::fs::read_dir(path)
        .map_err(io)?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        // A player's folder holds their collection beside their decks.
        .filter(|p| {
            p.file_name()
                .is_none_or(|n| n != crate::collection::FILE_NAME)
        })
        .collect();
    files.sort();
    let mut out = Vec::new();
    for p in files {
        let file = ws.read_deck_path(&p, diags)?;
        let source = ws.sources.get(file);
        out.push(Submission {
            source: source.name.clone(),
            player: None,
            text: source.text.to_string(),
        });
    }
    Ok(out)
}

/// The rows as a plain table, one deck a line and its findings below it
/// (every value from a submission escaped: no control characters).
fn table(rows: &[Row]) -> String {
    let e = |s: &str| crate::diag::escape_controls(s).into_owned();
    let mut out = String::new();
    for r in rows {
        let who = if r.player.is_empty() {
            "-".to_owned()
        } else {
            e(&r.player)
        };
        let format = if r.format.is_empty() {
            String::new()
        } else {
            format!(" · {}", e(&r.format))
        };
        out.push_str(&format!(
            "{:>3}  {}  {who}  {} {}{format}  {} ({} cards)\n",
            r.n,
            e(&r.source),
            e(&r.game),
            e(&r.deck),
            r.verdict,
            r.cards
        ));
        for (kind, fs) in [("error", &r.errors), ("warning", &r.warnings)] {
            for f in fs {
                let what = f.rule.as_deref().unwrap_or(f.code);
                out.push_str(&format!("       {kind}: {}: {}\n", e(what), e(&f.message)));
            }
        }
        if !r.same_as.is_empty() {
            let same: Vec<String> = r.same_as.iter().map(|n| format!("#{n}")).collect();
            out.push_str(&format!("       the same deck as {}\n", same.join(", ")));
        }
    }
    out
}

/// The summary; an error naming the decks that are not legal, if any.
fn verdict(rows: &[Row], diags: &mut Diagnostics) -> String {
    let legal = rows.iter().filter(|r| r.verdict == "legal").count();
    let not: Vec<String> = rows
        .iter()
        .filter(|r| r.verdict != "legal")
        .map(|r| format!("#{}", r.n))
        .collect();
    if !not.is_empty() {
        diags.push(
            Diagnostic::error(
                "event::illegal",
                format!(
                    "{} of {} decks are not legal: {}",
                    not.len(),
                    rows.len(),
                    not.join(", ")
                ),
            )
            .with_help("each row says why"),
        );
    }
    format!(
        "judged {} deck{}: {legal} legal, {} not",
        rows.len(),
        plural(rows.len()),
        not.len()
    )
}
