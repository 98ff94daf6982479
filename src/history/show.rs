//! A diff shown: for the terminal (aligned, coloured like the
//! diagnostics, every value a bounded excerpt with its control characters
//! escaped) and as Markdown patch notes.

use std::fmt::Write;

use serde_json::Value;

use super::compare::{FieldChange, GameDiff, ItemChange, ItemStatus, Status};
use super::words::{Op, Piece};
use crate::diag::escape_controls;

/// The most characters of one value the terminal shows.
const MAX_VALUE: usize = 80;
/// The words of unchanged text kept on each side of a change.
const CONTEXT_WORDS: usize = 5;

/// ANSI styles, or none.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Style {
    color: bool,
}

impl Style {
    /// Colours when `color`.
    pub fn new(color: bool) -> Self {
        Style { color }
    }

    fn paint(self, code: &str, text: &str) -> String {
        if self.color {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_owned()
        }
    }

    /// `text` in the style of an added thing.
    pub fn added(self, text: &str) -> String {
        self.paint("32", text)
    }

    /// `text` in the style of a removed thing.
    pub fn removed(self, text: &str) -> String {
        self.paint("31", text)
    }

    /// `text` in the style of a changed thing.
    pub fn changed(self, text: &str) -> String {
        self.paint("33", text)
    }

    /// `text` in the style of a heading thing.
    pub fn bold(self, text: &str) -> String {
        self.paint("1", text)
    }
}

/// A value as one bounded, escaped line: a string as itself, anything else
/// as compact JSON.
fn value(v: Option<&Value>) -> String {
    let text = match v {
        None => "(none)".to_owned(),
        Some(Value::String(s)) => s.clone(),
        Some(other) => other.to_string(),
    };
    bounded(&escape_controls(&text))
}

/// A text as one bounded, escaped line.
fn text(text: &str) -> String {
    bounded(&escape_controls(text))
}

fn bounded(text: &str) -> String {
    if text.chars().count() <= MAX_VALUE {
        return text.to_owned();
    }
    let mut out: String = text.chars().take(MAX_VALUE - 1).collect();
    out.push('…');
    out
}

/// The counts of a game's diff, as its heading says them.
pub fn counts(diff: &GameDiff) -> String {
    let mut parts = Vec::new();
    let mut count = |n: usize, what: &str| {
        if n > 0 {
            parts.push(format!("{n} {what}"));
        }
    };
    count(diff.added.len(), "added");
    count(diff.removed.len(), "removed");
    count(diff.renamed.len(), "renamed");
    count(diff.changed.len(), "changed");
    let cards = if parts.is_empty() {
        String::new()
    } else {
        format!("cards {}", parts.join(", "))
    };
    let items = diff.manifest.len();
    match (cards.is_empty(), items) {
        (true, 0) => "no change".to_owned(),
        (false, 0) => cards,
        (true, n) => format!("{n} manifest change{}", plural(n)),
        (false, n) => format!("{cards}; {n} manifest change{}", plural(n)),
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// The terminal's form of one game's diff.
pub fn human(diff: &GameDiff, style: Style) -> String {
    let mut out = String::new();
    let status = match diff.status {
        Status::Added => " (new game)",
        Status::Removed => " (game removed)",
        _ => "",
    };
    let _ = writeln!(
        out,
        "{}{status}: {}",
        style.bold(&format!(
            "{} ({})",
            escape_controls(&diff.game),
            bounded(&escape_controls(&diff.name))
        )),
        counts(diff)
    );
    let width = diff
        .added
        .iter()
        .chain(&diff.removed)
        .map(|c| c.id.chars().count())
        .chain(diff.renamed.iter().map(|c| c.id.chars().count()))
        .chain(diff.changed.iter().map(|c| c.id.chars().count()))
        .max()
        .unwrap_or(0);
    cards(&mut out, diff, width, style);
    for item in &diff.manifest {
        let tag = match item.status {
            ItemStatus::Added => style.added("+ added  "),
            ItemStatus::Removed => style.removed("- removed"),
            ItemStatus::Changed => style.changed("~ changed"),
        };
        let _ = writeln!(
            out,
            "  {tag}  {} {}",
            item.section,
            escape_controls(&item.id)
        );
        let lines: Vec<(String, &FieldChange)> =
            item.fields.iter().map(|f| (f.field.clone(), f)).collect();
        fields(&mut out, &lines, 13, style);
    }
    out
}

/// The card lines of a game's diff, ids padded to `width`.
fn cards(out: &mut String, diff: &GameDiff, width: usize, style: Style) {
    let row = |out: &mut String, tag: String, id: &str, rest: String| {
        let id = escape_controls(id);
        let pad = width.saturating_sub(id.chars().count());
        let _ = writeln!(out, "  {tag}  {id}{}  {rest}", " ".repeat(pad));
    };
    let listed = [
        (&diff.added, style.added("+ added  ")),
        (&diff.removed, style.removed("- removed")),
    ];
    for (list, tag) in listed {
        for c in list {
            let rest = format!("{} ({})", text(&c.name), escape_controls(&c.kind));
            row(out, tag.clone(), &c.id, rest);
        }
    }
    for c in &diff.renamed {
        let rest = format!("{} → {}", text(&c.old), text(&c.new));
        row(out, style.changed("~ renamed"), &c.id, rest);
    }
    for c in &diff.changed {
        let name = text(&c.name);
        row(out, style.changed("~ changed"), &c.id, name);
        let mut lines: Vec<(String, &FieldChange)> =
            c.fields.iter().map(|f| (f.field.clone(), f)).collect();
        lines.extend(
            c.translations
                .iter()
                .map(|t| (format!("{} {}", t.lang, t.change.field), &t.change)),
        );
        fields(out, &lines, 13, style);
    }
}

/// Field lines under a card or item, their names aligned.
fn fields(out: &mut String, lines: &[(String, &FieldChange)], indent: usize, style: Style) {
    let width = lines
        .iter()
        .map(|(n, _)| escape_controls(n).chars().count())
        .max()
        .unwrap_or(0);
    for (name, change) in lines {
        let name = escape_controls(name);
        let pad = width.saturating_sub(name.chars().count());
        let _ = writeln!(
            out,
            "{}{name}{}  {}",
            " ".repeat(indent),
            " ".repeat(pad),
            field_text(change, style)
        );
    }
}

/// A change as the terminal shows it: words diffed in place, a formatting
/// change said so, any other value `old → new`.
fn field_text(change: &FieldChange, style: Style) -> String {
    if let Some(pieces) = &change.words {
        return words(pieces, style);
    }
    let arrow = format!(
        "{} → {}",
        style.removed(&value(change.old.as_ref())),
        style.added(&value(change.new.as_ref()))
    );
    if change.formatting_only {
        format!("formatting only: {arrow}")
    } else {
        arrow
    }
}

/// Pieces of a word diff: removed runs `[-…-]`, added `{+…+}` (coloured
/// too when colour is on), long unchanged runs cut to their ends.
fn words(pieces: &[Piece], style: Style) -> String {
    let mut out = String::new();
    let last = pieces.len().saturating_sub(1);
    for (i, piece) in pieces.iter().enumerate() {
        let text = escape_controls(&piece.text);
        match piece.op {
            Op::Same => out.push_str(&context(&text, i == 0, i == last)),
            Op::Removed => out.push_str(&style.removed(&format!("[-{}-]", bounded(&text)))),
            Op::Added => out.push_str(&style.added(&format!("{{+{}+}}", bounded(&text)))),
        }
    }
    out
}

/// An unchanged run kept to the words next to the changes around it.
fn context(text: &str, first: bool, last: bool) -> String {
    let words: Vec<&str> = text.split(' ').collect();
    let keep = CONTEXT_WORDS;
    let n = words.len();
    let head = if first { 0 } else { keep };
    let tail = if last { 0 } else { keep };
    if n <= head + tail + 1 {
        return text.to_owned();
    }
    let mut out = words[..head].join(" ");
    if head > 0 {
        out.push(' ');
    }
    out.push('…');
    if tail > 0 {
        out.push(' ');
        out.push_str(&words[n - tail..].join(" "));
    }
    out
}

/// Markdown patch notes for one game's diff (full texts, with struck and
/// strong words where they changed).
pub fn markdown(diff: &GameDiff) -> String {
    let mut out = format!("## {}\n\n", md(&diff.name));
    let mut section = |title: &str, lines: Vec<String>| {
        if !lines.is_empty() {
            let _ = writeln!(out, "### {title}\n");
            for line in lines {
                let _ = writeln!(out, "- {line}");
            }
            out.push('\n');
        }
    };
    section(
        "New cards",
        diff.added
            .iter()
            .map(|c| format!("**{}** ({})", md(&c.name), md(&c.kind)))
            .collect(),
    );
    section(
        "Removed cards",
        diff.removed
            .iter()
            .map(|c| format!("~~{}~~ ({})", md(&c.name), md(&c.kind)))
            .collect(),
    );
    section(
        "Renamed cards",
        diff.renamed
            .iter()
            .map(|c| format!("**{}** is now **{}**", md(&c.old), md(&c.new)))
            .collect(),
    );
    section(
        "Changed cards",
        diff.changed
            .iter()
            .map(|c| {
                let mut parts: Vec<String> = c.fields.iter().map(md_change).collect();
                parts.extend(
                    c.translations
                        .iter()
                        .map(|t| format!("({}) {}", md(&t.lang), md_change(&t.change))),
                );
                format!("**{}**: {}", md(&c.name), parts.join("; "))
            })
            .collect(),
    );
    section(
        "Rules and settings",
        diff.manifest.iter().map(md_item).collect(),
    );
    out
}

fn md_item(item: &ItemChange) -> String {
    let what = match item.status {
        ItemStatus::Added => "added",
        ItemStatus::Removed => "removed",
        ItemStatus::Changed => "changed",
    };
    let fields: Vec<String> = item.fields.iter().map(md_change).collect();
    format!(
        "{} `{}` {what}: {}",
        item.section,
        item.id.replace('`', "'"),
        fields.join("; ")
    )
}

fn md_change(change: &FieldChange) -> String {
    let field = format!("`{}`", change.field.replace('`', "'"));
    if let Some(pieces) = &change.words {
        let text: String = pieces
            .iter()
            .map(|p| match p.op {
                Op::Same => md(&p.text),
                Op::Removed => marked(&p.text, "~~"),
                Op::Added => marked(&p.text, "**"),
            })
            .collect();
        return format!("{field}: {text}");
    }
    let v = |v: Option<&Value>| match v {
        None => "(none)".to_owned(),
        Some(Value::String(s)) => md(s),
        Some(other) => md(&other.to_string()),
    };
    let note = if change.formatting_only {
        " (formatting)"
    } else {
        ""
    };
    format!(
        "{field} {} → {}{note}",
        v(change.old.as_ref()),
        v(change.new.as_ref())
    )
}

/// `text` between `marker`s, its surrounding spaces outside them (`**a**`
/// would not be bold as `** a**`).
fn marked(text: &str, marker: &str) -> String {
    let core = text.trim();
    if core.is_empty() {
        return md(text);
    }
    let lead = &text[..text.len() - text.trim_start().len()];
    let trail = &text[text.trim_end().len()..];
    format!("{}{marker}{}{marker}{}", md(lead), md(core), md(trail))
}

/// Text escaped for Markdown, on one line.
pub fn markdown_text(text: &str) -> String {
    md(text)
}

fn md(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\\' | '*' | '_' | '`' | '[' | ']' | '<' | '>' | '#' | '|' | '~' => {
                out.push('\\');
                out.push(c);
            }
            '\n' | '\r' => out.push(' '),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_unchanged_text_keeps_only_the_words_beside_a_change() {
        let pieces = super::super::words::diff(
            "one two three four five six seven eight nine ten eleven twelve",
            "one two three four five six seven eight nine ten eleven twelve thirteen",
        );
        let shown = words(&pieces, Style::new(false));
        assert_eq!(shown, "… eight nine ten eleven twelve{+ thirteen+}");
    }

    #[test]
    fn markdown_escapes_what_it_would_format() {
        assert_eq!(md("**a** [b]\nc"), "\\*\\*a\\*\\* \\[b\\] c");
    }

    #[test]
    fn a_marked_run_keeps_its_spaces_outside_the_markers() {
        assert_eq!(marked("then ", "**"), "**then** ");
        assert_eq!(marked(" x", "~~"), " ~~x~~");
        assert_eq!(marked(" ", "**"), " ");
    }
}
