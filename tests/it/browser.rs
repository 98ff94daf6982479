//! The sheets of every shipped game, printed to PDF by a real headless
//! Chromium and measured: page count and size, each card box's position and
//! size within 0.2 mm, backs mirrored behind their faces, and the printed
//! text inside the boxes the DOM reports. A missing browser fails these
//! tests (`scripts/install-test-deps.sh` installs it); they never skip.
//!
//! With `CARTA_BLESS=1` each case also writes a PNG of its first faces page
//! to `docs/img/` (pdftoppm).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use serde_json::Value;

use crate::harness::{Workspace, repo};

/// Tolerance on every length, in mm.
const TOL: f64 = 0.2;
const PT: f64 = 25.4 / 72.0;

/// The browser: `$CARTA_CHROMIUM`, or `chromium` on the PATH.
pub(crate) fn chromium() -> PathBuf {
    if let Some(p) = std::env::var_os("CARTA_CHROMIUM") {
        return PathBuf::from(p);
    }
    for name in ["chromium", "chromium-browser"] {
        for dir in std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()) {
            let p = dir.join(name);
            if p.is_file() {
                return p;
            }
        }
    }
    panic!(
        "no chromium on the PATH: run scripts/install-test-deps.sh (the browser tests never skip)"
    );
}

/// Runs Chromium headless on `html` with a fresh profile and `extra` flags.
pub(crate) fn run_chromium(html: &Path, extra: &[String]) -> std::process::Output {
    let profile = tempfile::tempdir().unwrap();
    let out = Command::new(chromium())
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .args(extra)
        .arg(format!("file://{}", html.display()))
        .output()
        .expect("chromium runs");
    assert!(
        out.status.success(),
        "chromium failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

pub(crate) fn tool(name: &str, args: &[&str]) -> String {
    let out = Command::new(name)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("{name}: {e} (run scripts/install-test-deps.sh)"));
    assert!(
        out.status.success(),
        "{name} {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

const MEASURE: &str = r"<script>
(function () {
  var mm = 25.4 / 96, out = [];
  document.querySelectorAll('.carta-sheet').forEach(function (s) {
    var r = s.getBoundingClientRect();
    var bottom = 0;
    s.querySelectorAll('.row').forEach(function (row) { bottom = Math.max(bottom, row.getBoundingClientRect().bottom); });
    var p = { page: +s.dataset.page, side: s.dataset.side, w: r.width * mm, h: r.height * mm, cards: [],
      rows_bottom: (bottom - r.top) * mm };
    s.querySelectorAll('.carta-card').forEach(function (c) {
      var q = c.getBoundingClientRect();
      p.cards.push({ id: c.dataset.card, copy: +c.dataset.copy, slot: +c.dataset.slot,
        kind: c.className.match(/carta-kind-(\S+)/)[1],
        x: (q.left - r.left) * mm, y: (q.top - r.top) * mm, w: q.width * mm, h: q.height * mm });
    });
    out.push(p);
  });
  var pre = document.createElement('pre');
  pre.id = 'carta-measure';
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
})();
</script>";

/// The DOM's pages and card boxes, in mm relative to each page.
fn measure(html: &Path) -> Vec<Value> {
    probe_dom(html, MEASURE, "carta-measure")
}

/// Runs `script` in a copy of the page `html` and returns the JSON array it
/// leaves in the `<pre id="{id}">` it appends to the body.
pub(crate) fn probe_dom(html: &Path, script: &str, id: &str) -> Vec<Value> {
    let probe = html.with_file_name(format!("{id}.html"));
    let page = std::fs::read_to_string(html)
        .unwrap()
        .replace("</body>", &format!("{script}</body>"));
    std::fs::write(&probe, page).unwrap();
    let out = run_chromium(&probe, &["--dump-dom".into()]);
    let dom = String::from_utf8(out.stdout).unwrap();
    let open = format!("<pre id=\"{id}\">");
    let start = dom.find(&open).expect("the probe ran") + open.len();
    let end = start + dom[start..].find("</pre>").unwrap();
    let json = dom[start..end]
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&");
    serde_json::from_str::<Value>(&json)
        .unwrap()
        .as_array()
        .unwrap()
        .clone()
}

/// The geometry the manifest asks for, computed here independently.
struct Expect {
    page: (f64, f64),
    margin: f64,
    gutter: f64,
    /// Mirror columns (else rows) on backs pages; `None`: no backs.
    mirror_columns: Option<bool>,
    /// kind → trim width, height, bleed.
    kinds: std::collections::BTreeMap<String, (f64, f64, f64)>,
}

fn size_of(v: Option<&toml::Value>) -> Option<(f64, f64)> {
    let num = |v: &toml::Value| {
        v.as_float()
            .or_else(|| v.as_integer().map(|i| i as f64))
            .unwrap()
    };
    match v? {
        toml::Value::String(s) => Some(match s.as_str() {
            "poker" => (63.5, 88.9),
            "bridge" => (57.0, 89.0),
            "euro" => (59.0, 92.0),
            "mini" => (44.0, 63.0),
            "mini-us" => (41.0, 63.0),
            "tarot" => (70.0, 120.0),
            "square" => (70.0, 70.0),
            other => panic!("size {other}"),
        }),
        toml::Value::Table(t) => Some((num(&t["width"]), num(&t["height"]))),
        other => panic!("size {other}"),
    }
}

fn expect(game: &str, paper: Option<&str>, duplex: Option<&str>) -> Expect {
    let text = std::fs::read_to_string(repo().join(format!("cards/{game}/game.toml"))).unwrap();
    let m: toml::Table = toml::from_str(&text).unwrap();
    let empty = toml::Table::new();
    let print = m.get("print").and_then(|p| p.as_table()).unwrap_or(&empty);
    let num = |t: &toml::Table, k: &str| {
        t.get(k).map(|v| {
            v.as_float()
                .or_else(|| v.as_integer().map(|i| i as f64))
                .unwrap()
        })
    };
    let paper =
        paper.unwrap_or_else(|| print.get("paper").and_then(|v| v.as_str()).unwrap_or("a4"));
    let (w, h) = if paper == "a4" {
        (210.0, 297.0)
    } else {
        (215.9, 279.4)
    };
    let landscape = print.get("orientation").and_then(|v| v.as_str()) == Some("landscape");
    let duplex = duplex.unwrap_or_else(|| {
        print
            .get("duplex")
            .and_then(|v| v.as_str())
            .unwrap_or("long")
    });
    let mut kinds = std::collections::BTreeMap::new();
    for (k, kind) in m["kinds"].as_table().unwrap() {
        let kp = kind
            .get("print")
            .and_then(|p| p.as_table())
            .unwrap_or(&empty);
        let (cw, ch) = size_of(kp.get("size"))
            .or(size_of(print.get("size")))
            .unwrap_or((63.5, 88.9));
        // Home sheets print no bleed unless the manifest gives one.
        let bleed = num(kp, "bleed").or(num(print, "bleed")).unwrap_or(0.0);
        kinds.insert(k.clone(), (cw, ch, bleed));
    }
    Expect {
        page: if landscape { (h, w) } else { (w, h) },
        margin: num(print, "margin").unwrap_or(5.0),
        gutter: num(print, "gutter").unwrap_or(0.0),
        mirror_columns: match duplex {
            "none" => None,
            "long" => Some(!landscape),
            _ => Some(landscape),
        },
        kinds,
    }
}

impl Expect {
    /// Columns, rows and the box of `slot` for a card of `kind`.
    fn slot(&self, kind: &str, slot: usize) -> (usize, usize, [f64; 4]) {
        let (cw, ch, bleed) = self.kinds[kind];
        let (bw, bh) = (cw + 2.0 * bleed, ch + 2.0 * bleed);
        let fit = |avail: f64, cell: f64| {
            ((avail + self.gutter + 1e-6) / (cell + self.gutter)).floor() as usize
        };
        let cols = fit(self.page.0 - 2.0 * self.margin, bw);
        let rows = fit(self.page.1 - 2.0 * self.margin, bh);
        let x0 = (self.page.0 - (cols as f64 * bw + (cols - 1) as f64 * self.gutter)) / 2.0;
        let y0 = (self.page.1 - (rows as f64 * bh + (rows - 1) as f64 * self.gutter)) / 2.0;
        let (c, r) = (slot % cols, slot / cols);
        (
            cols,
            rows,
            [
                x0 + c as f64 * (bw + self.gutter),
                y0 + r as f64 * (bh + self.gutter),
                bw,
                bh,
            ],
        )
    }
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= TOL
}

fn rect(c: &Value) -> [f64; 4] {
    ["x", "y", "w", "h"].map(|k| c[k].as_f64().unwrap())
}

/// Builds `game` with `flags`, prints it, and checks everything. Returns
/// the PDF's text, for callers to check more.
fn print_and_measure(
    game: &str,
    flags: &[&str],
    paper: Option<&str>,
    duplex: Option<&str>,
    per_page: Option<(&str, usize)>,
) -> String {
    let ws = Workspace::shipped(&[game]);
    let mut args = vec!["build", game];
    args.extend(flags);
    ws.run(&args).succeeds();
    let html = ws.path().join(format!("build/{game}/sheets/index.html"));
    let ex = expect(game, paper, duplex);

    // The DOM: every box where the geometry says, backs behind faces.
    let pages = measure(&html);
    check_pages(game, &pages, ex.page);
    let mut boxes = 0;
    for (i, p) in pages.iter().enumerate() {
        assert!(
            close(p["w"].as_f64().unwrap(), ex.page.0)
                && close(p["h"].as_f64().unwrap(), ex.page.1),
            "page size {p}"
        );
        if p["side"] != "faces" {
            continue;
        }
        let cards = p["cards"].as_array().unwrap();
        for c in cards {
            let (cols, rows, want) = ex.slot(
                c["kind"].as_str().unwrap(),
                c["slot"].as_u64().unwrap() as usize,
            );
            if let Some((kind, n)) = per_page.filter(|(k, _)| c["kind"] == *k) {
                assert_eq!(cols * rows, n, "{game}: cards of kind {kind} per page");
            }
            let got = rect(c);
            assert!(
                got.iter().zip(want).all(|(g, w)| close(*g, w)),
                "{game} page {}: {c} is not at {want:?}",
                p["page"]
            );
            boxes += 1;
        }
        let Some(columns) = ex.mirror_columns else {
            assert!(
                pages.get(i + 1).is_none_or(|n| n["side"] != "backs"),
                "no backs without duplex"
            );
            continue;
        };
        let backs = &pages[i + 1];
        assert_eq!(
            backs["side"], "backs",
            "page {} is followed by its backs",
            p["page"]
        );
        let back_cards = backs["cards"].as_array().unwrap();
        assert_eq!(back_cards.len(), cards.len());
        for (f, b) in cards.iter().zip(back_cards) {
            assert_eq!(
                (&f["id"], &f["copy"], &f["slot"]),
                (&b["id"], &b["copy"], &b["slot"])
            );
            let [fx, fy, fw, fh] = rect(f);
            let want = if columns {
                [ex.page.0 - fx - fw, fy, fw, fh]
            } else {
                [fx, ex.page.1 - fy - fh, fw, fh]
            };
            let got = rect(b);
            assert!(
                got.iter().zip(want).all(|(g, w)| close(*g, w)),
                "{game}: back {b} is not behind its face {f}"
            );
        }
    }
    assert!(boxes > 0, "{game} printed no card");

    // The PDF: as many pages as the DOM has sheets, each of the paper's size.
    let pdf = html.with_file_name("sheets.pdf");
    let started = Instant::now();
    run_chromium(
        &html,
        &[
            "--no-pdf-header-footer".into(),
            format!("--print-to-pdf={}", pdf.display()),
        ],
    );
    eprintln!(
        "{game}: chromium printed {} pages in {:?}",
        pages.len(),
        started.elapsed()
    );
    let pdf_s = pdf.to_str().unwrap();
    let info = tool("pdfinfo", &["-f", "1", "-l", "100000", pdf_s]);
    let count: usize = info
        .lines()
        .find_map(|l| l.strip_prefix("Pages:"))
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    assert_eq!(count, pages.len(), "{game}: one PDF page per sheet");
    for line in info
        .lines()
        .filter(|l| l.starts_with("Page ") && l.contains(" size: "))
    {
        let dims: Vec<f64> = line
            .split(" size: ")
            .nth(1)
            .unwrap()
            .split_whitespace()
            .filter_map(|t| t.parse().ok())
            .collect();
        assert!(
            close(dims[0] * PT, ex.page.0) && close(dims[1] * PT, ex.page.1),
            "{game}: {line}"
        );
    }

    // The printed text lies inside the boxes the DOM reports, page by page.
    let bbox = tool("pdftotext", &["-bbox", pdf_s, "-"]);
    for (p, page_xml) in pages.iter().zip(bbox.split("<page ").skip(1)) {
        if p["side"] == "cover" {
            continue;
        }
        let cards = p["cards"].as_array().unwrap();
        let mut hits = vec![0; cards.len()];
        for word in page_xml.split("<word ").skip(1) {
            let attr = |k: &str| -> f64 {
                let at = word.find(&format!("{k}=\"")).unwrap() + k.len() + 2;
                word[at..at + word[at..].find('"').unwrap()]
                    .parse::<f64>()
                    .unwrap()
                    * PT
            };
            let (cx, cy) = (
                f64::midpoint(attr("xMin"), attr("xMax")),
                f64::midpoint(attr("yMin"), attr("yMax")),
            );
            let inside = cards.iter().position(|c| {
                let [x, y, w, h] = rect(c);
                cx > x - TOL && cx < x + w + TOL && cy > y - TOL && cy < y + h + TOL
            });
            match inside {
                Some(i) => hits[i] += 1,
                None => panic!(
                    "{game} page {}: text {word:.80} is outside every card",
                    p["page"]
                ),
            }
        }
        assert!(
            hits.iter().all(|&n| n > 0),
            "{game} page {}: a card printed no text: {hits:?}",
            p["page"]
        );
    }

    if std::env::var_os("CARTA_BLESS").is_some() && flags.is_empty() {
        let first = pages.iter().position(|p| p["side"] == "faces").unwrap() + 1;
        screenshot(pdf_s, first, &format!("sheets-{game}"));
    }
    tool("pdftotext", &[pdf_s, "-"])
}

/// Prints `html` to PDF in Chromium and renders its page `page` at 60 dpi
/// to `docs/img/<name>.png`.
pub(crate) fn screenshot_html(html: &Path, page: usize, name: &str) {
    let pdf = html.with_extension("pdf");
    let out = run_chromium(
        html,
        &[
            format!("--print-to-pdf={}", pdf.display()),
            "--no-pdf-header-footer".into(),
        ],
    );
    assert!(pdf.exists(), "{}", String::from_utf8_lossy(&out.stderr));
    screenshot(pdf.to_str().unwrap(), page, name);
}

/// Renders page `page` of `pdf` at 60 dpi to `docs/img/<name>.png`.
fn screenshot(pdf: &str, page: usize, name: &str) {
    let out = repo().join("docs/img").join(name);
    std::fs::create_dir_all(out.parent().unwrap()).unwrap();
    let n = page.to_string();
    let args = ["-f", &n, "-l", &n, "-r", "60", "-png", "-singlefile", pdf];
    tool("pdftoppm", &[&args[..], &[out.to_str().unwrap()]].concat());
}

/// Pages are numbered 1, 2, … in order, and no cover row is cut off by the
/// bottom padding (15 mm) of its page.
fn check_pages(game: &str, pages: &[Value], size: (f64, f64)) {
    for (i, p) in pages.iter().enumerate() {
        assert_eq!(
            p["page"].as_u64(),
            Some(i as u64 + 1),
            "{game}: page numbers"
        );
        if p["side"] == "cover" {
            let bottom = p["rows_bottom"].as_f64().unwrap();
            assert!(
                bottom <= size.1 - 15.0 + TOL,
                "{game}: cover page {} overflows: {bottom} mm",
                i + 1
            );
        }
    }
}

/// Prints `html` to PDF and returns the page count pdfinfo reports.
fn pdf_pages(html: &Path) -> usize {
    let pdf = html.with_file_name("sheets.pdf");
    run_chromium(
        html,
        &[
            "--no-pdf-header-footer".into(),
            format!("--print-to-pdf={}", pdf.display()),
        ],
    );
    let info = tool("pdfinfo", &[pdf.to_str().unwrap()]);
    info.lines()
        .find_map(|l| l.strip_prefix("Pages:"))
        .unwrap()
        .trim()
        .parse()
        .unwrap()
}

#[test]
fn a_long_cover_continues_on_more_pages_without_losing_a_row() {
    let cards: String = (0..90)
        .map(|i| crate::sheets::card(&format!("c{i}"), "copies = 6"))
        .collect();
    let ws = crate::sheets::mini(&cards);
    ws.run(["build"]).succeeds();
    let html = ws.path().join("build/mini/sheets/index.html");
    let pages = measure(&html);
    let covers = pages.iter().filter(|p| p["side"] == "cover").count();
    assert!(
        covers >= 2,
        "540 cards, 90 sheets: the cover takes {covers} page(s)"
    );
    check_pages("mini", &pages, (210.0, 297.0));
    let page = std::fs::read_to_string(&html).unwrap();
    assert_eq!(
        page.matches("<div class=\"carta-row\"><span class=\"carta-n\">")
            .count(),
        90,
        "one row per sheet"
    );
    assert_eq!(pdf_pages(&html), pages.len(), "one PDF page per sheet");
}

#[test]
fn covil_prints_on_a4_with_bleed_and_long_edge_backs() {
    let text = print_and_measure("covil", &[], None, None, Some(("dark-master", 6)));
    assert!(
        text.contains("Imperatriz Véspera"),
        "accents survive printing"
    );
}

#[test]
fn exodo_prints_landscape_with_short_edge_backs() {
    let text = print_and_measure("exodo", &[], None, None, Some(("stadium", 8)));
    assert!(text.contains("Estádio"));
}

#[test]
fn intrepidos_prints_tarot_and_poker_cards_on_a4() {
    let text = print_and_measure("intrepidos", &[], None, None, Some(("action", 6)));
    assert!(
        text.contains("Fúria de Áries"),
        "Portuguese accents survive printing"
    );
}

#[test]
fn intrepidos_prints_on_letter_with_rows_mirrored_for_short_edge() {
    print_and_measure(
        "intrepidos",
        &["--paper", "letter", "--duplex", "short"],
        Some("letter"),
        Some("short"),
        Some(("intrepido", 4)),
    );
}

#[test]
fn kingdoms_prints_nine_poker_cards_to_a_letter_page() {
    print_and_measure("kingdoms", &[], None, None, Some(("character", 9)));
}

#[test]
fn kingdoms_prints_nine_poker_cards_to_an_a4_page() {
    print_and_measure(
        "kingdoms",
        &["--paper", "a4", "--duplex", "none"],
        Some("a4"),
        Some("none"),
        Some(("character", 9)),
    );
}

#[test]
fn zodiacos_prints_on_a4() {
    let text = print_and_measure("zodiacos", &[], None, None, Some(("power", 6)));
    assert!(
        text.contains("Géminis") && text.contains("DAÑO"),
        "Spanish accents survive printing"
    );
}

#[test]
fn zodiacos_prints_in_spanish_and_english() {
    let ws = Workspace::shipped(&["zodiacos"]);
    ws.run(["build", "zodiacos", "--lang", "en"]).succeeds();
    // A label, then captions the templates write (`{{t "…"}}`).
    let languages = [
        ("es", "sheets", ["Acuario", "VIDA", "HABILIDAD"]),
        ("en", "sheets/en", ["Aquarius", "HEALTH", "ABILITY"]),
    ];
    for (lang, dir, words) in languages {
        let html = ws.path().join(format!("build/zodiacos/{dir}/index.html"));
        let (pdf, text) = printed_text(&html);
        let pdf_s = pdf.to_str().unwrap();
        for word in words {
            assert!(text.contains(word), "{lang}: the sheets lack {word:?}");
        }
        if lang == "en" {
            let lower = text.to_lowercase();
            for word in ["vida", "daño", "paso", "habilidad"] {
                assert!(!lower.contains(word), "the English sheets print {word:?}");
            }
        }
        if std::env::var_os("CARTA_BLESS").is_some() {
            screenshot(pdf_s, 2, &format!("sheets-zodiacos-{lang}"));
        }
    }
}

/// Prints `html` to `sheets.pdf` beside it and returns the PDF with its text.
fn printed_text(html: &std::path::Path) -> (std::path::PathBuf, String) {
    let pdf = html.with_file_name("sheets.pdf");
    run_chromium(
        html,
        &[
            "--no-pdf-header-footer".into(),
            format!("--print-to-pdf={}", pdf.display()),
        ],
    );
    let text = tool("pdftotext", &[pdf.to_str().unwrap(), "-"]);
    (pdf, text)
}

#[test]
fn intrepidos_prints_in_three_languages() {
    let ws = Workspace::shipped(&["intrepidos"]);
    ws.run(["build", "intrepidos", "--lang", "en", "--lang", "es"])
        .succeeds();
    let languages = [
        // Card text, then a caption the templates write (`{{t "…"}}`).
        (
            "pt-BR",
            "sheets",
            ["Certeiro", "Frixo", "Envenenada", "recarga"],
        ),
        (
            "en",
            "sheets/en",
            ["Strike", "Phrixus", "Poisoned", "cooldown"],
        ),
        (
            "es",
            "sheets/es",
            ["Certero", "Frixo", "Envenenada", "ALCANCE"],
        ),
    ];
    for (lang, dir, words) in languages {
        let html = ws.path().join(format!("build/intrepidos/{dir}/index.html"));
        let (pdf, text) = printed_text(&html);
        let pdf_s = pdf.to_str().unwrap();
        for word in words {
            assert!(text.contains(word), "{lang}: the sheets lack {word:?}");
        }
        if lang == "en" {
            assert!(
                !text.contains("recarga") && !text.contains("VIDA"),
                "the English sheets print no Portuguese caption"
            );
        }
        if std::env::var_os("CARTA_BLESS").is_some() {
            screenshot(pdf_s, 2, &format!("sheets-intrepidos-{lang}"));
        }
    }
}
