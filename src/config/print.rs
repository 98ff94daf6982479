//! The print settings a game's manifest declares: `[print]` (defaults for
//! every build), `[kinds.<k>.print]` (one kind's card geometry) and
//! `[icons]` (inline icon tokens). These types are part of the manifest's
//! generated JSON Schema.

use indexmap::IndexMap;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A game's `[print]` table: the defaults of every build of its sheets.
/// Command-line flags override the paper, orientation, duplex and ink saver.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default, rename_all = "kebab-case", deny_unknown_fields)]
pub struct PrintSettings {
    /// The paper the sheets are laid out for.
    pub paper: Paper,
    /// The orientation of the paper.
    pub orientation: Orientation,
    /// The blank border of every page, in mm, on all four sides; crop
    /// marks are drawn in it.
    #[schemars(range(min = 0.0, max = 50.0))]
    pub margin: f64,
    /// The space between two cards' bleed boxes, in mm.
    #[schemars(range(min = 0.0, max = 30.0))]
    pub gutter: f64,
    /// How the backs pages are laid out for double-sided printing.
    pub duplex: Duplex,
    /// Print without card backgrounds and art, to save ink.
    pub ink_saver: bool,
    /// The card size of kinds that declare none (default `poker`): a preset
    /// name or `{ width = …, height = … }` in mm.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub size: Option<CardSize>,
    /// How far the card's background extends beyond the trim line, in mm
    /// (default 3).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 0.0, max = 10.0))]
    pub bleed: Option<f64>,
    /// The inset from the trim line within which text stays, in mm (default 3).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 0.0, max = 20.0))]
    pub safe: Option<f64>,
    /// The languages `carta build` prints sheets in, each into
    /// `sheets/<lang>/` (the source `language` or one of `translations`);
    /// empty: the source language only, into `sheets/`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[schemars(extend("uniqueItems" = true))]
    pub languages: Vec<String>,
}

impl Default for PrintSettings {
    fn default() -> Self {
        PrintSettings {
            paper: Paper::A4,
            orientation: Orientation::Portrait,
            margin: 5.0,
            gutter: 0.0,
            duplex: Duplex::Long,
            ink_saver: false,
            size: None,
            bleed: None,
            safe: None,
            languages: Vec::new(),
        }
    }
}

/// A kind's `print` table: its card geometry and which fields hold art.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default, rename_all = "kebab-case", deny_unknown_fields)]
pub struct KindPrint {
    /// The trim size: a preset name or `{ width = …, height = … }` in mm.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub size: Option<CardSize>,
    /// How far the card's background extends beyond the trim line, in mm
    /// (default 3).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 0.0, max = 10.0))]
    pub bleed: Option<f64>,
    /// The inset from the trim line within which text stays, in mm (default 3).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 0.0, max = 20.0))]
    pub safe: Option<f64>,
    /// The fields of this kind that hold an image path, relative to the
    /// game's folder (`cards/<game>/`). The images are copied beside the
    /// sheets under content-hashed names.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub images: Vec<String>,
    /// A word printed on this kind's backs under the game's name, for
    /// cards that must be told apart face down (setup cards). Without it
    /// the back is the game's neutral back, the same for every kind, so
    /// that a shared deck gives nothing away.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub back: Option<String>,
    /// How the default face prints this kind's art: in its box (the
    /// default), or across the whole card, bleed included, under the text.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub art: Option<ArtMode>,
}

/// Where a kind's art goes on the default face.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum ArtMode {
    /// In the art box, cropped to fill it.
    Box,
    /// Across the whole card, bleed included; the text sits on panels over it.
    FullBleed,
}

/// Bleed beyond the trim line when the manifest gives none, in mm.
pub const DEFAULT_BLEED: f64 = 3.0;
/// Inset inside the trim line that text keeps clear of, in mm.
pub const DEFAULT_SAFE: f64 = 3.0;

/// A card size: a preset or a custom size.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum CardSize {
    /// A standard size.
    Preset(SizePreset),
    /// A custom trim size in mm.
    Custom {
        /// Width in mm.
        #[schemars(range(min = 10.0, max = 400.0))]
        width: f64,
        /// Height in mm.
        #[schemars(range(min = 10.0, max = 400.0))]
        height: f64,
    },
}

/// The standard card sizes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum SizePreset {
    /// 63.5 × 88.9 mm (2.5 × 3.5 in).
    Poker,
    /// 57 × 89 mm.
    Bridge,
    /// 59 × 92 mm.
    Euro,
    /// 44 × 63 mm (mini euro).
    Mini,
    /// 41 × 63 mm (mini American).
    MiniUs,
    /// 70 × 120 mm.
    Tarot,
    /// 70 × 70 mm.
    Square,
}

impl CardSize {
    /// Width and height in mm.
    pub fn mm(self) -> (f64, f64) {
        match self {
            CardSize::Custom { width, height } => (width, height),
            CardSize::Preset(p) => match p {
                SizePreset::Poker => (63.5, 88.9),
                SizePreset::Bridge => (57.0, 89.0),
                SizePreset::Euro => (59.0, 92.0),
                SizePreset::Mini => (44.0, 63.0),
                SizePreset::MiniUs => (41.0, 63.0),
                SizePreset::Tarot => (70.0, 120.0),
                SizePreset::Square => (70.0, 70.0),
            },
        }
    }
}

/// Paper sizes.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema, clap::ValueEnum,
)]
#[serde(rename_all = "kebab-case")]
pub enum Paper {
    /// ISO A4, 210 × 297 mm.
    A4,
    /// US Letter, 215.9 × 279.4 mm.
    Letter,
}

impl Paper {
    /// Width and height in mm, portrait.
    pub fn mm(self) -> (f64, f64) {
        match self {
            Paper::A4 => (210.0, 297.0),
            Paper::Letter => (215.9, 279.4),
        }
    }

    /// The name printed on the cover page.
    pub fn label(self) -> &'static str {
        match self {
            Paper::A4 => "A4",
            Paper::Letter => "Letter",
        }
    }
}

/// Paper orientation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Orientation {
    /// Taller than wide.
    Portrait,
    /// Wider than tall.
    Landscape,
}

/// Double-sided layout: which edge the printer flips the sheet on.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema, clap::ValueEnum,
)]
#[serde(rename_all = "kebab-case")]
pub enum Duplex {
    /// Flip on the long edge: on portrait pages the backs' columns are mirrored.
    Long,
    /// Flip on the short edge: on portrait pages the backs' rows are mirrored.
    Short,
    /// No backs pages: faces only.
    None,
}

/// An inline icon: the SVG that replaces its token in card text.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct Icon {
    /// An SVG file, relative to the game's folder (`cards/<game>/`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// The SVG itself, written inline (`<svg …>…</svg>`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub svg: Option<String>,
    /// What the icon means, for screen readers and the cover page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
}

/// The `[icons]` table: token → icon. A token is written in card text in
/// braces: `{AC}`; a trailing `:N` repeats an icon N times: `{dice:yellow:2}`
/// is the icon `dice:yellow` twice.
pub type Icons = IndexMap<String, Icon>;

/// The pattern of an icon token name.
pub const ICON_NAME_PATTERN: &str = r"^[A-Za-z0-9_-]+(:[A-Za-z0-9_-]+)*$";
