//! `share`: no group of cards (by a field, values optionally renamed into
//! groups) may be more than a percentage of the cards.

use super::filter::field_value;
use super::keys::{Interner, path, scalar_text};
use super::scope::Scoped;
use super::{At, Check, Entry, Finding};
use crate::config::rules as spec;
use crate::diag::{Diagnostics, Phrase};

#[derive(Debug, Clone)]
pub(super) struct Share {
    /// Per pool card: its group (`u32::MAX` when it has no value).
    pub(super) group: Vec<u32>,
    /// The groups' names.
    pub(super) names: Vec<String>,
    pub(super) max_percent: u32,
}

impl Share {
    /// Compiles a `share` check: each card's group.
    pub(super) fn compile(
        s: &spec::Share,
        sc: &Scoped<'_, '_>,
        diags: &mut Diagnostics,
    ) -> Option<Check> {
        let pointer = format!("{}/share/by", sc.at);
        sc.fields(std::slice::from_ref(&s.by), None, &pointer, diags)?;
        let mut interner = Interner::default();
        let by = path(&s.by);
        let group = sc.each(|card| match field_value(card, &by) {
            None => u32::MAX,
            Some(v) => {
                let raw = scalar_text(&v);
                let name = s.groups.get(&raw).cloned().unwrap_or(raw);
                interner.intern(&name, || name.clone())
            }
        });
        Some(Check::Share(Share {
            group,
            names: interner.names,
            max_percent: s.max_percent,
        }))
    }

    fn totals(&self, entries: impl Iterator<Item = (At, Entry)>) -> (u64, Vec<u64>, Vec<Vec<At>>) {
        let mut per = vec![0u64; self.names.len()];
        let mut at = vec![Vec::new(); self.names.len()];
        let mut total = 0;
        for (place, e) in entries {
            total += u64::from(e.count);
            let g = self.group[e.card as usize];
            if g != u32::MAX {
                per[g as usize] += u64::from(e.count);
                at[g as usize].push(place);
            }
        }
        (total, per, at)
    }

    fn over(&self, n: u64, total: u64) -> bool {
        n * 100 > total * u64::from(self.max_percent)
    }

    pub(super) fn holds(&self, entries: impl Iterator<Item = (At, Entry)>) -> bool {
        let (total, per, _) = self.totals(entries);
        !per.iter().any(|&n| self.over(n, total))
    }

    /// What one more copy of any card does to the rule, from the deck's
    /// total and its two largest groups (see [`ShareMore::breaks`]).
    pub(super) fn one_more(&self, entries: impl Iterator<Item = (At, Entry)>) -> ShareMore<'_> {
        let mut per: foldhash::HashMap<u32, u64> = foldhash::HashMap::default();
        let mut total = 0;
        for (_, e) in entries {
            total += u64::from(e.count);
            let g = self.group[e.card as usize];
            if g != u32::MAX {
                *per.entry(g).or_default() += u64::from(e.count);
            }
        }
        // The largest group, and the largest of the others.
        let mut top = [(u32::MAX, 0u64); 2];
        for (&g, &n) in &per {
            if n > top[0].1 {
                top = [(g, n), top[0]];
            } else if n > top[1].1 {
                top[1] = (g, n);
            }
        }
        ShareMore {
            rule: self,
            per,
            total,
            top,
        }
    }

    pub(super) fn eval(
        &self,
        entries: impl Iterator<Item = (At, Entry)>,
        report: &mut dyn FnMut(Finding),
    ) {
        let (total, per, mut at) = self.totals(entries);
        let expected = Phrase::new("rule-percent-at-most").with("max", self.max_percent);
        let percent = |n: u64| percent_text(n, total, self.max_percent);
        let mut largest = None;
        for (g, &n) in per.iter().enumerate() {
            if self.over(n, total) {
                report(Finding {
                    actual: Phrase::new("rule-share")
                        .with("percent", percent(n))
                        .with("count", n)
                        .with("total", total),
                    expected: expected.clone(),
                    ok: false,
                    subject: Some(format!("`{}`", self.names[g]).into()),
                    primary: None,
                    entries: std::mem::take(&mut at[g]),
                    missing: 0,
                });
            }
            if largest.is_none_or(|(_, m)| n > m) {
                largest = Some((g, n));
            }
        }
        let actual = largest.map_or_else(
            || Phrase::new("rule-no-cards"),
            |(g, n)| {
                Phrase::new("rule-share-largest")
                    .with("group", format!("`{}`", self.names[g]))
                    .with("percent", percent(n))
            },
        );
        report(Finding {
            actual,
            expected,
            ok: true,
            subject: None,
            primary: None,
            entries: Vec::new(),
            missing: 0,
        });
    }
}

/// A `share` rule facing one more copy of some card: each group's cards,
/// the total, and the two largest groups.
#[derive(Debug)]
pub(super) struct ShareMore<'r> {
    rule: &'r Share,
    per: foldhash::HashMap<u32, u64>,
    total: u64,
    top: [(u32, u64); 2],
}

impl ShareMore<'_> {
    /// Whether the rule is broken once the deck holds one more copy of
    /// pool card `card`: the total gains one, and so does the card's group.
    pub(super) fn breaks(&self, card: u32) -> bool {
        let total = self.total + 1;
        let g = self.rule.group[card as usize];
        let other = if self.top[0].0 == g {
            self.top[1].1
        } else {
            self.top[0].1
        };
        let own = (g != u32::MAX).then(|| self.per.get(&g).copied().unwrap_or(0) + 1);
        self.rule.over(other, total) || own.is_some_and(|n| self.rule.over(n, total))
    }
}

/// `n` of `total` as a percentage, whole when it is whole, else with as few
/// decimals (at least one) as it takes to stay on the same side of `limit`:
/// a share over the limit never prints as the limit itself (51 of 101 is
/// "50.5%", not "50%").
fn percent_text(n: u64, total: u64, limit: u32) -> String {
    if total == 0 {
        return "0%".into();
    }
    if (n * 100).is_multiple_of(total) {
        return format!("{}%", n * 100 / total);
    }
    let exact = n as f64 * 100.0 / total as f64;
    let side = (n * 100).cmp(&(total * u64::from(limit)));
    for decimals in 1..=9 {
        let text = format!("{exact:.decimals$}");
        let shown: f64 = text.parse().expect("a formatted number");
        if shown.partial_cmp(&f64::from(limit)) == Some(side) {
            return format!("{text}%");
        }
    }
    // Closer to the limit than nine decimals show (a pool of 10^11 cards).
    format!("{exact}%")
}

#[cfg(test)]
mod tests {
    use super::percent_text;

    #[test]
    fn a_share_over_the_limit_never_prints_as_the_limit() {
        assert_eq!(percent_text(51, 101, 50), "50.5%");
        assert_eq!(percent_text(50, 100, 50), "50%");
        assert_eq!(percent_text(1, 3, 50), "33.3%");
        assert_eq!(percent_text(5001, 10001, 50), "50.005%");
        assert_eq!(percent_text(0, 0, 50), "0%");
    }
}
