//! The repository stands alone: a user clones it and nothing else, so no
//! tracked file may point outside it — not to a folder beside it, not to
//! the team's notes or rulebook copies, not to a path of a build machine.
//!
//! This file names the patterns it looks for, so it is the one file the
//! scan leaves out.

use std::process::Command;

use crate::harness::repo;

/// Texts that name something beside the repository, and what it is.
const BESIDE: [(&str, &str); 4] = [
    ("../shared", "a folder beside the repository"),
    ("shared/seeds", "rulebook copies beside the repository"),
    (
        "RULES.md",
        "a digest of the rules that is not in the repository",
    ),
    (
        "CONTRACT.md",
        "an interface note that is not in the repository",
    ),
];

/// Absolute paths of a machine: a home, a build folder.
const MACHINE: [&str; 4] = ["/work/", "/root/", "/home/", "/Users/"];

/// Everything in `text` that points outside the repository, one line each.
fn outside(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let at = |what: &str| format!("line {}: {what}", n + 1);
        for (pattern, what) in BESIDE {
            if line.contains(pattern) {
                found.push(at(&format!("`{pattern}`, {what}")));
            }
        }
        for root in MACHINE {
            if starts_a_path(line, root) {
                found.push(at(&format!("`{root}…`, an absolute path of a machine")));
            }
        }
        for scratch in temp_paths(line) {
            if !creates(text, &scratch) {
                found.push(at(&format!(
                    "`{scratch}`, a temporary path the file reads but does not create"
                )));
            }
        }
        if let Some(name) = seed_name(line) {
            found.push(at(&format!("`{name}`, a rulebook copy's file name")));
        }
    }
    found
}

/// Where `root` occurs in `line` at the start of a path (not inside a
/// relative one such as `src/work/`).
fn path_starts<'a>(line: &'a str, root: &'a str) -> impl Iterator<Item = usize> + 'a {
    line.match_indices(root).map(|(i, _)| i).filter(|&i| {
        line[..i]
            .chars()
            .next_back()
            .is_none_or(|c| !(c.is_alphanumeric() || "._/~$}".contains(c)))
    })
}

fn starts_a_path(line: &str, root: &str) -> bool {
    path_starts(line, root).next().is_some()
}

/// The temporary folders (`/tmp/<name>`) a line mentions.
fn temp_paths(line: &str) -> Vec<String> {
    path_starts(line, "/tmp/")
        .map(|i| {
            let name: String = line[i + "/tmp/".len()..]
                .chars()
                .take_while(|c| c.is_alphanumeric() || "._-".contains(*c))
                .collect();
            format!("/tmp/{name}")
        })
        .collect()
}

/// Whether the file itself creates the temporary folder `scratch` (an
/// example's output), so that mentioning it depends on nothing outside.
fn creates(text: &str, scratch: &str) -> bool {
    ["--out ", "-o ", "mkdir -p ", "mkdir ", "> "]
        .iter()
        .any(|verb| text.contains(&format!("{verb}{scratch}")))
}

/// A rulebook copy's file name: three digits, `_`, sixteen hex digits.
fn seed_name(line: &str) -> Option<&str> {
    let bytes = line.as_bytes();
    (3..bytes.len()).find_map(|i| {
        let digits = bytes[i - 3..i].iter().all(u8::is_ascii_digit);
        let hex = bytes.get(i + 1..i + 17).is_some_and(|h| {
            h.iter()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(b))
        });
        (bytes[i] == b'_' && digits && hex).then(|| &line[i - 3..i + 17])
    })
}

#[test]
fn no_tracked_file_points_outside_the_repository() {
    let listed = Command::new("git")
        .args(["ls-files", "-z"])
        .current_dir(repo())
        .output()
        .expect("git runs");
    assert!(listed.status.success(), "git ls-files failed");
    let this = "tests/it/standalone.rs";
    let mut problems = Vec::new();
    let mut scanned = 0;
    for path in String::from_utf8(listed.stdout).unwrap().split('\0') {
        if path.is_empty() || path == this {
            continue;
        }
        let Ok(bytes) = std::fs::read(repo().join(path)) else {
            continue; // deleted in the work tree, not yet committed
        };
        scanned += 1;
        for p in outside(&String::from_utf8_lossy(&bytes)) {
            problems.push(format!("{path}: {p}"));
        }
    }
    assert!(scanned > 100, "only {scanned} tracked files");
    assert!(
        problems.is_empty(),
        "tracked files point outside the repository (cite a rulebook by its title and section; \
         describe the interface in docs/cli.md):\n{}",
        problems.join("\n")
    );
}

#[test]
fn the_scan_finds_what_points_outside_and_nothing_else() {
    for bad in [
        "see [the contract](../shared/CONTRACT.md)",
        "the rulebook (`seeds/002_b90eaffa30f39aff.txt`)",
        "summarised in RULES.md §3",
        "(`/work/shared/notes.txt`)",
        "cp ~/x /root/y",
        "taplo=${TAPLO:-/tmp/taplo/bin/taplo}",
        "open \"/home/ana/cards\"",
    ] {
        assert!(!outside(bad).is_empty(), "missed: {bad}");
    }
    for good in [
        "cargo run --example synth -- --out /tmp/synth\ncarta -C /tmp/synth build",
        "mkdir -p /tmp/cards && carta -C /tmp/cards check",
        "cards/work/index.md and src/home/mod.rs are relative",
        "the rules in docs/rules.md, a 001_ prefix, 20250101_0000",
        "Zodiacus Intrépidos, Manual de regras, EDIÇÃO DE DECK",
    ] {
        assert_eq!(outside(good), Vec::<String>::new(), "flagged: {good}");
    }
}
