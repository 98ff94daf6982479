//! What a kind's schema accepts at a path, for typing spreadsheet cells
//! (`load::sheet`): the JSON types, and an enum's values with their labels;
//! and the kind the manifest gives a sheet's rows.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use super::display::{LABELS_KEYWORD, scalar_key};
use super::documents::PathStep;
use super::manifest::LoadedManifest;
use super::schemas::GameSchemas;
use crate::load::sheet::{Expect, Step, Types};

/// What a game's spreadsheet card files are read with: its schemas, and
/// the kinds its manifest gives whole files or sheets (`[kinds.k] sheets`).
pub struct SheetTypes<'a> {
    schemas: &'a GameSchemas,
    /// The game's card folder, `cards/<game>/`, which `sheets` are relative to.
    folder: String,
    /// By `file` or `file#sheet`, relative to the folder.
    kinds: BTreeMap<String, String>,
}

impl<'a> SheetTypes<'a> {
    /// The types of game `manifest`'s sheets, typed by `schemas`.
    pub fn new(manifest: &LoadedManifest, schemas: &'a GameSchemas) -> Self {
        Self {
            schemas,
            folder: format!("cards/{}/", manifest.manifest.id),
            kinds: manifest.manifest.sheet_kinds(),
        }
    }
}

impl Types for SheetTypes<'_> {
    fn expect(&self, kind: &str, path: &[Step<'_>]) -> Expect {
        let mut out = Expect::default();
        self.schemas.visit(kind, &mut |obj, at| {
            if matches_path(at, path) {
                add(&mut out, obj);
            }
        });
        out
    }

    fn sheet_kind(&self, rel: &str, sheet: &str) -> Option<&str> {
        let file = rel.strip_prefix(&self.folder)?;
        let one = (!sheet.is_empty())
            .then(|| self.kinds.get(&format!("{file}#{sheet}")))
            .flatten();
        one.or_else(|| self.kinds.get(file)).map(String::as_str)
    }
}

/// Whether a schema path pattern stands for a concrete path.
fn matches_path(pattern: &[PathStep], path: &[Step<'_>]) -> bool {
    pattern.len() == path.len()
        && pattern.iter().zip(path).all(|(p, s)| match (p, s) {
            (PathStep::Key(k), Step::Key(s)) => k == s,
            (PathStep::AnyKey, Step::Key(_)) | (PathStep::AnyItem, Step::Item) => true,
            _ => false,
        })
}

/// Adds what one schema object says to `out`.
fn add(out: &mut Expect, obj: &Map<String, Value>) {
    let types: Vec<&str> = match obj.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    };
    for t in types {
        match t {
            "string" => out.string = true,
            "integer" => out.integer = true,
            "number" => out.number = true,
            "boolean" => out.boolean = true,
            "array" => out.array = true,
            "object" => out.object = true,
            _ => {}
        }
    }
    out.array |= obj.contains_key("items") || obj.contains_key("prefixItems");
    out.object |= obj.contains_key("properties");
    let labels = obj.get(LABELS_KEYWORD).and_then(Value::as_object);
    let values = obj
        .get("enum")
        .and_then(Value::as_array)
        .cloned()
        .or_else(|| obj.get("const").map(|c| vec![c.clone()]));
    for v in values.into_iter().flatten() {
        let label = scalar_key(&v)
            .and_then(|k| labels.and_then(|l| l.get(&k)))
            .and_then(Value::as_str)
            .map(str::to_owned);
        if !out.choices.iter().any(|(c, _)| *c == v) {
            out.choices.push((v, label));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pattern_matches_items_and_any_key() {
        let pattern = [
            PathStep::Key("levels".into()),
            PathStep::AnyItem,
            PathStep::AnyKey,
        ];
        let path = [Step::Key("levels"), Step::Item, Step::Key("attack")];
        assert!(matches_path(&pattern, &path));
        assert!(!matches_path(&pattern, &path[..2]));
        let other = [Step::Key("levels"), Step::Key("1"), Step::Key("attack")];
        assert!(!matches_path(&pattern, &other));
    }

    #[test]
    fn types_enums_and_labels_are_gathered() {
        let mut out = Expect::default();
        let schema = serde_json::json!({
            "type": ["integer", "string"],
            "enum": [1, "caotico-mau"],
            "x-carta-labels": {"caotico-mau": "Caótico e Mau"}
        });
        add(&mut out, schema.as_object().unwrap());
        assert!(out.integer && out.string && !out.boolean);
        assert_eq!(out.choices[1].1.as_deref(), Some("Caótico e Mau"));
        assert_eq!(out.choices[0].1, None);
    }
}
