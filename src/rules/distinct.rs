//! `distinct`: no two cards (copies counted) share a key.

use super::keys::Keyed;
use super::scope::Scoped;
use super::{At, Check, Entry, Finding};
use crate::config::rules as spec;
use crate::diag::{Diagnostics, Phrase};

/// Deck lines, each where it is and its pool card.
type Lines = Vec<(At, u32)>;

#[derive(Debug, Clone)]
pub(super) struct Distinct {
    /// Per pool card: does the rule apply to it.
    pub(super) applies: Vec<bool>,
    /// Per pool card: its key, and the key as the card words it.
    pub(super) key: Keyed,
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
        let key = sc.keys(d.key.names());
        Some(Check::Distinct(Distinct {
            applies: sc.each(|c| filter.matches(c)),
            key,
            by_id: d.key.names() == ["id"],
        }))
    }

    pub(super) fn holds(&self, entries: impl Iterator<Item = (At, Entry)>) -> bool {
        let mut seen: Vec<u32> = Vec::new();
        for (_, e) in entries.filter(|(_, e)| self.applies[e.card as usize]) {
            let k = self.key.key[e.card as usize];
            if e.count > 1 || seen.contains(&k) {
                return false;
            }
            seen.push(k);
        }
        true
    }

    /// What one more copy of any card does to the rule, from each key's
    /// lines and copies among `entries` (see [`DistinctMore::breaks`]).
    pub(super) fn one_more(&self, entries: impl Iterator<Item = (At, Entry)>) -> DistinctMore<'_> {
        let mut keys: foldhash::HashMap<u32, (u32, u64)> = foldhash::HashMap::default();
        for (_, e) in entries.filter(|(_, e)| self.applies[e.card as usize]) {
            let k = keys.entry(self.key.key[e.card as usize]).or_default();
            k.0 += 1;
            k.1 += u64::from(e.count);
        }
        let repeated = keys.values().filter(|k| repeats(**k)).count();
        DistinctMore {
            rule: self,
            keys,
            repeated,
        }
    }

    pub(super) fn eval(
        &self,
        entries: impl Iterator<Item = (At, Entry)>,
        report: &mut dyn FnMut(Finding),
    ) {
        // Per key: its copies, and each line with its pool card.
        let mut groups: Vec<(u32, u64, Lines)> = Vec::new();
        for (place, e) in entries.filter(|(_, e)| self.applies[e.card as usize]) {
            let k = self.key.key[e.card as usize];
            match groups.iter_mut().find(|g| g.0 == k) {
                Some(g) => {
                    g.1 += u64::from(e.count);
                    g.2.push((place, e.card));
                }
                None => groups.push((k, u64::from(e.count), vec![(place, e.card)])),
            }
        }
        for (_, n, places) in groups.iter().filter(|g| g.1 > 1) {
            let (primary, card) = places.get(1).or(places.first()).copied().unzip();
            // Worded by the line blamed: a card the deck names.
            let name = card.map_or("", |c| self.key.words(c));
            report(Finding {
                actual: Phrase::new("rule-times").with("count", *n),
                expected: Phrase::new("rule-every-different"),
                ok: false,
                subject: Some(format!("`{name}`").into()),
                primary,
                entries: places.iter().take(1).map(|&(at, _)| at).collect(),
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

/// Whether a key with these (lines, copies) breaks the rule: two lines of
/// it, or one line of more than one copy.
fn repeats((lines, copies): (u32, u64)) -> bool {
    lines > 1 || copies > 1
}

/// A `distinct` rule facing one more copy of some card: each key's lines
/// and copies in the deck, and how many keys repeat.
#[derive(Debug)]
pub(super) struct DistinctMore<'r> {
    rule: &'r Distinct,
    keys: foldhash::HashMap<u32, (u32, u64)>,
    repeated: usize,
}

impl DistinctMore<'_> {
    /// Whether the rule is broken once the deck holds one more copy of
    /// pool card `card`, which goes onto its line of `line` copies, if the
    /// zone has one, or onto a new line.
    pub(super) fn breaks(&self, card: u32, line: Option<u32>) -> bool {
        let c = card as usize;
        if !self.rule.applies[c] {
            return self.repeated > 0;
        }
        let (lines, copies) = self
            .keys
            .get(&self.rule.key.key[c])
            .copied()
            .unwrap_or_default();
        let then = (lines + u32::from(line.is_none()), copies + 1);
        self.repeated + usize::from(repeats(then)) - usize::from(repeats((lines, copies))) > 0
    }
}
