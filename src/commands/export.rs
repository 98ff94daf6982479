//! `carta export pdf|png|tts [GAME… | DECK.toml…]`: what designers take
//! elsewhere, rendered by headless Chromium from the same HTML as the
//! sheets — a PDF of the sheets, a PNG per card face and back, or a
//! Tabletop Simulator deck — into `DIR/<game>/<format>/`, written only when
//! every game and deck rendered.

use std::path::Path;

use super::build::nothing_written;
use super::print::{each_target, sheets_of};
use super::{CommandError, Report};
use crate::diag::Diagnostics;
use crate::emit::cards::{ExportOptions, ImageExport};
use crate::emit::chromium::Chromium;
use crate::emit::fit;
use crate::emit::pdf::PdfEmitter;
use crate::emit::png::PngEmitter;
use crate::emit::sheets::SheetOptions;
use crate::emit::tts::TtsEmitter;
use crate::emit::{EmitError, Emitter, Stage};
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

/// Exports `targets` (game ids and deck files, as `print` takes them) of
/// the workspace at `root` into `out`.
///
/// # Errors
/// When there is no browser, the workspace or a file cannot be read, the
/// browser fails or the output cannot be written.
pub(crate) fn run(
    root: &Path,
    format: Format,
    targets: &[String],
    out: &Path,
    sheets: SheetOptions,
    options: ExportOptions,
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
    let done = each_target(
        &mut ws,
        targets,
        &mut diags,
        |game, target, deck, ws, diags| {
            let about = format!("the {} of `{}`", format.name(), target.stem);
            let emitter: Box<dyn Emitter + '_> = match format {
                Format::Pdf => Box::new(PdfEmitter {
                    stem: target.stem.clone(),
                    sheets: sheets_of(game, target, deck, sheets),
                    chromium: chromium.clone(),
                }),
                Format::Png => Box::new(PngEmitter(ImageExport {
                    target,
                    options: options.clone(),
                    chromium: chromium.clone(),
                })),
                Format::Tts => Box::new(TtsEmitter {
                    export: ImageExport {
                        target,
                        options: options.clone(),
                        chromium: chromium.clone(),
                    },
                    out: out.clone(),
                }),
            };
            emitter.emit(game, ws, &mut stage, diags)?;
            // Its pages measured what does not fit as they rendered.
            fit::report(&chromium.take_measured(), (&about, None), (game, ws), diags);
            Ok(())
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
