//! What a player reads: each card's fields with enum values replaced by
//! their labels (`x-carta-labels`, translated in a localized game) and card
//! references by the named card's name. Templates see these as `fields`, and the authored values as `raw`.

use serde_json::{Map, Value, json};

use crate::game::Game;
use crate::validate::KindSchema;
use crate::validate::RawCard;
use crate::validate::display::{replace_at, scalar_key};

/// The display fields of `card`, whose fields are `raw`.
pub(super) fn display_fields(
    card: &RawCard,
    raw: &Map<String, Value>,
    game: &Game,
) -> Map<String, Value> {
    let mut fields = Value::Object(raw.clone());
    if let Some(kd) = game.schemas.kind(&card.kind) {
        relabel(&mut fields, kd, game);
    }
    match fields {
        Value::Object(m) => m,
        _ => unreachable!("the fields stay an object"),
    }
}

fn relabel(fields: &mut Value, kd: &KindSchema, game: &Game) {
    // In a localized game, the printed language's label where it has one.
    let lang = &game.manifest.manifest.language;
    let marks = game.schemas.marks(kd);
    for p in &marks.labels {
        replace_at(fields, &p.path, &|v| {
            let key = scalar_key(v)?;
            let label = p.labels.get(&key)?;
            Some(game.i18n.label(lang, &key).unwrap_or(label).to_owned())
        });
    }
    for r in &marks.refs {
        replace_at(fields, &r.path, &|v| {
            let id = v.as_str()?;
            super::reads::note_read(id);
            game.pool.get(id).map(|c| c.name.clone())
        });
    }
}

/// A card as templates see it through the `card` helper:
/// `{id, kind, kind_name, name, fields, raw}`.
pub(super) fn card_value(card: &RawCard, game: &Game) -> Value {
    super::reads::note_read(&card.id);
    let kind_name = game.manifest.manifest.kind_name(&card.kind);
    let raw = card.all_fields();
    json!({
        "id": card.id,
        "kind": card.kind,
        "kind_name": kind_name,
        "name": card.name,
        "fields": display_fields(card, &raw, game),
        "raw": raw,
    })
}
