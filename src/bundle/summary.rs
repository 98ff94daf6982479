//! The human summary that `carta inspect` prints.

use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::Path;

use super::error::BundleError;
use super::numbers::HEADER_LEN;
use super::read::Bundle;

/// A summary of `bundle` (read from `path`): the game, the versions, the
/// cards by kind, the decks, the section sizes and the source hash. Decodes
/// every card, so a damaged record is an error here too.
///
/// # Errors
/// When a card record is damaged.
pub fn summary(bundle: &Bundle, path: &Path) -> Result<String, BundleError> {
    let m = bundle.manifest();
    let h = bundle.header();
    let mut by_kind: BTreeMap<String, usize> = BTreeMap::new();
    for card in bundle.cards() {
        *by_kind.entry(card?.kind).or_default() += 1;
    }
    let mut out = String::new();
    let size = bundle.size();
    let _ = writeln!(out, "bundle    {} ({} bytes)", path.display(), group(size));
    let _ = writeln!(out, "game      {}: {} ({})", m.id, m.name, m.language);
    let _ = writeln!(
        out,
        "format    version {}.{}, written by carta {}",
        h.format_version, h.format_minor, h.carta_version
    );
    let _ = writeln!(out, "sources   sha256 {}", h.source_hash);
    let _ = writeln!(out, "cards     {}", bundle.len());
    let width = m
        .kinds
        .keys()
        .chain(by_kind.keys())
        .map(String::len)
        .max()
        .unwrap_or(0);
    for (id, kind) in &m.kinds {
        let n = by_kind.remove(id).unwrap_or(0);
        let _ = writeln!(out, "  {id:<width$}  {n:>6}  {}", kind.name);
    }
    let _ = writeln!(out, "decks     {}", bundle.decks().len());
    for deck in bundle.decks() {
        let copies: u32 = deck.zones.values().flat_map(|z| z.values()).sum();
        let _ = writeln!(out, "  {} ({copies} cards, {})", deck.name, deck.file);
    }
    let s = h.sections;
    let _ = writeln!(
        out,
        "sections  header {}, game {}, decks {}, index {}, cards {} bytes",
        HEADER_LEN,
        group(s.game.len as usize),
        group(s.decks.len as usize),
        group(s.index.len as usize),
        group(s.cards.len as usize)
    );
    Ok(out)
}

/// `1234567` → `1,234,567`.
fn group(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn group_puts_commas_every_three_digits() {
        assert_eq!(super::group(0), "0");
        assert_eq!(super::group(999), "999");
        assert_eq!(super::group(1000), "1,000");
        assert_eq!(super::group(1_234_567), "1,234,567");
    }
}
