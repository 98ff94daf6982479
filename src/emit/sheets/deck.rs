//! `carta print DECK.toml`: the cards a deck file names, with their counts
//! summed over its zones. The deck is read and resolved by [`crate::deck`]
//! (unknown cards and zones are reported there); its legality is
//! `carta deck check`'s business.

use super::Print;
use crate::deck::{DeckFile, resolve};
use crate::diag::Diagnostic;
use crate::game::Game;

/// The deck's cards in `game`, each with its count summed over the zones;
/// `None` (after reporting) when the deck does not resolve.
pub fn prints<'a>(
    deck: &DeckFile,
    game: &'a Game,
    diags: &mut Vec<Diagnostic>,
) -> Option<Vec<Print<'a>>> {
    let resolved = resolve(deck, &game.manifest, &game.pool, &game.rules.deck, diags)?;
    let mut out: Vec<Print<'a>> = Vec::new();
    for e in resolved.view.zones.iter().flatten() {
        let card = game.pool.card(e.card as usize);
        match out.iter_mut().find(|p| p.card.id == card.id) {
            Some(p) => p.count += e.count,
            None => out.push(Print {
                card,
                count: e.count,
            }),
        }
    }
    Some(out)
}
