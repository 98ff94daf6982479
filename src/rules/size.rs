//! `size`: the number of cards in a zone (copies counted) within bounds.

use super::scope::Scoped;
use super::{At, Check, Entry, Finding, cards, describe_bounds, missing, within};
use crate::config::rules::Bounds;
use crate::diag::Diagnostics;

#[derive(Debug, Clone)]
pub(super) struct Size {
    pub(super) bounds: Bounds,
}

impl Size {
    /// Compiles a `size` check.
    pub(super) fn compile(
        b: &Bounds,
        sc: &Scoped<'_, '_>,
        diags: &mut Diagnostics,
    ) -> Option<Check> {
        sc.bounds(b, &format!("{}/size", sc.at), diags)?;
        Some(Check::Size(Size { bounds: *b }))
    }

    pub(super) fn holds(&self, entries: impl Iterator<Item = (At, Entry)>) -> bool {
        within(&self.bounds, entries.map(|(_, e)| u64::from(e.count)).sum())
    }

    /// Whether one more copy of any card among `entries` breaks the rule:
    /// the same answer for every card, since each adds one to the size.
    pub(super) fn one_more(&self, entries: impl Iterator<Item = (At, Entry)>) -> bool {
        let total: u64 = entries.map(|(_, e)| u64::from(e.count)).sum();
        !within(&self.bounds, total + 1)
    }

    pub(super) fn eval(
        &self,
        entries: impl Iterator<Item = (At, Entry)>,
        report: &mut dyn FnMut(Finding),
    ) {
        let total: u64 = entries.map(|(_, e)| u64::from(e.count)).sum();
        report(Finding {
            actual: cards(total),
            expected: describe_bounds(&self.bounds),
            ok: within(&self.bounds, total),
            subject: None,
            primary: None,
            entries: Vec::new(),
            missing: missing(&self.bounds, total),
        });
    }
}
