//! Print-and-play sheets: each card's face and back rendered from
//! handlebars templates, laid out on mm-exact HTML pages with crop marks,
//! bleed and duplex-mirrored backs, behind a cover listing every sheet.
//!
//! The emitter ([`SheetsEmitter`]) runs after a clean check: [`Inputs::read`]
//! reads the game's templates, and [`render`] turns a game and what to print
//! into the files of `DIR/<game>/sheets/`.

mod assets;
pub(crate) mod budget;
pub mod deck;
mod display;
mod emitter;
pub mod geometry;
mod helpers;
pub mod icons;
mod layout;
mod page;
mod spans;
mod templates;
mod view;

pub use assets::{PathProblem, read as read_asset};
pub use emitter::SheetsEmitter;
pub use page::FIT_SCRIPT;
pub use templates::{BASE_CSS, DEFAULT_BACK, DEFAULT_FACE, TemplateFile};
pub use view::{CardView, GameView, SizeView};

use std::collections::BTreeMap;
use std::sync::Arc;

use serde_json::Value;

use self::assets::ImageCache;
use self::geometry::{CardBox, Flip, Grid, PageBox};
use self::page::{Cover, Placed, SheetEntry, Side};
use self::templates::Templates;
use crate::config::{CardSize, Duplex, KindPrint, Orientation, Paper, PrintSettings, SizePreset};
use crate::diag::{Diagnostic, Diagnostics, SourceMap};
use crate::game::Game;
use crate::load::{Jail, LoadError, Workspace};
use crate::validate::RawCard;

/// Default bleed, in mm.
pub const DEFAULT_BLEED: f64 = 3.0;
/// Default safe zone, in mm.
pub const DEFAULT_SAFE: f64 = 3.0;

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

/// The settings of one build, resolved from the manifest and the options.
#[derive(Debug, Clone, Copy)]
struct Build {
    page: PageBox,
    duplex: Duplex,
    ink_saver: bool,
}

fn resolve_build(print: &PrintSettings, o: &SheetOptions) -> Build {
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

/// Every printed card's face and back HTML, and what they need.
struct Rendered<'a> {
    /// The prints in sheet order: kinds in manifest order, then selection order.
    prints: Vec<Print<'a>>,
    /// Card id → (face, back) HTML.
    rendered: BTreeMap<&'a str, (String, String)>,
    /// The game's extra CSS.
    css: String,
    /// The art the cards use.
    images: ImageCache,
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
    let m = &game.manifest.manifest;
    let mfile = game.manifest.file;
    let default_print = PrintSettings::default();
    let print = m.print.as_ref().unwrap_or(&default_print);
    let icons = Arc::new(assets::load_icons(
        jail,
        &m.id,
        &m.icons,
        (mfile, &game.manifest.spans),
        diags,
    ));
    let kinds = m.kind_ids();
    let cards = display::index(game);
    let templates = Templates::compile(&inputs.templates, sources, &kinds, &icons, &cards, diags);
    let gview = GameView {
        id: m.id.clone(),
        name: m.name.clone(),
        language: m.language.clone(),
    };

    // Order: kinds in manifest order, then selection order.
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

    let mut images = ImageCache::default();
    let mut rendered: BTreeMap<&'a str, (String, String)> = BTreeMap::new();
    let mut template_errors = BTreeMap::new();
    for p in &prints {
        let card = p.card;
        let kprint = m.kinds.get(&card.kind).and_then(|k| k.print.as_ref());
        check_tokens(sources, card, &icons, diags);
        let display = game.schemas.kind(&card.kind);
        let art_fields: Vec<&str> = kprint
            .map(|k| k.images.iter().map(String::as_str).collect::<Vec<_>>())
            .unwrap_or_default()
            .into_iter()
            .chain(display.into_iter().flat_map(|d| {
                d.face
                    .iter()
                    .filter(|f| f.role == crate::validate::display::Role::Art)
                    .map(|f| f.key.as_str())
            }))
            .collect();
        let card_images = card_images(jail, sources, &m.id, card, &art_fields, &mut images, diags);
        let fields = cards
            .get(&card.id)
            .and_then(|v| v["fields"].as_object())
            .unwrap_or(&card.fields);
        let view = CardView {
            id: &card.id,
            kind: &card.kind,
            kind_name: m
                .kinds
                .get(&card.kind)
                .map_or(card.kind.as_str(), |k| k.name.as_str()),
            name: &card.name,
            copies: p.count,
            layout: layout::layout(
                display.map(|d| d.face.as_slice()).unwrap_or_default(),
                fields,
                &card_images,
            ),
            fields,
            raw: &card.fields,
            images: card_images,
            back: kprint.and_then(|k| k.back.as_deref()),
            game: &gview,
            size: card_box(print, kprint).into(),
            ink_saver,
        };
        let mut one = |name: &str| match templates.render(name, &view) {
            Ok(html) => html,
            Err(e) => {
                let key = (
                    name.to_owned(),
                    e.line_no,
                    e.column_no,
                    templates::render_message(&e),
                );
                template_errors.entry(key).or_insert_with(|| (e, card));
                String::new()
            }
        };
        let face = one(templates.face_of(&card.kind));
        let back = one(templates.back_of(&card.kind));
        rendered.insert(&card.id, (face, back));
    }
    for ((name, ..), (e, card)) in template_errors {
        diags.push(template_error(&templates, sources, &name, &e, card));
    }
    Rendered {
        prints,
        rendered,
        css: templates.css,
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
    /// The face's HTML (the inside of a `.card.face` box).
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
    let m = &game.manifest.manifest;
    let default_print = PrintSettings::default();
    let print = m.print.as_ref().unwrap_or(&default_print);
    let mut faces = render_faces(jail, sources, game, inputs, selection, false, diags);
    if error_count(diags) > errors_before {
        return None;
    }
    let cards = faces
        .prints
        .iter()
        .map(|p| {
            let (face, back) = faces
                .rendered
                .remove(p.card.id.as_str())
                .unwrap_or_default();
            RenderedCard {
                id: p.card.id.clone(),
                kind: p.card.kind.clone(),
                name: p.card.name.clone(),
                count: p.count,
                size: card_box(
                    print,
                    m.kinds.get(&p.card.kind).and_then(|k| k.print.as_ref()),
                ),
                face,
                back,
            }
        })
        .collect();
    Some(CardSet {
        language: m.language.clone(),
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

/// Renders the sheets of `game`. Reports every problem into `diags`;
/// returns the files only when there was no error.
pub fn render(
    jail: &Jail,
    sources: &SourceMap,
    game: &Game,
    inputs: &Inputs,
    selection: &Selection<'_>,
    options: &SheetOptions,
    diags: &mut Vec<Diagnostic>,
) -> Option<Vec<OutputFile>> {
    let errors_before = error_count(diags);
    let m = &game.manifest.manifest;
    let default_print = PrintSettings::default();
    let print = m.print.as_ref().unwrap_or(&default_print);
    let build = resolve_build(print, options);
    let Rendered {
        prints,
        rendered,
        css,
        images,
    } = render_faces(
        jail,
        sources,
        game,
        inputs,
        selection,
        build.ink_saver,
        diags,
    );

    // Geometry: consecutive kinds with the same card box share sheets.
    let mut groups: Vec<(CardBox, Vec<Print<'_>>)> = Vec::new();
    for p in &prints {
        let b = card_box(
            print,
            m.kinds.get(&p.card.kind).and_then(|k| k.print.as_ref()),
        );
        match groups.last_mut() {
            Some((gb, ps)) if *gb == b => ps.push(*p),
            _ => groups.push((b, vec![*p])),
        }
    }
    let mut grids = Vec::new();
    for (b, ps) in &groups {
        match Grid::fit(build.page, *b) {
            Some(g) => grids.push(g),
            None => diags.push(layout_error(game, &ps[0].card.kind, *b, build.page)),
        }
    }
    if error_count(diags) > errors_before {
        return None;
    }
    let html = assemble(game, selection, &build, &css, &groups, &grids, &rendered);
    let mut files = vec![OutputFile {
        path: "index.html".into(),
        bytes: html.into_bytes(),
    }];
    files.extend(image_files(images));
    files.sort_by(|a, b| a.path.cmp(&b.path));
    Some(files)
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
    let m = &game.manifest.manifest;
    let default_print = PrintSettings::default();
    let print = m.print.as_ref().unwrap_or(&default_print);
    let selection = Selection {
        subject: String::new(),
        prints: game
            .pool
            .iter()
            .map(|card| Print { card, count: 1 })
            .collect(),
        notes: Vec::new(),
    };
    let rendered = render_faces(
        jail,
        sources,
        game,
        inputs,
        &selection,
        print.ink_saver,
        diags,
    );
    let cards = rendered
        .rendered
        .into_iter()
        .filter_map(|(id, (face, _))| {
            let card = game.pool.get(id)?;
            let kprint = m.kinds.get(&card.kind).and_then(|k| k.print.as_ref());
            let size = card_box(print, kprint).into();
            Some((id.to_owned(), Face { html: face, size }))
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

/// Lays the rendered cards out on pages and writes the document.
fn assemble(
    game: &Game,
    selection: &Selection<'_>,
    build: &Build,
    css: &str,
    groups: &[(CardBox, Vec<Print<'_>>)],
    grids: &[Grid],
    rendered: &BTreeMap<&str, (String, String)>,
) -> String {
    let m = &game.manifest.manifest;
    let flip = Flip::of(build.duplex, build.page.orientation);
    let (pw, ph) = build.page.size();
    // Each sheet: its grid and its (card, copy) slots.
    let mut sheets: Vec<(&Grid, Vec<(&RawCard, u32)>)> = Vec::new();
    for ((_, prints), grid) in groups.iter().zip(grids) {
        let copies: Vec<(&RawCard, u32)> = prints
            .iter()
            .flat_map(|p| (1..=p.count).map(move |c| (p.card, c)))
            .collect();
        for chunk in copies.chunks(grid.per_page()) {
            sheets.push((grid, chunk.to_vec()));
        }
    }
    let kind_name = |k: &str| {
        m.kinds
            .get(k)
            .map_or(k.to_owned(), |kind| kind.name.clone())
    };
    let mut counts: Vec<(String, usize, u32)> = Vec::new();
    for kind in m.kinds.keys() {
        let ps: Vec<&Print<'_>> = groups
            .iter()
            .flat_map(|(_, p)| p)
            .filter(|p| p.card.kind == *kind)
            .collect();
        if !ps.is_empty() {
            counts.push((kind_name(kind), ps.len(), ps.iter().map(|p| p.count).sum()));
        }
    }
    let mut cover = Cover {
        game: &m.name,
        subject: &selection.subject,
        instructions: [instructions(build, flip), selection.notes.clone()].concat(),
        counts,
        sheets: Vec::new(),
    };
    let per_sheet = if flip.is_some() { 2 } else { 1 };
    // The cover's length depends only on how many sheets there are.
    cover.sheets = sheets
        .iter()
        .map(|_| SheetEntry {
            faces_page: 0,
            backs_page: None,
            kinds: vec![],
            boxes: 0,
            names: vec![],
        })
        .collect();
    let first_page = cover.pages(ph) + 1;
    for (i, (_, slots)) in sheets.iter().enumerate() {
        let faces_page = first_page + i * per_sheet;
        let mut kinds: Vec<String> = Vec::new();
        let mut names: Vec<(String, u32)> = Vec::new();
        for (card, _) in slots {
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
            boxes: slots.len(),
            names,
        };
    }
    let mut body = String::new();
    cover.write(&mut body, ph);
    let empty = (String::new(), String::new());
    for (i, (grid, slots)) in sheets.iter().enumerate() {
        let faces_page = cover.sheets[i].faces_page;
        let marks = grid.marks();
        let placed = |side: Side| -> Vec<Placed<'_>> {
            slots
                .iter()
                .enumerate()
                .map(|(slot, (card, copy))| {
                    let (face, back) = rendered.get(card.id.as_str()).unwrap_or(&empty);
                    let (rect, html) = match (side, flip) {
                        (Side::Backs, Some(f)) => (grid.back(slot, f), back.as_str()),
                        _ => (grid.face(slot), face.as_str()),
                    };
                    Placed {
                        rect,
                        id: &card.id,
                        kind: &card.kind,
                        copy: *copy,
                        slot,
                        html,
                    }
                })
                .collect()
        };
        page::sheet(
            &mut body,
            faces_page,
            Side::Faces,
            grid,
            &placed(Side::Faces),
            &marks,
        );
        if flip.is_some() {
            page::sheet(
                &mut body,
                faces_page + 1,
                Side::Backs,
                grid,
                &placed(Side::Backs),
                &marks,
            );
        }
    }
    let class = format!(
        "paper-{} {}{}",
        build.page.paper.label().to_ascii_lowercase(),
        if build.page.orientation == Orientation::Portrait {
            "portrait"
        } else {
            "landscape"
        },
        if build.ink_saver { " ink-saver" } else { "" }
    );
    let title = format!("{} — print and play", m.name);
    page::document(
        &title,
        &m.language,
        (pw, ph),
        &class,
        &[BASE_CSS, css],
        &body,
    )
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

/// Reports every `{token}` in the card's text that is not a declared icon.
fn check_tokens(
    sources: &SourceMap,
    card: &RawCard,
    icons: &icons::IconSet,
    diags: &mut Vec<Diagnostic>,
) {
    let mut found = Vec::new();
    for (k, v) in &card.fields {
        walk_strings(
            v,
            &format!("/{}", k.replace('~', "~0").replace('/', "~1")),
            &mut found,
        );
    }
    for (pointer, text) in found {
        for (_, token) in icons::tokens(text) {
            if icons.resolve(token).is_some() {
                continue;
            }
            let base = token
                .rsplit_once(':')
                .filter(|(_, n)| n.parse::<u32>().is_ok())
                .map_or(token, |(b, _)| b);
            let hint = crate::suggest::closest(base, icons.names());
            diags.push(
                Diagnostic::error(
                    "sheets::unknown-icon",
                    format!(
                        "`{{{token}}}` in `{}` of card `{}` is not an icon of this game",
                        spans::field(sources, card, &pointer).display,
                        card.id
                    ),
                )
                .at(
                    card.file,
                    spans::field(sources, card, &pointer).value,
                    "unknown icon token",
                )
                .with_help(match hint {
                    Some(h) => format!("did you mean `{{{h}}}`?"),
                    None => format!("declare `{base}` under [icons] in game.toml"),
                }),
            );
        }
    }
}

fn walk_strings<'a>(v: &'a Value, pointer: &str, out: &mut Vec<(String, &'a str)>) {
    match v {
        Value::String(s) => out.push((pointer.to_owned(), s)),
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                walk_strings(item, &format!("{pointer}/{i}"), out);
            }
        }
        Value::Object(map) => {
            for (k, item) in map {
                walk_strings(
                    item,
                    &format!("{pointer}/{}", k.replace('~', "~0").replace('/', "~1")),
                    out,
                );
            }
        }
        _ => {}
    }
}

/// Reads the art of a card, reporting problems at the field.
fn card_images(
    jail: &Jail,
    sources: &SourceMap,
    game: &str,
    card: &RawCard,
    art_fields: &[&str],
    cache: &mut ImageCache,
    diags: &mut Vec<Diagnostic>,
) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for &field in art_fields {
        if out.contains_key(field) {
            continue;
        }
        let Some(value) = card.fields.get(field) else {
            continue;
        };
        let pointer = format!("/{field}");
        let Some(rel) = value.as_str() else {
            diags.push(
                Diagnostic::error(
                    "sheets::image-type",
                    format!("`{field}` of card `{}` must be an image path", card.id),
                )
                .at(
                    card.file,
                    spans::field(sources, card, &pointer).value,
                    "not a path",
                ),
            );
            continue;
        };
        match cache.get(jail, game, rel) {
            Ok(image) => {
                out.insert(field.to_owned(), image.url.clone());
            }
            Err((code, message)) => diags.push(
                Diagnostic::error(code, message)
                    .at(
                        card.file,
                        spans::field(sources, card, &pointer).value,
                        "this image",
                    )
                    .with_help(format!(
                        "art paths are relative to `cards/{game}/` and stay inside the workspace"
                    )),
            ),
        }
    }
    out
}

fn template_error(
    templates: &Templates,
    sources: &SourceMap,
    name: &str,
    e: &handlebars::RenderError,
    card: &RawCard,
) -> Diagnostic {
    let message = format!(
        "template `{}` fails on card `{}`: {}",
        name.strip_prefix("carta/")
            .map_or(format!("{name}.hbs"), |n| format!("(built-in) {n}")),
        card.id,
        templates::render_message(e)
    );
    let d = Diagnostic::error("sheets::template-render", message).with_help(
        "in strict mode a missing field is an error: guard optional fields with `{{#if …}}`",
    );
    match templates.render_place(e, sources) {
        Some((file, span)) => d
            .at(file, span, "fails here")
            .with_label(crate::diag::Label::new(
                card.file,
                card.header.clone(),
                "on this card",
            )),
        None => d.at(card.file, card.header.clone(), "on this card"),
    }
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
