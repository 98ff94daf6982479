//! The fused fast path: for each zone, every `size` and `count` rule is
//! summed in one pass over the zone's entries (the zone's total, and a bit
//! per count rule in a per-card mask), and every by-id `copies` and `distinct` rule becomes one per-card
//! limit. Rules that cannot be fused are tested one by one. Only a deck that
//! fails here is evaluated rule by rule to explain why.

use super::{Check, DeckView, RuleSet, within};
use crate::config::rules::Bounds;

/// The most rules one zone fuses (bits of the mask).
const MAX_FUSED: usize = 64;

#[derive(Debug, Clone, Default)]
pub(super) struct Fast {
    zones: Vec<FusedZone>,
    /// Rules tested one by one.
    rest: Vec<usize>,
}

#[derive(Debug, Clone, Default)]
struct FusedZone {
    /// Per pool card: which fused counts it adds to (a bit each), and the
    /// most copies any fused limit allows; side by side for one memory access.
    cards: Vec<(u64, u32)>,
    /// The bounds of each fused count, by bit.
    bounds: Vec<Bounds>,
    /// The bounds of each fused size (on the zone's total).
    sizes: Vec<Bounds>,
}

impl Fast {
    pub(super) fn build(set: &RuleSet, pool_len: usize) -> Fast {
        let mut zones: Vec<FusedZone> = set
            .zones
            .iter()
            .map(|_| FusedZone {
                cards: vec![(0, u32::MAX); pool_len],
                bounds: Vec::new(),
                sizes: Vec::new(),
            })
            .collect();
        let mut rest = Vec::new();
        for (i, rule) in set.rules.iter().enumerate() {
            let Some(z) = rule.zone else {
                rest.push(i);
                continue;
            };
            let zone = &mut zones[z];
            let bit = zone.bounds.len();
            match &rule.check {
                Check::Size(s) => zone.sizes.push(s.bounds),
                Check::Count(c)
                    if c.groups.is_none()
                        && c.cap.is_none()
                        && c.like.is_none()
                        && bit < MAX_FUSED =>
                {
                    zone.bounds.push(c.bounds);
                    for ((m, _), _) in zone
                        .cards
                        .iter_mut()
                        .zip(&c.matches)
                        .filter(|(_, hit)| **hit)
                    {
                        *m |= 1 << bit;
                    }
                }
                // In one zone each card has one line, so a by-id limit is a
                // limit on that line.
                Check::Copies(c) if c.by_id => {
                    for ((_, l), own) in zone.cards.iter_mut().zip(&c.limit) {
                        *l = (*l).min(own.unwrap_or(u32::MAX));
                    }
                }
                Check::Distinct(d) if d.by_id => {
                    for ((_, l), _) in zone
                        .cards
                        .iter_mut()
                        .zip(&d.applies)
                        .filter(|(_, hit)| **hit)
                    {
                        *l = (*l).min(1);
                    }
                }
                _ => rest.push(i),
            }
        }
        Fast { zones, rest }
    }

    /// Whether every rule (errors and warnings) holds.
    pub(super) fn all_hold(&self, set: &RuleSet, deck: &DeckView) -> bool {
        let mut sums = [0u64; MAX_FUSED];
        for (zone, entries) in self.zones.iter().zip(&deck.zones) {
            let sums = &mut sums[..zone.bounds.len()];
            sums.fill(0);
            let mut total = 0u64;
            for e in entries {
                total += u64::from(e.count);
                let (mut mask, limit) = zone.cards[e.card as usize];
                if e.count > limit {
                    return false;
                }
                while mask != 0 {
                    sums[mask.trailing_zeros() as usize] += u64::from(e.count);
                    mask &= mask - 1;
                }
            }
            if !zone.sizes.iter().all(|b| within(b, total))
                || !zone
                    .bounds
                    .iter()
                    .zip(sums.iter())
                    .all(|(b, &n)| within(b, n))
            {
                return false;
            }
        }
        self.rest.iter().all(|&i| set.rules[i].holds(deck))
    }
}
