//! `carta export cockatrice`: a Cockatrice custom set,
//! `<game>/cockatrice/<stem>/` — `<stem>.xml`, a card database of version 4
//! (its schema is `doc/carddatabase_v4/cards.xsd` of Cockatrice/Cockatrice)
//! with one set, the game; one `.cod` deck file per deck (`doc/deck.xsd`);
//! a PNG per card face, named by content hash, which each card's `picurl`
//! names; and a `README.md` saying how to load it and which file goes
//! where. Cockatrice knows a card by its name: two cards of one name are
//! told apart as `Name (id)`. The mapping is in
//! [docs/clients.md](../../docs/clients.md).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io;
use std::path::PathBuf;

use quick_xml::Writer;
use quick_xml::events::{BytesDecl, BytesText, Event};

use super::cards::{ImageExport, unit};
use super::clients::{
    Deck, Pictures, Property, decks, distinct_names, free_name, main_zone, pictures, properties,
    xml_safe, zone_name,
};
use super::images::Home;
use super::sheets::CardSet;
use super::{EmitError, Emitter, Stage};
use crate::diag::Diagnostics;
use crate::game::Game;
use crate::load::Workspace;
use crate::validate::RawCard;
use crate::validate::display::Role;

/// The Cockatrice set of a selection of a game's cards.
#[derive(Debug, Clone)]
pub struct CockatriceEmitter<'g> {
    /// What to render, and how.
    pub export: ImageExport<'g>,
    /// The output folder, absolute: local URLs name files by full path.
    pub out: PathBuf,
}

/// The row of the table a played card goes to: the middle one (0 is the
/// back row, 3 the stack, for cards that resolve and leave).
const TABLE_ROW: &str = "1";

impl Emitter for CockatriceEmitter<'_> {
    fn name(&self) -> &'static str {
        "cockatrice"
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
        let target = &self.export.target;
        let dir = unit(game, "cockatrice").join(&target.stem);
        stage.folder(&dir)?;
        // Cockatrice draws one back for every card: its own.
        let pics = pictures(&set, &self.export, stage, &dir, false)?;
        let home = Home::new(
            self.export.options.base_url.as_deref(),
            &self.out.join(&dir),
        );
        let names = distinct_names(&set);
        let xml = database(game, &set, &pics, &names, &home).expect("writing to memory");
        let database_file = format!("{}.xml", target.stem);
        stage.write(&dir.join(&database_file), &xml)?;
        let decks = decks(game, target.deck.as_ref(), &target.stem, &ws.sources);
        let mut files = Vec::new();
        for deck in &decks {
            let file = format!("{}.cod", deck.stem);
            let cod = deck_cod(game, deck, &names).expect("writing to memory");
            stage.write(&dir.join(&file), &cod)?;
            files.push(file);
        }
        let readme = readme(game, &set, &pics, &names, &home, &database_file, &files);
        stage.write(&dir.join("README.md"), readme.as_bytes())
    }
}

/// An XML element name for a field key: its letters, digits, `-`, `_`
/// and `.` kept, anything else `_`, and `_` first if it starts otherwise
/// than with a letter or `_`. Below U+00C0 only ASCII letters and digits
/// are name characters (`²`, `º` are not).
fn element_name(key: &str) -> String {
    let mut out: String = key
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric()
                || (u32::from(c) >= 0xC0 && c.is_alphanumeric())
                || matches!(c, '-' | '_' | '.')
            {
                c
            } else {
                '_'
            }
        })
        .collect();
    if !out.starts_with(|c: char| c.is_alphabetic() || c == '_') {
        out.insert(0, '_');
    }
    out
}

fn text_element(w: &mut Writer<Vec<u8>>, name: &str, text: &str) -> io::Result<()> {
    w.create_element(name)
        .write_text_content(BytesText::new(&xml_safe(text)))?;
    Ok(())
}

/// The card database: one set (the game) and every card of `set`.
fn database(
    game: &Game,
    set: &CardSet,
    pics: &Pictures,
    names: &BTreeMap<String, String>,
    home: &Home,
) -> io::Result<Vec<u8>> {
    let manifest = &game.manifest.manifest;
    let raw: Vec<&RawCard> = set
        .cards
        .iter()
        .filter_map(|c| game.pool.get(&c.id))
        .collect();
    let props = properties(game, &raw);
    let mut w = Writer::new_with_indent(Vec::new(), b' ', 2);
    w.write_event(Event::Decl(BytesDecl::new("1.0", Some("UTF-8"), None)))?;
    w.create_element("cockatrice_carddatabase")
        .with_attribute(("version", "4"))
        .write_inner_content(|w| {
            w.create_element("info").write_inner_content(|w| {
                text_element(w, "author", "carta")?;
                text_element(w, "sourceVersion", env!("CARGO_PKG_VERSION"))
            })?;
            w.create_element("sets").write_inner_content(|w| {
                w.create_element("set").write_inner_content(|w| {
                    text_element(w, "name", &manifest.id)?;
                    text_element(w, "longname", &manifest.name)?;
                    text_element(w, "settype", "Custom")
                })?;
                Ok(())
            })?;
            w.create_element("cards").write_inner_content(|w| {
                for (i, card) in set.cards.iter().enumerate() {
                    let raw = game.pool.get(&card.id);
                    let info = CardXml {
                        name: &names[&card.id],
                        kind: game.manifest.manifest.kind_name(&card.kind),
                        picurl: home.url(&pics.faces[i]),
                        num: i + 1,
                        landscape: card.size.width > card.size.height,
                    };
                    card_element(w, game, &info, raw, &props, &manifest.id)?;
                }
                Ok(())
            })?;
            Ok(())
        })?;
    let mut bytes = w.into_inner();
    bytes.push(b'\n');
    Ok(bytes)
}

/// What a card element says besides its fields.
struct CardXml<'a> {
    name: &'a str,
    kind: &'a str,
    picurl: String,
    num: usize,
    landscape: bool,
}

/// One `<card>`: name, text (its text and flavour fields, a paragraph
/// each), properties (its type — the kind — and every other field), its
/// printing in the set with the picture's URL, its table row.
fn card_element(
    w: &mut Writer<Vec<u8>>,
    game: &Game,
    info: &CardXml<'_>,
    raw: Option<&RawCard>,
    props: &[Property],
    set_code: &str,
) -> io::Result<()> {
    let fields = raw.map(RawCard::all_fields).unwrap_or_default();
    let mut text = Vec::new();
    let mut others = Vec::new();
    for p in props {
        let Some(value) = fields.get(&p.key) else {
            continue;
        };
        let shown = p.text(game, value);
        if shown.is_empty() {
            continue;
        }
        if matches!(p.role, Role::Text | Role::Code | Role::Flavor) {
            text.push(shown);
        } else {
            others.push((p, shown));
        }
    }
    w.create_element("card").write_inner_content(|w| {
        text_element(w, "name", info.name)?;
        if !text.is_empty() {
            text_element(w, "text", &text.join("\n\n"))?;
        }
        w.create_element("prop").write_inner_content(|w| {
            text_element(w, "type", info.kind)?;
            text_element(w, "maintype", info.kind)?;
            for (p, shown) in &others {
                let name = free_name(&element_name(&p.key), &["type", "maintype"]);
                text_element(w, &name, shown)?;
            }
            Ok(())
        })?;
        w.create_element("set")
            .with_attribute(("picurl", info.picurl.as_str()))
            .with_attribute(("num", info.num.to_string().as_str()))
            .write_text_content(BytesText::new(&xml_safe(set_code)))?;
        text_element(w, "tablerow", TABLE_ROW)?;
        if info.landscape {
            text_element(w, "landscapeOrientation", "1")?;
        }
        Ok(())
    })?;
    Ok(())
}

/// A `.cod` deck: the main zone as Cockatrice's `main`, every other zone
/// as its `side`, each card by its Cockatrice name.
fn deck_cod(game: &Game, deck: &Deck<'_>, names: &BTreeMap<String, String>) -> io::Result<Vec<u8>> {
    let main = main_zone(game, deck);
    let mut zones: [(&str, Vec<(String, u32)>); 2] = [("main", Vec::new()), ("side", Vec::new())];
    let mut moved = Vec::new();
    for (zone, cards) in &deck.zones {
        let slot = usize::from(Some(zone.as_str()) != main);
        if slot == 1 && !cards.is_empty() {
            moved.push(zone_name(game, zone).to_owned());
        }
        for &(card, n) in cards {
            let name = names
                .get(&card.id)
                .cloned()
                .unwrap_or_else(|| card.name.clone());
            match zones[slot].1.iter_mut().find(|(c, _)| *c == name) {
                Some((_, count)) => *count += n,
                None => zones[slot].1.push((name, n)),
            }
        }
    }
    let mut comments = format!("Exported by carta from {}.", game.manifest.manifest.name);
    if !moved.is_empty() {
        let _ = write!(comments, " In the sideboard: {}.", moved.join(", "));
    }
    let mut w = Writer::new_with_indent(Vec::new(), b' ', 2);
    w.write_event(Event::Decl(BytesDecl::new("1.0", Some("UTF-8"), None)))?;
    w.create_element("cockatrice_deck")
        .with_attribute(("version", "1"))
        .write_inner_content(|w| {
            text_element(w, "deckname", &deck.name)?;
            text_element(w, "comments", &comments)?;
            for (zone, cards) in zones.iter().filter(|(_, c)| !c.is_empty()) {
                w.create_element("zone")
                    .with_attribute(("name", *zone))
                    .write_inner_content(|w| {
                        for (name, n) in cards {
                            w.create_element("card")
                                .with_attribute(("number", n.to_string().as_str()))
                                .with_attribute(("name", xml_safe(name).as_ref()))
                                .write_empty()?;
                        }
                        Ok(())
                    })?;
            }
            Ok(())
        })?;
    let mut bytes = w.into_inner();
    bytes.push(b'\n');
    Ok(bytes)
}

/// The output folder's `README.md`: how to load the set and the decks,
/// and where each file goes.
fn readme(
    game: &Game,
    set: &CardSet,
    pics: &Pictures,
    names: &BTreeMap<String, String>,
    home: &Home,
    database: &str,
    decks: &[String],
) -> String {
    let name = &game.manifest.manifest.name;
    let mut out = format!(
        "# {name} for Cockatrice\n\nMade by `carta export cockatrice`.\n\n\
         1. In Cockatrice, *Card Database* → *Add custom sets/cards*, and pick \
         `{database}` (or copy it into *Open custom sets folder* and *Reload card \
         database*).\n\
         2. Open a deck (`.cod`) in the deck editor (*Load deck…*).\n\
         3. Pictures: each card's `picurl` names its face, "
    );
    if home.is_local() {
        out.push_str(
            "a `file://` URL on this machine, which only a Cockatrice running here can \
             load. To share them, export again with `--base-url URL` and upload the \
             pictures there; or copy each picture into Cockatrice's custom image \
             folder (*Open custom image folder*, `pics/CUSTOM/`) under the card's \
             name, as the table says.\n\n",
        );
    } else {
        out.push_str(
            "a hosted URL: upload every picture of this folder, as it is named, to the \
             base URL; or copy each picture into Cockatrice's custom image folder \
             (*Open custom image folder*, `pics/CUSTOM/`) under the card's name, as \
             the table says.\n\n",
        );
    }
    out.push_str("| file | what it is | URL or place |\n|---|---|---|\n");
    let cell = |s: &str| s.replace('|', "\\|").replace(['\n', '\r'], " ");
    let _ = writeln!(out, "| `{database}` | the card database | `customsets/` |");
    for d in decks {
        let _ = writeln!(out, "| `{d}` | a deck | the deck editor |");
    }
    for (i, card) in set.cards.iter().enumerate() {
        let face = &pics.faces[i];
        let _ = writeln!(
            out,
            "| `{face}` | the face of {} | {} or `pics/CUSTOM/{}.png` |",
            cell(&names[&card.id]),
            home.url(face),
            cell(&names[&card.id]),
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn field_keys_become_xml_names() {
        assert_eq!(element_name("cost"), "cost");
        assert_eq!(element_name("força máx"), "força_máx");
        assert_eq!(element_name("2nd"), "_2nd");
        assert_eq!(element_name("m²"), "m_");
        assert_eq!(element_name("ação"), "ação");
    }
}
