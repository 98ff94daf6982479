//! `carta check` finds every error `carta build` can raise from the
//! sources, at the same place in the same words: editors and CI run
//! `check`, and a build that refuses what a check passed surprises both.

use std::collections::BTreeSet;

use crate::corpus::{case_workspace, cases};
use crate::harness::{Workspace, run_with};

/// An error as JSON output shows it: code, file, line, column, message.
type Error = (String, String, u64, u64, String);

/// The errors `carta <args>` reports in `ws`.
fn errors(ws: &Workspace, args: &[&str]) -> BTreeSet<Error> {
    let run = ws.run(["--message-format", "json"].iter().chain(args));
    run.json()
        .iter()
        .filter(|d| d["severity"] == "error")
        .map(|d| {
            (
                d["code"].as_str().unwrap_or_default().to_owned(),
                d["file"].as_str().unwrap_or_default().to_owned(),
                d["line"].as_u64().unwrap_or_default(),
                d["column"].as_u64().unwrap_or_default(),
                d["message"].as_str().unwrap_or_default().to_owned(),
            )
        })
        .collect()
}

/// Build's errors in `ws`, once each is known to be among check's.
fn build_within_check(ws: &Workspace, what: &str) -> BTreeSet<Error> {
    let check = errors(ws, &["check"]);
    let build = errors(ws, &["build"]);
    let missed: Vec<&Error> = build.difference(&check).collect();
    assert!(missed.is_empty(), "{what}: check misses {missed:#?}");
    build
}

#[test]
fn check_reports_every_error_build_raises_in_the_corpus() {
    let mut compared = 0;
    for case in &cases() {
        let (ws, cmd) = case_workspace(case);
        if cmd.trim() != "check" {
            continue;
        }
        build_within_check(&ws, &case.display().to_string());
        compared += 1;
    }
    assert!(compared >= 50, "only {compared} corpus cases run `check`");
}

/// What a build refuses in the sheets: an unknown icon token, a
/// template's unknown variable, a template that does not parse.
#[test]
fn check_reports_what_only_the_sheets_used_to_refuse() {
    let mutants: [(&str, &str, &str, &str); 4] = [
        (
            "an unknown icon token",
            "cards/duel/heroes.toml",
            "ability = \"",
            "ability = \"{NOPE} ",
        ),
        (
            "an icon token spelt with an escape",
            "cards/duel/heroes.toml",
            "ability = \"",
            "ability = \"\\u007BNOPE} ",
        ),
        (
            "a template's unknown variable",
            "templates/duel/hero.hbs",
            "{{fields.health}}",
            "{{fields.healht}}",
        ),
        (
            "a template that does not parse",
            "templates/duel/hero.hbs",
            "{{fields.health}}",
            "{{fields.health ~}",
        ),
    ];
    for (what, rel, from, to) in mutants {
        let ws = Workspace::empty();
        ws.run(["init", "--game", "duel"]).succeeds();
        // A first check leaves its caches: the mutant must get past them.
        ws.run(["check"]).succeeds();
        let text = ws.read(rel);
        assert!(text.contains(from), "{what}: `{from}` not in {rel}");
        ws.write(rel, text.replacen(from, to, 1));
        let build = build_within_check(&ws, what);
        assert!(!build.is_empty(), "{what}: the build refuses nothing");
        assert!(
            build.iter().any(|e| e.1 == rel),
            "{what}: no error in {rel}: {build:?}"
        );
        // And once more, from the caches the failing check left.
        build_within_check(&ws, what);
    }
}

/// A field no rule reads, which a template does, renamed in a card: the
/// check keeps none of that field, yet a cached check must not repeat the
/// last verdict, since the card's face now fails.
#[test]
fn a_cached_check_sees_a_field_a_template_reads_renamed() {
    let ws = Workspace::empty();
    ws.run(["init", "--game", "duel"]).succeeds();
    // `health` optional, and `hp` allowed beside it.
    let schema = "schemas/duel/hero.schema.json";
    let text = ws.read(schema);
    let optional = text.replacen("\"health\",\n", "", 1).replacen(
        "\"properties\": {",
        "\"properties\": {\n    \"hp\": { \"type\": \"integer\" },",
        1,
    );
    assert_ne!(optional, text, "the schema names `health` as required");
    ws.write(schema, optional);
    ws.run(["check"]).succeeds();
    // The check keeps no `health`: a new value repeats the last verdict.
    let cards = "cards/duel/heroes.toml";
    let text = ws.read(cards);
    assert!(text.contains("\nhealth = 20\n"));
    ws.write(
        cards,
        text.replacen("\nhealth = 20\n", "\nhealth = 21\n", 1),
    );
    let again = run_with(ws.path(), ["check"], &[("CARTA_LOG", "debug")]).succeeds();
    assert!(
        again.stderr.contains("record: verdict repeated"),
        "a value no rule reads changed: {}",
        again.stderr
    );
    ws.write(cards, text.replacen("\nhealth = 20\n", "\nhp = 20\n", 1));
    let warm = errors(&ws, &["check"]);
    let cold = errors(&ws, &["check", "--no-cache"]);
    assert_eq!(warm, cold, "a cached check says what an uncached one says");
    assert!(
        warm.iter().any(|e| e.4.contains("health")),
        "the face's unknown variable is reported: {warm:#?}"
    );
}
