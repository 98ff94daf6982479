use super::table::{self, Variables};
use super::{Lang, english, word};
use crate::diag::Phrase;

/// Every message of English is in every language with the same
/// variables, and no language has one English lacks.
#[test]
fn every_message_is_in_every_language_with_the_same_variables() {
    let en = table::messages(Lang::En);
    assert!(en.len() > 100, "{} messages", en.len());
    for lang in [Lang::PtBr, Lang::Es] {
        let other = table::messages(lang);
        for (id, vars) in &en {
            let Some((_, theirs)) = other.iter().find(|(i, _)| i == id) else {
                panic!("{lang}.ftl lacks `{id}`");
            };
            assert_eq!(theirs.all, vars.all, "`{id}`'s variables in {lang}.ftl");
        }
        for (id, _) in &other {
            assert!(
                en.iter().any(|(i, _)| i == id),
                "{lang}.ftl has `{id}`, en.ftl not"
            );
        }
    }
}

/// A page message picks its plural form by one count, so the page's
/// table can carry each form with the count as its one number slot.
#[test]
fn a_page_message_picks_its_form_by_one_count_at_most() {
    for lang in Lang::ALL {
        for (id, vars) in table::messages(lang) {
            if id.starts_with(table::PAGE) {
                assert!(vars.selectors.len() <= 1, "`{id}` in {lang}: {vars:?}");
            }
        }
    }
}

fn cards(lang: Lang, n: u64) -> String {
    word(lang, &Phrase::new("rule-cards").with("count", n))
}

#[test]
fn plurals_are_fluents_in_each_language() {
    assert_eq!(cards(Lang::En, 1), "1 card");
    assert_eq!(cards(Lang::En, 2), "2 cards");
    assert_eq!(cards(Lang::En, 0), "0 cards");
    assert_eq!(cards(Lang::PtBr, 1), "1 carta");
    assert_eq!(cards(Lang::PtBr, 2), "2 cartas");
    // CLDR puts 0 with 1 in Portuguese; the message names 0 itself.
    assert_eq!(cards(Lang::PtBr, 0), "0 cartas");
    assert_eq!(cards(Lang::Es, 1), "1 carta");
    assert_eq!(cards(Lang::Es, 0), "0 cartas");
    assert_eq!(cards(Lang::Es, 61), "61 cartas");
    let copies = |lang, n: u64| word(lang, &Phrase::new("rule-copies").with("count", n));
    assert_eq!(copies(Lang::PtBr, 1), "1 cópia");
    assert_eq!(copies(Lang::Es, 4), "4 copias");
}

#[test]
fn phrases_nest_and_a_games_own_pattern_fills_its_slots() {
    let broken = Phrase::new("rule-broken")
        .with("actual", Phrase::new("rule-cards").with("count", 61u64))
        .with("rule", "Deck de 60")
        .with("expected", Phrase::new("rule-exactly").with("n", 60u32));
    assert_eq!(
        english(&broken),
        "61 cards; the rule *Deck de 60* requires exactly 60"
    );
    assert_eq!(
        word(Lang::PtBr, &broken),
        "61 cartas; a regra *Deck de 60* exige exatamente 60"
    );
    let own = Phrase::own("{zone}: {actual}, faltam {missing}")
        .with("zone", Phrase::new("rule-the-deck"))
        .with("actual", Phrase::new("rule-cards").with("count", 58u64))
        .with("missing", 2u64);
    assert_eq!(word(Lang::Es, &own), "el mazo: 58 cartas, faltam 2");
}

#[test]
fn a_language_is_known_by_its_language_subtag() {
    assert_eq!(Lang::parse("pt-BR"), Some(Lang::PtBr));
    assert_eq!(Lang::parse("pt"), Some(Lang::PtBr));
    assert_eq!(Lang::parse("es-419"), Some(Lang::Es));
    assert_eq!(Lang::parse("EN-us"), Some(Lang::En));
    assert_eq!(Lang::parse("fr"), None);
    assert_eq!(Lang::parse("not a tag"), None);
}

/// The page's table: plain messages with `{$name}` slots, plural ones as
/// Fluent's forms per category with the count as `{#}`, a number a
/// variant names (`[0]`) as a form of its own.
#[test]
fn the_page_table_has_each_plural_form_worded_by_fluent() {
    let en = table::page(Lang::En);
    assert_eq!(en["ui-add-to"], "Add {$card} to {$zone}");
    assert_eq!(en["ui-cards"]["n"], "count");
    assert_eq!(en["ui-cards"]["forms"]["one"], "{#} card");
    assert_eq!(en["ui-cards"]["forms"]["other"], "{#} cards");
    let pt = table::page(Lang::PtBr);
    assert_eq!(pt["ui-cards"]["forms"]["one"], "{#} carta");
    assert_eq!(pt["ui-cards"]["forms"]["other"], "{#} cartas");
    assert_eq!(pt["ui-cards"]["forms"]["=0"], "0 cartas");
    assert_eq!(pt["ui-shown"]["forms"]["other"], "{$shown} de {#} cartas");
    let es = table::page(Lang::Es);
    assert_eq!(es["ui-rules-broken"]["forms"]["one"], "{#} regla rota");
    assert!(es.get("rule-cards").is_none(), "only the page's messages");
}

#[test]
fn the_plural_categories_are_cldrs() {
    let keys = |lang| table::categories(lang).into_keys().collect::<Vec<_>>();
    assert_eq!(keys(Lang::En), ["one", "other"]);
    assert!(keys(Lang::PtBr).contains(&"one"), "{:?}", keys(Lang::PtBr));
    assert_eq!(table::categories(Lang::PtBr)["one"][..2], [0, 1]);
    assert_eq!(table::categories(Lang::Es)["one"], [1]);
}

#[test]
fn variables_are_found_inside_selections() {
    let ui = table::messages(Lang::En)
        .into_iter()
        .find(|(id, _)| id == "ui-at-limit")
        .unwrap()
        .1;
    assert_eq!(
        ui,
        Variables {
            all: ["card", "count"].map(str::to_owned).into(),
            selectors: ["count".to_owned()].into(),
            exact: [].into(),
        }
    );
}

/// The playtest panel's and the collection's words: a leading space kept
/// (Fluent trims a bare one), a plural picked by the copies missing.
#[test]
fn the_playtest_and_collection_words_keep_their_space_and_plurals() {
    let pt = table::page(Lang::PtBr);
    assert_eq!(pt["ui-play-declared-mulligan"], " (após um mulligan: {$n})");
    assert_eq!(pt["ui-play-draw"], "Comprar uma mão");
    let line = &pt["ui-owned-missing-line"];
    assert_eq!(line["n"], "count");
    assert_eq!(
        line["forms"]["one"],
        "{$card}: falta {#} (o baralho precisa de {$needed}, você tem {$owned})"
    );
    assert_eq!(
        line["forms"]["other"].as_str().map(|s| &s[..20]),
        Some("{$card}: faltam {#} ")
    );
    let es = table::page(Lang::Es);
    assert_eq!(es["ui-owned-copies"]["forms"]["one"], "{#} copia");
    assert_eq!(
        es["ui-play-declared"]["forms"]["other"]
            .as_str()
            .map(|s| &s[..27]),
        Some("Mano inicial: {#} cartas de")
    );
}

/// Issue 53 (axe's `label-content-name-mismatch`): the accessible name of
/// a list problem's "Use …" button begins with the words the button
/// shows, so that speech input saying what is seen reaches it.
#[test]
fn the_use_suggestion_buttons_name_starts_with_its_visible_words() {
    for lang in Lang::ALL {
        let page = table::page(lang);
        let text = |id: &str| page[id].as_str().unwrap().to_owned();
        let (shown, named) = (text("ui-use-suggestion"), text("ui-replace-at"));
        assert!(
            named.starts_with(&shown),
            "{lang:?}: {named:?} does not start with {shown:?}"
        );
    }
}
