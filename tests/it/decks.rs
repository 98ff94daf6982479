//! Deck legality: an independent implementation of the intrépidos rules
//! agrees with the engine on random decks; deck codes round-trip; the CLI.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use carta::deck;
use carta::deckcode::{self, CodeDeck};
use carta::diag::{Diagnostics, Severity, SourceMap};
use carta::game::{Decks, Game, Keep, compile};
use carta::load::Workspace;
use proptest::prelude::*;

use crate::harness::{repo, run_in};

fn intrepidos() -> Game {
    let mut ws = Workspace::open(&repo()).unwrap();
    let mut diags = Diagnostics::new();
    let game = compile(&mut ws, "intrepidos", Decks::Skip, Keep::All, &mut diags)
        .unwrap()
        .unwrap();
    assert!(!diags.has_errors());
    game
}

/// A small deterministic random number generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }

    fn sample<'a>(&mut self, items: &[&'a str], n: usize) -> Vec<&'a str> {
        let mut pool = items.to_vec();
        (0..n)
            .map(|_| pool.swap_remove(self.below(pool.len())))
            .collect()
    }
}

type Zones = BTreeMap<&'static str, Vec<(String, i64)>>;

/// A legal deck by construction, then maybe mutated.
fn random_deck(rng: &mut Rng, by_kind: &HashMap<&str, Vec<&str>>) -> Zones {
    let kind = |k: &str| by_kind[k].clone();
    let items: Vec<&str> = ["equipment", "armament", "potion"]
        .iter()
        .flat_map(|k| kind(k))
        .collect();
    let mut main: Vec<(String, i64)> = rng
        .sample(&kind("action"), 15)
        .into_iter()
        .map(|id| (id.to_owned(), 2))
        .collect();
    main.extend(
        rng.sample(&items, 10)
            .into_iter()
            .map(|id| (id.to_owned(), 3)),
    );
    let team = rng
        .sample(&kind("intrepido"), 3)
        .into_iter()
        .map(|id| (id.to_owned(), 1))
        .collect();
    let mut setup = vec![
        (rng.pick(&kind("castle")).to_owned(), 1),
        (rng.pick(&kind("territory")).to_owned(), 1),
    ];
    for k in ["tower", "guardian"] {
        let (a, b) = (rng.pick(&kind(k)), rng.pick(&kind(k)));
        if a == b {
            setup.push((a.to_owned(), 2));
        } else {
            setup.extend([(a.to_owned(), 1), (b.to_owned(), 1)]);
        }
    }
    let mut zones: Zones = BTreeMap::from([("main", main), ("team", team), ("setup", setup)]);
    for _ in 0..rng.below(3) {
        let zone = *["main", "main", "team", "setup"].get(rng.below(4)).unwrap();
        let lines = zones.get_mut(zone).unwrap();
        let i = rng.below(lines.len());
        match rng.below(7) {
            0 => lines[i].1 += 1,
            1 => lines[i].1 -= 1,
            2 => lines[i].0 = format!("{}x", lines[i].0),
            3 => {
                let any: Vec<&str> = by_kind.values().flatten().copied().collect();
                let id = rng.pick(&any).to_owned();
                if !lines.iter().any(|(x, _)| *x == id) {
                    lines.push((id, 1));
                }
            }
            4 => {
                let swapped = if rng.below(2) == 0 {
                    "action"
                } else {
                    "potion"
                };
                let other = rng.pick(&kind(swapped));
                if !lines.iter().any(|(x, _)| x == other) {
                    other.clone_into(&mut lines[i].0);
                }
            }
            5 => lines[i].1 = 0,
            _ => {}
        }
    }
    zones
}

fn to_toml(zones: &Zones) -> String {
    let mut s = "game = \"intrepidos\"\nname = \"Aleatório\"\n".to_owned();
    for (zone, lines) in zones {
        s.push_str(&format!("\n[{zone}]\n"));
        for (id, n) in lines {
            s.push_str(&format!("{id} = {n}\n"));
        }
    }
    s
}

/// The intrépidos rules (the rulebook's EDIÇÃO DE DECK and setup), written out by hand: `None` when the
/// deck cannot be resolved (unknown card, bad count, wrong zone), else the
/// ids of the rules it breaks.
fn by_hand(zones: &Zones, kind_of: &HashMap<&str, &str>) -> Option<BTreeSet<&'static str>> {
    let accepts = |zone: &str, kind: &str| match zone {
        "main" => ["action", "equipment", "armament", "potion"].contains(&kind),
        "team" => kind == "intrepido",
        _ => ["castle", "tower", "guardian", "territory"].contains(&kind),
    };
    for (zone, lines) in zones {
        for (id, n) in lines {
            let kind = kind_of.get(id.as_str())?;
            if *n < 1 || !accepts(zone, kind) {
                return None;
            }
        }
    }
    let kind = |id: &str| kind_of[id];
    let total = |zone: &str, f: &dyn Fn(&str) -> bool| {
        zones[zone]
            .iter()
            .filter(|(id, _)| f(kind(id)))
            .map(|(_, n)| n)
            .sum::<i64>()
    };
    let item = |k: &str| ["equipment", "armament", "potion"].contains(&k);
    let mut broken = BTreeSet::new();
    let mut rule = |ok: bool, id: &'static str| {
        if !ok {
            broken.insert(id);
        }
    };
    rule(total("main", &|_| true) == 60, "deck-size");
    rule(total("main", &|k| k == "action") == 30, "split-actions");
    rule(total("main", &|k| item(k)) == 30, "split-items");
    rule(
        zones["main"]
            .iter()
            .all(|(id, n)| !item(kind(id)) || *n <= 3),
        "item-copies",
    );
    rule(
        zones["main"]
            .iter()
            .all(|(id, n)| kind(id) != "action" || *n <= 2),
        "action-copies",
    );
    rule(total("team", &|_| true) == 3, "team-size");
    rule(zones["team"].iter().all(|(_, n)| *n == 1), "team-distinct");
    for (id, k, n) in [
        ("setup-castle", "castle", 1),
        ("setup-towers", "tower", 2),
        ("setup-guardians", "guardian", 2),
        ("setup-territory", "territory", 1),
    ] {
        rule(total("setup", &|x| x == k) == n, id);
    }
    // The Alpha and the Beta differ (by name; no two setup cards share one).
    for (id, k) in [
        ("setup-towers-differ", "tower"),
        ("setup-guardians-differ", "guardian"),
    ] {
        rule(
            zones["setup"].iter().all(|(c, n)| kind(c) != k || *n <= 1),
            id,
        );
    }
    Some(broken)
}

#[test]
fn an_independent_implementation_agrees_with_the_engine_on_10000_random_decks() {
    let game = intrepidos();
    let kind_of: HashMap<&str, &str> = game
        .pool
        .iter()
        .map(|c| (c.id.as_str(), c.kind.as_str()))
        .collect();
    let mut by_kind: HashMap<&str, Vec<&str>> = HashMap::new();
    for c in game.pool.iter() {
        by_kind
            .entry(c.kind.as_str())
            .or_default()
            .push(c.id.as_str());
    }
    for v in by_kind.values_mut() {
        v.sort_unstable();
    }
    let mut rng = Rng(0x00c0_ffee);
    let (mut legal, mut illegal, mut unresolved) = (0, 0, 0);
    for n in 0..10_000 {
        let zones = random_deck(&mut rng, &by_kind);
        let text = to_toml(&zones);
        let mut sources = SourceMap::new();
        let file = sources.add("d.toml", text.clone());
        let mut out = Vec::new();
        let parsed = deck::parse(file, &text, &mut out).expect("a deck with a game");
        let resolved = deck::resolve(
            &parsed,
            &game.manifest,
            &game.pool,
            &game.rules.deck,
            &mut out,
        );
        let engine: Option<BTreeSet<&str>> = resolved.map(|r| {
            game.rules
                .deck
                .check(&r.view)
                .iter()
                .map(|v| game.rules.deck.rules[v.rule].id.as_str())
                .collect()
        });
        let expected = by_hand(&zones, &kind_of);
        assert_eq!(
            engine.as_ref().map(|s| s
                .iter()
                .map(std::string::ToString::to_string)
                .collect::<Vec<_>>()),
            expected.as_ref().map(|s| s
                .iter()
                .map(std::string::ToString::to_string)
                .collect::<Vec<_>>()),
            "deck {n}:\n{text}\n{out:?}"
        );
        match expected {
            None => {
                unresolved += 1;
                assert!(
                    out.iter().any(|d| d.severity == Severity::Error),
                    "an unresolved deck is reported"
                );
            }
            Some(b) if b.is_empty() => legal += 1,
            Some(_) => illegal += 1,
        }
    }
    assert!(
        legal > 1000 && illegal > 1000 && unresolved > 1000,
        "the mutations cover every case: {legal} legal, {illegal} illegal, {unresolved} unresolved"
    );
}

/// A deck of `lines` (zone, card, copies), each card picked among those
/// the zone takes.
fn code_deck(game: &Game, lines: &[(usize, usize, u32)], name: &str) -> CodeDeck {
    let zones = &game.manifest.manifest.zones;
    let mut deck = CodeDeck {
        game: "intrepidos".into(),
        name: name.into(),
        format: None,
        zones: indexmap::IndexMap::default(),
    };
    for &(z, card, count) in lines {
        let (zone, decl) = zones.get_index(z % zones.len()).unwrap();
        let fitting: Vec<&str> = game
            .pool
            .iter()
            .filter(|c| decl.kinds.contains(&c.kind))
            .map(|c| c.id.as_str())
            .collect();
        let id = fitting[card % fitting.len()].to_owned();
        deck.zones
            .entry(zone.clone())
            .or_default()
            .push((id, count));
    }
    deck
}

/// The canonical form of a deck: zones in manifest order, cards sorted and merged.
fn canonical(game: &Game, deck: &CodeDeck) -> BTreeMap<usize, BTreeMap<String, u32>> {
    let zones: Vec<&String> = game.manifest.manifest.zones.keys().collect();
    let mut out: BTreeMap<usize, BTreeMap<String, u32>> = BTreeMap::new();
    for (zone, lines) in &deck.zones {
        let z = zones.iter().position(|x| *x == zone).unwrap();
        for (id, n) in lines {
            *out.entry(z).or_default().entry(id.clone()).or_default() += n;
        }
    }
    out.retain(|_, v| !v.is_empty());
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    #[test]
    fn deck_codes_round_trip_and_are_canonical(
        lines in prop::collection::vec((0usize..3, 0usize..1000, 1u32..6), 0..40),
        name in "\\PC{0,30}",
        format in proptest::option::of("[a-z][a-z0-9-]{0,11}"),
        seed in any::<u64>(),
    ) {
        let game = game();
        let manifest = &game.manifest.manifest;
        let mut deck = code_deck(game, &lines, &name);
        deck.format = format.clone();
        let code = deckcode::encode(&deck, manifest, &game.pool).unwrap();
        let back = deckcode::decode(&code, manifest, &game.pool).unwrap();
        prop_assert_eq!(&back.name, &name);
        prop_assert_eq!(&back.format, &format);
        prop_assert_eq!(canonical(game, &back), canonical(game, &deck));
        // A code without a format keeps layout version 1, as before formats.
        let bytes = base64::Engine::decode(&base64::engine::general_purpose::URL_SAFE_NO_PAD, &code).unwrap();
        prop_assert_eq!(bytes[0], if format.is_some() { 2 } else { 1 });
        // Decoding gives the canonical deck: it encodes to the same code.
        prop_assert_eq!(&deckcode::encode(&back, manifest, &game.pool).unwrap(), &code);
        // The same deck, lines shuffled: the same code.
        let mut shuffled = lines.clone();
        let mut rng = Rng(seed | 1);
        for i in (1..shuffled.len()).rev() {
            shuffled.swap(i, rng.below(i + 1));
        }
        let mut again = code_deck(game, &shuffled, &name);
        again.format = format;
        prop_assert_eq!(deckcode::encode(&again, manifest, &game.pool).unwrap(), code);
    }
}

fn game() -> &'static Game {
    static GAME: std::sync::OnceLock<Game> = std::sync::OnceLock::new();
    GAME.get_or_init(intrepidos)
}

#[test]
fn a_code_for_another_pool_is_detected_not_misread() {
    let game = game();
    let code = deckcode::encode(
        &code_deck(game, &[(0, 1, 2)], "x"),
        &game.manifest.manifest,
        &game.pool,
    )
    .unwrap();
    let mut other = Workspace::open(&repo()).unwrap();
    let mut diags = Diagnostics::new();
    let kingdoms = compile(&mut other, "zodiacos", Decks::Skip, Keep::All, &mut diags)
        .unwrap()
        .unwrap();
    assert!(matches!(
        deckcode::decode(&code, &game.manifest.manifest, &kingdoms.pool),
        Err(deckcode::CodeError::Pool(_))
    ));
}

#[test]
fn the_example_decks_are_legal_and_explained() {
    let run = run_in(
        &repo(),
        [
            "deck",
            "check",
            "--explain",
            "cards/intrepidos/decks/furia-de-aries.toml",
        ],
    )
    .succeeds();
    assert!(run.stdout.contains("ok   split-actions"), "{}", run.stdout);
    assert!(run.stderr.contains("1 legal, 0 illegal"));
}

#[test]
fn deck_code_and_decode_round_trip_on_the_command_line() {
    let ws = crate::harness::Workspace::shipped(&["intrepidos"]);
    let code = ws
        .run([
            "-q",
            "deck",
            "code",
            "cards/intrepidos/decks/mares-de-peixes.toml",
        ])
        .succeeds()
        .stdout;
    let decoded = ws
        .run(["-q", "deck", "decode", code.trim()])
        .succeeds()
        .stdout;
    assert!(
        decoded.starts_with("game = \"intrepidos\"\nname = \"Marés de Peixes\"\n"),
        "{decoded}"
    );
    ws.write("decoded.toml", &decoded);
    ws.run(["deck", "check", "decoded.toml"]).succeeds();
    let again = ws
        .run(["-q", "deck", "code", "decoded.toml"])
        .succeeds()
        .stdout;
    assert_eq!(again, code);
    ws.run(["deck", "decode", "not-a-code"])
        .fails()
        .stderr_has("not a deck code");
}

/// The bytes of a code for intrépidos: version, the pool hash, the game,
/// the name, then `rest` as written (zones and lines).
fn raw_code(version: u8, rest: &[u8]) -> String {
    use base64::Engine;
    let game = game();
    let mut bytes = vec![version];
    bytes.extend(deckcode::pool_hash(&game.pool).to_be_bytes());
    bytes.push(10);
    bytes.extend(b"intrepidos");
    bytes.push(1);
    bytes.push(b'x');
    bytes.extend(rest);
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
}

/// The index (among the ids sorted bytewise) of the first card of kind
/// `kind`, and the position of a zone that takes it and of one that does not.
fn card_and_zones(game: &Game) -> (u8, u8, u8) {
    let zones = &game.manifest.manifest.zones;
    let mut ids: Vec<&carta::validate::RawCard> = game.pool.iter().collect();
    ids.sort_by(|a, b| a.id.as_bytes().cmp(b.id.as_bytes()));
    for (i, card) in ids.iter().enumerate().take(127) {
        let takes = zones.values().position(|z| z.kinds.contains(&card.kind));
        let refuses = zones.values().position(|z| !z.kinds.contains(&card.kind));
        if let (Some(t), Some(r)) = (takes, refuses) {
            return (i as u8, t as u8, r as u8);
        }
    }
    panic!("intrépidos has a card some zone refuses among its first 127 ids");
}

/// `code` with one of the unused bits of its last character set (another
/// spelling of the same bytes, which base64 decoders may accept).
fn with_trailing_bits(code: &str) -> String {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    assert_ne!(code.len() % 4, 0, "the code has unused bits");
    let last = code.as_bytes()[code.len() - 1];
    let v = ALPHABET.iter().position(|&c| c == last).unwrap();
    format!("{}{}", &code[..code.len() - 1], ALPHABET[v | 1] as char)
}

#[test]
fn every_other_spelling_of_a_deck_is_refused_so_one_deck_has_one_code() {
    let game = game();
    let manifest = &game.manifest.manifest;
    let (card, zone, wrong_zone) = card_and_zones(game);
    let decode = |code: &str| deckcode::decode(code, manifest, &game.pool);
    // one zone, one line: the card, 2 copies
    let canonical = raw_code(1, &[1, zone, 1, card, 2]);
    let deck = decode(&canonical).unwrap();
    assert_eq!(deck.zones.values().next().unwrap()[0].1, 2);
    assert_eq!(
        deckcode::encode(&deck, manifest, &game.pool).unwrap(),
        canonical,
        "the hand-made code is the one carta writes"
    );
    let refused = [
        (
            "spaces around it",
            format!(" {canonical}\n"),
            "spaces or line breaks",
        ),
        ("padding", format!("{canonical}=="), "not base64url"),
        (
            "trailing bits that are not zero",
            with_trailing_bits(&canonical),
            "not base64url",
        ),
        (
            "an overlong count",
            raw_code(1, &[1, zone, 1, card, 0x82, 0x00]),
            "more bytes than it needs",
        ),
        (
            "an overlong zone count",
            raw_code(1, &[0x81, 0x00, zone, 1, card, 2]),
            "more bytes than it needs",
        ),
        ("an empty zone", raw_code(1, &[1, zone, 0]), "empty zone"),
        (
            "a zone listed twice",
            raw_code(1, &[2, zone, 1, card, 2, zone, 1, card, 1]),
            "out of order",
        ),
        (
            "a card listed twice",
            raw_code(1, &[1, zone, 2, card, 1, 0, 1]),
            "a card twice",
        ),
        (
            "a card in a zone that does not take it",
            raw_code(1, &[1, wrong_zone, 1, card, 2]),
            "does not take that kind",
        ),
        (
            "no copies",
            raw_code(1, &[1, zone, 1, card, 0]),
            "copies of",
        ),
        (
            "10,001 copies",
            raw_code(1, &[1, zone, 1, card, 0x91, 0x4e]),
            "copies of",
        ),
        (
            "a number over 32 bits",
            raw_code(1, &[1, zone, 1, card, 0x80, 0x80, 0x80, 0x80, 0x10]),
            "too large",
        ),
        (
            "trailing bytes",
            raw_code(1, &[1, zone, 1, card, 2, 0]),
            "bytes after the deck",
        ),
        (
            "an empty format",
            raw_code(2, &[0, 1, zone, 1, card, 2]),
            "format is empty",
        ),
        (
            "a zone out of range",
            raw_code(1, &[1, 100, 1, card, 2]),
            "zone number 100",
        ),
        ("layout version 3", raw_code(3, &[0]), "layout version 3"),
    ];
    for (what, code, message) in refused {
        let err = decode(&code).expect_err(what).to_string();
        assert!(err.contains(message), "{what}: {err}");
    }
    // With a format: version 2, and the format is kept.
    let with_format = raw_code(2, &[4, b'f', b'r', b'e', b'e', 1, zone, 1, card, 2]);
    assert_eq!(
        decode(&with_format).unwrap().format.as_deref(),
        Some("free")
    );
    assert!(deckcode::to_toml(&decode(&with_format).unwrap()).contains("\nformat = \"free\"\n"));
}

#[test]
fn encoding_refuses_what_decoding_would() {
    let game = game();
    let manifest = &game.manifest.manifest;
    let (card, _, wrong_zone) = card_and_zones(game);
    let mut ids: Vec<&str> = game.pool.ids().collect();
    ids.sort_unstable();
    let id = ids[card as usize].to_owned();
    let zone = manifest
        .zones
        .get_index(wrong_zone as usize)
        .unwrap()
        .0
        .clone();
    let deck = |zone: &str, lines: Vec<(String, u32)>| CodeDeck {
        game: "intrepidos".into(),
        name: "x".into(),
        format: None,
        zones: [(zone.to_owned(), lines)].into_iter().collect(),
    };
    let err =
        deckcode::encode(&deck(&zone, vec![(id.clone(), 1)]), manifest, &game.pool).unwrap_err();
    assert!(matches!(err, deckcode::CodeError::ZoneKind { .. }), "{err}");
    let fitting = code_deck(game, &[(0, 0, 1)], "x");
    let (zone, lines) = fitting.zones.first().unwrap();
    let many = vec![(lines[0].0.clone(), 6_000), (lines[0].0.clone(), 5_000)];
    let err = deckcode::encode(&deck(zone, many), manifest, &game.pool).unwrap_err();
    assert!(
        matches!(err, deckcode::CodeError::Count { count: 11_000, .. }),
        "{err}"
    );
    let mut empty_format = fitting.clone();
    empty_format.format = Some(String::new());
    assert_eq!(
        deckcode::encode(&empty_format, manifest, &game.pool),
        Err(deckcode::CodeError::EmptyFormat)
    );
}

#[test]
fn the_pool_hash_of_a_bundle_is_the_pool_hash_of_the_sources() {
    let ws = crate::harness::Workspace::shipped(&[]);
    ws.run(["build"]).succeeds();
    for game in ["covil", "exodo", "intrepidos", "kingdoms", "zodiacos"] {
        let mut sources = Workspace::open(ws.path()).unwrap();
        let mut diags = Diagnostics::new();
        let checked = compile(&mut sources, game, Decks::Skip, Keep::All, &mut diags)
            .unwrap()
            .unwrap();
        let bundle =
            carta::bundle::Bundle::open(ws.path().join(format!("build/{game}/{game}.carta")))
                .unwrap();
        let mut cards = Vec::new();
        bundle
            .visit(|c| cards.push((c.id.to_owned(), c.kind.to_owned())))
            .unwrap();
        let from_bundle = deckcode::hash_cards(cards.iter().map(|(i, k)| (i.as_str(), k.as_str())));
        assert_eq!(from_bundle, deckcode::pool_hash(&checked.pool), "{game}");
    }
}

#[test]
fn the_code_in_the_deck_codes_spec_still_decodes() {
    let spec = std::fs::read_to_string(repo().join("docs/deck-codes.md")).unwrap();
    let code = spec
        .lines()
        .skip_while(|l| !l.starts_with("$ carta deck code"))
        .nth(1)
        .expect("docs/deck-codes.md shows a code");
    let ws = crate::harness::Workspace::shipped(&["intrepidos"]);
    let decoded = ws.run(["-q", "deck", "decode", code]).succeeds().stdout;
    assert!(
        decoded.starts_with("game = \"intrepidos\"\nname = \"Fúria de Áries\"\n"),
        "{decoded}"
    );
    let again = ws
        .run([
            "-q",
            "deck",
            "code",
            "cards/intrepidos/decks/furia-de-aries.toml",
        ])
        .succeeds()
        .stdout;
    assert_eq!(again.trim(), code);
}

#[test]
fn a_code_for_a_game_not_in_the_workspace_says_so_once() {
    use base64::Engine;
    let ws = crate::harness::Workspace::shipped(&["intrepidos"]);
    let mut bytes = vec![1, 0, 0, 0, 0, 4];
    bytes.extend(b"nope");
    bytes.extend([1, b'x', 0]);
    let code = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes);
    let run = ws.run(["deck", "decode", &code]).fails();
    assert!(
        run.stderr
            .contains("this deck code is for the game `nope`, which is not in this workspace")
            && !run.stderr.contains("which the game does not have"),
        "{}",
        run.stderr
    );
}

#[test]
fn json_tallies_for_explain() {
    let run = run_in(
        &repo(),
        [
            "--message-format",
            "json",
            "deck",
            "check",
            "--explain",
            "cards/intrepidos/decks/furia-de-aries.toml",
        ],
    )
    .succeeds();
    let tallies: Vec<_> = run
        .json()
        .into_iter()
        .filter(|d| d["code"] == "deck::tally")
        .collect();
    assert_eq!(tallies.len(), 13);
    assert!(tallies.iter().all(|t| t["severity"] == "advice"));
}

#[test]
fn a_deck_of_a_game_that_does_not_load_is_not_counted_legal() {
    let ws = crate::harness::Workspace::shipped(&["intrepidos"]);
    let path = "cards/intrepidos/game.toml";
    ws.write(
        path,
        ws.read(path)
            .replace("language = \"pt-BR\"", "language = 7"),
    );
    ws.run([
        "deck",
        "check",
        "cards/intrepidos/decks/furia-de-aries.toml",
    ])
    .fails()
    .stderr_has("0 legal, 1 illegal");
}

#[test]
fn an_unknown_deck_card_two_letters_off_gets_a_did_you_mean() {
    use crate::sheets::{card, mini};
    let ws = mini(&format!("{}{}", card("flare", ""), card("frost", "")));
    ws.write(
        "d.toml",
        "game = \"mini\"\nname = \"Fogo\"\n\n[main]\nflair = 2\nfrost = 1\n",
    );
    let run = ws
        .run(["--message-format", "json", "deck", "check", "d.toml"])
        .fails();
    let unknown: Vec<_> = run
        .json()
        .into_iter()
        .filter(|d| d["code"] == "deck::unknown-card")
        .collect();
    assert_eq!(unknown.len(), 1, "{}", run.stdout);
    assert_eq!(unknown[0]["help"], "did you mean `flare`?");
}

/// The deck diagnostics of a `carta check --message-format json` run, as
/// (deck file, code) pairs.
fn deck_codes(run: &crate::harness::Run) -> Vec<(String, String)> {
    run.json()
        .into_iter()
        .filter(|d| d["file"].as_str().is_some_and(|f| f.contains("/decks/")))
        .map(|d| {
            let file = d["file"].as_str().unwrap();
            let name = file.rsplit('/').next().unwrap().to_owned();
            (name, d["code"].as_str().unwrap().to_owned())
        })
        .collect()
}

#[test]
fn while_a_card_has_errors_what_decks_can_be_judged_is_reported() {
    let ws = crate::harness::Workspace::shipped(&["intrepidos"]);
    // A card with a schema error, in a file of its own.
    ws.write(
        "cards/intrepidos/quebrada.toml",
        "[[card]]\nid = \"pocao-quebrada\"\nkind = \"potion\"\nname = \"Poção quebrada\"\nclass = \"forca\"\nmin_level = \"dois\"\neffect = \"Nada.\"\n",
    );
    let edit = |rel: &str, from: &str, to: &str| {
        let path = format!("cards/intrepidos/decks/{rel}");
        let text = ws.read(&path);
        assert!(text.contains(from), "{rel}");
        ws.write(&path, text.replacen(from, to, 1));
    };
    // Clean cards only: the rules judge it.
    edit("furia-de-aries.toml", "escudo-orc = 3", "escudo-orc = 4");
    // A card with errors in it: its counts would repeat them, not judged.
    edit(
        "mares-de-peixes.toml",
        "[main]\n",
        "[main]\npocao-quebrada = 1\n",
    );
    // An unknown card: always an error.
    edit(
        "muralha-de-touro.toml",
        "[main]\n",
        "[main]\nescudo-orcc = 1\n",
    );
    let run = ws.run(["--message-format", "json", "check"]).fails();
    let codes = deck_codes(&run);
    assert!(
        codes.contains(&("muralha-de-touro.toml".into(), "deck::unknown-card".into())),
        "{codes:?}"
    );
    assert!(
        codes.iter().any(|(f, _)| f == "furia-de-aries.toml"),
        "a deck of clean cards is judged: {codes:?}"
    );
    assert!(
        !codes.iter().any(|(f, _)| f == "mares-de-peixes.toml"),
        "a deck with a broken card is not judged by the rules: {codes:?}"
    );
    // A card file that does not parse may hold any id: no deck is judged.
    ws.write("cards/intrepidos/quebrada.toml", "[[card]\nid = \"x\"\n");
    let run = ws.run(["--message-format", "json", "check"]).fails();
    assert_eq!(deck_codes(&run), Vec::new(), "{}", run.stdout);
}

#[test]
fn every_command_taking_a_deck_path_reads_it_from_the_current_directory() {
    use crate::sheets::{card, mini};
    let ws = mini(&format!("{}{}", card("flare", ""), card("frost", "")));
    // A player's decks, in a folder of their own; carta runs from there
    // with `-C ..` naming the workspace.
    ws.write(
        "mine/good.toml",
        "game = \"mini\"\nname = \"Bom\"\n\n[main]\nflare = 2\nfrost = 1\n",
    );
    ws.write(
        "mine/bad.toml",
        "game = \"mini\"\nname = \"Mau\"\n\n[main]\nflair = 2\n",
    );
    let mine = ws.path().join("mine");
    let unknown = |args: &[&str]| {
        let mut all = vec!["-C", ".."];
        all.extend(args);
        run_in(&mine, all)
            .code(1)
            .stderr_has("`flair` is not a card of `mini`");
    };
    unknown(&["deck", "check", "bad.toml"]);
    unknown(&["deck", "code", "bad.toml"]);
    unknown(&["print", "bad.toml"]);
    unknown(&["export", "pdf", "bad.toml"]);
    run_in(&mine, ["-C", "..", "deck", "check", "good.toml"]).succeeds();
    run_in(&mine, ["-C", "..", "deck", "code", "good.toml"]).succeeds();
    run_in(&mine, ["-C", "..", "print", "good.toml"]).succeeds();
    // `--out` stays the workspace's.
    assert!(
        ws.path().join("build/mini/decks/good/index.html").is_file(),
        "the deck's sheets are in the workspace's build/"
    );
    // The same file named from the workspace's own folder, without `-C`.
    ws.run(["print", "mine/good.toml"]).succeeds();
    // And a path relative to the workspace, from elsewhere, is not found.
    run_in(&mine, ["-C", "..", "print", "mine/good.toml"]).code(2);
}

/// The deck files of every shipped game's example decks, relative to the
/// workspace.
fn example_decks() -> Vec<String> {
    let mut out = Vec::new();
    for game in std::fs::read_dir(repo().join("cards")).unwrap() {
        let game = game.unwrap().file_name().into_string().unwrap();
        let dir = repo().join("cards").join(&game).join("decks");
        for entry in std::fs::read_dir(dir).into_iter().flatten() {
            let name = entry.unwrap().file_name().into_string().unwrap();
            out.push(format!("cards/{game}/decks/{name}"));
        }
    }
    out.sort();
    out
}

/// Issue 25: every shipped example deck, exported as a text list by name
/// and by id and imported back, is the same deck file (name, game, format,
/// every zone's lines), and checks as legal as before.
#[test]
fn every_example_deck_round_trips_through_a_text_list_by_name_and_by_id() {
    let ws = crate::harness::Workspace::shipped(&[]);
    let decks = example_decks();
    assert!(decks.len() >= 8, "{decks:?}");
    for (i, rel) in decks.iter().enumerate() {
        let original: toml::Table = ws.read(rel).parse().unwrap();
        for by in ["name", "id"] {
            let list = format!("list-{i}-{by}.txt");
            let back = format!("back-{i}-{by}.toml");
            ws.run(["deck", "export", "--by", by, "-o", &list, rel])
                .succeeds();
            let text = ws.read(&list);
            assert!(text.contains("\nGame: "), "{text}");
            if by == "name" {
                let first = original.iter().find_map(|(_, v)| v.as_table()).unwrap();
                let id = first.keys().next().unwrap();
                assert!(
                    !text.contains(&format!(" {id}\n")) || id.contains(' '),
                    "by name, yet {id} is written by id:\n{text}"
                );
            }
            ws.run(["deck", "import", &list, "-o", &back]).succeeds();
            let imported: toml::Table = ws.read(&back).parse().unwrap();
            assert_eq!(imported, original, "{rel} by {by}:\n{text}");
            ws.run(["deck", "check", &back]).succeeds();
        }
    }
}

/// Issue 25: a misspelt name in a list is an error at its line and column
/// with the closest card's name; nothing is written, and the exit is 1.
#[test]
fn a_misspelt_name_in_a_list_is_reported_where_it_is_with_did_you_mean() {
    let ws = crate::harness::Workspace::shipped(&["intrepidos"]);
    let list = "// from a friend\nDeck:\n2 golpe certeiro\n2 Golpe Certero\n3x CONTRAGOLPE\n\n# team\n1 Rei Frixo\n";
    ws.write("friend.txt", list);
    ws.run([
        "deck",
        "import",
        "friend.txt",
        "--game",
        "intrepidos",
        "-o",
        "d.toml",
    ])
    .fails()
    .stderr_has("list::unknown-card")
    .stderr_has("friend.txt:4:3")
    .stderr_has("did you mean `Golpe Certeiro`?")
    .stderr_has("nothing written");
    assert!(!ws.path().join("d.toml").exists());
    // Mended, the list is read: names and ids, any case or accents, the
    // heading by the zone's name or id.
    ws.write("friend.txt", list.replace("Certero", "Certeiro"));
    let run = ws
        .run(["-q", "deck", "import", "friend.txt", "--game", "intrepidos"])
        .succeeds();
    let deck: toml::Table = run.stdout.parse().unwrap();
    assert_eq!(deck["name"].as_str(), Some("friend"));
    assert_eq!(deck["main"]["golpe-certeiro"].as_integer(), Some(4));
    assert_eq!(deck["main"]["contragolpe"].as_integer(), Some(3));
    let team = deck.get("team").and_then(|t| t.as_table());
    assert!(
        team.is_some_and(|t| t.contains_key("rei-frixo")),
        "{deck:?}"
    );
}

/// Issue 53: a name shortened by words left out ("Monge do Mosteiro" for
/// "Monge do Mosteiro Branco") gets the one card it stands for as its
/// did-you-mean; a shortening that fits many cards names none.
#[test]
fn a_shortened_name_in_a_list_gets_the_card_it_stands_for() {
    let ws = crate::harness::Workspace::shipped(&["kingdoms"]);
    ws.write("short.txt", "Deck:\n1 Monge do Mosteiro\n1 Cavaleiro\n");
    let run = ws
        .run(["deck", "import", "short.txt", "--game", "kingdoms"])
        .fails()
        .stderr_has("short.txt:2:3")
        .stderr_has("did you mean `Monge do Mosteiro Branco`?");
    let stderr = run.stderr.clone();
    let cavaleiro = stderr
        .split("short.txt:3:3")
        .nth(1)
        .unwrap_or_else(|| panic!("line 3 is reported: {stderr}"));
    assert!(!cavaleiro.contains("did you mean"), "{stderr}");
}

/// Issue 25: what a list may get wrong — a zone, a format, a count, the
/// game — each at its place, and a game without zones has no lists.
#[test]
fn a_lists_zones_formats_counts_and_game_are_checked() {
    let ws = crate::harness::Workspace::shipped(&["intrepidos", "zodiacos"]);
    ws.write(
        "bad.txt",
        "Game: intrepidos\nFormat: liga\n\nMian:\n1 Cerco\n\nDeck:\n0 Cerco\n20000 Cerco\n3\n",
    );
    ws.run(["deck", "import", "bad.txt"])
        .fails()
        .stderr_has("list::unknown-format")
        .stderr_has("bad.txt:2:9")
        .stderr_has("list::unknown-zone")
        .stderr_has("bad.txt:4:1")
        .stderr_has("list::bad-count")
        .stderr_has("bad.txt:8:1")
        .stderr_has("bad.txt:9:1")
        .stderr_has("list::syntax");
    ws.run(["deck", "import", "bad.txt", "--game", "zodiacos"])
        .fails()
        .stderr_has("the list is for `intrepidos`, not for `zodiacos`");
    ws.write("z.txt", "1 Aries\n");
    ws.run(["deck", "import", "z.txt", "--game", "zodiacos"])
        .fails()
        .stderr_has("list::no-zones");
    ws.run(["deck", "import", "z.txt"])
        .fails()
        .stderr_has("does not say which game");
}

/// Issue 25: the printable decklist has a page per deck, the player's name,
/// the cards by name with their kinds, and each deck's code and verdict.
#[test]
fn the_printable_decklist_has_a_page_per_deck() {
    let ws = crate::harness::Workspace::shipped(&["kingdoms"]);
    let aurora = ws
        .read("cards/kingdoms/decks/aurora-de-valaria.toml")
        .replacen('\n', "\nplayer = \"Ana <Lima>\"\n", 1);
    ws.write("cards/kingdoms/decks/aurora-de-valaria.toml", aurora);
    let decks = [
        "cards/kingdoms/decks/aurora-de-valaria.toml",
        "cards/kingdoms/decks/legiao-de-umbra.toml",
    ];
    ws.run(["deck", "check", decks[0]]).succeeds();
    let args = ["deck", "export", "--decklist", "-o", "lists.html"];
    ws.run(args.iter().chain(&decks)).succeeds();
    let html = ws.read("lists.html");
    assert_eq!(html.matches("<section class=\"sheet\">").count(), 2);
    assert!(html.contains("break-after: page"), "{html}");
    assert!(html.contains("Ana &lt;Lima&gt;"), "{html}");
    assert!(html.contains("Sir Aldric, Escudo da Aurora"), "{html}");
    assert!(html.contains("<b>60 cards</b>"), "{html}");
    let code = ws.run(["-q", "deck", "code", decks[0]]).succeeds().stdout;
    assert!(html.contains(code.trim()), "{html}");
    // Not over an existing file without --force.
    ws.run(args.iter().chain(&decks))
        .fails()
        .stderr_has("list::exists");
    ws.run(args.iter().chain(&["--force"]).chain(&decks))
        .succeeds();
}

/// One GET request; the status and the body.
fn get_body(base: &str, path: &str) -> (u16, String) {
    use std::io::{Read, Write};
    let host = base
        .trim_start_matches("http://")
        .split('/')
        .next()
        .unwrap();
    let mut stream = std::net::TcpStream::connect(host).unwrap();
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).unwrap();
    let answer = String::from_utf8_lossy(&answer).into_owned();
    let (_, body) = answer.split_once("\r\n\r\n").unwrap();
    (answer[9..12].parse().unwrap(), body.to_owned())
}

/// Issue 25: the builder reads a pasted list as `carta deck import` does
/// (the same problems at the same line and column, the same did-you-mean)
/// and writes a deck's list as `carta deck export` does; its printable
/// decklist is the command's.
#[test]
fn the_builder_reads_and_writes_lists_as_the_command_does() {
    use serde_json::{Value, json};
    let ws = crate::harness::Workspace::shipped(&["intrepidos"]);
    let rel = "cards/intrepidos/decks/furia-de-aries.toml";
    let text = ws.run(["-q", "deck", "export", rel]).succeeds().stdout;
    let misspelt = text.replacen("Golpe Certeiro", "Golpe Certero", 1);
    ws.write("list.txt", &misspelt);
    let cli = ws.run(["deck", "import", "list.txt"]).fails();
    let (_server, url) = crate::serve::start_serve(ws.path());
    let api = |path: &str, body: &Value| crate::serve::http(&url, "POST", path, body);

    let (status, parsed) = api(
        "/api/games/intrepidos/list/parse",
        &json!({"text": misspelt}),
    );
    assert_eq!(status, 200, "{parsed}");
    assert!(parsed["deck"].is_null(), "{parsed}");
    let problems = parsed["problems"].as_array().unwrap();
    assert_eq!(problems.len(), 1, "{parsed}");
    let p = &problems[0];
    assert_eq!(p["code"], "list::unknown-card");
    assert_eq!(p["found"], "Golpe Certero");
    assert_eq!(p["suggestion"], "Golpe Certeiro");
    let at = format!("list.txt:{}:{}", p["line"], p["column"]);
    assert!(cli.stderr.contains(&at), "{at} in:\n{}", cli.stderr);

    let (status, parsed) = api("/api/games/intrepidos/list/parse", &json!({"text": text}));
    assert_eq!(status, 200, "{parsed}");
    let deck = &parsed["deck"];
    assert_eq!(deck["name"], "Fúria de Áries", "{parsed}");
    let (status, listed) = api("/api/games/intrepidos/list", &json!({"deck": deck}));
    assert_eq!(status, 200, "{listed}");
    assert_eq!(listed["text"].as_str().unwrap(), text);
    let (status, by_id) = api(
        "/api/games/intrepidos/list",
        &json!({"deck": deck, "by": "id"}),
    );
    assert_eq!(status, 200);
    let cli_by_id = ws
        .run(["-q", "deck", "export", "--by", "id", rel])
        .succeeds()
        .stdout;
    assert_eq!(by_id["text"].as_str().unwrap(), cli_by_id);
    let (status, _) = api(
        "/api/games/intrepidos/list",
        &json!({"deck": deck, "by": "kind"}),
    );
    assert_eq!(status, 422);

    let code = ws.run(["-q", "deck", "code", rel]).succeeds().stdout;
    let path = format!(
        "/play/intrepidos/decklist?code={}&player=Bia",
        crate::serve::query_value(code.trim())
    );
    let (status, html) = get_body(&url, &path);
    assert_eq!(status, 200, "{html}");
    assert_eq!(html.matches("<section class=\"sheet\">").count(), 1);
    assert!(html.contains("<b>Player</b>Bia"), "{html}");
    assert!(html.contains(code.trim()), "{html}");
    let (status, html) = get_body(&url, "/play/intrepidos/decklist?code=nope");
    assert_eq!(status, 422, "{html}");
    assert!(html.contains("No decklist"), "{html}");
}

/// Issue 25: on the builder's page, a list pasted with one misspelt name
/// shows the problem and its suggestion; accepting it imports the deck,
/// judged as `carta deck check` judges its file; Export gives the list.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_pastes_a_list_accepts_the_suggestion_and_exports_it() {
    use crate::serve::{click, js, settled, start_serve, status, wait_js};
    let ws = crate::harness::Workspace::shipped(&["intrepidos"]);
    let rel = "cards/intrepidos/decks/furia-de-aries.toml";
    let text = ws.run(["-q", "deck", "export", rel]).succeeds().stdout;
    let code = ws.run(["-q", "deck", "code", rel]).succeeds().stdout;
    let misspelt = text.replacen("Golpe Certeiro", "golpe certero", 1);
    let profile = tempfile::tempdir().unwrap();
    let (_server, url) = start_serve(ws.path());
    let (_driver, client) = crate::watch::browser(profile.path()).await;
    client.goto(&format!("{url}intrepidos/deck")).await.unwrap();
    settled(&client).await;
    let set = format!(
        "document.getElementById('cb-list').value={};return true",
        serde_json::to_string(&misspelt).unwrap()
    );
    js(&client, &set).await;
    click(&client, "#cb-list-import").await;
    wait_js(&client, "return !!document.querySelector('.cb-accept')").await;
    let said = js(
        &client,
        "return document.getElementById('cb-list-problems').innerText",
    )
    .await;
    assert!(
        said.as_str().unwrap().contains("line 5, column 3"),
        "{said}"
    );
    click(&client, ".cb-accept").await;
    wait_js(
        &client,
        &format!(
            "return document.getElementById('cb-code').value==={:?}",
            code.trim()
        ),
    )
    .await;
    assert_eq!(status(&client).await, "Legal");
    click(&client, "#cb-list-export").await;
    wait_js(
        &client,
        "return document.getElementById('cb-list').value.indexOf('Golpe Certeiro')>0",
    )
    .await;
    let exported = js(&client, "return document.getElementById('cb-list').value").await;
    assert_eq!(exported.as_str().unwrap(), text);
    client.close().await.unwrap();
}

/// Issue 25, organisers: `carta deck check --event` judges a file of
/// `player: CODE` lines (share links too) and a folder of deck files in
/// submission order, warnings apart from errors, identical decks flagged,
/// under the event's game and format; the organisers' endpoint gives the
/// very same CSV.
#[test]
fn an_events_submissions_are_judged_alike_by_the_command_and_the_organisers_page() {
    use serde_json::json;
    let ws = crate::harness::Workspace::empty();
    crate::harness::copy_tree(&repo().join("tests/fixtures/sixth-game"), ws.path());
    let azul = ws.read("cards/mosaico/decks/azul.toml");
    let ocre = azul
        .replace("name = \"Azul\"", "name = \"Ocre\"\nplayer = \"Caio\"")
        .replace("dona-azul", "seu-ocre");
    ws.write("event/1-ocre.toml", &ocre);
    ws.write("event/2-azul.toml", &azul);
    let quick = azul.replace("name = \"Azul\"", "name = \"Azul\"\nformat = \"relampago\"");
    ws.write("event/3-quick.toml", &quick);

    let folder = ws
        .run(["-q", "deck", "check", "--event", "event", "--csv"])
        .fails();
    let rows: Vec<&str> = folder.stdout.lines().collect();
    assert_eq!(
        rows[0],
        "n,source,player,game,deck,format,verdict,cards,errors,warnings,same_as,code"
    );
    assert!(
        rows[1].starts_with("1,event/1-ocre.toml,Caio,mosaico,Ocre,,legal,15,,patron-color: "),
        "{}",
        rows[1]
    );
    assert!(
        rows[2].starts_with("2,event/2-azul.toml,,mosaico,Azul,,legal,15,,,,"),
        "{}",
        rows[2]
    );
    assert!(
        rows[3].starts_with("3,event/3-quick.toml,,mosaico,Azul,relampago,illegal,15,six-tiles: "),
        "{}",
        rows[3]
    );

    let code = ws
        .run(["-q", "deck", "code", "event/2-azul.toml"])
        .succeeds()
        .stdout;
    let code = code.trim();
    let subs = format!(
        "Ana Lima: {code}\n\n// a link this time\nBia: http://127.0.0.1:7878/play/mosaico/deck?code={code}\nnot-a-code\n"
    );
    ws.write("subs.txt", &subs);
    let own = ws
        .run(["-q", "deck", "check", "--event", "subs.txt", "--csv"])
        .fails();
    let lines: Vec<&str> = own.stdout.lines().collect();
    assert!(
        lines[1].starts_with("1,subs.txt:1,Ana Lima,mosaico,Azul,,legal,15,,,2,"),
        "{}",
        own.stdout
    );
    assert!(
        lines[2].starts_with("2,subs.txt:4,Bia,mosaico,Azul,,legal,15,,,1,"),
        "{}",
        own.stdout
    );
    assert!(
        lines[3].starts_with("3,subs.txt:5,,,,,invalid,0,deck::code: "),
        "{}",
        own.stdout
    );
    let args = [
        "-q", "deck", "check", "--event", "subs.txt", "--game", "mosaico", "--format", "liga",
        "--csv",
    ];
    let liga = ws.run(args).fails();
    assert!(
        liga.stdout
            .contains("\r\n1,subs.txt:1,Ana Lima,mosaico,Azul,liga,illegal,15,league-copies: "),
        "{}",
        liga.stdout
    );
    ws.run([
        "deck", "check", "--event", "subs.txt", "--game", "mosaico", "--format", "ligga",
    ])
    .code(1)
    .stderr_has("`ligga` is not a format of `mosaico`");

    let (_server, url) = crate::serve::start_serve(ws.path());
    let api = |body: &serde_json::Value| crate::serve::http(&url, "POST", "/api/organize", body);
    for (game, format, cli) in [(None, None, &own), (Some("mosaico"), Some("liga"), &liga)] {
        let (status, table) = api(&json!({"pasted": subs, "game": game, "format": format}));
        assert_eq!(status, 200, "{table}");
        let page = table["csv"].as_str().unwrap().replace("\r\n", "\n");
        let command = cli
            .stdout
            .replace("\r\n", "\n")
            .replace("subs.txt:", "line ");
        assert_eq!(page, command);
    }
    let files: Vec<serde_json::Value> = ["1-ocre", "2-azul", "3-quick"]
        .iter()
        .map(|f| json!({"label": format!("event/{f}.toml"), "text": ws.read(&format!("event/{f}.toml"))}))
        .collect();
    let (_, table) = api(&json!({"decks": files}));
    assert_eq!(table["csv"].as_str().unwrap(), folder.stdout);
    assert_eq!(table["rows"][0]["warnings"][0]["rule"], "patron-color");
    assert!(table["rows"][0]["errors"].as_array().unwrap().is_empty());
    let (status, refused) = api(&json!({"pasted": subs, "game": "mosaico", "format": "ligga"}));
    assert_eq!(status, 422, "{refused}");
}

/// Issue 25, organisers: on the page, pasted `Player: CODE` lines and a
/// share link are judged under the event's game and format, in order, the
/// players and identical decks shown, warnings apart from errors.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_organiser_judges_an_event_on_the_page() {
    use crate::serve::{click, js, start_serve, wait_js};
    let ws = crate::harness::Workspace::empty();
    crate::harness::copy_tree(&repo().join("tests/fixtures/sixth-game"), ws.path());
    let code = ws
        .run(["-q", "deck", "code", "cards/mosaico/decks/azul.toml"])
        .succeeds()
        .stdout;
    let code = code.trim();
    let profile = tempfile::tempdir().unwrap();
    let (_server, url) = start_serve(ws.path());
    let (_driver, client) = crate::watch::browser(profile.path()).await;
    client.goto(&format!("{url}organize")).await.unwrap();
    let pasted = format!("Ana Lima: {code}\nBia: {url}mosaico/deck?code={code}\n");
    let set = format!(
        "document.getElementById('cb-codes').value={};return true",
        serde_json::to_string(&pasted).unwrap()
    );
    js(&client, &set).await;
    wait_js(
        &client,
        "return document.querySelectorAll('#cb-event-game option').length>1",
    )
    .await;
    js(&client, "var s=document.getElementById('cb-event-game');s.value='mosaico';s.dispatchEvent(new Event('change'));return true").await;
    wait_js(
        &client,
        "return document.querySelectorAll('#cb-event-format option[value=liga]').length===1",
    )
    .await;
    js(
        &client,
        "document.getElementById('cb-event-format').value='liga';return true",
    )
    .await;
    click(&client, "#cb-judge").await;
    wait_js(&client, "return !!document.getElementById('cb-table')").await;
    let cells = js(
        &client,
        "return Array.from(document.querySelectorAll('#cb-table tr')).slice(1).map(function(r){return Array.from(r.cells).map(function(c){return c.innerText})})",
    )
    .await;
    let rows = cells.as_array().unwrap();
    assert_eq!(rows.len(), 2, "{cells}");
    assert_eq!(rows[0][2], "Ana Lima", "{cells}");
    assert_eq!(rows[1][2], "Bia", "{cells}");
    assert_eq!(rows[0][5], "liga", "{cells}");
    assert_eq!(rows[0][6], "illegal", "{cells}");
    assert!(
        rows[0][8].as_str().unwrap().starts_with("league-copies: "),
        "{cells}"
    );
    assert_eq!(rows[0][10], "#2", "{cells}");
    assert_eq!(rows[1][10], "#1", "{cells}");
    let summary = js(
        &client,
        "return document.getElementById('cb-summary').innerText",
    )
    .await;
    assert!(
        summary.as_str().unwrap().starts_with("0 of 2 decks legal"),
        "{summary}"
    );
    client.close().await.unwrap();
}

/// `carta deck odds` of `group` in `deck`, as the JSON it prints.
fn odds_json(ws: &crate::harness::Workspace, deck: &str, group: &str) -> serde_json::Value {
    ws.run([
        "--message-format",
        "json",
        "deck",
        "odds",
        deck,
        "--group",
        group,
    ])
    .succeeds()
    .json()
    .into_iter()
    .find(|v| v.get("probability").is_some())
    .expect("the odds as JSON")
}

/// Issue 52: kingdoms' opening formation starts on the table (`[play]
/// start-on-table`), so a hand never holds the city: 0%, and at least one
/// character in a hand of 5 is 1 − C(38,5)/C(53,5) with the 15 characters
/// left in the 53 cards drawn from.
#[test]
fn deck_odds_leave_out_the_cards_that_start_on_the_table() {
    let ws = crate::harness::Workspace::shipped(&["kingdoms"]);
    let deck = "cards/kingdoms/decks/aurora-de-valaria.toml";
    ws.run(["deck", "odds", deck, "--group", "kind=city"])
        .succeeds()
        .stdout_has("0.0000 (0.00%): at least 1 × kind=city by turn 1: 5 cards seen of the 53 in `main` besides 7 on the table, 0 of them kind=city");
    let none: f64 = (0..5)
        .map(|i| f64::from(38 - i) / f64::from(53 - i))
        .product();
    let odds = odds_json(&ws, deck, "kind=character");
    assert_eq!(
        (
            odds["deck"].as_u64(),
            odds["on_table"].as_u64(),
            odds["group"].as_u64()
        ),
        (Some(53), Some(7), Some(15)),
        "{odds}"
    );
    assert!(
        (odds["probability"].as_f64().unwrap() - (1.0 - none)).abs() < 1e-12,
        "{odds}"
    );
    assert!(
        (1.0 - none - 0.8251).abs() < 5e-5,
        "about 82.5%: {}",
        1.0 - none
    );
}

/// `carta deck odds`: the playtest figures of the builder from the command
/// line, with the game's `[play]` hand, against the test's own arithmetic.
#[test]
fn deck_odds_prints_the_chance_of_a_group_by_a_turn() {
    let ws = crate::harness::Workspace::shipped(&["intrepidos"]);
    let deck = "cards/intrepidos/decks/furia-de-aries.toml";
    // 30 actions of 60, a hand of 5 (the game's `[play]`): 1 − C(30,5)/C(60,5).
    let none: f64 = (0..5)
        .map(|i| f64::from(30 - i) / f64::from(60 - i))
        .product();
    let run = ws
        .run(["deck", "odds", deck, "--group", "kind=action"])
        .succeeds()
        .stdout_has("at least 1 × kind=action by turn 1: 5 cards seen of the 60 in `main`, 30 of them kind=action");
    assert!(
        run.stdout.starts_with(&format!("{:.4} ", 1.0 - none)),
        "{}",
        run.stdout
    );
    let odds = odds_json(&ws, deck, "kind=action");
    assert!(
        (odds["probability"].as_f64().unwrap() - (1.0 - none)).abs() < 1e-12,
        "{odds}"
    );
    assert_eq!(odds["hand"], 5);

    // Two draws a turn: by turn 3, 5 + 2 × 2 cards seen.
    ws.run([
        "deck",
        "odds",
        deck,
        "--group",
        "kind=action",
        "--at-least",
        "4",
        "--by-turn",
        "3",
        "--draws",
        "2",
    ])
    .succeeds()
    .stdout_has("9 cards seen of the 60");
    // A bad group or turn: the command cannot run.
    ws.run(["deck", "odds", deck, "--group", "kinf=action"])
        .code(2)
        .stderr_has("did you mean `kind`?");
    ws.run([
        "deck",
        "odds",
        deck,
        "--group",
        "kind=action",
        "--by-turn",
        "0",
    ])
    .code(2)
    .stderr_has("the turn is from 1");
    // An illegal deck has odds; a deck naming an unknown card has none.
    ws.write(
        "few.toml",
        "game = \"intrepidos\"\nname = \"Few\"\n\n[main]\ngolpe-certeiro = 2\n",
    );
    ws.run([
        "deck",
        "odds",
        "few.toml",
        "--group",
        "id=golpe-certeiro",
        "--at-least",
        "2",
    ])
    .succeeds()
    .stdout_has("1.0000 (100.00%)");
    ws.write(
        "bad.toml",
        "game = \"intrepidos\"\nname = \"Bad\"\n\n[main]\ngolpe-certeiroo = 2\n",
    );
    ws.run(["deck", "odds", "bad.toml", "--group", "kind=action"])
        .fails()
        .stderr_has("deck::unknown-card");
}

/// Issue 53: `deck import`'s help example, `-o decks/kingdoms/aurora.toml`,
/// works in a fresh clone, where no player's deck was saved yet: the
/// missing folder is created. `deck export -o` does the same.
#[test]
fn deck_import_and_export_create_the_output_folder() {
    let ws = crate::harness::Workspace::shipped(&["kingdoms"]);
    let help = ws.run(["deck", "import", "--help"]).succeeds().stdout;
    let example = help
        .lines()
        .rfind(|l| l.contains("carta deck import"))
        .unwrap();
    let args: Vec<&str> = example.split_whitespace().skip(1).collect();
    assert_eq!(
        args[args.len() - 1],
        "decks/kingdoms/aurora.toml",
        "{example}"
    );
    assert!(!ws.path().join("decks").exists());
    ws.run([
        "deck",
        "export",
        "-o",
        "lists/aurora.txt",
        "cards/kingdoms/decks/aurora-de-valaria.toml",
    ])
    .succeeds();
    std::fs::rename(
        ws.path().join("lists/aurora.txt"),
        ws.path().join("aurora.txt"),
    )
    .unwrap();
    ws.run(&args).succeeds();
    let original: toml::Table = ws
        .read("cards/kingdoms/decks/aurora-de-valaria.toml")
        .parse()
        .unwrap();
    let imported: toml::Table = ws.read("decks/kingdoms/aurora.toml").parse().unwrap();
    assert_eq!(imported, original);
}

/// Issue 53: a deck file that is not there is named as missing, with the
/// path it was looked for at, not as a raw "entity not found".
#[test]
fn a_missing_file_on_the_command_line_is_named_without_raw_io_words() {
    let ws = crate::harness::Workspace::shipped(&["kingdoms"]);
    for args in [
        &["deck", "check", "gone.toml"][..],
        &["deck", "code", "gone.toml"],
        &["deck", "import", "gone.toml", "--game", "kingdoms"],
        &["deck", "check", "--event", "gone.toml"],
    ] {
        ws.run(args)
            .code(2)
            .stderr_has("no such file `gone.toml`")
            .stderr_has("relative to the current directory");
        let json = ws.run(["--message-format", "json"].iter().chain(args));
        assert!(!json.stdout.contains("entity not found"), "{}", json.stdout);
        assert!(
            json.stdout.contains("load::no-such-file"),
            "{}",
            json.stdout
        );
    }
}

/// Issue 53: one bound on a deck's name, 200 characters, everywhere: a
/// name of 200 passes the deck file, its code, the printable decklist,
/// the text list, the organisers' page and the builder; one of 201 is
/// refused by each, with its code.
#[test]
fn one_deck_name_limit_holds_in_every_reader() {
    use serde_json::json;
    let ws = crate::harness::Workspace::empty();
    crate::harness::copy_tree(&repo().join("tests/fixtures/sixth-game"), ws.path());
    let azul = ws.read("cards/mosaico/decks/azul.toml");
    let (_server, url) = crate::serve::start_serve(ws.path());
    for (len, ok) in [(200, true), (201, false)] {
        let name: String = "Mosaico à moda antiga ".chars().cycle().take(len).collect();
        let name = name.replace(' ', "-");
        let deck = azul.replace("name = \"Azul\"", &format!("name = \"{name}\""));
        let file = format!("event-{len}/deck.toml");
        ws.write(&file, &deck);
        let expect = |run: crate::harness::Run, code: &str| {
            if ok {
                run.succeeds();
            } else {
                run.fails().stderr_has(code);
            }
        };
        expect(ws.run(["deck", "check", &file]), "deck::name-too-long");
        expect(ws.run(["deck", "code", &file]), "deck::name-too-long");
        let html = format!("list-{len}.html");
        expect(
            ws.run(["deck", "export", "--decklist", "-o", &html, &file]),
            "deck::name-too-long",
        );
        let list = ws
            .run(["-q", "deck", "export", "cards/mosaico/decks/azul.toml"])
            .succeeds()
            .stdout
            .replace("Name: Azul", &format!("Name: {name}"));
        let txt = format!("list-{len}.txt");
        ws.write(&txt, &list);
        expect(ws.run(["deck", "import", &txt]), "list::name-too-long");
        let event = ws
            .run([
                "-q",
                "deck",
                "check",
                "--event",
                &format!("event-{len}"),
                "--csv",
            ])
            .stdout;
        assert_eq!(event.contains(",legal,"), ok, "{event}");
        assert_eq!(event.contains("deck::name-too-long"), !ok, "{event}");

        let post =
            |path: &str, body: &serde_json::Value| crate::serve::http(&url, "POST", path, body);
        let zones = json!({"main": {"azul-flor": 3}});
        let (status, verdict) = post(
            "/api/games/mosaico/verdict",
            &json!({"name": name, "zones": zones}),
        );
        assert_eq!(status == 200, ok, "{status} {verdict}");
        let (_, parsed) = post("/api/games/mosaico/list/parse", &json!({"text": list}));
        assert_eq!(parsed["deck"]["name"] == json!(name), ok, "{parsed}");
        let (_, table) = post(
            "/api/organize",
            &json!({"decks": [{"label": "d.toml", "text": deck}]}),
        );
        assert_eq!(
            table["csv"].as_str().unwrap().contains(",legal,"),
            ok,
            "{table}"
        );
    }
}

/// Issue 53: a deck whose name is empty is written `Name:` in a text list
/// and read back as that empty name, not as a zone heading; an empty
/// player is left out.
#[test]
fn an_empty_deck_name_round_trips_through_a_text_list() {
    let ws = crate::harness::Workspace::shipped(&["kingdoms"]);
    let rel = "cards/kingdoms/decks/aurora-de-valaria.toml";
    let original = ws
        .read(rel)
        .replace("name = \"Aurora de Valária\"", "name = \"\"\nplayer = \"\"");
    ws.write("empty.toml", &original);
    ws.run(["deck", "check", "empty.toml"]).succeeds();
    for by in ["name", "id"] {
        let list = ws
            .run(["-q", "deck", "export", "--by", by, "empty.toml"])
            .succeeds()
            .stdout;
        assert!(
            list.starts_with("Name:\n") || list.starts_with("Name: \n"),
            "{list}"
        );
        assert!(!list.contains("Player"), "{list}");
        ws.write("empty.txt", &list);
        let back = ws
            .run(["-q", "deck", "import", "empty.txt"])
            .succeeds()
            .stdout;
        let back: toml::Table = back.parse().unwrap();
        let mut want: toml::Table = original.parse().unwrap();
        want.remove("player");
        assert_eq!(back, want, "by {by}:\n{list}");
    }
}

/// Issue 54: an event being judged does not hold the server's executor:
/// while two organisers' requests of 5,000 decks each are judged (the
/// executor has two threads, so judging on them would hold both), a GET
/// is answered well before either judgement is.
#[test]
fn the_server_answers_while_events_are_judged() {
    use serde_json::json;
    use std::io::{Read, Write};
    use std::time::{Duration, Instant};
    let ws = crate::harness::Workspace::shipped(&["intrepidos"]);
    let deck = ws.read(
        example_decks()
            .iter()
            .find(|d| d.starts_with("cards/intrepidos/"))
            .unwrap(),
    );
    let files: Vec<serde_json::Value> = (0..5_000)
        .map(|i| json!({"label": format!("decks/{i:05}.toml"), "text": deck}))
        .collect();
    let body = json!({ "decks": files }).to_string();
    // A time limit shorter than two judgements at once: it bounds a
    // request's arrival, and never cuts a judgement with a `408`.
    let (_server, url) = crate::watch::start_server_with(
        ws.path(),
        &["serve", "--port", "0", "--ui-lang", "en"],
        &[("CARTA_SERVER_REQUEST_TIMEOUT_MS", "2000")],
    );
    let host = crate::serve::host_of(&url);
    let start = Instant::now();
    let (sent, all_sent) = std::sync::mpsc::channel();
    let judging: Vec<_> = (0..2)
        .map(|_| {
            let (host, body, sent) = (host.clone(), body.clone(), sent.clone());
            std::thread::spawn(move || {
                let mut stream = std::net::TcpStream::connect(&host).unwrap();
                write!(
                    stream,
                    "POST /api/organize HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                    body.len()
                )
                .unwrap();
                sent.send(()).unwrap();
                let mut answer = String::new();
                stream.read_to_string(&mut answer).unwrap();
                assert!(answer.starts_with("HTTP/1.1 200"), "{}", &answer[..100]);
                start.elapsed()
            })
        })
        .collect();
    // Both bodies are sent, and read by the server (which then judges
    // them); then a cheap GET.
    all_sent.recv().unwrap();
    all_sent.recv().unwrap();
    std::thread::sleep(Duration::from_millis(300));
    let asked = start.elapsed();
    let (status, games) = crate::serve::http(&url, "GET", "/api/games", &json!(null));
    let answered = start.elapsed();
    assert_eq!(status, 200, "{games}");
    let first = judging
        .into_iter()
        .map(|t| t.join().unwrap())
        .min()
        .unwrap();
    // A GET held behind a judgement waits out most of it.
    let (waited, judged) = (answered.saturating_sub(asked), first.saturating_sub(asked));
    assert!(
        waited * 4 < judged,
        "the GET took {waited:?}, the first judgement ended {judged:?} after it was asked"
    );
}

/// Issue 53: the organisers' page takes an event of 10,000 deck files in
/// one request (they weigh about 8 MiB as JSON), judged as `carta deck
/// check --event` judges them; one more deck, or a body past its bound,
/// is refused. Other routes keep their 1 MiB.
#[test]
fn the_organisers_page_takes_ten_thousand_deck_files_at_once() {
    use serde_json::json;
    let ws = crate::harness::Workspace::shipped(&["intrepidos"]);
    let decks: Vec<String> = example_decks()
        .iter()
        .filter(|d| d.starts_with("cards/intrepidos/"))
        .map(|d| ws.read(d))
        .collect();
    // Each player names their deck, but the cards are one of a few lists:
    // an event where thousands play the same deck.
    let files: Vec<serde_json::Value> = (0..10_000)
        .map(|i| {
            let text = decks[i % decks.len()].replacen("name = \"", &format!("name = \"{i} "), 1);
            json!({"label": format!("decks/{i:05}.toml"), "text": text})
        })
        .collect();
    let body = json!({ "decks": files });
    assert!(
        body.to_string().len() > 7 << 20,
        "as heavy as an event's files"
    );
    let (_server, url) = crate::serve::start_serve(ws.path());
    let (status, table) = crate::serve::http(&url, "POST", "/api/organize", &body);
    assert_eq!(
        status,
        200,
        "{}",
        &table.to_string()[..200.min(table.to_string().len())]
    );
    let rows = table["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 10_000);
    assert!(rows.iter().all(|r| r["verdict"] == "legal"), "{}", rows[0]);
    // The first of a list names every later one, each later one the first:
    // the answer grows with the decks, not with their square.
    let n = decks.len();
    let later: Vec<usize> = (1 + n..=10_000).step_by(n).collect();
    assert_eq!(rows[0]["same_as"], json!(later));
    assert_eq!(rows[n]["same_as"], json!([1]));
    assert!(table.to_string().len() < 4 * body.to_string().len());
    let mut more = files.clone();
    more.push(files[0].clone());
    let (status, _) = crate::serve::http(&url, "POST", "/api/organize", &json!({ "decks": more }));
    assert_eq!(status, 413);
    // A deck verdict is no event: past 1 MiB it is refused at once.
    let big = json!({"name": "x".repeat(1 << 20), "zones": {}});
    let (status, refused) = crate::serve::http(&url, "POST", "/api/games/intrepidos/verdict", &big);
    assert_eq!(status, 413, "{refused}");
}
