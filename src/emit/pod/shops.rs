//! The print shops' published file specifications, as data: each shop's
//! card products (trim size and the upload's pixel size at 300 dpi), its
//! bleed and safe area, and whether it takes an image per card or one PDF.
//! docs/sheets.md ("Print shops") cites where each figure comes from, and
//! says which ones are derived rather than read on the shop's page.

use crate::emit::sheets::geometry::CardBox;

/// A print-on-demand shop carta writes upload files for.
// The variants' docs are `--help`'s text: the shops' names as they spell them.
#[allow(clippy::doc_markdown)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Shop {
    /// The Game Crafter: a PNG per card face and back.
    Tgc,
    /// DriveThruCards: one CMYK PDF/X-1a per card size, a card side per page.
    Dtc,
    /// MakePlayingCards: a PNG per card face and back.
    Mpc,
    /// PrinterStudio: a PNG per card face and back.
    Printerstudio,
}

/// What a shop's upload is made of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Upload {
    /// One image per card face and per distinct back.
    Images,
    /// One CMYK `PDF/X` per product: each printed card's back, then its
    /// face, a page each, with `TrimBox` and `BleedBox`.
    PdfX,
}

/// One card product of a shop.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Product {
    /// The shop's name for it (`Poker Deck`).
    pub name: &'static str,
    /// The output folder or file it is written to (`poker`).
    pub slug: &'static str,
    /// The trim size in mm.
    pub trim: (f64, f64),
    /// The upload's pixel size with bleed, at the shop's resolution.
    pub pixels: (u32, u32),
}

/// A shop's file specification.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Spec {
    /// Its name (`The Game Crafter`).
    pub name: &'static str,
    /// Pixels per inch of the upload.
    pub dpi: u32,
    /// The bleed the shop asks for beyond the trim, in mm, on each side
    /// (the products' pixel sizes are what counts where they differ).
    pub bleed: f64,
    /// The safe inset inside the trim that text keeps clear of, in mm.
    pub safe: f64,
    /// Images or a PDF.
    pub upload: Upload,
    /// The card products it offers.
    pub products: &'static [Product],
    /// What its preflight holds a card to.
    pub checks: Checks,
}

/// The limits a shop's preflight (`carta preflight`) holds every card to;
/// docs/sheets.md ("Preflight") says where each comes from.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Checks {
    /// Art drawn at fewer pixels per inch than this is a warning (the
    /// resolution the shop asks for).
    pub ppi_warning: f64,
    /// Art drawn at fewer pixels per inch than this is an error: it
    /// prints visibly blocky.
    pub ppi_error: f64,
    /// For the shops that take CMYK, the most total ink (C + M + Y + K,
    /// in %) any area of a page may carry: above the first a warning (the
    /// shop's limit), above the second an error (more than a press lays
    /// down without smearing).
    pub ink: Option<(f64, f64)>,
}

/// What every shop asks of art: 300 ppi, refusing below half of it.
const ART: Checks = Checks {
    ppi_warning: 300.0,
    ppi_error: 150.0,
    ink: None,
};

/// An eighth of an inch, in mm.
const EIGHTH: f64 = 3.175;

/// Inches to mm.
const fn inches(w: f64, h: f64) -> (f64, f64) {
    (w * 25.4, h * 25.4)
}

const TGC: &[Product] = &[
    Product {
        name: "Poker Deck",
        slug: "poker",
        trim: inches(2.5, 3.5),
        pixels: (825, 1125),
    },
    Product {
        name: "Bridge Deck",
        slug: "bridge",
        trim: inches(2.25, 3.5),
        pixels: (750, 1125),
    },
    Product {
        name: "Mini Deck",
        slug: "mini",
        trim: inches(1.75, 2.5),
        pixels: (600, 825),
    },
    Product {
        name: "Tarot Deck",
        slug: "tarot",
        trim: inches(2.75, 4.75),
        pixels: (900, 1500),
    },
    Product {
        name: "Business Deck",
        slug: "business",
        trim: inches(2.0, 3.5),
        pixels: (675, 1125),
    },
    Product {
        name: "Jumbo Deck",
        slug: "jumbo",
        trim: inches(3.5, 5.5),
        pixels: (1125, 1725),
    },
];

const DTC: &[Product] = &[
    Product {
        name: "Poker-size cards (2.5 × 3.5 in)",
        slug: "poker",
        trim: inches(2.5, 3.5),
        pixels: (825, 1125),
    },
    Product {
        name: "Tarot-size cards (2.75 × 4.75 in)",
        slug: "tarot",
        trim: inches(2.75, 4.75),
        pixels: (900, 1500),
    },
];

const MPC: &[Product] = &[
    Product {
        name: "Poker size (2.5 × 3.5 in)",
        slug: "poker",
        trim: inches(2.5, 3.5),
        pixels: (822, 1122),
    },
    Product {
        name: "Standard size (63 × 88 mm)",
        slug: "standard-63x88",
        trim: (63.0, 88.0),
        pixels: (816, 1110),
    },
    Product {
        name: "Bridge size (2.25 × 3.5 in)",
        slug: "bridge",
        trim: inches(2.25, 3.5),
        pixels: (747, 1122),
    },
    Product {
        name: "Mini size (1.75 × 2.5 in)",
        slug: "mini",
        trim: inches(1.75, 2.5),
        pixels: (597, 822),
    },
    Product {
        name: "Tarot size (2.75 × 4.75 in)",
        slug: "tarot",
        trim: inches(2.75, 4.75),
        pixels: (897, 1497),
    },
];

const PRINTERSTUDIO: &[Product] = &[
    Product {
        name: "Poker size (2.5 × 3.5 in)",
        slug: "poker",
        trim: inches(2.5, 3.5),
        pixels: (825, 1125),
    },
    Product {
        name: "Bridge size (2.25 × 3.5 in)",
        slug: "bridge",
        trim: inches(2.25, 3.5),
        pixels: (750, 1125),
    },
    Product {
        name: "Tarot size (2.75 × 4.75 in)",
        slug: "tarot",
        trim: inches(2.75, 4.75),
        pixels: (900, 1500),
    },
];

/// How far a card's trim may be from a product's, on each side, and still
/// be that product: the card is drawn at its own size, centred, so the
/// shop's cut lands within half of this of the card's trim line.
pub const TOLERANCE_MM: f64 = 1.0;

impl Shop {
    /// The shop's specification.
    pub fn spec(self) -> Spec {
        match self {
            Shop::Tgc => Spec {
                name: "The Game Crafter",
                dpi: 300,
                bleed: EIGHTH,
                safe: EIGHTH,
                upload: Upload::Images,
                products: TGC,
                checks: ART,
            },
            Shop::Dtc => Spec {
                name: "DriveThruCards",
                dpi: 300,
                bleed: EIGHTH,
                safe: EIGHTH,
                upload: Upload::PdfX,
                products: DTC,
                // The guide's 240 %; SWOP's 300 % is the most any press
                // of the PDF/X's printing condition takes.
                checks: Checks {
                    ink: Some((240.0, 300.0)),
                    ..ART
                },
            },
            Shop::Mpc => Spec {
                name: "MakePlayingCards",
                dpi: 300,
                bleed: 36.0 * 25.4 / 300.0,
                safe: EIGHTH,
                upload: Upload::Images,
                products: MPC,
                checks: ART,
            },
            Shop::Printerstudio => Spec {
                name: "PrinterStudio",
                dpi: 300,
                bleed: EIGHTH,
                safe: EIGHTH,
                upload: Upload::Images,
                products: PRINTERSTUDIO,
                checks: ART,
            },
        }
    }

    /// The shop's id on the command line and in output paths (`tgc`).
    pub fn id(self) -> &'static str {
        match self {
            Shop::Tgc => "tgc",
            Shop::Dtc => "dtc",
            Shop::Mpc => "mpc",
            Shop::Printerstudio => "printerstudio",
        }
    }
}

impl Spec {
    /// The product a card of trim `size` is printed as, or the nearest one
    /// when none is within [`TOLERANCE_MM`].
    ///
    /// # Errors
    /// The nearest product, when none matches.
    pub fn product(&self, size: CardBox) -> Result<&'static Product, &'static Product> {
        let off = |p: &Product| {
            (p.trim.0 - size.width)
                .abs()
                .max((p.trim.1 - size.height).abs())
        };
        let nearest = self
            .products
            .iter()
            .min_by(|a, b| off(a).total_cmp(&off(b)))
            .expect("every shop offers a product");
        if off(nearest) <= TOLERANCE_MM {
            Ok(nearest)
        } else {
            Err(nearest)
        }
    }

    /// How a card of trim `size` is drawn for `product`: its own trim,
    /// a bleed reaching the upload's edges on every side (the image is
    /// cut to the upload's size around the centred card), and a safe area
    /// of at least the shop's.
    pub fn card_box(&self, product: &Product, size: CardBox) -> CardBox {
        let (w, h) = self.outer_mm(product);
        CardBox {
            bleed: ((w - size.width) / 2.0).max((h - size.height) / 2.0),
            safe: size.safe.max(self.safe),
            ..size
        }
    }

    /// The upload's size with bleed in mm: the pixel size at the shop's
    /// resolution.
    pub fn outer_mm(&self, product: &Product) -> (f64, f64) {
        let mm = |px: u32| f64::from(px) * 25.4 / f64::from(self.dpi);
        (mm(product.pixels.0), mm(product.pixels.1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn card(width: f64, height: f64) -> CardBox {
        CardBox {
            width,
            height,
            bleed: 3.0,
            safe: 3.0,
        }
    }

    #[test]
    fn a_poker_card_is_each_shop_s_poker_product() {
        let tgc = Shop::Tgc.spec();
        let poker = tgc.product(card(63.5, 88.9)).unwrap();
        assert_eq!(poker.pixels, (825, 1125));
        let b = tgc.card_box(poker, card(63.5, 88.9));
        assert!((b.bleed - 3.175).abs() < 1e-9, "{b:?}");
        assert!(
            (b.safe - 3.175).abs() < 1e-9,
            "the shop's safe area is larger"
        );
        assert_eq!(
            Shop::Mpc.spec().product(card(63.5, 88.9)).unwrap().pixels,
            (822, 1122)
        );
        assert_eq!(
            Shop::Mpc.spec().product(card(63.0, 88.0)).unwrap().pixels,
            (816, 1110)
        );
        assert_eq!(
            Shop::Dtc.spec().product(card(63.5, 88.9)).unwrap().slug,
            "poker"
        );
    }

    #[test]
    fn every_product_s_pixels_hold_its_trim_with_some_bleed() {
        for shop in [Shop::Tgc, Shop::Dtc, Shop::Mpc, Shop::Printerstudio] {
            let spec = shop.spec();
            for p in spec.products {
                let (w, h) = spec.outer_mm(p);
                let (bw, bh) = ((w - p.trim.0) / 2.0, (h - p.trim.1) / 2.0);
                for b in [bw, bh] {
                    assert!(
                        (2.9..=3.3).contains(&b),
                        "{} {}: bleed {b}",
                        spec.name,
                        p.name
                    );
                }
            }
        }
    }

    #[test]
    fn a_size_a_shop_does_not_offer_names_the_nearest() {
        let square = card(70.0, 70.0);
        let nearest = Shop::Tgc.spec().product(square).unwrap_err();
        assert_eq!(nearest.slug, "poker");
        let euro = card(59.0, 92.0);
        assert_eq!(Shop::Dtc.spec().product(euro).unwrap_err().slug, "poker");
    }
}
