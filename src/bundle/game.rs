//! The game section: the manifest as the writer stores it (numbers as the
//! manifest writes them) and as a reader takes it back (keys it does not
//! know ignored at every level, as the format's versioning rule asks).

use serde_json::Value;

use super::error::BundleError;
use super::texts::GameTexts;
use crate::config::Manifest;

/// The game section of `manifest`: its keys with defaults filled in, each
/// number an integer where `written` (the manifest as parsed from
/// `game.toml`) has an integer, so that `margin = 5` reads back as `5`.
/// `texts` add the `labels` and `i18n` keys, each when not empty.
pub(crate) fn game_section(
    manifest: &Manifest,
    written: Option<&Value>,
    texts: &GameTexts,
) -> Value {
    let mut value = serde_json::to_value(manifest).expect("a manifest serializes");
    if let Some(written) = written {
        restore_integers(&mut value, written);
    }
    if let (Value::Object(map), Value::Object(extra)) = (
        &mut value,
        serde_json::to_value(texts).expect("strings serialize"),
    ) {
        map.extend(extra);
    }
    value
}

/// Puts back the integers of `written` where `value` holds the same number
/// as a float (the manifest's types hold millimetres as `f64`).
fn restore_integers(value: &mut Value, written: &Value) {
    match (value, written) {
        (Value::Number(n), Value::Number(w))
            if n.is_f64() && !w.is_f64() && w.as_f64() == n.as_f64() =>
        {
            *n = w.clone();
        }
        (Value::Object(map), Value::Object(w)) => {
            for (k, v) in map.iter_mut() {
                if let Some(wv) = w.get(k) {
                    restore_integers(v, wv);
                }
            }
        }
        (Value::Array(items), Value::Array(w)) => {
            for (v, wv) in items.iter_mut().zip(w) {
                restore_integers(v, wv);
            }
        }
        _ => {}
    }
}

/// The manifest of a game section written by this or any later minor
/// version: keys the manifest's schema does not declare are dropped at
/// every level before the typed manifest is read, and a missing
/// `language` reads as `und` (BCP 47: undetermined).
pub(crate) fn manifest_of(game: &Value) -> Result<Manifest, BundleError> {
    let schema = crate::config::json_schema();
    let mut known = game.clone();
    prune(&mut known, schema, schema);
    if let Value::Object(map) = &mut known {
        map.entry("language").or_insert_with(|| "und".into());
    }
    serde_json::from_value(known).map_err(|e| BundleError::corrupt("game", e.to_string()))
}

/// Removes from `value` every map key that `schema` (a node of `root`)
/// does not declare where it allows no others.
fn prune(value: &mut Value, schema: &Value, root: &Value) {
    let schema = resolve(schema, root);
    for alternatives in ["anyOf", "oneOf", "allOf"] {
        if let Some(Value::Array(alts)) = schema.get(alternatives) {
            prune_alternatives(value, alts, root);
        }
    }
    match value {
        Value::Object(map) => {
            let properties = schema.get("properties").and_then(Value::as_object);
            let additional = schema.get("additionalProperties");
            if properties.is_none() && additional.is_none() {
                return;
            }
            map.retain(|k, _| {
                properties.is_some_and(|p| p.contains_key(k))
                    || !matches!(additional, Some(Value::Bool(false)))
            });
            for (k, v) in map.iter_mut() {
                match properties.and_then(|p| p.get(k)) {
                    Some(s) => prune(v, s, root),
                    None => {
                        if let Some(s @ Value::Object(_)) = additional {
                            prune(v, s, root);
                        }
                    }
                }
            }
        }
        Value::Array(items) => {
            if let Some(s) = schema.get("items") {
                for v in items {
                    prune(v, s, root);
                }
            }
        }
        _ => {}
    }
}

/// Prunes a map against the object alternatives of `anyOf`/`oneOf` (the
/// manifest's alternatives differ by type, so at most one is an object
/// schema, and its keys are the ones that stay).
fn prune_alternatives(value: &mut Value, alternatives: &[Value], root: &Value) {
    if !value.is_object() {
        return;
    }
    if let Some(object) = alternatives
        .iter()
        .map(|a| resolve(a, root))
        .find(|a| a.get("properties").is_some())
    {
        prune(value, object, root);
    }
}

/// Follows a local `$ref` (`#/$defs/Name`).
fn resolve<'a>(schema: &'a Value, root: &'a Value) -> &'a Value {
    match schema.get("$ref").and_then(Value::as_str) {
        Some(r) => r
            .strip_prefix('#')
            .and_then(|pointer| root.pointer(pointer))
            .map_or(schema, |target| resolve(target, root)),
        None => schema,
    }
}
