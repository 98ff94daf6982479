//! `carta export tts`: a Tabletop Simulator saved object,
//! `<game>/tts/<stem>/`: deck sheet images of at most 10 × 7 cards
//! (`sheet-N.png`), one back image per sheet's back (`back-N.png`), and
//! `<stem>.json`, the object TTS loads (Objects → Saved Objects → import):
//! one `DeckCustom` whose `CustomDeck` entries point at the sheets with
//! `file:///` URLs, one `DeckIDs` entry and one contained `Card` (its
//! `Nickname` the card's name) per physical copy. Card `k` of sheet `N`
//! has `CardID` `N·100 + k`, the cell at row `k / NumWidth`, column
//! `k mod NumWidth` of that sheet.

use std::path::PathBuf;

use serde_json::{Value, json};

use super::cards::{Grid, ImageExport, MAX_COLS, MAX_ROWS, Side, photograph, pixels, unit};
use super::images::Home;
use super::sheets::RenderedCard;
use super::{EmitError, Emitter, Stage};
use crate::diag::Diagnostics;
use crate::game::Game;
use crate::load::Workspace;

/// The Tabletop Simulator deck of a selection of a game's cards.
#[derive(Debug, Clone)]
pub struct TtsEmitter<'g> {
    /// What to render, and how.
    pub export: ImageExport<'g>,
    /// The output folder, absolute: the JSON names its images by full path.
    pub out: PathBuf,
}

/// One deck sheet: its cards and which back image they share.
struct Sheet<'a> {
    cards: Vec<&'a RenderedCard>,
    back: usize,
}

impl Emitter for TtsEmitter<'_> {
    fn name(&self) -> &'static str {
        "tts"
    }

    fn emit(
        &self,
        game: &Game,
        ws: &mut Workspace,
        stage: &mut Stage,
        diags: &mut Diagnostics,
    ) -> Result<(), EmitError> {
        let Some(set) = self.export.render(game, ws, stage, diags)? else {
            return Ok(());
        };
        let (sheets, grids) = layout(&set.cards, &self.export.options);
        let images = photograph(
            &set,
            &grids,
            &self.export.options,
            &self.export.chromium,
            "tts",
        )?;
        let dir = unit(game, "tts").join(&self.export.target.stem);
        stage.folder(&dir)?;
        let home = Home::new(
            self.export.options.base_url.as_deref(),
            &self.out.join(&dir),
        );
        for (n, image) in images.iter().enumerate() {
            let name = match n.checked_sub(sheets.len()) {
                None => format!("sheet-{}.png", n + 1),
                Some(b) => format!("back-{}.png", b + 1),
            };
            stage.write(&dir.join(name), &image.encode(self.export.options.dpi))?;
        }
        let object = saved_object(
            &self.export.target.name,
            &self.export.target.stem,
            &sheets,
            &grids,
            &home,
            game,
        );
        let mut json = serde_json::to_string_pretty(&object).expect("JSON values serialize");
        json.push('\n');
        stage.write(
            &dir.join(format!("{}.json", self.export.target.stem)),
            json.as_bytes(),
        )
    }
}

/// Groups the cards into deck sheets — a sheet holds cards of one size
/// and one back, since TTS gives every card of a `CustomDeck` entry the
/// same back — and returns them with the grids to photograph: one per
/// sheet, then one per distinct back.
fn layout<'a>(
    cards: &'a [RenderedCard],
    options: &super::cards::ExportOptions,
) -> (Vec<Sheet<'a>>, Vec<Grid<'a>>) {
    let mut backs: Vec<(&RenderedCard, (u32, u32))> = Vec::new();
    let mut sheets: Vec<Sheet<'_>> = Vec::new();
    for card in cards {
        let px = pixels(card.size, options);
        let back = if let Some(b) = backs
            .iter()
            .position(|(c, p)| c.back == card.back && *p == px)
        {
            b
        } else {
            backs.push((card, px));
            backs.len() - 1
        };
        match sheets.iter_mut().rev().find(|s| s.back == back) {
            Some(s) if s.cards.len() < MAX_COLS * MAX_ROWS => s.cards.push(card),
            _ => sheets.push(Sheet {
                cards: vec![card],
                back,
            }),
        }
    }
    let mut grids: Vec<Grid<'_>> = sheets
        .iter()
        .map(|s| Grid {
            cols: s.cards.len().min(MAX_COLS),
            cell: backs[s.back].1,
            cells: s.cards.iter().map(|&c| (c, Side::Face)).collect(),
        })
        .collect();
    grids.extend(backs.iter().map(|&(card, px)| Grid {
        cells: vec![(card, Side::Back)],
        cols: 1,
        cell: px,
    }));
    (sheets, grids)
}

/// The saved object: one `DeckCustom` holding every copy of every card.
fn saved_object(
    name: &str,
    stem: &str,
    sheets: &[Sheet<'_>],
    grids: &[Grid<'_>],
    home: &Home,
    game: &Game,
) -> Value {
    let kinds = &game.manifest.manifest.kinds;
    let mut custom = serde_json::Map::new();
    let mut deck_ids = Vec::new();
    let mut contained = Vec::new();
    for (i, sheet) in sheets.iter().enumerate() {
        let key = i + 1;
        let grid = &grids[i];
        let entry = json!({
            "FaceURL": home.url(&format!("sheet-{key}.png")),
            "BackURL": home.url(&format!("back-{}.png", sheet.back + 1)),
            "NumWidth": grid.cols,
            "NumHeight": grid.rows(),
            "BackIsHidden": true,
            "UniqueBack": false,
            "Type": 0,
        });
        for (k, card) in sheet.cards.iter().enumerate() {
            let card_id = key * 100 + k;
            for copy in 0..card.count {
                deck_ids.push(json!(card_id));
                contained.push(movable(json!({
                    "GUID": guid(&format!("{stem}/{}/{copy}", card.id)),
                    "Name": "Card",
                    "Transform": transform(),
                    "Nickname": card.name,
                    "Description": kinds.get(&card.kind).map_or(card.kind.as_str(), |k| k.name.as_str()),
                    "GMNotes": card.id,
                    "CardID": card_id,
                    "CustomDeck": { key.to_string(): entry.clone() },
                    "Hands": true,
                })));
            }
        }
        custom.insert(key.to_string(), entry);
    }
    let deck = movable(json!({
        "GUID": guid(stem),
        "Name": "DeckCustom",
        "Transform": transform(),
        "Nickname": name,
        "Description": game.manifest.manifest.name,
        "DeckIDs": deck_ids,
        "CustomDeck": custom,
        "ContainedObjects": contained,
        "Hands": false,
    }));
    json!({
        "SaveName": "",
        "Date": "",
        "VersionNumber": "",
        "GameMode": "",
        "Note": "",
        "ObjectStates": [deck],
    })
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

/// Face down, at the table's centre.
fn transform() -> Value {
    json!({
        "posX": 0.0, "posY": 1.0, "posZ": 0.0,
        "rotX": 0.0, "rotY": 180.0, "rotZ": 180.0,
        "scaleX": 1.0, "scaleY": 1.0, "scaleZ": 1.0,
    })
}

/// A stable six-hex-digit object id (TTS's form), from what the object is.
fn guid(of: &str) -> String {
    crate::digest::sha256_hex(of.as_bytes(), 3)
}
