//! The translation of a draft 2020-12 schema into draft 7, the newest
//! draft taplo's validator implements, shaped so that one mistake gives
//! taplo one error that names it.

use serde_json::{Map, Value, json};

/// What stands for `"additionalProperties": false`: a schema no value
/// meets, naming the problem. With `false`, taplo repeats "Additional
/// properties are not allowed" on every key and value of the table (its
/// bug #515: 128 errors for one misspelt field of a card); this fails
/// once, at the unknown key's value.
pub(super) fn no_such(what: &str) -> Value {
    json!({ "enum": [format!("({what})")] })
}

/// The unknown keys of a table, in every schema translated.
const NO_SUCH_KEY: &str = "no such key here: check its spelling";

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
    titled_docs(&mut out);
    Value::Object(out)
}

/// taplo's hover shows a schema's `description` alone; its own
/// `x-taplo.docs.main`, when there is one, instead: that is given the title
/// too, so hovering a field shows both.
fn titled_docs(out: &mut Map<String, Value>) {
    let (Some(Value::String(title)), Some(Value::String(description))) =
        (out.get("title"), out.get("description"))
    else {
        return;
    };
    let main = Value::String(format!("**{title}**\n\n{description}"));
    let ext = out.entry("x-taplo").or_insert_with(|| json!({}));
    if let Some(docs) = ext
        .as_object_mut()
        .map(|e| e.entry("docs").or_insert_with(|| json!({})))
        .and_then(Value::as_object_mut)
    {
        docs.entry("main").or_insert(main);
    }
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

/// `type` without `"null"`: `["integer", "null"]` is `"integer"`.
fn without_null_type(v: &Value) -> Value {
    let Value::Array(types) = v else {
        return v.clone();
    };
    let mut rest: Vec<Value> = types
        .iter()
        .filter(|t| t.as_str() != Some("null"))
        .cloned()
        .collect();
    match rest.len() {
        1 => rest.remove(0),
        0 => v.clone(),
        _ => Value::Array(rest),
    }
}

/// The branches of an `anyOf`/`oneOf` that are not `{"type": "null"}`,
/// when there was one (`None` otherwise: nothing to strip).
fn non_null(v: &Value) -> Option<Vec<&Value>> {
    let branches = v.as_array()?;
    let null = json!({ "type": "null" });
    let rest: Vec<&Value> = branches.iter().filter(|b| **b != null).collect();
    (rest.len() < branches.len()).then_some(rest)
}

/// The values of an `anyOf`/`oneOf` whose every branch is a `const`
/// (with at most a `description`, a `title` and a `type` besides), and
/// their descriptions.
fn documented_values(v: &Value) -> Option<(Vec<Value>, Vec<String>)> {
    let branches = v.as_array()?;
    let mut values = Vec::new();
    let mut docs = Vec::new();
    for b in branches {
        let b = b.as_object()?;
        let plain = b
            .keys()
            .all(|k| matches!(k.as_str(), "const" | "description" | "title" | "type"));
        if !plain {
            return None;
        }
        values.push(b.get("const")?.clone());
        let doc = b.get("description").or_else(|| b.get("title"));
        docs.push(doc.and_then(Value::as_str).unwrap_or_default().to_owned());
    }
    (!values.is_empty()).then_some((values, docs))
}

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
            "allOf" | "anyOf" | "oneOf" => self.choice(k, v, obj),
            "additionalProperties" if v == &Value::Bool(false) => {
                self.out.insert(k.to_owned(), no_such(NO_SUCH_KEY));
            }
            // TOML has no null: a nullable value is the value (and an
            // `anyOf` with null would be all taplo names of a mistake).
            "type" => {
                self.out.insert(k.to_owned(), without_null_type(v));
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

    /// Writes the composition `k` (`allOf`, `anyOf`, `oneOf`) of `v`.
    fn choice(&mut self, k: &str, v: &Value, obj: &Map<String, Value>) {
        if k == "allOf" {
            self.out.insert(k.to_owned(), self.list_of(v));
        } else if let Some((values, docs)) = documented_values(v) {
            // Documented values (`oneOf` of `const`s, as schemars writes a
            // documented enum): an `enum`, so a wrong value lists them all,
            // with taplo's own docs for each.
            self.out.insert("enum".into(), Value::Array(values));
            let ext = self.out.entry("x-taplo").or_insert_with(|| json!({}));
            ext["docs"]["enumValues"] = Value::from(docs);
        } else if let Some(rest) = non_null(v) {
            let rest: Vec<Value> = rest
                .into_iter()
                .map(|b| to_draft7(b, self.resolve))
                .collect();
            // One branch left: its errors, not "valid under none of".
            let key = if rest.len() == 1 && !obj.contains_key("allOf") {
                "allOf"
            } else {
                k
            };
            self.out.insert(key.to_owned(), Value::Array(rest));
        } else {
            self.out.insert(k.to_owned(), self.list_of(v));
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
    fn an_unknown_key_fails_once_by_name_and_null_is_no_value_in_toml() {
        let s = json!({
            "additionalProperties": false,
            "properties": {
                "a": {"type": ["integer", "null"]},
                "b": {"description": "B.", "anyOf": [{"$ref": "#/x"}, {"type": "null"}]},
                "c": {"anyOf": [{"type": "string"}, {"type": "integer"}]}
            }
        });
        let local = |r: &str| Some(r.to_owned());
        assert_eq!(
            to_draft7(&s, &local),
            json!({
                "additionalProperties": {"enum": ["(no such key here: check its spelling)"]},
                "properties": {
                    "a": {"type": "integer"},
                    "b": {"description": "B.", "allOf": [{"$ref": "#/x"}]},
                    "c": {"anyOf": [{"type": "string"}, {"type": "integer"}]}
                }
            })
        );
    }

    #[test]
    fn documented_values_become_an_enum_with_their_docs() {
        let s = json!({"oneOf": [
            {"description": "ISO A4.", "type": "string", "const": "a4"},
            {"description": "US Letter.", "type": "string", "const": "letter"}
        ]});
        assert_eq!(
            to_draft7(&s, &none),
            json!({"enum": ["a4", "letter"], "x-taplo": {"docs": {"enumValues": ["ISO A4.", "US Letter."]}}})
        );
        // A branch that is more than a value stays a branch.
        let s = json!({"anyOf": [{"const": "a"}, {"type": "object"}]});
        assert_eq!(to_draft7(&s, &none), s);
    }

    #[test]
    fn a_titled_description_is_taplo_s_hover_text() {
        let s = json!({"title": "Cost", "description": "Mana paid.", "type": "integer"});
        assert_eq!(
            to_draft7(&s, &none)["x-taplo"],
            json!({"docs": {"main": "**Cost**\n\nMana paid."}})
        );
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
