//! `$ref`s that lead nowhere, found before the schemas are registered: the
//! registry refuses a whole game for one bad `$ref` and names no place, so
//! each bad one is reported at its `$ref` in its file, and only the
//! documents that depend on it are left out.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use super::documents::{SchemaDoc, normalize, percent_decode, uri_prefix};
use crate::diag::{Diagnostic, Diagnostics};

/// `docs` without those holding a `$ref` that resolves to nothing (each
/// reported), repeated until every remaining `$ref` resolves, so that a
/// document referring to a dropped one is dropped (and reported) too.
pub(super) fn drop_unresolvable(
    mut docs: Vec<SchemaDoc>,
    diags: &mut Diagnostics,
) -> Vec<SchemaDoc> {
    let mut dropped: BTreeSet<String> = BTreeSet::new();
    loop {
        let by_uri: BTreeMap<&str, &Value> =
            docs.iter().map(|d| (d.uri.as_str(), &d.doc)).collect();
        let mut bad = Vec::new();
        for (i, d) in docs.iter().enumerate() {
            // A document that sets its own `$id`s resolves by rules this
            // check does not follow; the registry judges it.
            if has_key(&d.doc, "$id") {
                continue;
            }
            let mut refs = Vec::new();
            collect_refs(&d.doc, &mut refs);
            let broken: Vec<(String, String)> = refs
                .into_iter()
                .filter_map(|r| why_unresolved(&d.uri, &r, &by_uri, &dropped).map(|why| (r, why)))
                .collect();
            if !broken.is_empty() {
                bad.push((i, broken));
            }
        }
        if bad.is_empty() {
            return docs;
        }
        for (i, broken) in bad.iter().rev() {
            let doc = docs.remove(*i);
            dropped.insert(doc.uri.clone());
            for (reference, why) in broken {
                let mut d = Diagnostic::error(
                    "schema::unresolved-ref",
                    format!("`$ref` `{reference}` cannot be resolved: {why}"),
                )
                .with_help(
                    "a `$ref` names a schema file of this game relative to this one, \
                     and a JSON pointer in it (`common.schema.json#/$defs/x`)",
                );
                if let (Some(file), Some(text)) = (doc.file, &doc.text) {
                    d = d.at(file, ref_span(text, reference), "this reference");
                }
                diags.push(d);
            }
        }
    }
}

fn has_key(v: &Value, key: &str) -> bool {
    match v {
        Value::Object(o) => o.contains_key(key) || o.values().any(|s| has_key(s, key)),
        Value::Array(a) => a.iter().any(|s| has_key(s, key)),
        _ => false,
    }
}

fn collect_refs(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::Object(o) => {
            for (k, sub) in o {
                match (k.as_str(), sub) {
                    ("$ref", Value::String(r)) => {
                        if !out.contains(r) {
                            out.push(r.clone());
                        }
                    }
                    // `const`, `enum`, `default` and `examples` hold data, not schemas.
                    ("const" | "enum" | "default" | "examples", _) => {}
                    _ => collect_refs(sub, out),
                }
            }
        }
        Value::Array(a) => a.iter().for_each(|s| collect_refs(s, out)),
        _ => {}
    }
}

/// Why `reference` (in the document at `base`) resolves to nothing, or
/// `None` when it resolves.
fn why_unresolved(
    base: &str,
    reference: &str,
    docs: &BTreeMap<&str, &Value>,
    dropped: &BTreeSet<String>,
) -> Option<String> {
    let (file, fragment) = reference.split_once('#').unwrap_or((reference, ""));
    if file.contains("://") || file.starts_with('/') {
        return Some("carta resolves only paths relative to the schema file, offline".into());
    }
    let uri = if file.is_empty() {
        base.to_owned()
    } else {
        let dir = base.rsplit_once('/').map_or(base, |(d, _)| d);
        normalize(&format!("{dir}/{file}"))
    };
    let shown = uri.strip_prefix(uri_prefix()).unwrap_or(&uri);
    if dropped.contains(&uri) {
        return Some(format!(
            "`{shown}` is left out, because a `$ref` in it cannot be resolved (reported there)"
        ));
    }
    let Some(doc) = docs.get(uri.as_str()) else {
        return Some(format!(
            "there is no schema file `{shown}` among this game's schemas"
        ));
    };
    let fragment = percent_decode(fragment);
    if fragment.is_empty() || fragment.starts_with('/') {
        if doc.pointer(&fragment).is_none() {
            return Some(format!("`{shown}` has nothing at `{fragment}`"));
        }
    } else if !has_anchor(doc, &fragment) {
        return Some(format!("`{shown}` has no `$anchor` `{fragment}`"));
    }
    None
}

fn has_anchor(v: &Value, name: &str) -> bool {
    match v {
        Value::Object(o) => {
            o.get("$anchor").and_then(Value::as_str) == Some(name)
                || o.values().any(|s| has_anchor(s, name))
        }
        Value::Array(a) => a.iter().any(|s| has_anchor(s, name)),
        _ => false,
    }
}

/// The span of the value of a `"$ref"` key whose value is `reference`.
fn ref_span(text: &str, reference: &str) -> std::ops::Range<usize> {
    let value = serde_json::to_string(reference).unwrap_or_default();
    for (at, key) in text.match_indices("\"$ref\"") {
        let rest = &text[at + key.len()..];
        let skipped = rest.len() - rest.trim_start().len();
        let rest = rest.trim_start();
        if let Some(after_colon) = rest.strip_prefix(':') {
            let pad = after_colon.len() - after_colon.trim_start().len();
            if after_colon.trim_start().starts_with(&value) {
                let start = at + key.len() + skipped + 1 + pad;
                return start..start + value.len();
            }
        }
    }
    0..0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_value_of_a_ref() {
        let text = r##"{ "a": {"$ref" : "x.json#/b"}, "$ref": "#/c" }"##;
        assert_eq!(&text[ref_span(text, "#/c")], "\"#/c\"");
        assert_eq!(&text[ref_span(text, "x.json#/b")], "\"x.json#/b\"");
    }

    #[test]
    fn resolves_relative_files_pointers_and_anchors() {
        let a = serde_json::json!({"$defs": {"x": {"$anchor": "ex"}}});
        let docs = BTreeMap::from([("carta://workspace/schemas/g/a.json", &a)]);
        let base = "carta://workspace/schemas/g/b.json";
        let none = BTreeSet::new();
        assert_eq!(why_unresolved(base, "a.json#/$defs/x", &docs, &none), None);
        assert_eq!(why_unresolved(base, "./a.json#ex", &docs, &none), None);
        assert!(
            why_unresolved(base, "a.json#/$defs/y", &docs, &none)
                .unwrap()
                .contains("nothing at")
        );
        assert!(
            why_unresolved(base, "c.json", &docs, &none)
                .unwrap()
                .contains("no schema file")
        );
        assert!(
            why_unresolved(base, "https://example.com/s.json", &docs, &none)
                .unwrap()
                .contains("offline")
        );
        let gone = BTreeSet::from(["carta://workspace/schemas/g/a.json".to_owned()]);
        assert!(
            why_unresolved(base, "a.json#/$defs/x", &docs, &gone)
                .unwrap()
                .contains("left out")
        );
    }
}
