//! Table-driven tests of every rule kind, on a small in-memory game.

use serde_json::json;

use super::{Check, DeckView, Entry, Rules, compile};
use crate::diag::{Diagnostics, FileId, SourceMap};
use crate::link::{CardPool, link};
use crate::validate::{GameSchemas, RawCard};

/// A game of a few cards: two kingdoms' characters, a city per kingdom, a hero, actions.
fn pool() -> CardPool {
    let cards = [
        ("city-a", "city", json!({"kingdom": "a"})),
        ("city-b", "city", json!({"kingdom": "b"})),
        ("hero-a", "hero", json!({"kingdom": "a"})),
        ("knight", "character", json!({"kingdom": "a", "level": 1})),
        (
            "knight-2",
            "character",
            json!({"kingdom": "a", "level": 2, "deck_limit": 5}),
        ),
        ("rogue", "character", json!({"kingdom": "b", "level": 1})),
        (
            "sellsword",
            "character",
            json!({"kingdom": "b", "mercenary": true, "level": 2}),
        ),
        (
            "king",
            "character",
            json!({"kingdom": "a", "unique": true, "level": 3}),
        ),
        ("bolt", "action", json!({})),
        ("heal", "action", json!({})),
    ];
    linked(&cards)
}

/// The pool of `cards` (id, kind, fields): the knights share a name, every
/// other card is named by its id.
fn linked(cards: &[(&str, &str, serde_json::Value)]) -> CardPool {
    let raw = cards
        .iter()
        .enumerate()
        .map(|(i, (id, kind, fields))| RawCard {
            id: (*id).into(),
            kind: (*kind).into(),
            // Two printings share a name: knight and knight-2.
            name: if id.starts_with("knight") {
                "Knight".into()
            } else {
                (*id).into()
            },
            copies: None,
            errata: Vec::new(),
            fields: fields.as_object().unwrap().clone(),
            packed: None,
            file: FileId(0),
            header: i..i,
            id_span: i..i,
            refs: Vec::new(),
            names: 0,
        })
        .collect();
    link(raw, &mut Diagnostics::new())
}

fn rules(extra: &str) -> (CardPool, Rules, Diagnostics) {
    let text = format!(
        "id = \"g\"\nname = \"G\"\nlanguage = \"en\"\n[kinds.city]\nname = \"City\"\n[kinds.hero]\nname = \"Hero\"\n\
         [kinds.character]\nname = \"Character\"\n[kinds.action]\nname = \"Action\"\n\
         [zones.main]\nname = \"Main\"\nkinds = [\"city\", \"hero\", \"character\", \"action\"]\n\
         [zones.side]\nname = \"Side\"\nkinds = [\"action\"]\n{extra}"
    );
    let mut sources = SourceMap::new();
    let file = sources.add("game.toml", text);
    let mut diags = Diagnostics::new();
    let manifest = crate::validate::manifest::parse("g", file, &sources, &mut diags)
        .expect("the test manifest parses");
    let pool = pool();
    let rules = compile(&manifest, &pool, &GameSchemas::default(), &mut diags);
    (pool, rules, diags)
}

fn deck(pool: &CardPool, main: &[(&str, u32)], side: &[(&str, u32)]) -> DeckView {
    let zone = |lines: &[(&str, u32)]| {
        lines
            .iter()
            .map(|(id, n)| Entry {
                card: u32::try_from(pool.position(id).unwrap()).unwrap(),
                count: *n,
            })
            .collect()
    };
    DeckView {
        zones: vec![zone(main), zone(side)],
    }
}

/// Runs a table of (main zone, side zone, rule ids expected broken) against one rule set.
/// Deck lines: (card id, copies).
type Lines<'a> = &'a [(&'a str, u32)];

fn table(rule: &str, cases: &[(Lines<'_>, Lines<'_>, &[&str])]) {
    let (pool, rules, diags) = rules(rule);
    assert!(
        !diags.has_errors(),
        "{:?}",
        diags.iter().collect::<Vec<_>>()
    );
    for (main, side, expected) in cases {
        let view = deck(&pool, main, side);
        let broken: Vec<&str> = rules
            .deck
            .check(&view)
            .iter()
            .map(|v| rules.deck.rules[v.rule].id.as_str())
            .collect();
        assert_eq!(&broken, expected, "deck {main:?} / {side:?}");
        let legal = !rules.deck.check(&view).iter().any(|v| {
            rules.deck.rules[v.rule].severity == crate::config::rules::RuleSeverity::Error
        });
        assert_eq!(
            rules.deck.is_legal(&view),
            legal,
            "is_legal agrees with check on {main:?}"
        );
    }
}

#[test]
fn size_bounds_a_zone_or_the_whole_deck() {
    table(
        "[[deck-rules]]\nid = \"main-4\"\nname = \"Four\"\nzone = \"main\"\nsize = { exact = 4 }\n\
         [[deck-rules]]\nid = \"all-2-5\"\nname = \"Two to five\"\nsize = { min = 2, max = 5 }\n",
        &[
            (&[("bolt", 2), ("heal", 2)], &[], &[]),
            (&[("bolt", 2), ("heal", 2)], &[("bolt", 1)], &[]),
            (&[("bolt", 2), ("heal", 2)], &[("bolt", 2)], &["all-2-5"]),
            (&[("bolt", 1)], &[], &["main-4", "all-2-5"]),
            (&[("bolt", 3), ("heal", 2)], &[], &["main-4"]),
        ],
    );
}

#[test]
fn count_bounds_matching_cards_overall_and_per_group() {
    table(
        "[[deck-rules]]\nid = \"actions\"\nname = \"Two actions\"\nzone = \"main\"\ncount = { filter = { kind = \"action\" }, exact = 2 }\n\
         [[deck-rules]]\nid = \"per-kingdom\"\nname = \"At most two per kingdom\"\ncount = { filter = { kind = \"character\" }, per = \"kingdom\", max = 2 }\n\
         [[deck-rules]]\nid = \"low-level\"\nname = \"A level-1 character\"\ncount = { filter = { level = { max = 1 } }, min = 1 }\n",
        &[
            (&[("bolt", 1), ("heal", 1), ("knight", 1)], &[], &[]),
            (
                &[("bolt", 2), ("heal", 1), ("knight", 1)],
                &[],
                &["actions"],
            ),
            (&[("bolt", 2), ("knight", 2), ("rogue", 2)], &[], &[]),
            (
                &[("bolt", 2), ("knight", 2), ("king", 1)],
                &[],
                &["per-kingdom"],
            ),
            (&[("bolt", 2), ("king", 1)], &[], &["low-level"]),
        ],
    );
}

#[test]
fn count_per_group_requires_listed_groups() {
    table(
        "[[deck-rules]]\nid = \"each-kingdom\"\nname = \"One city per kingdom\"\ncount = { filter = { kind = \"city\" }, per = \"kingdom\", exact = 1, values = [\"a\", \"b\"] }\n",
        &[
            (&[("city-a", 1), ("city-b", 1)], &[], &[]),
            (&[("city-a", 1)], &[], &["each-kingdom"]),
            (&[("city-a", 2), ("city-b", 1)], &[], &["each-kingdom"]),
        ],
    );
}

#[test]
fn copies_limit_by_id_or_name_with_overrides_and_a_card_field() {
    table(
        "[[deck-rules]]\nid = \"copies\"\nname = \"Three of a name\"\ncopies = { max = 3, key = \"name\", field = \"deck_limit\", \
         overrides = [{ filter = { unique = true }, max = 1 }, { filter = { kind = [\"city\", \"hero\"] }, max = 1 }] }\n",
        &[
            (&[("knight", 2), ("rogue", 3)], &[], &[]),
            (&[("rogue", 4)], &[], &["copies"]),
            (&[("bolt", 2)], &[("bolt", 2)], &["copies"]),
            (&[("king", 2)], &[], &["copies"]),
            (&[("city-a", 2)], &[], &["copies"]),
            // knight-2 may have 5 of its own, but shares the name "Knight" with knight:
            // the stricter limit of the two holds for the name.
            (&[("knight-2", 5)], &[], &[]),
            (&[("knight", 2), ("knight-2", 2)], &[], &["copies"]),
        ],
    );
}

#[test]
fn share_caps_a_group_with_renamed_kinds() {
    table(
        "[[deck-rules]]\nid = \"half\"\nname = \"No type above half\"\nzone = \"main\"\n\
         share = { by = \"kind\", groups = { city = \"Item\", hero = \"Character\", character = \"Character\" }, max-percent = 50 }\n",
        &[
            (&[("bolt", 2), ("knight", 1), ("hero-a", 1)], &[], &[]),
            (&[("bolt", 3), ("knight", 1)], &[], &["half"]),
            (&[("bolt", 1), ("knight", 2), ("hero-a", 1)], &[], &["half"]),
            (&[("city-a", 1), ("bolt", 1)], &[], &[]),
        ],
    );
}

#[test]
fn bind_ties_cards_to_the_bound_card() {
    table(
        "[[deck-rules]]\nid = \"kingdom\"\nname = \"The city's kingdom\"\nseverity = \"warning\"\n\
         bind = { bound = { kind = \"city\" }, filter = { kind = \"character\", mercenary = { not = true } }, field = \"kingdom\" }\n",
        &[
            (&[("city-a", 1), ("knight", 3), ("sellsword", 1)], &[], &[]),
            (&[("city-a", 1), ("rogue", 1)], &[], &["kingdom"]),
            (&[("city-b", 1), ("rogue", 1), ("sellsword", 2)], &[], &[]),
            // Two cities: no single bound card, so the rule does not apply.
            (&[("city-a", 1), ("city-b", 1), ("rogue", 1)], &[], &[]),
        ],
    );
}

#[test]
fn distinct_forbids_repeats_by_id_or_key() {
    table(
        "[[deck-rules]]\nid = \"different\"\nname = \"All different\"\nzone = \"main\"\ndistinct = { filter = { kind = \"character\" } }\n\
         [[deck-rules]]\nid = \"names\"\nname = \"Different names\"\nzone = \"side\"\ndistinct = { key = \"name\" }\n",
        &[
            (
                &[("knight", 1), ("rogue", 1), ("bolt", 4)],
                &[("bolt", 1), ("heal", 1)],
                &[],
            ),
            (&[("knight", 2)], &[], &["different"]),
            (&[("knight", 1), ("knight-2", 1)], &[], &[]),
            (&[], &[("bolt", 2)], &["names"]),
        ],
    );
}

#[test]
fn messages_follow_the_template_or_say_expected_and_actual() {
    let (pool, rules, _) = rules(
        "[[deck-rules]]\nid = \"actions\"\nname = \"Split: actions\"\nzone = \"main\"\ncount = { filter = { kind = \"action\" }, exact = 2 }\n\
         [[deck-rules]]\nid = \"size\"\nname = \"Size\"\nzone = \"main\"\nsize = { exact = 2 }\nmessage = \"{zone} has {actual}, {rule} wants {expected}\"\n",
    );
    let v = rules
        .deck
        .check(&deck(&pool, &[("bolt", 2), ("heal", 1)], &[]));
    assert_eq!(
        v[0].message,
        "3 `action` cards; the rule *Split: actions* requires exactly 2"
    );
    assert_eq!(v[1].message, "Main has 3 cards, Size wants exactly 2");
    assert_eq!(v[0].entries.len(), 2, "both action lines are labelled");
}

#[test]
fn explain_tallies_every_rule() {
    let (pool, rules, _) = rules(
        "[[deck-rules]]\nid = \"size\"\nname = \"Size\"\nzone = \"main\"\nsize = { exact = 2 }\n",
    );
    let tallies = rules.deck.explain(&deck(&pool, &[("bolt", 2)], &[]));
    assert_eq!(tallies.len(), 1);
    assert!(tallies[0].ok);
    assert_eq!(
        (tallies[0].actual.as_str(), tallies[0].expected.as_str()),
        ("2 cards", "exactly 2")
    );
}

#[test]
fn broken_rule_declarations_are_reported_in_the_manifest() {
    let cases: [(&str, &str); 7] = [
        ("[[deck-rules]]\nid = \"r\"\nname = \"R\"\n", "rules::check"),
        (
            "[[deck-rules]]\nid = \"r\"\nname = \"R\"\nsize = { exact = 1 }\ncount = { filter = {}, exact = 1 }\n",
            "rules::check",
        ),
        (
            "[[deck-rules]]\nid = \"r\"\nname = \"R\"\nzone = \"mian\"\nsize = { exact = 1 }\n",
            "rules::zone",
        ),
        (
            "[[deck-rules]]\nid = \"r\"\nname = \"R\"\nsize = { exact = 1, min = 1 }\n",
            "rules::bounds",
        ),
        (
            "[[deck-rules]]\nid = \"r\"\nname = \"R\"\ncount = { filter = { kind = \"hreo\" }, min = 1 }\n",
            "rules::unknown-kind",
        ),
        (
            "[[deck-rules]]\nid = \"r\"\nname = \"R\"\ncount = { filter = { level = { above = 1 } }, min = 1 }\n",
            "rules::filter",
        ),
        (
            "[[box-rules]]\nid = \"r\"\nname = \"R\"\nzone = \"main\"\nsize = { exact = 1 }\n",
            "rules::zone",
        ),
    ];
    for (rule, code) in cases {
        let (_, _, diags) = rules(rule);
        let codes: Vec<&str> = diags.iter().map(|d| d.code).collect();
        assert_eq!(codes, [code], "{rule}");
        assert!(
            diags.iter().all(|d| d.primary.is_some()),
            "placed in game.toml: {rule}"
        );
    }
}

#[test]
fn duplicate_rule_ids_point_at_both() {
    let (_, rules, diags) = rules(
        "[[deck-rules]]\nid = \"r\"\nname = \"R\"\nsize = { min = 1 }\n[[deck-rules]]\nid = \"r\"\nname = \"R2\"\nsize = { min = 2 }\n",
    );
    let d: Vec<_> = diags.iter().collect();
    assert_eq!(d.len(), 1);
    assert_eq!(d[0].code, "rules::duplicate-id");
    assert_eq!(d[0].labels.len(), 1);
    assert_eq!(rules.deck.rules.len(), 1);
}

#[test]
fn box_rules_see_every_card_copies_times() {
    let (pool, rules, diags) = rules(
        "[[box-rules]]\nid = \"ten\"\nname = \"Ten cards\"\nsize = { exact = 10 }\n\
         [[box-rules]]\nid = \"one-city\"\nname = \"One city per kingdom\"\ncount = { filter = { kind = \"city\" }, per = \"kingdom\", exact = 1 }\n",
    );
    assert!(!diags.has_errors());
    let view = crate::deck::box_view(&pool);
    assert!(rules.boxed.check(&view).is_empty());
    let (pool, eleven, _) =
        self::rules("[[box-rules]]\nid = \"eleven\"\nname = \"Eleven\"\nsize = { exact = 11 }\n");
    let broken = eleven.boxed.check(&crate::deck::box_view(&pool));
    assert_eq!(broken.len(), 1);
    assert_eq!(
        broken[0].message,
        "10 cards; the rule *Eleven* requires exactly 11"
    );
}

#[test]
fn copies_by_a_name_no_two_cards_share_take_the_fast_path_and_agree() {
    let fused = |rule: &str| {
        let (_, rules, _) = rules(rule);
        matches!(&rules.deck.rules[0].check, super::Check::Copies(c) if c.by_id)
    };
    // bolt and heal have names of their own; knight and knight-2 share "Knight".
    let unique = "[[deck-rules]]\nid = \"two\"\nname = \"Two of a name\"\nzone = \"main\"\n\
                  copies = { filter = { kind = \"action\" }, key = \"name\", max = 2 }\n";
    let shared = "[[deck-rules]]\nid = \"two\"\nname = \"Two of a name\"\nzone = \"main\"\n\
                  copies = { filter = { kind = \"character\" }, key = \"name\", max = 2 }\n";
    assert!(fused(unique));
    assert!(!fused(shared));
    table(
        unique,
        &[
            (&[("bolt", 2), ("heal", 2)], &[], &[]),
            (&[("bolt", 3)], &[], &["two"]),
        ],
    );
    table(
        shared,
        &[
            (&[("knight", 1), ("knight-2", 1)], &[], &[]),
            (&[("knight", 2), ("knight-2", 1)], &[], &["two"]),
        ],
    );
}

#[test]
fn a_broken_copy_limit_blames_the_line_that_goes_over_it() {
    let (pool, rules, _) = rules(
        "[[deck-rules]]\nid = \"two\"\nname = \"Two of a name\"\nzone = \"main\"\n\
         copies = { key = \"name\", max = 2 }\n",
    );
    let view = deck(&pool, &[("knight", 1), ("bolt", 1), ("knight-2", 2)], &[]);
    let v = &rules.deck.check(&view)[0];
    assert_eq!(
        v.primary,
        Some((0, 2)),
        "the third copy is on the third line"
    );
    assert_eq!(v.entries, [(0, 0)]);
}

#[test]
fn missing_says_how_many_cards_a_minimum_lacks() {
    let (pool, rules, _) = rules(
        "[[deck-rules]]\nid = \"levels\"\nname = \"Three level-1\"\nzone = \"main\"\n\
         message = \"{missing} missing of {expected}: {actual}\"\n\
         count = { filter = { kind = \"character\", level = 1 }, min = 3 }\n",
    );
    let view = deck(&pool, &[("knight", 1), ("sellsword", 2)], &[]);
    assert_eq!(
        rules.deck.check(&view)[0].message,
        "2 missing of at least 3: 1 matching `character` card"
    );
}

#[test]
fn a_format_extends_or_replaces_the_games_deck_rules() {
    let (pool, rules, diags) = rules(
        "[[deck-rules]]\nid = \"four\"\nname = \"Four\"\nzone = \"main\"\nsize = { exact = 4 }\n\
         [formats.league]\nname = \"League\"\nextends-default = true\n\
         [[formats.league.deck-rules]]\nid = \"one-each\"\nname = \"One each\"\nsource = \"sample: a league\"\nzone = \"main\"\ncopies = { max = 1 }\n\
         [formats.quick]\nname = \"Quick\"\n\
         [[formats.quick.deck-rules]]\nid = \"two\"\nname = \"Two\"\nzone = \"main\"\nsize = { exact = 2 }\n",
    );
    assert!(!diags.has_errors());
    let ids = |set: &super::RuleSet| set.rules.iter().map(|r| r.id.clone()).collect::<Vec<_>>();
    assert_eq!(ids(&rules.deck), ["four"]);
    assert_eq!(ids(&rules.formats["league"]), ["four", "one-each"]);
    assert_eq!(ids(&rules.formats["quick"]), ["two"]);
    assert_eq!(
        rules.formats["league"].rules[1].pointer,
        "/formats/league/deck-rules/0"
    );
    assert_eq!(
        rules.formats["league"].rules[1].source.as_deref(),
        Some("sample: a league")
    );
    let two_and_two = deck(&pool, &[("bolt", 2), ("heal", 2)], &[]);
    assert!(rules.deck.is_legal(&two_and_two));
    assert!(!rules.formats["league"].is_legal(&two_and_two));
    assert!(rules.formats["quick"].is_legal(&deck(&pool, &[("bolt", 2)], &[])));
}

#[test]
fn a_cap_limits_what_one_card_adds_to_a_count() {
    // `king` is unique: however many the deck holds, it adds one.
    table(
        "[[deck-rules]]\nid = \"three\"\nname = \"Three characters\"\nzone = \"main\"\n\
         count = { filter = { kind = \"character\" }, min = 3, cap = [{ filter = { unique = true }, max = 1 }] }\n",
        &[
            (&[("knight", 2), ("king", 1)], &[], &[]),
            (&[("king", 3)], &[], &["three"]),
            (&[("king", 2), ("rogue", 1)], &[], &["three"]),
            (&[("king", 2), ("rogue", 2)], &[], &[]),
        ],
    );
}

#[test]
fn a_cap_keyed_by_name_limits_a_reprint_with_its_original() {
    // `knight` and its reprint `knight-2` are one card by name: two of
    // them add two, whichever printings; by id each line adds its own two.
    let by_name = "[[deck-rules]]\nid = \"three\"\nname = \"Three characters\"\nzone = \"main\"\n\
         count = { filter = { kind = \"character\" }, min = 3, key = \"name\", cap = [{ filter = {}, max = 2 }] }\n";
    table(
        by_name,
        &[
            (&[("knight", 2), ("knight-2", 2)], &[], &["three"]),
            (&[("knight", 1), ("knight-2", 1), ("rogue", 1)], &[], &[]),
            (&[("knight", 2), ("knight-2", 1), ("rogue", 1)], &[], &[]),
            (&[("knight", 3)], &[], &["three"]),
        ],
    );
    table(
        &by_name.replace(", key = \"name\"", ""),
        &[(&[("knight", 2), ("knight-2", 2)], &[], &[])],
    );
    // A key's cards take the lowest cap among them: the unique `king`
    // caps all of kingdom a at one, kingdom b keeps its three.
    table(
        "[[deck-rules]]\nid = \"three\"\nname = \"Three characters\"\nzone = \"main\"\n\
         count = { filter = { kind = \"character\" }, min = 3, key = \"kingdom\", cap = [{ filter = { unique = true }, max = 1 }, { filter = {}, max = 3 }] }\n",
        &[
            (&[("knight", 2), ("rogue", 1)], &[], &["three"]),
            (&[("knight", 2), ("king", 1), ("rogue", 1)], &[], &["three"]),
            (&[("knight", 1), ("rogue", 2)], &[], &[]),
            (&[("rogue", 2), ("sellsword", 1)], &[], &[]),
        ],
    );
}

#[test]
fn like_counts_only_cards_sharing_a_field_with_the_one_bound_card() {
    // Two level-1 characters of the city's kingdom: `rogue` (kingdom b)
    // does not count beside `city-a`, and counts beside `city-b`.
    table(
        "[[deck-rules]]\nid = \"two\"\nname = \"Two of the city's kingdom\"\nzone = \"main\"\n\
         count = { filter = { kind = \"character\", level = 1 }, like = { bound = { kind = \"city\" }, field = \"kingdom\" }, min = 2 }\n",
        &[
            (&[("city-a", 1), ("knight", 2)], &[], &[]),
            (&[("city-a", 1), ("knight", 1), ("rogue", 1)], &[], &["two"]),
            (&[("city-a", 1), ("rogue", 3)], &[], &["two"]),
            (&[("city-b", 1), ("rogue", 2)], &[], &[]),
            // No single bound card: every matching card counts.
            (&[("knight", 1), ("rogue", 1)], &[], &[]),
            (
                &[("city-a", 1), ("city-b", 1), ("knight", 1), ("rogue", 1)],
                &[],
                &[],
            ),
        ],
    );
}

/// A figure as a test reads it: (rule, group, value, min, max, ok).
type Shown<'a> = (&'a str, &'a str, f64, Option<f64>, Option<f64>, bool);

#[test]
fn figures_are_the_numbers_the_rules_bound_and_agree_with_the_check() {
    let (pool, rules, diags) = rules(
        "[[deck-rules]]\nid = \"size\"\nname = \"Size\"\nzone = \"main\"\nsize = { min = 2, max = 6 }\n\
         [[deck-rules]]\nid = \"per-kingdom\"\nname = \"Per kingdom\"\nzone = \"main\"\ncount = { filter = { kind = \"character\" }, per = \"kingdom\", max = 2, values = [\"a\", \"b\"] }\n\
         [[deck-rules]]\nid = \"half\"\nname = \"Half\"\nzone = \"main\"\nshare = { by = \"kind\", max-percent = 50 }\n\
         [[deck-rules]]\nid = \"copies\"\nname = \"Copies\"\ncopies = { max = 3 }\n",
    );
    assert!(!diags.has_errors());
    let view = deck(&pool, &[("knight", 3), ("bolt", 1)], &[]);
    let figures = rules.deck.figures(&view);
    let shown: Vec<Shown<'_>> = figures
        .iter()
        .map(|f| {
            let id = rules.deck.rules[f.rule].id.as_str();
            (id, f.group.as_str(), f.value, f.min, f.max, f.ok)
        })
        .collect();
    assert_eq!(
        shown,
        [
            ("size", "", 4.0, Some(2.0), Some(6.0), true),
            ("per-kingdom", "kingdom `a`", 3.0, None, Some(2.0), false),
            ("per-kingdom", "kingdom `b`", 0.0, None, Some(2.0), true),
            ("half", "city", 0.0, None, Some(50.0), true),
            ("half", "hero", 0.0, None, Some(50.0), true),
            ("half", "character", 75.0, None, Some(50.0), false),
            ("half", "action", 25.0, None, Some(50.0), true),
        ],
        "copies bound no figure of the deck"
    );
    let broken: std::collections::BTreeSet<usize> =
        rules.deck.check(&view).iter().map(|v| v.rule).collect();
    for f in figures.iter().filter(|f| !f.ok) {
        assert!(
            broken.contains(&f.rule),
            "a figure out of bounds is a broken rule: {f:?}"
        );
    }
}

#[test]
fn copy_limit_is_the_least_error_limit_of_a_card_in_its_zone() {
    let (pool, limited, diags) = rules(
        "[[deck-rules]]\nid = \"copies\"\nname = \"Three\"\ncopies = { max = 3, overrides = [{ filter = { unique = true }, max = 1 }] }\n\
         [[deck-rules]]\nid = \"two\"\nname = \"Two in the side\"\nzone = \"side\"\ncopies = { max = 2 }\n\
         [[deck-rules]]\nid = \"soft\"\nname = \"One, a warning\"\nseverity = \"warning\"\ncopies = { max = 1 }\n\
         [[deck-rules]]\nid = \"different\"\nname = \"Different\"\nzone = \"main\"\ndistinct = { filter = { kind = \"action\" } }\n",
    );
    assert!(
        !diags.has_errors(),
        "{:?}",
        diags.iter().collect::<Vec<_>>()
    );
    let at = |id: &str| pool.position(id).unwrap();
    let set = &limited.deck;
    assert_eq!(set.copy_limit(0, at("knight")), Some(3));
    assert_eq!(set.copy_limit(0, at("king")), Some(1), "an override");
    assert_eq!(
        set.copy_limit(1, at("bolt")),
        Some(2),
        "the side's own rule"
    );
    assert_eq!(set.copy_limit(0, at("bolt")), Some(1), "distinct in main");
    let (_, free, _) = rules("");
    assert_eq!(free.deck.copy_limit(0, at("knight")), None);
}

/// The rules (by index) a deck breaks with one more copy of `card` in
/// `zone`, found the long way: adding the copy (to the card's line of the
/// zone, or on a new line) and testing every rule — the oracle
/// [`super::RuleSet::one_more`] answers like.
fn one_more_by_hand(set: &super::RuleSet, deck: &DeckView, zone: usize, card: u32) -> Vec<usize> {
    let mut view = deck.clone();
    match view.zones[zone].iter_mut().find(|e| e.card == card) {
        Some(e) => e.count += 1,
        None => view.zones[zone].push(Entry { card, count: 1 }),
    }
    (0..set.rules.len())
        .filter(|&i| !set.rules[i].holds(&view))
        .collect()
}

/// A deck of a third of the cards each zone takes, mostly one copy each.
fn random_view(set: &super::RuleSet, below: &mut impl FnMut(u64) -> u64) -> DeckView {
    let mut view = DeckView {
        zones: vec![Vec::new(); set.zones.len()],
    };
    for (z, zone) in set.zones.iter().enumerate() {
        for card in (0..zone.accepts.len()).filter(|&c| zone.accepts[c]) {
            if below(3) == 0 {
                let count = [1, 1, 1, 2, 3, 4][usize::try_from(below(6)).unwrap()];
                let card = u32::try_from(card).unwrap();
                view.zones[z].push(Entry { card, count });
            }
        }
    }
    view
}

#[test]
fn one_more_copy_of_any_card_answers_as_adding_it_and_testing_each_rule() {
    let (pool, rules, diags) = rules(
        "[[deck-rules]]\nid = \"size\"\nname = \"Size\"\nzone = \"main\"\nsize = { min = 2, max = 6 }\n\
         [[deck-rules]]\nid = \"all\"\nname = \"All\"\nsize = { max = 8 }\n\
         [[deck-rules]]\nid = \"actions\"\nname = \"Actions\"\nzone = \"main\"\ncount = { filter = { kind = \"action\" }, exact = 2 }\n\
         [[deck-rules]]\nid = \"per-kingdom\"\nname = \"Per kingdom\"\ncount = { filter = { kind = \"character\" }, per = \"kingdom\", max = 2, values = [\"a\", \"b\"] }\n\
         [[deck-rules]]\nid = \"cities\"\nname = \"A city each\"\nzone = \"main\"\ncount = { filter = { kind = \"city\" }, per = \"kingdom\", exact = 1, values = [\"a\", \"b\", \"a\"] }\n\
         [[deck-rules]]\nid = \"capped\"\nname = \"Capped\"\nzone = \"main\"\ncount = { filter = { kind = \"character\" }, min = 3, cap = [{ filter = { unique = true }, max = 1 }] }\n\
         [[deck-rules]]\nid = \"like\"\nname = \"Like\"\nzone = \"main\"\ncount = { filter = { kind = \"character\", level = 1 }, like = { bound = { kind = \"city\" }, field = \"kingdom\" }, min = 2 }\n\
         [[deck-rules]]\nid = \"like-per\"\nname = \"Like per level\"\ncount = { filter = { kind = \"character\" }, per = \"level\", values = [1, 3], like = { bound = { kind = \"city\" }, field = \"kingdom\" }, max = 2, cap = [{ filter = { unique = true }, max = 1 }] }\n\
         [[deck-rules]]\nid = \"capped-by-name\"\nname = \"Capped by name\"\nzone = \"main\"\ncount = { filter = { kind = \"character\" }, min = 4, key = \"name\", cap = [{ filter = {}, max = 2 }] }\n\
         [[deck-rules]]\nid = \"like-by-kingdom\"\nname = \"Like, by kingdom\"\ncount = { filter = { kind = \"character\" }, per = \"level\", like = { bound = { kind = \"city\" }, field = \"kingdom\" }, max = 2, key = \"kingdom\", cap = [{ filter = {}, max = 3 }] }\n\
         [[deck-rules]]\nid = \"copies\"\nname = \"Copies\"\ncopies = { max = 3, key = \"name\", field = \"deck_limit\", overrides = [{ filter = { unique = true }, max = 1 }] }\n\
         [[deck-rules]]\nid = \"side-copies\"\nname = \"Side copies\"\nzone = \"side\"\ncopies = { max = 2 }\n\
         [[deck-rules]]\nid = \"half\"\nname = \"Half\"\nzone = \"main\"\nshare = { by = \"kind\", groups = { city = \"Item\", hero = \"Character\", character = \"Character\" }, max-percent = 50 }\n\
         [[deck-rules]]\nid = \"bind\"\nname = \"Bind\"\nbind = { bound = { kind = \"city\" }, filter = { kind = \"character\", mercenary = { not = true } }, field = \"kingdom\" }\n\
         [[deck-rules]]\nid = \"bind-all\"\nname = \"Bind all\"\nzone = \"main\"\nbind = { bound = { kind = \"city\" }, filter = {}, field = \"kingdom\" }\n\
         [[deck-rules]]\nid = \"different\"\nname = \"Different\"\nzone = \"main\"\ndistinct = { filter = { kind = \"character\" } }\n\
         [[deck-rules]]\nid = \"names\"\nname = \"Names\"\ndistinct = { filter = { kind = \"character\" }, key = \"name\" }\n",
    );
    assert!(
        !diags.has_errors(),
        "{:?}",
        diags.iter().collect::<Vec<_>>()
    );
    let set = &rules.deck;
    let every: Vec<usize> = (0..set.rules.len()).collect();
    // For each rule: (cards it breaks for, cards it holds for).
    let mut seen = vec![(0u32, 0u32); set.rules.len()];
    let mut rng = 0x5eed_u64;
    let mut below = |n: u64| {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng % n
    };
    for _ in 0..2_500 {
        let view = random_view(set, &mut below);
        for z in 0..set.zones.len() {
            let more = set.one_more(&view, z, every.iter().copied());
            for card in 0..u32::try_from(pool.len()).unwrap() {
                let expected = one_more_by_hand(set, &view, z, card);
                let got: Vec<usize> = more.breaks(card).collect();
                assert_eq!(got, expected, "card {card} in zone {z} of {view:?}");
                for (i, s) in seen.iter_mut().enumerate() {
                    if expected.contains(&i) {
                        s.0 += 1;
                    } else {
                        s.1 += 1;
                    }
                }
            }
        }
    }
    for (i, (breaks, holds)) in seen.iter().enumerate() {
        assert!(
            *breaks > 0 && *holds > 0,
            "rule `{}` both breaks and holds on some decks: {breaks} / {holds}",
            set.rules[i].id
        );
    }
}

#[test]
fn rules_keyed_by_the_same_fields_share_the_keys_made_once_and_others_do_not() {
    let (_, rules, diags) = rules(
        "[[deck-rules]]\nid = \"two-names\"\nname = \"Two of a name\"\ncopies = { key = \"name\", max = 2 }\n\
         [[deck-rules]]\nid = \"names\"\nname = \"Different names\"\nzone = \"side\"\ndistinct = { key = \"name\" }\n\
         [[deck-rules]]\nid = \"kingdoms\"\nname = \"Two of a kingdom\"\ncopies = { key = \"kingdom\", max = 2 }\n",
    );
    assert!(
        !diags.has_errors(),
        "{:?}",
        diags.iter().collect::<Vec<_>>()
    );
    let keys: Vec<&super::keys::Keyed> = rules
        .deck
        .rules
        .iter()
        .map(|r| match &r.check {
            Check::Copies(c) => &c.key,
            Check::Distinct(d) => &d.key,
            _ => panic!("{} is not keyed", r.id),
        })
        .collect();
    let [by_name, distinct, by_kingdom] = keys[..] else {
        panic!("three rules: {keys:?}")
    };
    assert!(std::sync::Arc::ptr_eq(&by_name.key, &distinct.key));
    assert!(!std::sync::Arc::ptr_eq(&by_name.key, &by_kingdom.key));
    // Each its own: the names group cards by name, the kingdoms by kingdom.
    let pool = pool();
    let knight = pool.position("knight").unwrap();
    let at = u32::try_from(knight).unwrap();
    assert_eq!(by_name.words(at), pool.card(knight).name);
    assert_eq!(by_kingdom.words(at), "a");
}

/// A pool whose `level`s are spelled `1.0` (first) and `1`: one key, two
/// spellings.
fn spelled_pool() -> CardPool {
    let cards = [
        ("a", json!({"kingdom": "a", "level": 1.0})),
        ("b", json!({"kingdom": "a", "level": 1})),
        ("c", json!({"kingdom": "a", "level": 1})),
    ];
    let cards: Vec<_> = cards
        .into_iter()
        .map(|(id, fields)| (id, "character", fields))
        .collect();
    linked(&cards)
}

#[test]
fn a_decks_message_quotes_its_own_cards_not_the_first_of_the_pool_with_the_key() {
    let (_, _, diags) = rules("");
    assert!(!diags.has_errors());
    let text = "id = \"g\"\nname = \"G\"\nlanguage = \"en\"\n[kinds.character]\nname = \"Character\"\n\
         [zones.main]\nname = \"Main\"\nkinds = [\"character\"]\n\
         [[deck-rules]]\nid = \"one-per-level\"\nname = \"One per level\"\ncopies = { key = \"level\", max = 1 }\n\
         [[deck-rules]]\nid = \"levels\"\nname = \"Levels apart\"\ndistinct = { key = \"level\" }\n\
         [[deck-rules]]\nid = \"per-level\"\nname = \"Per level\"\ncount = { filter = { kind = \"character\" }, per = \"level\", min = 1, max = 1, values = [1, 2] }\n";
    let mut sources = SourceMap::new();
    let file = sources.add("game.toml", text.to_owned());
    let mut diags = Diagnostics::new();
    let manifest = crate::validate::manifest::parse("g", file, &sources, &mut diags);
    let manifest = manifest.unwrap_or_else(|| panic!("{:?}", diags.iter().collect::<Vec<_>>()));
    let pool = spelled_pool();
    let rules = compile(&manifest, &pool, &GameSchemas::default(), &mut diags);
    assert!(
        !diags.has_errors(),
        "{:?}",
        diags.iter().collect::<Vec<_>>()
    );
    let line = |id: &str| Entry {
        card: u32::try_from(pool.position(id).unwrap()).unwrap(),
        count: 1,
    };
    let view = DeckView {
        zones: vec![vec![line("b"), line("c")]],
    };
    let messages: Vec<String> = rules
        .deck
        .check(&view)
        .into_iter()
        .map(|v| v.message)
        .collect();
    assert_eq!(messages.len(), 4, "{messages:#?}");
    for m in &messages {
        assert!(
            !m.contains("1.0"),
            "quotes a card the deck does not name: {m}"
        );
    }
    assert!(messages.iter().any(|m| m.contains("`1`")), "{messages:#?}");
    assert!(
        messages.iter().any(|m| m.contains("level `2`")),
        "a required level the deck lacks, as the rule words it: {messages:#?}"
    );
    // A deck of `a` alone quotes `1.0`.
    let view = DeckView {
        zones: vec![vec![Entry {
            count: 2,
            ..line("a")
        }]],
    };
    let messages: Vec<String> = rules
        .deck
        .check(&view)
        .into_iter()
        .map(|v| v.message)
        .collect();
    assert!(
        messages.iter().any(|m| m.contains("`1.0`")),
        "{messages:#?}"
    );
}
