//! One more copy: what adding one copy of any card to a zone of a deck
//! does to each rule. The deck builder marks, after every edit, the cards
//! one more copy of which would break a rule, over pools of tens of
//! thousands of cards; each rule kind answers for every card at once from
//! the deck's sums (a size is full for every card, a copy limit reached
//! for the cards of a key at it, a group at its bound for that group's
//! cards), so the answer costs the deck's lines and the rules, and a card
//! a few lookups, where adding each card and testing each rule would cost
//! the pool × the rules × the deck.

use super::bind::BindMore;
use super::copies::CopiesMore;
use super::count::CountMore;
use super::distinct::DistinctMore;
use super::share::ShareMore;
use super::{Check, CompiledRule, DeckView, RuleSet};

/// What one more copy of any card in one zone of a deck does to some rules
/// (see [`RuleSet::one_more`]).
#[derive(Debug)]
pub struct OneMore<'r> {
    /// The zone's lines: card → copies.
    lines: foldhash::HashMap<u32, u32>,
    /// The rules asked about, by index, each with its answer.
    answers: Vec<(usize, Answer<'r>)>,
}

/// One rule's answer for every card.
#[derive(Debug)]
enum Answer<'r> {
    /// The same for every card: the rule does not look at the zone, or
    /// every card adds to it alike (a size).
    Every(bool),
    Count(CountMore<'r>),
    Copies(CopiesMore<'r>),
    Share(ShareMore<'r>),
    Bind(BindMore<'r>),
    Distinct(DistinctMore<'r>),
}

impl RuleSet {
    /// What one more copy of any card in zone `zone` of `deck` does to the
    /// rules `rules` (indices into [`RuleSet::rules`]). Then
    /// [`OneMore::breaks`] tells, card by card, which of them the deck
    /// would break: what adding the copy (to the card's line of the zone,
    /// or on a new line) and testing each rule ([`CompiledRule::holds`])
    /// tells, at the cost of the deck's lines rather than the pool's cards.
    pub fn one_more(
        &self,
        deck: &DeckView,
        zone: usize,
        rules: impl IntoIterator<Item = usize>,
    ) -> OneMore<'_> {
        let mut lines = foldhash::HashMap::default();
        for e in deck.zones.get(zone).into_iter().flatten() {
            lines.entry(e.card).or_insert(e.count);
        }
        let answers = rules
            .into_iter()
            .map(|i| (i, self.rules[i].answer(deck, zone)))
            .collect();
        OneMore { lines, answers }
    }
}

impl CompiledRule {
    /// What one more copy of any card in zone `zone` of `deck` does to this
    /// rule.
    fn answer(&self, deck: &DeckView, zone: usize) -> Answer<'_> {
        if self.zone.is_some_and(|z| z != zone) {
            // The copy is where the rule does not look.
            return Answer::Every(!self.holds(deck));
        }
        let entries = self.entries(deck);
        match &self.check {
            Check::Size(c) => Answer::Every(c.one_more(entries)),
            Check::Count(c) => Answer::Count(c.one_more(entries)),
            Check::Copies(c) => Answer::Copies(c.one_more(entries)),
            Check::Share(c) => Answer::Share(c.one_more(entries)),
            Check::Bind(c) => Answer::Bind(c.one_more(entries)),
            Check::Distinct(c) => Answer::Distinct(c.one_more(entries)),
        }
    }
}

impl OneMore<'_> {
    /// The rules asked about, in the order asked, that the deck breaks
    /// once it holds one more copy of pool card `card` in the zone (those
    /// it breaks already included, unless the copy mends them).
    pub fn breaks(&self, card: u32) -> impl Iterator<Item = usize> + '_ {
        let line = self.lines.get(&card).copied();
        self.answers
            .iter()
            .filter(move |(_, answer)| match answer {
                Answer::Every(breaks) => *breaks,
                Answer::Count(c) => c.breaks(card, line),
                Answer::Copies(c) => c.breaks(card),
                Answer::Share(c) => c.breaks(card),
                Answer::Bind(c) => c.breaks(card, line),
                Answer::Distinct(c) => c.breaks(card, line),
            })
            .map(|(i, _)| *i)
    }
}
