//! The deck builder of `carta serve`: what the server knows of each game
//! (its compiled rules, every card's printed face, the facets its schemas
//! allow filtering on) and the judgement of a deck by
//! [`crate::deck::judge`] — the very code `carta deck check` runs, on the
//! deck as a deck file — so the page and the command cannot disagree.
//!
//! Nothing here names a game, a kind or a field: cards, zones, facets and
//! rules all come from the game's data.

pub(super) mod api;
mod collection;
mod lists;
mod organize;
mod play;
mod save;
mod summary;
#[cfg(test)]
mod tests;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::config::rules::RuleSeverity;
use crate::deck::{DeckEntry, DeckFile, DeckZone, MAX_COUNT};
use crate::deckcode::{self, CodeDeck, MAX_NAME};
use crate::diag::{Diagnostics, Phrase, PhraseKey, Severity, SourceMap};
use crate::emit::sheets::Faces;
use crate::game::Game;
use crate::l10n::{self, Lang};
use crate::rules::{self, DeckView, RuleSet, Violation};
use summary::summary;

/// The games the builder serves.
#[derive(Debug, Default)]
pub(crate) struct Catalog {
    /// The workspace, where "save" writes decks.
    root: PathBuf,
    games: BTreeMap<String, GameCatalog>,
    /// The pages' language when a request asks for none (`--ui-lang`);
    /// `None`: each game's own language.
    ui: Option<Lang>,
    /// The cards' language whatever the page's (`--lang`); `None`: the
    /// page's.
    cards: Option<String>,
}

/// A game to serve: compiled clean, its faces, and the game and faces in
/// each language carta speaks that it ships a translation into.
#[derive(Debug)]
pub(crate) struct Served {
    /// The game, in its own language.
    pub(crate) game: Game,
    /// Its printed faces.
    pub(crate) faces: Faces,
    /// The game in each language it ships a translation into (by the
    /// game's tag), with its faces in that language.
    pub(crate) translations: Vec<(String, Game, Faces)>,
}

/// The language a request is answered in, and the language it asked for
/// when carta does not speak that one (answered in English).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Chosen {
    pub(super) lang: Lang,
    pub(super) unknown: Option<String>,
}

impl Catalog {
    /// A catalog of compiled games (a clean check each) and their faces,
    /// of the workspace at `root`.
    pub(crate) fn new(root: PathBuf, games: impl IntoIterator<Item = Served>) -> Self {
        Catalog {
            root,
            games: games
                .into_iter()
                .map(|s| (s.game.id().to_owned(), GameCatalog::new(s)))
                .collect(),
            ui: None,
            cards: None,
        }
    }

    /// The catalog with the cards in `lang` (where a game ships it)
    /// whatever the page's language (`carta serve --lang`).
    #[must_use]
    pub(crate) fn with_cards_lang(mut self, lang: Option<String>) -> Self {
        self.cards = lang;
        self
    }

    /// What the browser gets of `g` on a page in `lang`: its cards in
    /// `--lang`'s language, else in `lang`, where the game ships a
    /// translation into it; else in the game's own.
    pub(super) fn summary<'g>(&self, g: &'g GameCatalog, lang: Lang) -> &'g Value {
        self.translation(g, lang).map_or(&g.summary, |t| &t.summary)
    }

    /// The game as a page in `lang` shows its cards (see [`Self::summary`]),
    /// when that is a translation: what verdicts are worded in and pasted
    /// lists are read in, besides the game's own names.
    pub(super) fn cards_of<'g>(&self, g: &'g GameCatalog, lang: Lang) -> Option<&'g Game> {
        self.translation(g, lang).map(|t| &t.game)
    }

    fn translation<'g>(&self, g: &'g GameCatalog, lang: Lang) -> Option<&'g Translated> {
        let by_tag = self
            .cards
            .as_deref()
            .and_then(|tag| g.translated.iter().find(|t| t.tag == tag));
        let wanted = self.cards.as_deref().map_or(Some(lang), Lang::parse);
        by_tag.or_else(|| {
            g.translated
                .iter()
                .find(|t| wanted.is_some() && Lang::parse(&t.tag) == wanted)
        })
    }

    /// The catalog with its pages in `ui` unless a request asks for
    /// another language (`carta serve --ui-lang`).
    #[must_use]
    pub(crate) fn with_ui(mut self, ui: Option<Lang>) -> Self {
        self.ui = ui;
        self
    }

    /// The language of a request about `game` that asks for `asked` (the
    /// page's `ui=`): that one when carta speaks it, English when it does
    /// not; without one, `--ui-lang`'s, else the game's own language when
    /// carta speaks it, else English.
    pub(super) fn language(&self, asked: Option<&str>, game: Option<&GameCatalog>) -> Chosen {
        if let Some(asked) = asked.map(str::trim).filter(|a| !a.is_empty()) {
            return match Lang::parse(asked) {
                Some(lang) => Chosen {
                    lang,
                    unknown: None,
                },
                None => Chosen {
                    lang: Lang::En,
                    unknown: Some(asked.chars().take(40).collect()),
                },
            };
        }
        let lang = self
            .ui
            .or_else(|| game.and_then(|g| Lang::parse(&g.game.manifest.manifest.language)))
            .unwrap_or(Lang::En);
        Chosen {
            lang,
            unknown: None,
        }
    }

    /// The game `id`, if served.
    pub(super) fn game(&self, id: &str) -> Option<&GameCatalog> {
        self.games.get(id)
    }

    /// The served games, by id.
    pub(super) fn games(&self) -> impl Iterator<Item = &GameCatalog> {
        self.games.values()
    }

    /// The served games' ids and names.
    pub(crate) fn games_served(&self) -> impl Iterator<Item = (&str, &str)> {
        self.games
            .values()
            .map(|g| (g.id(), g.game.manifest.manifest.name.as_str()))
    }

    /// The workspace.
    pub(super) fn root(&self) -> &Path {
        &self.root
    }

    /// Whether no game is served.
    pub(crate) fn is_empty(&self) -> bool {
        self.games.is_empty()
    }
}

/// One game as the builder serves it.
#[derive(Debug)]
pub(super) struct GameCatalog {
    pub(super) game: Game,
    /// Its faces' style sheet (each card's face is in the summary).
    pub(super) css: String,
    /// The art its faces show, by URL (`img/<hash>.png`).
    pub(super) images: BTreeMap<String, Vec<u8>>,
    /// What the browser gets: cards, zones, facets, rules.
    pub(super) summary: Value,
    /// The game in each language it ships a translation into.
    translated: Vec<Translated>,
    /// The pool as deck codes number it, for the code of every verdict.
    codes: deckcode::PoolIndex,
}

/// A game in a language it ships a translation into, by its tag.
#[derive(Debug)]
struct Translated {
    tag: String,
    /// What the browser gets of it (its card names, texts and faces, its
    /// kinds', zones' and rules' names).
    summary: Value,
    /// The game, its rules compiled over its own words: what words a
    /// verdict in its language (the game's own rules judge it).
    game: Game,
}

impl GameCatalog {
    fn new(served: Served) -> Self {
        let Served {
            game,
            faces: Faces { css, cards, images },
            translations,
        } = served;
        let translated = translations
            .into_iter()
            .map(|(tag, mut game, faces)| {
                // A translated game keeps the rules compiled over the
                // source's names; compiled again, they name its own.
                let m = &game.manifest;
                game.rules = rules::compile(m, &game.pool, &game.schemas, &mut Diagnostics::new());
                Translated {
                    tag,
                    summary: summary(&game, faces.cards),
                    game,
                }
            })
            .collect();
        GameCatalog {
            summary: summary(&game, cards),
            codes: deckcode::PoolIndex::new(&game.pool),
            game,
            css,
            images,
            translated,
        }
    }

    pub(super) fn id(&self) -> &str {
        self.game.id()
    }
}

/// A deck as the browser sends it: a name and, per zone, card → copies.
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub(super) struct DeckInput {
    #[serde(default)]
    pub(super) name: String,
    /// The format the deck opts into (`None`: the game's own deck rules).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) format: Option<String>,
    #[serde(default)]
    pub(super) zones: IndexMap<String, IndexMap<String, i64>>,
}

impl DeckInput {
    /// A deck read from a file or a code, in the browser's form.
    pub(super) fn of_lines(
        name: String,
        format: Option<String>,
        zones: IndexMap<String, Vec<(String, u32)>>,
    ) -> Self {
        let zones = zones
            .into_iter()
            .map(|(z, lines)| {
                (
                    z,
                    lines
                        .into_iter()
                        .map(|(id, n)| (id, i64::from(n)))
                        .collect(),
                )
            })
            .collect();
        DeckInput {
            name,
            format,
            zones,
        }
    }
}

/// Why a request's deck cannot be judged (a 4xx answer), to be worded in
/// the page's language.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Invalid(pub(super) Phrase);

impl Invalid {
    /// A reason carta words in English only (a deck code's damage, a
    /// malformed request: what a script, not a player, meets).
    pub(super) fn text(why: String) -> Self {
        Invalid(Phrase::own(why))
    }

    /// The reason in `lang`.
    pub(super) fn word(&self, lang: Lang) -> String {
        l10n::word(lang, &self.0)
    }
}

/// A deck judged as `carta deck check` judges it: its engine view (zones
/// in the rules' order) and its legality.
#[derive(Debug, Clone)]
pub(super) struct ValidDeck {
    pub(super) name: String,
    /// The format, if the deck names one (a declared one).
    pub(super) format: Option<String>,
    pub(super) view: DeckView,
    /// Whether `carta deck check` finds no error in it.
    pub(super) legal: bool,
}

impl GameCatalog {
    /// Judges a deck sent by the browser: its shape is checked here (a name
    /// of at most [`MAX_NAME`] characters, counts from 1 to [`MAX_COUNT`]),
    /// then it is judged as a deck file of the game (see [`Self::judge`]).
    pub(super) fn validate(&self, deck: &DeckInput) -> Result<ValidDeck, Invalid> {
        if deck.name.chars().count() > MAX_NAME {
            return Err(Invalid(
                Phrase::new("deck-name-too-long").with("max", MAX_NAME),
            ));
        }
        let file = SourceMap::new().add("deck.toml", "");
        let mut zones = Vec::new();
        for (zone, lines) in &deck.zones {
            let mut entries = Vec::new();
            for (card, &count) in lines {
                if !(1..=MAX_COUNT).contains(&count) {
                    // A count below 1 is shown as written, sign and all.
                    return Err(Invalid(
                        Phrase::new("api-bad-count")
                            .with("card", card)
                            .with("max", MAX_COUNT as u64)
                            .with("count", count.to_string()),
                    ));
                }
                entries.push(DeckEntry {
                    id: card.clone(),
                    count: u32::try_from(count).expect("bounded"),
                    span: 0..0,
                });
            }
            zones.push(DeckZone {
                id: zone.clone(),
                span: 0..0,
                entries,
            });
        }
        self.judge(&DeckFile {
            file,
            game: self.id().to_owned(),
            game_span: 0..0,
            name: deck.name.clone(),
            player: None,
            format: deck.format.clone().map(|f| (f, 0..0)),
            zones,
            complete: true,
        })
    }

    /// Judges a deck file of this game with [`crate::deck::judge`], the very
    /// code `carta deck check` runs, so the builder, the organisers' page and
    /// the command cannot disagree. A deck that cannot be judged (no zones
    /// in the game, an unknown zone, card or format, a card its zone does
    /// not take) is refused with the command's first error and its code;
    /// otherwise it is legal when no rule of severity error is broken.
    pub(super) fn judge(&self, deck: &DeckFile) -> Result<ValidDeck, Invalid> {
        let g = &self.game;
        let mut found = Vec::new();
        let judged = crate::deck::judge(deck, &g.manifest, &g.pool, &g.rules, &mut found);
        let mut errors = found.iter().filter(|d| d.severity == Severity::Error);
        let Some((resolved, _)) = judged else {
            return Err(Invalid(errors.next().map_or_else(
                || Phrase::new("api-not-judged"),
                |d| {
                    // The diagnostic's phrases where it has them (the
                    // deck's errors do), its English otherwise.
                    let (message, help) = match &d.words {
                        Some(w) => (w.message.clone(), w.help.clone()),
                        None => (
                            Phrase::own(d.message.clone()),
                            d.help.clone().map(Phrase::own),
                        ),
                    };
                    let said = match help {
                        Some(help) => Phrase::new("deck-not-judged-help").with("help", help),
                        None => Phrase::new("deck-not-judged"),
                    };
                    said.with("message", message).with("code", d.code)
                },
            )));
        };
        let legal = errors.next().is_none();
        Ok(ValidDeck {
            name: deck.name.clone(),
            format: deck.format.as_ref().map(|(f, _)| f.clone()),
            view: resolved.view,
            legal,
        })
    }

    /// The rules a deck of `format` is judged by (the game's own without one).
    fn rules_of(&self, format: Option<&str>) -> Result<&RuleSet, Invalid> {
        let Some(format) = format else {
            return Ok(&self.game.rules.deck);
        };
        self.game.rules.formats.get(format).ok_or_else(|| {
            Invalid(
                Phrase::new("deck-unknown-format")
                    .with("format", format)
                    .with("game", self.id()),
            )
        })
    }

    /// The deck file (TOML) of a deck, as `carta deck check` reads it.
    pub(super) fn to_toml(&self, deck: &ValidDeck) -> String {
        deckcode::to_toml(&self.code_deck(deck))
    }

    /// The deck as a deck code carries it.
    pub(super) fn code_deck(&self, deck: &ValidDeck) -> CodeDeck {
        // Every rule set of a game has the manifest's zones, in order.
        let rules = &self.game.rules.deck;
        CodeDeck {
            game: self.id().to_owned(),
            name: deck.name.clone(),
            format: deck.format.clone(),
            zones: deck
                .view
                .zones
                .iter()
                .enumerate()
                .filter(|(_, es)| !es.is_empty())
                .map(|(z, es)| {
                    let lines = es
                        .iter()
                        .map(|e| (self.game.pool.card(e.card as usize).id.clone(), e.count))
                        .collect();
                    (rules.zones[z].id.clone(), lines)
                })
                .collect(),
        }
    }

    /// The deck code of a deck.
    pub(super) fn encode(&self, deck: &ValidDeck) -> String {
        deckcode::encode_in(
            &self.code_deck(deck),
            &self.game.manifest.manifest,
            &self.game.pool,
            &self.codes,
        )
        .expect("a validated deck names only the game's zones and cards")
    }

    /// Reads a deck code of this game into the browser's form.
    pub(super) fn decode(&self, code: &str) -> Result<DeckInput, Invalid> {
        let deck = deckcode::decode_in(
            code,
            &self.game.manifest.manifest,
            &self.game.pool,
            &self.codes,
        )
        .map_err(|e| Invalid::text(e.to_string()))?;
        Ok(DeckInput::of_lines(deck.name, deck.format, deck.zones))
    }

    /// The judgement of a deck by the game's deck rules, its messages in
    /// `lang` and its names (of cards, rules, kinds) those of `words`, the
    /// game as the page shows its cards, when that is a translation.
    pub(super) fn verdict<'g>(
        &'g self,
        deck: &ValidDeck,
        lang: Lang,
        words: Option<&'g Game>,
    ) -> Verdict<'g> {
        let format = deck.format.as_deref();
        let rules = self
            .rules_of(format)
            .expect("a validated deck names a declared format");
        let violations = rules.check(&deck.view);
        // The translation's rules word the breaches only when they find the
        // very same ones: a translated name may group copies otherwise, and
        // the game's own rules are the verdict.
        let worded = words
            .and_then(|w| in_format(&w.rules, format))
            .map(|w| (w, w.check(&deck.view)))
            .filter(|(_, found)| same_breaches(found, &violations));
        let problems = match &worded {
            Some((w, found)) => self.problems(w, deck, found, lang),
            None => self.problems(rules, deck, &violations, lang),
        };
        let named = worded.as_ref().map_or(rules, |(w, _)| w);
        let figures = rules
            .figures(&deck.view)
            .into_iter()
            .map(|f| {
                let rule = &named.rules[f.rule];
                FigureOut {
                    rule: rule.id.clone(),
                    name: rule.name.clone(),
                    group: f.group,
                    value: f.value,
                    min: f.min,
                    max: f.max,
                    unit: f.unit,
                    ok: f.ok,
                }
            })
            .collect();
        let broken: BTreeSet<usize> = violations.iter().map(|v| v.rule).collect();
        Verdict {
            legal: deck.legal,
            cards: deck
                .view
                .zones
                .iter()
                .flatten()
                .map(|e| u64::from(e.count))
                .sum(),
            problems,
            figures,
            unavailable: self.unavailable((rules, named), deck, &broken),
            code: self.encode(deck),
        }
    }

    /// The rules a deck breaks, each with its tally and the cards it names.
    fn problems(
        &self,
        rules: &RuleSet,
        deck: &ValidDeck,
        violations: &[Violation],
        lang: Lang,
    ) -> Vec<Problem> {
        let tallies = rules.explain(&deck.view);
        let card_at = |(z, i): (usize, usize)| {
            let e = deck.view.zones[z][i];
            self.game.pool.card(e.card as usize).id.clone()
        };
        violations
            .iter()
            .map(|v| {
                let rule = &rules.rules[v.rule];
                let tally = tallies.iter().find(|t| t.rule == v.rule);
                Problem {
                    rule: rule.id.clone(),
                    name: rule.name.clone(),
                    code: rule.code(false),
                    severity: if rule.severity == RuleSeverity::Warning {
                        "warning"
                    } else {
                        "error"
                    },
                    message: l10n::word(lang, &v.said),
                    breach: breach(&v.said).map_or_else(String::new, |b| l10n::word(lang, &b)),
                    source: rule.source.clone(),
                    expected: tally
                        .map(|t| l10n::word(lang, &t.expected_said))
                        .unwrap_or_default(),
                    actual: tally
                        .map(|t| l10n::word(lang, &t.actual_said))
                        .unwrap_or_default(),
                    zone: v.zone.map(|z| rules.zones[z].id.clone()),
                    card: v.primary.map(card_at),
                    cards: v.entries.iter().copied().map(card_at).collect(),
                }
            })
            .collect()
    }

    /// For each card and zone it may stand in: the error rules one more
    /// copy there would newly break (shares aside: more cards of other
    /// groups mend them). Each rule answers for every card of a zone at
    /// once ([`RuleSet::one_more`]), so this costs the deck and the rules,
    /// and each card a lookup per rule.
    fn unavailable<'g>(
        &'g self,
        (rules, named): (&'g RuleSet, &'g RuleSet),
        deck: &ValidDeck,
        broken: &BTreeSet<usize>,
    ) -> Vec<Unavailable<'g>> {
        // The error rules kept now that one more copy could break.
        let watched: Vec<usize> = rules
            .rules
            .iter()
            .enumerate()
            .filter(|(i, r)| {
                !broken.contains(i) && r.severity == RuleSeverity::Error && !r.bounds_a_share()
            })
            .map(|(i, _)| i)
            .collect();
        let mut out = Vec::new();
        for (z, zone) in rules.zones.iter().enumerate() {
            let more = rules.one_more(&deck.view, z, watched.iter().copied());
            for (c, _) in zone.accepts.iter().enumerate().filter(|(_, a)| **a) {
                let card = u32::try_from(c).expect("pool fits u32");
                let newly: Vec<&str> = more
                    .breaks(card)
                    .map(|i| named.rules[i].name.as_str())
                    .collect();
                if !newly.is_empty() {
                    out.push(Unavailable {
                        card: &self.game.pool.card(c).id,
                        zone: &zone.id,
                        rules: newly,
                    });
                }
            }
        }
        out
    }
}

/// The rules of `format` among `rules` (the game's own without one).
fn in_format<'r>(rules: &'r rules::Rules, format: Option<&str>) -> Option<&'r RuleSet> {
    format.map_or(Some(&rules.deck), |f| rules.formats.get(f))
}

/// Whether two rule sets of one game found the same breaches: the same
/// rules, at the same entries.
fn same_breaches(a: &[Violation], b: &[Violation]) -> bool {
    a.len() == b.len()
        && a.iter().zip(b).all(|(x, y)| {
            (x.rule, x.primary, &x.entries, x.zone) == (y.rule, y.primary, &y.entries, y.zone)
        })
}

/// What a broken rule's message adds to its tally: a message of the
/// rule's own whole; of the engine's, the subject it names and what that
/// has (none when it names none: the tally says it all).
fn breach(said: &Phrase) -> Option<Phrase> {
    let arg = |name: &str| {
        said.args
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, a)| a.clone())
    };
    match &said.key {
        PhraseKey::Own(_) => Some(said.clone()),
        PhraseKey::Id("rule-broken-at") => Some(
            Phrase::new("rule-breach")
                .with("subject", arg("subject")?)
                .with("actual", arg("actual")?),
        ),
        PhraseKey::Id(_) => None,
    }
}

/// What the builder shows of a deck after every change.
#[derive(Debug, Clone, Serialize)]
pub(super) struct Verdict<'g> {
    /// No rule of severity error is broken.
    pub(super) legal: bool,
    /// Cards in the deck, copies counted.
    cards: u64,
    /// Each broken rule.
    pub(super) problems: Vec<Problem>,
    /// The figures the rules bound, for the chart.
    figures: Vec<FigureOut>,
    /// Cards one more copy of which would break a rule (borrowed from the
    /// game: there may be one for each card of a large pool).
    unavailable: Vec<Unavailable<'g>>,
    /// The deck's code.
    code: String,
}

impl Verdict<'_> {
    /// The verdict as JSON, written into a buffer sized for it up front:
    /// for a large pool it names most cards, and a buffer grown as it
    /// fills would be copied over and over.
    pub(super) fn to_json(&self, collection: &Value) -> Vec<u8> {
        let unavailable: usize = self
            .unavailable
            .iter()
            .map(|u| {
                32 + u.card.len()
                    + u.zone.len()
                    + u.rules.iter().map(|r| r.len() + 3).sum::<usize>()
            })
            .sum();
        let mut out = Vec::with_capacity(4096 + unavailable);
        serde_json::to_writer(&mut out, self).expect("a verdict is JSON");
        // Beside the verdict, never in it (owning cards is not a rule): the
        // verdict's closing brace gives way to one more key.
        out.pop();
        out.extend_from_slice(b",\"collection\":");
        serde_json::to_writer(&mut out, collection).expect("a collection is JSON");
        out.push(b'}');
        out
    }
}

/// A broken rule, as the builder lists it.
#[derive(Debug, Clone, Serialize)]
pub(super) struct Problem {
    rule: String,
    pub(super) name: String,
    code: &'static str,
    severity: &'static str,
    message: String,
    /// What this breach adds to the rule's tally (`expected`, `actual`):
    /// the rule's own message whole, or the card or group the engine's
    /// message names and what it has; empty when the tally says it all.
    breach: String,
    /// Where the rule comes from (the rulebook's title and section).
    source: Option<String>,
    expected: String,
    actual: String,
    zone: Option<String>,
    /// The card most to blame.
    card: Option<String>,
    /// The other cards involved.
    cards: Vec<String>,
}

#[derive(Debug, Clone, Serialize)]
struct FigureOut {
    rule: String,
    name: String,
    group: String,
    value: f64,
    min: Option<f64>,
    max: Option<f64>,
    unit: &'static str,
    ok: bool,
}

#[derive(Debug, Clone, Serialize)]
struct Unavailable<'g> {
    card: &'g str,
    zone: &'g str,
    rules: Vec<&'g str>,
}
