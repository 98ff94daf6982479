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
    /// How far the card's background extends beyond the trim line, in mm.
    /// Without it, home sheets print cards edge to edge (3 × 3 poker cards
    /// to an A4 or Letter page) and images exported with `--bleed` take 3.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 0.0, max = 10.0))]
    pub bleed: Option<f64>,
    /// The inset from the trim line within which text stays, in mm (default 3).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 0.0, max = 20.0))]
    pub safe: Option<f64>,
    /// The smallest readable size of card text, in points (default 6):
    /// text the fit script shrinks below it is a warning at its field.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1.0, max = 24.0))]
    pub min_text_size: Option<f64>,
    /// The radius of the cards' rounded corners, in mm, that a cutting
    /// machine's cut file follows (default: the card size's usual corner,
    /// see [`CardSize::corner_radius`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 0.0, max = 20.0))]
    pub corner_radius: Option<f64>,
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
            min_text_size: None,
            corner_radius: None,
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
    /// (default: the game's `[print]` bleed).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 0.0, max = 10.0))]
    pub bleed: Option<f64>,
    /// The inset from the trim line within which text stays, in mm (default 3).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 0.0, max = 20.0))]
    pub safe: Option<f64>,
    /// The radius of this kind's rounded corners, in mm (default: the
    /// game's `[print]` corner radius, else its card size's usual corner).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 0.0, max = 20.0))]
    pub corner_radius: Option<f64>,
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

/// Bleed beyond the trim line when the manifest gives none, in mm, of a
/// card drawn alone (the image exports, the deck builder).
pub const DEFAULT_BLEED: f64 = 3.0;
/// Bleed on home sheets when the manifest gives none, in mm: none, the
/// cards edge to edge, so that 3 × 3 poker cards fit an A4 or Letter page
/// (with 3 mm, 6 and 4 do). A print shop's export takes the shop's bleed.
pub const SHEET_BLEED: f64 = 0.0;
/// Inset inside the trim line that text keeps clear of, in mm.
pub const DEFAULT_SAFE: f64 = 3.0;

/// The smallest readable size of card text when the manifest gives none,
/// in points.
pub const MIN_TEXT_SIZE: f64 = 6.0;

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

    /// The usual corner radius of cards of this size, in mm: 1/8 in
    /// (3.175 mm), the corner of standard poker and bridge playing cards
    /// and of the card templates of print-on-demand shops, for every
    /// preset; never more than a third of the shorter side.
    pub fn corner_radius(self) -> f64 {
        let (w, h) = self.mm();
        DEFAULT_CORNER_RADIUS.min(w.min(h) / 3.0)
    }
}

/// The usual corner radius of playing cards, in mm (1/8 in).
pub const DEFAULT_CORNER_RADIUS: f64 = 3.175;

/// A paper: a standard size or a custom one (`{ width = …, height = … }`
/// in mm, portrait).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum Paper {
    /// A standard size.
    Preset(PaperSize),
    /// A custom size in mm.
    Custom {
        /// Width in mm.
        #[schemars(range(min = 50.0, max = 2000.0))]
        width: f64,
        /// Height in mm.
        #[schemars(range(min = 50.0, max = 2000.0))]
        height: f64,
    },
}

/// The standard paper sizes.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema, clap::ValueEnum,
)]
#[serde(rename_all = "kebab-case")]
pub enum PaperSize {
    /// ISO A4, 210 × 297 mm.
    A4,
    /// US Letter, 215.9 × 279.4 mm (8.5 × 11 in).
    Letter,
    /// ISO A3, 297 × 420 mm.
    A3,
    /// US Tabloid (ledger), 279.4 × 431.8 mm (11 × 17 in).
    Tabloid,
    /// US Legal, 215.9 × 355.6 mm (8.5 × 14 in).
    Legal,
}

/// The smallest and largest side of a custom paper, in mm.
pub const PAPER_MM: std::ops::RangeInclusive<f64> = 50.0..=2000.0;

impl Paper {
    /// ISO A4.
    pub const A4: Paper = Paper::Preset(PaperSize::A4);
    /// US Letter.
    pub const LETTER: Paper = Paper::Preset(PaperSize::Letter);

    /// Width and height in mm, portrait.
    pub fn mm(self) -> (f64, f64) {
        match self {
            Paper::Custom { width, height } => (width, height),
            Paper::Preset(p) => match p {
                PaperSize::A4 => (210.0, 297.0),
                PaperSize::Letter => (215.9, 279.4),
                PaperSize::A3 => (297.0, 420.0),
                PaperSize::Tabloid => (279.4, 431.8),
                PaperSize::Legal => (215.9, 355.6),
            },
        }
    }

    /// The name printed on the cover page (`A4`, `210 × 297 mm`).
    pub fn label(self) -> String {
        match self {
            Paper::Preset(p) => match p {
                PaperSize::A4 => "A4",
                PaperSize::Letter => "Letter",
                PaperSize::A3 => "A3",
                PaperSize::Tabloid => "Tabloid",
                PaperSize::Legal => "Legal",
            }
            .to_owned(),
            Paper::Custom { width, height } => format!("{} × {} mm", short(width), short(height)),
        }
    }

    /// A name for CSS classes: the preset's (`a4`), or `custom`.
    pub fn class(self) -> &'static str {
        match self {
            Paper::Preset(p) => match p {
                PaperSize::A4 => "a4",
                PaperSize::Letter => "letter",
                PaperSize::A3 => "a3",
                PaperSize::Tabloid => "tabloid",
                PaperSize::Legal => "legal",
            },
            Paper::Custom { .. } => "custom",
        }
    }

    /// Reads `--paper`: a preset name (`a3`) or a custom size in mm,
    /// `WIDTHxHEIGHTmm` (`210x297mm`; `×` for `x` too, decimals with `.`).
    ///
    /// # Errors
    /// A message naming the accepted forms.
    pub fn parse(text: &str) -> Result<Paper, String> {
        let t = text.trim();
        if let Ok(p) = <PaperSize as clap::ValueEnum>::from_str(t, true) {
            return Ok(Paper::Preset(p));
        }
        let bad = || {
            format!(
                "`{t}` is not a paper: use a4, letter, a3, tabloid, legal or a size in mm such as 210x297mm (each side {}–{} mm)",
                PAPER_MM.start(),
                PAPER_MM.end()
            )
        };
        let size = t.strip_suffix("mm").ok_or_else(bad)?;
        let (w, h) = size.split_once(['x', 'X', '×']).ok_or_else(bad)?;
        let side = |s: &str| {
            s.trim()
                .parse::<f64>()
                .ok()
                .filter(|v| PAPER_MM.contains(v))
                .ok_or_else(bad)
        };
        Ok(Paper::Custom {
            width: side(w)?,
            height: side(h)?,
        })
    }
}

/// A length in mm as a label prints it: up to one decimal.
fn short(v: f64) -> String {
    let s = format!("{v:.1}");
    s.strip_suffix(".0").map_or(s.clone(), str::to_owned)
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

/// The cutting guides of the sheets.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema, clap::ValueEnum,
)]
#[serde(rename_all = "kebab-case")]
pub enum CutLines {
    /// Short crop marks in the margins, never over a card.
    #[default]
    Marks,
    /// Hairlines along every trim line, from edge to edge of the page,
    /// for a guillotine or a cutting machine.
    Full,
}

/// A cutting machine whose print-then-cut workflow a sheet is laid out
/// for (`--cutter`): its registration marks, the area its cards keep to
/// and its cut file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Cutter {
    /// Silhouette Cameo and Portrait (Silhouette Studio).
    Silhouette,
    /// Cricut Explore and Maker (Design Space's Print Then Cut).
    Cricut,
    /// Brother `ScanNCut` (scanned on its mat).
    Scanncut,
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paper_parses_presets_and_custom_sizes() {
        assert_eq!(Paper::parse("A3"), Ok(Paper::Preset(PaperSize::A3)));
        assert_eq!(Paper::parse("legal"), Ok(Paper::Preset(PaperSize::Legal)));
        assert_eq!(
            Paper::parse("210x297mm"),
            Ok(Paper::Custom {
                width: 210.0,
                height: 297.0
            })
        );
        assert_eq!(
            Paper::parse("100.5×150mm").map(Paper::mm),
            Ok((100.5, 150.0))
        );
        for bad in ["a5", "210x297", "210mm", "10x297mm", "x297mm", "210x2970mm"] {
            let e = Paper::parse(bad).unwrap_err();
            assert!(e.contains("210x297mm"), "{bad}: {e}");
        }
    }

    #[test]
    fn papers_have_their_standard_sizes_and_labels() {
        assert_eq!(Paper::Preset(PaperSize::Tabloid).mm(), (279.4, 431.8));
        assert_eq!(Paper::Preset(PaperSize::Legal).mm(), (215.9, 355.6));
        assert_eq!(Paper::Preset(PaperSize::A3).label(), "A3");
        let custom = Paper::Custom {
            width: 300.0,
            height: 450.5,
        };
        assert_eq!(custom.label(), "300 × 450.5 mm");
        assert_eq!(custom.class(), "custom");
    }

    #[test]
    fn paper_reads_from_toml_as_a_name_or_a_table() {
        #[derive(Deserialize)]
        struct P {
            paper: Paper,
        }
        let p: P = toml::from_str("paper = \"tabloid\"").unwrap();
        assert_eq!(p.paper, Paper::Preset(PaperSize::Tabloid));
        let p: P = toml::from_str("paper = { width = 330, height = 480 }").unwrap();
        assert_eq!(p.paper.mm(), (330.0, 480.0));
    }
}
