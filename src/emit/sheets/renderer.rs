//! One game's cards rendered one at a time: the templates compiled once,
//! each card's art read before it renders ([`Renderer::prepare`], in card
//! order, so that each file is read once and its problems are reported in
//! order), then faces and backs rendered on every core
//! ([`Renderer::render_all`]) from the game itself — no copy of the pool is
//! built for the templates, so what a build holds does not grow with the
//! number of cards rendered.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::sync::Arc;

use handlebars::{Context, RenderError};
use rayon::prelude::*;
use serde_json::Value;

use super::assets::{self, ImageCache};
use super::geometry::CardBox;
use super::icons::IconSet;
use super::templates::{self, Templates};
use super::view::{CardView, GameView};
use super::{Inputs, Print, card_box, display, layout, spans};
use crate::config::{ArtMode, PrintSettings};
use crate::diag::{Diagnostic, SourceMap};
use crate::emit::fields::Fields;
use crate::game::Game;
use crate::load::Jail;
use crate::validate::RawCard;
use crate::validate::display::FaceField;

/// A game's compiled templates and what every card's view shares.
pub(super) struct Renderer<'g> {
    game: &'g Game,
    print: PrintSettings,
    templates: Templates<'g>,
    icons: Arc<IconSet>,
    /// Per kind, the fields that hold art: the kind's `print.images` and
    /// the art of its default face.
    art_fields: BTreeMap<String, Vec<String>>,
    view: GameView,
    ink_saver: bool,
    /// The bleed of cards whose manifest gives none.
    bleed: f64,
}

/// A card's face and back as rendered, and the templates that failed on it.
pub(super) struct Rendered {
    /// The face's HTML (empty when its template failed).
    pub face: String,
    /// The back's HTML (empty when its template failed).
    pub back: String,
    /// The card's box, as its templates saw it.
    pub size: CardBox,
    failures: Vec<(String, RenderError)>,
}

impl Rendered {
    /// A face and back rendered by an earlier build (see `reuse`).
    pub(super) fn reused(face: String, back: String, size: CardBox) -> Self {
        Rendered {
            face,
            back,
            size,
            failures: Vec::new(),
        }
    }

    /// Whether a template failed on the card.
    pub(super) fn failed(&self) -> bool {
        !self.failures.is_empty()
    }
}

/// Template failures, each reported once, at the first card (in sheet
/// order) it happened on.
#[derive(Default)]
pub(super) struct Failures<'a> {
    first: BTreeMap<FailureKey, (RenderError, &'a RawCard)>,
}

/// What makes two failures the same: the template, the line and column,
/// the message.
type FailureKey = (String, Option<usize>, Option<usize>, String);

impl<'g> Renderer<'g> {
    /// Compiles `game`'s templates and icons, reporting their problems;
    /// its cards print with or without ink saving, and with `bleed` where
    /// the manifest gives none.
    pub(super) fn new(
        jail: &Jail,
        sources: &SourceMap,
        game: &'g Game,
        inputs: &Inputs,
        (ink_saver, bleed): (bool, f64),
        diags: &mut Vec<Diagnostic>,
    ) -> Self {
        let m = &game.manifest.manifest;
        let icons = Arc::new(assets::load_icons(
            jail,
            &m.id,
            &m.icons,
            (game.manifest.file, &game.manifest.spans),
            diags,
        ));
        let kinds = m.kind_ids();
        let templates = Templates::compile(
            (&inputs.templates, inputs.sound),
            sources,
            &kinds,
            &icons,
            game,
            diags,
        );
        let art_fields = kinds
            .iter()
            .map(|kind| (kind.clone(), crate::art::art_fields(m, &game.schemas, kind)))
            .collect();
        Renderer {
            game,
            print: m.print.clone().unwrap_or_default(),
            templates,
            icons,
            art_fields,
            view: GameView {
                id: m.id.clone(),
                name: m.name.clone(),
                language: m.language.clone(),
            },
            ink_saver,
            bleed,
        }
    }

    /// The card box of cards of `kind`.
    pub(super) fn card_box(&self, kind: &str) -> CardBox {
        let m = &self.game.manifest.manifest;
        card_box(
            &self.print,
            m.kinds.get(kind).and_then(|k| k.print.as_ref()),
            self.bleed,
        )
    }

    /// The corner radius of cards of `kind`, in mm.
    pub(super) fn corner_radius(&self, kind: &str) -> f64 {
        let m = &self.game.manifest.manifest;
        super::corner_radius(
            &self.print,
            m.kinds.get(kind).and_then(|k| k.print.as_ref()),
        )
    }

    /// The game's icons, as its templates print them.
    pub(super) fn icons(&self) -> &IconSet {
        &self.icons
    }

    /// The game's own CSS (`style.css`).
    pub(super) fn css(&self) -> &str {
        &self.templates.css
    }

    /// Reads each print's art into `cache`, reporting problems (its icon
    /// tokens were checked with its card file: `markup::check_icons`);
    /// returns each print's art URLs by field, in the order of `prints`.
    pub(super) fn prepare_all(
        &self,
        jail: &Jail,
        sources: &SourceMap,
        prints: &[Print<'_>],
        cache: &mut ImageCache,
        diags: &mut Vec<Diagnostic>,
    ) -> Vec<BTreeMap<String, String>> {
        let art: Vec<ArtValues<'_>> = prints
            .par_iter()
            .map(|p| {
                let names = self
                    .art_fields
                    .get(&p.card.kind)
                    .map_or(&[][..], Vec::as_slice);
                let values = Fields::of(p.card).pick(names);
                names
                    .iter()
                    .zip(values)
                    .filter_map(|(f, value)| Some((f.as_str(), value?)))
                    .collect()
            })
            .collect();
        prints
            .iter()
            .zip(art)
            .map(|(p, art)| card_images(jail, sources, &self.view.id, p.card, &art, cache, diags))
            .collect()
    }

    /// Renders every print (with its art from [`Renderer::prepare`]) on
    /// every core; the results keep the order of `prints`.
    pub(super) fn render_all(
        &self,
        prints: &[Print<'_>],
        images: &[&BTreeMap<String, String>],
    ) -> Vec<Rendered> {
        prints
            .par_iter()
            .zip(images.par_iter())
            .map(|(p, images)| self.render(*p, images))
            .collect()
    }

    /// Renders the face and back of one print.
    pub(super) fn render(&self, p: Print<'_>, images: &BTreeMap<String, String>) -> Rendered {
        let face_name = self.templates.face_of(&p.card.kind);
        let size = self.card_box(&p.card.kind);
        let context = match self.context(p, size, images) {
            Ok(context) => context,
            Err(e) => {
                let e = handlebars::RenderErrorReason::SerdeError(e).into();
                return Rendered {
                    face: String::new(),
                    back: String::new(),
                    size,
                    failures: vec![(face_name.to_owned(), e)],
                };
            }
        };
        let mut failures = Vec::new();
        let mut one = |name: &str| match self.templates.render(name, &context) {
            Ok(mut html) => {
                // handlebars starts every output with room for more than a
                // face, and every face is kept: the slack is given back.
                html.shrink_to_fit();
                html
            }
            Err(e) => {
                failures.push((name.to_owned(), e));
                String::new()
            }
        };
        let face = one(face_name);
        let back = one(self.templates.back_of(&p.card.kind));
        Rendered {
            face,
            back,
            size,
            failures,
        }
    }

    /// The default face's fields of `kind` (`face`), each titled in the
    /// language printed: its translated title where the game's catalog
    /// has one, else the schema's.
    fn titled<'f>(&self, kind: &str, face: Option<&'f [FaceField]>) -> Cow<'f, [FaceField]> {
        let face = face.unwrap_or_default();
        let lang = &self.game.manifest.manifest.language;
        let i18n = &self.game.i18n;
        if face
            .iter()
            .all(|f| i18n.title(lang, kind, &f.key).is_none())
        {
            return Cow::Borrowed(face);
        }
        let mut face = face.to_vec();
        for f in &mut face {
            if let Some(t) = i18n.title(lang, kind, &f.key) {
                t.clone_into(&mut f.title);
            }
        }
        Cow::Owned(face)
    }

    /// What a print's templates see: its [`CardView`], as one context for
    /// its face and its back.
    fn context(
        &self,
        p: Print<'_>,
        size: CardBox,
        images: &BTreeMap<String, String>,
    ) -> Result<Context, serde_json::Error> {
        let card = p.card;
        let m = &self.game.manifest.manifest;
        let kind = m.kinds.get(&card.kind);
        let kprint = kind.and_then(|k| k.print.as_ref());
        let display = self.game.schemas.kind(&card.kind);
        let raw = card.all_fields();
        let fields = display::display_fields(card, &raw, self.game);
        let empty = serde_json::Map::new();
        let view = CardView {
            id: &card.id,
            kind: &card.kind,
            kind_name: kind.map_or(card.kind.as_str(), |k| k.name.as_str()),
            name: &card.name,
            copies: p.count,
            errata: &card.errata,
            version: crate::validate::errata::current_version(&card.errata),
            layout: self.templates.reads_layout(&card.kind).then(|| {
                layout::layout(
                    &self.titled(&card.kind, display.map(|d| self.game.schemas.face(d))),
                    &fields,
                    images,
                    layout::KindLook {
                        name: kind.map_or(card.kind.as_str(), |k| k.name.as_str()),
                        full_bleed: kprint.is_some_and(|k| k.art == Some(ArtMode::FullBleed)),
                    },
                )
            }),
            // Both put in below: the display fields are this card's own
            // copy, and so are the raw ones when the card keeps them packed;
            // moving them saves serializing every field again.
            fields: &empty,
            raw: &empty,
            images: images.clone(),
            back: kprint.and_then(|k| k.back.as_deref()),
            game: &self.view,
            size: size.into(),
            ink_saver: self.ink_saver,
        };
        let mut data = serde_json::to_value(&view)?;
        data["fields"] = Value::Object(fields);
        data["raw"] = Value::Object(raw.into_owned());
        Ok(Context::from(data))
    }
}

impl<'a> Failures<'a> {
    /// Keeps the failures of `card`'s render that were not seen before.
    pub(super) fn add(&mut self, card: &'a RawCard, rendered: &mut Rendered) {
        for (name, e) in rendered.failures.drain(..) {
            let key = (name, e.line_no, e.column_no, templates::render_message(&e));
            self.first.entry(key).or_insert((e, card));
        }
    }

    /// Reports every failure kept.
    pub(super) fn report(
        self,
        renderer: &Renderer<'_>,
        sources: &SourceMap,
        diags: &mut Vec<Diagnostic>,
    ) {
        for ((name, ..), (e, card)) in self.first {
            diags.push(template_error(
                &renderer.templates,
                sources,
                &name,
                &e,
                card,
            ));
        }
    }
}

/// A card's art fields and their values.
type ArtValues<'a> = Vec<(&'a str, Value)>;

/// Reads the art of a card (its art fields' values), reporting problems
/// at the field.
fn card_images(
    jail: &Jail,
    sources: &SourceMap,
    game: &str,
    card: &RawCard,
    art: &[(&str, Value)],
    cache: &mut ImageCache,
    diags: &mut Vec<Diagnostic>,
) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for &(field, ref value) in art {
        if out.contains_key(field) {
            continue;
        }
        let at = || spans::field(sources, jail, card, &format!("/{field}")).value;
        let Some(rel) = value.as_str() else {
            diags.push(
                Diagnostic::error(
                    "sheets::image-type",
                    format!("`{field}` of card `{}` must be an image path", card.id),
                )
                .at(card.file, at(), "not a path"),
            );
            continue;
        };
        match cache.get(jail, game, rel) {
            Ok(image) => {
                out.insert(field.to_owned(), image.url.clone());
            }
            Err((code, message)) => diags.push(
                Diagnostic::error(code, message)
                    .at(card.file, at(), "this image")
                    .with_help(format!(
                        "art paths are relative to `cards/{game}/` and stay inside the workspace"
                    )),
            ),
        }
    }
    out
}

fn template_error(
    templates: &Templates<'_>,
    sources: &SourceMap,
    name: &str,
    e: &RenderError,
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

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::diag::Diagnostics;
    use crate::emit::sheets::pool_prints;
    use crate::game::{Decks, Keep, compile};
    use crate::load::Workspace;

    /// Every card of every shipped game prints the very same face and back
    /// from its spliced templates as through handlebars' partials, and every
    /// partial call of the games is spliced.
    #[test]
    fn spliced_templates_print_every_shipped_card_as_handlebars_does() {
        let mut ws = Workspace::open(Path::new(env!("CARGO_MANIFEST_DIR"))).unwrap();
        let mut diags = Diagnostics::default();
        let (mut spliced, mut cards) = (0, 0);
        for game in ws.game_ids().unwrap() {
            let g = compile(&mut ws, &game, Decks::Skip, Keep::All, &mut diags)
                .unwrap()
                .unwrap();
            let inputs = Inputs::read(&mut ws, &g, &mut diags).unwrap();
            let mut found = Vec::new();
            let r = Renderer::new(
                ws.jail(),
                &ws.sources,
                &g,
                &inputs,
                (false, crate::config::SHEET_BLEED),
                &mut found,
            );
            let prints = pool_prints(&g);
            let mut images = assets::ImageCache::default();
            let arts = r.prepare_all(ws.jail(), &ws.sources, &prints, &mut images, &mut found);
            for (p, art) in prints.iter().zip(&arts) {
                let context = r.context(*p, r.card_box(&p.card.kind), art).unwrap();
                let kind = &p.card.kind;
                for name in [r.templates.face_of(kind), r.templates.back_of(kind)] {
                    let Some(html) = r.templates.render_spliced(name, &context) else {
                        continue;
                    };
                    let html = html.unwrap_or_else(|e| panic!("{game} {name}: {e}"));
                    assert_eq!(html, r.templates.render_unspliced(name, &context).unwrap());
                    spliced += 1;
                }
                cards += 1;
            }
            // No shipped partial reads anything it could tell a splice by:
            // the only calls left copy just their context parameter.
            assert_eq!(r.templates.calls_left(), 0, "{game}");
        }
        assert!(cards > 100 && spliced > 50, "{spliced} of {cards} cards");
    }
}
