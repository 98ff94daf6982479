//! Text from a source quoted in a message: bounded in length, and with
//! control characters escaped so no file can send terminal escapes.

use std::borrow::Cow;

/// The most characters of a value quoted in a message.
pub(super) const MAX_QUOTED: usize = 80;

/// `s` with every control character other than a line break or tab written
/// as a `\u{…}` escape (borrowed when there is none).
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
    c.is_control() && c != '\n' && c != '\t'
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
    fn clips_long_values() {
        assert_eq!(clip("short"), "short");
        let long = "é".repeat(1000);
        let c = clip(&long);
        assert!(c.ends_with("… (920 more characters)"), "{c}");
        assert_eq!(c.chars().filter(|&ch| ch == 'é').count(), MAX_QUOTED);
    }
}
