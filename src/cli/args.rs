//! The command line's grammar: the clap types of every command, its
//! arguments and options.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::config::{CutLines, Cutter, Duplex, Orientation, Paper};
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
    /// Work on the workspace in DIR instead of the current directory (files
    /// named on the command line stay relative to the current directory).
    #[arg(
        help_heading = "Global options",
        short = 'C',
        global = true,
        value_name = "DIR",
        default_value = "."
    )]
    pub dir: PathBuf,
    /// How to print diagnostics: graphical reports on stderr, or JSON lines on stdout.
    #[arg(help_heading = "Global options", long, global = true, value_enum, default_value_t = MessageFormat::Human)]
    pub message_format: MessageFormat,
    /// When to color human output.
    #[arg(help_heading = "Global options", long, global = true, value_enum, default_value_t = Color::Auto)]
    pub color: Color,
    /// Print errors only: no warnings, no summary.
    #[arg(
        help_heading = "Global options",
        short,
        long,
        global = true,
        conflicts_with = "verbose"
    )]
    pub quiet: bool,
    /// Print advice too (suggestions that are not problems), besides errors and warnings.
    #[arg(help_heading = "Global options", short, long, global = true)]
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

/// The forms `carta convert` writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ConvertTo {
    /// One workbook, a sheet per card file.
    Xlsx,
    /// One ODS (Open Document) spreadsheet, a sheet per card file.
    Ods,
    /// One CSV file (`,`, UTF-8).
    Csv,
    /// One TOML card file.
    Toml,
}

/// The arguments of `carta diff`.
#[derive(Debug, Args)]
pub struct DiffArgs {
    /// The old version: a git revision, a workspace folder or a `.carta`
    /// bundle, a path relative to the current directory (default: the
    /// newest tag, or `HEAD`).
    #[arg(value_name = "OLD")]
    pub old: Option<String>,
    /// The new version, as OLD (default: the working tree).
    #[arg(value_name = "NEW")]
    pub new: Option<String>,
    /// Compare only this game (repeatable; default: every game).
    #[arg(long = "game", value_name = "G")]
    pub games: Vec<String>,
    /// Deck files judged under both versions (default: the new version's
    /// example decks), relative to the current directory.
    #[arg(long, value_name = "PATH", num_args = 1..)]
    pub decks: Vec<PathBuf>,
    /// An event's submissions judged under both versions instead: a
    /// folder of deck files, or a file of deck codes or share links (a
    /// `player: CODE` line names the player; codes are read under OLD).
    #[arg(long, value_name = "PATH", conflicts_with = "decks")]
    pub event: Option<PathBuf>,
    /// How to write the diff: for the terminal, or Markdown patch notes
    /// (`--message-format json` writes it as JSON).
    #[arg(long, value_enum, default_value_t = DiffFormat::Human)]
    pub format: DiffFormat,
}

/// The forms `carta diff` writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum DiffFormat {
    /// Aligned and coloured, for the terminal.
    Human,
    /// Markdown patch notes.
    Markdown,
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
    /// Start a workspace in DIR (default: the current one), or add a game to
    /// one: a manifest with two example kinds, their schemas, cards, a deck,
    /// templates and the editor files, all checking clean.
    #[command(
        after_help = "Exit codes: 0 created (the new game checks clean), 2 a file it would write exists or cannot be written.\n\nExample:\n  carta init duel --name \"Duel\"   # a workspace in duel/ with game `duel`"
    )]
    Init {
        /// The workspace folder (created when missing), relative to `-C`.
        #[arg(value_name = "DIR", default_value = ".")]
        path: PathBuf,
        /// The new game's id (default: the folder's name when it is a valid id, else `my-game`).
        #[arg(long = "game", value_name = "ID")]
        game: Option<String>,
        /// The new game's display name (default: from the id, `my-game` → `My Game`).
        #[arg(long, value_name = "NAME")]
        name: Option<String>,
    },
    /// Load, validate and link every card of the named games (all if none).
    #[command(
        after_help = "Exit codes: 0 clean, 1 problems found, 2 could not run (no workspace, unknown game, unreadable file).\n\nExample:\n  carta check intrepidos"
    )]
    Check {
        /// Games to check (folder names under `cards/`).
        games: Vec<String>,
        /// Parse and validate every file, ignoring (and not writing) the
        /// cache of the last check in `build/.cache/`.
        #[arg(long)]
        no_cache: bool,
    },
    /// Write a game's cards, or one card file's, as a spreadsheet or as
    /// TOML: `xlsx` or `ods` (a sheet per card file), `csv` or `toml`;
    /// checked first.
    #[command(
        after_help = "Exit codes: 0 written, 1 problems found or the output exists (nothing written), 2 could not run or write.\n\nExample:\n  carta convert cards/intrepidos --to xlsx   # intrepidos.xlsx, a sheet per card file\n  carta convert cards/intrepidos --to ods    # intrepidos.ods, for LibreOffice"
    )]
    Convert(ConvertArgs),
    /// Print a bundle as JSON: `{"game": …, "cards": […], "decks": […]}`.
    #[command(
        after_help = "Exit codes: 0 printed, 1 a damaged file or not a bundle, 2 unreadable.\n\nExample:\n  carta decompile build/intrepidos/intrepidos.carta > intrepidos.json"
    )]
    Decompile {
        /// The bundle file (`build/<game>/<game>.carta`).
        bundle: PathBuf,
    },
    /// Print a summary of a bundle: game, versions, counts by kind, sizes, hash.
    #[command(
        after_help = "Exit codes: 0 printed, 1 a damaged file or not a bundle, 2 unreadable.\n\nExample:\n  carta inspect build/intrepidos/intrepidos.carta"
    )]
    Inspect {
        /// The bundle file.
        bundle: PathBuf,
    },
    /// Compare two versions of the workspace: cards added, removed,
    /// renamed and changed field by field, rules, zones and formats,
    /// translations, and the decks whose verdict changes.
    #[command(
        after_help = "OLD and NEW are each a git revision of the workspace (v1.0, HEAD~3), a workspace folder or a .carta bundle; NEW defaults to the working tree, OLD to the newest tag (or HEAD).\n\nExit codes: 0 compared (a difference is no error), 1 a version has errors or a deck does not parse, 2 could not run (no repository, an unknown revision, an unreadable bundle).\n\nExample:\n  carta diff v1.0                       # since the v1.0 tag\n  carta diff v1.0 --format markdown     # patch notes"
    )]
    Diff(DiffArgs),
    /// Deck legality and deck codes.
    #[command(
        after_help = "Exit codes: see each deck command.\n\nExample:\n  carta deck check cards/intrepidos/decks/*.toml"
    )]
    Deck {
        /// What to do with decks.
        #[command(subcommand)]
        command: DeckCommand,
    },
    /// Check, then write `DIR/<game>/<game>.carta` (the binary bundle) and
    /// `DIR/<game>/sheets/index.html` (print-and-play sheets).
    #[command(
        after_help = "Exit codes: 0 built, 1 problems found (nothing written), 2 could not run or write.\n\nExample:\n  carta build kingdoms --paper a4 --duplex short"
    )]
    Build {
        /// Games to build (all if none).
        games: Vec<String>,
        /// The output folder, relative to the workspace.
        #[arg(long, value_name = "DIR", default_value = "build")]
        out: PathBuf,
        /// Parse and validate every card file, ignoring (and not writing)
        /// the cache of the last build in `build/.cache/<game>.all/`.
        #[arg(long)]
        no_cache: bool,
        /// Print settings.
        #[command(flatten)]
        print: PrintArgs,
    },
    /// Keep translation files: refresh their source hashes, export and
    /// import PO files for translators.
    #[command(
        after_help = "Exit codes: see each i18n command.\n\nExample:\n  carta i18n export intrepidos --lang en -o intrepidos.en.po"
    )]
    I18n {
        /// What to do with translations.
        #[command(subcommand)]
        command: I18nCommand,
    },
    /// Check on every save and rebuild what changed; `--serve` adds a live
    /// preview in the browser.
    #[command(
        after_help = "Exit codes: runs until stopped (Ctrl-C); 2 it cannot watch the workspace or bind the port.\n\nExample:\n  carta watch --serve --open"
    )]
    Watch(WatchArgs),
    /// The deck builder in the browser: browse each game's cards, build a
    /// deck judged by the game's rules on every change, share it as a code
    /// or a link, save it into the players' folder `decks/<game>/` (apart
    /// from the game's example decks), and judge many decks for a
    /// tournament.
    #[command(
        after_help = "Exit codes: runs until stopped; 2 when no game can be served (their problems are printed first) or the address cannot be bound.\n\nExample:\n  carta serve --open"
    )]
    Serve(ServeArgs),
    /// Print a completion script for a shell to stdout.
    #[command(
        after_help = "Exit codes: 0 printed.\n\nExample:\n  mkdir -p ~/.local/share/bash-completion/completions\n  carta completions bash > ~/.local/share/bash-completion/completions/carta"
    )]
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
    /// Print carta's manual page (roff) to stdout, or write a page per
    /// command (`carta.1`, `carta-init.1`, …) into a folder.
    #[command(
        after_help = "Exit codes: 0 printed or written, 2 could not write.\n\nExample:\n  carta man --out ~/.local/share/man/man1\n  export MANPATH=\"$HOME/.local/share/man:\"   # unless ~/.local/bin is on PATH\n  man carta-init"
    )]
    Man {
        /// Write every page into this folder (created if missing; a
        /// relative one is under `-C DIR`) instead of printing `carta.1`.
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
    },
    /// Write print-and-play sheets of games, or of deck files
    /// (`DIR/<game>/decks/<deck>/index.html`).
    #[command(
        after_help = "Exit codes: 0 written, 1 problems found (nothing written), 2 could not run or write.\n\nExample:\n  carta print cards/intrepidos/decks/furia-de-aries.toml"
    )]
    Print {
        /// Game ids, or deck files (`*.toml`, relative to the current directory).
        targets: Vec<String>,
        /// The output folder, relative to the workspace.
        #[arg(long, value_name = "DIR", default_value = "build")]
        out: PathBuf,
        /// Print settings.
        #[command(flatten)]
        print: PrintArgs,
        /// Do not load the sheets in Chromium to check that every card's
        /// text fits its box (`sheets::overflow` warnings).
        #[arg(long)]
        no_fit_check: bool,
        /// Print only the cards whose printed face or back differs from
        /// this version's (a git revision such as `v1.0`, or a workspace
        /// folder), into `DIR/<game>/reprint/`.
        #[arg(long, value_name = "REV")]
        changed_since: Option<String>,
        /// Write a duplex calibration sheet instead (`DIR/<game>/calibrate/`):
        /// rulers and crosshairs on front and back, to measure the back
        /// offset of a printer.
        #[arg(long, conflicts_with = "changed_since")]
        calibrate: bool,
    },
    /// Render games or deck files with headless Chromium: the sheets as a
    /// PDF, a PNG per card face and back, a Tabletop Simulator deck, a Card
    /// Game Simulator game, a Cockatrice set, an OCTGN game, a `LackeyCCG`
    /// plugin, or a print shop's upload files
    /// (`DIR/<game>/<format>/`).
    #[command(
        after_help = "Exit codes: 0 written, 1 problems found (nothing written), 2 could not run or write (no Chromium, a page that navigates away or passes its time limit).\n\nExample:\n  carta export pdf intrepidos --paper a4\n  carta export pod kingdoms --shop tgc"
    )]
    Export(ExportArgs),
    /// Check games or deck files against a print shop's rules before
    /// uploading: text and `data-carta-safe` elements outside the safe
    /// area, art too coarse for its printed size, backs that differ, and
    /// (for a CMYK shop) total ink over its limit. Writes nothing.
    #[command(
        after_help = "Exit codes: 0 no errors (warnings may be printed), 1 problems the shop rejects, 2 could not run (no Chromium, no Ghostscript for a CMYK shop).\n\nExample:\n  carta preflight intrepidos --shop dtc"
    )]
    Preflight(PreflightArgs),
}

impl Command {
    /// Whether the command runs until stopped, round after round (`watch`,
    /// `serve`), rather than once.
    #[must_use]
    pub fn runs_until_stopped(&self) -> bool {
        matches!(self, Command::Watch(_) | Command::Serve(_))
    }
}

/// What `carta export` makes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ExportFormat {
    /// The print-and-play sheets as one PDF per game or deck.
    Pdf,
    /// One PNG per card face and back.
    Png,
    /// A Tabletop Simulator saved object: deck sheets, backs and its JSON.
    Tts,
    /// A Card Game Simulator game: `cgs.json`, its cards, decks and pictures.
    Cgs,
    /// A Cockatrice custom set (card database version 4), `.cod` decks and
    /// pictures.
    Cockatrice,
    /// An OCTGN game: its definition, set, `.o8d` decks and pictures.
    Octgn,
    /// A `LackeyCCG` plugin: its `plugininfo.txt`, card data, `.dek` decks
    /// and pictures.
    Lackey,
    /// A print shop's upload files (`--shop`): images or a PDF/X at the
    /// shop's sizes, with a README of the upload steps.
    Pod,
}

/// The `carta i18n` commands.
#[derive(Debug, Subcommand)]
pub enum I18nCommand {
    /// Record the current source text's hash in every translation entry of
    /// the game (after reviewing the translations `check` calls stale).
    #[command(
        after_help = "Exit codes: 0 written or already current, 1 problems found (nothing written), 2 could not run or write.\n\nExample:\n  carta i18n update intrepidos --lang en"
    )]
    Update {
        /// The game.
        game: String,
        /// Only this language.
        #[arg(long)]
        lang: Option<String>,
    },
    /// Write the game's strings in a language as a PO file (stdout by default).
    #[command(
        after_help = "Exit codes: 0 written, 1 problems found, 2 could not run or write.\n\nExample:\n  carta i18n export zodiacos --lang en -o zodiacos.en.po"
    )]
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
    #[command(
        after_help = "Exit codes: 0 imported or nothing to import, 1 problems found (nothing written), 2 could not run or write.\n\nExample:\n  carta i18n import zodiacos zodiacos.en.po"
    )]
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
#[allow(clippy::struct_excessive_bools)] // each a switch of the command line
pub struct PrintArgs {
    /// Print sheets in this language (repeatable; `sheets/<lang>/`; an
    /// export: only these, each as `<stem>.<lang>`): the game's own or one
    /// of its translations.
    #[arg(long = "lang", value_name = "LANG")]
    pub languages: Vec<String>,
    /// The paper: a4, letter, a3, tabloid, legal, or a size in mm
    /// (`210x297mm`).
    #[arg(long, value_name = "PAPER", value_parser = Paper::parse)]
    pub paper: Option<Paper>,
    /// The cutting guides: crop marks in the margins, or full-length cut
    /// lines across the page for a guillotine or a cutting machine.
    #[arg(long, value_enum, value_name = "KIND")]
    pub cut_lines: Option<CutLines>,
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
    /// Lay the pages out for a cutting machine's print-then-cut workflow
    /// (its registration marks, Letter or A4) and write its cut file
    /// beside the sheets or the PDF.
    #[arg(long, value_enum, value_name = "MACHINE")]
    pub cutter: Option<Cutter>,
    /// Move every back X mm right and Y mm down, as seen from the front of
    /// the sheet, to correct a printer that shifts its backs (`-1.5,0`).
    #[arg(long, value_name = "X,Y", value_parser = parse_offset, allow_hyphen_values = true)]
    pub back_offset: Option<(f64, f64)>,
    /// Leave the cutting guides off the backs pages.
    #[arg(long)]
    pub bare_backs: bool,
}

/// Reads `--back-offset`: two lengths in mm, `X,Y`, each within ±20.
fn parse_offset(text: &str) -> Result<(f64, f64), String> {
    let bad =
        || format!("`{text}` is not an offset: use X,Y in mm, such as -1.5,0 (each within ±20)");
    let (x, y) = text.split_once(',').ok_or_else(bad)?;
    let side = |s: &str| {
        s.trim()
            .parse::<f64>()
            .ok()
            .filter(|v| v.abs() <= 20.0)
            .ok_or_else(bad)
    };
    Ok((side(x)?, side(y)?))
}

impl PrintArgs {
    pub(super) fn options(&self) -> SheetOptions {
        SheetOptions {
            paper: self.paper,
            cut_lines: self.cut_lines,
            orientation: match (self.landscape, self.portrait) {
                (true, _) => Some(Orientation::Landscape),
                (_, true) => Some(Orientation::Portrait),
                _ => None,
            },
            duplex: self.duplex,
            ink_saver: self.ink_saver.then_some(true),
            cutter: self.cutter,
            back_offset: self.back_offset,
            bare_backs: self.bare_backs,
        }
    }
}

/// The `carta deck` commands.
#[derive(Debug, Subcommand)]
pub enum DeckCommand {
    /// Check the legality of each deck file against its game's rules.
    #[command(
        after_help = "Exit codes: 0 every deck legal, 1 any deck illegal, 2 could not run.\n\nExample:\n  carta deck check --explain cards/kingdoms/decks/*.toml\n  carta deck check --event submissions.txt --game intrepidos --csv > verdicts.csv"
    )]
    Check {
        /// Deck files (TOML), relative to the current directory.
        #[arg(required_unless_present = "event", conflicts_with = "event")]
        files: Vec<PathBuf>,
        /// Also show how each deck fares against every rule, legal or not.
        #[arg(long, conflicts_with = "event")]
        explain: bool,
        /// The player's collection (`game`, `[cards]` id = copies owned) to
        /// hold each deck against: its missing copies are warnings. Without
        /// it, a `collection.toml` among FILES, or the game's
        /// `decks/<game>/collection.toml`.
        #[arg(long, value_name = "FILE", conflicts_with = "event")]
        collection: Option<PathBuf>,
        /// Judge an event's submissions: a folder of deck files, or a file
        /// of deck codes or share links (a `player: CODE` line names the
        /// player), printed as the organisers' table (in submission order).
        #[arg(long, value_name = "PATH")]
        event: Option<PathBuf>,
        /// The game every deck of the event must be of.
        #[arg(long, requires = "event")]
        game: Option<String>,
        /// The format every deck of the event is judged by (with `--game`).
        #[arg(long, requires = "game")]
        format: Option<String>,
        /// Print the event's table as CSV (the organisers' page's columns).
        #[arg(long, requires = "event")]
        csv: bool,
    },
    /// Print a short, shareable code for a deck file.
    #[command(
        after_help = "Exit codes: 0 printed, 1 the deck has problems, 2 could not run.\n\nExample:\n  carta deck code cards/intrepidos/decks/furia-de-aries.toml"
    )]
    Code {
        /// The deck file, relative to the current directory.
        file: PathBuf,
    },
    /// The odds of drawing at least K cards of a group by a turn, from the
    /// zone the game draws hands from (`[play]` in `game.toml`).
    #[command(
        after_help = "Exit codes: 0 printed, 1 the deck names what its game lacks, 2 could not run (a group, hand or turn the game does not take).\n\nExample:\n  carta deck odds cards/kingdoms/decks/aurora-de-valaria.toml --group kind=action --at-least 2 --by-turn 3"
    )]
    Odds {
        /// The deck file, relative to the current directory.
        file: PathBuf,
        /// The group: `id=CARD`, `kind=KIND`, `FIELD=VALUE` of an enum
        /// field, or a boolean `FIELD` (`FIELD=false`: the cards without it).
        #[arg(long, value_name = "GROUP")]
        group: String,
        /// At least this many cards of the group.
        #[arg(long, value_name = "K", default_value_t = 1)]
        at_least: u32,
        /// By this turn (1: the opening hand alone).
        #[arg(long, value_name = "T", default_value_t = 1)]
        by_turn: u32,
        /// The opening hand (default: the game's `[play] opening-hand`).
        #[arg(long, value_name = "N")]
        hand: Option<u32>,
        /// The cards drawn each turn after the first (default: the game's
        /// `[play] draws-per-turn`, else 1).
        #[arg(long, value_name = "N")]
        draws: Option<u32>,
    },
    /// Print the deck file a code stands for.
    #[command(
        after_help = "Exit codes: 0 printed, 1 a bad or stale code, 2 could not run.\n\nExample:\n  carta deck decode \"$(carta deck code cards/intrepidos/decks/furia-de-aries.toml)\""
    )]
    Decode {
        /// The code, as `carta deck code` printed it.
        code: String,
    },
    /// Print deck files as text deck lists (a heading per zone, `3 Card
    /// Name` lines), or as a printable tournament decklist.
    #[command(
        after_help = "Exit codes: 0 printed, 1 a deck names what its game lacks or the output exists (nothing written), 2 could not run or write.\n\nExample:\n  carta deck export cards/kingdoms/decks/aurora-de-valaria.toml\n  carta deck export --decklist -o decklists.html cards/kingdoms/decks/*.toml"
    )]
    Export {
        /// Deck files (TOML) of one game, relative to the current directory.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Name cards by their name (an id where two share a name) or id.
        #[arg(long, value_enum, default_value = "name")]
        by: ListBy,
        /// Write the printable decklist (HTML, a page per deck) instead.
        #[arg(long, conflicts_with = "by")]
        decklist: bool,
        /// The file to write, relative to the current directory, its
        /// folder created if missing (default: stdout).
        #[arg(short, long, value_name = "FILE")]
        out: Option<PathBuf>,
        /// Replace the output file when it exists.
        #[arg(long)]
        force: bool,
    },
    /// Read a text deck list (names or ids) into a deck file.
    #[command(
        after_help = "Exit codes: 0 printed or written, 1 an unknown card, zone or format (nothing written), 2 could not run or write.\n\nExample:\n  carta deck import aurora.txt --game kingdoms -o decks/kingdoms/aurora.toml"
    )]
    Import {
        /// The list (text), relative to the current directory.
        list: PathBuf,
        /// The game (default: the list's `Game:` line).
        #[arg(long)]
        game: Option<String>,
        /// The deck file to write, relative to the current directory, its
        /// folder created if missing (default: stdout).
        #[arg(short, long, value_name = "FILE")]
        out: Option<PathBuf>,
        /// Replace the output file when it exists.
        #[arg(long)]
        force: bool,
    },
}

/// How a text deck list names its cards.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ListBy {
    /// By the card's name, as the game prints it.
    Name,
    /// By the card's id.
    Id,
}

/// The options of `carta watch`.
#[derive(Debug, Args)]
pub struct WatchArgs {
    /// Games to watch (all if none).
    pub games: Vec<String>,
    /// The output folder, relative to the workspace.
    #[arg(long, value_name = "DIR", default_value = "build")]
    pub out: PathBuf,
    /// Serve a live preview (sheets, decks, diagnostics) that reloads on every save.
    #[arg(long)]
    pub serve: bool,
    /// The preview's port (0: any free port).
    #[arg(long, value_name = "N", default_value_t = 7878, requires = "serve")]
    pub port: u16,
    /// The address to listen on, as `serve --host`; the default serves this
    /// machine only. (`--bind` is its former name.)
    #[arg(
        long,
        alias = "bind",
        value_name = "IP",
        default_value = "127.0.0.1",
        requires = "serve"
    )]
    pub host: std::net::IpAddr,
    /// Open the preview in the default browser.
    #[arg(long, requires = "serve")]
    pub open: bool,
    /// Print settings.
    #[command(flatten)]
    pub print: PrintArgs,
}

/// The options of `carta serve`.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Games to serve (all if none).
    pub games: Vec<String>,
    /// The port (0: any free port).
    #[arg(long, value_name = "N", default_value_t = 7878)]
    pub port: u16,
    /// The address to listen on. The default serves this machine only;
    /// another address (such as `0.0.0.0`) lets anyone on the network
    /// browse the cards and save deck files into the workspace.
    #[arg(long, value_name = "IP", default_value = "127.0.0.1")]
    pub host: std::net::IpAddr,
    /// Open the builder in the default browser.
    #[arg(long)]
    pub open: bool,
    /// The pages' language (`en`, `pt-BR`, `es`) when a page asks for
    /// none; the default is each game's own language. Cards show in it
    /// where the game ships a translation into it.
    #[arg(long, value_name = "LANG")]
    pub ui_lang: Option<String>,
    /// Show the cards in this language, where a game ships a translation
    /// into it, whatever the page's language (the default follows it).
    #[arg(long = "lang", value_name = "LANG")]
    pub cards_lang: Option<String>,
}

/// The options of `carta export`.
#[derive(Debug, Args)]
pub struct ExportArgs {
    /// What to make.
    #[arg(value_enum)]
    pub format: ExportFormat,
    /// Game ids, or deck files (`*.toml`, relative to the current directory).
    pub targets: Vec<String>,
    /// The output folder, relative to the workspace.
    #[arg(long, value_name = "DIR", default_value = "build")]
    pub out: PathBuf,
    /// Pixels per inch of the card images (png, tts).
    #[arg(long, value_name = "N", default_value_t = 300, value_parser = clap::value_parser!(u32).range(30..=1200))]
    pub dpi: u32,
    /// Include the bleed around each card image (png, tts).
    #[arg(long)]
    pub bleed: bool,
    /// The `http(s)` folder the images will be uploaded to (tts, cgs,
    /// cockatrice): the
    /// export names them by this URL instead of by their path on this
    /// machine, so everyone at the table can load them.
    #[arg(long, value_name = "URL", value_parser = base_url)]
    pub base_url: Option<String>,
    /// The print shop whose upload files to write (pod).
    #[arg(long, value_enum, required_if_eq("format", "pod"))]
    pub shop: Option<crate::emit::pod::Shop>,
    /// Print settings (pdf).
    #[command(flatten)]
    pub print: PrintArgs,
    /// Only the cards whose printed face or back differs from this
    /// version's (a git revision such as `v1.0`, or a workspace folder),
    /// as `<game>.reprint` (pdf, png, pod).
    #[arg(long, value_name = "REV")]
    pub changed_since: Option<String>,
}

/// The options of `carta preflight`.
#[derive(Debug, Args)]
pub struct PreflightArgs {
    /// Game ids, or deck files (`*.toml`, relative to the current directory).
    pub targets: Vec<String>,
    /// The print shop whose rules to check against.
    #[arg(long, value_enum)]
    pub shop: crate::emit::pod::Shop,
    /// Check the cards as translated into this language (`en`, `es`);
    /// repeat for several. The default is the game's own language.
    #[arg(long = "lang", value_name = "LANG")]
    pub languages: Vec<String>,
}

/// What `carta convert` is given.
#[derive(Debug, Args)]
pub struct ConvertArgs {
    /// A game folder (`cards/<game>`) or a card file in it, of the workspace,
    /// relative to the current directory.
    pub path: String,
    /// The form to write.
    #[arg(long, value_enum)]
    pub to: ConvertTo,
    /// The file to write, relative to the workspace (default: beside a
    /// file, with the new extension; `<game>.<ext>` for a game).
    #[arg(short, long, value_name = "FILE")]
    pub out: Option<String>,
    /// Replace the output file when it exists.
    #[arg(long)]
    pub force: bool,
}

/// `--base-url`, checked and ending in `/`.
fn base_url(url: &str) -> Result<String, String> {
    crate::emit::images::base_url(url)
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::Cli;

    fn until_stopped(line: &str) -> bool {
        let cli = Cli::try_parse_from(line.split_whitespace()).expect("a valid command line");
        cli.command.runs_until_stopped()
    }

    #[test]
    fn only_watch_and_serve_run_until_stopped() {
        assert!(until_stopped("carta watch --serve"));
        assert!(until_stopped("carta -C ws watch intrepidos"));
        assert!(until_stopped("carta serve --open"));
        for once in [
            "carta check",
            "carta build --no-cache",
            "carta print intrepidos",
            "carta deck check d.toml",
        ] {
            assert!(!until_stopped(once), "{once}");
        }
    }
}
