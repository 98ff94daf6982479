//! The deck builder's draw odds (issue 25): the time of one odds answer
//! for a 60-card kingdoms deck (*Aurora de Valária*), for a group of each
//! sort — a kind, an enum value, a flag, a card — and for the widest sum
//! the odds can take, beside the deck's verdict (`RuleSet::check`, the
//! core of the builder's verdict answer) on the same deck, in the same
//! run: each round runs every case in turn (each as many calls as last
//! 20 ms), wall and thread CPU time are both measured, and each case's
//! wall time is printed with its ratio to the verdict's. Target: ≤ 5 ms
//! an answer (release build).
//!
//! `cargo bench --bench odds` (without `--bench`, as under `cargo test
//! --benches`, one short round checks that it runs)

#![allow(clippy::too_many_lines)] // one scenario

use std::hint::black_box;
use std::time::{Duration, Instant};

use carta::deck;
use carta::diag::{Diagnostics, SourceMap};
use carta::game::{Decks, Game, Keep, compile};
use carta::load::Workspace;
use carta::play::{self, Group, Question, odds};
use carta::rules::DeckView;
use serde_json::Value;

/// How long one timed round of a case lasts, at least: the case is called
/// as many times as that takes (the thread's CPU clock counts in ticks);
/// and the timed rounds (after one warm-up round). `cargo bench` passes
/// `--bench`; `cargo test --benches` does not, and then one short round
/// checks that the bench runs.
fn rounds() -> (Duration, usize) {
    if std::env::args().any(|a| a == "--bench") {
        (Duration::from_millis(20), 31)
    } else {
        (Duration::from_millis(1), 1)
    }
}
/// The target of one answer.
const TARGET: Duration = Duration::from_millis(5);

/// The CPU time this thread has used (Linux: its `schedstat`, in ns).
fn thread_cpu() -> Duration {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").expect("Linux schedstat");
    let ns = stat.split_whitespace().next().expect("a first field");
    Duration::from_nanos(ns.parse().expect("nanoseconds"))
}

fn kingdoms() -> (Game, DeckView) {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut ws = Workspace::open(root).expect("the repository is a workspace");
    let mut diags = Diagnostics::new();
    let game = compile(&mut ws, "kingdoms", Decks::Skip, Keep::All, &mut diags)
        .expect("readable")
        .expect("loads");
    let rel = "cards/kingdoms/decks/aurora-de-valaria.toml";
    let text = std::fs::read_to_string(root.join(rel)).expect("the deck");
    let file = SourceMap::new().add(rel, text.as_str());
    let mut found = Vec::new();
    let parsed = deck::parse(file, &text, &mut found).expect("parses");
    let (resolved, _) =
        deck::judge(&parsed, &game.manifest, &game.pool, &game.rules, &mut found).expect("judged");
    (game, resolved.view)
}

fn main() {
    let (round_time, rounds) = rounds();
    let (game, view) = kingdoms();
    let cards: u32 = view.zones[0].iter().map(|e| e.count).sum();
    assert_eq!(cards, 60);
    let group = |field: &str, value: Option<Value>| {
        Group::new(&game, field, value.as_ref()).expect("a group of the game")
    };
    let at = |at_least, by_turn| Question {
        at_least,
        by_turn,
        hand: None,
        draws: None,
    };
    let cases: Vec<(&str, Group, Question)> = vec![
        (
            "kind=action, ≥2 by turn 3",
            group("kind", Some("action".into())),
            at(2, 3),
        ),
        (
            "kingdom=livre, ≥4 by turn 2",
            group("kingdom", Some("livre".into())),
            at(4, 2),
        ),
        (
            "flag unique, ≥1 by turn 10",
            group("unique", None),
            at(1, 10),
        ),
        (
            "id=espada-longa, ≥1 by turn 1",
            group("id", Some("espada-longa".into())),
            at(1, 1),
        ),
        // A long sum: the 20 characters, at least one among 30 cards seen
        // (20 terms).
        (
            "kind=character, ≥1 by turn 26",
            group("kind", Some("character".into())),
            at(1, 26),
        ),
    ];
    let rules = &game.rules.deck;
    let mut runs: Vec<(String, Box<dyn Fn()>)> = vec![(
        "baseline: the verdict (RuleSet::check)".into(),
        Box::new(|| {
            black_box(rules.check(black_box(&view)));
        }),
    )];
    for (name, g, q) in &cases {
        let answer = play::odds(&game, &view, g, *q).expect("odds");
        println!(
            "{name}: {:.6} ({} of {} in `{}`, {} seen)",
            answer.probability, answer.group, answer.deck, answer.zone, answer.seen
        );
        runs.push((
            format!("odds: {name}"),
            Box::new(|| {
                black_box(play::odds(&game, black_box(&view), g, *q).expect("odds"));
            }),
        ));
    }
    runs.push((
        "odds::at_least alone (60, 19, 7, ≥2)".into(),
        Box::new(|| {
            black_box(odds::at_least(black_box(60), 19, 7, 2));
        }),
    ));
    // Calls per round of each case: enough to last a round.
    let calls: Vec<u32> = runs
        .iter()
        .map(|(_, f)| {
            let start = Instant::now();
            let mut n = 0u32;
            while start.elapsed() < round_time / 4 {
                f();
                n += 1;
            }
            n * 4
        })
        .collect();
    let mut wall = vec![Vec::with_capacity(rounds); runs.len()];
    let mut cpu = vec![Duration::ZERO; runs.len()];
    for round in 0..=rounds {
        for (i, (_, f)) in runs.iter().enumerate() {
            let (w, c) = (Instant::now(), thread_cpu());
            for _ in 0..calls[i] {
                f();
            }
            if round > 0 {
                wall[i].push(w.elapsed() / calls[i]);
                cpu[i] += thread_cpu().saturating_sub(c);
            }
        }
    }
    let median = |mut v: Vec<Duration>| {
        v.sort();
        v[v.len() / 2]
    };
    let walls: Vec<Duration> = wall.into_iter().map(median).collect();
    // CPU time is summed over the rounds: the clock moves in ticks.
    let cpus: Vec<Duration> = cpu
        .iter()
        .zip(&calls)
        .map(|(c, n)| *c / (n * u32::try_from(rounds).unwrap()))
        .collect();
    println!(
        "\nper call: the median wall time of {rounds} rounds of ≥ {round_time:?} each, the mean CPU time:"
    );
    for (i, (name, _)) in runs.iter().enumerate() {
        let ratio = walls[i].as_secs_f64() / walls[0].as_secs_f64();
        let verdict = if i == 0 || walls[i] <= TARGET {
            ""
        } else {
            "  MISSED the 5 ms target"
        };
        println!(
            "{:>10.1} µs wall {:>10.1} µs CPU  {ratio:>6.2}× the verdict  {name}{verdict}",
            walls[i].as_secs_f64() * 1e6,
            cpus[i].as_secs_f64() * 1e6,
        );
    }
}
