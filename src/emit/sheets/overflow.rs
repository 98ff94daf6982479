//! Text that does not fit its box, as a browser measured it, turned into
//! `sheets::overflow` warnings at the card's field; and text that fits
//! only once shrunk below the game's readable size, `sheets::small-text`.
//!
//! The page's fit script (`default/fit.js`) measures, when carta asks,
//! every card box some text still runs past once the text is shrunk, or
//! else whose text it shrank below the readable size, and posts what it
//! found ([`parse`]). Templates name no fields in their
//! HTML, so the field is found by its text ([`diagnose`]): the card's
//! string (as authored or as printed: an enum's label, a referenced
//! card's name) whose words the text that did not fit covers best (at
//! least half of them), else the one the whole box's text covers best,
//! else the card itself. So it works for any template, the author adding
//! nothing.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use super::display::display_fields;
use super::spans;
use crate::diag::{Diagnostic, SourceMap};
use crate::game::Game;
use crate::load::Jail;
use crate::validate::{RawCard, each_string};

/// The diagnostic code of text that does not fit its box.
pub const CODE: &str = "sheets::overflow";
/// The diagnostic code of text shrunk below the readable size to fit.
pub const SMALL: &str = "sheets::small-text";

/// The most boxes one page's report is read for.
const MAX_REPORTED: usize = 500;
/// The most characters of a text kept from a report.
const MAX_TEXT: usize = 600;
/// The most characters of a box's description kept.
const MAX_BOX: usize = 60;
/// The fewest characters of words a field must share with the text that
/// did not fit to be named as that text.
const MIN_SHARED: usize = 3;

/// One card box whose text runs past it, as the page measured it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Deserialize, Serialize)]
pub struct Overflow {
    /// The card's id (`data-card`).
    pub card: String,
    /// `face` or `back`.
    pub side: String,
    /// The box: its tag and first classes (`div.rules`).
    #[serde(rename = "box")]
    pub container: String,
    /// How far the text runs past the bottom of the box's content, in CSS px.
    pub down: u32,
    /// How far it runs past its right side, in CSS px.
    pub across: u32,
    /// How many lines run past the bottom.
    pub lines: u32,
    /// The text of the lines that run past.
    pub hidden: String,
    /// The box's whole text.
    pub text: String,
    /// For a box whose text fits only shrunk below the readable size: the
    /// smallest size it was shrunk to, in tenths of a point (`hidden` is
    /// then the box's longest block of text).
    #[serde(default)]
    pub shrunk_to: Option<u32>,
}

#[derive(Deserialize)]
struct Posted {
    overflows: Vec<Overflow>,
}

/// A page's report (`{"overflows": […]}`), bounded: at most 500 boxes,
/// texts cut to 600 characters, box descriptions to tag and class
/// characters. `None` when it is not such a report.
pub fn parse(body: &[u8]) -> Option<Vec<Overflow>> {
    let posted: Posted = serde_json::from_slice(body).ok()?;
    let mut out = posted.overflows;
    out.truncate(MAX_REPORTED);
    for o in &mut out {
        o.card = o.card.chars().take(MAX_TEXT).collect();
        o.hidden = o.hidden.chars().take(MAX_TEXT).collect();
        o.text = o.text.chars().take(MAX_TEXT).collect();
        o.container = o
            .container
            .chars()
            .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_'))
            .take(MAX_BOX)
            .collect();
        if o.side != "back" {
            "face".clone_into(&mut o.side);
        }
    }
    Some(out)
}

/// The warnings for `found` (the reports of pages of `game`'s cards, in
/// any order, repeats included): one per card side, box and field, at the
/// field's value in the card's file. `lang` is the pages' language when
/// it is not the game's own (`game` is then the game in that language,
/// whose texts the field is found by). Boxes of cards `game` does not
/// have, and text shrunk to a size the game still reads, are left out.
pub fn diagnose(
    game: &Game,
    (sources, jail): (&SourceMap, &Jail),
    lang: Option<&str>,
    found: &[Overflow],
) -> Vec<Diagnostic> {
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    let mut fields: BTreeMap<&str, Vec<(String, String)>> = BTreeMap::new();
    let readable = super::min_text_size(game);
    let mut sorted: Vec<&Overflow> = found
        .iter()
        .filter(|o| o.shrunk_to.is_none_or(|t| f64::from(t) < readable * 10.0))
        .collect();
    sorted.sort();
    for o in sorted {
        let Some(card) = game.pool.get(&o.card) else {
            continue;
        };
        let texts = fields
            .entry(card.id.as_str())
            .or_insert_with(|| texts(card, game));
        let pointer = culprit(texts, &o.hidden).or_else(|| culprit(texts, &o.text));
        if !seen.insert((&o.card, &o.side, &o.container, pointer.clone())) {
            continue;
        }
        out.push(match o.shrunk_to {
            Some(tenths) => too_small(
                (sources, jail),
                card,
                (o, tenths, readable),
                pointer.as_deref(),
            ),
            None => warning((sources, jail), card, o, pointer.as_deref(), lang),
        });
    }
    out
}

/// The warning for `o` on `card`, at the field `pointer` (else the card),
/// naming the language `lang` of translated sheets.
fn warning(
    (sources, jail): (&SourceMap, &Jail),
    card: &RawCard,
    o: &Overflow,
    pointer: Option<&str>,
    lang: Option<&str>,
) -> Diagnostic {
    let how = match lang {
        Some(lang) => format!("{} in `{lang}`", amount(o)),
        None => amount(o),
    };
    let place = if o.side == "back" {
        format!("its box `{}` on the card's back", o.container)
    } else {
        format!("its box `{}`", o.container)
    };
    let shrunk = o.container.contains("carta-fit") || o.container.contains("carta-card");
    let help = if shrunk {
        "it does not fit even at 40 % of its font size: shorten it, or give its box more room"
    } else {
        "shorten it, or give its box more room in the template (a box of class `carta-fit` shrinks its text until it fits)"
    };
    let alone = format!("text of card `{}` is {how} than {place}", card.id);
    let named = |field: &str| {
        format!(
            "the text of `{field}` of card `{}` is {how} than {place}",
            card.id
        )
    };
    placed(
        CODE,
        (sources, jail),
        (card, pointer),
        (alone, &named, "does not fit"),
    )
    .with_help(help)
}

/// The warning for box `o` of `card`, whose text was shrunk to `tenths`
/// of a point, below the `readable` size, to fit: at the field `pointer`
/// that took the room (else the card).
fn too_small(
    (sources, jail): (&SourceMap, &Jail),
    card: &RawCard,
    (o, tenths, readable): (&Overflow, u32, f64),
    pointer: Option<&str>,
) -> Diagnostic {
    let size = format!("{}.{} pt", tenths / 10, tenths % 10);
    let readable = super::geometry::mm(readable);
    let side = if o.side == "back" {
        " on the card's back"
    } else {
        ""
    };
    let help = format!(
        "shorten it, or give its box more room; the game's smallest readable size is `min-text-size = {readable}` in `[print]`"
    );
    let fits = format!(
        "fits its box `{}`{side} only at {size}, below the readable {readable} pt",
        o.container
    );
    let alone = format!("text of card `{}` {fits}", card.id);
    let named = |field: &str| {
        format!(
            "the text of `{field}` of card `{}` is too long: it {fits}",
            card.id
        )
    };
    let label = "too long to read once shrunk";
    placed(
        SMALL,
        (sources, jail),
        (card, pointer),
        (alone, &named, label),
    )
    .with_help(help)
}

/// What a warning says: on its own (at the card), of a field by its
/// name, and under the field's value.
type Words<'a> = (String, &'a dyn Fn(&str) -> String, &'a str);

/// A warning `code` at the value of `card`'s field `pointer`, saying
/// `named` of the field's name with `label` under it; without a field, at
/// the card, saying `alone`.
fn placed(
    code: &'static str,
    (sources, jail): (&SourceMap, &Jail),
    (card, pointer): (&RawCard, Option<&str>),
    (alone, named, label): Words<'_>,
) -> Diagnostic {
    let Some(pointer) = pointer else {
        return Diagnostic::warning(code, alone).at(card.file, card.header.clone(), "on this card");
    };
    let at = spans::field(sources, jail, card, pointer);
    Diagnostic::warning(code, named(&at.display)).at(card.file, at.value, label)
}

/// How much did not fit: `14 px (2 lines) taller`, `6 px wider`, or both.
fn amount(o: &Overflow) -> String {
    let mut parts = Vec::new();
    if o.down > 0 {
        let s = if o.lines == 1 { "" } else { "s" };
        parts.push(format!("{} px ({} line{s}) taller", o.down, o.lines));
    }
    if o.across > 0 || parts.is_empty() {
        parts.push(format!("{} px wider", o.across));
    }
    parts.join(" and ")
}

/// Every text of `card` a template may print, with its JSON pointer: its
/// name, then each string among its fields as authored (`raw`), then as a
/// player reads them (`fields`: enum labels, referenced cards' names).
fn texts(card: &RawCard, game: &Game) -> Vec<(String, String)> {
    let mut out = vec![("/name".to_owned(), card.name.clone())];
    let raw = card.all_fields();
    let shown = display_fields(card, &raw, game);
    for fields in [&*raw, &shown] {
        each_string(fields, &mut |pointer, s| {
            out.push((pointer.to_owned(), s.to_owned()));
        });
    }
    out
}

/// The distinct words of `text`, lower case.
fn words(text: &str) -> BTreeSet<String> {
    crate::suggest::words(text).into_iter().collect()
}

/// The pointer of the text of `texts` that `shown` covers best: the
/// share of its words (in characters of distinct words) that `shown` has
/// too, at least half and at least [`MIN_SHARED`] characters; of equals,
/// the one that shares more, then the first.
fn culprit(texts: &[(String, String)], shown: &str) -> Option<String> {
    let shown = words(shown);
    // (shared, total, pointer): the cover is shared / total.
    let mut best: Option<(usize, usize, &str)> = None;
    for (pointer, text) in texts {
        let own = words(text);
        let total: usize = own.iter().map(|w| w.chars().count()).sum();
        let shared: usize = own
            .iter()
            .filter(|w| shown.contains(*w))
            .map(|w| w.chars().count())
            .sum();
        if shared < MIN_SHARED || shared * 2 < total {
            continue;
        }
        let better = best.is_none_or(|(s, t, _)| (shared * t, shared) > (s * total, s));
        if better {
            best = Some((shared, total, pointer));
        }
    }
    best.map(|(.., p)| p.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts() -> Vec<(String, String)> {
        [
            ("/name", "Escudo de Brasa"),
            (
                "/effect",
                "**Ao entrar:** cause 1 de dano a cada inimigo adjacente.",
            ),
            ("/flavor", "O fogo lembra."),
            ("/levels/0/text", "Recarga 2"),
        ]
        .map(|(p, t)| (p.to_owned(), t.to_owned()))
        .to_vec()
    }

    #[test]
    fn the_field_is_the_one_whose_words_the_hidden_text_shares_most() {
        let t = texts();
        // Markup and case do not matter; a word of another field does not win.
        assert_eq!(
            culprit(&t, "AO ENTRAR: cause 1 de dano a cada inimigo").as_deref(),
            Some("/effect")
        );
        assert_eq!(culprit(&t, "o fogo lembra").as_deref(), Some("/flavor"));
        assert_eq!(culprit(&t, "recarga 2").as_deref(), Some("/levels/0/text"));
        // A caption of the template's own names no field, even when it
        // shares a word or two with one.
        assert_eq!(culprit(&t, "Habilidade"), None);
        assert_eq!(culprit(&t, "cause de dano, diz o fogo"), None);
        assert_eq!(culprit(&t, "de"), None, "too little shared to tell");
    }

    #[test]
    fn a_report_is_bounded_and_its_box_kept_to_tag_and_class_characters() {
        let long = "x".repeat(1000);
        let body = serde_json::json!({ "overflows": [{
            "card": "a", "side": "sideways", "box": "div.rules\u{1b}[31m<b>",
            "down": 14, "across": 0, "lines": 2, "hidden": long, "text": "t"
        }]});
        let got = parse(body.to_string().as_bytes()).unwrap();
        assert_eq!(got[0].container, "div.rules31mb");
        assert_eq!(got[0].side, "face");
        assert_eq!(got[0].hidden.chars().count(), MAX_TEXT);
        assert!(parse(b"{\"overflows\": 3}").is_none());
        assert!(parse(b"not json").is_none());
    }

    #[test]
    fn the_amount_names_pixels_and_lines_taller_and_wider() {
        let mut o = Overflow {
            card: "a".into(),
            side: "face".into(),
            container: "div".into(),
            down: 14,
            across: 0,
            lines: 2,
            hidden: String::new(),
            text: String::new(),
            shrunk_to: None,
        };
        assert_eq!(amount(&o), "14 px (2 lines) taller");
        o.across = 6;
        o.lines = 1;
        assert_eq!(amount(&o), "14 px (1 line) taller and 6 px wider");
        o.down = 0;
        assert_eq!(amount(&o), "6 px wider");
    }
}
