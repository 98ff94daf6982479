//! Diagnostics: what every stage reports, and where.
//!
//! A stage pushes [`Diagnostic`]s into a [`Diagnostics`] sink and carries on, so
//! one run reports every problem it can find. A diagnostic names its place by
//! [`FileId`] and byte span; the [`SourceMap`] turns those into file names,
//! lines and columns when the diagnostics are rendered (`render`).
//!
//! A file's diagnostics are capped ([`Cap`]) both as they are found and
//! when shown, so a file's problems take the memory of the cap, not of
//! their number.
//!
//! - `source.rs`: the [`SourceMap`], with a line index per file.
//! - `render.rs`: human reports (miette, handed a clipped excerpt from
//!   `window.rs`) and JSON, one object per line.
//! - `cells.rs`: a spreadsheet's [`CellMap`], which JSON turns into
//!   `sheet`/`cell` and `grid.rs` draws as the cell's row under its header
//!   row.
//! - `text.rs`: quoting source text, bounded, with control, bidi and
//!   invisible format characters escaped.
//! - `phrase.rs`: a message as data ([`Phrase`]: a message id of `l10n`'s
//!   files, or a game's own pattern, and its arguments), which a
//!   [`Diagnostic`] may carry beside its English ([`Words`]) for the deck
//!   builder to word in the player's language.

mod cells;
mod grid;
mod phrase;
mod render;
mod source;
mod text;
mod window;

pub use cells::{CellAt, CellMap, column_name, drop_reported_repeats, fold_header_repeats};
pub use phrase::{Arg, Phrase, PhraseKey};
pub use render::{Format, Renderer};
pub use source::{FileId, LineCol, LineIndex, SourceFile, SourceMap};
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
    /// For a placeholder ([`ELIDED`]): the diagnostics of its file it
    /// stands for, counted but not kept; nothing for every other one.
    pub elided: Elided,
    /// The message and help as phrases, for a reader that words them in
    /// another language (the deck builder); `None` for most diagnostics.
    pub words: Option<Box<Words>>,
}

/// A diagnostic's message and help as [`Phrase`]s.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Words {
    /// What [`Diagnostic::message`] says.
    pub message: Phrase,
    /// What [`Diagnostic::help`] says, when it says something.
    pub help: Option<Phrase>,
}

/// The code of the placeholder that stands for a file's diagnostics past
/// the cap ([`cap`]); [`Diagnostics::into_capped`] turns it into the
/// `diag::truncated` note, so it is never shown itself.
pub const ELIDED: &str = "diag::elided";

/// How many diagnostics a placeholder stands for.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Elided {
    /// All of them.
    pub count: usize,
    /// Those that are errors, so a run still counts (and fails on) them.
    pub errors: usize,
}

/// Keeps at most `max` diagnostics per file in `diags` (the first by
/// position, as [`Diagnostics::into_capped`] would show them) and folds the
/// rest, with any earlier placeholder, into one placeholder per file at
/// the first of them: a file with millions of problems then costs the
/// memory of `max`, not of millions. The order is that of
/// [`Diagnostics::into_sorted`].
pub fn cap(diags: &mut Vec<Diagnostic>, max: usize) {
    sort(diags);
    let mut out: Vec<Diagnostic> = Vec::with_capacity(diags.len().min(max.saturating_add(64)));
    // The file being walked, how many of its diagnostics are kept, and its
    // placeholder so far.
    let mut current: Option<(FileId, usize, Option<Diagnostic>)> = None;
    for d in diags.drain(..) {
        let Some(file) = d.primary.as_ref().map(|l| l.file) else {
            out.push(d);
            continue;
        };
        if current.as_ref().is_none_or(|(f, _, _)| *f != file) {
            if let Some((_, _, Some(p))) = current.take() {
                out.push(p);
            }
            current = Some((file, 0, None));
        }
        let Some((_, kept, placeholder)) = current.as_mut() else {
            continue;
        };
        if d.code != ELIDED && *kept < max {
            *kept += 1;
            out.push(d);
            continue;
        }
        let (count, errors) = if d.code == ELIDED {
            (d.elided.count, d.elided.errors)
        } else {
            (1, usize::from(d.severity == Severity::Error))
        };
        // Sorted: the first folded diagnostic is the first not shown.
        let p = placeholder.get_or_insert_with(|| {
            let at = d.primary.clone().expect("placed");
            Diagnostic::new(Severity::Advice, ELIDED, "diagnostics past the cap")
                .at(at.file, at.span, "")
        });
        p.elided.count += count;
        p.elided.errors += errors;
    }
    if let Some((_, _, Some(p))) = current {
        out.push(p);
    }
    *diags = out;
}

/// Sorts as [`Diagnostics::into_sorted`] does.
fn sort(diags: &mut [Diagnostic]) {
    diags.sort_by_key(|d| d.primary.as_ref().map(|l| (l.file, l.span.start)));
}

/// Keeps a list of diagnostics bounded as it grows: [`cap`]s it each time
/// it doubles past the cap, so memory follows the cap, not the problems.
#[derive(Debug, Clone, Copy)]
pub struct Cap {
    max: usize,
    next: usize,
}

impl Cap {
    /// About `max` diagnostics per file kept.
    pub fn new(max: usize) -> Self {
        Cap {
            max,
            next: Self::after(0, max),
        }
    }

    fn after(len: usize, max: usize) -> usize {
        len.max(max).max(64).saturating_mul(2)
    }

    /// Adds `d` to `out`.
    pub fn push(&mut self, out: &mut Vec<Diagnostic>, d: Diagnostic) {
        out.push(d);
        self.settle(out);
    }

    /// Caps `out` if it has grown past the point where it should be.
    pub fn settle(&mut self, out: &mut Vec<Diagnostic>) {
        if out.len() >= self.next {
            cap(out, self.max);
            self.next = Self::after(out.len(), self.max);
        }
    }
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
            elided: Elided::default(),
            words: None,
        }
    }

    /// Keeps the message and help as phrases too (see [`Words`]).
    #[must_use]
    pub fn worded(mut self, message: Phrase, help: Option<Phrase>) -> Self {
        self.words = Some(Box::new(Words { message, help }));
        self
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

    /// How many errors (not warnings or advice) were reported, those a
    /// placeholder stands for included.
    pub fn error_count(&self) -> usize {
        self.items
            .iter()
            .map(|d| usize::from(d.severity == Severity::Error) + d.elided.errors)
            .sum()
    }

    /// Whether any error was reported.
    pub fn has_errors(&self) -> bool {
        self.items
            .iter()
            .any(|d| d.severity == Severity::Error || d.elided.errors > 0)
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
    /// `raise` says how to raise the limit. Placeholders ([`cap`]) are
    /// counted among the dropped, never shown.
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
            if current.is_none_or(|(file, _, _)| file != primary.file) {
                if let Some((_, _, dropped)) = current {
                    flush(&mut out, dropped, first_dropped.take());
                }
                current = Some((primary.file, 0, 0));
            }
            let Some((_, shown, dropped)) = &mut current else {
                continue;
            };
            if d.code == ELIDED {
                *dropped += d.elided.count;
                first_dropped.get_or_insert(primary);
            } else if *shown < max {
                *shown += 1;
                out.push(d);
            } else {
                *dropped += 1;
                first_dropped.get_or_insert(primary);
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
        sort(&mut self.items);
        self.items
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(file: u32, start: usize, severity: Severity) -> Diagnostic {
        Diagnostic::new(severity, "t::t", format!("{file}:{start}")).at(
            FileId(file),
            start..start + 1,
            "",
        )
    }

    /// What the output shows, as (message, code).
    fn shown(items: Vec<Diagnostic>, max: usize) -> Vec<(String, &'static str)> {
        let mut all = Diagnostics::new();
        all.extend(items);
        all.into_capped(max, "")
            .into_iter()
            .map(|d| (d.message, d.code))
            .collect()
    }

    #[test]
    fn capping_as_it_grows_shows_and_counts_what_capping_at_the_end_does() {
        // Two files, positions out of order, errors and warnings.
        let items: Vec<Diagnostic> = (0..5_000)
            .map(|i| {
                let severity = if i % 3 == 0 {
                    Severity::Warning
                } else {
                    Severity::Error
                };
                at(u32::from(i % 2 == 1), (i * 7_919) % 5_003, severity)
            })
            .collect();
        let mut bounded = Vec::new();
        let mut cap = Cap::new(10);
        let mut peak = 0;
        for d in items.clone() {
            cap.push(&mut bounded, d);
            peak = peak.max(bounded.len());
        }
        assert!(peak <= 128, "{peak} kept at once");
        let mut whole = Diagnostics::new();
        whole.extend(items.clone());
        let mut capped = Diagnostics::new();
        capped.extend(bounded.clone());
        assert_eq!(capped.error_count(), whole.error_count());
        assert!(capped.has_errors());
        assert_eq!(shown(bounded, 10), shown(items, 10));
    }

    #[test]
    fn a_placeholder_is_never_shown_and_placeless_diagnostics_are_kept() {
        let mut items = vec![Diagnostic::error("t::none", "no place")];
        items.extend((0..30).map(|i| at(0, i, Severity::Warning)));
        cap(&mut items, 5);
        assert_eq!(items.len(), 7);
        let out = shown(items, 200);
        assert_eq!(out.len(), 7, "{out:?}");
        assert_eq!(out[6].0, "and 25 more diagnostics in this file");
        assert!(out.iter().all(|(_, code)| *code != ELIDED));
    }
}
