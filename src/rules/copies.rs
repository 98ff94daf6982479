//! `copies`: a limit on the copies of each card, by id or by a key such as
//! the name, with per-filter overrides and a per-card limit field.

use std::collections::HashSet;

use super::filter::field_value;
use super::keys::{Keyed, path};
use super::scope::Scoped;
use super::{At, Check, Entry, Finding};
use crate::config::rules as spec;
use crate::diag::{Diagnostics, Phrase};

#[derive(Debug, Clone)]
pub(super) struct Copies {
    /// Per pool card: its limit, or `None` when the rule does not apply.
    pub(super) limit: Vec<Option<u32>>,
    /// Per pool card: its copy key (cards with the same key are copies),
    /// and the key as the card words it (`Escudo Orc`, `escudo-orc`).
    pub(super) key: Keyed,
    /// Whether each card is its own copy group (the key is the id, or no two
    /// limited cards share a key): each line of a zone is then its own group.
    pub(super) by_id: bool,
}

impl Copies {
    /// Compiles a `copies` check: each card's limit (none for cards the
    /// filter leaves out) and key.
    pub(super) fn compile(
        c: &spec::Copies,
        sc: &Scoped<'_, '_>,
        diags: &mut Diagnostics,
    ) -> Option<Check> {
        let at = sc.at;
        let filter = sc.filter(&c.filter, &format!("{at}/copies/filter"), diags)?;
        let kinds = filter.kinds();
        sc.fields(
            c.key.names(),
            kinds.as_deref(),
            &format!("{at}/copies/key"),
            diags,
        )?;
        if let Some(f) = &c.field {
            let pointer = format!("{at}/copies/field");
            sc.fields(std::slice::from_ref(f), kinds.as_deref(), &pointer, diags)?;
        }
        let mut overrides = Vec::new();
        for (i, o) in c.overrides.iter().enumerate() {
            let pointer = format!("{at}/copies/overrides/{i}/filter");
            overrides.push((sc.filter(&o.filter, &pointer, diags)?, o.max));
        }
        let own = c.field.as_deref().map(path);
        let limit = sc.each(|card| {
            if !filter.matches(card) {
                return None;
            }
            own.as_ref()
                .and_then(|p| field_value(card, p))
                .and_then(|v| v.as_u64())
                .and_then(|n| u32::try_from(n).ok())
                .or_else(|| {
                    overrides
                        .iter()
                        .find(|(f, _)| f.matches(card))
                        .map(|(_, m)| *m)
                })
                .or(Some(c.max))
        });
        let key = sc.keys(c.key.names());
        // When no two limited cards share a key (every name printed
        // once), copies by key are copies by id: the fast path fuses them.
        let mut seen = HashSet::new();
        let unique = key
            .key
            .iter()
            .zip(&limit)
            .filter(|(_, l)| l.is_some())
            .all(|(k, _)| seen.insert(*k));
        let by_id = c.key.names() == ["id"] || unique;
        Some(Check::Copies(Copies { limit, key, by_id }))
    }

    /// Sums the copies of each key among the entries the rule applies to:
    /// (key, total, limit, places with their lines), in first-seen order.
    fn groups(&self, entries: impl Iterator<Item = (At, Entry)>) -> Vec<Group> {
        let mut groups: Vec<Group> = Vec::new();
        for (place, e) in entries {
            let c = e.card as usize;
            let Some(limit) = self.limit[c] else { continue };
            match groups.iter_mut().find(|g| g.key == self.key.key[c]) {
                Some(g) => {
                    g.total += u64::from(e.count);
                    g.limit = g.limit.min(limit);
                    g.places.push((place, e));
                }
                None => groups.push(Group {
                    key: self.key.key[c],
                    total: u64::from(e.count),
                    limit,
                    places: vec![(place, e)],
                }),
            }
        }
        groups
    }

    pub(super) fn holds(&self, entries: impl Iterator<Item = (At, Entry)> + Clone) -> bool {
        let all = entries.clone();
        let mut seen: [(u32, u64, u32); 64] = [(0, 0, 0); 64];
        let mut n = 0;
        for (_, e) in entries {
            let c = e.card as usize;
            let Some(limit) = self.limit[c] else { continue };
            let key = self.key.key[c];
            if let Some(s) = seen[..n].iter_mut().find(|s| s.0 == key) {
                s.1 += u64::from(e.count);
                s.2 = s.2.min(limit);
                if s.1 > u64::from(s.2) {
                    return false;
                }
            } else {
                if u64::from(e.count) > u64::from(limit) {
                    return false;
                }
                if n == seen.len() {
                    // More distinct cards than the fast path tracks: group them all.
                    return self
                        .groups(all)
                        .iter()
                        .all(|g| g.total <= u64::from(g.limit));
                }
                seen[n] = (key, u64::from(e.count), limit);
                n += 1;
            }
        }
        true
    }

    /// What one more copy of any card does to the rule, from each key's
    /// copies and least limit among `entries` (see [`CopiesMore::breaks`]).
    pub(super) fn one_more(&self, entries: impl Iterator<Item = (At, Entry)>) -> CopiesMore<'_> {
        let mut keys: foldhash::HashMap<u32, (u64, u32)> = foldhash::HashMap::default();
        for (_, e) in entries {
            let c = e.card as usize;
            let Some(limit) = self.limit[c] else { continue };
            let k = keys.entry(self.key.key[c]).or_insert((0, u32::MAX));
            k.0 += u64::from(e.count);
            k.1 = k.1.min(limit);
        }
        let over = keys.values().filter(|(n, l)| *n > u64::from(*l)).count();
        CopiesMore {
            rule: self,
            keys,
            over,
        }
    }

    pub(super) fn eval(
        &self,
        entries: impl Iterator<Item = (At, Entry)>,
        report: &mut dyn FnMut(Finding),
    ) {
        let groups = self.groups(entries);
        let mut worst = 0u64;
        for g in groups {
            let ok = g.total <= u64::from(g.limit);
            worst = worst.max(g.total);
            if !ok {
                // Blame the line that takes the key over its limit (a reprint
                // under another id, say); label the others.
                let mut running = 0u64;
                let over = g
                    .places
                    .iter()
                    .position(|&(_, e)| {
                        running += u64::from(e.count);
                        running > u64::from(g.limit)
                    })
                    .unwrap_or(0);
                let (primary, over) = g.places[over];
                report(Finding {
                    actual: Phrase::new("rule-copies").with("count", g.total),
                    expected: Phrase::new("rule-at-most").with("n", g.limit),
                    ok,
                    // Worded by the card over the limit: one the deck names.
                    subject: Some(format!("`{}`", self.key.words(over.card)).into()),
                    primary: Some(primary),
                    entries: g
                        .places
                        .iter()
                        .map(|&(at, _)| at)
                        .filter(|&at| at != primary)
                        .collect(),
                    missing: 0,
                });
            }
        }
        report(Finding {
            actual: Phrase::new("rule-copies-worst").with("count", worst),
            expected: Phrase::new("rule-copies-within"),
            ok: true,
            subject: None,
            primary: None,
            entries: Vec::new(),
            missing: 0,
        });
    }
}

/// The copies of one key in a deck.
struct Group {
    key: u32,
    total: u64,
    /// The smallest limit among its cards.
    limit: u32,
    /// Each line holding the key, with its card and copies.
    places: Vec<(At, Entry)>,
}

/// A `copies` rule facing one more copy of some card: each key's copies
/// and least limit in the deck, and how many keys are over it.
#[derive(Debug)]
pub(super) struct CopiesMore<'r> {
    rule: &'r Copies,
    keys: foldhash::HashMap<u32, (u64, u32)>,
    over: usize,
}

impl CopiesMore<'_> {
    /// Whether the rule is broken once the deck holds one more copy of
    /// pool card `card` (anywhere the rule looks): its key gains a copy,
    /// and the card's own limit when it is the least.
    pub(super) fn breaks(&self, card: u32) -> bool {
        let c = card as usize;
        let Some(limit) = self.rule.limit[c] else {
            return self.over > 0;
        };
        let (n, least) = self
            .keys
            .get(&self.rule.key.key[c])
            .copied()
            .unwrap_or((0, u32::MAX));
        let was = n > u64::from(least);
        let now = n + 1 > u64::from(least.min(limit));
        self.over + usize::from(now) - usize::from(was) > 0
    }
}
