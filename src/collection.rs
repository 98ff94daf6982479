//! A player's collection: how many copies of each card of a game they own,
//! in one file per game beside their decks, `decks/<game>/collection.toml`:
//!
//! ```toml
//! game = "intrepidos"
//!
//! [cards]
//! escudo-orc = 2
//! golpe-certeiro = 4
//! ```
//!
//! Cards are named by id, as deck files name them, each with 0 to
//! [`MAX_OWNED`] copies. The file is parsed with spans and checked
//! against its game's pool (an unknown id with its did-you-mean, a card's
//! name pointed to its id). Owning cards is not a rule of any game: a deck
//! that needs more copies than the collection holds stays legal, and
//! [`Collection::missing`] says what is lacking (copies per card, every
//! zone counted). So `carta check` reports a broken collection file, and
//! `carta deck check` and the deck builder the missing copies.

use indexmap::IndexMap;
use toml::de::DeValue;

use crate::diag::{Cap, Diagnostic, FileId, Span};
use crate::limits::max_diagnostics_per_file;
use crate::link::CardPool;
use crate::load::{parse_toml, toml_key};
use crate::suggest;

/// The file name of a collection, in the players' folder of its game.
pub const FILE_NAME: &str = "collection.toml";

/// The most copies of one card a collection may hold (a sanity bound).
pub const MAX_OWNED: i64 = 10_000;

/// The workspace-relative path of the collection of `game`.
pub fn path_of(game: &str) -> String {
    format!("decks/{game}/{FILE_NAME}")
}

/// A collection file as written.
#[derive(Debug, Clone, PartialEq)]
pub struct Collection {
    /// The file.
    pub file: FileId,
    /// The game it is for.
    pub game: String,
    /// Where `game` is written.
    pub game_span: Span,
    /// Each card's id, how many copies are owned and where the id is
    /// written, in file order.
    pub cards: IndexMap<String, (u32, Span)>,
}

/// A card a deck needs more copies of than the collection holds.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Missing {
    /// The card's id.
    pub card: String,
    /// The copies the deck holds, every zone counted.
    pub needed: u32,
    /// The copies the collection holds.
    pub owned: u32,
    /// `needed - owned`.
    pub missing: u32,
}

impl Collection {
    /// The copies of `card` owned (0 when the collection does not name it).
    pub fn owned(&self, card: &str) -> u32 {
        self.cards.get(card).map_or(0, |(n, _)| *n)
    }

    /// The cards of `lines` (card id, copies; a card may come in several
    /// zones) that the collection holds fewer copies of than the lines
    /// need, in the order they first come.
    pub fn missing<'a>(&self, lines: impl IntoIterator<Item = (&'a str, u32)>) -> Vec<Missing> {
        let mut needed: IndexMap<&str, u32> = IndexMap::new();
        for (card, n) in lines {
            let sum = needed.entry(card).or_default();
            *sum = sum.saturating_add(n);
        }
        needed
            .into_iter()
            .filter_map(|(card, needed)| {
                let owned = self.owned(card);
                (needed > owned).then(|| Missing {
                    card: card.to_owned(),
                    needed,
                    owned,
                    missing: needed - owned,
                })
            })
            .collect()
    }
}

/// Parses a collection file, reporting every malformed part (syntax, an
/// unknown key, a count that is not a whole number from 0 to
/// [`MAX_OWNED`]). Returns `None` when there is no usable collection (a
/// syntax error, no `game`); a line with a bad count is left out.
pub fn parse(file: FileId, text: &str, out: &mut Vec<Diagnostic>) -> Option<Collection> {
    let (doc, ok) = parse_toml(file, text, out);
    if !ok {
        return None;
    }
    let mut game = None;
    let mut cards = IndexMap::new();
    for (key, value) in doc.get_ref() {
        match (key.get_ref().as_ref(), value.get_ref()) {
            ("game", DeValue::String(s)) => game = Some((s.to_string(), value.span())),
            ("cards", DeValue::Table(table)) => cards = counts(file, table, out),
            ("game" | "cards", _) => {
                let want = if key.get_ref() == "game" {
                    "a string"
                } else {
                    "a table of card ids and counts"
                };
                out.push(
                    Diagnostic::error(
                        "collection::field",
                        format!("`{}` must be {want}", key.get_ref()),
                    )
                    .at(file, value.span(), format!("expected {want}")),
                );
            }
            (other, _) => out.push(unknown_field(file, other, key.span())),
        }
    }
    let Some((game, game_span)) = game else {
        let head = 0..text.find('\n').unwrap_or(text.len());
        out.push(
            Diagnostic::error(
                "collection::field",
                "the collection does not say which game it is for",
            )
            .at(file, head, "`game` is missing")
            .with_help("add `game = \"<game id>\"`, the name of the game's folder under `cards/`"),
        );
        return None;
    };
    Some(Collection {
        file,
        game,
        game_span,
        cards,
    })
}

/// The lines of a `[cards]` table whose counts are whole numbers from 0 to
/// [`MAX_OWNED`]; every other line reported.
fn counts(
    file: FileId,
    table: &toml::de::DeTable<'_>,
    out: &mut Vec<Diagnostic>,
) -> IndexMap<String, (u32, Span)> {
    let mut cards = IndexMap::new();
    let mut cap = Cap::new(max_diagnostics_per_file());
    for (id, count) in table {
        match count_of(count.get_ref()) {
            Ok(n) => {
                cards.insert(id.get_ref().to_string(), (n, id.span()));
            }
            Err(found) => cap.push(
                out,
                Diagnostic::error(
                    "collection::bad-count",
                    format!(
                        "the count of `{}` must be a whole number from 0 to {MAX_OWNED}, but it is {found}",
                        id.get_ref()
                    ),
                )
                .at(file, count.span(), "not a number of copies")
                .with_help(format!(
                    "write how many copies you own, such as `{} = 2`",
                    toml_key(id.get_ref())
                )),
            ),
        }
    }
    cards
}

fn count_of(value: &DeValue<'_>) -> Result<u32, String> {
    match value {
        DeValue::Integer(i) => match i64::from_str_radix(i.as_str(), i.radix()) {
            Ok(n) if (0..=MAX_OWNED).contains(&n) => Ok(u32::try_from(n).expect("bounded")),
            Ok(n) => Err(n.to_string()),
            Err(_) => Err(i.to_string()),
        },
        DeValue::Float(f) => Err(format!("the float {f}")),
        DeValue::String(s) => Err(format!("the string {s:?}")),
        other => Err(format!("a {}", other.type_str())),
    }
}

fn unknown_field(file: FileId, field: &str, span: Span) -> Diagnostic {
    let hint = suggest::closest(field, ["game", "cards"]);
    Diagnostic::error(
        "collection::field",
        format!("`{field}` is not a collection field"),
    )
    .at(file, span, "unknown field")
    .with_help(hint.map_or_else(
        || "a collection file holds `game` and a `[cards]` table of card ids and counts".into(),
        |h| format!("did you mean `{h}`?"),
    ))
}

/// Checks a parsed collection against the game `game` whose folder it is
/// in: the same game, and every card id one of its cards (with a
/// did-you-mean; a card's name points to its id).
pub fn check(collection: &Collection, game: &str, pool: &CardPool, out: &mut Vec<Diagnostic>) {
    if collection.game != game {
        out.push(
            Diagnostic::error(
                "collection::game",
                format!(
                    "this collection is for `{}`, but it is the collection of `{game}`",
                    collection.game
                ),
            )
            .at(
                collection.file,
                collection.game_span.clone(),
                "another game",
            )
            .with_help(format!(
                "write `game = \"{game}\"`, or move the file to `{}`",
                path_of(&collection.game)
            )),
        );
        return;
    }
    let max = max_diagnostics_per_file();
    let mut cap = Cap::new(max);
    let mut unknown = 0;
    for (id, (_, span)) in &collection.cards {
        // A card left out of the pool for its own error is no unknown card.
        if pool.position(id).is_some() || pool.left_out(id) {
            continue;
        }
        // Past the cap a diagnostic is only counted: no search of the pool.
        unknown += 1;
        let by_name = (unknown <= max)
            .then(|| pool.iter().find(|c| c.name == *id))
            .flatten()
            .map(|c| c.id.as_str());
        let help = match by_name {
            Some(real) => Some(format!(
                "`{id}` is the name of `{real}`: a collection names cards by id"
            )),
            None if unknown <= max => {
                suggest::closest(id, pool.ids()).map(|h| format!("did you mean `{h}`?"))
            }
            None => None,
        };
        cap.push(
            out,
            Diagnostic::error(
                "collection::unknown-card",
                format!("`{id}` is not a card of `{game}`"),
            )
            .at(collection.file, span.clone(), "no such card")
            .with_help_opt(help),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::SourceMap;

    fn parsed(text: &str) -> (Option<Collection>, Vec<Diagnostic>) {
        let file = SourceMap::new().add("collection.toml", text);
        let mut out = Vec::new();
        (parse(file, text, &mut out), out)
    }

    #[test]
    fn counts_from_zero_to_the_bound_are_read_and_others_reported() {
        let (c, out) =
            parsed("game = \"g\"\n[cards]\na = 0\nb = 3\nc = -1\nd = 10001\ne = 1.5\nf = \"2\"\n");
        let c = c.unwrap();
        assert_eq!(c.owned("a"), 0);
        assert_eq!(c.owned("b"), 3);
        assert_eq!(c.owned("zzz"), 0);
        assert_eq!(c.cards.len(), 2);
        let codes: Vec<_> = out.iter().map(|d| d.code).collect();
        assert_eq!(codes, ["collection::bad-count"; 4]);
        assert!(
            out[0].message.contains("but it is -1"),
            "{}",
            out[0].message
        );
    }

    #[test]
    fn a_collection_without_a_game_or_with_a_stray_key_is_reported() {
        let (c, out) = parsed("[cards]\na = 1\n");
        assert!(c.is_none());
        assert_eq!(out[0].code, "collection::field");
        let (c, out) = parsed("game = \"g\"\ncard = 3\n");
        assert!(c.is_some());
        assert_eq!(out[0].help.as_deref(), Some("did you mean `cards`?"));
        let (c, out) = parsed("game = \"g\"\n[cards\n");
        assert!(c.is_none());
        assert!(out[0].code.starts_with("toml::"), "{:?}", out[0].code);
    }

    #[test]
    fn missing_copies_sum_every_zone_of_a_card() {
        let (c, _) = parsed("game = \"g\"\n[cards]\na = 2\nb = 5\n");
        let c = c.unwrap();
        let missing = c.missing([("a", 2), ("b", 1), ("a", 1), ("x", 3)]);
        assert_eq!(
            missing,
            [
                Missing {
                    card: "a".into(),
                    needed: 3,
                    owned: 2,
                    missing: 1
                },
                Missing {
                    card: "x".into(),
                    needed: 3,
                    owned: 0,
                    missing: 3
                },
            ]
        );
    }
}
