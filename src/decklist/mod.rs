//! Text deck lists, the form players paste into forums and chats: a
//! heading per zone and `N Name` lines (MTG Arena and Moxfield style), read
//! by card name or id — case, accents and punctuation aside — and written
//! back by name or by id. See docs/cli.md (`carta deck import`/`export`).
//!
//! ```text
//! Name: Aurora de Valária
//! Game: kingdoms
//!
//! Deck:
//! 1 Valária
//! 3 Soldado de Valária
//! ```
//!
//! A list is read into a deck with every problem at its span, its message
//! and help also as phrases (which the deck builder words in the page's
//! language), and a did-you-mean the builder offers to accept; names are
//! matched through `suggest::slug`. Written by name, a card whose name
//! would find another card is written by its id. The command and the
//! builder both read and write lists here alone.
//!
//! `print.rs` renders the printable tournament decklist.

pub mod print;

use std::collections::HashMap;

use indexmap::IndexMap;

use crate::deck::MAX_COUNT;
use crate::deckcode::{CodeDeck, MAX_NAME};
use crate::diag::{Diagnostic, FileId, LineIndex, Phrase, Span, Words};
use crate::game::Game;
use crate::l10n::{self, english};
use crate::suggest;

/// How a list names its cards when written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum NameBy {
    /// The card's display name (an id where two cards share a name).
    #[default]
    Name,
    /// The card's id.
    Id,
}

/// A deck as a list carries it: what the header says and the lines by zone.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ListDeck {
    /// `Name:`, if written.
    pub name: Option<String>,
    /// `Game:`, if written.
    pub game: Option<String>,
    /// `Format:` (a declared format's id), if written.
    pub format: Option<String>,
    /// `Player:`, if written.
    pub player: Option<String>,
    /// Card ids and copies by zone id, in the order first written.
    pub zones: IndexMap<String, Vec<(String, u32)>>,
}

impl ListDeck {
    /// The deck as a deck code carries it, named `fallback` without a
    /// `Name:` line.
    pub fn to_code_deck(&self, game: &str, fallback: &str) -> CodeDeck {
        CodeDeck {
            game: game.to_owned(),
            name: self.name.clone().unwrap_or_else(|| fallback.to_owned()),
            format: self.format.clone(),
            zones: self.zones.clone(),
        }
    }
}

/// What is wrong with a line of a list: a diagnostic's parts, and the
/// replacement a player may accept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListProblem {
    /// `list::unknown-card`, `list::unknown-zone`, `list::bad-count`…
    pub code: &'static str,
    /// What is wrong.
    pub message: String,
    /// The bytes of the list it is about.
    pub span: Span,
    /// How to mend it.
    pub help: Option<String>,
    /// The text to write instead of the span's, when one is likely
    /// (did-you-mean).
    pub suggestion: Option<String>,
    /// The message and help as phrases, for the deck builder to word in
    /// the player's language (`message` and `help` are their English).
    pub said: Words,
}

impl ListProblem {
    fn new(code: &'static str, said: Phrase, span: Span) -> Self {
        ListProblem {
            code,
            message: english(&said),
            span,
            help: None,
            suggestion: None,
            said: Words {
                message: said,
                help: None,
            },
        }
    }

    /// The problem with its help.
    fn helped(mut self, help: Phrase) -> Self {
        self.help = Some(english(&help));
        self.said.help = Some(help);
        self
    }

    /// The problem as an error of the list file `file`.
    pub fn to_diagnostic(&self, file: FileId) -> Diagnostic {
        let label = match self.code {
            "list::unknown-card" => "no such card",
            "list::unknown-zone" => "no such zone",
            "list::unknown-format" => "no such format",
            "list::bad-count" => "not a number of copies",
            "list::ambiguous" => "more than one card",
            _ => "here",
        };
        Diagnostic::error(self.code, self.message.clone())
            .at(file, self.span.clone(), label)
            .with_help_opt(self.help.clone())
    }

    /// The 1-based line and column (in characters) of the span in `text`,
    /// placed through `lines`, the index of `text`'s lines (built once
    /// for all of a list's problems).
    pub fn line_col(&self, text: &str, lines: &LineIndex) -> (usize, usize) {
        line_col(text, lines, self.span.start)
    }
}

/// The 1-based line and column (in characters) of byte `at` of `text`,
/// whose lines `lines` indexes.
pub fn line_col(text: &str, lines: &LineIndex, at: usize) -> (usize, usize) {
    let at = lines.line_col(text, at);
    (at.line, at.column)
}

/// The key two spellings of a name share: lower case, accents dropped,
/// every other run of characters one dash (`Fúria de Áries` and
/// `furia de aries` and `furia-de-aries` alike).
fn key(text: &str) -> String {
    suggest::slug(text, 400)
}

/// The lookup a list's names go through: a game's cards by id, and by the
/// key of their names and ids (and of their names in the reader's
/// language, when that is a translation).
struct Index<'g> {
    game: &'g Game,
    by_key: IndexMap<String, Vec<usize>>,
    /// The names a did-you-mean offers, by pool index: the reader's first.
    offered: Vec<(usize, String)>,
    /// The key of each of `offered`'s names, made once for every
    /// did-you-mean of the list.
    offered_keys: Vec<String>,
    /// Each deck zone's name in the reader's language, where it differs.
    zone_names: Vec<Option<String>>,
}

impl<'g> Index<'g> {
    fn new(game: &'g Game, shown: Option<&Game>) -> Self {
        let mut by_key: IndexMap<String, Vec<usize>> = IndexMap::new();
        let mut offered = Vec::new();
        // A translation has the game's ids; its names are read beside them.
        let translated = shown
            .into_iter()
            .flat_map(|s| s.pool.iter())
            .filter_map(|c| {
                let i = game.pool.position(&c.id)?;
                (c.name != game.pool.card(i).name).then_some((i, c.name.as_str()))
            });
        let translated: Vec<(usize, &str)> = translated.collect();
        let own = game
            .pool
            .iter()
            .enumerate()
            .map(|(i, c)| (i, c.name.as_str()));
        for (i, name) in translated.iter().copied().chain(own) {
            offered.push((i, name.to_owned()));
        }
        for &(i, ref name) in &offered {
            for k in [key(name), key(&game.pool.card(i).id)] {
                let cards = by_key.entry(k).or_default();
                if !cards.contains(&i) {
                    cards.push(i);
                }
            }
        }
        let zone_names = game
            .rules
            .deck
            .zones
            .iter()
            .map(|z| {
                let own = shown?.manifest.manifest.zones.get(&z.id)?;
                (own.name != z.name).then(|| own.name.clone())
            })
            .collect();
        let offered_keys = offered.iter().map(|(_, n)| key(n)).collect();
        Index {
            game,
            by_key,
            offered,
            offered_keys,
            zone_names,
        }
    }

    /// Whether `heading` names deck zone `z` (by id, or by name in the
    /// game's language or the reader's).
    fn heads(&self, z: usize, heading: &str) -> bool {
        let zone = &self.game.rules.deck.zones[z];
        key_eq(&zone.id, heading)
            || key_eq(&zone.name, heading)
            || self.zone_names[z]
                .as_deref()
                .is_some_and(|n| key_eq(n, heading))
    }

    /// The cards a name may stand for: the card of that id, or every card
    /// whose name or id has its key.
    fn candidates(&self, name: &str) -> Vec<usize> {
        if let Some(i) = self.game.pool.position(name) {
            return vec![i];
        }
        self.by_key.get(&key(name)).cloned().unwrap_or_default()
    }

    /// The card name closest to a misspelt one whose key is `wanted`, for
    /// did-you-mean: in the reader's language first; else the one name a
    /// shortened one (`Monge do Mosteiro`) stands for.
    fn closest(&self, wanted: &str) -> Option<String> {
        let keys = &self.offered_keys;
        let hit = suggest::closest(wanted, keys.iter().map(String::as_str))
            .or_else(|| suggest::shortened(wanted, keys.iter().map(String::as_str)))?;
        let at = keys.iter().position(|k| k == hit)?;
        Some(self.offered[at].1.clone())
    }
}

/// The header keys a list may carry (`Key: value`).
const HEADER_KEYS: [&str; 4] = ["name", "game", "format", "player"];

/// The game a list names in its `Game:` line, if any.
pub fn game_named(text: &str) -> Option<String> {
    text.lines().find_map(|line| match header(line.trim()) {
        Some(("game", value)) => Some(value.to_owned()),
        _ => None,
    })
}

/// A header line's lower-case key and its value.
fn header(line: &str) -> Option<(&'static str, &str)> {
    let (k, v) = line.split_once(':')?;
    let v = v.trim();
    let k = k.trim().to_lowercase();
    let known = HEADER_KEYS.into_iter().find(|h| *h == k)?;
    (!v.is_empty()).then_some((known, v))
}

/// One line of a list, as read.
enum Line<'t> {
    Blank,
    Header(&'static str, &'t str),
    Heading(&'t str),
    Card(&'t str, &'t str),
}

fn classify(line: &str) -> Line<'_> {
    let t = line.trim();
    if t.is_empty() || t.starts_with("//") {
        return Line::Blank;
    }
    if let Some((k, v)) = header(t) {
        return Line::Header(k, v);
    }
    if t.starts_with(|c: char| c.is_ascii_digit()) {
        let digits = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
        let rest = t[digits..].trim_start();
        let rest = rest.strip_prefix(['x', 'X', '×']).map_or(rest, |r| {
            if r.is_empty() || r.starts_with(char::is_whitespace) {
                r.trim_start()
            } else {
                rest
            }
        });
        return Line::Card(&t[..digits], rest);
    }
    let heading = t
        .trim_start_matches('#')
        .trim()
        .trim_end_matches(':')
        .trim();
    Line::Heading(heading)
}

/// The span of `part`, a slice of `line`, which starts at byte `at`.
fn span_in(at: usize, line: &str, part: &str) -> Span {
    let start = at + (part.as_ptr() as usize - line.as_ptr() as usize);
    start..start + part.len()
}

/// Reads a list of `game`'s cards. Every problem is reported with its
/// span; the deck is usable only when there are none.
pub fn parse(text: &str, game: &Game) -> (ListDeck, Vec<ListProblem>) {
    parse_shown(text, game, None)
}

/// [`parse`] for a reader who sees the cards as `shown` names them (the
/// game in a translation): those names are read too, and a did-you-mean
/// offers them first.
pub fn parse_shown(text: &str, game: &Game, shown: Option<&Game>) -> (ListDeck, Vec<ListProblem>) {
    let index = Index::new(game, shown);
    let mut reader = Reader {
        index: &index,
        deck: ListDeck::default(),
        problems: Vec::new(),
        zone: None,
        skipping: false,
        suggested: HashMap::new(),
    };
    if game.rules.deck.zones.is_empty() {
        let problem = ListProblem::new(
            "list::no-zones",
            Phrase::new("deck-no-zones").with("game", game.id()),
            0..0,
        );
        return (ListDeck::default(), vec![problem]);
    }
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        reader.line(at, line);
        at += line.len();
    }
    (reader.deck, reader.problems)
}

/// The state of a list being read.
struct Reader<'i, 'g> {
    index: &'i Index<'g>,
    deck: ListDeck,
    problems: Vec<ListProblem>,
    /// The zone of the last heading, if any.
    zone: Option<usize>,
    /// Whether the lines are under an unknown heading (already reported).
    skipping: bool,
    /// The did-you-mean of each unknown name's key met so far.
    suggested: HashMap<String, Option<String>>,
}

impl Reader<'_, '_> {
    fn line(&mut self, at: usize, line: &str) {
        match classify(line) {
            Line::Blank => {}
            Line::Header(k, v) => self.header(k, v, span_in(at, line, v)),
            // A deck named with nothing is written `Name:`; the other
            // keys, empty, say nothing.
            Line::Heading(h) if self.is_empty_header(h, line) => {
                if h.eq_ignore_ascii_case("name") {
                    self.deck.name = Some(String::new());
                }
            }
            Line::Heading(h) => self.heading(h, span_in(at, line, h)),
            Line::Card(n, name) => {
                let count = self.count(n, name, span_in(at, line, n));
                if name.is_empty() {
                    let span = span_in(at, line, n);
                    let problem =
                        ListProblem::new("list::syntax", Phrase::new("list-syntax"), span);
                    self.problems
                        .push(problem.helped(Phrase::new("list-syntax-help")));
                } else if let Some(count) = count {
                    self.card(count, name, span_in(at, line, name));
                }
            }
        }
    }

    /// Whether a heading is a header key with an empty value (`Name:`):
    /// one no zone of the game is headed by.
    fn is_empty_header(&self, heading: &str, line: &str) -> bool {
        line.trim_end().ends_with(':')
            && HEADER_KEYS.iter().any(|k| heading.eq_ignore_ascii_case(k))
            && !(0..self.index.game.rules.deck.zones.len()).any(|z| self.index.heads(z, heading))
    }

    fn header(&mut self, key: &'static str, value: &str, span: Span) {
        let game = &self.index.game;
        match key {
            "name" if value.chars().count() > MAX_NAME => {
                let said = Phrase::new("deck-name-too-long").with("max", MAX_NAME);
                let help = Phrase::new("list-name-too-long-help").with("max", MAX_NAME);
                self.problems
                    .push(ListProblem::new("list::name-too-long", said, span).helped(help));
            }
            "name" => self.deck.name = Some(value.to_owned()),
            "player" => self.deck.player = Some(value.to_owned()),
            "game" => self.deck.game = Some(value.to_owned()),
            _ => {
                let formats = &game.manifest.manifest.formats;
                let found = formats
                    .iter()
                    .find(|(id, f)| *id == value || key_eq(&f.name, value) || key_eq(id, value));
                if let Some((id, _)) = found {
                    self.deck.format = Some(id.clone());
                    return;
                }
                let hint = suggest::closest(value, formats.keys().map(String::as_str));
                let help = if formats.is_empty() {
                    Phrase::new("list-no-formats").with("game", game.id())
                } else {
                    l10n::choices(
                        value,
                        formats.keys().map(String::as_str),
                        "deck-formats-are",
                    )
                };
                let said = Phrase::new("deck-unknown-format")
                    .with("format", value)
                    .with("game", game.id());
                self.problems.push(ListProblem {
                    suggestion: hint.map(str::to_owned),
                    ..ListProblem::new("list::unknown-format", said, span).helped(help)
                });
            }
        }
    }

    fn heading(&mut self, heading: &str, span: Span) {
        let zones = &self.index.game.rules.deck.zones;
        let found = (0..zones.len()).find(|&z| self.index.heads(z, heading));
        self.zone = found;
        self.skipping = found.is_none();
        if found.is_some() {
            return;
        }
        let names = zones.iter().map(|z| z.name.as_str());
        let hint = suggest::closest(heading, names.clone());
        let said = Phrase::new("list-unknown-zone")
            .with("heading", heading)
            .with("game", self.index.game.id());
        self.problems.push(ListProblem {
            suggestion: hint.map(str::to_owned),
            ..ListProblem::new("list::unknown-zone", said, span).helped(l10n::choices(
                heading,
                names,
                "list-zones-are",
            ))
        });
    }

    fn count(&mut self, digits: &str, name: &str, span: Span) -> Option<u32> {
        match digits.parse::<i64>() {
            Ok(n) if (1..=MAX_COUNT).contains(&n) => Some(u32::try_from(n).expect("bounded")),
            _ => {
                let said = Phrase::new("list-bad-count")
                    .with("name", name)
                    .with("max", MAX_COUNT as u64)
                    .with("digits", digits);
                let help = Phrase::new("list-bad-count-help").with("max", MAX_COUNT as u64);
                self.problems
                    .push(ListProblem::new("list::bad-count", said, span).helped(help));
                None
            }
        }
    }
}

/// Whether two spellings of a name have the same key.
fn key_eq(a: &str, b: &str) -> bool {
    a == b || key(a) == key(b)
}

impl Reader<'_, '_> {
    /// A card line: the card found (in the heading's zone, or in the first
    /// zone that takes it), its copies added to that zone.
    fn card(&mut self, count: u32, name: &str, span: Span) {
        if self.skipping {
            return;
        }
        let zones = &self.index.game.rules.deck.zones;
        let mut cards = self.index.candidates(name);
        if cards.len() > 1
            && let Some(z) = self.zone
        {
            cards.retain(|&c| zones[z].accepts[c]);
        }
        let card = match cards.as_slice() {
            [card] => *card,
            [] => return self.unknown(name, span),
            more => return self.ambiguous(name, more, span),
        };
        let z = self
            .zone
            .or_else(|| zones.iter().position(|z| z.accepts[card]))
            .unwrap_or(0);
        let id = &self.index.game.pool.card(card).id;
        let lines = self.deck.zones.entry(zones[z].id.clone()).or_default();
        match lines.iter_mut().find(|(c, _)| c == id) {
            Some((_, n)) if i64::from(*n) + i64::from(count) > MAX_COUNT => {
                let said = Phrase::new("list-too-many")
                    .with("name", name)
                    .with("max", MAX_COUNT as u64);
                self.problems
                    .push(ListProblem::new("list::bad-count", said, span));
            }
            Some((_, n)) => *n += count,
            None => lines.push((id.clone(), count)),
        }
    }

    fn unknown(&mut self, name: &str, span: Span) {
        let index = self.index;
        // A list that repeats one unknown name pays for its did-you-mean
        // (a distance to every card) once.
        let suggestion = self
            .suggested
            .entry(key(name))
            .or_insert_with_key(|wanted| index.closest(wanted))
            .clone();
        let help = suggestion.as_ref().map_or_else(
            || Phrase::new("list-card-help"),
            |s| Phrase::new("deck-did-you-mean").with("name", s),
        );
        let said = Phrase::new("deck-unknown-card")
            .with("card", name)
            .with("game", self.index.game.id());
        self.problems.push(ListProblem {
            suggestion,
            ..ListProblem::new("list::unknown-card", said, span).helped(help)
        });
    }

    fn ambiguous(&mut self, name: &str, cards: &[usize], span: Span) {
        let pool = &self.index.game.pool;
        let ids: Vec<String> = cards
            .iter()
            .map(|&c| format!("`{}`", pool.card(c).id))
            .collect();
        let said = Phrase::new("list-ambiguous")
            .with("name", name)
            .with("count", cards.len());
        let help = Phrase::new("list-ambiguous-help").with("ids", ids.join(", "));
        self.problems
            .push(ListProblem::new("list::ambiguous", said, span).helped(help));
    }
}

/// The names a list written by name may use: each card's name, or its id
/// where another card's name or id has the same key (so that reading the
/// list back finds the same card).
fn written_names(game: &Game) -> Vec<String> {
    let index = Index::new(game, None);
    game.pool
        .iter()
        .map(|c| {
            let by_name = index.by_key.get(&key(&c.name)).map_or(0, Vec::len);
            if by_name == 1 && game.pool.position(&c.name).is_none() {
                c.name.clone()
            } else {
                c.id.clone()
            }
        })
        .collect()
}

/// A deck as a text list: the header (name, game, format, player), then a
/// heading per zone with its `N Name` lines, in the deck's order. Zones
/// and cards the game does not have are written by id as they are.
pub fn render(game: &Game, deck: &CodeDeck, player: Option<&str>, by: NameBy) -> String {
    let names = (by == NameBy::Name).then(|| written_names(game));
    let mut out = format!("Name: {}\nGame: {}\n", one_line(&deck.name), deck.game);
    if let Some(f) = &deck.format {
        out.push_str(&format!("Format: {f}\n"));
    }
    if let Some(p) = player.map(one_line).filter(|p| !p.is_empty()) {
        out.push_str(&format!("Player: {p}\n"));
    }
    let zones = &game.rules.deck.zones;
    for (zone, lines) in &deck.zones {
        let info = zones.iter().find(|z| &z.id == zone);
        let heading = match (by, info) {
            (NameBy::Name, Some(z))
                if zones.iter().filter(|o| key_eq(&o.name, &z.name)).count() == 1 =>
            {
                &z.name
            }
            _ => zone,
        };
        out.push_str(&format!("\n{}:\n", one_line(heading)));
        for (id, n) in lines {
            let name = names
                .as_ref()
                .and_then(|names| Some(&names[game.pool.position(id)?]))
                .unwrap_or(id);
            out.push_str(&format!("{n} {}\n", one_line(name)));
        }
    }
    out
}

/// The deck file (TOML) of a deck, with its player when it has one.
pub fn deck_file(deck: &CodeDeck, player: Option<&str>) -> String {
    let text = crate::deckcode::to_toml(deck);
    let Some(player) = player else {
        return text;
    };
    // After `game` and `name`, the first two lines.
    let at = text
        .match_indices('\n')
        .nth(1)
        .map_or(text.len(), |(i, _)| i + 1);
    let line = format!("player = {}\n", toml::Value::String(player.to_owned()));
    format!("{}{line}{}", &text[..at], &text[at..])
}

/// A value on one line (a list is read line by line).
fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_told_apart() {
        assert!(matches!(
            classify("3 Escudo Orc"),
            Line::Card("3", "Escudo Orc")
        ));
        assert!(matches!(
            classify("3x Escudo Orc"),
            Line::Card("3", "Escudo Orc")
        ));
        assert!(matches!(
            classify("3 x Escudo Orc"),
            Line::Card("3", "Escudo Orc")
        ));
        assert!(matches!(classify("2 Xamã"), Line::Card("2", "Xamã")));
        assert!(matches!(classify("# Deck"), Line::Heading("Deck")));
        assert!(matches!(classify("Team:"), Line::Heading("Team")));
        assert!(matches!(
            classify("Name: A: B"),
            Line::Header("name", "A: B")
        ));
        assert!(matches!(classify("// note"), Line::Blank));
        assert!(matches!(classify("   "), Line::Blank));
    }

    #[test]
    fn names_match_without_case_or_accents() {
        assert!(key_eq("Fúria de Áries", "furia de aries"));
        assert!(key_eq("ESCUDO ORC", "escudo-orc"));
        assert!(!key_eq("Escudo Orc", "Escudo Orcs"));
    }

    #[test]
    fn a_problem_knows_its_line_and_column() {
        let text = "Deck:\n3 Escudö Orc\n";
        let p = ListProblem::new(
            "list::unknown-card",
            Phrase::new("deck-unknown-card"),
            8..19,
        );
        assert_eq!(p.line_col(text, &LineIndex::new(text)), (2, 3));
    }
}
