//! What a player reads: each card's fields with enum values replaced by
//! their labels (`x-carta-labels`) and card references by the named card's
//! name. Templates see these as `fields`, and the authored values as `raw`.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde_json::{Map, Value, json};

use crate::game::Game;
use crate::validate::KindSchema;
use crate::validate::RawCard;
use crate::validate::display::{replace_at, scalar_key};

/// What templates see of a game in the language it is printed in: every
/// card through the `card` helper (`{id, kind, kind_name, name, fields,
/// raw}`, by id), and the translations of the phrases the `t` helper
/// prints.
#[derive(Debug, Default)]
pub(crate) struct CardIndex {
    cards: BTreeMap<String, Value>,
    /// Source phrase → its translation in the printed language (empty in
    /// the source language).
    pub(crate) phrases: BTreeMap<String, String>,
}

impl CardIndex {
    /// The card `id` as templates see it.
    pub(crate) fn get(&self, id: &str) -> Option<&Value> {
        self.cards.get(id)
    }
}

/// The display fields of `card`, its enum values labelled with `labels`
/// (the printed language's translated labels) or else the schema's.
fn display_fields(
    card: &RawCard,
    game: &Game,
    labels: &BTreeMap<String, String>,
) -> Map<String, Value> {
    let mut fields = Value::Object(card.fields.clone());
    if let Some(kd) = game.schemas.kind(&card.kind) {
        relabel(&mut fields, kd, game, labels);
    }
    match fields {
        Value::Object(m) => m,
        _ => unreachable!("the fields stay an object"),
    }
}

fn relabel(fields: &mut Value, kd: &KindSchema, game: &Game, labels: &BTreeMap<String, String>) {
    for p in &kd.labels {
        replace_at(fields, &p.path, &|v| {
            let key = scalar_key(v)?;
            let label = p.labels.get(&key)?;
            Some(labels.get(&key).unwrap_or(label).clone())
        });
    }
    for r in &kd.refs {
        replace_at(fields, &r.path, &|v| {
            v.as_str()
                .and_then(|id| game.pool.get(id))
                .map(|c| c.name.clone())
        });
    }
}

/// The [`CardIndex`] of a game's whole pool (references may name cards
/// that are not printed), in the game's language (a localized game's).
pub(super) fn index(game: &Game) -> Arc<CardIndex> {
    let m = &game.manifest.manifest;
    let labels = game.i18n.labels(&m.language);
    let cards = game
        .pool
        .iter()
        .map(|card| {
            let kind_name = m
                .kinds
                .get(&card.kind)
                .map_or(card.kind.as_str(), |k| k.name.as_str());
            let view = json!({
                    "id": card.id,
                    "kind": card.kind,
                    "kind_name": kind_name,
                    "name": card.name,
                "fields": display_fields(card, game, &labels),
                "raw": card.fields,
            });
            (card.id.clone(), view)
        })
        .collect();
    Arc::new(CardIndex {
        cards,
        phrases: game.i18n.phrases(&m.language),
    })
}
