//! Playtest figures of a deck: the odds of drawing at least `k` cards of a
//! group by a turn, by the game's `[play]` settings (the opening hand, the
//! draws of each turn, the zone drawn from). The deck builder's odds route
//! and `carta deck odds` both answer through [`odds`], so they agree.
//!
//! A group is a card (`id = …`), a kind (`kind = …`), a value of a field
//! a kind's schema declares as an enum (`kingdom = …`), or a boolean flag
//! (`mercenary`, absent counting as false): nothing here names a game.
//! Groups are checked against the kinds' schemas and counted in a
//! resolved deck. A question the game cannot answer is refused as a
//! `diag::Phrase`, which the builder words in the page's language and
//! `carta deck odds` in English.

pub mod odds;

use serde::Serialize;
use serde_json::Value;

use crate::config::MAX_PLAY_CARDS;
use crate::diag::Phrase;
use crate::game::Game;
use crate::rules::{DeckView, Entry};
use crate::suggest;

/// The latest turn the odds are asked of (a bound on a request, far past
/// any game's length).
pub const MAX_TURN: u32 = 1_000;

/// A group of cards, checked against a game: which cards it takes.
#[derive(Debug, Clone, PartialEq)]
pub struct Group {
    /// The field compared: `id`, `kind` or a field of the cards.
    field: String,
    /// The value it must have (a string, or a flag's `true`/`false`).
    value: Value,
    /// Whether the field is a boolean flag (absent = false).
    flag: bool,
}

impl Group {
    /// The group of `field = value` in `game` (`value` `None`: a flag that
    /// is set). Refused, with what is allowed, when the field is neither
    /// `id`, `kind`, an enum field nor a boolean field of a kind, or the
    /// value is not one of the field's.
    ///
    /// # Errors
    /// The reason the group is refused, for the player.
    pub fn new(game: &Game, field: &str, value: Option<&Value>) -> Result<Group, String> {
        let text = value.and_then(Value::as_str);
        let m = &game.manifest.manifest;
        let (allowed, flag): (Vec<String>, bool) = match field {
            "id" => (game.pool.ids().map(str::to_owned).collect(), false),
            "kind" => (m.kinds.keys().cloned().collect(), false),
            _ => match field_type(game, field) {
                Some(FieldType::Enum(values)) => (values, false),
                Some(FieldType::Flag) => (Vec::new(), true),
                None => return Err(unknown_field(game, field)),
            },
        };
        if flag {
            let value = match (value, text) {
                (None, _) | (_, Some("true")) => true,
                (Some(Value::Bool(b)), _) => *b,
                (_, Some("false")) => false,
                _ => return Err(format!("`{field}` is a flag: its value is true or false")),
            };
            return Ok(Group {
                field: field.to_owned(),
                value: Value::Bool(value),
                flag,
            });
        }
        let Some(text) = text else {
            return Err(format!("`{field}` needs a value: `{field}=…`"));
        };
        if !allowed.iter().any(|a| a == text) {
            let help = suggest::help(text, allowed.iter().map(String::as_str), "its values are");
            return Err(format!("`{text}` is not a value of `{field}`: {help}"));
        }
        Ok(Group {
            field: field.to_owned(),
            value: Value::String(text.to_owned()),
            flag,
        })
    }

    /// The group a command line names: `field=value`, or a bare `field`
    /// for a flag that is set.
    ///
    /// # Errors
    /// As [`Group::new`].
    pub fn parse(game: &Game, spec: &str) -> Result<Group, String> {
        match spec.split_once('=') {
            Some((field, value)) => Group::new(
                game,
                field.trim(),
                Some(&Value::String(value.trim().to_owned())),
            ),
            None => Group::new(game, spec.trim(), None),
        }
    }

    /// Whether pool card `card` of `game` is in the group.
    fn takes(&self, game: &Game, card: usize) -> bool {
        let c = game.pool.card(card);
        match self.field.as_str() {
            "id" => self.value.as_str() == Some(c.id.as_str()),
            "kind" => self.value.as_str() == Some(c.kind.as_str()),
            field => {
                // A field the rules read is kept unpacked on the card; only
                // another one costs unpacking all of the card's fields.
                let unpacked;
                let value = if let Some(v) = c.fields.get(field) {
                    Some(v)
                } else {
                    unpacked = c.all_fields();
                    unpacked.get(field)
                };
                if self.flag {
                    Value::Bool(value == Some(&Value::Bool(true))) == self.value
                } else {
                    value == Some(&self.value)
                }
            }
        }
    }
}

/// What a field of the cards holds, as far as groups go.
enum FieldType {
    /// One of these strings.
    Enum(Vec<String>),
    /// True or false.
    Flag,
}

/// The type of `field` across the kinds' schemas: an enum of strings (its
/// values merged over the kinds) or a boolean; `None` otherwise.
fn field_type(game: &Game, field: &str) -> Option<FieldType> {
    let mut values: Vec<String> = Vec::new();
    let mut flag = false;
    for kind in game.manifest.manifest.kinds.keys() {
        for (name, schema) in game.schemas.property_schemas(kind) {
            if name != field {
                continue;
            }
            if let Some(vs) = schema.get("enum").and_then(Value::as_array) {
                for v in vs.iter().filter_map(Value::as_str) {
                    if !values.iter().any(|have| have == v) {
                        values.push(v.to_owned());
                    }
                }
            } else if schema.get("type").and_then(Value::as_str) == Some("boolean") {
                flag = true;
            }
        }
    }
    if !values.is_empty() {
        Some(FieldType::Enum(values))
    } else if flag {
        Some(FieldType::Flag)
    } else {
        None
    }
}

/// Why `field` makes no group, with the fields that do.
fn unknown_field(game: &Game, field: &str) -> String {
    let mut fields = vec!["id".to_owned(), "kind".to_owned()];
    for kind in game.manifest.manifest.kinds.keys() {
        for (name, _) in game.schemas.property_schemas(kind) {
            if !fields.contains(&name) && field_type(game, &name).is_some() {
                fields.push(name);
            }
        }
    }
    let help = suggest::help(
        field,
        fields.iter().map(String::as_str),
        "a group is one of",
    );
    format!("`{field}` is not a card, a kind, an enum field or a flag: {help}")
}

/// What the odds are asked of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Question {
    /// At least this many cards of the group.
    pub at_least: u32,
    /// By this turn (1: the opening hand).
    pub by_turn: u32,
    /// The opening hand; the game's `[play] opening-hand` when `None`.
    pub hand: Option<u32>,
    /// The cards drawn each later turn; the game's `draws-per-turn` (1
    /// without `[play]`) when `None`.
    pub draws: Option<u32>,
}

/// The odds of a deck, with what they were computed from.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Odds {
    /// The zone drawn from.
    pub zone: String,
    /// Its cards that start on the table (`[play] start-on-table`), never
    /// drawn.
    pub on_table: u32,
    /// Its cards drawn from: the zone's but those on the table.
    pub deck: u32,
    /// The group's cards in it, copies counted.
    pub group: u32,
    /// The opening hand.
    pub hand: u32,
    /// The cards drawn on each turn after the first.
    pub draws_per_turn: u32,
    /// The cards seen by the turn: the hand and the draws, at most the
    /// whole zone.
    pub seen: u32,
    /// At least this many of the group.
    pub at_least: u32,
    /// By this turn.
    pub by_turn: u32,
    /// The chance, from 0 to 1.
    pub probability: f64,
}

/// The copies of each line of `lines` (a zone of a deck, in the deck's
/// order) that start on the table by the game's `[play] start-on-table`:
/// each entry takes its matching cards in the deck's order, at most its
/// `count`, from those no earlier entry took.
pub fn on_table(game: &Game, lines: &[Entry]) -> Vec<u32> {
    let mut aside = vec![0u32; lines.len()];
    for (matches, count) in &game.rules.table {
        let mut left = count.unwrap_or(u32::MAX);
        for (e, taken) in lines.iter().zip(aside.iter_mut()) {
            if left == 0 {
                break;
            }
            if matches[e.card as usize] {
                let more = (e.count - *taken).min(left);
                *taken += more;
                left -= more;
            }
        }
    }
    aside
}

/// The odds of drawing at least `q.at_least` cards of `group` by turn
/// `q.by_turn` from the zone the game draws from, in deck `view` (a deck
/// of `game` as [`crate::deck::judge`] resolved it), without the cards
/// that start on the table ([`on_table`]). The cards seen by turn `t` are
/// the opening hand and `draws` for each turn after the first:
/// `hand + draws × (t − 1)`.
///
/// # Errors
/// A game without zones, no hand size (none declared, none given), a turn
/// or size out of bounds.
pub fn odds(game: &Game, view: &DeckView, group: &Group, q: Question) -> Result<Odds, Phrase> {
    let m = &game.manifest.manifest;
    let zone = m
        .draw_zone()
        .ok_or_else(|| Phrase::new("play-no-zones").with("game", &m.id))?;
    let z = game
        .rules
        .deck
        .zones
        .iter()
        .position(|r| r.id == zone)
        .ok_or_else(|| {
            Phrase::new("play-unknown-zone")
                .with("zone", zone)
                .with("game", &m.id)
        })?;
    let hand = q
        .hand
        .or_else(|| m.play.as_ref().map(|p| p.opening_hand))
        .ok_or_else(|| Phrase::new("play-no-hand").with("game", &m.id))?;
    let draws = q
        .draws
        .unwrap_or_else(|| m.play.as_ref().map_or(1, |p| p.draws_per_turn));
    if !(1..=MAX_PLAY_CARDS).contains(&hand) || draws > MAX_PLAY_CARDS {
        return Err(Phrase::new("play-hand-bounds").with("max", MAX_PLAY_CARDS.to_string()));
    }
    if !(1..=MAX_TURN).contains(&q.by_turn) {
        return Err(Phrase::new("play-turn-bounds").with("max", MAX_TURN.to_string()));
    }
    let lines = view.zones.get(z).map_or(&[][..], Vec::as_slice);
    let aside = on_table(game, lines);
    let (mut deck, mut taken) = (0u32, 0u32);
    for (e, aside) in lines.iter().zip(&aside) {
        let drawn = e.count - aside;
        deck = deck.saturating_add(drawn);
        if group.takes(game, e.card as usize) {
            taken = taken.saturating_add(drawn);
        }
    }
    let seen = hand.saturating_add(draws.saturating_mul(q.by_turn - 1));
    let probability = odds::at_least(deck, taken, seen, q.at_least)
        .expect("a group's cards are cards of the zone");
    Ok(Odds {
        zone: zone.to_owned(),
        on_table: aside.iter().sum(),
        deck,
        group: taken,
        hand,
        draws_per_turn: draws,
        seen: seen.min(deck),
        at_least: q.at_least,
        by_turn: q.by_turn,
        probability,
    })
}
