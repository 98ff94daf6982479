//! The README's claims a reader can try are checked: its first lines, the
//! install line and minimum Rust, every block that shows output (the
//! tour's) byte for byte, the shell lines that write into a fresh home, and
//! the figures it counts.

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

/// Every fenced block of the README that shows what a command prints
/// (`text` or `json`), in order: each block's info string and body.
fn output_blocks(text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut open: Option<(String, String)> = None;
    for line in text.lines() {
        let fence = line.trim_start().strip_prefix("```");
        match (&mut open, fence) {
            (None, Some(info)) => open = Some((info.trim().to_owned(), String::new())),
            (Some(_), Some(_)) => {
                let (info, body) = open.take().unwrap();
                if info == "text" || info == "json" {
                    out.push((info, body));
                }
            }
            (Some((_, body)), None) => {
                body.push_str(line);
                body.push('\n');
            }
            (None, None) => {}
        }
    }
    out
}

/// The tour, run: what the clean check prints, what the check of the
/// broken potion prints, and its JSON; then its spreadsheet twin: how the
/// potions' CSV begins, and what the check of the broken sheet prints. The
/// README quotes them in order.
fn tour() -> [(&'static str, String); 5] {
    let text = readme();
    let ws = Workspace::shipped(&[]);
    let clean = ws.run(["check"]).code(0);
    let file = "cards/intrepidos/itens/pocoes.toml";
    let card = block_after(&text, "`cards/intrepidos/itens/pocoes.toml`:");
    let source = ws.read(file);
    assert!(source.contains(&card), "the tour's potion is not in {file}");
    let broken = card
        .replace("min_level = 1", "min_level = \"um\"")
        .replace("\neffect = ", "\nefect = ");
    ws.write(file, source.replace(&card, &broken));
    let run = ws.run(["check"]).code(1);
    let json = ws
        .run(["--message-format", "json", "check", "intrepidos"])
        .code(1);
    let [begins, sheet] = spreadsheet_tour();
    [
        ("text", clean.stderr),
        ("text", run.stderr),
        ("json", json.stdout),
        ("text", begins),
        ("text", sheet),
    ]
}

/// The spreadsheet twin of the tour: the potions converted to CSV check as
/// the TOML did; the first two lines of the CSV, and what the check prints
/// once its `min_level` cell and `effect` header are broken.
fn spreadsheet_tour() -> [String; 2] {
    let ws = Workspace::shipped(&[]);
    let toml = "cards/intrepidos/itens/pocoes.toml";
    ws.run(["convert", toml, "--to", "csv"]).code(0);
    fs::remove_file(ws.path().join(toml)).unwrap();
    let file = "cards/intrepidos/itens/pocoes.csv";
    let csv = ws.read(file);
    let begins: String = csv
        .replace("\r\n", "\n")
        .split_inclusive('\n')
        .take(2)
        .collect();
    ws.run(["check"]).code(0);
    let broken =
        csv.replacen(",effect\r\n", ",efect\r\n", 1)
            .replacen(",cura,1,Use", ",cura,um,Use", 1);
    ws.write(file, broken);
    [begins, ws.run(["check"]).code(1).stderr]
}

/// The README's shell block after the line ending with `after`, run by
/// `sh` in `ws` as a reader pasting it would (no `set -e`), with `cargo
/// run --release --` standing for the carta under test.
fn run_shell_block(ws: &Workspace, after: &str) -> std::process::Output {
    let block = block_after(&readme(), after).replace(
        "cargo run --release -- ",
        &format!("'{}' ", env!("CARGO_BIN_EXE_carta")),
    );
    std::process::Command::new("sh")
        .args(["-c", &block])
        .current_dir(ws.path())
        .output()
        .unwrap()
}

#[test]
fn the_spreadsheet_tour_followed_in_order_never_deletes_the_only_potions() {
    let ws = Workspace::shipped(&["intrepidos"]);
    let toml = "cards/intrepidos/itens/pocoes.toml";
    let intact = ws.read(toml);
    // The tour's previous step leaves the potion broken.
    let broken = intact
        .replacen("min_level = 1", "min_level = \"um\"", 1)
        .replacen("\neffect = ", "\nefect = ", 1);
    ws.write(toml, &broken);
    let convert = "the TOML only once the CSV is written:";
    let refused = run_shell_block(&ws, convert);
    let said = String::from_utf8_lossy(&refused.stderr);
    assert!(
        said.contains(&format!("nothing written, and `{toml}` is untouched")),
        "{said}"
    );
    assert_eq!(ws.read(toml), broken, "the potions are gone");
    assert!(!ws.path().join("cards/intrepidos/itens/pocoes.csv").exists());
    // Put back as the tour says, the same lines convert and drop the TOML.
    ws.write(toml, &intact);
    let done = run_shell_block(&ws, convert);
    assert!(done.status.success(), "{done:?}");
    assert!(!ws.path().join(toml).exists());
    assert!(
        ws.read("cards/intrepidos/itens/pocoes.csv")
            .starts_with("id,kind,name")
    );
}

#[test]
fn every_readme_block_that_shows_output_is_what_carta_prints() {
    let text = readme();
    let shown = output_blocks(&text);
    let printed = tour();
    assert_eq!(
        shown.len(),
        printed.len(),
        "a README block shows output no test runs: {shown:#?}"
    );
    for ((info, body), (kind, actual)) in shown.iter().zip(&printed) {
        assert_eq!(info, kind);
        assert_eq!(body, actual, "a README block is not what carta prints");
    }
    // The commands the tour names are the ones it runs, built as the first
    // block builds carta.
    assert!(text.contains("`cargo run --release -- check` checks every game and says\n"));
    assert!(text.contains("cargo run --release -- --message-format json check intrepidos\n"));
    assert!(!text.contains("cargo run -- "), "`--release` consistently");
}

#[test]
fn the_output_block_finder_sees_text_and_json_blocks_only() {
    let text = "a\n```sh\nls\n```\n```text\nx\ny\n```\n  ```toml\nk = 1\n  ```\n```json\n{}\n```\n";
    assert_eq!(
        output_blocks(text),
        [
            ("text".to_owned(), "x\ny\n".to_owned()),
            ("json".to_owned(), "{}\n".to_owned())
        ]
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

/// `{ key }` in a cargo-binstall template, filled from `vars`.
fn fill(template: &str, vars: &[(&str, &str)]) -> String {
    let mut out = template.to_owned();
    for (key, value) in vars {
        out = out.replace(&format!("{{ {key} }}"), value);
    }
    assert!(!out.contains('{'), "an unknown variable in {template}");
    out
}

#[test]
fn binstall_fetches_the_archives_the_release_workflow_makes() {
    let manifest: toml::Table = fs::read_to_string(repo().join("Cargo.toml"))
        .unwrap()
        .parse()
        .unwrap();
    let package = manifest["package"].as_table().unwrap();
    let (name, version) = (
        package["name"].as_str().unwrap(),
        package["version"].as_str().unwrap(),
    );
    let dist = manifest["workspace"]["metadata"]["dist"]
        .as_table()
        .unwrap();
    let binstall = package["metadata"]["binstall"].as_table().unwrap();
    // dist names each archive `<name>-<target><unix-archive>`, with the
    // binary under `<name>-<target>/`; binstall's format must be that one.
    let suffix = dist["unix-archive"].as_str().unwrap();
    let format = binstall["pkg-fmt"].as_str().unwrap();
    assert_eq!(
        (format, suffix),
        match format {
            "txz" => ("txz", ".tar.xz"),
            "tgz" => ("tgz", ".tar.gz"),
            "tzstd" => ("tzstd", ".tar.zst"),
            other => panic!("pkg-fmt {other} is not a dist unix-archive"),
        }
    );
    let targets = dist["targets"].as_array().unwrap();
    assert!(!targets.is_empty());
    for target in targets {
        let target = target.as_str().unwrap();
        assert!(!target.contains("windows"), "carta needs openat: {target}");
        let vars = [
            ("repo", "https://github.com/o/r"),
            ("version", version),
            ("name", name),
            ("target", target),
            ("archive-suffix", suffix),
            ("bin", name),
            ("binary-ext", ""),
        ];
        let url = fill(binstall["pkg-url"].as_str().unwrap(), &vars);
        assert_eq!(
            url,
            format!("https://github.com/o/r/releases/download/v{version}/{name}-{target}{suffix}")
        );
        let bin = fill(binstall["bin-dir"].as_str().unwrap(), &vars);
        assert_eq!(bin, format!("{name}-{target}/{name}"));
    }
    // The workflow is the one this dist version writes, run on version tags.
    let workflow = fs::read_to_string(repo().join(".github/workflows/release.yml")).unwrap();
    let dist_version = dist["cargo-dist-version"].as_str().unwrap();
    assert!(workflow.contains(&format!(
        "cargo-dist/releases/download/v{dist_version}/cargo-dist-installer.sh"
    )));
    assert!(workflow.contains("    tags:\n      - '**[0-9]+.[0-9]+.[0-9]+*'\n"));
    assert_eq!(
        workflow.contains("\n  pull_request:\n"),
        dist["pr-run-mode"].as_str() != Some("skip")
    );
    assert_eq!(
        manifest["profile"]["dist"]["inherits"].as_str(),
        Some("release")
    );
    // The README sends binstall to this manifest, not to crates.io's `carta`.
    assert!(readme().contains("cargo binstall --manifest-path Cargo.toml carta"));
}
