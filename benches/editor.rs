//! What keeping the editor schemas in step costs `carta check`: on a
//! synthetic game (`examples/synth.rs`), the time to derive the card-file
//! and deck-file schemas, and to compare them with the files on disk (what
//! every check does when nothing changed), against the check itself
//! (`game::compile_all` without the cache), in the same run.
//!
//! ```text
//! cargo bench --bench editor                 # 20,000 cards
//! cargo bench --bench editor -- --cards 5000
//! ```
// A benchmark reads as one measured scenario, top to bottom.
#![allow(clippy::too_many_lines)]

#[allow(dead_code, unreachable_pub)]
#[path = "../examples/synth.rs"]
mod synth;
#[path = "common/timing.rs"]
mod timing;

use std::hint::black_box;
use std::time::Duration;

use carta::diag::Diagnostics;
use carta::game::{self, Keep};
use carta::load::Workspace;

use timing::medians;

fn main() {
    // `cargo bench` passes `--bench`; `cargo test --all-targets` does not,
    // and then one quick round on a small game checks that the bench runs.
    let full = std::env::args().any(|a| a == "--bench");
    let mut cards = if full { 20_000 } else { 200 };
    let runs = if full { 9 } else { 1 };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        if arg == "--cards" {
            cards = args.next().and_then(|n| n.parse().ok()).expect("--cards N");
        }
    }
    let dir = tempfile::tempdir().expect("a temporary folder");
    synth::generate(dir.path(), cards, 1).expect("the synthetic workspace");
    synth::generate_decks(dir.path(), cards, cards / 20, 1).expect("its decks");
    let root = dir.path();
    let check = || {
        let mut ws = Workspace::open(root).expect("a workspace");
        let mut diags = Diagnostics::new();
        let games = game::compile_all(&mut ws, &[], Keep::Rules, &mut diags).expect("compiles");
        assert!(!diags.has_errors(), "the synthetic game checks clean");
        (ws, games)
    };
    let (ws, games) = check();
    assert_eq!(games.len(), 1, "the synthetic game loads");
    let all = ws.game_ids().expect("games");
    // The first refresh writes the files; later ones only compare.
    carta::editor::refresh(root, &games, &all).expect("written");
    let [checking, deriving, refreshing] = medians(
        runs,
        [
            &|| {
                black_box(check());
            },
            &|| {
                black_box(games.iter().map(carta::editor::game_files).count());
            },
            &|| {
                let w = carta::editor::refresh(root, &games, &all).expect("compared");
                assert!(w.written.is_empty(), "nothing changed, nothing written");
            },
        ],
    );
    let size: u64 = std::fs::read_dir(root.join(carta::editor::DIR))
        .expect("the editor files")
        .map(|e| e.expect("an entry").metadata().expect("metadata").len())
        .sum();
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    let share = |d: Duration| 100.0 * d.as_secs_f64() / checking.as_secs_f64();
    println!("carta editor-schema benchmark: {cards} synthetic cards (examples/synth.rs, seed 1)");
    println!(
        "  check, no cache (baseline)               {:>8.1} ms",
        ms(checking)
    );
    println!(
        "  derive the card and deck schemas         {:>8.1} ms  ({:.1} % of the check)",
        ms(deriving),
        share(deriving)
    );
    println!(
        "  refresh, nothing changed (derive+compare) {:>7.1} ms  ({:.1} % of the check)",
        ms(refreshing),
        share(refreshing)
    );
    println!(
        "  editor files on disk                     {:>8.1} KiB",
        size as f64 / 1024.0
    );
}
