//! `carta export lackey`: a `LackeyCCG` plugin, `<game>/lackey/<stem>/`,
//! holding the plugin folder `<game id>/` that goes into `LackeyCCG`'s
//! `plugins/` folder, and a `README.md` saying how:
//!
//! - `plugininfo.txt`: a deck zone and a game zone per zone (shuffled as
//!   a deck loads), the hand and a discard pile, drawing, tapping and
//!   turning cards over;
//! - `sets/carddata.txt`: the card data, tab-separated with a header row,
//!   one card a line: `Name`, `Set` (the game id), `ImageFile`, `Type`
//!   (the kind), then a column per field of the schema;
//! - `sets/setimages/<set>/<id>-<hash>.png`, each card's face, and
//!   `cardback.png`, the back most cards have (each other back in
//!   `sets/setimages/general/`, named after the face in `ImageFile`);
//! - `decks/<deck>.dek`, each deck in Lackey's XML deck format.
//!
//! Lackey's card data has no quoting: a tab or a line break in a value
//! would end its column or its row, so each becomes a space. Lackey knows
//! a card by its name: two cards of one name are told apart as
//! `Name (id)`. The mapping is in [docs/clients.md](../../docs/clients.md).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io;

use quick_xml::Writer;
use quick_xml::events::BytesText;

use super::cards::ImageExport;
use super::clients::{
    Deck, Picture, Pictures, Property, TableZone, decks, distinct_names, pictures_named,
    properties, property_names, render_into, table_zones, xml_attr, xml_end, xml_safe,
};
use super::images::hashed_name;
use super::sheets::CardSet;
use super::{EmitError, Emitter, Stage};
use crate::diag::Diagnostics;
use crate::game::Game;
use crate::load::Workspace;
use crate::validate::RawCard;

/// The `LackeyCCG` plugin of a selection of a game's cards.
#[derive(Debug, Clone)]
pub struct LackeyEmitter<'g> {
    /// What to render, and how.
    pub export: ImageExport<'g>,
}

/// The card data's own columns, before the game's fields.
const COLUMNS: [&str; 4] = ["Name", "Set", "ImageFile", "Type"];

/// The player's hand and discard pile, beside the game's zones.
const HAND: &str = "Hand";
const DISCARD: &str = "Discard";

impl Emitter for LackeyEmitter<'_> {
    fn name(&self) -> &'static str {
        "lackey"
    }

    fn emit(
        &self,
        game: &Game,
        ws: &mut Workspace,
        stage: &mut Stage,
        diags: &mut Diagnostics,
    ) -> Result<(), EmitError> {
        let Some((set, dir)) = render_into(&self.export, "lackey", (game, ws), stage, diags)?
        else {
            return Ok(());
        };
        let target = &self.export.target;
        let id = &game.manifest.manifest.id;
        let plugin = dir.join(id);
        let images = plugin.join("sets").join("setimages");
        let mut back_bytes: Vec<Vec<u8>> = Vec::new();
        let pics =
            pictures_named(
                &set,
                &self.export,
                stage,
                true,
                &mut |picture, bytes| match picture {
                    Picture::Face(i) => images.join(id).join(hashed_name(&set.cards[i].id, bytes)),
                    Picture::Back(b) => {
                        back_bytes.push(bytes.to_vec());
                        images
                            .join("general")
                            .join(hashed_name(&format!("{id}-back-{}", b + 1), bytes))
                    }
                },
            )?;
        if let Some(back) = most_common(&pics.back_of).and_then(|b| back_bytes.get(b)) {
            stage.write(&plugin.join("cardback.png"), back)?;
        }
        let decks = decks(game, target.deck.as_ref(), &target.stem, &ws.sources);
        let zones = table_zones(game, &decks, &label, &[HAND, DISCARD]);
        let names = distinct_names(&set);
        let data = card_data(game, &set, &pics, &names);
        stage.write(&plugin.join("sets").join("carddata.txt"), data.as_bytes())?;
        let info = plugin_info(&zones, pics.backs.len() > 1);
        stage.write(&plugin.join("plugininfo.txt"), info.as_bytes())?;
        let mut files = Vec::new();
        for deck in &decks {
            let file = format!("{}.dek", deck.stem);
            let dek = deck_dek(id, deck, &zones, &names).expect("writing to memory");
            stage.write(&plugin.join("decks").join(&file), &dek)?;
            files.push(file);
        }
        let readme = readme(game, &zones, &files);
        stage.write(&dir.join("README.md"), readme.as_bytes())
    }
}

/// The value most of `values` are (the first such, on a tie).
fn most_common(values: &[usize]) -> Option<usize> {
    let mut counts: BTreeMap<usize, usize> = BTreeMap::new();
    for &v in values {
        *counts.entry(v).or_default() += 1;
    }
    let best = counts.values().copied().max()?;
    values.iter().copied().find(|v| counts[v] == best)
}

/// A value as one field of the card data: each tab and line break a
/// space (the format has no quoting), with no space at either end.
pub fn field(text: &str) -> String {
    let one: String = text
        .chars()
        .map(|c| {
            if matches!(c, '\t' | '\n' | '\r') {
                ' '
            } else {
                c
            }
        })
        .collect();
    one.trim().to_owned()
}

/// A name in `plugininfo.txt`, whose blocks are tags Lackey finds by
/// `<` and `>`: on one line, without them.
fn label(text: &str) -> String {
    field(text).replace('<', "‹").replace('>', "›")
}

/// `sets/carddata.txt`: a header row, then a row per card.
fn card_data(
    game: &Game,
    set: &CardSet,
    pics: &Pictures,
    names: &BTreeMap<String, String>,
) -> String {
    let manifest = &game.manifest.manifest;
    let raw: Vec<&RawCard> = set
        .cards
        .iter()
        .filter_map(|c| game.pool.get(&c.id))
        .collect();
    let props: Vec<Property> = properties(game, &raw);
    let titles = property_names(&props, &COLUMNS);
    let mut header: Vec<String> = COLUMNS.iter().map(|c| (*c).to_owned()).collect();
    header.extend(props.iter().map(|p| field(&titles[&p.key])));
    let mut out = header.join("\t");
    out.push('\n');
    let stem = |file: &str| file.strip_suffix(".png").unwrap_or(file).to_owned();
    for (i, card) in set.cards.iter().enumerate() {
        let mut image = stem(&pics.faces[i]);
        if pics.backs.len() > 1 {
            let _ = write!(image, ",{}", stem(&pics.backs[pics.back_of[i]]));
        }
        let mut row = vec![
            field(&names[&card.id]),
            manifest.id.clone(),
            image,
            field(manifest.kind_name(&card.kind)),
        ];
        let fields = game
            .pool
            .get(&card.id)
            .map(RawCard::all_fields)
            .unwrap_or_default();
        for p in &props {
            row.push(
                fields
                    .get(&p.key)
                    .map_or_else(String::new, |v| field(&p.text(game, v))),
            );
        }
        out.push_str(&row.join("\t"));
        out.push('\n');
    }
    out
}

/// `plugininfo.txt`: the zones, drawing, tapping and turning over.
fn plugin_info(zones: &[TableZone], many_backs: bool) -> String {
    let mut out = String::from("<plugin>\n\n");
    for z in zones {
        let _ = writeln!(
            out,
            "<deckzone><label>{0}</label><gamezonetoloadto>{0}</gamezonetoloadto>\
             <shuffle>yes</shuffle></deckzone>",
            z.name
        );
    }
    let _ = writeln!(
        out,
        "\n<gamezone><label>{HAND}</label><visibletoowner>yes</visibletoowner>\
         <visibletoothers>no</visibletoothers></gamezone>"
    );
    for z in zones {
        let _ = writeln!(out, "<gamezone><label>{}</label></gamezone>", z.name);
    }
    let _ = writeln!(
        out,
        "<gamezone><label>{DISCARD}</label><visibletoowner>yes</visibletoowner>\
         <visibletoothers>yes</visibletoothers></gamezone>\n"
    );
    out.push_str(
        "<generalfunction><label>Draw</label><kind>DRAWCARD</kind>\
         <includeasbutton>yes</includeasbutton></generalfunction>\n\
         <generalfunction><label>Untap all</label><kind>ALLYOURCARDSMAKERIGHT0DEGREES</kind>\
         <includeasbutton>yes</includeasbutton></generalfunction>\n\
         <cardfunction><label>Tap</label><kind>MAKERIGHT90DEGREES</kind>\
         <includeasbutton>yes</includeasbutton></cardfunction>\n\
         <cardfunction><label>Untap</label><kind>MAKERIGHT0DEGREES</kind>\
         <includeasbutton>yes</includeasbutton></cardfunction>\n\
         <cardfunction><label>Turn over</label><kind>TURNOVER</kind>\
         <includeasbutton>yes</includeasbutton></cardfunction>\n",
    );
    if many_backs {
        out.push_str("\n<definition><kind>ISALLOWINGMULTIPLECARDBACKS</kind></definition>\n");
    }
    out.push_str("\n</plugin>\n");
    out
}

/// A `.dek` deck: a superzone per zone (named as the plugin's deck
/// zones), a `card` element per copy, by its name and set.
fn deck_dek(
    set: &str,
    deck: &Deck<'_>,
    zones: &[TableZone],
    names: &BTreeMap<String, String>,
) -> io::Result<Vec<u8>> {
    let mut w = Writer::new_with_indent(Vec::new(), b' ', 2);
    w.create_element("deck")
        .with_attribute(xml_attr("version", "0.8"))
        .write_inner_content(|w| {
            w.create_element("meta").write_inner_content(|w| {
                for (tag, text) in [("game", set), ("title", deck.name.as_str())] {
                    w.create_element(tag)
                        .write_text_content(BytesText::new(&xml_safe(text)))?;
                }
                Ok(())
            })?;
            for zone in zones {
                let cards = deck.zones.iter().filter(|(z, _)| *z == zone.id);
                let copies: Vec<(&RawCard, u32)> =
                    cards.flat_map(|(_, c)| c.iter().copied()).collect();
                if copies.is_empty() {
                    continue;
                }
                w.create_element("superzone")
                    .with_attribute(xml_attr("name", &zone.name))
                    .write_inner_content(|w| {
                        for (card, n) in &copies {
                            let name = names
                                .get(&card.id)
                                .map_or_else(|| field(&card.name), |n| field(n));
                            for _ in 0..*n {
                                w.create_element("card").write_inner_content(|w| {
                                    w.create_element("name")
                                        .with_attribute(xml_attr("id", &card.id))
                                        .write_text_content(BytesText::new(&xml_safe(&name)))?;
                                    w.create_element("set")
                                        .write_text_content(BytesText::new(set))?;
                                    Ok(())
                                })?;
                            }
                        }
                        Ok(())
                    })?;
            }
            Ok(())
        })?;
    Ok(xml_end(w))
}

/// The output folder's `README.md`: how to install the plugin, load a
/// deck and shuffle it.
fn readme(game: &Game, zones: &[TableZone], decks: &[String]) -> String {
    let manifest = &game.manifest.manifest;
    let (name, id) = (&manifest.name, &manifest.id);
    let main = &zones[0].name;
    let mut out = format!(
        "# {name} for LackeyCCG\n\nMade by `carta export lackey`.\n\n\
         ## Install\n\n\
         1. Copy the folder `{id}/` into LackeyCCG's `plugins/` folder (beside \
         `LackeyCCG` itself), so that `plugins/{id}/plugininfo.txt` exists.\n\
         2. Start LackeyCCG and pick the plugin `{id}` (the *Plugin* menu, or the \
         plugin list when it starts).\n\n\
         ## Play\n\n\
         1. Open the *Deck Editor* tab and load one of the decks of \
         `plugins/{id}/decks/`.\n\
         2. Load the deck into the game from the deck editor: each zone's cards go \
         to the zone of the same name ({zones}), shuffled (every deck zone shuffles \
         as it loads).\n\
         3. To shuffle again, right-click the *{main}* zone → *Shuffle*; *Draw* \
         takes its top card into your hand.\n\n\
         ## Files\n\n\
         | file | what it is |\n|---|---|\n\
         | `{id}/plugininfo.txt` | the zones and actions |\n\
         | `{id}/sets/carddata.txt` | the cards, tab-separated, a header row and a card a line |\n\
         | `{id}/sets/setimages/{id}/` | each card's face |\n\
         | `{id}/cardback.png` | the back most cards have |\n",
        zones = TableZone::list(zones),
    );
    for d in decks {
        let _ = writeln!(out, "| `{id}/decks/{d}` | a deck |");
    }
    out.push_str(
        "\nLackeyCCG does not check a deck against the game's rules (`carta deck check` \
         does). Exporting again replaces the plugin; delete the old folder first.\n",
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_field_never_ends_its_column_or_its_row() {
        assert_eq!(field(" a\tb\r\nc\n"), "a b  c");
        assert_eq!(field("\"<&>'"), "\"<&>'");
        assert_eq!(label("Zona <b>\n1"), "Zona ‹b› 1");
    }
}
