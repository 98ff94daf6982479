//! A print shop's preflight (`carta preflight --shop`, and every
//! `carta export pod`): each card held to the shop's [`Checks`] as it
//! will print. The browser measures, on the upload's own pages, how far
//! text and `data-carta-safe` elements reach past the card's safe area
//! and at what size each picture is drawn ([`Placement`]); the backs are
//! compared as rendered; the ink is measured on the `PDF/X` itself,
//! rendered by Ghostscript to CMYK ([`peak_ink`]). Each finding is a
//! `preflight::*` diagnostic at the card, with the measured value and
//! the shop's limit.

use std::collections::{BTreeMap, BTreeSet};

use super::shops::{Checks, Spec};
use crate::art;
use crate::diag::{Diagnostic, SourceMap};
use crate::emit::sheets::RenderedCard;
use crate::emit::sheets::placement::{Placed, Placement};
use crate::game::Game;
use crate::load::Jail;
use crate::validate::RawCard;

/// Text or a marked element outside the safe area.
pub const SAFE_AREA: &str = "preflight::safe-area";
/// Art drawn at too few pixels per inch.
pub const ART_RESOLUTION: &str = "preflight::art-resolution";
/// Cards of one product whose backs are not all the same.
pub const BACKS_DIFFER: &str = "preflight::backs-differ";
/// More total ink than the shop's limit.
pub const INK: &str = "preflight::ink";

/// The resolution the ink is measured at, in pixels per inch: a pixel is
/// about a third of a millimetre, and every page is measured quickly.
pub const INK_DPI: u32 = 72;

/// The side of the squares the ink is averaged over, in pixels at
/// [`INK_DPI`]: about a millimetre. A press's ink limit is about areas
/// that carry the ink (a dark background, a large title), not about the
/// stroke of one small letter.
pub const INK_BLOCK: usize = 3;

/// The diagnostics of the `placements` measured on the pages of `cards`
/// (each card once, in the shop's box), for a shop of `spec`: one per card
/// side and finding, repeats left out.
pub fn placements(
    game: &Game,
    (sources, jail): (&SourceMap, &Jail),
    spec: &Spec,
    cards: &[&RenderedCard],
    found: &[Placement],
) -> Vec<Diagnostic> {
    let by_id: BTreeMap<&str, &RenderedCard> = cards.iter().map(|c| (c.id.as_str(), *c)).collect();
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    for p in found {
        let (Some(card), Some(drawn)) = (game.pool.get(&p.card), by_id.get(p.card.as_str())) else {
            continue;
        };
        if !seen.insert((&p.card, &p.side, p.what, &p.text)) {
            continue;
        }
        let d = match p.what {
            Placed::Text | Placed::Marked => Some(outside(spec, card, drawn, p)),
            Placed::Art => resolution(game, (sources, jail), spec, card, p),
        };
        out.extend(d);
    }
    out
}

/// "the face of card \`x\`", or its back.
fn side_of(card: &RawCard, side: &str) -> String {
    format!("the {side} of card `{}`", card.id)
}

/// Text or a marked element of `card` (drawn as `drawn`) past the safe
/// area: an error once it reaches past the trim, where the cut may take
/// it; a warning inside the trim.
fn outside(spec: &Spec, card: &RawCard, drawn: &RenderedCard, p: &Placement) -> Diagnostic {
    let safe = drawn.size.safe;
    let what = match p.what {
        Placed::Marked => format!("the element `{}`", p.text),
        _ => format!("the text \u{201c}{}\u{201d}", short(&p.text)),
    };
    let message = format!(
        "{what} on {} reaches {:.1} mm past the safe area {} asks for ({safe:.1} mm inside the trim)",
        side_of(card, &p.side),
        p.past,
        spec.name,
    );
    let into_bleed = p.past > safe + 0.05;
    let d = if into_bleed {
        Diagnostic::error(
            SAFE_AREA,
            format!(
                "{message}: {:.1} mm into the bleed, which is cut off",
                p.past - safe
            ),
        )
    } else {
        Diagnostic::warning(SAFE_AREA, format!("{message}: the cut may come this close"))
    };
    d.at(card.file, card.header.clone(), "this card")
        .with_help(format!(
            "keep text and marked elements inside the card's safe area in its template: {safe:.1} mm inside the trim (the card's `--safe`), {:.1} mm from the bleed's edge",
            safe + drawn.size.bleed
        ))
}

/// A picture of `card` drawn at fewer pixels per inch than the shop asks.
fn resolution(
    game: &Game,
    (sources, jail): (&SourceMap, &Jail),
    spec: &Spec,
    card: &RawCard,
    placed: &Placement,
) -> Option<Diagnostic> {
    let ((w, h), (bw, bh)) = (placed.pixels?, placed.size?);
    if bw <= 0.0 || bh <= 0.0 {
        return None;
    }
    let ppi = art::effective_dpi((w as usize, h as usize), (bw, bh));
    let Checks {
        ppi_warning,
        ppi_error,
        ..
    } = spec.checks;
    if ppi >= ppi_warning {
        return None;
    }
    let limit = if ppi < ppi_error {
        format!("below the {ppi_error:.0} ppi {} accepts", spec.name)
    } else {
        format!("below the {ppi_warning:.0} ppi {} asks for", spec.name)
    };
    let message = format!(
        "the picture on {} is {w} × {h} px drawn at {bw:.1} × {bh:.1} mm: {ppi:.0} ppi, {limit}",
        side_of(card, &placed.side),
    );
    let found = if ppi < ppi_error {
        Diagnostic::error(ART_RESOLUTION, message)
    } else {
        Diagnostic::warning(ART_RESOLUTION, message)
    };
    let wide = (bw / 25.4 * ppi_warning).ceil();
    let tall = (bh / 25.4 * ppi_warning).ceil();
    let help = format!(
        "it prints blurred or blocky: for {ppi_warning:.0} ppi at this size use at least {wide:.0} × {tall:.0} px"
    );
    // The art field the card's kind draws, when the picture is on its face.
    let field = (placed.side == "face")
        .then(|| art::art_fields(&game.manifest.manifest, &game.schemas, &card.kind))
        .into_iter()
        .flatten()
        .find(|f| {
            card.all_fields()
                .get(f)
                .is_some_and(serde_json::Value::is_string)
        });
    Some(
        match field {
            Some(f) => {
                let at = art::field_at(sources, jail, card, &format!("/{f}"));
                found.at(card.file, at.value, "this picture")
            }
            None => found.at(card.file, card.header.clone(), "this card"),
        }
        .with_help(help),
    )
}

/// A warning for each kind of card whose backs, as rendered, are not all
/// alike (the cards of a kind are one deck, which shows one back), at the
/// first card whose back differs from the kind's first card's.
pub fn backs(cards: &[&RenderedCard], game: &Game) -> Vec<Diagnostic> {
    let mut kinds: BTreeMap<&str, Vec<&RenderedCard>> = BTreeMap::new();
    for card in cards {
        kinds.entry(card.kind.as_str()).or_default().push(card);
    }
    let mut out = Vec::new();
    for (kind, cards) in kinds {
        let Some(first) = cards.first() else {
            continue;
        };
        let differ: Vec<&&RenderedCard> = cards.iter().filter(|c| c.back != first.back).collect();
        let (Some(odd), Some(card)) = (
            differ.first(),
            differ.first().and_then(|c| game.pool.get(&c.id)),
        ) else {
            continue;
        };
        let others = differ.len() - 1;
        let and = match others {
            0 => String::new(),
            1 => " (and 1 more card)".to_owned(),
            n => format!(" (and {n} more cards)"),
        };
        out.push(
            Diagnostic::warning(
                BACKS_DIFFER,
                format!(
                    "the back of card `{}`{and} differs from that of `{}`: the cards of kind `{kind}` print with more than one back",
                    odd.id, first.id
                ),
            )
            .at(card.file, card.header.clone(), "a different back")
            .with_help(
                "a deck whose backs differ shows which card is which from behind; if they differ on purpose, the upload carries a back per card",
            ),
        );
    }
    out
}

/// The most total ink (C + M + Y + K, in %) of any square of `block` ×
/// `block` pixels, averaged, of a PAM image of tuple type `CMYK` and 8-bit
/// samples (Ghostscript's `pamcmyk32`); `None` when `pam` is not one.
pub fn peak_ink(pam: &[u8], block: usize) -> Option<f64> {
    let end = pam.windows(7).position(|w| w == b"ENDHDR\n")?;
    let header = std::str::from_utf8(&pam[..end]).ok()?;
    let mut fields = BTreeMap::new();
    for line in header.lines().skip(1) {
        if let Some((k, v)) = line.split_once(' ') {
            fields.insert(k, v.trim());
        }
    }
    let ok = header.starts_with("P7")
        && fields.get("DEPTH") == Some(&"4")
        && fields.get("MAXVAL") == Some(&"255")
        && fields.get("TUPLTYPE") == Some(&"CMYK");
    let width: usize = fields.get("WIDTH")?.parse().ok()?;
    let height: usize = fields.get("HEIGHT")?.parse().ok()?;
    let pixels = pam.get(end + 7..)?;
    if !ok || pixels.len() < width * height * 4 || width == 0 || height == 0 {
        return None;
    }
    let ink: Vec<u32> = pixels[..width * height * 4]
        .chunks_exact(4)
        .map(|p| p.iter().map(|&v| u32::from(v)).sum())
        .collect();
    let block = block.clamp(1, width.min(height));
    let mut most = 0;
    for y in 0..=height - block {
        for x in 0..=width - block {
            let sum: u32 = (y..y + block)
                .map(|r| {
                    ink[r * width + x..r * width + x + block]
                        .iter()
                        .sum::<u32>()
                })
                .sum();
            most = most.max(sum);
        }
    }
    let area = u32::try_from(block * block).ok()?;
    Some(f64::from(most) * 100.0 / 255.0 / f64::from(area))
}

/// The finding of `card`'s `side` whose darkest area carries `peak` % of
/// ink, over the shop's limit: a warning, an error over the most a press
/// takes (`limits`: the shop's, the press's).
pub fn ink(
    spec: &Spec,
    card: &RawCard,
    side: &str,
    (peak, limits): (f64, (f64, f64)),
) -> Diagnostic {
    let over = peak > limits.1;
    let limit = if over { limits.1 } else { limits.0 };
    let message = format!(
        "{} carries {peak:.0}% total ink in its darkest area, over the {limit:.0}% {} allows",
        side_of(card, side),
        spec.name
    );
    if over {
        Diagnostic::error(INK, message)
    } else {
        Diagnostic::warning(INK, message)
    }
    .at(card.file, card.header.clone(), "this card")
    .with_help(format!(
        "measured on the CMYK PDF/X as it is uploaded, over squares of about 1 mm; lighten the darkest areas (a large area of pure black converts to a rich black of about 295%), or ask {} whether they take it",
        spec.name
    ))
}

/// `text` cut to 40 characters, for a message.
fn short(text: &str) -> String {
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if text.chars().count() > 40 {
        text.chars().take(39).collect::<String>() + "…"
    } else {
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pam(width: usize, pixels: &[[u8; 4]]) -> Vec<u8> {
        let mut out = format!(
            "P7\nWIDTH {width}\nHEIGHT {}\nDEPTH 4\nMAXVAL 255\nTUPLTYPE CMYK\n# by a test\nENDHDR\n",
            pixels.len() / width
        )
        .into_bytes();
        out.extend(pixels.iter().flatten());
        out
    }

    #[test]
    fn the_peak_is_the_darkest_pixel_s_sum_of_inks() {
        // 85 % C, 85 % M, 70 % Y, 100 % K: 340 %.
        let black = [217, 217, 178, 255];
        let image = pam(2, &[[0; 4], [10, 0, 0, 0], black, [255, 0, 0, 0]]);
        let peak = peak_ink(&image, 1).unwrap();
        assert!((peak - 340.0).abs() < 0.5, "{peak}");
        assert_eq!(peak_ink(&pam(1, &[[0; 4]]), 1), Some(0.0));
    }

    #[test]
    fn the_peak_is_averaged_over_squares_so_a_thin_stroke_is_not_an_area() {
        let black = [217, 217, 178, 255];
        // A 4 × 4 image: a one-pixel column of black, then a 2 × 2 square.
        let mut stroke = vec![[0; 4]; 16];
        for y in 0..4 {
            stroke[y * 4] = black;
        }
        let peak = peak_ink(&pam(4, &stroke), 2).unwrap();
        assert!((peak - 170.0).abs() < 0.5, "half of each square: {peak}");
        let mut square = vec![[0; 4]; 16];
        for i in [5, 6, 9, 10] {
            square[i] = black;
        }
        let peak = peak_ink(&pam(4, &square), 2).unwrap();
        assert!((peak - 340.0).abs() < 0.5, "{peak}");
    }

    #[test]
    fn what_is_not_an_8_bit_cmyk_pam_has_no_peak() {
        assert_eq!(peak_ink(b"P6\n1 1\n255\n\0\0\0", 1), None);
        let mut short = pam(2, &[[1; 4], [2; 4]]);
        short.truncate(short.len() - 1);
        assert_eq!(peak_ink(&short, 1), None);
        let rgb = b"P7\nWIDTH 1\nHEIGHT 1\nDEPTH 3\nMAXVAL 255\nTUPLTYPE RGB\nENDHDR\n\0\0\0";
        assert_eq!(peak_ink(rgb, 1), None);
    }

    #[test]
    fn long_text_is_shortened_for_a_message() {
        assert_eq!(short("Golpe\n  certeiro"), "Golpe certeiro");
        let long = "a".repeat(60);
        assert_eq!(short(&long).chars().count(), 40);
    }
}
