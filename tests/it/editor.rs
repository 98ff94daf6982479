//! `carta init` and the editor schemas, proven with the real taplo (the
//! engine of VS Code's Even Better TOML): it is run from the workspace root
//! without `--schema`, so `.taplo.toml` alone associates the files.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::harness::{Workspace, repo, run_in, test_tools};

/// taplo: `$CARTA_TAPLO`, or `taplo` on the PATH. The tests fail without it.
fn taplo() -> PathBuf {
    if let Some(p) = std::env::var_os("CARTA_TAPLO") {
        return PathBuf::from(p);
    }
    let found = std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|d| d.join("taplo"))
            .find(|p| p.is_file())
    });
    found.expect(
        "no taplo on the PATH: run scripts/install-test-deps.sh (the editor tests never skip)",
    )
}

/// Runs `taplo check FILES…` in `root`; its exit status and what it printed.
fn taplo_check(root: &Path, files: &[String]) -> (bool, String) {
    let out = Command::new(taplo())
        .arg("check")
        .args(files)
        .current_dir(root)
        .env("NO_COLOR", "1")
        .env("RUST_LOG", "error")
        .output()
        .expect("taplo runs");
    let text =
        String::from_utf8_lossy(&out.stderr).into_owned() + &String::from_utf8_lossy(&out.stdout);
    (out.status.success(), text)
}

/// Every card, deck and manifest file under `cards/`, relative to `root`.
fn toml_files(root: &Path) -> Vec<String> {
    fn walk(root: &Path, dir: &Path, out: &mut Vec<String>) {
        for e in fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(root, &p, out);
            } else if p.extension().is_some_and(|x| x == "toml") {
                let rel = p.strip_prefix(root).unwrap();
                out.push(rel.to_string_lossy().replace('\\', "/"));
            }
        }
    }
    let mut out = Vec::new();
    walk(root, &root.join("cards"), &mut out);
    out.sort();
    out
}

#[test]
fn init_makes_a_workspace_that_checks_and_builds_clean() {
    let tmp = tempfile::tempdir().unwrap();
    run_in(
        tmp.path(),
        [
            "init",
            "duel",
            "--game",
            "duel",
            "--name",
            "Duel \"of\" Mages",
        ],
    )
    .succeeds()
    .stderr_has("created game `duel`");
    let ws = tmp.path().join("duel");
    let manifest = fs::read_to_string(ws.join("cards/duel/game.toml")).unwrap();
    assert!(
        manifest.contains(r#"name = "Duel \"of\" Mages""#),
        "{manifest}"
    );
    run_in(&ws, ["check"])
        .succeeds()
        .stderr_has("checked 1 game, 6 cards: 0 errors, 0 warnings");
    run_in(&ws, ["build"]).succeeds();
    assert!(ws.join("build/duel/duel.carta").is_file());
    assert!(ws.join("build/duel/sheets/index.html").is_file());
    run_in(&ws, ["deck", "check", "cards/duel/decks/starter.toml"])
        .succeeds()
        .stderr_has("1 legal, 0 illegal");
    // Every property of the example schemas has a title and a description.
    for kind in ["hero", "spell"] {
        let text = fs::read_to_string(ws.join(format!("schemas/duel/{kind}.schema.json"))).unwrap();
        let schema: serde_json::Value = serde_json::from_str(&text).unwrap();
        for (name, prop) in schema["properties"].as_object().unwrap() {
            assert!(
                prop["title"].is_string() && prop["description"].is_string(),
                "{kind}.{name}"
            );
        }
    }
    // The editor files came with it, and taplo finds them from the root.
    let (ok, out) = taplo_check(&ws, &toml_files(&ws));
    assert!(ok, "{out}");
}

#[test]
fn init_refuses_to_overwrite_and_adds_a_game_beside_others() {
    let tmp = tempfile::tempdir().unwrap();
    run_in(tmp.path(), ["init", "--game", "first"]).succeeds();
    let again = run_in(tmp.path(), ["init", "--game", "first"]).code(2);
    assert!(
        again.stderr.contains("cards/first/game.toml") && again.stderr.contains("exist"),
        "{}",
        again.stderr
    );
    // `-C .` and the default folder `.` do not print as `././…` or `./.`.
    let second = run_in(
        tmp.path(),
        ["-C", ".", "init", "--game", "second", "--name", "Second"],
    );
    let second = second
        .succeeds()
        .stderr_has("  created schemas/carta/editor/second.cards.json\n")
        .stderr_has("created game `second` in . (next:");
    assert!(!second.stderr.contains("./"), "{}", second.stderr);
    run_in(tmp.path(), ["check"])
        .succeeds()
        .stderr_has("checked 2 games");
    let config = fs::read_to_string(tmp.path().join(".taplo.toml")).unwrap();
    assert!(
        config.contains("cards/first/**/*.toml") && config.contains("cards/second/decks/*.toml")
    );
    run_in(tmp.path(), ["init", "--game", "Not_An_Id"])
        .code(2)
        .stderr_has("not a valid game id");
}

#[test]
fn a_folder_without_a_manifest_is_a_warning_naming_the_fix() {
    let tmp = tempfile::tempdir().unwrap();
    run_in(tmp.path(), ["init", "--game", "real"]).succeeds();
    fs::create_dir_all(tmp.path().join("cards/forgotten")).unwrap();
    fs::write(tmp.path().join("cards/forgotten/cards.toml"), "").unwrap();
    run_in(tmp.path(), ["check"])
        .succeeds()
        .stderr_has("cards/forgotten")
        .stderr_has("carta init --game forgotten");
    // The fix works in place.
    fs::remove_file(tmp.path().join("cards/forgotten/cards.toml")).unwrap();
    run_in(tmp.path(), ["init", "--game", "forgotten"]).succeeds();
    run_in(tmp.path(), ["check"])
        .succeeds()
        .stderr_has("checked 2 games");
}

#[test]
fn the_shipped_editor_files_are_what_check_writes() {
    let ws = Workspace::shipped(&[]);
    fs::remove_dir_all(ws.path().join("schemas/carta/editor")).unwrap();
    ws.run(["check"]).succeeds();
    let mut names: Vec<String> = fs::read_dir(ws.path().join("schemas/carta/editor"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names.len(), 11, "{names:?}");
    for name in names {
        let rel = format!("schemas/carta/editor/{name}");
        let shipped = fs::read_to_string(repo().join(&rel))
            .unwrap_or_else(|_| panic!("{rel} is not committed: run `carta check` at the root"));
        assert!(
            ws.read(&rel) == shipped,
            "{rel} is stale: run `carta check` at the root"
        );
    }
    assert_eq!(
        ws.read(".taplo.toml"),
        fs::read_to_string(repo().join(".taplo.toml")).unwrap()
    );
}

/// A check that goes by a snapshot in which the manifest's editor schema
/// is as the last clean check left it does not derive it again; edited or
/// deleted since, it is written again, whatever else changed.
#[test]
fn the_manifest_editor_schema_edited_or_deleted_after_a_check_is_written_again() {
    let ws = Workspace::shipped(&["kingdoms"]);
    let rel = "schemas/carta/editor/manifest.json";
    ws.run(["check"]).succeeds();
    let written = ws.read(rel);
    let card_file = "cards/kingdoms/actions/sem-classe.toml";
    let cards = fs::read_to_string(ws.path().join(card_file)).unwrap();
    for (round, edit) in ["left alone", "edited", "deleted"].into_iter().enumerate() {
        match edit {
            "edited" => drop(ws.write(rel, "{}")),
            "deleted" => fs::remove_file(ws.path().join(rel)).unwrap(),
            _ => {}
        }
        // A card file changed too: the check goes on past the ledger.
        ws.write(card_file, format!("{cards}\n# round {round}\n"));
        ws.run(["check"]).succeeds();
        assert_eq!(ws.read(rel), written, "{edit}");
    }
}

#[test]
fn the_card_file_schema_follows_an_edited_kind_schema() {
    let tmp = tempfile::tempdir().unwrap();
    run_in(tmp.path(), ["init", "--game", "g"]).succeeds();
    let cards_schema = tmp.path().join("schemas/carta/editor/g.cards.json");
    let before = fs::read_to_string(&cards_schema).unwrap();
    let modified = fs::metadata(&cards_schema).unwrap().modified().unwrap();
    // Nothing changed: nothing is rewritten.
    run_in(tmp.path(), ["check"]).succeeds();
    assert_eq!(
        fs::metadata(&cards_schema).unwrap().modified().unwrap(),
        modified
    );
    let kind = tmp.path().join("schemas/g/hero.schema.json");
    let text = fs::read_to_string(&kind).unwrap().replace(
        r#""properties": {"#,
        r#""properties": {
    "speed": { "title": "Speed", "description": "How fast the hero acts.", "type": "integer" },"#,
    );
    fs::write(&kind, text).unwrap();
    run_in(tmp.path(), ["check"]).succeeds();
    let after = fs::read_to_string(&cards_schema).unwrap();
    assert!(
        !before.contains("How fast the hero acts.") && after.contains("How fast the hero acts.")
    );
    // A card using the new field now passes taplo, and one with a wrong type fails.
    let hero = tmp.path().join("cards/g/heroes.toml");
    let cards = fs::read_to_string(&hero).unwrap();
    fs::write(
        &hero,
        cards.replacen("health = 20", "health = 20\nspeed = 3", 1),
    )
    .unwrap();
    let files = vec!["cards/g/heroes.toml".to_owned()];
    let (ok, out) = taplo_check(tmp.path(), &files);
    assert!(ok, "{out}");
    fs::write(
        &hero,
        cards.replacen("health = 20", "health = 20\nspeed = \"fast\"", 1),
    )
    .unwrap();
    let (ok, out) = taplo_check(tmp.path(), &files);
    assert!(!ok && out.contains("heroes.toml:9:"), "{out}");
}

#[test]
fn taplo_accepts_every_shipped_card_deck_and_manifest() {
    let files = toml_files(&repo());
    assert!(files.len() > 50, "{files:?}");
    let (ok, out) = taplo_check(&repo(), &files);
    assert!(ok, "taplo rejects shipped files:\n{out}");
}

/// Writes `text` at `rel` in a copy of the shipped workspace, then asserts
/// that carta and taplo both reject it, at the same line.
fn both_reject(rel: &str, text: &str, code: &str) {
    let ws = Workspace::shipped(&["intrepidos"]);
    fs::copy(repo().join(".taplo.toml"), ws.path().join(".taplo.toml")).unwrap();
    ws.write(rel, text);
    let run = ws
        .run(["--message-format", "json", "check", "intrepidos"])
        .fails();
    let diags = run.json();
    let found = diags
        .iter()
        .find(|d| d["code"] == code && d["file"] == rel)
        .unwrap_or_else(|| panic!("carta reports no {code} in {rel}: {diags:#?}"));
    let line = found["line"].as_u64().unwrap();
    let (ok, out) = taplo_check(ws.path(), &[rel.to_owned()]);
    assert!(!ok, "taplo accepts the broken {rel}:\n{text}");
    assert!(
        out.contains(&format!("{rel}:{line}:")),
        "taplo does not report line {line} of {rel} (carta's {code}):\n{out}"
    );
}

const POTION: &str = "[[card]]\nid = \"pocao-forte\"\nkind = \"potion\"\nname = \"Poção Forte\"\nclass = \"cura\"\nmin_level = 1\neffect = \"Cura 30 pontos de vida.\"\n";

#[test]
fn taplo_and_carta_reject_a_wrong_type_at_the_same_line() {
    both_reject(
        "cards/intrepidos/itens/novas.toml",
        &POTION.replace("min_level = 1", "min_level = \"um\""),
        "schema::type",
    );
}

#[test]
fn taplo_and_carta_reject_an_unknown_field_at_the_same_line() {
    both_reject(
        "cards/intrepidos/itens/novas.toml",
        &POTION.replace("effect = ", "effect = \"x\"\nefect = "),
        "schema::unknown-field",
    );
}

#[test]
fn taplo_and_carta_reject_an_unknown_kind_at_the_same_line() {
    both_reject(
        "cards/intrepidos/itens/novas.toml",
        &POTION.replace("kind = \"potion\"", "kind = \"potoin\""),
        "card::unknown-kind",
    );
}

#[test]
fn taplo_and_carta_reject_a_value_outside_an_enum_at_the_same_line() {
    both_reject(
        "cards/intrepidos/itens/novas.toml",
        &POTION.replace("class = \"cura\"", "class = \"cureta\""),
        "schema::enum",
    );
}

#[test]
fn taplo_and_carta_reject_an_unknown_card_in_a_deck_at_the_same_line() {
    let deck = fs::read_to_string(repo().join("cards/intrepidos/decks/furia-de-aries.toml"))
        .unwrap()
        .replacen("rei-frixo", "rei-frixxo", 1);
    both_reject(
        "cards/intrepidos/decks/furia-de-aries.toml",
        &deck,
        "deck::unknown-card",
    );
}

#[test]
fn taplo_and_carta_reject_a_wrong_type_in_a_deck_rule_of_the_manifest_at_the_same_line() {
    let manifest = fs::read_to_string(repo().join("cards/intrepidos/game.toml"))
        .unwrap()
        .replacen(
            "size = { exact = 60 }",
            "size = { exact = \"sessenta\" }",
            1,
        );
    assert!(manifest.contains("sessenta"));
    both_reject("cards/intrepidos/game.toml", &manifest, "schema::type");
}

/// Writes `text` at `rel` in a copy of the shipped workspace and runs
/// taplo on it: the `error:` reports, each with its message line.
fn taplo_errors(rel: &str, text: &str) -> Vec<String> {
    let ws = Workspace::shipped(&["intrepidos"]);
    fs::copy(repo().join(".taplo.toml"), ws.path().join(".taplo.toml")).unwrap();
    ws.write(rel, text);
    let (ok, out) = taplo_check(ws.path(), &[rel.to_owned()]);
    assert!(!ok, "taplo accepts the broken {rel}");
    out.lines()
        .filter(|l| l.starts_with("error:"))
        .map(str::to_owned)
        .collect()
}

/// `rel` of the shipped workspace with its first `from` replaced by `to`.
fn edited(rel: &str, from: &str, to: &str) -> String {
    let text = fs::read_to_string(repo().join(rel)).unwrap();
    assert!(text.contains(from), "{from} is not in {rel}");
    text.replacen(from, to, 1)
}

#[test]
fn one_unknown_field_is_one_taplo_error_in_a_card_a_deck_and_a_manifest() {
    // A misspelt field of an intrépido (taplo's bug #515 made it 128 errors).
    let card = "cards/intrepidos/intrepidos/agua.toml";
    let errors = taplo_errors(card, &edited(card, "\nsign = ", "\nsingn = \"x\"\nsign = "));
    assert_eq!(errors.len(), 1, "{errors:#?}");
    assert!(errors[0].contains("no such key here"), "{errors:#?}");
    // An unknown card in a deck zone.
    let deck = "cards/intrepidos/decks/furia-de-aries.toml";
    let errors = taplo_errors(deck, &edited(deck, "rei-frixo", "rei-frixxo"));
    assert_eq!(errors.len(), 1, "{errors:#?}");
    assert!(
        errors[0].contains("not a card of a kind the zone"),
        "{errors:#?}"
    );
    // A misspelt key of a deck rule in game.toml.
    let manifest = "cards/intrepidos/game.toml";
    let errors = taplo_errors(
        manifest,
        &edited(manifest, "\nzone = \"main\"", "\nzonee = \"main\""),
    );
    assert_eq!(errors.len(), 1, "{errors:#?}");
}

#[test]
fn a_wrong_value_in_a_manifest_rule_is_named_not_lost_in_an_any_of() {
    let manifest = "cards/intrepidos/game.toml";
    let errors = taplo_errors(
        manifest,
        &edited(
            manifest,
            "size = { exact = 60 }",
            "size = { exact = \"sessenta\" }",
        ),
    );
    assert_eq!(errors.len(), 1, "{errors:#?}");
    assert!(
        errors[0].contains("\"sessenta\" is not of type \"integer\""),
        "{errors:#?}"
    );
    // A documented choice lists every allowed value, not one branch's.
    let errors = taplo_errors(
        manifest,
        &edited(
            manifest,
            "orientation = \"portrait\"",
            "orientation = \"retrato\"",
        ),
    );
    assert_eq!(errors.len(), 1, "{errors:#?}");
    assert!(
        errors[0].contains("\"retrato\" is not one of [\"portrait\",\"landscape\"]"),
        "{errors:#?}"
    );
}

#[test]
fn a_dangling_reference_is_one_taplo_error_naming_the_valid_ids() {
    let card = "cards/intrepidos/intrepidos/agua.toml";
    let errors = taplo_errors(
        card,
        &edited(
            card,
            "astral_allies = [\"antares\", \"eros\"]",
            "astral_allies = [\"antares\", \"eross\"]",
        ),
    );
    assert_eq!(errors.len(), 1, "{errors:#?}");
    assert!(
        errors[0].contains("\"eross\" is not one of") && errors[0].contains("\"eros\""),
        "{errors:#?}"
    );
    // The schema documents each id with the card's name.
    let schema: serde_json::Value = serde_json::from_str(
        &fs::read_to_string(repo().join("schemas/carta/editor/intrepidos.cards.json")).unwrap(),
    )
    .unwrap();
    let text = schema.to_string();
    assert!(text.contains("\"enumValues\":[") && text.contains("\"Carcino\""));
}

/// A taplo that serves the language server: `$CARTA_TAPLO_LSP`, or the one
/// `scripts/install-test-deps.sh` builds into the test tools' folder
/// (`harness::test_tools`; `PyPI`'s and npm's taplo leave the server out).
/// The test fails without it.
fn taplo_lsp() -> PathBuf {
    let path = std::env::var_os("CARTA_TAPLO_LSP")
        .map_or_else(|| test_tools().join("bin/taplo"), PathBuf::from);
    assert!(
        path.is_file(),
        "no taplo with its language server at {}: run scripts/install-test-deps.sh (the editor tests never skip)",
        path.display()
    );
    path
}

/// A language-server session with `taplo lsp stdio` over JSON-RPC, as an
/// editor holds one; its messages are read on a thread, so a silent
/// server fails the test instead of hanging it.
struct Lsp {
    child: std::process::Child,
    stdin: std::process::ChildStdin,
    messages: std::sync::mpsc::Receiver<serde_json::Value>,
    next: u64,
}

/// How long the server may take to answer.
const LSP_WAIT: std::time::Duration = std::time::Duration::from_secs(30);

impl Lsp {
    /// Starts the server on the workspace at `root` and initializes it.
    fn start(root: &Path) -> Lsp {
        use std::io::{BufRead, Read};
        let mut child = Command::new(taplo_lsp())
            .args(["lsp", "stdio"])
            .current_dir(root)
            .env("RUST_LOG", "error")
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("taplo lsp starts");
        let stdin = child.stdin.take().unwrap();
        let mut out = std::io::BufReader::new(child.stdout.take().unwrap());
        let (tx, messages) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            loop {
                let mut length = 0;
                let mut line = String::new();
                // Headers, up to the empty line.
                loop {
                    line.clear();
                    if out.read_line(&mut line).unwrap_or(0) == 0 {
                        return;
                    }
                    let line = line.trim_end();
                    if line.is_empty() {
                        break;
                    }
                    if let Some(n) = line.strip_prefix("Content-Length: ") {
                        length = n.parse().unwrap();
                    }
                }
                let mut body = vec![0; length];
                if out.read_exact(&mut body).is_err() {
                    return;
                }
                let message = serde_json::from_slice(&body).expect("the server sends JSON");
                if tx.send(message).is_err() {
                    return;
                }
            }
        });
        let mut lsp = Lsp {
            child,
            stdin,
            messages,
            next: 0,
        };
        let uri = format!("file://{}", root.display());
        let capabilities = serde_json::json!({
            "textDocument": {
                "hover": { "contentFormat": ["markdown", "plaintext"] },
                "completion": { "completionItem": { "documentationFormat": ["markdown", "plaintext"] } }
            },
            "workspace": { "configuration": true, "workspaceFolders": true }
        });
        lsp.request(
            "initialize",
            &serde_json::json!({
                "processId": null,
                "rootUri": uri,
                "capabilities": capabilities,
                "workspaceFolders": [{ "uri": uri, "name": "workspace" }]
            }),
        );
        lsp.notify("initialized", &serde_json::json!({}));
        lsp
    }

    fn send(&mut self, message: &serde_json::Value) {
        use std::io::Write;
        let body = message.to_string();
        write!(self.stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).unwrap();
        self.stdin.flush().unwrap();
    }

    fn notify(&mut self, method: &str, params: &serde_json::Value) {
        let message = serde_json::json!({ "jsonrpc": "2.0", "method": method, "params": params });
        self.send(&message);
    }

    /// Sends a request and returns its result; the server's own requests
    /// meanwhile (its configuration, capability registrations) are answered
    /// as a client without settings answers them.
    fn request(&mut self, method: &str, params: &serde_json::Value) -> serde_json::Value {
        self.next += 1;
        let id = self.next;
        let message =
            serde_json::json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params });
        self.send(&message);
        loop {
            let message = self
                .messages
                .recv_timeout(LSP_WAIT)
                .unwrap_or_else(|_| panic!("taplo lsp did not answer {method}"));
            match (message.get("id"), message.get("method")) {
                (Some(theirs), Some(asked)) => {
                    let result = if asked == "workspace/configuration" {
                        let n = message["params"]["items"].as_array().map_or(0, Vec::len);
                        serde_json::Value::Array(vec![serde_json::Value::Null; n])
                    } else {
                        serde_json::Value::Null
                    };
                    let reply =
                        serde_json::json!({ "jsonrpc": "2.0", "id": theirs, "result": result });
                    self.send(&reply);
                }
                (Some(ours), None) if ours == id => {
                    assert!(message.get("error").is_none(), "{method}: {message}");
                    return message["result"].clone();
                }
                _ => {}
            }
        }
    }

    /// Opens the document `rel` of the workspace `root` with `text`.
    fn open(&mut self, root: &Path, rel: &str, text: &str) -> String {
        let uri = format!("file://{}/{rel}", root.display());
        let document =
            serde_json::json!({ "uri": uri, "languageId": "toml", "version": 1, "text": text });
        self.notify(
            "textDocument/didOpen",
            &serde_json::json!({ "textDocument": document }),
        );
        uri
    }

    /// `method` at `line`:`character` of `uri`, asked until it has an
    /// answer: the server associates the schema a moment after the open.
    fn at(&mut self, method: &str, uri: &str, line: usize, character: usize) -> serde_json::Value {
        let params = serde_json::json!({
            "textDocument": { "uri": uri },
            "position": { "line": line, "character": character }
        });
        let start = std::time::Instant::now();
        loop {
            let result = self.request(method, &params);
            let empty = result.is_null()
                || result.as_array().is_some_and(Vec::is_empty)
                || result["items"].as_array().is_some_and(Vec::is_empty);
            if !empty || start.elapsed() > LSP_WAIT {
                return result;
            }
            std::thread::sleep(std::time::Duration::from_millis(200));
        }
    }
}

impl Drop for Lsp {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The labels of a completion answer (a list, or a list in `items`).
fn labels(result: &serde_json::Value) -> Vec<String> {
    let items = result
        .as_array()
        .or_else(|| result["items"].as_array())
        .cloned()
        .unwrap_or_default();
    items
        .iter()
        .filter_map(|i| i["label"].as_str())
        .map(|l| l.trim_matches('"').to_owned())
        .collect()
}

#[test]
fn an_editor_session_hovers_and_completes_cards_decks_and_references() {
    // What a new user has: `carta init`'s game, whose spells name a hero.
    let tmp = tempfile::tempdir().unwrap();
    run_in(tmp.path(), ["init", "--game", "duel", "--name", "Duel"]).succeeds();
    let root = tmp.path();
    let mut lsp = Lsp::start(root);

    // Hover on a field's value: its title and description.
    let spells = "cards/duel/spells.toml";
    let text = fs::read_to_string(root.join(spells)).unwrap();
    let uri = lsp.open(root, spells, &text);
    let line = text
        .lines()
        .position(|l| l.starts_with("effect = "))
        .unwrap();
    let hover = lsp.at("textDocument/hover", &uri, line, 12).to_string();
    assert!(
        hover.contains("**Effect**") && hover.contains("What the spell does when cast."),
        "{hover}"
    );
    // Hover on a reference: the name of the card it names.
    let line = text.lines().position(|l| l == "hero = \"ember\"").unwrap();
    let hover = lsp.at("textDocument/hover", &uri, line, 10).to_string();
    assert!(hover.contains("\"value\":\"Ember\""), "{hover}");

    // Completion inside `kind = "`: the game's kinds.
    let new = "[[card]]\nid = \"nova\"\nname = \"Nova\"\nkind = \"\"\n";
    let uri = lsp.open(root, "cards/duel/novas.toml", new);
    assert_eq!(
        labels(&lsp.at("textDocument/completion", &uri, 3, 8)),
        ["hero", "spell"]
    );

    // Completion of a reference: the ids of the heroes.
    let new = "[[card]]\nid = \"nova\"\nname = \"Nova\"\nkind = \"spell\"\nhero = \"\"\n";
    let uri = lsp.open(root, "cards/duel/novos.toml", new);
    assert_eq!(
        labels(&lsp.at("textDocument/completion", &uri, 4, 8)),
        ["ember", "tide"]
    );

    // Completion in a deck zone: the ids of the cards the zone takes.
    let deck = "game = \"duel\"\nname = \"Nova\"\n\n[main]\n\n";
    let uri = lsp.open(root, "cards/duel/decks/nova.toml", deck);
    let ids = labels(&lsp.at("textDocument/completion", &uri, 4, 0));
    assert!(ids.iter().any(|i| i == "fireball"), "{ids:?}");
    assert!(
        !ids.iter().any(|i| i == "ember"),
        "a hero is not a spell: {ids:?}"
    );
}
