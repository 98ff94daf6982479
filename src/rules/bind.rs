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

/// Whether one more copy of a bound card, onto its line of `line` copies
/// if the zone has one (else a new line), makes it the deck's single bound
/// card (see [`single`]), given the deck's `lines` bound lines before: a
/// single line of one copy.
pub(super) fn only_bound(lines: usize, line: Option<u32>) -> bool {
    lines + usize::from(line.is_none()) == 1 && line.unwrap_or(0) == 0
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

    /// What one more copy of any card does to the rule, from the deck's
    /// bound cards and the values of the cards that must agree (see
    /// [`BindMore::breaks`]).
    pub(super) fn one_more(
        &self,
        entries: impl Iterator<Item = (At, Entry)> + Clone,
    ) -> BindMore<'_> {
        let bound = single(&self.bound, entries.clone()).map(|(_, e)| e.card);
        let mut values = Values::None;
        let mut disagree = 0;
        for (_, e) in entries
            .clone()
            .filter(|(_, e)| self.applies[e.card as usize])
        {
            let v = self.value[e.card as usize];
            values = values.with(v);
            if bound.is_some_and(|b| e.card != b && v != self.value[b as usize]) {
                disagree += 1;
            }
        }
        BindMore {
            rule: self,
            bound_lines: entries.filter(|(_, e)| self.bound[e.card as usize]).count(),
            bound,
            values,
            disagree,
        }
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

/// The values a deck's lines have: none, one, or more.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Values {
    None,
    One(u32),
    Many,
}

impl Values {
    fn with(self, v: u32) -> Values {
        match self {
            Values::None => Values::One(v),
            Values::One(w) if w == v => self,
            _ => Values::Many,
        }
    }
}

/// A `bind` rule facing one more copy of some card: the deck's bound
/// lines and single bound card, the values of the lines that must agree,
/// and how many disagree with the bound card now.
#[derive(Debug)]
pub(super) struct BindMore<'r> {
    rule: &'r Bind,
    bound_lines: usize,
    bound: Option<u32>,
    values: Values,
    disagree: usize,
}

impl BindMore<'_> {
    /// Whether the rule is broken once the deck holds one more copy of
    /// pool card `card`, which goes onto its line of the zone, if `line`
    /// says it has one, or onto a new line.
    pub(super) fn breaks(&self, card: u32, line: Option<u32>) -> bool {
        let c = card as usize;
        if self.rule.bound[c] {
            // A first bound line makes the card the bound one, which every
            // line that must agree then does; any other bound copy leaves
            // no single bound card, and the rule nothing to ask.
            let first = only_bound(self.bound_lines, line);
            return first
                && match self.values {
                    Values::None => false,
                    Values::One(v) => v != self.rule.value[c],
                    Values::Many => true,
                };
        }
        self.bound.is_some_and(|b| {
            self.disagree > 0
                || (self.rule.applies[c] && self.rule.value[c] != self.rule.value[b as usize])
        })
    }
}
