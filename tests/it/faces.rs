//! Every card of every shipped game, printed in headless Chromium, reads as
//! a player reads it and fits its card: no raw enum value or card id where
//! the label or the card's name belongs, nothing outside the card's safe
//! area, no block that clips its text, no text shrunk below 1.2 mm.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use serde_json::Value;

use crate::browser::probe_dom;
use crate::harness::{Workspace, repo};

const GAMES: [&str; 5] = ["intrepidos", "kingdoms", "zodiacos", "exodo", "covil"];

/// Smallest text size a player can still read on a card, in mm (≈ 3.4 pt).
const MIN_FONT_MM: f64 = 1.2;

const PROBE: &str = r"<script>
window.addEventListener('load', function () {
  var mm = 25.4 / 96, out = [];
  function desc(e) { return e.tagName.toLowerCase() + (e.className && e.className.baseVal === undefined ? '.' + String(e.className).trim().split(/\s+/).join('.') : ''); }
  document.querySelectorAll('.carta-card').forEach(function (c) {
    var r = c.getBoundingClientRect(), st = getComputedStyle(c);
    var pad = parseFloat(st.paddingLeft);
    var box = { left: r.left + pad - 1, top: r.top + pad - 1, right: r.right - pad + 1, bottom: r.bottom - pad + 1 };
    var bad = [], font = 1e9;
    if (c.scrollHeight > c.clientHeight + 1 || c.scrollWidth > c.clientWidth + 1) bad.push('the card overflows');
    c.querySelectorAll('*').forEach(function (e) {
      var q = e.getBoundingClientRect();
      if (q.width === 0 && q.height === 0) return;
      var s = getComputedStyle(e), text = false;
      for (var n = e.firstChild; n; n = n.nextSibling) if (n.nodeType === 3 && n.textContent.trim()) text = true;
      // Frames and backgrounds may reach into the bleed; text stays in the safe area.
      var limit = text ? box : { left: r.left - 1, top: r.top - 1, right: r.right + 1, bottom: r.bottom + 1 };
      var out = Math.max(limit.left - q.left, limit.top - q.top, q.right - limit.right, q.bottom - limit.bottom);
      if (out > 0) bad.push(desc(e) + (text ? ' (text) leaves the safe area by ' : ' leaves the card by ') + (out * mm).toFixed(2) + ' mm');
      if ((s.overflowX !== 'visible' || s.overflowY !== 'visible') && (e.scrollHeight > e.clientHeight + 1 || e.scrollWidth > e.clientWidth + 1))
        bad.push(desc(e) + ' clips its content');
      if (text) font = Math.min(font, parseFloat(s.fontSize) * mm);
    });
    out.push({ id: c.dataset.card, side: c.closest('.carta-sheet').dataset.side, text: c.innerText, bad: bad, font: font });
  });
  var pre = document.createElement('pre');
  pre.id = 'carta-probe';
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
});
</script>";

/// Every printed card box of a page: id, side, text, problems, smallest font.
fn probe(html: &Path) -> Vec<Value> {
    probe_dom(html, PROBE, "carta-probe")
}

/// Every value a schema of `game` labels differently from how it is
/// written, and every label.
fn labels(game: &str) -> (BTreeSet<String>, Vec<String>) {
    fn walk(v: &Value, raw: &mut BTreeSet<String>, labels: &mut Vec<String>) {
        match v {
            Value::Object(m) => {
                if let Some(Value::Object(map)) = m.get("x-carta-labels") {
                    for (k, l) in map {
                        if l.as_str() != Some(k) {
                            raw.insert(k.clone());
                        }
                        labels.push(l.as_str().unwrap().to_owned());
                    }
                }
                m.values().for_each(|v| walk(v, raw, labels));
            }
            Value::Array(items) => items.iter().for_each(|v| walk(v, raw, labels)),
            _ => {}
        }
    }
    let (mut raw, mut labels) = (BTreeSet::new(), Vec::new());
    for entry in std::fs::read_dir(repo().join("schemas").join(game)).unwrap() {
        let text = std::fs::read_to_string(entry.unwrap().path()).unwrap();
        walk(&serde_json::from_str(&text).unwrap(), &mut raw, &mut labels);
    }
    (raw, labels)
}

/// The cards of a shipped game as authored: id → table.
pub(crate) fn cards(game: &str) -> BTreeMap<String, toml::Table> {
    fn files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() && p.file_name().unwrap() != "decks" {
                files(&p, out);
            } else if p.extension().is_some_and(|x| x == "toml")
                && p.file_name().unwrap() != "game.toml"
            {
                out.push(p);
            }
        }
    }
    let mut paths = Vec::new();
    files(&repo().join("cards").join(game), &mut paths);
    let mut out = BTreeMap::new();
    for p in paths {
        let t: toml::Table = std::fs::read_to_string(&p).unwrap().parse().unwrap();
        for c in t
            .get("card")
            .and_then(|c| c.as_array())
            .into_iter()
            .flatten()
        {
            let c = c.as_table().unwrap().clone();
            out.insert(c["id"].as_str().unwrap().to_owned(), c);
        }
    }
    out
}

fn strings(v: &toml::Value, out: &mut Vec<String>) {
    match v {
        toml::Value::String(s) => out.push(s.clone()),
        toml::Value::Array(a) => a.iter().for_each(|v| strings(v, out)),
        toml::Value::Table(t) => t.values().for_each(|v| strings(v, out)),
        _ => {}
    }
}

/// The words of a text: runs of letters, digits, `-` and `_`.
fn words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !(c.is_alphanumeric() || c == '-' || c == '_'))
        .filter(|w| !w.is_empty())
}

#[test]
fn every_shipped_card_shows_labels_and_names_and_fits() {
    let ws = Workspace::shipped(&[]);
    ws.run(["build"]).succeeds();
    let mut problems = Vec::new();
    for game in GAMES {
        let cards = cards(game);
        // Raw words a player must not read: labelled values and card ids
        // (those that differ from their names).
        let (mut raw, labels) = labels(game);
        raw.extend(
            cards
                .iter()
                .filter(|(id, c)| c["name"].as_str() != Some(id))
                .map(|(id, _)| id.clone()),
        );
        let boxes = probe(&ws.path().join(format!("build/{game}/sheets/index.html")));
        assert!(
            boxes.len() >= cards.len() * 2,
            "{game}: every card has a face and a back"
        );
        for b in &boxes {
            let id = b["id"].as_str().unwrap();
            let side = b["side"].as_str().unwrap();
            for p in b["bad"].as_array().unwrap() {
                problems.push(format!("{game} {side} of `{id}`: {}", p.as_str().unwrap()));
            }
            let font = b["font"].as_f64().unwrap();
            if font < MIN_FONT_MM {
                problems.push(format!(
                    "{game} {side} of `{id}`: text shrunk to {font:.2} mm"
                ));
            }
            if side != "faces" {
                continue;
            }
            // A word the card's own text uses (not as a value), or a word
            // of a label ("Trocar recurso"), may print.
            let mut own = labels.clone();
            for (k, v) in &cards[id] {
                if !["id", "kind"].contains(&k.as_str()) {
                    strings(v, &mut own);
                }
            }
            let text_words: BTreeSet<&str> = own
                .iter()
                .filter(|s| !raw.contains(*s))
                .flat_map(|s| words(s))
                .collect();
            for w in words(b["text"].as_str().unwrap()) {
                if raw.contains(w) && !text_words.contains(w) {
                    problems.push(format!("{game} face of `{id}` prints the raw value `{w}`"));
                }
            }
        }
    }
    assert!(
        problems.is_empty(),
        "{} problems:\n{}",
        problems.len(),
        problems.join("\n")
    );
}
