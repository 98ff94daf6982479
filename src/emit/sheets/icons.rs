//! Card text with inline icons: `{AC}` in a text prints the game's icon
//! `AC`; `{dice:yellow:2}` prints icon `dice:yellow` twice. Everything else
//! is HTML-escaped, so a `<script>` in a card prints as text.

use std::collections::BTreeMap;
use std::ops::Range;

/// The most times a `:N` suffix may repeat an icon.
pub const MAX_REPEAT: u32 = 20;

/// The icons of a game, ready to print: token → inline SVG markup.
#[derive(Debug, Clone, Default)]
pub struct IconSet {
    svgs: BTreeMap<String, String>,
    labels: BTreeMap<String, String>,
}

impl IconSet {
    /// Adds icon `name` with its SVG markup and label.
    pub fn insert(&mut self, name: &str, svg: String, label: String) {
        self.svgs.insert(name.to_owned(), svg);
        self.labels.insert(name.to_owned(), label);
    }

    /// The declared token names, sorted.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.svgs.keys().map(String::as_str)
    }

    /// What a token (without braces) prints: an icon and how many times.
    pub fn resolve(&self, token: &str) -> Option<(&str, u32)> {
        if let Some((name, _)) = self.svgs.get_key_value(token) {
            return Some((name, 1));
        }
        let (base, n) = token.rsplit_once(':')?;
        let n: u32 = n.parse().ok().filter(|n| (1..=MAX_REPEAT).contains(n))?;
        let (name, _) = self.svgs.get_key_value(base)?;
        Some((name, n))
    }

    /// Writes one icon's markup `times` times.
    pub fn write_icon(&self, name: &str, times: u32, out: &mut String) {
        let (Some(svg), Some(label)) = (self.svgs.get(name), self.labels.get(name)) else {
            return;
        };
        let class: String = name
            .chars()
            .map(|c| if c == ':' { '-' } else { c })
            .collect();
        for _ in 0..times {
            out.push_str("<span class=\"carta-icon carta-icon-");
            escape_into(&class, out);
            out.push_str("\" role=\"img\" aria-label=\"");
            escape_into(label, out);
            out.push_str("\">");
            out.push_str(svg);
            out.push_str("</span>");
        }
    }

    /// Writes `text` as HTML: escaped, with its tokens as icons and line
    /// breaks as `<br>`. An unknown token prints as written.
    pub fn write_text(&self, text: &str, out: &mut String) {
        let mut at = 0;
        for (range, token) in tokens(text) {
            if let Some((name, times)) = self.resolve(token) {
                escape_lines(&text[at..range.start], out);
                self.write_icon(name, times, out);
                at = range.end;
            }
        }
        escape_lines(&text[at..], out);
    }
}

/// Every `{token}` in `text`: its byte range (braces included) and the
/// token. A token is one or more `:`-separated runs of ASCII letters,
/// digits, `_` and `-`; other braces are plain text.
pub fn tokens(text: &str) -> Vec<(Range<usize>, &str)> {
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

/// HTML-escapes `s` into `out`.
pub fn escape_into(s: &str, out: &mut String) {
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#x27;"),
            _ => out.push(c),
        }
    }
}

/// HTML-escapes `s`, turning line breaks into `<br>`.
fn escape_lines(s: &str, out: &mut String) {
    for (i, line) in s.split('\n').enumerate() {
        if i > 0 {
            out.push_str("<br>");
        }
        escape_into(line, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set() -> IconSet {
        let mut s = IconSet::default();
        s.insert("AC", "<svg/>".into(), "corpo a corpo".into());
        s.insert(
            "dice:yellow",
            "<svg id=\"y\"/>".into(),
            "dado amarelo".into(),
        );
        s
    }

    #[test]
    fn finds_tokens_and_skips_other_braces() {
        let t = tokens("a {AC} b {dice:yellow:2} { x } {} {a::b} {é}");
        let found: Vec<&str> = t.iter().map(|(_, s)| *s).collect();
        assert_eq!(found, ["AC", "dice:yellow:2"]);
        assert_eq!(t[0].0, 2..6);
    }

    #[test]
    fn resolves_repeats() {
        let s = set();
        assert_eq!(s.resolve("AC"), Some(("AC", 1)));
        assert_eq!(s.resolve("dice:yellow:2"), Some(("dice:yellow", 2)));
        assert_eq!(s.resolve("dice:yellow:0"), None);
        assert_eq!(s.resolve("dice:red:1"), None);
        assert_eq!(s.resolve("AD"), None);
    }

    #[test]
    fn text_is_escaped_and_icons_inline() {
        let mut out = String::new();
        set().write_text("<script>x</script> & {AC}\n{dice:yellow:2}", &mut out);
        assert_eq!(
            out,
            "&lt;script&gt;x&lt;/script&gt; &amp; \
             <span class=\"carta-icon carta-icon-AC\" role=\"img\" aria-label=\"corpo a corpo\"><svg/></span><br>\
             <span class=\"carta-icon carta-icon-dice-yellow\" role=\"img\" aria-label=\"dado amarelo\"><svg id=\"y\"/></span>\
             <span class=\"carta-icon carta-icon-dice-yellow\" role=\"img\" aria-label=\"dado amarelo\"><svg id=\"y\"/></span>"
        );
    }
}
