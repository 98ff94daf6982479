//! `carta export tts`: a Tabletop Simulator saved object,
//! `<game>/tts/<stem>/`: `<stem>.json`, the object TTS loads (Objects →
//! Saved Objects), its deck sheet images and a `README.txt` saying where
//! each image goes.
//!
//! The object holds one pile per zone of a deck file, or per kind of a
//! game's pool, laid side by side: a `DeckCustom` of one `Card` per
//! physical copy, or the `Card` itself when the pile is one card (TTS has
//! no deck of one). A pile's cards are laid on deck sheets of one card
//! size, at most 10 × 7 cells and 4,096 px on each side (TTS's limits),
//! each sheet at the highest resolution up to `--dpi` that fits; a sheet
//! whose cards have different backs has `UniqueBack` and a sheet of backs
//! in the same grid. Card `k` of sheet `N` has `CardID` `N·100 + k`, the
//! cell at row `k / NumWidth`, column `k mod NumWidth`. Images are named
//! by a hash of their bytes ([`super::images`]), so TTS's image cache never
//! shows a stale sheet.
//!
//! The structure is the one TTS's own saves use, and the one existing
//! generators write: HardDie/DeckBuilder
//! (`internal/services/generator/service.go`: `CardID` `page·100 + index`,
//! a pile of one card written as a `Card` because a deck cannot hold one)
//! and ZONT3/tts-deck-generator (`tts_deckgen/save_processing.py`,
//! `deck.py`: `CustomDeck` entries with `NumWidth`, `NumHeight`,
//! `BackIsHidden`, `UniqueBack`, backs as a sheet in the faces' grid).

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::PathBuf;

use rayon::prelude::*;
use serde_json::{Value, json};

use super::cards::{
    ExportOptions, Grid, Image, ImageExport, MAX_COLS, MAX_ROWS, Side, Target, photograph_at,
    pixels, unit,
};
use super::images::{Home, hashed_name};
use super::sheets::RenderedCard;
use super::sheets::geometry::CardBox;
use super::{EmitError, Emitter, Stage};
use crate::diag::{Diagnostic, Diagnostics, Severity};
use crate::game::Game;
use crate::load::Workspace;

/// The largest side of a deck sheet image, in pixels: TTS's knowledge
/// base ("Asset Creation") keeps custom deck images within 4096 × 4096.
pub const MAX_SIDE: u32 = 4096;

/// The width and height of TTS's standard card (scale 1), in mm: a poker
/// card. A card of another size is scaled by its size over this one.
const STANDARD_CARD: (f64, f64) = (63.5, 88.9);

/// The Tabletop Simulator deck of a selection of a game's cards.
#[derive(Debug, Clone)]
pub struct TtsEmitter<'g> {
    /// What to render, and how.
    pub export: ImageExport<'g>,
    /// The output folder, absolute: the JSON names its images by full path.
    pub out: PathBuf,
}

/// One object of the saved file: a zone of a deck file or a kind of a
/// pool, as a deck (or a lone card).
struct Pile<'a> {
    /// The zone's or kind's id, for object ids.
    id: String,
    /// Its display name.
    name: String,
    /// Its cards, each once, with its copies.
    cards: Vec<(&'a RenderedCard, u32)>,
    /// Its sheets: this range of the export's sheets.
    sheets: std::ops::Range<usize>,
}

/// One deck sheet: `CustomDeck` entry `index + 1`.
struct Sheet<'a> {
    /// Its cards, in cell order.
    cards: Vec<&'a RenderedCard>,
    /// Cells per row.
    cols: usize,
    /// The resolution it is drawn at.
    dpi: u32,
    /// Whether its cards' backs differ: its back image is then a sheet of
    /// backs in the same grid.
    unique_back: bool,
    /// The image of its back (see [`images`]).
    back: usize,
}

impl Sheet<'_> {
    /// Rows of cells.
    fn rows(&self) -> usize {
        self.cards.len().div_ceil(self.cols)
    }
}

impl Emitter for TtsEmitter<'_> {
    fn name(&self) -> &'static str {
        "tts"
    }

    fn emit(
        &self,
        game: &Game,
        ws: &mut Workspace,
        stage: &mut Stage,
        diags: &mut Diagnostics,
    ) -> Result<(), EmitError> {
        let export = &self.export;
        let Some(set) = export.render(game, ws, stage, diags)? else {
            return Ok(());
        };
        let mut piles = piles(&export.target, &set.cards, game);
        let mut sheets = lay_out(&mut piles, &export.options);
        let (grids, dpis) = grids(&mut sheets, &export.options);
        let shots = photograph_at(
            &set,
            &grids,
            &dpis,
            &export.options,
            &export.chromium,
            "tts",
        )?;
        let images = images(&sheets, &grids, &shots);
        let dir = unit(game, "tts").join(&export.target.stem);
        stage.folder(&dir)?;
        // Encoding a sheet of up to 4096 × 4096 px takes a while: all at once.
        let encoded: Vec<Vec<u8>> = images
            .par_iter()
            .zip(sheets.par_iter().chain(sheets.par_iter()))
            .map(|(image, sheet)| image.encode(sheet.dpi))
            .collect();
        let mut names = Vec::with_capacity(images.len());
        let mut written = std::collections::BTreeSet::new();
        for (i, bytes) in encoded.iter().enumerate() {
            let name = hashed_name(&image_stem(i, &sheets), bytes);
            if written.insert(name.clone()) {
                stage.write(&dir.join(&name), bytes)?;
            }
            names.push(name);
        }
        let home = Home::new(export.options.base_url.as_deref(), &self.out.join(&dir));
        let files = Files {
            home: &home,
            names: &names,
        };
        let object = saved_object(&export.target, &piles, &sheets, &files, game);
        let mut json = serde_json::to_string_pretty(&object).expect("JSON values serialize");
        json.push('\n');
        let stem = &export.target.stem;
        stage.write(&dir.join(format!("{stem}.json")), json.as_bytes())?;
        let readme = readme(&export.target, &piles, &sheets, &images, &files);
        stage.write(&dir.join("README.txt"), readme.as_bytes())?;
        if let Some(note) = resolution_note(stem, &sheets, export.options.dpi) {
            diags.push(note);
        }
        Ok(())
    }
}

/// The piles of a target: a deck's zones, in the manifest's order, or the
/// kinds of a pool, in the manifest's order (`cards` is in that order).
fn piles<'a>(target: &Target<'_>, cards: &'a [RenderedCard], game: &Game) -> Vec<Pile<'a>> {
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
fn lay_out<'a>(piles: &mut [Pile<'a>], options: &ExportOptions) -> Vec<Sheet<'a>> {
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
fn grids<'a>(sheets: &mut [Sheet<'a>], options: &ExportOptions) -> (Vec<Grid<'a>>, Vec<u32>) {
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
fn images(sheets: &[Sheet<'_>], grids: &[Grid<'_>], shots: &[Image]) -> Vec<Image> {
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
fn image_stem(i: usize, sheets: &[Sheet<'_>]) -> String {
    match i.checked_sub(sheets.len()) {
        None => format!("sheet-{}", i + 1),
        Some(n) if sheets[n].unique_back => format!("back-{}", n + 1),
        Some(_) => "back".to_owned(),
    }
}

/// The export's image files: their names (by grid) and where they load from.
struct Files<'a> {
    home: &'a Home,
    names: &'a [String],
}

impl Files<'_> {
    /// The `CustomDeck` entry of sheet `n` (0-based).
    fn entry(&self, n: usize, sheet: &Sheet<'_>) -> Value {
        json!({
            "FaceURL": self.home.url(&self.names[n]),
            "BackURL": self.home.url(&self.names[sheet.back]),
            "NumWidth": sheet.cols,
            "NumHeight": sheet.rows(),
            // The back, not the sheet's last cell, is what others see of a
            // card in a hand: all 70 cells hold cards.
            "BackIsHidden": true,
            "UniqueBack": sheet.unique_back,
            "Type": 0,
        })
    }

    /// What the saved object says of its images.
    fn note(&self) -> String {
        match self.home {
            Home::Local(_) => "The images are local files (file:/// URLs) on the computer that \
                exported this object: only Tabletop Simulator on that computer can load them. \
                To play with others, upload them and export again with --base-url (see README.txt)."
                .to_owned(),
            Home::Hosted(base) => format!(
                "The images are loaded from {base}: upload this export's image files there (see README.txt)."
            ),
        }
    }
}

/// The saved object: one object per pile, side by side along X.
fn saved_object(
    target: &Target<'_>,
    piles: &[Pile<'_>],
    sheets: &[Sheet<'_>],
    files: &Files<'_>,
    game: &Game,
) -> Value {
    let widest = piles
        .iter()
        .flat_map(|p| p.cards.iter().map(|(c, _)| scale(c.size).0))
        .fold(1.0_f64, f64::max);
    // TTS's standard card is under 2.5 units wide: 3 keep a gap.
    let step = 3.0 * widest;
    let middle = (piles.len() as f64 - 1.0) / 2.0;
    let objects: Vec<Value> = piles
        .iter()
        .enumerate()
        .map(|(i, pile)| {
            let x = ((i as f64 - middle) * step * 100.0).round() / 100.0;
            pile_object(pile, sheets, files, (target, game), x)
        })
        .collect();
    json!({
        "SaveName": target.name,
        "Date": "",
        "VersionNumber": "",
        "GameMode": "",
        "Note": files.note(),
        "ObjectStates": objects,
    })
}

/// One pile at `x`: a `DeckCustom` holding a `Card` per copy, or the
/// card itself when the pile is one card.
fn pile_object(
    pile: &Pile<'_>,
    sheets: &[Sheet<'_>],
    files: &Files<'_>,
    (target, game): (&Target<'_>, &Game),
    x: f64,
) -> Value {
    let kinds = &game.manifest.manifest.kinds;
    let mut custom = serde_json::Map::new();
    let mut place: HashMap<&str, (usize, usize)> = HashMap::new();
    for n in pile.sheets.clone() {
        custom.insert((n + 1).to_string(), files.entry(n, &sheets[n]));
        for (k, card) in sheets[n].cards.iter().enumerate() {
            place.insert(card.id.as_str(), (n, k));
        }
    }
    let mut deck_ids = Vec::new();
    let mut contained = Vec::new();
    for &(card, count) in &pile.cards {
        let (n, k) = place[card.id.as_str()];
        let card_id = (n + 1) * 100 + k;
        for copy in 0..count {
            deck_ids.push(json!(card_id));
            contained.push(movable(json!({
                "GUID": guid(&format!("{}/{}/{}/{copy}", target.stem, pile.id, card.id)),
                "Name": "Card",
                "Transform": transform(x, scale(card.size)),
                "Nickname": card.name,
                "Description": kinds.get(&card.kind).map_or(card.kind.as_str(), |k| k.name.as_str()),
                "GMNotes": card.id,
                "CardID": card_id,
                "CustomDeck": { (n + 1).to_string(): custom[&(n + 1).to_string()].clone() },
                "Hands": true,
            })));
        }
    }
    if contained.len() == 1 {
        return contained.remove(0);
    }
    let first = pile
        .cards
        .first()
        .map_or(STANDARD_CARD, |(c, _)| (c.size.width, c.size.height));
    movable(json!({
        "GUID": guid(&format!("{}/{}", target.stem, pile.id)),
        "Name": "DeckCustom",
        "Transform": transform(x, (first.0 / STANDARD_CARD.0, first.1 / STANDARD_CARD.1)),
        "Nickname": pile.name,
        "Description": format!("{} · {}", target.name, game.manifest.manifest.name),
        "DeckIDs": deck_ids,
        "CustomDeck": custom,
        "ContainedObjects": contained,
        "Hands": false,
    }))
}

/// A card's scale against TTS's standard card: its width and height.
fn scale(size: CardBox) -> (f64, f64) {
    (size.width / STANDARD_CARD.0, size.height / STANDARD_CARD.1)
}

/// `object` with the flags TTS gives a card or deck one can pick up and
/// move: not locked, snapping to the grid, with a tooltip.
fn movable(mut object: Value) -> Value {
    let flags = [
        ("Locked", false),
        ("Grid", true),
        ("Snap", true),
        ("Autoraise", true),
        ("Sticky", true),
        ("Tooltip", true),
        ("SidewaysCard", false),
    ];
    let map = object.as_object_mut().expect("an object");
    for (k, v) in flags {
        map.insert(k.to_owned(), Value::Bool(v));
    }
    object
}

/// Face down at `x` on the table's middle line, at the card's scale
/// (`x` across, `z` along the table).
fn transform(x: f64, (sx, sz): (f64, f64)) -> Value {
    let round = |v: f64| (v * 1000.0).round() / 1000.0;
    json!({
        "posX": x, "posY": 1.0, "posZ": 0.0,
        "rotX": 0.0, "rotY": 180.0, "rotZ": 180.0,
        "scaleX": round(sx), "scaleY": 1.0, "scaleZ": round(sz),
    })
}

/// A stable six-hex-digit object id (TTS's form), from what the object is.
fn guid(of: &str) -> String {
    crate::digest::sha256_hex(of.as_bytes(), 3)
}

/// The export folder's `README.txt`: how to load the object, and which
/// image file is what and goes where.
fn readme(
    target: &Target<'_>,
    piles: &[Pile<'_>],
    sheets: &[Sheet<'_>],
    images: &[Image],
    files: &Files<'_>,
) -> String {
    let stem = &target.stem;
    let mut out = format!(
        "{}: a Tabletop Simulator saved object, exported by carta.\n\n\
         {stem}.json is the object. Copy it into Tabletop Simulator's \"Saves/Saved Objects\" \
         folder (under Documents/My Games/Tabletop Simulator on Windows) and load it in the \
         game from Objects > Saved Objects. It holds {} side by side: {}.\n\n",
        target.name,
        plural(piles.len(), "pile", "piles"),
        piles
            .iter()
            .map(|p| format!(
                "\"{}\" ({})",
                p.name,
                plural(p.cards.iter().map(|c| c.1 as usize).sum(), "card", "cards")
            ))
            .collect::<Vec<_>>()
            .join(", "),
    );
    match files.home {
        Home::Local(_) => out.push_str(
            "The images are local: the object names them by their place on this computer \
             (file:/// URLs), so only Tabletop Simulator on this computer can load them, and \
             only while this folder stays where it is. To play with others, upload the images \
             below to a web folder and export again with --base-url <that folder's URL>.\n\nImages:\n",
        ),
        Home::Hosted(base) => {
            let _ = write!(
                out,
                "The object loads its images from {base}. Upload these files there, keeping \
                 their names, before loading it:\n\n"
            );
        }
    }
    let mut listed = std::collections::BTreeSet::new();
    for (i, name) in files.names.iter().enumerate() {
        if listed.insert(name) {
            let size = (images[i].width, images[i].height);
            let _ = writeln!(
                out,
                "  {name}\n      {}",
                what(i, size, (piles, sheets), files)
            );
            if let Home::Hosted(_) = files.home {
                let _ = writeln!(out, "      -> {}", files.home.url(name));
            }
        }
    }
    out
}

/// What image `i`, of `size` px, shows, for the README.
fn what(
    i: usize,
    (w, h): (u32, u32),
    (piles, sheets): (&[Pile<'_>], &[Sheet<'_>]),
    files: &Files<'_>,
) -> String {
    let pile_of = |n: usize| {
        piles
            .iter()
            .find(|p| p.sheets.contains(&n))
            .map_or("", |p| p.name.as_str())
    };
    let (n, faces) = match i.checked_sub(sheets.len()) {
        None => (i, true),
        Some(n) => (n, false),
    };
    let sheet = &sheets[n];
    let (cols, rows) = (sheet.cols as u32, sheet.rows() as u32);
    let cells = format!("{cols} × {rows} cells of {} × {} px", w / cols, h / rows);
    if faces {
        return format!(
            "faces of \"{}\", sheet {}: {}, {cells} ({} dpi)",
            pile_of(n),
            n + 1,
            plural(sheet.cards.len(), "card", "cards"),
            sheet.dpi
        );
    }
    if sheet.unique_back {
        return format!(
            "backs of \"{}\", sheet {}, in the faces' grid: {cells}",
            pile_of(n),
            n + 1
        );
    }
    // One file may be the back of several sheets.
    let mut names: Vec<String> = (0..sheets.len())
        .filter(|&m| files.names[sheets[m].back] == files.names[i])
        .map(|m| format!("\"{}\"", pile_of(m)))
        .collect();
    names.dedup();
    format!("the back of {}: {w} × {h} px", names.join(", "))
}

/// `n` and its noun.
fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// The note that the sheets of `stem` are drawn at less than the asked
/// resolution, to stay within TTS's limits; `None` when none is.
fn resolution_note(stem: &str, sheets: &[Sheet<'_>], asked: u32) -> Option<Diagnostic> {
    let lower: Vec<u32> = sheets
        .iter()
        .map(|s| s.dpi)
        .filter(|&d| d < asked)
        .collect();
    let (low, high) = (*lower.iter().min()?, *lower.iter().max()?);
    let range = if low == high {
        format!("{low} dpi")
    } else {
        format!("{low}–{high} dpi")
    };
    Some(
        Diagnostic::new(
            Severity::Advice,
            "export::tts-dpi",
            format!(
                "{} of the {} Tabletop Simulator sheets of `{stem}` drawn at {range}, not {asked}, to stay within TTS's {MAX_SIDE} px a side",
                lower.len(),
                sheets.len()
            ),
        )
        .with_help("TTS takes at most 10 × 7 cards and 4096 × 4096 px a sheet; `--dpi` asks for less"),
    )
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

    #[test]
    fn only_sheets_below_the_asked_resolution_are_noted() {
        let card = RenderedCard {
            id: "a".into(),
            kind: "k".into(),
            name: "A".into(),
            count: 1,
            size: POKER,
            face: String::new(),
            back: String::new(),
        };
        let sheet = |dpi| Sheet {
            cards: vec![&card],
            cols: 1,
            dpi,
            unique_back: false,
            back: 0,
        };
        assert!(resolution_note("d", &[sheet(300), sheet(300)], 300).is_none());
        let note = resolution_note("d", &[sheet(163), sheet(300), sheet(234)], 300).unwrap();
        assert_eq!(note.severity, Severity::Advice);
        assert!(
            note.message.starts_with(
                "2 of the 3 Tabletop Simulator sheets of `d` drawn at 163–234 dpi, not 300"
            ),
            "{}",
            note.message
        );
    }
}
