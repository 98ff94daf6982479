//! Two versions of a game compared: its cards (added, removed, renamed,
//! changed field by field, translations) and its manifest (kinds, zones,
//! keywords, formats and rules added, removed or changed, with their
//! parameters; its other settings and translations).

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::{Map, Value};

use super::words::{self, Piece};
use crate::bundle::Card;

/// One game as one version has it: the bundle's game section and cards.
#[derive(Debug, Clone)]
pub struct GameVersion {
    /// The game's id.
    pub id: String,
    /// The game section (the manifest, its labels, translations and parsed markup).
    pub game: Value,
    /// Every card, in id order.
    pub cards: Vec<Card>,
}

impl GameVersion {
    /// The game's display name.
    pub fn name(&self) -> &str {
        self.game
            .get("name")
            .and_then(Value::as_str)
            .unwrap_or(&self.id)
    }
}

/// What happened to a game between two versions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Only in the new version.
    Added,
    /// Only in the old version.
    Removed,
    /// In both, different.
    Changed,
    /// In both, the same.
    Unchanged,
}

/// A card as a line of a list.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CardLine {
    /// Its id.
    pub id: String,
    /// Its kind.
    pub kind: String,
    /// Its name.
    pub name: String,
}

/// A card whose name changed (same id).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Renamed {
    /// Its id.
    pub id: String,
    /// Its old name.
    pub old: String,
    /// Its new name.
    pub new: String,
}

/// One value that changed: a field of a card (a dotted path into it), a
/// parameter of a rule, a setting.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FieldChange {
    /// The dotted path (`cost`, `levels.0.ability.text`, `count.max`).
    pub field: String,
    /// The old value; absent when the field is new.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub old: Option<Value>,
    /// The new value; absent when the field was removed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub new: Option<Value>,
    /// For prose, the words as the player reads them, diffed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub words: Option<Vec<Piece>>,
    /// True when the player reads the same words: only their markup
    /// (emphasis, escapes) changed.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub formatting_only: bool,
}

/// A card's translation that changed.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TranslationChange {
    /// The language.
    pub lang: String,
    /// The change, its `field` the translated path (`name`, `effect`).
    #[serde(flatten)]
    pub change: FieldChange,
}

/// A card in both versions that differs.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CardChange {
    /// Its id.
    pub id: String,
    /// Its kind (the new one).
    pub kind: String,
    /// Its name (the new one).
    pub name: String,
    /// Its fields that changed, `copies` and `kind` among them (not `name`:
    /// see `renamed`).
    pub fields: Vec<FieldChange>,
    /// Its translations that changed.
    pub translations: Vec<TranslationChange>,
}

/// What happened to an item of the manifest.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ItemStatus {
    /// Only in the new version.
    Added,
    /// Only in the old version.
    Removed,
    /// In both, different.
    Changed,
}

/// An item of the manifest that changed: a kind, zone, keyword, format or
/// rule, a setting, or a language's translation of the manifest.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ItemChange {
    /// `kinds`, `zones`, `keywords`, `formats`, `deck-rules`, `box-rules`,
    /// `settings` (the manifest's other keys) or `translations`.
    pub section: String,
    /// The item's id (a setting's key, a translation's language).
    pub id: String,
    /// What happened to it.
    pub status: ItemStatus,
    /// Its parameters: every one of an added or removed item, the changed
    /// ones of a changed item.
    pub fields: Vec<FieldChange>,
}

/// One game compared.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GameDiff {
    /// The game's id.
    pub game: String,
    /// Its name (the new version's, or the old one's when removed).
    pub name: String,
    /// What happened to it.
    pub status: Status,
    /// Cards only in the new version.
    pub added: Vec<CardLine>,
    /// Cards only in the old version.
    pub removed: Vec<CardLine>,
    /// Cards whose name changed.
    pub renamed: Vec<Renamed>,
    /// Cards whose other fields or translations changed.
    pub changed: Vec<CardChange>,
    /// The manifest's items that changed.
    pub manifest: Vec<ItemChange>,
}

/// The sections of the manifest compared item by item; its other keys
/// but `labels`, `i18n` and `markup` are settings.
const ITEMS: [&str; 6] = [
    "kinds",
    "zones",
    "keywords",
    "formats",
    "deck-rules",
    "box-rules",
];

/// The game section's keys that are no setting: derived from the cards and
/// schemas (`labels`, `markup`) or compared as translations (`i18n`).
const NOT_SETTINGS: [&str; 3] = ["labels", "i18n", "markup"];

/// Compares one game's two versions (`None` where it is missing).
pub(super) fn game(old: Option<&GameVersion>, new: Option<&GameVersion>) -> GameDiff {
    let empty = GameVersion {
        id: String::new(),
        game: Value::Object(Map::new()),
        cards: Vec::new(),
    };
    let (o, n) = (old.unwrap_or(&empty), new.unwrap_or(&empty));
    let named = new.or(old).unwrap_or(&empty);
    let mut diff = GameDiff {
        game: named.id.clone(),
        name: named.name().to_owned(),
        status: Status::Unchanged,
        added: Vec::new(),
        removed: Vec::new(),
        renamed: Vec::new(),
        changed: Vec::new(),
        manifest: manifest(&o.game, &n.game),
    };
    cards(o, n, &mut diff);
    let same = diff.added.is_empty()
        && diff.removed.is_empty()
        && diff.renamed.is_empty()
        && diff.changed.is_empty()
        && diff.manifest.is_empty();
    diff.status = match (old, new) {
        (None, _) => Status::Added,
        (_, None) => Status::Removed,
        _ if same => Status::Unchanged,
        _ => Status::Changed,
    };
    diff
}

/// The cards of two versions, matched by id.
fn cards(old: &GameVersion, new: &GameVersion, diff: &mut GameDiff) {
    let line = |c: &Card| CardLine {
        id: c.id.clone(),
        kind: c.kind.clone(),
        name: c.name.clone(),
    };
    let olds: BTreeMap<&str, &Card> = old.cards.iter().map(|c| (c.id.as_str(), c)).collect();
    let news: BTreeMap<&str, &Card> = new.cards.iter().map(|c| (c.id.as_str(), c)).collect();
    for (id, card) in &olds {
        if !news.contains_key(id) {
            diff.removed.push(line(card));
        }
    }
    for (id, card) in &news {
        let Some(was) = olds.get(id) else {
            diff.added.push(line(card));
            continue;
        };
        if was.name != card.name {
            diff.renamed.push(Renamed {
                id: card.id.clone(),
                old: was.name.clone(),
                new: card.name.clone(),
            });
        }
        let sides = (Side::of(old, was), Side::of(new, card));
        let change = CardChange {
            id: card.id.clone(),
            kind: card.kind.clone(),
            name: card.name.clone(),
            fields: card_fields(&sides)
                .into_iter()
                .chain(errata_added(was, card))
                .collect(),
            translations: translations(&sides),
        };
        if !change.fields.is_empty() || !change.translations.is_empty() {
            diff.changed.push(change);
        }
    }
}

/// The errata the new card has and the old one lacks, each a change of
/// `errata <version>` whose new value is its date and note: an erratum is
/// news a player reads, though no field of the card changes with it.
fn errata_added<'a>(old: &'a Card, new: &'a Card) -> impl Iterator<Item = FieldChange> + 'a {
    new.errata
        .iter()
        .filter(|e| !old.errata.contains(e))
        .map(|e| FieldChange {
            field: format!("errata {}", e.version),
            old: None,
            new: Some(Value::String(if e.note.is_empty() {
                e.date.clone()
            } else {
                format!("{}: {}", e.date, e.note)
            })),
            words: None,
            formatting_only: false,
        })
}

/// A card with the game section it is read with (its markup, keywords).
struct Side<'a> {
    card: &'a Card,
    game: &'a Value,
}

impl<'a> Side<'a> {
    fn of(version: &'a GameVersion, card: &'a Card) -> Self {
        Side {
            card,
            game: &version.game,
        }
    }

    /// The text of `field` as the player reads it in `lang` (`None`: the
    /// game's own language), when it holds markup.
    fn reading(&self, lang: Option<&str>, field: &str) -> Option<String> {
        let section = match lang {
            None => self.game,
            Some(lang) => self.game.get("i18n")?.get(lang)?,
        };
        let nodes = section.get("markup")?.get(&self.card.id)?.get(field)?;
        Some(words::reading(nodes, self.game.get("keywords")))
    }
}

/// A card's fields (but its name), `kind` and `copies` among them,
/// compared leaf by leaf.
fn card_fields((old, new): &(Side<'_>, Side<'_>)) -> Vec<FieldChange> {
    let flat = |side: &Side<'_>| {
        let mut out = BTreeMap::new();
        out.insert("kind".to_owned(), Value::String(side.card.kind.clone()));
        if let Some(copies) = side.card.copies {
            out.insert("copies".to_owned(), copies.into());
        }
        for (key, value) in &side.card.fields {
            flatten(key, value, &mut out);
        }
        out
    };
    let read = |side: &Side<'_>, field: &str| side.reading(None, field);
    compare_maps(&flat(old), &flat(new), |field| {
        (read(old, field), read(new, field))
    })
}

/// A card's translations compared, language by language, path by path.
fn translations((old, new): &(Side<'_>, Side<'_>)) -> Vec<TranslationChange> {
    let langs: std::collections::BTreeSet<&String> =
        old.card.i18n.keys().chain(new.card.i18n.keys()).collect();
    let mut out = Vec::new();
    for lang in langs {
        let texts = |side: &Side<'_>| -> BTreeMap<String, Value> {
            side.card
                .i18n
                .get(lang)
                .into_iter()
                .flatten()
                .map(|(k, v)| (k.clone(), Value::String(v.clone())))
                .collect()
        };
        let changes = compare_maps(&texts(old), &texts(new), |field| {
            (
                old.reading(Some(lang), field),
                new.reading(Some(lang), field),
            )
        });
        out.extend(changes.into_iter().map(|change| TranslationChange {
            lang: lang.clone(),
            change,
        }));
    }
    out
}

/// Two flattened maps compared key by key; `reading` gives a text field's
/// words as the player reads them on each side, where it holds markup.
fn compare_maps(
    old: &BTreeMap<String, Value>,
    new: &BTreeMap<String, Value>,
    reading: impl Fn(&str) -> (Option<String>, Option<String>),
) -> Vec<FieldChange> {
    let keys: std::collections::BTreeSet<&String> = old.keys().chain(new.keys()).collect();
    keys.into_iter()
        .filter_map(|key| {
            let (o, n) = (old.get(key), new.get(key));
            (o != n).then(|| change(key, o, n, reading(key)))
        })
        .collect()
}

/// One value's change; prose gets its words diffed as read.
fn change(
    field: &str,
    old: Option<&Value>,
    new: Option<&Value>,
    (read_old, read_new): (Option<String>, Option<String>),
) -> FieldChange {
    let mut out = FieldChange {
        field: field.to_owned(),
        old: old.cloned(),
        new: new.cloned(),
        words: None,
        formatting_only: false,
    };
    if let (Some(Value::String(o)), Some(Value::String(n))) = (old, new) {
        let o = read_old.unwrap_or_else(|| o.clone());
        let n = read_new.unwrap_or_else(|| n.clone());
        if o == n {
            out.formatting_only = true;
        } else if words::is_prose(&o) || words::is_prose(&n) {
            out.words = Some(words::diff(&o, &n));
        }
    }
    out
}

/// `value` at `path` as leaves: maps and arrays of maps or arrays walked
/// into (`levels.0.ability.text`), any other value (an array of scalars
/// among them) one leaf.
fn flatten(path: &str, value: &Value, out: &mut BTreeMap<String, Value>) {
    match value {
        Value::Object(map) if !map.is_empty() => {
            for (key, v) in map {
                flatten(&format!("{path}.{key}"), v, out);
            }
        }
        Value::Array(items) if items.iter().any(|v| v.is_object() || v.is_array()) => {
            for (i, v) in items.iter().enumerate() {
                flatten(&format!("{path}.{i}"), v, out);
            }
        }
        _ => {
            out.insert(path.to_owned(), value.clone());
        }
    }
}

/// The items of a manifest section by id: a map's entries, or an array's
/// items by their `id` (by position when they have none).
fn items(section: Option<&Value>) -> BTreeMap<String, &Value> {
    match section {
        Some(Value::Object(map)) => map.iter().map(|(k, v)| (k.clone(), v)).collect(),
        Some(Value::Array(list)) => list
            .iter()
            .enumerate()
            .map(|(i, v)| {
                let id = v.get("id").and_then(Value::as_str);
                (id.map_or_else(|| format!("#{}", i + 1), str::to_owned), v)
            })
            .collect(),
        _ => BTreeMap::new(),
    }
}

/// Two game sections compared: the item sections item by item, each other
/// key a setting, each language of `i18n` a translation.
fn manifest(old: &Value, new: &Value) -> Vec<ItemChange> {
    let mut out = Vec::new();
    for section in ITEMS {
        let (o, n) = (items(old.get(section)), items(new.get(section)));
        out.extend(item_changes(section, &o, &n));
    }
    out.extend(item_changes("settings", &settings(old), &settings(new)));
    let languages = |game: &Value| -> BTreeMap<String, Value> {
        items(game.get("i18n"))
            .into_iter()
            .map(|(lang, texts)| {
                let mut texts = texts.clone();
                // Parsed card texts are compared with the cards'.
                if let Some(map) = texts.as_object_mut() {
                    map.remove("markup");
                }
                (lang, texts)
            })
            .collect()
    };
    let (o, n) = (languages(old), languages(new));
    out.extend(item_changes("translations", &borrowed(&o), &borrowed(&n)));
    out
}

/// The manifest's keys that are settings: neither item sections nor
/// derived or translated keys.
fn settings(game: &Value) -> BTreeMap<String, &Value> {
    game.as_object()
        .into_iter()
        .flatten()
        .filter(|(k, _)| !ITEMS.contains(&k.as_str()) && !NOT_SETTINGS.contains(&k.as_str()))
        .map(|(k, v)| (k.clone(), v))
        .collect()
}

fn borrowed(m: &BTreeMap<String, Value>) -> BTreeMap<String, &Value> {
    m.iter().map(|(k, v)| (k.clone(), v)).collect()
}

/// The items of one section compared by id.
fn item_changes(
    section: &str,
    old: &BTreeMap<String, &Value>,
    new: &BTreeMap<String, &Value>,
) -> Vec<ItemChange> {
    let ids: std::collections::BTreeSet<&String> = old.keys().chain(new.keys()).collect();
    let mut out = Vec::new();
    for id in ids {
        let flat = |v: Option<&&Value>| {
            let mut leaves = BTreeMap::new();
            if let Some(v) = v {
                match v {
                    Value::Object(map) => {
                        for (k, v) in map {
                            flatten(k, v, &mut leaves);
                        }
                    }
                    other => {
                        leaves.insert(String::new(), (*other).clone());
                    }
                }
            }
            leaves
        };
        let (o, n) = (old.get(id), new.get(id));
        let status = match (o, n) {
            (None, _) => ItemStatus::Added,
            (_, None) => ItemStatus::Removed,
            (Some(a), Some(b)) if a == b => continue,
            _ => ItemStatus::Changed,
        };
        let fields = compare_maps(&flat(o), &flat(n), |_| (None, None));
        out.push(ItemChange {
            section: section.to_owned(),
            id: id.clone(),
            status,
            fields,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn card(id: &str, name: &str, fields: &Value) -> Card {
        Card {
            id: id.into(),
            kind: "k".into(),
            name: name.into(),
            copies: None,
            fields: fields.as_object().unwrap().clone(),
            i18n: BTreeMap::new(),
            version: None,
            errata: Vec::new(),
        }
    }

    fn version(game: Value, cards: Vec<Card>) -> GameVersion {
        GameVersion {
            id: "g".into(),
            game,
            cards,
        }
    }

    #[test]
    fn a_rule_parameter_is_a_change_of_the_rule() {
        let old = json!({"deck-rules": [{"id": "copies", "copies": {"max": 3}}]});
        let new = json!({"deck-rules": [{"id": "copies", "copies": {"max": 4}}]});
        let changes = manifest(&old, &new);
        assert_eq!(changes.len(), 1);
        assert_eq!(changes[0].status, ItemStatus::Changed);
        assert_eq!(changes[0].fields[0].field, "copies.max");
        assert_eq!(changes[0].fields[0].old, Some(json!(3)));
        assert_eq!(changes[0].fields[0].new, Some(json!(4)));
    }

    #[test]
    fn markup_that_reads_the_same_is_a_formatting_change() {
        let game_old = json!({"markup": {"a": {"t": [{"b": [{"t": "Ao entrar: fuja"}]}]}}});
        let game_new = json!({"markup": {"a": {"t": [{"i": [{"t": "Ao entrar: fuja"}]}]}}});
        let old = version(
            game_old,
            vec![card("a", "A", &json!({"t": "**Ao entrar: fuja**"}))],
        );
        let new = version(
            game_new,
            vec![card("a", "A", &json!({"t": "*Ao entrar: fuja*"}))],
        );
        let diff = game(Some(&old), Some(&new));
        let change = &diff.changed[0].fields[0];
        assert!(change.formatting_only);
        assert_eq!(change.words, None);
    }

    #[test]
    fn a_nested_field_changes_at_its_path() {
        let old = version(json!({}), vec![card("a", "A", &json!({"l": [{"d": 1}]}))]);
        let new = version(json!({}), vec![card("a", "B", &json!({"l": [{"d": 2}]}))]);
        let diff = game(Some(&old), Some(&new));
        assert_eq!(diff.renamed[0].new, "B");
        assert_eq!(diff.changed[0].fields[0].field, "l.0.d");
    }

    #[test]
    fn an_erratum_added_is_a_change_of_the_card_though_no_field_changed() {
        use crate::validate::errata::Erratum;
        let e = |v: &str, note: &str| Erratum {
            version: v.into(),
            date: "2025-03-01".into(),
            note: note.into(),
            was: serde_json::Map::new(),
        };
        let fields = json!({"effect": "Cura 10."});
        let mut old_card = card("a", "A", &fields);
        old_card.errata = vec![e("1.1", "")];
        let mut new_card = card("a", "A", &fields);
        new_card.errata = vec![e("1.1", ""), e("1.2", "Cura aumentada.")];
        let old = version(json!({}), vec![old_card.clone()]);
        let new = version(json!({}), vec![new_card]);
        let diff = game(Some(&old), Some(&new));
        assert_eq!(diff.changed.len(), 1);
        let change = &diff.changed[0].fields;
        assert_eq!(change.len(), 1, "the erratum already published is no news");
        assert_eq!(change[0].field, "errata 1.2");
        assert_eq!(change[0].new, Some(json!("2025-03-01: Cura aumentada.")));
        let same = version(json!({}), vec![old_card]);
        assert!(game(Some(&old), Some(&same)).changed.is_empty());
    }
}
