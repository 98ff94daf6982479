//! The markup of card text: `**bold**`, `*italic*` (nested either way),
//! keywords declared in `game.toml` written `[[terror]]`, and `\*`, `\[`
//! and `\\` for the characters themselves. Icon tokens (`{AC}`) and line
//! breaks stay in the text for whoever prints it.
//!
//! [`parse`] never fails: what does not parse is kept as text, and each
//! problem (a marker never closed, an undeclared keyword) is reported with
//! its byte offset in the text; [`check_file`] turns them into diagnostics
//! at their column in the card file (an unknown keyword with its
//! did-you-mean), for the text fields of every card of a file as the file
//! is read — so a compile keeps no text field for it — and
//! [`check_translated`] does the same for a translation file's texts.
//! Icon tokens are checked beside them ([`icons`]).

use std::borrow::Cow;

use serde::Serialize;
use serde_json::Value;

use crate::art::field_in;
use crate::config::Manifest;
use crate::diag::{Diagnostic, Diagnostics, FileId, Span};
use crate::load::{Workspace, text_of};
use crate::suggest;
use crate::validate::display::Role;
use crate::validate::{GameSchemas, RawCard};

mod icons;

pub use icons::{MAX_REPEAT, check_icons, icon_of, icon_tokens, may_hold_unknown_icon};

/// One piece of parsed text. Serialized for the bundle as
/// `{"t": "…"}`, `{"b": […]}`, `{"i": […]}`, `{"k": "terror"}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub enum Node {
    /// Plain text, with its icon tokens and line breaks.
    #[serde(rename = "t")]
    Text(String),
    /// `**…**`.
    #[serde(rename = "b")]
    Bold(Vec<Node>),
    /// `*…*`.
    #[serde(rename = "i")]
    Italic(Vec<Node>),
    /// `[[id]]`: a declared keyword, by id.
    #[serde(rename = "k")]
    Keyword(String),
}

/// What is wrong at some place of a text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Problem {
    /// A `**`, `*` or `[[` that nothing closes.
    Unclosed(&'static str),
    /// `[[id]]` where the game declares no keyword `id`.
    UnknownKeyword(String),
}

/// A problem and where it is: byte offsets in the text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    /// The bytes it covers.
    pub at: Span,
    /// What it is.
    pub problem: Problem,
}

/// An open `**` or `*`: its marker, where it starts, and what it holds.
struct Open {
    marker: &'static str,
    at: usize,
    nodes: Vec<Node>,
}

/// Parses `text`; `known` says whether a keyword id is declared.
pub fn parse(text: &str, known: &dyn Fn(&str) -> bool) -> (Vec<Node>, Vec<Found>) {
    let mut stack = vec![Open {
        marker: "",
        at: 0,
        nodes: Vec::new(),
    }];
    let mut found = Vec::new();
    let mut plain = String::new();
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < text.len() {
        match bytes[i] {
            b'\\' if matches!(bytes.get(i + 1), Some(b'*' | b'[' | b'\\')) => {
                plain.push(char::from(bytes[i + 1]));
                i += 2;
            }
            b'*' => {
                let run = bytes[i..].iter().take_while(|&&b| b == b'*').count();
                flush(&mut plain, &mut stack);
                stars(&mut stack, i, run);
                i += run;
            }
            b'[' if bytes.get(i + 1) == Some(&b'[') => {
                let (used, node) = keyword(text, i, known, &mut found);
                match node {
                    Some(node) => {
                        flush(&mut plain, &mut stack);
                        top(&mut stack).push(node);
                    }
                    None => plain.push_str(&text[i..i + used]),
                }
                i += used;
            }
            _ => {
                let next = text[i..].chars().next().map_or(1, char::len_utf8);
                plain.push_str(&text[i..i + next]);
                i += next;
            }
        }
    }
    flush(&mut plain, &mut stack);
    // Markers never closed are text, reported where they open.
    while stack.len() > 1 {
        let open = stack.pop().expect("more than the root");
        found.push(Found {
            at: open.at..open.at + open.marker.len(),
            problem: Problem::Unclosed(open.marker),
        });
        let parent = top(&mut stack);
        push_text(parent, open.marker);
        for n in open.nodes {
            match n {
                Node::Text(t) => push_text(parent, &t),
                other => parent.push(other),
            }
        }
    }
    found.sort_by_key(|f| f.at.start);
    (stack.pop().expect("the root").nodes, found)
}

fn top(stack: &mut [Open]) -> &mut Vec<Node> {
    &mut stack.last_mut().expect("the root stays").nodes
}

/// Adds text, merged with the text before it.
fn push_text(nodes: &mut Vec<Node>, text: &str) {
    if text.is_empty() {
        return;
    }
    if let Some(Node::Text(t)) = nodes.last_mut() {
        t.push_str(text);
    } else {
        nodes.push(Node::Text(text.to_owned()));
    }
}

fn flush(plain: &mut String, stack: &mut [Open]) {
    push_text(top(stack), plain);
    plain.clear();
}

/// A run of `run` stars at `at`: each closes the innermost open marker it
/// matches, and what is left opens new ones (`**` before `*`).
fn stars(stack: &mut Vec<Open>, at: usize, mut run: usize) {
    let mut pos = at;
    while run > 0 {
        let inner = stack.last().map(|o| o.marker).unwrap_or_default();
        let (marker, closes) = match inner {
            "*" => ("*", true),
            "**" if run >= 2 => ("**", true),
            _ if run >= 2 => ("**", false),
            _ => ("*", false),
        };
        if closes {
            let open = stack.pop().expect("an open marker");
            let node = if marker == "**" {
                Node::Bold(open.nodes)
            } else {
                Node::Italic(open.nodes)
            };
            top(stack).push(node);
        } else {
            stack.push(Open {
                marker,
                at: pos,
                nodes: Vec::new(),
            });
        }
        pos += marker.len();
        run -= marker.len();
    }
}

/// A `[[…` at `at`: how many bytes it takes and the keyword, if it is one.
fn keyword(
    text: &str,
    at: usize,
    known: &dyn Fn(&str) -> bool,
    found: &mut Vec<Found>,
) -> (usize, Option<Node>) {
    let rest = &text[at + 2..];
    let Some(end) = rest.find("]]") else {
        found.push(Found {
            at: at..at + 2,
            problem: Problem::Unclosed("[["),
        });
        return (2, None);
    };
    let id = &rest[..end];
    let used = end + 4;
    if known(id) {
        return (used, Some(Node::Keyword(id.to_owned())));
    }
    found.push(Found {
        at: at..at + used,
        problem: Problem::UnknownKeyword(id.to_owned()),
    });
    (used, None)
}

/// The nodes of `text` in a game with `manifest`'s keywords.
pub fn parse_in(manifest: &Manifest, text: &str) -> Vec<Node> {
    parse(text, &|id| manifest.keywords.contains_key(id)).0
}

/// The top-level fields of `kind` whose strings are card text: its text,
/// code and flavour fields (a code with markup prints as text).
pub fn text_fields(schemas: &GameSchemas, kind: &str) -> Vec<String> {
    schemas
        .kind(kind)
        .into_iter()
        .flat_map(|d| schemas.face(d).iter())
        .filter(|f| matches!(f.role, Role::Text | Role::Code | Role::Flavor))
        .map(|f| f.key.clone())
        .collect()
}

/// Checks the markup of the text fields of the cards of one card file,
/// `text` as it was read, each problem at its column. A file is checked
/// when it is read, so a compile does not read text fields of files that
/// did not change (their cards need not keep them).
pub fn check_file(
    manifest: &Manifest,
    schemas: &GameSchemas,
    text: &str,
    cards: &[RawCard],
) -> Vec<Diagnostic> {
    let known = |id: &str| manifest.keywords.contains_key(id);
    let mut fields_of = std::collections::BTreeMap::new();
    let mut out = Vec::new();
    for card in cards {
        let fields = fields_of
            .entry(card.kind.as_str())
            .or_insert_with(|| text_fields(schemas, &card.kind));
        for field in fields.iter() {
            let Some(Value::String(value_text)) = card.fields.get(field) else {
                continue;
            };
            let (_, found) = parse(value_text, &known);
            if found.is_empty() {
                continue;
            }
            let value = field_in(text, card, &format!("/{field}")).value;
            let start = content_start(text, &value, value_text);
            for f in found {
                let at = start.map_or(value.clone(), |s| s + f.at.start..s + f.at.end);
                let whose = format!("card `{}`", card.id);
                out.push(diagnostic(manifest, &f, &whose, card.file, at));
            }
        }
    }
    out
}

/// Checks the markup of translated texts of file `file` (a translation
/// file): each `(what it translates, text, span of its TOML string)`.
pub fn check_translated<'t>(
    ws: &Workspace,
    manifest: &Manifest,
    file: FileId,
    texts: impl Iterator<Item = (String, &'t str, &'t Span)>,
    diags: &mut Diagnostics,
) {
    let known = |id: &str| manifest.keywords.contains_key(id);
    let source = text_of(ws.jail(), ws.sources.get(file)).unwrap_or(Cow::Borrowed(""));
    for (whose, text, value) in texts {
        let (_, found) = parse(text, &known);
        let start = content_start(&source, value, text);
        for f in found {
            let at = start.map_or(value.clone(), |s| s + f.at.start..s + f.at.end);
            diags.push(diagnostic(manifest, &f, &whose, file, at));
        }
    }
}

/// Where the characters of the string `text` start in the card file, when
/// the TOML string at `value` writes them as they are (no escapes).
fn content_start(source: &str, value: &Span, text: &str) -> Option<usize> {
    let written = source.get(value.clone())?;
    for quote in ["\"\"\"", "'''", "\"", "'"] {
        let Some(inner) = written
            .strip_prefix(quote)
            .and_then(|w| w.strip_suffix(quote))
        else {
            continue;
        };
        // A multi-line string drops the line break right after its opening.
        let skip = if quote.len() == 3 {
            inner.len() - inner.trim_start_matches(['\r', '\n']).len()
        } else {
            0
        };
        return (&inner[skip..] == text).then_some(value.start + quote.len() + skip);
    }
    None
}

/// The diagnostic for problem `f` of a text of `whose`, at `at` in `file`.
fn diagnostic(manifest: &Manifest, f: &Found, whose: &str, file: FileId, at: Span) -> Diagnostic {
    match &f.problem {
        Problem::Unclosed(marker) => {
            let closer = if *marker == "[[" { "]]" } else { marker };
            Diagnostic::error(
                "markup::unclosed",
                format!("`{marker}` in the text of {whose} is never closed"),
            )
            .at(file, at, "opened here")
            .with_help(format!(
                "close it with `{closer}`; for the character itself write `\\\\{}` in a \"…\" string",
                &marker[..1]
            ))
        }
        Problem::UnknownKeyword(id) => {
            let ids = manifest.keywords.keys().map(String::as_str);
            let help = if manifest.keywords.is_empty() {
                format!(
                    "declare it in `game.toml`: `[keywords.{id}]` with `name = \"…\"` and an optional `reminder`"
                )
            } else {
                suggest::help(id, ids, "keywords")
            };
            Diagnostic::error(
                "markup::unknown-keyword",
                format!("`[[{id}]]` names no keyword of the game"),
            )
            .at(file, at, "unknown keyword")
            .with_help(help)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: &str) -> Node {
        Node::Text(s.into())
    }

    fn p(text: &str) -> (Vec<Node>, Vec<Found>) {
        parse(text, &|id| id == "terror")
    }

    #[test]
    fn markers_nest_and_close() {
        assert_eq!(
            p("a **b *c*** d *e* [[terror]] {AC}").0,
            [
                t("a "),
                Node::Bold(vec![t("b "), Node::Italic(vec![t("c")])]),
                t(" d "),
                Node::Italic(vec![t("e")]),
                t(" "),
                Node::Keyword("terror".into()),
                t(" {AC}"),
            ]
        );
        assert_eq!(
            p("***x***").0,
            [Node::Bold(vec![Node::Italic(vec![t("x")])])]
        );
        assert_eq!(p(r"5 \* 3 \[\[x]]").0, [t("5 * 3 [[x]]")]);
        assert!(p("**Terror** (Contínua)").1.is_empty());
    }

    #[test]
    fn problems_are_text_with_their_place() {
        let (nodes, found) = p("a **b *c");
        assert_eq!(nodes, [t("a **b *c")]);
        assert_eq!(
            found,
            [
                Found {
                    at: 2..4,
                    problem: Problem::Unclosed("**")
                },
                Found {
                    at: 6..7,
                    problem: Problem::Unclosed("*")
                },
            ]
        );
        let (nodes, found) = p("é [[terrro]] e [[open");
        assert_eq!(nodes, [t("é [[terrro]] e [[open")]);
        assert_eq!(found[0].at, 3..13);
        assert_eq!(found[0].problem, Problem::UnknownKeyword("terrro".into()));
        assert_eq!(found[1].problem, Problem::Unclosed("[["));
        assert_eq!(found[1].at, 16..18);
    }

    #[test]
    fn text_is_found_in_its_toml_string() {
        let src = "x = \"a *b\"\ny = '''\nc *d'''\nz = \"e\\t*\"";
        let at = |s: &str| src.find(s).unwrap()..src.find(s).unwrap() + s.len();
        assert_eq!(content_start(src, &at("\"a *b\""), "a *b"), Some(5));
        assert_eq!(content_start(src, &at("'''\nc *d'''"), "c *d"), Some(19));
        assert_eq!(content_start(src, &at("\"e\\t*\""), "e\t*"), None);
    }
}
