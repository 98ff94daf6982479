//! The README's claims a reader can try are checked: its first lines, the
//! install line and minimum Rust, the tour's output byte for byte, the
//! shell lines that write into a fresh home, and the figures it counts.

use std::fs;

use crate::harness::{Workspace, repo};

fn readme() -> String {
    fs::read_to_string(repo().join("README.md")).unwrap()
}

/// The fenced block that follows the first line ending with `after`.
fn block_after(text: &str, after: &str) -> String {
    let start = text
        .find(&format!("{after}\n"))
        .unwrap_or_else(|| panic!("the README has no line ending with {after:?}"));
    let rest = &text[start..];
    let open = rest.find("\n```").unwrap();
    let body = &rest[open + 4..];
    let body = &body[body.find('\n').unwrap() + 1..];
    body[..body.find("```").unwrap()].to_owned()
}

#[test]
fn the_readme_opens_with_the_build_and_the_test_commands() {
    let text = readme();
    let first = block_after(&text, "# carta");
    let lines: Vec<&str> = first.lines().collect();
    assert!(
        lines[0].starts_with("cargo run --release -- build"),
        "{first}"
    );
    assert!(lines[1].starts_with("scripts/test.sh"), "{first}");
}

#[test]
fn the_readme_installs_from_the_lock_file_with_the_rust_cargo_toml_asks_for() {
    let text = readme();
    // Without `--locked`, `cargo install` ignores Cargo.lock.
    assert!(text.contains("cargo install --locked --path ."));
    assert!(!text.contains("cargo install --path"));
    let manifest = fs::read_to_string(repo().join("Cargo.toml")).unwrap();
    let rust = manifest
        .lines()
        .find_map(|l| l.strip_prefix("rust-version = \""))
        .and_then(|v| v.strip_suffix('"'))
        .expect("Cargo.toml sets rust-version");
    assert!(
        text.contains(&format!("carta needs Rust {rust} or later")),
        "the README does not name Rust {rust}"
    );
    assert!(text.contains("outside the clone"));
}

#[test]
fn the_readme_tour_shows_what_carta_check_prints() {
    let text = readme();
    let ws = Workspace::shipped(&[]);
    let clean = ws.run(["check"]).code(0);
    assert_eq!(
        block_after(&text, "`cargo run -- check` checks every game and says"),
        clean.stderr,
        "the tour's clean summary"
    );
    let file = "cards/intrepidos/itens/pocoes.toml";
    let card = block_after(&text, "`cards/intrepidos/itens/pocoes.toml`:");
    let source = ws.read(file);
    assert!(source.contains(&card), "the tour's potion is not in {file}");
    let broken = card
        .replace("min_level = 1", "min_level = \"um\"")
        .replace("\neffect = ", "\nefect = ");
    ws.write(file, source.replace(&card, &broken));
    let run = ws.run(["check"]).code(1);
    assert_eq!(block_after(&text, "`efect` — and check again:"), run.stderr);
    let json = ws.run(["--message-format", "json", "check", "intrepidos"]);
    let first = json.stdout.lines().next().unwrap();
    let shown = &text[text.find("check intrepidos\n```\n```json\n").unwrap()..];
    let shown = shown.lines().nth(3).unwrap();
    assert_eq!(shown, first);
}

#[test]
fn the_readme_spreadsheet_tour_shows_what_carta_check_prints() {
    let text = readme();
    let ws = Workspace::shipped(&[]);
    let toml = "cards/intrepidos/itens/pocoes.toml";
    ws.run(["convert", toml, "--to", "csv"]).code(0);
    std::fs::remove_file(ws.path().join(toml)).unwrap();
    let file = "cards/intrepidos/itens/pocoes.csv";
    let csv = ws.read(file);
    let begins = block_after(&text, "`cards/intrepidos/itens/pocoes.csv` begins");
    assert!(csv.replace("\r\n", "\n").starts_with(&begins), "{csv}");
    let clean = ws.run(["check"]).code(0);
    assert_eq!(
        block_after(&text, "`cargo run -- check` checks every game and says"),
        clean.stderr,
        "the CSV checks as the TOML did"
    );
    let broken =
        csv.replacen(",effect\r\n", ",efect\r\n", 1)
            .replacen(",cura,1,Use", ",cura,um,Use", 1);
    ws.write(file, broken);
    let run = ws.run(["check"]).code(1);
    assert_eq!(
        block_after(&text, "`efect` in the header row — and check again:"),
        run.stderr
    );
}

#[test]
fn the_readme_s_shell_lines_make_the_folders_they_write_into() {
    let text = readme();
    let mut made: Vec<&str> = Vec::new();
    for line in text.lines() {
        if let Some(dir) = line.strip_prefix("mkdir -p ") {
            made.push(dir.split_whitespace().next().unwrap());
        }
        // `> ~/…/file` fails in a fresh home unless its folder was made.
        if let Some((_, target)) = line.split_once("> ~/") {
            let target = target.split_whitespace().next().unwrap();
            let folder = format!("~/{}", &target[..target.rfind('/').unwrap()]);
            assert!(made.contains(&folder.as_str()), "nothing makes {folder}");
        }
    }
}

#[test]
fn the_readme_counts_the_python_reader_s_lines() {
    let lines = fs::read_to_string(repo().join("tests/python/read_bundle.py"))
        .unwrap()
        .lines()
        .count();
    assert!(
        readme().contains(&format!("a complete reader in {lines} lines of Python")),
        "tests/python/read_bundle.py has {lines} lines"
    );
}
