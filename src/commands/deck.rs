//! `carta deck check | code | decode | odds`: deck legality, deck codes
//! and draw odds.

use std::path::{Path, PathBuf};

use super::owned::{self, Owned};
use super::{CommandError, Report, open_deck, plural};
use crate::deck::{self, DeckFile};
use crate::deckcode::{self, CodeDeck};
use crate::diag::escape_controls;
use crate::diag::{Diagnostic, Diagnostics, Severity, SourceMap};
use crate::game::Games;
use crate::l10n;
use crate::load::Workspace;
use crate::play::{self, Group, Odds, Question};
use crate::rules::RuleSet;

/// `carta deck check FILE…`: the legality of each deck file against its
/// game's rules; with `explain`, the tally of every rule too (a table on
/// stdout, or advice diagnostics when `json`). Each deck judged is held
/// against the player's collection ([`Owned`]: `collection`, a
/// `collection.toml` among `files`, or the game's own), its missing copies
/// warnings and a line under the verdict.
///
/// # Errors
/// When the workspace or a file cannot be read.
pub(crate) fn check(
    root: &Path,
    files: &[PathBuf],
    collection: Option<&Path>,
    (explain, json): (bool, bool),
) -> Result<Report, CommandError> {
    let mut ws = Workspace::open(root)?;
    let mut diags = Diagnostics::new();
    let mut games = Games::default();
    let mut owned = Owned::default();
    let (decks, named): (Vec<&PathBuf>, Vec<&PathBuf>) =
        files.iter().partition(|p| !Owned::is_collection(p));
    for path in named
        .iter()
        .copied()
        .map(PathBuf::as_path)
        .chain(collection)
    {
        owned.name(&mut ws, path, &mut games, &mut diags)?;
    }
    let (mut legal, mut illegal) = (0, 0);
    let mut details = Vec::new();
    for path in &decks {
        let mut found = Vec::new();
        let mut checked = false;
        if let Some((parsed, game)) = open_deck(&mut ws, path, &mut games, &mut diags, &mut found)?
            && let Some((resolved, rules)) =
                deck::judge(&parsed, &game.manifest, &game.pool, &game.rules, &mut found)
        {
            checked = true;
            if explain {
                let tallies = (rules, &resolved);
                explain_deck(&parsed, tallies, &ws.sources, json, &mut found);
            }
            if let Some(c) = owned.of(&mut ws, game, &mut diags)? {
                let shown = ws.sources.get(c.file).name.clone();
                let name = ws.sources.get(parsed.file).name.clone();
                details.extend(owned::report_missing(
                    &parsed,
                    (c, &shown),
                    &name,
                    &mut found,
                ));
            }
        }
        // A deck is legal only when it was checked and broke no rule.
        if checked && !found.iter().any(|d| d.severity == Severity::Error) {
            legal += 1;
        } else {
            illegal += 1;
        }
        diags.extend(found);
    }
    let summary = format!(
        "checked {} deck{}: {legal} legal, {illegal} illegal",
        decks.len(),
        plural(decks.len())
    );
    Ok(Report::new(ws, diags, summary)?.with_details(details))
}

/// `carta deck code FILE`: prints the deck's share code on stdout.
///
/// # Errors
/// When the workspace or a file cannot be read.
pub(crate) fn code(root: &Path, path: &Path) -> Result<Report, CommandError> {
    let mut ws = Workspace::open(root)?;
    let mut diags = Diagnostics::new();
    let mut games = Games::default();
    let mut found = Vec::new();
    if let Some((parsed, game)) = open_deck(&mut ws, path, &mut games, &mut diags, &mut found)? {
        // An unknown format is an error here too: the code would carry it.
        let resolved = deck::rules_for(&parsed, &game.rules, &mut found).and_then(|rules| {
            deck::resolve(&parsed, &game.manifest, &game.pool, rules, &mut found)
        });
        if resolved.is_some() && !diags.has_errors() {
            let code_deck = CodeDeck {
                game: parsed.game.clone(),
                name: parsed.name.clone(),
                format: parsed.format.as_ref().map(|(f, _)| f.clone()),
                zones: deck::zones_of(&parsed),
            };
            match deckcode::encode(&code_deck, &game.manifest.manifest, &game.pool) {
                Ok(code) => println!("{code}"),
                Err(e) => found.push(Diagnostic::error("deck::code", e.to_string())),
            }
        }
    }
    diags.extend(found);
    Ok(Report::new(ws, diags, "deck code")?)
}

/// `carta deck decode CODE`: prints the deck file a code stands for.
///
/// # Errors
/// When the workspace or a file cannot be read.
pub(crate) fn decode(root: &Path, code: &str) -> Result<Report, CommandError> {
    let mut ws = Workspace::open(root)?;
    let mut diags = Diagnostics::new();
    let known = ws.game_ids()?;
    let decoded = deckcode::game_of(code).and_then(|game| {
        if known.contains(&game) {
            Ok(game)
        } else {
            Err(deckcode::CodeError::UnknownGame(game))
        }
    });
    let mut games = Games::default();
    match decoded {
        Err(e) => diags.push(Diagnostic::error("deck::code", e.to_string())),
        Ok(game_id) => {
            if let Some(game) = games.get(&mut ws, &game_id, &mut diags)? {
                match deckcode::decode(code, &game.manifest.manifest, &game.pool) {
                    Ok(d) => match d.format.as_deref().filter(|f| !game.rules.formats.contains_key(*f)) {
                        Some(unknown) => diags.push(
                            Diagnostic::error(
                                "deck::unknown-format",
                                format!("the code names the format `{unknown}`, which `{game_id}` does not declare"),
                            )
                            .with_help(if game.rules.formats.is_empty() {
                                "the game declares no formats: remove `format` from the deck".into()
                            } else {
                                crate::suggest::help(
                                    unknown,
                                    game.rules.formats.keys().map(String::as_str),
                                    "the game declares the formats",
                                )
                            }),
                        ),
                        None => print!("{}", deckcode::to_toml(&d)),
                    },
                    Err(e) => diags.push(Diagnostic::error("deck::code", e.to_string())),
                }
            }
        }
    }
    Ok(Report::new(ws, diags, "deck decode")?)
}

/// `carta deck odds FILE --group G`: the chance of drawing at least
/// `q.at_least` cards of the group by turn `q.by_turn`, on stdout (a
/// sentence, or the figures as JSON with `json`). The deck's legality is
/// not the question: only what keeps it from resolving (an unknown card or
/// zone) is reported.
///
/// # Errors
/// When the workspace or a file cannot be read, or the group, hand or turn
/// is not one the game takes (a usage error).
pub(crate) fn odds(
    root: &Path,
    path: &Path,
    group: &str,
    q: Question,
    json: bool,
) -> Result<Report, CommandError> {
    let mut ws = Workspace::open(root)?;
    let mut diags = Diagnostics::new();
    let mut games = Games::default();
    let mut found = Vec::new();
    if let Some((parsed, game)) = open_deck(&mut ws, path, &mut games, &mut diags, &mut found)? {
        let mut judged = Vec::new();
        match deck::judge(
            &parsed,
            &game.manifest,
            &game.pool,
            &game.rules,
            &mut judged,
        ) {
            None => found.extend(judged),
            Some((resolved, _)) => {
                let usage = |message: String| {
                    CommandError::Usage {
                    message,
                    help: "a group is `id=CARD`, `kind=KIND`, `FIELD=VALUE` or a flag `FIELD`; see `carta deck odds --help`".into(),
                }
                };
                let chosen = Group::parse(game, group).map_err(usage)?;
                let odds = play::odds(game, &resolved.view, &chosen, q)
                    .map_err(|why| usage(l10n::english(&why)))?;
                print_odds(&odds, group, json);
            }
        }
    }
    diags.extend(found);
    Ok(Report::new(ws, diags, "deck odds")?)
}

/// The odds on stdout: one sentence, or the figures as one JSON object.
fn print_odds(odds: &Odds, group: &str, json: bool) {
    if json {
        let mut value = serde_json::to_value(odds).expect("odds serialize");
        value["group_spec"] = group.into();
        println!("{value}");
        return;
    }
    let table = if odds.on_table > 0 {
        format!(" besides {} on the table", odds.on_table)
    } else {
        String::new()
    };
    let line = format!(
        "{:.4} ({:.2}%): at least {} × {group} by turn {}: {} cards seen of the {} in `{}`{table}, {} of them {group}",
        odds.probability,
        odds.probability * 100.0,
        odds.at_least,
        odds.by_turn,
        odds.seen,
        odds.deck,
        odds.zone,
        odds.group,
    );
    println!("{}", escape_controls(&line));
}

/// `--explain`: the tally of every rule, as a table on stdout (human) or as
/// advice diagnostics (JSON).
fn explain_deck(
    deck: &DeckFile,
    (rules, resolved): (&RuleSet, &deck::ResolvedDeck),
    sources: &SourceMap,
    json: bool,
    out: &mut Vec<Diagnostic>,
) {
    let tallies = rules.explain(&resolved.view);
    if !json {
        let format = rules
            .format
            .as_ref()
            .map(|f| format!(", format `{f}`"))
            .unwrap_or_default();
        let title = format!("{} ({}{format}):", sources.get(deck.file).name, deck.name);
        println!("{}", escape_controls(&title));
        for line in deck::tally_lines(rules, &tallies) {
            println!("{}", escape_controls(&line));
        }
        return;
    }
    for t in tallies {
        let r = &rules.rules[t.rule];
        let state = if t.ok { "kept" } else { "broken" };
        out.push(
            Diagnostic::new(
                Severity::Advice,
                "deck::tally",
                format!(
                    "rule `{}` ({}): {} (requires {}): {state}",
                    r.id, r.name, t.actual, t.expected
                ),
            )
            .at(deck.file, deck.game_span.clone(), "")
            .with_help_opt(r.source.as_ref().map(|s| format!("source: {s}"))),
        );
    }
}
