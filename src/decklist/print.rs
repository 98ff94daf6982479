//! The printable tournament decklist: one page per deck (A4 or Letter,
//! whichever the printer has: the page fits both), with the event's blanks
//! for the player to fill, each zone's cards by name with their kind and
//! copies, the zone's and the deck's totals, the verdict of `carta deck
//! check` and the deck's code for the judges to re-check it.

use handlebars::html_escape as esc;

use crate::deckcode::CodeDeck;
use crate::game::Game;

/// One deck to print.
#[derive(Debug, Clone)]
pub struct Printed<'d> {
    /// The deck.
    pub deck: &'d CodeDeck,
    /// Who plays it, when known.
    pub player: Option<&'d str>,
    /// Whether `carta deck check` finds it legal (`None`: it could not be
    /// judged).
    pub legal: Option<bool>,
    /// Its deck code, when it has one.
    pub code: Option<&'d str>,
}

/// The print style: the page's margins fit A4 (210 × 297 mm) and Letter
/// (216 × 279 mm) alike; each deck starts a page.
const STYLE: &str = r"
@page { margin: 12mm; }
* { box-sizing: border-box; }
body { font: 10pt/1.3 system-ui, sans-serif; margin: 0; color: #000; }
.sheet { width: 186mm; min-height: 250mm; margin: 0 auto 12mm; padding: 0; break-after: page; }
.sheet:last-child { break-after: auto; }
h1 { font-size: 15pt; margin: 0 0 2mm; }
.event { display: grid; grid-template-columns: 1fr 1fr; gap: 2mm 6mm; margin-bottom: 4mm; }
.event div { border-bottom: 1px solid #000; padding-top: 3mm; }
.event b { font-weight: 600; margin-right: 2mm; }
.zones { columns: 2; column-gap: 8mm; }
.zone { break-inside: avoid-column; margin-bottom: 4mm; }
h2 { font-size: 11pt; margin: 0 0 1mm; display: flex; justify-content: space-between; border-bottom: 2px solid #000; }
table { width: 100%; border-collapse: collapse; }
td { padding: 0.4mm 1mm; border-bottom: 1px solid #bbb; vertical-align: top; }
td.n { width: 9mm; text-align: right; font-weight: 600; }
td.kind { color: #444; font-size: 8.5pt; text-align: right; white-space: nowrap; }
.foot { margin-top: 4mm; display: flex; justify-content: space-between; gap: 6mm; font-size: 9pt; }
.code { font: 8pt/1.2 ui-monospace, monospace; word-break: break-all; max-width: 120mm; }
.judge { border: 1px solid #000; padding: 2mm; min-width: 50mm; }
@media screen { body { background: #ddd; padding: 8mm 0; } .sheet { background: #fff; padding: 12mm; width: 210mm; box-shadow: 0 1px 4px #0004; } }
";

/// The decklists of `decks`, one page each, as one HTML document.
pub fn html(game: &Game, decks: &[Printed<'_>]) -> String {
    let title = match decks {
        [one] => format!("{} — decklist", one.deck.name),
        _ => format!(
            "{} — {} decklists",
            game.manifest.manifest.name,
            decks.len()
        ),
    };
    let mut out = format!(
        "<!doctype html>\n<html lang=\"{}\">\n<head>\n<meta charset=\"utf-8\">\n<title>{}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n",
        esc(&game.manifest.manifest.language),
        esc(&title)
    );
    for d in decks {
        sheet(game, d, &mut out);
    }
    out.push_str("</body>\n</html>\n");
    out
}

fn sheet(game: &Game, d: &Printed<'_>, out: &mut String) {
    let m = &game.manifest.manifest;
    let format = d
        .deck
        .format
        .as_ref()
        .map(|f| m.formats.get(f).map_or(f.as_str(), |x| x.name.as_str()));
    out.push_str("<section class=\"sheet\">\n");
    out.push_str(&format!("<h1>{}</h1>\n", esc(&d.deck.name)));
    out.push_str("<div class=\"event\">");
    let blanks = [
        ("Player", d.player.unwrap_or("")),
        ("Event", ""),
        ("Game", m.name.as_str()),
        ("Format", format.unwrap_or("")),
        ("Date", ""),
        ("Table / seat", ""),
    ];
    for (label, value) in blanks {
        out.push_str(&format!("<div><b>{label}</b>{}</div>", esc(value)));
    }
    out.push_str("</div>\n<div class=\"zones\">\n");
    let mut total = 0_u64;
    for (zone, lines) in &d.deck.zones {
        total += zone_table(game, zone, lines, out);
    }
    out.push_str("</div>\n<div class=\"foot\"><div>");
    out.push_str(&format!("<b>{total} cards</b>"));
    let verdict = match d.legal {
        Some(true) => "legal",
        Some(false) => "illegal",
        None => "not judged",
    };
    out.push_str(&format!(" · <code>carta deck check</code>: {verdict}"));
    if let Some(code) = d.code {
        out.push_str(&format!("<div class=\"code\">{}</div>", esc(code)));
    }
    out.push_str("</div><div class=\"judge\">Judge: ________________<br>Checked: ☐</div></div>\n</section>\n");
}

/// One zone's table; its number of cards.
fn zone_table(game: &Game, zone: &str, lines: &[(String, u32)], out: &mut String) -> u64 {
    let m = &game.manifest.manifest;
    let n: u64 = lines.iter().map(|(_, n)| u64::from(*n)).sum();
    let name = m.zones.get(zone).map_or(zone, |z| z.name.as_str());
    out.push_str(&format!(
        "<div class=\"zone\"><h2><span>{}</span><span>{n}</span></h2><table>\n",
        esc(name)
    ));
    for (id, count) in lines {
        let card = game.pool.get(id);
        let name = card.map_or(id.as_str(), |c| c.name.as_str());
        let kind = card
            .and_then(|c| m.kinds.get(&c.kind))
            .map_or("", |k| k.name.as_str());
        out.push_str(&format!(
            "<tr><td class=\"n\">{count}</td><td>{}</td><td class=\"kind\">{}</td></tr>\n",
            esc(name),
            esc(kind)
        ));
    }
    out.push_str("</table></div>\n");
    n
}
