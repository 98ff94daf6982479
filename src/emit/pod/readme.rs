//! The `README.md` beside a shop's files: what each file is, how many
//! copies of each card to order, and the upload steps.

use std::fmt::Write as _;

use super::shops::{Product, Shop, Upload};
use crate::emit::sheets::geometry::mm;

/// What was written for one product.
#[derive(Debug, Clone)]
pub(super) struct Entry {
    /// The product.
    pub product: &'static Product,
    /// Its folder (`poker/`) or file (`poker.pdf`).
    pub path: String,
    /// Each card's face file (or id, in a PDF), back file and count.
    pub files: Vec<(String, String, u32)>,
}

/// The README of `name`'s files for `shop`.
pub(super) fn write(shop: Shop, name: &str, entries: &[Entry]) -> String {
    let spec = shop.spec();
    let mut out = format!(
        "# {name} for {}\n\nWritten by `carta export pod --shop {}`. Every file is at the size {} asks for at {} dpi: upload them as they are, without resizing or cropping.\n",
        spec.name,
        shop.id(),
        spec.name,
        spec.dpi
    );
    for e in entries {
        let cards: u32 = e.files.iter().map(|f| f.2).sum();
        let (w, h) = spec.outer_mm(e.product);
        let _ = write!(
            out,
            "\n## {} — `{}`\n\n{} cards ({} different). Trim {} × {} mm; each {} is {} × {} px ({} × {} mm) with the bleed; keep text {} mm inside the trim.\n\n",
            e.product.name,
            e.path,
            cards,
            e.files.len(),
            mm(e.product.trim.0),
            mm(e.product.trim.1),
            if spec.upload == Upload::Images {
                "image"
            } else {
                "page"
            },
            e.product.pixels.0,
            e.product.pixels.1,
            mm(w),
            mm(h),
            mm(spec.safe),
        );
        out.push_str(&table(spec.upload, e));
    }
    out.push_str("\n## Upload steps\n\n");
    for (i, step) in steps(shop).iter().enumerate() {
        let _ = writeln!(out, "{}. {step}", i + 1);
    }
    out
}

/// The files of one product with their counts.
fn table(upload: Upload, e: &Entry) -> String {
    let mut out = String::new();
    match upload {
        Upload::Images => {
            out.push_str("| face | back | copies |\n|---|---|---|\n");
            for (face, back, count) in &e.files {
                let _ = writeln!(out, "| `{face}` | `{back}` | {count} |");
            }
        }
        Upload::PdfX => {
            out.push_str("| card | copies |\n|---|---|\n");
            for (id, _, count) in &e.files {
                let _ = writeln!(out, "| `{id}` | {count} |");
            }
        }
    }
    out
}

/// The upload steps of `shop`.
fn steps(shop: Shop) -> &'static [&'static str] {
    match shop {
        Shop::Tgc => &[
            "On The Game Crafter, open your game and add the deck product named in the heading above (one deck per folder).",
            "Upload `back.png` as the deck's back (or each card's own `…-back.png` where the folder has several).",
            "Upload every face image; the number before `x-` in its name is how many copies of it the deck holds: set that quantity for each card.",
            "Check the proof: the cut line falls 1/8 inch (37.5 px) inside each image's edge and text stays another 1/8 inch inside it.",
        ],
        Shop::Dtc => &[
            "On DriveThruCards, create a card product of the size named in the heading above.",
            "Upload the PDF as the print file: each printed card is two pages, its back then its face, in deck order, every copy included.",
            "The PDF is CMYK PDF/X-1a with TrimBox and BleedBox: DriveThruCards' preflight (or Acrobat's Verify Conformance) checks it as their guide describes.",
            "Order a proof copy before publishing.",
        ],
        Shop::Mpc | Shop::Printerstudio => &[
            "Choose custom game cards of the size named in the heading above, with the number of cards in its first line.",
            "For the fronts, choose different images and upload every face image; the number before `x-` in its name is how many copies of it to set.",
            "For the backs, choose the same image for every card and upload `back.png` (or a different image per card, with each `…-back.png`, where the folder has several).",
            "Keep the images at their size: the shop's editor shows the cut line 36 px inside the edge; preview before ordering.",
        ],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_readme_lists_every_file_with_its_count() {
        let spec = Shop::Tgc.spec();
        let entry = Entry {
            product: &spec.products[0],
            path: "poker/".into(),
            files: vec![
                ("03x-orc.png".into(), "back.png".into(), 3),
                ("01x-elf.png".into(), "back.png".into(), 1),
            ],
        };
        let text = write(Shop::Tgc, "Kingdoms", &[entry]);
        assert!(text.starts_with("# Kingdoms for The Game Crafter"));
        assert!(text.contains("## Poker Deck — `poker/`"));
        assert!(text.contains("4 cards (2 different)"));
        assert!(text.contains("825 × 1125 px"));
        assert!(text.contains("| `03x-orc.png` | `back.png` | 3 |"));
        assert!(text.contains("1. On The Game Crafter"));
    }
}
