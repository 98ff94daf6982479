//! The schema of a whole card file of a game: `[[card]]` tables, each with
//! the reserved fields carta checks itself, then, by `kind`, the kind's own
//! schema (every schema document of the game inlined under `definitions`).

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Map, Value, json};

use super::draft7::{no_such, to_draft7};
use super::with_draft;
use crate::config::Manifest;
use crate::validate::MAX_COPIES;

/// The definitions key of a schema document (its workspace path, made a
/// plain JSON Pointer token).
fn doc_key(path: &str) -> String {
    path.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_') {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// Resolves `reference` found in document `base` (a workspace path) to the
/// definitions pointer it becomes; `None` when it leaves the known documents.
fn resolve_ref(base: &str, reference: &str, known: &BTreeMap<String, &Value>) -> Option<String> {
    let (path, fragment) = reference.split_once('#').unwrap_or((reference, ""));
    let target = if path.is_empty() {
        base.to_owned()
    } else if path.contains(':') || path.starts_with('/') {
        return None;
    } else {
        let mut parts: Vec<&str> = base.split('/').collect();
        parts.pop();
        for seg in path.split('/') {
            match seg {
                "." | "" => {}
                ".." => {
                    parts.pop()?;
                }
                s => parts.push(s),
            }
        }
        parts.join("/")
    };
    if !known.contains_key(&target) {
        return None;
    }
    if !fragment.is_empty() && !fragment.starts_with('/') {
        return None; // an anchor: draft 7 has no `$anchor`
    }
    let fragment: Vec<&str> = fragment
        .split('/')
        .skip(1)
        .map(|s| if s == "$defs" { "definitions" } else { s })
        .collect();
    let mut pointer = format!("#/definitions/{}", doc_key(&target));
    for s in fragment {
        pointer.push('/');
        pointer.push_str(s);
    }
    Some(pointer)
}

/// The card-file schema of a game whose cards are `cards` (id, kind, name).
pub(super) fn schema(
    m: &Manifest,
    docs: &BTreeMap<String, &Value>,
    cards: &[(&str, &str, &str)],
) -> Value {
    let mut definitions = Map::new();
    let mut named = BTreeSet::new();
    let kind_paths = m.schema_paths();
    for (path, doc) in docs {
        let mut converted = to_draft7(doc, &|r| resolve_ref(path, r, docs));
        if kind_paths.values().any(|p| p == path) {
            allow_reserved(&mut converted);
        }
        name_references(&mut converted, &mut named);
        definitions.insert(doc_key(path), converted);
    }
    id_definitions(&named, cards, &mut definitions);
    let branches = kind_branches(m, docs);
    let kind_docs: BTreeSet<String> = kind_paths
        .values()
        .filter(|p| docs.contains_key(*p))
        .map(|p| doc_key(p))
        .collect();
    let hoisted = hoist_fields(&mut definitions, &kind_docs);
    let kinds: Vec<Value> = m.kinds.keys().map(|k| Value::from(k.as_str())).collect();
    let kind_list = m
        .kinds
        .iter()
        .map(|(id, k)| format!("`{id}` ({})", k.name))
        .collect::<Vec<_>>()
        .join(", ");
    definitions.insert(
        "carta-card".into(),
        json!({
            "title": "Card",
            "description": format!("One card of {}: `id`, `kind` and `name`, then the fields of its kind.", m.name),
            "type": "object",
            "required": ["id", "kind", "name"],
            "properties": with_hoisted(reserved_properties(&kind_list, &kinds), hoisted),
            "allOf": branches,
        }),
    );
    with_draft(json!({
        "title": format!("{} cards", m.name),
        "description": format!("A card file of {}: `[[card]]` tables, each checked against the schema of its kind.", m.name),
        "type": "object",
        "properties": {
            "card": {
                "title": "Cards",
                "description": "Each `[[card]]` table is one card.",
                "type": "array",
                "items": { "$ref": "#/definitions/carta-card" }
            }
        },
        "additionalProperties": no_such("a card file holds only `[[card]]` tables"),
        "definitions": definitions,
    }))
}

/// One `if kind = … then <the kind's schema>` per kind.
fn kind_branches(m: &Manifest, docs: &BTreeMap<String, &Value>) -> Vec<Value> {
    let kind_paths = m.schema_paths();
    m.kinds
        .keys()
        .map(|kind| {
            let then = match docs.get(&kind_paths[kind]) {
                Some(_) => {
                    json!({ "$ref": format!("#/definitions/{}", doc_key(&kind_paths[kind])) })
                }
                None => json!({}),
            };
            json!({
                "if": { "properties": { "kind": { "const": kind } }, "required": ["kind"] },
                "then": then,
            })
        })
        .collect()
}

/// The fields of the kinds, for the card's own `properties`: taplo's hover
/// and completion look a key up through `properties`, `items` and
/// `allOf`/`anyOf`/`oneOf`, never through `if`/`then`, so a field only a
/// kind's branch describes would have neither. A field every kind that has
/// it describes alike moves to the card whole (its schema in the kind
/// becomes `true`, so a mistake is reported once) and is completed there,
/// references included; a field kinds describe differently stays in each
/// kind and lends the card its title and description alone, for hover.
fn hoist_fields(
    definitions: &mut Map<String, Value>,
    kind_docs: &BTreeSet<String>,
) -> Map<String, Value> {
    let mut by_field: BTreeMap<String, Vec<(&String, Value)>> = BTreeMap::new();
    for key in kind_docs {
        let Some(Value::Object(props)) = definitions.get(key).and_then(|d| d.get("properties"))
        else {
            continue;
        };
        for (field, schema) in props {
            if !crate::validate::RESERVED.contains(&field.as_str()) && schema != &Value::Bool(true)
            {
                by_field
                    .entry(field.clone())
                    .or_default()
                    .push((key, schema.clone()));
            }
        }
    }
    let mut hoisted = Map::new();
    for (field, defined) in by_field {
        if defined.windows(2).all(|w| w[0].1 == w[1].1) {
            for (key, _) in &defined {
                definitions[key.as_str()]["properties"][&field] = Value::Bool(true);
            }
            hoisted.insert(field, defined[0].1.clone());
        } else {
            let docs: Map<String, Value> = ["title", "description"]
                .into_iter()
                .filter_map(|k| Some((k.to_owned(), defined[0].1.get(k)?.clone())))
                .collect();
            hoisted.insert(field, Value::Object(docs));
        }
    }
    hoisted
}

/// The reserved properties with the hoisted fields beside them.
fn with_hoisted(mut reserved: Value, hoisted: Map<String, Value>) -> Value {
    if let Value::Object(props) = &mut reserved {
        for (field, schema) in hoisted {
            props.entry(field).or_insert(schema);
        }
    }
    reserved
}

/// Makes every card reference (a value with `x-carta-ref`: a kind, or a
/// list of kinds) name the ids of the cards of those kinds, through
/// `allOf` a definition `carta-ids-<kinds>` that [`id_definitions`] makes
/// once per list of kinds, however many fields name it: an `enum` of the
/// ids with their names documented (taplo's `x-taplo.docs.enumValues`), so
/// the editor refuses a dangling id and completes a valid one. Returns
/// each list of kinds named.
fn name_references(schema: &mut Value, named: &mut BTreeSet<Vec<String>>) {
    match schema {
        Value::Object(obj) => {
            if let Some(kinds) = obj.get("x-carta-ref").map(ref_kinds) {
                let target = json!({ "$ref": format!("#/definitions/{}", ids_key(&kinds)) });
                match obj.get_mut("allOf") {
                    Some(Value::Array(all)) => all.push(target),
                    _ => {
                        obj.insert("allOf".into(), Value::Array(vec![target]));
                    }
                }
                named.insert(kinds);
            }
            obj.values_mut().for_each(|v| name_references(v, named));
        }
        Value::Array(items) => items.iter_mut().for_each(|v| name_references(v, named)),
        _ => {}
    }
}

/// The definitions key of the ids of `kinds`.
fn ids_key(kinds: &[String]) -> String {
    // A kind id has no `.` (it would be a nested table in `[kinds.…]`).
    format!("carta-ids-{}", doc_key(&kinds.join(".")))
}

/// One definition per list of kinds references name: the ids of the cards
/// of those kinds, documented with their names.
fn id_definitions(
    named: &BTreeSet<Vec<String>>,
    cards: &[(&str, &str, &str)],
    definitions: &mut Map<String, Value>,
) {
    for kinds in named {
        let (ids, names): (Vec<Value>, Vec<Value>) = cards
            .iter()
            .filter(|(_, kind, _)| kinds.iter().any(|k| k == kind))
            .map(|&(id, _, name)| (Value::from(id), Value::from(name)))
            .unzip();
        definitions.insert(
            ids_key(kinds),
            json!({ "enum": ids, "x-taplo": { "docs": { "enumValues": names } } }),
        );
    }
}

/// Every kind a reference in `docs` names: the cards of those kinds are
/// all of the game's cards the card-file schema holds (their ids and
/// names, in [`id_definitions`]).
pub(super) fn referenced_kinds(docs: &BTreeMap<String, &Value>) -> BTreeSet<String> {
    fn walk(v: &Value, out: &mut BTreeSet<String>) {
        match v {
            Value::Object(obj) => {
                if let Some(kinds) = obj.get("x-carta-ref") {
                    out.extend(ref_kinds(kinds));
                }
                obj.values().for_each(|v| walk(v, out));
            }
            Value::Array(items) => items.iter().for_each(|v| walk(v, out)),
            _ => {}
        }
    }
    let mut out = BTreeSet::new();
    for doc in docs.values() {
        walk(doc, &mut out);
    }
    out
}

/// The kinds an `x-carta-ref` names: one, or a list.
fn ref_kinds(v: &Value) -> Vec<String> {
    match v {
        Value::String(k) => vec![k.clone()],
        Value::Array(ks) => ks
            .iter()
            .filter_map(|k| k.as_str().map(str::to_owned))
            .collect(),
        _ => Vec::new(),
    }
}

/// The reserved fields carta checks itself, as schema properties.
fn reserved_properties(kind_list: &str, kinds: &[Value]) -> Value {
    json!({
        "id": {
            "title": "Id",
            "description": "The card's id, unique in the game: lowercase letters, digits and single dashes (`escudo-orc`). Decks and other cards name the card by it.",
            "type": "string",
            "pattern": "^[a-z0-9]+(-[a-z0-9]+)*$"
        },
        "kind": {
            "title": "Kind",
            "description": format!("The card's kind, one of the game's: {kind_list}. Its schema describes the other fields."),
            "type": "string",
            "enum": kinds
        },
        "name": {
            "title": "Name",
            "description": "The card's display name, in the game's language.",
            "type": "string"
        },
        "copies": {
            "title": "Copies",
            "description": "How many physical copies of this card the box holds (default 1).",
            "type": "integer",
            "minimum": 1,
            "maximum": MAX_COPIES
        }
    })
}

/// A kind schema describes the fields besides the reserved ones; in a card
/// table those (and the card's errata) stand beside them, so the kind's
/// root admits them.
fn allow_reserved(schema: &mut Value) {
    if let Some(root) = schema.as_object_mut() {
        if let Some(Value::Object(props)) = root.get_mut("properties") {
            for r in crate::validate::CARD_KEYS {
                props.entry(r).or_insert(Value::Bool(true));
            }
        } else if root.contains_key("additionalProperties") {
            let props: Map<String, Value> = crate::validate::CARD_KEYS
                .iter()
                .map(|r| ((*r).to_owned(), Value::Bool(true)))
                .collect();
            root.insert("properties".into(), Value::Object(props));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_move_to_the_card_when_their_kinds_agree_and_lend_docs_when_not() {
        let mut definitions = Map::new();
        definitions.insert(
            "a".into(),
            json!({"properties": {"id": true, "cost": {"type": "integer"}, "text": {"title": "T", "description": "A's.", "type": "string"}}}),
        );
        definitions.insert(
            "b".into(),
            json!({"properties": {"cost": {"type": "integer"}, "text": {"title": "T", "description": "B's.", "maxLength": 9}}}),
        );
        let kinds = BTreeSet::from(["a".to_owned(), "b".to_owned()]);
        let hoisted = hoist_fields(&mut definitions, &kinds);
        // Alike: moved whole, checked once (the kinds keep `true`).
        assert_eq!(hoisted["cost"], json!({"type": "integer"}));
        assert_eq!(definitions["a"]["properties"]["cost"], json!(true));
        assert_eq!(definitions["b"]["properties"]["cost"], json!(true));
        // Different: docs only; each kind keeps its own check.
        assert_eq!(
            hoisted["text"],
            json!({"title": "T", "description": "A's."})
        );
        assert_eq!(
            definitions["b"]["properties"]["text"]["maxLength"],
            json!(9)
        );
        assert!(!hoisted.contains_key("id"));
    }

    #[test]
    fn a_reference_becomes_an_enum_of_its_kinds_ids_named_once_per_kinds() {
        let cards = [
            ("rei", "hero", "Rei"),
            ("fogo", "spell", "Fogo"),
            ("rainha", "hero", "Rainha"),
        ];
        let mut s = json!({"properties": {
            "ally": {"type": "string", "x-carta-ref": "hero"},
            "rival": {"type": "string", "x-carta-ref": "hero", "allOf": [{"minLength": 2}]},
            "any": {"type": "array", "items": {"type": "string", "x-carta-ref": ["hero", "spell"]}}
        }});
        let mut named = BTreeSet::new();
        name_references(&mut s, &mut named);
        let hero = json!({"$ref": "#/definitions/carta-ids-hero"});
        assert_eq!(s["properties"]["ally"]["allOf"], json!([hero]));
        assert_eq!(
            s["properties"]["rival"]["allOf"],
            json!([{"minLength": 2}, hero])
        );
        assert_eq!(
            s["properties"]["any"]["items"]["allOf"],
            json!([{"$ref": "#/definitions/carta-ids-hero.spell"}])
        );
        let mut definitions = Map::new();
        id_definitions(&named, &cards, &mut definitions);
        assert_eq!(definitions.len(), 2, "one per list of kinds");
        assert_eq!(
            definitions["carta-ids-hero"],
            json!({"enum": ["rei", "rainha"], "x-taplo": {"docs": {"enumValues": ["Rei", "Rainha"]}}})
        );
        assert_eq!(
            definitions["carta-ids-hero.spell"]["enum"],
            json!(["rei", "fogo", "rainha"])
        );
    }

    #[test]
    fn refs_resolve_across_documents() {
        let common = json!({});
        let known = BTreeMap::from([
            ("schemas/g/common.schema.json".to_owned(), &common),
            ("schemas/g/a.schema.json".to_owned(), &common),
        ]);
        let base = "schemas/g/a.schema.json";
        assert_eq!(
            resolve_ref(base, "common.schema.json#/$defs/dice", &known).as_deref(),
            Some("#/definitions/schemas_g_common.schema.json/definitions/dice")
        );
        assert_eq!(
            resolve_ref(base, "#/$defs/x", &known).as_deref(),
            Some("#/definitions/schemas_g_a.schema.json/definitions/x")
        );
        assert_eq!(resolve_ref(base, "../h/other.json", &known), None);
        assert_eq!(
            resolve_ref(base, "https://example.com/s.json", &known),
            None
        );
    }
}
