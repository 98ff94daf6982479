//! A deck file as written: `game`, `name`, optionally `format` and
//! `player`, and one table per zone mapping card ids to copies, with the
//! span of each part. A deck with nothing to report is read by the cheaper
//! event reader (`load::tree`); any other is read again by `toml`'s parser
//! for every diagnostic.

use toml::de::DeValue;

use crate::deckcode::MAX_NAME;
use crate::diag::{Cap, Diagnostic, FileId, Span};
use crate::limits::max_diagnostics_per_file;
use crate::load::tree::{self, Item};
use crate::load::{parse_toml, toml_key};
use crate::suggest;

/// The most copies one deck line may hold (a sanity bound, not a game rule).
pub const MAX_COUNT: i64 = 10_000;

/// A deck file as written.
#[derive(Debug, Clone, PartialEq)]
pub struct DeckFile {
    /// The file.
    pub file: FileId,
    /// The game it is for, and where that is written.
    pub game: String,
    /// The span of the `game` value.
    pub game_span: Span,
    /// The deck's name.
    pub name: String,
    /// Who plays the deck (`player = "…"`), for organisers' tables and
    /// printed decklists; no rule reads it.
    pub player: Option<String>,
    /// The format the deck opts into (`format = "<id>"`), and where that is
    /// written; without one the deck is judged by the game's own rules.
    pub format: Option<(String, Span)>,
    /// The zones, in file order.
    pub zones: Vec<DeckZone>,
    /// Whether every line was read (a line with a bad count is left out and
    /// makes the deck incomplete: its rules are not evaluated).
    pub complete: bool,
}

/// One zone table of a deck file.
#[derive(Debug, Clone, PartialEq)]
pub struct DeckZone {
    /// The zone id.
    pub id: String,
    /// The span of the zone's header key.
    pub span: Span,
    /// Its lines, in file order.
    pub entries: Vec<DeckEntry>,
}

/// One line of a deck: `card-id = copies`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeckEntry {
    /// The card id.
    pub id: String,
    /// The number of copies.
    pub count: u32,
    /// The span of the id (the key).
    pub span: Span,
}

/// Parses a deck file, reporting every malformed part. Returns `None` when
/// there is no usable deck (a syntax error, no `game`).
pub fn parse(file: FileId, text: &str, out: &mut Vec<Diagnostic>) -> Option<DeckFile> {
    parse_clean(file, text).or_else(|| parse_reporting(file, text, out))
}

/// A deck file with nothing to report, read by the event reader (a
/// fourth of a build's deck checks went to `toml`'s parse of 789 decks);
/// `None` for anything [`parse_reporting`] would report on.
fn parse_clean(file: FileId, text: &str) -> Option<DeckFile> {
    let doc = tree::read(text)?;
    let (mut game, mut name, mut format, mut player) = (None, None, None, None);
    let mut zones = Vec::new();
    for entry in doc.entries {
        let span = entry.node.span;
        match (&*entry.key, entry.node.item) {
            ("game", Item::String(s)) => game = Some((s.into_owned(), span)),
            ("name", Item::String(s)) if s.chars().count() <= MAX_NAME => {
                name = Some(s.into_owned());
            }
            ("format", Item::String(s)) => format = Some((s.into_owned(), span)),
            ("player", Item::String(s)) => player = Some(s.into_owned()),
            ("game" | "name" | "format" | "player", _) => return None,
            (zone, Item::Table(table)) => {
                // A fresh vector: collected from the table's, it would keep
                // the reader's larger entries' allocation for the deck's life.
                let mut entries = Vec::with_capacity(table.entries.len());
                for line in table.entries {
                    match line.node.item {
                        Item::Integer(n) if (1..=MAX_COUNT).contains(&n) => {
                            entries.push(DeckEntry {
                                id: line.key.into_owned(),
                                count: u32::try_from(n).ok()?,
                                span: line.key_span,
                            });
                        }
                        _ => return None,
                    }
                }
                zones.push(DeckZone {
                    id: zone.to_owned(),
                    span: entry.key_span,
                    entries,
                });
            }
            _ => return None,
        }
    }
    let (game, game_span) = game?;
    Some(DeckFile {
        file,
        game,
        game_span,
        name: name?,
        player,
        format,
        zones,
        complete: true,
    })
}

/// A deck file read by `toml`'s parser, every malformed part reported.
fn parse_reporting(file: FileId, text: &str, out: &mut Vec<Diagnostic>) -> Option<DeckFile> {
    let (doc, ok) = parse_toml(file, text, out);
    if !ok {
        return None;
    }
    let mut game = None;
    let mut name = None;
    let mut format = None;
    let mut player = None;
    let mut zones = Vec::new();
    let mut complete = true;
    let example = first_line(doc.get_ref());
    for (key, value) in doc.get_ref() {
        match (key.get_ref().as_ref(), value.get_ref()) {
            ("game", DeValue::String(s)) => game = Some((s.to_string(), value.span())),
            ("name", DeValue::String(s)) => name = Some(checked_name(file, s, value.span(), out)),
            ("format", DeValue::String(s)) => format = Some((s.to_string(), value.span())),
            ("player", DeValue::String(s)) => player = Some(s.to_string()),
            ("game" | "name" | "format" | "player", _) => out.push(
                Diagnostic::error(
                    "deck::field",
                    format!("`{}` must be a string", key.get_ref()),
                )
                .at(file, value.span(), "expected a string"),
            ),
            (zone, DeValue::Table(table)) => {
                let (z, whole) = zone_of(file, (zone, key.span()), table, example.as_deref(), out);
                complete &= whole;
                zones.push(z);
            }
            (other, _) => out.push(unknown_field(file, other, key.span())),
        }
    }
    let head = 0..text.find('\n').unwrap_or(text.len());
    if name.is_none() {
        out.push(
            Diagnostic::error("deck::field", "the deck has no `name`")
                .at(file, head.clone(), "`name` is missing")
                .with_help("add `name = \"…\"`"),
        );
    }
    let Some((game, game_span)) = game else {
        out.push(
            Diagnostic::error("deck::field", "the deck does not say which game it is for")
                .at(file, head, "`game` is missing")
                .with_help(
                    "add `game = \"<game id>\"`, the name of the game's folder under `cards/`",
                ),
        );
        return None;
    };
    Some(DeckFile {
        file,
        game,
        game_span,
        name: name.unwrap_or_default(),
        player,
        format,
        zones,
        complete,
    })
}

/// The deck's first well-formed line (`card-id = copies`), to show a bad
/// count how a line of this very game is written.
fn first_line(doc: &toml::de::DeTable<'_>) -> Option<String> {
    doc.values()
        .filter_map(|v| match v.get_ref() {
            DeValue::Table(t) => Some(t),
            _ => None,
        })
        .flat_map(|t| t.iter())
        .find_map(|(id, count)| {
            let n = count_of(count.get_ref()).ok()?;
            Some(format!("{} = {n}", toml_key(id.get_ref())))
        })
}

/// One zone's table of a deck file (its name and header span), and whether
/// every line of it counted. `example` is a well-formed line for the help.
fn zone_of(
    file: FileId,
    (zone, span): (&str, Span),
    table: &toml::de::DeTable<'_>,
    example: Option<&str>,
    out: &mut Vec<Diagnostic>,
) -> (DeckZone, bool) {
    let mut entries = Vec::new();
    let mut complete = true;
    let mut cap = Cap::new(max_diagnostics_per_file());
    for (id, count) in table {
        match count_of(count.get_ref()) {
            Ok(n) => entries.push(DeckEntry {
                id: id.get_ref().to_string(),
                count: n,
                span: id.span(),
            }),
            Err(found) => {
                complete = false;
                let example = example
                    .map_or_else(|| format!("{} = 1", toml_key(id.get_ref())), str::to_owned);
                cap.push(out,
                    Diagnostic::error("deck::bad-count", format!("the count of `{}` must be a whole number from 1 to {MAX_COUNT}, but it is {found}", id.get_ref()))
                        .at(file, count.span(), "not a number of copies")
                        .with_help(format!("write how many copies the deck holds, such as `{example}`; remove the line for none")),
                );
            }
        }
    }
    let zone = DeckZone {
        id: zone.to_owned(),
        span,
        entries,
    };
    (zone, complete)
}

/// The deck's name, reported when it passes the bound every reader of
/// decks keeps (a code, a list, the builder, the printed decklist).
fn checked_name(file: FileId, name: &str, span: Span, out: &mut Vec<Diagnostic>) -> String {
    if name.chars().count() > MAX_NAME {
        out.push(
            Diagnostic::error(
                "deck::name-too-long",
                format!("the deck's name is longer than {MAX_NAME} characters"),
            )
            .at(file, span, "too long")
            .with_help(format!(
                "shorten it to at most {MAX_NAME} characters: it is printed on the decklist and carried by the deck's code"
            )),
        );
    }
    name.to_owned()
}

fn unknown_field(file: FileId, field: &str, span: Span) -> Diagnostic {
    let hint = suggest::closest(field, ["game", "name", "format", "player"]);
    Diagnostic::error("deck::field", format!("`{field}` is not a deck field"))
        .at(file, span, "unknown field")
        .with_help(hint.map_or_else(
            || "a deck file holds `game`, `name`, optionally `format` and `player`, and a table per zone such as `[main]`".into(),
            |h| format!("did you mean `{h}`?"),
        ))
}

fn count_of(value: &DeValue<'_>) -> Result<u32, String> {
    match value {
        DeValue::Integer(i) => match i64::from_str_radix(i.as_str(), i.radix()) {
            Ok(n) if (1..=MAX_COUNT).contains(&n) => Ok(u32::try_from(n).expect("bounded")),
            Ok(n) => Err(n.to_string()),
            Err(_) => Err(i.to_string()),
        },
        DeValue::Float(f) => Err(format!("the float {f}")),
        DeValue::String(s) => Err(format!("the string {s:?}")),
        other => Err(format!("a {}", other.type_str())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::SourceMap;

    /// Every deck file of the shipped games and of the diagnostics corpus,
    /// and variants of one: the event reader reads each deck with nothing
    /// to report as `toml`'s parser does, and leaves every other to it.
    #[test]
    fn a_clean_deck_reads_as_toml_reads_it_and_any_other_is_left_to_toml() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut decks: Vec<String> = ["cards", "tests/corpus"]
            .iter()
            .flat_map(|dir| walkdir::WalkDir::new(root.join(dir)))
            .map(Result::unwrap)
            .filter(|e| e.path().components().any(|c| c.as_os_str() == "decks"))
            .filter(|e| e.path().extension().is_some_and(|x| x == "toml"))
            .map(|e| std::fs::read_to_string(e.path()).unwrap())
            .collect();
        let one = "# a deck\ngame = \"g\"\nname = \"Fúria\"\nformat = \"f\"\nplayer = \"Ana\"\n\n[main]\n\"carta-a\" = 2\ncarta-b = 0x3 # three\n\n[team]\nx = 1\n";
        let bad = [
            one.replace("= 2", "= 0"),
            one.replace("= 2", "= 10001"),
            one.replace("= 2", "= \"2\""),
            one.replace("= 2", "= 2.0"),
            one.replace("name = \"Fúria\"\n", ""),
            one.replace("game = \"g\"\n", ""),
            one.replace("player = \"Ana\"", "player = 1"),
            one.replace("format = \"f\"", "colour = \"red\""),
            one.replace("x = 1", "x = 1\nx = 2"),
            one.replace("[team]\nx = 1", "[main.sub]\nx = 1"),
            one.replace("= 2", "= "),
            one.replace("Fúria", &"ú".repeat(MAX_NAME + 1)),
        ];
        decks.push(one.to_owned());
        decks.push("game = \"g\"\nname = \"d\"\nmain = { a = 1, b = 2 }\nside.c = 1\n".to_owned());
        decks.extend(bad.iter().cloned());
        let (mut clean, mut reported) = (0, 0);
        for text in &decks {
            let file = SourceMap::new().add("d.toml", text.as_str());
            let mut out = Vec::new();
            let full = parse_reporting(file, text, &mut out);
            assert!(!bad.contains(text) || !out.is_empty(), "{text}");
            if out.is_empty() {
                clean += 1;
                assert!(full.is_some());
                assert_eq!(parse_clean(file, text), full, "{text}");
            } else {
                reported += 1;
                assert_eq!(parse_clean(file, text), None, "{text}");
                let mut again = Vec::new();
                assert_eq!(parse(file, text, &mut again), full);
                assert_eq!(again.len(), out.len());
            }
        }
        assert!(
            clean >= 10 && reported >= bad.len(),
            "{clean} clean, {reported} reported"
        );
    }

    fn bad_count_help(text: &str) -> String {
        let file = SourceMap::new().add("d.toml", text);
        let mut out = Vec::new();
        parse(file, text, &mut out);
        let bad = out.iter().find(|d| d.code == "deck::bad-count");
        bad.and_then(|d| d.help.clone()).expect("a bad count")
    }

    #[test]
    fn a_bad_count_shows_the_decks_first_well_formed_line() {
        let help = bad_count_help("game = \"g\"\nname = \"d\"\n[a]\nx = 0\n[b]\ny = 4\n");
        assert!(help.contains("such as `y = 4`"), "{help}");
    }

    #[test]
    fn without_a_well_formed_line_a_bad_count_shows_its_own_id() {
        let help = bad_count_help("game = \"g\"\nname = \"d\"\n[a]\n\"x y\" = 0\n");
        assert!(help.contains("such as `\"x y\" = 1`"), "{help}");
    }
}
