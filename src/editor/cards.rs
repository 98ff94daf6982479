//! The schema of a whole card file of a game: `[[card]]` tables, each with
//! the reserved fields carta checks itself, then, by `kind`, the kind's own
//! schema (every schema document of the game inlined under `definitions`).

use std::collections::BTreeMap;

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
    let kind_paths = m.schema_paths();
    for (path, doc) in docs {
        let mut converted = to_draft7(doc, &|r| resolve_ref(path, r, docs));
        if kind_paths.values().any(|p| p == path) {
            allow_reserved(&mut converted);
        }
        name_references(&mut converted, cards);
        definitions.insert(doc_key(path), converted);
    }
    let mut branches = Vec::new();
    for kind in m.kinds.keys() {
        let then = match docs.get(&kind_paths[kind]) {
            Some(_) => json!({ "$ref": format!("#/definitions/{}", doc_key(&kind_paths[kind])) }),
            None => json!({}),
        };
        branches.push(json!({
            "if": { "properties": { "kind": { "const": kind } }, "required": ["kind"] },
            "then": then,
        }));
    }
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
            "properties": reserved_properties(&kind_list, &kinds),
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

/// Makes every card reference (a value with `x-carta-ref`: a kind, or a
/// list of kinds) an `enum` of the ids of the cards of those kinds, their
/// names documented (taplo's `x-taplo.docs.enumValues`), so the editor
/// refuses a dangling id and completes a valid one.
fn name_references(schema: &mut Value, cards: &[(&str, &str, &str)]) {
    match schema {
        Value::Object(obj) => {
            if let Some(kinds) = obj.get("x-carta-ref").map(ref_kinds) {
                let (ids, names): (Vec<Value>, Vec<Value>) = cards
                    .iter()
                    .filter(|(_, kind, _)| kinds.iter().any(|k| k == kind))
                    .map(|&(id, _, name)| (Value::from(id), Value::from(name)))
                    .unzip();
                obj.insert("enum".into(), Value::Array(ids));
                obj.insert("x-taplo".into(), json!({ "docs": { "enumValues": names } }));
            }
            obj.values_mut().for_each(|v| name_references(v, cards));
        }
        Value::Array(items) => items.iter_mut().for_each(|v| name_references(v, cards)),
        _ => {}
    }
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
/// table those stand beside them, so the kind's root admits them.
fn allow_reserved(schema: &mut Value) {
    if let Some(root) = schema.as_object_mut() {
        if let Some(Value::Object(props)) = root.get_mut("properties") {
            for r in crate::validate::RESERVED {
                props.entry(r).or_insert(Value::Bool(true));
            }
        } else if root.contains_key("additionalProperties") {
            let props: Map<String, Value> = crate::validate::RESERVED
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
    fn a_reference_becomes_an_enum_of_its_kinds_ids_named() {
        let cards = [
            ("rei", "hero", "Rei"),
            ("fogo", "spell", "Fogo"),
            ("rainha", "hero", "Rainha"),
        ];
        let mut s = json!({"properties": {
            "ally": {"type": "string", "x-carta-ref": "hero"},
            "any": {"type": "array", "items": {"type": "string", "x-carta-ref": ["hero", "spell"]}}
        }});
        name_references(&mut s, &cards);
        assert_eq!(s["properties"]["ally"]["enum"], json!(["rei", "rainha"]));
        assert_eq!(
            s["properties"]["ally"]["x-taplo"]["docs"]["enumValues"],
            json!(["Rei", "Rainha"])
        );
        assert_eq!(
            s["properties"]["any"]["items"]["enum"],
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
