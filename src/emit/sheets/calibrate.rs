//! The duplex calibration sheet (`carta print --calibrate`): a front and a
//! back page, each with crosshairs at the centre and near every corner and
//! millimetre rulers through the centre. Printed double-sided and held to
//! the light, the back's crosses show how far the printer shifts its
//! backs; `--back-offset` with the opposite numbers corrects it, and the
//! sheet printed with that offset shows the crosses on each other.

use std::fmt::Write as _;

use super::document::resolve_build;
use super::geometry::{Flip, mm, svg_element, svg_over_page};
use super::page::{self, Side};
use super::{BASE_CSS, SheetOptions};
use crate::config::{Duplex, PrintSettings};

/// Half the length of each ruler, in mm.
const RULER: f64 = 20.0;
/// How far the corner crosshairs sit from the page's edges, in mm.
const CORNER: f64 = 30.0;
/// Half the length of a corner crosshair's arm, in mm.
const ARM: f64 = 6.0;

/// The calibration sheet's HTML for the paper, orientation and duplex of
/// `print` under `options`, its back moved by the options' back offset
/// (long-edge duplex when the options print no backs).
pub fn sheet(print: &PrintSettings, options: SheetOptions) -> String {
    let mut options = options;
    if options.duplex.unwrap_or(print.duplex) == Duplex::None {
        options.duplex = Some(Duplex::Long);
    }
    let build = resolve_build(print, options);
    let page = build.page.size();
    let flip = Flip::of(build.duplex, build.page.orientation).unwrap_or(Flip::Columns);
    let back = flip.on_back(build.back_offset);
    let mut out = String::new();
    page::document_head(
        &mut out,
        "carta duplex calibration",
        "en",
        page,
        "class=\"carta-calibrate\"",
        &[BASE_CSS],
    );
    let (x, y) = build.back_offset;
    let front = [
        "FRONT. Print both pages double-sided, then hold the sheet to a light, front up."
            .to_owned(),
        "Where the back's centre cross falls on these rulers is the printer's shift:".to_owned(),
        "X mm right and Y mm down. Print with --back-offset -X,-Y to correct it.".to_owned(),
        format!(
            "This sheet's backs are moved by {},{} mm already.",
            mm(x),
            mm(y)
        ),
    ];
    write_side(&mut out, Side::Faces, page, (0.0, 0.0), &front);
    write_side(&mut out, Side::Backs, page, back, &["BACK".to_owned()]);
    page::document_tail(&mut out);
    out
}

/// One side: its crosshairs and rulers moved by `shift` (mm on this page),
/// and `notes` under the top crosshairs.
fn write_side(
    out: &mut String,
    side: Side,
    (pw, ph): (f64, f64),
    shift: (f64, f64),
    notes: &[String],
) {
    let name = match side {
        Side::Faces => "faces",
        Side::Backs => "backs",
    };
    let _ = write!(out, "<section class=\"carta-sheet\" data-side=\"{name}\">");
    svg_over_page(out, "carta-calibration", (pw, ph));
    let (dx, dy) = shift;
    let mut line = |x1: f64, y1: f64, x2: f64, y2: f64| {
        let ends = [
            ("x1", x1 + dx),
            ("y1", y1 + dy),
            ("x2", x2 + dx),
            ("y2", y2 + dy),
        ];
        svg_element(out, "line", &ends);
    };
    let (cx, cy) = (pw / 2.0, ph / 2.0);
    for (x, y) in crosses((pw, ph)) {
        line(x - ARM, y, x + ARM, y);
        line(x, y - ARM, x, y + ARM);
    }
    // The centre cross is two rulers: a tick every mm, longer every 5.
    line(cx - RULER, cy, cx + RULER, cy);
    line(cx, cy - RULER, cx, cy + RULER);
    for i in -20..=20 {
        let d = f64::from(i);
        let tick = if i % 5 == 0 { 2.0 } else { 1.0 };
        line(cx + d, cy, cx + d, cy + tick);
        line(cx, cy + d, cx + tick, cy + d);
    }
    for i in [-20, -10, 10, 20] {
        let d = f64::from(i);
        let _ = write!(
            out,
            "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{i}</text><text x=\"{}\" y=\"{}\">{i}</text>",
            mm(cx + d + dx),
            mm(cy + 5.0 + dy),
            mm(cx + 3.0 + dx),
            mm(cy + d + 1.0 + dy)
        );
    }
    for (n, note) in notes.iter().enumerate() {
        let _ = write!(
            out,
            "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">",
            mm(cx + dx),
            mm(CORNER + 12.0 + 4.0 * n as f64 + dy)
        );
        super::icons::escape_into(note, out);
        out.push_str("</text>");
    }
    out.push_str("</svg></section>\n");
}

/// The crosshairs' centres on a page: its centre (the rulers') and one
/// near each corner, a set the duplex mirroring maps onto itself.
pub fn crosses((pw, ph): (f64, f64)) -> [(f64, f64); 5] {
    [
        (pw / 2.0, ph / 2.0),
        (CORNER, CORNER),
        (pw - CORNER, CORNER),
        (CORNER, ph - CORNER),
        (pw - CORNER, ph - CORNER),
    ]
}
