//! The saved object TTS loads: one pile per zone or kind, side by side,
//! each a `DeckCustom` of one `Card` per copy.

use std::collections::HashMap;

use serde_json::{Value, json};

use super::layout::{Pile, Sheet};
use crate::emit::cards::Target;
use crate::emit::images::Home;
use crate::emit::sheets::geometry::CardBox;
use crate::game::Game;

/// The width and height of TTS's standard card (scale 1), in mm: a poker
/// card. A card of another size is scaled by its size over this one.
const STANDARD_CARD: (f64, f64) = (63.5, 88.9);

/// The export's image files: their names (by grid) and where they load from.
pub(super) struct Files<'a> {
    pub(super) home: &'a Home,
    pub(super) names: &'a [String],
}

impl Files<'_> {
    /// The `CustomDeck` entry of sheet `n` (0-based).
    fn entry(&self, n: usize, sheet: &Sheet<'_>) -> Value {
        json!({
            "FaceURL": self.home.url(&self.names[n]),
            "BackURL": self.home.url(&self.names[sheet.back]),
            "NumWidth": sheet.cols,
            "NumHeight": sheet.rows(),
            // The back, not the sheet's last cell, is what others see of a
            // card in a hand: all 70 cells hold cards.
            "BackIsHidden": true,
            "UniqueBack": sheet.unique_back,
            "Type": 0,
        })
    }

    /// What the saved object says of its images.
    fn note(&self) -> String {
        match self.home {
            Home::Local(_) => "The images are local files (file:/// URLs) on the computer that \
                exported this object: only Tabletop Simulator on that computer can load them. \
                To play with others, upload them and export again with --base-url (see README.txt)."
                .to_owned(),
            Home::Hosted(base) => format!(
                "The images are loaded from {base}: upload this export's image files there (see README.txt)."
            ),
        }
    }
}

/// The saved object: one object per pile, side by side along X.
pub(super) fn saved_object(
    target: &Target<'_>,
    piles: &[Pile<'_>],
    sheets: &[Sheet<'_>],
    files: &Files<'_>,
    game: &Game,
) -> Value {
    let widest = piles
        .iter()
        .flat_map(|p| p.cards.iter().map(|(c, _)| scale(c.size).0))
        .fold(1.0_f64, f64::max);
    // TTS's standard card is under 2.5 units wide: 3 keep a gap.
    let step = 3.0 * widest;
    let middle = (piles.len() as f64 - 1.0) / 2.0;
    let objects: Vec<Value> = piles
        .iter()
        .enumerate()
        .map(|(i, pile)| {
            let x = ((i as f64 - middle) * step * 100.0).round() / 100.0;
            pile_object(pile, sheets, files, (target, game), x)
        })
        .collect();
    json!({
        "SaveName": target.name,
        "Date": "",
        "VersionNumber": "",
        "GameMode": "",
        "Note": files.note(),
        "ObjectStates": objects,
    })
}

/// One pile at `x`: a `DeckCustom` holding a `Card` per copy, or the
/// card itself when the pile is one card.
fn pile_object(
    pile: &Pile<'_>,
    sheets: &[Sheet<'_>],
    files: &Files<'_>,
    (target, game): (&Target<'_>, &Game),
    x: f64,
) -> Value {
    let mut custom = serde_json::Map::new();
    let mut place: HashMap<&str, (usize, usize)> = HashMap::new();
    for n in pile.sheets.clone() {
        custom.insert((n + 1).to_string(), files.entry(n, &sheets[n]));
        for (k, card) in sheets[n].cards.iter().enumerate() {
            place.insert(card.id.as_str(), (n, k));
        }
    }
    let mut deck_ids = Vec::new();
    let mut contained = Vec::new();
    for &(card, count) in &pile.cards {
        let (n, k) = place[card.id.as_str()];
        let card_id = (n + 1) * 100 + k;
        for copy in 0..count {
            deck_ids.push(json!(card_id));
            contained.push(movable(json!({
                "GUID": guid(&format!("{}/{}/{}/{copy}", target.stem, pile.id, card.id)),
                "Name": "Card",
                "Transform": transform(x, scale(card.size)),
                "Nickname": card.name,
                "Description": game.manifest.manifest.kind_name(&card.kind),
                "GMNotes": card.id,
                "CardID": card_id,
                "CustomDeck": { (n + 1).to_string(): custom[&(n + 1).to_string()].clone() },
                "Hands": true,
            })));
        }
    }
    if contained.len() == 1 {
        return contained.remove(0);
    }
    let first = pile
        .cards
        .first()
        .map_or(STANDARD_CARD, |(c, _)| (c.size.width, c.size.height));
    movable(json!({
        "GUID": guid(&format!("{}/{}", target.stem, pile.id)),
        "Name": "DeckCustom",
        "Transform": transform(x, (first.0 / STANDARD_CARD.0, first.1 / STANDARD_CARD.1)),
        "Nickname": pile.name,
        "Description": format!("{} · {}", target.name, game.manifest.manifest.name),
        "DeckIDs": deck_ids,
        "CustomDeck": custom,
        "ContainedObjects": contained,
        "Hands": false,
    }))
}

/// A card's scale against TTS's standard card: its width and height.
fn scale(size: CardBox) -> (f64, f64) {
    (size.width / STANDARD_CARD.0, size.height / STANDARD_CARD.1)
}

/// `object` with the flags TTS gives a card or deck one can pick up and
/// move: not locked, snapping to the grid, with a tooltip.
fn movable(mut object: Value) -> Value {
    let flags = [
        ("Locked", false),
        ("Grid", true),
        ("Snap", true),
        ("Autoraise", true),
        ("Sticky", true),
        ("Tooltip", true),
        ("SidewaysCard", false),
    ];
    let map = object.as_object_mut().expect("an object");
    for (k, v) in flags {
        map.insert(k.to_owned(), Value::Bool(v));
    }
    object
}

/// Face down at `x` on the table's middle line, at the card's scale
/// (`x` across, `z` along the table).
fn transform(x: f64, (sx, sz): (f64, f64)) -> Value {
    let round = |v: f64| (v * 1000.0).round() / 1000.0;
    json!({
        "posX": x, "posY": 1.0, "posZ": 0.0,
        "rotX": 0.0, "rotY": 180.0, "rotZ": 180.0,
        "scaleX": round(sx), "scaleY": 1.0, "scaleZ": round(sz),
    })
}

/// A stable six-hex-digit object id (TTS's form), from what the object is.
fn guid(of: &str) -> String {
    crate::digest::sha256_hex(of.as_bytes(), 3)
}
