//! The captions a game's templates print: each `{{t "Vida"}}` (or
//! `(t "Vida")` inside another helper's arguments) in `templates/<game>/*.hbs`
//! names a source phrase, which a translation file translates under
//! `[phrases]`. Only phrases written as string literals are found (and
//! checked); `t` looks up any string at print time.

use crate::diag::{Diagnostics, FileId, Span};
use crate::load::{LoadError, Workspace};

/// The folder of a game's templates, under the workspace root.
pub const TEMPLATES: &str = "templates";

/// A phrase and where a template uses it first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Phrase {
    /// The source phrase, as the template writes it (escapes resolved).
    pub text: String,
    /// The template file.
    pub file: FileId,
    /// The string literal, quotes included.
    pub span: Span,
}

/// The names of the files in game `game`'s template folder
/// (`templates/<game>/`), sorted, hidden ones left out; none when the
/// folder does not exist. The sheets read the `.hbs` files and
/// `style.css`; the phrases are in the `.hbs` files.
///
/// # Errors
/// When the folder cannot be listed.
pub fn template_names(ws: &Workspace, game: &str) -> Result<Vec<String>, LoadError> {
    let dir = ws.root().join(TEMPLATES).join(game);
    if !dir.is_dir() {
        return Ok(Vec::new());
    }
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .map_err(|source| LoadError::Io {
            path: dir.clone(),
            source,
        })?
        .filter_map(Result::ok)
        .filter(|e| !e.path().is_dir())
        .filter_map(|e| e.file_name().into_string().ok())
        .filter(|n| !n.starts_with('.'))
        .collect();
    names.sort();
    Ok(names)
}

/// The workspace-relative path of template file `name` of game `game`.
pub fn template_path(game: &str, name: &str) -> String {
    format!("{TEMPLATES}/{game}/{name}")
}

/// Every phrase game `game`'s templates print, each once (at its first
/// use, files in name order), in that order.
///
/// # Errors
/// When a template cannot be read.
pub fn read(
    ws: &mut Workspace,
    game: &str,
    diags: &mut Diagnostics,
) -> Result<Vec<Phrase>, LoadError> {
    let rels: Vec<String> = template_names(ws, game)?
        .iter()
        // Template names are matched exactly, as the kind ids in them are.
        .filter(|n| {
            #[allow(clippy::case_sensitive_file_extension_comparisons)]
            n.ends_with(".hbs")
        })
        .map(|n| template_path(game, n))
        .collect();
    let found = ws.read_each(&rels, false, diags, |file, _, text| {
        let phrases: Vec<Phrase> = scan(text)
            .into_iter()
            .map(|(text, span)| Phrase { text, file, span })
            .collect();
        // A template is kept in memory only when a diagnostic may point
        // into it: when it prints a phrase.
        let keep = !phrases.is_empty();
        (phrases, keep)
    })?;
    let mut out: Vec<Phrase> = Vec::new();
    for phrase in found.into_iter().flatten().flatten() {
        if !out.iter().any(|p| p.text == phrase.text) {
            out.push(phrase);
        }
    }
    Ok(out)
}

/// The string literals `t` is called with in a template's text: (phrase,
/// span of the literal with its quotes), in order. Comments are skipped.
pub fn scan(text: &str) -> Vec<(String, Span)> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i..].starts_with(b"{{!") {
            let close = if bytes[i..].starts_with(b"{{!--") {
                "--}}"
            } else {
                "}}"
            };
            i = text[i + 3..]
                .find(close)
                .map_or(bytes.len(), |at| i + 3 + at);
            continue;
        }
        let opener = if bytes[i..].starts_with(b"{{") {
            2
        } else if bytes[i] == b'(' {
            1
        } else {
            i += 1;
            continue;
        };
        let mut j = i + opener;
        while j < bytes.len() && matches!(bytes[j], b'{' | b'~') {
            j += 1;
        }
        while j < bytes.len() && bytes[j].is_ascii_whitespace() {
            j += 1;
        }
        let call =
            bytes.get(j) == Some(&b't') && bytes.get(j + 1).is_some_and(u8::is_ascii_whitespace);
        if call {
            j += 1;
            while j < bytes.len() && bytes[j].is_ascii_whitespace() {
                j += 1;
            }
            if let Some((phrase, end)) = literal(text, j) {
                out.push((phrase, j..end));
                i = end;
                continue;
            }
        }
        i += opener;
    }
    out
}

/// The string literal starting at `at` (`"…"` or `'…'`, `\` escaping the
/// quote): its text and the offset just after it.
fn literal(text: &str, at: usize) -> Option<(String, usize)> {
    let quote = text[at..]
        .chars()
        .next()
        .filter(|c| *c == '"' || *c == '\'')?;
    let mut out = String::new();
    let mut chars = text[at + 1..].char_indices();
    while let Some((k, c)) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some((_, next)) if next == quote || next == '\\' => out.push(next),
                Some((_, next)) => {
                    out.push('\\');
                    out.push(next);
                }
                None => return None,
            },
            c if c == quote => return Some((out, at + 1 + k + 1)),
            c => out.push(c),
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn phrases(text: &str) -> Vec<String> {
        scan(text).into_iter().map(|(p, _)| p).collect()
    }

    #[test]
    fn finds_every_call_of_t_with_a_literal() {
        let text = r#"<b>{{t "Vida"}}</b> {{~t 'Res. física' ~}} {{{t "a \"b\""}}}
{{#if x}}{{join (t "recarga {n}" n=cd) ", "}}{{/if}} {{text "Vida"}} {{t name}} {{tt "no"}}"#;
        assert_eq!(
            phrases(text),
            ["Vida", "Res. física", "a \"b\"", "recarga {n}"]
        );
        let (p, span) = &scan(text)[0];
        assert_eq!((p.as_str(), &text[span.clone()]), ("Vida", "\"Vida\""));
    }

    #[test]
    fn skips_comments_and_unterminated_literals() {
        assert_eq!(
            phrases(r#"{{!-- {{t "x"}} --}}{{! {{t "y" }}{{t "z"}}{{t "open"#),
            ["z"]
        );
        assert!(phrases("{{t}} (t) {{ t }} — ♈ {{x}}").is_empty());
    }
}
