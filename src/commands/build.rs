//! `carta build [GAME…]`: everything `check` does, then every emitter of
//! every game — the bundle and the sheets — into one stage, swapped into
//! `DIR/<game>/` only when nothing failed anywhere.

use std::path::{Path, PathBuf};

use super::progress::Progress;
use super::{CommandError, Report, plural};
use crate::diag::{Diagnostic, Diagnostics};
use crate::emit::sheets::{SheetOptions, SheetsEmitter};
use crate::emit::{self, Emitter, Stage};
use crate::game::{self, Decks, Game, Keep};
use crate::load::{LoadError, Workspace};

/// Where and how a build writes.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Target<'a> {
    /// The output folder.
    pub(crate) out: &'a Path,
    /// Print settings of the sheets.
    pub(crate) sheets: SheetOptions,
    /// Languages to print the sheets in besides the source language
    /// (default: each manifest's `[print] languages`).
    pub(crate) languages: &'a [String],
}

/// Builds the named games (all if none) of the workspace at `root` into
/// `target`, with a progress bar on a terminal when `progress`; with
/// `cached`, card files unchanged since the last build come from its cache.
///
/// # Errors
/// When the workspace cannot be read or the output cannot be written.
pub(crate) fn run(
    root: &Path,
    games: &[String],
    target: &Target<'_>,
    cached: bool,
    progress: bool,
) -> Result<Report, CommandError> {
    let mut ws = Workspace::open(root)?;
    let mut diags = Diagnostics::new();
    let ids = ws.select_games(games)?;
    // Two steps a game: compile it, then run its emitters.
    let bar = Progress::new(progress, 2 * ids.len());
    let mut checked = Vec::new();
    for id in &ids {
        bar.step(format!("checking {id}"));
        checked.extend(game::compile(
            &mut ws,
            id,
            Decks::Check,
            if cached { Keep::AllCached } else { Keep::All },
            &mut diags,
        )?);
        bar.done();
    }
    if diags.has_errors() {
        return Ok(nothing_written(ws, diags)?);
    }
    let games: Vec<&Game> = checked.iter().collect();
    let units = emit_games(&mut ws, &games, (target, cached), &bar, &mut diags)?;
    drop(bar);
    let report = match units {
        Some(units) => {
            let summary = written(&games, root, target.out, &units);
            Report::new(ws, diags, summary)?
        }
        None => nothing_written(ws, diags)?,
    };
    // The command ends here and the process with it: freeing every card's
    // fields one by one is work the exit does at once, for nothing.
    std::mem::forget(checked);
    Ok(report)
}

/// Runs every emitter of each of `games` (compiled with every field, and
/// checked clean) into one stage, and swaps it into place when nothing
/// failed; with `cached`, the sheets reuse the faces the last build
/// rendered. Returns what was written, or `None` when a problem was
/// reported into `diags` (then nothing is).
///
/// # Errors
/// When an input cannot be read or the output cannot be written.
pub(super) fn emit_games(
    ws: &mut Workspace,
    games: &[&Game],
    (target, cached): (&Target<'_>, bool),
    bar: &Progress,
    diags: &mut Diagnostics,
) -> Result<Option<Vec<PathBuf>>, CommandError> {
    let mut stage = Stage::new(ws.root(), target.out);
    for game in games {
        bar.step(format!("writing {}", game.id()));
        for emitter in emit::for_build(game, target.sheets, cached) {
            emitter.emit(game, ws, &mut stage, diags)?;
        }
        let sheets = (target.sheets, cached);
        languages(game, target.languages, sheets, ws, &mut stage, diags)?;
        bar.done();
    }
    if diags.has_errors() {
        return Ok(None);
    }
    Ok(Some(stage.commit()?))
}

/// Stages the sheets of `game` in each language of `requested` (or of its
/// `[print] languages`) into `sheets/<lang>/`, after its source-language
/// sheets; a language the game does not have is an error.
///
/// # Errors
/// When an input cannot be read or the stage cannot be written.
pub(super) fn emit_languages(
    game: &Game,
    requested: &[String],
    sheets: SheetOptions,
    ws: &mut Workspace,
    stage: &mut Stage,
    diags: &mut Diagnostics,
) -> Result<(), CommandError> {
    languages(game, requested, (sheets, false), ws, stage, diags)
}

/// The languages `game`'s sheets are printed in besides its own: those
/// `requested`, else its `[print] languages`.
pub(super) fn print_languages(game: &Game, requested: &[String]) -> Vec<String> {
    if !requested.is_empty() {
        return requested.to_vec();
    }
    let print = game.manifest.manifest.print.as_ref();
    print.map(|p| p.languages.clone()).unwrap_or_default()
}

/// [`emit_languages`], reusing the faces of the last build with `cached`.
fn languages(
    game: &Game,
    requested: &[String],
    (sheets, cached): (SheetOptions, bool),
    ws: &mut Workspace,
    stage: &mut Stage,
    diags: &mut Diagnostics,
) -> Result<(), CommandError> {
    let languages = &print_languages(game, requested);
    if languages.is_empty() {
        return Ok(());
    }
    let sources = game::translatable(ws, game, diags)?;
    for lang in languages {
        let Some((localized, notes)) = in_language(game, lang, &sources, diags) else {
            continue;
        };
        SheetsEmitter::pool(&localized, sheets)
            .in_language(lang, notes)
            .cached(cached)
            .emit(&localized, ws, stage, diags)?;
    }
    Ok(())
}

/// `game` in `lang` (its own language or one of its translations), with
/// the cover's lines about what kept its source text; `None` when the
/// game has no such language (an `i18n::language` error in `diags`).
/// `sources` are its translatable strings ([`game::translatable`]).
pub(super) fn in_language(
    game: &Game,
    lang: &str,
    sources: &crate::i18n::Sources,
    diags: &mut Diagnostics,
) -> Option<(Game, Vec<String>)> {
    let m = &game.manifest.manifest;
    if lang != m.language && !m.translations.iter().any(|t| t == lang) {
        let span = game.manifest.spans.key_span("/language").unwrap_or(0..0);
        let known: Vec<&str> = std::iter::once(m.language.as_str())
            .chain(m.translations.iter().map(String::as_str))
            .collect();
        diags.push(
            Diagnostic::error(
                "i18n::language",
                format!("game `{}` has no language `{lang}` to print", game.id()),
            )
            .at(game.manifest.file, span, "its languages are declared here")
            .with_help(crate::suggest::help(lang, known, "languages")),
        );
        return None;
    }
    let localized = game.localized(lang);
    let untranslated = game.untranslated(lang, sources);
    let notes = language_report(&localized, &m.language, &untranslated);
    Some((localized, notes))
}

/// The cover's lines about the language of the sheets of `localized` (a
/// game in `source` printed in another language): which strings fell back
/// to the source language. In the language printed (carta's captions).
fn language_report(localized: &Game, source: &str, untranslated: &[String]) -> Vec<String> {
    let lang = &localized.manifest.manifest.language;
    let caption = |id, values: &[(&str, &str)]| localized.i18n.caption(lang, id, values);
    let mut lines = vec![caption("language", &[("lang", lang)])];
    if !untranslated.is_empty() {
        const SHOWN: usize = 6;
        let n = untranslated.len();
        let mut list = untranslated[..n.min(SHOWN)].join(", ");
        if n > SHOWN {
            let more = (n - SHOWN).to_string();
            list = caption("and-more", &[("list", &list), ("n", &more)]);
        }
        let id = if n == 1 {
            "untranslated-one"
        } else {
            "untranslated-many"
        };
        let n = n.to_string();
        lines.push(caption(
            id,
            &[("source", source), ("n", &n), ("list", &list)],
        ));
    }
    lines
}

/// The report of a build that found errors: the stage is dropped unused.
///
/// # Errors
/// When a file a diagnostic points into cannot be read again.
pub(super) fn nothing_written(ws: Workspace, diags: Diagnostics) -> Result<Report, LoadError> {
    Report::new(ws, diags, "nothing written")
}

/// Where a build wrote what: `built bundles and sheets of 2 games into
/// build/ (a/a.carta, a/sheets/, b/b.carta, b/sheets/)`.
pub(super) fn written(games: &[&Game], root: &Path, out: &Path, units: &[PathBuf]) -> String {
    let out = out.strip_prefix(root).unwrap_or(out);
    let units: Vec<String> = units
        .iter()
        .map(|u| {
            let shown = u.display().to_string().replace('\\', "/");
            if u.extension().is_some() {
                shown
            } else {
                shown + "/"
            }
        })
        .collect();
    format!(
        "built bundles and sheets of {} game{} into {}/ ({})",
        games.len(),
        plural(games.len()),
        out.display(),
        units.join(", ")
    )
}
