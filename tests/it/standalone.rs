//! The repository stands alone: a user clones it and nothing else, so no
//! tracked file may point outside it — not to a folder beside it, not to
//! the team's notes or rulebook copies, not to a path of a build machine.
//!
//! The patterns are spelled here in pieces, joined at run time, so that this
//! file passes its own scan like every other tracked file.

use std::process::Command;

use crate::harness::repo;

/// Texts that name something beside the repository, and what it is.
fn beside() -> [(String, &'static str); 4] {
    [
        (
            ["..", "/", "sha", "red"].concat(),
            "a folder beside the repository",
        ),
        (
            ["sha", "red", "/", "seeds"].concat(),
            "rulebook copies beside the repository",
        ),
        (
            ["RU", "LES", ".md"].concat(),
            "a digest of the rules that is not in the repository",
        ),
        (
            ["CON", "TRACT", ".md"].concat(),
            "an interface note that is not in the repository",
        ),
    ]
}

/// Absolute paths of a machine: a build folder, homes.
fn machine() -> [String; 4] {
    [
        ["/wo", "rk/"],
        ["/ro", "ot/"],
        ["/ho", "me/"],
        ["/Us", "ers/"],
    ]
    .map(|p| p.concat())
}

/// The temporary folder's prefix.
fn temp() -> String {
    ["/", "tmp", "/"].concat()
}

/// Everything in `text` that points outside the repository, one line each.
fn outside(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let at = |what: &str| format!("line {}: {what}", n + 1);
        for (pattern, what) in beside() {
            if line.contains(&pattern) {
                found.push(at(&format!("`{pattern}`, {what}")));
            }
        }
        for root in machine() {
            if starts_a_path(line, &root) {
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
/// relative one, a folder of the repository that has the same name).
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

/// The temporary folders (`<temp>/<name>`) a line mentions.
fn temp_paths(line: &str) -> Vec<String> {
    let temp = temp();
    path_starts(line, &temp)
        .map(|i| {
            let name: String = line[i + temp.len()..]
                .chars()
                .take_while(|c| c.is_alphanumeric() || "._-".contains(*c))
                .collect();
            format!("{temp}{name}")
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
    let mut problems = Vec::new();
    let mut scanned = 0;
    for path in String::from_utf8(listed.stdout).unwrap().split('\0') {
        if path.is_empty() {
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
    let (up, notes) = (["..", "/", "sha", "red"].concat(), ["sha", "red"].concat());
    let [work, root, home, _] = machine();
    let temp = temp();
    let digest = ["RU", "LES", ".md"].concat();
    for bad in [
        format!("see [the contract]({up}/CON{}.md)", "TRACT"),
        format!(
            "the rulebook (`rulebooks/{}_{}.txt`)",
            "123", "0123456789abcdef"
        ),
        format!("summarised in {digest} §3"),
        format!("(`{work}{notes}/notes.txt`)"),
        format!("cp ~/x {root}y"),
        format!("taplo=${{TAPLO:-{temp}taplo/bin/taplo}}"),
        format!("open \"{home}ana/cards\""),
    ] {
        assert!(!outside(&bad).is_empty(), "missed: {bad}");
    }
    for good in [
        format!("cargo run --example synth -- --out {temp}synth\ncarta -C {temp}synth build"),
        format!("mkdir -p {temp}cards && carta -C {temp}cards check"),
        format!(
            "cards/{}/index.md and src/{}/mod.rs are relative",
            "work", "home"
        ),
        "the rules in docs/rules.md, a 001_ prefix, 20250101_0000".to_owned(),
        "Zodiacus Intrépidos, Manual de regras, EDIÇÃO DE DECK".to_owned(),
    ] {
        assert_eq!(outside(&good), Vec::<String>::new(), "flagged: {good}");
    }
}
