//! Time against the number of problems in one file: the three families that
//! used to be quadratic (cards missing a field, lines of `= = =`, a deck of
//! unknown ids), each at 5,000, 10,000 and 20,000 problems, from reading
//! the file to rendering what is shown (human and JSON). Linear time shows
//! as a doubling from one size to the next, in the same run.
//!
//! A second group imports PO files of many messages carta cannot place.
//!
//! `cargo bench --bench hostile` (without `--bench`, as under `cargo test
//! --benches`, where criterion runs each function once, at a hundredth of
//! the sizes: it checks that the bench runs)

use std::fs;
use std::hint::black_box;
use std::path::Path;

use carta::deck;
use carta::diag::{Diagnostic, Diagnostics, Format, Renderer};
use carta::game::{Decks, Keep, compile, translatable};
use carta::i18n::po;
use carta::load::Workspace;
use criterion::{BenchmarkId, Criterion, Throughput, criterion_main};

/// The sizes measured, or, without `--bench` (`cargo test --benches`), a
/// hundredth of them.
fn sized<const N: usize>(sizes: [usize; N]) -> [usize; N] {
    if std::env::args().any(|a| a == "--bench") {
        sizes
    } else {
        sizes.map(|n| n / 100)
    }
}

const GAME: &str = "id = \"g\"\nname = \"G\"\nlanguage = \"pt-BR\"\n\n[kinds.card]\nname = \"Carta\"\n\n[zones.main]\nname = \"Main\"\nkinds = [\"card\"]\n";
const SCHEMA: &str =
    r#"{"type": "object", "required": ["power"], "properties": {"power": {"type": "integer"}}}"#;

/// A workspace whose one card file is `cards`.
fn workspace(dir: &Path, cards: &str) {
    fs::create_dir_all(dir.join("cards/g")).unwrap();
    fs::create_dir_all(dir.join("schemas/g")).unwrap();
    fs::write(dir.join("cards/g/game.toml"), GAME).unwrap();
    fs::write(dir.join("schemas/g/card.schema.json"), SCHEMA).unwrap();
    fs::write(dir.join("cards/g/cards.toml"), cards).unwrap();
}

/// What `carta check` does with the file, up to the rendered text.
fn check(dir: &Path) -> usize {
    let mut ws = Workspace::open(dir).unwrap();
    let mut diags = Diagnostics::new();
    let _ = compile(&mut ws, "g", Decks::Skip, Keep::Rules, &mut diags).unwrap();
    ws.restore(&diags).unwrap();
    render(diags, &ws)
}

/// Renders the diagnostics as `carta` shows them; the length of the output.
fn render(diags: Diagnostics, ws: &Workspace) -> usize {
    let shown = diags.into_capped(200, "");
    [Format::Human, Format::Json]
        .into_iter()
        .map(|f| {
            let r = Renderer::new(f, false, 80);
            shown
                .iter()
                .map(|d| r.render(d, &ws.sources).len())
                .sum::<usize>()
        })
        .sum()
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("problems in one file");
    group.sample_size(10);
    for n in sized([5_000, 10_000, 20_000]) {
        group.throughput(Throughput::Elements(n as u64));
        let missing = tempfile::tempdir().unwrap();
        let cards: String = (0..n)
            .map(|i| format!("[[card]]\nid = \"c{i}\"\nkind = \"card\"\nname = \"C\"\n\n"))
            .collect();
        workspace(missing.path(), &cards);
        group.bench_with_input(BenchmarkId::new("cards missing a field", n), &n, |b, _| {
            b.iter(|| black_box(check(missing.path())));
        });

        let syntax = tempfile::tempdir().unwrap();
        workspace(syntax.path(), &"= = =\n".repeat(n));
        group.bench_with_input(BenchmarkId::new("lines of = = =", n), &n, |b, _| {
            b.iter(|| black_box(check(syntax.path())));
        });

        let unknown = tempfile::tempdir().unwrap();
        workspace(
            unknown.path(),
            "[[card]]\nid = \"a\"\nkind = \"card\"\nname = \"A\"\npower = 1\n",
        );
        let lines: String = (0..n).map(|i| format!("x{i} = 1\n")).collect();
        let deck_text = format!("game = \"g\"\nname = \"D\"\n\n[main]\n{lines}");
        fs::write(unknown.path().join("d.toml"), &deck_text).unwrap();
        group.bench_with_input(BenchmarkId::new("a deck of unknown ids", n), &n, |b, _| {
            b.iter(|| {
                let mut ws = Workspace::open(unknown.path()).unwrap();
                let mut diags = Diagnostics::new();
                let game = compile(&mut ws, "g", Decks::Skip, Keep::All, &mut diags)
                    .unwrap()
                    .unwrap();
                let file = ws
                    .read_path(&unknown.path().join("d.toml"), &mut diags)
                    .unwrap();
                let text = ws.sources.get(file).text.clone();
                let mut found = Vec::new();
                let parsed = deck::parse(file, &text, &mut found).unwrap();
                let rules = &game.rules.deck;
                let _ = deck::resolve(&parsed, &game.manifest, &game.pool, rules, &mut found);
                diags.extend(found);
                black_box(render(diags, &ws))
            });
        });
    }
    group.finish();
}

/// A PO file of `n` messages for cards the game does not have.
fn unplaceable_po(n: usize) -> String {
    let mut po = "msgid \"\"\nmsgstr \"\"\n\"Language: en\\n\"\n\n".to_owned();
    for i in 0..n {
        po.push_str(&format!(
            "msgctxt \"cards/nope{i}/name\"\nmsgid \"X{i}\"\nmsgstr \"Y{i}\"\n\n"
        ));
    }
    po
}

/// `carta i18n import` of a PO file of 20,000 and 100,000 messages that
/// cannot be placed, against the shipped game `zodiacos` (compiled once):
/// parsing, placing each message, and rendering what is shown. Linear
/// time shows as ×5 from one size to the next.
fn po_import(c: &mut Criterion) {
    let mut group = c.benchmark_group("po import");
    group.sample_size(10);
    let mut ws = Workspace::open(Path::new(env!("CARGO_MANIFEST_DIR"))).unwrap();
    let mut diags = Diagnostics::new();
    let game = compile(&mut ws, "zodiacos", Decks::Skip, Keep::All, &mut diags)
        .unwrap()
        .unwrap();
    let sources = translatable(&mut ws, &game, &mut diags).unwrap();
    for n in sized([20_000, 100_000]) {
        group.throughput(Throughput::Elements(n as u64));
        let text = unplaceable_po(n);
        let file = ws.sources.add(format!("n{n}.po"), text.as_str());
        group.bench_with_input(BenchmarkId::new("unplaceable messages", n), &n, |b, _| {
            b.iter(|| {
                let parsed = po::parse(&text).unwrap();
                let imported = po::import(&parsed, &sources, game.i18n.catalog("en"));
                let mut diags = Diagnostics::new();
                for p in imported.problems {
                    let message = format!("message `{}` was not imported: {}", p.context, p.why);
                    diags.push(Diagnostic::error("i18n::po", message).at(
                        file,
                        p.span,
                        "not imported",
                    ));
                }
                black_box(render(diags, &ws))
            });
        });
    }
    group.finish();
}

fn benches() {
    let mut c = Criterion::default().configure_from_args();
    bench(&mut c);
    po_import(&mut c);
}

criterion_main!(benches);
