//! The inputs of the sheets besides the game: its template files.

use super::budget;
use super::{Print, TemplateFile};
use crate::diag::Diagnostics;
use crate::game::Game;
use crate::load::{LoadError, Workspace};

/// The template files of a game: the `.hbs` files its compile read and
/// checked, and `style.css`, all in the source map (so that template
/// errors point into them).
#[derive(Debug, Clone, Default)]
pub struct Inputs {
    /// `templates/<game>/*.hbs` and `style.css`, sorted by name.
    pub templates: Vec<TemplateFile>,
    /// Whether the compile found the templates safe to render (no cycle of
    /// partials, no nesting too deep); when not, only `style.css` is used.
    pub sound: bool,
}

impl Inputs {
    /// The templates of `game` as its compile kept them, and its
    /// `style.css`, read here (absent is fine: the defaults print).
    ///
    /// # Errors
    /// When the template folder cannot be listed or `style.css` read.
    pub fn read(
        ws: &mut Workspace,
        game: &Game,
        diags: &mut Diagnostics,
    ) -> Result<Inputs, LoadError> {
        let mut templates: Vec<TemplateFile> = game
            .templates
            .files
            .iter()
            .map(|(name, file)| TemplateFile {
                name: name.clone(),
                file: *file,
            })
            .collect();
        let names = crate::i18n::phrases::template_names(ws, game.id())?;
        if names.iter().any(|n| n == "style.css") {
            let rel = crate::i18n::phrases::template_path(game.id(), "style.css");
            let file = ws.read(&rel, diags)?;
            templates.push(TemplateFile {
                name: "style.css".into(),
                file,
            });
            templates.sort_by(|a, b| a.name.cmp(&b.name));
        }
        Ok(Inputs {
            templates,
            sound: game.templates.sound,
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
        Inputs::read(ws, game, diags).map(Some)
    }
}
