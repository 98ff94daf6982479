//! `count`: the number of cards matching a filter within bounds, overall or
//! per group (per value of some fields).

use serde_json::Value;

use super::bind::{only_bound, single, values_of};
use super::filter::field_value;
use super::keys::{Keyed, KeyedBuilder, describe_group, path};
use super::scope::Scoped;
use super::{At, Check, Entry, Finding, cards, describe_bounds, missing, within};
use crate::config::rules::{self as spec, Bounds};
use crate::diag::{Diagnostics, Phrase};

/// Each card's group, with how the card words it.
pub(super) type Groups = Keyed;

/// Deck lines, each where it is and its pool card.
type Lines = Vec<(At, u32)>;

#[derive(Debug, Clone)]
pub(super) struct Count {
    pub(super) bounds: Bounds,
    /// Per pool card: does it match the filter.
    pub(super) matches: Vec<bool>,
    /// What the counted cards are called in messages (the "`action`" of
    /// "30 `action` cards").
    pub(super) noun: Phrase,
    /// With `per`: each pool card's group, and how it words it.
    pub(super) groups: Option<Groups>,
    /// With `per`: groups that must be present even when empty, and
    /// each one as the rule words it.
    pub(super) required: Vec<u32>,
    pub(super) required_words: Vec<String>,
    /// With `cap`: per pool card, the most copies it adds to the count
    /// (with a `key`, the most its key's cards add together).
    pub(super) cap: Option<Vec<u32>>,
    /// With `cap` and a `key` other than the id: per pool card, its key
    /// (cards with one key share one cap).
    pub(super) key: Option<std::sync::Arc<[u32]>>,
    /// With `like`: only cards sharing a field with the one bound card count.
    pub(super) like: Option<Like>,
}

/// A compiled `like`: which pool cards are bound, and each card's value of
/// the shared field.
#[derive(Debug, Clone)]
pub(super) struct Like {
    bound: Vec<bool>,
    value: Vec<u32>,
}

impl Like {
    /// Compiles a `like`; its field must be one of the counted `kinds`.
    fn compile(
        l: &spec::Like,
        kinds: Option<&[String]>,
        sc: &Scoped<'_, '_>,
        diags: &mut Diagnostics,
    ) -> Option<Like> {
        let at = sc.at;
        let bound = sc.filter(&l.bound, &format!("{at}/count/like/bound"), diags)?;
        sc.fields(
            std::slice::from_ref(&l.field),
            kinds,
            &format!("{at}/count/like/field"),
            diags,
        )?;
        Some(Like {
            bound: sc.each(|c| bound.matches(c)),
            value: values_of(sc, &l.field).0,
        })
    }
}

impl Count {
    /// Compiles a `count` check: which cards match, and each card's group
    /// when it counts per value of some fields.
    pub(super) fn compile(
        c: &spec::Count,
        sc: &Scoped<'_, '_>,
        diags: &mut Diagnostics,
    ) -> Option<Check> {
        let at = sc.at;
        let bounds = Bounds {
            exact: c.exact,
            min: c.min,
            max: c.max,
        };
        sc.bounds(&bounds, &format!("{at}/count"), diags)?;
        let filter = sc.filter(&c.filter, &format!("{at}/count/filter"), diags)?;
        let kinds = filter.kinds();
        let fields_ok = sc.fields(
            c.per.names(),
            kinds.as_deref(),
            &format!("{at}/count/per"),
            diags,
        );
        let matches = sc.each(|card| filter.matches(card));
        let noun = noun(kinds.as_deref(), c.filter.len());
        let (groups, (required, required_words)) = if c.per.is_empty() {
            (None, (Vec::new(), Vec::new()))
        } else {
            fields_ok?;
            groups(c, sc)
        };
        let (cap, key) = cap(c, kinds.as_deref(), sc, diags).ok()?;
        let like = match &c.like {
            Some(l) => Some(Like::compile(l, kinds.as_deref(), sc, diags)?),
            None => None,
        };
        Some(Check::Count(Count {
            bounds,
            matches,
            noun,
            groups,
            required,
            required_words,
            cap,
            key,
            like,
        }))
    }

    /// Which deck lines count: the filter's cards, and with `like` only
    /// those sharing the field with the one bound card (when there is one).
    pub(super) fn counted<P: Copy>(
        &self,
        entries: impl Iterator<Item = (P, Entry)> + Clone,
    ) -> impl Iterator<Item = (P, Entry)> + Clone {
        let want = self
            .like
            .as_ref()
            .and_then(|l| single(&l.bound, entries.clone()).map(|(_, b)| (l, b)));
        entries.filter(move |(_, e)| {
            self.matches[e.card as usize]
                && want.is_none_or(|(l, b)| l.value[e.card as usize] == l.value[b.card as usize])
        })
    }

    /// The total counted, and per group its count and lines (each with
    /// its card).
    fn totals(
        &self,
        entries: impl Iterator<Item = (At, Entry)> + Clone,
    ) -> (u64, Vec<u64>, Vec<Lines>) {
        let n = self.groups.as_ref().map_or(0, Keyed::len);
        let mut per = vec![0u64; n];
        let mut at = vec![Vec::new(); n.max(1)];
        for (place, e) in self.counted(entries.clone()) {
            at[self.group_of(e.card) as usize].push((place, e.card));
        }
        let s = self.sums(self.counted(entries).map(|(_, e)| e));
        if self.groups.is_some() {
            for (g, n) in s.per {
                per[g as usize] = n;
            }
        }
        (s.total, per, at)
    }

    /// Group `g` as words: as the deck's first card of it (`first`) words
    /// it, or, for a required group the deck lacks, as the rule does.
    pub(super) fn group_words(&self, g: u32, first: Option<u32>) -> &str {
        match (&self.groups, first) {
            (Some(groups), Some(card)) => groups.words(card),
            _ => self
                .required
                .iter()
                .position(|&r| r == g)
                .map_or("", |i| &self.required_words[i]),
        }
    }

    pub(super) fn holds(&self, entries: impl Iterator<Item = (At, Entry)> + Clone) -> bool {
        if self.groups.is_none() && self.key.is_none() {
            let total: u64 = self.counted(entries).map(|(_, e)| self.adds(e)).sum();
            return within(&self.bounds, total);
        }
        let (total, per, _) = self.totals(entries);
        if self.groups.is_none() {
            return within(&self.bounds, total);
        }
        self.groups_hold(&per)
    }

    /// Card `card`'s group (0 without `per`).
    fn group_of(&self, card: u32) -> u32 {
        self.groups.as_ref().map_or(0, |g| g.key[card as usize])
    }

    /// What one deck line adds to the count: its copies, within the card's
    /// cap (without a `key`, each line is its own card).
    fn adds(&self, e: Entry) -> u64 {
        let cap = self.cap.as_ref().map_or(u32::MAX, |c| c[e.card as usize]);
        u64::from(e.count.min(cap))
    }

    fn groups_hold(&self, per: &[u64]) -> bool {
        per.iter().enumerate().all(|(g, &n)| {
            (n == 0 && !self.required.contains(&(g as u32))) || within(&self.bounds, n)
        })
    }

    /// Whether group `g` is out of bounds with `n` cards (an absent group
    /// is out only when required).
    fn out(&self, g: u32, n: u64) -> bool {
        !((n == 0 && !self.required.contains(&g)) || within(&self.bounds, n))
    }

    /// The sums of the counted `lines`: the total, each group's count and
    /// how many groups are out of bounds (those absent included).
    /// With a `key`, the copies of each (group, key) are summed first
    /// and capped together.
    fn sums(&self, lines: impl Iterator<Item = Entry>) -> Sums {
        let mut s = Sums::default();
        if let Some(key) = &self.key {
            for e in lines {
                let k = (self.group_of(e.card), key[e.card as usize]);
                let (held, _) = s.held.entry(k).or_insert((0, e.card));
                *held += u64::from(e.count);
            }
            for (&(g, _), &(held, card)) in &s.held {
                let adds = held.min(u64::from(self.cap_of(card)));
                s.total += adds;
                *s.per.entry(g).or_default() += adds;
            }
        } else {
            for e in lines {
                let adds = self.adds(e);
                s.total += adds;
                *s.per.entry(self.group_of(e.card)).or_default() += adds;
            }
        }
        if self.groups.is_some() {
            let mut required = self.required.clone();
            required.sort_unstable();
            required.dedup();
            let absent_out = if within(&self.bounds, 0) {
                0
            } else {
                required.len()
            };
            let now = s.per.iter().filter(|&(&g, &n)| self.out(g, n)).count();
            let empty = s.per.keys().filter(|&&g| self.out(g, 0)).count();
            s.out = absent_out + now - empty;
        }
        s
    }

    /// Whether the rule holds over `s` with `more` cards added to `card`'s group.
    fn holds_with(&self, s: &Sums, card: u32, more: u64) -> bool {
        let Some(groups) = &self.groups else {
            return within(&self.bounds, s.total + more);
        };
        let g = groups.key[card as usize];
        let n = s.per.get(&g).copied().unwrap_or(0);
        s.out + usize::from(self.out(g, n + more)) - usize::from(self.out(g, n)) == 0
    }

    /// What one more copy of any card does to the rule, from the sums of
    /// the counted lines among `entries`: with `like`, also as they would
    /// be with no single bound card and with each value of its field as
    /// the bound card's (see [`CountMore::breaks`]).
    pub(super) fn one_more(
        &self,
        entries: impl Iterator<Item = (At, Entry)> + Clone,
    ) -> CountMore<'_> {
        let matching = entries
            .clone()
            .filter(|(_, e)| self.matches[e.card as usize])
            .map(|(_, e)| e);
        let all = self.sums(matching.clone());
        let mut more = CountMore {
            rule: self,
            all,
            by_value: foldhash::HashMap::default(),
            none: self.sums(std::iter::empty()),
            bound_lines: 0,
            bound: None,
        };
        if let Some(l) = &self.like {
            more.bound_lines = entries
                .clone()
                .filter(|(_, e)| l.bound[e.card as usize])
                .count();
            more.bound = single(&l.bound, entries).map(|(_, e)| e.card);
            let mut by: foldhash::HashMap<u32, Vec<Entry>> = foldhash::HashMap::default();
            for e in matching {
                by.entry(l.value[e.card as usize]).or_default().push(e);
            }
            more.by_value = by
                .into_iter()
                .map(|(v, lines)| (v, self.sums(lines.into_iter())))
                .collect();
        }
        more
    }

    /// The most copies card `card` (with a `key`, its key) adds.
    fn cap_of(&self, card: u32) -> u32 {
        self.cap.as_ref().map_or(u32::MAX, |c| c[card as usize])
    }

    fn describe(&self, n: u64) -> Phrase {
        Phrase::new("rule-counted")
            .with("count", n)
            .with("noun", self.noun.clone())
    }

    pub(super) fn eval(
        &self,
        entries: impl Iterator<Item = (At, Entry)> + Clone,
        report: &mut dyn FnMut(Finding),
    ) {
        let (total, per, mut at) = self.totals(entries);
        let expected = describe_bounds(&self.bounds);
        let places = |lines: &mut Lines| std::mem::take(lines).into_iter().map(|(p, _)| p);
        if self.groups.is_none() {
            report(Finding {
                actual: self.describe(total),
                expected,
                ok: within(&self.bounds, total),
                subject: None,
                primary: None,
                entries: places(&mut at[0]).collect(),
                missing: missing(&self.bounds, total),
            });
            return;
        }
        let mut any = false;
        for (g, &n) in per.iter().enumerate() {
            let present = n > 0 || self.required.contains(&(g as u32));
            if !present {
                continue;
            }
            any = true;
            let first = at[g].first().map(|&(_, card)| card);
            report(Finding {
                actual: self.describe(n),
                expected: expected.clone(),
                ok: within(&self.bounds, n),
                subject: Some(self.group_words(g as u32, first).into()),
                primary: None,
                entries: places(&mut at[g]).collect(),
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

/// The counted cards of a deck: the total, each group's count (with
/// `per`; the one group 0 without), how many groups are out of bounds and,
/// with a `key`, the copies of each (group, key) with one of its cards.
#[derive(Debug, Default)]
struct Sums {
    total: u64,
    per: foldhash::HashMap<u32, u64>,
    out: usize,
    held: foldhash::HashMap<(u32, u32), (u64, u32)>,
}

/// A `count` rule facing one more copy of some card: the sums of the
/// matching lines, and with `like` the deck's bound lines, its single bound
/// card and the sums of the matching lines of each value of the field.
#[derive(Debug)]
pub(super) struct CountMore<'r> {
    rule: &'r Count,
    all: Sums,
    by_value: foldhash::HashMap<u32, Sums>,
    /// The sums of no lines (of a value no matching line has).
    none: Sums,
    bound_lines: usize,
    bound: Option<u32>,
}

impl CountMore<'_> {
    /// Whether the rule is broken once the deck holds one more copy of
    /// pool card `card`, which goes onto its line of `line` copies, if the
    /// zone has one, or onto a new line: the copy adds to the count (within
    /// the card's cap) when the card counts, and a bound card may make
    /// itself the one `like` compares with, or leave none.
    pub(super) fn breaks(&self, card: u32, line: Option<u32>) -> bool {
        let rule = self.rule;
        let at = card as usize;
        let bound = match &rule.like {
            Some(like) if like.bound[at] => only_bound(self.bound_lines, line).then_some(card),
            _ => self.bound,
        };
        let (sums, counts) = match (&rule.like, bound) {
            (Some(like), Some(bound)) => {
                let value = like.value[bound as usize];
                (self.by_value.get(&value), like.value[at] == value)
            }
            _ => (Some(&self.all), true),
        };
        let sums = sums.unwrap_or(&self.none);
        // Without a key the card's own line is what its cap bounds; with
        // one, every counted copy of its key.
        let held = match &rule.key {
            Some(key) => sums
                .held
                .get(&(rule.group_of(card), key[at]))
                .map_or(0, |&(n, _)| n),
            None => u64::from(line.unwrap_or(0)),
        };
        let cap = u64::from(rule.cap_of(card));
        let adds = held.saturating_add(1).min(cap) - held.min(cap);
        let more = if counts && rule.matches[at] { adds } else { 0 };
        !rule.holds_with(sums, card, more)
    }
}

/// What the rule counts: "`action`", or "matching `character`" when the
/// filter says more than the kind.
fn noun(kinds: Option<&[String]>, conditions: usize) -> Phrase {
    match kinds {
        Some(k) => {
            let named = k
                .iter()
                .map(|k| super::Arg::from(format!("`{k}`")))
                .reduce(|first, second| {
                    Phrase::new("rule-either")
                        .with("first", first)
                        .with("second", second)
                        .into()
                })
                .unwrap_or_else(|| "".into());
            let id = if conditions == 1 {
                "rule-noun-kinds"
            } else {
                "rule-noun-matching-kinds"
            };
            Phrase::new(id).with("kinds", named)
        }
        None => Phrase::new("rule-noun-matching"),
    }
}

/// A cap filter or key that did not compile (reported).
struct BrokenCap;

/// Each card's cap and, for a key other than the id, its key.
type Caps = (Option<Vec<u32>>, Option<std::sync::Arc<[u32]>>);

/// With `cap`: each card's most copies counted (`u32::MAX`: all of them),
/// or `None` without caps; with a `key` besides, each card's key, every
/// card of a key taking the lowest cap among them.
fn cap(
    c: &spec::Count,
    kinds: Option<&[String]>,
    sc: &Scoped<'_, '_>,
    diags: &mut Diagnostics,
) -> Result<Caps, BrokenCap> {
    let by_id = c.key.names() == ["id"];
    if !by_id {
        let pointer = format!("{}/count/key", sc.at);
        sc.fields(c.key.names(), kinds, &pointer, diags)
            .ok_or(BrokenCap)?;
    }
    let mut caps = Vec::new();
    for (i, o) in c.cap.iter().enumerate() {
        let pointer = format!("{}/count/cap/{i}/filter", sc.at);
        let filter = sc.filter(&o.filter, &pointer, diags).ok_or(BrokenCap)?;
        caps.push((filter, o.max));
    }
    if caps.is_empty() {
        return Ok((None, None));
    }
    let mut each = sc.each(|card| {
        caps.iter()
            .find(|(f, _)| f.matches(card))
            .map_or(u32::MAX, |(_, max)| *max)
    });
    if by_id {
        return Ok((Some(each), None));
    }
    let key = sc.keys(c.key.names()).key;
    let mut lowest: foldhash::HashMap<u32, u32> = foldhash::HashMap::default();
    for (k, &cap) in key.iter().zip(&each) {
        let low = lowest.entry(*k).or_insert(cap);
        *low = (*low).min(cap);
    }
    for (cap, k) in each.iter_mut().zip(key.iter()) {
        *cap = lowest[k];
    }
    Ok((Some(each), Some(key)))
}

/// Each card's group (its values of the `per` fields, interned) with how
/// it words it, and the groups the rule requires to be present.
fn groups(c: &spec::Count, sc: &Scoped<'_, '_>) -> (Option<Groups>, (Vec<u32>, Vec<String>)) {
    let names = c.per.names();
    let paths: Vec<Vec<String>> = names.iter().map(|f| path(f)).collect();
    let words = |card: &crate::validate::RawCard| {
        let values: Vec<_> = paths.iter().map(|p| field_value(card, p)).collect();
        describe_group(names, &values)
    };
    let mut keys = KeyedBuilder::default();
    for card in sc.cx.pool.iter() {
        keys.card(card, &paths, words);
    }
    let required = c
        .values
        .iter()
        .map(|v| {
            let values: Vec<Option<Value>> = match v {
                Value::Array(items) if names.len() > 1 => items.iter().cloned().map(Some).collect(),
                other => vec![Some(other.clone())],
            };
            let words = describe_group(names, &values);
            (keys.key(&values, || words.clone()), words)
        })
        .unzip();
    (Some(keys.finish()), required)
}
