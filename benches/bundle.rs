//! The bundle benchmark: a synthetic game (`examples/synth.rs`) built into a
//! bundle, then timed against `serde_json` on the decompiled JSON of the same
//! data, in the same run.
//!
//! ```text
//! cargo bench --bench bundle                 # 20,000 cards
//! cargo bench --bench bundle -- --cards 5000
//! ```
//!
//! Reports the median of repeated runs (interleaved, so that load from
//! other processes falls on all alike) for: opening the bundle and looking
//! up one card by id (target ≤ 1 ms), decoding every card into owned
//! `Card`s (target ≥ 3× faster than `serde_json` parsing the decompiled
//! JSON), reading every card's name and one field through borrowed
//! `CardRef` views (target ≥ 5× faster than `serde_json` into `Value`; also
//! measured with criterion, both sides in the same run), inflating the
//! blocks alone with zlib-rs and with libdeflate (the reader's inflater),
//! and the size against minified JSON (target ≤ 60%) and gzip'd JSON.
// A benchmark reads as one measured scenario, top to bottom.
#![allow(clippy::too_many_lines)]

#[allow(dead_code, unreachable_pub)]
#[path = "../examples/synth.rs"]
mod synth;
#[path = "common/timing.rs"]
mod timing;

use std::hint::black_box;
use std::io::Write;
use std::path::Path;
use std::time::{Duration, Instant};

use carta::bundle::{Bundle, Card, ValueRef};
use carta::diag::Diagnostics;
use carta::load::Workspace;

use timing::medians;

fn main() {
    // `cargo bench` passes `--bench`; `cargo test --all-targets` does not,
    // and then one quick round on a small game checks that the bench runs.
    let full = std::env::args().any(|a| a == "--bench");
    let mut cards = if full { 20_000 } else { 200 };
    let runs = |n: usize| if full { n } else { 1 };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        if arg == "--cards" {
            cards = args.next().and_then(|n| n.parse().ok()).expect("--cards N");
        }
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
    let open_file = median(runs(201), || {
        n = (n + 7919) % ids.len();
        let b = Bundle::open(&path).expect("opens");
        black_box(b.card(&ids[n]).expect("decodes").expect("found"));
    });
    let open_bytes = median(runs(201), || {
        n = (n + 7919) % ids.len();
        let b = Bundle::from_bytes(black_box(bytes.clone())).expect("opens");
        black_box(b.card(&ids[n]).expect("decodes").expect("found"));
    });
    let lookup = median(runs(2001), || {
        n = (n + 7919) % ids.len();
        black_box(bundle.card(&ids[n]).expect("decodes").expect("found"));
    });
    let decode = |parallel: bool| {
        let bundle = &bundle;
        move || {
            let all: Vec<Card> = if parallel {
                bundle.decode_all().expect("decodes")
            } else {
                bundle.cards().collect::<Result<_, _>>().expect("decodes")
            };
            black_box(all);
        }
    };
    let parse_json = || {
        let v: serde_json::Value = serde_json::from_slice(black_box(&json)).expect("parses");
        black_box(v);
    };
    let parse_json_typed = || {
        let v: Decompiled = serde_json::from_slice(black_box(&json)).expect("parses");
        black_box(v);
    };
    let inflate = |with: Inflate| {
        let bytes = &bytes;
        move || {
            black_box(inflate_all(bytes, with));
        }
    };
    // Every card's name and one field (`effect`: items and actions have it;
    // for the others the lookup walks all of their fields to miss it).
    let view_scan = || {
        black_box(scan_view(&bundle));
    };
    let json_scan = || {
        black_box(scan_json(&json));
    };
    // Interleaved, so that load from other processes falls on all alike.
    let [
        one_thread,
        all_threads,
        json_value,
        json_typed,
        inflating_zlib_rs,
        inflating_libdeflate,
        viewed,
        json_scanned,
    ] = medians(
        runs(15),
        [
            &decode(false),
            &decode(true),
            &parse_json,
            &parse_json_typed,
            &inflate(Inflate::ZlibRs),
            &inflate(Inflate::Libdeflate),
            &view_scan,
            &json_scan,
        ],
    );
    assert_eq!(
        scan_view(&bundle),
        scan_json(&json),
        "both scans read the same"
    );
    let gz_json = gzip(&json);
    let gz_bundle = gzip(&bytes);

    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    let kib = |n: usize| n as f64 / 1024.0;
    let speedup = |d: Duration| json_value.as_secs_f64() / d.as_secs_f64();
    let size_ratio = bytes.len() as f64 / json.len() as f64;
    let threads = rayon::current_num_threads();
    // The smoke run's times (one round, unoptimized) say nothing about the
    // targets; its verdicts would read as failures in a passing suite.
    let timed = |ok: bool| if full { verdict(ok) } else { "not judged" };
    if full {
        println!("carta bundle benchmark: {cards} synthetic cards (examples/synth.rs, seed 1)");
    } else {
        println!(
            "carta bundle benchmark, smoke run: {cards} synthetic cards, one round of a test build; \
             times are not figures and their targets are not judged (`cargo bench --bench bundle` does)"
        );
    }
    println!(
        "  check + encode (library, in process)    {:>9.1} ms",
        ms(build)
    );
    println!(
        "  open file + look up one card            {:>9.3} ms   target <= 1 ms: {}",
        ms(open_file),
        timed(ms(open_file) <= 1.0)
    );
    println!(
        "  open bytes in memory + look up one card {:>9.3} ms",
        ms(open_bytes)
    );
    println!(
        "  look up one card (bundle already open)  {:>9.4} ms",
        ms(lookup)
    );
    println!(
        "  decode every card, bundle, 1 thread     {:>9.1} ms",
        ms(one_thread)
    );
    println!(
        "  decode every card, bundle, {threads} threads    {:>9.1} ms",
        ms(all_threads)
    );
    println!(
        "  inflating the blocks alone, zlib-rs     {:>9.1} ms   {:.3} of serde_json Value",
        ms(inflating_zlib_rs),
        inflating_zlib_rs.as_secs_f64() / json_value.as_secs_f64()
    );
    println!(
        "  inflating the blocks alone, libdeflate  {:>9.1} ms   {:.3} of serde_json Value",
        ms(inflating_libdeflate),
        inflating_libdeflate.as_secs_f64() / json_value.as_secs_f64()
    );
    println!(
        "  parse the JSON, serde_json Value        {:>9.1} ms",
        ms(json_value)
    );
    println!(
        "  parse the JSON, serde_json Vec<Card>    {:>9.1} ms",
        ms(json_typed)
    );
    println!(
        "  speed-up over serde_json Value          {:>9.2} x on 1 thread, {:.2} x on {threads}; target >= 3x: {}",
        speedup(one_thread),
        speedup(all_threads),
        timed(speedup(one_thread) >= 3.0)
    );
    println!(
        "  names + one field, borrowed CardRef     {:>9.1} ms",
        ms(viewed)
    );
    println!(
        "  names + one field, serde_json Value     {:>9.1} ms",
        ms(json_scanned)
    );
    let view_ratio = json_scanned.as_secs_f64() / viewed.as_secs_f64();
    println!(
        "  CardRef speed-up over serde_json Value  {view_ratio:>9.2} x on 1 thread; target >= 5x: {}",
        timed(view_ratio >= 5.0)
    );
    println!(
        "  bundle size                             {:>9.0} KiB  {:.0}% of minified JSON; target <= 60%: {}",
        kib(bytes.len()),
        100.0 * size_ratio,
        verdict(size_ratio <= 0.6)
    );
    println!(
        "  minified JSON                           {:>9.0} KiB",
        kib(json.len())
    );
    println!(
        "  gzip'd JSON                             {:>9.0} KiB",
        kib(gz_json)
    );
    println!(
        "  gzip'd bundle                           {:>9.0} KiB",
        kib(gz_bundle)
    );
    println!(
        "  blocks of records                       {:>9}",
        bundle.block_count()
    );
    if full {
        criterion_scans(&bundle, &json);
    }
}

/// Runs the name-and-one-field scan under criterion too, both sides in
/// the same run (only under `cargo bench`).
fn criterion_scans(bundle: &Bundle, json: &[u8]) {
    let mut c = criterion::Criterion::default()
        .sample_size(20)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(5));
    let mut group = c.benchmark_group("names and one field");
    group.bench_function("bundle CardRef", |b| b.iter(|| scan_view(bundle)));
    group.bench_function("serde_json Value", |b| b.iter(|| scan_json(json)));
    group.finish();
    c.final_summary();
}

/// Every card's name and field `effect`, through borrowed views: the total
/// length of the names and the number of effects that are strings.
fn scan_view(bundle: &Bundle) -> (usize, usize) {
    let (mut names, mut effects) = (0, 0);
    bundle
        .visit(|card| {
            names += card.name.len();
            let effect = card.field("effect").expect("UTF-8");
            effects += usize::from(matches!(effect, Some(ValueRef::Str(_))));
        })
        .expect("decodes");
    (names, effects)
}

/// The same through `serde_json`: parse into `Value`, then read.
fn scan_json(json: &[u8]) -> (usize, usize) {
    let v: serde_json::Value = serde_json::from_slice(black_box(json)).expect("parses");
    let (mut names, mut effects) = (0, 0);
    for card in v["cards"].as_array().expect("cards") {
        names += card["name"].as_str().map_or(0, str::len);
        effects += usize::from(card.get("effect").is_some_and(serde_json::Value::is_string));
    }
    (names, effects)
}

/// The inflater [`inflate_all`] uses.
#[derive(Clone, Copy)]
enum Inflate {
    /// flate2 with the zlib-rs backend (what carta's writer compresses with).
    ZlibRs,
    /// libdeflate's whole-buffer decompressor (what carta's reader inflates with).
    Libdeflate,
}

/// Inflates every block of records (read as docs/bundle-format.md says),
/// reusing one decompressor and one buffer, and checking each block's
/// Adler-32 with either inflater; returns the inflated size.
fn inflate_all(bundle: &[u8], with: Inflate) -> usize {
    let u32_at = |at: usize| u32::from_le_bytes(bundle[at..at + 4].try_into().unwrap()) as usize;
    let cards = 128 + u32_at(112);
    let mut total = 0;
    let mut raw = Vec::new();
    let mut zlib_rs = flate2::Decompress::new(true);
    let mut libdeflate = libdeflater::Decompressor::new();
    for b in 0..u32_at(cards) {
        let entry = cards + 4 + 12 * b;
        let stored = &bundle[cards + u32_at(entry)..][..u32_at(entry + 4)];
        let raw_len = u32_at(entry + 8);
        match with {
            Inflate::ZlibRs => {
                raw.clear();
                raw.reserve(raw_len);
                zlib_rs.reset(true);
                let status = zlib_rs
                    .decompress_vec(stored, &mut raw, flate2::FlushDecompress::Finish)
                    .expect("inflates");
                assert_eq!(status, flate2::Status::StreamEnd);
            }
            Inflate::Libdeflate => {
                raw.resize(raw_len, 0);
                let n = libdeflate
                    .zlib_decompress(stored, &mut raw)
                    .expect("inflates");
                assert_eq!(n, raw_len);
            }
        }
        total += raw.len();
    }
    total
}

/// The decompiled JSON, parsed into the same types the bundle decodes to.
#[derive(serde::Deserialize)]
#[allow(dead_code)]
struct Decompiled {
    game: serde_json::Value,
    cards: Vec<JsonCard>,
    decks: serde_json::Value,
}

/// A card of the decompiled JSON: the common fields, then the rest.
#[derive(serde::Deserialize)]
#[allow(dead_code)]
struct JsonCard {
    id: String,
    kind: String,
    name: String,
    copies: Option<u32>,
    #[serde(flatten)]
    fields: serde_json::Map<String, serde_json::Value>,
}

/// Checks the workspace and encodes its one game, as `carta build` does.
fn build(root: &Path) -> (Vec<u8>, Duration) {
    let start = Instant::now();
    let mut ws = Workspace::open(root).expect("a workspace");
    let mut diags = Diagnostics::new();
    let games =
        carta::game::compile_all(&mut ws, &[], carta::game::Keep::All, &mut diags).expect("checks");
    assert!(
        !diags.has_errors(),
        "the synthetic game checks clean: {:?}",
        diags.iter().next()
    );
    let bytes = carta::emit::bundle::encode_game(&games[0], &[], &ws, &mut diags)
        .expect("reads")
        .expect("encodes");
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
