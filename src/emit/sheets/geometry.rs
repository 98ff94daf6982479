//! Geometry as data: where each card of a sheet goes, in mm.
//!
//! A card's box is its trim size plus bleed on every side; boxes sit in a
//! grid centred on the page, `gutter` apart, inside the margins. The backs
//! page mirrors the faces page about the axis the printer flips the sheet
//! on, so each back lands behind its face.

use crate::config::{CutLines, Duplex, Orientation, Paper};

/// A rectangle on a page, in mm from the top-left corner.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rect {
    /// Distance from the left edge.
    pub x: f64,
    /// Distance from the top edge.
    pub y: f64,
    /// Width.
    pub w: f64,
    /// Height.
    pub h: f64,
}

/// A straight crop-mark line, from (x1, y1) to (x2, y2), in mm.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Line {
    /// Start, from the left edge.
    pub x1: f64,
    /// Start, from the top edge.
    pub y1: f64,
    /// End, from the left edge.
    pub x2: f64,
    /// End, from the top edge.
    pub y2: f64,
}

/// A card's geometry: its trim size, bleed and safe zone, in mm.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CardBox {
    /// Trim width.
    pub width: f64,
    /// Trim height.
    pub height: f64,
    /// Bleed beyond the trim, on each side.
    pub bleed: f64,
    /// Safe inset inside the trim.
    pub safe: f64,
}

impl CardBox {
    /// The width with bleed.
    pub fn outer_width(&self) -> f64 {
        self.width + 2.0 * self.bleed
    }

    /// The height with bleed.
    pub fn outer_height(&self) -> f64 {
        self.height + 2.0 * self.bleed
    }
}

/// A page: its size and the margins and gutter of its grid, in mm.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PageBox {
    /// The paper.
    pub paper: Paper,
    /// Its orientation.
    pub orientation: Orientation,
    /// The page margin, on every side.
    pub margin: f64,
    /// The space between card boxes.
    pub gutter: f64,
    /// The area the card boxes keep to, when not the page inside its
    /// margins: a cutting machine's, clear of its registration marks.
    pub keep: Option<Rect>,
}

impl PageBox {
    /// Width and height of the page as laid out.
    pub fn size(&self) -> (f64, f64) {
        let (w, h) = self.paper.mm();
        match self.orientation {
            Orientation::Portrait => (w, h),
            Orientation::Landscape => (h, w),
        }
    }
}

/// Which way a backs page is mirrored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flip {
    /// Columns swap (the sheet turns about a vertical axis).
    Columns,
    /// Rows swap (the sheet turns about a horizontal axis).
    Rows,
}

impl Flip {
    /// The mirroring a duplex setting needs on a page of `orientation`, or
    /// `None` without backs. Flipping on the long edge turns a portrait
    /// page about its vertical axis and a landscape page about its
    /// horizontal one.
    pub fn of(duplex: Duplex, orientation: Orientation) -> Option<Flip> {
        let portrait = orientation == Orientation::Portrait;
        match duplex {
            Duplex::None => None,
            Duplex::Long if portrait => Some(Flip::Columns),
            Duplex::Short if !portrait => Some(Flip::Columns),
            Duplex::Long | Duplex::Short => Some(Flip::Rows),
        }
    }
}

impl Flip {
    /// A shift `(x, y)` seen from the front of the sheet (right, down) as
    /// the backs page draws it: the sheet turned about a vertical axis
    /// shows the back's x reversed, about a horizontal one its y.
    pub fn on_back(self, (x, y): (f64, f64)) -> (f64, f64) {
        match self {
            Flip::Columns => (-x, y),
            Flip::Rows => (x, -y),
        }
    }
}

/// The grid of card boxes on one page.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Grid {
    /// The page.
    pub page: PageBox,
    /// The card.
    pub card: CardBox,
    /// Card boxes across.
    pub cols: usize,
    /// Card boxes down.
    pub rows: usize,
    x0: f64,
    y0: f64,
}

/// Slack for floating-point sums of mm values.
const EPS: f64 = 1e-6;

impl Grid {
    /// Lays out as many card boxes as fit; `None` when not even one does.
    pub fn fit(page: PageBox, card: CardBox) -> Option<Grid> {
        let (pw, ph) = page.size();
        let area = page.keep.unwrap_or(Rect {
            x: page.margin,
            y: page.margin,
            w: pw - 2.0 * page.margin,
            h: ph - 2.0 * page.margin,
        });
        let count = |avail: f64, cell: f64| -> usize {
            if avail + EPS < cell {
                return 0;
            }
            // 1 + how many more (gutter + cell) fit after the first.
            1 + ((avail - cell + EPS) / (cell + page.gutter)).floor() as usize
        };
        let cols = count(area.w, card.outer_width());
        let rows = count(area.h, card.outer_height());
        if cols == 0 || rows == 0 {
            return None;
        }
        let gw = cols as f64 * card.outer_width() + (cols - 1) as f64 * page.gutter;
        let gh = rows as f64 * card.outer_height() + (rows - 1) as f64 * page.gutter;
        Some(Grid {
            page,
            card,
            cols,
            rows,
            x0: area.x + (area.w - gw) / 2.0,
            y0: area.y + (area.h - gh) / 2.0,
        })
    }

    /// Card boxes per page.
    pub fn per_page(&self) -> usize {
        self.cols * self.rows
    }

    /// The box of slot `i` (row-major) on a faces page.
    pub fn face(&self, i: usize) -> Rect {
        let (c, r) = (i % self.cols, i / self.cols);
        Rect {
            x: self.x0 + c as f64 * (self.card.outer_width() + self.page.gutter),
            y: self.y0 + r as f64 * (self.card.outer_height() + self.page.gutter),
            w: self.card.outer_width(),
            h: self.card.outer_height(),
        }
    }

    /// The trim box of slot `i` on a faces page: its box without bleed.
    pub fn trim(&self, i: usize) -> Rect {
        let f = self.face(i);
        let b = self.card.bleed;
        Rect {
            x: f.x + b,
            y: f.y + b,
            w: f.w - 2.0 * b,
            h: f.h - 2.0 * b,
        }
    }

    /// The box of the back of slot `i` on a backs page: the face's box
    /// mirrored about the page's centre line.
    pub fn back(&self, i: usize, flip: Flip) -> Rect {
        let (pw, ph) = self.page.size();
        let f = self.face(i);
        match flip {
            Flip::Columns => Rect {
                x: pw - f.x - f.w,
                ..f
            },
            Flip::Rows => Rect {
                y: ph - f.y - f.h,
                ..f
            },
        }
    }

    /// The trim lines of the grid: every card's left and right edge (x)
    /// and top and bottom edge (y), each once.
    fn trims(&self) -> (Vec<f64>, Vec<f64>) {
        let mut xs: Vec<f64> = Vec::new();
        let mut ys: Vec<f64> = Vec::new();
        for c in 0..self.cols {
            let f = self.face(c);
            xs.extend([f.x + self.card.bleed, f.x + f.w - self.card.bleed]);
        }
        for r in 0..self.rows {
            let f = self.face(r * self.cols);
            ys.extend([f.y + self.card.bleed, f.y + f.h - self.card.bleed]);
        }
        dedup(&mut xs);
        dedup(&mut ys);
        (xs, ys)
    }

    /// The cutting guides `lines` asks for: crop marks, or full lines.
    pub fn guides(&self, lines: CutLines) -> Vec<Line> {
        match lines {
            CutLines::Marks => self.marks(),
            CutLines::Full => self.full_lines(),
        }
    }

    /// Full-length cut lines: every trim line from edge to edge of the
    /// page, over the cards' bleed, so that a guillotine's blade or a
    /// cutting machine can follow each one across the sheet. The backs
    /// page mirrors the grid onto the same lines, so they are the same on
    /// both sides.
    pub fn full_lines(&self) -> Vec<Line> {
        let (pw, ph) = self.page.size();
        let (xs, ys) = self.trims();
        let vertical = xs.iter().map(|&x| Line {
            x1: x,
            y1: 0.0,
            x2: x,
            y2: ph,
        });
        let horizontal = ys.iter().map(|&y| Line {
            x1: 0.0,
            y1: y,
            x2: pw,
            y2: y,
        });
        vertical.chain(horizontal).collect()
    }

    /// Crop marks: short lines in the margin that extend every trim line
    /// beyond the grid, never over a card.
    pub fn marks(&self) -> Vec<Line> {
        let (pw, ph) = self.page.size();
        let gap = 1.0;
        let (xs, ys) = self.trims();
        let (top, bottom) = (self.y0, ph - self.y0);
        let (left, right) = (self.x0, pw - self.x0);
        let len_v = (self.y0 - gap - 0.5).min(5.0);
        let len_h = (self.x0 - gap - 0.5).min(5.0);
        let mut out = Vec::new();
        if len_v >= 1.0 {
            for &x in &xs {
                out.push(Line {
                    x1: x,
                    y1: top - gap - len_v,
                    x2: x,
                    y2: top - gap,
                });
                out.push(Line {
                    x1: x,
                    y1: bottom + gap,
                    x2: x,
                    y2: bottom + gap + len_v,
                });
            }
        }
        if len_h >= 1.0 {
            for &y in &ys {
                out.push(Line {
                    x1: left - gap - len_h,
                    y1: y,
                    x2: left - gap,
                    y2: y,
                });
                out.push(Line {
                    x1: right + gap,
                    y1: y,
                    x2: right + gap + len_h,
                    y2: y,
                });
            }
        }
        out
    }
}

fn dedup(v: &mut Vec<f64>) {
    v.sort_by(f64::total_cmp);
    v.dedup_by(|a, b| (*a - *b).abs() < 0.001);
}

/// Opens an SVG of class `class` laid over a whole page `page` mm wide
/// and tall, its user unit a mm (the guides, the registration marks, the
/// calibration sheet).
pub fn svg_over_page(out: &mut String, class: &str, page: (f64, f64)) {
    let (w, h) = (mm(page.0), mm(page.1));
    out.push_str("<svg class=\"");
    out.push_str(class);
    out.push_str("\" xmlns=\"http://www.w3.org/2000/svg\" style=\"width:");
    out.push_str(&format!("{w}mm;height:{h}mm\" viewBox=\"0 0 {w} {h}\">"));
}

/// Writes an empty SVG element `name` with lengths in mm as its
/// attributes (`<rect x="1" …/>`).
pub fn svg_element(out: &mut String, name: &str, attributes: &[(&str, f64)]) {
    out.push('<');
    out.push_str(name);
    for (attribute, value) in attributes {
        out.push(' ');
        out.push_str(attribute);
        out.push_str("=\"");
        out.push_str(&mm(*value));
        out.push('"');
    }
    out.push_str("/>");
}

/// A length in mm as CSS text: at most three decimals, no trailing zeros,
/// so that the same geometry always prints the same bytes.
pub fn mm(v: f64) -> String {
    // Integer thousandths: `{:.3}` on a float takes the slow exact path,
    // and a sheet prints tens of numbers per card. Near a tie the product
    // may round otherwise than the exact decimal does: the slow path then.
    let scaled = v * 1000.0;
    if !scaled.is_finite() || scaled.abs() >= 1e15 || (scaled.fract().abs() - 0.5).abs() < 1e-6 {
        let s = format!("{:.3}", v + 0.0);
        let s = s.trim_end_matches('0').trim_end_matches('.');
        return if s == "-0" { "0".into() } else { s.into() };
    }
    let thousandths = scaled.round();
    #[allow(clippy::cast_possible_truncation)] // finite and below 1e15: exact in i64
    let t = thousandths as i64;
    let sign = if t < 0 { "-" } else { "" };
    let (whole, frac) = (t.unsigned_abs() / 1000, t.unsigned_abs() % 1000);
    if frac == 0 {
        format!("{sign}{whole}")
    } else {
        let digits = format!("{frac:03}");
        format!("{sign}{whole}.{}", digits.trim_end_matches('0'))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(paper: Paper, orientation: Orientation, margin: f64) -> PageBox {
        PageBox {
            paper,
            orientation,
            margin,
            gutter: 0.0,
            keep: None,
        }
    }

    fn poker(bleed: f64) -> CardBox {
        CardBox {
            width: 63.5,
            height: 88.9,
            bleed,
            safe: 3.0,
        }
    }

    #[test]
    fn nine_poker_cards_fit_a4_and_letter_without_bleed() {
        for paper in [Paper::A4, Paper::LETTER] {
            let g = Grid::fit(page(paper, Orientation::Portrait, 5.0), poker(0.0)).unwrap();
            assert_eq!((g.cols, g.rows), (3, 3), "{paper:?}");
        }
    }

    #[test]
    fn bleed_takes_room() {
        let g = Grid::fit(page(Paper::A4, Orientation::Portrait, 5.0), poker(3.0)).unwrap();
        assert_eq!((g.cols, g.rows), (2, 3));
        let g = Grid::fit(page(Paper::A4, Orientation::Landscape, 5.0), poker(3.0)).unwrap();
        assert_eq!((g.cols, g.rows), (4, 2));
    }

    #[test]
    fn a_card_larger_than_the_page_does_not_fit() {
        let big = CardBox {
            width: 300.0,
            height: 100.0,
            bleed: 3.0,
            safe: 3.0,
        };
        assert!(Grid::fit(page(Paper::A4, Orientation::Portrait, 5.0), big).is_none());
    }

    #[test]
    fn grid_is_centred_and_backs_mirror_columns() {
        let g = Grid::fit(page(Paper::A4, Orientation::Portrait, 5.0), poker(0.0)).unwrap();
        let first = g.face(0);
        assert!((first.x - (210.0 - 190.5) / 2.0).abs() < 1e-9);
        let back = g.back(0, Flip::Columns);
        let third = g.face(2);
        assert!((back.x - third.x).abs() < 1e-9 && (back.y - third.y).abs() < 1e-9);
        let back = g.back(0, Flip::Rows);
        assert!((back.y - g.face(6).y).abs() < 1e-9);
    }

    #[test]
    fn long_edge_mirrors_columns_on_portrait_and_rows_on_landscape() {
        assert_eq!(
            Flip::of(Duplex::Long, Orientation::Portrait),
            Some(Flip::Columns)
        );
        assert_eq!(
            Flip::of(Duplex::Short, Orientation::Portrait),
            Some(Flip::Rows)
        );
        assert_eq!(
            Flip::of(Duplex::Long, Orientation::Landscape),
            Some(Flip::Rows)
        );
        assert_eq!(Flip::of(Duplex::None, Orientation::Portrait), None);
    }

    #[test]
    fn marks_stay_outside_the_grid() {
        let g = Grid::fit(page(Paper::A4, Orientation::Portrait, 8.0), poker(3.0)).unwrap();
        let last = g.face(g.per_page() - 1);
        let (gx0, gy0) = (g.face(0).x, g.face(0).y);
        let (gx1, gy1) = (last.x + last.w, last.y + last.h);
        let marks = g.marks();
        assert!(!marks.is_empty());
        for m in marks {
            let inside = |x: f64, y: f64| x > gx0 && x < gx1 && y > gy0 && y < gy1;
            assert!(!inside(m.x1, m.y1) && !inside(m.x2, m.y2), "{m:?}");
        }
    }

    #[test]
    fn larger_papers_hold_more_cards() {
        use crate::config::PaperSize;
        let fit = |paper| {
            let g = Grid::fit(page(paper, Orientation::Portrait, 5.0), poker(3.0)).unwrap();
            (g.cols, g.rows)
        };
        assert_eq!(fit(Paper::Preset(PaperSize::A3)), (4, 4));
        assert_eq!(fit(Paper::Preset(PaperSize::Tabloid)), (3, 4));
        assert_eq!(fit(Paper::Preset(PaperSize::Legal)), (2, 3));
        let custom = Paper::Custom {
            width: 160.0,
            height: 110.0,
        };
        assert_eq!(fit(custom), (2, 1));
    }

    #[test]
    fn full_cut_lines_cross_the_page_on_every_trim_line() {
        let g = Grid::fit(page(Paper::A4, Orientation::Portrait, 5.0), poker(3.0)).unwrap();
        let lines = g.guides(CutLines::Full);
        // 2 columns and 3 rows with bleed: 4 vertical and 6 horizontal trims.
        assert_eq!(lines.len(), 4 + 6);
        for l in &lines {
            let vertical = (l.x1 - l.x2).abs() < 1e-9;
            if vertical {
                assert!(l.y1 == 0.0 && (l.y2 - 297.0).abs() < 1e-9, "{l:?}");
            } else {
                assert!(l.x1 == 0.0 && (l.x2 - 210.0).abs() < 1e-9, "{l:?}");
            }
        }
        let first = g.face(0);
        assert!(lines.iter().any(|l| (l.x1 - (first.x + 3.0)).abs() < 1e-9));
        assert_eq!(g.guides(CutLines::Marks), g.marks());
    }

    #[test]
    fn mm_prints_short_stable_numbers() {
        assert_eq!(mm(63.5), "63.5");
        assert_eq!(mm(3.0), "3");
        assert_eq!(mm(9.750_000_1), "9.75");
        assert_eq!(mm(-0.0001), "0");
        assert_eq!(mm(-2.5), "-2.5");
        assert_eq!(mm(0.0625), "0.062");
    }

    #[test]
    fn mm_prints_what_three_decimals_print() {
        let exact = |v: f64| {
            let s = format!("{:.3}", v + 0.0);
            let s = s.trim_end_matches('0').trim_end_matches('.').to_owned();
            if s == "-0" { "0".to_owned() } else { s }
        };
        for i in -20_000..20_000 {
            for v in [
                f64::from(i) / 16.0,
                f64::from(i) / 7.0,
                f64::from(i) * 0.0001,
                f64::from(i) * 0.0635 + 3.0,
            ] {
                assert_eq!(mm(v), exact(v), "{v}");
            }
        }
    }
}
