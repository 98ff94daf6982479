//! `count`: the number of cards matching a filter within bounds, overall or
//! per group (per value of some fields).

use super::{At, Entry, Finding, cards, describe_bounds, missing, within};
use crate::config::rules::Bounds;

#[derive(Debug, Clone)]
pub(super) struct Count {
    pub(super) bounds: Bounds,
    /// Per pool card: does it match the filter.
    pub(super) matches: Vec<bool>,
    /// What the counted cards are called in messages (the "`action`" of
    /// "30 `action` cards").
    pub(super) noun: String,
    /// With `per`: each pool card's group, and the groups' names.
    pub(super) groups: Option<(Vec<u32>, Vec<String>)>,
    /// With `per`: groups that must be present even when empty.
    pub(super) required: Vec<u32>,
}

impl Count {
    fn totals(&self, entries: impl Iterator<Item = (At, Entry)>) -> (u64, Vec<u64>, Vec<Vec<At>>) {
        let n = self.groups.as_ref().map_or(0, |(_, names)| names.len());
        let mut per = vec![0u64; n];
        let mut at = vec![Vec::new(); n.max(1)];
        let mut total = 0;
        for (place, e) in entries.filter(|(_, e)| self.matches[e.card as usize]) {
            total += u64::from(e.count);
            match &self.groups {
                Some((group_of, _)) => {
                    let g = group_of[e.card as usize] as usize;
                    per[g] += u64::from(e.count);
                    at[g].push(place);
                }
                None => at[0].push(place),
            }
        }
        (total, per, at)
    }

    pub(super) fn holds(&self, entries: impl Iterator<Item = (At, Entry)>) -> bool {
        if self.groups.is_none() {
            let total: u64 = entries
                .filter(|(_, e)| self.matches[e.card as usize])
                .map(|(_, e)| u64::from(e.count))
                .sum();
            return within(&self.bounds, total);
        }
        let (_, per, _) = self.totals(entries);
        self.groups_hold(&per)
    }

    fn groups_hold(&self, per: &[u64]) -> bool {
        per.iter().enumerate().all(|(g, &n)| {
            (n == 0 && !self.required.contains(&(g as u32))) || within(&self.bounds, n)
        })
    }

    fn describe(&self, n: u64) -> String {
        format!("{n} {} card{}", self.noun, if n == 1 { "" } else { "s" })
    }

    pub(super) fn eval(
        &self,
        entries: impl Iterator<Item = (At, Entry)>,
        report: &mut dyn FnMut(Finding),
    ) {
        let (total, per, mut at) = self.totals(entries);
        let expected = describe_bounds(&self.bounds);
        let Some((_, names)) = &self.groups else {
            report(Finding {
                actual: self.describe(total),
                expected,
                ok: within(&self.bounds, total),
                subject: None,
                primary: None,
                entries: std::mem::take(&mut at[0]),
                missing: missing(&self.bounds, total),
            });
            return;
        };
        let mut any = false;
        for (g, &n) in per.iter().enumerate() {
            let present = n > 0 || self.required.contains(&(g as u32));
            if !present {
                continue;
            }
            any = true;
            report(Finding {
                actual: self.describe(n),
                expected: expected.clone(),
                ok: within(&self.bounds, n),
                subject: Some(names[g].clone()),
                primary: None,
                entries: std::mem::take(&mut at[g]),
                missing: missing(&self.bounds, n),
            });
        }
        if !any {
            report(Finding {
                actual: cards(0),
                expected,
                ok: true,
                subject: None,
                primary: None,
                entries: Vec::new(),
                missing: 0,
            });
        }
    }
}
