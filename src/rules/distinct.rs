//! `distinct`: no two cards (copies counted) share a key.

use super::scope::Scoped;
use super::{At, Check, Entry, Finding};
use crate::config::rules as spec;
use crate::diag::{Diagnostics, Phrase};

#[derive(Debug, Clone)]
pub(super) struct Distinct {
    /// Per pool card: does the rule apply to it.
    pub(super) applies: Vec<bool>,
    /// Per pool card: its key.
    pub(super) key: Vec<u32>,
    /// Per key: the key as words.
    pub(super) key_name: Vec<String>,
    /// Whether the key is the card id (each line of a zone is then its own group).
    pub(super) by_id: bool,
}

impl Distinct {
    /// Compiles a `distinct` check: which cards it applies to and their keys.
    pub(super) fn compile(
        d: &spec::Distinct,
        sc: &Scoped<'_, '_>,
        diags: &mut Diagnostics,
    ) -> Option<Check> {
        let at = sc.at;
        let filter = sc.filter(&d.filter, &format!("{at}/distinct/filter"), diags)?;
        sc.fields(
            d.key.names(),
            filter.kinds().as_deref(),
            &format!("{at}/distinct/key"),
            diags,
        )?;
        let (key, key_name) = sc.keys(d.key.names());
        Some(Check::Distinct(Distinct {
            applies: sc.each(|c| filter.matches(c)),
            key,
            key_name,
            by_id: d.key.names() == ["id"],
        }))
    }

    pub(super) fn holds(&self, entries: impl Iterator<Item = (At, Entry)>) -> bool {
        let mut seen: Vec<u32> = Vec::new();
        for (_, e) in entries.filter(|(_, e)| self.applies[e.card as usize]) {
            let k = self.key[e.card as usize];
            if e.count > 1 || seen.contains(&k) {
                return false;
            }
            seen.push(k);
        }
        true
    }

    pub(super) fn eval(
        &self,
        entries: impl Iterator<Item = (At, Entry)>,
        report: &mut dyn FnMut(Finding),
    ) {
        let mut groups: Vec<(u32, u64, Vec<At>)> = Vec::new();
        for (place, e) in entries.filter(|(_, e)| self.applies[e.card as usize]) {
            let k = self.key[e.card as usize];
            match groups.iter_mut().find(|g| g.0 == k) {
                Some(g) => {
                    g.1 += u64::from(e.count);
                    g.2.push(place);
                }
                None => groups.push((k, u64::from(e.count), vec![place])),
            }
        }
        for (k, n, places) in groups.iter().filter(|g| g.1 > 1) {
            let name = &self.key_name[*k as usize];
            report(Finding {
                actual: Phrase::new("rule-times").with("count", *n),
                expected: Phrase::new("rule-every-different"),
                ok: false,
                subject: Some(format!("`{name}`").into()),
                primary: places.get(1).or(places.first()).copied(),
                entries: places.iter().take(1).copied().collect(),
                missing: 0,
            });
        }
        report(Finding {
            actual: Phrase::new("rule-different").with("count", groups.len()),
            expected: Phrase::new("rule-every-different"),
            ok: true,
            subject: None,
            primary: None,
            entries: Vec::new(),
            missing: 0,
        });
    }
}
