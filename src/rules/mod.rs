//! Rules: deck-building and box rules, declared as data in the manifest
//! ([`crate::config::rules`]), compiled against a game's card pool, and evaluated natively.
//!
//! Compiling precomputes, for every rule, what it needs to know about each
//! card of the pool (does it match the filter, which group is it in, what is
//! its limit), so checking a deck is a few passes over its entries with no
//! field lookups and no allocation when the deck is legal.
//!
//! - `compile.rs`: the game's deck rules, box rules and one rule set per
//!   format, each rule dispatched to its kind; `scope.rs`: what a kind
//!   compiles against (the game, the rule's scope, the checks every kind
//!   shares); `keys.rs`: field values as keys that group cards;
//!   `filter.rs`: card filters.
//! - One file per rule kind, each compiling itself: `size`, `count`,
//!   `copies`, `share`, `bind`, `distinct`.
//! - `fast.rs`: the fused fast path; `more.rs`: what one more copy of any
//!   card does to each rule, for the builder's unavailable cards;
//!   `figures.rs`: the numbers rules bound, for the builder's chart;
//!   `source.rs`: each rule's `source`, as advice for `check -v`.

mod bind;
mod compile;
mod copies;
mod count;
mod distinct;
mod fast;
mod figures;
pub mod filter;
mod keys;
mod more;
mod scope;
mod share;
mod size;
mod source;

pub use compile::{Rules, compile};
pub use figures::Figure;
pub use filter::CardFilter;
pub use more::OneMore;
pub use source::sources;

use crate::config::rules::{Bounds, RuleSeverity};
use crate::diag::{Arg, Phrase};
use crate::l10n::english;

/// A deck (or the box) as the engine sees it: entries per zone, in the
/// order of [`RuleSet::zones`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DeckView {
    /// For each zone, its entries.
    pub zones: Vec<Vec<Entry>>,
}

/// One line of a deck: a card of the pool and how many copies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Entry {
    /// The card's index in the pool.
    pub card: u32,
    /// The number of copies.
    pub count: u32,
}

/// Where an entry is: zone index and position in the zone.
pub type At = (usize, usize);

/// A rule broken by a deck.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    /// The rule's index in [`RuleSet::rules`].
    pub rule: usize,
    /// The finished message, in English.
    pub message: String,
    /// The message as a phrase, for the deck builder to word in the
    /// player's language.
    pub said: Phrase,
    /// The entry most to blame, if one is.
    pub primary: Option<At>,
    /// Other entries involved.
    pub entries: Vec<At>,
    /// The zone the rule looked at, if one.
    pub zone: Option<usize>,
}

/// How a deck fares against one rule (`--explain`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tally {
    /// The rule's index in [`RuleSet::rules`].
    pub rule: usize,
    /// What the deck has, in English.
    pub actual: String,
    /// What the rule requires, in English.
    pub expected: String,
    /// [`Tally::actual`] as a phrase.
    pub actual_said: Phrase,
    /// [`Tally::expected`] as a phrase.
    pub expected_said: Phrase,
    /// Whether the rule holds.
    pub ok: bool,
}

/// A compiled zone.
#[derive(Debug, Clone)]
pub struct ZoneInfo {
    /// The zone id.
    pub id: String,
    /// Its display name.
    pub name: String,
    /// For each card of the pool, whether its kind may stand in the zone.
    pub accepts: Vec<bool>,
}

/// A compiled rule.
#[derive(Debug, Clone)]
pub struct CompiledRule {
    /// The rule's id.
    pub id: String,
    /// Its display name.
    pub name: String,
    /// Error or warning.
    pub severity: RuleSeverity,
    /// Where it is declared in the manifest, as a JSON pointer
    /// (`/deck-rules/3`, `/formats/liga/deck-rules/0`).
    pub pointer: String,
    /// Where the rule comes from (the rulebook, or why it is there).
    pub source: Option<String>,
    template: Option<String>,
    zone: Option<usize>,
    check: Check,
}

#[derive(Debug, Clone)]
enum Check {
    Size(size::Size),
    Count(count::Count),
    Copies(copies::Copies),
    Share(share::Share),
    Bind(bind::Bind),
    Distinct(distinct::Distinct),
}

/// The compiled rules of one scope (deck rules, or box rules).
#[derive(Debug, Clone, Default)]
pub struct RuleSet {
    /// The zones (for box rules, one zone: the pool).
    pub zones: Vec<ZoneInfo>,
    /// The rules, in manifest order.
    pub rules: Vec<CompiledRule>,
    /// The format these rules are, or `None` for the game's own deck rules
    /// (and for box rules).
    pub format: Option<String>,
    fast: fast::Fast,
}

/// What one check says about a deck: the numbers and, when broken, the
/// entries to blame.
struct Finding {
    actual: Phrase,
    expected: Phrase,
    ok: bool,
    /// Extra words for the default message (a group, a card).
    subject: Option<Arg>,
    /// How many cards short of a minimum (`{missing}`); 0 when not short.
    missing: u64,
    primary: Option<At>,
    entries: Vec<At>,
}

impl RuleSet {
    /// A rule set over `zones`, for a pool of `pool_len` cards.
    pub(crate) fn new(
        zones: Vec<ZoneInfo>,
        rules: Vec<CompiledRule>,
        format: Option<String>,
        pool_len: usize,
    ) -> Self {
        let mut set = RuleSet {
            zones,
            rules,
            format,
            fast: fast::Fast::default(),
        };
        set.fast = fast::Fast::build(&set, pool_len);
        set
    }

    /// Every rule the deck breaks. Rules are first tested on the fast path;
    /// only a broken rule is evaluated again to explain how it breaks.
    pub fn check(&self, deck: &DeckView) -> Vec<Violation> {
        let mut out = Vec::new();
        if self.fast.all_hold(self, deck) {
            return out;
        }
        for (i, rule) in self.rules.iter().enumerate() {
            if rule.holds(deck) {
                continue;
            }
            rule.eval(deck, &mut |f| {
                if !f.ok {
                    out.push(rule.violation(i, f, self));
                }
            });
        }
        out
    }

    /// Whether the deck keeps every rule of severity error (no messages are built).
    pub fn is_legal(&self, deck: &DeckView) -> bool {
        if self.fast.all_hold(self, deck) {
            return true;
        }
        // Something failed: when warnings exist, it may have been only a warning.
        self.rules
            .iter()
            .any(|r| r.severity == RuleSeverity::Warning)
            && self
                .rules
                .iter()
                .filter(|r| r.severity == RuleSeverity::Error)
                .all(|r| r.holds(deck))
    }

    /// The most copies of pool card `card` the error rules allow in zone
    /// `zone`: the least `copies` limit that applies to it there (1 under
    /// a `distinct` rule), or `None` when no rule limits its copies. The
    /// builder's "add ×N" stops there.
    pub fn copy_limit(&self, zone: usize, card: usize) -> Option<u32> {
        self.rules
            .iter()
            .filter(|r| r.severity == RuleSeverity::Error && r.zone.is_none_or(|z| z == zone))
            .filter_map(|r| match &r.check {
                Check::Copies(c) => c.limit[card],
                Check::Distinct(d) if d.applies[card] => Some(1),
                _ => None,
            })
            .min()
    }

    /// How the deck fares against every rule.
    pub fn explain(&self, deck: &DeckView) -> Vec<Tally> {
        let mut out = Vec::new();
        for (i, rule) in self.rules.iter().enumerate() {
            let mut worst: Option<Finding> = None;
            rule.eval(deck, &mut |f| {
                if worst.as_ref().is_none_or(|w| w.ok && !f.ok) {
                    worst = Some(f);
                }
            });
            if let Some(f) = worst {
                out.push(Tally {
                    rule: i,
                    actual: english(&f.actual),
                    expected: english(&f.expected),
                    actual_said: f.actual,
                    expected_said: f.expected,
                    ok: f.ok,
                });
            }
        }
        out
    }
}

impl CompiledRule {
    fn entries<'d>(&self, deck: &'d DeckView) -> impl Iterator<Item = (At, Entry)> + Clone + 'd {
        let only = self.zone;
        deck.zones
            .iter()
            .enumerate()
            .filter(move |(z, _)| only.is_none_or(|o| o == *z))
            .flat_map(|(z, entries)| entries.iter().enumerate().map(move |(i, e)| ((z, i), *e)))
    }

    fn eval(&self, deck: &DeckView, report: &mut dyn FnMut(Finding)) {
        let entries = self.entries(deck);
        match &self.check {
            Check::Size(c) => c.eval(entries, report),
            Check::Count(c) => c.eval(entries, report),
            Check::Copies(c) => c.eval(entries, report),
            Check::Share(c) => c.eval(entries, report),
            Check::Bind(c) => c.eval(entries, report),
            Check::Distinct(c) => c.eval(entries, report),
        }
    }

    /// Whether the deck keeps this rule: the test [`RuleSet::check`] runs
    /// first, without building a message.
    pub fn holds(&self, deck: &DeckView) -> bool {
        let entries = self.entries(deck);
        match &self.check {
            Check::Size(c) => c.holds(entries),
            Check::Count(c) => c.holds(entries),
            Check::Copies(c) => c.holds(entries),
            Check::Share(c) => c.holds(entries),
            Check::Bind(c) => c.holds(entries),
            Check::Distinct(c) => c.holds(entries),
        }
    }

    /// The stable code of a broken rule of this check: `deck::copy-limit`,
    /// or `box::…` for a box rule.
    pub fn code(&self, boxed: bool) -> &'static str {
        match (&self.check, boxed) {
            (Check::Size(_), false) => "deck::size",
            (Check::Count(_), false) => "deck::count",
            (Check::Copies(_), false) => "deck::copy-limit",
            (Check::Share(_), false) => "deck::share",
            (Check::Bind(_), false) => "deck::bind",
            (Check::Distinct(_), false) => "deck::distinct",
            (Check::Size(_), true) => "box::size",
            (Check::Count(_), true) => "box::count",
            (Check::Copies(_), true) => "box::copy-limit",
            (Check::Share(_), true) => "box::share",
            (Check::Bind(_), true) => "box::bind",
            (Check::Distinct(_), true) => "box::distinct",
        }
    }

    fn violation(&self, index: usize, f: Finding, set: &RuleSet) -> Violation {
        // The game's own message, in its language: only the engine's
        // words in its slots change with the reader's language.
        let said = if let Some(t) = &self.template {
            Phrase::own(t.clone())
                .with("rule", &self.name)
                .with("actual", f.actual)
                .with("expected", f.expected)
                .with(
                    "zone",
                    self.zone.map_or_else(
                        || Arg::from(Phrase::new("rule-the-deck")),
                        |z| Arg::from(set.zones[z].name.as_str()),
                    ),
                )
                .with("missing", f.missing)
                .with("card", f.subject.unwrap_or_else(|| Arg::from("")))
        } else {
            f.subject
                .map_or_else(
                    || Phrase::new("rule-broken"),
                    |s| Phrase::new("rule-broken-at").with("subject", s),
                )
                .with("actual", f.actual)
                .with("rule", &self.name)
                .with("expected", f.expected)
        };
        Violation {
            rule: index,
            message: english(&said),
            said,
            primary: f.primary,
            entries: f.entries,
            zone: self.zone,
        }
    }
}

/// Bounds as words: "exactly 30", "at least 50", "between 2 and 4".
pub fn describe_bounds(b: &Bounds) -> Phrase {
    match (b.exact, b.min, b.max) {
        (Some(e), _, _) => Phrase::new("rule-exactly").with("n", e),
        (None, Some(lo), Some(hi)) => Phrase::new("rule-between").with("min", lo).with("max", hi),
        (None, Some(lo), None) => Phrase::new("rule-at-least").with("n", lo),
        (None, None, Some(hi)) => Phrase::new("rule-at-most").with("n", hi),
        (None, None, None) => Phrase::new("rule-any-number"),
    }
}

/// Whether `n` is within bounds.
pub fn within(b: &Bounds, n: u64) -> bool {
    b.exact.is_none_or(|e| n == u64::from(e))
        && b.min.is_none_or(|m| n >= u64::from(m))
        && b.max.is_none_or(|m| n <= u64::from(m))
}

/// How many cards `n` is short of the bounds' minimum (0 when it is not).
pub fn missing(b: &Bounds, n: u64) -> u64 {
    let least = b.exact.or(b.min).map_or(0, u64::from);
    least.saturating_sub(n)
}

/// "1 card" / "31 cards".
pub fn cards(n: u64) -> Phrase {
    Phrase::new("rule-cards").with("count", n)
}

#[cfg(test)]
mod tests;
