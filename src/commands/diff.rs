//! `carta diff [OLD] [NEW]`: two versions of the workspace compared, game
//! by game ([`crate::history`]), on stdout — aligned and coloured, as JSON
//! or as Markdown patch notes — with the decks whose verdict changed.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::Serialize;

use super::{CommandError, Report, plural};
use crate::deckcode;
use crate::diag::{Diagnostic, Diagnostics, Severity, SourceMap, escape_controls};
use crate::event::{self, Submission};
use crate::game::Game;
use crate::history::{
    self, Broken, DeckChange, GameDiff, HistoryError, Source, Status, Style, Submitted, Version,
};

/// How the diff is written on stdout.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Form {
    /// For the terminal, coloured when `Style` says.
    Human(Style),
    /// Markdown patch notes.
    Markdown,
    /// One JSON object (`--message-format json`).
    Json,
}

/// What `carta diff` is asked.
#[derive(Debug)]
pub(crate) struct Request<'a> {
    /// The old version as given (default: the newest tag, or `HEAD`).
    pub(crate) old: Option<&'a str>,
    /// The new version as given (default: the working tree).
    pub(crate) new: Option<&'a str>,
    /// The games compared (all when empty).
    pub(crate) games: &'a [String],
    /// The deck files judged (default: the new version's example decks).
    pub(crate) decks: &'a [PathBuf],
    /// An event's submissions judged instead: a folder of deck files, or
    /// a file of codes and share links.
    pub(crate) event: Option<&'a Path>,
    /// How the diff is written.
    pub(crate) form: Form,
}

/// The JSON form of a diff: stable, documented in docs/cli.md.
#[derive(Debug, Serialize)]
struct Json<'a> {
    old: &'a str,
    new: &'a str,
    games: &'a [GameDiff],
    decks: Option<Decks<'a>>,
}

/// The decks judged under both versions.
#[derive(Debug, Serialize)]
struct Decks<'a> {
    judged: usize,
    changed: &'a [DeckChange],
}

/// Compares the two versions `request` names of the workspace at `root`.
///
/// # Errors
/// When a version cannot be read (no repository, an unknown revision, a
/// damaged bundle, an unreadable workspace).
pub(crate) fn run(root: &Path, request: &Request<'_>) -> Result<Report, CommandError> {
    let old = match request.old {
        Some(given) => Source::parse(given),
        None => default_old(root)?,
    };
    let new = request.new.map_or(Source::WorkingTree, Source::parse);
    let old = match history::read(&old, root, request.games).map_err(failed)? {
        Ok(version) => version,
        Err(broken) => return broken_report(*broken, not_compared),
    };
    let mut new = match history::read(&new, root, request.games).map_err(failed)? {
        Ok(version) => version,
        Err(broken) => return broken_report(*broken, not_compared),
    };
    unknown_game(root, request.games, (&old, &new))?;
    let diffs = history::compare(&old, &new);
    let mut diags = Diagnostics::new();
    let decks = match (&old.compiled, &mut new.compiled) {
        (Some(was), Some(now)) => Some(match request.event {
            Some(path) => {
                let subs = super::event::submissions(&mut now.ws, path, &mut diags)?;
                let games = (was.games.as_slice(), now.games.as_slice());
                let submitted = as_decks(subs, games, &mut now.ws.sources, &mut diags);
                history::judge_submissions(&submitted, was, now, &mut diags)
            }
            None => history::judge_decks(request.decks, was, now, &mut diags)?,
        }),
        _ if !request.decks.is_empty() || request.event.is_some() => {
            return Err(CommandError::Usage {
                message:
                    "judging decks needs two workspace versions: a bundle holds no compiled rules"
                        .into(),
                help: "compare git revisions or workspace folders to judge decks".into(),
            });
        }
        _ => None,
    };
    let decks = decks.as_ref().map(|(judged, changed)| Decks {
        judged: *judged,
        changed,
    });
    print(&old, &new, &diffs, decks.as_ref(), request.form);
    let summary = summary(&old, &new, &diffs, decks.as_ref());
    match new.compiled.take() {
        Some(compiled) => Ok(Report::new(compiled.ws, diags, summary)?),
        None => Ok(Report::plain(summary)),
    }
}

/// An event's submissions as decks, each named by where it came from and
/// its player. A code (or share link) is read under the old version,
/// whose pool the player made it from (else the new one's), and judged
/// under both as the deck it stands for; a deck file's text is parsed into
/// the new version's sources.
fn as_decks(
    subs: Vec<Submission>,
    (old, new): (&[Game], &[Game]),
    sources: &mut SourceMap,
    diags: &mut Diagnostics,
) -> Vec<Submitted> {
    let decode = |games: &[Game], code: &str| {
        let id = deckcode::game_of(code).map_err(|e| e.to_string())?;
        let game = games.iter().find(|g| g.id() == id);
        let game = game.ok_or_else(|| format!("there is no game `{id}`"))?;
        deckcode::decode(code, &game.manifest.manifest, &game.pool).map_err(|e| e.to_string())
    };
    let mut out = Vec::new();
    for s in subs {
        let name = match &s.player {
            Some(player) => format!("{} ({player})", s.source),
            None => s.source.clone(),
        };
        let deck = if event::is_deck_file(&s.text) {
            let file = sources.add(name.clone(), Arc::<str>::from(s.text.as_str()));
            let mut found = Vec::new();
            let deck = crate::deck::parse(file, &s.text, &mut found);
            diags.extend(found);
            deck
        } else {
            let code = event::code_of(&s.text);
            match decode(old, &code).or_else(|why| decode(new, &code).map_err(|_| why)) {
                Ok(decoded) => Some(event::deck_file(&decoded, sources)),
                Err(why) => {
                    diags.push(
                        Diagnostic::error("deck::code", format!("{name}: {why}")).with_help(
                            "a code is read under the old version, whose cards it was made from",
                        ),
                    );
                    None
                }
            }
        };
        out.extend(deck.map(|deck| Submitted { name, deck }));
    }
    out
}

/// A game asked for that neither version has (a bundle holds only its
/// own), with the closest game of the workspace at `root` as a hint.
fn unknown_game(
    root: &Path,
    games: &[String],
    (old, new): (&Version, &Version),
) -> Result<(), CommandError> {
    let known = |name: &String| {
        [old, new]
            .iter()
            .any(|v| v.is_bundle || v.games.iter().any(|g| &g.id == name))
    };
    match games.iter().find(|name| !known(name)) {
        Some(name) => {
            let ids = crate::load::Workspace::open(root)
                .and_then(|ws| ws.game_ids())
                .unwrap_or_default();
            Err(CommandError::Load(crate::load::LoadError::UnknownGame {
                name: name.clone(),
                hint: crate::suggest::closest(name, ids.iter().map(String::as_str))
                    .map(str::to_owned),
            }))
        }
        None => Ok(()),
    }
}

/// The old version when none is named: the newest tag, else `HEAD`.
fn default_old(root: &Path) -> Result<Source, CommandError> {
    if !history::in_repository(root) {
        return Err(CommandError::Usage {
            message: "the workspace is in no git repository: name the old version".into(),
            help: "carta diff OLD [NEW]: OLD a workspace folder or a `.carta` bundle".into(),
        });
    }
    Ok(Source::Revision(
        history::last_tag(root).unwrap_or_else(|| "HEAD".to_owned()),
    ))
}

/// A version that cannot be read, as the command's error.
pub(super) fn failed(e: HistoryError) -> CommandError {
    match e {
        HistoryError::Load(e) => CommandError::Load(e),
        HistoryError::Git(e) => CommandError::Git(e),
        HistoryError::Bundle { path, source } => CommandError::Bundle { path, source },
    }
}

fn not_compared(label: &str) -> String {
    format!("diff: {label} does not check, so it is not compared")
}

/// A version that does not compile: its errors, under `summary` of the
/// version's label.
pub(super) fn broken_report(
    broken: Broken,
    summary: impl FnOnce(&str) -> String,
) -> Result<Report, CommandError> {
    let Broken {
        label,
        ws,
        diags,
        temp,
    } = broken;
    let mut errors = Diagnostics::new();
    errors.extend(
        diags
            .into_sorted()
            .into_iter()
            .filter(|d| d.severity == Severity::Error),
    );
    let report = Report::new(ws, errors, summary(&label))?;
    // The revision's files are read back above, before they go.
    drop(temp);
    Ok(report)
}

/// The diff on stdout in `form`; a closed pipe ends it quietly.
fn print(old: &Version, new: &Version, diffs: &[GameDiff], decks: Option<&Decks<'_>>, form: Form) {
    let text = match form {
        Form::Json => {
            let json = Json {
                old: &old.label,
                new: &new.label,
                games: diffs,
                decks: decks.map(|d| Decks {
                    judged: d.judged,
                    changed: d.changed,
                }),
            };
            format!(
                "{}\n",
                serde_json::to_string(&json).expect("a diff serializes")
            )
        }
        Form::Human(style) => {
            let mut out = String::new();
            for diff in diffs.iter().filter(|d| d.status != Status::Unchanged) {
                out.push_str(&history::human(diff, style));
            }
            if let Some(decks) = decks {
                out.push_str(&human_decks(decks, style));
            }
            out
        }
        Form::Markdown => {
            let mut out = format!(
                "# Changes from {} to {}\n\n",
                escape_controls(&old.label),
                escape_controls(&new.label)
            );
            for diff in diffs.iter().filter(|d| d.status != Status::Unchanged) {
                out.push_str(&history::markdown(diff));
            }
            if let Some(decks) = decks {
                out.push_str(&markdown_decks(decks));
            }
            out
        }
    };
    let _ = std::io::stdout().lock().write_all(text.as_bytes());
}

/// A verdict in a few words.
fn verdict(v: Option<&history::Verdict>) -> &'static str {
    match v {
        None => "no game",
        Some(v) if v.legal => "legal",
        Some(_) => "illegal",
    }
}

/// The decks whose verdict changed, for the terminal.
fn human_decks(decks: &Decks<'_>, style: Style) -> String {
    let mut out = format!(
        "decks: {} of {} judged change verdict\n",
        decks.changed.len(),
        decks.judged
    );
    for d in decks.changed {
        out.push_str(&format!(
            "  {}  {} → {}\n",
            escape_controls(&d.deck),
            verdict(d.old.as_ref()),
            style_verdict(d.new.as_ref(), style)
        ));
        for broken in d.new.iter().flat_map(|v| &v.broken) {
            out.push_str(&format!("      {}\n", escape_controls(broken)));
        }
    }
    out
}

fn style_verdict(v: Option<&history::Verdict>, style: Style) -> String {
    let word = verdict(v);
    match v {
        Some(v) if v.legal => style.added(word),
        _ => style.removed(word),
    }
}

/// The decks whose verdict changed, as patch notes.
fn markdown_decks(decks: &Decks<'_>) -> String {
    if decks.changed.is_empty() {
        return String::new();
    }
    let mut out = "## Decks\n\n".to_owned();
    for d in decks.changed {
        let why: Vec<String> = d
            .new
            .iter()
            .flat_map(|v| &v.broken)
            .map(|b| history::markdown_text(b))
            .collect();
        let reason = if why.is_empty() {
            String::new()
        } else {
            format!(": {}", why.join("; "))
        };
        out.push_str(&format!(
            "- `{}` was {}, is now {}{reason}\n",
            d.deck.replace('`', "'"),
            verdict(d.old.as_ref()),
            verdict(d.new.as_ref())
        ));
    }
    out.push('\n');
    out
}

/// The summary under the diff: what was compared, what changed, and how
/// many decks it makes illegal.
fn summary(old: &Version, new: &Version, diffs: &[GameDiff], decks: Option<&Decks<'_>>) -> String {
    let changed = diffs
        .iter()
        .filter(|d| d.status != Status::Unchanged)
        .count();
    let mut out = format!(
        "diff {} → {}: {changed} of {} game{} changed",
        old.label,
        new.label,
        diffs.len(),
        plural(diffs.len())
    );
    if let Some(decks) = decks {
        let illegal = decks
            .changed
            .iter()
            .filter(|d| {
                d.old.as_ref().is_some_and(|v| v.legal) && d.new.as_ref().is_some_and(|v| !v.legal)
            })
            .count();
        out.push_str(&format!(
            "; it makes {illegal} of {} deck{} illegal",
            decks.judged,
            plural(decks.judged)
        ));
    }
    out
}
