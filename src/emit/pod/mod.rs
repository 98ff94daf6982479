//! `carta export pod --shop SHOP`: the files a print-on-demand shop's
//! upload page asks for, into `<game>/pod/<shop>/<stem>/`, with a
//! `README.md` of the upload steps. Each card is matched to one of the
//! shop's card products by its trim size ([`shops`]); a size the shop does
//! not offer is an error naming the nearest one, never a stretched image.
//!
//! Image shops get a PNG per card face, named with its count
//! (`03x-escudo-orc.png`), and the backs (`back.png` when a product's cards
//! share one), at the product's exact pixel size: cards are photographed on
//! grid pages ([`super::cards`]) at their true size, centred, with their
//! bleed reaching the image's edges. `DriveThruCards` gets one CMYK `PDF/X-1a`
//! per product, a printed card's back then its face on pages of the
//! product's size with bleed, `TrimBox` and `BleedBox` set ([`pdfx`]).
//!
//! Every export is preflighted first ([`preflight`]): findings the shop
//! rejects a file for are errors, and stop the export before it writes.

pub mod pdfx;
pub mod preflight;
mod readme;
pub mod shops;

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

pub use pdfx::{Ghostscript, GhostscriptError};
pub use shops::{Product, Shop, Spec, Upload};

use self::pdfx::{Boxes, PT_PER_MM};
use self::readme::Entry;
use super::cards::{Grid, ImageExport, MAX_COLS, MAX_ROWS, Side, photograph, unit};
use super::chromium::{Job, Shot, Site};
use super::sheets::geometry::mm;
use super::sheets::icons::escape_into;
use super::sheets::{CardSet, FIT_SCRIPT, RenderedCard, min_text_attribute};
use super::{EmitError, Emitter, Stage};
use crate::diag::{Diagnostic, Diagnostics};
use crate::game::Game;
use crate::load::Workspace;

/// A selection's upload files for one shop.
#[derive(Debug, Clone)]
pub struct PodEmitter<'g> {
    /// What to render, with which browser (the resolution is the shop's).
    pub export: ImageExport<'g>,
    /// The shop.
    pub shop: Shop,
    /// Ghostscript, for the shops that take a `PDF/X`.
    pub ghostscript: Option<Ghostscript>,
    /// Only preflight the cards (`carta preflight`): render and measure
    /// them, write nothing.
    pub check_only: bool,
}

/// The peak ink of one side of one card: its id, `face` or `back`, and
/// the most total ink of any point, in %.
type Inked = (String, &'static str, f64);

/// The cards of one product, redrawn at the shop's size.
struct Group {
    product: &'static Product,
    /// The cards, each with its box for this shop.
    cards: Vec<RenderedCard>,
}

impl Emitter for PodEmitter<'_> {
    fn name(&self) -> &'static str {
        "pod"
    }

    fn emit(
        &self,
        game: &Game,
        ws: &mut Workspace,
        stage: &mut Stage,
        diags: &mut Diagnostics,
    ) -> Result<(), EmitError> {
        let Some(set) = self.export.render(game, ws, stage, diags)? else {
            return Ok(());
        };
        let spec = self.shop.spec();
        let Some(groups) = groups(game, &spec, &set, diags) else {
            return Ok(());
        };
        let dir = unit(game, "pod")
            .join(self.shop.id())
            .join(&self.export.target.stem);
        let write = (!self.check_only).then_some(&mut *stage);
        let (entries, inked) = match spec.upload {
            Upload::Images => {
                self.measure(&set, &groups)?;
                match write {
                    Some(stage) => {
                        stage.folder(&dir)?;
                        (self.images(&spec, &set, &groups, stage, &dir)?, Vec::new())
                    }
                    None => (Vec::new(), Vec::new()),
                }
            }
            Upload::PdfX => self.pdfs(&spec, &set, &groups, write, &dir)?,
        };
        self.preflight(game, ws, (&spec, &groups), &inked, diags);
        if self.check_only {
            return Ok(());
        }
        let text = readme::write(self.shop, &self.export.target.name, &entries);
        stage.write(&dir.join("README.md"), text.as_bytes())
    }
}

/// The cards of `set` by product, in the shop's product order, each with
/// its box for the shop; `None` once a card of a size the shop does not
/// offer is reported (once per kind) into `diags`.
fn groups(game: &Game, spec: &Spec, set: &CardSet, diags: &mut Diagnostics) -> Option<Vec<Group>> {
    let mut by_product: BTreeMap<usize, Group> = BTreeMap::new();
    let mut refused: BTreeSet<&str> = BTreeSet::new();
    for card in &set.cards {
        match spec.product(card.size) {
            Ok(product) => {
                let index = spec
                    .products
                    .iter()
                    .position(|p| std::ptr::eq(p, product))
                    .unwrap_or(0);
                let mut drawn = card.clone();
                drawn.size = spec.card_box(product, card.size);
                by_product
                    .entry(index)
                    .or_insert_with(|| Group {
                        product,
                        cards: Vec::new(),
                    })
                    .cards
                    .push(drawn);
            }
            Err(nearest) => {
                if refused.insert(&card.kind) {
                    diags.push(size_error(game, spec, card, nearest));
                }
            }
        }
    }
    refused
        .is_empty()
        .then(|| by_product.into_values().collect())
}

/// A kind whose size the shop does not print, at its `print` table.
fn size_error(game: &Game, spec: &Spec, card: &RenderedCard, nearest: &Product) -> Diagnostic {
    let spans = &game.manifest.spans;
    let kind = &card.kind;
    let span = spans
        .key_span(&format!("/kinds/{kind}/print/size"))
        .or_else(|| spans.key_span(&format!("/kinds/{kind}/print")))
        .or_else(|| spans.key_span("/print/size"))
        .or_else(|| spans.key_span(&format!("/kinds/{kind}")))
        .unwrap_or(0..0);
    Diagnostic::error(
        "pod::size",
        format!(
            "cards of kind `{kind}` are {} × {} mm, a size {} does not print; the nearest it offers is {} ({} × {} mm)",
            mm(card.size.width),
            mm(card.size.height),
            spec.name,
            nearest.name,
            mm(nearest.trim.0),
            mm(nearest.trim.1),
        ),
    )
    .at(game.manifest.file, span, "this card size")
    .with_help(format!(
        "carta never stretches a card to another size: give the kind a size {} offers (within {} mm), or choose another shop",
        spec.name,
        mm(shops::TOLERANCE_MM)
    ))
}

/// A face's file name, carrying its count: `03x-escudo-orc.png`.
fn face_name(card: &RenderedCard) -> String {
    format!("{:02}x-{}.png", card.count, card.id)
}

impl PodEmitter<'_> {
    /// Writes each group's faces and backs as PNGs into `dir/<product>/`.
    fn images(
        &self,
        spec: &Spec,
        set: &CardSet,
        groups: &[Group],
        stage: &mut Stage,
        dir: &Path,
    ) -> Result<Vec<Entry>, EmitError> {
        let mut entries = Vec::new();
        for group in groups {
            // Each distinct back is drawn once; `back.png` when there is one.
            let mut backs: BTreeMap<&str, usize> = BTreeMap::new();
            let mut cells: Vec<(&RenderedCard, Side)> = Vec::new();
            for card in &group.cards {
                cells.push((card, Side::Face));
                backs.entry(card.back.as_str()).or_insert_with(|| {
                    cells.push((card, Side::Back));
                    cells.len() - 1
                });
            }
            let grids: Vec<Grid<'_>> = cells
                .chunks(MAX_COLS * MAX_ROWS)
                .map(|chunk| Grid {
                    cells: chunk.to_vec(),
                    cols: chunk.len().min(MAX_COLS),
                    cell: group.product.pixels,
                })
                .collect();
            let mut options = self.export.options.clone();
            options.dpi = spec.dpi;
            let shots = photograph(set, &grids, &options, &self.export.chromium, "pod")?;
            let cut = |i: usize| {
                let (grid, cell) = (i / (MAX_COLS * MAX_ROWS), i % (MAX_COLS * MAX_ROWS));
                shots.png(grid, cell).to_vec()
            };
            let folder = dir.join(group.product.slug);
            let shared = backs.len() == 1;
            let mut files = Vec::new();
            for (i, &(card, side)) in cells.iter().enumerate() {
                if side == Side::Back {
                    continue;
                }
                let face = face_name(card);
                stage.write(&folder.join(&face), &cut(i))?;
                let back = if shared {
                    "back.png".to_owned()
                } else {
                    format!("{:02}x-{}-back.png", card.count, card.id)
                };
                if !shared || files.is_empty() {
                    stage.write(&folder.join(&back), &cut(backs[card.back.as_str()]))?;
                }
                files.push((face, back, card.count));
            }
            entries.push(Entry {
                product: group.product,
                path: group.product.slug.to_owned() + "/",
                files,
            });
        }
        Ok(entries)
    }

    /// Makes each group's `PDF/X`, and writes it as `dir/<product>.pdf`
    /// into `stage` when there is one: every printed copy's back, then its
    /// face. Returns the entries written and, for a shop with an ink
    /// limit, each card side's peak ink.
    fn pdfs(
        &self,
        spec: &Spec,
        set: &CardSet,
        groups: &[Group],
        mut stage: Option<&mut Stage>,
        dir: &Path,
    ) -> Result<(Vec<Entry>, Vec<Inked>), EmitError> {
        let ghostscript = match &self.ghostscript {
            Some(gs) => gs.clone(),
            None => Ghostscript::find()?,
        };
        let scratch = scratch_with_art(set)?;
        let mut entries = Vec::new();
        let mut inked = Vec::new();
        for group in groups {
            let bytes = self.pdf(spec, set, group, &ghostscript, scratch.path())?;
            if spec.checks.ink.is_some() {
                let pdf = scratch.path().join(format!("{}.pdf", group.product.slug));
                inked.extend(ink_of(group, &ghostscript, &pdf, scratch.path())?);
            }
            let Some(stage) = stage.as_deref_mut() else {
                continue;
            };
            if entries.is_empty() {
                stage.folder(dir)?;
            }
            let name = format!("{}.pdf", group.product.slug);
            stage.write(&dir.join(&name), &bytes)?;
            let files = group
                .cards
                .iter()
                .map(|c| (c.id.clone(), String::new(), c.count))
                .collect();
            entries.push(Entry {
                product: group.product,
                path: name,
                files,
            });
        }
        Ok((entries, inked))
    }

    /// Loads each group's print pages (a copy of each card) in the browser
    /// for their placements alone: the image shops' uploads are
    /// photographed on pages that measure nothing.
    fn measure(&self, set: &CardSet, groups: &[Group]) -> Result<(), EmitError> {
        let scratch = scratch_with_art(set)?;
        let spec = self.shop.spec();
        let mut jobs = Vec::new();
        for group in groups {
            let once: Vec<RenderedCard> = group
                .cards
                .iter()
                .map(|c| RenderedCard {
                    count: 1,
                    ..c.clone()
                })
                .collect();
            let page = format!("{}.preflight.html", group.product.slug);
            let html = pages_html(set, &once, spec.outer_mm(group.product), group.product.name);
            write(&scratch.path().join(&page), html.as_bytes())?;
            jobs.push(Job {
                out: scratch.path().join(&page),
                page,
                about: format!("the preflight of `{}`", self.export.target.stem),
                cards: once.len() * 2,
                shot: Shot::Measure,
            });
        }
        let site = Site {
            root: scratch.path().to_path_buf(),
            files: set.images.iter().map(|f| f.path.clone()).collect(),
        };
        self.export.chromium.run_all(&site, &jobs, 1, "pod")?;
        Ok(())
    }

    /// Reports into `diags` what the preflight of `groups` found: what
    /// their pages placed outside the safe area or drew too coarse, backs
    /// that differ within a kind, and `inked` sides over the ink limit.
    fn preflight(
        &self,
        game: &Game,
        ws: &Workspace,
        (spec, groups): (&Spec, &[Group]),
        inked: &[Inked],
        diags: &mut Diagnostics,
    ) {
        let cards: Vec<&RenderedCard> = groups.iter().flat_map(|g| &g.cards).collect();
        let found = self.export.chromium.peek_measured().placements;
        let sources = (&ws.sources, ws.jail());
        diags.extend(preflight::placements(game, sources, spec, &cards, &found));
        diags.extend(preflight::backs(&cards, game));
        let Some(limits) = spec.checks.ink else {
            return;
        };
        for (id, side, peak) in inked {
            if let Some(card) = game.pool.get(id).filter(|_| *peak > limits.0) {
                diags.push(preflight::ink(spec, card, side, (*peak, limits)));
            }
        }
    }
}

/// The peak ink of each card side of `group`, measured on its `PDF/X`
/// `pdf` (a page per printed copy's back, then its face) rendered to CMYK
/// in `scratch`: each side's most over its copies.
fn ink_of(
    group: &Group,
    ghostscript: &Ghostscript,
    pdf: &Path,
    scratch: &Path,
) -> Result<Vec<Inked>, EmitError> {
    let pages =
        ghostscript.cmyk_pages(pdf, preflight::INK_DPI, &scratch.join(group.product.slug))?;
    let sides = group.cards.iter().flat_map(|c| {
        std::iter::repeat_n(c, c.count as usize).flat_map(|c| [(c, "back"), (c, "face")])
    });
    let mut peaks: BTreeMap<(&str, &'static str), f64> = BTreeMap::new();
    for ((card, side), page) in sides.zip(&pages) {
        let bytes = std::fs::read(page).map_err(|source| EmitError::Write {
            path: page.clone(),
            source,
        })?;
        if let Some(peak) = preflight::peak_ink(&bytes, preflight::INK_BLOCK) {
            let most = peaks.entry((card.id.as_str(), side)).or_insert(0.0);
            *most = most.max(peak);
        }
    }
    Ok(peaks
        .into_iter()
        .map(|((id, side), peak)| (id.to_owned(), side, peak))
        .collect())
}

impl PodEmitter<'_> {
    /// One group's PDF/X: its pages printed by Chromium in `scratch` (where
    /// the set's art is), converted by Ghostscript.
    fn pdf(
        &self,
        spec: &Spec,
        set: &CardSet,
        group: &Group,
        ghostscript: &Ghostscript,
        scratch: &Path,
    ) -> Result<Vec<u8>, EmitError> {
        let slug = group.product.slug;
        let (w, h) = spec.outer_mm(group.product);
        let page = format!("{slug}.html");
        let pages: usize = group.cards.iter().map(|c| c.count as usize * 2).sum();
        let title = format!("{} — {}", self.export.target.name, group.product.name);
        let html = pages_html(set, &group.cards, (w, h), &title);
        write(&scratch.join(&page), html.as_bytes())?;
        let rgb = scratch.join(format!("{slug}.rgb.pdf"));
        let job = Job {
            page,
            out: rgb.clone(),
            about: format!("the {} cards of `{}`", slug, self.export.target.stem),
            cards: pages,
            shot: Shot::Pdf,
        };
        let site = Site {
            root: scratch.to_path_buf(),
            files: set.images.iter().map(|f| f.path.clone()).collect(),
        };
        self.export.chromium.run_all(&site, &[job], 1, "pod")?;
        let out = scratch.join(format!("{slug}.pdf"));
        let boxes = Boxes {
            page: (w * PT_PER_MM, h * PT_PER_MM),
            bleed: (
                (w - group.product.trim.0) / 2.0 * PT_PER_MM,
                (h - group.product.trim.1) / 2.0 * PT_PER_MM,
            ),
        };
        ghostscript.pdfx((&rgb, &out), (pages, boxes), &title, scratch)?;
        std::fs::read(&out).map_err(|source| EmitError::Write { path: out, source })
    }
}

/// The print pages of `cards`: each copy's back, then its face, a page of
/// `size` mm each, the card centred on it; `title` is the PDF's (Chromium
/// names a PDF by its page's title, or else by its address).
fn pages_html(set: &CardSet, cards: &[RenderedCard], (w, h): (f64, f64), title: &str) -> String {
    let mut out = String::with_capacity(4096 + cards.len() * 4096);
    out.push_str("<!DOCTYPE html>\n<html lang=\"");
    escape_into(&set.language, &mut out);
    out.push_str("\">\n<head>\n<meta charset=\"utf-8\">\n<title>");
    escape_into(title, &mut out);
    out.push_str("</title>\n<style>\n");
    out.push_str(&set.css);
    let (pw, ph) = (mm(w), mm(h));
    let _ = write!(
        out,
        "\n@page {{ size: {pw}mm {ph}mm; margin: 0; }}\nhtml, body {{ margin: 0; padding: 0; background: #fff; }}\n.carta-page {{ position: relative; width: {pw}mm; height: {ph}mm; overflow: hidden; break-after: page; }}\n.carta-page:last-child {{ break-after: auto; }}\n</style>\n</head>\n<body data-carta-preflight{}>\n",
        min_text_attribute(set.min_text),
    );
    for card in cards {
        let b = card.size;
        let style = format!(
            "left:{}mm;top:{}mm;width:{}mm;height:{}mm;--bleed:{}mm;--safe:{}mm",
            mm((w - b.outer_width()) / 2.0),
            mm((h - b.outer_height()) / 2.0),
            mm(b.outer_width()),
            mm(b.outer_height()),
            mm(b.bleed),
            mm(b.safe),
        );
        for _ in 0..card.count {
            for (class, html) in [("back", &card.back), ("face", &card.face)] {
                out.push_str("<section class=\"carta-page\"><div class=\"carta-card carta-");
                out.push_str(class);
                out.push_str(" carta-kind-");
                escape_into(&card.kind, &mut out);
                out.push_str("\" data-card=\"");
                escape_into(&card.id, &mut out);
                let _ = write!(
                    out,
                    "\" data-carta-outer-mm=\"{}\" data-carta-bleed-mm=\"{}\" data-carta-safe-mm=\"{}\" style=\"{style}\">",
                    mm(b.outer_width()),
                    mm(b.bleed),
                    mm(b.safe),
                );
                out.push_str(html.trim());
                out.push_str("</div></section>\n");
            }
        }
    }
    out.push_str(FIT_SCRIPT);
    out.push_str("</body>\n</html>\n");
    out
}

/// A scratch folder holding the art of `set`, for pages that show it.
fn scratch_with_art(set: &CardSet) -> Result<tempfile::TempDir, EmitError> {
    let scratch = tempfile::tempdir().map_err(|source| EmitError::Write {
        path: std::env::temp_dir(),
        source,
    })?;
    for image in &set.images {
        write(&scratch.path().join(&image.path), &image.bytes)?;
    }
    Ok(scratch)
}

/// Writes a scratch file, creating its folder.
fn write(path: &Path, bytes: &[u8]) -> Result<(), EmitError> {
    let io = |source| EmitError::Write {
        path: PathBuf::from(path),
        source,
    };
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(io)?;
    }
    std::fs::write(path, bytes).map_err(io)
}
