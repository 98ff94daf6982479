//! Text from a source quoted in a message: bounded in length, and with
//! control and invisible format characters escaped so no file can send
//! terminal escapes or reorder what a report shows.

use std::borrow::Cow;

/// The most characters of a value quoted in a message.
pub(super) const MAX_QUOTED: usize = 80;

/// `s` with every control character other than a line break or tab, and
/// every invisible format character (bidi controls and the like, see
/// `is_invisible`), written as a `\u{…}` escape (borrowed when there is
/// none).
pub fn escape_controls(s: &str) -> Cow<'_, str> {
    if !s.chars().any(is_escaped) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if is_escaped(c) {
            out.push_str(&format!("\\u{{{:x}}}", c as u32));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

fn is_escaped(c: char) -> bool {
    (c.is_control() && c != '\n' && c != '\t') || is_invisible(c)
}

/// Whether `c` is a format character that changes how text around it is
/// shown without being seen itself: the bidirectional controls (which can
/// make `a.toml` print as `lmot.a`, as in "Trojan Source"), line and
/// paragraph separators, zero-width spaces, invisible fillers and tags.
/// Left out, because real text needs them and they reorder nothing: the
/// zero-width (non-)joiners U+200C/U+200D (emoji sequences, Persian,
/// Indic scripts) and the variation selectors (emoji presentation, CJK).
pub(super) fn is_invisible(c: char) -> bool {
    matches!(
        c,
        '\u{ad}'
            | '\u{61c}'
            | '\u{115f}'
            | '\u{1160}'
            | '\u{17b4}'
            | '\u{17b5}'
            | '\u{180e}'
            | '\u{200b}'
            | '\u{200e}'
            | '\u{200f}'
            | '\u{2028}'..='\u{202e}'
            | '\u{2060}'..='\u{206f}'
            | '\u{3164}'
            | '\u{feff}'
            | '\u{ffa0}'
            | '\u{fff9}'..='\u{fffb}'
            | '\u{1d173}'..='\u{1d17a}'
            | '\u{e0000}'..='\u{e007f}'
    )
}

/// The most characters of a message, help or label shown in a report.
pub(super) const MAX_MESSAGE: usize = 600;

/// A value from a source, cut to `MAX_QUOTED` characters with a note of
/// how many more there were, for quoting in a one-line message.
pub fn clip(s: &str) -> Cow<'_, str> {
    clip_to(s, MAX_QUOTED)
}

/// `s` cut to `max` characters with a note of how many more there were.
pub(super) fn clip_to(s: &str, max: usize) -> Cow<'_, str> {
    match s.char_indices().nth(max) {
        None => Cow::Borrowed(s),
        Some((cut, _)) => {
            let more = s[cut..].chars().count();
            Cow::Owned(format!("{}… ({more} more characters)", &s[..cut]))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_controls_but_not_text() {
        assert_eq!(escape_controls("Guardião\tx\n"), "Guardião\tx\n");
        assert_eq!(escape_controls("a\u{1b}[2Jb\u{9b}"), "a\\u{1b}[2Jb\\u{9b}");
    }

    #[test]
    fn escapes_bidi_and_invisible_format_characters_but_not_emoji() {
        assert_eq!(
            escape_controls("x\u{202e}lmot.a\u{2066}\u{2069}\u{200b}\u{feff}\u{61c}\u{2028}"),
            "x\\u{202e}lmot.a\\u{2066}\\u{2069}\\u{200b}\\u{feff}\\u{61c}\\u{2028}"
        );
        for text in [
            "Coração, niño, über, Ærø",
            "\u{2764}\u{fe0f} \u{1f468}\u{200d}\u{1f469}\u{200d}\u{1f467} \u{1f1e7}\u{1f1f7}",
            "\u{645}\u{6cc}\u{200c}\u{62e}\u{648}\u{627}\u{647}\u{645} \u{5e9}\u{5dc}\u{5d5}\u{5dd} \u{4f60}\u{597d}",
        ] {
            assert_eq!(escape_controls(text), text);
        }
    }

    #[test]
    fn clips_long_values() {
        assert_eq!(clip("short"), "short");
        let long = "é".repeat(1000);
        let c = clip(&long);
        assert!(c.ends_with("… (920 more characters)"), "{c}");
        assert_eq!(c.chars().filter(|&ch| ch == 'é').count(), MAX_QUOTED);
    }
}
