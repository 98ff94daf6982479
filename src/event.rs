//! An event's desk: many submitted decks (deck files, deck codes, share
//! links; `player: CODE` lines), each judged by [`crate::deck::judge`] —
//! the code `carta deck check` runs — under the event's game and format,
//! as rows in submission order and as CSV, each row's errors and warnings
//! apart and the other submissions of the very same deck named (`same_as`).
//! `carta deck check --event` and the builder's organisers' page both
//! print these rows, so their columns are one ([`CSV_HEADER`], documented
//! in docs/serve.md).

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::Serialize;

use crate::config::rules::RuleSeverity;
use crate::deck::{self, DeckEntry, DeckFile, DeckZone};
use crate::deckcode::{self, CodeDeck};
use crate::diag::{Diagnostic, Severity, SourceMap};
use crate::game::Game;
use crate::load::sheet::formula_safe;

/// One submitted deck: where it comes from, who plays it (when the
/// submission says), and its text (a deck file's TOML, a deck code or a
/// share link).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Submission {
    /// A file name, or `line N` of pasted text.
    pub source: String,
    /// The player, from a `player: CODE` line (a deck file's `player` key
    /// is read when this is `None`).
    pub player: Option<String>,
    /// The deck.
    pub text: String,
}

/// What the event requires of every deck.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Requirements {
    /// The game every deck must be of.
    pub game: Option<String>,
    /// The format every deck is judged by (a deck naming another is
    /// illegal).
    pub format: Option<String>,
}

/// Something wrong with a deck: a broken rule (with its id) or why it
/// could not be judged.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Finding {
    /// The diagnostic code (`deck::size`, `deck::unknown-card`…).
    pub code: &'static str,
    /// The broken rule's id, for a broken rule.
    pub rule: Option<String>,
    /// What is wrong.
    pub message: String,
}

/// One submission's verdict: a row of the organisers' table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Row {
    /// Its place in submission order, from 1.
    pub n: usize,
    /// Where it comes from.
    pub source: String,
    /// Who plays it.
    pub player: String,
    /// Its game's id.
    pub game: String,
    /// The deck's name.
    pub deck: String,
    /// The format it was judged by (empty: the game's own rules).
    pub format: String,
    /// `legal`; `illegal` (it breaks a rule of severity error, or could not
    /// be judged, as `carta deck check` counts it); or `invalid` (not a
    /// deck of a game here).
    pub verdict: &'static str,
    /// Its cards, copies counted.
    pub cards: u64,
    /// Broken rules of severity error, and why it could not be judged.
    pub errors: Vec<Finding>,
    /// Broken rules of severity warning (they leave it legal).
    pub warnings: Vec<Finding>,
    /// The other submissions (by `n`) of the very same deck (same game,
    /// format and cards in each zone): on the first of them, every later
    /// one; on a later one, the first.
    pub same_as: Vec<usize>,
    /// The deck's code, when it has one.
    pub code: String,
}

/// The CSV table's header: one column per field of [`Row`].
pub const CSV_HEADER: &str =
    "n,source,player,game,deck,format,verdict,cards,errors,warnings,same_as,code";

/// The submissions of pasted text or a file of codes: one per non-blank
/// line, `player: CODE` naming the player (the code may be a share link);
/// `//` lines are comments. `source` names the text (`line N` of it).
pub fn submissions_of_lines(text: &str, source: &str) -> Vec<Submission> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.trim().starts_with("//"))
        .map(|(i, line)| {
            let line = line.trim();
            let (player, code) = match line.rsplit_once(": ") {
                Some((p, c)) if !c.trim().is_empty() => (Some(p.trim().to_owned()), c.trim()),
                _ => (None, line),
            };
            let at = if source.is_empty() {
                format!("line {}", i + 1)
            } else {
                format!("{source}:{}", i + 1)
            };
            Submission {
                source: at,
                player: player.filter(|p| !p.is_empty()),
                text: code.to_owned(),
            }
        })
        .collect()
}

/// Whether a submission is a deck file's text (else a code or a link).
pub fn is_deck_file(text: &str) -> bool {
    text.contains('=') && text.contains('\n') || text.contains("game =")
}

/// The code a submitted line stands for: a bare code, or the `code` of a
/// share link (`…/deck?code=…`).
pub fn code_of(text: &str) -> String {
    let t = text.trim();
    let Some((_, query)) = t.split_once('?') else {
        return t.to_owned();
    };
    let query = query.split('#').next().unwrap_or_default();
    query
        .split('&')
        .find_map(|pair| pair.strip_prefix("code="))
        .map_or_else(
            || t.to_owned(),
            |c| {
                percent_encoding::percent_decode_str(c)
                    .decode_utf8_lossy()
                    .into_owned()
            },
        )
}

/// Judges every submission, in order; `game_of` finds a game by id.
pub fn judge<'g>(
    game_of: impl Fn(&str) -> Option<&'g Game>,
    submissions: &[Submission],
    event: &Requirements,
) -> Vec<Row> {
    let mut keys = Vec::new();
    let mut rows: Vec<Row> = submissions
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let (row, key) = judge_one(&game_of, i + 1, s, event);
            keys.push(key);
            row
        })
        .collect();
    let mut same: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (i, k) in keys.iter().enumerate() {
        if let Some(k) = k {
            same.entry(k.as_str()).or_default().push(i);
        }
    }
    // The first submission of a deck names every later one, and each later
    // one the first: the group is all there, and 10,000 submissions of one
    // popular deck stay 20,000 numbers rather than a hundred million.
    for group in same.values().filter(|g| g.len() > 1) {
        let (&first, later) = group.split_first().expect("a group of two or more");
        rows[first].same_as = later.iter().map(|j| j + 1).collect();
        for &i in later {
            rows[i].same_as = vec![first + 1];
        }
    }
    rows
}

/// A deck read from a submission: the deck file it stands for (with the
/// sources its spans point into), or why it is not one.
fn read<'g>(
    game_of: &impl Fn(&str) -> Option<&'g Game>,
    text: &str,
    sources: &mut SourceMap,
) -> Result<(DeckFile, &'g Game), Finding> {
    let invalid = |code, message: String| Finding {
        code,
        rule: None,
        message,
    };
    let deck = if is_deck_file(text) {
        let file = sources.add("deck.toml", Arc::<str>::from(text));
        let mut found = Vec::new();
        let deck = deck::parse(file, text, &mut found);
        if let Some(d) = found.iter().find(|d| d.severity == Severity::Error) {
            return Err(finding(d));
        }
        deck.ok_or_else(|| invalid("event::deck", "this is not a deck file".into()))?
    } else {
        let code = code_of(text);
        let id = deckcode::game_of(&code).map_err(|e| invalid("deck::code", e.to_string()))?;
        let game = game_of(&id)
            .ok_or_else(|| invalid("deck::game", format!("there is no game `{id}` here")))?;
        let m = &game.manifest.manifest;
        let decoded = deckcode::decode(&code, m, &game.pool)
            .map_err(|e| invalid("deck::code", e.to_string()))?;
        deck_file(&decoded, sources)
    };
    let game = game_of(&deck.game).ok_or_else(|| {
        invalid(
            "deck::game",
            format!("there is no game `{}` here", deck.game),
        )
    })?;
    Ok((deck, game))
}

/// The deck file a decoded code stands for.
pub fn deck_file(deck: &CodeDeck, sources: &mut SourceMap) -> DeckFile {
    DeckFile {
        file: sources.add("code", ""),
        game: deck.game.clone(),
        game_span: 0..0,
        name: deck.name.clone(),
        player: None,
        format: deck.format.clone().map(|f| (f, 0..0)),
        zones: deck
            .zones
            .iter()
            .map(|(z, lines)| DeckZone {
                id: z.clone(),
                span: 0..0,
                entries: lines
                    .iter()
                    .map(|(id, n)| DeckEntry {
                        id: id.clone(),
                        count: *n,
                        span: 0..0,
                    })
                    .collect(),
            })
            .collect(),
        complete: true,
    }
}

fn finding(d: &Diagnostic) -> Finding {
    Finding {
        code: d.code,
        rule: None,
        message: d.message.clone(),
    }
}

/// One submission's row, and the key identical decks share.
fn judge_one<'g>(
    game_of: &impl Fn(&str) -> Option<&'g Game>,
    n: usize,
    s: &Submission,
    event: &Requirements,
) -> (Row, Option<String>) {
    let mut row = Row {
        n,
        source: s.source.clone(),
        player: s.player.clone().unwrap_or_default(),
        game: String::new(),
        deck: String::new(),
        format: String::new(),
        verdict: "invalid",
        cards: 0,
        errors: Vec::new(),
        warnings: Vec::new(),
        same_as: Vec::new(),
        code: String::new(),
    };
    let mut sources = SourceMap::new();
    let (mut deck, game) = match read(game_of, s.text.trim(), &mut sources) {
        Ok(read) => read,
        Err(why) => {
            row.errors.push(why);
            return (row, None);
        }
    };
    row.game.clone_from(&deck.game);
    row.deck.clone_from(&deck.name);
    if row.player.is_empty() {
        row.player = deck.player.clone().unwrap_or_default();
    }
    row.verdict = "illegal";
    require(event, &mut deck, &mut row);
    row.format = deck
        .format
        .as_ref()
        .map(|(f, _)| f.clone())
        .unwrap_or_default();
    let key = verdict_into(game, &deck, &mut row);
    (row, key)
}

/// The event's requirements: a deck of another game, or naming another
/// format, is illegal; a deck naming no format is judged by the event's.
fn require(event: &Requirements, deck: &mut DeckFile, row: &mut Row) {
    if let Some(g) = event.game.as_ref().filter(|g| **g != deck.game) {
        row.errors.push(Finding {
            code: "event::game",
            rule: None,
            message: format!(
                "the event is for `{g}`, and this deck is of `{}`",
                deck.game
            ),
        });
    }
    let Some(wanted) = &event.format else {
        return;
    };
    match &deck.format {
        Some((f, _)) if f != wanted => row.errors.push(Finding {
            code: "event::format",
            rule: None,
            message: format!("the event's format is `{wanted}`, and this deck names `{f}`"),
        }),
        _ => {}
    }
    let span = deck.format.as_ref().map_or(0..0, |(_, s)| s.clone());
    deck.format = Some((wanted.clone(), span));
}

/// Judges the deck into the row; the key of its cards when it could be
/// judged.
fn verdict_into(game: &Game, deck: &DeckFile, row: &mut Row) -> Option<String> {
    row.cards = deck
        .zones
        .iter()
        .flat_map(|z| &z.entries)
        .map(|e| u64::from(e.count))
        .sum();
    let mut found = Vec::new();
    let judged = deck::judge(deck, &game.manifest, &game.pool, &game.rules, &mut found);
    let Some((resolved, rules)) = judged else {
        row.errors.extend(
            found
                .iter()
                .filter(|d| d.severity == Severity::Error)
                .map(finding),
        );
        return None;
    };
    for v in rules.check(&resolved.view) {
        let rule = &rules.rules[v.rule];
        let f = Finding {
            code: rule.code(false),
            rule: Some(rule.id.clone()),
            message: v.message,
        };
        if rule.severity == RuleSeverity::Warning {
            row.warnings.push(f);
        } else {
            row.errors.push(f);
        }
    }
    if row.errors.is_empty() {
        row.verdict = "legal";
    }
    let code_deck = CodeDeck {
        game: deck.game.clone(),
        name: String::new(),
        format: deck.format.as_ref().map(|(f, _)| f.clone()),
        zones: deck::zones_of(deck),
    };
    let m = &game.manifest.manifest;
    let key = deckcode::encode(&code_deck, m, &game.pool).ok();
    row.code = deckcode::encode(
        &CodeDeck {
            name: deck.name.clone(),
            ..code_deck
        },
        m,
        &game.pool,
    )
    .unwrap_or_default();
    key
}

/// The rows as CSV (RFC 4180), one line per deck under [`CSV_HEADER`];
/// findings are `rule: message` (or `code: message`) joined by `; `.
pub fn csv(rows: &[Row]) -> String {
    let mut out = format!("{CSV_HEADER}\r\n");
    let joined = |fs: &[Finding]| {
        fs.iter()
            .map(|f| format!("{}: {}", f.rule.as_deref().unwrap_or(f.code), f.message))
            .collect::<Vec<_>>()
            .join("; ")
    };
    for r in rows {
        let same: Vec<String> = r.same_as.iter().map(ToString::to_string).collect();
        let cells = [
            r.n.to_string(),
            field(&r.source),
            field(&r.player),
            field(&r.game),
            field(&r.deck),
            field(&r.format),
            field(r.verdict),
            r.cards.to_string(),
            field(&joined(&r.errors)),
            field(&joined(&r.warnings)),
            same.join(" "),
            field(&r.code),
        ];
        out.push_str(&cells.join(","));
        out.push_str("\r\n");
    }
    out
}

/// One CSV cell: quoted when needed, and never read as a formula by a
/// spreadsheet ([`formula_safe::defuse`]).
fn field(s: &str) -> String {
    let s = formula_safe::defuse(s);
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.into_owned()
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
        assert_eq!(field("\tx"), "'\tx");
        assert_eq!(field("-1+2"), "'-1+2");
        assert_eq!(field("-1"), "-1", "a number stays a number");
    }

    #[test]
    fn lines_name_players_and_links_carry_codes() {
        let subs = submissions_of_lines(
            "Ana Lima: AbC\n\n// late\nhttp://127.0.0.1:7878/play/g/deck?code=X%2DY&format=f\n",
            "",
        );
        assert_eq!(subs.len(), 2);
        assert_eq!(subs[0].player.as_deref(), Some("Ana Lima"));
        assert_eq!(subs[0].text, "AbC");
        assert_eq!(subs[0].source, "line 1");
        assert_eq!(subs[1].player, None, "a link's `:` names no player");
        assert_eq!(code_of(&subs[1].text), "X-Y");
        assert_eq!(subs[1].source, "line 4");
    }
}
