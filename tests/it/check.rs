//! `carta check` on the shipped games and on workspaces built in the test.

use crate::harness::{Workspace, repo, run_in};

#[test]
fn the_shipped_games_check_clean() {
    run_in(&repo(), ["check"])
        .succeeds()
        .stderr_has("checked 5 games");
}

#[test]
fn a_missing_workspace_is_a_usage_error() {
    let ws = Workspace::empty();
    let run = ws.run(["-C", "nowhere", "check"]).code(2);
    let run = run
        .stderr_has("no such folder `nowhere`")
        .stderr_has("carta init DIR");
    assert!(!run.stderr.contains("cards/"), "{}", run.stderr);
    ws.write("a-file", "");
    ws.run(["-C", "a-file", "check"])
        .code(2)
        .stderr_has("no such folder `a-file`");
    let json = ws.run(["--message-format", "json", "-C", "nowhere", "build"]);
    assert_eq!(json.code(2).json()[0]["code"], "load::no-such-folder");
    // A folder that is there but holds no `cards/` is not a workspace.
    ws.write("elsewhere/notes.txt", "");
    ws.run(["-C", "elsewhere", "check"])
        .code(2)
        .stderr_has("`elsewhere` is not a carta workspace: it has no `cards/` folder");
}

#[test]
fn an_unknown_game_is_a_usage_error_with_a_suggestion() {
    Workspace::shipped(&["intrepidos"])
        .run(["check", "intrepido"])
        .code(2)
        .stderr_has("did you mean `intrepidos`?");
}

#[test]
fn bad_arguments_exit_2() {
    Workspace::empty().run(["check", "--no-such-flag"]).code(2);
    Workspace::empty()
        .run(["--message-format", "xml", "check"])
        .code(2);
}

#[test]
fn json_diagnostics_are_one_object_per_line_on_stdout() {
    let ws = Workspace::shipped(&["intrepidos"]);
    ws.write(
        "cards/intrepidos/extra.toml",
        "[[card]]\nid = \"x\"\nkind = \"potion\"\nname = \"X\"\nclass = 3\n",
    );
    let run = ws.run(["--message-format", "json", "check"]).fails();
    let diags = run.json();
    assert!(!diags.is_empty());
    let first = &diags[0];
    assert_eq!(first["file"], "cards/intrepidos/extra.toml");
    assert_eq!(first["severity"], "error");
    assert!(
        run.stderr.is_empty(),
        "JSON mode prints nothing on stderr: {}",
        run.stderr
    );
}

#[test]
fn quiet_hides_warnings_and_the_summary() {
    let ws = Workspace::shipped(&["intrepidos"]);
    ws.write("cards/intrepidos/empty.toml", "# nothing yet\n");
    let loud = ws.run(["check"]).succeeds();
    assert!(loud.stderr.contains("card::empty-file"));
    let quiet = ws.run(["-q", "check"]).succeeds();
    assert!(quiet.stdout.is_empty());
    assert_eq!(quiet.stderr, "");
}

#[test]
fn every_error_of_every_file_is_reported_in_one_run() {
    let ws = Workspace::shipped(&["intrepidos"]);
    ws.write(
        "cards/intrepidos/a.toml",
        "[[card]]\nid = \"a\"\nkind = \"potion\"\nname = \"A\"\nclass = 3\n",
    );
    ws.write(
        "cards/intrepidos/b.toml",
        "[[card]]\nid = \"b\"\nkind = \"potion\"\nname = \"B\"\nmin_level = \"x\"\n",
    );
    let run = ws.run(["--message-format", "json", "check"]).fails();
    let files: Vec<_> = run
        .json()
        .iter()
        .map(|d| d["file"].as_str().unwrap().to_owned())
        .collect();
    assert!(
        files.iter().any(|f| f.ends_with("a.toml")) && files.iter().any(|f| f.ends_with("b.toml")),
        "{files:?}"
    );
    let mut sorted = files.clone();
    sorted.sort();
    assert_eq!(files, sorted, "diagnostics are sorted by file");
}

#[test]
fn a_second_check_reuses_unchanged_files_and_never_trusts_a_changed_one() {
    let ws = Workspace::shipped(&["intrepidos"]);
    let first = ws.run(["check"]).succeeds();
    assert!(!first.stderr.contains("unchanged"), "{}", first.stderr);
    ws.run(["check"])
        .succeeds()
        .stderr_has("(13 unchanged card files taken from the last check)");
    // An edit that breaks a card is seen, whatever the cache holds.
    let path = "cards/intrepidos/itens/pocoes.toml";
    ws.write(
        path,
        ws.read(path).replace("min_level = 1", "min_level = 9"),
    );
    let run = ws.run(["--message-format", "json", "check"]).fails();
    assert!(
        run.json()
            .iter()
            .any(|d| d["code"] == "schema::range" && d["file"] == path)
    );
    ws.run(["check"])
        .fails()
        .stderr_has("(12 unchanged card files taken from the last check)");
}

/// Replaces the first `from` in workspace file `path` with `to`, which
/// must be there.
fn replace_once(ws: &Workspace, path: &str, from: &str, to: &str) {
    let text = ws.read(path);
    assert!(text.contains(from), "{from}");
    ws.write(path, text.replacen(from, to, 1));
}

/// Sets a file's modification time to `secs` seconds after the epoch.
fn stamp_at(path: &std::path::Path, secs: u64) {
    let file = std::fs::File::options().write(true).open(path).unwrap();
    let when = std::time::UNIX_EPOCH + std::time::Duration::from_secs(secs);
    file.set_modified(when).unwrap();
}

#[test]
fn a_file_edited_with_its_modification_time_set_back_is_read_again() {
    let ws = Workspace::shipped(&["intrepidos"]);
    let path = ws.path().join("cards/intrepidos/itens/pocoes.toml");
    stamp_at(&path, 1_700_000_000);
    ws.run(["check"]).succeeds();
    ws.run(["check"]).succeeds().stderr_has("(13 unchanged");
    // The same size, modification time and inode: the change time moved
    // (no tool sets it back), so the file is read and the break found.
    let text = std::fs::read_to_string(&path).unwrap();
    let broken = text.replacen("min_level = 1", "min_level = 9", 1);
    assert_eq!(broken.len(), text.len());
    std::fs::write(&path, &broken).unwrap();
    stamp_at(&path, 1_700_000_000);
    ws.run(["check"]).fails().stderr_has("(12 unchanged");
}

/// `carta check` through its cache with `CARTA_LOG=debug`: whether the
/// game's record repeated its verdict, and the run.
fn recalled(ws: &Workspace) -> (bool, crate::harness::Run) {
    let run = crate::harness::run_with(ws.path(), ["check"], &[("CARTA_LOG", "debug")]);
    (run.stderr.contains("record: verdict repeated"), run)
}

#[test]
fn a_damaged_or_stale_cache_is_ignored() {
    let ws = Workspace::shipped(&["intrepidos"]);
    ws.run(["check"]).succeeds();
    let dir = ws.path().join("build/.cache/intrepidos");
    let entries: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(entries.len(), 13);
    for (i, e) in entries.iter().enumerate() {
        let mut bytes = std::fs::read(e).unwrap();
        match i % 3 {
            0 => bytes.truncate(10),
            1 => *bytes.last_mut().unwrap() ^= 0xff,
            _ => bytes[9] ^= 1,
        }
        std::fs::write(e, bytes).unwrap();
    }
    // The game's record vouches for files by their stamps without the
    // entries, and the workspace's ledger for the whole check: without
    // them, every entry is read.
    std::fs::remove_file(ws.path().join("build/.cache/intrepidos.verdict")).unwrap();
    std::fs::remove_file(ws.path().join("build/.cache/.ledger")).unwrap();
    let run = ws.run(["check"]).succeeds();
    assert!(
        !run.stderr.contains("unchanged"),
        "nothing damaged is reused: {}",
        run.stderr
    );
    // A schema change makes every entry stale.
    ws.run(["check"]).succeeds().stderr_has("(13 unchanged");
    let schema = "schemas/intrepidos/potion.schema.json";
    ws.write(
        schema,
        ws.read(schema)
            .replacen("\"title\"", "\"$comment\": \"edited\", \"title\"", 1),
    );
    let run = ws.run(["check"]).succeeds();
    assert!(!run.stderr.contains("unchanged"), "{}", run.stderr);
}

#[test]
fn no_cache_neither_reads_nor_writes_the_cache() {
    let ws = Workspace::shipped(&["intrepidos"]);
    ws.run(["check", "--no-cache"]).succeeds();
    assert!(!ws.path().join("build/.cache").exists());
    ws.run(["check"]).succeeds();
    let run = ws.run(["check", "--no-cache"]).succeeds();
    assert!(!run.stderr.contains("unchanged"), "{}", run.stderr);
}

#[test]
fn a_recheck_sees_a_card_edit_that_makes_a_deck_illegal_and_legal_again() {
    let ws = Workspace::shipped(&["intrepidos"]);
    ws.run(["check"]).succeeds();
    ws.run(["check"]).succeeds();
    // Renamed like another action of the deck, "Contragolpe" counts with
    // it by name: four copies where two are allowed.
    let path = "cards/intrepidos/acoes/combate.toml";
    let original = ws.read(path);
    let renamed = original.replacen("name = \"Contragolpe\"", "name = \"Golpe Certeiro\"", 1);
    assert_ne!(renamed, original);
    ws.write(path, &renamed);
    for _ in 0..2 {
        let run = ws.run(["--message-format", "json", "check"]).fails();
        assert!(
            run.json().iter().any(|d| d["code"] == "deck::copy-limit"
                && d["file"] == "cards/intrepidos/decks/furia-de-aries.toml"),
            "{}",
            run.stdout
        );
    }
    ws.write(path, &original);
    ws.run(["check"]).succeeds();
    ws.run(["check"]).succeeds();
}

#[test]
fn a_rules_change_in_the_manifest_invalidates_the_recorded_verdict() {
    let ws = Workspace::shipped(&["intrepidos"]);
    ws.run(["check"]).succeeds();
    ws.run(["check"]).succeeds();
    let manifest = "cards/intrepidos/game.toml";
    let text = ws.read(manifest);
    let stricter = text.replacen(
        "copies = { filter = { kind = \"action\" }, key = \"name\", max = 2 }",
        "copies = { filter = { kind = \"action\" }, key = \"name\", max = 1 }",
        1,
    );
    assert_ne!(stricter, text);
    ws.write(manifest, &stricter);
    ws.run(["check"]).fails().stderr_has("deck::copy-limit");
}

#[test]
fn a_recorded_verdict_repeats_every_diagnostic_of_a_fresh_check() {
    let ws = Workspace::shipped(&["intrepidos"]);
    // An illegal deck (59 cards) and a missing translation (a warning).
    let deck = "cards/intrepidos/decks/furia-de-aries.toml";
    ws.write(
        deck,
        ws.read(deck)
            .replacen("golpe-certeiro = 2", "golpe-certeiro = 1", 1),
    );
    std::fs::remove_file(ws.path().join("cards/intrepidos/i18n/es.toml")).unwrap();
    let args = ["--message-format", "json", "-v", "check"];
    let fresh = ws
        .run(["--message-format", "json", "-v", "check", "--no-cache"])
        .fails();
    let first = ws.run(args).fails();
    let again = ws.run(args).fails();
    assert_eq!(first.stdout, fresh.stdout);
    assert_eq!(again.stdout, fresh.stdout);
    let codes: Vec<_> = fresh.json().iter().map(|d| d["code"].clone()).collect();
    for code in ["deck::size", "i18n::missing", "rules::source"] {
        assert!(codes.iter().any(|c| c == code), "{code}: {codes:?}");
    }
}

#[test]
fn a_deck_edited_with_its_modification_time_set_back_is_judged_again() {
    let ws = Workspace::shipped(&["intrepidos"]);
    let path = ws.path().join("cards/intrepidos/decks/furia-de-aries.toml");
    stamp_at(&path, 1_700_000_000);
    ws.run(["check"]).succeeds();
    ws.run(["check"]).succeeds();
    // Broken with the same size, modification time and inode: its change
    // time tells the record it changed.
    let text = std::fs::read_to_string(&path).unwrap();
    let broken = text.replacen("golpe-certeiro = 2", "golpe-certeiro = 1", 1);
    assert_eq!(broken.len(), text.len());
    std::fs::write(&path, &broken).unwrap();
    stamp_at(&path, 1_700_000_000);
    ws.run(["check"]).fails().stderr_has("deck::size");
}

#[test]
fn a_recheck_sees_a_new_phrase_in_a_template() {
    let ws = Workspace::shipped(&["intrepidos"]);
    for _ in 0..2 {
        let run = ws.run(["check"]).succeeds();
        assert!(!run.stderr.contains("(phrases"), "{}", run.stderr);
    }
    let template = "templates/intrepidos/_item.hbs";
    ws.write(template, ws.read(template) + "{{t \"uma frase nova\"}}\n");
    ws.run(["check"]).stderr_has("(phrases ");
}

#[test]
fn the_verdict_ends_the_summary_line_and_the_translations_follow_on_their_own() {
    let ws = Workspace::shipped(&["zodiacos"]);
    let clean = ws.run(["check"]).code(0);
    let lines: Vec<&str> = clean.stderr.lines().collect();
    assert_eq!(
        lines,
        [
            "checked 1 game, 60 cards: 0 errors, 0 warnings",
            "translated cards: zodiacos en: 60/60"
        ]
    );
    // An error the translations have nothing to do with (a deck of a game
    // without zones): the coverage line carries no verdict.
    ws.write(
        "cards/zodiacos/decks/d.toml",
        "game = \"zodiacos\"\nname = \"D\"\n",
    );
    let broken = ws.run(["check", "--no-cache"]).code(1);
    let tail: Vec<&str> = broken.stderr.lines().rev().take(2).collect();
    assert_eq!(
        tail,
        [
            "translated cards: zodiacos en: 60/60",
            "checked 1 game, 60 cards: 1 error, 0 warnings"
        ],
        "{}",
        broken.stderr
    );
}

/// Checks the workspace twice through the cache (the first check after an
/// edit, then the one its record answers) and asserts that each prints
/// exactly what a `--no-cache` check prints, exit code included.
fn rechecks_as_fresh(ws: &Workspace, edit: &str) {
    let args = ["--message-format", "json", "-v", "check"];
    let fresh = ws.run(["--message-format", "json", "-v", "check", "--no-cache"]);
    for round in ["after the edit", "again"] {
        let cached = ws.run(args);
        assert_eq!(
            cached.code, fresh.code,
            "{edit}, {round}: {}",
            cached.stderr
        );
        assert_eq!(cached.stdout, fresh.stdout, "{edit}, {round}");
    }
}

#[test]
fn every_kind_of_one_card_edit_rechecks_as_a_fresh_check_would() {
    let ws = Workspace::shipped(&["intrepidos"]);
    // Without catalogs the rules text is read by nothing but the schemas.
    for lang in ["en", "es"] {
        std::fs::remove_file(ws.path().join(format!("cards/intrepidos/i18n/{lang}.toml"))).unwrap();
    }
    rechecks_as_fresh(&ws, "nothing");
    let combate = "cards/intrepidos/acoes/combate.toml";
    let edit = |path: &str, from: &str, to: &str| replace_once(&ws, path, from, to);
    edit(
        combate,
        "effect = \"Até o fim",
        "effect = \"Sempre: até o fim",
    );
    rechecks_as_fresh(&ws, "a longer rules text");
    edit(combate, "[[card]]", "# a comment\n\n[[card]]");
    rechecks_as_fresh(&ws, "the cards moved down");
    let pocoes = "cards/intrepidos/itens/pocoes.toml";
    edit(pocoes, "min_level = 1", "min_level = 2");
    rechecks_as_fresh(&ws, "a number the rules do not read");
    edit(
        combate,
        "name = \"Contragolpe\"",
        "name = \"Golpe Certeiro\"",
    );
    rechecks_as_fresh(&ws, "a name the copy rules read: a deck turns illegal");
    edit(
        combate,
        "name = \"Golpe Certeiro\"",
        "name = \"Contragolpe\"",
    );
    rechecks_as_fresh(&ws, "the name back: the deck is legal again");
    let extra = "cards/intrepidos/extra.toml";
    let card = |id: &str| {
        format!(
            "[[card]]\nid = \"{id}\"\nkind = \"action\"\nname = \"Nova\"\neffect = \"x\"\nflavour = \"y\"\n"
        )
    };
    ws.write(extra, card("nova"));
    rechecks_as_fresh(&ws, "a new card file");
    ws.write(extra, card("golpe-certeiro"));
    rechecks_as_fresh(&ws, "an id another file defines");
    // The duplicate's diagnostic points into both files: moving the first
    // definition must move its label, not repeat the recorded span.
    edit(
        combate,
        "# a comment\n",
        "# a comment\n# and another, longer one\n",
    );
    rechecks_as_fresh(&ws, "the first definition moved");
    std::fs::remove_file(ws.path().join(extra)).unwrap();
    rechecks_as_fresh(&ws, "a deleted card file");
    let fogo = "cards/intrepidos/intrepidos/fogo.toml";
    edit(fogo, "id = \"leonidas\"", "id = \"leonidas-ii\"");
    rechecks_as_fresh(&ws, "a renamed id that another card names");
    edit(fogo, "id = \"leonidas-ii\"", "id = \"leonidas\"");
    rechecks_as_fresh(&ws, "the id back");
}

/// A check after an edit validates the cards whose text it has not seen
/// validate (the cache's memo), and compiles their kinds' schemas only
/// then: an edit that breaks a card, mends it, or changes the schema every
/// card is validated by rechecks as a fresh check would.
#[test]
fn an_edited_card_is_validated_again_and_a_schema_edit_validates_every_card() {
    let ws = Workspace::shipped(&["intrepidos"]);
    rechecks_as_fresh(&ws, "nothing");
    let pocoes = "cards/intrepidos/itens/pocoes.toml";
    let edit = |path: &str, from: &str, to: &str| replace_once(&ws, path, from, to);
    edit(pocoes, "min_level = 1", "min_level = \"one\"");
    rechecks_as_fresh(&ws, "a card's number made a string");
    edit(pocoes, "min_level = \"one\"", "min_level = 1");
    rechecks_as_fresh(&ws, "the card as it was");
    edit(pocoes, "min_level = 1", "min_level = 0");
    rechecks_as_fresh(&ws, "a number below the schema's minimum");
    edit(pocoes, "min_level = 0", "min_level = 1");
    rechecks_as_fresh(&ws, "mended again");
    let schema = "schemas/intrepidos/potion.schema.json";
    let text = ws.read(schema);
    let required = "\"required\": [";
    assert!(text.contains(required));
    ws.write(
        schema,
        text.replacen(required, "\"required\": [\"brand_new_field\", ", 1),
    );
    rechecks_as_fresh(&ws, "a field every potion now requires");
    ws.write(schema, &text);
    rechecks_as_fresh(&ws, "the schema as it was");
    // A schema edited after a clean check is checked again, not only
    // parsed: its carta keywords too.
    ws.write(
        schema,
        text.replacen(
            required,
            "\"x-carta-ref\": \"no-such-kind\", \"required\": [",
            1,
        ),
    );
    ws.run(["check"]).fails().stderr_has("schema::bad-ref");
    rechecks_as_fresh(&ws, "a reference to no kind");
}

/// An edited card file reads only its edited cards again: the others are
/// its entry's, moved to where they now lie. What is said of them after
/// an edit that moves them is placed where a fresh check places it.
#[test]
fn the_cards_an_edit_leaves_alone_are_placed_where_they_now_lie() {
    let ws = Workspace::shipped(&["intrepidos"]);
    rechecks_as_fresh(&ws, "nothing");
    let pocoes = "cards/intrepidos/itens/pocoes.toml";
    let combate = "cards/intrepidos/acoes/combate.toml";
    let edit = |path: &str, from: &str, to: &str| replace_once(&ws, path, from, to);
    // The first card's rules text grows by a line: every card after it
    // moves. A card of another file takes the id of one of them.
    edit(
        pocoes,
        "effect = \"Use no round do intrépido: ele cura 20",
        "effect = \"\"\"Sempre:\nuse no round do intrépido: ele cura 20",
    );
    edit(
        pocoes,
        "Descarte a poção após o uso.\"",
        "Descarte a poção após o uso.\"\"\"",
    );
    rechecks_as_fresh(&ws, "the first card's text a line longer");
    edit(combate, "id = \"contragolpe\"", "id = \"tonico-de-forca\"");
    rechecks_as_fresh(&ws, "a moved card's id taken by another file's card");
    edit(combate, "id = \"tonico-de-forca\"", "id = \"contragolpe\"");
    // A `[[card]]` line inside a multi-line string is no card.
    edit(pocoes, "\"\"\"Sempre:\n", "\"\"\"Sempre:\n[[card]]\n");
    rechecks_as_fresh(&ws, "a [[card]] line inside a string");
    // A header with a comment beside it is a card too.
    edit(
        pocoes,
        "[[card]]\nid = \"elixir-maior\"",
        "[[card]] # the big one\nid = \"elixir-maior\"",
    );
    rechecks_as_fresh(&ws, "a header with a comment");
}

#[test]
fn a_card_edit_the_verdict_does_not_read_is_answered_from_the_record() {
    let ws = Workspace::shipped(&["intrepidos"]);
    for lang in ["en", "es"] {
        std::fs::remove_file(ws.path().join(format!("cards/intrepidos/i18n/{lang}.toml"))).unwrap();
    }
    ws.run(["check"]).succeeds();
    let combate = "cards/intrepidos/acoes/combate.toml";
    // A longer rules text moves every card after it: not read by the
    // rules, the decks or the editor schemas, it changes no verdict.
    let longer =
        ws.read(combate)
            .replacen("effect = \"Até o fim", "effect = \"Sempre: até o fim", 1);
    ws.write(combate, &longer);
    let (answered, run) = recalled(&ws);
    assert!(answered, "{}", run.stderr);
    run.succeeds()
        .stderr_has("(12 unchanged card files taken from the last check)");
    // A name is read by the copy rules: the game is compiled again, and
    // says why.
    ws.write(
        combate,
        longer.replacen("name = \"Emboscada\"", "name = \"Emboscada!\"", 1),
    );
    let (answered, run) = recalled(&ws);
    assert!(!answered, "{}", run.stderr);
    run.succeeds().stderr_has(
        "record: the cards of `cards/intrepidos/acoes/combate.toml` changed what the verdict reads; compiling",
    );
    warm_as_cold(&ws, "a rename");
}

/// Gives every file under `cards/` an old, settled modification time, so
/// that marks do not move as seconds pass (a fresh stamp is never trusted).
fn settle_stamps(ws: &Workspace) {
    fn walk(dir: &std::path::Path) {
        for e in std::fs::read_dir(dir).unwrap() {
            let path = e.unwrap().path();
            if path.is_dir() {
                walk(&path);
            } else {
                stamp_at(&path, 1_600_000_000);
            }
        }
    }
    walk(&ws.path().join("cards"));
}

/// The bytes of the file under `build/.cache/` that a check writes beside
/// the per-file entries (the game's record), and of the editor schemas.
fn written(ws: &Workspace, game: &str) -> Vec<(String, Vec<u8>)> {
    [
        format!("build/.cache/{game}.verdict"),
        format!("schemas/carta/editor/{game}.cards.json"),
        format!("schemas/carta/editor/{game}.deck.json"),
    ]
    .into_iter()
    .map(|rel| {
        let bytes = std::fs::read(ws.path().join(&rel)).unwrap_or_default();
        (rel, bytes)
    })
    .collect()
}

/// Checks the workspace through the cache after `edit` (twice: the check
/// that compiles it from its record, then the one the record answers) and
/// asserts that each prints what a `--no-cache` check prints, exit code
/// included; that the editor schemas are those the cold check writes; and
/// that the record is the one a compile without it writes.
fn compiles_as_cold(ws: &Workspace, edit: &str) {
    let args = ["--message-format", "json", "-v", "check"];
    let warm = ws.run(args);
    let again = ws.run(args);
    let files = written(ws, "intrepidos");
    let cold = ws.run(["--message-format", "json", "-v", "check", "--no-cache"]);
    for (round, run) in [("after the edit", &warm), ("again", &again)] {
        assert_eq!(run.code, cold.code, "{edit}, {round}: {}", run.stderr);
        assert_eq!(run.stdout, cold.stdout, "{edit}, {round}");
    }
    let cold_files = written(ws, "intrepidos");
    assert!(files[1..] == cold_files[1..], "{edit}: the editor schemas");
    // A card file with problems is not cached, and leaves no record.
    if files[0].1.is_empty() {
        assert!(
            cold.stdout.contains("\"schema::"),
            "{edit}: {}",
            cold.stdout
        );
        return;
    }
    assert_eq!(
        unstamped(&files[0].1),
        unstamped(&compiled_record(ws, &args).1),
        "{edit}: the record as a compile writes it"
    );
}

/// A record's value (past its 32-byte frame header) with every file stamp
/// (four integers) zeroed: a stamp is kept only once it is a second old,
/// so two records written a moment apart may differ in them alone.
fn unstamped(record: &[u8]) -> serde_json::Value {
    fn zero(v: &mut serde_json::Value) {
        match v {
            serde_json::Value::Array(items) => {
                if items.len() == 4 && items.iter().all(serde_json::Value::is_u64) {
                    for i in items.iter_mut() {
                        *i = 0.into();
                    }
                } else {
                    items.iter_mut().for_each(zero);
                }
            }
            serde_json::Value::Object(map) => map.values_mut().for_each(zero),
            _ => {}
        }
    }
    let mut value: serde_json::Value =
        rmp_serde::from_slice(&record[32.min(record.len())..]).unwrap_or_default();
    zero(&mut value);
    value
}

/// The game's record (and its path) as a check run with `args` writes it
/// compiling the game without a record or the workspace's ledger (there
/// is none after a check that found an error, or a warning in a
/// spreadsheet).
fn compiled_record(ws: &Workspace, args: &[&str]) -> (String, Vec<u8>) {
    compiled_record_of(ws, "intrepidos", args)
}

/// [`compiled_record`] of game `game`.
fn compiled_record_of(ws: &Workspace, game: &str, args: &[&str]) -> (String, Vec<u8>) {
    std::fs::remove_file(ws.path().join(format!("build/.cache/{game}.verdict"))).unwrap();
    let _ = std::fs::remove_file(ws.path().join("build/.cache/.ledger"));
    ws.run(args);
    written(ws, game).swap_remove(0)
}

#[test]
fn every_edit_the_record_cannot_answer_compiles_from_it_as_a_cold_check_would() {
    let ws = Workspace::shipped(&["intrepidos"]);
    settle_stamps(&ws);
    compiles_as_cold(&ws, "the first check");
    let round = std::cell::Cell::new(0);
    // Each edit leaves the file with a stamp of its own, old enough to trust.
    let write = |path: &str, text: String| {
        ws.write(path, text);
        round.set(round.get() + 1);
        stamp_at(&ws.path().join(path), 1_700_000_000 + round.get());
    };
    let edit = |path: &str, from: &str, to: &str| {
        let text = ws.read(path);
        assert!(text.contains(from), "{from}");
        write(path, text.replacen(from, to, 1));
    };
    let combate = "cards/intrepidos/acoes/combate.toml";
    edit(
        combate,
        "name = \"Contragolpe\"",
        "name = \"Golpe Certeiro\"",
    );
    compiles_as_cold(&ws, "a rename that makes two decks illegal");
    edit(
        combate,
        "name = \"Golpe Certeiro\"",
        "name = \"Contragolpe\"",
    );
    compiles_as_cold(&ws, "the name back: legal again");
    edit(
        combate,
        "name = \"Explosão Arcana\"",
        "name = \"Explosão Astral\"",
    );
    compiles_as_cold(&ws, "a rename no rule minds");
    let extra = "cards/intrepidos/extra.toml";
    let card = |id: &str| {
        format!(
            "[[card]]\nid = \"{id}\"\nkind = \"action\"\nname = \"Nova\"\neffect = \"x\"\nflavour = \"y\"\n"
        )
    };
    write(extra, card("nova"));
    compiles_as_cold(&ws, "a new card file");
    std::fs::remove_file(ws.path().join(extra)).unwrap();
    compiles_as_cold(&ws, "a deleted card file");
    let mares = "cards/intrepidos/decks/mares-de-peixes.toml";
    edit(mares, "[main]\n", "[main]\nnovo = 1\n");
    compiles_as_cold(&ws, "a deck naming an unknown card");
    write(extra, card("nova"));
    compiles_as_cold(&ws, "a new card the unknown line is one letter from");
    edit(mares, "novo = 1", "nova = 1");
    compiles_as_cold(&ws, "the deck names it");
    std::fs::remove_file(ws.path().join(extra)).unwrap();
    compiles_as_cold(&ws, "a deleted card file a deck names");
    edit(mares, "nova = 1\n", "");
    compiles_as_cold(&ws, "the deck as it was");
    edit(
        combate,
        "id = \"explosao-arcana\"",
        "id = \"explosao-arcana-ii\"",
    );
    compiles_as_cold(&ws, "an id a deck names, changed: it names no card");
    edit(
        combate,
        "kind = \"action\"\nname = \"Explosão Astral\"",
        "kind = \"potion\"\nname = \"Explosão Astral\"",
    );
    compiles_as_cold(
        &ws,
        "a card's kind changed: its schema's verdict, no record",
    );
    edit(
        combate,
        "kind = \"potion\"\nname = \"Explosão Astral\"",
        "kind = \"action\"\nname = \"Explosão Astral\"",
    );
    compiles_as_cold(&ws, "the kind back");
}

#[test]
fn card_files_added_or_deleted_recheck_as_a_cold_check_would() {
    let ws = Workspace::shipped(&["intrepidos"]);
    // Without translation files (which name every card), box rules (which
    // count the whole box) and with a deck schema the last check wrote, its
    // index beside it.
    std::fs::remove_dir_all(ws.path().join("cards/intrepidos/i18n")).unwrap();
    std::fs::remove_file(ws.path().join("schemas/carta/editor/intrepidos.deck.json")).unwrap();
    let manifest = ws.read("cards/intrepidos/game.toml");
    let (before, boxed) = manifest.split_once("[[box-rules]]").unwrap();
    let after = &boxed[boxed.find("\n[play]").unwrap()..];
    ws.write("cards/intrepidos/game.toml", format!("{before}{after}"));
    settle_stamps(&ws);
    ws.run(["check"]).succeeds();
    let extra = "cards/intrepidos/acoes/extra.toml";
    let card = |id: &str, kind: &str| {
        format!(
            "[[card]]\nid = \"{id}\"\nkind = \"{kind}\"\nname = \"Nova\"\neffect = \"x\"\nflavour = \"y\"\n"
        )
    };
    let write = |rel: &str, text: String, secs: u64| {
        ws.write(rel, text);
        stamp_at(&ws.path().join(rel), secs);
    };
    // Among the action files: its cards' lines go between theirs.
    write(extra, card("nova", "action"), 1_700_000_001);
    compiles_as_cold(&ws, "a new card file");
    let two = format!("{}{}", card("nova", "action"), card("nova-ii", "action"));
    std::fs::remove_file(ws.path().join(extra)).unwrap();
    write("cards/intrepidos/zz.toml", two, 1_700_000_002);
    compiles_as_cold(&ws, "a card file gone, another come");
    std::fs::remove_file(ws.path().join("cards/intrepidos/zz.toml")).unwrap();
    compiles_as_cold(&ws, "the new file deleted");
    // What the record cannot answer is compiled: a new card with an id
    // another card has; then, that file gone, the card file whose cards
    // the decks name.
    write(extra, card("contragolpe", "action"), 1_700_000_003);
    ws.run(["check"]).fails().stderr_has("link::duplicate-id");
    compiles_as_cold(&ws, "a new card file with an id another card has");
    std::fs::remove_file(ws.path().join(extra)).unwrap();
    compiles_as_cold(&ws, "that file deleted");
    let combate = "cards/intrepidos/acoes/combate.toml";
    let kept = ws.read(combate);
    std::fs::remove_file(ws.path().join(combate)).unwrap();
    ws.run(["check"]).fails().stderr_has("deck::unknown-card");
    compiles_as_cold(&ws, "the card file the decks name deleted");
    write(combate, kept, 1_600_000_000);
    compiles_as_cold(&ws, "that file back");
    // A new card file beside an edited deck: the deck schema is patched
    // before the decks are found changed, and the compile keeps it.
    write(extra, card("nova", "action"), 1_700_000_004);
    let deck = "cards/intrepidos/decks/muralha-de-touro.toml";
    write(deck, format!("{}# edited\n", ws.read(deck)), 1_700_000_005);
    compiles_as_cold(&ws, "a new card file beside an edited deck");
    // A new intrépido: the card-file schema lists its kind's ids and names
    // (references name them), and the compile writes it again.
    let agua = ws.read("cards/intrepidos/intrepidos/agua.toml");
    let second = agua.match_indices("[[card]]\n").nth(1).unwrap().0;
    let carcino = agua[..second].replacen("id = \"carcino\"", "id = \"carcino-ii\"", 1);
    write(
        "cards/intrepidos/intrepidos/zz.toml",
        carcino,
        1_700_000_006,
    );
    compiles_as_cold(&ws, "a new intrépido");
}

#[test]
fn renames_recheck_as_a_cold_check_would() {
    let ws = Workspace::shipped(&["intrepidos"]);
    // A translation file names every card: a rename changes what it
    // covers, and the game is compiled.
    std::fs::remove_dir_all(ws.path().join("cards/intrepidos/i18n")).unwrap();
    // The deck schema as a check writes it, with the index a patch goes by
    // (one that already has the key is kept, without an index: the first
    // rename after it is compiled).
    std::fs::remove_file(ws.path().join("schemas/carta/editor/intrepidos.deck.json")).unwrap();
    settle_stamps(&ws);
    ws.run(["check"]).succeeds();
    let round = std::cell::Cell::new(0);
    let edit = |from: &str, to: &str| {
        let combate = "cards/intrepidos/acoes/combate.toml";
        let text = ws.read(combate);
        assert!(text.contains(from), "{from}");
        ws.write(combate, text.replacen(from, to, 1));
        round.set(round.get() + 1);
        stamp_at(&ws.path().join(combate), 1_700_000_000 + round.get());
    };
    let contragolpe = "id = \"contragolpe\"\nkind = \"action\"\nname = ";
    edit(
        &format!("{contragolpe}\"Contragolpe\""),
        &format!("{contragolpe}\"Golpe Certeiro\""),
    );
    compiles_as_cold(&ws, "a rename that makes decks illegal");
    edit(
        &format!("{contragolpe}\"Golpe Certeiro\""),
        &format!("{contragolpe}\"Contragolpe\""),
    );
    compiles_as_cold(&ws, "the name back: legal again");
    edit("name = \"Explosão Arcana\"", "name = \"Explosão Astral\"");
    compiles_as_cold(&ws, "a rename no rule minds");
    // A rename beside another change.
    edit(
        "kind = \"action\"\nname = \"Explosão Astral\"",
        "kind = \"potion\"\nname = \"Explosão Arcana\"",
    );
    compiles_as_cold(&ws, "a rename beside a kind changed");
}

/// The deck schema a check wrote (after an edit, patched from the last
/// one), against the one a check writes whole when there is none to patch
/// (`--no-cache`, which neither reads nor writes the index); then the
/// check's deck schema and index put back, for the next edit to patch.
fn deck_schema_and_whole(ws: &Workspace, edit: &str) {
    let deck = ws.path().join("schemas/carta/editor/intrepidos.deck.json");
    let index = ws.path().join("build/.cache/intrepidos.deck-index");
    ws.run(["check"]);
    let patched = std::fs::read(&deck).unwrap();
    let written = std::fs::read(&index).expect("the index of the deck schema");
    std::fs::remove_file(&deck).unwrap();
    std::fs::remove_file(&index).unwrap();
    ws.run(["check", "--no-cache"]);
    assert!(!index.exists(), "{edit}: an index without the cache");
    assert!(
        patched == std::fs::read(&deck).unwrap(),
        "{edit}: the deck schema"
    );
    std::fs::write(&index, written).unwrap();
}

#[test]
fn the_deck_schema_patched_after_each_edit_is_the_one_written_whole() {
    let ws = Workspace::shipped(&["intrepidos"]);
    settle_stamps(&ws);
    ws.run(["check"]).succeeds();
    let combate = "cards/intrepidos/acoes/combate.toml";
    let extra = "cards/intrepidos/extra.toml";
    let edit = |path: &str, from: &str, to: &str| replace_once(&ws, path, from, to);
    edit(
        combate,
        "name = \"Contragolpe\"",
        "name = \"Contra \\\"golpe\\\"\"",
    );
    deck_schema_and_whole(&ws, "a rename");
    edit(
        combate,
        "name = \"Explosão Arcana\"",
        "name = \"Explosão Astral\"",
    );
    deck_schema_and_whole(&ws, "a second rename in the same file");
    ws.write(
        extra,
        "[[card]]\nid = \"nova\"\nkind = \"action\"\nname = \"Nova\"\neffect = \"x\"\nflavour = \"y\"\n",
    );
    deck_schema_and_whole(&ws, "a new card file");
    edit(extra, "name = \"Nova\"", "name = \"Supernova\"");
    deck_schema_and_whole(&ws, "a rename in the new file");
    std::fs::remove_file(ws.path().join(extra)).unwrap();
    deck_schema_and_whole(&ws, "the new file deleted");
    edit(
        combate,
        "id = \"explosao-arcana\"",
        "id = \"explosao-arcana-ii\"",
    );
    deck_schema_and_whole(&ws, "an id changed");
    edit(
        combate,
        "kind = \"action\"\nname = \"Explosão Astral\"",
        "kind = \"potion\"\nname = \"Explosão Astral\"",
    );
    deck_schema_and_whole(&ws, "a kind changed, and with it the zones its card is in");
}

#[test]
fn a_damaged_foreign_or_hand_edited_deck_schema_or_index_is_never_patched() {
    let ws = Workspace::shipped(&["intrepidos", "zodiacos"]);
    // Written by the first check, each with its index.
    for game in ["intrepidos", "zodiacos"] {
        let deck = format!("schemas/carta/editor/{game}.deck.json");
        std::fs::remove_file(ws.path().join(deck)).unwrap();
    }
    ws.run(["check"]).succeeds();
    let deck = ws.path().join("schemas/carta/editor/intrepidos.deck.json");
    let index = ws.path().join("build/.cache/intrepidos.deck-index");
    let combate = "cards/intrepidos/acoes/combate.toml";
    let names = ["Contragolpe", "A", "B", "C", "D", "E"];
    for (i, damage) in [
        "the deck schema edited by hand, its key kept",
        "the deck schema cut short",
        "the index damaged",
        "another game's index",
        "the index cut short",
    ]
    .into_iter()
    .enumerate()
    {
        match i {
            0 => {
                // One letter of a card's title, the length kept.
                let mut bytes = std::fs::read(&deck).unwrap();
                let title = b"\"title\": \"";
                let half = bytes.len() / 2;
                let at = half
                    + bytes[half..]
                        .windows(title.len())
                        .position(|w| w == title)
                        .unwrap();
                let letter = &mut bytes[at + title.len()];
                *letter = if *letter == b'Q' { b'R' } else { b'Q' };
                std::fs::write(&deck, &bytes).unwrap();
            }
            1 => {
                let bytes = std::fs::read(&deck).unwrap();
                std::fs::write(&deck, &bytes[..bytes.len() - 10]).unwrap();
            }
            2 => {
                let mut bytes = std::fs::read(&index).unwrap();
                let last = bytes.len() - 1;
                bytes[last] ^= 1;
                std::fs::write(&index, &bytes).unwrap();
            }
            3 => {
                let other = ws.path().join("build/.cache/zodiacos.deck-index");
                std::fs::copy(other, &index).unwrap();
            }
            _ => {
                let bytes = std::fs::read(&index).unwrap();
                std::fs::write(&index, &bytes[..bytes.len() / 2]).unwrap();
            }
        }
        let (from, to) = (names[i], names[i + 1]);
        let text = ws.read(combate);
        let from = format!("name = \"{from}\"");
        assert!(text.contains(&from), "{damage}");
        ws.write(
            combate,
            text.replacen(&from, &format!("name = \"{to}\""), 1),
        );
        deck_schema_and_whole(&ws, damage);
    }
}

#[test]
fn a_rename_of_a_card_a_deck_names_rejudges_it_and_a_text_edit_moving_cards_does_not() {
    let ws = Workspace::shipped(&["intrepidos"]);
    // Without translations, whose warnings after a rename point into the
    // card file (a file pointed into is compiled, not answered for).
    std::fs::remove_dir_all(ws.path().join("cards/intrepidos/i18n")).unwrap();
    settle_stamps(&ws);
    ws.run(["check"]).succeeds();
    let combate = "cards/intrepidos/acoes/combate.toml";
    let rename = |from: &str, to: &str, secs: u64| {
        ws.write(combate, ws.read(combate).replacen(from, to, 1));
        stamp_at(&ws.path().join(combate), secs);
    };
    rename("\"Explosão Arcana\"", "\"Explosão Astral\"", 1_700_000_001);
    compiles_as_cold(&ws, "a card another deck names, renamed");
    // A comment in the file's first card, which moves the cards after it:
    // the record answers for it.
    rename(
        "[[card]]\nid = \"golpe-certeiro\"",
        "[[card]]\n# a note\nid = \"golpe-certeiro\"",
        1_700_000_002,
    );
    let (answered, run) = recalled(&ws);
    assert!(answered, "{}", run.stderr);
    compiles_as_cold(&ws, "a comment that moves cards");
    rename("\"Explosão Astral\"", "\"Explosão Arcana\"", 1_700_000_003);
    compiles_as_cold(&ws, "the name back");
    rename(
        "\"Flechas Flamejantes\"",
        "\"Flechas de Fogo\"",
        1_700_000_004,
    );
    compiles_as_cold(&ws, "a card Fúria de Áries names, renamed");
}

#[test]
fn damaged_or_foreign_entries_and_records_are_never_trusted() {
    let ws = Workspace::shipped(&["intrepidos", "zodiacos"]);
    settle_stamps(&ws);
    ws.run(["check"]).succeeds();
    let record = ws.path().join("build/.cache/intrepidos.verdict");
    let entries = ws.path().join("build/.cache/intrepidos");
    let combate = "cards/intrepidos/acoes/combate.toml";
    let names = [
        "Explosão Arcana",
        "Explosão Astral",
        "Explosão",
        "Explosão!",
    ];
    // The human report, but for the summary line (which counts the files
    // taken from the cache).
    let report = |run: &crate::harness::Run| {
        let lines = run.stderr.lines().filter(|l| !l.starts_with("checked "));
        (run.code, lines.collect::<Vec<_>>().join("\n"))
    };
    for (i, damage) in [
        "the record",
        "the record and the entries",
        "another game's record",
    ]
    .into_iter()
    .enumerate()
    {
        if i == 2 {
            std::fs::copy(ws.path().join("build/.cache/zodiacos.verdict"), &record).unwrap();
        } else {
            let mut bytes = std::fs::read(&record).unwrap();
            for at in (64..bytes.len()).step_by(101) {
                bytes[at] ^= 0x55;
            }
            std::fs::write(&record, &bytes).unwrap();
        }
        if i > 0 {
            for e in std::fs::read_dir(&entries).unwrap() {
                let path = e.unwrap().path();
                let mut bytes = std::fs::read(&path).unwrap();
                let last = bytes.len() - 1;
                bytes[last] ^= 1;
                std::fs::write(path, bytes).unwrap();
            }
        }
        let (from, to) = (names[i], names[i + 1]);
        ws.write(combate, ws.read(combate).replacen(from, to, 1));
        stamp_at(&ws.path().join(combate), 1_700_000_000 + i as u64);
        let warm = ws.run(["check", "intrepidos"]);
        let cold = ws.run(["check", "intrepidos", "--no-cache"]);
        assert_eq!(report(&warm), report(&cold), "{damage}");
        if i > 0 {
            assert!(
                !warm.stderr.contains("unchanged card files"),
                "{damage}: {}",
                warm.stderr
            );
        }
    }
}

#[test]
fn a_players_collection_is_checked_and_a_repeated_verdict_follows_its_changes() {
    let ws = Workspace::shipped(&["intrepidos"]);
    let rel = "decks/intrepidos/collection.toml";
    ws.run(["check"]).succeeds();
    ws.run(["check"]).succeeds();
    // Added after the game's record was written: still seen.
    ws.write(rel, "game = \"intrepidos\"\n[cards]\nescudo-orcc = 1\n");
    for _ in 0..2 {
        ws.run(["check"])
            .code(1)
            .stderr_has("collection::unknown-card")
            .stderr_has("did you mean `escudo-orc`?");
    }
    // A player's file never fails the game's build.
    ws.run(["build"]).succeeds();
    ws.write(rel, "game = \"intrepidos\"\n[cards]\nescudo-orc = 1\n");
    for _ in 0..2 {
        ws.run(["check"]).succeeds();
    }
    ws.write(rel, "game = \"intrepidos\"\n[cards]\nescudo-orc = -1\n");
    ws.run(["check"])
        .code(1)
        .stderr_has("collection::bad-count");
    std::fs::remove_file(ws.path().join(rel)).unwrap();
    ws.run(["check"]).succeeds();
}

/// A check with nothing changed repeats the last verdict from the
/// workspace's ledger (`build/.cache/.ledger`): every diagnostic, in
/// order, the summary and the exit code, without the game's record.
#[test]
fn a_check_with_nothing_changed_repeats_the_ledgers_verdict() {
    let ws = Workspace::shipped(&["intrepidos"]);
    // Warnings for the ledger to keep: one in a file, one in none.
    std::fs::remove_file(ws.path().join("cards/intrepidos/i18n/es.toml")).unwrap();
    ws.write("cards/stray/notes.txt", "not a game");
    let args = ["--message-format", "json", "-v", "check"];
    let first = ws.run(args).succeeds();
    assert!(first.stdout.contains("i18n::missing") && first.stdout.contains("load::no-manifest"));
    assert!(ws.path().join("build/.cache/.ledger").is_file());
    // The game's record is not read for a repeated verdict (nor written).
    let record = ws.path().join("build/.cache/intrepidos.verdict");
    std::fs::remove_file(&record).unwrap();
    let again = ws.run(args).succeeds();
    assert_eq!(again.stdout, first.stdout);
    assert!(!record.exists(), "the verdict came from the ledger");
    let human = ws.run(["check"]).succeeds();
    human.stderr_has("(13 unchanged card files taken from the last check): 0 errors, 2 warnings");
    // Any change, however small, is checked.
    ws.write("cards/stray/more.txt", "");
    ws.run(args).succeeds();
    assert!(record.exists(), "a change compiles the game");
}

/// An edit within the same second as the check before it, keeping the
/// file's size, still reaches the verdict: a fresh stamp is never trusted
/// alone, and the ledger compares such a file by its bytes.
#[test]
fn an_edit_in_the_same_second_as_the_last_check_is_never_missed() {
    let ws = Workspace::shipped(&["intrepidos"]);
    let path = "cards/intrepidos/itens/pocoes.toml";
    for _ in 0..2 {
        ws.run(["check"]).succeeds();
    }
    let text = ws.read(path);
    let broken = text.replacen("min_level = 1", "min_level = 9", 1);
    assert_eq!(broken.len(), text.len());
    ws.write(path, &broken);
    ws.run(["check"]).fails().stderr_has("schema::range");
    ws.write(path, &text);
    ws.run(["check"]).succeeds();
    ws.run(["check"]).succeeds();
}

/// The ledger answers only the check that wrote it: the same games asked
/// for, and an intact file; a workspace with a link, or a check that found
/// an error, leaves none.
#[test]
fn a_ledger_answers_only_the_check_it_is_the_ledger_of() {
    let ws = Workspace::shipped(&["intrepidos", "zodiacos"]);
    let ledger = ws.path().join("build/.cache/.ledger");
    ws.run(["check"]).succeeds().stderr_has("checked 2 games");
    ws.run(["check", "zodiacos"])
        .succeeds()
        .stderr_has("checked 1 game,");
    ws.run(["check"]).succeeds().stderr_has("checked 2 games");
    let both = ws
        .run(["--message-format", "json", "-v", "check"])
        .succeeds();
    // Damaged: ignored, and written again.
    for damage in [0usize, 40, usize::MAX] {
        let mut bytes = std::fs::read(&ledger).unwrap();
        let at = damage.min(bytes.len() - 1);
        bytes[at] ^= 0x5a;
        std::fs::write(&ledger, bytes).unwrap();
        let run = ws
            .run(["--message-format", "json", "-v", "check"])
            .succeeds();
        assert_eq!(run.stdout, both.stdout, "damaged at {damage}");
        assert_eq!(run.stderr, both.stderr, "damaged at {damage}");
    }
    // An error: no ledger.
    let deck = "cards/zodiacos/decks/extra.toml";
    ws.write(
        deck,
        "game = \"zodiacos\"\nname = \"x\"\n[main]\nno-such-card = 1\n",
    );
    ws.run(["check"]).fails();
    assert!(!ledger.exists());
    std::fs::remove_file(ws.path().join(deck)).unwrap();
    ws.run(["check"]).succeeds();
    assert!(ledger.exists());
    // A link: no ledger.
    std::os::unix::fs::symlink("README.md", ws.path().join("cards/intrepidos/notes.md")).unwrap();
    ws.run(["check"]).succeeds();
    assert!(!ledger.exists());
}

/// A manifest unchanged since a check that found no error is not checked
/// by its schema again; one edited after it is, even within the second.
#[test]
fn a_manifest_edited_after_a_clean_check_is_checked_by_its_schema_again() {
    let ws = Workspace::shipped(&["zodiacos"]);
    let manifest = "cards/zodiacos/game.toml";
    for _ in 0..2 {
        ws.run(["check"]).succeeds();
    }
    // A card edit: the game is compiled again, its manifest taken as valid.
    let deck = "cards/zodiacos/decks/extra.toml";
    ws.write(deck, "game = \"zodiacos\"\nname = \"x\"\n");
    ws.run(["check"]).code(1);
    std::fs::remove_file(ws.path().join(deck)).unwrap();
    ws.run(["check"]).succeeds();
    ws.run(["check"]).succeeds();
    let text = ws.read(manifest);
    ws.write(manifest, format!("{text}\nno_such_key = 1\n"));
    ws.run(["--message-format", "json", "check"])
        .code(1)
        .stdout_has("\"code\":\"schema::unknown-field\",\"message\":\"`box-rules[8]` has no field `no_such_key`\"");
}

/// The diagnostics of a check through the cache, then of a cold one: the
/// same, exit code included; the warm one's output.
fn warm_as_cold(ws: &Workspace, edit: &str) -> String {
    let warm = ws.run(["--message-format", "json", "check"]);
    let cold = ws.run(["--message-format", "json", "check", "--no-cache"]);
    assert_eq!(warm.code, cold.code, "{edit}: {}", warm.stderr);
    assert_eq!(warm.stdout, cold.stdout, "{edit}");
    warm.stdout
}

/// The starter game `carta init` writes (spells and heroes with art), its
/// files' stamps settled, checked once.
fn starter_checked() -> Workspace {
    let ws = Workspace::empty();
    ws.run(["init", "--game", "duel"]).succeeds();
    settle_stamps(&ws);
    ws.run(["check"]).succeeds();
    ws
}

#[test]
fn a_game_with_art_is_answered_from_its_record_until_a_picture_changes() {
    let ws = starter_checked();
    assert!(
        ws.path().join("build/.cache/duel.verdict").exists(),
        "the record of a game with art"
    );
    ws.run(["check"])
        .succeeds()
        .stderr_has("(2 unchanged card files taken from the last check)");
    // An edit of a text no rule reads is answered from the record.
    let spells = "cards/duel/spells.toml";
    let edit = |from: &str, to: &str, secs: u64| {
        replace_once(&ws, spells, from, to);
        stamp_at(&ws.path().join(spells), secs);
    };
    let effect = ws.read(spells);
    let effect = effect
        .lines()
        .find(|l| l.starts_with("effect = \""))
        .unwrap();
    edit(
        effect,
        &effect.replacen("effect = \"", "effect = \"Now: ", 1),
        1_700_000_001,
    );
    let (answered, run) = recalled(&ws);
    assert!(answered, "{}", run.stderr);
    run.succeeds();
    // A picture rewritten, no card changed: the art is checked again.
    let ember = ws.path().join("cards/duel/art/ember.svg");
    std::fs::write(&ember, "not a picture").unwrap();
    let found = warm_as_cold(&ws, "a picture rewritten");
    assert!(found.contains("\"art::not-an-image\""), "{found}");
    // A picture gone, no card changed: the same.
    std::fs::remove_file(&ember).unwrap();
    let found = warm_as_cold(&ws, "a picture gone");
    assert!(found.contains("\"art::missing\""), "{found}");
}

#[test]
fn a_card_file_with_art_and_references_rechecks_as_a_cold_check_would() {
    let ws = starter_checked();
    let spells = "cards/duel/spells.toml";
    replace_once(&ws, spells, "name = \"Fireball\"", "name = \"Fire Ball\"");
    stamp_at(&ws.path().join(spells), 1_700_000_001);
    warm_as_cold(&ws, "a rename");
    // A spell showing a picture another card shows and naming a hero.
    let more = "cards/duel/more.toml";
    let spell = |hero: &str| {
        format!(
            "[[card]]\nid = \"nova\"\nkind = \"spell\"\nname = \"Nova\"\ncost = 2\nelement = \"fire\"\neffect = \"x\"\nart = \"art/ember.svg\"\nhero = \"{hero}\"\n"
        )
    };
    let write = |text: String, secs: u64| {
        ws.write(more, text);
        stamp_at(&ws.path().join(more), secs);
    };
    write(spell("ember"), 1_700_000_002);
    warm_as_cold(&ws, "a spell file added");
    std::fs::remove_file(ws.path().join(more)).unwrap();
    warm_as_cold(&ws, "that file deleted");
    // A spell naming no hero there, then one whose picture is no picture:
    // compiled, each reported as a cold check reports it.
    write(spell("nobody"), 1_700_000_003);
    let found = warm_as_cold(&ws, "a reference to no card");
    assert!(found.contains("\"link::dangling-ref\""), "{found}");
    // (The file gone again, the check leaves a record of no error.)
    std::fs::remove_file(ws.path().join(more)).unwrap();
    ws.run(["check"]).succeeds();
    ws.write("cards/duel/art/bad.svg", "not a picture");
    write(
        spell("ember").replace("art/ember.svg", "art/bad.svg"),
        1_700_000_004,
    );
    let found = warm_as_cold(&ws, "a picture that is none");
    assert!(found.contains("\"art::not-an-image\""), "{found}");
}
