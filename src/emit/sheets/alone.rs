//! Cards rendered one by one, each face and back held whole: for the
//! outputs that place cards themselves (the exports, the deck builder's
//! card browser) rather than on sheets streamed to disk.

use std::collections::BTreeMap;

use super::assets::ImageCache;
use super::geometry::CardBox;
use super::memo::{self, FaceMemo};
use super::renderer::{self, Failures, Renderer};
use super::reuse;
use super::{
    BASE_CSS, DEFAULT_BLEED, Inputs, OutputFile, Print, Selection, SizeView, Subject, error_count,
    image_files, sheet_order,
};
use crate::diag::{Diagnostic, Diagnostics, SourceMap};
use crate::game::Game;
use crate::load::{Jail, Workspace};

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
/// Renders the face and back of every card of `selection`, reporting
/// template and art problems into `diags`.
fn render_faces<'a>(
    jail: &Jail,
    sources: &SourceMap,
    game: &Game,
    inputs: &Inputs,
    selection: &Selection<'a>,
    (ink_saver, memo): (bool, Option<&mut FaceMemo>),
    diags: &mut Vec<Diagnostic>,
) -> Rendered<'a> {
    let renderer = Renderer::new(
        jail,
        sources,
        game,
        inputs,
        (ink_saver, DEFAULT_BLEED),
        diags,
    );
    let prints = sheet_order(game, selection);
    let mut images = ImageCache::default();
    let arts = renderer.prepare_all(jail, sources, &prints, &mut images, diags);
    let arts: Vec<&BTreeMap<String, String>> = arts.iter().collect();
    let mut rendered = match memo {
        Some(memo) => {
            let key = reuse::game_key(game, inputs, sources, renderer.icons(), ink_saver);
            memo::render_remembered(&renderer, (game, key), (&prints, &arts), memo)
        }
        None => renderer.render_all(&prints, &arts),
    };
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
    /// The smallest readable size of their text, in points.
    pub min_text: f64,
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
    let faces = render_faces(jail, sources, game, inputs, selection, (false, None), diags);
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
        min_text: super::min_text_size(game),
    })
}
/// [`render_cards`] of `game`, compiled from `ws`, with the problems
/// reported into `diags`.
pub fn render_cards_in(
    ws: &Workspace,
    game: &Game,
    inputs: &Inputs,
    selection: &Selection<'_>,
    diags: &mut Diagnostics,
) -> Option<CardSet> {
    let mut found = Vec::new();
    let set = render_cards(ws.jail(), &ws.sources, game, inputs, selection, &mut found);
    diags.extend(found);
    set
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
/// template fails has an empty face. With `memo`, the faces it remembers
/// from the last round are taken again when nothing they were rendered
/// from changed (the faces are the same), and this round's remembered.
pub fn faces(
    (jail, sources): (&Jail, &SourceMap),
    game: &Game,
    inputs: &Inputs,
    memo: Option<&mut FaceMemo>,
    diags: &mut Vec<Diagnostic>,
) -> Faces {
    let ink_saver = game
        .manifest
        .manifest
        .print
        .as_ref()
        .is_some_and(|p| p.ink_saver);
    let selection = Selection {
        subject: Subject::Cards,
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
        (ink_saver, memo),
        diags,
    );
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
