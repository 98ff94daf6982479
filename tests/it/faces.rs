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

/// Smallest cap height of a label (a stat's, a reference's, the type line), in mm.
const MIN_LABEL_CAP_MM: f64 = 1.6;

/// Measures what makes a face look finished: the blank band under its last
/// text, the cap height of its labels, its art boxes, numbers without a
/// label, and how much of the card a back covers.
const LOOK: &str = r"<script>
window.addEventListener('load', function () {
  var LABELS = '__LABELS__';
  var mm = 25.4 / 96, out = [], ctx = document.createElement('canvas').getContext('2d');
  function cap(e) {
    var s = getComputedStyle(e);
    ctx.font = s.fontStyle + ' ' + s.fontWeight + ' ' + s.fontSize + ' ' + s.fontFamily;
    return ctx.measureText('H').actualBoundingBoxAscent * mm;
  }
  document.querySelectorAll('.carta-card').forEach(function (c) {
    var r = c.getBoundingClientRect(), pad = parseFloat(getComputedStyle(c).paddingLeft);
    var o = { id: c.dataset.card, side: c.closest('.carta-sheet').dataset.side, height: (r.height - 2 * pad) * mm,
      band: 0, labels: [], art: [], unlabelled: [], values: [], cover: 0 };
    var last = r.top + pad;
    var walker = document.createTreeWalker(c, NodeFilter.SHOW_TEXT);
    for (var n = walker.nextNode(); n; n = walker.nextNode()) {
      var t = n.textContent.trim();
      if (!t) continue;
      var range = document.createRange(); range.selectNodeContents(n);
      var q = range.getBoundingClientRect();
      if (q.height > 0) last = Math.max(last, q.bottom);
      t.split(' · ').forEach(function (v) { o.values.push(v.trim()); });
      // a number alone in its element must have words beside it in its parent
      if (/^[0-9]+$/.test(t)) {
        var p = n.parentElement.parentElement;
        if (!/[A-Za-zÀ-ÿ]/.test(p.textContent)) o.unlabelled.push(t);
      }
    }
    o.band = (r.bottom - pad - last) * mm;
    c.querySelectorAll(LABELS).forEach(function (e) {
      o.labels.push({ text: e.textContent.trim(), cap: cap(e) });
    });
    c.querySelectorAll('img.carta-art').forEach(function (i) {
      var q = i.getBoundingClientRect(), p = i.parentElement, b = p.getBoundingClientRect();
      var full = i.closest('.carta-full-bleed') !== null;
      // the box inside its border, or the whole card (bleed included)
      var ps = getComputedStyle(p), bw = function (side) { return parseFloat(ps['border' + side + 'Width']); };
      var inner = { left: b.left + bw('Left'), top: b.top + bw('Top'), right: b.right - bw('Right'), bottom: b.bottom - bw('Bottom') };
      var want = full ? r : inner;
      o.art.push({ loaded: i.complete && i.naturalWidth > 0, fit: getComputedStyle(i).objectFit, full: full,
        gap: Math.max(Math.abs(q.left - want.left), Math.abs(q.top - want.top), Math.abs(q.right - want.right), Math.abs(q.bottom - want.bottom)) * mm });
    });
    if (c.firstElementChild) {
      var f = c.firstElementChild.getBoundingClientRect();
      o.cover = (Math.min(f.right, r.right) - Math.max(f.left, r.left)) * (Math.min(f.bottom, r.bottom) - Math.max(f.top, r.top)) / (r.width * r.height);
    }
    out.push(o);
  });
  var pre = document.createElement('pre');
  pre.id = 'carta-look';
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
});
</script>";

/// The labels of the default face and of the starter game's templates.
const FACE_LABELS: &str =
    ".carta-stat span, .carta-ref .carta-label, .carta-type, .stat span, .signature .label, .type";

/// Every card box of the sheets at `html` as [`LOOK`] measures it, with
/// the elements `labels` selects as labels.
fn measure_look(html: &Path, labels: &str) -> Vec<Value> {
    probe_dom(html, &LOOK.replace("__LABELS__", labels), "carta-look")
}

/// The labels in `boxes` whose cap height is under the minimum.
fn small_labels(game: &str, boxes: &[Value]) -> Vec<String> {
    let mut problems = Vec::new();
    for b in boxes {
        for l in b["labels"].as_array().unwrap() {
            let cap = l["cap"].as_f64().unwrap();
            if cap < MIN_LABEL_CAP_MM {
                problems.push(format!(
                    "{game} {} of `{}`: label {} has a cap height of {cap:.2} mm",
                    b["side"], b["id"], l["text"]
                ));
            }
        }
    }
    problems
}

/// The problems [`LOOK`] finds on the sheets at `html`; `raw` are values a
/// player must never read (enum values as written).
fn look(html: &Path, raw: &[&str], arts: usize) -> Vec<String> {
    let boxes = measure_look(html, FACE_LABELS);
    let mut problems = small_labels("", &boxes);
    let mut art = 0;
    for b in &boxes {
        let (id, side) = (b["id"].as_str().unwrap(), b["side"].as_str().unwrap());
        let at = format!("{side} of `{id}`");
        if side == "backs" {
            let cover = b["cover"].as_f64().unwrap();
            if cover < 0.999 {
                problems.push(format!("{at} covers {:.1} % of the card", cover * 100.0));
            }
            continue;
        }
        let (band, height) = (b["band"].as_f64().unwrap(), b["height"].as_f64().unwrap());
        if band > 0.15 * height {
            problems.push(format!("{at}: {band:.1} mm blank under its last text"));
        }
        for a in b["art"].as_array().unwrap() {
            art += 1;
            let gap = a["gap"].as_f64().unwrap();
            if a["loaded"] != true || a["fit"] != "cover" || gap > 0.1 {
                problems.push(format!("{at}: art does not fill its box: {a}"));
            }
        }
        for n in b["unlabelled"].as_array().unwrap() {
            problems.push(format!("{at}: the number {n} has no label"));
        }
        for v in b["values"].as_array().unwrap() {
            if raw.contains(&v.as_str().unwrap()) {
                problems.push(format!("{at} prints the raw value {v}"));
            }
        }
    }
    if art != arts {
        problems.push(format!("{art} pictures printed, {arts} expected"));
    }
    problems
}

const ELEMENTS: [&str; 4] = ["fire", "water", "earth", "air"];

/// The starter game in `ws`, made by `carta init`, built.
fn starter(ws: &Workspace) {
    ws.run(["init", "--game", "duel"]).succeeds();
    ws.run(["build"]).succeeds();
}

#[test]
fn the_starter_game_prints_as_a_card_game_with_art() {
    let ws = Workspace::empty();
    starter(&ws);
    let html = ws.path().join("build/duel/sheets/index.html");
    let problems = look(&html, &ELEMENTS, 7);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(
        page.contains("<div class=\"back\">"),
        "the starter's own back"
    );
    if std::env::var_os("CARTA_BLESS").is_some() {
        crate::browser::screenshot_html(&html, 2, "starter-after");
    }
}

#[test]
fn a_game_without_templates_prints_finished_default_faces() {
    let ws = Workspace::empty();
    ws.run(["init", "--game", "duel"]).succeeds();
    for t in ["hero.hbs", "spell.hbs", "back.hbs", "_art.hbs", "style.css"] {
        std::fs::remove_file(ws.path().join("templates/duel").join(t)).unwrap();
    }
    // One card without art: the light placeholder, not a hole.
    let spells = ws.read("cards/duel/spells.toml");
    ws.write(
        "cards/duel/spells.toml",
        spells.replacen("art = \"art/spell.svg\"\n", "", 1),
    );
    ws.run(["build"]).succeeds();
    let html = ws.path().join("build/duel/sheets/index.html");
    let problems = look(&html, &ELEMENTS, 6);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    let page = std::fs::read_to_string(&html).unwrap();
    assert_eq!(page.matches("<div class=\"carta-placeholder\">").count(), 1);
    assert!(page.contains("<span class=\"carta-label\">Signature hero</span> Ember"));
    if std::env::var_os("CARTA_BLESS").is_some() {
        crate::browser::screenshot_html(&html, 2, "default-face-after");
    }
    // Heroes' art across the whole card, bleed included.
    let game = ws.read("cards/duel/game.toml");
    ws.write(
        "cards/duel/game.toml",
        game.replace(
            "[kinds.spell]",
            "[kinds.hero.print]\nart = \"full-bleed\"\n\n[kinds.spell]",
        ),
    );
    ws.run(["build"]).succeeds();
    let problems = look(&html, &ELEMENTS, 6);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert_eq!(
        std::fs::read_to_string(&html)
            .unwrap()
            .matches("carta-default-face carta-full-bleed")
            .count(),
        2,
        "two heroes"
    );
}

#[test]
fn shipped_stat_labels_are_readable() {
    let ws = Workspace::shipped(&["kingdoms", "intrepidos", "covil", "exodo"]);
    ws.run(["build"]).succeeds();
    let mut problems = Vec::new();
    for (game, labels) in [
        ("kingdoms", ".attrs .k"),
        ("intrepidos", ".stat > .k, .big .attr"),
        ("covil", ".k"),
        ("exodo", ".k"),
    ] {
        let html = ws.path().join(format!("build/{game}/sheets/index.html"));
        let boxes = measure_look(&html, labels);
        assert!(
            boxes
                .iter()
                .any(|b| !b["labels"].as_array().unwrap().is_empty()),
            "{game}"
        );
        problems.extend(small_labels(game, &boxes));
        // Covil's type line names a dark master's kind once.
        if game == "covil" {
            let page = std::fs::read_to_string(&html).unwrap();
            assert!(!page.contains("Mestre das Trevas · Mestre das Trevas"));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
