//! `carta print DECK.toml`: the cards a deck file names, with their counts
//! summed over its zones. The deck is read and resolved by [`crate::deck`]
//! (unknown cards and zones are reported there); its legality is
//! `carta deck check`'s business. The zones are kept apart too, for the
//! exports that lay each zone out on its own (Tabletop Simulator).

use super::Print;
use crate::deck::{DeckFile, resolve};
use crate::diag::Diagnostic;
use crate::game::Game;
use crate::validate::RawCard;

/// One zone of a resolved deck: its cards and their counts in it.
#[derive(Debug, Clone)]
pub struct Zone<'a> {
    /// The zone id (`main`).
    pub id: String,
    /// Its display name from the manifest (`Deck`).
    pub name: String,
    /// Its cards, in the deck file's order, each once with its count.
    pub prints: Vec<Print<'a>>,
}

/// The deck's zones in `game`, in the manifest's order, each with its
/// cards; zones the deck leaves empty are left out. `None` (after
/// reporting) when the deck does not resolve.
pub fn zones<'a>(
    deck: &DeckFile,
    game: &'a Game,
    diags: &mut Vec<Diagnostic>,
) -> Option<Vec<Zone<'a>>> {
    let resolved = resolve(deck, &game.manifest, &game.pool, &game.rules.deck, diags)?;
    let zones = &game.manifest.manifest.zones;
    let out = resolved
        .view
        .zones
        .iter()
        .zip(&game.rules.deck.zones)
        .filter(|(entries, _)| !entries.is_empty())
        .map(|(entries, zone)| Zone {
            id: zone.id.clone(),
            name: zones
                .get(&zone.id)
                .map_or(zone.id.clone(), |z| z.name.clone()),
            prints: summed(
                entries
                    .iter()
                    .map(|e| (game.pool.card(e.card as usize), e.count)),
            ),
        })
        .collect();
    Some(out)
}

/// The cards of `zones`, each with its count summed over them.
pub fn prints<'a>(zones: &[Zone<'a>]) -> Vec<Print<'a>> {
    summed(
        zones
            .iter()
            .flat_map(|z| z.prints.iter().map(|p| (p.card, p.count))),
    )
}

/// Each card once, in first-seen order, with its counts added up.
fn summed<'a>(cards: impl Iterator<Item = (&'a RawCard, u32)>) -> Vec<Print<'a>> {
    let mut out: Vec<Print<'a>> = Vec::new();
    for (card, count) in cards {
        match out.iter_mut().find(|p| p.card.id == card.id) {
            Some(p) => p.count += count,
            None => out.push(Print { card, count }),
        }
    }
    out
}
