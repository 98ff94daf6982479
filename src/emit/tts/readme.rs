//! The export folder's `README.txt`, and the note that sheets were drawn
//! at less than the asked resolution.

use std::fmt::Write as _;

use super::layout::{MAX_SIDE, Pile, Sheet};
use super::object::Files;
use crate::diag::{Diagnostic, Severity};
use crate::emit::cards::{Image, Target};
use crate::emit::images::Home;

/// The export folder's `README.txt`: how to load the object, and which
/// image file is what and goes where.
pub(super) fn readme(
    target: &Target<'_>,
    piles: &[Pile<'_>],
    sheets: &[Sheet<'_>],
    images: &[Image],
    files: &Files<'_>,
) -> String {
    let stem = &target.stem;
    let mut out = format!(
        "{}: a Tabletop Simulator saved object, exported by carta.\n\n\
         {stem}.json is the object. Copy it into Tabletop Simulator's \"Saves/Saved Objects\" \
         folder (under Documents/My Games/Tabletop Simulator on Windows) and load it in the \
         game from Objects > Saved Objects. It holds {} side by side: {}.\n\n",
        target.name,
        plural(piles.len(), "pile", "piles"),
        piles
            .iter()
            .map(|p| format!(
                "\"{}\" ({})",
                p.name,
                plural(p.cards.iter().map(|c| c.1 as usize).sum(), "card", "cards")
            ))
            .collect::<Vec<_>>()
            .join(", "),
    );
    match files.home {
        Home::Local(_) => out.push_str(
            "The images are local: the object names them by their place on this computer \
             (file:/// URLs), so only Tabletop Simulator on this computer can load them, and \
             only while this folder stays where it is. To play with others, upload the images \
             below to a web folder and export again with --base-url <that folder's URL>.\n\nImages:\n",
        ),
        Home::Hosted(base) => {
            let _ = write!(
                out,
                "The object loads its images from {base}. Upload these files there, keeping \
                 their names, before loading it:\n\n"
            );
        }
    }
    let mut listed = std::collections::BTreeSet::new();
    for (i, name) in files.names.iter().enumerate() {
        if listed.insert(name) {
            let size = (images[i].width, images[i].height);
            let _ = writeln!(
                out,
                "  {name}\n      {}",
                what(i, size, (piles, sheets), files)
            );
            if let Home::Hosted(_) = files.home {
                let _ = writeln!(out, "      -> {}", files.home.url(name));
            }
        }
    }
    out
}

/// What image `i`, of `size` px, shows, for the README.
fn what(
    i: usize,
    (w, h): (u32, u32),
    (piles, sheets): (&[Pile<'_>], &[Sheet<'_>]),
    files: &Files<'_>,
) -> String {
    let pile_of = |n: usize| {
        piles
            .iter()
            .find(|p| p.sheets.contains(&n))
            .map_or("", |p| p.name.as_str())
    };
    let (n, faces) = match i.checked_sub(sheets.len()) {
        None => (i, true),
        Some(n) => (n, false),
    };
    let sheet = &sheets[n];
    let (cols, rows) = (sheet.cols as u32, sheet.rows() as u32);
    let cells = format!("{cols} × {rows} cells of {} × {} px", w / cols, h / rows);
    if faces {
        return format!(
            "faces of \"{}\", sheet {}: {}, {cells} ({} dpi)",
            pile_of(n),
            n + 1,
            plural(sheet.cards.len(), "card", "cards"),
            sheet.dpi
        );
    }
    if sheet.unique_back {
        return format!(
            "backs of \"{}\", sheet {}, in the faces' grid: {cells}",
            pile_of(n),
            n + 1
        );
    }
    // One file may be the back of several sheets.
    let mut names: Vec<String> = (0..sheets.len())
        .filter(|&m| files.names[sheets[m].back] == files.names[i])
        .map(|m| format!("\"{}\"", pile_of(m)))
        .collect();
    names.dedup();
    format!("the back of {}: {w} × {h} px", names.join(", "))
}

/// `n` and its noun.
fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// The note that the sheets of `stem` are drawn at less than the asked
/// resolution, to stay within TTS's limits; `None` when none is.
pub(super) fn resolution_note(stem: &str, sheets: &[Sheet<'_>], asked: u32) -> Option<Diagnostic> {
    let lower: Vec<u32> = sheets
        .iter()
        .map(|s| s.dpi)
        .filter(|&d| d < asked)
        .collect();
    let (low, high) = (*lower.iter().min()?, *lower.iter().max()?);
    let range = if low == high {
        format!("{low} dpi")
    } else {
        format!("{low}–{high} dpi")
    };
    Some(
        Diagnostic::new(
            Severity::Advice,
            "export::tts-dpi",
            format!(
                "{} of the {} Tabletop Simulator sheets of `{stem}` drawn at {range}, not {asked}, to stay within TTS's {MAX_SIDE} px a side",
                lower.len(),
                sheets.len()
            ),
        )
        .with_help("TTS takes at most 10 × 7 cards and 4096 × 4096 px a sheet; `--dpi` asks for less"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::emit::sheets::RenderedCard;
    use crate::emit::sheets::geometry::CardBox;

    const POKER: CardBox = CardBox {
        width: 63.5,
        height: 88.9,
        bleed: 3.0,
        safe: 3.0,
    };

    #[test]
    fn only_sheets_below_the_asked_resolution_are_noted() {
        let card = RenderedCard {
            id: "a".into(),
            kind: "k".into(),
            name: "A".into(),
            count: 1,
            size: POKER,
            face: String::new(),
            back: String::new(),
        };
        let sheet = |dpi| Sheet {
            cards: vec![&card],
            cols: 1,
            dpi,
            unique_back: false,
            back: 0,
        };
        assert!(resolution_note("d", &[sheet(300), sheet(300)], 300).is_none());
        let note = resolution_note("d", &[sheet(163), sheet(300), sheet(234)], 300).unwrap();
        assert_eq!(note.severity, Severity::Advice);
        assert!(
            note.message.starts_with(
                "2 of the 3 Tabletop Simulator sheets of `d` drawn at 163–234 dpi, not 300"
            ),
            "{}",
            note.message
        );
    }
}
