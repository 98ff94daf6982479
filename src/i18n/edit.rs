//! Rewriting a translation file in place: setting an entry's text and
//! source hash while keeping every other byte (comments, order, layout) as
//! it was. `carta i18n update` and `carta i18n import` write through here.

use toml_edit::{DocumentMut, InlineTable, Item, Table, Value};

use super::{Key, Scope};

/// A change to one entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    /// The entry.
    pub key: Key,
    /// Its new text (`None`: keep the text).
    pub text: Option<String>,
    /// Its new source hash (`None`: keep the hash).
    pub hash: Option<String>,
}

/// Why a translation file could not be rewritten.
#[derive(Debug, thiserror::Error)]
#[error("the translation file is not valid TOML: {0}")]
pub struct EditError(#[from] toml_edit::TomlError);

/// Applies `changes` to the translation file `text`; an entry that does not
/// exist is added (at the end of its table). Returns the new text, equal
/// to `text` when nothing changed.
///
/// # Errors
/// When `text` is not TOML.
pub fn apply(text: &str, changes: &[Change]) -> Result<String, EditError> {
    let mut doc: DocumentMut = text.parse()?;
    let mut changed = false;
    for change in changes {
        changed |= apply_one(&mut doc, change);
    }
    Ok(if changed {
        doc.to_string()
    } else {
        text.to_owned()
    })
}

/// The table holding `key`'s entry, created when missing.
fn table_for<'d>(doc: &'d mut DocumentMut, key: &Key) -> Option<&'d mut Table> {
    let (section, id) = match &key.scope {
        Scope::Game => ("game", None),
        Scope::Label(_) => ("labels", None),
        Scope::Phrase(_) => ("phrases", None),
        Scope::Caption(_) => ("captions", None),
        Scope::Kind(id) => ("kinds", Some(id)),
        Scope::Title(id) => ("titles", Some(id)),
        Scope::Zone(id) => ("zones", Some(id)),
        Scope::Format(id) => ("formats", Some(id)),
        Scope::Rule(id) => ("rules", Some(id)),
        Scope::Keyword(id) => ("keywords", Some(id)),
        Scope::Card(id) => ("cards", Some(id)),
    };
    let section_item = doc.entry(section).or_insert_with(|| {
        let mut t = Table::new();
        t.set_implicit(id.is_some());
        Item::Table(t)
    });
    let section_table = section_item.as_table_mut()?;
    match id {
        None => Some(section_table),
        Some(id) => section_table
            .entry(id)
            .or_insert_with(|| Item::Table(Table::new()))
            .as_table_mut(),
    }
}

/// Applies one change; whether the document changed.
fn apply_one(doc: &mut DocumentMut, change: &Change) -> bool {
    let field = match &change.key.scope {
        Scope::Label(value) | Scope::Phrase(value) | Scope::Caption(value) => value.clone(),
        _ => change.key.field.clone(),
    };
    let Some(table) = table_for(doc, &change.key) else {
        return false;
    };
    let (old_text, old_hash) = match table.get(&field) {
        Some(Item::Value(Value::String(s))) => (Some(s.value().clone()), None),
        Some(Item::Value(Value::InlineTable(t))) => (
            t.get("text").and_then(Value::as_str).map(str::to_owned),
            t.get("source").and_then(Value::as_str).map(str::to_owned),
        ),
        _ => (None, None),
    };
    let text = change.text.clone().or(old_text.clone());
    let hash = change.hash.clone().or(old_hash.clone());
    if (&text, &hash) == (&old_text, &old_hash) {
        return false;
    }
    let Some(text) = text else {
        return false;
    };
    if let Some(Item::Value(Value::InlineTable(t))) = table.get_mut(&field) {
        set(t, "text", &text, old_text.as_deref());
        if let Some(h) = &hash {
            set(t, "source", h, old_hash.as_deref());
        }
    } else {
        let mut t = InlineTable::new();
        t.insert("text", text.into());
        if let Some(h) = hash {
            t.insert("source", h.into());
        }
        table.insert(&field, Item::Value(Value::InlineTable(t)));
    }
    true
}

/// Sets `key` of an inline table unless it already holds `value`, keeping
/// the spacing around the old value.
fn set(t: &mut InlineTable, key: &str, value: &str, old: Option<&str>) {
    if old == Some(value) {
        return;
    }
    let decor = t.get(key).map(|v| v.decor().clone());
    let mut new = Value::from(value);
    if let Some(decor) = decor {
        *new.decor_mut() = decor;
    }
    t.insert(key, new);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn card(id: &str, field: &str) -> Key {
        Key::new(Scope::Card(id.into()), field)
    }

    #[test]
    fn changes_only_what_it_is_told() {
        let text = "# comment\n[cards.a]\nname = { text = \"A\", source = \"00\" }  # keep\n\"levels.0.text\" = \"T\"\n";
        let out = apply(
            text,
            &[
                Change {
                    key: card("a", "name"),
                    text: None,
                    hash: Some("11".into()),
                },
                Change {
                    key: card("a", "levels.0.text"),
                    text: None,
                    hash: Some("22".into()),
                },
            ],
        )
        .unwrap();
        assert_eq!(
            out,
            "# comment\n[cards.a]\nname = { text = \"A\", source = \"11\" }  # keep\n\"levels.0.text\" = { text = \"T\", source = \"22\" }\n"
        );
        let same = apply(
            &out,
            &[Change {
                key: card("a", "name"),
                text: Some("A".into()),
                hash: None,
            }],
        )
        .unwrap();
        assert_eq!(same, out);
    }

    #[test]
    fn adds_missing_tables_and_entries() {
        let out = apply(
            "[game]\nname = \"G\"\n",
            &[
                Change {
                    key: card("b", "name"),
                    text: Some("B".into()),
                    hash: Some("33".into()),
                },
                Change {
                    key: Key::new(Scope::Label("fogo".into()), ""),
                    text: Some("Fire".into()),
                    hash: None,
                },
            ],
        )
        .unwrap();
        assert_eq!(
            out,
            "[game]\nname = \"G\"\n\n[cards.b]\nname = { text = \"B\", source = \"33\" }\n\n[labels]\nfogo = { text = \"Fire\" }\n"
        );
    }
}
