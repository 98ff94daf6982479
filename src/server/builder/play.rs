//! The builder's playtest figures: the game's `[play]` settings for the
//! page's sample hand, and the draw odds of a deck through
//! [`crate::play::odds`] (what `carta deck odds` answers too).

use serde::Deserialize;
use serde_json::{Value, json};

use super::{DeckInput, GameCatalog, Invalid};
use crate::game::Game;
use crate::play::{self, Group, Odds, Question};

/// What the page knows of how the game is played: the opening hand (`null`
/// when the game declares none), the mulligans a game allows (`null`,
/// without `[play]`: as many as the player likes) and the hand after one,
/// the draws of each later turn, the zone drawn from (`null` without
/// zones) and the cards that start on the table: per `start-on-table`
/// entry, the ids it takes and at most how many (`null`: all), which the
/// page takes in the deck's order as [`play::on_table`] does.
pub(super) fn summary(game: &Game) -> Value {
    let m = &game.manifest.manifest;
    let p = m.play.as_ref();
    let table: Vec<Value> = game
        .rules
        .table
        .iter()
        .map(|(matches, count)| {
            let ids: Vec<&str> = game
                .pool
                .iter()
                .zip(matches)
                .filter(|(_, hit)| **hit)
                .map(|(c, _)| c.id.as_str())
                .collect();
            json!({"ids": ids, "count": count})
        })
        .collect();
    json!({
        "opening_hand": p.map(|p| p.opening_hand),
        "mulligans": p.map(crate::config::Play::mulligan_count),
        "mulligan": p.map(crate::config::Play::mulligan_hand),
        "draws_per_turn": p.map_or(1, |p| p.draws_per_turn),
        "draw_from": m.draw_zone(),
        "start_on_table": table,
    })
}

/// A group as the page sends it: a field and, but for a set flag, a value.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct GroupInput {
    field: String,
    #[serde(default)]
    value: Option<Value>,
}

/// An odds request: the deck, the group, and the question.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct OddsRequest {
    deck: DeckInput,
    group: GroupInput,
    at_least: u32,
    by_turn: u32,
    /// The opening hand (the game's when absent).
    #[serde(default)]
    hand: Option<u32>,
    /// The draws of each later turn (the game's when absent).
    #[serde(default)]
    draws: Option<u32>,
}

/// The odds a request asks for, on the deck as `carta deck check` resolves
/// it (a deck it cannot judge is refused with its message).
pub(super) fn answer(g: &GameCatalog, req: &OddsRequest) -> Result<Odds, Invalid> {
    let deck = g.validate(&req.deck)?;
    let group =
        Group::new(&g.game, &req.group.field, req.group.value.as_ref()).map_err(Invalid::text)?;
    let q = Question {
        at_least: req.at_least,
        by_turn: req.by_turn,
        hand: req.hand,
        draws: req.draws,
    };
    play::odds(&g.game, &deck.view, &group, q).map_err(Invalid)
}
