//! The cards the builder marks unavailable, against the long way of
//! finding them (kept here alone, as the oracle): adding one copy of each
//! card the zone takes and testing every watched rule.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use super::{GameCatalog, Served, Unavailable, ValidDeck};
use crate::config::rules::RuleSeverity;
use crate::diag::Diagnostics;
use crate::emit::sheets::Faces;
use crate::game::{Decks, Keep, compile};
use crate::load::Workspace;
use crate::rules::{DeckView, Entry, RuleSet};

/// What `Catalog::unavailable` answered before each rule answered for
/// every card at once: for each card a zone takes, one more copy added to
/// the deck and every watched rule tested.
fn unavailable_by_hand<'g>(
    catalog: &'g GameCatalog,
    rules: &'g RuleSet,
    deck: &ValidDeck,
    broken: &BTreeSet<usize>,
) -> Vec<Unavailable<'g>> {
    let mut out = Vec::new();
    let mut view = deck.view.clone();
    let watched: Vec<_> = rules
        .rules
        .iter()
        .enumerate()
        .filter(|(i, r)| {
            !broken.contains(i) && r.severity == RuleSeverity::Error && !r.bounds_a_share()
        })
        .map(|(_, r)| r)
        .collect();
    for (z, zone) in rules.zones.iter().enumerate() {
        for (c, _) in zone.accepts.iter().enumerate().filter(|(_, a)| **a) {
            let card = u32::try_from(c).unwrap();
            let line = view.zones[z].iter().position(|e| e.card == card);
            match line {
                Some(i) => view.zones[z][i].count += 1,
                None => view.zones[z].push(Entry { card, count: 1 }),
            }
            let newly: Vec<&str> = watched
                .iter()
                .filter(|r| !r.holds(&view))
                .map(|r| r.name.as_str())
                .collect();
            match line {
                Some(i) => view.zones[z][i].count -= 1,
                None => {
                    view.zones[z].pop();
                }
            }
            if !newly.is_empty() {
                out.push(Unavailable {
                    card: &catalog.game.pool.card(c).id,
                    zone: &zone.id,
                    rules: newly,
                });
            }
        }
    }
    out
}

/// A tiny seeded generator (xorshift64), so a failure reproduces.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        usize::try_from(self.0 % n.max(1) as u64).unwrap()
    }
}

/// A deck near `from` (an example deck: legal and full) or a random one of
/// the cards each zone takes, as the differential test makes them: counts
/// up and down, lines added and removed.
fn generate(rng: &mut Rng, rules: &RuleSet, from: &DeckView) -> DeckView {
    let takes: Vec<Vec<u32>> = rules
        .zones
        .iter()
        .map(|z| {
            (0..z.accepts.len())
                .filter(|&c| z.accepts[c])
                .map(|c| u32::try_from(c).unwrap())
                .collect()
        })
        .collect();
    let mut view = if rng.below(3) == 0 {
        DeckView {
            zones: takes
                .iter()
                .map(|t| {
                    let mut lines: Vec<Entry> = Vec::new();
                    for _ in 0..rng.below(30) {
                        let card = t[rng.below(t.len())];
                        if !t.is_empty() && !lines.iter().any(|e| e.card == card) {
                            let count = 1 + u32::try_from(rng.below(3)).unwrap();
                            lines.push(Entry { card, count });
                        }
                    }
                    lines
                })
                .collect(),
        }
    } else {
        from.clone()
    };
    for _ in 0..rng.below(4) {
        let z = rng.below(view.zones.len());
        let lines = &mut view.zones[z];
        match rng.below(4) {
            0 if !lines.is_empty() => {
                let i = rng.below(lines.len());
                lines[i].count += 1;
            }
            1 if !lines.is_empty() => {
                let i = rng.below(lines.len());
                if lines[i].count > 1 {
                    lines[i].count -= 1;
                } else {
                    lines.remove(i);
                }
            }
            _ if !takes[z].is_empty() => {
                let card = takes[z][rng.below(takes[z].len())];
                if !lines.iter().any(|e| e.card == card) {
                    lines.push(Entry { card, count: 1 });
                }
            }
            _ => {}
        }
    }
    view
}

/// Checks that the builder marks, on `view` judged by `rules`, what the
/// old code marked; returns how many cards it marked.
fn agrees(
    catalog: &GameCatalog,
    rules: &RuleSet,
    format: Option<&String>,
    view: DeckView,
) -> usize {
    let deck = ValidDeck {
        name: String::new(),
        format: format.cloned(),
        view,
        legal: false,
    };
    let broken: BTreeSet<usize> = rules.check(&deck.view).iter().map(|v| v.rule).collect();
    let got = catalog.unavailable((rules, rules), &deck, &broken);
    let expected = unavailable_by_hand(catalog, rules, &deck, &broken);
    assert_eq!(
        serde_json::to_value(&got).unwrap(),
        serde_json::to_value(&expected).unwrap(),
        "{} {format:?}: {:?}",
        catalog.id(),
        deck.view
    );
    got.len()
}

#[test]
fn each_rule_answering_for_every_card_marks_what_adding_each_card_marked() {
    let mut ws = Workspace::open(Path::new(env!("CARGO_MANIFEST_DIR"))).unwrap();
    let mut rng = Rng(0x00c0_ffee);
    let (mut decks, mut marked, mut examples_seen) = (0, 0, 0);
    for id in ws.game_ids().unwrap() {
        let mut diags = Diagnostics::default();
        let game = compile(&mut ws, &id, Decks::Check, Keep::All, &mut diags)
            .unwrap()
            .unwrap();
        assert!(!diags.has_errors(), "{id}");
        let catalog = GameCatalog::new(Served {
            game,
            faces: Faces::default(),
            translations: Vec::new(),
        });
        let examples: Vec<ValidDeck> = catalog
            .game
            .decks
            .iter()
            .map(|d| catalog.judge(d).unwrap())
            .collect();
        if catalog.game.rules.deck.zones.is_empty() {
            continue; // a game of box rules alone: no deck to build
        }
        examples_seen += examples.len();
        let sets = std::iter::once((None, &catalog.game.rules.deck)).chain(
            catalog
                .game
                .rules
                .formats
                .iter()
                .map(|(f, r)| (Some(f.clone()), r)),
        );
        for (format, rules) in sets {
            let mut views: Vec<DeckView> = examples.iter().map(|d| d.view.clone()).collect();
            let empty = DeckView {
                zones: vec![Vec::new(); rules.zones.len()],
            };
            for i in 0..750 {
                let from = examples
                    .get(i % examples.len().max(1))
                    .map_or(&empty, |d| &d.view);
                views.push(generate(&mut rng, rules, from));
            }
            for view in views {
                marked += agrees(&catalog, rules, format.as_ref(), view);
                decks += 1;
            }
        }
    }
    assert!(
        examples_seen >= 8 && decks > 1_500 && marked > 10_000,
        "{examples_seen} example decks, {decks} decks, {marked} marked"
    );
}

/// Calls `f` with the repository's workspace, each shipped game's id and
/// the game compiled with every field.
fn each_shipped_game(mut f: impl FnMut(&mut Workspace, &str, crate::game::Game)) {
    let mut ws = Workspace::open(Path::new(env!("CARGO_MANIFEST_DIR"))).unwrap();
    for id in ws.game_ids().unwrap() {
        let mut diags = Diagnostics::default();
        let game = compile(&mut ws, &id, Decks::Skip, Keep::All, &mut diags)
            .unwrap()
            .unwrap();
        f(&mut ws, &id, game);
    }
}

#[test]
fn an_integer_facet_spans_the_values_the_pool_has_and_no_other() {
    let mut integers = 0;
    each_shipped_game(|_, id, game| {
        let summary = super::summary::summary(&game, BTreeMap::new());
        let facets = summary["facets"].as_array().unwrap();
        for facet in facets.iter().filter(|f| f["kind"] == "integer") {
            integers += 1;
            let field = facet["field"].as_str().unwrap();
            // The long way: every card's value of the field, one facet at a time.
            let values: Vec<i64> = game
                .pool
                .iter()
                .filter_map(|c| c.all_fields().get(field)?.as_i64())
                .collect();
            assert!(!values.is_empty(), "{id}: {field} has no value");
            let range = (facet["min"].as_i64(), facet["max"].as_i64());
            let want = (values.iter().min().copied(), values.iter().max().copied());
            assert_eq!(range, want, "{id}: {field}");
        }
    });
    assert!(
        integers > 3,
        "the shipped games have integer facets: {integers}"
    );
}

#[test]
fn an_enum_facet_reads_as_its_schemas_labels_value_by_value() {
    use crate::validate::PathStep;
    let mut labelled = 0;
    each_shipped_game(|_, id, game| {
        let summary = super::summary::summary(&game, BTreeMap::new());
        let facets = summary["facets"].as_array().unwrap();
        for facet in facets.iter().filter(|f| f["kind"] == "enum") {
            let field = facet["field"].as_str().unwrap();
            let values = facet["values"].as_array().unwrap();
            let labels = facet["labels"].as_array().unwrap_or_else(|| {
                panic!("{id}: the facet {field} has labels: {facet}");
            });
            assert_eq!(labels.len(), values.len(), "{id}: {field}");
            // The long way: the labels each kind's schema marks on the field.
            for (value, label) in values.iter().zip(labels) {
                let value = value.as_str().unwrap();
                let marked = game.manifest.manifest.kinds.keys().find_map(|k| {
                    let schema = game.schemas.kind(k)?;
                    game.schemas.marks(schema).labels.iter().find_map(|p| {
                        let top = matches!(p.path.as_slice(), [PathStep::Key(f)] if f == field);
                        top.then(|| p.labels.get(value).cloned()).flatten()
                    })
                });
                let want = marked.unwrap_or_else(|| value.to_owned());
                labelled += usize::from(want != value);
                assert_eq!(
                    label.as_str(),
                    Some(want.as_str()),
                    "{id}: {field} = {value}"
                );
            }
        }
    });
    assert!(
        labelled > 10,
        "the shipped games label their enums: {labelled}"
    );
}

#[test]
fn each_card_of_the_summary_is_what_json_writes_of_its_parts() {
    use crate::emit::sheets::{Inputs, faces};
    let mut cards = 0;
    each_shipped_game(|ws, id, game| {
        let inputs = Inputs::read(ws, &game, &mut Diagnostics::default()).unwrap();
        let faces = faces(
            (ws.jail(), &ws.sources),
            &game,
            &inputs,
            None,
            &mut Vec::new(),
        );
        let summary = super::summary::summary(&game, faces.cards.clone());
        let keys: Vec<&str> = summary
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        let order = [
            "id", "name", "language", "kinds", "zones", "rules", "formats", "facets", "cards",
            "save_to", "max_name", "play", "versions",
        ];
        assert_eq!(keys, order, "{id}: the summary's keys in order");
        let served = summary["cards"].as_array().unwrap();
        assert_eq!(served.len(), game.pool.len(), "{id}");
        for (c, got) in game.pool.iter().zip(served) {
            // The long way, each part serialized by `json!`.
            let face = faces.cards.get(&c.id);
            assert!(face.is_some(), "{id}: {} has a face", c.id);
            let want = serde_json::json!({
                "id": c.id,
                "kind": c.kind,
                "name": c.name,
                "text": got["text"],
                "zones": got["zones"],
                "limits": got["limits"],
                "values": got["values"],
                "face": face.map(|f| &f.html),
                "width": face.map(|f| f.size.width),
                "height": face.map(|f| f.size.height),
            });
            // Equal as text too: the same keys in the same order.
            assert_eq!(got.to_string(), want.to_string(), "{id}: {}", c.id);
            cards += 1;
        }
    });
    assert!(cards > 300, "the shipped games' cards: {cards}");
}
