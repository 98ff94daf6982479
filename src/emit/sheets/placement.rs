//! Where a card's text, marked elements and pictures landed, as a browser
//! laid them out, for a print shop's preflight: the page's fit script
//! measures them when the page's body is marked `data-carta-preflight`
//! (`default/fit.js`) and posts them beside its overflows ([`parse`]).

use serde::{Deserialize, Serialize};

/// The most placements one page's report is read for.
const MAX_REPORTED: usize = 500;
/// The most characters of a text kept from a report.
const MAX_TEXT: usize = 600;

/// What a [`Placement`] measured.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Placed {
    /// The card's text that reaches furthest past its safe area.
    Text,
    /// An element the template marks `data-carta-safe`, past the safe area.
    Marked,
    /// A picture (`img`), its pixels and the size it is drawn at.
    Art,
}

/// One measurement of one side of one card.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
pub struct Placement {
    /// The card's id (`data-card`).
    pub card: String,
    /// `face` or `back`.
    pub side: String,
    /// What was measured.
    pub what: Placed,
    /// How far past the safe area it reaches, in mm (text, marked).
    #[serde(default)]
    pub past: f64,
    /// The text (text), the element's tag and classes (marked), the
    /// picture's address (art).
    #[serde(default)]
    pub text: String,
    /// The picture's pixel size (art).
    #[serde(default)]
    pub pixels: Option<(u32, u32)>,
    /// The size the picture is drawn at, in mm (art).
    #[serde(default)]
    pub size: Option<(f64, f64)>,
}

#[derive(Deserialize)]
struct Posted {
    #[serde(default)]
    placements: Vec<Placement>,
}

/// The placements of a page's report (`{"placements": […], …}`), bounded:
/// at most 500, texts cut to 600 characters, figures finite and not
/// negative. Empty when the report holds none or is not a report.
pub fn parse(body: &[u8]) -> Vec<Placement> {
    let Ok(posted) = serde_json::from_slice::<Posted>(body) else {
        return Vec::new();
    };
    let mut out = posted.placements;
    out.truncate(MAX_REPORTED);
    let sane = |v: f64| if v.is_finite() { v.max(0.0) } else { 0.0 };
    for p in &mut out {
        p.card = p.card.chars().take(MAX_TEXT).collect();
        p.text = p.text.chars().take(MAX_TEXT).collect();
        p.past = sane(p.past);
        p.size = p.size.map(|(w, h)| (sane(w), sane(h)));
        if p.side != "back" {
            "face".clone_into(&mut p.side);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_report_s_placements_are_read_bounded() {
        let body = br#"{"overflows":[],"placements":[
            {"card":"a","side":"face","what":"text","past":4.2,"text":"Golpe"},
            {"card":"a","side":"sideways","what":"art","text":"art/a.png","pixels":[180,250],"size":[63.5,-3.0]}]}"#;
        let got = parse(body);
        assert_eq!(got.len(), 2);
        assert_eq!(got[0].what, Placed::Text);
        assert!((got[0].past - 4.2).abs() < 1e-9);
        assert_eq!(got[1].side, "face", "an unknown side is the face");
        assert_eq!(got[1].pixels, Some((180, 250)));
        assert_eq!(got[1].size, Some((63.5, 0.0)));
        assert!(parse(br#"{"overflows":[]}"#).is_empty());
        assert!(parse(b"not json").is_empty());
    }
}
