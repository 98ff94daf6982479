//! `carta export png`: one PNG per card face and one per back,
//! `<game>/png/<stem>/<id>.png` and `<id>.back.png`, at the asked dpi (a
//! poker card at 300 dpi is 750 × 1050 px), with the bleed when asked.
//! Cards are photographed 70 to a page and cut apart; a back shared by
//! many cards is rendered once.

use std::collections::BTreeMap;

use super::cards::{ImageExport, Side, pages, photograph, pixels, unit};
use super::{EmitError, Emitter, Stage};
use crate::diag::Diagnostics;
use crate::game::Game;
use crate::load::Workspace;

/// The card images of a selection of a game's cards.
#[derive(Debug, Clone)]
pub struct PngEmitter<'g>(pub ImageExport<'g>);

impl Emitter for PngEmitter<'_> {
    fn name(&self) -> &'static str {
        "png"
    }

    fn emit(
        &self,
        game: &Game,
        ws: &mut Workspace,
        stage: &mut Stage,
        diags: &mut Diagnostics,
    ) -> Result<(), EmitError> {
        let Some(set) = self.0.render(game, ws, stage, diags)? else {
            return Ok(());
        };
        // Cells of one page share a size; each distinct back is drawn once.
        let mut cells: Vec<(&_, Side, (u32, u32))> = Vec::new();
        let mut backs: BTreeMap<(&str, (u32, u32)), usize> = BTreeMap::new();
        for card in &set.cards {
            let px = pixels(card.size, &self.0.options);
            cells.push((card, Side::Face, px));
            backs.entry((card.back.as_str(), px)).or_insert_with(|| {
                cells.push((card, Side::Back, px));
                cells.len() - 1
            });
        }
        let (grids, place) = pages(&cells);
        let images = photograph(&set, &grids, &self.0.options, &self.0.chromium, "png")?;
        let dir = unit(game, "png").join(&self.0.target.stem);
        stage.folder(&dir)?;
        let cut = |i: usize| {
            let (grid, cell) = place[i];
            images.png(grid, cell).to_vec()
        };
        let mut encoded_backs: BTreeMap<usize, Vec<u8>> = BTreeMap::new();
        for (i, &(card, side, px)) in cells.iter().enumerate() {
            if side == Side::Face {
                stage.write(&dir.join(format!("{}.png", card.id)), &cut(i))?;
                let b = backs[&(card.back.as_str(), px)];
                let back = encoded_backs.entry(b).or_insert_with(|| cut(b));
                stage.write(&dir.join(format!("{}.back.png", card.id)), back)?;
            }
        }
        Ok(())
    }
}
