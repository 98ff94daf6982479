//! What a human report shows of a source file: a few lines around a span,
//! long lines clipped to a window around the span, control characters made
//! visible. miette scans its source from the start for every report and
//! cannot draw a label past column 65,535; it is handed this excerpt
//! instead, which is small whatever the file, and told the true line and
//! column for the report's header.

use std::collections::BTreeMap;

use miette::{MietteError, MietteSpanContents, SourceCode, SourceSpan, SpanContents};

use super::Span;
use super::source::{LineCol, SourceFile};

/// The most characters of one line shown; a longer line is clipped.
const MAX_COLUMNS: usize = 400;
/// How many characters of a clipped line are shown before the span.
const LEAD: usize = 100;
/// Lines of context around the span.
const CONTEXT: usize = 1;
/// The most lines of a multi-line span shown.
const MAX_SPAN_LINES: usize = 8;
/// How far (in lines) from the first span another may be and still be
/// drawn in the same excerpt; farther ones get their own report.
pub(super) const NEAR_LINES: usize = 200;

/// An excerpt of a source file that stands in for it in a miette report.
#[derive(Debug)]
pub(super) struct Window {
    name: String,
    text: String,
    /// 0-based line of the file where the excerpt starts.
    first_line: usize,
    /// Original byte offset → excerpt byte offset, at every kept character
    /// start and line end, sorted.
    map: Vec<(usize, usize)>,
    /// Where each mapped label starts in the excerpt, and its true place.
    starts: Vec<(usize, LineCol)>,
}

impl Window {
    /// The excerpt of `file` around `spans`: every line from the first
    /// one's to the last one's, with context (so the spans should be
    /// [`Window::near`] each other).
    pub(super) fn new(file: &SourceFile, spans: &[&Span]) -> Self {
        let text = &*file.text;
        let last_line = file.line_count() - 1;
        // The lines each span needs, and the column each line is clipped around.
        let mut needed: Vec<(usize, usize)> = Vec::new();
        let mut anchors: BTreeMap<usize, usize> = BTreeMap::new();
        for span in spans {
            let start = file.line_col(span.start);
            let end = file.line_col(span.end.max(span.start));
            let first = (start.line - 1).saturating_sub(CONTEXT);
            let span_end = (end.line - 1).min(start.line - 1 + MAX_SPAN_LINES);
            needed.push((first, (span_end + CONTEXT).min(last_line)));
            anchors.entry(start.line - 1).or_insert(start.column - 1);
        }
        let first = needed.iter().map(|r| r.0).min().unwrap_or(0);
        let last = needed.iter().map(|r| r.1).max().unwrap_or(0);
        let mut window = Window {
            name: super::text::escape_controls(&file.name).into_owned(),
            text: String::new(),
            first_line: first,
            map: Vec::new(),
            starts: Vec::new(),
        };
        for line in first..=last {
            let range = file.line_range(line);
            let anchor = anchors.get(&line).copied().unwrap_or(0);
            window.push_line(&text[range.clone()], range.start, anchor);
            if range.end < text.len() {
                window.text.push('\n');
            }
        }
        window
    }

    /// Whether a span of the file is close enough to `to` to share its excerpt.
    pub(super) fn near(file: &SourceFile, span: &Span, to: &Span) -> bool {
        file.line_col(span.start)
            .line
            .abs_diff(file.line_col(to.start).line)
            <= NEAR_LINES
    }

    /// Appends one line (starting at file offset `offset`), clipped around
    /// character column `anchor` when it is long.
    fn push_line(&mut self, line_text: &str, offset: usize, anchor: usize) {
        let chars = line_text.chars().count();
        let (from, to) = if chars > MAX_COLUMNS {
            let from = anchor.saturating_sub(LEAD).min(chars - MAX_COLUMNS);
            (from, from + MAX_COLUMNS)
        } else {
            (0, chars)
        };
        if from > 0 {
            self.text.push('…');
        }
        for (i, (at, c)) in line_text.char_indices().enumerate() {
            if i < from {
                continue;
            }
            if i >= to {
                break;
            }
            self.map.push((offset + at, self.text.len()));
            self.text.push(visible(c));
        }
        let cut = to < chars;
        // The line's end maps to the end of what is shown of it.
        let shown_end = if cut {
            offset + nth_offset(line_text, to)
        } else {
            offset + line_text.len()
        };
        self.map.push((shown_end, self.text.len()));
        if cut {
            self.text.push('…');
        }
    }

    /// Maps a span of the file to the excerpt, remembering where it truly
    /// starts so the report's header names the right line and column.
    pub(super) fn map_span(&mut self, file: &SourceFile, span: &Span) -> SourceSpan {
        let start = self.point(span.start);
        let end = self.point(span.end.max(span.start)).max(start);
        self.starts.push((start, file.line_col(span.start)));
        SourceSpan::from(start..end)
    }

    /// The excerpt offset of file offset `at`: that of the last kept
    /// character at or before it.
    fn point(&self, at: usize) -> usize {
        match self.map.binary_search_by_key(&at, |&(o, _)| o) {
            Ok(i) => self.map[i].1,
            Err(0) => 0,
            Err(i) => self.map[i - 1].1,
        }
    }
}

/// Byte offset of the `n`th character of `s` (its length if fewer).
fn nth_offset(s: &str, n: usize) -> usize {
    s.char_indices().nth(n).map_or(s.len(), |(i, _)| i)
}

/// A control character as its visible symbol (U+2400…), so a file cannot
/// send terminal escapes through a report, and an invisible format
/// character (a bidi control…) as `�`, so it cannot reorder the excerpt;
/// other characters as they are.
fn visible(c: char) -> char {
    match c {
        '\t' => c,
        '\u{0}'..='\u{1f}' => char::from_u32(0x2400 + c as u32).unwrap_or('�'),
        '\u{7f}' => '␡',
        c if c.is_control() || super::text::is_invisible(c) => '�',
        c => c,
    }
}

impl SourceCode for Window {
    fn read_span<'a>(
        &'a self,
        span: &SourceSpan,
        before: usize,
        after: usize,
    ) -> Result<Box<dyn SpanContents<'a> + 'a>, MietteError> {
        let inner = self.text.as_str().read_span(span, before, after)?;
        let (mut line, mut column) = (inner.line() + self.first_line, inner.column());
        // The report's header reads its place with no context lines.
        let header = before == 0 && after == 0;
        if let Some((_, true_place)) = self
            .starts
            .iter()
            .find(|(o, _)| header && *o == span.offset())
        {
            (line, column) = (true_place.line - 1, true_place.column - 1);
        }
        Ok(Box::new(MietteSpanContents::new_named(
            self.name.clone(),
            inner.data(),
            *inner.span(),
            line,
            column,
            // miette counts the lines from the start of the source here.
            inner.line_count() + self.first_line,
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    fn file(text: &str) -> SourceFile {
        SourceFile::new("a.toml".into(), Arc::from(text))
    }

    #[test]
    fn long_lines_are_clipped_around_the_span_with_true_positions() {
        let long = format!("a = \"{}\" x\nb = 1\n", "y".repeat(70_000));
        let f = file(&long);
        let at = long.find(" x").unwrap() + 1;
        let mut w = Window::new(&f, &[&(at..at + 1)]);
        let s = w.map_span(&f, &(at..at + 1));
        assert!(w.text.len() < 1_000, "{}", w.text.len());
        assert_eq!(&w.text[s.offset()..s.offset() + s.len()], "x");
        let header = w.read_span(&s, 0, 0).unwrap();
        assert_eq!((header.line(), header.column()), (0, 70_007));
        assert!(w.text.starts_with('…'));
    }

    #[test]
    fn control_characters_are_made_visible() {
        let f = file("id = \"\u{1b}]0;owned\u{7}\"\n");
        let mut w = Window::new(&f, &[&(5..6)]);
        w.map_span(&f, &(5..6));
        assert!(!w.text.contains('\u{1b}'));
        assert!(w.text.contains('␛') && w.text.contains('␇'));
        let f = file("id = \"a\u{202e}b\u{2066}c\u{200d}\"\n");
        let mut w = Window::new(&f, &[&(5..6)]);
        w.map_span(&f, &(5..6));
        assert!(!w.text.contains('\u{202e}') && !w.text.contains('\u{2066}'));
        assert_eq!(w.text.matches('�').count(), 2);
        assert!(w.text.contains('\u{200d}'), "a joiner is text");
    }

    #[test]
    fn only_lines_near_the_span_are_kept() {
        let text: String = (0..1000).map(|i| format!("k{i} = {i}\n")).collect();
        let f = file(&text);
        let at = text.find("k500 ").unwrap();
        let mut w = Window::new(&f, &[&(at..at + 4)]);
        let s = w.map_span(&f, &(at..at + 4));
        assert_eq!(w.text.lines().count(), 3);
        let far = text.find("k900 ").unwrap();
        assert!(!Window::near(&f, &(far..far + 4), &(at..at + 4)));
        let header = w.read_span(&s, 0, 0).unwrap();
        assert_eq!(header.line(), 500);
        let context = w.read_span(&s, 1, 1).unwrap();
        assert_eq!(context.line(), 499);
    }
}
