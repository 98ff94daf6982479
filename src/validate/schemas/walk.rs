//! What a game's schemas say, read by walking them: where a kind marks
//! card references and labelled values, the fields of its default face,
//! its properties, and every schema object that applies to a path of a
//! card (`$ref`s and combinators followed). The compile beside it, in
//! `schemas.rs`, makes the validators; this reads the documents.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde_json::{Map, Value};

use super::{GameSchemas, KindSchema, Marks, RefPattern, Visit, ref_kinds};
use crate::validate::display::{self, FaceField, LabelPattern};
use crate::validate::documents::{PathStep, REF_KEYWORD, normalize, percent_decode};

impl GameSchemas {
    /// Where the schema of kind `k` marks card references and labelled
    /// values, found the first time they are asked for: a one-card
    /// re-check asks for one kind's (the walk follows every `$ref`).
    pub fn marks<'a>(&self, k: &'a KindSchema) -> &'a Marks {
        k.marks.get_or_init(|| {
            let Some(doc) = self.docs.get(&k.uri) else {
                return Marks::default();
            };
            let (mut refs, mut labels) = (Vec::new(), Vec::new());
            self.walk(doc, &k.uri, &mut Vec::new(), 0, &mut |obj, path| {
                if let Some(kinds) = obj.get(REF_KEYWORD).and_then(ref_kinds) {
                    refs.push(RefPattern {
                        path: path.to_vec(),
                        kinds: kinds.into(),
                    });
                }
                if let Some(map) = display::labels_of(obj) {
                    labels.push(LabelPattern {
                        path: path.to_vec(),
                        labels: Arc::new(map),
                    });
                }
            });
            Marks { refs, labels }
        })
    }

    /// The top-level fields of kind `k` in schema order, as the default
    /// face lays them out.
    pub fn face<'a>(&self, k: &'a KindSchema) -> &'a [FaceField] {
        k.face.get_or_init(|| self.face_fields(&k.uri))
    }

    /// The top-level property names a card of `kind` may have (following
    /// `$ref` and `allOf`/`anyOf`/`oneOf`), if its schema compiled.
    pub fn property_names(&self, kind: &str) -> Option<std::collections::BTreeSet<String>> {
        let k = self.kinds.get(kind)?;
        let mut out = std::collections::BTreeSet::new();
        self.collect_properties(&self.docs[&k.uri], &k.uri, &mut out, 0);
        Some(out)
    }

    fn collect_properties(
        &self,
        schema: &Value,
        base: &str,
        out: &mut std::collections::BTreeSet<String>,
        depth: usize,
    ) {
        let Some(obj) = schema.as_object().filter(|_| depth < 16) else {
            return;
        };
        out.extend(
            obj.get("properties")
                .and_then(Value::as_object)
                .into_iter()
                .flatten()
                .map(|(k, _)| k.clone()),
        );
        if let Some((target, target_base)) = obj
            .get("$ref")
            .and_then(Value::as_str)
            .and_then(|r| self.resolve(base, r))
        {
            self.collect_properties(target, &target_base, out, depth + 1);
        }
        for key in ["allOf", "anyOf", "oneOf"] {
            for sub in obj.get(key).and_then(Value::as_array).into_iter().flatten() {
                self.collect_properties(sub, base, out, depth + 1);
            }
        }
    }

    /// The top-level properties of `kind`'s schema, each with its schema
    /// (a `$ref` followed, and its own keywords laid over the target's),
    /// in schema order.
    pub fn property_schemas(&self, kind: &str) -> Vec<(String, Value)> {
        let Some(k) = self.kinds.get(kind) else {
            return Vec::new();
        };
        let Some(props) = self.docs[&k.uri]
            .get("properties")
            .and_then(Value::as_object)
        else {
            return Vec::new();
        };
        props
            .iter()
            .map(|(name, schema)| {
                let mut merged = serde_json::Map::new();
                let (mut at, mut base) = (schema.clone(), k.uri.clone());
                for _ in 0..16 {
                    let target = at
                        .get("$ref")
                        .and_then(Value::as_str)
                        .and_then(|r| self.resolve(&base, r))
                        .map(|(v, b)| (v.clone(), b));
                    if let Some(obj) = at.as_object() {
                        for (key, v) in obj {
                            merged.entry(key.clone()).or_insert_with(|| v.clone());
                        }
                    }
                    match target {
                        Some((v, b)) => (at, base) = (v, b),
                        None => break,
                    }
                }
                (name.clone(), Value::Object(merged))
            })
            .collect()
    }

    /// The schema object at an absolute keyword location's parent, e.g. for
    /// `carta://…/x.schema.json#/properties/levels/items/required` the object at
    /// `/properties/levels/items`.
    pub fn parent_of_keyword(&self, location: &str) -> Option<&Value> {
        let (uri, fragment) = location.split_once('#').unwrap_or((location, ""));
        let doc = self.docs.get(uri)?;
        let pointer = percent_decode(fragment);
        let parent = pointer.rsplit_once('/').map_or("", |(p, _)| p);
        doc.pointer(parent)
    }

    /// Visits every schema object of `kind` with the path of the card's
    /// values it applies to (see [`GameSchemas::walk`]); nothing when the
    /// kind's schema did not compile.
    pub fn visit<'a>(&'a self, kind: &str, visit: &mut Visit<'a, '_>) {
        if let Some(k) = self.kinds.get(kind) {
            self.walk(&self.docs[&k.uri], &k.uri, &mut Vec::new(), 0, visit);
        }
    }

    /// Visits every schema object that applies to some path of a card,
    /// following `$ref`, the combinators, `properties`, `items`,
    /// `prefixItems` and `additionalProperties`.
    fn walk<'a>(
        &'a self,
        schema: &'a Value,
        base: &str,
        path: &mut Vec<PathStep>,
        depth: usize,
        visit: &mut Visit<'a, '_>,
    ) {
        // Schemas may recurse through `$ref`; card data nests only a few levels.
        if depth > 32 {
            return;
        }
        let Some(obj) = schema.as_object() else {
            return;
        };
        visit(obj, path);
        if let Some((target, target_base)) = obj
            .get("$ref")
            .and_then(Value::as_str)
            .and_then(|r| self.resolve(base, r))
        {
            self.walk(target, &target_base, path, depth + 1, visit);
        }
        for key in ["allOf", "anyOf", "oneOf"] {
            for sub in obj.get(key).and_then(Value::as_array).into_iter().flatten() {
                self.walk(sub, base, path, depth + 1, visit);
            }
        }
        for key in ["if", "then", "else"] {
            if let Some(sub) = obj.get(key) {
                self.walk(sub, base, path, depth + 1, visit);
            }
        }
        for (name, sub) in obj
            .get("properties")
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
        {
            path.push(PathStep::Key(name.clone()));
            self.walk(sub, base, path, depth + 1, visit);
            path.pop();
        }
        let children = [
            ("items", PathStep::AnyItem),
            ("additionalProperties", PathStep::AnyKey),
        ];
        for (key, step) in children {
            if let Some(sub) = obj.get(key) {
                path.push(step);
                self.walk(sub, base, path, depth + 1, visit);
                path.pop();
            }
        }
        for sub in obj
            .get("prefixItems")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            path.push(PathStep::AnyItem);
            self.walk(sub, base, path, depth + 1, visit);
            path.pop();
        }
    }

    /// The top-level fields of the schema at `uri`, in schema order, each
    /// with its title and the role the default face gives it.
    fn face_fields<'a>(&'a self, uri: &str) -> Vec<FaceField> {
        let mut keys: Vec<String> = Vec::new();
        let mut parts: BTreeMap<String, Vec<&Map<String, Value>>> = BTreeMap::new();
        let Some(root) = self.docs.get(uri) else {
            return Vec::new();
        };
        // Each top-level property's schema objects: its own and those its
        // `$ref`s and combinators lead to.
        let mut collect = |obj: &'a Map<String, Value>, path: &[PathStep]| {
            if let [PathStep::Key(k)] = path {
                if !keys.contains(k) {
                    keys.push(k.clone());
                }
                parts.entry(k.clone()).or_default().push(obj);
            }
        };
        self.walk(root, uri, &mut Vec::new(), 0, &mut collect);
        keys.into_iter()
            .map(|key| {
                let ps = &parts[&key];
                let title = ps
                    .iter()
                    .find_map(|p| p.get("title").and_then(Value::as_str))
                    .map_or_else(|| key.replace('_', " "), str::to_owned);
                FaceField {
                    role: display::role_of(ps),
                    title,
                    key,
                }
            })
            .collect()
    }

    /// Resolves a `$ref` against `base` among the game's documents.
    fn resolve(&self, base: &str, reference: &str) -> Option<(&Value, String)> {
        let (file, fragment) = reference.split_once('#').unwrap_or((reference, ""));
        let uri = if file.is_empty() {
            base.to_owned()
        } else {
            let dir = base.rsplit_once('/').map_or(base, |(d, _)| d);
            normalize(&format!("{dir}/{file}"))
        };
        let doc = self.docs.get(&uri)?;
        Some((doc.pointer(&percent_decode(fragment))?, uri))
    }
}
