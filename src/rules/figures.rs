//! The numbers a deck's rules bound, for drawing them: the size of a zone,
//! the count of a filter (per group), the share of each group against its
//! cap. Rules about single cards (`copies`, `bind`, `distinct`) bound no
//! figure of the whole deck and give none.

use serde::Serialize;

use super::{Check, DeckView, Entry, RuleSet, within};
use crate::config::rules::Bounds;

/// One bounded figure of a deck.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Figure {
    /// The rule's index in [`RuleSet::rules`].
    pub rule: usize,
    /// What is counted: empty for the rule's whole subject, else a group's
    /// name (a kingdom, a type).
    pub group: String,
    /// The deck's number (cards, or percent for a share).
    pub value: f64,
    /// The smallest allowed value, if bounded below.
    pub min: Option<f64>,
    /// The largest allowed value, if bounded above.
    pub max: Option<f64>,
    /// `%` for shares, empty for card counts.
    pub unit: &'static str,
    /// Whether the value is within its bounds.
    pub ok: bool,
}

fn bounds(b: &Bounds) -> (Option<f64>, Option<f64>) {
    match b.exact {
        Some(e) => (Some(f64::from(e)), Some(f64::from(e))),
        None => (b.min.map(f64::from), b.max.map(f64::from)),
    }
}

/// A figure of one rule, before it knows its rule: (group, value,
/// bounds, unit, within the bounds).
type Push<'p> = dyn FnMut(String, f64, (Option<f64>, Option<f64>), &'static str, bool) + 'p;

impl RuleSet {
    /// Every figure the rules bound, in rule order.
    pub fn figures(&self, deck: &DeckView) -> Vec<Figure> {
        let mut out = Vec::new();
        for (i, rule) in self.rules.iter().enumerate() {
            let entries = rule.entries(deck).map(|(_, e)| e);
            let mut push = |group: String, value: f64, b: (Option<f64>, Option<f64>), unit, ok| {
                out.push(Figure {
                    rule: i,
                    group,
                    value,
                    min: b.0,
                    max: b.1,
                    unit,
                    ok,
                });
            };
            match &rule.check {
                Check::Size(s) => {
                    let n: u64 = entries.map(|e| u64::from(e.count)).sum();
                    push(
                        String::new(),
                        n as f64,
                        bounds(&s.bounds),
                        "",
                        within(&s.bounds, n),
                    );
                }
                Check::Count(c) => count_figures(c, entries, &mut push),
                Check::Share(s) => share_figures(s, entries, &mut push),
                Check::Copies(_) | Check::Bind(_) | Check::Distinct(_) => {}
            }
        }
        out
    }
}

/// A count rule's figures: one, or one per group present (or required).
fn count_figures(
    c: &super::count::Count,
    entries: impl Iterator<Item = Entry> + Clone,
    push: &mut Push<'_>,
) {
    let groups = c.groups.as_ref().map_or(0, super::keys::Keyed::len);
    let mut per = vec![(0u64, None); groups.max(1)];
    for ((), e) in c.counted(entries.map(|e| ((), e))) {
        let g = c.groups.as_ref().map_or(0, |k| k.key[e.card as usize]);
        let (n, first) = &mut per[g as usize];
        *n += u64::from(e.count);
        first.get_or_insert(e.card);
    }
    for (g, &(n, first)) in per.iter().enumerate() {
        let required = c.required.contains(&(g as u32));
        // Per-group counts bound only the groups present (or required).
        if groups > 0 && n == 0 && !required {
            continue;
        }
        let group = c.group_words(g as u32, first).to_owned();
        push(group, n as f64, bounds(&c.bounds), "", within(&c.bounds, n));
    }
}

/// A share rule's figures: each group's percent of the cards it looks at.
fn share_figures(
    s: &super::share::Share,
    entries: impl Iterator<Item = Entry>,
    push: &mut Push<'_>,
) {
    let mut per = vec![0u64; s.names.len()];
    let mut total = 0u64;
    for e in entries {
        total += u64::from(e.count);
        if let Some(n) = per.get_mut(s.group[e.card as usize] as usize) {
            *n += u64::from(e.count);
        }
    }
    for (g, &n) in per.iter().enumerate() {
        let percent = if total == 0 {
            0.0
        } else {
            n as f64 * 100.0 / total as f64
        };
        let cap = f64::from(s.max_percent);
        let ok = n * 100 <= total * u64::from(s.max_percent);
        push(s.names[g].clone(), percent, (None, Some(cap)), "%", ok);
    }
}

impl super::CompiledRule {
    /// Whether the rule bounds a share of the deck, which more cards of
    /// other groups can always bring back under its cap (so one more copy
    /// of a card never makes a deck unbuildable by it).
    pub fn bounds_a_share(&self) -> bool {
        matches!(self.check, Check::Share(_))
    }
}
