//! The command line: clap types, and the dispatch from a parsed command to
//! the pipeline, its diagnostics and the CONTRACT's exit codes.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::diag::{Diagnostic, Diagnostics, Format, Renderer, Severity, SourceMap};
use crate::load::Workspace;

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
    },
    /// Check, then write `DIR/<game>/sheets/index.html` (print-and-play sheets).
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

/// Runs a parsed command line and returns the process exit code:
/// 0 clean, 1 problems found, 2 the command could not run.
pub fn run(cli: Cli) -> ExitCode {
    let session = Session::new(&cli.global);
    let outcome = match &cli.command {
        Command::Check { games } => check(&cli.global, games),
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

fn check(global: &Global, games: &[String]) -> Outcome {
    let mut ws = Workspace::open(&global.dir)?;
    let mut diags = Diagnostics::new();
    let checked = crate::check::check(&mut ws, games, &mut diags)?;
    let cards: usize = checked.iter().map(|g| g.pool.len()).sum();
    let summary = format!(
        "checked {} game{}, {cards} card{}",
        checked.len(),
        plural(checked.len()),
        plural(cards)
    );
    Ok((diags, ws.sources, summary))
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
                Severity::Advice => self.verbose,
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
