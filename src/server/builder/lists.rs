//! Text deck lists and printable decklists in the builder, through the
//! very reader and writer `carta deck import`/`export` use
//! ([`crate::decklist`]): the same diagnostics, the same did-you-mean.

use serde::{Deserialize, Serialize};

use super::{DeckInput, GameCatalog, Invalid};
use crate::decklist::{self, NameBy, print::Printed};
use crate::diag::{LineIndex, Phrase};
use crate::game::Game;
use crate::l10n::{self, Lang};

/// A list's problem as the page shows it: where (line and column, in
/// characters), what, and the replacement it may offer to accept.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub(super) struct ListProblem {
    code: &'static str,
    message: String,
    help: Option<String>,
    line: usize,
    column: usize,
    /// The text the problem is about (a name, a heading, a count).
    found: String,
    /// What to write instead of `found`, when one is likely.
    suggestion: Option<String>,
}

/// What the page gets for a pasted list: the deck in the browser's form
/// when the list has no problem, and every problem otherwise.
#[derive(Debug, Clone, Serialize)]
pub(super) struct ParsedList {
    deck: Option<DeckInput>,
    /// The list's `Player:` line.
    player: Option<String>,
    problems: Vec<ListProblem>,
}

/// Reads a pasted list as a deck of `g`, its problems worded in `lang`,
/// its cards named as the game names them or as `shown` does (the game
/// as the page shows its cards, when a translation). A deck without a
/// `Name:` line is named `fallback`.
pub(super) fn parse(
    g: &GameCatalog,
    shown: Option<&Game>,
    text: &str,
    fallback: &str,
    lang: Lang,
) -> ParsedList {
    let (read, problems) = decklist::parse_shown(text, &g.game, shown);
    let lines = LineIndex::new(text);
    let mut problems: Vec<ListProblem> = problems
        .iter()
        .map(|p| {
            let (line, column) = p.line_col(text, &lines);
            ListProblem {
                code: p.code,
                message: l10n::word(lang, &p.said.message),
                help: p.said.help.as_ref().map(|h| l10n::word(lang, h)),
                line,
                column,
                found: text.get(p.span.clone()).unwrap_or_default().to_owned(),
                suggestion: p.suggestion.clone(),
            }
        })
        .collect();
    if let Some(named) = read.game.as_deref().filter(|n| *n != g.id()) {
        let at = text.find(named).unwrap_or(0);
        let (line, column) = decklist::line_col(text, &lines, at);
        problems.insert(
            0,
            ListProblem {
                code: "list::game",
                message: l10n::word(
                    lang,
                    &Phrase::new("list-other-game")
                        .with("named", named)
                        .with("game", g.id()),
                ),
                help: Some(l10n::word(lang, &Phrase::new("list-other-game-help"))),
                line,
                column,
                found: named.to_owned(),
                suggestion: None,
            },
        );
    }
    let deck = problems.is_empty().then(|| {
        let code = read.to_code_deck(g.id(), fallback);
        DeckInput::of_lines(code.name, code.format, code.zones)
    });
    ParsedList {
        deck,
        player: read.player,
        problems,
    }
}

/// How the page asks for a deck's list.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct ListRequest {
    pub(super) deck: DeckInput,
    /// `name` (the default) or `id`.
    #[serde(default)]
    by: Option<String>,
    #[serde(default)]
    player: Option<String>,
}

/// The text list of a deck the page sends (judged first: a deck that
/// cannot be judged has no list).
pub(super) fn render(g: &GameCatalog, req: &ListRequest) -> Result<String, Invalid> {
    let by = match req.by.as_deref() {
        None | Some("name") => NameBy::Name,
        Some("id") => NameBy::Id,
        Some(other) => {
            return Err(Invalid::text(format!(
                "`by` is `name` or `id`, not `{other}`"
            )));
        }
    };
    let player = checked_player(req.player.as_deref())?;
    let valid = g.validate(&req.deck)?;
    Ok(decklist::render(&g.game, &g.code_deck(&valid), player, by))
}

/// The printable decklist of the deck a code stands for.
pub(super) fn decklist(
    g: &GameCatalog,
    code: &str,
    player: Option<&str>,
) -> Result<String, Invalid> {
    let player = checked_player(player)?;
    let valid = g.validate(&g.decode(code)?)?;
    let deck = g.code_deck(&valid);
    let code = g.encode(&valid);
    let printed = Printed {
        deck: &deck,
        player,
        legal: Some(valid.legal),
        code: Some(&code),
    };
    Ok(decklist::print::html(&g.game, &[printed]))
}

/// The longest player name accepted.
const MAX_PLAYER: usize = 200;

fn checked_player(player: Option<&str>) -> Result<Option<&str>, Invalid> {
    match player.map(str::trim).filter(|p| !p.is_empty()) {
        Some(p) if p.chars().count() > MAX_PLAYER => Err(Invalid::text(format!(
            "the player's name is longer than {MAX_PLAYER} characters"
        ))),
        p => Ok(p),
    }
}
