//! The inputs of the sheets besides the game: its template files.

use super::budget;
use super::{Print, TemplateFile};
use crate::diag::Diagnostics;
use crate::game::Game;
use crate::load::{LoadError, Workspace};

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
