//! A made-up sixth game (`tests/fixtures/sixth-game`), written only as data,
//! is checked with no Rust change: its box rules, its decks, its rule kinds.

use crate::harness::{Workspace, copy_tree, repo};

fn mosaico() -> Workspace {
    let ws = Workspace::empty();
    copy_tree(&repo().join("tests/fixtures/sixth-game"), ws.path());
    ws
}

const LEGAL: &str = "game = \"mosaico\"\nname = \"Azul\"\n\n[main]\nazul-flor = 3\nazul-estrela = 1\nverde-flor = 3\nverde-onda = 2\nocre-flor = 2\nocre-onda = 3\n\n[patron]\ndona-azul = 1\n";

#[test]
fn the_sixth_game_checks_clean_and_its_deck_is_legal() {
    let ws = mosaico();
    ws.write("cards/mosaico/decks/azul.toml", LEGAL);
    ws.run(["check"])
        .succeeds()
        .stderr_has("checked 1 game, 11 cards: 0 errors, 0 warnings");
    ws.run(["deck", "check", "cards/mosaico/decks/azul.toml"])
        .succeeds();
}

#[test]
fn each_of_its_rules_is_enforced() {
    let ws = mosaico();
    let cases = [
        (
            "azul-flor = 3\n",
            "azul-flor = 4\n",
            "deck::copy-limit",
            "copies",
        ),
        (
            "azul-estrela = 1\n",
            "azul-estrela = 2\n",
            "deck::copy-limit",
            "copies",
        ),
        ("verde-onda = 2\nocre-flor = 2\n", "", "deck::size", "size"),
        (
            "dona-azul = 1\n",
            "dona-azul = 1\nseu-ocre = 1\n",
            "deck::size",
            "one-patron",
        ),
        (
            "ocre-flor = 2\nocre-onda = 3\n",
            "ocre-flor = 3\nocre-onda = 3\nocre-estrela = 1\n",
            "deck::share",
            "color-share",
        ),
    ];
    for (from, to, code, rule) in cases {
        ws.write("d.toml", LEGAL.replace(from, to));
        let run = ws
            .run(["--message-format", "json", "deck", "check", "d.toml"])
            .fails();
        let codes: Vec<String> = run
            .json()
            .iter()
            .map(|d| d["code"].as_str().unwrap().to_owned())
            .collect();
        assert!(
            codes.iter().any(|c| c == code),
            "{from:?} → {to:?}: {codes:?} (rule {rule})"
        );
    }
}

#[test]
fn a_warning_rule_with_its_own_message_leaves_the_deck_legal() {
    let ws = mosaico();
    ws.write(
        "d.toml",
        LEGAL.replace(
            "azul-estrela = 1\nverde-flor = 3\n",
            "azul-onda = 1\nverde-estrela = 1\nverde-flor = 2\n",
        ),
    );
    let run = ws
        .run(["--message-format", "json", "deck", "check", "d.toml"])
        .succeeds();
    let d = &run.json()[0];
    assert_eq!(d["severity"], "warning");
    assert_eq!(d["code"], "deck::bind");
    assert_eq!(
        d["message"],
        "o azulejo `verde-estrela` foge da cor do mecenas (color `verde`; esperado color `azul` like `dona-azul`)"
    );
    assert_eq!(d["line"], 7);
}

#[test]
fn its_box_rules_are_checked() {
    let ws = mosaico();
    ws.write("cards/mosaico/extra.toml", "[[card]]\nid = \"azul-extra\"\nkind = \"tile\"\nname = \"Extra\"\ncolor = \"azul\"\npattern = \"onda\"\n");
    let run = ws.run(["--message-format", "json", "check"]).fails();
    let d = &run.json()[0];
    assert_eq!(d["code"], "box::count");
    assert_eq!(d["file"], "cards/mosaico/game.toml");
    assert!(
        d["message"]
            .as_str()
            .unwrap()
            .starts_with("color `azul`: 7 `tile` cards"),
        "{}",
        d["message"]
    );
}

#[test]
fn a_deck_without_a_format_is_judged_by_the_games_rules_alone() {
    let ws = mosaico();
    // Three of one tile: the game allows it; the league (not chosen) would not.
    ws.write("d.toml", LEGAL);
    ws.run(["deck", "check", "d.toml"]).succeeds();
}

#[test]
fn a_format_that_extends_the_games_rules_adds_its_own() {
    let ws = mosaico();
    let league = LEGAL.replace("name = \"Azul\"\n", "name = \"Azul\"\nformat = \"liga\"\n");
    ws.write("d.toml", &league);
    let run = ws
        .run(["--message-format", "json", "deck", "check", "d.toml"])
        .fails();
    let broken: Vec<(String, u64)> = run
        .json()
        .iter()
        .filter(|d| d["severity"] == "error")
        .map(|d| {
            (
                d["code"].as_str().unwrap().to_owned(),
                d["line"].as_u64().unwrap(),
            )
        })
        .collect();
    // `azul-flor = 3`, `verde-flor = 3`, `ocre-onda = 3` break the league's limit of 2.
    assert_eq!(
        broken,
        [
            ("deck::copy-limit".to_owned(), 6),
            ("deck::copy-limit".to_owned(), 8),
            ("deck::copy-limit".to_owned(), 11),
        ]
    );
    // The game's own rules still hold in the league: a fourth copy breaks both limits.
    ws.write("d.toml", league.replace("azul-flor = 3", "azul-flor = 4"));
    let run = ws
        .run(["--message-format", "json", "deck", "check", "d.toml"])
        .fails();
    let rules: Vec<String> = run
        .json()
        .iter()
        .filter(|d| d["line"] == 6)
        .map(|d| d["message"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(rules.len(), 2, "{rules:?}");
    // `--explain` names the format and each rule's source.
    ws.write("d.toml", &league);
    ws.run(["deck", "check", "--explain", "d.toml"])
        .fails()
        .stdout_has("d.toml (Azul, format `liga`):")
        .stdout_has("source: sample: a made-up league's house rule");
}

#[test]
fn a_format_that_does_not_extend_replaces_the_games_rules() {
    let ws = mosaico();
    // Six tiles, four of one kind: only the lightning format's rule applies.
    let quick = "game = \"mosaico\"\nname = \"Raio\"\nformat = \"relampago\"\n\n[main]\nazul-flor = 4\nverde-flor = 2\n\n[patron]\ndona-azul = 1\n";
    ws.write("d.toml", quick);
    ws.run(["deck", "check", "d.toml"]).succeeds();
    ws.write("d.toml", quick.replace("format = \"relampago\"\n", ""));
    ws.run(["deck", "check", "d.toml"])
        .fails()
        .stderr_has("deck::size")
        .stderr_has("deck::copy-limit");
}

#[test]
fn an_unknown_format_is_reported_at_the_deck_with_a_did_you_mean() {
    let ws = mosaico();
    ws.write(
        "d.toml",
        LEGAL.replace("name = \"Azul\"\n", "name = \"Azul\"\nformat = \"ligaa\"\n"),
    );
    let run = ws
        .run(["--message-format", "json", "deck", "check", "d.toml"])
        .fails();
    let d = &run.json()[0];
    assert_eq!(d["code"], "deck::unknown-format");
    assert_eq!(
        (d["line"].as_u64(), d["column"].as_u64()),
        (Some(3), Some(10))
    );
    assert_eq!(d["help"], "did you mean `liga`?");
}

#[test]
fn a_format_rule_that_reuses_an_id_of_the_rules_it_extends_is_reported() {
    let ws = mosaico();
    let path = "cards/mosaico/game.toml";
    ws.write(
        path,
        ws.read(path)
            .replace("id = \"league-copies\"", "id = \"copies\""),
    );
    let run = ws.run(["--message-format", "json", "check"]).fails();
    let d = &run.json()[0];
    assert_eq!(d["code"], "rules::duplicate-id");
    assert_eq!(d["file"], "cards/mosaico/game.toml");
    assert_eq!(d["labels"][0]["message"], "first defined here");
}

#[test]
fn a_deck_code_carries_the_decks_format() {
    let ws = mosaico();
    let league = LEGAL.replace("name = \"Azul\"\n", "name = \"Azul\"\nformat = \"liga\"\n");
    ws.write("d.toml", &league);
    let code = ws.run(["deck", "code", "d.toml"]).succeeds().stdout;
    let plain = {
        ws.write("plain.toml", LEGAL);
        ws.run(["deck", "code", "plain.toml"]).succeeds().stdout
    };
    assert_ne!(code, plain, "the format is part of the code");
    ws.run(["deck", "decode", code.trim()])
        .succeeds()
        .stdout_has("format = \"liga\"");
    let decoded = ws.run(["deck", "decode", plain.trim()]).succeeds().stdout;
    assert!(!decoded.contains("format"), "{decoded}");
}
