//! Decks checked per second: the rules engine on 100,000 generated 60-card
//! intrépidos decks, single thread, beside a hand-written Rust check of the
//! same rules on the same decks, in the same run.
//!
//! `cargo bench --bench decks` (without `--bench`, as under `cargo test
//! --benches`, 1,000 decks and one run of each check that it runs)

use std::hint::black_box;

use carta::diag::Diagnostics;
use carta::game::{Decks, Keep, compile};
use carta::load::Workspace;
use carta::rules::{DeckView, Entry};
use criterion::{Criterion, Throughput, criterion_main};

/// The decks generated: 100,000 under `cargo bench` (which passes
/// `--bench`), 1,000 under `cargo test --benches`, where criterion runs
/// each function once to check that it runs.
fn deck_count() -> usize {
    if std::env::args().any(|a| a == "--bench") {
        100_000
    } else {
        1_000
    }
}

/// A card's kind, as the hand-written check sees it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum K {
    Action,
    Item,
    Intrepido,
    Castle,
    Tower,
    Guardian,
    Territory,
}

fn kind(k: &str) -> K {
    match k {
        "action" => K::Action,
        "equipment" | "armament" | "potion" => K::Item,
        "intrepido" => K::Intrepido,
        "castle" => K::Castle,
        "tower" => K::Tower,
        "guardian" => K::Guardian,
        _ => K::Territory,
    }
}

/// The intrépidos deck rules, written by hand over the same deck view.
fn by_hand(deck: &DeckView, kinds: &[K]) -> bool {
    let [main, team, setup] = &deck.zones[..] else {
        return false;
    };
    let (mut total, mut actions, mut items) = (0, 0, 0);
    for e in main {
        let k = kinds[e.card as usize];
        total += e.count;
        match k {
            K::Action if e.count > 2 => return false,
            K::Item if e.count > 3 => return false,
            K::Action => actions += e.count,
            _ => items += e.count,
        }
    }
    if total != 60 || actions != 30 || items != 30 {
        return false;
    }
    if team.iter().map(|e| e.count).sum::<u32>() != 3 || team.iter().any(|e| e.count != 1) {
        return false;
    }
    let count = |want: K| {
        setup
            .iter()
            .filter(|e| kinds[e.card as usize] == want)
            .map(|e| e.count)
            .sum::<u32>()
    };
    count(K::Castle) == 1
        && count(K::Tower) == 2
        && count(K::Guardian) == 2
        && count(K::Territory) == 1
}

struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }

    fn sample(&mut self, from: &[u32], n: usize) -> Vec<u32> {
        let mut pool = from.to_vec();
        (0..n)
            .map(|_| pool.swap_remove(self.below(pool.len())))
            .collect()
    }
}

fn decks(kinds: &[K], count: usize) -> Vec<DeckView> {
    let of = |want: &[K]| {
        (0..kinds.len() as u32)
            .filter(|&i| want.contains(&kinds[i as usize]))
            .collect::<Vec<_>>()
    };
    let (actions, items, heroes) = (of(&[K::Action]), of(&[K::Item]), of(&[K::Intrepido]));
    let setup: Vec<Vec<u32>> = [K::Castle, K::Tower, K::Guardian, K::Territory]
        .iter()
        .map(|k| of(&[*k]))
        .collect();
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    (0..count)
        .map(|n| {
            let mut main: Vec<Entry> = rng
                .sample(&actions, 15)
                .into_iter()
                .map(|card| Entry { card, count: 2 })
                .collect();
            main.extend(
                rng.sample(&items, 10)
                    .into_iter()
                    .map(|card| Entry { card, count: 3 }),
            );
            // One deck in ten breaks a copy limit.
            if n % 10 == 0 {
                main[0].count = 3;
                main[1].count = 1;
            }
            let team = rng
                .sample(&heroes, 3)
                .into_iter()
                .map(|card| Entry { card, count: 1 })
                .collect();
            let setup_zone = vec![
                Entry {
                    card: setup[0][rng.below(setup[0].len())],
                    count: 1,
                },
                Entry {
                    card: setup[1][rng.below(setup[1].len())],
                    count: 2,
                },
                Entry {
                    card: setup[2][rng.below(setup[2].len())],
                    count: 2,
                },
                Entry {
                    card: setup[3][rng.below(setup[3].len())],
                    count: 1,
                },
            ];
            DeckView {
                zones: vec![main, team, setup_zone],
            }
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let mut ws = Workspace::open(std::path::Path::new(env!("CARGO_MANIFEST_DIR")))
        .expect("the repository is a workspace");
    let mut diags = Diagnostics::new();
    let game = compile(&mut ws, "intrepidos", Decks::Skip, Keep::All, &mut diags)
        .expect("readable")
        .expect("loads");
    let rules = &game.rules.deck;
    assert_eq!(
        rules
            .zones
            .iter()
            .map(|z| z.id.as_str())
            .collect::<Vec<_>>(),
        ["main", "team", "setup"]
    );
    let kinds: Vec<K> = game.pool.iter().map(|c| kind(&c.kind)).collect();
    let count = deck_count();
    let decks = decks(&kinds, count);
    let engine: Vec<bool> = decks.iter().map(|d| rules.is_legal(d)).collect();
    let hand: Vec<bool> = decks.iter().map(|d| by_hand(d, &kinds)).collect();
    assert_eq!(engine, hand, "the engine and the hand-written check agree");
    assert_eq!(engine.iter().filter(|l| !**l).count(), count / 10);

    let mut group = c.benchmark_group("decks");
    group.throughput(Throughput::Elements(count as u64));
    group.sample_size(20);
    group.bench_function("hand-written", |b| {
        b.iter(|| {
            decks
                .iter()
                .filter(|d| by_hand(black_box(d), &kinds))
                .count()
        });
    });
    group.bench_function("engine is_legal", |b| {
        b.iter(|| {
            decks
                .iter()
                .filter(|d| rules.is_legal(black_box(d)))
                .count()
        });
    });
    group.bench_function("engine check (with messages)", |b| {
        b.iter(|| {
            decks
                .iter()
                .map(|d| rules.check(black_box(d)).len())
                .sum::<usize>()
        });
    });
    group.finish();
}

// criterion_group! generates an undocumented function.
#[allow(missing_docs)]
mod group {
    criterion::criterion_group!(benches, super::bench);
}
criterion_main!(group::benches);
