//! From declared rules to compiled ones: every rule is checked against the
//! game (zones, kinds, fields its filters use) with diagnostics in
//! `game.toml`, then precomputed over the card pool.

use std::borrow::Borrow;
use std::collections::{BTreeSet, HashMap};

use indexmap::IndexMap;
use rayon::prelude::*;
use serde_json::Value;

use super::bind::Bind;
use super::copies::Copies;
use super::count::Count;
use super::distinct::Distinct;
use super::filter::{CardFilter, field_value};
use super::share::Share;
use super::size::Size;
use super::{Check, CompiledRule, RuleSet, ZoneInfo};
use crate::config::rules::{Bounds, Filter, Rule};
use crate::diag::{Diagnostic, Diagnostics, Label};
use crate::link::CardPool;
use crate::suggest;
use crate::validate::LoadedManifest;
use crate::validate::{GameSchemas, RESERVED, RawCard};

/// A game's compiled rules.
#[derive(Debug, Clone, Default)]
pub struct Rules {
    /// Deck rules, with the manifest's zones: what a deck without a format
    /// is judged by.
    pub deck: RuleSet,
    /// Box rules, with one zone: the whole pool.
    pub boxed: RuleSet,
    /// Each format's deck rules (the game's own ones included when the
    /// format extends them), by format id in manifest order.
    pub formats: IndexMap<String, RuleSet>,
}

/// Checks and compiles the zones, deck rules and box rules of a game.
/// Broken rules are reported and left out.
pub fn compile(
    manifest: &LoadedManifest,
    pool: &CardPool,
    schemas: &GameSchemas,
    diags: &mut Diagnostics,
) -> Rules {
    let cx = Cx {
        manifest,
        pool,
        schemas,
    };
    let zones = cx.zones(diags);
    let deck_zones: Vec<(String, Vec<String>)> = manifest
        .manifest
        .zones
        .iter()
        .map(|(id, z)| (id.clone(), z.kinds.clone()))
        .collect();
    let deck_rules = cx.rules(
        "deck-rules",
        &manifest.manifest.deck_rules,
        &deck_zones,
        diags,
    );
    let formats = cx.formats(&deck_rules, &zones, &deck_zones, diags);
    let deck = RuleSet::new(zones, deck_rules, None, pool.len());
    let all: Vec<bool> = vec![true; pool.len()];
    let box_zone = ZoneInfo {
        id: "box".into(),
        name: "the box".into(),
        accepts: all,
    };
    let box_rules = cx.rules("box-rules", &manifest.manifest.box_rules, &[], diags);
    let boxed = RuleSet::new(vec![box_zone], box_rules, None, pool.len());
    Rules {
        deck,
        boxed,
        formats,
    }
}

struct Cx<'a> {
    manifest: &'a LoadedManifest,
    pool: &'a CardPool,
    schemas: &'a GameSchemas,
}

impl Cx<'_> {
    fn error(&self, code: &'static str, pointer: &str, message: String, label: &str) -> Diagnostic {
        let span = self.manifest.spans.key_span(pointer).unwrap_or(0..0);
        Diagnostic::error(code, message).at(self.manifest.file, span, label)
    }

    fn kind_ids(&self) -> Vec<&str> {
        self.manifest
            .manifest
            .kinds
            .keys()
            .map(String::as_str)
            .collect()
    }

    fn check_kind(&self, kind: &str, pointer: &str, diags: &mut Diagnostics) -> bool {
        if self.manifest.manifest.kinds.contains_key(kind) {
            return true;
        }
        diags.push(
            self.error(
                "rules::unknown-kind",
                pointer,
                format!("`{kind}` is not a kind of this game"),
                "unknown kind",
            )
            .with_help(suggest::help(kind, self.kind_ids(), "the game declares")),
        );
        false
    }

    fn zones(&self, diags: &mut Diagnostics) -> Vec<ZoneInfo> {
        let mut out = Vec::new();
        for (id, zone) in &self.manifest.manifest.zones {
            for (i, kind) in zone.kinds.iter().enumerate() {
                self.check_kind(kind, &format!("/zones/{id}/kinds/{i}"), diags);
            }
            let accepts = self
                .pool
                .iter()
                .map(|c| zone.kinds.contains(&c.kind))
                .collect();
            out.push(ZoneInfo {
                id: id.clone(),
                name: zone.name.clone(),
                accepts,
            });
        }
        out
    }

    /// Compiles each format's rules, after the game's own when it extends them.
    fn formats(
        &self,
        default: &[CompiledRule],
        zones: &[ZoneInfo],
        deck_zones: &[(String, Vec<String>)],
        diags: &mut Diagnostics,
    ) -> IndexMap<String, RuleSet> {
        let mut out = IndexMap::new();
        for (id, format) in &self.manifest.manifest.formats {
            let list = format!("formats/{id}/deck-rules");
            let own = self.rules(&list, &format.deck_rules, deck_zones, diags);
            let mut rules = if format.extends_default {
                default.to_vec()
            } else {
                Vec::new()
            };
            for rule in own {
                if let Some(first) = rules.iter().find(|r| r.id == rule.id) {
                    let first_span = self
                        .manifest
                        .spans
                        .value_span(&format!("{}/id", first.pointer));
                    diags.push(
                        self.error(
                            "rules::duplicate-id",
                            &format!("{}/id", rule.pointer),
                            format!(
                                "the format `{id}` extends the game's deck rules, which already have a rule `{}`",
                                rule.id
                            ),
                            "defined again here",
                        )
                        .with_label(Label::new(
                            self.manifest.file,
                            first_span.unwrap_or(0..0),
                            "first defined here",
                        ))
                        .with_help("give the format's rule another id"),
                    );
                    continue;
                }
                rules.push(rule);
            }
            let set = RuleSet::new(zones.to_vec(), rules, Some(id.clone()), self.pool.len());
            out.insert(id.clone(), set);
        }
        out
    }

    fn rules(
        &self,
        list: &str,
        rules: &[Rule],
        zones: &[(String, Vec<String>)],
        diags: &mut Diagnostics,
    ) -> Vec<CompiledRule> {
        let mut todo = Vec::new();
        let mut seen: HashMap<&str, usize> = HashMap::new();
        for (i, rule) in rules.iter().enumerate() {
            let at = format!("/{list}/{i}");
            if let Some(first) = seen.insert(&rule.id, i) {
                let first_span = self
                    .manifest
                    .spans
                    .value_span(&format!("/{list}/{first}/id"))
                    .unwrap_or(0..0);
                diags.push(
                    self.error(
                        "rules::duplicate-id",
                        &format!("{at}/id"),
                        format!("two rules have the id `{}`", rule.id),
                        "defined again here",
                    )
                    .with_label(Label::new(
                        self.manifest.file,
                        first_span,
                        "first defined here",
                    )),
                );
                continue;
            }
            todo.push((at, rule));
        }
        // Each rule compiles over the whole pool on its own: on every core,
        // its diagnostics kept apart and reported in the rules' order.
        let compiled: Vec<(Option<CompiledRule>, Diagnostics)> = todo
            .par_iter()
            .map(|(at, rule)| {
                let mut found = Diagnostics::new();
                (self.rule(at, rule, zones, &mut found), found)
            })
            .collect();
        let mut out = Vec::with_capacity(compiled.len());
        for (rule, found) in compiled {
            diags.extend(found);
            out.extend(rule);
        }
        out
    }

    /// The index of zone `z` a deck rule at `at` names; box rules (no
    /// `zones`) take none.
    fn zone(
        &self,
        at: &str,
        z: &str,
        zones: &[(String, Vec<String>)],
        diags: &mut Diagnostics,
    ) -> Option<usize> {
        let pointer = format!("{at}/zone");
        if zones.is_empty() {
            diags.push(
                self.error(
                    "rules::zone",
                    &pointer,
                    "box rules look at the whole card pool and take no `zone`".into(),
                    "not allowed here",
                )
                .with_help("remove `zone`, or move the rule to `[[deck-rules]]`"),
            );
            return None;
        }
        let found = zones.iter().position(|(id, _)| id == z);
        if found.is_none() {
            diags.push(
                self.error(
                    "rules::zone",
                    &pointer,
                    format!("`{z}` is not a zone of this game"),
                    "unknown zone",
                )
                .with_help(suggest::help(
                    z,
                    zones.iter().map(|(id, _)| id.as_str()),
                    "zones",
                )),
            );
        }
        found
    }

    fn rule(
        &self,
        at: &str,
        rule: &Rule,
        zones: &[(String, Vec<String>)],
        diags: &mut Diagnostics,
    ) -> Option<CompiledRule> {
        let checks = rule.checks();
        if checks.len() != 1 {
            let message = if checks.is_empty() {
                format!("the rule `{}` has no check", rule.id)
            } else {
                format!(
                    "the rule `{}` has {} checks ({}); a rule has exactly one",
                    rule.id,
                    checks.len(),
                    checks.join(", ")
                )
            };
            diags.push(
                self.error("rules::check", at, message, "this rule")
                    .with_help("give the rule one of: size, count, copies, share, bind, distinct; split it into several rules if need be"),
            );
            return None;
        }
        let zone = match &rule.zone {
            None => None,
            Some(z) => Some(self.zone(at, z, zones, diags)?),
        };
        let scope: Vec<String> = match zone {
            Some(z) => zones[z].1.clone(),
            None if !zones.is_empty() => zones.iter().flat_map(|(_, k)| k.clone()).collect(),
            None => self.manifest.manifest.kinds.keys().cloned().collect(),
        };
        let scoped = Scoped {
            cx: self,
            at,
            scope: &scope,
        };
        let check = scoped.check(rule, diags)?;
        Some(CompiledRule {
            id: rule.id.clone(),
            name: rule.name.clone(),
            severity: rule.severity,
            pointer: at.to_owned(),
            source: rule.source.clone(),
            template: rule.message.clone(),
            zone,
            check,
        })
    }
}

/// A rule being compiled, with the kinds it looks at: what each rule
/// kind's `compile` checks its declaration against and precomputes over.
pub(super) struct Scoped<'a, 'c> {
    cx: &'a Cx<'c>,
    /// The rule's JSON pointer in `game.toml`.
    pub(super) at: &'a str,
    scope: &'a [String],
}

impl Scoped<'_, '_> {
    /// The rule's one check, compiled by its kind's own file.
    fn check(&self, rule: &Rule, diags: &mut Diagnostics) -> Option<Check> {
        if let Some(b) = &rule.size {
            return Size::compile(b, self, diags);
        }
        if let Some(c) = &rule.count {
            return Count::compile(c, self, diags);
        }
        if let Some(c) = &rule.copies {
            return Copies::compile(c, self, diags);
        }
        if let Some(s) = &rule.share {
            return Share::compile(s, self, diags);
        }
        if let Some(b) = &rule.bind {
            return Bind::compile(b, self, diags);
        }
        let d = rule.distinct.as_ref().expect("one check is present");
        Distinct::compile(d, self, diags)
    }

    /// A value computed for every card of the pool, in pool order.
    pub(super) fn each<T>(&self, mut f: impl FnMut(&crate::validate::RawCard) -> T) -> Vec<T> {
        self.cx.pool.iter().map(&mut f).collect()
    }

    /// Interned copy keys of every card, and each key's display name (that
    /// of the first card with it), by key.
    pub(super) fn keys(&self, fields: &[String]) -> (Vec<u32>, Vec<String>) {
        let mut interner = Interner::default();
        let paths: Vec<Vec<String>> = fields.iter().map(|f| path(f)).collect();
        // One key buffer for the whole pool, written straight from each
        // card: a rule compiles over every card.
        let mut key = String::new();
        let keys = self.each(|card| {
            key.clear();
            for p in &paths {
                write_field_key(card, p, &mut key);
            }
            interner.intern(&key, || {
                paths
                    .iter()
                    .map(|p| {
                        field_value(card, p)
                            .as_deref()
                            .map_or("-".into(), scalar_text)
                    })
                    .collect::<Vec<_>>()
                    .join(" / ")
            })
        });
        (keys, interner.names)
    }

    /// Reports bounds that can never be met.
    pub(super) fn bounds(&self, b: &Bounds, pointer: &str, diags: &mut Diagnostics) -> Option<()> {
        let conflicting = b.exact.is_some() && (b.min.is_some() || b.max.is_some());
        let empty = b.exact.is_none() && b.min.is_none() && b.max.is_none();
        let inverted = matches!((b.min, b.max), (Some(lo), Some(hi)) if lo > hi);
        let problem = if conflicting {
            "`exact` cannot be combined with `min` or `max`"
        } else if empty {
            "give at least one of `exact`, `min` or `max`"
        } else if inverted {
            "`min` is greater than `max`"
        } else {
            return Some(());
        };
        diags.push(self.cx.error(
            "rules::bounds",
            pointer,
            format!("these bounds can never be met: {problem}"),
            "bad bounds",
        ));
        None
    }

    /// A filter compiled, its kinds and fields checked against the game.
    pub(super) fn filter(
        &self,
        filter: &Filter,
        pointer: &str,
        diags: &mut Diagnostics,
    ) -> Option<CardFilter> {
        let compiled = match CardFilter::compile(filter) {
            Ok(f) => f,
            Err(e) => {
                diags.push(self.cx.error(
                    "rules::filter",
                    &format!("{pointer}/{}", e.field),
                    e.message,
                    "bad condition",
                ));
                return None;
            }
        };
        let mut ok = true;
        if let Some(kinds) = compiled.kinds() {
            for (i, k) in kinds.iter().enumerate() {
                let p = if filter.get("kind").is_some_and(Value::is_array) {
                    format!("{pointer}/kind/{i}")
                } else {
                    format!("{pointer}/kind")
                };
                ok &= self.cx.check_kind(k, &p, diags);
            }
        }
        let fields: Vec<String> = compiled.fields().map(str::to_owned).collect();
        let paths: Vec<String> = filter.keys().cloned().collect();
        for (field, key) in fields.iter().zip(&paths) {
            ok &= self.field_exists(
                field,
                compiled.kinds().as_deref(),
                &format!("{pointer}/{key}"),
                diags,
            );
        }
        ok.then_some(compiled)
    }

    /// Reports fields no card of the rule's kinds can have.
    pub(super) fn fields(
        &self,
        fields: &[String],
        kinds: Option<&[String]>,
        pointer: &str,
        diags: &mut Diagnostics,
    ) -> Option<()> {
        let mut ok = true;
        for f in fields {
            let first = f.split('.').next().unwrap_or(f);
            ok &= self.field_exists(first, kinds, pointer, diags);
        }
        ok.then_some(())
    }

    /// Whether `field` can exist on the kinds the rule looks at: a reserved
    /// field, or a property of at least one of their schemas.
    fn field_exists(
        &self,
        field: &str,
        kinds: Option<&[String]>,
        pointer: &str,
        diags: &mut Diagnostics,
    ) -> bool {
        let field = field.split('.').next().unwrap_or(field);
        if RESERVED.contains(&field) {
            return true;
        }
        let kinds: Vec<&str> = kinds.map_or_else(
            || self.scope.iter().map(String::as_str).collect(),
            |k| k.iter().map(String::as_str).collect(),
        );
        let mut known = BTreeSet::new();
        for k in &kinds {
            match self.cx.schemas.property_names(k) {
                Some(props) => known.extend(props),
                // A kind whose schema is broken is reported elsewhere; do not pile on.
                None => return true,
            }
        }
        if known.contains(field) {
            return true;
        }
        let hint = suggest::closest(field, known.iter().map(String::as_str).chain(RESERVED));
        diags.push(
            self.cx
                .error(
                    "rules::unknown-field",
                    pointer,
                    format!("the rule uses the field `{field}`, which no card of kind {} has", kinds.iter().map(|k| format!("`{k}`")).collect::<Vec<_>>().join(", ")),
                    "unknown field",
                )
                .with_help(hint.map_or_else(|| "a rule may use the fields the kinds' schemas define, and id, kind, name, copies".into(), |h| format!("did you mean `{h}`?"))),
        );
        false
    }
}

/// Strings numbered in order of first appearance: groups and keys become
/// small integers a deck check compares without hashing.
#[derive(Default)]
pub(super) struct Interner {
    ids: foldhash::HashMap<String, u32>,
    /// Each number's display name.
    pub(super) names: Vec<String>,
}

impl Interner {
    /// The number of `key`, `name` giving its display name the first time.
    pub(super) fn intern(&mut self, key: &str, name: impl FnOnce() -> String) -> u32 {
        if let Some(&id) = self.ids.get(key) {
            return id;
        }
        let id = u32::try_from(self.names.len()).expect("fewer than 2^32 groups");
        self.ids.insert(key.to_owned(), id);
        self.names.push(name());
        id
    }
}

/// A dotted field name as path segments.
pub(super) fn path(field: &str) -> Vec<String> {
    field.split('.').map(str::to_owned).collect()
}

/// A value as words: strings bare, the rest as JSON.
pub(super) fn scalar_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// A hashable key for a tuple of field values (numbers compared by value).
pub(super) fn key_of<V: Borrow<Value>>(values: &[Option<V>]) -> String {
    let mut key = String::new();
    write_key(values, &mut key);
    key
}

/// Appends the key of `values` ([`key_of`]) to `out`: each value tagged by
/// its type, strings with their length, so that no two tuples share a key.
pub(super) fn write_key<V: Borrow<Value>>(values: &[Option<V>], out: &mut String) {
    use std::fmt::Write;
    for v in values {
        // Writing into a String cannot fail.
        let _ = match v.as_ref().map(Borrow::borrow) {
            None => write!(out, "0;"),
            Some(Value::String(s)) => {
                write_string_key(s, out);
                Ok(())
            }
            Some(Value::Number(n)) => match n.as_f64() {
                Some(f) => write!(out, "n{f};"),
                None => write!(out, "n{n};"),
            },
            Some(other) => write!(out, "j{other};"),
        };
    }
}

/// Appends the key of `card`'s value at `path` to `out`, as [`write_key`]
/// does, without copying a reserved field into a value first.
pub(super) fn write_field_key(card: &RawCard, path: &[String], out: &mut String) {
    let reserved = match path {
        [f] if f == "id" => Some(&card.id),
        [f] if f == "kind" => Some(&card.kind),
        [f] if f == "name" => Some(&card.name),
        _ => None,
    };
    match reserved {
        Some(s) => write_string_key(s, out),
        None => write_key(&[field_value(card, path)], out),
    }
}

/// Appends the key of a string value (see [`write_key`]).
fn write_string_key(s: &str, out: &mut String) {
    use std::fmt::Write;
    // Writing into a String cannot fail.
    let _ = write!(out, "s{}:{s};", s.len());
}

/// A group as words, such as: element `fire`.
pub(super) fn describe_group<V: Borrow<Value>>(fields: &[String], values: &[Option<V>]) -> String {
    fields
        .iter()
        .zip(values)
        .map(|(f, v)| {
            let text = v.as_ref().map_or("-".into(), |v| scalar_text(v.borrow()));
            format!("{f} `{text}`")
        })
        .collect::<Vec<_>>()
        .join(", ")
}
