//! `carta export tts`: a Tabletop Simulator saved object,
//! `<game>/tts/<stem>/`: `<stem>.json`, the object TTS loads (Objects →
//! Saved Objects), its deck sheet images and a `README.txt` saying where
//! each image goes.
//!
//! The object holds one pile per zone of a deck file, or per kind of a
//! game's pool, laid side by side: a `DeckCustom` of one `Card` per
//! physical copy, or the `Card` itself when the pile is one card (TTS has
//! no deck of one). A pile's cards are laid on deck sheets of one card
//! size, at most 10 × 7 cells and 4,096 px on each side (TTS's limits),
//! each sheet at the highest resolution up to `--dpi` that fits; a sheet
//! whose cards have different backs has `UniqueBack` and a sheet of backs
//! in the same grid. Card `k` of sheet `N` has `CardID` `N·100 + k`, the
//! cell at row `k / NumWidth`, column `k mod NumWidth`. Images are named
//! by a hash of their bytes ([`super::images`]), so TTS's image cache never
//! shows a stale sheet.
//!
//! The structure is the one TTS's own saves use, and the one existing
//! generators write: HardDie/DeckBuilder
//! (`internal/services/generator/service.go`: `CardID` `page·100 + index`,
//! a pile of one card written as a `Card` because a deck cannot hold one)
//! and ZONT3/tts-deck-generator (`tts_deckgen/save_processing.py`,
//! `deck.py`: `CustomDeck` entries with `NumWidth`, `NumHeight`,
//! `BackIsHidden`, `UniqueBack`, backs as a sheet in the faces' grid).

mod layout;
mod object;
mod readme;

use rayon::prelude::*;
use std::path::PathBuf;

use super::cards::{ImageExport, photograph_at, unit};
use super::images::{Home, hashed_name};
use super::{EmitError, Emitter, Stage};
use crate::diag::Diagnostics;
use crate::game::Game;
use crate::load::Workspace;
pub use layout::MAX_SIDE;
use layout::{grids, image_stem, images, lay_out, piles};
use object::{Files, saved_object};
use readme::{readme, resolution_note};

/// The Tabletop Simulator deck of a selection of a game's cards.
#[derive(Debug, Clone)]
pub struct TtsEmitter<'g> {
    /// What to render, and how.
    pub export: ImageExport<'g>,
    /// The output folder, absolute: the JSON names its images by full path.
    pub out: PathBuf,
}

impl Emitter for TtsEmitter<'_> {
    fn name(&self) -> &'static str {
        "tts"
    }

    fn emit(
        &self,
        game: &Game,
        ws: &mut Workspace,
        stage: &mut Stage,
        diags: &mut Diagnostics,
    ) -> Result<(), EmitError> {
        let export = &self.export;
        let Some(set) = export.render(game, ws, stage, diags)? else {
            return Ok(());
        };
        let mut piles = piles(&export.target, &set.cards, game);
        let mut sheets = lay_out(&mut piles, &export.options);
        let (grids, dpis) = grids(&mut sheets, &export.options);
        let shots = photograph_at(
            &set,
            &grids,
            &dpis,
            &export.options,
            &export.chromium,
            "tts",
        )?;
        let shots = shots.into_images()?;
        let images = images(&sheets, &grids, &shots);
        let dir = unit(game, "tts").join(&export.target.stem);
        stage.folder(&dir)?;
        // Encoding a sheet of up to 4096 × 4096 px takes a while: all at once.
        let encoded: Vec<Vec<u8>> = images
            .par_iter()
            .zip(sheets.par_iter().chain(sheets.par_iter()))
            .map(|(image, sheet)| image.encode(sheet.dpi))
            .collect();
        let mut names = Vec::with_capacity(images.len());
        let mut written = std::collections::BTreeSet::new();
        for (i, bytes) in encoded.iter().enumerate() {
            let name = hashed_name(&image_stem(i, &sheets), bytes);
            if written.insert(name.clone()) {
                stage.write(&dir.join(&name), bytes)?;
            }
            names.push(name);
        }
        let home = Home::new(export.options.base_url.as_deref(), &self.out.join(&dir));
        let files = Files {
            home: &home,
            names: &names,
        };
        let object = saved_object(&export.target, &piles, &sheets, &files, game);
        let mut json = serde_json::to_string_pretty(&object).expect("JSON values serialize");
        json.push('\n');
        let stem = &export.target.stem;
        stage.write(&dir.join(format!("{stem}.json")), json.as_bytes())?;
        let readme = readme(&export.target, &piles, &sheets, &images, &files);
        stage.write(&dir.join("README.txt"), readme.as_bytes())?;
        if let Some(note) = resolution_note(stem, &sheets, export.options.dpi) {
            diags.push(note);
        }
        Ok(())
    }
}
