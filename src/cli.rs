//! The command line: clap types, and the dispatch from a parsed command to
//! the pipeline, its diagnostics and the CONTRACT's exit codes.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand, ValueEnum};

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::bundle::Bundle;
use crate::check::{Decks, Game};
use crate::deck::{self, DeckFile};
use crate::deckcode::{self, CodeDeck};
use crate::diag::{Diagnostic, Diagnostics, Format, Renderer, Severity, SourceMap};
use crate::load::{LoadError, Workspace};
use crate::rules::RuleSet;

/// carta: a compiler for tabletop card games.
#[derive(Debug, Parser)]
#[command(name = "carta", version, about, propagate_version = true)]
pub struct Cli {
    /// Global options.
    #[command(flatten)]
    pub global: Global,
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// Options every command takes.
#[derive(Debug, Args)]
pub struct Global {
    /// Work on the workspace in DIR instead of the current directory.
    #[arg(short = 'C', global = true, value_name = "DIR", default_value = ".")]
    pub dir: PathBuf,
    /// How to print diagnostics: graphical reports on stderr, or JSON lines on stdout.
    #[arg(long, global = true, value_enum, default_value_t = MessageFormat::Human)]
    pub message_format: MessageFormat,
    /// When to color human output.
    #[arg(long, global = true, value_enum, default_value_t = Color::Auto)]
    pub color: Color,
    /// Print errors only: no warnings, no summary.
    #[arg(short, long, global = true, conflicts_with = "verbose")]
    pub quiet: bool,
    /// Print more: advice and per-game counts.
    #[arg(short, long, global = true)]
    pub verbose: bool,
}

/// The diagnostics format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum MessageFormat {
    /// miette's graphical reports on stderr.
    Human,
    /// One JSON object per diagnostic per line on stdout.
    Json,
}

/// When to use color.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Color {
    /// When stderr is a terminal and `NO_COLOR` is unset.
    Auto,
    /// Always.
    Always,
    /// Never.
    Never,
}

/// The commands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Load, validate and link every card of the named games (all if none).
    Check {
        /// Games to check (folder names under `cards/`).
        games: Vec<String>,
        /// Parse and validate every file, ignoring (and not writing) the
        /// cache of the last check in `build/.cache/`.
        #[arg(long)]
        no_cache: bool,
    },
    /// Print a bundle as JSON: `{"game": …, "cards": […], "decks": […]}`.
    Decompile {
        /// The bundle file (`build/<game>/<game>.carta`).
        bundle: PathBuf,
    },
    /// Print a summary of a bundle: game, versions, counts by kind, sizes, hash.
    Inspect {
        /// The bundle file.
        bundle: PathBuf,
    },
    /// Deck legality and deck codes.
    Deck {
        /// What to do with decks.
        #[command(subcommand)]
        command: DeckCommand,
    },
    /// Check, then write `DIR/<game>/<game>.carta` (the binary bundle) and
    /// `DIR/<game>/sheets/index.html` (print-and-play sheets).
    Build {
        /// Games to build (all if none).
        games: Vec<String>,
        /// The output folder, relative to the workspace.
        #[arg(long, value_name = "DIR", default_value = "build")]
        out: PathBuf,
        /// Print settings.
        #[command(flatten)]
        print: PrintArgs,
    },
    /// Write print-and-play sheets of games, or of deck files
    /// (`DIR/<game>/decks/<deck>/index.html`).
    Print {
        /// Game ids, or deck files (`*.toml`, relative to the workspace).
        targets: Vec<String>,
        /// The output folder, relative to the workspace.
        #[arg(long, value_name = "DIR", default_value = "build")]
        out: PathBuf,
        /// Print settings.
        #[command(flatten)]
        print: PrintArgs,
    },
}

/// Per-build print settings; each overrides the game's `[print]`.
#[derive(Debug, Args)]
pub struct PrintArgs {
    /// The paper.
    #[arg(long, value_enum)]
    pub paper: Option<crate::sheets::Paper>,
    /// Lay the pages out landscape.
    #[arg(long, conflicts_with = "portrait")]
    pub landscape: bool,
    /// Lay the pages out portrait.
    #[arg(long)]
    pub portrait: bool,
    /// Double-sided layout of the backs: flip on the long or short edge, or no backs.
    #[arg(long, value_enum)]
    pub duplex: Option<crate::sheets::Duplex>,
    /// Print without card backgrounds and art.
    #[arg(long)]
    pub ink_saver: bool,
}

impl PrintArgs {
    fn options(&self) -> crate::sheets::SheetOptions {
        use crate::sheets::Orientation;
        crate::sheets::SheetOptions {
            paper: self.paper,
            orientation: match (self.landscape, self.portrait) {
                (true, _) => Some(Orientation::Landscape),
                (_, true) => Some(Orientation::Portrait),
                _ => None,
            },
            duplex: self.duplex,
            ink_saver: self.ink_saver.then_some(true),
        }
    }
}

/// The `carta deck` commands.
#[derive(Debug, Subcommand)]
pub enum DeckCommand {
    /// Check the legality of each deck file against its game's rules.
    Check {
        /// Deck files (TOML), relative to the current directory.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Also show how each deck fares against every rule, legal or not.
        #[arg(long)]
        explain: bool,
    },
    /// Print a short, shareable code for a deck file.
    Code {
        /// The deck file.
        file: PathBuf,
    },
    /// Print the deck file a code stands for.
    Decode {
        /// The code, as `carta deck code` printed it.
        code: String,
    },
}

/// Runs a parsed command line and returns the process exit code:
/// 0 clean, 1 problems found, 2 the command could not run.
pub fn run(cli: Cli) -> ExitCode {
    let session = Session::new(&cli.global);
    let outcome = match &cli.command {
        Command::Check { games, no_cache } => check(&cli.global, games, *no_cache),
        Command::Decompile { bundle } => return show_bundle(&cli.global, bundle, false),
        Command::Inspect { bundle } => return show_bundle(&cli.global, bundle, true),
        Command::Deck {
            command: DeckCommand::Check { files, explain },
        } => deck_check(&cli.global, files, *explain),
        Command::Deck {
            command: DeckCommand::Code { file },
        } => deck_code(&cli.global, file),
        Command::Deck {
            command: DeckCommand::Decode { code },
        } => deck_decode(&cli.global, code),
        Command::Build { games, out, print } => crate::sheets::command::build(
            &cli.global.dir,
            games,
            &cli.global.dir.join(out),
            &print.options(),
        ),
        Command::Print {
            targets,
            out,
            print,
        } => crate::sheets::command::print(
            &cli.global.dir,
            targets,
            &cli.global.dir.join(out),
            &print.options(),
        ),
    };
    match outcome {
        Ok((diags, sources, summary)) => session.finish(diags, &sources, &summary),
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

type Outcome = Result<(Diagnostics, SourceMap, String), Box<dyn std::error::Error>>;

fn check(global: &Global, games: &[String], no_cache: bool) -> Outcome {
    let mut ws = Workspace::open(&global.dir)?;
    let mut diags = Diagnostics::new();
    let fields = if no_cache {
        crate::check::Fields::Rules
    } else {
        crate::check::Fields::RulesCached
    };
    let checked = crate::check::check_keeping(&mut ws, games, fields, &mut diags)?;
    ws.restore(&diags)?;
    let cards: usize = checked.iter().map(|g| g.pool.len()).sum();
    let reused: usize = checked.iter().map(|g| g.reused_files).sum();
    let reused = if reused > 0 {
        format!(" ({reused} unchanged card files taken from the last check)")
    } else {
        String::new()
    };
    let summary = format!(
        "checked {} game{}, {cards} card{}{reused}",
        checked.len(),
        plural(checked.len()),
        plural(cards)
    );
    Ok((diags, ws.sources, summary))
}

/// `carta decompile` (JSON on stdout) and `carta inspect` (a summary).
fn show_bundle(global: &Global, given: &Path, inspect: bool) -> ExitCode {
    let path = global.dir.join(given);
    let shown = Bundle::open(&path).and_then(|b| {
        if inspect {
            crate::bundle::summary(&b, given)
        } else {
            b.to_json()
                .map(|v| serde_json::to_string_pretty(&v).expect("JSON values serialize") + "\n")
        }
    });
    match shown {
        Ok(text) => {
            // A closed pipe (`| head`) is not an error worth reporting.
            let _ = std::io::stdout().lock().write_all(text.as_bytes());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: `{}`: {e}", given.display());
            ExitCode::from(if e.is_io() { 2 } else { 1 })
        }
    }
}

/// The games decks are checked against, each checked once per run.
type Games = BTreeMap<String, Option<Game>>;

/// Reads the deck file at `path` and checks its game (once per game in
/// `games`); the deck and its game, or `None` once the problem is reported.
fn open_deck<'g>(
    ws: &mut Workspace,
    path: &Path,
    games: &'g mut Games,
    diags: &mut Diagnostics,
    found: &mut Vec<Diagnostic>,
) -> Result<Option<(DeckFile, &'g Game)>, LoadError> {
    let file = ws.read_path(path, diags)?;
    if !ws.is_text(file) {
        return Ok(None);
    }
    let text = Arc::clone(&ws.sources.get(file).text);
    let Some(parsed) = deck::parse(file, &text, found) else {
        return Ok(None);
    };
    if !known_game(&parsed, &ws.game_ids()?, found) {
        return Ok(None);
    }
    if !games.contains_key(&parsed.game) {
        let game = crate::check::check_game(ws, &parsed.game, Decks::Skip, diags)?;
        games.insert(parsed.game.clone(), game);
    }
    Ok(games[&parsed.game].as_ref().map(|game| (parsed, game)))
}

fn deck_check(global: &Global, files: &[PathBuf], explain: bool) -> Outcome {
    let mut ws = Workspace::open(&global.dir)?;
    let mut diags = Diagnostics::new();
    let mut games = Games::new();
    let (mut legal, mut illegal) = (0, 0);
    for path in files {
        let mut found = Vec::new();
        let mut checked = false;
        if let Some((parsed, game)) = open_deck(&mut ws, path, &mut games, &mut diags, &mut found)?
        {
            let rules = &game.rules.deck;
            if let Some(resolved) =
                deck::resolve(&parsed, &game.manifest, &game.pool, rules, &mut found)
            {
                deck::check(&parsed, &resolved, &game.manifest, rules, &mut found);
                checked = true;
                if explain {
                    explain_deck(global, &parsed, rules, &resolved, &ws.sources, &mut found);
                }
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
        files.len(),
        plural(files.len())
    );
    Ok((diags, ws.sources, summary))
}

fn deck_code(global: &Global, path: &Path) -> Outcome {
    let mut ws = Workspace::open(&global.dir)?;
    let mut diags = Diagnostics::new();
    let mut games = Games::new();
    let mut found = Vec::new();
    if let Some((parsed, game)) = open_deck(&mut ws, path, &mut games, &mut diags, &mut found)? {
        let rules = &game.rules.deck;
        let resolved = deck::resolve(&parsed, &game.manifest, &game.pool, rules, &mut found);
        if resolved.is_some() && !diags.has_errors() {
            let code_deck = CodeDeck {
                game: parsed.game.clone(),
                name: parsed.name.clone(),
                // Deck files name no format yet.
                format: None,
                zones: deck::zones_of(&parsed),
            };
            match deckcode::encode(&code_deck, &game.manifest.manifest, &game.pool) {
                Ok(code) => println!("{code}"),
                Err(e) => found.push(Diagnostic::error("deck::code", e.to_string())),
            }
        }
    }
    diags.extend(found);
    Ok((diags, ws.sources, "deck code".into()))
}

fn deck_decode(global: &Global, code: &str) -> Outcome {
    let mut ws = Workspace::open(&global.dir)?;
    let mut diags = Diagnostics::new();
    let known = ws.game_ids()?;
    let decoded = deckcode::game_of(code).and_then(|game| {
        if known.contains(&game) {
            Ok(game)
        } else {
            Err(deckcode::CodeError::UnknownGame(game))
        }
    });
    match decoded {
        Err(e) => diags.push(Diagnostic::error("deck::code", e.to_string())),
        Ok(game_id) => {
            if let Some(game) =
                crate::check::check_game(&mut ws, &game_id, Decks::Skip, &mut diags)?
            {
                match deckcode::decode(code, &game.manifest.manifest, &game.pool) {
                    Ok(d) => print!("{}", deckcode::to_toml(&d)),
                    Err(e) => diags.push(Diagnostic::error("deck::code", e.to_string())),
                }
            }
        }
    }
    Ok((diags, ws.sources, "deck decode".into()))
}

/// Reports a deck whose `game` is not in the workspace.
fn known_game(deck: &DeckFile, known: &[String], out: &mut Vec<Diagnostic>) -> bool {
    if known.contains(&deck.game) {
        return true;
    }
    out.push(
        Diagnostic::error(
            "deck::game",
            format!("there is no game `{}` in this workspace", deck.game),
        )
        .at(deck.file, deck.game_span.clone(), "unknown game")
        .with_help(crate::suggest::help(
            &deck.game,
            known.iter().map(String::as_str),
            "games",
        )),
    );
    false
}

/// `--explain`: the tally of every rule, as a table on stdout (human) or as
/// advice diagnostics (JSON).
fn explain_deck(
    global: &Global,
    deck: &DeckFile,
    rules: &RuleSet,
    resolved: &deck::ResolvedDeck,
    sources: &SourceMap,
    out: &mut Vec<Diagnostic>,
) {
    let tallies = rules.explain(&resolved.view);
    match global.message_format {
        MessageFormat::Human => {
            println!("{} ({}):", sources.get(deck.file).name, deck.name);
            for line in deck::tally_lines(rules, &tallies) {
                println!("{line}");
            }
        }
        MessageFormat::Json => {
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
                    .at(deck.file, deck.game_span.clone(), ""),
                );
            }
        }
    }
}

/// How diagnostics are shown in this run.
struct Session {
    renderer: Renderer,
    format: Format,
    quiet: bool,
    verbose: bool,
}

impl Session {
    fn new(global: &Global) -> Self {
        let format = match global.message_format {
            MessageFormat::Human => Format::Human,
            MessageFormat::Json => Format::Json,
        };
        let color = match global.color {
            Color::Always => true,
            Color::Never => false,
            Color::Auto => {
                std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none()
            }
        };
        let width = std::env::var("COLUMNS")
            .ok()
            .and_then(|c| c.parse().ok())
            .unwrap_or(100);
        Session {
            renderer: Renderer::new(format, color, width),
            format,
            quiet: global.quiet,
            verbose: global.verbose,
        }
    }

    /// Prints the diagnostics and a summary; the exit code follows the errors.
    fn finish(&self, diags: Diagnostics, sources: &SourceMap, summary: &str) -> ExitCode {
        let errors = diags.error_count();
        let all = diags.into_sorted();
        let warnings = all
            .iter()
            .filter(|d| d.severity == Severity::Warning)
            .count();
        let shown: Vec<Diagnostic> = all
            .into_iter()
            .filter(|d| match d.severity {
                Severity::Error => true,
                Severity::Warning => !self.quiet,
                Severity::Advice => self.verbose || d.code == "deck::tally",
            })
            .collect();
        if self.renderer.emit(&shown, sources).is_err() {
            // stdout closed (a pipe to `head`): nothing more to say.
            return ExitCode::from(if errors > 0 { 1 } else { 0 });
        }
        if self.format == Format::Human && !self.quiet {
            eprintln!(
                "{summary}: {errors} error{}, {warnings} warning{}",
                plural(errors),
                plural(warnings)
            );
        }
        ExitCode::from(if errors > 0 { 1 } else { 0 })
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}
