//! The organisers' page: many submitted decks (codes, share links, deck
//! files; `player: CODE` lines), judged under the event's game and format
//! by [`crate::event`], the code `carta deck check --event` runs, so the
//! page's rows and CSV are the command's.

use serde::Deserialize;

use super::Catalog;
use crate::event::{self, Requirements, Row, Submission};

/// A file (or other labelled text) submitted as a deck.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Submitted {
    /// What the organiser calls it (a file name).
    #[serde(default)]
    label: String,
    /// Who plays it (a deck file's `player` key is read without one).
    #[serde(default)]
    player: Option<String>,
    /// A deck code, a share link, or a deck file's TOML.
    text: String,
}

/// What the organisers' page sends.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Request {
    /// Pasted lines: a code or a share link each, `player: CODE` naming the
    /// player. They come first, in order.
    #[serde(default)]
    pub(super) pasted: String,
    /// Then the decks submitted as files, in order.
    #[serde(default)]
    pub(super) decks: Vec<Submitted>,
    /// The game every deck must be of.
    #[serde(default)]
    game: Option<String>,
    /// The format every deck is judged by.
    #[serde(default)]
    format: Option<String>,
}

impl Request {
    /// The submissions, in order.
    pub(super) fn submissions(&self) -> Vec<Submission> {
        let mut out = event::submissions_of_lines(&self.pasted, "");
        let first = out.len();
        out.extend(self.decks.iter().enumerate().map(|(i, s)| Submission {
            source: if s.label.trim().is_empty() {
                format!("#{}", first + i + 1)
            } else {
                s.label.clone()
            },
            player: s.player.clone().filter(|p| !p.trim().is_empty()),
            text: s.text.clone(),
        }));
        out
    }

    /// What the event requires; an unknown game or format is refused.
    pub(super) fn requirements(&self, catalog: &Catalog) -> Result<Requirements, String> {
        let pick = |v: &Option<String>| v.clone().filter(|s| !s.trim().is_empty());
        let (game, format) = (pick(&self.game), pick(&self.format));
        if let Some(g) = &game {
            let Some(served) = catalog.game(g) else {
                return Err(format!("there is no game `{g}` here"));
            };
            if let Some(f) = format
                .as_ref()
                .filter(|f| !served.game.rules.formats.contains_key(*f))
            {
                return Err(format!("`{f}` is not a format of `{g}`"));
            }
        } else if format.is_some() {
            return Err("an event's format needs its game".into());
        }
        Ok(Requirements { game, format })
    }
}

/// Judges the submissions of an event.
pub(super) fn judge(catalog: &Catalog, subs: &[Submission], event: &Requirements) -> Vec<Row> {
    event::judge(|id| catalog.game(id).map(|g| &g.game), subs, event)
}
