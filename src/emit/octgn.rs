//! `carta export octgn`: an OCTGN game, `<game>/octgn/<stem>/`, laid out
//! as OCTGN's data folder (`Documents/OCTGN/`) is, so that copying its
//! folders there installs it:
//!
//! - `GameDatabase/<game GUID>/definition.xml`, the game definition (its
//!   schema is `Game.xsd` of octgn/OCTGN), with a card back per distinct
//!   back and size under `Resources/`, a proxy definition under
//!   `Proxies/`, and `Sets/<set GUID>/set.xml`, the one set
//!   (`CardSet.xsd`) with each card's properties;
//! - `ImageDatabase/<game GUID>/Sets/<set GUID>/Cards/<card GUID>.png`,
//!   each card's face, where OCTGN looks for it;
//! - `Decks/<deck>.o8d`, each deck;
//! - `README.md`, how to install it and play.
//!
//! GUIDs are name-based (version 5): the game's from its id, the set's
//! and each card's from the game's GUID and the card id, so an export
//! made again, or in another language, is the same game, and its decks
//! still load. The mapping is in [docs/clients.md](../../docs/clients.md).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io;
use std::path::Path;

use quick_xml::Writer;
use quick_xml::events::{BytesCData, BytesDecl, BytesText, Event};
use uuid::Uuid;

use super::cards::ImageExport;
use super::clients::{
    Deck, Picture, Pictures, Property, Shape, TableZone, decks, pictures_named, properties,
    property_names, render_into, table_zones, xml_attr, xml_end, xml_safe,
};
use super::sheets::CardSet;
use super::{EmitError, Emitter, Stage};
use crate::diag::Diagnostics;
use crate::game::Game;
use crate::load::Workspace;
use crate::validate::RawCard;

/// The OCTGN game of a selection of a game's cards.
#[derive(Debug, Clone)]
pub struct OctgnEmitter<'g> {
    /// What to render, and how.
    pub export: ImageExport<'g>,
}

/// The version every exported game and set declares: OCTGN wants four
/// numbers, and a local install is never updated from a feed.
const VERSION: &str = "1.0.0.0";

/// The OCTGN release whose definition format the export follows.
const OCTGN_VERSION: &str = "3.4.0.0";

/// The GUIDs of a game's export.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Guids {
    /// The game's.
    pub game: Uuid,
    /// Its one set's.
    pub set: Uuid,
}

impl Guids {
    /// The GUIDs of the game of id `game`.
    pub fn of(game: &str) -> Guids {
        let carta = Uuid::new_v5(&Uuid::NAMESPACE_URL, b"urn:carta:octgn");
        let game = Uuid::new_v5(&carta, format!("game:{game}").as_bytes());
        Guids {
            game,
            set: Uuid::new_v5(&game, b"set"),
        }
    }

    /// The GUID of the card of id `card`.
    pub fn card(&self, card: &str) -> Uuid {
        Uuid::new_v5(&self.game, format!("card:{card}").as_bytes())
    }
}

/// A card size of the definition: its trim size in millimetres and the
/// back its cards have.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Size {
    /// Its name (`""`, the default, for the size most cards have).
    name: String,
    width: u32,
    height: u32,
    /// The back's path inside the game folder.
    back: String,
}

impl Emitter for OctgnEmitter<'_> {
    fn name(&self) -> &'static str {
        "octgn"
    }

    fn emit(
        &self,
        game: &Game,
        ws: &mut Workspace,
        stage: &mut Stage,
        diags: &mut Diagnostics,
    ) -> Result<(), EmitError> {
        let Some((set, dir)) = render_into(&self.export, "octgn", (game, ws), stage, diags)? else {
            return Ok(());
        };
        let target = &self.export.target;
        if set.cards.is_empty() {
            // No card, no back to show: nothing OCTGN could load.
            return Ok(());
        }
        let guids = Guids::of(&game.manifest.manifest.id);
        let game_dir = dir.join("GameDatabase").join(guids.game.to_string());
        let cards_dir = dir
            .join("ImageDatabase")
            .join(guids.game.to_string())
            .join("Sets")
            .join(guids.set.to_string())
            .join("Cards");
        let pics = pictures_named(
            &set,
            &self.export,
            stage,
            true,
            &mut |picture, _| match picture {
                Picture::Face(i) => cards_dir.join(format!("{}.png", guids.card(&set.cards[i].id))),
                Picture::Back(b) => game_dir
                    .join("Resources")
                    .join(format!("back-{}.png", b + 1)),
            },
        )?;
        let (sizes, size_of) = sizes(&set, &pics);
        let decks = decks(game, target.deck.as_ref(), &target.stem, &ws.sources);
        let zones = table_zones(game, &decks, &str::to_owned, &[HAND]);
        let raw: Vec<&RawCard> = set
            .cards
            .iter()
            .filter_map(|c| game.pool.get(&c.id))
            .collect();
        let props = properties(game, &raw);
        let names = property_names(&props, &RESERVED);
        let def = Definition {
            game,
            guids,
            sizes: &sizes,
            props: &props,
            names: &names,
            zones: &zones,
        };
        def.write(stage, &game_dir, &set, &size_of)?;
        let mut files = Vec::new();
        for deck in &decks {
            let file = format!("{}.o8d", deck.stem);
            let o8d = deck_o8d(guids, deck, &zones).expect("writing to memory");
            stage.write(&dir.join("Decks").join(&file), &o8d)?;
            files.push(file);
        }
        let readme = readme(game, guids, &zones, &files);
        stage.write(&dir.join("README.md"), readme.as_bytes())
    }
}

/// The card sizes: one per trim size and back, the one most cards have
/// first (the default, unnamed), then the others in the set's order
/// (`size-2`, …); and each card's index among them.
fn sizes(set: &CardSet, pics: &Pictures) -> (Vec<Size>, Vec<usize>) {
    let mut keys: Vec<((u32, u32, usize), usize)> = Vec::new();
    let key = |i: usize| {
        let c = &set.cards[i];
        (
            c.size.width.round() as u32,
            c.size.height.round() as u32,
            pics.back_of[i],
        )
    };
    for i in 0..set.cards.len() {
        let k = key(i);
        match keys.iter_mut().find(|(s, _)| *s == k) {
            Some((_, n)) => *n += 1,
            None => keys.push((k, 1)),
        }
    }
    let best = keys.iter().map(|(_, n)| *n).max().unwrap_or(0);
    if let Some(first) = keys.iter().position(|(_, n)| *n == best) {
        let k = keys.remove(first);
        keys.insert(0, k);
    }
    let sizes: Vec<Size> = keys
        .iter()
        .enumerate()
        .map(|(i, &((width, height, back), _))| Size {
            name: if i == 0 {
                String::new()
            } else {
                format!("size-{}", i + 1)
            },
            width: width.max(1),
            height: height.max(1),
            back: format!("Resources/{}", pics.backs[back]),
        })
        .collect();
    let size_of = (0..set.cards.len())
        .map(|i| keys.iter().position(|(k, _)| *k == key(i)).unwrap_or(0))
        .collect();
    (sizes, size_of)
}

/// The player's hand.
const HAND: &str = "Hand";

/// The names OCTGN gives a card of its own: no property may take them.
const RESERVED: [&str; 4] = ["Name", "Id", "SetName", "Type"];

/// What the definition and the set say of a game.
struct Definition<'a> {
    game: &'a Game,
    guids: Guids,
    sizes: &'a [Size],
    props: &'a [Property],
    names: &'a BTreeMap<String, String>,
    zones: &'a [TableZone],
}

fn xml_writer() -> io::Result<Writer<Vec<u8>>> {
    let mut w = Writer::new_with_indent(Vec::new(), b' ', 2);
    w.write_event(Event::Decl(BytesDecl::new("1.0", Some("utf-8"), None)))?;
    Ok(w)
}

impl Definition<'_> {
    /// Writes the definition, the proxy definition and the set into
    /// `game_dir` of `stage`.
    fn write(
        &self,
        stage: &mut Stage,
        game_dir: &Path,
        set: &CardSet,
        size_of: &[usize],
    ) -> Result<(), EmitError> {
        let xml = self.xml().expect("writing to memory");
        stage.write(&game_dir.join("definition.xml"), &xml)?;
        stage.write(
            &game_dir.join("Proxies").join("proxydef.xml"),
            &proxy_definition(&self.sizes[0].back).expect("writing to memory"),
        )?;
        let set_xml = set_xml(self, set, size_of).expect("writing to memory");
        let set_dir = game_dir.join("Sets").join(self.guids.set.to_string());
        stage.write(&set_dir.join("set.xml"), &set_xml)
    }

    /// `definition.xml`, its elements in the order OCTGN's documentation
    /// asks for.
    fn xml(&self) -> io::Result<Vec<u8>> {
        let manifest = &self.game.manifest.manifest;
        let description = manifest.description.as_deref().unwrap_or(&manifest.name);
        let default = &self.sizes[0];
        let mut w = xml_writer()?;
        w.create_element("game")
            .with_attributes([
                xml_attr("name", &manifest.name),
                xml_attr("id", &self.guids.game.to_string()),
                xml_attr("version", VERSION),
                xml_attr("octgnVersion", OCTGN_VERSION),
                xml_attr("setsurl", ""),
                xml_attr("gameurl", ""),
                xml_attr("authors", "carta"),
                xml_attr("description", description),
                xml_attr("tags", &manifest.id),
                xml_attr("iconurl", ""),
            ])
            .write_inner_content(|w| {
                w.create_element("proxygen")
                    .with_attribute(xml_attr("definitionsrc", "Proxies/proxydef.xml"))
                    .write_empty()?;
                self.card_def(w)?;
                let (width, height) = (default.width * 12, default.height * 6);
                w.create_element("table")
                    .with_attributes([
                        xml_attr("name", "Table"),
                        xml_attr("visibility", "undefined"),
                        xml_attr("width", &width.to_string()),
                        xml_attr("height", &height.to_string()),
                    ])
                    .write_empty()?;
                self.player(w)
            })?;
        Ok(xml_end(w))
    }

    /// The `card` element: the default size and back, the properties,
    /// the other sizes.
    fn card_def(&self, w: &mut Writer<Vec<u8>>) -> io::Result<()> {
        let default = &self.sizes[0];
        w.create_element("card")
            .with_attributes([
                xml_attr("back", &default.back),
                xml_attr("front", &default.back),
                xml_attr("width", &default.width.to_string()),
                xml_attr("height", &default.height.to_string()),
            ])
            .write_inner_content(|w| {
                self.property_defs(w)?;
                for size in &self.sizes[1..] {
                    w.create_element("size")
                        .with_attributes([
                            xml_attr("name", &size.name),
                            xml_attr("width", &size.width.to_string()),
                            xml_attr("height", &size.height.to_string()),
                            xml_attr("back", &size.back),
                            xml_attr("front", &size.back),
                        ])
                        .write_empty()?;
                }
                Ok(())
            })?;
        Ok(())
    }

    /// The player's hand and piles, and the deck editor's sections.
    fn player(&self, w: &mut Writer<Vec<u8>>) -> io::Result<()> {
        w.create_element("player")
            .with_attribute(xml_attr("summary", ""))
            .write_inner_content(|w| {
                w.create_element("hand")
                    .with_attributes([
                        xml_attr("name", HAND),
                        xml_attr("visibility", "me"),
                        xml_attr("ordered", "False"),
                    ])
                    .write_empty()?;
                for (i, zone) in self.zones.iter().enumerate() {
                    let mut pile = w.create_element("group").with_attributes([
                        xml_attr("name", &zone.name),
                        xml_attr("visibility", "none"),
                    ]);
                    if i == 0 {
                        pile = pile.with_attribute(xml_attr("shuffle", "Ctrl+S"));
                    }
                    pile.write_empty()?;
                }
                Ok(())
            })?;
        w.create_element("deck").write_inner_content(|w| {
            for zone in self.zones {
                w.create_element("section")
                    .with_attributes([xml_attr("name", &zone.name), xml_attr("group", &zone.name)])
                    .write_empty()?;
            }
            Ok(())
        })?;
        Ok(())
    }

    /// The card's properties: its kind as `Type`, then the game's fields.
    fn property_defs(&self, w: &mut Writer<Vec<u8>>) -> io::Result<()> {
        w.create_element("property")
            .with_attributes([
                xml_attr("name", "Type"),
                xml_attr("type", "String"),
                xml_attr("textKind", "Enum"),
            ])
            .write_empty()?;
        for p in self.props {
            let mut attrs = vec![xml_attr("name", &self.names[&p.key])];
            match p.shape {
                Shape::Integer => attrs.push(xml_attr("type", "Integer")),
                Shape::Choice | Shape::Boolean => {
                    attrs.push(xml_attr("type", "String"));
                    attrs.push(xml_attr("textKind", "Enum"));
                }
                Shape::List => {
                    attrs.push(xml_attr("type", "String"));
                    attrs.push(xml_attr("textKind", "Tokens"));
                    attrs.push(xml_attr("delimiter", ", "));
                }
                Shape::Text => attrs.push(xml_attr("type", "String")),
            }
            w.create_element("property")
                .with_attributes(attrs)
                .write_empty()?;
        }
        Ok(())
    }
}

/// `Proxies/proxydef.xml`: OCTGN needs one; its one template is the
/// back, for the cards a player makes up in play (every card of the set
/// has its picture).
fn proxy_definition(back: &str) -> io::Result<Vec<u8>> {
    let mut w = xml_writer()?;
    w.create_element("templates").write_inner_content(|w| {
        w.create_element("template")
            .with_attributes([xml_attr("src", back), xml_attr("default", "True")])
            .write_empty()?;
        Ok(())
    })?;
    Ok(xml_end(w))
}

/// `set.xml`: every card of `set`, by its GUID, with its kind and fields
/// as plain text (each in the element's text, which keeps line breaks).
fn set_xml(def: &Definition<'_>, set: &CardSet, size_of: &[usize]) -> io::Result<Vec<u8>> {
    let game = def.game;
    let manifest = &game.manifest.manifest;
    let mut w = xml_writer()?;
    w.create_element("set")
        .with_attributes([
            xml_attr("name", &manifest.name),
            xml_attr("shortName", &manifest.id),
            xml_attr("id", &def.guids.set.to_string()),
            xml_attr("gameId", &def.guids.game.to_string()),
            xml_attr("gameVersion", VERSION),
            xml_attr("version", VERSION),
        ])
        .write_inner_content(|w| {
            w.create_element("cards").write_inner_content(|w| {
                for (i, card) in set.cards.iter().enumerate() {
                    let mut attrs = vec![
                        xml_attr("name", &card.name),
                        xml_attr("id", &def.guids.card(&card.id).to_string()),
                    ];
                    let size = &def.sizes[size_of[i]];
                    if !size.name.is_empty() {
                        attrs.push(xml_attr("size", &size.name));
                    }
                    let fields = game
                        .pool
                        .get(&card.id)
                        .map(RawCard::all_fields)
                        .unwrap_or_default();
                    let mut values = vec![("Type", manifest.kind_name(&card.kind).to_owned())];
                    for p in def.props {
                        if let Some(v) = fields.get(&p.key) {
                            values.push((def.names[&p.key].as_str(), p.text(game, v)));
                        }
                    }
                    w.create_element("card")
                        .with_attributes(attrs)
                        .write_inner_content(|w| {
                            for (name, text) in values.iter().filter(|(_, t)| !t.is_empty()) {
                                w.create_element("property")
                                    .with_attribute(xml_attr("name", name))
                                    .write_text_content(BytesText::new(&xml_safe(text)))?;
                            }
                            Ok(())
                        })?;
                }
                Ok(())
            })?;
            Ok(())
        })?;
    Ok(xml_end(w))
}

/// A `.o8d` deck as OCTGN saves one: a section per zone (named as the
/// definition's), each card by its GUID with its count and name.
fn deck_o8d(guids: Guids, deck: &Deck<'_>, zones: &[TableZone]) -> io::Result<Vec<u8>> {
    let mut w = Writer::new_with_indent(Vec::new(), b' ', 2);
    w.write_event(Event::Decl(BytesDecl::new(
        "1.0",
        Some("utf-8"),
        Some("yes"),
    )))?;
    w.create_element("deck")
        .with_attribute(xml_attr("game", &guids.game.to_string()))
        .write_inner_content(|w| {
            for zone in zones {
                let cards: Vec<(&RawCard, u32)> = deck
                    .zones
                    .iter()
                    .filter(|(z, _)| *z == zone.id)
                    .flat_map(|(_, c)| c.iter().copied())
                    .collect();
                if cards.is_empty() {
                    continue;
                }
                w.create_element("section")
                    .with_attributes([xml_attr("name", &zone.name), xml_attr("shared", "False")])
                    .write_inner_content(|w| {
                        for (card, n) in &cards {
                            w.create_element("card")
                                .with_attributes([
                                    xml_attr("qty", &n.to_string()),
                                    xml_attr("id", &guids.card(&card.id).to_string()),
                                ])
                                .write_text_content(BytesText::new(&xml_safe(&card.name)))?;
                        }
                        Ok(())
                    })?;
            }
            let notes = format!("{} — exported by carta.", deck.name);
            // A CDATA section cannot hold its own end marker.
            let notes = xml_safe(&notes).replace("]]>", "]] >");
            w.create_element("notes")
                .write_cdata_content(BytesCData::new(notes))?;
            Ok(())
        })?;
    Ok(xml_end(w))
}

/// The output folder's `README.md`: how to install the game, load a deck
/// and shuffle it.
fn readme(game: &Game, guids: Guids, zones: &[TableZone], decks: &[String]) -> String {
    let name = &game.manifest.manifest.name;
    let main = &zones[0].name;
    let mut out = format!(
        "# {name} for OCTGN\n\nMade by `carta export octgn`. Game GUID `{game}`, set GUID `{set}`.\n\n\
         ## Install\n\n\
         1. Close OCTGN.\n\
         2. Open OCTGN's data folder, `Documents/OCTGN/` (on Windows, \
         `%USERPROFILE%\\Documents\\OCTGN\\`).\n\
         3. Copy this folder's `GameDatabase` and `ImageDatabase` folders into it, merging \
         with the folders of the same names there: the game goes to \
         `GameDatabase/{game}/`, the card pictures to `ImageDatabase/{game}/`.\n\
         4. Copy the `.o8d` files of `Decks/` into `Documents/OCTGN/Decks/` (or anywhere).\n\
         5. Start OCTGN: *{name}* is in the game list.\n\n\
         ## Play\n\n\
         1. *Play* → *Start* a game of *{name}* (alone, to try it).\n\
         2. *Load deck* and pick one of the decks below: its cards go to the piles \
         named after the zones ({zones}).\n\
         3. Right-click the *{main}* pile → *Shuffle* (or `Ctrl+S`), then drag \
         cards from it to your hand or the table.\n\n\
         ## Files\n\n\
         | file | what it is |\n|---|---|\n\
         | `GameDatabase/{game}/definition.xml` | the game definition |\n\
         | `GameDatabase/{game}/Sets/{set}/set.xml` | the cards and their properties |\n\
         | `GameDatabase/{game}/Resources/` | the card backs |\n\
         | `ImageDatabase/{game}/Sets/{set}/Cards/` | each card's face, named by its GUID |\n",
        game = guids.game,
        set = guids.set,
        zones = TableZone::list(zones),
    );
    for d in decks {
        let _ = writeln!(out, "| `Decks/{d}` | a deck |");
    }
    out.push_str(
        "\nExporting again replaces the game and its pictures: the GUIDs stay the same, \
         so saved decks keep loading. OCTGN does not check a deck against the game's \
         rules (`carta deck check` does).\n",
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn guids_are_stable_and_tell_games_and_cards_apart() {
        let a = Guids::of("intrepidos");
        assert_eq!(a, Guids::of("intrepidos"));
        assert_ne!(a.game, Guids::of("zodiacos").game);
        assert_ne!(a.card("x"), Guids::of("zodiacos").card("x"));
        assert_ne!(a.card("x"), a.card("y"));
        assert_eq!(a.game.get_version_num(), 5);
    }
}
