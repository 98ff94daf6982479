//! The sheets emitter: renders a selection of a game's cards and stages the
//! files of `<game>/sheets/` (the whole pool) or `<game>/decks/<deck>/` (one
//! deck), replaced whole.

use std::path::PathBuf;

use super::{Inputs, Print, Selection, SheetOptions, budget, pool_prints, render};
use crate::diag::Diagnostics;
use crate::emit::{EmitError, Emitter, Stage};
use crate::game::Game;
use crate::load::Workspace;

/// Print-and-play sheets of some of a game's cards.
#[derive(Debug, Clone)]
pub struct SheetsEmitter<'g> {
    options: SheetOptions,
    selection: Selection<'g>,
    /// The folder under the game's output folder.
    dir: PathBuf,
    /// Whether `dir` lies in the folder of another sheets emitter of the
    /// same build (a language's sheets in the source language's), which
    /// replaces it whole.
    nested: bool,
}

impl<'g> SheetsEmitter<'g> {
    /// Every card of `game`, `copies` times, into `<game>/sheets/`.
    pub fn pool(game: &'g Game, options: SheetOptions) -> Self {
        SheetsEmitter {
            options,
            selection: Selection {
                subject: "Every card of the game".into(),
                prints: pool_prints(game),
                notes: Vec::new(),
            },
            dir: PathBuf::from("sheets"),
            nested: false,
        }
    }

    /// The cards of deck `name` with their counts, into `<game>/decks/<stem>/`.
    pub fn deck(prints: Vec<Print<'g>>, name: &str, stem: &str, options: SheetOptions) -> Self {
        SheetsEmitter {
            options,
            selection: Selection {
                subject: format!("Deck: {name}"),
                prints,
                notes: Vec::new(),
            },
            dir: PathBuf::from("decks").join(stem),
            nested: false,
        }
    }

    /// The same sheets in language `lang`, into `<dir>/<lang>/` inside the
    /// source language's folder (which the same build must stage first),
    /// with `notes` on the cover (what kept its source text).
    pub fn in_language(mut self, lang: &str, notes: Vec<String>) -> Self {
        self.dir = self.dir.join(lang);
        self.selection.notes = notes;
        self.nested = true;
        self
    }
}

impl Emitter for SheetsEmitter<'_> {
    fn name(&self) -> &'static str {
        "sheets"
    }

    fn emit(
        &self,
        game: &Game,
        ws: &mut Workspace,
        stage: &mut Stage,
        diags: &mut Diagnostics,
    ) -> Result<(), EmitError> {
        let mut found = Vec::new();
        let limit = ws.limits().max_print_copies;
        let prints = &self.selection.prints;
        if !budget::spend(stage.printed(), limit, prints, &ws.sources, &mut found) {
            diags.extend(found);
            return Ok(());
        }
        let inputs = Inputs::read(ws, game.id(), diags)?;
        let files = render(
            ws.jail(),
            &ws.sources,
            game,
            &inputs,
            &self.selection,
            &self.options,
            &mut found,
        );
        diags.extend(found);
        if let Some(files) = files {
            let dir = PathBuf::from(game.id()).join(&self.dir);
            if !self.nested {
                stage.folder(&dir)?;
            }
            for file in files {
                stage.write(&dir.join(&file.path), &file.bytes)?;
            }
        }
        Ok(())
    }
}
