//! TOML with spans: parsing with error recovery, and conversion of the
//! span-keeping tree to JSON values for schema validation.

use std::borrow::Cow;
use std::num::IntErrorKind;

use serde_json::{Map, Number, Value};
use toml::Spanned;
use toml::de::{DeTable, DeValue};
use toml_parser::decoder::Encoding;
use toml_parser::parser::{EventReceiver, RecursionGuard, ValidateWhitespace};
use toml_parser::{ErrorSink, Expected, ParseError, Raw, Span as TomlSpan};

use crate::diag::{Cap, Diagnostic, FileId, Span, cap};
use crate::limits::max_diagnostics_per_file;

pub mod tree;

/// A parsed TOML document; borrows the text it was parsed from.
pub type Document<'a> = Spanned<DeTable<'a>>;

/// Parses `text` (the contents of `file`), reporting every syntax error.
/// Returns the best-effort tree even when there were errors, unless there
/// were more than a file may keep ([`max_diagnostics_per_file`]): then the
/// first are reported, the rest counted (see [`diag::cap`](crate::diag::cap)),
/// and the tree is empty, because `toml`'s recovery would hold every error
/// (some 150 bytes each, several per line of `= = =`) at once.
pub fn parse_toml<'a>(
    file: FileId,
    text: &'a str,
    out: &mut Vec<Diagnostic>,
) -> (Document<'a>, bool) {
    // Most files are valid: one pass, and no error kept.
    if let Ok(doc) = DeTable::parse(text) {
        return (doc, true);
    }
    let max = max_diagnostics_per_file();
    let mut found = Vec::new();
    if syntax_errors(file, text, max, &mut found) > max {
        cap(&mut found, max);
        out.append(&mut found);
        return (Spanned::new(0..text.len(), DeTable::new()), false);
    }
    let (doc, errors) = DeTable::parse_recoverable(text);
    let ok = errors.is_empty();
    let mut cap = Cap::new(max);
    for e in errors {
        cap.push(out, syntax_diagnostic(file, text, e.span(), e.message()));
    }
    (doc, ok)
}

/// Reads a whole TOML document as JSON, as card files are read: `None`
/// after reporting its syntax errors, or the value JSON cannot hold
/// (`schema::type`: an integer that is not one, a non-finite float).
pub fn read_toml(
    file: FileId,
    text: &str,
    out: &mut Vec<Diagnostic>,
) -> Option<Map<String, Value>> {
    let (doc, ok) = parse_toml(file, text, out);
    if !ok {
        return None;
    }
    match table_to_json(doc.get_ref()) {
        Ok(map) => Some(map),
        Err((span, message)) => {
            out.push(Diagnostic::error("schema::type", message).at(file, span, "here"));
            None
        }
    }
}

/// Runs `toml`'s lexer and parser over `text` without building a tree,
/// keeping about `max` of the syntax errors as diagnostics in `out`;
/// returns how many there were. The errors are those of `toml`'s parser
/// and of its decoding of each key, with its wording; not those of values
/// (an integer `1__0`) nor those only a tree shows (a duplicate key).
fn syntax_errors(file: FileId, text: &str, max: usize, out: &mut Vec<Diagnostic>) -> usize {
    let source = toml_parser::Source::new(text);
    let tokens = source.lex().into_vec();
    let mut events = Decode(text);
    let mut whitespace = ValidateWhitespace::new(&mut events, source);
    // As deep as `toml` lets a document nest.
    let mut receiver = RecursionGuard::new(&mut whitespace, 80);
    let mut count = 0;
    let mut cap = Cap::new(max);
    let mut sink = |e: ParseError| {
        count += 1;
        let span = e.unexpected().map(|s| s.start()..s.end());
        cap.push(out, syntax_diagnostic(file, text, span, &toml_message(&e)));
    };
    toml_parser::parser::parse_document(&tokens, &mut receiver, &mut sink);
    count
}

/// Decodes each key as `toml` does when it builds its tree, for the errors
/// decoding finds (an empty key, a bad escape), and keeps nothing. Values
/// are left alone: `toml` does not decode those its recovery skips, so
/// their errors would be counted where `toml` reports none.
struct Decode<'t>(&'t str);

impl Decode<'_> {
    fn raw(&self, span: TomlSpan, encoding: Option<Encoding>) -> Option<Raw<'_>> {
        let text = self.0.get(span.start()..span.end())?;
        Some(Raw::new_unchecked(text, encoding, span))
    }
}

impl EventReceiver for Decode<'_> {
    fn simple_key(
        &mut self,
        span: TomlSpan,
        encoding: Option<Encoding>,
        error: &mut dyn ErrorSink,
    ) {
        if let Some(raw) = self.raw(span, encoding) {
            raw.decode_key(&mut Cow::Borrowed(""), error);
        }
    }
}

/// A parse error worded as `toml::de::Error` words it.
fn toml_message(e: &ParseError) -> String {
    let mut message = e.description().to_owned();
    if let Some(expected) = e.expected() {
        message.push_str(", expected ");
        if expected.is_empty() {
            message.push_str("nothing");
        }
        for (i, x) in expected.iter().enumerate() {
            if i > 0 {
                message.push_str(", ");
            }
            match x {
                Expected::Literal("\n") => message.push_str("newline"),
                Expected::Literal("`") => message.push_str("'`'"),
                Expected::Literal(l) if l.chars().all(|c| c.is_ascii_control()) => {
                    message.push_str(&format!("`{}`", l.escape_debug()));
                }
                Expected::Literal(l) => message.push_str(&format!("`{l}`")),
                Expected::Description(d) => message.push_str(d),
                _ => message.push_str("etc"),
            }
        }
    }
    message
}

/// One `toml::syntax` diagnostic.
fn syntax_diagnostic(file: FileId, text: &str, span: Option<Span>, message: &str) -> Diagnostic {
    let span = span.unwrap_or(0..0);
    let bare = text.get(span.clone()).unwrap_or_default();
    Diagnostic::error(
        "toml::syntax",
        format!("TOML syntax error: {}", first_line(message)),
    )
    .at(file, span, "here")
    .with_help_opt(syntax_help(message, bare))
}

fn first_line(message: &str) -> &str {
    message.lines().next().unwrap_or(message).trim_end()
}

fn syntax_help(message: &str, offending: &str) -> Option<String> {
    let m = message.to_lowercase();
    let word = offending.chars().next().is_some_and(char::is_alphabetic);
    // A repeated key is a word too: asked first, so that it is not taken
    // for a text value without quotes.
    if m.contains("duplicate key") {
        Some(format!(
            "each key may appear once per table: remove this `{offending}` or the one before it"
        ))
    } else if word && !matches!(offending, "true" | "false" | "inf" | "nan") {
        Some(format!(
            "text values are written in double quotes: \"{offending}\""
        ))
    } else if m.contains("unclosed array table") {
        Some("a table of a list is headed by two brackets on each side: [[card]]".into())
    } else if m.contains("string") && (m.contains("unterminated") || m.contains("invalid")) {
        Some("strings are written in double quotes: name = \"Escudo Orc\"".into())
    } else {
        None
    }
}

/// Converts a TOML value to JSON, keeping every type: integers stay
/// integers, floats floats; datetimes become their RFC 3339 string.
///
/// # Errors
/// The span and message of a value JSON cannot hold (a non-finite float).
pub fn to_json(value: &Spanned<DeValue<'_>>) -> Result<Value, (Span, String)> {
    Ok(match value.get_ref() {
        DeValue::String(s) => Value::String(s.to_string()),
        DeValue::Integer(i) => {
            let n = i64::from_str_radix(i.as_str(), i.radix())
                .map_err(|e| (value.span(), integer_error(i, *e.kind())))?;
            Value::Number(n.into())
        }
        DeValue::Float(f) => {
            let n = f
                .as_str()
                .parse::<f64>()
                .ok()
                .and_then(Number::from_f64)
                .ok_or_else(|| {
                    (
                        value.span(),
                        format!("{f} is not a finite number; card fields cannot hold inf or nan"),
                    )
                })?;
            Value::Number(n)
        }
        DeValue::Boolean(b) => Value::Bool(*b),
        DeValue::Datetime(d) => Value::String(d.to_string()),
        DeValue::Array(items) => Value::Array(items.iter().map(to_json).collect::<Result<_, _>>()?),
        DeValue::Table(table) => Value::Object(table_to_json(table)?),
    })
}

/// Why an integer the TOML parser let through is not an `i64`: too large,
/// or not an integer at all (`0x` with no digit, a digit of another
/// script such as `٠`), which the parser leaves to its caller.
fn integer_error(i: &toml::de::DeInteger<'_>, kind: IntErrorKind) -> String {
    match kind {
        IntErrorKind::PosOverflow | IntErrorKind::NegOverflow => {
            format!("integer {i} does not fit in 64 bits")
        }
        IntErrorKind::Empty => format!("{i} is not a valid integer: it has no digits"),
        _ => format!(
            "{i} is not a valid integer: it holds a character that is not a digit of base {}",
            i.radix()
        ),
    }
}

/// Converts a TOML table to a JSON object (see [`to_json`]).
///
/// # Errors
/// As [`to_json`].
pub fn table_to_json(table: &DeTable<'_>) -> Result<Map<String, Value>, (Span, String)> {
    let mut map = Map::with_capacity(table.len());
    for (k, v) in table {
        map.insert(k.get_ref().to_string(), to_json(v)?);
    }
    Ok(map)
}

/// The spans of every key and value of a small document (a manifest, a
/// deck), by JSON pointer, so later stages can point into it after the
/// parsed tree is gone.
#[derive(Debug, Clone, Default)]
pub struct SpanIndex {
    spans: std::collections::HashMap<String, (Option<Span>, Span)>,
}

impl SpanIndex {
    /// Indexes `doc`.
    pub fn new(doc: &Document<'_>) -> Self {
        let mut index = SpanIndex::default();
        index.spans.insert(String::new(), (None, doc.span()));
        index.table("", doc.get_ref());
        index
    }

    fn table(&mut self, pointer: &str, table: &DeTable<'_>) {
        for (k, v) in table {
            let here = format!(
                "{pointer}/{}",
                k.get_ref().replace('~', "~0").replace('/', "~1")
            );
            self.spans.insert(here.clone(), (Some(k.span()), v.span()));
            self.value(&here, v);
        }
    }

    fn value(&mut self, pointer: &str, value: &Spanned<DeValue<'_>>) {
        match value.get_ref() {
            DeValue::Table(t) => self.table(pointer, t),
            DeValue::Array(items) => {
                for (i, v) in items.iter().enumerate() {
                    let here = format!("{pointer}/{i}");
                    self.spans.insert(here.clone(), (None, v.span()));
                    self.value(&here, v);
                }
            }
            _ => {}
        }
    }

    /// The span of the value at `pointer`.
    pub fn value_span(&self, pointer: &str) -> Option<Span> {
        self.spans.get(pointer).map(|(_, v)| v.clone())
    }

    /// The span of the key at `pointer`, or of its value when it has no key.
    pub fn key_span(&self, pointer: &str) -> Option<Span> {
        self.spans
            .get(pointer)
            .map(|(k, v)| k.clone().unwrap_or_else(|| v.clone()))
    }
}

/// A TOML key as written: bare when it may be (letters, digits, `-`, `_`),
/// a basic string otherwise. What every writer of TOML in carta names keys
/// with.
pub fn key(k: &str) -> Cow<'_, str> {
    let bare = !k.is_empty()
        && k.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    if bare {
        Cow::Borrowed(k)
    } else {
        Cow::Owned(toml::Value::String(k.to_owned()).to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn json_of(text: &str) -> Value {
        let mut diags = Vec::new();
        let (doc, ok) = parse_toml(FileId(0), text, &mut diags);
        assert!(ok, "{diags:?}");
        Value::Object(table_to_json(doc.get_ref()).unwrap())
    }

    #[test]
    fn keeps_types_and_radix() {
        let v = json_of(
            "a = 0x1F\nb = 1_000\nc = 2.5\nd = true\ne = 1979-05-27\nf = [1, \"x\"]\n[g]\nh = -3\n",
        );
        assert_eq!(
            v,
            serde_json::json!({"a": 31, "b": 1000, "c": 2.5, "d": true, "e": "1979-05-27", "f": [1, "x"], "g": {"h": -3}})
        );
    }

    #[test]
    fn reports_every_syntax_error() {
        let mut diags = Vec::new();
        let (_, ok) = parse_toml(FileId(0), "a = \nb = = 2\nc = \"x\"\n", &mut diags);
        assert!(!ok);
        assert!(diags.len() >= 2, "{diags:?}");
        assert!(diags.iter().all(|d| d.code == "toml::syntax"));
    }

    #[test]
    fn malformed_integers_are_not_called_too_large() {
        for (text, said) in [
            ("n = 0x", "0x is not a valid integer: it has no digits"),
            ("n = 0b", "0b is not a valid integer: it has no digits"),
            ("n = 0o", "0o is not a valid integer: it has no digits"),
            ("n = 1_0\u{660}", "not a digit of base 10"),
            (
                "n = 99999999999999999999",
                "integer 99999999999999999999 does not fit in 64 bits",
            ),
            ("n = 0x8000000000000000", "does not fit in 64 bits"),
        ] {
            let (doc, _) = parse_toml(FileId(0), text, &mut Vec::new());
            let (span, message) = table_to_json(doc.get_ref()).unwrap_err();
            assert!(message.contains(said), "{text}: {message}");
            assert_eq!(span.start, 4, "{text}");
        }
        assert_eq!(json_of("n = -9223372036854775808")["n"], i64::MIN);
    }

    #[test]
    fn the_parser_pass_words_errors_as_toml_does() {
        let text = "a = \nb = = 2\n= = =\nc = [1,,]\nd = {x = }\n[e\nf = \"x\n";
        let mut ours = Vec::new();
        let count = syntax_errors(FileId(0), text, 200, &mut ours);
        assert_eq!(count, ours.len());
        let mut theirs = Vec::new();
        parse_toml(FileId(0), text, &mut theirs);
        for d in &ours {
            assert!(
                theirs
                    .iter()
                    .any(|t| t.message == d.message && t.primary == d.primary),
                "{:?} not among {theirs:#?}",
                d.message
            );
        }
        assert!(count >= 5, "{ours:#?}");
    }

    #[test]
    fn a_file_with_more_syntax_errors_than_the_cap_keeps_the_cap() {
        let text = "= = =\n".repeat(2_000);
        let mut diags = Vec::new();
        let (doc, ok) = parse_toml(FileId(0), &text, &mut diags);
        assert!(!ok && doc.get_ref().is_empty());
        let elided: usize = diags.iter().map(|d| d.elided.count).sum();
        assert_eq!(diags.len(), 201, "the cap and one placeholder");
        assert_eq!(elided + 200, 6_000, "three errors a line");
        assert_eq!(diags.iter().map(|d| d.elided.errors).sum::<usize>(), elided);
    }

    #[test]
    fn a_duplicate_key_is_helped_as_one_not_as_a_bare_word() {
        let mut diags = Vec::new();
        parse_toml(FileId(0), "name = \"a\"\nname = \"b\"\n", &mut diags);
        let help = diags[0].help.as_deref().unwrap_or_default();
        assert!(help.contains("once per table"), "{help}");
        assert!(!help.contains("double quotes"), "{help}");
        let mut diags = Vec::new();
        parse_toml(FileId(0), "name = Escudo\n", &mut diags);
        let help = diags[0].help.as_deref().unwrap_or_default();
        assert!(help.contains("double quotes"), "{help}");
    }

    #[test]
    fn non_finite_float_is_an_error_at_the_value() {
        let mut diags = Vec::new();
        let (doc, _) = parse_toml(FileId(0), "x = nan\n", &mut diags);
        let (span, _) = table_to_json(doc.get_ref()).unwrap_err();
        assert_eq!(span, 4..7);
    }
}
