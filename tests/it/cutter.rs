//! Cutting-machine kits (`--cutter`) and duplex calibration
//! (`--back-offset`, `print --calibrate`), read back from what a printer
//! and a cutter get: the PDF rendered by poppler at 0.1 mm a pixel, the
//! SVG and DXF cut files parsed, the sheets' HTML boxes. A missing
//! browser fails these tests.
//!
//! With `CARTA_BLESS=1` they also write the pictures of docs/sheets.md
//! (`docs/img/cutter-silhouette.png`, `docs/img/calibrate-*.png`).

use std::path::Path;

use carta::emit::cards::Image;

use crate::browser::{screenshot_html, tool};
use crate::harness::{Workspace, repo};

/// Tolerance on a length read from the rendered page, in mm: Chromium
/// paints a box's edges on whole CSS pixels (1/96 in, 0.26 mm), and the
/// page is read at 0.1 mm a pixel.
const TOL: f64 = 0.3;
const LETTER: (f64, f64) = (215.9, 279.4);

/// A rectangle, in mm from the page's top-left corner: x, y, w, h.
type Box4 = [f64; 4];

/// Each path of a cut SVG as its bounding box, and the arcs' radii.
fn svg_paths(svg: &str) -> Vec<(Box4, Vec<f64>)> {
    let mut out = Vec::new();
    for part in svg.split("<path d=\"").skip(1) {
        let d = &part[..part.find('"').unwrap()];
        let t: Vec<&str> = d.split_whitespace().collect();
        let n = |i: usize| -> f64 { t[i].parse().unwrap() };
        let (mut xs, mut ys, mut radii) = (Vec::new(), Vec::new(), Vec::new());
        let mut i = 0;
        while i < t.len() {
            match t[i] {
                "M" => {
                    xs.push(n(i + 1));
                    ys.push(n(i + 2));
                    i += 3;
                }
                "H" => {
                    xs.push(n(i + 1));
                    i += 2;
                }
                "V" => {
                    ys.push(n(i + 1));
                    i += 2;
                }
                "A" => {
                    radii.push(n(i + 1));
                    xs.push(n(i + 6));
                    ys.push(n(i + 7));
                    i += 8;
                }
                "Z" => i += 1,
                other => panic!("unexpected `{other}` in {d}"),
            }
        }
        assert_eq!(t.last(), Some(&"Z"), "a closed path: {d}");
        out.push((bbox(&xs, &ys), radii));
    }
    out
}

fn bbox(xs: &[f64], ys: &[f64]) -> Box4 {
    let min = |v: &[f64]| v.iter().copied().fold(f64::INFINITY, f64::min);
    let max = |v: &[f64]| v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    [min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys)]
}

/// Each closed `POLYLINE` of an R12 DXF as its bounding box in the page's
/// coordinates (y down from the top of a page `height` mm tall), and how
/// many of its vertices carry a quarter circle's bulge.
fn dxf_polylines(dxf: &str, height: f64) -> Vec<(Box4, usize)> {
    let lines: Vec<&str> = dxf.lines().collect();
    assert!(
        lines.len().is_multiple_of(2),
        "group codes and values pair up"
    );
    let pairs: Vec<(i32, &str)> = lines
        .chunks(2)
        .map(|p| (p[0].trim().parse().unwrap(), p[1].trim()))
        .collect();
    assert_eq!(pairs.last(), Some(&(0, "EOF")));
    let mut out = Vec::new();
    let mut current: Option<(Vec<f64>, Vec<f64>, usize, bool)> = None;
    let mut in_vertex = false;
    for &(code, value) in &pairs {
        match (code, value) {
            (0, "POLYLINE") => {
                current = Some((Vec::new(), Vec::new(), 0, false));
                in_vertex = false;
            }
            (0, "VERTEX") => in_vertex = true,
            (0, "SEQEND") => {
                let (xs, ys, bulges, closed) = current.take().expect("a POLYLINE first");
                assert!(closed, "every polyline is closed (70 = 1)");
                out.push((bbox(&xs, &ys), bulges));
                in_vertex = false;
            }
            (70, v) if !in_vertex => {
                if let Some(c) = current.as_mut() {
                    c.3 = v.parse::<i32>().unwrap() & 1 == 1;
                }
            }
            (10, v) if in_vertex => current.as_mut().unwrap().0.push(v.parse().unwrap()),
            (20, v) if in_vertex => current
                .as_mut()
                .unwrap()
                .1
                .push(height - v.parse::<f64>().unwrap()),
            (42, v) if in_vertex => {
                let b: f64 = v.parse().unwrap();
                assert!((b - (std::f64::consts::PI / 8.0).tan()).abs() < 1e-6, "{b}");
                current.as_mut().unwrap().2 += 1;
            }
            _ => {}
        }
    }
    out
}

/// Page `page` of `pdf` at 254 dpi: a pixel is 0.1 mm.
fn raster(pdf: &Path, page: usize, dir: &Path) -> Image {
    let base = dir.join(format!("page-{page}"));
    let n = page.to_string();
    tool(
        "pdftoppm",
        &[
            "-r",
            "254",
            "-f",
            &n,
            "-l",
            &n,
            "-png",
            "-singlefile",
            pdf.to_str().unwrap(),
            base.to_str().unwrap(),
        ],
    );
    Image::read(&base.with_extension("png")).unwrap()
}

/// Whether the pixel at (x, y) mm is dark.
fn dark(img: &Image, (x, y): (f64, f64)) -> bool {
    let (px, py) = ((x * 10.0) as usize, (y * 10.0) as usize);
    let i = (py * img.width as usize + px) * 4;
    img.rgba[i..i + 3].iter().all(|&c| c < 100)
}

/// How far from `from` (mm) along `step` (a unit vector) the first ink
/// lies, in mm.
fn ink_from(img: &Image, from: (f64, f64), step: (i64, i64)) -> f64 {
    let (mut x, mut y) = ((from.0 * 10.0) as i64, (from.1 * 10.0) as i64);
    for n in 0..3000 {
        let i = (y as usize * img.width as usize + x as usize) * 4;
        if img.rgba[i..i + 3].iter().any(|&c| c < 250) {
            return f64::from(n) / 10.0;
        }
        x += step.0;
        y += step.1;
    }
    panic!("no ink from {from:?} along {step:?}")
}

/// The pages of `pdf` whose text has a line reading `label`.
fn pages_labelled(pdf: &Path, pages: usize, label: &str) -> Vec<usize> {
    (1..=pages)
        .filter(|p| {
            let n = p.to_string();
            let text = tool(
                "pdftotext",
                &["-f", &n, "-l", &n, pdf.to_str().unwrap(), "-"],
            );
            text.lines().any(|l| l.trim() == label)
        })
        .collect()
}

fn page_count(pdf: &Path) -> usize {
    let info = tool("pdfinfo", &[pdf.to_str().unwrap()]);
    let line = info.lines().find(|l| l.starts_with("Pages:")).unwrap();
    line["Pages:".len()..].trim().parse().unwrap()
}

#[test]
fn a_silhouette_kit_of_intrepidos_on_letter_cuts_where_the_cards_print() {
    let ws = Workspace::shipped(&["intrepidos"]);
    let args = "export pdf intrepidos --paper letter --cutter silhouette";
    ws.run(args.split(' ')).succeeds();
    let dir = ws.path().join("build/intrepidos/pdf");
    let pdf = dir.join("intrepidos.pdf");
    let info = tool("pdfinfo", &[pdf.to_str().unwrap()]);
    assert!(info.contains("612 x 792 pts (letter)"), "{info}");

    // The cut file of the first card size (the heroes, tarot-sized): one
    // closed path per slot of the page, at the trim size, with the usual
    // 1/8 in corners, in a viewBox that is the page in mm.
    let svg = std::fs::read_to_string(dir.join("intrepidos.cut.svg")).unwrap();
    assert!(
        svg.contains("width=\"215.9mm\" height=\"279.4mm\" viewBox=\"0 0 215.9 279.4\""),
        "{svg}"
    );
    let paths = svg_paths(&svg);
    assert_eq!(paths.len(), 4, "2 × 2 tarot cards clear of the marks");
    for (b, radii) in &paths {
        assert!(
            (b[2] - 70.0).abs() < 1e-9 && (b[3] - 120.0).abs() < 1e-9,
            "{b:?}"
        );
        assert_eq!(radii, &[3.175; 4]);
    }
    // Silhouette Studio Basic imports DXF: the same cuts.
    let dxf = std::fs::read_to_string(dir.join("intrepidos.cut.dxf")).unwrap();
    let polylines = dxf_polylines(&dxf, LETTER.1);
    assert_eq!(polylines.len(), paths.len());
    for ((p, _), (d, bulges)) in paths.iter().zip(&polylines) {
        assert_eq!(*bulges, 4, "a quarter circle at each corner");
        for k in 0..4 {
            assert!((p[k] - d[k]).abs() < 1e-3, "svg {p:?} dxf {d:?}");
        }
    }
    // Every card size has its cut file.
    for n in 2..=4 {
        assert!(dir.join(format!("intrepidos.cut-{n}.svg")).is_file());
    }

    // The printed page the cut file is for carries its name.
    let faces = pages_labelled(&pdf, page_count(&pdf), "cut");
    assert!(!faces.is_empty(), "a faces page labelled `cut`");
    let page = raster(&pdf, faces[0], ws.path());
    let (pw, ph) = LETTER;
    // Silhouette's marks: the 5 mm square 10 mm in at the top-left, and an
    // L of 20 × 0.5 mm 10 mm in at the top-right and bottom-left corners.
    for at in [
        (12.5, 12.5),
        (pw - 20.0, 10.25),
        (pw - 10.25, 20.0),
        (20.0, ph - 10.25),
        (10.25, ph - 20.0),
    ] {
        assert!(dark(&page, at), "a mark at {at:?}");
    }
    for blank in [
        (16.0, 12.5),
        (pw - 20.0, 11.5),
        (pw - 11.5, 20.0),
        (pw - 20.0, ph - 10.25),
        (pw - 10.25, ph - 20.0),
    ] {
        assert!(!dark(&page, blank), "no mark at {blank:?}");
    }
    // Each card prints where its cut is: its bleed (3 mm) reaches exactly
    // 3 mm beyond the trim on every side no other card touches, and the
    // cards keep 2 mm clear of the marks' inner edge (10.5 mm in) and of
    // the square (15 mm in).
    let bleed = 3.0;
    let touches = |b: &Box4, side: usize| {
        paths.iter().any(|(o, _)| {
            let gap = match side {
                0 => b[0] - (o[0] + o[2]),
                1 => o[0] - (b[0] + b[2]),
                2 => b[1] - (o[1] + o[3]),
                _ => o[1] - (b[1] + b[3]),
            };
            !std::ptr::eq(o, b) && gap.abs() < 2.0 * bleed + 0.01
        })
    };
    for (b, _) in &paths {
        let (x0, y0, x1, y1) = (
            b[0] - bleed,
            b[1] - bleed,
            b[0] + b[2] + bleed,
            b[1] + b[3] + bleed,
        );
        assert!(x0 >= 17.0 - 1e-9 && y0 >= 12.5 - 1e-9, "{b:?}");
        assert!(x1 <= pw - 12.5 + 1e-9 && y1 <= ph - 12.5 + 1e-9, "{b:?}");
        let (mx, my) = (b[0] + b[2] / 2.0, b[1] + b[3] / 2.0);
        let sides = [
            (x0 - 2.0, my, (1, 0), 0),
            (x1 + 2.0, my, (-1, 0), 1),
            (mx, y0 - 2.0, (0, 1), 2),
            (mx, y1 + 2.0, (0, -1), 3),
        ];
        for (x, y, step, side) in sides {
            if touches(b, side) {
                continue;
            }
            let d = ink_from(&page, (x, y), step);
            assert!(
                (d - 2.0).abs() <= TOL,
                "card {b:?} side {side}: ink {d} mm from 2 mm outside its bleed"
            );
        }
    }
    if std::env::var_os("CARTA_BLESS").is_some() {
        let out = repo().join("docs/img/cutter-silhouette.png");
        let n = faces[0].to_string();
        let args = ["-f", &n, "-l", &n, "-r", "40", "-png", "-singlefile"];
        let out_base = out.with_extension("");
        tool(
            "pdftoppm",
            &[
                &args[..],
                &[pdf.to_str().unwrap(), out_base.to_str().unwrap()],
            ]
            .concat(),
        );
    }
}

#[test]
fn a_cutter_refuses_paper_its_workflow_does_not_take() {
    let ws = Workspace::shipped(&["intrepidos"]);
    ws.run([
        "print",
        "intrepidos",
        "--no-fit-check",
        "--paper",
        "a3",
        "--cutter",
        "cricut",
    ])
    .code(1)
    .stderr_has("sheets::cutter-paper")
    .stderr_has("the Cricut print-then-cut workflow takes Letter or A4 paper, not A3")
    .stderr_has("pass --paper letter or --paper a4");
    assert!(!ws.path().join("build/intrepidos/sheets").exists());
}

#[test]
fn cricut_and_scanncut_cut_inside_their_areas_and_print_no_dxf() {
    let ws = Workspace::shipped(&["intrepidos"]);
    for (cutter, max) in [("cricut", (171.45, 234.95)), ("scanncut", (195.9, 259.4))] {
        ws.run([
            "print",
            "intrepidos",
            "--no-fit-check",
            "--paper",
            "letter",
            "--cutter",
            cutter,
        ])
        .succeeds();
        let sheets = ws.path().join("build/intrepidos/sheets");
        let svg = std::fs::read_to_string(sheets.join("cut.svg")).unwrap();
        let paths = svg_paths(&svg);
        assert!(!paths.is_empty());
        let xs: Vec<f64> = paths
            .iter()
            .flat_map(|(b, _)| [b[0], b[0] + b[2]])
            .collect();
        let ys: Vec<f64> = paths
            .iter()
            .flat_map(|(b, _)| [b[1], b[1] + b[3]])
            .collect();
        let all = bbox(&xs, &ys);
        assert!(all[2] <= max.0 && all[3] <= max.1, "{cutter}: {all:?}");
        assert!(!sheets.join("cut.dxf").exists(), "{cutter} imports SVG");
        let html = std::fs::read_to_string(sheets.join("index.html")).unwrap();
        assert!(
            html.contains(">cut</text>"),
            "{cutter}: the cut file's name under the cards"
        );
    }
}

/// Each back box's `left` and `top` in mm on the sheets' backs pages.
fn back_boxes(html: &str) -> Vec<(f64, f64)> {
    html.split("<div class=\"carta-card carta-back")
        .skip(1)
        .map(|part| {
            let style = part.split("style=\"").nth(1).unwrap();
            let style = &style[..style.find('"').unwrap()];
            let get = |name: &str| -> f64 {
                let at = style.find(&format!("{name}:")).unwrap() + name.len() + 1;
                let rest = &style[at..];
                rest[..rest.find("mm").unwrap()].parse().unwrap()
            };
            (get("left"), get("top"))
        })
        .collect()
}

#[test]
fn a_back_offset_moves_every_back_by_it_mirrored_as_the_sheet_flips() {
    // The printer puts the backs 1.5 mm right and 1 mm up (seen from the
    // front): `--back-offset -1.5,1` moves them back. Flipped on the long
    // edge of a portrait page, the back's x runs the other way.
    let ws = Workspace::shipped(&["intrepidos"]);
    let print = |offset: Option<&str>, duplex: &str, to: &str| {
        let mut args = vec!["print", "intrepidos", "--no-fit-check", "--duplex", duplex];
        args.extend(["--out", to]);
        if let Some(o) = offset {
            args.extend(["--back-offset", o]);
        }
        ws.run(args).succeeds();
        back_boxes(&ws.read(&format!("{to}/intrepidos/sheets/index.html")))
    };
    for (duplex, want) in [("long", "1.5mm,1mm"), ("short", "-1.5mm,-1mm")] {
        let (plain, moved) = (
            print(None, duplex, "plain"),
            print(Some("-1.5,1"), duplex, "moved"),
        );
        assert!(!plain.is_empty());
        assert_eq!(plain, moved, "{duplex}: the boxes stay, their page moves");
        let html = ws.read("moved/intrepidos/sheets/index.html");
        let backs = html.matches("data-side=\"backs\"").count();
        let shifts = html
            .matches(&format!(
                "<div class=\"carta-shift\" style=\"transform:translate({want})\">"
            ))
            .count();
        assert!(backs > 0, "{duplex}: backs pages");
        assert_eq!(shifts, backs, "{duplex}: every backs page moved by {want}");
        let faces = ws.read("plain/intrepidos/sheets/index.html");
        assert!(
            !faces.contains("class=\"carta-shift\""),
            "no offset, no shift"
        );
    }
    // The printed PDF agrees: the backs page's first ink moves 1.5 mm right
    // and 1 mm down on the page itself.
    let pdf = |offset: &[&str], to: &str| {
        let mut args = vec!["export", "pdf", "intrepidos", "--out", to];
        args.extend(offset);
        ws.run(args).succeeds();
        ws.path().join(to).join("intrepidos/pdf/intrepidos.pdf")
    };
    let (plain, moved) = (
        pdf(&[], "plain-pdf"),
        pdf(&["--back-offset=-1.5,1"], "moved-pdf"),
    );
    // The sheets' HTML is the PDF's: its cover pages, then faces, backs, ….
    let html = ws.read("plain/intrepidos/sheets/index.html");
    let backs_page = html.matches("data-side=\"cover\"").count() + 2;
    assert!(page_count(&plain) >= backs_page);
    let (a, b) = (
        raster(&plain, backs_page, ws.path()),
        raster(&moved, backs_page, &ws.path().join("moved-pdf")),
    );
    let left = |img: &Image| ink_from(img, (0.0, 148.5), (1, 0));
    let top = |img: &Image| ink_from(img, (105.0, 0.0), (0, 1));
    let (l, t) = (left(&b) - left(&a), top(&b) - top(&a));
    assert!(
        (l - 1.5).abs() <= TOL && (t - 1.0).abs() <= TOL,
        "moved by {l}, {t} mm"
    );
}

#[test]
fn a_bad_back_offset_is_refused_with_its_form() {
    let ws = Workspace::shipped(&["intrepidos"]);
    ws.run(["print", "intrepidos", "--back-offset", "1.5"])
        .code(2)
        .stderr_has("use X,Y in mm, such as -1.5,0");
}

#[test]
fn bare_backs_print_no_guides_on_the_backs_pages() {
    let ws = Workspace::shipped(&["intrepidos"]);
    ws.run(["print", "intrepidos", "--no-fit-check", "--bare-backs"])
        .succeeds();
    let html = ws.read("build/intrepidos/sheets/index.html");
    for section in html.split("<section ").skip(1) {
        let marked = section.contains("carta-marks");
        if section.contains("data-side=\"backs\"") {
            assert!(!marked, "a backs page with guides");
        } else if section.contains("data-side=\"faces\"") {
            assert!(marked, "a faces page without guides");
        }
    }
}

#[test]
fn the_calibration_sheet_moves_its_back_crosses_by_the_offset() {
    let ws = Workspace::shipped(&["intrepidos"]);
    ws.run(["print", "--calibrate", "intrepidos", "--back-offset=-1.5,1"])
        .succeeds()
        .stderr_has("wrote 1 duplex calibration sheet");
    let html = ws.read("build/intrepidos/calibrate/index.html");
    let first_line = |side: &str| -> (f64, f64) {
        let at = html.find(&format!("data-side=\"{side}\"")).unwrap();
        let line = &html[at..];
        let line = &line[line.find("<line ").unwrap()..];
        let attr = |name: &str| -> f64 {
            let s = &line[line.find(&format!("{name}=\"")).unwrap() + name.len() + 2..];
            s[..s.find('"').unwrap()].parse().unwrap()
        };
        (attr("x1"), attr("y1"))
    };
    let (front, back) = (first_line("faces"), first_line("backs"));
    // A4 portrait, long edge: seen from the front −1.5 mm is +1.5 on the back.
    assert!((back.0 - front.0 - 1.5).abs() < 1e-9, "{front:?} {back:?}");
    assert!((back.1 - front.1 - 1.0).abs() < 1e-9, "{front:?} {back:?}");
    assert!(html.contains("--back-offset -X,-Y"));
    if std::env::var_os("CARTA_BLESS").is_some() {
        let page = ws.path().join("build/intrepidos/calibrate/index.html");
        screenshot_html(&page, 1, "calibrate-front");
    }
}
