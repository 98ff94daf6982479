//! The translation of a draft 2020-12 schema into draft 7, the newest
//! draft taplo's validator implements.

use serde_json::{Map, Value};

/// Translates a draft 2020-12 schema into draft 7: `$defs` becomes
/// `definitions`, `prefixItems`/`items` become `items`/`additionalItems`,
/// `dependentRequired`/`dependentSchemas` become `dependencies`, `$ref`s go
/// through `resolve` (and are dropped when it cannot place them); keywords
/// draft 7 lacks (`unevaluated*`, `minContains`, `$dynamicRef`, …) are
/// dropped, and a `contains` that `minContains: 0` made optional goes too.
pub(super) fn to_draft7(schema: &Value, resolve: &dyn Fn(&str) -> Option<String>) -> Value {
    let Value::Object(obj) = schema else {
        return schema.clone();
    };
    let mut out = Draft7 {
        out: Map::new(),
        dependencies: Map::new(),
        resolve,
    };
    for (k, v) in obj {
        out.keyword(k, v, obj);
    }
    let Draft7 {
        mut out,
        dependencies,
        ..
    } = out;
    if !dependencies.is_empty() {
        out.insert("dependencies".into(), Value::Object(dependencies));
    }
    Value::Object(out)
}

/// The keywords of draft 2020-12 (and of the schema's identity) a draft 7
/// schema leaves out.
const DRAFT7_LACKS: [&str; 12] = [
    "$schema",
    "$id",
    "$anchor",
    "$dynamicAnchor",
    "$dynamicRef",
    "$recursiveRef",
    "$recursiveAnchor",
    "$vocabulary",
    "unevaluatedProperties",
    "unevaluatedItems",
    "minContains",
    "maxContains",
];

/// A draft 7 schema object being written from a draft 2020-12 one.
struct Draft7<'r> {
    out: Map<String, Value>,
    /// `dependentRequired` and `dependentSchemas`, merged.
    dependencies: Map<String, Value>,
    resolve: &'r dyn Fn(&str) -> Option<String>,
}

impl Draft7<'_> {
    /// Writes keyword `k` (of value `v`, in the schema object `obj`).
    fn keyword(&mut self, k: &str, v: &Value, obj: &Map<String, Value>) {
        let optional_contains = obj.get("minContains").and_then(Value::as_u64) == Some(0);
        if DRAFT7_LACKS.contains(&k) {
            return;
        }
        match k {
            "$ref" => {
                if let Some(r) = v.as_str().and_then(self.resolve) {
                    self.out.insert("$ref".into(), r.into());
                }
            }
            "$defs" | "definitions" => {
                self.out.insert("definitions".into(), self.map_of(v));
            }
            "properties" | "patternProperties" => {
                self.out.insert(k.to_owned(), self.map_of(v));
            }
            "dependentSchemas" => {
                if let Value::Object(m) = self.map_of(v) {
                    self.dependencies.extend(m);
                }
            }
            "dependentRequired" => {
                if let Value::Object(m) = v {
                    self.dependencies.extend(m.clone());
                }
            }
            "prefixItems" => {
                self.out.insert("items".into(), self.list_of(v));
                if let Some(rest) = obj.get("items") {
                    let rest = to_draft7(rest, self.resolve);
                    self.out.insert("additionalItems".into(), rest);
                }
            }
            "items" if obj.contains_key("prefixItems") => {}
            "contains" if optional_contains => {}
            "allOf" | "anyOf" | "oneOf" => {
                self.out.insert(k.to_owned(), self.list_of(v));
            }
            "items"
            | "contains"
            | "additionalProperties"
            | "propertyNames"
            | "not"
            | "if"
            | "then"
            | "else"
            | "additionalItems" => {
                self.out.insert(k.to_owned(), to_draft7(v, self.resolve));
            }
            _ => {
                self.out.insert(k.to_owned(), v.clone());
            }
        }
    }

    /// An object of schemas (`properties`, `$defs`), each translated.
    fn map_of(&self, v: &Value) -> Value {
        match v {
            Value::Object(m) => Value::Object(
                m.iter()
                    .map(|(k, s)| (k.clone(), to_draft7(s, self.resolve)))
                    .collect(),
            ),
            other => other.clone(),
        }
    }

    /// A list of schemas (`allOf`, `prefixItems`), each translated.
    fn list_of(&self, v: &Value) -> Value {
        match v {
            Value::Array(a) => Value::Array(a.iter().map(|s| to_draft7(s, self.resolve)).collect()),
            other => to_draft7(other, self.resolve),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn none(_: &str) -> Option<String> {
        None
    }

    #[test]
    fn prefix_items_become_tuple_items() {
        let s = json!({"prefixItems": [{"const": 1}], "items": {"type": "integer"}});
        assert_eq!(
            to_draft7(&s, &none),
            json!({"items": [{"const": 1}], "additionalItems": {"type": "integer"}})
        );
    }

    #[test]
    fn optional_contains_is_dropped_and_dependent_required_is_translated() {
        let s = json!({"contains": {"const": 1}, "minContains": 0, "maxContains": 1,
                       "dependentRequired": {"a": ["b"]}});
        assert_eq!(to_draft7(&s, &none), json!({"dependencies": {"a": ["b"]}}));
        let s = json!({"contains": {"const": 1}, "maxContains": 1});
        assert_eq!(to_draft7(&s, &none), json!({"contains": {"const": 1}}));
    }

    #[test]
    fn a_property_named_like_a_keyword_is_kept() {
        let s = json!({"properties": {"prefixItems": {"type": "string"}}, "enum": [{"$ref": "x"}]});
        assert_eq!(to_draft7(&s, &none), s);
    }
}
