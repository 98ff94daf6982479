//! `carta export pdf|png|tts|pod|cgs|cockatrice [GAME… | DECK.toml…]`:
//! what designers take elsewhere, rendered by headless Chromium from the
//! same HTML as the sheets — a PDF of the sheets, a PNG per card face and
//! back, a Tabletop Simulator deck, a print shop's upload files, a Card
//! Game Simulator game or a Cockatrice set — into `DIR/<game>/<format>/`,
//! written only when every game and deck rendered.

use std::path::Path;

use super::build::nothing_written;
use super::print::{each_target, sheets_of};
use super::{CommandError, Report};
use crate::diag::Diagnostics;
use crate::emit::cards::{ExportOptions, ImageExport};
use crate::emit::cgs::CgsEmitter;
use crate::emit::chromium::Chromium;
use crate::emit::cockatrice::CockatriceEmitter;
use crate::emit::fit;
use crate::emit::pdf::PdfEmitter;
use crate::emit::png::PngEmitter;
use crate::emit::pod::{Ghostscript, PodEmitter, Shop, Upload};
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
    /// A Card Game Simulator game.
    Cgs,
    /// A Cockatrice custom set and decks.
    Cockatrice,
    /// A print shop's upload files.
    Pod(Shop),
}

impl Format {
    fn name(self) -> &'static str {
        match self {
            Format::Pdf => "pdf",
            Format::Png => "png",
            Format::Tts => "tts",
            Format::Cgs => "cgs",
            Format::Cockatrice => "cockatrice",
            Format::Pod(_) => "print-shop files",
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
    options: &ExportOptions,
) -> Result<Report, CommandError> {
    // Before any work: without a browser nothing can be made.
    let chromium = Chromium::find().map_err(EmitError::from)?;
    let ghostscript = ghostscript_for(format)?;
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
            let image = |target| ImageExport {
                target,
                options: options.clone(),
                chromium: chromium.clone(),
            };
            let about = format!("the {} of `{}`", format.name(), target.stem);
            let emitter: Box<dyn Emitter + '_> = match format {
                Format::Pdf => Box::new(PdfEmitter {
                    stem: target.stem.clone(),
                    sheets: sheets_of(game, target, deck, sheets),
                    chromium: chromium.clone(),
                }),
                Format::Png => Box::new(PngEmitter(image(target))),
                Format::Tts => Box::new(TtsEmitter {
                    export: image(target),
                    out: out.clone(),
                }),
                Format::Cgs | Format::Cockatrice => for_client(format, image(target), &out),
                Format::Pod(shop) => Box::new(PodEmitter {
                    export: image(target),
                    shop,
                    ghostscript: ghostscript.clone(),
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

/// Ghostscript, found before any work, when the export makes a PDF/X.
fn ghostscript_for(format: Format) -> Result<Option<Ghostscript>, EmitError> {
    match format {
        Format::Pod(shop) if shop.spec().upload == Upload::PdfX => Ok(Some(Ghostscript::find()?)),
        _ => Ok(None),
    }
}

/// The emitter of a free client's export (`cgs`, `cockatrice`).
fn for_client<'g>(format: Format, export: ImageExport<'g>, out: &Path) -> Box<dyn Emitter + 'g> {
    let out = out.to_path_buf();
    if format == Format::Cgs {
        Box::new(CgsEmitter { export, out })
    } else {
        Box::new(CockatriceEmitter { export, out })
    }
}
