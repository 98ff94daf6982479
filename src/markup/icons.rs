//! Icon tokens in card text: `{AC}` names the game's icon `AC`,
//! `{dice:yellow:2}` icon `dice:yellow` twice. A token that names no icon
//! declared under `[icons]` is an error at its card field, found as the
//! card file is read (like the markup), so that `carta check` reports what
//! the sheets would refuse to print.

use std::ops::Range;

use serde_json::{Map, Value};

use crate::art::field_in;
use crate::config::Manifest;
use crate::diag::Diagnostic;
use crate::validate::{RawCard, each_string};

/// The most times a `:N` suffix may repeat an icon.
pub const MAX_REPEAT: u32 = 20;

/// Every `{token}` in `text`: its byte range (braces included) and the
/// token. A token is one or more `:`-separated runs of ASCII letters,
/// digits, `_` and `-`; other braces are plain text.
pub fn icon_tokens(text: &str) -> Vec<(Range<usize>, &str)> {
    let mut out = Vec::new();
    let bytes = text.as_bytes();
    let mut i = 0;
    while let Some(open) = text[i..].find('{').map(|o| o + i) {
        let rest = &text[open + 1..];
        let len = rest
            .bytes()
            .take_while(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b':'))
            .count();
        let token = &rest[..len];
        let closed = bytes.get(open + 1 + len) == Some(&b'}');
        if closed && !token.is_empty() && token.split(':').all(|s| !s.is_empty()) {
            out.push((open..open + len + 2, token));
            i = open + len + 2;
        } else {
            i = open + 1;
        }
    }
    out
}

/// The icon a token (without braces) prints and how many times, where
/// `known` says which icon names exist: the token itself once, or
/// `name:N` as `name` N times (1 to [`MAX_REPEAT`]).
pub fn icon_of(token: &str, known: impl Fn(&str) -> bool) -> Option<(&str, u32)> {
    if known(token) {
        return Some((token, 1));
    }
    let (base, n) = token.rsplit_once(':')?;
    let n: u32 = n.parse().ok().filter(|n| (1..=MAX_REPEAT).contains(n))?;
    known(base).then_some((base, n))
}

/// Whether `text` (a card file as read) may hold a token that names no
/// icon of `manifest`: the cheap test that spares reading every field of
/// a file that has none. A string escape may spell a brace (`\u007B`), so
/// a file with one is looked at in full.
pub fn may_hold_unknown_icon(manifest: &Manifest, text: &str) -> bool {
    let known = |name: &str| manifest.icons.contains_key(name);
    text.contains("\\u007")
        || text.contains("\\U0000007")
        || icon_tokens(text)
            .into_iter()
            .any(|(_, token)| icon_of(token, known).is_none())
}

/// Reports every `{token}` in any string of the cards' fields (`cards`
/// read with every field from `text`, their file) that names no icon
/// declared in `manifest`, at the field.
pub fn check_icons(manifest: &Manifest, text: &str, cards: &[RawCard]) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for card in cards {
        let fields = card.all_fields();
        check_tokens(manifest, text, card, &fields, &mut out);
    }
    out
}

/// Reports the unknown tokens of every string of `fields`, `card`'s.
fn check_tokens(
    manifest: &Manifest,
    text: &str,
    card: &RawCard,
    fields: &Map<String, Value>,
    diags: &mut Vec<Diagnostic>,
) {
    each_string(fields, &mut |pointer, value| {
        if value.contains('{') {
            unknown_tokens(manifest, (text, card), pointer, value, diags);
        }
    });
}

/// Reports the tokens of `value` (at `pointer` in `card`, written in
/// `text`) that name no icon.
fn unknown_tokens(
    manifest: &Manifest,
    (text, card): (&str, &RawCard),
    pointer: &str,
    value: &str,
    diags: &mut Vec<Diagnostic>,
) {
    let known = |name: &str| manifest.icons.contains_key(name);
    for (_, token) in icon_tokens(value) {
        if icon_of(token, known).is_some() {
            continue;
        }
        let base = token
            .rsplit_once(':')
            .filter(|(_, n)| n.parse::<u32>().is_ok())
            .map_or(token, |(b, _)| b);
        let hint = crate::suggest::closest(base, manifest.icons.keys().map(String::as_str));
        let at = field_in(text, card, pointer);
        diags.push(
            Diagnostic::error(
                "sheets::unknown-icon",
                format!(
                    "`{{{token}}}` in `{}` of card `{}` is not an icon of this game",
                    at.display, card.id
                ),
            )
            .at(card.file, at.value, "unknown icon token")
            .with_help(match hint {
                Some(h) => format!("did you mean `{{{h}}}`?"),
                None => format!("declare `{base}` under [icons] in game.toml"),
            }),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_tokens_and_skips_other_braces() {
        let t = icon_tokens("a {AC} b {dice:yellow:2} { x } {} {a::b} {é}");
        let found: Vec<&str> = t.iter().map(|(_, s)| *s).collect();
        assert_eq!(found, ["AC", "dice:yellow:2"]);
        assert_eq!(t[0].0, 2..6);
    }

    #[test]
    fn repeats_resolve_within_the_limit() {
        let known = |n: &str| ["AC", "dice:yellow"].contains(&n);
        assert_eq!(icon_of("AC", known), Some(("AC", 1)));
        assert_eq!(icon_of("dice:yellow:2", known), Some(("dice:yellow", 2)));
        assert_eq!(icon_of("dice:yellow:0", known), None);
        assert_eq!(icon_of("dice:yellow:21", known), None);
        assert_eq!(icon_of("dice:red:1", known), None);
    }
}
