//! A workspace from a stranger: each reproducer of a hostile or careless
//! source (long lines, FIFOs, devices, symlinks, huge files and counts,
//! terminal escapes, paths leading out) is refused with a located
//! diagnostic, without a panic, a hang, or a byte read from outside.

use std::fs;
use std::os::unix::fs::symlink;
use std::path::Path;
use std::process::Command;

use crate::harness::{Run, Workspace, run_in, run_with};
use crate::sheets::{card, mini};

// Issue 22's rows, one file per front: what carta writes, what its export
// browser loads, what its server answers, what its parsers cost.
mod browser;
mod cache;
mod parsers;
mod server;
mod templates_po;
mod writes;

/// What a file outside every workspace holds; it must never be printed.
pub(crate) const SECRET: &str = "SECRET-4c1d-never-print-me";

pub(crate) fn json(ws: &Workspace, args: &[&str]) -> Run {
    let mut all = vec!["--message-format", "json"];
    all.extend(args);
    ws.run(all)
}

pub(crate) fn json_env(ws: &Workspace, args: &[&str], env: &[(&str, &str)]) -> Run {
    let mut all = vec!["--message-format", "json"];
    all.extend(args);
    run_with(ws.path(), all, env)
}

/// The diagnostics with `code`, asserting there is one.
pub(crate) fn with_code(run: &Run, code: &str) -> Vec<serde_json::Value> {
    let found: Vec<_> = run
        .json()
        .into_iter()
        .filter(|d| d["code"] == code)
        .collect();
    assert!(
        !found.is_empty(),
        "no {code} in\n{}{}",
        run.stdout,
        run.stderr
    );
    found
}

/// Every error of a JSON run has a file and a line.
pub(crate) fn all_located(run: &Run) {
    for d in run.json() {
        if d["severity"] == "error" {
            assert!(
                d["file"].is_string() && d["line"].is_u64(),
                "not located: {d}"
            );
        }
    }
}

pub(crate) fn mkfifo(path: &Path) {
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    let _ = fs::remove_file(path);
    assert!(Command::new("mkfifo").arg(path).status().unwrap().success());
}

/// A folder outside the workspace holding the secret in a card, a schema
/// and a plain file.
pub(crate) fn outside() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path();
    fs::write(p.join("secret.txt"), SECRET).unwrap();
    fs::write(
        p.join("cards.toml"),
        format!("[[card]]\nid = \"x\"\nkind = \"card\"\nname = \"{SECRET}\"\nbogus = 1\n"),
    )
    .unwrap();
    fs::write(
        p.join("s.schema.json"),
        format!(r#"{{"title": "{SECRET}", "type": "object", "properties": {{"x": {{"type": "integer"}}}}}}"#),
    )
    .unwrap();
    dir
}

pub(crate) fn no_secret(run: &Run) {
    assert!(
        !run.stdout.contains(SECRET) && !run.stderr.contains(SECRET),
        "a file outside the workspace leaked:\n{}{}",
        run.stdout,
        run.stderr
    );
}

// ---- Panics: columns past 65,535 ----

#[test]
fn a_span_past_column_65535_is_shown_clipped_with_its_true_place() {
    let long = "x".repeat(65_540);
    let ws = mini(&format!("{}text = \"{long}\" stray\n", card("a", "")));
    let human = ws.run(["check"]).fails();
    let j = json(&ws, &["check"]);
    let d = &j.json()[0];
    let column = d["column"].as_u64().unwrap();
    assert!(column > 65_535, "{d}");
    assert!(
        human
            .stderr
            .contains(&format!("cards/mini/cards.toml:{}:{column}]", d["line"])),
        "{}",
        human.stderr
    );
    assert!(human.stderr.len() < 4_000, "{} bytes", human.stderr.len());
    assert!(human.stderr.contains('…'));
}

#[test]
fn a_minified_schema_with_a_trailing_comma_does_not_panic() {
    let props: String = (0..3_000)
        .map(|i| format!("\"p{i}\":{{\"type\":\"string\"}},"))
        .collect();
    let schema = format!("{{\"type\":\"object\",\"properties\":{{{props}}}}}");
    assert!(schema.len() > 70_000);
    let ws = mini(&card("a", ""));
    ws.write("schemas/mini/card.schema.json", &schema);
    let run = ws.run(["check"]).fails();
    assert!(
        run.stderr.contains("schema::invalid-json"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.len() < 4_000);
    all_located(&json(&ws, &["check"]));
}

#[test]
fn a_large_inline_icon_then_an_unknown_key_does_not_panic() {
    let ws = mini(&card("a", ""));
    let game = ws.read("cards/mini/game.toml");
    let svg = format!("<svg>{}</svg>", "<g/>".repeat(17_000));
    let game = game.replace(
        "[icons]\n",
        &format!("[icons]\nBIG = {{ label = \"b\", svg = '{svg}', bogus = 1 }}\n"),
    );
    ws.write("cards/mini/game.toml", game);
    let run = ws.run(["check"]).fails();
    assert!(run.stderr.contains("bogus"), "{}", run.stderr);
    let j = json(&ws, &["check"]);
    assert!(
        with_code(&j, "schema::unknown-field")[0]["column"]
            .as_u64()
            .unwrap()
            > 65_535
    );
}

// ---- Hangs: FIFOs, devices, sizes ----

#[test]
fn fifos_named_like_sources_are_diagnostics_not_hangs() {
    for rel in [
        "cards/mini/fifo.toml",
        "schemas/mini/card.schema.json",
        "cards/mini/decks/d.toml",
        "cards/mini/game.toml",
    ] {
        let ws = mini(&card("a", ""));
        mkfifo(&ws.path().join(rel));
        let run = json(&ws, &["check"]);
        assert_eq!(run.code, Some(1), "{rel}: {}{}", run.stdout, run.stderr);
        let d = &with_code(&run, "load::not-a-file")[0];
        assert_eq!(d["file"], rel);
        assert!(d["message"].as_str().unwrap().contains("FIFO"), "{d}");
        all_located(&run);
    }
}

#[test]
fn a_cache_entry_that_is_a_fifo_is_ignored() {
    let ws = mini(&card("a", ""));
    ws.run(["check"]).succeeds();
    let cache = ws.path().join("build/.cache/mini");
    for entry in fs::read_dir(&cache).unwrap() {
        let path = entry.unwrap().path();
        fs::remove_file(&path).unwrap();
        mkfifo(&path);
    }
    ws.run(["check"]).succeeds();
}

#[test]
fn game_toml_as_a_folder_is_a_diagnostic_not_silence() {
    let ws = mini(&card("a", ""));
    fs::remove_file(ws.path().join("cards/mini/game.toml")).unwrap();
    fs::create_dir(ws.path().join("cards/mini/game.toml")).unwrap();
    let run = json(&ws, &["check"]);
    assert_eq!(run.code, Some(1), "{}", run.stdout);
    let d = &with_code(&run, "load::not-a-file")[0];
    assert!(
        d["message"].as_str().unwrap().contains("is a folder"),
        "{d}"
    );
}

#[test]
fn dev_zero_linked_as_a_card_is_refused_and_not_called_missing() {
    let ws = mini(&card("a", ""));
    symlink("/dev/zero", ws.path().join("cards/mini/zero.toml")).unwrap();
    let run = json(&ws, &["check"]);
    assert_eq!(run.code, Some(1));
    assert_eq!(
        with_code(&run, "load::outside-workspace")[0]["file"],
        "cards/mini/zero.toml"
    );
    assert!(!run.stdout.contains("does not exist"));
}

#[test]
fn fifo_art_is_named_for_what_it_is() {
    let ws = mini(&card("a", "art = \"art/a.png\""));
    mkfifo(&ws.path().join("cards/mini/art/a.png"));
    let run = json(&ws, &["build"]);
    assert_eq!(run.code, Some(1), "{}", run.stdout);
    let d = &with_code(&run, "load::not-a-file")[0];
    assert!(d["message"].as_str().unwrap().contains("FIFO"), "{d}");
    assert_eq!(d["file"], "cards/mini/cards.toml");
    assert!(!run.stdout.contains("does not exist"));
}

#[test]
fn files_over_the_size_limit_are_refused_and_the_limit_can_be_raised() {
    let ws = mini(&card("a", "text = \"a fairly long text for a tiny limit\""));
    let run = json_env(&ws, &["check"], &[("CARTA_MAX_FILE_BYTES", "60")]);
    assert_eq!(run.code, Some(1));
    with_code(&run, "load::too-large");
    json_env(&ws, &["check"], &[("CARTA_MAX_FILE_BYTES", "100000")]).code(0);
    let bad = json_env(&ws, &["check"], &[("CARTA_MAX_FILE_BYTES", "lots")]);
    assert_eq!(bad.code, Some(2));
    with_code(&bad, "load::limit");
}

// ---- Symlinks ----

#[test]
fn symlink_walks_stop_at_the_workspace_and_at_loops() {
    let ws = mini(&card("a", ""));
    symlink("/", ws.path().join("cards/mini/root")).unwrap();
    symlink(".", ws.path().join("cards/mini/loop")).unwrap();
    let run = json(&ws, &["check"]);
    assert_eq!(run.code, Some(1), "{}", run.stdout);
    assert_eq!(
        with_code(&run, "load::outside-workspace")[0]["file"],
        "cards/mini/root"
    );
    assert_eq!(
        with_code(&run, "load::symlink-loop")[0]["file"],
        "cards/mini/loop"
    );
    all_located(&run);
}

#[test]
fn a_link_to_a_folder_inside_the_workspace_is_followed() {
    let ws = mini(&card("a", ""));
    ws.write("shared/more.toml", card("b", ""));
    symlink(
        ws.path().join("shared"),
        ws.path().join("cards/mini/shared"),
    )
    .unwrap();
    ws.run(["check"]).succeeds().stderr_has("2 cards");
}

#[test]
fn cards_schemas_and_manifests_linked_outside_are_not_read() {
    let out = outside();
    for (rel, target) in [
        ("cards/mini/x.toml", "cards.toml"),
        ("schemas/mini/card.schema.json", "s.schema.json"),
        ("cards/mini/game.toml", "secret.txt"),
    ] {
        let ws = mini(&card("a", ""));
        let _ = fs::remove_file(ws.path().join(rel));
        symlink(out.path().join(target), ws.path().join(rel)).unwrap();
        for format in ["human", "json"] {
            let run = ws.run(["--message-format", format, "check"]);
            assert_eq!(run.code, Some(1), "{rel}: {}{}", run.stdout, run.stderr);
            no_secret(&run);
        }
        assert_eq!(
            with_code(&json(&ws, &["check"]), "load::outside-workspace")[0]["file"],
            rel
        );
    }
}

#[test]
fn a_kinds_schema_path_outside_the_workspace_is_refused_where_it_is_written() {
    let out = outside();
    let escape = format!(
        "../../../../../../../..{}",
        out.path().join("s.schema.json").display()
    );
    for path in ["/etc/passwd", "../../../etc/passwd", escape.as_str()] {
        let ws = mini(&card("a", ""));
        let game = ws.read("cards/mini/game.toml").replace(
            "[kinds.card]\nname = \"Carta\"\n",
            &format!("[kinds.card]\nname = \"Carta\"\nschema = \"{path}\"\n"),
        );
        ws.write("cards/mini/game.toml", game);
        let run = json(&ws, &["check"]);
        assert_eq!(run.code, Some(1), "{path}: {}", run.stdout);
        let d = &with_code(&run, "load::outside-workspace")[0];
        assert_eq!(d["file"], "cards/mini/game.toml");
        assert!(d["line"].as_u64().unwrap() > 1, "at the schema value: {d}");
        no_secret(&run);
        assert!(!run.stdout.contains("root:"), "{}", run.stdout);
        let human = ws.run(["check"]);
        assert!(!human.stderr.contains("root:"), "{}", human.stderr);
    }
}

#[test]
fn templates_and_styles_linked_outside_are_not_copied() {
    let out = outside();
    for name in ["style.css", "card.hbs"] {
        let ws = mini(&card("a", ""));
        fs::create_dir_all(ws.path().join("templates/mini")).unwrap();
        symlink(
            out.path().join("secret.txt"),
            ws.path().join("templates/mini").join(name),
        )
        .unwrap();
        let run = json(&ws, &["build"]);
        assert_eq!(run.code, Some(1), "{name}: {}", run.stdout);
        with_code(&run, "load::outside-workspace");
        no_secret(&run);
        assert!(!ws.path().join("build/mini").exists(), "nothing written");
    }
}

// ---- Blow-ups: counts, long values, many diagnostics ----

#[test]
fn printed_copies_are_bounded_per_run_and_the_bound_can_be_raised() {
    let cards: String = (0..100)
        .map(|i| card(&format!("c{i}"), "copies = 10000"))
        .collect();
    let ws = mini(&cards);
    let run = json(&ws, &["build"]);
    assert_eq!(run.code, Some(1), "{}", run.stdout);
    let d = &with_code(&run, "sheets::too-many-copies")[0];
    assert_eq!(d["file"], "cards/mini/cards.toml");
    assert!(!ws.path().join("build/mini").exists());
    let small = mini(&[card("a", "copies = 30"), card("b", "copies = 30")].concat());
    let env = [("CARTA_MAX_PRINT_COPIES", "50")];
    assert_eq!(json_env(&small, &["build"], &env).code, Some(1));
    let env = [("CARTA_MAX_PRINT_COPIES", "60")];
    assert_eq!(json_env(&small, &["build"], &env).code, Some(0));
}

#[test]
fn a_huge_wrong_typed_value_is_not_printed_in_full() {
    let ws = mini(&card(
        "a",
        &format!("art = [\"{}\"]", "x".repeat(2_000_000)),
    ));
    let human = ws.run(["check"]).fails();
    assert!(human.stderr.len() < 4_000, "{} bytes", human.stderr.len());
    let j = json(&ws, &["check"]);
    assert!(j.stdout.len() < 4_000, "{} bytes", j.stdout.len());
}

#[test]
fn diagnostics_per_file_are_capped_and_the_rest_counted() {
    let cards: String = (0..1_000)
        .map(|i| card(&format!("c{i}"), "bogus = 1"))
        .collect();
    let ws = mini(&cards);
    let human = ws.run(["check"]).fails();
    assert!(
        human
            .stderr
            .contains("and 800 more diagnostics in this file"),
        "{}",
        &human.stderr[human.stderr.len().saturating_sub(2_000)..]
    );
    assert!(human.stderr.contains("1000 errors"));
    let j = json(&ws, &["check"]);
    let all = j.json();
    assert_eq!(all.iter().filter(|d| d["severity"] == "error").count(), 200);
    assert_eq!(with_code(&j, "diag::truncated").len(), 1);
    let raised = json_env(
        &ws,
        &["check"],
        &[("CARTA_MAX_DIAGNOSTICS_PER_FILE", "5000")],
    );
    assert_eq!(raised.json().len(), 1_000);
}

#[test]
fn a_file_of_20000_syntax_errors_finishes() {
    let ws = mini(&card("a", ""));
    ws.write("cards/mini/junk.toml", "= = =\n".repeat(20_000));
    let run = json(&ws, &["check"]);
    assert_eq!(run.code, Some(1));
    assert!(run.json().len() <= 201);
    all_located(&run);
}

// ---- Terminal escapes ----

#[test]
fn terminal_escapes_in_sources_are_shown_escaped() {
    let ws = mini(
        "[[card]]\nid = \"a\\u001b]0;PWNED\\u0007\"\nkind = \"card\\u001b[2J\"\nname = \"x\"\n",
    );
    ws.write("cards/mini/\u{1b}[2J.toml", "= broken\n");
    let run = ws.run(["--color", "never", "check"]).fails();
    assert!(!run.stderr.contains('\u{1b}'), "{:?}", run.stderr);
    assert!(!run.stderr.contains('\u{7}'));
    assert!(run.stderr.contains("\\u{1b}"), "{}", run.stderr);
}

#[test]
fn a_decoded_deck_code_cannot_send_terminal_escapes() {
    let ws = Workspace::shipped(&["intrepidos"]);
    let run = ws.run([
        "--color",
        "never",
        "deck",
        "decode",
        "AQAAAAAOG10wO1BXTkVEBxtbMkoAAA",
    ]);
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    assert!(!run.stderr.contains('\u{1b}') && !run.stdout.contains('\u{1b}'));
    assert!(!run.stderr.contains('\u{7}'));
}

// ---- Schemas ----

const OTHER_KIND: &str = "[kinds.token]\nname = \"Ficha\"\n\n";
const TOKEN_SCHEMA: &str = r#"{"type": "object", "additionalProperties": false, "properties": {"power": {"type": "integer"}}}"#;

#[test]
fn an_unresolvable_ref_is_reported_at_the_ref_and_other_kinds_still_validate() {
    let ws = mini(
        &[
            card("a", ""),
            "[[card]]\nid = \"t\"\nkind = \"token\"\nname = \"T\"\npower = \"high\"\n".into(),
        ]
        .concat(),
    );
    let game = ws
        .read("cards/mini/game.toml")
        .replace("[kinds.card]", &format!("{OTHER_KIND}[kinds.card]"));
    ws.write("cards/mini/game.toml", game);
    ws.write("schemas/mini/token.schema.json", TOKEN_SCHEMA);
    ws.write(
        "schemas/mini/card.schema.json",
        "{\n  \"type\": \"object\",\n  \"properties\": {\n    \"text\": { \"$ref\": \"common.schema.json#/$defs/nope\" }\n  }\n}\n",
    );
    let run = json(&ws, &["check"]);
    assert_eq!(run.code, Some(1));
    let d = &with_code(&run, "schema::unresolved-ref")[0];
    assert_eq!(d["file"], "schemas/mini/card.schema.json");
    assert_eq!(
        (d["line"].as_u64(), d["column"].as_u64()),
        (Some(4), Some(23))
    );
    with_code(&run, "schema::type");
    let human = ws.run(["check"]);
    assert!(!human.stderr.contains("carta://") && !run.stdout.contains("carta://"));
}

#[test]
fn a_backreference_pattern_is_refused_when_the_schema_compiles() {
    let ws = mini(&card("a", "text = \"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaab\""));
    ws.write(
        "schemas/mini/card.schema.json",
        "{\n  \"type\": \"object\",\n  \"properties\": {\n    \"text\": { \"type\": \"string\", \"pattern\": \"^(a+)+\\\\1$\" },\n    \"art\": { \"type\": \"string\" }\n  }\n}\n",
    );
    let run = json(&ws, &["check"]);
    assert_eq!(run.code, Some(1), "{}", run.stdout);
    let d = &with_code(&run, "schema::pattern")[0];
    assert_eq!(d["file"], "schemas/mini/card.schema.json");
    assert_eq!(d["line"], 4);
    assert!(
        run.json()
            .iter()
            .all(|d| d["file"] != "cards/mini/cards.toml")
    );
}

// ---- Commands ----

#[test]
fn exit_2_errors_and_damaged_bundles_are_json_objects_too() {
    let ws = Workspace::empty();
    let run = ws.run(["--message-format", "json", "-C", "nowhere", "check"]);
    assert_eq!(run.code, Some(2));
    let all = run.json();
    assert_eq!(all.len(), 1, "{}", run.stdout);
    assert_eq!(all[0]["code"], "load::no-such-folder");
    assert!(run.stderr.is_empty(), "{}", run.stderr);
    ws.write("x.carta", "not a bundle at all");
    let run = ws.run(["--message-format", "json", "decompile", "x.carta"]);
    assert_eq!(run.code, Some(1));
    assert_eq!(run.json()[0]["code"], "bundle::damaged");
}

/// A deck path is read as given (from the current directory, like every
/// path on the command line), not under `-C`'s folder: named from
/// elsewhere by its full path, a deck inside the workspace is printed, and
/// its problems name it by its workspace path.
#[test]
fn print_reads_a_deck_path_as_given_wherever_the_workspace_is() {
    let ws = mini(&card("a", ""));
    ws.write(
        "cards/mini/decks/d.toml",
        "game = \"mini\"\nname = \"D\"\n\n[main]\na = 1\n",
    );
    let elsewhere = tempfile::tempdir().unwrap();
    let root = ws.path().to_str().unwrap();
    let deck = |name: &str| {
        ws.path()
            .join("cards/mini/decks")
            .join(name)
            .to_string_lossy()
            .into_owned()
    };
    let run = run_in(
        elsewhere.path(),
        ["-C", root, "print", "cards/mini/decks/d.toml"],
    );
    assert_eq!(run.code, Some(2), "not under -C: {}", run.stderr);
    run_in(elsewhere.path(), ["-C", root, "print", &deck("d.toml")]).succeeds();
    assert!(ws.path().join("build/mini/decks/d/index.html").is_file());
    ws.write(
        "cards/mini/decks/bad.toml",
        "game = \"nope\"\nname = \"D\"\n\n[main]\na = 1\n",
    );
    let bad = deck("bad.toml");
    let run = run_in(
        elsewhere.path(),
        ["--message-format", "json", "-C", root, "print", &bad],
    );
    assert_eq!(run.code, Some(1), "{}{}", run.stdout, run.stderr);
    let d = &with_code(&run, "deck::game")[0];
    assert_eq!(d["file"], "cards/mini/decks/bad.toml");
}

#[test]
fn a_deck_file_named_on_the_command_line_must_be_a_regular_file() {
    let ws = mini(&card("a", ""));
    mkfifo(&ws.path().join("fifo.toml"));
    for path in ["fifo.toml", "/dev/zero"] {
        let run = json(&ws, &["deck", "check", path]);
        assert_eq!(run.code, Some(1), "{path}: {}{}", run.stdout, run.stderr);
        with_code(&run, "load::not-a-file");
    }
}
