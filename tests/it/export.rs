//! `carta export pdf|png`, rendered by a real headless Chromium and read
//! back: the PDF with poppler (page size, page count, card boxes to
//! 0.2 mm) and the PNGs' pixel sizes (the Tabletop Simulator export is
//! `tts.rs`'s). A missing browser fails these tests.

use std::path::Path;
use std::process::Command;

use carta::emit::cards::Image;

use crate::browser::tool;
use crate::sheets::{card, mini};

const TOL: f64 = 0.2;

fn size(path: &Path) -> (u32, u32) {
    let img = Image::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    (img.width, img.height)
}

#[test]
fn export_without_a_browser_is_exit_2_and_names_the_package() {
    let ws = mini(&card("a", ""));
    let out = Command::new(env!("CARGO_BIN_EXE_carta"))
        .args(["export", "pdf"])
        .current_dir(ws.path())
        .env("CARTA_CHROMIUM", ws.path().join("no-such-browser"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("apt-get install chromium"), "{stderr}");
    assert!(!ws.path().join("build").exists(), "nothing is written");
}

#[test]
fn export_png_draws_every_face_and_back_at_the_asked_resolution() {
    let ws =
        mini(&(card("a", "text = \"Golpe {AC}\"") + &card("b", "copies = 2") + &card("c", "")));
    ws.run(["export", "png"]).succeeds();
    let dir = ws.path().join("build/mini/png/mini");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "a.back.png",
            "a.png",
            "b.back.png",
            "b.png",
            "c.back.png",
            "c.png"
        ]
    );
    for n in &names {
        assert_eq!(
            size(&dir.join(n)),
            (750, 1050),
            "{n}: a poker card at 300 dpi"
        );
    }
    // The face is a card: its background and dark text, not a blank image.
    let face = Image::read(&dir.join("a.png")).unwrap();
    let dark = face
        .rgba
        .chunks(4)
        .filter(|p| p[0] < 80 && p[1] < 80 && p[2] < 80)
        .count();
    assert!(dark > 1000, "text is drawn ({dark} dark pixels)");
    assert_eq!(
        &face.rgba[..3],
        &[0xfb, 0xf7, 0xee],
        "the card's background at the corner"
    );
    // With the bleed, at 150 dpi: (63.5 + 2 × 3) × 150 / 25.4 = 410.4 px.
    ws.run(["export", "png", "--bleed", "--dpi", "150", "--out", "big"])
        .succeeds();
    assert_eq!(size(&ws.path().join("big/mini/png/mini/b.png")), (410, 560));
}

/// The first pixel from `from` along `step` that is not white, in pixels.
fn first_ink(img: &Image, from: (i64, i64), step: (i64, i64)) -> i64 {
    let (mut x, mut y) = from;
    for n in 0.. {
        assert!(
            !(x < 0 || y < 0 || x >= i64::from(img.width) || y >= i64::from(img.height)),
            "no ink from {from:?} along {step:?}"
        );
        let i = (y as usize * img.width as usize + x as usize) * 4;
        if img.rgba[i..i + 3].iter().any(|&c| c < 250) {
            return n;
        }
        x += step.0;
        y += step.1;
    }
    unreachable!()
}

#[test]
fn export_pdf_prints_the_sheets_pages_and_card_boxes() {
    // 7 poker cards with 3 mm bleed on A4: 6 to a page, so a cover and two
    // sheets of faces and backs.
    let cards: String = (0..7).map(|i| card(&format!("c{i}"), "")).collect();
    let ws = mini(&cards);
    ws.run(["export", "pdf"]).succeeds();
    let pdf = ws.path().join("build/mini/pdf/mini.pdf");
    let info = tool("pdfinfo", &[pdf.to_str().unwrap()]);
    let field = |name: &str| {
        info.lines()
            .find_map(|l| l.strip_prefix(name))
            .unwrap_or_else(|| panic!("no {name} in {info}"))
            .trim()
            .to_owned()
    };
    assert_eq!(field("Pages:"), "5");
    let pt: Vec<f64> = field("Page size:")
        .split_whitespace()
        .filter_map(|w| w.parse().ok())
        .collect();
    let mm = |p: f64| p * 25.4 / 72.0;
    assert!(
        (mm(pt[0]) - 210.0).abs() < TOL && (mm(pt[1]) - 297.0).abs() < TOL,
        "A4: {pt:?}"
    );
    // The first faces page at 254 dpi: one pixel is 0.1 mm. The grid of
    // 2 × 3 boxes of 69.5 × 94.9 mm is centred: (35.5, 6.15) to (174.5, 290.85).
    let base = ws.path().join("page");
    tool(
        "pdftoppm",
        &[
            "-r",
            "254",
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
    let px = |mm: f64| (mm * 10.0).round() as i64;
    let (w, h) = (i64::from(page.width), i64::from(page.height));
    let left = first_ink(&page, (0, px(6.15 + 47.45)), (1, 0)) as f64 / 10.0;
    let top = first_ink(&page, (px(35.5 + 34.75), 0), (0, 1)) as f64 / 10.0;
    let right = 210.0 - first_ink(&page, (w - 1, px(290.85 - 47.45)), (-1, 0)) as f64 / 10.0;
    let bottom = 297.0 - first_ink(&page, (px(174.5 - 34.75), h - 1), (0, -1)) as f64 / 10.0;
    for (got, want) in [(left, 35.5), (top, 6.15), (right, 174.5), (bottom, 290.85)] {
        assert!(
            (got - want).abs() <= TOL,
            "card edge at {got} mm, expected {want} mm"
        );
    }
}

/// `n` in `style`'s `name:<n>mm`.
fn style_mm(style: &str, name: &str) -> f64 {
    let at = style.find(&format!("{name}:")).unwrap() + name.len() + 1;
    let rest = &style[at..];
    rest[..rest.find("mm").unwrap()].parse().unwrap()
}

#[test]
fn png_faces_look_like_chromium_s_own_screenshot_of_the_sheets_at_the_same_resolution() {
    // The reference is the plain path: the sheets `carta print` writes,
    // photographed by Chromium's own `--screenshot` at the device scale
    // of 300 dpi. The faces have art, rich text and a font of their own.
    let tmp = tempfile::tempdir().unwrap();
    crate::harness::run_in(tmp.path(), ["init", "live", "--name", "Live"]).succeeds();
    let root = tmp.path().join("live");
    let font = std::fs::read("/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf")
        .expect("fonts-dejavu-core (scripts/install-test-deps.sh installs it)");
    let style = root.join("templates/live/style.css");
    let mut css = std::fs::read_to_string(&style).unwrap();
    css.push_str(&format!(
        "\n@font-face {{ font-family: \"carta-test\"; src: url(data:font/ttf;base64,{}); }}\n.title h1 {{ font-family: \"carta-test\"; }}\n",
        base64_encode(&font)
    ));
    std::fs::write(&style, css).unwrap();
    crate::harness::run_in(&root, ["export", "png"]).succeeds();
    crate::harness::run_in(&root, ["print", "--no-fit-check"]).succeeds();
    let sheets = root.join("build/live/sheets");
    let html = std::fs::read_to_string(sheets.join("index.html")).unwrap();
    // The first page of faces, alone at the top left of the window.
    let first = html.find("carta-card carta-face").unwrap();
    let section = &html[html[..first].rfind("<section").unwrap()..first];
    let page = &section[section.find("data-page=\"").unwrap() + 11..];
    let page = &page[..page.find('"').unwrap()];
    let alone = format!(
        "<style>@media screen {{ body {{ margin: 0 !important; background: #fff !important; }} \
         .carta-sheet {{ display: none !important; margin: 0 !important; box-shadow: none !important; }} \
         .carta-sheet[data-page=\"{page}\"] {{ display: block !important; }} }}</style></head>"
    );
    let rest = &html[first - 40..];
    let page_html = &rest[..rest.find("<section").unwrap_or(rest.len())];
    // Each face of the page, its trim moved by less than half a pixel to
    // land on whole pixels, as every cell of the export does: the boxes
    // inside then snap to the same pixels.
    let px = |mm: f64| (mm * 300.0 / 25.4).round() as u32;
    let mut faces = Vec::new();
    let mut page = html.replacen("</head>", &alone, 1);
    for div in page_html
        .split("<div class=\"carta-card carta-face")
        .skip(1)
    {
        let (tag, _) = div.split_once('>').unwrap();
        let id = &tag[tag.find("data-card=\"").unwrap() + 11..];
        let id = id[..id.find('"').unwrap()].to_owned();
        let style = &tag[tag.find("style=\"").unwrap() + 7..];
        let bleed = style_mm(style, "--bleed");
        let (left, top) = (style_mm(style, "left"), style_mm(style, "top"));
        let (x, y) = (px(left + bleed), px(top + bleed));
        let at = |p: u32| f64::from(p) * 25.4 / 300.0 - bleed;
        let moved = tag.replacen(
            &format!("left:{left}mm;top:{top}mm"),
            &format!("left:{}mm;top:{}mm", at(x), at(y)),
            1,
        );
        page = page.replacen(tag, &moved, 1);
        faces.push((id, x, y));
    }
    let reference_page = sheets.join("alone.html");
    std::fs::write(&reference_page, page).unwrap();
    let shot = tmp.path().join("reference.png");
    crate::browser::run_chromium(
        &reference_page,
        &[
            "--hide-scrollbars".to_owned(),
            "--window-size=1200,1200".to_owned(),
            format!("--force-device-scale-factor={}", 300.0 / 96.0),
            format!("--screenshot={}", shot.display()),
        ],
    );
    let reference = Image::read(&shot).unwrap();
    let mut compared = 0;
    for (id, x, y) in faces {
        let png = Image::read(&root.join(format!("build/live/png/live/{id}.png"))).unwrap();
        let cell = reference.crop(x, y, png.width, png.height).unwrap();
        let (diff, x, y) = crate::tts::worst_square(&cell, &png, 300, &id);
        assert!(
            diff <= 16.0,
            "{id}: the square at ({x}, {y}) px differs from Chromium's own screenshot by {diff:.0} of 255"
        );
        compared += 1;
    }
    assert!(compared >= 2, "{compared} faces compared");
}

fn base64_encode(bytes: &[u8]) -> String {
    use base64::Engine as _;
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

#[test]
fn an_export_reusing_kept_cards_writes_what_an_export_from_nothing_writes() {
    // Random edits, each followed by an export that reuses the cells kept
    // by the last one and by an export from nothing (the kept cells
    // removed): the two write the same bytes and the same warnings.
    let tmp = tempfile::tempdir().unwrap();
    crate::harness::run_in(tmp.path(), ["init", "live", "--name", "Live"]).succeeds();
    let ws = tmp.path().join("live");
    let heroes = ws.join("cards/live/heroes.toml");
    let spells = ws.join("cards/live/spells.toml");
    let style = ws.join("templates/live/style.css");
    let art = ws.join("cards/live/art/tide.svg");
    // Thirty cards, three rows of a grid page: a card redrawn alone
    // stands on a later row too.
    let mut extra = std::fs::read_to_string(&spells).unwrap();
    for k in 0..24 {
        extra.push_str(&format!(
            "\n[[card]]\nid = \"extra-{k}\"\nkind = \"spell\"\nname = \"Extra {k}\"\ncost = {}\nelement = \"water\"\neffect = \"Draw {k} cards.\"\nart = \"art/tide.svg\"\n",
            k % 5
        ));
    }
    std::fs::write(&spells, extra).unwrap();
    let mut seed: u64 = std::env::var("CARTA_EXPORT_CASES_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x5eed_cafe);
    let mut next = |n: u64| {
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (seed >> 33) % n
    };
    let edit = |path: &Path, from: &str, to: &str| {
        let text = std::fs::read_to_string(path).unwrap();
        std::fs::write(path, text.replacen(from, to, 1)).unwrap();
    };
    let rounds: u64 = std::env::var("CARTA_EXPORT_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(6);
    let mut drawn_less = false;
    for round in 0..rounds {
        let word = format!("R{round}");
        let format = if next(3) == 0 { "tts" } else { "png" };
        let dpi = ["300", "150", "60"][next(3) as usize];
        let args = ["export", format, "--dpi", dpi];
        // The cells an export from nothing keeps, then an edit.
        let _ = std::fs::remove_dir_all(ws.join("build/.cache/shots"));
        crate::harness::run_in(&ws, args).succeeds();
        match next(7) {
            0 => edit(&heroes, "name = \"", &format!("name = \"{word} ")),
            6 => {
                let k = next(24);
                edit(
                    &spells,
                    &format!("name = \"Extra {k}\""),
                    &format!("name = \"Extra {k} {word}\""),
                );
            }
            1 => edit(&spells, "effect = \"", &format!("effect = \"{word} ")),
            2 => {
                let long = "Very long words that run past the box. ".repeat(12);
                edit(&spells, "effect = \"", &format!("effect = \"{long}"));
            }
            3 => std::fs::write(
                &style,
                std::fs::read_to_string(&style).unwrap()
                    + &format!("\n.foot::after {{ content: \" {word}\"; }}\n"),
            )
            .unwrap(),
            4 => edit(&art, "<svg", &format!("<svg data-round=\"{word}\"")),
            _ => {}
        }
        let warm = crate::harness::run_in(&ws, args);
        assert_eq!(warm.code, Some(0), "{}{}", warm.stdout, warm.stderr);
        let warm_files = crate::incremental::tree(&ws.join("build/live").join(format));
        drawn_less |= !warm.stderr.contains(" 0 reused");
        std::fs::remove_dir_all(ws.join("build/.cache/shots")).unwrap();
        let cold = crate::harness::run_in(&ws, args);
        assert_eq!(cold.code, Some(0), "{}{}", cold.stdout, cold.stderr);
        assert!(cold.stderr.contains(" 0 reused"), "{}", cold.stderr);
        let cold_files = crate::incremental::tree(&ws.join("build/live").join(format));
        assert_eq!(
            warm_files.keys().collect::<Vec<_>>(),
            cold_files.keys().collect::<Vec<_>>(),
            "round {round}"
        );
        for (name, bytes) in &warm_files {
            assert!(
                *bytes == cold_files[name],
                "round {round} ({format} at {dpi} dpi): {} differs from an export from nothing",
                name.display()
            );
        }
        // The warnings are the same; the last line says what was reused.
        let said = |stderr: &str| {
            let mut lines: Vec<String> = stderr.lines().map(str::to_owned).collect();
            let counts = lines.pop().unwrap_or_default();
            assert!(counts.contains("reused from earlier exports"), "{stderr}");
            lines
        };
        assert_eq!(
            said(&warm.stderr),
            said(&cold.stderr),
            "round {round}: the warnings differ"
        );
    }
    assert!(drawn_less, "some export reused kept cells");
}
