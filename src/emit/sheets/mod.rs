//! Print-and-play sheets: each card's face and back rendered from
//! handlebars templates, laid out on mm-exact HTML pages with crop marks,
//! bleed and duplex-mirrored backs, behind a cover listing every sheet.
//!
//! The emitter ([`SheetsEmitter`]) runs after a clean check. Three seams:
//! [`inputs`] gathers the game's templates, [`document`] streams the
//! printed sheets (`index.html`: cover, pages, crop marks) into the stage,
//! and [`alone`] renders cards one by one for the outputs that place them
//! themselves (exports, the deck builder). What they share — the print
//! options, the selection, the sheet order — is here.
//!
//! - `renderer.rs` compiles a game's templates once and renders faces and
//!   backs on every core straight from the game; `splice.rs` splices into
//!   each template the partials it calls that cannot tell where they
//!   stand, sparing handlebars' deep copy of the card's context per call
//!   (a spliced template that fails renders again as written, so errors
//!   name the partial's line).
//! - `document.rs` streams `index.html` into the stage a batch of sheets at
//!   a time, so a build's memory does not grow with the sheets; `page.rs`
//!   and `geometry.rs` are its HTML and its millimetres.
//! - `reuse.rs` is the build's faces cache (its file `faces_index.rs`, the
//!   other cards a face read noted by `reads.rs`), and `memo.rs`'s
//!   [`FaceMemo`] the deck builder's faces a long-running process keeps.
//! - `cutter.rs` is a cutting machine's kit (`--cutter`): its registration
//!   marks, the area the cards keep to and the cut files (SVG, DXF);
//!   `calibrate.rs` the duplex calibration sheet (`print --calibrate`).
//! - `overflow.rs` reads what the page's fit script measured as not
//!   fitting and finds each box's field by its text.

mod alone;
mod assets;
mod budget;
pub mod calibrate;
pub mod cutter;
pub mod deck;
mod display;
mod document;
mod emitter;
mod faces_index;
pub mod geometry;
mod helpers;
pub mod icons;
mod inputs;
mod layout;
mod memo;
pub mod overflow;
mod page;
pub mod placement;
mod probe;
mod reads;
mod renderer;
mod reuse;
mod spans;
mod splice;
mod templates;
mod view;

pub use alone::{CardSet, Face, Faces, RenderedCard, faces, render_cards, render_cards_in};
pub use assets::{PathProblem, read as read_asset};
pub use document::render;
pub use emitter::SheetsEmitter;
pub use inputs::Inputs;
pub use memo::FaceMemo;
pub use page::{FIT_SCRIPT, fit_script_source, page_policy, script_source};
pub use probe::probe;
pub use reuse::FacesAt;
pub use templates::{BASE_CSS, DEFAULT_BACK, DEFAULT_FACE, TemplateFile};
pub use view::{CardView, GameView, SizeView};

use self::assets::ImageCache;
use self::geometry::CardBox;
use crate::config::{
    CardSize, CutLines, Cutter, Duplex, KindPrint, Orientation, Paper, PrintSettings, SizePreset,
};
use crate::diag::Diagnostic;
use crate::game::Game;
use crate::validate::RawCard;

pub use crate::config::{DEFAULT_BLEED, DEFAULT_SAFE, MIN_TEXT_SIZE, SHEET_BLEED};

/// Per-build choices; each `None` takes the manifest's `[print]` value.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct SheetOptions {
    /// The paper.
    pub paper: Option<Paper>,
    /// The cutting guides (crop marks unless asked).
    pub cut_lines: Option<CutLines>,
    /// The orientation.
    pub orientation: Option<Orientation>,
    /// The duplex layout.
    pub duplex: Option<Duplex>,
    /// The ink-saver variant.
    pub ink_saver: Option<bool>,
    /// The cutting machine the pages are laid out for: its registration
    /// marks instead of crop marks, the cards clear of them, and a cut
    /// file beside the sheets (see [`cutter`]).
    pub cutter: Option<Cutter>,
    /// How far every back moves, in mm, as seen from the front of the
    /// sheet: right and down (a printer that shifts its backs is
    /// corrected by the opposite of its shift).
    pub back_offset: Option<(f64, f64)>,
    /// Backs pages without cutting guides.
    pub bare_backs: bool,
}

/// A file of the sheets, relative to `DIR/<game>/sheets/`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutputFile {
    /// `/`-separated path (`index.html`, `img/<hash>.png`).
    pub path: String,
    /// Its bytes.
    pub bytes: Vec<u8>,
}

/// A card to print and how many copies.
#[derive(Debug, Clone, Copy)]
pub struct Print<'a> {
    /// The card.
    pub card: &'a RawCard,
    /// How many copies.
    pub count: u32,
}

/// What a print holds: the whole pool, each card `copies` times (1 when it
/// does not say).
pub fn pool_prints(game: &Game) -> Vec<Print<'_>> {
    game.pool
        .iter()
        .map(|card| Print {
            card,
            count: card.copies.unwrap_or(1),
        })
        .collect()
}

/// The smallest readable size of `game`'s card text, in points: its
/// manifest's `min-text-size`, else [`MIN_TEXT_SIZE`].
pub fn min_text_size(game: &Game) -> f64 {
    let print = game.manifest.manifest.print.as_ref();
    print.and_then(|p| p.min_text_size).unwrap_or(MIN_TEXT_SIZE)
}

/// The attribute of a page's `<body>` that tells the fit script the
/// smallest readable size of its cards' text, `pt` points.
pub fn min_text_attribute(pt: f64) -> String {
    format!(" data-carta-min-text=\"{}\"", geometry::mm(pt))
}

/// The card box of `kind`: the kind's own print settings over the game's,
/// `bleed` when neither gives one.
fn card_box(print: &PrintSettings, kind: Option<&KindPrint>, bleed: f64) -> CardBox {
    let size = kind
        .and_then(|k| k.size)
        .or(print.size)
        .unwrap_or(CardSize::Preset(SizePreset::Poker));
    let (width, height) = size.mm();
    CardBox {
        width,
        height,
        bleed: kind.and_then(|k| k.bleed).or(print.bleed).unwrap_or(bleed),
        safe: kind
            .and_then(|k| k.safe)
            .or(print.safe)
            .unwrap_or(DEFAULT_SAFE),
    }
}

/// The corner radius of `kind`'s cards: the kind's own, the game's, else
/// the usual one of its card size.
fn corner_radius(print: &PrintSettings, kind: Option<&KindPrint>) -> f64 {
    let size = kind
        .and_then(|k| k.size)
        .or(print.size)
        .unwrap_or(CardSize::Preset(SizePreset::Poker));
    kind.and_then(|k| k.corner_radius)
        .or(print.corner_radius)
        .unwrap_or_else(|| size.corner_radius())
}

/// Whether `path`, a file of the sheets, is a cut file (`cut.svg`,
/// `cut-2.dxf`), which an export writes beside its PDF.
pub fn is_cut_file(path: &str) -> bool {
    path.starts_with("cut")
        && !path.contains('/')
        && std::path::Path::new(path)
            .extension()
            .is_some_and(|e| e == "svg" || e == "dxf")
}

/// What a selection is, as the cover names it (in the language printed:
/// carta's captions `subject-game` and `subject-deck`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Subject {
    /// Every card of the game.
    Game,
    /// The deck of this name.
    Deck(String),
    /// A reprint: the cards whose printed face changed, under this subject
    /// (already in the language printed).
    Reprint(String),
    /// Cards placed by the caller, under no cover.
    Cards,
}

/// What to print: a title for the cover and the cards.
#[derive(Debug, Clone)]
pub struct Selection<'a> {
    /// The whole game or a deck.
    pub subject: Subject,
    /// The cards and their counts, in any order (the sheets follow the
    /// manifest's kind order, then this order).
    pub prints: Vec<Print<'a>>,
    /// Lines the cover adds to its instructions (the language report).
    pub notes: Vec<String>,
}
/// The prints of `selection` in sheet order — kinds in manifest order,
/// then selection order — without those of no copies.
fn sheet_order<'a>(game: &Game, selection: &Selection<'a>) -> Vec<Print<'a>> {
    let kinds = game.manifest.manifest.kind_ids();
    let mut prints: Vec<Print<'a>> = selection
        .prints
        .iter()
        .copied()
        .filter(|p| p.count > 0)
        .collect();
    prints.sort_by_key(|p| {
        kinds
            .iter()
            .position(|k| *k == p.card.kind)
            .unwrap_or(usize::MAX)
    });
    prints
}
fn error_count(diags: &[Diagnostic]) -> usize {
    diags
        .iter()
        .filter(|d| d.severity == crate::diag::Severity::Error)
        .count()
}

/// The art files, each once, sorted by path.
fn image_files(images: ImageCache) -> Vec<OutputFile> {
    let mut files = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    for image in images.by_path.into_values().flatten() {
        if seen.insert(image.url.clone()) {
            files.push(OutputFile {
                path: image.url,
                bytes: image.bytes,
            });
        }
    }
    files.sort_by(|a, b| a.path.cmp(&b.path));
    files
}
