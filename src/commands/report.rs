//! What a command leaves behind, and how it is shown: diagnostics (human
//! or JSON), a summary line, and the exit code.

use std::io::IsTerminal;
use std::path::PathBuf;

use super::plural;
use crate::bundle::BundleError;
use crate::diag::{
    Diagnostic, Diagnostics, Format, Renderer, Severity, SourceMap, escape_controls,
};
use crate::emit::EmitError;
use crate::limits::{MAX_DIAGNOSTICS_VAR, max_diagnostics_per_file};
use crate::load::{LoadError, Workspace};

/// A command that ran: its diagnostics, the sources they point into, a
/// one-line summary (followed by the verdict, the counts of errors and
/// warnings) and the lines that detail it.
#[derive(Debug)]
pub(crate) struct Report {
    /// Every problem found.
    pub(crate) diags: Diagnostics,
    /// The files read.
    pub(crate) sources: SourceMap,
    /// What was done, such as `checked 5 games, 468 cards`.
    pub(crate) summary: String,
    /// Figures shown under the verdict, one a line (such as the
    /// translations' coverage), so none reads as the verdict's subject.
    pub(crate) details: Vec<String>,
}

impl Report {
    /// The report of a command over `ws`: with the text of every file a
    /// diagnostic points into, read back where it was not kept.
    ///
    /// # Errors
    /// When such a file cannot be read again.
    pub(crate) fn new(
        mut ws: Workspace,
        diags: Diagnostics,
        summary: impl Into<String>,
    ) -> Result<Report, LoadError> {
        ws.restore(&diags)?;
        Ok(Report {
            diags,
            sources: ws.sources,
            summary: summary.into(),
            details: Vec::new(),
        })
    }

    /// The report of a command that read no source: no diagnostics, only
    /// `summary`.
    pub(crate) fn plain(summary: impl Into<String>) -> Report {
        Report {
            diags: Diagnostics::new(),
            sources: SourceMap::new(),
            summary: summary.into(),
            details: Vec::new(),
        }
    }

    /// The report with `details` shown under its verdict line.
    pub(crate) fn with_details(mut self, details: Vec<String>) -> Report {
        self.details = details;
        self
    }
}

/// Why a command could not run.
#[derive(Debug, thiserror::Error)]
pub(crate) enum CommandError {
    /// The workspace or a file could not be read.
    #[error(transparent)]
    Load(#[from] LoadError),
    /// An output could not be written.
    #[error(transparent)]
    Emit(#[from] EmitError),
    /// `carta init` could not write the new game.
    #[error(transparent)]
    Init(#[from] super::init::InitError),
    /// `carta watch` could not watch or serve.
    #[error("{0}")]
    Watch(String),
    /// The command line could not be parsed (clap's error, when the
    /// diagnostics go out as JSON).
    #[error("{message}")]
    Usage {
        /// What is wrong, such as ``unexpected argument '--bogus' found``.
        message: String,
        /// clap's tip and the usage line.
        help: String,
    },
    /// `carta diff` could not read a git revision.
    #[error(transparent)]
    Git(#[from] crate::history::GitError),
    /// A bundle could not be read or is damaged.
    #[error("`{}`: {source}", path.display())]
    Bundle {
        /// The bundle as given on the command line.
        path: PathBuf,
        /// What is wrong with it.
        source: BundleError,
    },
}

impl CommandError {
    /// The stable code of the error in JSON output.
    pub(crate) fn code(&self) -> &'static str {
        match self {
            CommandError::Load(LoadError::NoSuchFolder(_)) => "load::no-such-folder",
            CommandError::Load(LoadError::NoSuchFile(_)) => "load::no-such-file",
            CommandError::Load(LoadError::NotAWorkspace(_)) => "load::not-a-workspace",
            CommandError::Load(LoadError::UnknownGame { .. }) => "load::unknown-game",
            CommandError::Load(LoadError::Io { .. }) => "load::io",
            CommandError::Load(LoadError::Limit(_)) => "load::limit",
            CommandError::Load(LoadError::Changed { .. }) => "load::changed",
            CommandError::Emit(EmitError::Chromium(e)) => e.code(),
            CommandError::Load(LoadError::Write(e))
            | CommandError::Emit(EmitError::Confined(e))
                if e.is_refusal() =>
            {
                e.code()
            }
            CommandError::Load(LoadError::Write(_)) | CommandError::Emit(_) => "emit::write",
            CommandError::Init(e) => e.code(),
            CommandError::Watch(_) => "watch::failed",
            CommandError::Usage { .. } => "cli::usage",
            CommandError::Git(_) => "diff::git",
            CommandError::Bundle { source, .. } if source.is_io() => "bundle::io",
            CommandError::Bundle {
                source: BundleError::TooLarge { .. },
                ..
            } => "bundle::too-large",
            CommandError::Bundle { .. } => "bundle::damaged",
        }
    }

    /// How to fix it, where carta can say.
    pub(crate) fn help(&self) -> Option<&str> {
        match self {
            CommandError::Usage { help, .. } => Some(help),
            CommandError::Load(LoadError::NoSuchFolder(_)) => {
                Some("`-C DIR` names the workspace folder; `carta init DIR` starts one")
            }
            CommandError::Load(LoadError::NoSuchFile(_)) => Some(
                "files named on the command line are relative to the current directory, not to `-C DIR`",
            ),
            CommandError::Load(LoadError::Write(e))
            | CommandError::Emit(EmitError::Confined(e)) => e.is_refusal().then(|| e.help()),
            CommandError::Init(super::init::InitError::Confined(e)) => Some(e.help()),
            _ => None,
        }
    }

    /// The exit code: 1 for a damaged bundle (a problem found in the
    /// input), 2 when the command could not run.
    pub(crate) fn exit_code(&self) -> u8 {
        match self {
            CommandError::Bundle { source, .. } if !source.is_io() => 1,
            _ => 2,
        }
    }
}

/// How diagnostics are shown in this run.
#[derive(Debug)]
pub(crate) struct Output {
    renderer: Renderer,
    color: ColorChoice,
    format: Format,
    quiet: bool,
    verbose: bool,
    max_per_file: usize,
}

/// When to color human output.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ColorChoice {
    /// When stderr is a terminal and `NO_COLOR` is unset.
    Auto,
    /// Always.
    Always,
    /// Never.
    Never,
}

impl Output {
    /// Human or JSON output; `quiet` shows errors only, `verbose` advice too.
    pub(crate) fn new(format: Format, color: ColorChoice, quiet: bool, verbose: bool) -> Self {
        let choice = color;
        let color = match color {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => {
                std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none()
            }
        };
        let width = std::env::var("COLUMNS")
            .ok()
            .and_then(|c| c.parse().ok())
            .unwrap_or(100);
        Output {
            renderer: Renderer::new(format, color, width),
            color: choice,
            format,
            quiet,
            verbose,
            // A bad value is reported when the workspace opens.
            max_per_file: max_diagnostics_per_file(),
        }
    }

    /// Whether a command's own output on stdout is coloured: as the
    /// diagnostics are, asked of stdout rather than stderr.
    pub(crate) fn color_stdout(&self) -> bool {
        match self.color {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => {
                std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none()
            }
        }
    }

    /// Whether diagnostics go out as JSON lines.
    pub(crate) fn is_json(&self) -> bool {
        self.format == Format::Json
    }

    /// Shows what a command returned and gives its exit code: 0 clean,
    /// 1 problems found, 2 the command could not run.
    pub(crate) fn finish(&self, result: Result<Report, CommandError>) -> u8 {
        match result {
            Ok(report) => self.show(report),
            Err(e) => {
                let message = e.to_string();
                if self.format == Format::Json {
                    // One JSON object, as for every other error.
                    let mut d = Diagnostic::error(e.code(), message);
                    if let Some(help) = e.help() {
                        d = d.with_help(help);
                    }
                    let _ = self.renderer.emit(&[d], &SourceMap::new());
                } else {
                    eprintln!("error: {}", escape_controls(&message));
                    if let Some(help) = e.help() {
                        eprintln!("  help: {help}");
                    }
                }
                e.exit_code()
            }
        }
    }

    /// Prints the diagnostics and a summary; the exit code follows the errors.
    fn show(&self, report: Report) -> u8 {
        let errors = report.diags.error_count();
        let code = u8::from(errors > 0);
        let raise = format!("{MAX_DIAGNOSTICS_VAR}=<n>");
        let all = report.diags.into_capped(self.max_per_file, &raise);
        let warnings = all
            .iter()
            .filter(|d| d.severity == Severity::Warning)
            .count();
        let shown: Vec<Diagnostic> = all
            .into_iter()
            .filter(|d| match d.severity {
                Severity::Error => true,
                Severity::Warning => !self.quiet,
                Severity::Advice => {
                    self.verbose
                        || matches!(
                            d.code,
                            "deck::tally" | "diag::truncated" | "export::tts-dpi"
                        )
                }
            })
            .collect();
        if self.renderer.emit(&shown, &report.sources).is_err() {
            // stdout closed (a pipe to `head`): nothing more to say.
            return code;
        }
        if self.format == Format::Human && !self.quiet && !report.summary.is_empty() {
            eprintln!(
                "{}: {errors} error{}, {warnings} warning{}",
                escape_controls(&report.summary),
                plural(errors),
                plural(warnings)
            );
            for line in &report.details {
                eprintln!("{}", escape_controls(line));
            }
        }
        code
    }
}
