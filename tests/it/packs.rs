//! The five shipped game packs, walked through the library: every card file
//! loads, every card validates, every declared kind has cards, the rules
//! hold, and every example deck is legal.

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

use carta::diag::{Diagnostics, Severity};
use carta::game::{Game, Keep, compile_all};
use carta::load::Workspace;

use crate::harness::{repo, run_in};

/// The games the repository ships.
const GAMES: [&str; 5] = ["covil", "exodo", "intrepidos", "kingdoms", "zodiacos"];

/// Checks the shipped workspace through the library.
fn shipped() -> (Workspace, Vec<Game>, Diagnostics) {
    let mut ws = Workspace::open(&repo()).expect("the repository is a workspace");
    let mut diags = Diagnostics::new();
    let games = compile_all(&mut ws, &[], Keep::All, &mut diags).expect("the shipped games load");
    (ws, games, diags)
}

/// Every `.toml` card file under `dir` (not `decks/`, not `game.toml`).
fn card_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if path.is_dir() {
            if name != "decks" && name != "i18n" {
                card_files(&path, out);
            }
        } else if path.extension().is_some_and(|e| e == "toml") && name != "game.toml" {
            out.push(path);
        }
    }
}

#[test]
fn every_shipped_game_loads_and_every_card_validates() {
    let (ws, games, diags) = shipped();
    // Advice (where each rule comes from) is not a problem.
    let problems: Vec<String> = diags
        .iter()
        .filter(|d| d.severity != Severity::Advice)
        .map(|d| {
            let at = d.primary.as_ref().map_or_else(String::new, |l| {
                let file = ws.sources.get(l.file);
                let lc = file.line_col(l.span.start);
                format!("{}:{}:{}: ", file.name, lc.line, lc.column)
            });
            format!("{at}{} {}: {}", d.severity.as_str(), d.code, d.message)
        })
        .collect();
    assert!(
        problems.is_empty(),
        "the shipped games are not clean:\n{}",
        problems.join("\n")
    );
    let ids: Vec<&str> = games
        .iter()
        .map(|g| g.manifest.manifest.id.as_str())
        .collect();
    assert_eq!(ids, GAMES, "every shipped game loads");
}

#[test]
fn every_card_in_every_card_file_is_in_the_pool() {
    let (ws, games, _) = shipped();
    for game in &games {
        let id = &game.manifest.manifest.id;
        let mut in_pool: BTreeMap<String, usize> = BTreeMap::new();
        for card in game.pool.iter() {
            *in_pool
                .entry(ws.sources.get(card.file).name.clone())
                .or_default() += 1;
        }
        let mut files = Vec::new();
        card_files(&repo().join("cards").join(id), &mut files);
        assert!(!files.is_empty(), "`{id}` has no card files");
        for path in files {
            let text = fs::read_to_string(&path).unwrap();
            let written = text.lines().filter(|l| l.trim() == "[[card]]").count();
            let rel = path
                .strip_prefix(repo())
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            assert!(written > 0, "{rel} holds no cards");
            assert_eq!(
                in_pool.get(&rel).copied().unwrap_or(0),
                written,
                "{rel}: every card written is loaded"
            );
        }
    }
}

#[test]
fn every_declared_kind_has_a_card() {
    let (_, games, _) = shipped();
    for game in &games {
        let manifest = &game.manifest.manifest;
        for kind in manifest.kinds.keys() {
            assert!(
                game.pool.iter().any(|c| &c.kind == kind),
                "`{}` declares the kind `{kind}` but has no card of it",
                manifest.id
            );
        }
    }
}

#[test]
fn every_pack_declares_its_rules_as_data() {
    let (_, games, _) = shipped();
    for game in &games {
        let m = &game.manifest.manifest;
        assert!(
            !m.box_rules.is_empty() || !m.deck_rules.is_empty(),
            "`{}` declares no rules",
            m.id
        );
        // A game with deck rules has zones and at least one example deck.
        if !m.deck_rules.is_empty() {
            assert!(
                !m.zones.is_empty(),
                "`{}` has deck rules but no zones",
                m.id
            );
            assert!(
                !game.decks.is_empty(),
                "`{}` has deck rules but no example deck",
                m.id
            );
        }
    }
}

#[test]
fn every_shipped_rule_says_where_it_comes_from() {
    let (_, games, _) = shipped();
    let mut seen = 0;
    for game in &games {
        let m = &game.manifest.manifest;
        for rule in m.all_rules() {
            seen += 1;
            let source = rule
                .source
                .as_deref()
                .unwrap_or_else(|| panic!("`{}`: the rule `{}` has no source", m.id, rule.id));
            // A rulebook section with a quote, or a reason it is not the rulebook's.
            let quoted = source.contains(": \"") && source.matches('"').count() >= 2;
            let reasoned = ["inferred: ", "sample: "]
                .iter()
                .any(|p| source.starts_with(p));
            assert!(
                quoted || reasoned,
                "`{}`: the source of `{}` neither quotes a section nor says why: {source}",
                m.id,
                rule.id
            );
        }
    }
    assert!(seen >= 50, "only {seen} shipped rules");
}

/// What a rule's `source` claims: stated by the rulebook, inferred, or a
/// sample of this pack — the status docs/rules.md must show for it.
fn status(source: &str) -> &'static str {
    if source.starts_with("inferred: ") {
        "inferred"
    } else if source.starts_with("sample: ") {
        "sample"
    } else if source.contains("(inferred: ") {
        "stated, with an inference"
    } else if source.contains("sample)") {
        "stated, with a sample"
    } else {
        "stated"
    }
}

#[test]
fn docs_rules_lists_every_shipped_rule_with_the_status_its_source_claims() {
    let docs = fs::read_to_string(repo().join("docs/rules.md")).unwrap();
    let (_, games, _) = shipped();
    for game in &games {
        let m = &game.manifest.manifest;
        let heading = format!("#### {}: ", m.id);
        let start = docs
            .find(&heading)
            .unwrap_or_else(|| panic!("docs/rules.md has no table for `{}`", m.id));
        let table = &docs[start..];
        let table = &table[..table[heading.len()..]
            .find("\n#### ")
            .or_else(|| table.find("\n### "))
            .map_or(table.len(), |end| end + heading.len())];
        for rule in m.all_rules() {
            let row = table
                .lines()
                .find(|l| l.starts_with(&format!("| `{}`", rule.id)))
                .unwrap_or_else(|| {
                    panic!("docs/rules.md lists no rule `{}` of `{}`", rule.id, m.id)
                });
            let want = status(rule.source.as_deref().unwrap_or_default());
            let shown = row.split(" | ").nth(2).unwrap_or_default();
            assert_eq!(shown, want, "`{}` of `{}`: {row}", rule.id, m.id);
        }
    }
}

#[test]
fn every_example_deck_is_legal() {
    let mut seen = 0;
    for game in GAMES {
        let dir = repo().join("cards").join(game).join("decks");
        if !dir.is_dir() {
            continue;
        }
        let mut decks: Vec<_> = fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "toml"))
            .collect();
        decks.sort();
        for deck in decks {
            let rel = deck
                .strip_prefix(repo())
                .unwrap()
                .to_string_lossy()
                .into_owned();
            run_in(&repo(), ["deck", "check", "--explain", rel.as_str()])
                .succeeds()
                .stderr_has("1 legal, 0 illegal: 0 errors, 0 warnings");
            seen += 1;
        }
    }
    assert!(seen >= 8, "only {seen} example decks");
}

#[test]
fn kingdoms_has_one_example_deck_per_kingdom() {
    let (_, games, _) = shipped();
    let kingdoms = games
        .iter()
        .find(|g| g.manifest.manifest.id == "kingdoms")
        .unwrap();
    let mut per_kingdom: BTreeMap<String, usize> = BTreeMap::new();
    for deck in &kingdoms.decks {
        for zone in &deck.zones {
            for entry in &zone.entries {
                let card = kingdoms.pool.get(&entry.id).unwrap();
                if card.kind == "city" {
                    let k = card.fields["kingdom"].as_str().unwrap().to_owned();
                    *per_kingdom.entry(k).or_default() += 1;
                }
            }
        }
    }
    let kingdoms: Vec<&str> = per_kingdom.keys().map(String::as_str).collect();
    assert_eq!(
        kingdoms,
        ["esquecido", "ferro", "livre", "renegado", "selvagem"]
    );
    assert!(per_kingdom.values().all(|&n| n == 1), "{per_kingdom:?}");
}

#[test]
fn an_off_kingdom_character_is_a_warning_and_a_mercenary_is_not() {
    let ws = crate::harness::Workspace::shipped(&["kingdoms"]);
    let deck = ws.read("cards/kingdoms/decks/aurora-de-valaria.toml");
    // A mercenary of another kingdom: legal, no warning.
    let merc = ws
        .write("merc.toml", format!("{deck}barbaro-errante = 1\n"))
        .run(["--message-format", "json", "deck", "check", "merc.toml"])
        .succeeds();
    assert!(merc.json().is_empty(), "{}", merc.stdout);
    // A non-mercenary of another kingdom: legal, with a warning at its line.
    let run = ws
        .write("off.toml", format!("{deck}esqueleto-guerreiro = 1\n"))
        .run(["--message-format", "json", "deck", "check", "off.toml"])
        .succeeds()
        .stdout_has(r#""code":"deck::bind""#);
    let diags = run.json();
    assert_eq!(diags.len(), 1, "{diags:?}");
    assert_eq!(diags[0]["severity"], "warning");
    assert_eq!(diags[0]["file"], "off.toml");
    assert_eq!(diags[0]["line"], deck.lines().count() + 1);
}
