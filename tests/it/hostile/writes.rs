//! Writes and deletes stay inside the folder carta owns: a committed symlink, FIFO or device where carta would write is an error naming it, and a victim folder outside is byte-identical afterwards.

use std::fs;
use std::os::unix::fs::symlink;
use std::path::Path;

use super::{SECRET, json, mkfifo, outside, with_code};
use crate::harness::{Run, Workspace};
use crate::sheets::{card, mini};

/// Every entry of a folder tree: its path, what it is, and a file's bytes
/// or a link's target.
type Snapshot = Vec<(String, &'static str, Vec<u8>)>;

/// The entries under `dir`, links not followed.
fn snapshot(dir: &Path) -> Snapshot {
    fn walk(dir: &Path, base: &Path, out: &mut Snapshot) {
        for entry in fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let rel = path.strip_prefix(base).unwrap().display().to_string();
            let meta = fs::symlink_metadata(&path).unwrap();
            if meta.is_symlink() {
                let target = fs::read_link(&path).unwrap();
                out.push((rel, "link", target.into_os_string().into_encoded_bytes()));
            } else if meta.is_dir() {
                out.push((rel, "folder", Vec::new()));
                walk(&path, base, out);
            } else if meta.is_file() {
                out.push((rel, "file", fs::read(&path).unwrap()));
            } else {
                out.push((rel, "other", Vec::new()));
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, dir, &mut out);
    out.sort();
    out
}

/// A folder outside every workspace with files and a `sheets/` folder of
/// its own (what a build's swap would replace), and its snapshot.
fn victim() -> (tempfile::TempDir, Snapshot) {
    let dir = outside();
    fs::create_dir_all(dir.path().join("sheets/img")).unwrap();
    fs::write(dir.path().join("sheets/index.html"), SECRET).unwrap();
    fs::write(dir.path().join("0123456789abcdef"), SECRET).unwrap();
    let before = snapshot(dir.path());
    (dir, before)
}

/// Replaces `rel` in the workspace (whatever is there) by a link to `to`.
fn link(ws: &Workspace, rel: &str, to: &Path) {
    let path = ws.path().join(rel);
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    if path.is_dir() && !path.is_symlink() {
        fs::remove_dir_all(&path).unwrap();
    } else {
        let _ = fs::remove_file(&path);
    }
    symlink(to, path).unwrap();
}

/// Asserts a refused run: exit 2, `code`, a message naming `rel`, a help.
#[track_caller]
fn refused(run: &Run, code: &str, rel: &str) {
    assert_eq!(run.code, Some(2), "{}{}", run.stdout, run.stderr);
    let d = &with_code(run, code)[0];
    let message = d["message"].as_str().unwrap();
    assert!(message.contains(rel), "{d}");
    assert!(d["help"].as_str().is_some_and(|h| !h.is_empty()), "{d}");
}

// ---- Row 1: the check cache ----

#[test]
fn a_linked_cache_folder_is_neither_pruned_nor_written_by_check_or_build() {
    for (rel, args) in [
        ("build/.cache/mini", &["check"][..]),
        ("build/.cache/mini.all", &["build"][..]),
        ("build/.cache", &["check"][..]),
        ("build", &["check"][..]),
    ] {
        let (out, before) = victim();
        let ws = mini(&card("a", ""));
        link(&ws, rel, out.path());
        let run = json(&ws, args);
        refused(&run, "write::link", rel);
        assert_eq!(snapshot(out.path()), before, "{rel}: the victim changed");
    }
}

#[test]
fn the_human_error_names_the_link_and_says_what_to_do() {
    let (out, before) = victim();
    let ws = mini(&card("a", ""));
    link(&ws, "build/.cache/mini", out.path());
    let run = ws.run(["check"]);
    assert_eq!(run.code, Some(2), "{}", run.stderr);
    assert!(
        run.stderr.contains("build/.cache/mini` is a symbolic link"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains("help: remove the link"),
        "{}",
        run.stderr
    );
    assert_eq!(snapshot(out.path()), before);
    // Without the cache, nothing is written under `build/` and the check runs.
    json(&ws, &["check", "--no-cache"]).code(0);
    assert_eq!(snapshot(out.path()), before);
}

#[test]
fn prune_deletes_only_cache_entries_and_never_follows_a_link_among_them() {
    let (out, before) = victim();
    let ws = mini(&card("a", ""));
    ws.run(["check"]).succeeds();
    let cache = ws.path().join("build/.cache/mini");
    ws.write("build/.cache/mini/notes.txt", "mine");
    symlink(
        out.path().join("0123456789abcdef"),
        cache.join("fedcba9876543210"),
    )
    .unwrap();
    ws.write("cards/mini/cards.toml", card("b", ""));
    ws.run(["check"]).succeeds();
    assert_eq!(ws.read("build/.cache/mini/notes.txt"), "mine");
    assert!(cache.join("fedcba9876543210").is_symlink());
    assert_eq!(snapshot(out.path()), before);
}

// ---- Row 2: translation files and their temporary files ----

/// The shipped game with a translated string edited in a PO file, ready
/// for `i18n import intrepidos en.po`.
fn translated() -> Workspace {
    let ws = Workspace::shipped(&["intrepidos"]);
    let po = crate::i18n::export_po(&ws, "intrepidos", "en");
    ws.write(
        "en.po",
        po.replacen("msgstr \"Siege\"", "msgstr \"Besieged\"", 1),
    );
    ws
}

#[test]
fn an_old_temporary_name_linked_outside_is_never_written_and_the_file_stays_a_file() {
    let (out, before) = victim();
    let ws = translated();
    let tmp = "cards/intrepidos/i18n/en.toml.tmp";
    link(&ws, tmp, &out.path().join("secret.txt"));
    ws.run(["i18n", "import", "intrepidos", "en.po"])
        .succeeds()
        .stderr_has("imported 1 change");
    let en = ws.path().join("cards/intrepidos/i18n/en.toml");
    assert!(!en.is_symlink() && en.is_file());
    assert!(
        ws.read("cards/intrepidos/i18n/en.toml")
            .contains("Besieged")
    );
    assert!(ws.path().join(tmp).is_symlink(), "left alone");
    assert_eq!(snapshot(out.path()), before);
}

#[test]
fn a_fifo_where_a_temporary_file_went_does_not_hang_the_import() {
    let ws = translated();
    mkfifo(&ws.path().join("cards/intrepidos/i18n/en.toml.tmp"));
    // The harness kills a run that hangs and fails the test.
    ws.run(["i18n", "import", "intrepidos", "en.po"])
        .succeeds()
        .stderr_has("imported 1 change");
    assert!(
        ws.read("cards/intrepidos/i18n/en.toml")
            .contains("Besieged")
    );
}

#[test]
fn a_translation_file_or_folder_that_is_a_link_is_not_written_through() {
    // A link to a file inside the workspace is read, but not replaced.
    let ws = translated();
    fs::rename(
        ws.path().join("cards/intrepidos/i18n/en.toml"),
        ws.path().join("en.toml"),
    )
    .unwrap();
    let real = ws.path().join("en.toml");
    link(&ws, "cards/intrepidos/i18n/en.toml", &real);
    let kept = ws.read("en.toml");
    let run = json(&ws, &["i18n", "import", "intrepidos", "en.po"]);
    refused(&run, "write::link", "cards/intrepidos/i18n/en.toml");
    assert_eq!(ws.read("en.toml"), kept);

    // A translation folder that leads outside is not read, nor written.
    let (out, before) = victim();
    let ws = translated();
    fs::remove_dir_all(ws.path().join("cards/intrepidos/i18n")).unwrap();
    link(&ws, "cards/intrepidos/i18n", out.path());
    let run = json(
        &ws,
        &["i18n", "import", "intrepidos", "en.po", "--lang", "en"],
    );
    assert!(matches!(run.code, Some(1 | 2)), "{}", run.stdout);
    assert_eq!(snapshot(out.path()), before);
}

// ---- Row 3: the output folder ----

#[test]
fn a_linked_game_output_folder_is_neither_written_nor_swapped() {
    for (rel, args, file) in [
        ("build/mini", &["build"][..], false),
        ("build/mini", &["print", "mini"][..], false),
        ("build/mini/sheets", &["build", "--no-cache"][..], false),
        ("build/mini/mini.carta", &["build", "--no-cache"][..], true),
    ] {
        let (out, before) = victim();
        let ws = mini(&card("a", ""));
        let to = if file {
            out.path().join("secret.txt")
        } else {
            out.path().to_path_buf()
        };
        link(&ws, rel, &to);
        let run = json(&ws, args);
        refused(&run, "write::link", rel);
        assert_eq!(snapshot(out.path()), before, "{rel} {args:?}");
        let left: Vec<_> = fs::read_dir(ws.path().join("build"))
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .filter(|n| n.starts_with(".stage-"))
            .collect();
        assert!(left.is_empty(), "the stage is removed: {left:?}");
    }
}

#[test]
fn a_fifo_where_an_output_goes_is_refused_without_hanging() {
    let ws = mini(&card("a", ""));
    mkfifo(&ws.path().join("build/mini/mini.carta"));
    let run = json(&ws, &["build"]);
    refused(&run, "write::not-a-file", "build/mini/mini.carta");
    assert!(
        !ws.path().join("build/mini/sheets").exists(),
        "no unit moved"
    );
}

#[test]
fn an_out_folder_linked_inside_the_workspace_is_refused_and_one_named_outside_is_used() {
    let (out, before) = victim();
    let ws = mini(&card("a", ""));
    link(&ws, "out2", out.path());
    let run = json(&ws, &["build", "--out", "out2"]);
    refused(&run, "write::link", "out2");
    assert_eq!(snapshot(out.path()), before);

    // Named on the command line, even through the user's own link, it is
    // used as given ...
    let mine = tempfile::tempdir().unwrap();
    let alias = tempfile::tempdir().unwrap();
    symlink(mine.path(), alias.path().join("mine")).unwrap();
    let named = alias.path().join("mine");
    json(&ws, &["build", "--out", named.to_str().unwrap()]).code(0);
    assert!(mine.path().join("mini/mini.carta").is_file());
    assert!(mine.path().join("mini/sheets/index.html").is_file());
    // ... but never through a link found inside it.
    fs::remove_dir_all(mine.path().join("mini")).unwrap();
    symlink(out.path(), mine.path().join("mini")).unwrap();
    let run = json(&ws, &["build", "--out", named.to_str().unwrap()]);
    assert_eq!(run.code, Some(2), "{}", run.stdout);
    with_code(&run, "write::link");
    assert_eq!(snapshot(out.path()), before);
}

#[test]
fn init_writes_nothing_through_a_linked_cards_folder() {
    for rel in ["cards", "schemas", "cards/my-game"] {
        let (out, before) = victim();
        let ws = Workspace::empty();
        fs::remove_dir(ws.path().join("cards")).unwrap();
        link(&ws, rel, out.path());
        let run = json(&ws, &["init", "--game", "my-game"]);
        refused(&run, "write::link", rel);
        assert_eq!(snapshot(out.path()), before, "{rel}");
        assert!(
            !ws.path().join("templates").exists(),
            "{rel}: nothing is written before the refusal"
        );
    }
}

// ---- Row 4 and 8: editor schemas and `.taplo.toml` ----

#[test]
fn a_linked_editor_folder_is_not_written_even_without_the_cache() {
    for link_to_root in [false, true] {
        let (out, before) = victim();
        let ws = mini(&card("a", ""));
        let to = if link_to_root {
            Path::new("/")
        } else {
            out.path()
        };
        link(&ws, "schemas/carta/editor", to);
        let run = json(&ws, &["check", "--no-cache"]);
        refused(&run, "write::link", "schemas/carta/editor");
        assert_eq!(snapshot(out.path()), before);
        assert!(!Path::new("/manifest.json").exists());
    }
}

#[test]
fn editor_files_that_are_fifos_or_devices_are_refused_without_hanging() {
    for (rel, fifo) in [
        (".taplo.toml", true),
        ("schemas/carta/editor/mini.cards.json", true),
        ("schemas/carta/editor/manifest.json", true),
        (".taplo.toml", false),
        ("schemas/carta/editor/mini.deck.json", false),
    ] {
        let ws = mini(&card("a", ""));
        let code = if fifo {
            mkfifo(&ws.path().join(rel));
            "write::not-a-file"
        } else {
            link(&ws, rel, Path::new("/dev/zero"));
            "write::link"
        };
        // The harness kills a run that hangs and fails the test.
        let run = json(&ws, &["check", "--no-cache"]);
        refused(&run, code, rel);
    }
}

#[test]
fn a_users_taplo_config_and_regular_editor_files_still_work() {
    let ws = mini(&card("a", ""));
    ws.write(".taplo.toml", "# mine\n");
    let run = json(&ws, &["check"]).code(0);
    with_code(&run, "editor::config");
    assert_eq!(ws.read(".taplo.toml"), "# mine\n");
    assert!(
        ws.read("schemas/carta/editor/mini.cards.json")
            .contains("key ")
    );
}

/// `watch` compiles each round once, every field kept, through the build's
/// cache folder (`<game>.all`): a link there is refused as the check's is.
#[test]
fn watch_refuses_a_linked_cache_folder_too() {
    use std::io::{BufRead, BufReader};
    let (out, before) = victim();
    let ws = mini(&card("a", ""));
    link(&ws, "build/.cache/mini.all", out.path());
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_carta"))
        .arg("watch")
        .current_dir(ws.path())
        .env("NO_COLOR", "1")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut child = crate::watch::Killed(child);
    let stderr = child.0.stderr.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines() {
            if tx.send(line.unwrap_or_default()).is_err() {
                break;
            }
        }
    });
    let deadline = std::time::Instant::now() + std::time::Duration::from_mins(1);
    let mut seen = String::new();
    while !seen.contains("is a symbolic link") {
        let left = deadline.saturating_duration_since(std::time::Instant::now());
        let line = rx
            .recv_timeout(left)
            .unwrap_or_else(|e| panic!("watch never refused the link ({e}):\n{seen}"));
        seen.push_str(&line);
    }
    assert!(seen.contains("build/.cache/mini.all"), "{seen}");
    drop(child);
    assert_eq!(snapshot(out.path()), before);
}

// ---- Round 4: CSV cells that a spreadsheet would run ----

#[test]
fn csv_written_by_convert_runs_no_formula_and_converts_back_to_the_same_cards() {
    let tmp = tempfile::tempdir().unwrap();
    crate::harness::run_in(tmp.path(), ["init", "live", "--name", "Live"]).succeeds();
    let root = tmp.path().join("live");
    let spells = root.join("cards/live/spells.toml");
    let hostile = [
        r#"=HYPERLINK(\"http://127.0.0.1:9/x\", \"click\")"#,
        r"+cmd|' /C calc'!A0",
        "@SUM(1+1)&cmd|' /C calc'!A0",
        "-2+3+cmd|' /C calc'!A0",
        r"\t=1+1",
        r"\r=1+1",
        "'=already quoted",
    ];
    let mut text = fs::read_to_string(&spells).unwrap();
    for (n, effect) in hostile.iter().enumerate() {
        text.push_str(&format!(
            "\n[[card]]\nid = \"f{n}\"\nkind = \"spell\"\nname = \"F{n}\"\ncost = 1\nelement = \"fire\"\neffect = \"{effect}\"\n"
        ));
    }
    fs::write(&spells, &text).unwrap();
    let run = crate::harness::run_in(&root, ["check"]);
    run.succeeds();
    let before = crate::spreadsheets::game_cards(&root, "live");

    crate::harness::run_in(&root, ["convert", "cards/live", "--to", "csv"]).succeeds();
    let csv = fs::read(root.join("live.csv")).unwrap();
    let mut cells = 0;
    for record in csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(&csv[..])
        .records()
    {
        for cell in &record.unwrap() {
            cells += 1;
            let is_number = cell.parse::<f64>().is_ok_and(f64::is_finite);
            assert!(
                is_number || !cell.starts_with(['=', '+', '-', '@', '\t', '\r']),
                "a spreadsheet would run {cell:?}"
            );
        }
    }
    assert!(cells > 50, "{cells} cells");

    // The CSV in place of the TOML files: the same cards, there and back.
    for file in ["spells.toml", "heroes.toml"] {
        fs::remove_file(root.join("cards/live").join(file)).unwrap();
    }
    fs::write(root.join("cards/live/cards.csv"), &csv).unwrap();
    crate::harness::run_in(&root, ["check"]).succeeds();
    crate::harness::run_in(&root, ["convert", "cards/live/cards.csv", "--to", "toml"]).succeeds();
    let back = crate::spreadsheets::cards_of(
        &fs::read_to_string(root.join("cards/live/cards.toml")).unwrap(),
    );
    assert_eq!(back, before);
}
