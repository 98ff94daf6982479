//! `carta export pod --shop …` and the print options shops and guillotines
//! need, rendered by a real headless Chromium (and Ghostscript for
//! `DriveThruCards`' `PDF/X`) and read back: each shop's image sizes and file
//! names, the PDF/X's page boxes with poppler, its colours with
//! Ghostscript's `inkcov`, its PDF/X markers; paper sizes with `pdfinfo`;
//! full cut lines on the printed page. A missing browser or Ghostscript
//! fails these tests.

use std::path::Path;
use std::process::Command;

use carta::emit::cards::Image;

use crate::browser::tool;
use crate::harness::Workspace;
use crate::sheets::{card, mini};

fn size(path: &Path) -> (u32, u32) {
    let img = Image::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    (img.width, img.height)
}

fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    names
}

/// Three cards, `a` three times, with the mini game's one back.
fn three() -> Workspace {
    mini(&(card("a", "copies = 3\ntext = \"Golpe\"") + &card("b", "") + &card("c", "copies = 2")))
}

#[test]
fn pod_tgc_writes_every_face_named_by_its_count_and_the_back_at_825_by_1125() {
    let ws = three();
    ws.run(["export", "pod", "--shop", "tgc"]).succeeds();
    let dir = ws.path().join("build/mini/pod/tgc/mini");
    assert_eq!(names(&dir), ["README.md", "poker"]);
    let poker = dir.join("poker");
    assert_eq!(
        names(&poker),
        ["01x-b.png", "02x-c.png", "03x-a.png", "back.png"]
    );
    for n in names(&poker) {
        assert_eq!(size(&poker.join(&n)), (825, 1125), "{n}: TGC's poker card");
    }
    // The bleed reaches every edge: the card's background, not the page's
    // white, at the corners; its text is drawn.
    let face = Image::read(&poker.join("03x-a.png")).unwrap();
    let at = |x: u32, y: u32| {
        let i = (y as usize * face.width as usize + x as usize) * 4;
        [face.rgba[i], face.rgba[i + 1], face.rgba[i + 2]]
    };
    for (x, y) in [(0, 0), (824, 0), (0, 1124), (824, 1124)] {
        assert_eq!(at(x, y), [0xfb, 0xf7, 0xee], "the bleed at ({x}, {y})");
    }
    // The name bar, in the default face's accent, keeps inside TGC's safe
    // area: 1/8 in of bleed and 1/8 in more, 75 px from every edge.
    let accent: Vec<u32> = (0..face.width * face.height)
        .filter(|&k| {
            let p = &face.rgba[k as usize * 4..k as usize * 4 + 3];
            (90..=120).contains(&p[0]) && p[1] < 80 && p[2] < 40
        })
        .collect();
    assert!(accent.len() > 10_000, "the name bar is drawn");
    let left = accent.iter().map(|k| k % face.width).min().unwrap();
    let top = accent.iter().map(|k| k / face.width).min().unwrap();
    assert!(
        (74..=78).contains(&left),
        "the name bar starts {left} px from the left"
    );
    assert!((74..=78).contains(&top), "and {top} px from the top");
    let readme = ws.read("build/mini/pod/tgc/mini/README.md");
    assert!(readme.contains("## Poker Deck — `poker/`"), "{readme}");
    assert!(readme.contains("6 cards (3 different)"), "{readme}");
    assert!(
        readme.contains("| `03x-a.png` | `back.png` | 3 |"),
        "{readme}"
    );
    assert!(readme.contains("## Upload steps"), "{readme}");
}

#[test]
fn pod_mpc_and_printerstudio_write_their_own_pixel_sizes() {
    let ws = mini(&card("a", "copies = 2"));
    ws.run(["export", "pod", "--shop", "mpc"]).succeeds();
    ws.run(["export", "pod", "--shop", "printerstudio"])
        .succeeds();
    let mpc = ws.path().join("build/mini/pod/mpc/mini/poker");
    assert_eq!(names(&mpc), ["02x-a.png", "back.png"]);
    for n in names(&mpc) {
        assert_eq!(size(&mpc.join(&n)), (822, 1122), "{n}: MPC's poker card");
    }
    let ps = ws.path().join("build/mini/pod/printerstudio/mini/poker");
    for n in names(&ps) {
        assert_eq!(size(&ps.join(&n)), (825, 1125), "{n}: PrinterStudio's");
    }
    // A 63 × 88 mm card is MPC's standard size, 816 × 1110 px.
    let game = ws.read("cards/mini/game.toml").replace(
        "margin = 5",
        "margin = 5\nsize = { width = 63, height = 88 }",
    );
    ws.write("cards/mini/game.toml", game);
    ws.run(["export", "pod", "--shop", "mpc"]).succeeds();
    let std = ws.path().join("build/mini/pod/mpc/mini/standard-63x88");
    assert_eq!(size(&std.join("02x-a.png")), (816, 1110));
    assert!(
        !ws.path().join("build/mini/pod/mpc/mini/poker").exists(),
        "the export's folder is replaced whole"
    );
}

#[test]
fn pod_names_each_card_s_back_when_the_backs_differ_and_puts_each_size_in_its_folder() {
    let ws = mini(&(card("a", "copies = 2") + &card("s", "kind = \"setup\"")));
    // `kind = "setup"` follows the card's own `kind` line: rewrite it.
    let cards = ws.read("cards/mini/cards.toml").replace(
        "kind = \"card\"\nname = \"Carta s\"\nkind = \"setup\"",
        "kind = \"setup\"\nname = \"Carta s\"",
    );
    ws.write("cards/mini/cards.toml", cards);
    let game = ws.read("cards/mini/game.toml").replace(
        "[zones.main]",
        "[kinds.setup]\nname = \"Preparação\"\n\n[kinds.setup.print]\nback = \"Preparação\"\n\n[zones.main]",
    );
    ws.write("cards/mini/game.toml", game);
    let schema = ws.read("schemas/mini/card.schema.json");
    ws.write("schemas/mini/setup.schema.json", schema);
    ws.run(["export", "pod", "--shop", "tgc"]).succeeds();
    let poker = ws.path().join("build/mini/pod/tgc/mini/poker");
    assert_eq!(
        names(&poker),
        ["01x-s-back.png", "01x-s.png", "02x-a-back.png", "02x-a.png"]
    );
    let back = |n: &str| Image::read(&poker.join(n)).unwrap();
    assert_ne!(
        back("01x-s-back.png"),
        back("02x-a-back.png"),
        "the setup back has its word"
    );
    // A tarot kind goes to the Tarot Deck's folder, at 900 × 1500 px.
    let game = ws.read("cards/mini/game.toml").replace(
        "[kinds.setup.print]",
        "[kinds.setup.print]\nsize = \"tarot\"",
    );
    ws.write("cards/mini/game.toml", game);
    ws.run(["export", "pod", "--shop", "tgc"]).succeeds();
    let dir = ws.path().join("build/mini/pod/tgc/mini");
    assert_eq!(names(&dir), ["README.md", "poker", "tarot"]);
    assert_eq!(names(&dir.join("poker")), ["02x-a.png", "back.png"]);
    assert_eq!(size(&dir.join("tarot/01x-s.png")), (900, 1500));
    assert_eq!(size(&dir.join("tarot/back.png")), (900, 1500));
}

#[test]
fn pod_refuses_a_card_size_the_shop_does_not_print_and_names_the_nearest() {
    let ws = mini(&card("a", ""));
    let game = ws
        .read("cards/mini/game.toml")
        .replace("margin = 5", "margin = 5\nsize = \"square\"");
    ws.write("cards/mini/game.toml", game);
    let run = ws
        .run(["export", "pod", "--shop", "tgc", "--message-format", "json"])
        .code(1);
    let d = run
        .json()
        .into_iter()
        .find(|d| d["code"] == "pod::size")
        .unwrap_or_else(|| panic!("no pod::size in {}", run.stdout));
    let message = d["message"].as_str().unwrap();
    assert!(message.contains("70 × 70 mm"), "{message}");
    assert!(
        message.contains("nearest it offers is Poker Deck"),
        "{message}"
    );
    assert!(d["file"].as_str().unwrap().ends_with("game.toml"), "{d}");
    assert!(
        !ws.path().join("build/mini/pod").exists(),
        "nothing written"
    );
}

#[test]
fn pod_needs_a_shop() {
    let ws = mini(&card("a", ""));
    ws.run(["export", "pod"]).code(2).stderr_has("--shop");
}

/// `pdfinfo -box`'s boxes of page 1 … `pages`, in points.
fn boxes(pdf: &Path, pages: usize) -> Vec<(String, [f64; 4])> {
    let info = tool(
        "pdfinfo",
        &[
            "-box",
            "-f",
            "1",
            "-l",
            &pages.to_string(),
            pdf.to_str().unwrap(),
        ],
    );
    info.lines()
        .filter(|l| l.starts_with("Page ") && l.contains("Box:"))
        .map(|l| {
            let (name, values) = l.split_once("Box:").unwrap();
            let v: Vec<f64> = values
                .split_whitespace()
                .map(|w| w.parse().unwrap())
                .collect();
            let kind = name.split_whitespace().last().unwrap().to_owned() + "Box";
            (kind, [v[0], v[1], v[2], v[3]])
        })
        .collect()
}

#[test]
fn pod_dtc_is_a_cmyk_pdfx_of_a_back_and_a_face_per_copy_with_trim_and_bleed_boxes() {
    let ws = three();
    ws.run(["export", "pod", "--shop", "dtc"]).succeeds();
    let dir = ws.path().join("build/mini/pod/dtc/mini");
    assert_eq!(names(&dir), ["README.md", "poker.pdf"]);
    let pdf = dir.join("poker.pdf");
    let info = tool("pdfinfo", &[pdf.to_str().unwrap()]);
    // 6 printed cards: a back and a face each.
    assert!(info.contains("Pages:           12"), "{info}");
    let found = boxes(&pdf, 12);
    let near = |a: [f64; 4], b: [f64; 4]| a.iter().zip(b).all(|(x, y)| (x - y).abs() < 0.6);
    for kind in ["MediaBox", "BleedBox", "TrimBox"] {
        assert_eq!(
            found.iter().filter(|(k, _)| k == kind).count(),
            12,
            "{kind}"
        );
    }
    for (kind, b) in &found {
        let want = match kind.as_str() {
            // 2.75 × 3.75 in, the trim 1/8 in inside.
            "MediaBox" | "BleedBox" => [0.0, 0.0, 198.0, 270.0],
            "TrimBox" => [9.0, 9.0, 189.0, 261.0],
            _ => continue,
        };
        assert!(near(*b, want), "{kind} {b:?}, expected {want:?}");
    }
    // Every page is CMYK: Ghostscript's ink coverage reads four inks.
    let ink = tool(
        "gs",
        &[
            "-q",
            "-dSAFER",
            "-o",
            "-",
            "-sDEVICE=inkcov",
            pdf.to_str().unwrap(),
        ],
    );
    assert_eq!(
        ink.lines().filter(|l| l.ends_with("CMYK OK")).count(),
        12,
        "{ink}"
    );
    let bytes = std::fs::read(&pdf).unwrap();
    let text = String::from_utf8_lossy(&bytes);
    assert!(text.contains("PDF/X-1a:2003"), "the PDF/X version");
    assert!(text.contains("/OutputIntents"), "an output intent");
    assert!(text.contains("/GTS_PDFX"), "of PDF/X");
    assert!(
        text.contains("CGATS TR 001"),
        "for the registered SWOP condition"
    );
    assert!(!text.contains("/DeviceRGB"), "no RGB colour space is left");
    // Chromium's transparency is flattened (PDF/X-1a has none): the pages
    // are CMYK images, finer than the 300 dpi DriveThruCards asks for.
    let images = tool("pdfimages", &["-list", pdf.to_str().unwrap()]);
    let rows: Vec<Vec<&str>> = images
        .lines()
        .skip(2)
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert!(!rows.is_empty(), "{images}");
    for r in &rows {
        assert_eq!(r[5], "cmyk", "{images}");
        assert!(r[12].parse::<u32>().unwrap() >= 300, "{images}");
    }
    let info = tool("pdfinfo", &[pdf.to_str().unwrap()]);
    assert!(info.contains("PDF subtype:    PDF/X-1a:2003"), "{info}");
    assert!(
        info.contains("Title:           Mini — Poker-size cards"),
        "{info}"
    );
    let readme = ws.read("build/mini/pod/dtc/mini/README.md");
    assert!(readme.contains("| `a` | 3 |"), "{readme}");
}

#[test]
fn pod_dtc_without_ghostscript_is_exit_2_and_names_the_package() {
    let ws = mini(&card("a", ""));
    let out = Command::new(env!("CARGO_BIN_EXE_carta"))
        .args(["export", "pod", "--shop", "dtc"])
        .current_dir(ws.path())
        .env("CARTA_GHOSTSCRIPT", ws.path().join("no-such-gs"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("apt-get install ghostscript"), "{stderr}");
    assert!(!ws.path().join("build").exists(), "nothing is written");
}

/// The size of every page of `pdf` in mm.
fn page_mm(pdf: &Path) -> (f64, f64) {
    let info = tool("pdfinfo", &[pdf.to_str().unwrap()]);
    let pt: Vec<f64> = info
        .lines()
        .find_map(|l| l.strip_prefix("Page size:"))
        .unwrap_or_else(|| panic!("no page size in {info}"))
        .split_whitespace()
        .filter_map(|w| w.parse().ok())
        .collect();
    (pt[0] * 25.4 / 72.0, pt[1] * 25.4 / 72.0)
}

#[test]
fn export_pdf_prints_on_a3_legal_tabloid_and_custom_paper() {
    let ws = mini(&card("a", ""));
    for (paper, want) in [
        ("a3", (297.0, 420.0)),
        ("legal", (215.9, 355.6)),
        ("tabloid", (279.4, 431.8)),
        ("250x180mm", (250.0, 180.0)),
    ] {
        let out = format!("out-{}", paper.replace('x', "-"));
        ws.run(["export", "pdf", "--paper", paper, "--out", &out])
            .succeeds();
        let (w, h) = page_mm(&ws.path().join(out).join("mini/pdf/mini.pdf"));
        assert!(
            (w - want.0).abs() < 0.3 && (h - want.1).abs() < 0.3,
            "{paper}: {w} × {h} mm"
        );
    }
    ws.run(["print", "--paper", "a5"])
        .code(2)
        .stderr_has("210x297mm");
    ws.run(["print", "--paper", "20x297mm"]).code(2);
    // The manifest's paper may be a custom size too.
    let game = ws.read("cards/mini/game.toml").replace(
        "margin = 5",
        "margin = 5\npaper = { width = 330, height = 480 }",
    );
    ws.write("cards/mini/game.toml", game);
    ws.run(["print"]).succeeds();
    let html = ws.read("build/mini/sheets/index.html");
    assert!(html.contains("@page { size: 330mm 480mm;"), "custom paper");
    // The cover speaks the game's language (mini is in Portuguese).
    assert!(html.contains("330 × 480 mm retrato"), "named on the cover");
}

/// The darkest red channel in rows `y` … `y + 2`, columns `x0` … `x1`, of
/// page 2 of the sheets PDF exported into `out`, at 300 dpi.
fn darkest(ws: &Workspace, out: &str, (x0, x1): (u32, u32), y: u32) -> u8 {
    let pdf = ws.path().join(out).join("mini/pdf/mini.pdf");
    let base = ws.path().join(format!("page-{out}-{y}"));
    tool(
        "pdftoppm",
        &[
            "-r",
            "300",
            "-f",
            "2",
            "-l",
            "2",
            "-png",
            "-singlefile",
            pdf.to_str().unwrap(),
            base.to_str().unwrap(),
        ],
    );
    let page = Image::read(&base.with_extension("png")).unwrap();
    let mut min = 255;
    for row in y..y + 3 {
        for x in x0..=x1 {
            let i = (row as usize * page.width as usize + x as usize) * 4;
            min = min.min(page.rgba[i]);
        }
    }
    min
}

#[test]
fn full_cut_lines_cross_the_printed_page_along_every_trim_line() {
    let ws = mini(
        &(0..6)
            .map(|i| card(&format!("c{i}"), ""))
            .collect::<String>(),
    );
    ws.run(["export", "pdf", "--cut-lines", "full", "--out", "full"])
        .succeeds();
    ws.run(["export", "pdf", "--out", "marks"]).succeeds();
    // On A4 the 2 × 3 boxes of 69.5 × 94.9 mm start at x = 35.5 mm: the
    // first trim line is at 38.5 mm (454.7 px at 300 dpi). Half way down
    // the page it runs through the cards' bleed, where crop marks never go.
    let (x0, x1) = (452, 457);
    let y = (148.5 * 300.0 / 25.4) as u32;
    let full = darkest(&ws, "full", (x0, x1), y);
    let marks = darkest(&ws, "marks", (x0, x1), y);
    assert!(full < 160, "a cut line over the bleed ({full})");
    assert!(
        marks > 200,
        "only the card's background without it ({marks})"
    );
    // And at the page's very top, above the crop marks' reach.
    let top_full = darkest(&ws, "full", (x0, x1), 0);
    assert!(
        top_full < 160,
        "the line reaches the page's edge ({top_full})"
    );
    ws.run(["print", "--cut-lines", "full"]).succeeds();
    let html = ws.read("build/mini/sheets/index.html");
    assert!(
        html.contains("carta-marks carta-cut-lines"),
        "the full lines' SVG"
    );
    assert!(
        html.contains("y1=\"0\" x2=\"38.5\" y2=\"297\""),
        "a line across the page"
    );
    assert!(
        html.contains("corte nas linhas de corte"),
        "the cover says so"
    );
}
