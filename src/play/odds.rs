//! Exact draw odds: the hypergeometric tail. Drawing `seen` cards without
//! replacement from a deck of `deck` cards of which `group` belong to a
//! group, the chance that at least `k` of them are of the group is
//!
//! ```text
//! P(X ≥ k) = Σ_{x=k}^{min(group, seen)} C(group, x) · C(deck − group, seen − x) / C(deck, seen)
//! ```
//!
//! Each term is computed in log space (`ln C(n, r)` from `lgamma`), so a
//! deck of thousands of cards neither overflows nor loses the small terms
//! of the tail; the terms are all positive and summed directly (no
//! `1 − …` cancellation). The unit tests hold it to the exact rational
//! values of small decks.

/// The chance of at least `k` cards of a group of `group` among `seen`
/// cards drawn from a shuffled deck of `deck` cards; `None` when the group
/// is larger than the deck. Drawing more cards than the deck holds draws
/// the whole deck.
pub fn at_least(deck: u32, group: u32, seen: u32, k: u32) -> Option<f64> {
    if group > deck {
        return None;
    }
    let seen = seen.min(deck);
    let most = group.min(seen);
    // The fewest group cards `seen` cards can hold: the rest of the deck
    // runs out first.
    let fewest = seen.saturating_sub(deck - group);
    if k <= fewest {
        return Some(1.0);
    }
    if k > most {
        return Some(0.0);
    }
    let all = ln_choose(deck, seen);
    let sum: f64 = (k..=most)
        .map(|x| (ln_choose(group, x) + ln_choose(deck - group, seen - x) - all).exp())
        .sum();
    Some(sum.clamp(0.0, 1.0))
}

/// `ln C(n, r)` for `r ≤ n`.
fn ln_choose(n: u32, r: u32) -> f64 {
    ln_factorial(n) - ln_factorial(r) - ln_factorial(n - r)
}

/// `ln n!`, exact below 2 (where `lgamma` rounds to a tiny non-zero).
fn ln_factorial(n: u32) -> f64 {
    if n < 2 {
        0.0
    } else {
        libm::lgamma(f64::from(n) + 1.0)
    }
}

#[cfg(test)]
mod tests {
    use super::at_least;

    /// `C(n, r)` exactly.
    fn choose(n: u32, r: u32) -> u128 {
        if r > n {
            return 0;
        }
        let r = r.min(n - r);
        (0..r).fold(1u128, |acc, i| acc * u128::from(n - i) / u128::from(i + 1))
    }

    /// `P(X ≥ k)` as an exact fraction (numerator, denominator).
    fn exact(deck: u32, group: u32, seen: u32, k: u32) -> (u128, u128) {
        let seen = seen.min(deck);
        let num = (k..=seen)
            .map(|x| {
                if x > group || seen - x > deck - group {
                    0
                } else {
                    choose(group, x) * choose(deck - group, seen - x)
                }
            })
            .sum();
        (num, choose(deck, seen))
    }

    fn ratio((num, den): (u128, u128)) -> f64 {
        num as f64 / den as f64
    }

    #[test]
    fn small_cases_are_exact_fractions() {
        // One of two in two cards from four: 1 − C(2,2)/C(4,2) = 5/6.
        assert_eq!(exact(4, 2, 2, 1), (5, 6));
        assert!((at_least(4, 2, 2, 1).unwrap() - 5.0 / 6.0).abs() < 1e-15);
        // Two aces or more in a five-card poker hand: exactly two,
        // C(4,2)·C(48,3) = 103 776, three 4 512, four 48; of 2 598 960.
        assert_eq!(exact(52, 4, 5, 2), (108_336, 2_598_960));
        let want = 108_336.0 / 2_598_960.0;
        assert!((at_least(52, 4, 5, 2).unwrap() - want).abs() < 1e-13 * want);
    }

    #[test]
    fn every_small_deck_agrees_with_the_exact_fraction() {
        for deck in 0..=24 {
            for group in 0..=deck {
                for seen in 0..=deck + 2 {
                    for k in 0..=seen.min(deck) + 1 {
                        let want = ratio(exact(deck, group, seen, k));
                        let got = at_least(deck, group, seen, k).unwrap();
                        assert!(
                            (got - want).abs() <= 1e-12 * want.max(1e-300) + 1e-15,
                            "N={deck} K={group} n={seen} k={k}: {got} vs {want}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn a_sixty_card_deck_agrees_with_the_exact_fraction() {
        for group in [1, 4, 15, 30, 59, 60] {
            for seen in [5, 7, 12, 30, 60] {
                for k in 0..=seen.min(group) {
                    let want = ratio(exact(60, group, seen, k));
                    let got = at_least(60, group, seen, k).unwrap();
                    let rel = (got - want).abs() / want;
                    assert!(rel < 1e-10, "K={group} n={seen} k={k}: {got} vs {want}");
                }
            }
        }
    }

    #[test]
    fn edge_cases() {
        // k = 0: always.
        assert_eq!(at_least(60, 0, 7, 0), Some(1.0));
        assert_eq!(at_least(60, 10, 0, 0), Some(1.0));
        // K = 0: never one.
        assert_eq!(at_least(60, 0, 7, 1), Some(0.0));
        // k > K: never.
        assert_eq!(at_least(60, 3, 7, 4), Some(0.0));
        // k > cards seen: never.
        assert_eq!(at_least(60, 30, 2, 3), Some(0.0));
        // A hand larger than the deck sees the whole deck: all of the group.
        assert_eq!(at_least(10, 4, 15, 4), Some(1.0));
        assert_eq!(at_least(10, 4, 15, 5), Some(0.0));
        // An empty deck: nothing drawn.
        assert_eq!(at_least(0, 0, 5, 0), Some(1.0));
        assert_eq!(at_least(0, 0, 5, 1), Some(0.0));
        // A group larger than the deck is no deck at all.
        assert_eq!(at_least(5, 6, 2, 1), None);
        // Seeing all but the group's size forces some in.
        assert_eq!(at_least(10, 8, 5, 3), Some(1.0));
    }

    #[test]
    fn a_large_deck_keeps_tiny_tails() {
        // All 40 of a group of 40 among 40 cards seen from 10 000: tiny but
        // not zero, and no overflow.
        let p = at_least(10_000, 40, 40, 40).unwrap();
        assert!(p > 0.0 && p < 1e-100, "{p}");
        let q = at_least(10_000, 5_000, 100, 1).unwrap();
        assert!((q - 1.0).abs() < 1e-12);
    }
}
