//! CSV cells a spreadsheet never runs as formulas, read back as written.
//!
//! A cell whose text starts with `=`, `+`, `-`, `@`, a tab or a carriage
//! return is a formula to Excel and `LibreOffice` when they open a CSV file
//! (OWASP's "CSV injection"): a stranger's card text such as
//! `=HYPERLINK(…)` would run on the reader's machine. Every CSV carta
//! writes passes its cells through [`defuse`], which puts a `'` in front
//! (the mark spreadsheets show as "this is text"); carta's own CSV reader
//! takes it off again with [`restore`], so a conversion round trip gives the
//! same cards.

use std::borrow::Cow;

/// The characters that make a spreadsheet read a cell as a formula.
const TRIGGERS: [char; 6] = ['=', '+', '-', '@', '\t', '\r'];

/// Whether `s` is a plain decimal number (`-3`, `+2.5`, `1e3`): a
/// spreadsheet reads it as that number, never as a formula, so it is
/// written as it is.
fn plain_number(s: &str) -> bool {
    let s = s.strip_prefix(['-', '+']).unwrap_or(s);
    let (mantissa, exponent) = match s.split_once(['e', 'E']) {
        Some((m, e)) => (m, Some(e.strip_prefix(['-', '+']).unwrap_or(e))),
        None => (s, None),
    };
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits = |d: &str| d.bytes().all(|b| b.is_ascii_digit());
    !(whole.is_empty() && fraction.is_empty())
        && digits(whole)
        && digits(fraction)
        && exponent.is_none_or(|e| !e.is_empty() && digits(e))
}

/// Whether the text after any leading `'`s would start a formula.
fn hides_a_formula(s: &str) -> bool {
    s.trim_start_matches('\'').starts_with(TRIGGERS)
}

/// `s` as a CSV cell no spreadsheet runs: a `'` in front of text that
/// starts with a formula character, and in front of text that already
/// starts with `'`s before one (so that [`restore`] gives `s` back).
pub fn defuse(s: &str) -> Cow<'_, str> {
    if hides_a_formula(s) && !plain_number(s) {
        Cow::Owned(format!("'{s}"))
    } else {
        Cow::Borrowed(s)
    }
}

/// A CSV cell's text as it was before [`defuse`].
pub fn restore(s: &str) -> &str {
    match s.strip_prefix('\'') {
        Some(rest) if hides_a_formula(rest) && !plain_number(rest) => rest,
        _ => s,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formula_cells_get_a_quote_and_come_back_as_written() {
        for (text, written) in [
            ("=HYPERLINK(\"http://x\")", "'=HYPERLINK(\"http://x\")"),
            ("+cmd|' /C calc'!A0", "'+cmd|' /C calc'!A0"),
            ("@SUM(A1)", "'@SUM(A1)"),
            ("-2+3", "'-2+3"),
            ("\tx", "'\tx"),
            ("\rx", "'\rx"),
            ("'=x", "''=x"),
            ("''@x", "'''@x"),
            ("-3", "-3"),
            ("+2.5", "+2.5"),
            ("-1e3", "-1e3"),
            ("-inf", "'-inf"),
            ("-", "'-"),
            ("'quoted", "'quoted"),
            ("plain = text", "plain = text"),
            ("", ""),
        ] {
            assert_eq!(defuse(text), written, "{text:?}");
            assert_eq!(restore(written), text, "{written:?}");
        }
    }
}
