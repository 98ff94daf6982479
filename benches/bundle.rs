//! The bundle benchmark: a synthetic game (`examples/synth.rs`) built into a
//! bundle, then timed against serde_json on the decompiled JSON of the same
//! data, in the same run.
//!
//! ```text
//! cargo bench --bench bundle                 # 20,000 cards
//! cargo bench --bench bundle -- --cards 5000
//! ```
//!
//! Reports the median of repeated runs for: opening the bundle and looking up
//! one card by id (target ≤ 1 ms), decoding every card (target ≥ 3× faster
//! than serde_json parsing the decompiled JSON), and the size against
//! minified JSON (target ≤ 60%) and gzip'd JSON.

#[allow(dead_code, unreachable_pub)]
#[path = "../examples/synth.rs"]
mod synth;

use std::hint::black_box;
use std::io::Write;
use std::path::Path;
use std::time::{Duration, Instant};

use carta::bundle::{Bundle, Card};
use carta::diag::Diagnostics;
use carta::load::Workspace;

fn main() {
    let mut cards = 20_000;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        if arg == "--cards" {
            cards = args.next().and_then(|n| n.parse().ok()).expect("--cards N");
        }
        // cargo bench passes `--bench`; ignore what is not ours
    }
    let dir = tempfile::tempdir().expect("a temporary folder");
    synth::generate(dir.path(), cards, 1).expect("the synthetic workspace");
    let (bytes, build) = build(dir.path());
    let path = dir.path().join("synth.carta");
    std::fs::write(&path, &bytes).expect("the bundle is written");

    let bundle = Bundle::from_bytes(bytes.clone()).expect("the bundle opens");
    assert_eq!(bundle.len(), cards);
    let json = serde_json::to_vec(&bundle.to_json().expect("decompiles")).expect("JSON");
    let ids: Vec<String> = bundle.ids().map(str::to_owned).collect();

    let mut n = 0;
    let open_file = median(201, || {
        n = (n + 7919) % ids.len();
        let b = Bundle::open(&path).expect("opens");
        black_box(b.card(&ids[n]).expect("decodes").expect("found"));
    });
    let open_bytes = median(201, || {
        n = (n + 7919) % ids.len();
        let b = Bundle::from_bytes(black_box(bytes.clone())).expect("opens");
        black_box(b.card(&ids[n]).expect("decodes").expect("found"));
    });
    let lookup = median(2001, || {
        n = (n + 7919) % ids.len();
        black_box(bundle.card(&ids[n]).expect("decodes").expect("found"));
    });
    let decode_bundle = median(21, || {
        let all: Vec<Card> = bundle.cards().collect::<Result<_, _>>().expect("decodes");
        black_box(all);
    });
    let decode_json = median(21, || {
        let v: serde_json::Value = serde_json::from_slice(black_box(&json)).expect("parses");
        black_box(v);
    });
    let gz_json = gzip(&json);
    let gz_bundle = gzip(&bytes);

    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    let kb = |n: usize| n as f64 / 1024.0;
    let speedup = decode_json.as_secs_f64() / decode_bundle.as_secs_f64();
    let size_ratio = bytes.len() as f64 / json.len() as f64;
    println!("carta bundle benchmark: {cards} synthetic cards (examples/synth.rs, seed 1)");
    println!("  check + encode (library, in process)   {:>9.1} ms", ms(build));
    println!(
        "  open file + look up one card           {:>9.3} ms   target <= 1 ms: {}",
        ms(open_file),
        verdict(ms(open_file) <= 1.0)
    );
    println!("  open bytes in memory + look up one     {:>9.3} ms", ms(open_bytes));
    println!("  look up one card (bundle open)         {:>9.4} ms", ms(lookup));
    println!("  decode every card, bundle              {:>9.1} ms", ms(decode_bundle));
    println!("  parse the same data, serde_json Value  {:>9.1} ms", ms(decode_json));
    println!(
        "  decode speed-up over serde_json        {:>9.2} x    target >= 3x: {}",
        speedup,
        verdict(speedup >= 3.0)
    );
    println!(
        "  bundle size                            {:>9.0} KiB  {:.0}% of minified JSON, target <= 60%: {}",
        kb(bytes.len()),
        100.0 * size_ratio,
        verdict(size_ratio <= 0.6)
    );
    println!("  minified JSON                          {:>9.0} KiB", kb(json.len()));
    println!("  gzip'd JSON                            {:>9.0} KiB", kb(gz_json));
    println!("  gzip'd bundle                          {:>9.0} KiB", kb(gz_bundle));
}

/// Checks the workspace and encodes its one game, as `carta build` does.
fn build(root: &Path) -> (Vec<u8>, Duration) {
    let start = Instant::now();
    let mut ws = Workspace::open(root).expect("a workspace");
    let mut diags = Diagnostics::new();
    let games = carta::check::check(&mut ws, &[], &mut diags).expect("checks");
    assert!(!diags.has_errors(), "the synthetic game checks clean: {:?}", diags.iter().next());
    let bytes = carta::emit::encode_game(&games[0], &[], &ws.sources, &mut diags).expect("encodes");
    (bytes, start.elapsed())
}

/// The median time of `runs` runs of `f`, after one warm-up run.
fn median(runs: usize, mut f: impl FnMut()) -> Duration {
    f();
    let mut times: Vec<Duration> = (0..runs)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed()
        })
        .collect();
    times.sort();
    times[runs / 2]
}

fn gzip(bytes: &[u8]) -> usize {
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    enc.write_all(bytes).expect("in memory");
    enc.finish().expect("in memory").len()
}

fn verdict(ok: bool) -> &'static str {
    if ok { "met" } else { "MISSED" }
}
