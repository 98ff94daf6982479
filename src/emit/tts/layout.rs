//! A TTS export's piles laid on deck sheets within TTS's limits (at most
//! 10 × 7 cards and 4,096 px a side), and the images cut from their
//! photographs.

use std::collections::HashMap;

use crate::emit::cards::{ExportOptions, Grid, Image, MAX_COLS, MAX_ROWS, Side, Target, pixels};
use crate::emit::sheets::RenderedCard;
use crate::emit::sheets::geometry::CardBox;
use crate::game::Game;

/// The largest side of a deck sheet image, in pixels: TTS's knowledge
/// base ("Asset Creation") keeps custom deck images within 4096 × 4096.
pub const MAX_SIDE: u32 = 4096;

/// One object of the saved file: a zone of a deck file or a kind of a
/// pool, as a deck (or a lone card).
pub(super) struct Pile<'a> {
    /// The zone's or kind's id, for object ids.
    pub(super) id: String,
    /// Its display name.
    pub(super) name: String,
    /// Its cards, each once, with its copies.
    pub(super) cards: Vec<(&'a RenderedCard, u32)>,
    /// Its sheets: this range of the export's sheets.
    pub(super) sheets: std::ops::Range<usize>,
}

/// One deck sheet: `CustomDeck` entry `index + 1`.
pub(super) struct Sheet<'a> {
    /// Its cards, in cell order.
    pub(super) cards: Vec<&'a RenderedCard>,
    /// Cells per row.
    pub(super) cols: usize,
    /// The resolution it is drawn at.
    pub(super) dpi: u32,
    /// Whether its cards' backs differ: its back image is then a sheet of
    /// backs in the same grid.
    pub(super) unique_back: bool,
    /// The image of its back (see [`images`]).
    pub(super) back: usize,
}

impl Sheet<'_> {
    /// Rows of cells.
    pub(super) fn rows(&self) -> usize {
        self.cards.len().div_ceil(self.cols)
    }
}

/// The piles of a target: a deck's zones, in the manifest's order, or the
/// kinds of a pool, in the manifest's order (`cards` is in that order).
pub(super) fn piles<'a>(
    target: &Target<'_>,
    cards: &'a [RenderedCard],
    game: &Game,
) -> Vec<Pile<'a>> {
    if !target.zones.is_empty() {
        let by_id: HashMap<&str, &RenderedCard> =
            cards.iter().map(|c| (c.id.as_str(), c)).collect();
        return target
            .zones
            .iter()
            .map(|zone| Pile {
                id: zone.id.clone(),
                name: zone.name.clone(),
                cards: zone
                    .prints
                    .iter()
                    .filter(|p| p.count > 0)
                    .filter_map(|p| Some((*by_id.get(p.card.id.as_str())?, p.count)))
                    .collect(),
                sheets: 0..0,
            })
            .filter(|pile| !pile.cards.is_empty())
            .collect();
    }
    let kinds = &game.manifest.manifest.kinds;
    let mut piles: Vec<Pile<'a>> = Vec::new();
    for card in cards {
        match piles.last_mut() {
            Some(pile) if pile.id == card.kind => pile.cards.push((card, card.count)),
            _ => piles.push(Pile {
                id: card.kind.clone(),
                name: kinds
                    .get(&card.kind)
                    .map_or(card.kind.clone(), |k| k.name.clone()),
                cards: vec![(card, card.count)],
                sheets: 0..0,
            }),
        }
    }
    piles
}

/// Lays each pile's cards on sheets — cards of one size together, at most
/// 70 to a sheet, a size's cards spread evenly over as few sheets as hold
/// them — and records each pile's range of them.
pub(super) fn lay_out<'a>(piles: &mut [Pile<'a>], options: &ExportOptions) -> Vec<Sheet<'a>> {
    let mut sheets = Vec::new();
    for pile in piles {
        let start = sheets.len();
        let mut sizes: Vec<(CardBox, Vec<&'a RenderedCard>)> = Vec::new();
        for &(card, _) in &pile.cards {
            match sizes
                .iter_mut()
                .find(|(size, _)| same_cell(*size, card.size, options))
            {
                Some((_, cards)) => cards.push(card),
                None => sizes.push((card.size, vec![card])),
            }
        }
        for (size, cards) in sizes {
            let count = cards.len().div_ceil(MAX_COLS * MAX_ROWS);
            let mut rest = cards.as_slice();
            for i in 0..count {
                // The first `len % count` sheets take one card more.
                let take = rest.len() / (count - i) + usize::from(rest.len() % (count - i) > 0);
                let (these, after) = rest.split_at(take);
                rest = after;
                let (cols, dpi) = fit(these.len(), size, options);
                sheets.push(Sheet {
                    unique_back: these.iter().any(|c| c.back != these[0].back),
                    cards: these.to_vec(),
                    cols,
                    dpi,
                    back: 0,
                });
            }
        }
        pile.sheets = start..sheets.len();
    }
    sheets
}

/// Whether cards of these sizes make cells of one size (the sizes come
/// from the same presets and settings, so equal sizes are equal bits).
fn same_cell(a: CardBox, b: CardBox, options: &ExportOptions) -> bool {
    let bits = |c: CardBox| {
        let bleed = if options.bleed { c.bleed } else { 0.0 };
        (c.width.to_bits(), c.height.to_bits(), bleed.to_bits())
    };
    bits(a) == bits(b)
}

/// The grid of a sheet of `n` cards of `size` (≤ 70): its cells per row
/// and its resolution, the highest up to `options.dpi` at which the grid
/// fits [`MAX_SIDE`] on both sides. Of the shapes within 10 × 7, the
/// sharpest wins, then the one with the fewest empty cells, then the
/// widest.
fn fit(n: usize, size: CardBox, options: &ExportOptions) -> (usize, u32) {
    let n = n.max(1);
    (1..=MAX_COLS)
        .filter(|&cols| n.div_ceil(cols) <= MAX_ROWS)
        .map(|cols| {
            let rows = n.div_ceil(cols);
            (cols, best_dpi(cols, rows, size, options), cols * rows - n)
        })
        .max_by_key(|&(cols, dpi, empty)| (dpi, std::cmp::Reverse(empty), cols))
        .map_or((MAX_COLS, options.dpi), |(cols, dpi, _)| (cols, dpi))
}

/// The highest resolution up to `options.dpi` (at least 1) at which
/// `cols` × `rows` cells of `size` fit within [`MAX_SIDE`] pixels.
fn best_dpi(cols: usize, rows: usize, size: CardBox, options: &ExportOptions) -> u32 {
    let fits = |dpi: u32| {
        let (w, h) = pixels(
            size,
            &ExportOptions {
                dpi,
                ..options.clone()
            },
        );
        u64::from(w) * cols as u64 <= u64::from(MAX_SIDE)
            && u64::from(h) * rows as u64 <= u64::from(MAX_SIDE)
    };
    // Pixel sizes grow with the resolution: the first that fits from the
    // top is the highest.
    (1..=options.dpi).rev().find(|&d| fits(d)).unwrap_or(1)
}

/// The grids to photograph and their resolutions: each sheet's faces,
/// followed on the same page by their back when they share one (a
/// browser page saved, not a drawing), then a sheet of backs for each
/// sheet with `UniqueBack`. Sheet `i`'s back becomes image `len + i`.
pub(super) fn grids<'a>(
    sheets: &mut [Sheet<'a>],
    options: &ExportOptions,
) -> (Vec<Grid<'a>>, Vec<u32>) {
    let cell = |card: &RenderedCard, dpi: u32| {
        pixels(
            card.size,
            &ExportOptions {
                dpi,
                ..options.clone()
            },
        )
    };
    let count = sheets.len();
    let mut grids = Vec::with_capacity(count * 2);
    let mut dpis = Vec::with_capacity(count * 2);
    for (i, s) in sheets.iter_mut().enumerate() {
        let mut cells: Vec<(&'a RenderedCard, Side)> =
            s.cards.iter().map(|&c| (c, Side::Face)).collect();
        if !s.unique_back {
            cells.push((s.cards[0], Side::Back));
        }
        grids.push(Grid {
            cells,
            cols: s.cols,
            cell: cell(s.cards[0], s.dpi),
        });
        dpis.push(s.dpi);
        s.back = count + i;
    }
    for s in sheets.iter().filter(|s| s.unique_back) {
        grids.push(Grid {
            cells: s.cards.iter().map(|&c| (c, Side::Back)).collect(),
            cols: s.cols,
            cell: cell(s.cards[0], s.dpi),
        });
        dpis.push(s.dpi);
    }
    (grids, dpis)
}

/// The export's images from the photographed grids (see [`grids`]): each
/// sheet's faces cut to its own cells (the cell that held its back left
/// blank), then each sheet's back — that cell, or its sheet of backs.
pub(super) fn images(sheets: &[Sheet<'_>], grids: &[Grid<'_>], shots: &[Image]) -> Vec<Image> {
    let mut faces = Vec::with_capacity(sheets.len());
    let mut backs = Vec::with_capacity(sheets.len());
    let mut of_backs = shots[sheets.len()..].iter();
    for (i, s) in sheets.iter().enumerate() {
        let (grid, shot) = (&grids[i], &shots[i]);
        let (w, h) = grid.cell;
        let (cols, rows) = (s.cols as u32, s.rows() as u32);
        let mut face = shot
            .crop(0, 0, cols * w, rows * h)
            .expect("the faces lie inside their grid");
        if s.unique_back {
            backs.push(of_backs.next().expect("a sheet of backs").clone());
        } else {
            let (x, y, ..) = grid.cell_rect(s.cards.len());
            backs.push(
                shot.crop(x, y, w, h)
                    .expect("the back lies inside its grid"),
            );
            blank(&mut face, (x, y), (w, h));
        }
        faces.push(face);
    }
    faces.extend(backs);
    faces
}

/// Paints the `size` pixels at `at` of `image` white, as an empty cell is
/// (nothing there when the rectangle lies outside).
fn blank(image: &mut Image, (x, y): (u32, u32), (w, h): (u32, u32)) {
    if x + w > image.width || y + h > image.height {
        return;
    }
    let stride = image.width as usize * 4;
    for row in y..y + h {
        let start = row as usize * stride + x as usize * 4;
        image.rgba[start..start + w as usize * 4].fill(255);
    }
}

/// The name, before its hash, of image `i` (see [`images`]): `sheet-N`
/// for sheet `N`'s faces, `back-N` for its sheet of backs, `back` for a
/// back its cards share (the same back of several sheets is one file).
pub(super) fn image_stem(i: usize, sheets: &[Sheet<'_>]) -> String {
    match i.checked_sub(sheets.len()) {
        None => format!("sheet-{}", i + 1),
        Some(n) if sheets[n].unique_back => format!("back-{}", n + 1),
        Some(_) => "back".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const POKER: CardBox = CardBox {
        width: 63.5,
        height: 88.9,
        bleed: 3.0,
        safe: 3.0,
    };
    const TAROT: CardBox = CardBox {
        width: 70.0,
        height: 120.0,
        bleed: 3.0,
        safe: 3.0,
    };

    fn at(dpi: u32) -> ExportOptions {
        ExportOptions {
            dpi,
            ..ExportOptions::default()
        }
    }

    /// The grid's pixel size at its resolution.
    fn side(n: usize, (cols, dpi): (usize, u32), size: CardBox) -> (u32, u32) {
        let (w, h) = pixels(size, &at(dpi));
        (w * cols as u32, h * n.div_ceil(cols) as u32)
    }

    #[test]
    fn a_full_poker_sheet_is_drawn_at_163_dpi_and_a_small_one_as_asked() {
        // 10 × 408 = 4080 px; at 164 dpi a card is 410 px: 4100.
        assert_eq!(fit(70, POKER, &at(300)), (10, 163));
        assert_eq!(side(70, (10, 163), POKER), (4080, 7 * 571));
        // 25 cards: 5 × 5 at 234 dpi beats 10 × 3 at 163.
        assert_eq!(fit(25, POKER, &at(300)), (5, 234));
        assert_eq!(fit(3, POKER, &at(300)), (3, 300));
        assert_eq!(fit(3, POKER, &at(100)), (3, 100));
        // Tarot cards are limited by their height: 7 rows of 120 mm.
        assert_eq!(fit(70, TAROT, &at(300)).1, 123);
    }

    #[test]
    fn every_sheet_fits_tts_and_no_other_shape_is_sharper() {
        for size in [POKER, TAROT] {
            for asked in [40, 150, 300, 600] {
                for n in 1..=MAX_COLS * MAX_ROWS {
                    let (cols, dpi) = fit(n, size, &at(asked));
                    let rows = n.div_ceil(cols);
                    assert!(cols <= MAX_COLS && rows <= MAX_ROWS && dpi <= asked);
                    let (w, h) = side(n, (cols, dpi), size);
                    assert!(w <= MAX_SIDE && h <= MAX_SIDE, "{n} cards: {w} × {h}");
                    for other in 1..=MAX_COLS {
                        let r = n.div_ceil(other);
                        if r <= MAX_ROWS && dpi < asked {
                            let (w, h) = side(n, (other, dpi + 1), size);
                            assert!(
                                w > MAX_SIDE || h > MAX_SIDE,
                                "{n} cards: {other} columns fit at {} dpi",
                                dpi + 1
                            );
                        }
                    }
                }
            }
        }
    }
}
