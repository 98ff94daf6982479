//! From a parsed command line to its module in `commands`: the exit code,
//! usage errors as diagnostics, completions and manual pages.

use std::path::Path;

use clap::Parser;

use super::args::{
    Cli, Color, Command, ConvertArgs, ConvertTo, DeckCommand, DiffArgs, DiffFormat, ExportArgs,
    ExportFormat, Global, I18nCommand, ListBy, MessageFormat, PreflightArgs, PrintArgs, ServeArgs,
    WatchArgs,
};
use crate::commands::{self, ColorChoice, CommandError, Output, Report};
use crate::decklist::NameBy;
use crate::diag::Format;

/// Parses the command line: the command to [`run`], or the exit code of
/// a line that does not parse, once its error is printed. A usage error
/// under `--message-format json` is one JSON object on stdout
/// (`cli::usage`, exit 2), as every other error that stops a command;
/// help and version stay clap's text (and exit here), and so does a usage
/// error in human output.
///
/// # Errors
/// The exit code when the line does not parse.
pub fn parse(args: &[std::ffi::OsString]) -> Result<Cli, u8> {
    match Cli::try_parse_from(args) {
        Ok(cli) => Ok(cli),
        Err(e) if e.use_stderr() && wants_json(&args[1.min(args.len())..]) => {
            Err(Output::new(Format::Json, ColorChoice::Never, false, false).finish(Err(usage(&e))))
        }
        Err(e) => e.exit(),
    }
}

/// The environment variable that turns carta's log on (`CARTA_LOG=debug`):
/// `tracing`'s filter syntax, written to stderr.
const LOG: &str = "CARTA_LOG";

/// Sends carta's log to stderr when `CARTA_LOG` asks for it (`debug`:
/// what each cache answered, or why it declined). stdout, and with it
/// `--message-format json`, is untouched; without the variable nothing is
/// logged and the log costs nothing.
fn log_from_env() {
    let Some(filter) = std::env::var_os(LOG) else {
        return;
    };
    let filter = tracing_subscriber::EnvFilter::builder().parse_lossy(filter.to_string_lossy());
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(false)
        .with_timer(tracing_subscriber::fmt::time::uptime())
        .try_init();
}

/// Whether the arguments ask for JSON diagnostics, read by hand because
/// clap could not parse them: the last `--message-format` before `--` wins.
fn wants_json(args: &[std::ffi::OsString]) -> bool {
    let mut json = false;
    let mut words = args.iter().map(|a| a.to_str().unwrap_or(""));
    while let Some(word) = words.next() {
        match word {
            "--" => break,
            "--message-format" => json = words.next() == Some("json"),
            _ => {
                if let Some(value) = word.strip_prefix("--message-format=") {
                    json = value == "json";
                }
            }
        }
    }
    json
}

/// clap's error as carta's: its first line the message, its tip and usage
/// line the help. A missing subcommand, which clap answers with the whole
/// help, keeps only the usage line.
fn usage(e: &clap::Error) -> CommandError {
    let text = e.render().to_string();
    let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty());
    let missing = e.kind() == clap::error::ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand;
    let message = if missing {
        "a command is needed".to_owned()
    } else {
        let first = lines.next().unwrap_or_default();
        first.strip_prefix("error: ").unwrap_or(first).to_owned()
    };
    let help: Vec<&str> = lines
        .filter(|l| !missing || l.starts_with("Usage:"))
        .map(|l| l.strip_prefix("tip: ").unwrap_or(l))
        .collect();
    CommandError::Usage {
        message,
        help: help.join("\n"),
    }
}

/// Runs a parsed command line and returns the process exit code:
/// 0 clean, 1 problems found, 2 the command could not run.
#[allow(clippy::needless_pass_by_value)] // `main` hands over the parsed line
pub fn run(cli: Cli) -> u8 {
    log_from_env();
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
    let result = match &cli.command {
        Command::Completions { shell } => return completions(*shell),
        Command::Man { out: None } => return print_all(&man_page(&manual()[0])),
        Command::Man { out: Some(out) } => man_pages(&g.dir.join(out)),
        Command::Watch(args) => watch(g, args, &output),
        Command::Serve(args) => serve(g, args, &output),
        Command::Export(args) => export(g, args),
        Command::Preflight(args) => preflight(g, args),
        command => dispatch(g, command, &output),
    };
    output.finish(result)
}

/// `carta convert`, its form mapped to the command's.
fn convert(root: &Path, args: &ConvertArgs) -> Result<Report, CommandError> {
    let to = match args.to {
        ConvertTo::Xlsx => commands::convert::Form::Xlsx,
        ConvertTo::Ods => commands::convert::Form::Ods,
        ConvertTo::Csv => commands::convert::Form::Csv,
        ConvertTo::Toml => commands::convert::Form::Toml,
    };
    commands::convert::run(root, &args.path, to, args.out.as_deref(), args.force)
}

/// `carta deck …`, dispatched.
/// `carta deck odds`: the question as the play module takes it.
fn deck_odds(root: &Path, command: &DeckCommand, output: &Output) -> Result<Report, CommandError> {
    let DeckCommand::Odds {
        file,
        group,
        at_least,
        by_turn,
        hand,
        draws,
    } = command
    else {
        unreachable!("deck_odds is called for `deck odds` only")
    };
    let question = crate::play::Question {
        at_least: *at_least,
        by_turn: *by_turn,
        hand: *hand,
        draws: *draws,
    };
    commands::deck::odds(root, file, group, question, output.is_json())
}

fn deck(root: &Path, command: &DeckCommand, output: &Output) -> Result<Report, CommandError> {
    match command {
        DeckCommand::Check {
            event: Some(path),
            game,
            format,
            csv,
            ..
        } => {
            let event = crate::event::Requirements {
                game: game.clone(),
                format: format.clone(),
            };
            commands::event::check(root, path, &event, *csv)
        }
        DeckCommand::Check {
            files,
            explain,
            collection,
            event: None,
            ..
        } => commands::deck::check(
            root,
            files,
            collection.as_deref(),
            (*explain, output.is_json()),
        ),
        DeckCommand::Code { file } => commands::deck::code(root, file),
        DeckCommand::Decode { code } => commands::deck::decode(root, code),
        DeckCommand::Odds { .. } => deck_odds(root, command, output),
        DeckCommand::Export {
            files,
            by,
            decklist,
            out,
            force,
        } => {
            let what = match (decklist, by) {
                (true, _) => commands::lists::Export::Decklist,
                (false, ListBy::Name) => commands::lists::Export::List(NameBy::Name),
                (false, ListBy::Id) => commands::lists::Export::List(NameBy::Id),
            };
            commands::lists::export(root, files, what, (out.as_deref(), *force))
        }
        DeckCommand::Import {
            list,
            game,
            out,
            force,
        } => commands::lists::import(root, list, game.as_deref(), (out.as_deref(), *force)),
    }
}

/// `carta print`: the sheets of `targets` into `out`, checking that their
/// text fits when `fit_check`; with `calibrate`, the duplex calibration
/// sheet of their games instead.
fn print_sheets(
    root: &Path,
    (targets, out, print): (&[String], &Path, &PrintArgs),
    (fit_check, calibrate, changed_since): (bool, bool, Option<&str>),
) -> Result<Report, CommandError> {
    if calibrate {
        return commands::print::calibrate(root, targets, out, print.options());
    }
    commands::print::run(
        root,
        targets,
        out,
        (print.options(), &print.languages),
        (fit_check, changed_since),
    )
}

/// `carta diff`: the versions and the form of its output.
fn diff(root: &Path, args: &DiffArgs, output: &Output) -> Result<Report, CommandError> {
    use commands::diff::{Form, Request};
    let form = match (output.is_json(), args.format) {
        (true, _) => Form::Json,
        (false, DiffFormat::Markdown) => Form::Markdown,
        (false, DiffFormat::Human) => {
            Form::Human(crate::history::Style::new(output.color_stdout()))
        }
    };
    commands::diff::run(
        root,
        &Request {
            old: args.old.as_deref(),
            new: args.new.as_deref(),
            games: &args.games,
            decks: &args.decks,
            event: args.event.as_deref(),
            form,
        },
    )
}

/// The commands that run once and report.
fn dispatch(g: &Global, command: &Command, output: &Output) -> Result<Report, CommandError> {
    let root = &g.dir;
    match command {
        Command::Init { path, game, name } => {
            commands::init::run(&root.join(path), game.as_deref(), name.as_deref(), !g.quiet)
        }
        Command::Check { games, no_cache } => commands::check::run(root, games, *no_cache),
        Command::Convert(args) => convert(root, args),
        Command::Decompile { bundle } => commands::bundle::show(root, bundle, false),
        Command::Inspect { bundle } => commands::bundle::show(root, bundle, true),
        Command::Deck { command } => deck(root, command, output),
        Command::Diff(args) => diff(root, args, output),
        Command::Build {
            games,
            out,
            no_cache,
            print,
        } => commands::build::run(
            root,
            games,
            &commands::build::Target {
                out: &root.join(out),
                sheets: print.options(),
                languages: &print.languages,
            },
            !no_cache,
            !output.is_json() && !g.quiet,
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
            no_fit_check,
            calibrate,
            changed_since,
        } => print_sheets(
            root,
            (targets, &root.join(out), print),
            (!no_fit_check, *calibrate, changed_since.as_deref()),
        ),
        Command::Completions { .. }
        | Command::Man { .. }
        | Command::Watch(_)
        | Command::Serve(_)
        | Command::Export(_)
        | Command::Preflight(_) => unreachable!("run handles these itself"),
    }
}

/// `carta watch`: a report each round, until stopped.
fn watch(g: &Global, args: &WatchArgs, output: &Output) -> Result<Report, CommandError> {
    let options = commands::watch::WatchOptions {
        games: args.games.clone(),
        out: g.dir.join(&args.out),
        sheets: args.print.options(),
        serve: args
            .serve
            .then(|| std::net::SocketAddr::new(args.host, args.port)),
        open: args.open,
        verbose: g.verbose,
    };
    let mut show = |report| {
        output.finish(Ok(report));
    };
    stopped(
        commands::watch::watch(&g.dir, &options, &mut show),
        "stopped watching",
    )
}

/// `carta serve`: a report each round, until stopped.
fn serve(g: &Global, args: &ServeArgs, output: &Output) -> Result<Report, CommandError> {
    let options = commands::serve::ServeOptions {
        games: args.games.clone(),
        addr: std::net::SocketAddr::new(args.host, args.port),
        open: args.open,
        out: g.dir.join("build"),
        ui_lang: args.ui_lang.clone(),
        cards_lang: args.cards_lang.clone(),
    };
    let mut show = |report| {
        output.finish(Ok(report));
    };
    stopped(
        commands::serve::serve(&g.dir, &options, &mut show),
        "stopped serving",
    )
}

/// The last report of a command that ran until stopped.
fn stopped(
    ran: Result<(), Box<dyn std::error::Error>>,
    summary: &str,
) -> Result<Report, CommandError> {
    ran.map(|()| Report::plain(summary))
        .map_err(|e| CommandError::Watch(e.to_string()))
}

/// `carta export FORMAT`.
fn export(g: &Global, args: &ExportArgs) -> Result<Report, CommandError> {
    let format = match args.format {
        ExportFormat::Pdf => commands::export::Format::Pdf,
        ExportFormat::Png => commands::export::Format::Png,
        ExportFormat::Tts => commands::export::Format::Tts,
        ExportFormat::Cgs => commands::export::Format::Cgs,
        ExportFormat::Cockatrice => commands::export::Format::Cockatrice,
        ExportFormat::Octgn => commands::export::Format::Octgn,
        ExportFormat::Lackey => commands::export::Format::Lackey,
        ExportFormat::Pod => match args.shop {
            Some(shop) => commands::export::Format::Pod(shop),
            None => unreachable!("clap requires --shop with pod"),
        },
    };
    let options = crate::emit::cards::ExportOptions {
        dpi: args.dpi,
        bleed: args.bleed,
        base_url: args.base_url.clone(),
        ..Default::default()
    };
    commands::export::run(
        &g.dir,
        (format, &args.targets),
        &g.dir.join(&args.out),
        (args.print.options(), &args.print.languages),
        (&options, args.changed_since.as_deref()),
    )
}

/// `carta preflight --shop SHOP`: `export pod`'s checks, nothing written.
fn preflight(g: &Global, args: &PreflightArgs) -> Result<Report, CommandError> {
    let options = crate::emit::cards::ExportOptions::default();
    commands::export::run(
        &g.dir,
        (
            commands::export::Format::Preflight(args.shop),
            &args.targets,
        ),
        &g.dir.join("build"),
        (
            crate::emit::sheets::SheetOptions::default(),
            &args.languages,
        ),
        (&options, None),
    )
}

/// `carta completions SHELL`: the completion script, from the clap types.
fn completions(shell: clap_complete::Shell) -> u8 {
    let mut cmd = <Cli as clap::CommandFactory>::command();
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut cmd, "carta", &mut script);
    print_all(&script)
}

/// `carta man --out DIR`: every page, written into `out`.
fn man_pages(out: &std::path::Path) -> Result<Report, CommandError> {
    let pages: Vec<(String, Vec<u8>)> = manual()
        .iter()
        .map(|cmd| {
            let man = clap_mangen::Man::new(cmd.clone());
            (man.get_filename(), man_page(cmd))
        })
        .collect();
    commands::man::write(out, &pages)
}

/// The commands with a manual page: carta first, then every visible
/// subcommand at any depth (`carta-deck-code`), each with the synopsis clap
/// prints in `--help` (`carta init [OPTIONS] [DIR]`). `clap_mangen`'s own
/// synopsis drops the value of an option without a long name (`[-C ]`).
fn manual() -> Vec<clap::Command> {
    fn walk(cmd: &clap::Command, pages: &mut Vec<clap::Command>) {
        let mut page = cmd.clone();
        let usage = page.render_usage().to_string();
        let usage = usage.strip_prefix("Usage: ").unwrap_or(&usage).to_owned();
        pages.push(page.override_usage(usage));
        for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
            walk(sub, pages);
        }
    }
    // As `clap_mangen::generate_to`: no `help` subcommand to list, and the
    // names (`carta-init`) set by building the whole tree.
    let mut cmd = <Cli as clap::CommandFactory>::command().disable_help_subcommand(true);
    cmd.build();
    let mut pages = Vec::new();
    walk(&cmd, &mut pages);
    pages
}

/// A command's manual page (roff).
fn man_page(cmd: &clap::Command) -> Vec<u8> {
    let mut page = Vec::new();
    // The footer names carta, not the subcommand (`code 0.1.0`).
    clap_mangen::Man::new(cmd.clone())
        .source(concat!("carta ", env!("CARGO_PKG_VERSION")))
        .render(&mut page)
        .expect("rendering into memory does not fail");
    page
}

fn print_all(bytes: &[u8]) -> u8 {
    // A closed pipe (`| head`) is not an error worth reporting.
    let _ = std::io::Write::write_all(&mut std::io::stdout().lock(), bytes);
    0
}
