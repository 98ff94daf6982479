//! `--changed-since REV` of `carta print` and `carta export pdf|png|pod`:
//! only the cards whose printed face or back differs from the version
//! REV names (a git revision or a workspace folder, read as `carta diff`
//! reads it), under a cover that says why each is reprinted and which
//! cards were removed ([`crate::history::reprint`]).

use std::collections::BTreeMap;
use std::path::Path;

use super::build::in_language;
use super::diff::{broken_report, failed};
use super::{CommandError, Report};
use crate::diag::{Diagnostic, Diagnostics};
use crate::emit::cards::Target;
use crate::emit::sheets::{Print, Selection, Subject, pool_prints};
use crate::game::{self, Game};
use crate::history::reprint::{self, Reprint};
use crate::history::{self, Compiled, GameDiff, Source, Version};
use crate::load::Workspace;

/// The old version a run reprints against, and what it reprinted.
pub(super) struct Since {
    /// The old version, compiled.
    old: Version,
    /// Each game's data diff against the old version, once computed.
    diffs: BTreeMap<String, Option<GameDiff>>,
    /// The report's lines: each set's cards and why.
    said: Vec<String>,
    /// How many cards the run reprints, every language counted.
    cards: usize,
}

/// What to print of one game in one language.
pub(super) struct Selected<'g> {
    /// The cards, under a reprint's subject, named `<game>.reprint` (and
    /// `.<lang>`).
    pub(super) target: Target<'g>,
    /// The cover's lines: each card and why, the removed cards, and the
    /// language report.
    pub(super) notes: Vec<String>,
}

impl Since {
    /// The version `given` names (`None`: no reprint), read for a reprint
    /// of `targets` (game ids; every game when empty) of the workspace at
    /// `root`; `Err` holds the report of a version that does not check.
    ///
    /// # Errors
    /// When `targets` names a deck, `given` a bundle (which cannot print
    /// faces), or the version cannot be read.
    pub(super) fn open(
        root: &Path,
        given: Option<&str>,
        targets: &[String],
    ) -> Result<Result<Option<Since>, Report>, CommandError> {
        let Some(given) = given else {
            return Ok(Ok(None));
        };
        if let Some(deck) = targets.iter().find(|t| super::is_deck(t)) {
            return Err(CommandError::Usage {
                message: format!("`--changed-since` reprints games, not decks: `{deck}`"),
                help: "name the games to reprint (or none for every game)".into(),
            });
        }
        let source = Source::parse(given);
        if let Source::Bundle(path) = &source {
            return Err(CommandError::Usage {
                message: format!(
                    "`{}` is a bundle, which holds no templates or art to print faces with",
                    path.display()
                ),
                help: "name the old version as a git revision (a tag such as `v1.0`) or a workspace folder".into(),
            });
        }
        let old = match history::read(&source, root, targets).map_err(failed)? {
            Ok(version) => version,
            Err(broken) => {
                return broken_report(*broken, |label| {
                    format!("reprint: {label} does not check, so nothing is compared with it")
                })
                .map(Err);
            }
        };
        Ok(Ok(Some(Since {
            old,
            diffs: BTreeMap::new(),
            said: Vec::new(),
            cards: 0,
        })))
    }

    /// The cards of `printed` (`game`, compiled from `ws`, in `lang` when
    /// given) whose face or back differs from the old version's in the
    /// same language; `None` when there are none, or they do not render
    /// (reported into `diags`).
    ///
    /// # Errors
    /// When a version's templates or files cannot be read.
    pub(super) fn select<'g>(
        &mut self,
        (game, printed): (&Game, &'g Game),
        (lang, language_notes): (Option<&str>, Vec<String>),
        ws: &mut Workspace,
        diags: &mut Diagnostics,
    ) -> Result<Option<Selected<'g>>, CommandError> {
        let diff = self.diff(game, ws, diags)?;
        let label = self.old.label.clone();
        let Compiled {
            ws: old_ws,
            games: old_games,
        } = self
            .old
            .compiled
            .as_mut()
            .expect("a workspace version is compiled");
        let old_game = old_games.iter().find(|g| g.id() == game.id());
        let localized = old_game.zip(lang).map(|(g, lang)| g.localized(lang));
        let old = localized.as_ref().or(old_game).map(|g| (g, &mut *old_ws));
        let (mut was, mut now) = (Diagnostics::new(), Diagnostics::new());
        let found = reprint::reprint(
            old,
            (printed, ws),
            diff.as_ref(),
            lang,
            (&mut was, &mut now),
        )?;
        if was.has_errors() {
            diags.push(old_failed(&label, game.id(), &was));
        }
        // Only a failure is reported here: the sheets report their own
        // warnings as they render.
        if now.has_errors() {
            diags.extend(now.into_sorted());
        }
        let Some(found) = found.filter(|_| !diags.has_errors()) else {
            return Ok(None);
        };
        let shown = lang.unwrap_or(&printed.manifest.manifest.language);
        self.tell(game.id(), lang, &found, printed);
        if found.is_empty() {
            return Ok(None);
        }
        self.cards += found.cards.len();
        let prints: Vec<Print<'g>> = pool_prints(printed)
            .into_iter()
            .filter(|p| found.cards.contains_key(&p.card.id))
            .collect();
        let notes = [reprint::lines(&found, printed, shown), language_notes].concat();
        let stem = match lang {
            Some(lang) => format!("{}.reprint.{lang}", game.id()),
            None => format!("{}.reprint", game.id()),
        };
        let target = Target {
            selection: Selection {
                subject: Subject::Reprint(reprint::subject(&label, shown)),
                prints,
                notes: notes.clone(),
            },
            stem,
            name: printed.manifest.manifest.name.clone(),
            deck: None,
            zones: Vec::new(),
        };
        Ok(Some(Selected { target, notes }))
    }

    /// `game`'s data diff against the old version, computed once.
    fn diff(
        &mut self,
        game: &Game,
        ws: &Workspace,
        diags: &mut Diagnostics,
    ) -> Result<Option<GameDiff>, CommandError> {
        if let Some(diff) = self.diffs.get(game.id()) {
            return Ok(diff.clone());
        }
        let now = history::game_version(ws, game, diags).map_err(failed)?;
        let was = self.old.games.iter().find(|g| g.id == game.id());
        let diff = now.map(|now| history::compare_game(was, Some(&now)));
        self.diffs.insert(game.id().to_owned(), diff.clone());
        Ok(diff)
    }

    /// Notes for the report what the reprint of `game` in `lang` holds.
    fn tell(&mut self, game: &str, lang: Option<&str>, found: &Reprint, printed: &Game) {
        let set = lang.map_or_else(|| game.to_owned(), |lang| format!("{game} ({lang})"));
        let n = found.cards.len();
        self.said.push(if n == 0 {
            format!("{set}: nothing to reprint")
        } else {
            format!("{set}: {n} card{} to reprint", super::plural(n))
        });
        self.said.extend(
            reprint::lines(found, printed, "en")
                .into_iter()
                .map(|line| format!("  {line}")),
        );
    }

    /// `report`, of a run that reprinted since `since` (`None`: no
    /// reprint, then `report` as it is): its summary says how many cards it
    /// reprinted (then `done`, what it wrote) or that nothing was to be,
    /// its details what each set holds.
    pub(super) fn finish(since: Option<Since>, report: Report, done: &str) -> Report {
        let Some(this) = since else {
            return report;
        };
        this.report(report, done)
    }

    fn report(self, report: Report, done: &str) -> Report {
        let since = &self.old.label;
        let summary = if self.cards == 0 {
            format!("nothing to reprint since {since}: no card's printed face or back changed")
        } else {
            format!(
                "reprinted {} card{} since {since}: {done}",
                self.cards,
                super::plural(self.cards)
            )
        };
        let mut report = report;
        report.summary = summary;
        report.details.extend(self.said);
        report
    }
}

/// The error of an old version whose cards do not render, so that no
/// face can be compared with it (its problems point into the old version's
/// files, which the report cannot show).
fn old_failed(label: &str, game: &str, problems: &Diagnostics) -> Diagnostic {
    let first = problems
        .iter()
        .find(|d| d.severity == crate::diag::Severity::Error)
        .map(|d| d.message.clone())
        .unwrap_or_default();
    Diagnostic::error(
        "history::old-faces",
        format!("the cards of `{game}` at `{label}` do not render, so their faces cannot be compared: {first}"),
    )
    .with_help("name an older or newer version whose sheets print, or print the whole game")
}

/// Calls `each` with `game` in each language a reprint prints it in: its
/// own (`None`) when `own`, then each of `languages` (checked against the
/// game's, as sheets in a language are), with the language's cover notes.
///
/// # Errors
/// When the game's translatable strings cannot be read, or what `each`
/// returns.
pub(super) fn each_language(
    game: &Game,
    (own, languages): (bool, &[String]),
    ws: &mut Workspace,
    diags: &mut Diagnostics,
    mut each: impl FnMut(
        &Game,
        (Option<&str>, Vec<String>),
        &mut Workspace,
        &mut Diagnostics,
    ) -> Result<(), CommandError>,
) -> Result<(), CommandError> {
    if own {
        each(game, (None, Vec::new()), ws, diags)?;
    }
    if languages.is_empty() {
        return Ok(());
    }
    let sources = game::translatable(ws, game, diags)?;
    for lang in languages {
        if let Some((localized, notes)) = in_language(game, lang, &sources, diags) {
            each(&localized, (Some(lang), notes), ws, diags)?;
        }
    }
    Ok(())
}
