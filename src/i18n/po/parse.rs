//! A strict reader of GNU gettext PO files, in one pass over the lines.
//!
//! ```text
//! # translator comment        #. extracted   #: reference   #| previous
//! #, fuzzy, c-format          (flags)        #~ obsolete entries are skipped
//! msgctxt "cards/a/text"
//! msgid "source"              "continued on the next line"
//! msgid_plural "sources"
//! msgstr "translation"        or msgstr[0] "…", msgstr[1] "…", in order
//! ```
//!
//! Strings are C strings between double quotes with the escapes `\\`,
//! `\"`, `\n`, `\t`, `\r`, `\a`, `\b`, `\f`, `\v`, `\'` and `\?`. Anything
//! else — a line that is only `"`, a string without its closing quote, a
//! keyword out of order, `msgstr[7]` before `msgstr[1]` — is a
//! [`SyntaxError`] at its byte span, never a panic, and the time is linear
//! in the size of the file.

use crate::diag::Span;

/// One message of a PO file.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Message {
    /// Its `msgctxt`, if it has one.
    pub msgctxt: Option<String>,
    /// Its `msgid`.
    pub msgid: String,
    /// Its `msgid_plural`, if it has one.
    pub msgid_plural: Option<String>,
    /// Its `msgstr`, or each `msgstr[n]` in order.
    pub msgstr: Vec<String>,
    /// Whether its flags say `fuzzy`.
    pub fuzzy: bool,
    /// Where it starts: its first keyword, up to the end of that line.
    pub span: Span,
}

impl Message {
    /// Whether it is the header (no context, an empty `msgid`).
    pub fn is_header(&self) -> bool {
        self.msgctxt.is_none() && self.msgid.is_empty()
    }
}

/// A PO file that parsed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PoFile {
    /// Every message but obsolete ones, the header included, in order.
    pub messages: Vec<Message>,
}

impl PoFile {
    /// The `Language:` of its header, if it has one.
    pub fn language(&self) -> Option<&str> {
        let header = self.messages.iter().find(|m| m.is_header())?;
        header.msgstr.first()?.lines().find_map(|line| {
            let (name, value) = line.split_once(':')?;
            let value = value.trim();
            (name.trim().eq_ignore_ascii_case("language") && !value.is_empty()).then_some(value)
        })
    }
}

/// Why a PO file does not parse, and where.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct SyntaxError {
    /// What is wrong.
    pub message: String,
    /// Where, in bytes.
    pub span: Span,
}

/// Which string a keyword or a continuation line fills.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Field {
    Context,
    Id,
    Plural,
    Str(usize),
}

/// The message being read.
#[derive(Debug, Default)]
struct Entry {
    message: Message,
    /// Whether a `msgctxt` or `msgid` was read.
    started: bool,
    has_id: bool,
    fuzzy: bool,
    last: Option<Field>,
}

/// Parses `text` as a PO file.
///
/// # Errors
/// At the first thing that is not PO syntax.
pub fn parse(text: &str) -> Result<PoFile, SyntaxError> {
    let mut file = PoFile::default();
    let mut entry = Entry::default();
    // A byte-order mark is not part of the first line.
    let mut at = if text.starts_with('\u{feff}') { 3 } else { 0 };
    for raw in text[at..].split_inclusive('\n') {
        let start = at;
        at += raw.len();
        let line = raw.trim_end_matches(['\n', '\r']);
        let trimmed = line.trim_start();
        let indent = line.len() - trimmed.len();
        let span = start + indent..start + line.len();
        if trimmed.trim_end().is_empty() {
            entry.finish(&mut file)?;
        } else if let Some(comment) = trimmed.strip_prefix('#') {
            if entry.started {
                entry.finish(&mut file)?;
            }
            if let Some(flags) = comment.strip_prefix(',') {
                entry.fuzzy |= flags.split(',').any(|f| f.trim() == "fuzzy");
            }
        } else if trimmed.starts_with('"') {
            let Some(field) = entry.last else {
                return Err(error("a string with no keyword before it", span));
            };
            let value = string(text, span.start, span.end)?;
            entry.field(field).push_str(&value);
        } else {
            entry.keyword(text, span, &mut file)?;
        }
    }
    entry.finish(&mut file)?;
    Ok(file)
}

fn error(message: impl Into<String>, span: Span) -> SyntaxError {
    SyntaxError {
        message: message.into(),
        span,
    }
}

impl Entry {
    /// The string `field` fills.
    fn field(&mut self, field: Field) -> &mut String {
        let m = &mut self.message;
        match field {
            Field::Context => m.msgctxt.get_or_insert_default(),
            Field::Id => &mut m.msgid,
            Field::Plural => m.msgid_plural.get_or_insert_default(),
            Field::Str(n) => &mut m.msgstr[n],
        }
    }

    /// Reads the keyword line at `span` of `text`.
    fn keyword(&mut self, text: &str, span: Span, file: &mut PoFile) -> Result<(), SyntaxError> {
        let line = &text[span.clone()];
        let word_end = line
            .find(|c: char| c.is_ascii_whitespace() || c == '"')
            .unwrap_or(line.len());
        let word = &line[..word_end];
        let word_span = span.start..span.start + word_end;
        let field = match word {
            "msgctxt" => Field::Context,
            "msgid" => Field::Id,
            "msgid_plural" => Field::Plural,
            "msgstr" => Field::Str(0),
            _ => match word
                .strip_prefix("msgstr[")
                .and_then(|w| w.strip_suffix(']'))
            {
                Some(n) => Field::Str(n.parse().map_err(|_| {
                    error(
                        format!("`{}` is not a plural form's number", crate::diag::clip(n)),
                        word_span.clone(),
                    )
                })?),
                None => {
                    return Err(error(
                        "expected `msgctxt`, `msgid`, `msgid_plural`, `msgstr`, a string or a comment",
                        word_span,
                    ));
                }
            },
        };
        // A new message may follow the last one's `msgstr` without a blank line.
        let done = matches!(self.last, Some(Field::Str(_)));
        if done && matches!(field, Field::Context | Field::Id) {
            self.finish(file)?;
        }
        self.order(field, word, &word_span)?;
        let rest = line[word_end..].trim_start();
        if !rest.starts_with('"') {
            let at = span.end - rest.len();
            return Err(error(
                format!("`{word}` must be followed by a string in double quotes"),
                at..span.end,
            ));
        }
        let value = string(text, span.end - rest.len(), span.end)?;
        if !self.started {
            self.message.span = span;
            self.started = true;
        }
        if let Field::Str(_) = field {
            self.message.msgstr.push(String::new());
        }
        *self.field(field) = value;
        self.last = Some(field);
        Ok(())
    }

    /// Checks that `field` may come now.
    fn order(&mut self, field: Field, word: &str, span: &Span) -> Result<(), SyntaxError> {
        let m = &self.message;
        let plural = m.msgid_plural.is_some();
        let fine = match field {
            Field::Context => !self.started,
            Field::Id => !self.has_id,
            Field::Plural => self.has_id && !plural && m.msgstr.is_empty(),
            Field::Str(n) => {
                let indexed = word != "msgstr";
                self.has_id && indexed == plural && n == m.msgstr.len() && (indexed || n == 0)
            }
        };
        if !fine {
            let why = match field {
                Field::Context => "`msgctxt` must come first in a message, once".to_owned(),
                Field::Id => "a message has one `msgid`".to_owned(),
                Field::Plural => "`msgid_plural` must follow the `msgid`, once".to_owned(),
                Field::Str(_) if !self.has_id => format!("`{word}` before any `msgid`"),
                Field::Str(_) if plural && word == "msgstr" => {
                    "a plural message has `msgstr[0]`, `msgstr[1]`, …, not `msgstr`".to_owned()
                }
                Field::Str(_) if !plural => {
                    format!("`{word}` in a message without `msgid_plural`")
                }
                Field::Str(_) => format!("`msgstr[{}]` expected here", m.msgstr.len()),
            };
            return Err(error(why, span.clone()));
        }
        if field == Field::Id {
            self.has_id = true;
        }
        Ok(())
    }

    /// Ends the message being read (at a blank line, a comment after it,
    /// the next message, or the end of the file).
    fn finish(&mut self, file: &mut PoFile) -> Result<(), SyntaxError> {
        let entry = std::mem::take(self);
        if !entry.started {
            // Comments alone (their flags belong to the next message).
            self.fuzzy = entry.fuzzy;
            return Ok(());
        }
        let span = entry.message.span.clone();
        if !entry.has_id {
            return Err(error("this message has no `msgid`", span));
        }
        if entry.message.msgstr.is_empty() {
            return Err(error("this message has no `msgstr`", span));
        }
        file.messages.push(Message {
            fuzzy: entry.fuzzy,
            ..entry.message
        });
        Ok(())
    }
}

/// The C string that starts at byte `start` of `text` (a `"`) and must
/// end, closing quote and all, before `end` (the end of its line, which
/// may hold only spaces after it).
fn string(text: &str, start: usize, end: usize) -> Result<String, SyntaxError> {
    let mut out = String::new();
    let mut chars = text[start + 1..end].char_indices();
    while let Some((i, c)) = chars.next() {
        let at = start + 1 + i;
        match c {
            '"' => {
                let after = &text[at + 1..end];
                if !after.trim().is_empty() {
                    let from = end - after.trim_start().len();
                    return Err(error("nothing may follow a string on its line", from..end));
                }
                return Ok(out);
            }
            '\\' => {
                let Some((_, e)) = chars.next() else {
                    break;
                };
                out.push(match e {
                    '\\' | '"' | '\'' | '?' => e,
                    'n' => '\n',
                    't' => '\t',
                    'r' => '\r',
                    'a' => '\u{7}',
                    'b' => '\u{8}',
                    'f' => '\u{c}',
                    'v' => '\u{b}',
                    _ => {
                        let span = at..at + 1 + e.len_utf8();
                        return Err(error(
                            format!(
                                "`\\{}` is not an escape a PO string may use",
                                crate::diag::escape_controls(&e.to_string())
                            ),
                            span,
                        ));
                    }
                });
            }
            c => out.push(c),
        }
    }
    Err(error(
        "this string has no closing `\"` on its line",
        start..end,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The error of `text`, with the text it points at.
    fn fails(text: &str) -> (String, &str) {
        let e = parse(text).expect_err(text);
        (e.message, &text[e.span])
    }

    #[test]
    fn reads_what_gettext_writes() {
        let text = "# a comment\r\nmsgid \"\"\nmsgstr \"\"\n\"Project-Id-Version: x\\n\"\n\"Language: pt-BR\\n\"\n\n\
#. extracted\n#: file:1\n#, fuzzy, c-format\n#| msgid \"old\"\nmsgctxt \"cards/a/text\"\nmsgid \"\"\n\"two \"\n\"lines\"\nmsgstr \"a\\\"b\\\\c\\n\\td\"\n\
msgctxt \"x\"\nmsgid \"one\"\nmsgid_plural \"many\"\nmsgstr[0] \"um\"\nmsgstr[1] \"muitos\"\n\n#~ msgid \"gone\"\n#~ msgstr \"x\"\n";
        let file = parse(text).unwrap();
        assert_eq!(file.language(), Some("pt-BR"));
        let m = &file.messages;
        assert_eq!(m.len(), 3);
        assert!(m[0].is_header());
        assert_eq!(m[1].msgctxt.as_deref(), Some("cards/a/text"));
        assert_eq!(m[1].msgid, "two lines");
        assert_eq!(m[1].msgstr, ["a\"b\\c\n\td"]);
        assert!(m[1].fuzzy && !m[0].fuzzy && !m[2].fuzzy);
        assert_eq!(&text[m[1].span.clone()], "msgctxt \"cards/a/text\"");
        assert_eq!(m[2].msgid_plural.as_deref(), Some("many"));
        assert_eq!(m[2].msgstr, ["um", "muitos"]);
        assert_eq!(
            parse("\u{feff}msgid \"a\"\nmsgstr \"b\"").unwrap().messages[0].msgid,
            "a"
        );
        assert_eq!(parse("").unwrap(), PoFile::default());
    }

    #[test]
    fn malformed_lines_are_errors_at_their_place() {
        let e =
            |m: &str, at: &str, text: &str| assert_eq!(fails(text), (m.to_owned(), at), "{text}");
        e("a string with no keyword before it", "\"", "\"\n");
        e(
            "this string has no closing `\"` on its line",
            "\"",
            "msgid \"a\"\nmsgstr \"b\"\n\"",
        );
        e(
            "this string has no closing `\"` on its line",
            "\"traduçã",
            "msgid \"a\"\nmsgstr \"traduçã\n",
        );
        e(
            "this string has no closing `\"` on its line",
            "\"a\\\"",
            "msgid \"a\\\"\nmsgstr \"\"",
        );
        e(
            "`\\q` is not an escape a PO string may use",
            "\\q",
            "msgid \"a\\qb\"\nmsgstr \"\"",
        );
        e(
            "nothing may follow a string on its line",
            "x",
            "msgid \"a\" x\nmsgstr \"\"",
        );
        e(
            "`msgid` must be followed by a string in double quotes",
            "a",
            "msgid a\nmsgstr \"\"",
        );
        e(
            "`msgid` must be followed by a string in double quotes",
            "",
            "msgid\nmsgstr \"\"",
        );
        e(
            "expected `msgctxt`, `msgid`, `msgid_plural`, `msgstr`, a string or a comment",
            "msgsrt",
            "msgid \"a\"\nmsgsrt \"b\"",
        );
    }

    #[test]
    fn keywords_out_of_order_are_errors_at_the_keyword() {
        let e =
            |m: &str, at: &str, text: &str| assert_eq!(fails(text), (m.to_owned(), at), "{text}");
        e("`msgstr` before any `msgid`", "msgstr", "msgstr \"b\"");
        e(
            "this message has no `msgstr`",
            "msgid \"a\"",
            "msgid \"a\"\n\nmsgid \"b\"\nmsgstr \"\"",
        );
        e(
            "this message has no `msgid`",
            "msgctxt \"c\"",
            "msgctxt \"c\"\n",
        );
        e(
            "a message has one `msgid`",
            "msgid",
            "msgid \"a\"\nmsgid \"b\"\n",
        );
        e(
            "`msgctxt` must come first in a message, once",
            "msgctxt",
            "msgid \"a\"\nmsgctxt \"b\"\n",
        );
        e(
            "`msgstr[1]` in a message without `msgid_plural`",
            "msgstr[1]",
            "msgid \"a\"\nmsgstr[1] \"b\"",
        );
        e(
            "`msgstr[1]` expected here",
            "msgstr[7]",
            "msgid \"a\"\nmsgid_plural \"b\"\nmsgstr[0] \"\"\nmsgstr[7] \"\"",
        );
        e(
            "`99999999999999999999999` is not a plural form's number",
            "msgstr[99999999999999999999999]",
            "msgid \"a\"\nmsgid_plural \"b\"\nmsgstr[99999999999999999999999] \"\"",
        );
        e(
            "a plural message has `msgstr[0]`, `msgstr[1]`, …, not `msgstr`",
            "msgstr",
            "msgid \"a\"\nmsgid_plural \"b\"\nmsgstr \"\"",
        );
    }

    #[test]
    fn messages_may_follow_each_other_without_a_blank_line() {
        let file = parse("msgid \"a\"\nmsgstr \"1\"\nmsgctxt \"c\"\nmsgid \"b\"\nmsgstr \"2\"\n# x\nmsgid \"d\"\nmsgstr \"3\"").unwrap();
        let ids: Vec<&str> = file.messages.iter().map(|m| m.msgid.as_str()).collect();
        assert_eq!(ids, ["a", "b", "d"]);
    }

    #[test]
    fn every_prefix_of_a_po_file_parses_or_fails_without_a_panic() {
        let text = "#, fuzzy\nmsgctxt \"k\"\nmsgid \"ç\\n\"\n\"x\"\nmsgid_plural \"p\"\nmsgstr[0] \"a\"\nmsgstr[1] \"b\"\n";
        for (end, _) in text.char_indices() {
            let _ = parse(&text[..end]);
        }
    }
}
