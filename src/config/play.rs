//! Playtest settings (`[play]` in `game.toml`): how many cards a player
//! holds at the start and draws each turn, from which zone, how many
//! mulligans the game allows and which cards start on the table instead of
//! in the deck. The deck builder's sample hand and draw odds and `carta
//! deck odds` read them; nothing else does.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::rules::Filter;

/// The most cards an opening hand, a mulligan or a turn's draw may name:
/// far beyond any game, low enough that a hostile manifest cannot make
/// the builder deal millions of cards.
pub const MAX_PLAY_CARDS: u32 = 1_000;

/// How a game is played from a deck, as its rulebook states it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct Play {
    /// The cards a player draws before the first turn (the opening hand).
    #[schemars(range(min = 1, max = 1000))]
    pub opening_hand: u32,
    /// How many mulligans (the hand shuffled back into the deck and a new
    /// one drawn) a player may take in a game; 0, the default, when the
    /// rulebook has none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 0, max = 1000))]
    pub mulligans: Option<u32>,
    /// The hand drawn instead after a mulligan; the opening hand's size
    /// when absent.
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
    /// Cards of the zone drawn from that start on the table before the
    /// first draw (a city, a hero, an opening formation): they are never
    /// in a hand, and the odds and sample hands deal from the rest.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub start_on_table: Vec<OnTable>,
}

/// Cards that start on the table: those matching `filter`, at most `count`
/// of them (every one when absent), taken in the deck's order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct OnTable {
    /// The cards (a filter as deck rules write one).
    pub filter: Filter,
    /// At most this many of them, copies counted (every one when absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1, max = 1000))]
    pub count: Option<u32>,
}

fn one() -> u32 {
    1
}

#[allow(clippy::trivially_copy_pass_by_ref)] // serde's signature
fn is_one(n: &u32) -> bool {
    *n == 1
}

impl Play {
    /// How many mulligans a player may take in a game (none when absent).
    pub fn mulligan_count(&self) -> u32 {
        self.mulligans.unwrap_or(0)
    }

    /// The hand a mulligan draws.
    pub fn mulligan_hand(&self) -> u32 {
        self.mulligan.unwrap_or(self.opening_hand)
    }

    /// Adds the card fields the `start-on-table` filters read, each given
    /// to `add` (the first segment of each path, as [`super::Rule::fields`]).
    pub fn fields(&self, out: &mut std::collections::BTreeSet<String>) {
        for t in &self.start_on_table {
            for field in t.filter.keys() {
                out.insert(field.split('.').next().unwrap_or(field).to_owned());
            }
        }
    }
}
