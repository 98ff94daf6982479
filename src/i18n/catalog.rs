//! A translation file, `cards/<game>/i18n/<lang>.toml`, parsed with spans:
//!
//! ```toml
//! [game]
//! name = { text = "Zodiac Intrepids", source = "3f1c0a9e5b7d2c44" }
//!
//! [kinds.action]
//! name = { text = "Action", source = "…" }
//!
//! [labels]
//! aries = { text = "Aries", source = "…" }
//!
//! [phrases]                       # captions templates print with {{t "…"}}
//! "Vida" = { text = "Health", source = "…" }
//!
//! [titles.intrepido]              # the default face's labels, by field
//! custo = { text = "Cost", source = "…" }
//!
//! [captions]                      # what carta prints on the sheets, by id
//! kind = { text = "Kind", source = "…" }
//!
//! [cards.rei-frixo]
//! name = { text = "King Phrixus", source = "…" }
//! "levels.0.ability.text" = { text = "…", source = "…" }
//! ```
//!
//! An entry is `{ text, source }` (`source`: the hash of the source text it
//! translates) or a bare string, which has not been reviewed against a
//! source yet.

use std::collections::BTreeMap;

use toml::Spanned;
use toml::de::{DeTable, DeValue};

use super::{Key, Scope};
use crate::diag::{Cap, Diagnostic, FileId, Span};
use crate::limits::max_diagnostics_per_file;
use crate::load::parse_toml;
use crate::suggest;

/// The sections of a translation file.
pub const SECTIONS: [&str; 11] = [
    "game", "kinds", "zones", "formats", "rules", "keywords", "labels", "phrases", "captions",
    "titles", "cards",
];

/// One translated string.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The translation.
    pub text: String,
    /// The hash of the source text it was made from, if recorded.
    pub hash: Option<String>,
    /// Where its key is written.
    pub key_span: Span,
    /// Where its text is written.
    pub text_span: Span,
}

/// The translations of one game into one language.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Catalog {
    /// The language (BCP 47), from the file's name.
    pub lang: String,
    /// The file.
    pub file: FileId,
    /// Every entry, by key.
    pub entries: BTreeMap<Key, Entry>,
    /// Where each scope's table header or key is written (`[cards.x]`).
    pub scope_spans: BTreeMap<Scope, Span>,
}

impl Catalog {
    /// The translation of `key`, if there is one.
    pub fn get(&self, key: &Key) -> Option<&Entry> {
        self.entries.get(key)
    }

    /// Whether any entry belongs to `scope`.
    pub fn has_scope(&self, scope: &Scope) -> bool {
        let first = Key::new(scope.clone(), "");
        self.entries
            .range(first..)
            .next()
            .is_some_and(|(k, _)| k.scope == *scope)
    }
}

type Table<'a> = DeTable<'a>;
type Value<'a> = Spanned<DeValue<'a>>;

/// Parses translation file `file` (language `lang`), reporting every
/// structural problem into `out`; semantic checks (unknown cards, stale
/// entries) are [`super::check`](mod@super::check)'s.
pub fn parse(file: FileId, text: &str, lang: &str, out: &mut Vec<Diagnostic>) -> Catalog {
    let mut catalog = Catalog {
        lang: lang.to_owned(),
        file,
        entries: BTreeMap::new(),
        scope_spans: BTreeMap::new(),
    };
    let (doc, _) = parse_toml(file, text, out);
    // A file of a million broken entries keeps the diagnostics of a few.
    let mut cap = Cap::new(max_diagnostics_per_file());
    for (key, value) in doc.get_ref() {
        cap.settle(out);
        let name = key.get_ref().as_ref();
        let Some(table) = table_of(file, value, name, out) else {
            continue;
        };
        match name {
            "game" => fields(&mut catalog, &Scope::Game, table, out, &mut cap),
            "labels" | "phrases" | "captions" => labels(&mut catalog, name, table, out, &mut cap),
            "kinds" | "zones" | "formats" | "rules" | "keywords" | "titles" | "cards" => {
                for (id, inner) in table {
                    let id_text = id.get_ref().to_string();
                    let scope = match name {
                        "kinds" => Scope::Kind(id_text),
                        "zones" => Scope::Zone(id_text),
                        "formats" => Scope::Format(id_text),
                        "rules" => Scope::Rule(id_text),
                        "keywords" => Scope::Keyword(id_text),
                        "titles" => Scope::Title(id_text),
                        _ => Scope::Card(id_text),
                    };
                    catalog.scope_spans.insert(scope.clone(), id.span());
                    if let Some(t) = table_of(file, inner, id.get_ref(), out) {
                        fields(&mut catalog, &scope, t, out, &mut cap);
                    }
                    cap.settle(out);
                }
            }
            other => out.push(
                Diagnostic::error(
                    "i18n::unknown-entry",
                    format!("a translation file has no section `{other}`"),
                )
                .at(file, key.span(), "unknown section")
                .with_help(suggest::help(other, SECTIONS, "sections")),
            ),
        }
    }
    catalog
}

/// The table a section or scope must be.
fn table_of<'t>(
    file: FileId,
    value: &'t Value<'_>,
    name: &str,
    out: &mut Vec<Diagnostic>,
) -> Option<&'t Table<'t>> {
    let table = value.get_ref().as_table();
    if table.is_none() {
        out.push(
            Diagnostic::error("i18n::malformed", format!("`{name}` must be a table"))
                .at(file, value.span(), "not a table")
                .with_help(format!(
                    "write `[{name}]` with one translated field per line"
                )),
        );
    }
    table
}

/// The entries of the `labels`, `phrases` or `captions` section (`name`).
fn labels(
    catalog: &mut Catalog,
    name: &str,
    table: &Table<'_>,
    out: &mut Vec<Diagnostic>,
    cap: &mut Cap,
) {
    for (value_key, entry) in table {
        let value = value_key.get_ref().to_string();
        let scope = match name {
            "labels" => Scope::Label(value),
            "captions" => Scope::Caption(value),
            _ => Scope::Phrase(value),
        };
        catalog.scope_spans.insert(scope.clone(), value_key.span());
        add(catalog, Key::new(scope, ""), value_key.span(), entry, out);
        cap.settle(out);
    }
}

fn fields(
    catalog: &mut Catalog,
    scope: &Scope,
    table: &Table<'_>,
    out: &mut Vec<Diagnostic>,
    cap: &mut Cap,
) {
    for (field, entry) in table {
        let key = Key::new(scope.clone(), field.get_ref().to_string());
        add(catalog, key, field.span(), entry, out);
        cap.settle(out);
    }
}

/// Adds one entry: a string, or `{ text = "…", source = "…" }`.
fn add(
    catalog: &mut Catalog,
    key: Key,
    key_span: Span,
    value: &Value<'_>,
    out: &mut Vec<Diagnostic>,
) {
    let file = catalog.file;
    let malformed = |span: Span, what: &str| {
        Diagnostic::error(
            "i18n::malformed",
            format!("the translation of `{key}` must be a string or `{{ text = \"…\", source = \"…\" }}`"),
        )
        .at(file, span, what.to_owned())
        .with_help("`text` is the translation; `source` the hash `carta i18n update` records")
    };
    let entry = match value.get_ref() {
        DeValue::String(s) => Entry {
            text: s.to_string(),
            hash: None,
            key_span,
            text_span: value.span(),
        },
        DeValue::Table(t) => {
            let mut text = None;
            let mut hash = None;
            for (k, v) in t {
                match (k.get_ref().as_ref(), v.get_ref()) {
                    ("text", DeValue::String(s)) => text = Some((s.to_string(), v.span())),
                    ("source", DeValue::String(s)) => hash = Some(s.to_string()),
                    ("text" | "source", _) => out.push(malformed(v.span(), "not a string")),
                    (other, _) => {
                        out.push(malformed(k.span(), "unknown key").with_help(suggest::help(
                            other,
                            ["text", "source"],
                            "keys",
                        )));
                    }
                }
            }
            let Some((text, text_span)) = text else {
                out.push(malformed(value.span(), "no `text`"));
                return;
            };
            Entry {
                text,
                hash,
                key_span,
                text_span,
            }
        }
        _ => {
            out.push(malformed(value.span(), "not a translation"));
            return;
        }
    };
    catalog.entries.insert(key, entry);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_every_section_with_spans() {
        let text = "[game]\nname = \"G\"\n[cards.a]\n\"levels.0.text\" = { text = \"T\", source = \"ab\" }\n[labels]\nfogo = \"Fire\"\n[phrases]\n\"Vida\" = \"Health\"\n";
        let mut out = Vec::new();
        let c = parse(FileId(0), text, "en", &mut out);
        assert!(out.is_empty(), "{out:?}");
        let e = &c.entries[&Key::new(Scope::Card("a".into()), "levels.0.text")];
        assert_eq!((e.text.as_str(), e.hash.as_deref()), ("T", Some("ab")));
        assert_eq!(&text[e.text_span.clone()], "\"T\"");
        assert_eq!(c.entries[&Key::new(Scope::Game, "name")].hash, None);
        assert!(
            c.entries
                .contains_key(&Key::new(Scope::Label("fogo".into()), ""))
        );
        let vida = &c.entries[&Key::new(Scope::Phrase("Vida".into()), "")];
        assert_eq!(vida.text, "Health");
    }

    #[test]
    fn reports_malformed_entries_and_sections() {
        let text = "[gmae]\nname = \"G\"\n[game]\nname = 3\ndescription = { txt = \"x\" }\n";
        let mut out = Vec::new();
        let c = parse(FileId(0), text, "en", &mut out);
        let codes: Vec<_> = out.iter().map(|d| d.code).collect();
        assert_eq!(
            codes,
            [
                "i18n::unknown-entry",
                "i18n::malformed",
                "i18n::malformed",
                "i18n::malformed"
            ]
        );
        assert!(c.entries.is_empty());
    }
}
