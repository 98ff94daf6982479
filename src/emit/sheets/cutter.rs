//! Cutting-machine kits (`--cutter`): where each machine's print-then-cut
//! workflow wants its registration marks, the area the cards keep to,
//! clear of them, and the cut file — one closed path per card at its trim
//! box with rounded corners, in the page's own millimetres.
//!
//! The figures are the makers' (see docs/sheets.md, "Cutting machines").

use std::fmt::Write as _;

use super::geometry::{Rect, mm, svg_element, svg_over_page};
use crate::config::{Cutter, Paper, PaperSize};

/// Silhouette Studio's default registration marks (Silhouette Studio
/// user's guide, "Registration Marks"): how far from the page's edges,
/// how long each arm of a corner mark, how thick a line, and the side of
/// the filled square at the top-left corner, in mm.
const SILHOUETTE_INSET: f64 = 10.0;
const SILHOUETTE_LENGTH: f64 = 20.0;
const SILHOUETTE_THICKNESS: f64 = 0.5;
const SILHOUETTE_SQUARE: f64 = 5.0;

/// Design Space's largest Print Then Cut image on Letter or A4 paper,
/// 6.75 × 9.25 in (Cricut Help Center, "Print Then Cut — Frequently Asked
/// Questions"), in mm; Design Space frames it with its own black rectangle,
/// which carta draws the same way, 0.5 mm thick.
const CRICUT_AREA: (f64, f64) = (171.45, 234.95);
const CRICUT_FRAME: f64 = 0.5;

/// How far the cards keep from the marks, in mm, so that the machine's
/// optical sensor reads the marks alone.
const CLEARANCE: f64 = 2.0;

/// `ScanNCut` scans the whole sheet on its mat: the cards keep this far from
/// the page's edges, which the scanner may not see whole, in mm.
const SCANNCUT_MARGIN: f64 = 10.0;

impl Cutter {
    /// The machine's name as its maker writes it.
    pub fn label(self) -> &'static str {
        match self {
            Cutter::Silhouette => "Silhouette",
            Cutter::Cricut => "Cricut",
            Cutter::Scanncut => "Brother ScanNCut",
        }
    }

    /// Whether the machine's workflow takes `paper`: Letter and A4.
    pub fn takes(self, paper: Paper) -> bool {
        matches!(paper, Paper::Preset(PaperSize::Letter | PaperSize::A4))
    }

    /// The registration marks on a page `page` mm wide and tall, as filled
    /// rectangles (an L is two).
    pub fn marks(self, page: (f64, f64)) -> Vec<Rect> {
        match self {
            Cutter::Silhouette => silhouette_marks(page),
            Cutter::Cricut => {
                let a = cricut_area(page);
                let f = CRICUT_FRAME;
                vec![
                    Rect { h: f, ..a },
                    Rect {
                        y: a.y + a.h - f,
                        h: f,
                        ..a
                    },
                    Rect { w: f, ..a },
                    Rect {
                        x: a.x + a.w - f,
                        w: f,
                        ..a
                    },
                ]
            }
            Cutter::Scanncut => Vec::new(),
        }
    }

    /// The area the cards keep to on a page `page` mm wide and tall: inside
    /// the marks, `CLEARANCE` from them.
    pub fn keep(self, page: (f64, f64)) -> Rect {
        let (pw, ph) = page;
        let inset = match self {
            Cutter::Silhouette => {
                let frame = SILHOUETTE_INSET + SILHOUETTE_THICKNESS + CLEARANCE;
                // The square reaches further in than the Ls: the cards
                // keep right of it, where a page has more room than below.
                let left = SILHOUETTE_INSET + SILHOUETTE_SQUARE + CLEARANCE;
                return Rect {
                    x: left,
                    y: frame,
                    w: pw - left - frame,
                    h: ph - 2.0 * frame,
                };
            }
            Cutter::Scanncut => SCANNCUT_MARGIN,
            Cutter::Cricut => {
                let a = cricut_area(page);
                let m = CRICUT_FRAME + CLEARANCE;
                return Rect {
                    x: a.x + m,
                    y: a.y + m,
                    w: a.w - 2.0 * m,
                    h: a.h - 2.0 * m,
                };
            }
        };
        Rect {
            x: inset,
            y: inset,
            w: pw - 2.0 * inset,
            h: ph - 2.0 * inset,
        }
    }

    /// Whether the machine's software imports DXF rather than SVG
    /// (Silhouette Studio's Basic Edition opens DXF, not SVG).
    pub fn wants_dxf(self) -> bool {
        self == Cutter::Silhouette
    }
}

/// Silhouette Studio's marks on a page `(pw, ph)` mm: the square at the
/// top-left, an L at the top-right and bottom-left corners.
fn silhouette_marks((pw, ph): (f64, f64)) -> Vec<Rect> {
    let (i, l, t, s) = (
        SILHOUETTE_INSET,
        SILHOUETTE_LENGTH,
        SILHOUETTE_THICKNESS,
        SILHOUETTE_SQUARE,
    );
    vec![
        // The square, top-left.
        Rect {
            x: i,
            y: i,
            w: s,
            h: s,
        },
        // The L at the top-right corner: its arms run left and down.
        Rect {
            x: pw - i - l,
            y: i,
            w: l,
            h: t,
        },
        Rect {
            x: pw - i - t,
            y: i,
            w: t,
            h: l,
        },
        // The L at the bottom-left corner: its arms run right and up.
        Rect {
            x: i,
            y: ph - i - t,
            w: l,
            h: t,
        },
        Rect {
            x: i,
            y: ph - i - l,
            w: t,
            h: l,
        },
    ]
}

/// Design Space's Print Then Cut area, centred on the page and turned
/// with it.
fn cricut_area((pw, ph): (f64, f64)) -> Rect {
    let (w, h) = if pw > ph {
        (CRICUT_AREA.1, CRICUT_AREA.0)
    } else {
        CRICUT_AREA
    };
    Rect {
        x: (pw - w) / 2.0,
        y: (ph - h) / 2.0,
        w,
        h,
    }
}

/// The marks as SVG rectangles over a page, for the sheets' HTML, and
/// the name of the page's cut file (`cut`, `cut-2`) under the cards.
pub(super) fn marks_svg(cutter: Cutter, page: (f64, f64), cut: &str) -> String {
    let mut out = String::new();
    svg_over_page(&mut out, "carta-registration", page);
    for r in cutter.marks(page) {
        let box_ = [("x", r.x), ("y", r.y), ("width", r.w), ("height", r.h)];
        svg_element(&mut out, "rect", &box_);
    }
    // Below the cards' area, between the bottom marks.
    let _ = writeln!(
        out,
        "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{cut}</text></svg>",
        mm(page.0 / 2.0),
        mm(page.1 - 6.0)
    );
    out
}

/// A card's cut: its trim box and the radius of its corners, in mm.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Cut {
    /// The trim box on the page.
    pub trim: Rect,
    /// The corner radius (no more than half the shorter side).
    pub radius: f64,
}

impl Cut {
    fn radius(&self) -> f64 {
        self.radius.clamp(0.0, self.trim.w.min(self.trim.h) / 2.0)
    }
}

/// The cut file as SVG: a page `page` mm wide and tall (its `viewBox` in
/// mm, so a coordinate in it is one on the printed page) and one closed
/// path per card.
pub fn cut_svg(page: (f64, f64), cuts: &[Cut]) -> String {
    let (width, height) = (mm(page.0), mm(page.1));
    let mut out = format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}mm\" height=\"{height}mm\" viewBox=\"0 0 {width} {height}\">\n"
    );
    for c in cuts {
        let (trim, r) = (c.trim, c.radius());
        let (x0, y0, x1, y1) = (trim.x, trim.y, trim.x + trim.w, trim.y + trim.h);
        let arc = |x: f64, y: f64| format!("A {0} {0} 0 0 1 {1} {2} ", mm(r), mm(x), mm(y));
        let mut d = format!("M {} {} H {} ", mm(x0 + r), mm(y0), mm(x1 - r));
        if r > 0.0 {
            d += &arc(x1, y0 + r);
        }
        let _ = write!(d, "V {} ", mm(y1 - r));
        if r > 0.0 {
            d += &arc(x1 - r, y1);
        }
        let _ = write!(d, "H {} ", mm(x0 + r));
        if r > 0.0 {
            d += &arc(x0, y1 - r);
        }
        let _ = write!(d, "V {} ", mm(y0 + r));
        if r > 0.0 {
            d += &arc(x0 + r, y0);
        }
        d.push('Z');
        let _ = writeln!(
            out,
            "<path d=\"{d}\" fill=\"none\" stroke=\"#ff0000\" stroke-width=\"0.1\"/>"
        );
    }
    out.push_str("</svg>\n");
    out
}

/// The bulge of a quarter circle drawn counter-clockwise: tan(90° / 4).
const QUARTER: f64 = 0.414_213_562_373_095;

/// The cut file as an `AutoCAD` R12 DXF in mm: one closed `POLYLINE` per
/// card, its corners arcs given as bulges. DXF's y axis points up, so a
/// point `y` mm below the page's top is at `page height − y`.
pub fn cut_dxf(page: (f64, f64), cuts: &[Cut]) -> String {
    let mut out =
        String::from("0\nSECTION\n2\nHEADER\n9\n$ACADVER\n1\nAC1009\n9\n$MEASUREMENT\n70\n1\n");
    let _ = write!(
        out,
        "9\n$EXTMIN\n10\n0\n20\n0\n9\n$EXTMAX\n10\n{}\n20\n{}\n0\nENDSEC\n0\nSECTION\n2\nENTITIES\n",
        mm(page.0),
        mm(page.1)
    );
    for c in cuts {
        let (t, r) = (c.trim, c.radius());
        let (x0, x1) = (t.x, t.x + t.w);
        // Flipped: the card's bottom edge is its lowest y.
        let (y0, y1) = (page.1 - t.y - t.h, page.1 - t.y);
        let b = if r > 0.0 { QUARTER } else { 0.0 };
        // Counter-clockwise from the bottom edge; each corner's arc starts
        // at the vertex that carries its bulge.
        let mut points = vec![
            (x0 + r, y0, 0.0),
            (x1 - r, y0, b),
            (x1, y0 + r, 0.0),
            (x1, y1 - r, b),
            (x1 - r, y1, 0.0),
            (x0 + r, y1, b),
            (x0, y1 - r, 0.0),
            (x0, y0 + r, b),
        ];
        if r == 0.0 {
            points = vec![(x0, y0, 0.0), (x1, y0, 0.0), (x1, y1, 0.0), (x0, y1, 0.0)];
        }
        out.push_str("0\nPOLYLINE\n8\nCUT\n66\n1\n10\n0\n20\n0\n30\n0\n70\n1\n");
        for (x, y, bulge) in points {
            let _ = write!(
                out,
                "0\nVERTEX\n8\nCUT\n10\n{}\n20\n{}\n30\n0\n",
                mm(x),
                mm(y)
            );
            if bulge != 0.0 {
                let _ = write!(out, "42\n{bulge:.9}\n");
            }
        }
        out.push_str("0\nSEQEND\n8\nCUT\n");
    }
    out.push_str("0\nENDSEC\n0\nEOF\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const LETTER: (f64, f64) = (215.9, 279.4);

    #[test]
    fn silhouette_marks_sit_at_their_inset_and_the_cards_keep_inside_them() {
        let marks = Cutter::Silhouette.marks(LETTER);
        assert_eq!(marks.len(), 5);
        assert_eq!(
            marks[0],
            Rect {
                x: 10.0,
                y: 10.0,
                w: 5.0,
                h: 5.0
            }
        );
        // The top-right L ends 10 mm from the right edge.
        assert!((marks[1].x + marks[1].w - (215.9 - 10.0)).abs() < 1e-9);
        assert!((marks[4].y + marks[4].h - (279.4 - 10.0)).abs() < 1e-9);
        let keep = Cutter::Silhouette.keep(LETTER);
        for m in marks {
            let apart = m.x + m.w <= keep.x
                || m.x >= keep.x + keep.w
                || m.y + m.h <= keep.y
                || m.y >= keep.y + keep.h;
            assert!(apart, "{m:?} overlaps {keep:?}");
        }
    }

    #[test]
    fn cricut_keeps_to_its_print_then_cut_area_turned_with_the_page() {
        let keep = Cutter::Cricut.keep((279.4, 215.9));
        assert!(keep.w > keep.h && keep.w < 234.95 && keep.h < 171.45);
        assert!(Cutter::Scanncut.marks(LETTER).is_empty());
        assert!(!Cutter::Cricut.takes(Paper::Preset(PaperSize::A3)));
        assert!(Cutter::Cricut.takes(Paper::A4));
    }

    #[test]
    fn dxf_rounded_rectangles_are_closed_with_quarter_bulges_and_flipped_y() {
        let cut = Cut {
            trim: Rect {
                x: 10.0,
                y: 20.0,
                w: 63.5,
                h: 88.9,
            },
            radius: 3.0,
        };
        let dxf = cut_dxf(LETTER, &[cut]);
        assert_eq!(dxf.matches("\nVERTEX\n").count(), 8);
        assert_eq!(dxf.matches("\n42\n0.414213562\n").count(), 4);
        // The top edge, 20 mm below the page's top, is at 279.4 − 20.
        assert!(dxf.contains("\n20\n259.4\n"));
        let square = cut_svg(LETTER, &[Cut { radius: 0.0, ..cut }]);
        assert!(square.contains("M 10 20 H 73.5 V 108.9 H 10 V 20 Z"));
    }
}
