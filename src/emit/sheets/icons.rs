//! Card text with inline icons: `{AC}` in a text prints the game's icon
//! `AC`; `{dice:yellow:2}` prints icon `dice:yellow` twice. Everything else
//! is HTML-escaped, so a `<script>` in a card prints as text.

use std::collections::BTreeMap;

pub use crate::markup::{MAX_REPEAT, icon_tokens as tokens};

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
    pub fn resolve<'t>(&self, token: &'t str) -> Option<(&'t str, u32)> {
        crate::markup::icon_of(token, |name| self.svgs.contains_key(name))
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
