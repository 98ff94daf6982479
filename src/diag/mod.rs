//! Diagnostics: what every stage reports, and where.
//!
//! A stage pushes [`Diagnostic`]s into a [`Diagnostics`] sink and carries on, so
//! one run reports every problem it can find. A diagnostic names its place by
//! [`FileId`] and byte span; the [`SourceMap`] turns those into file names,
//! lines and columns when the diagnostics are rendered (`render`).

mod render;
mod source;
mod text;
mod window;

pub use render::{Format, Renderer};
pub use source::{FileId, LineCol, SourceFile, SourceMap};
pub use text::{clip, escape_controls};

use std::ops::Range;

/// A byte range in one source file.
pub type Span = Range<usize>;

/// How bad a diagnostic is. Only errors make a command fail.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    /// Something that is wrong: the command exits 1.
    Error,
    /// Something that is suspect but allowed.
    Warning,
    /// Information, such as a rule tally.
    Advice,
}

impl Severity {
    /// The lowercase name used in JSON output.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Advice => "advice",
        }
    }
}

/// A place in a source file with a short message about it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Label {
    /// The file the span points into.
    pub file: FileId,
    /// Byte range of the labelled text.
    pub span: Span,
    /// What this place has to do with the diagnostic (may be empty).
    pub message: String,
}

impl Label {
    /// A label at `span` of `file`.
    pub fn new(file: FileId, span: Span, message: impl Into<String>) -> Self {
        Label {
            file,
            span,
            message: message.into(),
        }
    }
}

/// One problem found in the sources, with its stable code and its places.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// Error, warning or advice.
    pub severity: Severity,
    /// A stable identifier such as `schema::type` that scripts can match on.
    pub code: &'static str,
    /// One sentence saying what is wrong.
    pub message: String,
    /// Where it is wrong; `None` for problems with no place (a missing game).
    pub primary: Option<Label>,
    /// Other places that explain it ("first defined here").
    pub labels: Vec<Label>,
    /// How to fix it, when carta can tell.
    pub help: Option<String>,
}

impl Diagnostic {
    /// An error with `code` and `message`, not yet placed.
    pub fn error(code: &'static str, message: impl Into<String>) -> Self {
        Self::new(Severity::Error, code, message)
    }

    /// A warning with `code` and `message`, not yet placed.
    pub fn warning(code: &'static str, message: impl Into<String>) -> Self {
        Self::new(Severity::Warning, code, message)
    }

    /// A diagnostic of any severity.
    pub fn new(severity: Severity, code: &'static str, message: impl Into<String>) -> Self {
        Diagnostic {
            severity,
            code,
            message: message.into(),
            primary: None,
            labels: Vec::new(),
            help: None,
        }
    }

    /// Places the diagnostic at `span` of `file`, with a label message.
    #[must_use]
    pub fn at(mut self, file: FileId, span: Span, label: impl Into<String>) -> Self {
        self.primary = Some(Label::new(file, span, label));
        self
    }

    /// Adds a secondary label.
    #[must_use]
    pub fn with_label(mut self, label: Label) -> Self {
        self.labels.push(label);
        self
    }

    /// Adds a help line.
    #[must_use]
    pub fn with_help(self, help: impl Into<String>) -> Self {
        self.with_help_opt(Some(help.into()))
    }

    /// Adds a help line if there is one (an empty one counts as none).
    #[must_use]
    pub fn with_help_opt(mut self, help: Option<String>) -> Self {
        self.help = help.filter(|h| !h.is_empty());
        self
    }
}

/// The sink every stage reports into.
#[derive(Debug, Default)]
pub struct Diagnostics {
    items: Vec<Diagnostic>,
}

impl IntoIterator for Diagnostics {
    type Item = Diagnostic;
    type IntoIter = std::vec::IntoIter<Diagnostic>;

    /// Everything reported, in the order reported.
    fn into_iter(self) -> Self::IntoIter {
        self.items.into_iter()
    }
}

impl Diagnostics {
    /// An empty sink.
    pub fn new() -> Self {
        Self::default()
    }

    /// Reports one diagnostic.
    pub fn push(&mut self, diagnostic: Diagnostic) {
        self.items.push(diagnostic);
    }

    /// Reports many diagnostics.
    pub fn extend(&mut self, diagnostics: impl IntoIterator<Item = Diagnostic>) {
        self.items.extend(diagnostics);
    }

    /// How many diagnostics were reported.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// Whether nothing was reported.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// What was reported from the `range.start`th diagnostic to (not
    /// including) the `range.end`th.
    pub fn reported(&self, range: std::ops::Range<usize>) -> &[Diagnostic] {
        self.items.get(range).unwrap_or_default()
    }

    /// How many errors (not warnings or advice) were reported.
    pub fn error_count(&self) -> usize {
        self.items
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .count()
    }

    /// Whether any error was reported.
    pub fn has_errors(&self) -> bool {
        self.items.iter().any(|d| d.severity == Severity::Error)
    }

    /// Everything reported, in the order reported.
    pub fn iter(&self) -> impl Iterator<Item = &Diagnostic> {
        self.items.iter()
    }

    /// Everything reported, sorted as [`Diagnostics::into_sorted`], with at
    /// most `max` diagnostics whose primary place is in one file: the rest
    /// of a file's are dropped and counted in one advice at the first
    /// dropped one, so that a file with 40,000 problems costs no more to
    /// show than one with `max`.
    /// `raise` says how to raise the limit.
    pub fn into_capped(self, max: usize, raise: &str) -> Vec<Diagnostic> {
        let mut out = Vec::new();
        let mut current: Option<(FileId, usize, usize)> = None; // file, shown, dropped
        let mut first_dropped: Option<Label> = None;
        let flush = |out: &mut Vec<Diagnostic>, dropped: usize, at: Option<Label>| {
            if let (true, Some(at)) = (dropped > 0, at) {
                out.push(
                    Diagnostic::new(
                        Severity::Advice,
                        "diag::truncated",
                        format!("and {dropped} more diagnostics in this file"),
                    )
                    .at(at.file, at.span, "the first one not shown")
                    .with_help(format!(
                        "fix these first, or raise the limit of {max} per file: {raise}"
                    )),
                );
            }
        };
        for d in self.into_sorted() {
            let Some(primary) = d.primary.clone() else {
                out.push(d);
                continue;
            };
            match &mut current {
                Some((file, shown, dropped)) if *file == primary.file => {
                    if *shown < max {
                        *shown += 1;
                        out.push(d);
                    } else {
                        *dropped += 1;
                        first_dropped.get_or_insert(primary);
                    }
                }
                _ => {
                    if let Some((_, _, dropped)) = current {
                        flush(&mut out, dropped, first_dropped.take());
                    }
                    current = Some((primary.file, 1, 0));
                    out.push(d);
                }
            }
        }
        if let Some((_, _, dropped)) = current {
            flush(&mut out, dropped, first_dropped.take());
        }
        out
    }

    /// Everything reported, sorted by file (in source-map order, which is path
    /// order), then position; placeless diagnostics come first. The sort is
    /// stable, so equal places keep their report order.
    pub fn into_sorted(mut self) -> Vec<Diagnostic> {
        self.items
            .sort_by_key(|d| d.primary.as_ref().map(|l| (l.file, l.span.start)));
        self.items
    }
}
