//! What the browser gets of a game: its cards (each with its zones, copy
//! limits, search text, filterable values, printed face and, when it has
//! errata, its history), kinds, zones, rules and formats, the filters its
//! kinds' schemas allow (facets) and the versions its errata name.

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::{Map, Value};

use super::{play, save};
use crate::config::rules::RuleSeverity;
use crate::emit::fields::Fields;
use crate::emit::sheets::Face;
use crate::game::Game;
use crate::rules::RuleSet;
use crate::validate::display::LABELS_KEYWORD;
use crate::validate::errata::{compare_versions, current_version};

/// A filter the card browser offers, generated from the kinds' schemas: an
/// enum field (its values), an integer field (its range over the pool) or
/// a boolean flag (absent counts as false).
#[derive(Debug, Clone, PartialEq, Serialize)]
struct Facet {
    field: String,
    title: String,
    /// `enum`, `integer` or `boolean`.
    kind: &'static str,
    /// The values of an enum, in schema order.
    values: Vec<String>,
    /// What a player reads for each of `values`, in the same order: its
    /// label in the game's language (`x-carta-labels`, or a translation's
    /// `[labels]`), else the value itself.
    labels: Vec<String>,
    min: Option<i64>,
    max: Option<i64>,
}

/// What the browser gets of `game`: cards (with their `faces`), zones,
/// facets, rules. Each card's face is moved out of `faces` into it.
pub(super) fn summary(game: &Game, mut faces: BTreeMap<String, Face>) -> Value {
    let m = &game.manifest.manifest;
    let mut facets = facets(game);
    let rules = &game.rules.deck;
    let mut ranges = vec![None; facets.len()];
    let keys: Vec<&str> = facets.iter().map(|f| f.field.as_str()).collect();
    let cards: Vec<Value> = game
        .pool
        .iter()
        .enumerate()
        .map(|(i, c)| card(game, i, (&facets, &keys, &mut ranges), faces.remove(&c.id)))
        .collect();
    take_ranges(&mut facets, &ranges);
    let mut summary = serde_json::json!({
        "id": m.id,
        "name": m.name,
        "language": m.language,
        "kinds": m.kinds.iter().map(|(id, k)| serde_json::json!({"id": id, "name": k.name})).collect::<Vec<_>>(),
        "zones": m.zones.iter().map(|(id, z)| serde_json::json!({"id": id, "name": z.name, "kinds": z.kinds})).collect::<Vec<_>>(),
        "rules": rules.rules.iter().map(|r| serde_json::json!({"id": r.id, "name": r.name, "source": r.source, "warning": r.severity == RuleSeverity::Warning})).collect::<Vec<_>>(),
        "formats": m.formats.iter().map(|(id, f)| serde_json::json!({"id": id, "name": f.name, "description": f.description})).collect::<Vec<_>>(),
        "facets": facets,
        // In its place, moved in below: `json!` would copy every card.
        "cards": Value::Null,
        "save_to": save::folder(&m.id),
        // The page stops typing at the bound every reader of decks keeps.
        "max_name": crate::deckcode::MAX_NAME,
        "play": play::summary(game),
        "versions": versions(game),
    });
    summary["cards"] = Value::Array(cards);
    summary
}

/// Pool card `i` of `game` as the browser gets it, with its `face`: its
/// zones, copy limits, search text (its fields' strings and the flags it
/// has, by field name and title) and the values of the `facets` (whose
/// fields are `keys`), each integer taken into its facet's range in
/// `ranges`. Built by moving each part in: `json!` serializes each one
/// into a copy.
fn card(
    game: &Game,
    i: usize,
    (facets, keys, ranges): (&[Facet], &[&str], &mut [Range]),
    face: Option<Face>,
) -> Value {
    let c = game.pool.card(i);
    let zones: Vec<&str> = game
        .rules
        .deck
        .zones
        .iter()
        .filter(|z| z.accepts[i])
        .map(|z| z.id.as_str())
        .collect();
    // Read in place: a watch round summarizes every card again.
    let fields = Fields::of(c);
    let found = fields.pick(keys);
    let mut text = String::new();
    fields.strings(&mut |s| {
        text.push_str(s);
        text.push('\n');
    });
    for (f, value) in facets.iter().zip(&found) {
        if f.kind == "boolean" && *value == Some(Value::Bool(true)) {
            text.push_str(&format!("{}\n{}\n", f.field, f.title));
        }
    }
    let values: Map<String, Value> = facets
        .iter()
        .zip(ranges.iter_mut())
        .zip(found)
        .filter_map(|((f, range), value)| {
            let value = value?;
            if let (Some(n), "integer") = (value.as_i64(), f.kind) {
                *range = Some(range.map_or((n, n), |(lo, hi)| (lo.min(n), hi.max(n))));
            }
            Some((f.field.clone(), value))
        })
        .collect();
    let size = face.as_ref().map(|f| f.size);
    let mut card = Map::new();
    card.insert("id".into(), c.id.clone().into());
    card.insert("kind".into(), c.kind.clone().into());
    card.insert("name".into(), c.name.clone().into());
    card.insert("text".into(), text.into());
    card.insert("zones".into(), zones.into());
    card.insert("limits".into(), limits(game, i).into());
    card.insert("values".into(), values.into());
    card.insert("face".into(), face.map(|f| f.html).into());
    card.insert("width".into(), size.map(|s| s.width).into());
    card.insert("height".into(), size.map(|s| s.height).into());
    // Only the changed cards carry their history: most cards have none.
    if let Some(version) = current_version(&c.errata) {
        card.insert("version".into(), version.into());
        card.insert(
            "errata".into(),
            serde_json::to_value(&c.errata).unwrap_or_default(),
        );
    }
    Value::Object(card)
}

/// Every version some card's errata name, oldest first: what the page
/// offers to mark the cards changed since.
fn versions(game: &Game) -> Vec<&str> {
    let mut versions: Vec<&str> = game
        .pool
        .iter()
        .flat_map(|c| c.errata.iter().map(|e| e.version.as_str()))
        .collect();
    versions.sort_by(|a, b| compare_versions(a, b).then(a.cmp(b)));
    versions.dedup_by(|a, b| compare_versions(a, b).is_eq());
    versions
}

/// The most copies of pool card `card` each zone takes, by the game's own
/// rules (key `""`) and by each format's: zone id → limit. Zones without a
/// limit, and rule sets without any, are left out (a large pool's summary
/// stays small).
fn limits(game: &Game, card: usize) -> Map<String, Value> {
    let of = |rules: &RuleSet| -> Map<String, Value> {
        rules
            .zones
            .iter()
            .enumerate()
            .filter(|(_, z)| z.accepts[card])
            .filter_map(|(z, zone)| Some((zone.id.clone(), rules.copy_limit(z, card)?.into())))
            .collect()
    };
    std::iter::once((String::new(), of(&game.rules.deck)))
        .chain(game.rules.formats.iter().map(|(f, r)| (f.clone(), of(r))))
        .filter(|(_, zones)| !zones.is_empty())
        .map(|(set, zones)| (set, Value::Object(zones)))
        .collect()
}

/// The facets of a game: every top-level field of a kind's schema that is
/// an enum of strings, an integer or a boolean, merged across kinds by name
/// (an integer's range is the pool's: [`take_ranges`]).
fn facets(game: &Game) -> Vec<Facet> {
    let mut out: Vec<Facet> = Vec::new();
    for kind in game.manifest.manifest.kinds.keys() {
        for (field, schema) in game.schemas.property_schemas(kind) {
            let Some(facet) = facet_of(game, kind, field, &schema) else {
                continue;
            };
            match out.iter_mut().find(|f| f.field == facet.field) {
                Some(f) if f.kind == facet.kind => {
                    for (v, label) in facet.values.into_iter().zip(facet.labels) {
                        if !f.values.contains(&v) {
                            f.values.push(v);
                            f.labels.push(label);
                        }
                    }
                }
                Some(_) => {}
                None => out.push(facet),
            }
        }
    }
    out
}

/// Each integer facet's range as the pool has it, taken while [`summary`]
/// made the cards' `values` (`ranges`, in the order of `facets`); a facet
/// no card has a value of is left out.
fn take_ranges(facets: &mut Vec<Facet>, ranges: &[Range]) {
    for (f, range) in facets.iter_mut().zip(ranges) {
        if f.kind == "integer" {
            f.min = range.map(|(lo, _)| lo);
            f.max = range.map(|(_, hi)| hi);
        }
    }
    facets.retain(|f| f.kind != "integer" || f.min.is_some());
}

/// The least and greatest value an integer facet has over the pool, once
/// a card has one.
type Range = Option<(i64, i64)>;

/// The facet field `field` of `kind` allows by its schema, if any: an enum
/// of strings, an integer or a boolean. Its title and its values' labels
/// are in the game's language (a translation's, where it has them).
fn facet_of(game: &Game, kind: &str, field: String, schema: &Value) -> Option<Facet> {
    let lang = &game.manifest.manifest.language;
    let title = game
        .i18n
        .title(lang, kind, &field)
        .or_else(|| schema.get("title").and_then(Value::as_str))
        .unwrap_or(&field)
        .to_owned();
    let strings: Option<Vec<String>> = schema
        .get("enum")
        .and_then(Value::as_array)
        .and_then(|vs| vs.iter().map(|v| v.as_str().map(str::to_owned)).collect());
    let kind = match (&strings, schema.get("type").and_then(Value::as_str)) {
        (Some(_), _) => "enum",
        (None, Some("integer")) => "integer",
        (None, Some("boolean")) => "boolean",
        _ => return None,
    };
    let values = strings.unwrap_or_default();
    let own = schema.get(LABELS_KEYWORD).and_then(Value::as_object);
    let labels = values
        .iter()
        .map(|v| {
            game.i18n
                .label(lang, v)
                .or_else(|| own.and_then(|l| l.get(v)).and_then(Value::as_str))
                .unwrap_or(v)
                .to_owned()
        })
        .collect();
    Some(Facet {
        field,
        title,
        kind,
        values,
        labels,
        min: None,
        max: None,
    })
}
