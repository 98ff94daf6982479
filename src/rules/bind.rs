//! `bind`: the cards matching a filter must agree on a field with the one
//! bound card (a deck's city fixes its kingdom).

use super::filter::field_value;
use super::keys::{Interner, path, scalar_text};
use super::scope::Scoped;
use super::{At, Check, Entry, Finding};
use crate::config::rules as spec;
use crate::diag::{Arg, Diagnostics, Phrase};

#[derive(Debug, Clone)]
pub(super) struct Bind {
    /// Per pool card: is it a bound card.
    pub(super) bound: Vec<bool>,
    /// Per pool card: must it agree with the bound card.
    pub(super) applies: Vec<bool>,
    /// Per pool card: its value of the field (`u32::MAX` when absent).
    pub(super) value: Vec<u32>,
    /// The values' names.
    pub(super) names: Vec<String>,
    /// The field, for messages.
    pub(super) field: String,
    /// Per pool card: its id, for messages.
    pub(super) ids: Vec<String>,
}

/// The single card of `entries` that `bound` marks, if there is exactly
/// one (copies counted): the card a `bind` or a `count`'s `like` refers to.
pub(super) fn single<P: Copy>(
    bound: &[bool],
    entries: impl Iterator<Item = (P, Entry)>,
) -> Option<(P, Entry)> {
    let mut found = None;
    for (place, e) in entries.filter(|(_, e)| bound[e.card as usize]) {
        if found.is_some() || e.count != 1 {
            return None;
        }
        found = Some((place, e));
    }
    found
}

/// Each pool card's value of `field`, interned (`u32::MAX` when absent),
/// and the values' names.
pub(super) fn values_of(sc: &Scoped<'_, '_>, field: &str) -> (Vec<u32>, Vec<String>) {
    let mut interner = Interner::default();
    let field = path(field);
    let value = sc.each(|card| match field_value(card, &field) {
        None => u32::MAX,
        Some(v) => {
            let text = scalar_text(&v);
            interner.intern(&text, || text.clone())
        }
    });
    (value, interner.names)
}

impl Bind {
    /// Compiles a `bind` check: which cards are bound, which must agree,
    /// and each card's value of the field.
    pub(super) fn compile(
        b: &spec::Bind,
        sc: &Scoped<'_, '_>,
        diags: &mut Diagnostics,
    ) -> Option<Check> {
        let at = sc.at;
        let bound = sc.filter(&b.bound, &format!("{at}/bind/bound"), diags)?;
        let filter = sc.filter(&b.filter, &format!("{at}/bind/filter"), diags)?;
        sc.fields(
            std::slice::from_ref(&b.field),
            filter.kinds().as_deref(),
            &format!("{at}/bind/field"),
            diags,
        )?;
        let (value, names) = values_of(sc, &b.field);
        Some(Check::Bind(Bind {
            bound: sc.each(|c| bound.matches(c)),
            applies: sc.each(|c| filter.matches(c)),
            value,
            names,
            field: b.field.clone(),
            ids: sc.each(|c| c.id.clone()),
        }))
    }

    fn the_bound(&self, entries: impl Iterator<Item = (At, Entry)>) -> Option<(At, Entry)> {
        single(&self.bound, entries)
    }

    pub(super) fn holds(&self, entries: impl Iterator<Item = (At, Entry)> + Clone) -> bool {
        let Some((_, b)) = self.the_bound(entries.clone()) else {
            return true;
        };
        let want = self.value[b.card as usize];
        entries
            .filter(|(_, e)| self.applies[e.card as usize] && e.card != b.card)
            .all(|(_, e)| self.value[e.card as usize] == want)
    }

    pub(super) fn eval(
        &self,
        entries: impl Iterator<Item = (At, Entry)> + Clone,
        report: &mut dyn FnMut(Finding),
    ) {
        let Some((bound_at, b)) = self.the_bound(entries.clone()) else {
            report(Finding {
                actual: Phrase::new("rule-bind-none"),
                expected: Phrase::new("rule-bind-none-expected"),
                ok: true,
                subject: None,
                primary: None,
                entries: Vec::new(),
                missing: 0,
            });
            return;
        };
        let want = self.value[b.card as usize];
        let name = |v: u32| -> Arg {
            self.names.get(v as usize).map_or_else(
                || Phrase::new("rule-bind-nothing").into(),
                |n| format!("`{n}`").into(),
            )
        };
        let mut all_ok = true;
        for (place, e) in entries.filter(|(_, e)| self.applies[e.card as usize] && e.card != b.card)
        {
            let have = self.value[e.card as usize];
            if have != want {
                all_ok = false;
                report(Finding {
                    actual: Phrase::new("rule-bind-has")
                        .with("field", &self.field)
                        .with("value", name(have)),
                    expected: Phrase::new("rule-bind-like")
                        .with("field", &self.field)
                        .with("value", name(want))
                        .with("card", format!("`{}`", self.ids[b.card as usize])),
                    ok: false,
                    subject: Some(format!("`{}`", self.ids[e.card as usize]).into()),
                    primary: Some(place),
                    entries: vec![bound_at],
                    missing: 0,
                });
            }
        }
        if all_ok {
            report(Finding {
                actual: Phrase::new("rule-bind-all")
                    .with("field", &self.field)
                    .with("value", name(want)),
                expected: Phrase::new("rule-bind-of")
                    .with("field", &self.field)
                    .with("card", format!("`{}`", self.ids[b.card as usize])),
                ok: true,
                subject: None,
                primary: None,
                entries: Vec::new(),
                missing: 0,
            });
        }
    }
}
