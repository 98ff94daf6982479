//! `carta export pdf|png|tts [GAME… | DECK.toml…]`: what designers take
//! elsewhere, rendered by headless Chromium from the same HTML as the
//! sheets — a PDF of the sheets, a PNG per card face and back, or a
//! Tabletop Simulator deck — into `DIR/<game>/<format>/`, written only when
//! every game and deck rendered. With `--lang`, each named language's
//! export instead, named `<stem>.<lang>` (`intrepidos.en.pdf`,
//! `png/intrepidos.en/`, `tts/intrepidos.en/`).

use std::path::Path;

use super::build::{in_language, nothing_written};
use super::print::{each_target, sheets_of};
use super::{CommandError, Report};
use crate::diag::Diagnostics;
use crate::emit::cards::{ExportOptions, ImageExport, Target};
use crate::emit::chromium::Chromium;
use crate::emit::pdf::PdfEmitter;
use crate::emit::png::PngEmitter;
use crate::emit::sheets::{Print, Selection, SheetOptions};
use crate::emit::tts::TtsEmitter;
use crate::emit::{EmitError, Emitter, Stage};
use crate::game::{self, Game};
use crate::load::Workspace;

/// What to export.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Format {
    /// The print-and-play sheets as one PDF.
    Pdf,
    /// One PNG per card face and back.
    Png,
    /// A Tabletop Simulator saved object.
    Tts,
}

impl Format {
    fn name(self) -> &'static str {
        match self {
            Format::Pdf => "pdf",
            Format::Png => "png",
            Format::Tts => "tts",
        }
    }
}

/// How an export run renders each target.
struct Export<'a> {
    format: Format,
    sheets: SheetOptions,
    options: &'a ExportOptions,
    chromium: &'a Chromium,
    /// The output folder, absolute.
    out: &'a Path,
}

impl Export<'_> {
    /// Stages the export of `target`, a selection of `game`'s cards.
    fn emit(
        &self,
        game: &Game,
        target: Target<'_>,
        (deck, notes): (bool, Vec<String>),
        ws: &mut Workspace,
        stage: &mut Stage,
        diags: &mut Diagnostics,
    ) -> Result<(), CommandError> {
        let chromium = self.chromium.clone();
        let image = |target| ImageExport {
            target,
            options: self.options.clone(),
            chromium: chromium.clone(),
        };
        let emitter: Box<dyn Emitter + '_> = match self.format {
            Format::Pdf => Box::new(PdfEmitter {
                stem: target.stem.clone(),
                sheets: sheets_of(game, target, deck, self.sheets).with_notes(notes),
                chromium: chromium.clone(),
            }),
            Format::Png => Box::new(PngEmitter(image(target))),
            Format::Tts => Box::new(TtsEmitter {
                export: image(target),
                out: self.out.to_path_buf(),
            }),
        };
        Ok(emitter.emit(game, ws, stage, diags)?)
    }

    /// Stages the export of `target` in each of `languages`, named
    /// `<stem>.<lang>`: the game localized as its sheets in that language
    /// are (a string without a translation keeps its source text).
    fn emit_languages(
        &self,
        game: &Game,
        target: &Target<'_>,
        (deck, languages): (bool, &[String]),
        ws: &mut Workspace,
        stage: &mut Stage,
        diags: &mut Diagnostics,
    ) -> Result<(), CommandError> {
        let sources = game::translatable(ws, game, diags)?;
        for lang in languages {
            let Some((localized, notes)) = in_language(game, lang, &sources, diags) else {
                continue;
            };
            let target = localize_target(target, &localized, lang, deck);
            self.emit(&localized, target, (deck, notes), ws, stage, diags)?;
        }
        Ok(())
    }
}

/// `target` (a selection of a game's cards) as a selection of the same
/// cards of `localized`, the game in `lang`, its outputs named
/// `<stem>.<lang>` so that no language's replaces another's.
fn localize_target<'l>(
    target: &Target<'_>,
    localized: &'l Game,
    lang: &str,
    deck: bool,
) -> Target<'l> {
    let prints = target
        .selection
        .prints
        .iter()
        .filter_map(|p| {
            Some(Print {
                card: localized.pool.get(&p.card.id)?,
                count: p.count,
            })
        })
        .collect();
    Target {
        selection: Selection {
            subject: target.selection.subject.clone(),
            prints,
            notes: Vec::new(),
        },
        stem: format!("{}.{lang}", target.stem),
        name: if deck {
            target.name.clone()
        } else {
            localized.manifest.manifest.name.clone()
        },
    }
}

/// Exports `targets` (game ids and deck files, as `print` takes them) of
/// the workspace at `root` into `out`: in the game's own language, or in
/// each of `languages` (`<stem>.<lang>`).
///
/// # Errors
/// When there is no browser, the workspace or a file cannot be read, the
/// browser fails or the output cannot be written.
pub(crate) fn run(
    root: &Path,
    format: Format,
    targets: &[String],
    out: &Path,
    (sheets, languages): (SheetOptions, &[String]),
    options: &ExportOptions,
) -> Result<Report, CommandError> {
    // Before any work: without a browser nothing can be made.
    let chromium = Chromium::find().map_err(EmitError::from)?;
    let out = std::path::absolute(out).map_err(|source| EmitError::Write {
        path: out.to_path_buf(),
        source,
    })?;
    let mut ws = Workspace::open(root)?;
    let chromium = chromium.with_limit(ws.limits().export_seconds);
    let mut diags = Diagnostics::new();
    let mut stage = Stage::new(root, &out);
    let export = Export {
        format,
        sheets,
        options,
        chromium: &chromium,
        out: &out,
    };
    let done = each_target(
        &mut ws,
        targets,
        &mut diags,
        |game, target, deck, ws, diags| {
            if languages.is_empty() {
                export.emit(game, target, (deck, Vec::new()), ws, &mut stage, diags)
            } else {
                export.emit_languages(game, &target, (deck, languages), ws, &mut stage, diags)
            }
        },
    )?;
    if diags.has_errors() {
        return Ok(nothing_written(ws, diags)?);
    }
    stage.commit()?;
    Ok(Report::new(
        ws,
        diags,
        format!(
            "exported {done} {} as {}",
            if done == 1 {
                "game or deck"
            } else {
                "games and decks"
            },
            format.name()
        ),
    )?)
}
