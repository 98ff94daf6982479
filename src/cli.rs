//! The command line: clap types, and the dispatch from a parsed command to
//! its module in [`crate::commands`]. Nothing else happens here.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::commands::{self, ColorChoice, Output};
use crate::config::{Duplex, Orientation, Paper};
use crate::diag::Format;
use crate::emit::sheets::SheetOptions;

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
    /// Keep translation files: refresh their source hashes, export and
    /// import PO files for translators.
    I18n {
        /// What to do with translations.
        #[command(subcommand)]
        command: I18nCommand,
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

/// The `carta i18n` commands.
#[derive(Debug, Subcommand)]
pub enum I18nCommand {
    /// Record the current source text's hash in every translation entry of
    /// the game (after reviewing the translations `check` calls stale).
    Update {
        /// The game.
        game: String,
        /// Only this language.
        #[arg(long)]
        lang: Option<String>,
    },
    /// Write the game's strings in a language as a PO file (stdout by default).
    Export {
        /// The game.
        game: String,
        /// The language to translate into.
        #[arg(long)]
        lang: String,
        /// Write to FILE instead of stdout.
        #[arg(short, long, value_name = "FILE")]
        out: Option<PathBuf>,
    },
    /// Read a translated PO file into the game's translation file.
    Import {
        /// The game.
        game: String,
        /// The PO file, relative to the current directory.
        file: PathBuf,
        /// The language (default: the PO file's `Language:` header).
        #[arg(long)]
        lang: Option<String>,
    },
}

/// Per-build print settings; each overrides the game's `[print]`.
#[derive(Debug, Args)]
pub struct PrintArgs {
    /// Print sheets in this language (repeatable; `sheets/<lang>/`):
    /// the game's own or one of its translations.
    #[arg(long = "lang", value_name = "LANG")]
    pub languages: Vec<String>,
    /// The paper.
    #[arg(long, value_enum)]
    pub paper: Option<Paper>,
    /// Lay the pages out landscape.
    #[arg(long, conflicts_with = "portrait")]
    pub landscape: bool,
    /// Lay the pages out portrait.
    #[arg(long)]
    pub portrait: bool,
    /// Double-sided layout of the backs: flip on the long or short edge, or no backs.
    #[arg(long, value_enum)]
    pub duplex: Option<Duplex>,
    /// Print without card backgrounds and art.
    #[arg(long)]
    pub ink_saver: bool,
}

impl PrintArgs {
    fn options(&self) -> SheetOptions {
        SheetOptions {
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
    let g = &cli.global;
    let output = Output::new(
        match g.message_format {
            MessageFormat::Human => Format::Human,
            MessageFormat::Json => Format::Json,
        },
        match g.color {
            Color::Auto => ColorChoice::Auto,
            Color::Always => ColorChoice::Always,
            Color::Never => ColorChoice::Never,
        },
        g.quiet,
        g.verbose,
    );
    let root = &g.dir;
    let result = match &cli.command {
        Command::Check { games, no_cache } => commands::check::run(root, games, *no_cache),
        Command::Decompile { bundle } => commands::bundle::show(root, bundle, false),
        Command::Inspect { bundle } => commands::bundle::show(root, bundle, true),
        Command::Deck { command } => match command {
            DeckCommand::Check { files, explain } => {
                commands::deck::check(root, files, *explain, output.is_json())
            }
            DeckCommand::Code { file } => commands::deck::code(root, file),
            DeckCommand::Decode { code } => commands::deck::decode(root, code),
        },
        Command::Build { games, out, print } => commands::build::run(
            root,
            games,
            &root.join(out),
            print.options(),
            &print.languages,
        ),
        Command::I18n { command } => match command {
            I18nCommand::Update { game, lang } => {
                commands::i18n::update(root, game, lang.as_deref())
            }
            I18nCommand::Export { game, lang, out } => {
                commands::i18n::export(root, game, lang, out.as_deref())
            }
            I18nCommand::Import { game, file, lang } => {
                commands::i18n::import(root, game, file, lang.as_deref())
            }
        },
        Command::Print {
            targets,
            out,
            print,
        } => commands::print::run(
            root,
            targets,
            &root.join(out),
            print.options(),
            &print.languages,
        ),
    };
    output.finish(result)
}
