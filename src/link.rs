//! Link: the cards of a game become one pool, indexed by id. Ids must be
//! unique within the game, and every card reference must name an existing
//! card of an allowed kind. A card the sources hold but the pool lacks
//! (see [`Unlinked`]) is not called missing: its own error says why.

use std::collections::HashSet;
use std::hash::BuildHasher;

use hashbrown::HashTable;

use crate::diag::{Diagnostic, Diagnostics, Label};
use crate::suggest;
use crate::validate::{CardRef, RawCard};

/// Every card of a game, in source order, with an index by id: each
/// card's position, found by the hash of its id (foldhash: ids are looked
/// up for every deck entry and reference) and compared with the card's own
/// id, which is not copied into the index.
#[derive(Debug, Default)]
pub struct CardPool {
    cards: Vec<RawCard>,
    index: Index,
    unlinked: Unlinked,
}

/// The ids the sources may hold that the pool does not: cards left out
/// for an error of their own (an unknown kind), or any id at all when a
/// card file could not be read or parsed. A reference or a deck line that
/// names one is not reported as naming no card: the card's own error is
/// the one to fix, and it would only repeat as more errors.
#[derive(Debug, Default, Clone)]
pub struct Unlinked {
    ids: HashSet<String>,
    any: bool,
}

impl Unlinked {
    /// The ids of cards left out of the pool; with `any`, every id (a card
    /// file could not be read or parsed, so it may hold any).
    pub fn new(ids: impl IntoIterator<Item = String>, any: bool) -> Self {
        Unlinked {
            ids: ids.into_iter().collect(),
            any,
        }
    }

    /// Whether `id` may be a card of the sources that the pool lacks.
    pub fn holds(&self, id: &str) -> bool {
        self.any || self.ids.contains(id)
    }
}

/// The positions of a pool's cards by the hash of their ids.
#[derive(Debug, Default)]
struct Index {
    table: HashTable<usize>,
    hasher: foldhash::fast::RandomState,
}

impl Index {
    fn hash(&self, id: &str) -> u64 {
        self.hasher.hash_one(id)
    }

    /// The position of the card of `cards` with id `id`.
    fn find(&self, cards: &[RawCard], id: &str) -> Option<usize> {
        self.table
            .find(self.hash(id), |&i| cards[i].id == id)
            .copied()
    }

    /// Indexes the card at position `i`, which no other has the id of.
    fn insert(&mut self, cards: &[RawCard], i: usize) {
        let hash = self.hash(&cards[i].id);
        let hasher = &self.hasher;
        self.table
            .insert_unique(hash, i, |&j| hasher.hash_one(cards[j].id.as_str()));
    }
}

impl CardPool {
    /// The card with id `id`.
    pub fn get(&self, id: &str) -> Option<&RawCard> {
        self.position(id).map(|i| &self.cards[i])
    }

    /// Every card, in source order (file path, then position).
    pub fn iter(&self) -> impl ExactSizeIterator<Item = &RawCard> {
        self.cards.iter()
    }

    /// The position of the card with id `id` in [`CardPool::iter`] order.
    pub fn position(&self, id: &str) -> Option<usize> {
        self.index.find(&self.cards, id)
    }

    /// The card at position `i` in [`CardPool::iter`] order.
    ///
    /// # Panics
    /// If `i` is out of range.
    pub fn card(&self, i: usize) -> &RawCard {
        &self.cards[i]
    }

    /// How many cards there are.
    pub fn len(&self) -> usize {
        self.cards.len()
    }

    /// Whether the pool has no cards.
    pub fn is_empty(&self) -> bool {
        self.cards.is_empty()
    }

    /// Whether `id` may name a card the sources hold but the pool lacks
    /// (see [`Unlinked`]): naming it is then no error of its own.
    pub fn left_out(&self, id: &str) -> bool {
        self.position(id).is_none() && self.unlinked.holds(id)
    }

    /// The ids of all cards (for did-you-mean).
    pub fn ids(&self) -> impl Iterator<Item = &str> {
        self.cards.iter().map(|c| c.id.as_str())
    }
}

/// Links the cards of one game (given in source order), none of them left
/// out of the sources.
pub fn link(cards: Vec<RawCard>, diags: &mut Diagnostics) -> CardPool {
    link_beside(cards, Unlinked::default(), diags)
}

/// Links the cards of one game (given in source order), beside those the
/// sources hold but could not give (`unlinked`).
pub fn link_beside(
    mut cards: Vec<RawCard>,
    unlinked: Unlinked,
    diags: &mut Diagnostics,
) -> CardPool {
    let (mut index, duplicate) = index_ids(&cards, diags);
    if duplicate.iter().any(|&d| d) {
        // Removed in place: a large game's cards are not copied into a
        // second vector. The positions after the first duplicate moved.
        let mut position = 0;
        cards.retain(|_| {
            position += 1;
            !duplicate[position - 1]
        });
        index.table.clear();
        for i in 0..cards.len() {
            index.insert(&cards, i);
        }
    }
    let pool = CardPool {
        cards,
        index,
        unlinked,
    };
    for card in &pool.cards {
        for r in &card.refs {
            if let Some(d) = check_ref(&pool, card, r) {
                diags.push(d);
            }
        }
    }
    pool
}

/// The position of each id's first card, and which cards repeat an id
/// an earlier card has (reported). One map serves as the pool's index
/// and the duplicates' check: 20,000 ids hashed once, not twice.
fn index_ids(cards: &[RawCard], diags: &mut Diagnostics) -> (Index, Vec<bool>) {
    let mut index = Index {
        table: HashTable::with_capacity(cards.len()),
        ..Index::default()
    };
    let mut duplicate = vec![false; cards.len()];
    for (i, card) in cards.iter().enumerate() {
        if let Some(first) = index.find(cards, &card.id) {
            let first = &cards[first];
            diags.push(
                Diagnostic::error(
                    "link::duplicate-id",
                    format!("the id `{}` is used by two cards", card.id),
                )
                .at(card.file, card.id_span.clone(), "defined again here")
                .with_label(Label::new(
                    first.file,
                    first.id_span.clone(),
                    "first defined here",
                ))
                .with_help("ids are unique within a game; rename one of the cards"),
            );
            duplicate[i] = true;
        } else {
            index.insert(cards, i);
        }
    }
    (index, duplicate)
}

/// The problem with reference `r` of `card`, if any: it names no card, or
/// a card of a kind it may not name.
fn check_ref(pool: &CardPool, card: &RawCard, r: &CardRef) -> Option<Diagnostic> {
    match pool.get(&r.target) {
        None if pool.unlinked.holds(&r.target) => None,
        None => {
            let hint = suggest::closest(&r.target, pool.ids());
            Some(
                Diagnostic::error(
                    "link::dangling-ref",
                    format!(
                        "`{}` of card `{}` names `{}`, but no card has that id",
                        r.field, card.id, r.target
                    ),
                )
                .at(card.file, r.span.clone(), "no such card")
                .with_help(match hint {
                    Some(h) => format!("did you mean `{h}`?"),
                    None => format!("it must name a card of kind {}", kinds_list(&r.kinds)),
                }),
            )
        }
        Some(target) if !r.kinds.contains(&target.kind) => Some(
            Diagnostic::error(
                "link::ref-kind",
                format!(
                    "`{}` of card `{}` must name a card of kind {}, but `{}` is of kind `{}`",
                    r.field,
                    card.id,
                    kinds_list(&r.kinds),
                    r.target,
                    target.kind
                ),
            )
            .at(
                card.file,
                r.span.clone(),
                format!("of kind `{}`", target.kind),
            )
            .with_label(Label::new(
                target.file,
                target.id_span.clone(),
                format!("`{}` is defined here", r.target),
            )),
        ),
        Some(_) => None,
    }
}

fn kinds_list(kinds: &[String]) -> String {
    kinds
        .iter()
        .map(|k| format!("`{k}`"))
        .collect::<Vec<_>>()
        .join(" or ")
}
