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
