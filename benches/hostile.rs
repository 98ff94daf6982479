//! Time against the number of problems in one file: the three families that
//! used to be quadratic (cards missing a field, lines of `= = =`, a deck of
//! unknown ids), each at 5,000, 10,000 and 20,000 problems, from reading
//! the file to rendering what is shown (human and JSON). Linear time shows
//! as a doubling from one size to the next, in the same run.
//!
//! `cargo bench --bench hostile`

use std::fs;
use std::hint::black_box;
use std::path::Path;

use carta::deck;
use carta::diag::{Diagnostics, Format, Renderer};
use carta::game::{Decks, Keep, compile};
use carta::load::Workspace;
use criterion::{BenchmarkId, Criterion, Throughput, criterion_main};

const SIZES: [usize; 3] = [5_000, 10_000, 20_000];

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
    for n in SIZES {
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

fn benches() {
    let mut c = Criterion::default().configure_from_args();
    bench(&mut c);
}

criterion_main!(benches);
