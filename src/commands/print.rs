//! `carta print [GAME… | DECK.toml…]`: print-and-play sheets of whole games
//! (`DIR/<game>/sheets/`, as `build` writes them) or of deck files with
//! their counts (`DIR/<game>/decks/<deck>/`); with `--changed-since REV`,
//! only each game's cards whose printed face changed since REV
//! (`DIR/<game>/reprint/`).

use std::path::{Path, PathBuf};

use super::build::{nothing_written, print_languages};
use super::reprint::{self, Since};
use super::{CommandError, Report, open_deck};
use crate::diag::Diagnostics;
use crate::emit::cards::Target;
use crate::emit::chromium::Chromium;
use crate::emit::fit;
use crate::emit::sheets::{
    Selection, SheetOptions, SheetsEmitter, Subject, calibrate, deck, pool_prints,
};
use crate::emit::{Emitter, Stage};
use crate::game::{self, Game, Games, Keep};
use crate::load::Workspace;

/// Prints `targets` — game ids and deck files (`*.toml`, relative to the
/// current directory) — of the workspace at `root` into `out`; with
/// `fit_check`, loads each set of sheets in Chromium, when there is one,
/// and warns of text that does not fit its box (`sheets::overflow`). With
/// `changed_since`, prints only the cards of each game whose face or back
/// differs from that version's (see [`Since`]).
///
/// # Errors
/// When the workspace or a file cannot be read or the output cannot be
/// written, or `changed_since` names no version carta can print.
pub(crate) fn run(
    root: &Path,
    targets: &[String],
    out: &Path,
    (sheets, languages): (SheetOptions, &[String]),
    (fit_check, changed_since): (bool, Option<&str>),
) -> Result<Report, CommandError> {
    let mut since = match Since::open(root, changed_since, targets)? {
        Ok(since) => since,
        Err(report) => return Ok(report),
    };
    let mut ws = Workspace::open(root)?;
    let mut diags = Diagnostics::new();
    let mut stage = Stage::new(root, out);
    let browser = fit_check.then(Chromium::find);
    let chromium = match &browser {
        Some(Ok(chromium)) => Some(chromium.clone().with_limit(ws.limits().export_seconds)),
        _ => None,
    };
    let (mut checked, mut sets, mut printed) = (0, 0, 0);
    each_target(
        &mut ws,
        targets,
        &mut diags,
        |game, target, deck, ws, diags| {
            let staged = (&mut stage, chromium.as_ref());
            let (n, of, written) = match since.as_mut() {
                Some(since) => reprint_game(since, game, (languages, sheets), ws, staged, diags)?,
                None => print_target(game, (target, deck), (languages, sheets), ws, staged, diags)?,
            };
            (checked, sets, printed) = (checked + n, sets + of, printed + written);
            Ok(())
        },
    )?;
    if diags.has_errors() {
        return Ok(nothing_written(ws, diags)?);
    }
    stage.commit()?;
    let noun = if printed == 1 {
        "set of sheets"
    } else {
        "sets of sheets"
    };
    let mut report = Report::new(ws, diags, format!("printed {printed} {noun}"))?;
    report.details.extend(match browser {
        Some(Err(e)) => Some(format!(
            "note: the text was not checked for overflow: {e}, or pass --no-fit-check"
        )),
        Some(Ok(_)) => Some(format!(
            "text checked for overflow in Chromium: {checked} of {sets} {}",
            if sets == 1 {
                "set of sheets"
            } else {
                "sets of sheets"
            }
        )),
        None => None,
    });
    Ok(Since::finish(since, report, &format!("{printed} {noun}")))
}

/// Stages the sheets of `target` (a deck's when `deck`), and of a game's
/// in each of `languages` (else its `[print] languages`); checks their fit
/// with `chromium`. Returns how many reported, of how many, and that it
/// staged one set.
///
/// # Errors
/// When an input cannot be read or the stage cannot be written.
fn print_target(
    game: &Game,
    (target, deck): (Target<'_>, bool),
    (languages, sheets): (&[String], SheetOptions),
    ws: &mut Workspace,
    (stage, chromium): (&mut Stage, Option<&Chromium>),
    diags: &mut Diagnostics,
) -> Result<(usize, usize, usize), CommandError> {
    let stem = target.stem.clone();
    let emitter = sheets_of(game, target, deck, sheets);
    emitter.emit(game, ws, stage, diags)?;
    let langs = if deck { &[][..] } else { languages };
    if !deck {
        super::build::emit_languages(game, langs, sheets, ws, stage, diags)?;
    }
    let Some(chromium) = chromium.filter(|_| !diags.has_errors()) else {
        return Ok((0, 0, 1));
    };
    let set = Printed {
        game,
        emitter: &emitter,
        stem: &stem,
        languages: langs,
    };
    let (n, of) = check_fit(chromium, &set, (ws, stage), diags)?;
    Ok((n, of, 1))
}

/// `carta print --calibrate`: writes the duplex calibration sheet of each
/// game `targets` name (a deck file's game for a deck) of the workspace at
/// `root` into `out`, `DIR/<game>/calibrate/index.html`, on the game's
/// paper, orientation and duplex under `sheets`, its back moved by the
/// back offset.
///
/// # Errors
/// When the workspace or a file cannot be read or the output cannot be written.
pub(crate) fn calibrate(
    root: &Path,
    targets: &[String],
    out: &Path,
    sheets: SheetOptions,
) -> Result<Report, CommandError> {
    let mut ws = Workspace::open(root)?;
    let mut diags = Diagnostics::new();
    let mut stage = Stage::new(root, out);
    let mut done: Vec<String> = Vec::new();
    each_target(&mut ws, targets, &mut diags, |game, _, _, _, _| {
        if done.iter().any(|g| g == game.id()) {
            return Ok(());
        }
        let print = game.manifest.manifest.print.clone().unwrap_or_default();
        let dir = Path::new(game.id()).join("calibrate");
        stage.folder(&dir)?;
        let html = calibrate::sheet(&print, sheets);
        stage.write(&dir.join("index.html"), html.as_bytes())?;
        done.push(game.id().to_owned());
        Ok(())
    })?;
    if diags.has_errors() {
        return Ok(nothing_written(ws, diags)?);
    }
    stage.commit()?;
    let noun = if done.len() == 1 { "sheet" } else { "sheets" };
    Report::new(
        ws,
        diags,
        format!("wrote {} duplex calibration {noun}", done.len()),
    )
    .map_err(Into::into)
}

/// A set of sheets `print` staged: a target's, in the game's language
/// and, for a game, in each of `languages`.
struct Printed<'a> {
    game: &'a Game,
    emitter: &'a SheetsEmitter<'a>,
    stem: &'a str,
    languages: &'a [String],
}

/// Loads each sheets of `set` staged in `stage` in `chromium` (see
/// [`fit::check_sheets`]): the source language's, then each language's
/// the game has (the others were reported as errors); returns how many
/// reported, of how many.
///
/// # Errors
/// When a staged folder cannot be listed or the game's translatable
/// strings cannot be read.
fn check_fit(
    chromium: &Chromium,
    set: &Printed<'_>,
    (ws, stage): (&mut Workspace, &Stage),
    diags: &mut Diagnostics,
) -> Result<(usize, usize), CommandError> {
    let (game, emitter) = (set.game, set.emitter);
    let folder = emitter.folder(game);
    let cards = emitter.copies().saturating_mul(2);
    let about = format!("the sheets of `{}`", set.stem);
    let sheets = fit::Staged {
        folder: &folder,
        about: &about,
        cards,
        lang: None,
    };
    let mut checked = usize::from(fit::check_sheets(
        chromium,
        (game, ws),
        stage,
        sheets,
        diags,
    )?);
    let m = &game.manifest.manifest;
    let langs = if set.languages.is_empty() {
        m.print
            .as_ref()
            .map(|p| p.languages.clone())
            .unwrap_or_default()
    } else {
        set.languages.to_vec()
    };
    let langs: Vec<String> = langs
        .into_iter()
        .filter(|l| *l == m.language || m.translations.contains(l))
        .collect();
    if langs.is_empty() {
        return Ok((checked, 1));
    }
    for lang in &langs {
        let localized = game.localized(lang);
        let about = format!("the `{lang}` sheets of `{}`", set.stem);
        let folder = folder.join(lang);
        let sheets = fit::Staged {
            folder: &folder,
            about: &about,
            cards,
            lang: (*lang != m.language).then_some(lang.as_str()),
        };
        let ok = fit::check_sheets(chromium, (&localized, ws), stage, sheets, diags)?;
        checked += usize::from(ok);
    }
    Ok((checked, 1 + langs.len()))
}

/// Stages the reprint of `game` since `since`'s version: its cards whose
/// face or back changed, in its own language into `<game>/reprint/` and in
/// each of `languages` (else its `[print] languages`) into
/// `<game>/reprint/<lang>/` — each only when it holds a card. Checks the
/// fit of each with `chromium`; returns how many reported, of how many,
/// and how many sets of sheets it staged.
///
/// # Errors
/// When an input cannot be read or the stage cannot be written.
fn reprint_game(
    since: &mut Since,
    game: &Game,
    (languages, options): (&[String], SheetOptions),
    ws: &mut Workspace,
    (stage, chromium): (&mut Stage, Option<&Chromium>),
    diags: &mut Diagnostics,
) -> Result<(usize, usize, usize), CommandError> {
    let languages = print_languages(game, languages);
    let source = game.manifest.manifest.language.clone();
    let mut counts = (0, 0, 0);
    let each = |printed: &Game,
                (lang, notes): (Option<&str>, Vec<String>),
                ws: &mut Workspace,
                diags: &mut Diagnostics| {
        let Some(selected) = since.select((game, printed), (lang, notes), ws, diags)? else {
            return Ok(());
        };
        let mut emitter = SheetsEmitter::reprint(selected.target.selection, options);
        if let Some(lang) = lang {
            // The languages' sheets go inside the reprint's folder, which
            // holds the source language's only when it reprints anything.
            stage.folder(&PathBuf::from(game.id()).join("reprint"))?;
            emitter = emitter.in_language(lang, selected.notes);
        }
        emitter.emit(printed, ws, stage, diags)?;
        counts.2 += 1;
        if let Some(chromium) = chromium.filter(|_| !diags.has_errors()) {
            let folder = emitter.folder(printed);
            let about = match lang {
                Some(lang) => format!("the `{lang}` reprint of `{}`", game.id()),
                None => format!("the reprint of `{}`", game.id()),
            };
            let sheets = fit::Staged {
                folder: &folder,
                about: &about,
                cards: emitter.copies().saturating_mul(2),
                lang: lang.filter(|l| **l != source),
            };
            let ok = fit::check_sheets(chromium, (printed, ws), stage, sheets, diags)?;
            counts.0 += usize::from(ok);
            counts.1 += 1;
        }
        Ok(())
    };
    reprint::each_language(game, (true, &languages), ws, diags, each)?;
    Ok(counts)
}

/// The sheets of a target: a game's into `<game>/sheets/`, a deck's into
/// `<game>/decks/<stem>/`, a reprint's into `<game>/reprint/`.
pub(super) fn sheets_of<'g>(
    game: &'g Game,
    target: Target<'g>,
    deck: bool,
    options: SheetOptions,
) -> SheetsEmitter<'g> {
    if let Subject::Reprint(_) = target.selection.subject {
        SheetsEmitter::reprint(target.selection, options)
    } else if deck {
        SheetsEmitter::deck(target.selection.prints, &target.name, &target.stem, options)
    } else {
        SheetsEmitter::pool(game, options)
    }
}

/// Runs `emit` on what `targets` name: each named game's whole pool (every
/// game's when nothing is named) and each deck file's cards, while nothing
/// has failed; returns how many it ran on. `emit` is told whether the
/// target is a deck.
///
/// # Errors
/// When a file cannot be read, or what `emit` returns.
pub(super) fn each_target(
    ws: &mut Workspace,
    targets: &[String],
    diags: &mut Diagnostics,
    mut emit: impl FnMut(
        &Game,
        Target<'_>,
        bool,
        &mut Workspace,
        &mut Diagnostics,
    ) -> Result<(), CommandError>,
) -> Result<usize, CommandError> {
    let (decks, games): (Vec<&String>, Vec<&String>) =
        targets.iter().partition(|t| super::is_deck(t));
    let mut done = 0;
    // Each game is compiled once, however many of its decks are named.
    let mut compiled = Games::default();
    if decks.is_empty() || !games.is_empty() {
        let games: Vec<String> = games.into_iter().cloned().collect();
        for game in game::compile_all(ws, &games, Keep::All, diags)? {
            if !diags.has_errors() {
                let target = Target {
                    selection: Selection {
                        subject: Subject::Game,
                        prints: pool_prints(&game),
                        notes: Vec::new(),
                    },
                    stem: game.id().to_owned(),
                    name: game.manifest.manifest.name.clone(),
                    deck: None,
                    zones: Vec::new(),
                };
                emit(&game, target, false, ws, diags)?;
                done += 1;
            }
            compiled.insert(game);
        }
    }
    for path in decks {
        let mut found = Vec::new();
        // A file named on the command line is where the shell says: relative
        // to the current directory, whatever `-C` names (as `deck check`).
        let opened = open_deck(ws, Path::new(path), &mut compiled, diags, &mut found)?;
        let target = opened.and_then(|(file, game)| {
            let target = deck_target(path, file, game, &mut found)?;
            Some((target, game))
        });
        diags.extend(found);
        if let Some((target, game)) = target {
            emit(game, target, true, ws, diags)?;
            done += 1;
        }
    }
    Ok(done)
}

/// The export target of the deck `file` named `path` on the command line:
/// its cards summed over its zones, and the zones kept apart; `None`
/// (after reporting into `found`) when it does not resolve in `game`.
fn deck_target<'g>(
    path: &str,
    file: crate::deck::DeckFile,
    game: &'g Game,
    found: &mut Vec<crate::diag::Diagnostic>,
) -> Option<Target<'g>> {
    let zones = deck::zones(&file, game, found)?;
    let stem = Path::new(path)
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("deck")
        .to_owned();
    Some(Target {
        selection: Selection {
            subject: Subject::Deck(file.name.clone()),
            prints: deck::prints(&zones),
            notes: Vec::new(),
        },
        stem,
        name: file.name.clone(),
        deck: Some(file),
        zones,
    })
}
