//! `carta export pdf`: a game's or a deck's print-and-play sheets as one
//! PDF, `<game>/pdf/<stem>.pdf`, printed by Chromium from the same HTML
//! `carta print` writes: the same pages, sizes and card positions.

use super::cards::unit;
use super::chromium::{Chromium, Job, Shot, Site};
use super::sheets::{SheetsEmitter, is_cut_file};
use super::{EmitError, Emitter, Stage};
use crate::diag::Diagnostics;
use crate::game::Game;
use crate::load::Workspace;

/// The PDF of a selection of a game's cards.
#[derive(Debug, Clone)]
pub struct PdfEmitter<'g> {
    /// The sheets to print: a game's or a deck's, with their print settings.
    pub sheets: SheetsEmitter<'g>,
    /// The PDF's file name: the game id or the deck file's stem.
    pub stem: String,
    /// The browser.
    pub chromium: Chromium,
}

impl Emitter for PdfEmitter<'_> {
    fn name(&self) -> &'static str {
        "pdf"
    }

    fn emit(
        &self,
        game: &Game,
        ws: &mut Workspace,
        stage: &mut Stage,
        diags: &mut Diagnostics,
    ) -> Result<(), EmitError> {
        let scratch = tempfile::tempdir().map_err(|source| EmitError::Write {
            path: std::env::temp_dir(),
            source,
        })?;
        let page = scratch.path().join("index.html");
        let mut index = std::fs::File::create(&page)
            .map(std::io::BufWriter::new)
            .map_err(|source| EmitError::Write {
                path: page.clone(),
                source,
            })?;
        let written = self
            .sheets
            .write(game, ws, stage, (&mut index, &page), diags)?;
        drop(index);
        let Some(files) = written else {
            return Ok(());
        };
        for file in &files {
            let path = scratch.path().join(&file.path);
            let written = path
                .parent()
                .map_or(Ok(()), std::fs::create_dir_all)
                .and_then(|()| std::fs::write(&path, &file.bytes));
            written.map_err(|source| EmitError::Write { path, source })?;
        }
        let out = scratch.path().join("sheets.pdf");
        // The browser may load the page and the art written beside it.
        let site = Site {
            root: scratch.path().to_path_buf(),
            files: files.iter().map(|f| f.path.clone()).collect(),
        };
        let job = Job {
            page: "index.html".to_owned(),
            out: out.clone(),
            about: format!("the sheets of `{}`", self.stem),
            cards: self.sheets.copies().saturating_mul(2),
            shot: Shot::Pdf,
        };
        self.chromium.run_all(&site, &[job], 1, "pdf")?;
        let bytes = std::fs::read(&out).map_err(|source| EmitError::Write {
            path: out.clone(),
            source,
        })?;
        let folder = unit(game, "pdf");
        // A cutting machine's cut files go beside the PDF they cut.
        for file in files.iter().filter(|f| is_cut_file(&f.path)) {
            stage.write(
                &folder.join(format!("{}.{}", self.stem, file.path)),
                &file.bytes,
            )?;
        }
        stage.write(&folder.join(format!("{}.pdf", self.stem)), &bytes)
    }
}
