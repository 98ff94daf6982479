//! The card templates of a game: handlebars, strict mode, one file per
//! face or back in `templates/<game>/`, over defaults embedded in carta.
//!
//! | file | is |
//! |---|---|
//! | `<kind>.hbs` | the face of cards of `kind` |
//! | `face.hbs` | the face of every kind without its own |
//! | `<kind>.back.hbs` | the back of cards of `kind` |
//! | `back.hbs` | the back of every kind without its own |
//! | `_<name>.hbs` | a partial, `{{> _name}}` |
//! | `style.css` | CSS added after carta's own |
//!
//! A template that does not parse, or fails on a card, is a diagnostic at
//! the template's line and column.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use handlebars::{Context, Handlebars, RenderError, RenderErrorReason};

use super::icons::IconSet;
use super::{helpers, splice};
use crate::diag::{Diagnostic, FileId, SourceMap, Span};
use crate::game::Game;

/// The embedded default face.
pub const DEFAULT_FACE: &str = include_str!("default/face.hbs");
/// The embedded default back.
pub const DEFAULT_BACK: &str = include_str!("default/back.hbs");
/// carta's own sheet CSS.
pub const BASE_CSS: &str = include_str!("default/sheet.css");

/// A template file of a game, as read from `templates/<game>/`.
#[derive(Debug, Clone)]
pub struct TemplateFile {
    /// The file name within `templates/<game>/` (`intrepido.hbs`).
    pub name: String,
    /// The file in the source map.
    pub file: FileId,
}

/// A game's compiled templates.
pub(super) struct Templates<'g> {
    hb: Handlebars<'g>,
    faces: BTreeMap<String, String>,
    backs: BTreeMap<String, String>,
    files: BTreeMap<String, FileId>,
    /// The faces and backs with their plain partial calls spliced in
    /// (see [`splice`]), by the name of the template they stand for.
    spliced: BTreeMap<String, String>,
    /// Whether a template of the game itself mentions `layout`.
    mentions_layout: bool,
    /// The game's extra CSS (`style.css`), if any.
    pub css: String,
}

impl std::fmt::Debug for Templates<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Templates")
            .field("faces", &self.faces)
            .finish_non_exhaustive()
    }
}

impl<'g> Templates<'g> {
    /// Compiles the game's templates over the defaults. `kinds` are the
    /// game's kind ids; a file that names no kind (and is not a partial) is
    /// a warning, since it would never print.
    pub(super) fn compile(
        (files, usable): (&[TemplateFile], bool),
        sources: &SourceMap,
        kinds: &[String],
        icons: &Arc<IconSet>,
        game: &'g Game,
        diags: &mut Vec<Diagnostic>,
    ) -> Templates<'g> {
        let mut hb = Handlebars::new();
        hb.set_strict_mode(true);
        hb.set_prevent_indent(true);
        helpers::register(&mut hb, icons, game);
        hb.register_helper(splice::HASH_SCOPE, Box::new(splice::HashScope));
        for (name, text) in [("carta/face", DEFAULT_FACE), ("carta/back", DEFAULT_BACK)] {
            hb.register_template_string(name, text)
                .expect("the embedded templates parse");
        }
        let mut t = Templates {
            hb,
            faces: BTreeMap::new(),
            backs: BTreeMap::new(),
            files: BTreeMap::new(),
            spliced: BTreeMap::new(),
            mentions_layout: false,
            css: String::new(),
        };
        // A game's templates were checked with the game (and their problems
        // reported then): one cycle of partials would overflow the
        // renderer's stack, so with any problem none of them is used.
        for f in files.iter().filter(|f| usable || f.name == "style.css") {
            t.add(f, sources, kinds, diags);
        }
        for kind in kinds {
            let face = [kind.as_str(), "face"]
                .into_iter()
                .find(|n| t.files.contains_key(*n))
                .unwrap_or("carta/face");
            let back = [format!("{kind}.back"), "back".into()]
                .into_iter()
                .find(|n| t.files.contains_key(n))
                .unwrap_or_else(|| "carta/back".into());
            t.faces.insert(kind.clone(), face.to_owned());
            t.backs.insert(kind.clone(), back);
        }
        t.splice();
        t
    }

    /// Registers, beside each face and back that calls plain partials, the
    /// same template with those partials spliced in.
    fn splice(&mut self) {
        let names: BTreeSet<String> = self
            .faces
            .values()
            .chain(self.backs.values())
            .cloned()
            .collect();
        for name in names {
            let all = self.hb.get_templates();
            let Some(spliced) = all.get(&name).and_then(|t| splice::splice(t, all)) else {
                continue;
            };
            let as_name = format!("carta/spliced/{name}");
            self.hb.register_template(&as_name, spliced);
            self.spliced.insert(name, as_name);
        }
    }

    fn add(
        &mut self,
        f: &TemplateFile,
        sources: &SourceMap,
        kinds: &[String],
        diags: &mut Vec<Diagnostic>,
    ) {
        let text = &sources.get(f.file).text;
        if f.name == "style.css" {
            self.css = text.to_string();
            return;
        }
        self.mentions_layout |= text.contains("layout");
        let Some(name) = f.name.strip_suffix(".hbs") else {
            return;
        };
        let kind = name.strip_suffix(".back").unwrap_or(name);
        let known = name.starts_with('_')
            || ["face", "back"].contains(&name)
            || kinds.iter().any(|k| k == kind);
        if !known {
            let hint = crate::suggest::closest(kind, kinds.iter().map(String::as_str));
            diags.push(
                Diagnostic::warning(
                    "sheets::template-unused",
                    format!("template `{}` is the face or back of no kind of this game", f.name),
                )
                .at(f.file, 0..0, "never printed")
                .with_help(match hint {
                    Some(h) => format!("did you mean `{h}.hbs`? Partials start with `_`"),
                    None => "name it `<kind>.hbs`, `<kind>.back.hbs`, `face.hbs`, `back.hbs`, or `_partial.hbs`".into(),
                }),
            );
        }
        match self.hb.register_template_string(name, text.as_ref()) {
            Ok(()) => {
                self.files.insert(name.to_owned(), f.file);
            }
            Err(e) => diags.push(crate::game::partials::syntax_error(&e, f.file, text)),
        }
    }

    /// The template name of `kind`'s face.
    pub(super) fn face_of(&self, kind: &str) -> &str {
        self.faces.get(kind).map_or("carta/face", String::as_str)
    }

    /// Whether the face of `kind` may read the default face's `layout`: it
    /// is the default face, or some template of the game names `layout`.
    /// Laying a card out costs a share of a build; most games' own
    /// templates never read it.
    pub(super) fn reads_layout(&self, kind: &str) -> bool {
        self.mentions_layout || self.face_of(kind) == "carta/face"
    }

    /// The template name of `kind`'s back.
    pub(super) fn back_of(&self, kind: &str) -> &str {
        self.backs.get(kind).map_or("carta/back", String::as_str)
    }

    /// Renders template `name` with `data` (one card's view, made into a
    /// context once for its face and its back): its spliced form when it
    /// has one, and the template itself when that fails, so that an error
    /// names the template and line it happened in.
    ///
    /// # Errors
    /// When the template fails on this data (strict mode: a missing field).
    pub(super) fn render(&self, name: &str, data: &Context) -> Result<String, RenderError> {
        if let Some(Ok(html)) = self
            .spliced
            .get(name)
            .map(|spliced| self.hb.render_with_context(spliced, data))
        {
            return Ok(html);
        }
        self.hb.render_with_context(name, data)
    }

    /// Template `name` rendered in its spliced form, if it has one.
    #[cfg(test)]
    pub(super) fn render_spliced(
        &self,
        name: &str,
        data: &Context,
    ) -> Option<Result<String, RenderError>> {
        let spliced = self.spliced.get(name)?;
        Some(self.hb.render_with_context(spliced, data))
    }

    /// How many partial calls that copy the whole context the spliced
    /// templates still make.
    #[cfg(test)]
    pub(super) fn calls_left(&self) -> usize {
        self.spliced
            .values()
            .filter_map(|name| self.hb.get_template(name))
            .map(splice::calls_left)
            .sum()
    }

    /// Template `name` rendered as written, through handlebars' partials.
    #[cfg(test)]
    pub(super) fn render_unspliced(
        &self,
        name: &str,
        data: &Context,
    ) -> Result<String, RenderError> {
        self.hb.render_with_context(name, data)
    }

    /// A render error as a diagnostic at the template's line, or `None`
    /// when it happened in an embedded template (then the caller reports
    /// it at the card).
    pub(super) fn render_place(
        &self,
        e: &RenderError,
        sources: &SourceMap,
    ) -> Option<(FileId, Span)> {
        let file = *self.files.get(e.template_name.as_deref()?)?;
        let text = &sources.get(file).text;
        let at =
            crate::game::partials::offset(text, e.line_no.unwrap_or(1), e.column_no.unwrap_or(1));
        Some((file, at..at))
    }
}

/// The message of a render error, without handlebars' own place prefix.
pub(super) fn render_message(e: &RenderError) -> String {
    match e.reason() {
        RenderErrorReason::MissingVariable(Some(path)) => format!("`{path}` is missing"),
        RenderErrorReason::MissingVariable(None) => "a value is missing".into(),
        other => other.to_string(),
    }
}
