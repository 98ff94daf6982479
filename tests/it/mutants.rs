//! A generated hostile corpus: a small game's card file, manifest, schema
//! and deck, mutated at random (bytes flipped, inserted and deleted, control
//! characters, lines duplicated, a line past 65,535 columns, paths leading
//! out of the workspace), then checked, deck-checked and built. Whatever the
//! mutation, carta must not panic or hang, must exit 0, 1 or 2, must place
//! every error it reports, and must print nothing read from outside.

use std::fs;
use std::path::Path;

use proptest::prelude::*;

use crate::harness::{Run, Workspace};
use crate::sheets::{card, mini};

/// What the file outside the workspace holds.
const SECRET: &str = "SECRET-91f3-outside-the-workspace";

/// The files a mutation may hit.
const TARGETS: [&str; 4] = [
    "cards/mini/cards.toml",
    "cards/mini/game.toml",
    "schemas/mini/card.schema.json",
    "cards/mini/decks/d.toml",
];

/// Characters a mutation inserts: TOML and JSON syntax, control
/// characters, multi-byte text.
const ALPHABET: [&str; 16] = [
    "\"",
    "'",
    "[",
    "]",
    "{",
    "}",
    "=",
    ",",
    "\n",
    "#",
    "\\",
    "\u{1b}[2J",
    "\u{0}",
    "é",
    "1e999",
    "[[card]]\n",
];

#[derive(Debug, Clone)]
enum Mutation {
    Flip {
        at: usize,
        byte: u8,
    },
    Insert {
        at: usize,
        what: usize,
    },
    Delete {
        at: usize,
        len: usize,
    },
    DuplicateLine {
        line: usize,
    },
    LongLine {
        at: usize,
        len: usize,
    },
    /// A path to the outside file written where a path is read.
    PointOutside {
        at: usize,
        how: usize,
    },
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<usize>(), any::<u8>()).prop_map(|(at, byte)| Mutation::Flip { at, byte }),
        (any::<usize>(), 0..ALPHABET.len()).prop_map(|(at, what)| Mutation::Insert { at, what }),
        (any::<usize>(), 1..40usize).prop_map(|(at, len)| Mutation::Delete { at, len }),
        any::<usize>().prop_map(|line| Mutation::DuplicateLine { line }),
        (any::<usize>(), 65_530..70_000usize).prop_map(|(at, len)| Mutation::LongLine { at, len }),
        (any::<usize>(), 0..3usize).prop_map(|(at, how)| Mutation::PointOutside { at, how }),
    ]
}

/// Applies `m` to `bytes`; `secret` is the outside file's path.
fn apply(m: &Mutation, bytes: &mut Vec<u8>, secret: &Path) {
    let at = |i: usize, b: &Vec<u8>| if b.is_empty() { 0 } else { i % (b.len() + 1) };
    match m {
        Mutation::Flip { at: i, byte } => {
            if !bytes.is_empty() {
                let i = i % bytes.len();
                bytes[i] = *byte;
            }
        }
        Mutation::Insert { at: i, what } => {
            let i = at(*i, bytes);
            bytes.splice(i..i, ALPHABET[*what].bytes());
        }
        Mutation::Delete { at: i, len } => {
            let i = at(*i, bytes);
            let end = (i + len).min(bytes.len());
            bytes.drain(i..end);
        }
        Mutation::DuplicateLine { line } => {
            let text = String::from_utf8_lossy(bytes).into_owned();
            let lines: Vec<&str> = text.split_inclusive('\n').collect();
            if !lines.is_empty() {
                let n = line % lines.len();
                let mut out: Vec<&str> = lines.clone();
                out.insert(n, lines[n]);
                *bytes = out.concat().into_bytes();
            }
        }
        Mutation::LongLine { at: i, len } => {
            let i = at(*i, bytes);
            let line = format!("\nx = \"{}\" stray\n", "y".repeat(*len));
            bytes.splice(i..i, line.bytes());
        }
        Mutation::PointOutside { at: i, how } => {
            let path = secret.display().to_string();
            let line = match how {
                0 => format!("\nschema = \"{path}\"\n"),
                1 => format!("\nart = \"../../../../../../../..{path}\"\n"),
                _ => format!("\n\"$ref\": \"../../../../../../..{path}\",\n"),
            };
            let i = at(*i, bytes);
            bytes.splice(i..i, line.bytes());
        }
    }
}

/// Everything a run must keep to, whatever its input.
fn holds_up(run: &Run, what: &str) {
    assert!(
        matches!(run.code, Some(0..=2)),
        "{what}: exit {:?}\n{}\n{}",
        run.code,
        run.stdout,
        run.stderr
    );
    assert!(
        !run.stdout.contains(SECRET) && !run.stderr.contains(SECRET),
        "{what}: printed a file outside the workspace"
    );
    if run.args.iter().any(|a| a == "json") {
        for line in run.stdout.lines().filter(|l| l.starts_with('{')) {
            let d: serde_json::Value = serde_json::from_str(line)
                .unwrap_or_else(|e| panic!("{what}: not JSON ({e}): {line}"));
            if run.code == Some(1) && d["severity"] == "error" {
                assert!(
                    d["file"].is_string() && d["line"].is_u64(),
                    "{what}: an error without a place: {d}"
                );
            }
        }
    }
}

/// No file under `dir` holds the secret.
fn nothing_leaked(dir: &Path) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            nothing_leaked(&path);
        } else if let Ok(bytes) = fs::read(&path) {
            assert!(
                !String::from_utf8_lossy(&bytes).contains(SECRET),
                "{} holds a file from outside the workspace",
                path.display()
            );
        }
    }
}

fn base() -> Workspace {
    let ws = mini(&[card("a", "text = \"um\""), card("b", "copies = 2")].concat());
    ws.write(
        "cards/mini/decks/d.toml",
        "game = \"mini\"\nname = \"D\"\n\n[main]\na = 1\nb = 2\n",
    );
    ws
}

proptest! {
    // Each case runs carta five times; 64 cases take seconds. A longer
    // hunt: PROPTEST_CASES=5000 cargo test --test it mutants.
    #![proptest_config(ProptestConfig {
        cases: std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(64),
        ..ProptestConfig::default()
    })]

    #[test]
    fn mutated_sources_never_panic_hang_or_leak(
        target in 0..TARGETS.len(),
        mutations in prop::collection::vec(mutation(), 1..4),
    ) {
        let outside = tempfile::tempdir().unwrap();
        let secret = outside.path().join("secret.json");
        fs::write(&secret, format!("{{\"title\": \"{SECRET}\", \"type\": \"object\"}}")).unwrap();
        let ws = base();
        let rel = TARGETS[target];
        let mut bytes = fs::read(ws.path().join(rel)).unwrap();
        for m in &mutations {
            apply(m, &mut bytes, &secret);
        }
        ws.write(rel, &bytes);
        let what = format!("{rel} after {mutations:?}");
        for args in [
            vec!["--message-format", "json", "check"],
            vec!["check", "--no-cache"],
            vec!["--message-format", "json", "deck", "check", "cards/mini/decks/d.toml"],
            vec!["--message-format", "json", "build"],
            vec!["build"],
        ] {
            holds_up(&ws.run(&args), &what);
        }
        nothing_leaked(&ws.path().join("build"));
    }
}
