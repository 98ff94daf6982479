//! Emit: what carta makes of a checked game. Emitters are siblings behind
//! one seam, [`Emitter`]: the binary bundle ([`bundle`]), the
//! print-and-play sheets ([`sheets`]) and the exports — [`pdf`], [`png`],
//! [`tts`] (a Tabletop Simulator object), [`pod`] (a print shop's upload
//! files), [`cgs`] (a Card Game Simulator game), [`cockatrice`] (a
//! Cockatrice set), [`octgn`] (an OCTGN game) and [`lackey`] (a `LackeyCCG`
//! plugin). Each new output is one more file here and nothing
//! else.
//!
//! What the emitters share: [`chromium`], the sealed headless browser the
//! exports render through (bounded parallel jobs; `chromium/origin.rs`
//! serves each page and the art it may load and is the browser's only
//! proxy); [`cards`], cards photographed on exact-pixel grid pages and cut
//! apart; [`clients`], the mapping both card-game clients take;
//! [`images`], where an export's images are loaded from and their
//! content-hash names; `fields.rs`, a card's fields read in place from
//! its packed bytes when an emitter needs only a few; [`fit`], the
//! `sheets::overflow` check (`print` loads the sheets it staged in the
//! sealed browser, `export` reads what its pages reported); and [`Stage`].
//!
//! An emitter never writes into the output folder itself: it writes into a
//! [`Stage`], a hidden folder beside the output, and the command swaps
//! everything staged into place only when every emitter of every game
//! succeeded. A failed or interrupted build leaves the previous outputs as
//! they were.
//!
//! Invariant: emitters run only on games whose check found no error.

pub mod bundle;
pub mod cards;
pub mod cgs;
pub mod chromium;
pub mod clients;
pub mod cockatrice;
pub(crate) mod fields;
pub mod fit;
pub mod images;
pub mod lackey;
pub mod octgn;
pub mod pdf;
pub mod png;
pub mod pod;
pub mod sheets;
pub mod shots;
mod stage;
pub mod tts;

pub use stage::Stage;

use crate::diag::Diagnostics;
use crate::game::Game;
use crate::load::{LoadError, Workspace};

/// One kind of output of a game.
pub trait Emitter {
    /// What it makes, for summaries ("bundle", "sheets").
    fn name(&self) -> &'static str;

    /// Writes the output of `game` into `stage`, under the game's folder
    /// (`stage.path(game.id(), …)`), reporting every problem into `diags`.
    /// The workspace is where it reads its own inputs (templates, art),
    /// so that they join the source map and diagnostics can point into them.
    ///
    /// # Errors
    /// When an input or the stage cannot be read or written; problems of
    /// the game's sources are diagnostics instead.
    fn emit(
        &self,
        game: &Game,
        ws: &mut Workspace,
        stage: &mut Stage,
        diags: &mut Diagnostics,
    ) -> Result<(), EmitError>;
}

/// Why an emitter could not run (the command exits 2).
#[derive(Debug, thiserror::Error)]
pub enum EmitError {
    /// An input could not be read.
    #[error(transparent)]
    Load(#[from] LoadError),
    /// The stage could not be written.
    #[error("cannot write `{path}`: {source}")]
    Write {
        /// The file or folder being written.
        path: std::path::PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// carta refused to write where a link or a non-regular file is, or
    /// the output folder could not be written.
    #[error(transparent)]
    Confined(#[from] crate::write::WriteError),
    /// The browser an export renders with is missing or failed.
    #[error(transparent)]
    Chromium(#[from] chromium::ChromiumError),
    /// Ghostscript, which makes the PDF/X of a print shop, is missing or
    /// failed.
    #[error(transparent)]
    Ghostscript(#[from] pod::GhostscriptError),
    /// An image the browser made could not be read.
    #[error("cannot read the image `{path}`: {message}")]
    Image {
        /// The image.
        path: std::path::PathBuf,
        /// What is wrong with it.
        message: String,
    },
}

/// The emitters of `carta build` for `game`: its bundle and its sheets;
/// with `cached`, the sheets reuse the faces the last build made (see
/// [`sheets::SheetsEmitter::cached`]).
pub fn for_build(
    game: &Game,
    sheets: sheets::SheetOptions,
    cached: bool,
) -> Vec<Box<dyn Emitter + '_>> {
    vec![
        Box::new(bundle::BundleEmitter),
        Box::new(sheets::SheetsEmitter::pool(game, sheets).cached(cached)),
    ]
}
