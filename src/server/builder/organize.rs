//! The organisers' page: many submitted decks (codes or deck files), each
//! judged by its game's rules, as rows and as a CSV table.

use std::sync::Arc;

use serde::Serialize;

use super::{Catalog, DeckInput, Invalid};
use crate::diag::SourceMap;

/// One submitted deck and its verdict.
#[derive(Debug, Clone, Serialize)]
pub(super) struct Row {
    label: String,
    game: String,
    name: String,
    /// `legal`, `illegal`, or `invalid` (not a deck of a served game).
    verdict: &'static str,
    cards: u64,
    /// The broken rules (`name: message`), or why it could not be read.
    problems: Vec<String>,
}

/// Judges one submission: a deck code, or the TOML of a deck file.
pub(super) fn judge(catalog: &Catalog, label: String, text: &str) -> Row {
    let mut row = Row {
        label,
        game: String::new(),
        name: String::new(),
        verdict: "invalid",
        cards: 0,
        problems: Vec::new(),
    };
    if let Err(Invalid(why)) = judge_into(catalog, text.trim(), &mut row) {
        row.verdict = "invalid";
        row.problems = vec![why];
    }
    row
}

fn judge_into(catalog: &Catalog, text: &str, row: &mut Row) -> Result<(), Invalid> {
    let (game, deck) = if text.contains('=') || text.contains('\n') {
        from_toml(text)?
    } else {
        let game = crate::deckcode::game_of(text).map_err(|e| Invalid(e.to_string()))?;
        row.game.clone_from(&game);
        let g = catalog
            .game(&game)
            .ok_or_else(|| Invalid(format!("there is no game `{game}` here")))?;
        (game, g.decode(text)?)
    };
    row.game.clone_from(&game);
    row.name.clone_from(&deck.name);
    let g = catalog
        .game(&game)
        .ok_or_else(|| Invalid(format!("there is no game `{game}` here")))?;
    let valid = g.validate(&deck)?;
    let verdict = g.verdict(&valid);
    row.cards = verdict.cards;
    row.verdict = if verdict.legal { "legal" } else { "illegal" };
    row.problems = verdict
        .problems
        .iter()
        .map(|p| format!("{}: {}", p.name, p.message))
        .collect();
    Ok(())
}

/// A deck file's text as the builder's form, with its game.
fn from_toml(text: &str) -> Result<(String, DeckInput), Invalid> {
    let mut sources = SourceMap::new();
    let file = sources.add("deck.toml", Arc::<str>::from(text));
    let mut found = Vec::new();
    let deck = crate::deck::parse(file, text, &mut found);
    let first_error = found
        .iter()
        .find(|d| d.severity == crate::diag::Severity::Error)
        .map(|d| d.message.clone());
    match (deck, first_error) {
        (_, Some(why)) => Err(Invalid(why)),
        (None, None) => Err(Invalid("this is not a deck file".into())),
        (Some(deck), None) => {
            let zones = crate::deck::zones_of(&deck);
            let format = deck.format.map(|(f, _)| f);
            Ok((deck.game, DeckInput::of_lines(deck.name, format, zones)))
        }
    }
}

/// The rows as CSV (RFC 4180), one line per deck.
pub(super) fn table(rows: &[Row]) -> String {
    let mut out = String::from("deck,game,name,verdict,cards,problems\r\n");
    for r in rows {
        let cells = [
            field(&r.label),
            field(&r.game),
            field(&r.name),
            field(r.verdict),
            r.cards.to_string(),
            field(&r.problems.join("; ")),
        ];
        out.push_str(&cells.join(","));
        out.push_str("\r\n");
    }
    out
}

/// One CSV cell: quoted when needed, and never read as a formula by a
/// spreadsheet (a leading `=`, `+`, `-` or `@` gets a `'`).
fn field(s: &str) -> String {
    let s = if s.starts_with(['=', '+', '-', '@']) {
        format!("'{s}")
    } else {
        s.to_owned()
    };
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_are_quoted_and_never_formulas() {
        assert_eq!(field("plain"), "plain");
        assert_eq!(field("a, b"), "\"a, b\"");
        assert_eq!(field("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(field("=SUM(A1)"), "'=SUM(A1)");
        assert_eq!(field("-1"), "'-1");
    }
}
