//! Spreadsheet card files: files written by real spreadsheet programs
//! (tests/fixtures/spreadsheets/, see make.py there for what wrote each)
//! check as the TOML they replace, diagnostics land on cells, and
//! `carta convert` moves every shipped game to XLSX and back unchanged.

use std::fs;
use std::path::Path;

use serde_json::Value;

use crate::harness::{Workspace, repo};

const GAMES: [&str; 5] = ["covil", "exodo", "intrepidos", "kingdoms", "zodiacos"];

fn fixture(name: &str) -> Vec<u8> {
    fs::read(repo().join("tests/fixtures/spreadsheets").join(name)).unwrap()
}

/// The `[[card]]` tables of a TOML text, as JSON.
pub(crate) fn cards_of(text: &str) -> Vec<Value> {
    let doc: serde_json::Map<String, Value> = toml::from_str(text).unwrap();
    match doc.get("card") {
        Some(Value::Array(cards)) => cards.clone(),
        _ => Vec::new(),
    }
}

/// Every card of a game's TOML card files, in the order carta reads them.
pub(crate) fn game_cards(root: &Path, game: &str) -> Vec<Value> {
    let mut files = Vec::new();
    collect(&root.join("cards").join(game), &mut files);
    files.sort();
    files
        .iter()
        .flat_map(|f| cards_of(&fs::read_to_string(f).unwrap()))
        .collect()
}

/// The card files under `dir` (not `game.toml`, decks or translations).
fn collect(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if path.is_dir() && name != "decks" && name != "i18n" {
            collect(&path, out);
        } else if path.extension().is_some_and(|e| e == "toml") && name != "game.toml" {
            out.push(path);
        }
    }
}

#[test]
fn sheets_written_by_excel_google_libreoffice_and_openpyxl_check_as_the_toml_they_replace() {
    let original =
        cards_of(&fs::read_to_string(repo().join("cards/intrepidos/itens/pocoes.toml")).unwrap());
    // make.py typed one effect over two lines of its cell.
    let mut expected = original.clone();
    let effect = expected[0]["effect"]
        .as_str()
        .unwrap()
        .replacen(": ", ":\n", 1);
    expected[0]["effect"] = Value::String(effect);
    for name in [
        "pocoes-excel.csv",
        "pocoes-google.csv",
        "pocoes-openpyxl.xlsx",
        "pocoes-libreoffice.xlsx",
        "pocoes-libreoffice.ods",
    ] {
        let ws = Workspace::shipped(&["intrepidos"]);
        fs::remove_file(ws.path().join("cards/intrepidos/itens/pocoes.toml")).unwrap();
        let rel = format!("cards/intrepidos/itens/{name}");
        ws.write(&rel, fixture(name));
        let run = ws.run(["check", "intrepidos"]).succeeds();
        // The two-line effect is newer than its translations: the check
        // found the cards (and their translations by id).
        assert!(run.stderr.contains("i18n::stale"), "{name}: {}", run.stderr);
        assert!(run.stderr.contains("76 cards"), "{name}: {}", run.stderr);
        ws.run(["convert", &rel, "--to", "toml", "-o", "back.toml"])
            .succeeds();
        assert_eq!(cards_of(&ws.read("back.toml")), expected, "{name}");
        // A deck file still completes the ids of sheet cards.
        let deck = ws.read("schemas/carta/editor/intrepidos.deck.json");
        assert!(deck.contains("\"pocao-de-cura\""), "{name}");
    }
}

#[test]
fn every_shipped_game_goes_to_xlsx_and_back_with_every_card_unchanged() {
    for game in GAMES {
        let ws = Workspace::shipped(&[game]);
        let before = game_cards(ws.path(), game);
        assert!(!before.is_empty(), "{game}");
        ws.run(["convert", &format!("cards/{game}"), "--to", "xlsx"])
            .succeeds();
        let book = fs::read(ws.path().join(format!("{game}.xlsx"))).unwrap();
        // The game again, its cards from the workbook alone.
        let mut files = Vec::new();
        collect(&ws.path().join("cards").join(game), &mut files);
        for f in files {
            fs::remove_file(f).unwrap();
        }
        let rel = format!("cards/{game}/{game}.xlsx");
        ws.write(&rel, &book);
        let run = ws.run(["check", game]);
        assert_eq!(run.code, Some(0), "{game}: {}", run.stderr);
        ws.run(["convert", &rel, "--to", "toml", "-o", "back.toml"])
            .succeeds();
        let after = cards_of(&ws.read("back.toml"));
        assert_eq!(after.len(), before.len(), "{game}");
        // Cards in their order, every field equal (a card's fields come
        // back in the order of the sheet's columns).
        for (a, b) in before.iter().zip(&after) {
            assert_eq!(a["id"], b["id"], "{game}: the cards' order changed");
            assert_eq!(a, b, "{game}: a card changed");
        }
    }
}

#[test]
fn a_csv_of_the_same_game_converts_back_unchanged_and_the_same_bytes_twice() {
    let ws = Workspace::shipped(&["intrepidos"]);
    let before = game_cards(ws.path(), "intrepidos");
    ws.run(["convert", "cards/intrepidos", "--to", "csv"])
        .succeeds();
    ws.run([
        "convert",
        "cards/intrepidos",
        "--to",
        "xlsx",
        "-o",
        "a.xlsx",
    ])
    .succeeds();
    ws.run([
        "convert",
        "cards/intrepidos",
        "--to",
        "xlsx",
        "-o",
        "b.xlsx",
    ])
    .succeeds();
    assert_eq!(
        fs::read(ws.path().join("a.xlsx")).unwrap(),
        fs::read(ws.path().join("b.xlsx")).unwrap(),
        "a workbook is a function of the cards"
    );
    let csv = fs::read(ws.path().join("intrepidos.csv")).unwrap();
    let mut files = Vec::new();
    collect(&ws.path().join("cards/intrepidos"), &mut files);
    for f in files {
        fs::remove_file(f).unwrap();
    }
    ws.write("cards/intrepidos/cartas.csv", &csv);
    ws.run(["check", "intrepidos"]).succeeds();
    ws.run(["convert", "cards/intrepidos/cartas.csv", "--to", "toml"])
        .succeeds();
    assert_eq!(cards_of(&ws.read("cards/intrepidos/cartas.toml")), before);
}

#[test]
fn conversion_never_replaces_a_file_without_force() {
    let ws = Workspace::shipped(&["intrepidos"]);
    ws.write("intrepidos.xlsx", "mine");
    let run = ws
        .run(["convert", "cards/intrepidos", "--to", "xlsx"])
        .code(1);
    assert!(run.stderr.contains("convert::exists"), "{}", run.stderr);
    assert_eq!(ws.read("intrepidos.xlsx"), "mine");
    ws.run(["convert", "cards/intrepidos", "--to", "xlsx", "--force"])
        .succeeds();
    assert_ne!(
        fs::read(ws.path().join("intrepidos.xlsx")).unwrap(),
        b"mine"
    );
    let run = ws
        .run([
            "convert",
            "cards/intrepidos",
            "--to",
            "csv",
            "-o",
            "../out.csv",
        ])
        .code(1);
    assert!(run.stderr.contains("convert::path"), "{}", run.stderr);
    assert!(!ws.path().join("../out.csv").exists());
}

#[test]
fn json_diagnostics_name_the_sheet_file_row_column_and_cell() {
    let ws = Workspace::shipped(&["intrepidos"]);
    fs::remove_file(ws.path().join("cards/intrepidos/itens/pocoes.toml")).unwrap();
    ws.write(
        "cards/intrepidos/itens/pocoes.csv",
        "id,kind,name,class,min_level,effect,cor\r\n\
         pocao-a,potion,A,Cura,1,Cura.,\r\n\
         pocao-b,potion,B,cura,12abc,Cura.,\r\n\
         pocao-c,potion,C,Caótico e Mau,1,Cura.,azul\r\n",
    );
    let run = ws
        .run(["--message-format", "json", "check", "intrepidos"])
        .code(1);
    let found = run.json();
    let at = |code: &str| {
        found
            .iter()
            .find(|d| d["code"] == code && d["file"] == "cards/intrepidos/itens/pocoes.csv")
            .unwrap_or_else(|| panic!("no {code} in {}", run.stdout))
            .clone()
    };
    let bad_type = at("schema::type");
    assert_eq!(bad_type["cell"], "E3");
    assert_eq!(
        (bad_type["line"].as_u64(), bad_type["column"].as_u64()),
        (Some(3), Some(5))
    );
    assert!(
        bad_type.get("sheet").is_none(),
        "a CSV file has no sheet name"
    );
    assert_eq!(at("schema::enum")["cell"], "D4");
    // An unknown column is reported at its header.
    assert_eq!(at("schema::unknown-field")["cell"], "G1");
}

#[test]
fn a_workbook_that_unpacks_past_the_limit_is_refused_at_the_file() {
    let ws = Workspace::shipped(&["intrepidos"]);
    ws.write("cards/intrepidos/bomb.xlsx", fixture("bomb.xlsx"));
    let run = ws.run(["check", "intrepidos"]).code(1);
    assert!(run.stderr.contains("sheet::too-large"), "{}", run.stderr);
    assert!(
        run.stderr.contains("cards/intrepidos/bomb.xlsx"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_sheet_comes_from_the_check_cache_until_a_cell_changes() {
    let ws = Workspace::shipped(&["intrepidos"]);
    fs::remove_file(ws.path().join("cards/intrepidos/itens/pocoes.toml")).unwrap();
    let rel = "cards/intrepidos/itens/pocoes.csv";
    ws.write(rel, fixture("pocoes-google.csv"));
    let mut toml_files = Vec::new();
    collect(&ws.path().join("cards/intrepidos"), &mut toml_files);
    let all = toml_files.len() + 1;
    ws.run(["check", "intrepidos"]).succeeds();
    let again = ws.run(["check", "intrepidos"]).succeeds();
    assert!(
        again
            .stderr
            .contains(&format!("({all} unchanged card files")),
        "{}",
        again.stderr
    );
    let csv = ws.read(rel).replacen(",cura,1,", ",cura,2,", 1);
    ws.write(rel, csv);
    let changed = ws.run(["check", "intrepidos"]).succeeds();
    assert!(
        changed
            .stderr
            .contains(&format!("({} unchanged card files", all - 1)),
        "{}",
        changed.stderr
    );
}

#[test]
fn a_game_with_a_sheet_builds_its_bundle_and_print_sheets() {
    let ws = Workspace::shipped(&["intrepidos"]);
    fs::remove_file(ws.path().join("cards/intrepidos/itens/pocoes.toml")).unwrap();
    ws.write(
        "cards/intrepidos/itens/pocoes.xlsx",
        fixture("pocoes-openpyxl.xlsx"),
    );
    ws.run(["build", "intrepidos"]).succeeds();
    let sheets = ws.read("build/intrepidos/sheets/index.html");
    assert!(
        sheets.contains("Poção de Cura"),
        "the sheet's card is printed"
    );
    let run = ws
        .run(["decompile", "build/intrepidos/intrepidos.carta"])
        .succeeds();
    let bundle: Value = serde_json::from_str(&run.stdout).unwrap();
    let card = bundle["cards"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == "tonico-de-forca")
        .expect("a potion of the workbook is in the bundle");
    // The workbook says `Força`, the label; the bundle holds the value.
    assert_eq!(card["class"], "forca");
}

#[test]
fn a_sheet_of_many_cards_is_read_in_slices_and_still_points_at_the_cell() {
    let ws = Workspace::shipped(&["intrepidos"]);
    let mut csv = String::from("id,kind,name,class,min_level,effect\n");
    for i in 0..1_200 {
        let level = if i == 1_100 { "x" } else { "1" };
        csv.push_str(&format!("pocao-{i},potion,Poção {i},cura,{level},Cura.\n"));
    }
    ws.write("cards/intrepidos/muitas.csv", csv);
    let run = ws
        .run(["--message-format", "json", "check", "intrepidos"])
        .code(1);
    let found = run.json();
    let bad: Vec<&Value> = found.iter().filter(|d| d["severity"] == "error").collect();
    assert_eq!(bad.len(), 1, "{}", run.stdout);
    assert_eq!(bad[0]["cell"], "E1102");
    assert_eq!(bad[0]["line"], 1_102);
}

/// The errors `carta check intrepidos` reports in file `rel`, as JSON (its
/// new cards' missing translations are only warnings).
fn diagnostics_in(ws: &Workspace, rel: &str) -> Vec<Value> {
    let run = ws.run(["--message-format", "json", "check", "intrepidos"]);
    run.json()
        .into_iter()
        .filter(|d| d["file"] == rel && d["severity"] == "error")
        .collect()
}

/// Gives kind `potion` of the shipped intrépidos the `sheets` named.
fn potion_sheets(ws: &Workspace, sheets: &str) {
    let game = ws.read("cards/intrepidos/game.toml");
    ws.write(
        "cards/intrepidos/game.toml",
        game.replacen(
            "[kinds.potion]\n",
            &format!("[kinds.potion]\nsheets = {sheets}\n"),
            1,
        ),
    );
}

#[test]
fn a_sheet_the_manifest_gives_a_kind_needs_no_kind_column() {
    let ws = Workspace::shipped(&["intrepidos"]);
    fs::remove_file(ws.path().join("cards/intrepidos/itens/pocoes.toml")).unwrap();
    let rows = "id,name,class,min_level,effect\n\
                pocao-a,A,cura,1,Cura.\n\
                pocao-b,B,cura,x,Cura.\n";
    ws.write("cards/intrepidos/itens/pocoes.csv", rows);
    let rel = "cards/intrepidos/itens/pocoes.csv";
    // Without the mapping, every row lacks its kind.
    let found = diagnostics_in(&ws, rel);
    assert!(found.iter().any(|d| d["cell"] == "A2"), "{found:?}");
    potion_sheets(&ws, "[\"itens/pocoes.csv\"]");
    let found = diagnostics_in(&ws, rel);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0]["code"], "schema::type", "typed as a potion");
    assert_eq!(found[0]["cell"], "D3");
    ws.write(rel, rows.replace(",x,", ",2,"));
    assert_eq!(diagnostics_in(&ws, rel), Vec::<Value>::new());
}

#[test]
fn one_sheet_of_a_workbook_may_be_given_a_kind_and_a_kind_cell_still_wins() {
    let ws = Workspace::shipped(&["intrepidos"]);
    fs::remove_file(ws.path().join("cards/intrepidos/itens/pocoes.toml")).unwrap();
    let mut book = rust_xlsxwriter::Workbook::new();
    let given = book.add_worksheet().set_name("Poções").unwrap();
    for (c, h) in ["id", "name", "class", "min_level", "effect"]
        .iter()
        .enumerate()
    {
        given.write(0, u16::try_from(c).unwrap(), *h).unwrap();
    }
    given.write_row(1, 0, ["pocao-a", "A", "cura"]).unwrap();
    given.write(1, 3, 1).unwrap();
    given.write(1, 4, "Cura.").unwrap();
    // The other sheet has a `kind` column, and no mapping: its rows name theirs.
    let own = book.add_worksheet().set_name("Outras").unwrap();
    own.write_row(0, 0, ["id", "kind", "name", "class", "min_level", "effect"])
        .unwrap();
    own.write_row(1, 0, ["pocao-b", "potion", "B", "cura"])
        .unwrap();
    own.write(1, 4, 2).unwrap();
    own.write(1, 5, "Cura.").unwrap();
    ws.write(
        "cards/intrepidos/itens/livro.xlsx",
        book.save_to_buffer().unwrap(),
    );
    let rel = "cards/intrepidos/itens/livro.xlsx";
    assert!(
        !diagnostics_in(&ws, rel).is_empty(),
        "a sheet without kinds"
    );
    potion_sheets(&ws, "[\"itens/livro.xlsx#Poções\"]");
    assert_eq!(diagnostics_in(&ws, rel), Vec::<Value>::new());
    // The whole file given to another kind: the sheet's own mapping wins
    // for its rows, and the `kind` cells of the other sheet win too.
    let game = ws.read("cards/intrepidos/game.toml");
    ws.write(
        "cards/intrepidos/game.toml",
        game.replacen(
            "[kinds.action]\n",
            "[kinds.action]\nsheets = [\"itens/livro.xlsx\"]\n",
            1,
        ),
    );
    assert_eq!(diagnostics_in(&ws, rel), Vec::<Value>::new());
}

#[test]
fn a_sheet_given_to_two_kinds_is_an_error_at_both() {
    let ws = Workspace::shipped(&["intrepidos"]);
    let game = ws.read("cards/intrepidos/game.toml");
    ws.write(
        "cards/intrepidos/game.toml",
        game.replacen(
            "[kinds.potion]\n",
            "[kinds.potion]\nsheets = [\"x.csv\"]\n",
            1,
        )
        .replacen(
            "[kinds.action]\n",
            "[kinds.action]\nsheets = [\"x.csv\"]\n",
            1,
        ),
    );
    let run = ws.run(["check", "intrepidos"]).code(1);
    assert!(
        run.stderr.contains("manifest::sheet-kind"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("first named here"), "{}", run.stderr);
}

#[test]
fn convert_reads_its_path_from_the_current_directory_as_every_command_does() {
    let ws = Workspace::shipped(&["intrepidos"]);
    let root = ws.path().to_str().unwrap().to_owned();
    let parent = ws.path().parent().unwrap();
    let name = ws.path().file_name().unwrap().to_str().unwrap().to_owned();
    let from_parent = format!("{name}/cards/intrepidos/itens/pocoes.toml");
    crate::harness::run_in(
        parent,
        ["-C", &root, "convert", &from_parent, "--to", "csv"],
    )
    .code(0);
    assert!(
        ws.path()
            .join("cards/intrepidos/itens/pocoes.csv")
            .is_file()
    );
    // A path under `-C`'s folder but not under the current one is not it.
    let run = crate::harness::run_in(
        parent,
        [
            "-C",
            &root,
            "convert",
            "cards/intrepidos/itens/pocoes.toml",
            "--to",
            "xlsx",
        ],
    );
    assert_ne!(run.code, Some(0), "{}", run.stderr);
    assert!(
        !ws.path()
            .join("cards/intrepidos/itens/pocoes.xlsx")
            .exists()
    );
}

/// A workbook of one sheet `Cartas` as a script such as openpyxl writes
/// it: text as inline strings, and a cell starting with `=` as a formula
/// with no stored value (`<f>` without `<v>`), which only a spreadsheet
/// program would compute.
fn scripted_xlsx(rows: &[&[&str]]) -> Vec<u8> {
    use std::io::Write as _;
    let esc = |s: &str| {
        s.replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;")
    };
    let mut sheet = String::from(
        r#"<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>"#,
    );
    for (r, row) in rows.iter().enumerate() {
        sheet.push_str(&format!(r#"<row r="{}">"#, r + 1));
        for (c, value) in row.iter().enumerate() {
            let at = format!("{}{}", char::from(b'A' + u8::try_from(c).unwrap()), r + 1);
            match value.strip_prefix('=') {
                Some(f) => sheet.push_str(&format!(r#"<c r="{at}"><f>{}</f></c>"#, esc(f))),
                None if value.is_empty() => {}
                None => sheet.push_str(&format!(
                    r#"<c r="{at}" t="inlineStr"><is><t>{}</t></is></c>"#,
                    esc(value)
                )),
            }
        }
        sheet.push_str("</row>");
    }
    sheet.push_str("</sheetData></worksheet>");
    let parts = [
        (
            "[Content_Types].xml",
            r#"<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>"#.to_owned(),
        ),
        (
            "_rels/.rels",
            r#"<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>"#.to_owned(),
        ),
        (
            "xl/workbook.xml",
            r#"<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Cartas" sheetId="1" r:id="rId1"/></sheets></workbook>"#.to_owned(),
        ),
        (
            "xl/_rels/workbook.xml.rels",
            r#"<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>"#.to_owned(),
        ),
        ("xl/worksheets/sheet1.xml", sheet),
    ];
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let stored =
        zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored);
    for (name, text) in parts {
        zip.start_file(name, stored).unwrap();
        zip.write_all(text.as_bytes()).unwrap();
    }
    zip.finish().unwrap().into_inner()
}

#[test]
fn a_formula_without_a_stored_value_is_an_error_at_its_cell_not_an_empty_cell() {
    let ws = Workspace::shipped(&["intrepidos"]);
    fs::remove_file(ws.path().join("cards/intrepidos/itens/pocoes.toml")).unwrap();
    let rel = "cards/intrepidos/itens/pocoes.xlsx";
    ws.write(
        rel,
        scripted_xlsx(&[
            &[
                "id",
                "kind",
                "name",
                "copies",
                "class",
                "min_level",
                "effect",
            ],
            &["pocao-a", "potion", "A", "=1+2", "cura", "1", "Cura."],
            &[
                "pocao-b",
                "potion",
                "B",
                "2",
                "cura",
                "1",
                "=\"Cura \"&\"tudo.\"",
            ],
        ]),
    );
    let found = diagnostics_in(&ws, rel);
    let cells: Vec<(&str, &str)> = found
        .iter()
        .map(|d| (d["code"].as_str().unwrap(), d["cell"].as_str().unwrap()))
        .collect();
    // One error a cell: neither "copies must be an integer" for the text
    // of the formula, nor a missing `effect`.
    assert_eq!(
        cells,
        [("sheet::formula", "D2"), ("sheet::formula", "G3")],
        "{found:#?}"
    );
    assert_eq!(found[0]["sheet"], "Cartas");
    assert!(
        found[0]["message"].as_str().unwrap().contains("=1+2"),
        "{found:#?}"
    );
    assert!(
        found[0]["help"].as_str().unwrap().contains("openpyxl"),
        "{found:#?}"
    );
}

#[test]
fn a_sheet_converted_to_toml_beside_itself_is_said_to_be_read_twice_until_one_goes() {
    let ws = Workspace::shipped(&["intrepidos"]);
    let toml = "cards/intrepidos/itens/pocoes.toml";
    ws.run(["convert", toml, "--to", "csv"]).code(0);
    fs::remove_file(ws.path().join(toml)).unwrap();
    let sheet = "cards/intrepidos/itens/pocoes.csv";
    let run = ws.run(["convert", sheet, "--to", "toml"]).code(0);
    assert!(
        run.stderr.contains(&format!(
            "`{sheet}` is still there, and both are card files of `intrepidos`"
        )),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("duplicate ids"), "{}", run.stderr);
    // What it warns of: until one goes, each potion is defined twice.
    let check = ws.run(["check", "intrepidos"]).code(1);
    assert!(
        check.stderr.contains("link::duplicate-id"),
        "{}",
        check.stderr
    );
    // A whole game's workbook lands outside `cards/`: nothing read twice.
    fs::remove_file(ws.path().join(sheet)).unwrap();
    let game = ws
        .run(["convert", "cards/intrepidos", "--to", "xlsx"])
        .code(0);
    assert!(!game.stderr.contains("still there"), "{}", game.stderr);
}

#[test]
fn a_date_cell_in_a_number_column_is_one_error_at_the_cell() {
    let ws = Workspace::shipped(&["intrepidos"]);
    fs::remove_file(ws.path().join("cards/intrepidos/itens/pocoes.toml")).unwrap();
    let mut book = rust_xlsxwriter::Workbook::new();
    let sheet = book.add_worksheet().set_name("Cartas").unwrap();
    sheet
        .write_row(0, 0, ["id", "kind", "name", "class", "min_level", "effect"])
        .unwrap();
    sheet
        .write_row(1, 0, ["pocao-a", "potion", "A", "cura"])
        .unwrap();
    // `3-4` typed into a cell the program took for the 4th of March.
    let date = rust_xlsxwriter::ExcelDateTime::from_ymd(2026, 3, 4).unwrap();
    let format = rust_xlsxwriter::Format::new().set_num_format("yyyy-mm-dd");
    sheet
        .write_datetime_with_format(1, 4, &date, &format)
        .unwrap();
    sheet.write(1, 5, "Cura.").unwrap();
    let rel = "cards/intrepidos/itens/pocoes.xlsx";
    ws.write(rel, book.save_to_buffer().unwrap());
    let found = diagnostics_in(&ws, rel);
    let codes: Vec<(&str, &str)> = found
        .iter()
        .map(|d| (d["code"].as_str().unwrap(), d["cell"].as_str().unwrap()))
        .collect();
    // Not also "`min_level` must be an integer, but it is the string …".
    assert_eq!(codes, [("sheet::date", "E2")], "{found:#?}");
}

#[test]
fn a_kind_s_sheets_naming_no_spreadsheet_is_an_error_at_the_manifest_line() {
    let ws = Workspace::shipped(&["intrepidos"]);
    let toml = "cards/intrepidos/itens/pocoes.toml";
    ws.run(["convert", toml, "--to", "xlsx", "-o", "p.xlsx"])
        .code(0);
    potion_sheets(&ws, "[\"itens/pocoes.xlsx\"]");
    let run = ws
        .run(["--message-format", "json", "check", "intrepidos"])
        .code(1);
    let found: Vec<Value> = run
        .json()
        .into_iter()
        .filter(|d| d["code"] == "manifest::sheet-missing")
        .collect();
    assert_eq!(found.len(), 1, "{}", run.stdout);
    assert_eq!(found[0]["file"], "cards/intrepidos/game.toml");
    let line = ws
        .read("cards/intrepidos/game.toml")
        .lines()
        .position(|l| l.starts_with("sheets = [\"itens/pocoes.xlsx\"]"))
        .unwrap();
    assert_eq!(found[0]["line"].as_u64(), Some(line as u64 + 1));
    // Once the file is there, the manifest names it.
    fs::rename(
        ws.path().join("p.xlsx"),
        ws.path().join("cards/intrepidos/itens/pocoes.xlsx"),
    )
    .unwrap();
    fs::remove_file(ws.path().join(toml)).unwrap();
    ws.run(["check", "intrepidos"]).code(0);
}
