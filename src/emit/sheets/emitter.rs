//! The sheets emitter: renders a selection of a game's cards and stages the
//! files of `<game>/sheets/` (the whole pool) or `<game>/decks/<deck>/` (one
//! deck), replaced whole.

use std::io::Write;
use std::path::{Path, PathBuf};

use super::{
    FacesAt, Inputs, OutputFile, Print, Selection, SheetOptions, Subject, pool_prints, render,
};
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
    /// Whether faces rendered by the last build are reused (see [`FacesAt`]).
    cached: bool,
}

impl<'g> SheetsEmitter<'g> {
    /// Every card of `game`, `copies` times, into `<game>/sheets/`.
    pub fn pool(game: &'g Game, options: SheetOptions) -> Self {
        SheetsEmitter {
            options,
            selection: Selection {
                subject: Subject::Game,
                prints: pool_prints(game),
                notes: Vec::new(),
            },
            dir: PathBuf::from("sheets"),
            nested: false,
            cached: false,
        }
    }

    /// The cards of deck `name` with their counts, into `<game>/decks/<stem>/`.
    pub fn deck(prints: Vec<Print<'g>>, name: &str, stem: &str, options: SheetOptions) -> Self {
        SheetsEmitter {
            options,
            selection: Selection {
                subject: Subject::Deck(name.to_owned()),
                prints,
                notes: Vec::new(),
            },
            dir: PathBuf::from("decks").join(stem),
            nested: false,
            cached: false,
        }
    }

    /// The cards of a reprint (`selection`, its subject a
    /// [`Subject::Reprint`]), into `<game>/reprint/`.
    pub fn reprint(selection: Selection<'g>, options: SheetOptions) -> Self {
        SheetsEmitter {
            options,
            selection,
            dir: PathBuf::from("reprint"),
            nested: false,
            cached: false,
        }
    }

    /// The same sheets in language `lang`, into `<dir>/<lang>/` inside the
    /// source language's folder (which the same build must stage first),
    /// with `notes` on the cover (what kept its source text).
    #[must_use]
    pub fn in_language(mut self, lang: &str, notes: Vec<String>) -> Self {
        self.dir = self.dir.join(lang);
        self.nested = true;
        self.with_notes(notes)
    }

    /// The same sheets with `notes` added to the cover's instructions (the
    /// language report of a translated export).
    #[must_use]
    pub fn with_notes(mut self, notes: Vec<String>) -> Self {
        self.selection.notes = notes;
        self
    }

    /// The same sheets, reusing each face and back the last build of the
    /// same folder rendered from the same inputs, and keeping this build's
    /// for the next (`build/.cache/<game>.<folder>.faces`); the output is
    /// byte for byte the same.
    #[must_use]
    pub fn cached(mut self, cached: bool) -> Self {
        self.cached = cached;
        self
    }
}

impl SheetsEmitter<'_> {
    /// How many card faces the sheets print, every copy counted.
    pub fn copies(&self) -> usize {
        self.selection.prints.iter().map(|p| p.count as usize).sum()
    }

    /// The folder the sheets are written to, relative to the output
    /// folder: `<game>/sheets`, `<game>/decks/<stem>` (and `/<lang>`).
    pub fn folder(&self, game: &Game) -> PathBuf {
        PathBuf::from(game.id()).join(&self.dir)
    }

    /// Renders the sheets, streaming `index.html` into `index` (see
    /// [`render`]) and counting the printed copies against the run's limit
    /// in `stage`; returns the art files to write beside it, `None` once
    /// the problems are reported into `diags` (then `index` holds nothing
    /// usable).
    ///
    /// # Errors
    /// When the game's templates cannot be read or `index` written (the
    /// error names `index_path`).
    pub fn write(
        &self,
        game: &Game,
        ws: &mut Workspace,
        stage: &mut Stage,
        (index, index_path): (&mut dyn Write, &Path),
        diags: &mut Diagnostics,
    ) -> Result<Option<Vec<OutputFile>>, EmitError> {
        let Some(inputs) = Inputs::to_print(ws, stage, game, &self.selection.prints, diags)? else {
            return Ok(None);
        };
        let mut found = Vec::new();
        let name = format!(
            "{}.{}.faces",
            game.id(),
            self.dir.to_string_lossy().replace(['/', '\\'], "-")
        );
        let output = if self.cached {
            stage.committed(&self.folder(game).join("index.html"))
        } else {
            None
        };
        let faces = self.cached.then(|| FacesAt {
            root: ws.root(),
            name: &name,
            output,
        });
        let written = render(
            ws.jail(),
            &ws.sources,
            game,
            &inputs,
            &self.selection,
            (&self.options, faces),
            index,
            &mut found,
        )
        .and_then(|files| index.flush().map(|()| files));
        diags.extend(found);
        written.map_err(|source| EmitError::Write {
            path: index_path.to_path_buf(),
            source,
        })
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
        let dir = self.folder(game);
        if !self.nested {
            stage.folder(&dir)?;
        }
        let path = dir.join("index.html");
        let mut index = stage.create(&path)?;
        let files = self.write(game, ws, stage, (&mut index, &path), diags)?;
        for file in files.into_iter().flatten() {
            stage.write(&dir.join(&file.path), &file.bytes)?;
        }
        Ok(())
    }
}
