//! The translatable strings of a game: its manifest's names and
//! descriptions, its enum labels, each card's `name` and the string fields
//! its kind's schema marks `"x-carta-translate": true`, the phrases its
//! templates print, the titles its default face prints, and the captions
//! carta prints on its sheets.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use super::{Key, LABELS_KEYWORD, Scope, TRANSLATE_KEYWORD};
use crate::config::Manifest;
use crate::diag::{FileId, Span};
use crate::link::CardPool;
use crate::validate::{GameSchemas, LoadedManifest, PathStep, RawCard};

/// One source string and where it is written, when that is known (labels
/// live in schema files, which keep no spans).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Source {
    /// The text in the game's own language.
    pub text: String,
    /// Where it is written.
    pub at: Option<(FileId, Span)>,
}

/// Where a kind's values stand in its schema: every path, and the paths
/// marked translatable.
#[derive(Debug, Clone, Default)]
struct KindPaths {
    known: Vec<Vec<PathStep>>,
    translate: Vec<Vec<PathStep>>,
}

/// Every translatable string of one game, by key.
#[derive(Debug, Clone, Default)]
pub struct Sources {
    /// The strings.
    pub strings: BTreeMap<Key, Source>,
    kinds: BTreeMap<String, KindPaths>,
}

/// How a path into a card's fields is written in a translation file.
pub fn dotted(path: &[String]) -> String {
    path.join(".")
}

impl Sources {
    /// The translatable strings of a loaded game. Cards carry only the
    /// fields they kept (see [`translatable_fields`]).
    pub fn of(manifest: &LoadedManifest, schemas: &GameSchemas, pool: &CardPool) -> Self {
        let mut sources = Sources::default();
        let m = &manifest.manifest;
        // Each string of the manifest, where `game.toml` writes it.
        let mut texts = m.clone();
        texts.texts_mut(&mut |section, id, field, text| {
            let Some(key) = Key::in_manifest(section, id, field) else {
                return;
            };
            let at = manifest
                .spans
                .value_span(&pointer(m, section, id, field))
                .map(|span| (manifest.file, span));
            let text = std::mem::take(text);
            sources.strings.insert(key, Source { text, at });
        });
        for kind in m.kinds.keys() {
            let mut paths = KindPaths::default();
            let strings = &mut sources.strings;
            schemas.visit(kind, &mut |obj, path| {
                paths.known.push(path.to_vec());
                if obj.get(TRANSLATE_KEYWORD) == Some(&Value::Bool(true)) {
                    paths.translate.push(path.to_vec());
                }
                let labels = obj.get(LABELS_KEYWORD).and_then(Value::as_object);
                for (value, label) in labels.into_iter().flatten() {
                    if let Some(label) = label.as_str() {
                        strings
                            .entry(Key::new(Scope::Label(value.clone()), ""))
                            .or_insert_with(|| Source {
                                text: label.to_owned(),
                                at: None,
                            });
                    }
                }
            });
            sources.kinds.insert(kind.clone(), paths);
        }
        for card in pool.iter() {
            for (field, text, _) in sources.card_strings(card) {
                let key = Key::new(Scope::Card(card.id.clone()), field);
                let at = Some((card.file, card.id_span.clone()));
                sources.strings.insert(key, Source { text, at });
            }
        }
        // carta's own captions, in the game's language as carta knows it.
        for id in super::captions::ids() {
            let text = super::captions::source(id, &m.language).to_owned();
            let key = Key::new(Scope::Caption(id.to_owned()), "");
            sources.strings.insert(key, Source { text, at: None });
        }
        sources
    }

    /// These strings and the titles of the fields of `kinds` that the
    /// default face prints as labels (stats, references, text and other
    /// values: not art, flavour, focus or choices, whose value is all it
    /// prints), by kind and field; `kinds` are those whose face may print
    /// them.
    #[must_use]
    pub fn with_titles(mut self, schemas: &GameSchemas, kinds: &[String]) -> Self {
        use crate::validate::display::Role;
        for kind in kinds {
            let Some(schema) = schemas.kind(kind) else {
                continue;
            };
            for f in schemas.face(schema) {
                if matches!(
                    f.role,
                    Role::Stat | Role::Ref | Role::Code | Role::Text | Role::Other
                ) {
                    let key = Key::new(Scope::Title(kind.clone()), f.key.clone());
                    let text = f.title.clone();
                    self.strings.insert(key, Source { text, at: None });
                }
            }
        }
        self
    }

    /// These strings and the phrases the game's templates print
    /// (`{{t "…"}}`, see [`super::phrases`]).
    #[must_use]
    pub fn with_phrases(mut self, phrases: Vec<super::phrases::Phrase>) -> Self {
        for p in phrases {
            let at = Some((p.file, p.span));
            let key = Key::new(Scope::Phrase(p.text.clone()), "");
            self.strings.insert(key, Source { text: p.text, at });
        }
        self
    }

    /// A card's translatable strings: (dotted path, text, whether it is the
    /// name), `name` first.
    pub fn card_strings(&self, card: &RawCard) -> Vec<(String, String, bool)> {
        let mut out = vec![("name".to_owned(), card.name.clone(), true)];
        let Some(paths) = self.kinds.get(&card.kind) else {
            return out;
        };
        let root = Value::Object(card.all_fields().into_owned());
        let mut found = BTreeSet::new();
        for pattern in &paths.translate {
            collect(&root, pattern, &mut Vec::new(), &mut |path, text| {
                found.insert((dotted(path), text.to_owned()));
            });
        }
        out.extend(found.into_iter().map(|(p, t)| (p, t, false)));
        out
    }

    /// Whether a dotted path names a field of `kind` that the schema knows
    /// but does not mark translatable (`None`: the kind is unknown).
    pub fn is_known_untranslatable(&self, kind: &str, field: &str) -> Option<bool> {
        let paths = self.kinds.get(kind)?;
        let segs: Vec<&str> = field.split('.').collect();
        let reserved = segs.len() == 1 && crate::validate::RESERVED.contains(&segs[0]);
        let known = paths.known.iter().any(|p| matches(p, &segs));
        let translatable = paths.translate.iter().any(|p| matches(p, &segs));
        Some(reserved || (known && !translatable))
    }

    /// The dotted paths a translation of `kind` may name that look like
    /// `field` (for did-you-mean help).
    pub fn translatable_patterns(&self, kind: &str) -> Vec<String> {
        let mut out = vec!["name".to_owned()];
        for p in self
            .kinds
            .get(kind)
            .map(|k| &k.translate)
            .into_iter()
            .flatten()
        {
            out.push(
                p.iter()
                    .map(|s| match s {
                        PathStep::Key(k) => k.as_str(),
                        PathStep::AnyItem => "0",
                        PathStep::AnyKey => "*",
                    })
                    .collect::<Vec<_>>()
                    .join("."),
            );
        }
        out
    }
}

/// The JSON pointer into `game.toml` of a manifest string named as
/// [`Manifest::texts_mut`] names it.
fn pointer(m: &Manifest, section: &str, id: &str, field: &str) -> String {
    match (section, field) {
        ("game", _) => format!("/{field}"),
        ("kinds", "back") => format!("/kinds/{id}/print/back"),
        ("rules", _) => {
            let (list, rules, rule) = match id.split_once('.') {
                Some((format, rule)) => (
                    format!("/formats/{format}/deck-rules"),
                    m.formats.get(format).map_or(&[][..], |f| &f.deck_rules),
                    rule,
                ),
                None if m.deck_rules.iter().any(|r| r.id == id) => {
                    ("/deck-rules".to_owned(), &m.deck_rules[..], id)
                }
                None => ("/box-rules".to_owned(), &m.box_rules[..], id),
            };
            let i = rules.iter().position(|r| r.id == rule).unwrap_or(0);
            format!("{list}/{i}/{field}")
        }
        _ => format!("/{section}/{id}/{field}"),
    }
}

/// The top-level fields that hold translatable strings in some kind: what a
/// check must keep of the cards besides what rules read.
pub fn translatable_fields(manifest: &LoadedManifest, schemas: &GameSchemas) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for kind in manifest.manifest.kinds.keys() {
        schemas.visit(kind, &mut |obj, path| {
            if let (Some(PathStep::Key(k)), Some(Value::Bool(true))) =
                (path.first(), obj.get(TRANSLATE_KEYWORD))
            {
                out.insert(k.clone());
            }
        });
    }
    out
}

/// Whether a concrete path matches a pattern.
fn matches(pattern: &[PathStep], segs: &[&str]) -> bool {
    pattern.len() == segs.len()
        && pattern.iter().zip(segs).all(|(p, s)| match p {
            PathStep::Key(k) => k == s,
            PathStep::AnyItem => s.parse::<usize>().is_ok(),
            PathStep::AnyKey => true,
        })
}

/// Calls `f` with the path and text of every string at `pattern` in `value`.
fn collect(
    value: &Value,
    pattern: &[PathStep],
    path: &mut Vec<String>,
    f: &mut dyn FnMut(&[String], &str),
) {
    match pattern.split_first() {
        None => {
            if let Value::String(s) = value {
                f(path, s);
            }
        }
        Some((PathStep::Key(k), rest)) => {
            if let Some(v) = value.as_object().and_then(|m| m.get(k)) {
                path.push(k.clone());
                collect(v, rest, path, f);
                path.pop();
            }
        }
        Some((PathStep::AnyItem, rest)) => {
            for (i, v) in value.as_array().into_iter().flatten().enumerate() {
                path.push(i.to_string());
                collect(v, rest, path, f);
                path.pop();
            }
        }
        Some((PathStep::AnyKey, rest)) => {
            for (k, v) in value.as_object().into_iter().flatten() {
                path.push(k.clone());
                collect(v, rest, path, f);
                path.pop();
            }
        }
    }
}

/// Replaces the string at dotted `field` in `value` by `text`; false when
/// there is no string there.
pub fn replace(value: &mut Value, field: &str, text: &str) -> bool {
    let mut at = value;
    for seg in field.split('.') {
        let next = match at {
            Value::Object(m) => m.get_mut(seg),
            Value::Array(items) => seg.parse::<usize>().ok().and_then(|i| items.get_mut(i)),
            _ => None,
        };
        match next {
            Some(v) => at = v,
            None => return false,
        }
    }
    if at.is_string() {
        *at = Value::String(text.to_owned());
        true
    } else {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn collects_strings_along_a_pattern() {
        let v = json!({"levels": [{"ability": {"text": "a"}}, {"ability": {"text": "b"}}]});
        let pattern = [
            PathStep::Key("levels".into()),
            PathStep::AnyItem,
            PathStep::Key("ability".into()),
            PathStep::Key("text".into()),
        ];
        let mut got = Vec::new();
        collect(&v, &pattern, &mut Vec::new(), &mut |p, t| {
            got.push((dotted(p), t.to_owned()));
        });
        assert_eq!(
            got,
            [
                ("levels.0.ability.text".to_owned(), "a".to_owned()),
                ("levels.1.ability.text".to_owned(), "b".to_owned())
            ]
        );
        assert!(matches(&pattern, &["levels", "3", "ability", "text"]));
        assert!(!matches(&pattern, &["levels", "x", "ability", "text"]));
    }

    #[test]
    fn replaces_only_strings() {
        let mut v = json!({"a": [{"b": "x"}], "n": 3});
        assert!(replace(&mut v, "a.0.b", "y"));
        assert!(!replace(&mut v, "n", "y"));
        assert!(!replace(&mut v, "a.1.b", "y"));
        assert_eq!(v, json!({"a": [{"b": "y"}], "n": 3}));
    }
}
