//! `carta export cgs`: a Card Game Simulator custom game,
//! `<game>/cgs/<stem>/` — `cgs.json`, the game definition (its JSON Schema
//! is `schema/CardGameDef.json` of finol-digital/FinolDigital.Cgs.CardGameDef);
//! `AllCards.json`, every card with its properties; one deck file per deck
//! in CGS's `txt` format (`<stem>.txt`); a PNG per card face and per
//! distinct back, named by content hash; and a `README.md` saying how to
//! load it and which file goes where. The mapping is in
//! [docs/clients.md](../../docs/clients.md).

use std::fmt::Write as _;
use std::path::PathBuf;

use serde_json::{Map, Value, json};

use super::cards::{ImageExport, unit};
use super::clients::{
    Deck, Pictures, Property, Shape, decks, free_name, main_zone, pictures, properties, zone_name,
};
use super::images::Home;
use super::sheets::CardSet;
use super::{EmitError, Emitter, Stage};
use crate::diag::Diagnostics;
use crate::game::Game;
use crate::load::Workspace;
use crate::validate::RawCard;

/// The Card Game Simulator game of a selection of a game's cards.
#[derive(Debug, Clone)]
pub struct CgsEmitter<'g> {
    /// What to render, and how.
    pub export: ImageExport<'g>,
    /// The output folder, absolute: local URLs name files by full path.
    pub out: PathBuf,
}

/// The keys of carta's own in the card data, clear of the game's fields.
struct Keys {
    set: String,
    set_name: String,
    image: String,
    copies: String,
    kind: &'static str,
}

impl Emitter for CgsEmitter<'_> {
    fn name(&self) -> &'static str {
        "cgs"
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
        let dir = unit(game, "cgs").join(&self.export.target.stem);
        stage.folder(&dir)?;
        let pics = pictures(&set, &self.export, stage, &dir, true)?;
        let home = Home::new(
            self.export.options.base_url.as_deref(),
            &self.out.join(&dir),
        );
        let raw: Vec<&RawCard> = set
            .cards
            .iter()
            .filter_map(|c| game.pool.get(&c.id))
            .collect();
        let props = properties(game, &raw);
        let taken: Vec<&str> = props.iter().map(|p| p.key.as_str()).collect();
        let keys = Keys {
            set: free_name("set", &taken),
            set_name: free_name("setname", &taken),
            image: free_name("image", &taken),
            copies: free_name("copies", &taken),
            kind: "kind",
        };
        let target = &self.export.target;
        let decks = decks(game, target.deck.as_ref(), &target.stem, &ws.sources);
        let mut files = Vec::new();
        for deck in &decks {
            let name = format!("{}.txt", deck.stem);
            stage.write(&dir.join(&name), deck_txt(game, deck).as_bytes())?;
            files.push(name);
        }
        let def = definition(game, &set, &pics, &props, &keys, &decks, &home);
        stage.write(&dir.join("cgs.json"), &pretty(&def))?;
        let cards = all_cards(
            game,
            &set,
            &pics,
            &props,
            &keys,
            &home,
            target.deck.is_none(),
        );
        stage.write(&dir.join("AllCards.json"), &pretty(&cards))?;
        let readme = readme(game, &home, &pics, &files);
        stage.write(&dir.join("README.md"), readme.as_bytes())
    }
}

fn pretty(value: &Value) -> Vec<u8> {
    let mut json = serde_json::to_vec_pretty(value).expect("JSON values serialize");
    json.push(b'\n');
    json
}

/// `cgs.json`: the game definition.
fn definition(
    game: &Game,
    set: &CardSet,
    pics: &Pictures,
    props: &[Property],
    keys: &Keys,
    decks: &[Deck<'_>],
    home: &Home,
) -> Value {
    let manifest = &game.manifest.manifest;
    let mut def = Map::new();
    def.insert("name".into(), json!(manifest.name));
    if home.is_local() {
        // Nothing to update from: the files are on this machine.
        def.insert("autoUpdate".into(), json!(-1));
    } else {
        def.insert("autoUpdateUrl".into(), json!(home.url("cgs.json")));
    }
    def.insert("allCardsUrl".into(), json!(home.url("AllCards.json")));
    if let Some((w, h)) = common_size(set) {
        def.insert("cardSize".into(), json!({ "x": inches(w), "y": inches(h) }));
    }
    def.insert("cardIdIdentifier".into(), json!("id"));
    def.insert("cardNameIdentifier".into(), json!("name"));
    def.insert("cardNameIsUnique".into(), json!(false));
    def.insert("cardSetIdentifier".into(), json!(keys.set));
    def.insert("cardSetNameIdentifier".into(), json!(keys.set_name));
    def.insert("cardImageFileType".into(), json!("png"));
    def.insert("cardImageProperty".into(), json!(keys.image));
    backs(&mut def, pics, home);
    let primary = props
        .iter()
        .find(|p| p.role == crate::validate::display::Role::Text)
        .map_or(keys.kind, |p| p.key.as_str());
    def.insert("cardPrimaryProperty".into(), json!(primary));
    def.insert("cardProperties".into(), property_defs(props, keys));
    let enums: Vec<Value> = props
        .iter()
        .filter(|p| p.shape == Shape::Choice)
        .map(|p| json!({ "property": p.key, "values": p.labels }))
        .collect();
    if !enums.is_empty() {
        def.insert("enums".into(), Value::Array(enums));
    }
    let extras = extras(game);
    if !extras.is_empty() {
        def.insert("extras".into(), Value::Array(extras));
    }
    def.insert("deckFileType".into(), json!("txt"));
    def.insert("deckFileTxtId".into(), json!("id"));
    if !decks.is_empty() {
        let urls: Vec<Value> = decks
            .iter()
            .map(|d| json!({ "name": d.name, "url": home.url(&format!("{}.txt", d.stem)) }))
            .collect();
        def.insert("deckUrls".into(), Value::Array(urls));
    }
    Value::Object(def)
}

/// The backs: the one most cards have as the game's card back and, when
/// there are more, each as a back face the cards name.
fn backs(def: &mut Map<String, Value>, pics: &Pictures, home: &Home) {
    if let Some(first) = most_common_back(pics) {
        def.insert("cardBackImageFileType".into(), json!("png"));
        def.insert(
            "cardBackImageUrl".into(),
            json!(home.url(&pics.backs[first])),
        );
    }
    if pics.backs.len() > 1 {
        let backs: Vec<Value> = pics
            .backs
            .iter()
            .enumerate()
            .map(|(i, name)| json!({ "id": back_id(i), "url": home.url(name) }))
            .collect();
        def.insert("cardBackFaceImageUrls".into(), Value::Array(backs));
    }
}

/// Millimetres in inches, to a thousandth.
fn inches(mm: f64) -> f64 {
    (mm / 25.4 * 1000.0).round() / 1000.0
}

/// The trim size most cards of the set have (the first such, on a tie).
fn common_size(set: &CardSet) -> Option<(f64, f64)> {
    let mut counts: Vec<((f64, f64), usize)> = Vec::new();
    for card in &set.cards {
        let size = (card.size.width, card.size.height);
        match counts.iter_mut().find(|(s, _)| *s == size) {
            Some((_, n)) => *n += 1,
            None => counts.push((size, 1)),
        }
    }
    let best = counts.iter().map(|(_, n)| *n).max()?;
    counts.into_iter().find(|(_, n)| *n == best).map(|(s, _)| s)
}

/// The back most cards have (the first such, on a tie).
fn most_common_back(pics: &Pictures) -> Option<usize> {
    let mut counts = vec![0usize; pics.backs.len()];
    for &b in &pics.back_of {
        counts[b] += 1;
    }
    let best = counts.iter().copied().max()?;
    counts.iter().position(|&n| n == best)
}

fn back_id(i: usize) -> String {
    format!("back-{}", i + 1)
}

/// `cardProperties`: the card's type (its kind), the game's fields, its
/// copies and its picture.
fn property_defs(props: &[Property], keys: &Keys) -> Value {
    let mut defs = vec![json!({ "name": keys.kind, "display": "Type", "type": "string" })];
    for p in props {
        let mut def = json!({ "name": p.key, "display": p.title });
        let ty = match p.shape {
            Shape::Integer => "integer",
            Shape::Boolean => "boolean",
            Shape::Choice => "stringEnum",
            Shape::List => {
                def["delimiter"] = json!(", ");
                "stringList"
            }
            Shape::Text => "string",
        };
        def["type"] = json!(ty);
        defs.push(def);
    }
    defs.push(json!({ "name": keys.copies, "display": "Copies", "type": "integer" }));
    defs.push(json!({ "name": keys.image, "display": "Image", "type": "string" }));
    Value::Array(defs)
}

/// `extras`: a kind that the main zone does not hold goes to the group of
/// the first other zone that holds it.
fn extras(game: &Game) -> Vec<Value> {
    let zones = &game.manifest.manifest.zones;
    let Some((_, main)) = zones.first() else {
        return Vec::new();
    };
    let mut seen: Vec<&str> = main.kinds.iter().map(String::as_str).collect();
    let mut out = Vec::new();
    for (_, zone) in zones.iter().skip(1) {
        for kind in &zone.kinds {
            if seen.contains(&kind.as_str()) {
                continue;
            }
            seen.push(kind);
            out.push(json!({
                "group": zone.name,
                "property": "kind",
                "value": game.manifest.manifest.kind_name(kind),
            }));
        }
    }
    out
}

/// `AllCards.json`: each card with its set, type, fields, copies (in a
/// game's export) and picture.
fn all_cards(
    game: &Game,
    set: &CardSet,
    pics: &Pictures,
    props: &[Property],
    keys: &Keys,
    home: &Home,
    with_copies: bool,
) -> Value {
    let manifest = &game.manifest.manifest;
    let mut out = Vec::with_capacity(set.cards.len());
    for (i, card) in set.cards.iter().enumerate() {
        let mut entry = Map::new();
        entry.insert("id".into(), json!(card.id));
        entry.insert("name".into(), json!(card.name));
        entry.insert(keys.set.clone(), json!(manifest.id));
        entry.insert(keys.set_name.clone(), json!(manifest.name));
        entry.insert(
            keys.kind.into(),
            json!(game.manifest.manifest.kind_name(&card.kind)),
        );
        if let Some(raw) = game.pool.get(&card.id) {
            let fields = raw.all_fields();
            for p in props {
                let Some(value) = fields.get(&p.key) else {
                    continue;
                };
                let value = match (&p.shape, value) {
                    (Shape::Integer | Shape::Boolean, v) => v.clone(),
                    (Shape::Choice, v) => {
                        json!(crate::validate::display::scalar_key(v).unwrap_or_default())
                    }
                    (_, v) => json!(p.text(game, v)),
                };
                entry.insert(p.key.clone(), value);
            }
        }
        if with_copies {
            entry.insert(keys.copies.clone(), json!(card.count));
        }
        entry.insert(keys.image.clone(), json!(home.url(&pics.faces[i])));
        if pics.backs.len() > 1 {
            entry.insert("backs".into(), json!([back_id(pics.back_of[i])]));
        }
        out.push(Value::Object(entry));
    }
    Value::Array(out)
}

/// A deck in CGS's `txt` format, as CGS writes one: a title line, each
/// zone but the main one under `## <zone>`, then `## Main Deck`; a line
/// per card, `<count> [<id>] <name>`.
fn deck_txt(game: &Game, deck: &Deck<'_>) -> String {
    let main = main_zone(game, deck);
    let mut out = format!(
        "### {} Deck: {}\n",
        one_line(&game.manifest.manifest.name),
        one_line(&deck.name)
    );
    let line = |out: &mut String, card: &RawCard, n: u32| {
        let _ = writeln!(out, "{n} [{}] {}", card.id, one_line(&card.name));
    };
    for (zone, cards) in deck.zones.iter().filter(|(z, _)| Some(z.as_str()) != main) {
        let _ = writeln!(out, "## {}", one_line(zone_name(game, zone)));
        for &(card, n) in cards {
            line(&mut out, card, n);
        }
    }
    out.push_str("## Main Deck\n");
    for (_, cards) in deck.zones.iter().filter(|(z, _)| Some(z.as_str()) == main) {
        for &(card, n) in cards {
            line(&mut out, card, n);
        }
    }
    out
}

/// `text` on one line: a line break in a name would end the deck line.
fn one_line(text: &str) -> String {
    text.split(['\n', '\r']).collect::<Vec<_>>().join(" ")
}

/// The output folder's `README.md`: how to load the game, and where each
/// file goes.
fn readme(game: &Game, home: &Home, pics: &Pictures, decks: &[String]) -> String {
    let name = &game.manifest.manifest.name;
    let mut out = format!("# {name} for Card Game Simulator\n\nMade by `carta export cgs`.\n\n");
    match home {
        Home::Local(_) => out.push_str(
            "The files name each other by `file://` URLs on this machine: only a Card Game \
             Simulator running here can load them. To share the game, export again with \
             `--base-url URL` and upload every file of this folder to that URL.\n\n\
             In Card Game Simulator's game selection, download a game from a URL, and \
             give it the URL of `cgs.json`:\n\n",
        ),
        Home::Hosted(_) => out.push_str(
            "Upload every file of this folder, as named, to the hosted folder (each \
             file's URL is in the table below); then, in Card Game Simulator's game \
             selection, download a game from a URL, and give it the URL of `cgs.json`:\n\n",
        ),
    }
    let _ = writeln!(out, "    {}\n", home.url("cgs.json"));
    out.push_str("| file | what it is | URL |\n|---|---|---|\n");
    let mut row = |file: &str, what: &str| {
        let _ = writeln!(out, "| `{file}` | {what} | {} |", home.url(file));
    };
    row("cgs.json", "the game definition");
    row("AllCards.json", "the cards");
    for d in decks {
        row(d, "a deck (CGS `txt`)");
    }
    for face in &pics.faces {
        row(face, "a card face");
    }
    for back in &pics.backs {
        row(back, "a card back");
    }
    out
}
