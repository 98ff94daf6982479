//! Playtest settings (`[play]` in `game.toml`): how many cards a player
//! holds at the start and draws each turn, and from which zone. The deck
//! builder's sample hand and draw odds read them; nothing else does.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The most cards an opening hand, a mulligan or a turn's draw may name:
/// far beyond any game, low enough that a hostile manifest cannot make
/// the builder deal millions of cards.
pub const MAX_PLAY_CARDS: u32 = 1_000;

/// How a game is played from a deck, as its rulebook states it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct Play {
    /// The cards a player draws before the first turn (the opening hand).
    #[schemars(range(min = 1, max = 1000))]
    pub opening_hand: u32,
    /// The hand drawn instead after a mulligan (the hand shuffled back
    /// into the deck); the opening hand's size when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1, max = 1000))]
    pub mulligan: Option<u32>,
    /// The cards drawn on each turn after the first (default 1).
    #[serde(default = "one", skip_serializing_if = "is_one")]
    #[schemars(range(min = 0, max = 1000))]
    pub draws_per_turn: u32,
    /// The zone the hand is drawn from (a zone id of `[zones]`); the
    /// game's first zone when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub draw_from: Option<String>,
}

fn one() -> u32 {
    1
}

#[allow(clippy::trivially_copy_pass_by_ref)] // serde's signature
fn is_one(n: &u32) -> bool {
    *n == 1
}

impl Play {
    /// The hand a mulligan draws.
    pub fn mulligan_hand(&self) -> u32 {
        self.mulligan.unwrap_or(self.opening_hand)
    }
}
