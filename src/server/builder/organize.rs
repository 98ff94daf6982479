//! The organisers' page: many submitted decks (codes or deck files), each
//! judged by its game's rules, as rows and as a CSV table.

use std::sync::Arc;

use serde::Serialize;

use super::{Catalog, GameCatalog, Invalid, ValidDeck};
use crate::deck::DeckFile;
use crate::diag::SourceMap;

/// One submitted deck and its verdict.
#[derive(Debug, Clone, Serialize)]
pub(super) struct Row {
    label: String,
    game: String,
    name: String,
    /// `legal`, `illegal` (it breaks a rule, or could not be judged as
    /// `carta deck check` could not), or `invalid` (not a deck of a served
    /// game).
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
    let judged = if text.contains('=') || text.contains('\n') {
        // A deck file is judged as parsed, as `carta deck check` judges it.
        let mut sources = SourceMap::new();
        let deck = parse_deck(&mut sources, text)?;
        row.game.clone_from(&deck.game);
        row.name.clone_from(&deck.name);
        let g = game_in(catalog, &deck.game)?;
        (g, g.judge(&deck))
    } else {
        let game = crate::deckcode::game_of(text).map_err(|e| Invalid(e.to_string()))?;
        row.game.clone_from(&game);
        let g = game_in(catalog, &game)?;
        let deck = g.decode(text)?;
        row.name.clone_from(&deck.name);
        (g, g.validate(&deck))
    };
    match judged {
        (g, Ok(valid)) => verdict_into(g, &valid, row),
        // A deck that was read but could not be judged (no zones, an
        // unknown card…) is illegal, as `carta deck check` counts it.
        (_, Err(Invalid(why))) => {
            row.verdict = "illegal";
            row.problems = vec![why];
        }
    }
    Ok(())
}

fn game_in<'c>(catalog: &'c Catalog, game: &str) -> Result<&'c GameCatalog, Invalid> {
    catalog
        .game(game)
        .ok_or_else(|| Invalid(format!("there is no game `{game}` here")))
}

fn verdict_into(g: &GameCatalog, valid: &ValidDeck, row: &mut Row) {
    let verdict = g.verdict(valid);
    row.cards = verdict.cards;
    row.verdict = if verdict.legal { "legal" } else { "illegal" };
    row.problems = verdict
        .problems
        .iter()
        .map(|p| format!("{}: {}", p.name, p.message))
        .collect();
}

/// A deck file's text, parsed as `carta deck check` parses it.
fn parse_deck(sources: &mut SourceMap, text: &str) -> Result<DeckFile, Invalid> {
    let file = sources.add("deck.toml", Arc::<str>::from(text));
    let mut found = Vec::new();
    let deck = crate::deck::parse(file, text, &mut found);
    let first_error = found
        .iter()
        .find(|d| d.severity == crate::diag::Severity::Error)
        .map(|d| format!("{} ({})", d.message, d.code));
    match (deck, first_error) {
        (_, Some(why)) => Err(Invalid(why)),
        (None, None) => Err(Invalid("this is not a deck file".into())),
        (Some(deck), None) => Ok(deck),
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
