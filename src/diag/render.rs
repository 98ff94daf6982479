//! Rendering diagnostics: miette's graphical reports for people, one JSON
//! object per line for scripts (the CONTRACT's `--message-format json`).

use std::fmt;
use std::io::{self, Write};

use miette::{GraphicalReportHandler, GraphicalTheme, LabeledSpan};
use serde::Serialize;

use super::cells::{CellAt, CellMap, column_name};
use super::grid;
use super::source::SourceFile;
use super::text::{MAX_MESSAGE, clip_to, escape_controls};
use super::window::Window;
use super::{Diagnostic, Label, Severity, SourceMap, Span};

/// The cell a span of a spreadsheet's shadow text stands for.
fn cell_of<'f>(file: &'f SourceFile, span: &Span) -> Option<(&'f CellMap, CellAt)> {
    let map = file.cells.as_deref()?;
    Some((map, map.cell_of(span.start)?))
}

/// The output format of diagnostics.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// miette's graphical reports, on stderr.
    Human,
    /// One JSON object per line, on stdout.
    Json,
}

/// Writes diagnostics in the chosen format.
#[derive(Debug, Clone)]
pub struct Renderer {
    format: Format,
    color: bool,
    width: usize,
}

impl Renderer {
    /// A renderer; `width` is the terminal width human reports wrap at.
    pub fn new(format: Format, color: bool, width: usize) -> Self {
        Renderer {
            format,
            color,
            width,
        }
    }

    /// Renders one diagnostic to a string (a report, or one JSON line).
    pub fn render(&self, diagnostic: &Diagnostic, sources: &SourceMap) -> String {
        match self.format {
            Format::Human => {
                let theme = if self.color {
                    GraphicalTheme::unicode()
                } else {
                    GraphicalTheme::unicode_nocolor()
                };
                let handler = GraphicalReportHandler::new_themed(theme).with_width(self.width);
                let mut out = String::new();
                let mut report = MietteReport::new(diagnostic, sources);
                // A cell is drawn by carta, after miette's report and
                // before the help, as miette places a snippet.
                let grid = report.grid.take();
                let help = grid.as_ref().and_then(|_| report.help.take());
                if handler.render_report(&mut out, &report).is_err() {
                    out = format!("{}: {}\n", diagnostic.code, report.message);
                }
                if let Some(grid) = grid {
                    out.push_str(&grid);
                    if let Some(help) = help {
                        out.push_str(&format!("  help: {help}\n"));
                    }
                }
                out.push('\n');
                out
            }
            Format::Json => {
                let mut line = serde_json::to_string(&JsonDiagnostic::new(diagnostic, sources))
                    .expect("diagnostics serialize");
                line.push('\n');
                line
            }
        }
    }

    /// Writes every diagnostic to its stream: stderr for human reports, stdout for JSON.
    ///
    /// # Errors
    /// When the stream cannot be written.
    pub fn emit(&self, diagnostics: &[Diagnostic], sources: &SourceMap) -> io::Result<()> {
        let mut buf = String::new();
        for d in diagnostics {
            buf.push_str(&self.render(d, sources));
        }
        match self.format {
            Format::Human => io::stderr().lock().write_all(buf.as_bytes()),
            Format::Json => io::stdout().lock().write_all(buf.as_bytes()),
        }
    }
}

/// The JSON form of a diagnostic, field for field as the CONTRACT fixes it.
#[derive(Serialize)]
struct JsonDiagnostic<'a> {
    severity: &'static str,
    code: &'static str,
    message: &'a str,
    file: Option<&'a str>,
    line: Option<usize>,
    column: Option<usize>,
    end_line: Option<usize>,
    end_column: Option<usize>,
    /// In a spreadsheet: the sheet (absent for a CSV file).
    #[serde(skip_serializing_if = "Option::is_none")]
    sheet: Option<&'a str>,
    /// In a spreadsheet: the cell, as `D14`.
    #[serde(skip_serializing_if = "Option::is_none")]
    cell: Option<String>,
    help: Option<&'a str>,
    labels: Vec<JsonLabel<'a>>,
}

#[derive(Serialize)]
struct JsonLabel<'a> {
    file: &'a str,
    line: usize,
    column: usize,
    end_line: usize,
    end_column: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    sheet: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    cell: Option<String>,
    message: &'a str,
}

impl<'a> JsonDiagnostic<'a> {
    fn new(d: &'a Diagnostic, sources: &'a SourceMap) -> Self {
        let mut primary = d.primary.as_ref().map(|l| JsonLabel::new(l, sources));
        let (sheet, cell) = primary
            .as_mut()
            .map(|p| (p.sheet, p.cell.take()))
            .unwrap_or_default();
        JsonDiagnostic {
            severity: d.severity.as_str(),
            code: d.code,
            message: &d.message,
            file: primary.as_ref().map(|p| p.file),
            line: primary.as_ref().map(|p| p.line),
            column: primary.as_ref().map(|p| p.column),
            end_line: primary.as_ref().map(|p| p.end_line),
            end_column: primary.as_ref().map(|p| p.end_column),
            sheet,
            cell,
            help: d.help.as_deref(),
            labels: d
                .labels
                .iter()
                .map(|l| JsonLabel::new(l, sources))
                .collect(),
        }
    }
}

impl<'a> JsonLabel<'a> {
    fn new(label: &'a Label, sources: &'a SourceMap) -> Self {
        let file = sources.get(label.file);
        // In a spreadsheet, line and column are the cell's row and column.
        if let Some((map, at)) = cell_of(file, &label.span) {
            let sheet = map.sheet_name(at.sheet);
            return JsonLabel {
                file: &file.name,
                line: at.row as usize,
                column: at.col as usize + 1,
                end_line: at.row as usize,
                end_column: at.col as usize + 1,
                sheet: (!sheet.is_empty()).then_some(sheet),
                cell: Some(format!("{}{}", column_name(at.col), at.row)),
                message: &label.message,
            };
        }
        let start = file.line_col(label.span.start);
        let end = file.line_col(label.span.end);
        JsonLabel {
            file: &file.name,
            line: start.line,
            column: start.column,
            end_line: end.line,
            end_column: end.column,
            sheet: None,
            cell: None,
            message: &label.message,
        }
    }
}

/// An owned miette report built from a [`Diagnostic`]: labels near the
/// primary one are drawn in one snippet, others (in other files, or far
/// away in the same file) become related reports. Each snippet shows an
/// excerpt of its file ([`Window`]), and every text is bounded and has its
/// control characters escaped.
#[derive(Debug)]
struct MietteReport {
    message: String,
    code: Option<&'static str>,
    severity: miette::Severity,
    help: Option<String>,
    source: Option<Window>,
    labels: Vec<LabeledSpan>,
    related: Vec<MietteReport>,
    /// For a diagnostic in a spreadsheet: its cell under its header, drawn.
    grid: Option<String>,
}

impl MietteReport {
    fn new(d: &Diagnostic, sources: &SourceMap) -> Self {
        let mut report = MietteReport::plain(
            &d.message,
            Some(d.code),
            match d.severity {
                Severity::Error => miette::Severity::Error,
                Severity::Warning => miette::Severity::Warning,
                Severity::Advice => miette::Severity::Advice,
            },
        );
        report.help = d.help.as_deref().map(shown);
        let Some(primary) = &d.primary else {
            return report;
        };
        let file = sources.get(primary.file);
        if file.cells.is_some() {
            let (here, elsewhere): (Vec<&Label>, Vec<&Label>) =
                d.labels.iter().partition(|l| l.file == primary.file);
            report.grid = Some(grid::draw(file, primary, &here));
            for label in elsewhere {
                report.related.push(MietteReport::related(label, sources));
            }
            return report;
        }
        let (near, far): (Vec<&Label>, Vec<&Label>) = d
            .labels
            .iter()
            .partition(|l| l.file == primary.file && Window::near(file, &l.span, &primary.span));
        let spans: Vec<&Span> = std::iter::once(primary)
            .chain(near.iter().copied())
            .map(|l| &l.span)
            .collect();
        report.source = Some(Window::new(file, &spans));
        report.place(primary, true, sources);
        for label in near {
            report.place(label, false, sources);
        }
        for label in far {
            report.related.push(MietteReport::related(label, sources));
        }
        report
    }

    /// A label far from the primary one, as a report of its own; one in a
    /// spreadsheet names its cell in its message instead of a snippet.
    fn related(label: &Label, sources: &SourceMap) -> Self {
        let file = sources.get(label.file);
        if let Some((map, at)) = cell_of(file, &label.span) {
            let message = format!("{} ({} · {})", label.message, file.name, map.name(at));
            return MietteReport::plain(&message, None, miette::Severity::Advice);
        }
        let mut related = MietteReport::plain(&label.message, None, miette::Severity::Advice);
        related.source = Some(Window::new(file, &[&label.span]));
        related.place(label, true, sources);
        related
    }

    fn plain(message: &str, code: Option<&'static str>, severity: miette::Severity) -> Self {
        MietteReport {
            message: shown(message),
            code,
            severity,
            help: None,
            source: None,
            labels: Vec::new(),
            related: Vec::new(),
            grid: None,
        }
    }

    /// Draws `label` in the excerpt made for it.
    fn place(&mut self, label: &Label, primary: bool, sources: &SourceMap) {
        let file = sources.get(label.file);
        let Some(window) = self.source.as_mut() else {
            return;
        };
        let span = window.map_span(file, &label.span);
        let text = (!label.message.is_empty()).then(|| shown(&label.message));
        self.labels.push(if primary {
            LabeledSpan::new_primary_with_span(text, span)
        } else {
            LabeledSpan::new_with_span(text, span)
        });
    }
}

/// A message, help or label as a report shows it: bounded, no control characters.
fn shown(text: &str) -> String {
    escape_controls(&clip_to(text, MAX_MESSAGE)).into_owned()
}

impl fmt::Display for MietteReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for MietteReport {}

impl miette::Diagnostic for MietteReport {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.code.map(|c| Box::new(c) as Box<dyn fmt::Display>)
    }

    fn severity(&self) -> Option<miette::Severity> {
        Some(self.severity)
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.help
            .as_ref()
            .map(|h| Box::new(h) as Box<dyn fmt::Display>)
    }

    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        self.source.as_ref().map(|s| s as &dyn miette::SourceCode)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        (!self.labels.is_empty())
            .then(|| Box::new(self.labels.iter().cloned()) as Box<dyn Iterator<Item = _>>)
    }

    fn related<'a>(&'a self) -> Option<Box<dyn Iterator<Item = &'a dyn miette::Diagnostic> + 'a>> {
        (!self.related.is_empty()).then(|| {
            Box::new(self.related.iter().map(|r| r as &dyn miette::Diagnostic))
                as Box<dyn Iterator<Item = _>>
        })
    }
}
