//! Print-and-play sheets: each card's face and back rendered from
//! handlebars templates, laid out on mm-exact HTML pages with crop marks,
//! bleed and duplex-mirrored backs, behind a cover listing every sheet.
//!
//! The emitter ([`SheetsEmitter`]) runs after a clean check: [`Inputs::read`]
//! reads the game's templates, and [`render`] turns a game and what to print
//! into the files of `DIR/<game>/sheets/`.

mod assets;
mod budget;
pub mod deck;
mod display;
mod emitter;
pub mod geometry;
mod helpers;
pub mod icons;
mod layout;
mod page;
mod renderer;
mod spans;
mod templates;
mod view;

pub use assets::{PathProblem, read as read_asset};
pub use emitter::SheetsEmitter;
pub use page::FIT_SCRIPT;
pub use templates::{BASE_CSS, DEFAULT_BACK, DEFAULT_FACE, TemplateFile};
pub use view::{CardView, GameView, SizeView};

use std::collections::BTreeMap;
use std::io::{self, Write};
use std::ops::Range;

use self::assets::ImageCache;
use self::geometry::{CardBox, Flip, Grid, PageBox};
use self::page::{Cover, GridText, Placed, SheetEntry, Side};
use self::renderer::{Failures, Renderer};
use crate::config::{CardSize, Duplex, KindPrint, Orientation, Paper, PrintSettings, SizePreset};
use crate::diag::{Diagnostic, Diagnostics, SourceMap};
use crate::game::Game;
use crate::load::{Jail, LoadError, Workspace};
use crate::validate::RawCard;

pub use crate::config::{DEFAULT_BLEED, DEFAULT_SAFE};

/// Per-build choices; each `None` takes the manifest's `[print]` value.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SheetOptions {
    /// The paper.
    pub paper: Option<Paper>,
    /// The orientation.
    pub orientation: Option<Orientation>,
    /// The duplex layout.
    pub duplex: Option<Duplex>,
    /// The ink-saver variant.
    pub ink_saver: Option<bool>,
}

/// A file of the sheets, relative to `DIR/<game>/sheets/`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutputFile {
    /// `/`-separated path (`index.html`, `img/<hash>.png`).
    pub path: String,
    /// Its bytes.
    pub bytes: Vec<u8>,
}

/// A card to print and how many copies.
#[derive(Debug, Clone, Copy)]
pub struct Print<'a> {
    /// The card.
    pub card: &'a RawCard,
    /// How many copies.
    pub count: u32,
}

/// What a print holds: the whole pool, each card `copies` times (1 when it
/// does not say).
pub fn pool_prints(game: &Game) -> Vec<Print<'_>> {
    game.pool
        .iter()
        .map(|card| Print {
            card,
            count: card.copies.unwrap_or(1),
        })
        .collect()
}

/// The template files of a game, read into the source map (so that
/// template errors point into them).
#[derive(Debug, Clone, Default)]
pub struct Inputs {
    /// `templates/<game>/*.hbs` and `style.css`, sorted by name.
    pub templates: Vec<TemplateFile>,
}

impl Inputs {
    /// Reads `templates/<game>/` (absent is fine: the defaults print).
    ///
    /// # Errors
    /// When a file cannot be read.
    pub fn read(
        ws: &mut Workspace,
        game: &str,
        diags: &mut Diagnostics,
    ) -> Result<Inputs, LoadError> {
        let mut names = crate::i18n::phrases::template_names(ws, game)?;
        // Matched exactly, as the kind ids in template names are.
        #[allow(clippy::case_sensitive_file_extension_comparisons)]
        names.retain(|n| n.ends_with(".hbs") || n == "style.css");
        let rels: Vec<String> = names
            .iter()
            .map(|n| crate::i18n::phrases::template_path(game, n))
            .collect();
        let ids = ws.read_many(&rels, diags)?;
        Ok(Inputs {
            templates: names
                .into_iter()
                .zip(ids)
                .map(|(name, file)| TemplateFile { name, file })
                .collect(),
        })
    }
}

impl Inputs {
    /// The inputs to print `prints` of `game`, once they are counted
    /// against the run's printed-copies limit in `stage`; `None` when they
    /// exceed it (reported).
    ///
    /// # Errors
    /// When a template cannot be read.
    pub fn to_print(
        ws: &mut Workspace,
        stage: &mut crate::emit::Stage,
        game: &Game,
        prints: &[Print<'_>],
        diags: &mut Diagnostics,
    ) -> Result<Option<Inputs>, LoadError> {
        if !budget::within(stage, ws, prints, diags) {
            return Ok(None);
        }
        Inputs::read(ws, game.id(), diags).map(Some)
    }
}

/// The settings of one build, resolved from the manifest and the options.
#[derive(Debug, Clone, Copy)]
struct Build {
    page: PageBox,
    duplex: Duplex,
    ink_saver: bool,
}

fn resolve_build(print: &PrintSettings, o: SheetOptions) -> Build {
    Build {
        page: PageBox {
            paper: o.paper.unwrap_or(print.paper),
            orientation: o.orientation.unwrap_or(print.orientation),
            margin: print.margin,
            gutter: print.gutter,
        },
        duplex: o.duplex.unwrap_or(print.duplex),
        ink_saver: o.ink_saver.unwrap_or(print.ink_saver),
    }
}

/// The card box of `kind`: the kind's own print settings over the game's.
fn card_box(print: &PrintSettings, kind: Option<&KindPrint>) -> CardBox {
    let size = kind
        .and_then(|k| k.size)
        .or(print.size)
        .unwrap_or(CardSize::Preset(SizePreset::Poker));
    let (width, height) = size.mm();
    CardBox {
        width,
        height,
        bleed: kind
            .and_then(|k| k.bleed)
            .or(print.bleed)
            .unwrap_or(DEFAULT_BLEED),
        safe: kind
            .and_then(|k| k.safe)
            .or(print.safe)
            .unwrap_or(DEFAULT_SAFE),
    }
}

/// What to print: a title for the cover and the cards.
#[derive(Debug, Clone)]
pub struct Selection<'a> {
    /// "Every card" or the deck's name.
    pub subject: String,
    /// The cards and their counts, in any order (the sheets follow the
    /// manifest's kind order, then this order).
    pub prints: Vec<Print<'a>>,
    /// Lines the cover adds to its instructions (the language report).
    pub notes: Vec<String>,
}

/// Every printed card's face and back, held together: for the outputs
/// that place cards one by one (exports, the deck builder) rather than on
/// sheets streamed to disk.
struct Rendered<'a> {
    /// The prints in sheet order.
    prints: Vec<Print<'a>>,
    /// Their faces and backs, in the same order.
    cards: Vec<renderer::Rendered>,
    /// The game's extra CSS.
    css: String,
    /// The art the cards use.
    images: ImageCache,
}

/// The prints of `selection` in sheet order — kinds in manifest order,
/// then selection order — without those of no copies.
fn sheet_order<'a>(game: &Game, selection: &Selection<'a>) -> Vec<Print<'a>> {
    let kinds = game.manifest.manifest.kind_ids();
    let mut prints: Vec<Print<'a>> = selection
        .prints
        .iter()
        .copied()
        .filter(|p| p.count > 0)
        .collect();
    prints.sort_by_key(|p| {
        kinds
            .iter()
            .position(|k| *k == p.card.kind)
            .unwrap_or(usize::MAX)
    });
    prints
}

/// Renders the face and back of every card of `selection`, reporting
/// template and art problems into `diags`.
fn render_faces<'a>(
    jail: &Jail,
    sources: &SourceMap,
    game: &Game,
    inputs: &Inputs,
    selection: &Selection<'a>,
    ink_saver: bool,
    diags: &mut Vec<Diagnostic>,
) -> Rendered<'a> {
    let renderer = Renderer::new(jail, sources, game, inputs, ink_saver, diags);
    let prints = sheet_order(game, selection);
    let mut images = ImageCache::default();
    let arts = renderer.prepare_all(jail, sources, &prints, &mut images, diags);
    let arts: Vec<&BTreeMap<String, String>> = arts.iter().collect();
    let mut rendered = renderer.render_all(&prints, &arts);
    let mut failures = Failures::default();
    for (p, r) in prints.iter().zip(&mut rendered) {
        failures.add(p.card, r);
    }
    failures.report(&renderer, sources, diags);
    Rendered {
        prints,
        cards: rendered,
        css: renderer.css().to_owned(),
        images,
    }
}

/// Every printed card of a selection, rendered alone: for exports that
/// place cards on their own rather than on printed sheets.
#[derive(Debug, Clone)]
pub struct CardSet {
    /// The game's language (BCP 47).
    pub language: String,
    /// carta's CSS and the game's.
    pub css: String,
    /// The cards in sheet order.
    pub cards: Vec<RenderedCard>,
    /// The art they use, by its URL relative to the page.
    pub images: Vec<OutputFile>,
}

/// One card's face and back, rendered.
#[derive(Debug, Clone)]
pub struct RenderedCard {
    /// Its id.
    pub id: String,
    /// Its kind.
    pub kind: String,
    /// Its name.
    pub name: String,
    /// How many copies the selection holds.
    pub count: u32,
    /// Its geometry.
    pub size: CardBox,
    /// The face's HTML (the inside of a `.carta-card.carta-face` box).
    pub face: String,
    /// The back's HTML.
    pub back: String,
}

/// Renders every card of `selection` alone (see [`CardSet`]). Reports every
/// problem into `diags`; returns the cards only when there was no error.
pub fn render_cards(
    jail: &Jail,
    sources: &SourceMap,
    game: &Game,
    inputs: &Inputs,
    selection: &Selection<'_>,
    diags: &mut Vec<Diagnostic>,
) -> Option<CardSet> {
    let errors_before = error_count(diags);
    let faces = render_faces(jail, sources, game, inputs, selection, false, diags);
    if error_count(diags) > errors_before {
        return None;
    }
    let cards = faces
        .prints
        .iter()
        .zip(faces.cards)
        .map(|(p, r)| RenderedCard {
            id: p.card.id.clone(),
            kind: p.card.kind.clone(),
            name: p.card.name.clone(),
            count: p.count,
            size: r.size,
            face: r.face,
            back: r.back,
        })
        .collect();
    Some(CardSet {
        language: game.manifest.manifest.language.clone(),
        css: format!("{BASE_CSS}\n{}", faces.css),
        cards,
        images: image_files(faces.images),
    })
}

fn error_count(diags: &[Diagnostic]) -> usize {
    diags
        .iter()
        .filter(|d| d.severity == crate::diag::Severity::Error)
        .count()
}

/// The art files, each once, sorted by path.
fn image_files(images: ImageCache) -> Vec<OutputFile> {
    let mut files = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    for image in images.by_path.into_values().flatten() {
        if seen.insert(image.url.clone()) {
            files.push(OutputFile {
                path: image.url,
                bytes: image.bytes,
            });
        }
    }
    files.sort_by(|a, b| a.path.cmp(&b.path));
    files
}

/// How many sheets are rendered and written at a time: enough cards for
/// every core, few enough that a build holds a handful of pages.
const SHEETS_PER_BATCH: usize = 16;

/// One printed sheet: its grid and its slots (an index into the prints, and
/// which copy).
struct Sheet {
    grid: usize,
    slots: Vec<(usize, u32)>,
}

/// Renders the sheets of `game`, streaming `index.html` into `index` a few
/// sheets at a time (faces rendered on every core), so that memory does
/// not grow with the number of cards. Reports every problem into `diags`
/// and returns the art files to write beside it — only when there was no
/// error; then what was written to `index` is incomplete and must be
/// thrown away.
///
/// # Errors
/// When `index` cannot be written.
#[allow(clippy::too_many_arguments)] // the emitter's inputs, each needed
pub fn render(
    jail: &Jail,
    sources: &SourceMap,
    game: &Game,
    inputs: &Inputs,
    selection: &Selection<'_>,
    options: &SheetOptions,
    index: &mut dyn Write,
    diags: &mut Vec<Diagnostic>,
) -> io::Result<Option<Vec<OutputFile>>> {
    let errors_before = error_count(diags);
    let m = &game.manifest.manifest;
    let build = resolve_build(
        m.print.as_ref().unwrap_or(&PrintSettings::default()),
        *options,
    );
    let renderer = Renderer::new(jail, sources, game, inputs, build.ink_saver, diags);
    let prints = sheet_order(game, selection);
    let mut images = ImageCache::default();
    let arts = renderer.prepare_all(jail, sources, &prints, &mut images, diags);

    // Geometry: consecutive kinds with the same card box share sheets.
    let mut groups: Vec<(CardBox, Range<usize>)> = Vec::new();
    for (i, p) in prints.iter().enumerate() {
        let b = renderer.card_box(&p.card.kind);
        match groups.last_mut() {
            Some((gb, range)) if *gb == b => range.end = i + 1,
            _ => groups.push((b, i..i + 1)),
        }
    }
    let mut grids = Vec::new();
    for (b, range) in &groups {
        match Grid::fit(build.page, *b) {
            Some(g) => grids.push(g),
            None => diags.push(layout_error(
                game,
                &prints[range.start].card.kind,
                *b,
                build.page,
            )),
        }
    }
    if grids.len() < groups.len() {
        return Ok(None);
    }
    let sheets = paginate(&prints, &groups, &grids);
    let doc = Document {
        game,
        selection,
        build: &build,
        prints: &prints,
        grids: &grids,
    };
    let failures = doc.write(&renderer, &arts, &sheets, index)?;
    failures.report(&renderer, sources, diags);
    if error_count(diags) > errors_before {
        return Ok(None);
    }
    Ok(Some(image_files(images)))
}

/// Cuts each group's copies into sheets of its grid.
fn paginate(
    prints: &[Print<'_>],
    groups: &[(CardBox, Range<usize>)],
    grids: &[Grid],
) -> Vec<Sheet> {
    let mut sheets = Vec::new();
    for (g, ((_, range), grid)) in groups.iter().zip(grids).enumerate() {
        let copies: Vec<(usize, u32)> = range
            .clone()
            .flat_map(|i| (1..=prints[i].count).map(move |c| (i, c)))
            .collect();
        for chunk in copies.chunks(grid.per_page()) {
            sheets.push(Sheet {
                grid: g,
                slots: chunk.to_vec(),
            });
        }
    }
    sheets
}

/// One sheets document being written: the selection and how it is laid out.
struct Document<'d, 'a> {
    game: &'d Game,
    selection: &'d Selection<'a>,
    build: &'d Build,
    prints: &'d [Print<'a>],
    grids: &'d [Grid],
}

impl<'a> Document<'_, 'a> {
    /// Writes the document: its head, the cover, the sheets in batches
    /// (each batch's cards rendered on every core), its tail. Returns the
    /// template failures met.
    fn write(
        &self,
        renderer: &Renderer<'_>,
        arts: &[BTreeMap<String, String>],
        sheets: &[Sheet],
        out: &mut dyn Write,
    ) -> io::Result<Failures<'a>> {
        let m = &self.game.manifest.manifest;
        let flip = Flip::of(self.build.duplex, self.build.page.orientation);
        let (pw, ph) = self.build.page.size();
        let mut buf = String::new();
        let class = format!(
            "carta-paper-{} carta-{}{}",
            self.build.page.paper.label().to_ascii_lowercase(),
            if self.build.page.orientation == Orientation::Portrait {
                "portrait"
            } else {
                "landscape"
            },
            if self.build.ink_saver {
                " carta-ink-saver"
            } else {
                ""
            }
        );
        let title = format!("{} — print and play", m.name);
        let css = [BASE_CSS, renderer.css()];
        page::document_head(&mut buf, &title, &m.language, (pw, ph), &class, &css);
        let cover = self.cover(sheets, flip, ph);
        cover.write(&mut buf, ph);
        out.write_all(buf.as_bytes())?;
        let texts: Vec<GridText> = self.grids.iter().map(|g| GridText::new(g, flip)).collect();
        let mut failures = Failures::default();
        for (b, batch) in sheets.chunks(SHEETS_PER_BATCH).enumerate() {
            buf.clear();
            let first = batch[0].slots[0].0;
            let end = batch
                .last()
                .and_then(|s| s.slots.last())
                .map_or(first, |s| s.0 + 1);
            let art: Vec<&BTreeMap<String, String>> = arts[first..end].iter().collect();
            let mut rendered = renderer.render_all(&self.prints[first..end], &art);
            for (i, r) in rendered.iter_mut().enumerate() {
                failures.add(self.prints[first + i].card, r);
            }
            for (k, sheet) in batch.iter().enumerate() {
                let number = cover.sheets[b * SHEETS_PER_BATCH + k].faces_page;
                let text = &texts[sheet.grid];
                self.write_sheet(&mut buf, number, sheet, text, flip.is_some(), |i| {
                    &rendered[i - first]
                });
            }
            out.write_all(buf.as_bytes())?;
        }
        buf.clear();
        page::document_tail(&mut buf);
        out.write_all(buf.as_bytes())?;
        Ok(failures)
    }

    /// The cover: what is printed, how, and the table of sheets.
    fn cover(&self, sheets: &[Sheet], flip: Option<Flip>, ph: f64) -> Cover<'_> {
        let m = &self.game.manifest.manifest;
        let kind_name = |k: &str| {
            m.kinds
                .get(k)
                .map_or(k.to_owned(), |kind| kind.name.clone())
        };
        let mut counts: Vec<(String, usize, u32)> = Vec::new();
        for kind in m.kinds.keys() {
            let ps: Vec<&Print<'_>> = self
                .prints
                .iter()
                .filter(|p| p.card.kind == *kind)
                .collect();
            if !ps.is_empty() {
                counts.push((kind_name(kind), ps.len(), ps.iter().map(|p| p.count).sum()));
            }
        }
        let mut cover = Cover {
            game: &m.name,
            subject: &self.selection.subject,
            instructions: [instructions(self.build, flip), self.selection.notes.clone()].concat(),
            counts,
            sheets: Vec::new(),
        };
        let per_sheet = if flip.is_some() { 2 } else { 1 };
        // The cover's length depends only on how many sheets there are.
        cover.sheets = sheets.iter().map(|_| SheetEntry::default()).collect();
        let first_page = cover.pages(ph) + 1;
        for (i, sheet) in sheets.iter().enumerate() {
            let faces_page = first_page + i * per_sheet;
            let mut kinds: Vec<String> = Vec::new();
            let mut names: Vec<(String, u32)> = Vec::new();
            for &(p, _) in &sheet.slots {
                let card = self.prints[p].card;
                let k = kind_name(&card.kind);
                if !kinds.contains(&k) {
                    kinds.push(k);
                }
                match names.last_mut() {
                    Some((n, c)) if *n == card.name => *c += 1,
                    _ => names.push((card.name.clone(), 1)),
                }
            }
            cover.sheets[i] = SheetEntry {
                faces_page,
                backs_page: flip.map(|_| faces_page + 1),
                kinds,
                boxes: sheet.slots.len(),
                names,
            };
        }
        cover
    }

    /// Writes one sheet's faces page, and its backs page when duplex.
    fn write_sheet<'r>(
        &self,
        out: &mut String,
        faces_page: usize,
        sheet: &Sheet,
        text: &GridText,
        duplex: bool,
        rendered: impl Fn(usize) -> &'r renderer::Rendered,
    ) {
        let placed = |side: Side| -> Vec<Placed<'_>> {
            sheet
                .slots
                .iter()
                .enumerate()
                .map(|(slot, &(p, copy))| {
                    let card = self.prints[p].card;
                    let r = rendered(p);
                    Placed {
                        id: &card.id,
                        kind: &card.kind,
                        copy,
                        slot,
                        html: if side == Side::Backs {
                            &r.back
                        } else {
                            &r.face
                        },
                    }
                })
                .collect()
        };
        page::sheet(out, faces_page, Side::Faces, text, &placed(Side::Faces));
        if duplex {
            page::sheet(out, faces_page + 1, Side::Backs, text, &placed(Side::Backs));
        }
    }
}

/// One card's face as printed, on its own.
#[derive(Debug, Clone)]
pub struct Face {
    /// The rendered face template.
    pub html: String,
    /// The card's size (trim, bleed, safe), in mm.
    pub size: SizeView,
}

/// Every card's face as printed, to show cards one by one (the deck
/// builder's card browser) instead of laid out on sheets.
#[derive(Debug, Clone, Default)]
pub struct Faces {
    /// carta's sheet CSS followed by the game's `style.css`.
    pub css: String,
    /// The faces, by card id.
    pub cards: BTreeMap<String, Face>,
    /// The art the faces show, by its URL relative to them (`img/<hash>.png`).
    pub images: BTreeMap<String, Vec<u8>>,
}

/// Renders every card's face of `game` with its templates (as `carta
/// build` prints them), reporting problems into `diags`; a card whose
/// template fails has an empty face.
pub fn faces(
    jail: &Jail,
    sources: &SourceMap,
    game: &Game,
    inputs: &Inputs,
    diags: &mut Vec<Diagnostic>,
) -> Faces {
    let ink_saver = game
        .manifest
        .manifest
        .print
        .as_ref()
        .is_some_and(|p| p.ink_saver);
    let selection = Selection {
        subject: String::new(),
        prints: game
            .pool
            .iter()
            .map(|card| Print { card, count: 1 })
            .collect(),
        notes: Vec::new(),
    };
    let rendered = render_faces(jail, sources, game, inputs, &selection, ink_saver, diags);
    let cards = rendered
        .prints
        .iter()
        .zip(rendered.cards)
        .map(|(p, r)| {
            let face = Face {
                html: r.face,
                size: r.size.into(),
            };
            (p.card.id.clone(), face)
        })
        .collect();
    Faces {
        css: format!("{BASE_CSS}\n{}", rendered.css),
        cards,
        images: rendered
            .images
            .by_path
            .into_values()
            .flatten()
            .map(|i| (i.url, i.bytes))
            .collect(),
    }
}

/// The cover's printing instructions.
fn instructions(build: &Build, flip: Option<Flip>) -> Vec<String> {
    let orientation = match build.page.orientation {
        Orientation::Portrait => "portrait",
        Orientation::Landscape => "landscape",
    };
    let mut out = vec![format!(
        "Print on {} {orientation} at 100% (actual size, no fit-to-page); cut along the crop marks.",
        build.page.paper.label()
    )];
    out.push(match build.duplex {
        Duplex::None => "Faces only: no backs pages.".into(),
        Duplex::Long => "Print double-sided, flipping on the long edge: each backs page follows its faces page.".into(),
        Duplex::Short => "Print double-sided, flipping on the short edge: each backs page follows its faces page.".into(),
    });
    if flip.is_some() {
        out.push("Single-sided printer: print, turn the stack as for the chosen edge, and print the backs pages.".into());
    }
    if build.ink_saver {
        out.push("Ink saver: no card backgrounds or art.".into());
    }
    out
}

fn layout_error(game: &Game, kind: &str, b: CardBox, page: PageBox) -> Diagnostic {
    let spans = &game.manifest.spans;
    let span = spans
        .key_span(&format!("/kinds/{kind}/print"))
        .or_else(|| spans.key_span("/print"))
        .or_else(|| spans.key_span(&format!("/kinds/{kind}")))
        .unwrap_or(0..0);
    let (pw, ph) = page.size();
    let m = geometry::mm;
    Diagnostic::error(
        "sheets::layout",
        format!(
            "cards of kind `{kind}` ({} × {} mm with {} mm bleed) do not fit on {} {} paper with {} mm margins ({} × {} mm to use)",
            m(b.width),
            m(b.height),
            m(b.bleed),
            page.paper.label(),
            if page.orientation == Orientation::Portrait { "portrait" } else { "landscape" },
            m(page.margin),
            m(pw - 2.0 * page.margin),
            m(ph - 2.0 * page.margin)
        ),
    )
    .at(game.manifest.file, span, "this layout")
    .with_help("use a smaller card size, less bleed, smaller margins, or the other orientation")
}
