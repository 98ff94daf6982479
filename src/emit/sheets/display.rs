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

/// Every card of a game as templates see it through the `card` helper:
/// `{id, kind, kind_name, name, fields, raw}`, by id.
pub(crate) type CardIndex = BTreeMap<String, Value>;

/// The display fields of `card`.
pub(super) fn display_fields(card: &RawCard, game: &Game) -> Map<String, Value> {
    let mut fields = Value::Object(card.fields.clone());
    if let Some(kd) = game.schemas.kind(&card.kind) {
        relabel(&mut fields, kd, game);
    }
    match fields {
        Value::Object(m) => m,
        _ => unreachable!("the fields stay an object"),
    }
}

fn relabel(fields: &mut Value, kd: &KindSchema, game: &Game) {
    for p in &kd.labels {
        replace_at(fields, &p.path, &|v| {
            scalar_key(v).and_then(|k| p.labels.get(&k).cloned())
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
/// that are not printed).
pub(super) fn index(game: &Game) -> Arc<CardIndex> {
    let m = &game.manifest.manifest;
    Arc::new(
        game.pool
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
                    "fields": display_fields(card, game),
                    "raw": card.fields,
                });
                (card.id.clone(), view)
            })
            .collect(),
    )
}
