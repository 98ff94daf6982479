//! Schema files as documents: the URI each is registered under, how one
//! is parsed and checked against its meta-schema, how a JSON pointer maps
//! back to a span of its text, and the paths and keyword carta reads in
//! them. Both the compiler of kind schemas and its helpers use these.

use std::sync::Arc;

use serde_json::Value;

use crate::diag::{Diagnostic, FileId};

/// The keyword a schema puts on a string field whose value is a card id.
/// Its value is a kind id or an array of kind ids the card may have.
pub const REF_KEYWORD: &str = "x-carta-ref";

/// A step of a [`RefPattern`] path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PathStep {
    /// A named property.
    Key(String),
    /// Any item of an array.
    AnyItem,
    /// Any property of an object (`additionalProperties`).
    AnyKey,
}

/// A parsed schema document and where it came from.
#[derive(Debug, Clone)]
pub struct SchemaDoc {
    /// The URI it is registered under (see [`uri_of`]).
    pub uri: String,
    /// The file it was read from; `None` for carta's own built-in schemas.
    pub file: Option<FileId>,
    /// The file's text, for placing problems found when compiling.
    pub text: Option<Arc<str>>,
    /// The schema.
    pub doc: Value,
}

/// The URI a workspace-relative schema file is registered under.
pub fn uri_of(rel_path: &str) -> String {
    format!("{}{rel_path}", uri_prefix())
}

/// What [`uri_of`] puts before a workspace path; never shown to users.
pub(super) fn uri_prefix() -> &'static str {
    "carta://workspace/"
}

/// A message from the schema library with internal URIs made workspace paths.
pub(super) fn without_uris(message: &str) -> String {
    message.replace(uri_prefix(), "")
}

/// Parses a schema file and checks it against its meta-schema.
pub(super) fn parse_schema(file: FileId, text: &str) -> Result<Value, Box<Diagnostic>> {
    let doc: Value = serde_json::from_str(text).map_err(|e| {
        let at = offset_of(text, e.line(), e.column());
        Box::new(
            Diagnostic::error(
                "schema::invalid-json",
                format!("this schema is not valid JSON: {e}"),
            )
            .at(file, at..at, "here")
            .with_help(
                "a schema file is a JSON document; check for a missing comma, quote or brace",
            ),
        )
    })?;
    if let Err(e) = jsonschema::meta::validate(&doc) {
        let pointer = e.instance_path().to_string();
        return Err(Box::new(
            Diagnostic::error(
                "schema::invalid-schema",
                format!(
                    "this is not a valid JSON Schema: at `{}`: {}",
                    if pointer.is_empty() { "/" } else { &pointer },
                    e
                ),
            )
            .at(file, json_pointer_span(text, &pointer), "here")
            .with_help("schemas follow JSON Schema draft 2020-12 (https://json-schema.org)"),
        ));
    }
    Ok(doc)
}

/// The span of the first `"key"` in a JSON text, or the start of the file.
/// `serde_json` keeps no spans, so schema errors are placed by the key they name.
pub(super) fn approx_span(text: &str, key: &str) -> std::ops::Range<usize> {
    if key.is_empty() {
        return 0..0;
    }
    let quoted = format!("\"{key}\"");
    text.find(&quoted).map_or(0..0, |i| i..i + quoted.len())
}

/// The approximate span of a JSON pointer's last key: each key of the
/// pointer is searched for after the previous one (array indexes skipped).
pub(super) fn json_pointer_span(text: &str, pointer: &str) -> std::ops::Range<usize> {
    let mut from = 0;
    let mut span = 0..0;
    for seg in pointer
        .split('/')
        .skip(1)
        .filter(|s| s.parse::<usize>().is_err())
    {
        let found = approx_span(&text[from..], &seg.replace("~1", "/").replace("~0", "~"));
        if found == (0..0) {
            break;
        }
        span = from + found.start..from + found.end;
        from = span.end;
    }
    span
}

/// The byte offset of a 1-based line and column (as `serde_json` reports them).
fn offset_of(text: &str, line: usize, column: usize) -> usize {
    let line_start: usize = text
        .split_inclusive('\n')
        .take(line.saturating_sub(1))
        .map(str::len)
        .sum();
    (line_start + column.saturating_sub(1)).min(text.len())
}

pub(super) fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        // Bytes, not `&s[..]`: a `%` before a multi-byte character must not split it.
        let hex = bytes
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok());
        if let Some(b) = hex
            .filter(|_| bytes[i] == b'%')
            .and_then(|h| u8::from_str_radix(h, 16).ok())
        {
            out.push(b);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Removes `.` and `..` segments from a URI path.
pub(super) fn normalize(uri: &str) -> String {
    let (scheme, rest) = uri.split_once("://").unwrap_or(("", uri));
    let mut parts: Vec<&str> = Vec::new();
    for seg in rest.split('/') {
        match seg {
            "." => {}
            ".." => {
                if parts.len() > 1 {
                    parts.pop();
                }
            }
            s => parts.push(s),
        }
    }
    format!("{scheme}://{}", parts.join("/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalizes_relative_paths() {
        assert_eq!(
            normalize("carta://workspace/schemas/g/./common.schema.json"),
            "carta://workspace/schemas/g/common.schema.json"
        );
        assert_eq!(
            normalize("carta://workspace/schemas/g/../h/x.json"),
            "carta://workspace/schemas/h/x.json"
        );
    }

    #[test]
    fn decodes_fragments() {
        assert_eq!(percent_decode("/$defs/dice%20x"), "/$defs/dice x");
        assert_eq!(percent_decode("/%24defs/a"), "/$defs/a");
    }

    #[test]
    fn offsets_from_line_and_column() {
        assert_eq!(offset_of("ab\ncd\n", 2, 2), 4);
    }
}
