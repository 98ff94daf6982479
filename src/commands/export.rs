//! `carta export pdf|png|tts|pod|cgs|cockatrice|octgn|lackey [GAME… | DECK.toml…]`:
//! what designers take elsewhere, rendered by headless Chromium from the
//! same HTML as the sheets — a PDF of the sheets, a PNG per card face and
//! back, a Tabletop Simulator deck, a print shop's upload files, a Card
//! Game Simulator game, a Cockatrice set, an OCTGN game or a `LackeyCCG`
//! plugin — into `DIR/<game>/<format>/`,
//! written only when every game and deck rendered. With `--lang`, each
//! named language's export instead, named `<stem>.<lang>`
//! (`intrepidos.en.pdf`, `png/intrepidos.en/`, `tts/intrepidos.en/`).
//! With `--changed-since REV` (pdf, png, pod), each game's cards whose
//! printed face changed since REV only, named `<game>.reprint`.

use std::path::Path;

use super::build::{in_language, nothing_written};
use super::print::{each_target, sheets_of};
use super::reprint::{self, Since};
use super::{CommandError, Report};
use crate::diag::Diagnostics;
use crate::emit::cards::{ExportOptions, ImageExport, Target};
use crate::emit::cgs::CgsEmitter;
use crate::emit::chromium::Chromium;
use crate::emit::cockatrice::CockatriceEmitter;
use crate::emit::fit;
use crate::emit::lackey::LackeyEmitter;
use crate::emit::octgn::OctgnEmitter;
use crate::emit::pdf::PdfEmitter;
use crate::emit::png::PngEmitter;
use crate::emit::pod::{Ghostscript, PodEmitter, Shop, Upload};
use crate::emit::sheets::deck::Zone;
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
    /// A Card Game Simulator game.
    Cgs,
    /// A Cockatrice custom set and decks.
    Cockatrice,
    /// An OCTGN game, its set and decks.
    Octgn,
    /// A `LackeyCCG` plugin and decks.
    Lackey,
    /// A print shop's upload files.
    Pod(Shop),
    /// A print shop's preflight alone (`carta preflight`): nothing written.
    Preflight(Shop),
}

impl Format {
    /// Whether a reprint (`--changed-since`) can be made in this format:
    /// the printed ones, whose cards are printed faces.
    fn reprints(self) -> bool {
        matches!(self, Format::Pdf | Format::Png | Format::Pod(_))
    }

    fn name(self) -> &'static str {
        match self {
            Format::Pdf => "pdf",
            Format::Png => "png",
            Format::Tts => "tts",
            Format::Cgs => "cgs",
            Format::Cockatrice => "cockatrice",
            Format::Octgn => "octgn",
            Format::Lackey => "lackey",
            Format::Pod(_) => "print-shop files",
            Format::Preflight(_) => "preflight",
        }
    }
}

/// How an export run renders each target.
struct Export<'a> {
    format: Format,
    sheets: SheetOptions,
    options: &'a ExportOptions,
    chromium: &'a Chromium,
    /// Ghostscript, when the export makes a PDF/X.
    ghostscript: Option<Ghostscript>,
    /// The output folder, absolute.
    out: &'a Path,
}

impl Export<'_> {
    /// Stages the export of `target`, a selection of `game`'s cards.
    fn emit(
        &self,
        game: &Game,
        target: Target<'_>,
        (deck, notes, lang): (bool, Vec<String>, Option<&str>),
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
        let about = format!("the {} of `{}`", self.format.name(), target.stem);
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
            Format::Cgs | Format::Cockatrice => for_client(self.format, image(target), self.out),
            Format::Octgn => Box::new(OctgnEmitter {
                export: image(target),
            }),
            Format::Lackey => Box::new(LackeyEmitter {
                export: image(target),
            }),
            Format::Pod(shop) | Format::Preflight(shop) => Box::new(PodEmitter {
                export: image(target),
                shop,
                ghostscript: self.ghostscript.clone(),
                check_only: matches!(self.format, Format::Preflight(_)),
            }),
        };
        emitter.emit(game, ws, stage, diags)?;
        // Its pages measured what does not fit as they rendered.
        fit::report(&chromium.take_measured(), (&about, lang), (game, ws), diags);
        Ok(())
    }

    /// Stages the export of `target` (a deck's when `deck`): in the game's
    /// own language, or in each of `languages`.
    fn emit_target(
        &self,
        game: &Game,
        (target, deck): (Target<'_>, bool),
        languages: &[String],
        ws: &mut Workspace,
        stage: &mut Stage,
        diags: &mut Diagnostics,
    ) -> Result<(), CommandError> {
        if languages.is_empty() {
            let how = (deck, Vec::new(), None);
            self.emit(game, target, how, ws, stage, diags)
        } else {
            self.emit_languages(game, &target, (deck, languages), ws, stage, diags)
        }
    }

    /// Stages the reprint of `game` since `since`'s version, in its own
    /// language or in each of `languages`: of each, the cards whose face
    /// or back changed, when there are any.
    fn emit_reprint(
        &self,
        since: &mut Since,
        game: &Game,
        languages: &[String],
        ws: &mut Workspace,
        stage: &mut Stage,
        diags: &mut Diagnostics,
    ) -> Result<(), CommandError> {
        let own = languages.is_empty();
        reprint::each_language(
            game,
            (own, languages),
            ws,
            diags,
            |printed, (lang, notes), ws, diags| {
                let Some(selected) = since.select((game, printed), (lang, notes), ws, diags)?
                else {
                    return Ok(());
                };
                let how = (false, selected.notes, lang);
                self.emit(printed, selected.target, how, ws, stage, diags)
            },
        )
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
            self.emit(
                &localized,
                target,
                (deck, notes, Some(lang)),
                ws,
                stage,
                diags,
            )?;
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
    // The same cards, and counts, in the localized pool.
    let localize = |prints: &[Print<'_>]| -> Vec<Print<'l>> {
        prints
            .iter()
            .filter_map(|p| {
                Some(Print {
                    card: localized.pool.get(&p.card.id)?,
                    count: p.count,
                })
            })
            .collect()
    };
    let prints = localize(&target.selection.prints);
    let zones = target
        .zones
        .iter()
        .map(|z| Zone {
            id: z.id.clone(),
            name: z.name.clone(),
            prints: localize(&z.prints),
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
        deck: target.deck.clone(),
        zones,
    }
}

/// Exports `targets` (game ids and deck files, as `print` takes them) of
/// the workspace at `root` into `out`: in the game's own language, or in
/// each of `languages` (`<stem>.<lang>`). With `changed_since`, only the
/// cards of each game whose face or back differs from that version's
/// (see [`Since`]).
///
/// # Errors
/// When there is no browser, the workspace or a file cannot be read, the
/// browser fails or the output cannot be written, or `changed_since` is
/// given for a format that prints no faces or names no version carta can
/// print.
pub(crate) fn run(
    root: &Path,
    (format, targets): (Format, &[String]),
    out: &Path,
    (sheets, languages): (SheetOptions, &[String]),
    (options, changed_since): (&ExportOptions, Option<&str>),
) -> Result<Report, CommandError> {
    if changed_since.is_some() && !format.reprints() {
        return Err(not_reprinted(format));
    }
    let mut since = match Since::open(root, changed_since, targets)? {
        Ok(since) => since,
        Err(report) => return Ok(report),
    };
    // Before any work: without a browser nothing can be made.
    let chromium = Chromium::find().map_err(EmitError::from)?;
    let ghostscript = ghostscript_for(format)?;
    let out = std::path::absolute(out).map_err(|source| EmitError::Write {
        path: out.to_path_buf(),
        source,
    })?;
    let mut ws = Workspace::open(root)?;
    let chromium = chromium
        .with_limit(ws.limits().export_seconds)
        .with_shots(root);
    let mut diags = Diagnostics::new();
    let mut stage = Stage::new(root, &out);
    let export = Export {
        format,
        sheets,
        options,
        chromium: &chromium,
        ghostscript,
        out: &out,
    };
    let done = each_target(
        &mut ws,
        targets,
        &mut diags,
        |game, target, deck, ws, diags| match since.as_mut() {
            Some(since) => export.emit_reprint(since, game, languages, ws, &mut stage, diags),
            None => export.emit_target(game, (target, deck), languages, ws, &mut stage, diags),
        },
    )?;
    if let Format::Preflight(shop) = format {
        return Ok(Report::new(ws, diags, preflighted(done, shop))?);
    }
    if diags.has_errors() {
        return Ok(nothing_written(ws, diags)?);
    }
    stage.commit()?;
    let report = Report::new(ws, diags, exported(done, format))?;
    let report = with_counts(report, &chromium);
    Ok(Since::finish(
        since,
        report,
        &format!("written as {}", format.name()),
    ))
}

/// What `carta export` says it did: `exported 2 games and decks as pdf`.
fn exported(done: usize, format: Format) -> String {
    let what = if done == 1 {
        "game or deck"
    } else {
        "games and decks"
    };
    format!("exported {done} {what} as {}", format.name())
}

/// What `carta preflight` says it did: `preflighted 1 game or deck for
/// DriveThruCards`.
fn preflighted(done: usize, shop: Shop) -> String {
    let s = if done == 1 { "" } else { "s" };
    format!(
        "preflighted {done} game{s} or deck{s} for {}",
        shop.spec().name
    )
}

/// The error of `--changed-since` with a format that prints no faces.
fn not_reprinted(format: Format) -> CommandError {
    CommandError::Usage {
        message: format!(
            "`--changed-since` reprints printed cards: it does not apply to {}",
            format.name()
        ),
        help: "reprint with `carta export pdf`, `png` or `pod`, or `carta print`".into(),
    }
}

/// `report` saying how many card images the run drew and reused, when it
/// drew any.
fn with_counts(mut report: Report, chromium: &Chromium) -> Report {
    let (drawn, reused) = chromium.counts();
    if drawn + reused == 0 {
        return report;
    }
    let noun = if drawn == 1 { "image" } else { "images" };
    report.details.push(format!(
        "{drawn} card {noun} drawn, {reused} reused from earlier exports"
    ));
    report
}

/// Ghostscript, found before any work, when the export makes a PDF/X.
fn ghostscript_for(format: Format) -> Result<Option<Ghostscript>, EmitError> {
    match format {
        Format::Pod(shop) | Format::Preflight(shop) if shop.spec().upload == Upload::PdfX => {
            Ok(Some(Ghostscript::find()?))
        }
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
