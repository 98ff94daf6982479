//! What the image exports share: a selection of cards rendered alone
//! ([`CardSet`]), laid out on grid pages whose every cell is one card at
//! an exact pixel size, photographed by Chromium and cut back into cards.
//!
//! A card of `w` × `h` mm at `dpi` is `round(w · dpi / 25.4)` pixels wide;
//! the page is drawn at `dpi / 96` device pixels per CSS pixel, so cell `k`
//! of a grid starts exactly at pixel `(k mod cols) · px_w`.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use super::chromium::{Chromium, Job, Shot, Site};
use super::sheets::deck::Zone;
use super::sheets::geometry::{CardBox, mm};
use super::sheets::icons::escape_into;
use super::sheets::{
    CardSet, FIT_SCRIPT, Inputs, RenderedCard, Selection, min_text_attribute, render_cards_in,
};
use super::shots::Cell;
use super::{EmitError, Stage};
use crate::diag::Diagnostics;
use crate::game::Game;
use crate::load::Workspace;

/// Most cards on one grid page: Tabletop Simulator's limit (10 × 7).
pub const MAX_COLS: usize = 10;
/// See [`MAX_COLS`].
pub const MAX_ROWS: usize = 7;

/// The settings of an image export.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExportOptions {
    /// Pixels per inch of the images (PDF ignores it).
    pub dpi: u32,
    /// Whether the images include the bleed around the trim.
    pub bleed: bool,
    /// How many browsers run at once.
    pub parallel: usize,
    /// Where the images will be hosted (`--base-url`, checked by
    /// [`super::images::base_url`]), for exports that name their images
    /// by URL; `None`: on this machine.
    pub base_url: Option<String>,
}

impl Default for ExportOptions {
    fn default() -> Self {
        ExportOptions {
            dpi: 300,
            bleed: false,
            parallel: std::thread::available_parallelism().map_or(2, |n| n.get().min(4)),
            base_url: None,
        }
    }
}

/// What one export covers: a game's pool or a deck, and the file stem its
/// outputs are named by (the game id or the deck file's stem).
#[derive(Debug, Clone)]
pub struct Target<'g> {
    /// The cards and counts.
    pub selection: Selection<'g>,
    /// The outputs' file name: the game id or the deck file's stem.
    pub stem: String,
    /// The game's or the deck's display name.
    pub name: String,
    /// The deck file, when the target is one (its zones, for the exports
    /// that keep them apart).
    pub deck: Option<crate::deck::DeckFile>,
    /// A deck's zones, each with its cards (the selection is their sum);
    /// empty for a game's pool.
    pub zones: Vec<Zone<'g>>,
}

/// What an image export (PNG, TTS) renders, how, and with which browser.
#[derive(Debug, Clone)]
pub struct ImageExport<'g> {
    /// What to render.
    pub target: Target<'g>,
    /// Resolution, bleed, parallelism.
    pub options: ExportOptions,
    /// The browser.
    pub chromium: Chromium,
}

impl<'g> ImageExport<'g> {
    /// The export of `target` with `options` (copied) and `chromium`.
    pub fn new(target: Target<'g>, options: &ExportOptions, chromium: Chromium) -> Self {
        ImageExport {
            target,
            options: options.clone(),
            chromium,
        }
    }

    /// Renders the cards of the target alone, counting their copies
    /// against the run's print limit in `stage`; `None` once the problems
    /// are reported into `diags`.
    ///
    /// # Errors
    /// When the templates cannot be read.
    pub fn render(
        &self,
        game: &Game,
        ws: &mut Workspace,
        stage: &mut Stage,
        diags: &mut Diagnostics,
    ) -> Result<Option<CardSet>, EmitError> {
        let prints = &self.target.selection.prints;
        let Some(inputs) = Inputs::to_print(ws, stage, game, prints, diags)? else {
            return Ok(None);
        };
        Ok(render_cards_in(
            ws,
            game,
            &inputs,
            &self.target.selection,
            diags,
        ))
    }
}

/// The pixel size of a card at `options.dpi`, with or without its bleed.
pub fn pixels(size: CardBox, options: &ExportOptions) -> (u32, u32) {
    let extra = if options.bleed { 2.0 * size.bleed } else { 0.0 };
    let px = |mm: f64| (mm * f64::from(options.dpi) / 25.4).round().max(1.0) as u32;
    (px(size.width + extra), px(size.height + extra))
}

/// Which side of a card a cell shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// The face.
    Face,
    /// The back.
    Back,
}

/// One grid page to photograph: its cells, in order, `cols` to a row.
#[derive(Debug, Clone)]
pub struct Grid<'a> {
    /// The cards and which side each cell shows.
    pub cells: Vec<(&'a RenderedCard, Side)>,
    /// Cells per row.
    pub cols: usize,
    /// The pixel size of every cell.
    pub cell: (u32, u32),
}

impl Grid<'_> {
    /// Rows of cells.
    pub fn rows(&self) -> usize {
        self.cells.len().div_ceil(self.cols)
    }

    /// The grid's exact pixel size.
    pub fn size(&self) -> (u32, u32) {
        (
            self.cell.0 * self.cols as u32,
            self.cell.1 * self.rows() as u32,
        )
    }

    /// The pixel rectangle of cell `k`.
    pub fn cell_rect(&self, k: usize) -> (u32, u32, u32, u32) {
        let (w, h) = self.cell;
        ((k % self.cols) as u32 * w, (k / self.cols) as u32 * h, w, h)
    }
}

/// The grid pages that photograph `cells` (each a card, the side it
/// shows and its pixel size), in order: at most 10 × 7 cells each, all of
/// one size; and where each cell stands (page, cell).
#[allow(clippy::type_complexity)]
pub fn pages<'a>(
    cells: &[(&'a RenderedCard, Side, (u32, u32))],
) -> (Vec<Grid<'a>>, Vec<(usize, usize)>) {
    let mut grids: Vec<Grid<'a>> = Vec::new();
    let mut place = Vec::with_capacity(cells.len());
    for &(card, side, px) in cells {
        match grids.last_mut() {
            Some(g) if g.cell == px && g.cells.len() < MAX_COLS * MAX_ROWS => {
                g.cells.push((card, side));
            }
            _ => grids.push(Grid {
                cells: vec![(card, side)],
                cols: MAX_COLS,
                cell: px,
            }),
        }
        let page = grids.len() - 1;
        place.push((page, grids[page].cells.len() - 1));
    }
    for g in &mut grids {
        g.cols = g.cells.len().min(MAX_COLS);
    }
    (grids, place)
}

/// Photographs `grids` (in a scratch folder with the set's art), each
/// cell as a PNG at `options.dpi`; a cell kept from an earlier export is
/// reused ([`super::shots`]).
///
/// # Errors
/// When the scratch folder cannot be written or the browser fails.
pub fn photograph<'g>(
    set: &CardSet,
    grids: &'g [Grid<'g>],
    options: &ExportOptions,
    chromium: &Chromium,
    what: &str,
) -> Result<Photos<'g>, EmitError> {
    let dpis = vec![options.dpi; grids.len()];
    photograph_at(set, grids, &dpis, options, chromium, what)
}

/// The cells of photographed grids, each a PNG, and the grids drawn whole.
#[derive(Debug)]
pub struct Photos<'g> {
    grids: &'g [Grid<'g>],
    /// Each grid's cells, as PNGs at the grid's resolution.
    cells: Vec<Vec<Vec<u8>>>,
    /// Each grid's image, when it was drawn whole in this run.
    whole: Vec<Option<Image>>,
}

impl Photos<'_> {
    /// Cell `k` of grid `g`, as a PNG with its resolution recorded.
    pub fn png(&self, g: usize, k: usize) -> &[u8] {
        &self.cells[g][k]
    }

    /// Every grid's image: as drawn, or put together from its cells on
    /// white.
    ///
    /// # Errors
    /// When a cell from an earlier export is not a PNG of its size.
    pub fn into_images(self) -> Result<Vec<Image>, EmitError> {
        let Photos {
            grids,
            cells,
            whole,
        } = self;
        whole
            .into_par_iter()
            .enumerate()
            .map(|(index, image)| match image {
                Some(image) => Ok(image),
                None => put_together(&grids[index], &cells[index], index),
            })
            .collect()
    }
}

/// `grid`'s image (grid `index` of its export) from the PNGs of its
/// `cells`, on white.
fn put_together(grid: &Grid<'_>, cells: &[Vec<u8>], index: usize) -> Result<Image, EmitError> {
    let (width, height) = grid.size();
    let mut image = Image {
        width,
        height,
        rgba: vec![255; width as usize * height as usize * 4],
    };
    let bad = |message: String| EmitError::Image {
        path: std::path::PathBuf::from(format!("a cell of grid {index} from an earlier export")),
        message,
    };
    for (k, png) in cells.iter().enumerate() {
        let cell = Image::decode(png).map_err(bad)?;
        let (x, y, size) = {
            let (x, y, w, h) = grid.cell_rect(k);
            (x, y, (w, h))
        };
        if (cell.width, cell.height) != size {
            return Err(bad(format!(
                "it is {} × {} px, not {} × {}",
                cell.width, cell.height, size.0, size.1
            )));
        }
        image.paste(&cell, x, y);
    }
    Ok(image)
}

/// As [`photograph`], with grid `i` drawn at `dpis[i]` pixels per inch
/// (its `cell` the cards' pixel size at that resolution), for exports
/// whose images have a size limit (Tabletop Simulator's sheets).
///
/// # Errors
/// When the scratch folder cannot be written or the browser fails.
pub fn photograph_at<'g>(
    set: &CardSet,
    grids: &'g [Grid<'g>],
    dpis: &[u32],
    options: &ExportOptions,
    chromium: &Chromium,
    what: &str,
) -> Result<Photos<'g>, EmitError> {
    assert_eq!(dpis.len(), grids.len(), "one resolution per grid");
    let shots = chromium.shots();
    let keys = cell_keys(set, grids, dpis, shots);
    let found: Vec<Vec<Option<Cell>>> = keys
        .par_iter()
        .map(|row| {
            row.iter()
                .map(|&key| shots.and_then(|s| s.get(key)))
                .collect()
        })
        .collect();
    // The grids with a cell to draw, each drawn with only those cells in
    // their places: Chromium's anti-aliasing of a card depends on where it
    // stands on the page, so a cell is kept for its place too.
    let todo: Vec<(usize, Vec<bool>)> = found
        .iter()
        .enumerate()
        .filter_map(|(g, row)| {
            let draw: Vec<bool> = row.iter().map(Option::is_none).collect();
            draw.contains(&true).then_some((g, draw))
        })
        .collect();
    let (encoded, images) = draw_missing(
        (set, grids, dpis),
        &todo,
        shots.map(|s| (s, keys.as_slice())),
        (options, chromium, what),
    )?;
    let cells = cells_of(&found, encoded);
    let reused: usize = found.iter().flatten().filter(|c| c.is_some()).count();
    let drawn: usize = grids.iter().map(|g| g.cells.len()).sum::<usize>() - reused;
    chromium.count(drawn, reused);
    // What the reused cells' fit scripts found, reported again.
    chromium.add_measured(
        found
            .into_iter()
            .flatten()
            .flatten()
            .flat_map(|c| c.overflows),
    );
    if let Some(shots) = shots {
        shots.prune(&keys.iter().flatten().copied().collect());
    }
    let mut whole: Vec<Option<Image>> = vec![None; grids.len()];
    for ((g, draw), image) in todo.iter().zip(images) {
        whole[*g] = (!draw.contains(&false)).then_some(image);
    }
    Ok(Photos {
        grids,
        cells,
        whole,
    })
}

/// Cells drawn in this run: each one's grid, place in it, and PNG.
type Drawn = Vec<(usize, usize, Vec<u8>)>;

/// Every cell's PNG: the one found, or the one `drawn`.
fn cells_of(found: &[Vec<Option<Cell>>], drawn: Drawn) -> Vec<Vec<Vec<u8>>> {
    let mut cells: Vec<Vec<Option<Vec<u8>>>> = found
        .iter()
        .map(|row| {
            row.iter()
                .map(|c| c.as_ref().map(|c| c.png.clone()))
                .collect()
        })
        .collect();
    for (g, k, png) in drawn {
        cells[g][k] = Some(png);
    }
    cells
        .into_iter()
        .map(|row| {
            row.into_iter()
                .map(|c| c.expect("every cell is found or drawn"))
                .collect()
        })
        .collect()
}

/// Draws the cells of `todo` (a grid's index and which of its cells to
/// draw), keeping each in `shots` under its key when given; returns each
/// drawn cell (grid, cell, PNG) and each drawn grid's image.
fn draw_missing(
    (set, grids, dpis): (&CardSet, &[Grid<'_>], &[u32]),
    todo: &[(usize, Vec<bool>)],
    shots: Option<(&super::shots::Shots, &[Vec<u64>])>,
    (options, chromium, what): (&ExportOptions, &Chromium, &str),
) -> Result<(Drawn, Vec<Image>), EmitError> {
    let drawn_grids: Vec<(&Grid<'_>, u32, &[bool])> = todo
        .iter()
        .map(|(g, draw)| (&grids[*g], dpis[*g], draw.as_slice()))
        .collect();
    let before = chromium.peek_measured();
    let images = draw(set, &drawn_grids, options, chromium, what)?;
    let measured = chromium.peek_measured();
    // Cells of a page whose fit script did not report are not kept: their
    // next export draws them again and says so.
    let keep = shots.filter(|_| measured.silent == before.silent);
    let encoded = encode_drawn(grids, dpis, todo, &images);
    if let Some((shots, keys)) = keep {
        let new = &measured.overflows[before.overflows.len()..];
        keep_drawn(shots, (grids, keys), &encoded, new);
    }
    Ok((encoded, images))
}

/// The key of every cell of `grids` (grid `i` at `dpis[i]`) in `shots`;
/// zeros when the run keeps no cells.
fn cell_keys(
    set: &CardSet,
    grids: &[Grid<'_>],
    dpis: &[u32],
    shots: Option<&super::shots::Shots>,
) -> Vec<Vec<u64>> {
    let page = (set.css.as_str(), set.language.as_str(), set.min_text);
    grids
        .iter()
        .zip(dpis)
        .map(|(grid, &dpi)| {
            grid.cells
                .iter()
                .enumerate()
                .map(|(k, &(card, side))| {
                    let place = (k, grid.cols, grid.cells.len());
                    let cell = (card, side == Side::Back);
                    shots.map_or(0, |s| s.key(page, cell, (grid.cell, place), dpi))
                })
                .collect()
        })
        .collect()
}

/// Keeps each cell of `drawn` (grid, cell, PNG) in `shots` under its key
/// in `keys`, with the boxes of `overflows` found on it.
fn keep_drawn(
    shots: &super::shots::Shots,
    (grids, keys): (&[Grid<'_>], &[Vec<u64>]),
    drawn: &[(usize, usize, Vec<u8>)],
    overflows: &[super::sheets::overflow::Overflow],
) {
    for (g, k, png) in drawn {
        let (card, side) = grids[*g].cells[*k];
        let side = if side == Side::Back { "back" } else { "face" };
        let overflows = overflows
            .iter()
            .filter(|o| o.card == card.id && o.side == side)
            .cloned()
            .collect();
        let cell = Cell {
            png: png.clone(),
            overflows,
        };
        shots.put(keys[*g][*k], &cell);
    }
}

/// The cells drawn on each grid of `todo` (a grid's index and which of
/// its cells were drawn), cut from `images` and encoded: (grid, cell, PNG).
fn encode_drawn(
    grids: &[Grid<'_>],
    dpis: &[u32],
    todo: &[(usize, Vec<bool>)],
    images: &[Image],
) -> Drawn {
    todo.par_iter()
        .zip(images)
        .flat_map_iter(|((g, draw), image)| {
            let grid = &grids[*g];
            (0..grid.cells.len()).filter(|&k| draw[k]).map(move |k| {
                let (x, y, w, h) = grid.cell_rect(k);
                let png = image
                    .crop(x, y, w, h)
                    .expect("a cell lies inside its grid")
                    .encode(dpis[*g]);
                (*g, k, png)
            })
        })
        .collect()
}

/// Draws `grids` in the browser, each at its resolution and with only the
/// cells its mask marks, returning each one's image cut to its exact
/// pixel size.
fn draw(
    set: &CardSet,
    grids: &[(&Grid<'_>, u32, &[bool])],
    options: &ExportOptions,
    chromium: &Chromium,
    what: &str,
) -> Result<Vec<Image>, EmitError> {
    if grids.is_empty() {
        return Ok(Vec::new());
    }
    let scratch = tempfile::tempdir().map_err(|source| EmitError::Write {
        path: std::env::temp_dir(),
        source,
    })?;
    let dir = scratch.path();
    for image in &set.images {
        write(&dir.join(&image.path), &image.bytes)?;
    }
    let mut jobs = Vec::new();
    for (i, &(grid, dpi, mask)) in grids.iter().enumerate() {
        let scale = f64::from(dpi) / 96.0;
        // Chromium does not draw below one device pixel per CSS pixel: under
        // 96 dpi the page is zoomed out instead.
        let (device, zoom) = if scale >= 1.0 {
            (scale, 1.0)
        } else {
            (1.0, scale)
        };
        let page = format!("grid-{i}.html");
        write(
            &dir.join(&page),
            grid_html(set, (grid, mask), dpi, zoom).as_bytes(),
        )?;
        let (w, h) = grid.size();
        jobs.push(Job {
            page,
            out: dir.join(format!("grid-{i}.png")),
            about: about(grid),
            cards: grid.cells.len(),
            shot: Shot::Png {
                // One CSS pixel more than needed: the image is cut to size.
                // A zoomed-out page gets the window of its unzoomed layout:
                // in a window shorter than that, Chromium leaves the lower
                // part of a card whose boxes fill its height (`height:
                // 100%` in a flex column) unpainted.
                width: (f64::from(w) / device / zoom).ceil() as u32 + 1,
                height: (f64::from(h) / device / zoom).ceil() as u32 + 1,
                scale: device,
            },
        });
    }
    // The browser may load the grid pages' art, written beside them.
    let site = Site {
        root: dir.to_path_buf(),
        files: set.images.iter().map(|f| f.path.clone()).collect(),
    };
    chromium.run_all(&site, &jobs, options.parallel, what)?;
    // Decoding large screenshots takes a while: all at once.
    grids
        .par_iter()
        .enumerate()
        .map(|(i, (grid, ..))| cut(&dir.join(format!("grid-{i}.png")), grid))
        .collect()
}

/// The browser's image of `grid`, cut to the grid's exact pixel size.
fn cut(path: &Path, grid: &Grid<'_>) -> Result<Image, EmitError> {
    let shot = Image::read(path)?;
    let (w, h) = grid.size();
    shot.crop(0, 0, w, h).ok_or_else(|| EmitError::Image {
        path: path.to_path_buf(),
        message: format!(
            "the browser's image is {} × {} px, smaller than the {w} × {h} px grid",
            shot.width, shot.height
        ),
    })
}

/// What a grid shows, for errors: card `a`, or cards `a` … `c`.
fn about(grid: &Grid<'_>) -> String {
    let side = |s: Side| if s == Side::Back { " (back)" } else { "" };
    match (grid.cells.first(), grid.cells.last()) {
        (Some((a, sa)), Some((b, sb))) if grid.cells.len() > 1 => {
            format!("cards `{}`{} … `{}`{}", a.id, side(*sa), b.id, side(*sb))
        }
        (Some((a, sa)), _) => format!("card `{}`{}", a.id, side(*sa)),
        _ => "an empty grid".to_owned(),
    }
}

fn write(path: &Path, bytes: &[u8]) -> Result<(), EmitError> {
    let io = |source| EmitError::Write {
        path: path.to_path_buf(),
        source,
    };
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(io)?;
    }
    std::fs::write(path, bytes).map_err(io)
}

/// The HTML of one grid page drawn at `dpi`: each cell clips its card to
/// the trim (or shows the bleed too), at CSS pixel positions that land on
/// whole device pixels.
fn grid_html(set: &CardSet, (grid, mask): (&Grid<'_>, &[bool]), dpi: u32, zoom: f64) -> String {
    let scale = f64::from(dpi) / 96.0;
    let mut out = String::with_capacity(4096 + grid.cells.len() * 2048);
    out.push_str("<!DOCTYPE html>\n<html lang=\"");
    escape_into(&set.language, &mut out);
    out.push_str("\">\n<head>\n<meta charset=\"utf-8\">\n<style>\n");
    out.push_str(&set.css);
    let _ = write!(
        out,
        "\nhtml, body {{ margin: 0; padding: 0; background: #fff; }}\nbody {{ zoom: {zoom}; }}\n.carta-cell {{ position: absolute; overflow: hidden; }}\n</style>\n</head>\n<body{}>\n",
        min_text_attribute(set.min_text),
    );
    let (cw, ch) = (
        f64::from(grid.cell.0) / scale,
        f64::from(grid.cell.1) / scale,
    );
    // The card is centred in its cell: the cell is its trim (cut inside
    // the bleed), its trim and bleed, or a print shop's size around it.
    // The cell's pixels are at the grid's resolution, which a size limit
    // (Tabletop Simulator's) may have lowered below the one asked.
    let cell_mm = |px: u32| f64::from(px) * 25.4 / f64::from(dpi);
    for (k, (card, side)) in grid.cells.iter().enumerate() {
        if !mask[k] {
            continue;
        }
        let (x, y, ..) = grid.cell_rect(k);
        let b = card.size;
        let left = (cell_mm(grid.cell.0) - b.outer_width()) / 2.0;
        let top = (cell_mm(grid.cell.1) - b.outer_height()) / 2.0;
        let (class, html) = match side {
            Side::Face => ("face", &card.face),
            Side::Back => ("back", &card.back),
        };
        let _ = write!(
            out,
            "<div class=\"carta-cell\" style=\"left:{}px;top:{}px;width:{cw}px;height:{ch}px\"><div class=\"carta-card carta-{class} carta-kind-",
            f64::from(x) / scale,
            f64::from(y) / scale,
        );
        escape_into(&card.kind, &mut out);
        out.push_str("\" data-card=\"");
        escape_into(&card.id, &mut out);
        let _ = write!(
            out,
            "\" style=\"left:{}mm;top:{}mm;width:{}mm;height:{}mm;--bleed:{}mm;--safe:{}mm\">",
            mm(left),
            mm(top),
            mm(b.outer_width()),
            mm(b.outer_height()),
            mm(b.bleed),
            mm(b.safe),
        );
        out.push_str(html.trim());
        out.push_str("</div></div>\n");
    }
    out.push_str(FIT_SCRIPT);
    out.push_str("</body>\n</html>\n");
    out
}

/// An RGBA image.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Image {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// The pixels, 4 bytes each, row by row.
    pub rgba: Vec<u8>,
}

impl Image {
    /// Reads a PNG file of any colour type as RGBA.
    ///
    /// # Errors
    /// When it cannot be read or is not a PNG.
    pub fn read(path: &Path) -> Result<Image, EmitError> {
        let bytes = std::fs::read(path).map_err(|e| EmitError::Image {
            path: path.to_path_buf(),
            message: e.to_string(),
        })?;
        Image::decode(&bytes).map_err(|message| EmitError::Image {
            path: path.to_path_buf(),
            message,
        })
    }

    /// A PNG of any colour type, as RGBA.
    ///
    /// # Errors
    /// What is wrong with it, when it is not a PNG.
    pub fn decode(bytes: &[u8]) -> Result<Image, String> {
        let mut decoder = png::Decoder::new(std::io::Cursor::new(bytes));
        decoder.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
        let mut reader = decoder.read_info().map_err(|e| e.to_string())?;
        let size = reader
            .output_buffer_size()
            .ok_or_else(|| "the image is too large".to_owned())?;
        let mut buf = vec![0; size];
        let info = reader.next_frame(&mut buf).map_err(|e| e.to_string())?;
        buf.truncate(info.buffer_size());
        let rgba = match info.color_type {
            png::ColorType::Rgba => buf,
            png::ColorType::Rgb => buf
                .chunks(3)
                .flat_map(|p| [p[0], p[1], p[2], 255])
                .collect(),
            png::ColorType::GrayscaleAlpha => buf
                .chunks(2)
                .flat_map(|p| [p[0], p[0], p[0], p[1]])
                .collect(),
            png::ColorType::Grayscale => buf.iter().flat_map(|&g| [g, g, g, 255]).collect(),
            png::ColorType::Indexed => return Err("an indexed PNG was not expanded".to_owned()),
        };
        Ok(Image {
            width: info.width,
            height: info.height,
            rgba,
        })
    }

    /// Draws `other` over this image with its top left at (`x`, `y`) (what
    /// falls outside is left out).
    pub fn paste(&mut self, other: &Image, x: u32, y: u32) {
        let w = other.width.min(self.width.saturating_sub(x)) as usize * 4;
        for row in 0..other.height.min(self.height.saturating_sub(y)) {
            let to = ((y + row) as usize * self.width as usize + x as usize) * 4;
            let from = row as usize * other.width as usize * 4;
            self.rgba[to..to + w].copy_from_slice(&other.rgba[from..from + w]);
        }
    }

    /// The `w` × `h` pixels at (`x`, `y`), or `None` when they are not all inside.
    pub fn crop(&self, x: u32, y: u32, w: u32, h: u32) -> Option<Image> {
        if x.checked_add(w)? > self.width || y.checked_add(h)? > self.height {
            return None;
        }
        let stride = self.width as usize * 4;
        let mut rgba = Vec::with_capacity(w as usize * h as usize * 4);
        for row in y..y + h {
            let start = row as usize * stride + x as usize * 4;
            rgba.extend_from_slice(&self.rgba[start..start + w as usize * 4]);
        }
        Some(Image {
            width: w,
            height: h,
            rgba,
        })
    }

    /// The image as a PNG file, with its resolution recorded.
    pub fn encode(&self, dpi: u32) -> Vec<u8> {
        let mut bytes = Vec::new();
        let mut encoder = png::Encoder::new(&mut bytes, self.width, self.height);
        encoder.set_color(png::ColorType::Rgba);
        encoder.set_depth(png::BitDepth::Eight);
        // Level 3 of zlib with adaptive filters: a third of the default's
        // time for files about a sixth larger.
        encoder.set_deflate_compression(png::DeflateCompression::Level(3));
        let per_metre = (f64::from(dpi) / 0.0254).round() as u32;
        encoder.set_pixel_dims(Some(png::PixelDimensions {
            xppu: per_metre,
            yppu: per_metre,
            unit: png::Unit::Meter,
        }));
        let mut writer = encoder.write_header().expect("writing to memory");
        writer
            .write_image_data(&self.rgba)
            .expect("the buffer has width × height pixels");
        writer.finish().expect("writing to memory");
        bytes
    }
}

/// Where an output of `game` goes: `<game>/<format>/…`.
pub fn unit(game: &Game, format: &str) -> PathBuf {
    PathBuf::from(game.id()).join(format)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_poker_card_at_300_dpi_is_750_by_1050_pixels() {
        let poker = CardBox {
            width: 63.5,
            height: 88.9,
            bleed: 3.0,
            safe: 3.0,
        };
        let mut o = ExportOptions::default();
        assert_eq!(pixels(poker, &o), (750, 1050));
        o.bleed = true;
        assert_eq!(pixels(poker, &o), (821, 1121));
    }

    #[test]
    fn crops_round_trip_through_png() {
        let img = Image {
            width: 3,
            height: 2,
            rgba: (0..24).collect(),
        };
        let cut = img.crop(1, 1, 2, 1).unwrap();
        assert_eq!(cut.rgba, (16..24).collect::<Vec<u8>>());
        assert!(img.crop(2, 0, 2, 1).is_none());
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.png");
        std::fs::write(&path, img.encode(300)).unwrap();
        assert_eq!(Image::read(&path).unwrap(), img);
    }
}
