//! The HTML of the sheets: one document, a cover page, then faces pages
//! each followed by its backs page. Pages are `@page`-sized in mm; every
//! card box is absolutely placed in mm, so the browser prints it 1:1.

use std::fmt::Write as _;
use std::ops::Range;

use super::cutter;
use super::geometry::{Flip, Grid, Line, Rect, mm, svg_element, svg_over_page};
use super::icons::escape_into;
use crate::config::{CutLines, Cutter};

/// One card box placed on a page.
#[derive(Debug)]
pub(super) struct Placed<'a> {
    /// The card id.
    pub id: &'a str,
    /// The kind id.
    pub kind: &'a str,
    /// Which copy of the card (1-based).
    pub copy: u32,
    /// The slot on the page (row-major index on the faces page).
    pub slot: usize,
    /// The rendered template.
    pub html: &'a str,
}

/// What every sheet of one grid prints alike, formatted once: each slot's
/// box on each side, and the guides of each side.
#[derive(Debug)]
pub(super) struct GridText {
    cols: usize,
    rows: usize,
    /// Each slot's `style` on the faces page.
    faces: Vec<String>,
    /// Each slot's `style` on the backs page (mirrored for duplex).
    backs: Vec<String>,
    /// The faces page's guides as SVG: crop marks or cut lines, or a
    /// cutting machine's registration marks (empty without any).
    marks: String,
    /// The backs page's guides as SVG (empty without any).
    back_marks: String,
    /// The backs page's shift as a CSS transform, when it has one.
    back_shift: Option<String>,
}

/// How a grid's pages are marked and its backs placed.
#[derive(Debug, Clone, Copy)]
pub(super) struct Guides {
    /// The cutting guides.
    pub lines: CutLines,
    /// The cutting machine whose registration marks replace the guides.
    pub cutter: Option<Cutter>,
    /// How far the backs move, as seen from the front: right, down (mm).
    pub back_offset: (f64, f64),
    /// Whether backs pages carry the guides too.
    pub on_backs: bool,
}

impl GridText {
    /// The text of `grid`, its backs mirrored by `flip`; `cut` names its
    /// cut file (`cut`, `cut-2`) when there is a cutter.
    pub(super) fn new(grid: &Grid, flip: Option<Flip>, guides: Guides, cut: &str) -> Self {
        let (b, s) = (mm(grid.card.bleed), mm(grid.card.safe));
        let style = |r: Rect| {
            format!(
                "left:{}mm;top:{}mm;width:{}mm;height:{}mm;--bleed:{b}mm;--safe:{s}mm",
                mm(r.x),
                mm(r.y),
                mm(r.w),
                mm(r.h)
            )
        };
        // The back page's own shift: mirrored along the axis it flips on.
        let (dx, dy) = flip.map_or((0.0, 0.0), |f| f.on_back(guides.back_offset));
        let slots = 0..grid.per_page();
        let lines = grid.guides(guides.lines);
        let (marks, back_marks) = match guides.cutter {
            // The machine reads its marks on the front alone.
            Some(cutter) => (
                cutter::marks_svg(cutter, grid.page.size(), cut),
                String::new(),
            ),
            None => (
                marks_svg(grid, &lines, guides.lines),
                if guides.on_backs {
                    marks_svg(grid, &lines, guides.lines)
                } else {
                    String::new()
                },
            ),
        };
        GridText {
            cols: grid.cols,
            rows: grid.rows,
            faces: slots.clone().map(|i| style(grid.face(i))).collect(),
            backs: slots
                .map(|i| style(flip.map_or_else(|| grid.face(i), |f| grid.back(i, f))))
                .collect(),
            marks,
            back_marks,
            // A transform, not moved boxes: the browser paints boxes on
            // whole CSS pixels (0.26 mm) but a transform as it is.
            back_shift: (dx != 0.0 || dy != 0.0)
                .then(|| format!("transform:translate({}mm,{}mm)", mm(dx), mm(dy))),
        }
    }
}

/// The guides' SVG over the page; full cut lines, drawn over the cards'
/// bleed, are hairlines (`carta-cut-lines`).
fn marks_svg(grid: &Grid, marks: &[Line], lines: CutLines) -> String {
    let mut out = String::new();
    if marks.is_empty() {
        return out;
    }
    let class = if lines == CutLines::Full {
        "carta-marks carta-cut-lines"
    } else {
        "carta-marks"
    };
    svg_over_page(&mut out, class, grid.page.size());
    for l in marks {
        let ends = [("x1", l.x1), ("y1", l.y1), ("x2", l.x2), ("y2", l.y2)];
        svg_element(&mut out, "line", &ends);
    }
    out.push_str("</svg>\n");
    out
}

/// Which side a page shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Side {
    /// Card faces.
    Faces,
    /// Card backs, mirrored for duplex.
    Backs,
}

/// The script that shrinks overflowing card text (`default/fit.js`).
pub const FIT_SCRIPT: &str = concat!("<script>\n", include_str!("default/fit.js"), "</script>\n");

/// The Content-Security-Policy source that lets exactly the inline script
/// whose text is `body` run (`'sha256-…'`).
pub fn script_source(body: &str) -> String {
    use base64::Engine as _;
    use sha2::{Digest as _, Sha256};
    let hash = base64::engine::general_purpose::STANDARD.encode(Sha256::digest(body));
    format!("'sha256-{hash}'")
}

/// The source of [`FIT_SCRIPT`], for a policy's `script-src` (hashed
/// once: every preview answer and export page carries it).
pub fn fit_script_source() -> &'static str {
    static SOURCE: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
        let body = FIT_SCRIPT
            .strip_prefix("<script>")
            .and_then(|s| s.strip_suffix("</script>\n"))
            .expect("FIT_SCRIPT is one script element");
        script_source(body)
    });
    &SOURCE
}

/// The Content-Security-Policy of a page that shows cards a stranger's
/// templates made (the sheets, an export's page, the preview, the
/// builder): nothing but its own origin's files and `data:` images and
/// fonts, styles inline or from the origin, requests to the origin alone
/// (and to `blob:` URLs the page made, such as the builder's CSV download),
/// no frame, form, plugin, worker or `<base>`, and no script but
/// `scripts` (sources such as [`script_source`]'s or a nonce's). So no
/// script a template writes runs, inline, from a file or from an
/// attribute.
pub fn page_policy(scripts: &str) -> String {
    format!(
        "default-src 'none'; script-src {scripts}; style-src 'self' 'unsafe-inline'; \
         img-src 'self' data:; font-src 'self' data:; connect-src 'self' blob:; base-uri 'none'; \
         form-action 'none'; frame-ancestors 'none'"
    )
}

/// Writes the start of the document, up to where its pages go; `body`
/// is the attributes of its `<body>`, as HTML.
pub(super) fn document_head(
    out: &mut String,
    title: &str,
    lang: &str,
    page: (f64, f64),
    body: &str,
    css: &[&str],
) {
    out.push_str("<!DOCTYPE html>\n<html lang=\"");
    escape_into(lang, out);
    out.push_str("\">\n<head>\n<meta charset=\"utf-8\">\n<title>");
    escape_into(title, out);
    let (w, h) = (mm(page.0), mm(page.1));
    let _ = write!(
        out,
        "</title>\n<style>\n@page {{ size: {w}mm {h}mm; margin: 0; }}\n.carta-sheet {{ width: {w}mm; height: {h}mm; }}\n"
    );
    for c in css {
        out.push_str(c);
        out.push('\n');
    }
    out.push_str("</style>\n</head>\n<body ");
    out.push_str(body);
    out.push_str(">\n");
}

/// Writes the end of the document, after its pages.
pub(super) fn document_tail(out: &mut String) {
    out.push_str(FIT_SCRIPT);
    out.push_str("</body>\n</html>\n");
}

/// Writes one page of card boxes with its crop marks; returns where each
/// card's HTML went in `out` (what the faces cache points to).
pub(super) fn sheet(
    out: &mut String,
    number: usize,
    side: Side,
    grid: &GridText,
    cards: &[Placed<'_>],
) -> Vec<Range<usize>> {
    let side_name = match side {
        Side::Faces => "faces",
        Side::Backs => "backs",
    };
    let _ = writeln!(
        out,
        "<section class=\"carta-sheet carta-{side_name}\" data-page=\"{number}\" data-side=\"{side_name}\" data-cols=\"{}\" data-rows=\"{}\">",
        grid.cols, grid.rows
    );
    let shift = grid.back_shift.as_ref().filter(|_| side == Side::Backs);
    if let Some(shift) = shift {
        let _ = write!(out, "<div class=\"carta-shift\" style=\"{shift}\">");
    }
    let (face_or_back, styles) = match side {
        Side::Faces => ("face", &grid.faces),
        Side::Backs => ("back", &grid.backs),
    };
    let mut at = Vec::with_capacity(cards.len());
    for c in cards {
        out.push_str("<div class=\"carta-card carta-");
        out.push_str(face_or_back);
        out.push_str(" carta-kind-");
        escape_into(c.kind, out);
        out.push_str("\" data-card=\"");
        escape_into(c.id, out);
        let _ = write!(
            out,
            "\" data-copy=\"{}\" data-slot=\"{}\" style=\"{}\">",
            c.copy, c.slot, styles[c.slot]
        );
        let start = out.len();
        out.push_str(c.html.trim());
        at.push(start..out.len());
        out.push_str("</div>\n");
    }
    out.push_str(match side {
        Side::Faces => &grid.marks,
        Side::Backs => &grid.back_marks,
    });
    if shift.is_some() {
        out.push_str("</div>");
    }
    out.push_str("</section>\n");
    at
}

/// One row of the cover's table of sheets.
/// (Its names are borrowed from the cards, not copied: the table has a
/// row per sheet, so copies would grow with the game.)
#[derive(Debug, Default)]
pub(super) struct SheetEntry<'a> {
    /// Page number of the faces page.
    pub faces_page: usize,
    /// Page number of the backs page, if printed.
    pub backs_page: Option<usize>,
    /// Kinds on the sheet (display names).
    pub kinds: Vec<&'a str>,
    /// Card boxes on the sheet.
    pub boxes: usize,
    /// Card names and how many of each.
    pub names: Vec<(&'a str, u32)>,
}

/// What the cover says.
#[derive(Debug)]
pub(super) struct Cover<'a> {
    /// The game's display name.
    pub game: &'a str,
    /// What is printed (the whole game, or a deck's name).
    pub subject: String,
    /// The tables' heads, in the language printed: kind, cards, copies,
    /// total (the counts); sheet, pages, kinds, cards, contents (the sheets).
    pub heads: Heads,
    /// Paper, orientation, duplex: how to print.
    pub instructions: Vec<String>,
    /// (kind name, distinct cards, copies) per kind.
    pub counts: Vec<(String, usize, u32)>,
    /// The sheets.
    pub sheets: Vec<SheetEntry<'a>>,
}

/// The heads of the cover's tables, in the language printed.
#[derive(Debug, Default)]
pub(super) struct Heads {
    pub kind: String,
    pub cards: String,
    pub copies: String,
    pub total: String,
    pub sheet: String,
    pub pages: String,
    pub kinds: String,
    pub contents: String,
}

impl Heads {
    /// The head row of the table of sheets, with the table's start.
    fn sheets_head(&self, out: &mut String) {
        out.push_str("<div class=\"carta-table carta-sheets\">\n<div class=\"carta-row carta-head\"><span class=\"carta-n\">");
        escape_into(&self.sheet, out);
        out.push_str("</span><span>");
        escape_into(&self.pages, out);
        out.push_str("</span><span>");
        escape_into(&self.kinds, out);
        out.push_str("</span><span class=\"carta-n\">");
        escape_into(&self.cards, out);
        out.push_str("</span><span class=\"carta-names\">");
        escape_into(&self.contents, out);
        out.push_str("</span></div>\n");
    }
}

/// The height of one row of the cover's tables, in mm.
const ROW: f64 = 4.5;
/// The cover's padding, in mm.
const PAD: f64 = 15.0;

impl Cover<'_> {
    /// How many sheet rows fit on the first cover page and on each next one.
    fn rows_per_page(&self, page_h: f64) -> (usize, usize) {
        let usable = page_h - 2.0 * PAD;
        // title, subject, instructions, the counts table, the sheets header
        let head = 12.0
            + ROW * (2 + self.instructions.len()) as f64
            + ROW * (self.counts.len() + 3) as f64
            + ROW;
        let first = ((usable - head) / ROW).floor().max(0.0) as usize;
        let next = ((usable - ROW) / ROW).floor().max(1.0) as usize;
        (first, next)
    }

    /// How many pages the cover takes on pages `page_h` mm tall.
    pub(super) fn pages(&self, page_h: f64) -> usize {
        let (first, next) = self.rows_per_page(page_h);
        let rest = self.sheets.len().saturating_sub(first);
        1 + rest.div_ceil(next)
    }

    /// Writes the cover pages.
    pub(super) fn write(&self, out: &mut String, page_h: f64) {
        let (first, next) = self.rows_per_page(page_h);
        out.push_str(
            "<section class=\"carta-sheet carta-cover\" data-page=\"1\" data-side=\"cover\">\n<h1>",
        );
        escape_into(self.game, out);
        out.push_str("</h1>\n<div class=\"carta-row\"><strong>");
        escape_into(&self.subject, out);
        out.push_str("</strong></div>\n");
        for line in &self.instructions {
            out.push_str("<div class=\"carta-row\">");
            escape_into(line, out);
            out.push_str("</div>\n");
        }
        let h = &self.heads;
        out.push_str(
            "<div class=\"carta-table carta-counts\">\n<div class=\"carta-row carta-head\"><span>",
        );
        escape_into(&h.kind, out);
        out.push_str("</span><span class=\"carta-n\">");
        escape_into(&h.cards, out);
        out.push_str("</span><span class=\"carta-n\">");
        escape_into(&h.copies, out);
        out.push_str("</span></div>\n");
        let (mut distinct, mut copies) = (0, 0);
        for (kind, n, k) in &self.counts {
            out.push_str("<div class=\"carta-row\"><span>");
            escape_into(kind, out);
            let _ = writeln!(
                out,
                "</span><span class=\"carta-n\">{n}</span><span class=\"carta-n\">{k}</span></div>"
            );
            distinct += n;
            copies += k;
        }
        out.push_str("<div class=\"carta-row carta-head\"><span>");
        escape_into(&h.total, out);
        let _ = writeln!(
            out,
            "</span><span class=\"carta-n\">{distinct}</span><span class=\"carta-n\">{copies}</span></div>\n</div>"
        );
        let mut page = 1;
        let mut rows = self.sheets.iter().enumerate().peekable();
        let mut room = first;
        loop {
            h.sheets_head(out);
            for _ in 0..room {
                let Some((i, s)) = rows.next() else { break };
                sheet_row(out, i, s);
            }
            out.push_str("</div>\n</section>\n");
            if rows.peek().is_none() {
                break;
            }
            page += 1;
            room = next;
            let _ = writeln!(
                out,
                "<section class=\"carta-sheet carta-cover\" data-page=\"{page}\" data-side=\"cover\">"
            );
        }
    }
}

fn sheet_row(out: &mut String, i: usize, s: &SheetEntry<'_>) {
    let pages = match s.backs_page {
        Some(b) => format!("{}, {b}", s.faces_page),
        None => s.faces_page.to_string(),
    };
    let _ = write!(
        out,
        "<div class=\"carta-row\"><span class=\"carta-n\">{}</span><span>{pages}</span><span>",
        i + 1
    );
    escape_into(&s.kinds.join(", "), out);
    let _ = write!(
        out,
        "</span><span class=\"carta-n\">{}</span><span class=\"carta-names\">",
        s.boxes
    );
    let names: Vec<String> = s
        .names
        .iter()
        .map(|(n, k)| {
            if *k > 1 {
                format!("{n} ×{k}")
            } else {
                (*n).to_owned()
            }
        })
        .collect();
    escape_into(&names.join(" · "), out);
    out.push_str("</span></div>\n");
}
