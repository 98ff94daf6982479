//! Rules as a game declares them in `game.toml`: zones, deck rules and box
//! rules. These are the serde/schemars types; `rules::compile` turns them
//! into the evaluated form.

use std::collections::BTreeMap;

use indexmap::IndexMap;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// A zone of a deck, such as the deck proper (`main`) or a team.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct Zone {
    /// The zone's display name.
    #[schemars(length(min = 1))]
    pub name: String,
    /// The kinds of card that may stand in this zone.
    #[schemars(length(min = 1))]
    pub kinds: Vec<String>,
}

/// Whether breaking a rule is an error or only a warning.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum RuleSeverity {
    /// The deck (or box) is illegal.
    #[default]
    Error,
    /// The deck is suspect but legal.
    Warning,
}

/// One rule. It has exactly one check: `size`, `count`, `copies`, `share`,
/// `bind` or `distinct`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct Rule {
    /// A stable id, unique among the game's rules (kebab-case).
    #[schemars(regex(pattern = r"^[a-z0-9]+(-[a-z0-9]+)*$"))]
    pub id: String,
    /// The rule's display name, as players know it.
    #[schemars(length(min = 1))]
    pub name: String,
    /// Error (the default) or warning.
    #[serde(default, skip_serializing_if = "is_error")]
    pub severity: RuleSeverity,
    /// A message template replacing the default one. Placeholders:
    /// `{rule}`, `{actual}`, `{expected}`, `{zone}`, `{card}`, and
    /// `{missing}` (how many cards short of a `size` or `count` minimum).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// Where the rule comes from, shown by `carta deck check --explain` and
    /// `carta check -v`: the rulebook's title and section with a short quote
    /// in the rulebook's language (`"Manual, EDIÇÃO DE DECK: \"…\""`), or
    /// `"inferred: …"` / `"sample: …"` saying why a rule the rulebook does not
    /// state is there.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(min = 1))]
    pub source: Option<String>,
    /// The deck zone the rule looks at; every zone when absent. Box rules
    /// have no zone: they look at the whole card pool.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub zone: Option<String>,
    /// The number of cards (copies counted) must be within bounds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<Bounds>,
    /// The number of cards matching a filter must be within bounds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub count: Option<Count>,
    /// A limit on copies of each card.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub copies: Option<Copies>,
    /// No group of cards may exceed a share of the cards.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub share: Option<Share>,
    /// Cards must agree with one bound card on a field.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bind: Option<Bind>,
    /// Cards must all be different.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub distinct: Option<Distinct>,
}

/// A named format (`[formats.<id>]`): deck rules a deck opts into with
/// `format = "<id>"`, such as a tournament's house rules. A deck without a
/// format is judged by the game's own `[[deck-rules]]` alone.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct Format {
    /// The format's display name.
    #[schemars(length(min = 1))]
    pub name: String,
    /// What the format is for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Whether the game's own `[[deck-rules]]` apply too, the format's rules
    /// adding to them (`true`), or only the format's rules (`false`, the default).
    #[serde(default, skip_serializing_if = "is_false")]
    pub extends_default: bool,
    /// The format's rules (`[[formats.<id>.deck-rules]]`), with ids unique
    /// among the rules the format applies.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub deck_rules: Vec<Rule>,
}

// serde's `skip_serializing_if` passes a reference.
#[allow(clippy::trivially_copy_pass_by_ref)]
fn is_false(b: &bool) -> bool {
    !b
}

#[allow(clippy::trivially_copy_pass_by_ref)] // as `is_false`
fn is_error(s: &RuleSeverity) -> bool {
    *s == RuleSeverity::Error
}

/// Inclusive bounds on a number of cards.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct Bounds {
    /// Exactly this many.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exact: Option<u32>,
    /// At least this many.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min: Option<u32>,
    /// At most this many.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max: Option<u32>,
}

/// A card filter: every field listed must match (AND). A value matches
/// itself; an array matches any of its values (OR); a table may say
/// `not = value-or-array`, `min = n`, `max = n` or `exists = bool`. Field
/// names may be dotted (`bonus.attribute`); `id`, `kind`, `name` and
/// `copies` are fields too. A field a card lacks matches only `not` and
/// `exists = false`.
pub type Filter = BTreeMap<String, Value>;

/// A `count` check.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct Count {
    /// The cards counted.
    pub filter: Filter,
    /// Exactly this many.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exact: Option<u32>,
    /// At least this many.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min: Option<u32>,
    /// At most this many.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max: Option<u32>,
    /// Count per value of these fields: the bounds hold for each group
    /// separately ("3 zodiacs per element": `per = "element"`; "one of each
    /// rank per suit": `per = ["suit", "rank"]`).
    #[serde(default, skip_serializing_if = "Fields::is_empty")]
    pub per: Fields,
    /// With `per`: groups that must be present (a missing one counts 0).
    /// For several `per` fields, each value is an array.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub values: Vec<Value>,
    /// Caps on what one card adds to the count: a card matching a cap's
    /// filter counts at most its `max` copies (the first cap that matches
    /// wins), such as a card of which only one may stand on the table
    /// however many the deck holds.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cap: Vec<Override>,
    /// What makes two cards one card for `cap`: `id` (the default) or
    /// fields such as `name`, so that a reprint under a new id shares its
    /// original's cap (as a `copies` rule's `key`). A group of cards with
    /// one key takes the lowest cap of its cards.
    #[serde(default = "default_key", skip_serializing_if = "Fields::is_id")]
    pub key: Fields,
    /// Counts only the cards that share `field` with the one card matching
    /// `bound` (the characters of the deck's city's kingdom, say); when no
    /// single card matches `bound`, every card matching the filter counts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub like: Option<Like>,
}

/// A `count`'s `like`: the cards counted share a field with the one bound card.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct Like {
    /// The card whose field the counted cards share (one, copies counted).
    pub bound: Filter,
    /// The field they share.
    pub field: String,
}

/// A `copies` check: how many copies of one card a deck may hold.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct Copies {
    /// The cards limited (all when absent).
    #[serde(default, skip_serializing_if = "Filter::is_empty")]
    pub filter: Filter,
    /// The limit.
    pub max: u32,
    /// What makes two cards copies of each other: `id` (the default) or
    /// fields such as `name` (the same name across printings).
    #[serde(default = "default_key", skip_serializing_if = "Fields::is_id")]
    pub key: Fields,
    /// Other limits for cards matching a filter; the first that matches wins.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub overrides: Vec<Override>,
    /// A card field that, when present, sets that card's own limit (beats
    /// `overrides` and `max`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
}

fn default_key() -> Fields {
    Fields::One("id".into())
}

/// One field name, or several (a composite key).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum Fields {
    /// One field.
    One(String),
    /// Several fields, compared together.
    Many(Vec<String>),
}

impl Default for Fields {
    fn default() -> Self {
        Fields::Many(Vec::new())
    }
}

impl Fields {
    /// The field names.
    pub fn names(&self) -> &[String] {
        match self {
            Fields::One(f) => std::slice::from_ref(f),
            Fields::Many(fs) => fs,
        }
    }

    /// Whether no field is named.
    pub fn is_empty(&self) -> bool {
        self.names().is_empty()
    }

    fn is_id(&self) -> bool {
        self.names() == ["id"]
    }
}

/// A limit for the cards matching a filter.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct Override {
    /// The cards this limit applies to.
    pub filter: Filter,
    /// Their limit.
    pub max: u32,
}

/// A `share` check: no group may be more than a percentage of the cards.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct Share {
    /// The field whose value names a card's group (such as `kind`).
    pub by: String,
    /// Renames values into groups: `{ city = "Item", hero = "Character" }`.
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub groups: IndexMap<String, String>,
    /// The largest share a group may have, in percent.
    #[schemars(range(min = 0, max = 100))]
    pub max_percent: u32,
}

/// A `bind` check: each card matching `filter` must have the same value of
/// `field` as the one card matching `bound` (the deck's city, say).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct Bind {
    /// The card the others are bound to; the rule applies when exactly one matches.
    pub bound: Filter,
    /// The cards that must agree with it.
    pub filter: Filter,
    /// The field they must agree on.
    pub field: String,
}

/// A `distinct` check: no two cards (copies counted) share a key.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct Distinct {
    /// The cards that must differ (all when absent).
    #[serde(default, skip_serializing_if = "Filter::is_empty")]
    pub filter: Filter,
    /// What must differ: `id` (the default) or fields.
    #[serde(default = "default_key", skip_serializing_if = "Fields::is_id")]
    pub key: Fields,
}

/// Gives `add` each field `filter` reads.
fn add_keys(filter: &Filter, add: &mut dyn FnMut(&str)) {
    for k in filter.keys() {
        add(k);
    }
}

/// Gives `add` each of `fields`.
fn add_all(fields: &[String], add: &mut dyn FnMut(&str)) {
    for f in fields {
        add(f);
    }
}

impl Count {
    /// The card fields a `count` reads, each given to `add` (see
    /// [`Rule::fields`]).
    fn fields(&self, add: &mut dyn FnMut(&str)) {
        let Count {
            filter,
            exact: _,
            min: _,
            max: _,
            per,
            values: _,
            cap,
            key,
            like,
        } = self;
        add_keys(filter, add);
        add_all(per.names(), add);
        if !key.is_id() {
            add_all(key.names(), add);
        }
        for Override { filter, max: _ } in cap {
            add_keys(filter, add);
        }
        if let Some(Like { bound, field }) = like {
            add_keys(bound, add);
            add(field);
        }
    }
}

impl Copies {
    /// The card fields a `copies` reads, each given to `add` (see
    /// [`Rule::fields`]).
    fn fields(&self, add: &mut dyn FnMut(&str)) {
        let Copies {
            filter,
            max: _,
            key,
            overrides,
            field,
        } = self;
        add_keys(filter, add);
        add_all(key.names(), add);
        for Override { filter, max: _ } in overrides {
            add_keys(filter, add);
        }
        if let Some(f) = field {
            add(f);
        }
    }
}

impl Rule {
    /// Adds the card fields this rule reads (first segment of each path).
    ///
    /// Every field of the rule and of each check is named here and in the
    /// checks' `fields`: a field added to a check, or a check added to
    /// [`Rule`], does not compile until it says which card fields it
    /// reads. A compile keeps only these fields of each card (`carta
    /// check`), and the check cache's shapes hash only them.
    pub fn fields(&self, out: &mut std::collections::BTreeSet<String>) {
        let mut add = |field: &str| {
            out.insert(field.split('.').next().unwrap_or(field).to_owned());
        };
        let Rule {
            id: _,
            name: _,
            severity: _,
            message: _,
            source: _,
            zone: _,
            size: _,
            count,
            copies,
            share,
            bind,
            distinct,
        } = self;
        let add: &mut dyn FnMut(&str) = &mut add;
        if let Some(c) = count {
            c.fields(add);
        }
        if let Some(c) = copies {
            c.fields(add);
        }
        if let Some(Share {
            by,
            groups: _,
            max_percent: _,
        }) = share
        {
            add(by);
        }
        if let Some(Bind {
            bound,
            filter,
            field,
        }) = bind
        {
            add_keys(bound, add);
            add_keys(filter, add);
            add(field);
        }
        if let Some(Distinct { filter, key }) = distinct {
            add_keys(filter, add);
            add_all(key.names(), add);
        }
    }

    /// The names of the checks this rule declares (valid rules have one).
    pub fn checks(&self) -> Vec<&'static str> {
        let mut out = Vec::new();
        for (present, name) in [
            (self.size.is_some(), "size"),
            (self.count.is_some(), "count"),
            (self.copies.is_some(), "copies"),
            (self.share.is_some(), "share"),
            (self.bind.is_some(), "bind"),
            (self.distinct.is_some(), "distinct"),
        ] {
            if present {
                out.push(name);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fields of every check a rule may declare, each named once.
    #[test]
    fn a_rule_reads_every_field_its_check_names() {
        let rules: Vec<Rule> = toml::from_str::<std::collections::BTreeMap<String, Vec<Rule>>>(
            r#"r = [
              { id = "a", name = "A", count = { filter = { kind = "k", level = 1 }, per = "element", cap = [{ filter = { solitary = true }, max = 1 }], key = "printing", like = { bound = { kind = "city" }, field = "kingdom.name" }, min = 1 } },
              { id = "b", name = "B", copies = { filter = { rare = true }, max = 2, key = ["name", "cost"], overrides = [{ filter = { unique = true }, max = 1 }], field = "limit" } },
              { id = "c", name = "C", share = { by = "color", max-percent = 50 } },
              { id = "d", name = "D", bind = { bound = { hero = true }, filter = { mercenary = { not = true } }, field = "faction" } },
              { id = "e", name = "E", distinct = { filter = { kind = "spell" }, key = "sign" } },
            ]"#,
        )
        .unwrap()
        .remove("r")
        .unwrap();
        let mut read = std::collections::BTreeSet::new();
        for r in &rules {
            r.fields(&mut read);
        }
        let expected = [
            "kind",
            "level",
            "element",
            "solitary",
            "printing",
            "kingdom",
            "rare",
            "name",
            "cost",
            "unique",
            "limit",
            "color",
            "hero",
            "mercenary",
            "faction",
            "sign",
        ];
        assert_eq!(read, expected.iter().map(|f| (*f).to_owned()).collect());
    }
}
