//! From declared rules to compiled ones: every rule is checked against the
//! game (zones, kinds, fields its filters use) with diagnostics in
//! `game.toml`, then precomputed over the card pool.

use std::collections::HashMap;

use super::bind::Bind;
use super::copies::Copies;
use super::count::Count;
use super::distinct::Distinct;
use super::scope::{Cx, KeyMemo, Scoped};
use super::share::Share;
use super::size::Size;
use super::{Check, CompiledRule, RuleSet, ZoneInfo};
use crate::config::rules::Rule;
use crate::diag::{Diagnostics, Label};
use crate::link::CardPool;
use crate::suggest;
use crate::validate::{GameSchemas, LoadedManifest};
use indexmap::IndexMap;
use rayon::prelude::*;

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
    /// `[play] start-on-table`, each entry compiled: per pool card whether
    /// it matches, and at most how many of them start on the table.
    pub table: Vec<(Vec<bool>, Option<u32>)>,
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
        keys: KeyMemo::default(),
    };
    // The deck rules (and formats) and the box rules compile side by side:
    // each walks the whole pool, and neither reads the other. Their
    // diagnostics keep the order of a serial compile.
    let mut boxed_found = Diagnostics::new();
    let ((deck, formats), boxed) =
        rayon::join(|| cx.deck_sets(diags), || cx.box_set(&mut boxed_found));
    diags.extend(boxed_found);
    let table = cx.table(diags);
    Rules {
        deck,
        boxed,
        formats,
        table,
    }
}

impl Cx<'_> {
    /// `[play] start-on-table`'s filters, checked like a rule's against
    /// the kinds of the zone drawn from; a broken one is reported and left
    /// out.
    fn table(&self, diags: &mut Diagnostics) -> Vec<(Vec<bool>, Option<u32>)> {
        let m = &self.manifest.manifest;
        let Some(play) = &m.play else {
            return Vec::new();
        };
        let scope: Vec<String> = m
            .draw_zone()
            .and_then(|z| m.zones.get(z))
            .map_or_else(|| m.kinds.keys().cloned().collect(), |z| z.kinds.clone());
        let mut out = Vec::new();
        for (i, t) in play.start_on_table.iter().enumerate() {
            let at = format!("/play/start-on-table/{i}");
            let scoped = Scoped {
                cx: self,
                at: &at,
                scope: &scope,
            };
            if let Some(f) = scoped.filter(&t.filter, &format!("{at}/filter"), diags) {
                out.push((scoped.each(|c| f.matches(c)), t.count));
            }
        }
        out
    }

    /// The zones, the game's deck rules and each format's rule set.
    fn deck_sets(&self, diags: &mut Diagnostics) -> (RuleSet, IndexMap<String, RuleSet>) {
        let zones = self.zones(diags);
        let deck_zones: Vec<(String, Vec<String>)> = self
            .manifest
            .manifest
            .zones
            .iter()
            .map(|(id, z)| (id.clone(), z.kinds.clone()))
            .collect();
        let deck_rules = self.rules(
            "deck-rules",
            &self.manifest.manifest.deck_rules,
            &deck_zones,
            diags,
        );
        let formats = self.formats(&deck_rules, &zones, &deck_zones, diags);
        let deck = RuleSet::new(zones, deck_rules, None, self.pool.len());
        (deck, formats)
    }

    /// The box rules, over the whole pool as one zone.
    fn box_set(&self, diags: &mut Diagnostics) -> RuleSet {
        let box_zone = ZoneInfo {
            id: "box".into(),
            name: "the box".into(),
            accepts: vec![true; self.pool.len()],
        };
        let rules = self.rules("box-rules", &self.manifest.manifest.box_rules, &[], diags);
        RuleSet::new(vec![box_zone], rules, None, self.pool.len())
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
        let check = check(rule, &scoped, diags)?;
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

/// The rule's one check, compiled by its kind's own file.
fn check(rule: &Rule, scoped: &Scoped, diags: &mut Diagnostics) -> Option<Check> {
    if let Some(b) = &rule.size {
        return Size::compile(b, scoped, diags);
    }
    if let Some(c) = &rule.count {
        return Count::compile(c, scoped, diags);
    }
    if let Some(c) = &rule.copies {
        return Copies::compile(c, scoped, diags);
    }
    if let Some(s) = &rule.share {
        return Share::compile(s, scoped, diags);
    }
    if let Some(b) = &rule.bind {
        return Bind::compile(b, scoped, diags);
    }
    let d = rule.distinct.as_ref().expect("one check is present");
    Distinct::compile(d, scoped, diags)
}
