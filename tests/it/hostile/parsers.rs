//! Parsers cannot crash or crawl: partial cycles, broken PO files, huge syntax-error files, hostile bundles, bidi controls and malformed integers.

use std::process::{Command, Stdio};

use super::{json, json_env, with_code};
use crate::harness::{Workspace, run_with};
use crate::sheets::{card, mini};

// ---- Memory: a file's problems cost the cap, not their number (row 12) ----

/// The peak resident memory, in bytes, of `carta check --no-cache` in `ws`
/// (`wait4` gives the rusage of that one child, whatever else the tests
/// run at the same time).
fn peak_check_bytes(ws: &Workspace) -> u64 {
    peak_check_bytes_in(ws.path())
}

/// [`peak_check_bytes`] in the workspace at `root`.
#[expect(clippy::zombie_processes, reason = "reaped by `wait4`, for its rusage")]
fn peak_check_bytes_in(root: &std::path::Path) -> u64 {
    let child = Command::new(env!("CARGO_BIN_EXE_carta"))
        .args(["check", "--no-cache"])
        .current_dir(root)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let pid = libc::pid_t::try_from(child.id()).unwrap();
    let mut status = 0;
    // SAFETY: an all-zero `rusage` is a valid value of the plain C struct.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: `pid` is our child, not yet reaped; both pointers are live.
    let reaped = unsafe { libc::wait4(pid, &raw mut status, 0, &raw mut usage) };
    assert_eq!(reaped, pid);
    assert!(libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 1);
    u64::try_from(usage.ru_maxrss).unwrap() * 1024
}

#[test]
fn two_megabytes_of_syntax_errors_keep_the_cap_and_count_the_rest() {
    let ws = mini(&card("a", ""));
    let junk = "= = =\n".repeat(333_333);
    ws.write("cards/mini/junk.toml", &junk);
    let run = json(&ws, &["check", "--no-cache"]);
    assert_eq!(run.code, Some(1));
    let all = run.json();
    let junk_errors = all
        .iter()
        .filter(|d| d["file"] == "cards/mini/junk.toml" && d["severity"] == "error")
        .count();
    assert_eq!(junk_errors, 200);
    let note = &with_code(&run, "diag::truncated")[0];
    // Three errors a line: the empty key, the stray `=` and what follows.
    assert_eq!(
        note["message"],
        format!("and {} more diagnostics in this file", 999_999 - 200)
    );
    let human = ws.run(["check", "--no-cache"]).fails();
    assert!(
        human.stderr.contains(": 999999 errors, "),
        "the summary counts every error: {}",
        &human.stderr[human.stderr.len().saturating_sub(300)..]
    );
}

#[test]
fn memory_per_byte_of_a_syntax_error_file_is_a_small_constant() {
    let ws = mini(&card("a", ""));
    ws.write("cards/mini/junk.toml", "= = =\n");
    let base = peak_check_bytes(&ws);
    let junk = "= = =\n".repeat(333_333);
    ws.write("cards/mini/junk.toml", &junk);
    let peak = peak_check_bytes(&ws);
    let per_byte = peak.saturating_sub(base) / junk.len() as u64;
    // Before, every error was kept twice over (`toml`'s and carta's): some
    // 320 bytes a byte of input. The parser's own tokens and events cost
    // about 50.
    assert!(per_byte < 120, "{per_byte} bytes of memory a byte of input");
}

#[test]
fn a_file_of_thousands_of_broken_cards_keeps_the_cap_and_counts_the_rest() {
    let cards: String = (0..3_000)
        .map(|i| card(&format!("c{i}"), "bogus = 1"))
        .collect();
    let ws = mini(&cards);
    let run = json(&ws, &["check", "--no-cache"]);
    let all = run.json();
    let shown: Vec<_> = all.iter().filter(|d| d["severity"] == "error").collect();
    assert_eq!(shown.len(), 200);
    assert!(shown.iter().all(|d| d["code"] == "schema::unknown-field"));
    // The first 200 by position, in order.
    assert_eq!(shown[0]["line"], 5);
    assert_eq!(shown[199]["line"], 5 + 199 * 5);
    assert_eq!(
        with_code(&run, "diag::truncated")[0]["message"],
        "and 2800 more diagnostics in this file"
    );
    ws.run(["check"]).fails().stderr_has(": 3000 errors, ");
    // Twice: the second run repeats the verdict from the check cache.
    ws.run(["check"]).fails().stderr_has(": 3000 errors, ");
}

#[test]
fn a_deck_of_thousands_of_unknown_ids_keeps_the_cap_and_counts_the_rest() {
    let ws = mini(&card("a", ""));
    let lines: String = (0..3_000).map(|i| format!("nope-{i} = 1\n")).collect();
    ws.write(
        "cards/mini/decks/d.toml",
        format!("game = \"mini\"\nname = \"D\"\n\n[main]\n{lines}"),
    );
    let run = json(&ws, &["deck", "check", "cards/mini/decks/d.toml"]);
    assert_eq!(run.code, Some(1), "{}", run.stdout);
    let all = run.json();
    let shown: Vec<_> = all.iter().filter(|d| d["severity"] == "error").collect();
    assert_eq!(shown.len(), 200);
    assert_eq!(
        (shown[0]["line"].as_u64(), shown[199]["line"].as_u64()),
        (Some(5), Some(204))
    );
    assert_eq!(
        with_code(&run, "diag::truncated")[0]["message"],
        "and 2800 more diagnostics in this file"
    );
    ws.run(["deck", "check", "cards/mini/decks/d.toml"])
        .fails()
        .stderr_has(": 3000 errors, ");
}

#[test]
fn a_translation_file_of_thousands_of_broken_entries_keeps_the_cap() {
    let ws = mini(&card("a", ""));
    let game = ws.read("cards/mini/game.toml").replacen(
        "language = \"pt-BR\"\n",
        "language = \"pt-BR\"\ntranslations = [\"en\"]\n",
        1,
    );
    ws.write("cards/mini/game.toml", game);
    let lines: String = (0..3_000).map(|i| format!("p{i} = 1\n")).collect();
    ws.write("cards/mini/i18n/en.toml", format!("[phrases]\n{lines}"));
    let run = json(&ws, &["check", "--no-cache"]);
    assert_eq!(run.code, Some(1), "{}", run.stdout);
    // The file's diagnostics stop at the cap: its 3,000 malformed entries
    // and the one warning of carta's captions it lacks share 200 places.
    let kept: Vec<_> = run
        .json()
        .into_iter()
        .filter(|d| d["file"] == "cards/mini/i18n/en.toml" && d["code"] != "diag::truncated")
        .collect();
    assert_eq!(kept.len(), 200);
    let malformed = kept
        .iter()
        .filter(|d| d["code"] == "i18n::malformed")
        .count();
    assert!(malformed >= 199, "{malformed}");
    let note = &with_code(&run, "diag::truncated")[0];
    assert_eq!(note["file"], "cards/mini/i18n/en.toml");
    ws.run(["check", "--no-cache"])
        .fails()
        .stderr_has(": 3000 errors, ");
}

// ---- Bundles: decompile streams, and refuses an amplification bomb (row 13) ----

/// A mini game whose card holds `n` NUL characters: a bundle of a few
/// kilobytes whose JSON writes six bytes a NUL.
fn nul_bundle(n: usize) -> Workspace {
    let ws = mini(&card("a", &format!("text = \"{}\"", "\\u0000".repeat(n))));
    ws.run(["build"]).succeeds();
    ws
}

#[test]
fn decompile_refuses_json_past_the_limit_before_writing_any() {
    let ws = nul_bundle(200_000);
    let size = std::fs::metadata(ws.path().join("build/mini/mini.carta"))
        .unwrap()
        .len();
    assert!(size < 20_000, "{size} bytes");
    let args = ["decompile", "build/mini/mini.carta"];
    let env = [("CARTA_MAX_DECOMPILE_BYTES", "1000000")];
    let human = run_with(ws.path(), args, &env);
    assert_eq!(human.code, Some(1), "{}", human.stderr);
    assert!(human.stdout.is_empty(), "nothing written");
    assert!(
        human.stderr.contains("more than 1000000 bytes of JSON"),
        "{}",
        human.stderr
    );
    let j = json_env(&ws, &args, &env);
    assert_eq!(j.code, Some(1));
    assert_eq!(j.json().len(), 1);
    with_code(&j, "bundle::too-large");
    let bad = json_env(&ws, &args, &[("CARTA_MAX_DECOMPILE_BYTES", "lots")]);
    assert_eq!(bad.code, Some(2));
    with_code(&bad, "load::limit");
}

#[test]
fn decompile_within_the_limit_streams_the_whole_bundle() {
    let ws = nul_bundle(200_000);
    let run = ws.run(["decompile", "build/mini/mini.carta"]).succeeds();
    assert!(run.stdout.len() > 1_200_000, "{}", run.stdout.len());
    assert!(run.stdout.ends_with("}\n"));
    let v: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let text = v["cards"][0]["text"].as_str().unwrap();
    assert_eq!(text.len(), 200_000);
    assert!(text.bytes().all(|b| b == 0));
    assert_eq!(v["game"]["id"], "mini");
}

// ---- Bidi and invisible characters (row 15) ----

#[test]
fn bidi_controls_in_file_names_ids_kinds_and_keys_are_shown_escaped() {
    let ws = mini(
        "[[card]]\nid = \"a\\u2066b\"\nkind = \"card\\u202E\"\nname = \"x\"\n\n\
         [[card]]\nid = \"c\"\nkind = \"card\"\nname = \"Coração 🔥\"\n\"e\u{202e}vil\" = 1\n",
    );
    ws.write("cards/mini/cod\u{202e}lmot.toml", "= broken\n");
    let human = ws.run(["--color", "never", "check"]).fails();
    for raw in ['\u{202e}', '\u{2066}'] {
        assert!(!human.stderr.contains(raw), "{raw:?} in {}", human.stderr);
    }
    assert!(
        human.stderr.contains("cod\\u{202e}lmot.toml"),
        "{}",
        human.stderr
    );
    assert!(human.stderr.contains("card\\u{202e}"), "{}", human.stderr);
    assert!(human.stderr.contains("e\\u{202e}vil"), "{}", human.stderr);
    // JSON keeps the exact text: escaping is its reader's business.
    let j = json(&ws, &["check"]);
    assert!(j.stdout.contains('\u{202e}'));
    assert!(
        j.json()
            .iter()
            .any(|d| d["file"] == "cards/mini/cod\u{202e}lmot.toml")
    );
}

#[test]
fn inspect_shows_a_bundles_names_escaped() {
    let ws = mini(&card("a", ""));
    let game = ws.read("cards/mini/game.toml").replacen(
        "name = \"Mini\"",
        "name = \"Mini\\u001b]0;PWNED\\u0007 \\u202Eatad\"",
        1,
    );
    ws.write("cards/mini/game.toml", game);
    ws.run(["build"]).succeeds();
    let run = ws.run(["inspect", "build/mini/mini.carta"]).succeeds();
    for raw in ['\u{1b}', '\u{7}', '\u{202e}'] {
        assert!(!run.stdout.contains(raw), "{raw:?} in {}", run.stdout);
    }
    assert!(
        run.stdout.contains("\\u{1b}]0;PWNED\\u{7} \\u{202e}atad"),
        "{}",
        run.stdout
    );
}

#[test]
fn accents_and_emoji_stay_readable() {
    let ws = mini(&card("a", "\"coração🔥\" = 1\n\"niño\u{200d}👩\" = 2"));
    let human = ws.run(["--color", "never", "check"]).fails();
    assert!(human.stderr.contains("coração🔥"), "{}", human.stderr);
    assert!(human.stderr.contains("niño\u{200d}👩"), "{}", human.stderr);
    assert!(!human.stderr.contains("\\u{"), "{}", human.stderr);
}

// ---- Malformed integers (row 16) ----

#[test]
fn malformed_integers_are_not_valid_and_overflow_does_not_fit() {
    for (value, said) in [
        ("0x", "0x is not a valid integer: it has no digits"),
        ("0b", "0b is not a valid integer: it has no digits"),
        ("0o", "0o is not a valid integer: it has no digits"),
        (
            "1_0\u{660}",
            "is not a valid integer: it holds a character that is not a digit of base 10",
        ),
        ("1__0", "`_` may only go between digits"),
        ("_1", "`_` may only go between digits"),
        ("0x_1", "`_` may only go between digits"),
        (
            "99999999999999999999",
            "integer 99999999999999999999 does not fit in 64 bits",
        ),
    ] {
        let ws = mini(&card("a", &format!("text = {value}")));
        let run = json(&ws, &["check"]);
        assert_eq!(run.code, Some(1), "{value}: {}", run.stdout);
        let d = run
            .json()
            .into_iter()
            .find(|d| d["severity"] == "error")
            .unwrap();
        let message = d["message"].as_str().unwrap();
        assert!(message.contains(said), "{value}: {message}");
        assert!(
            !message.contains("does not fit") || value.starts_with('9'),
            "{value}: {message}"
        );
        assert_eq!(
            (d["line"].as_u64(), d["file"].as_str()),
            (Some(5), Some("cards/mini/cards.toml"))
        );
    }
}

// ---- Spreadsheet bombs: counted before anything is expanded ----

/// A zip of `parts` (name, text), deflated.
fn zipped(parts: &[(&str, String)]) -> Vec<u8> {
    use std::io::Write;
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    for (name, text) in parts {
        zip.start_file(*name, options).unwrap();
        zip.write_all(text.as_bytes()).unwrap();
    }
    zip.finish().unwrap().into_inner()
}

/// An ODS file whose tables are `tables`, each the XML of its rows.
fn ods(tables: &[String]) -> Vec<u8> {
    let tables: String = tables
        .iter()
        .enumerate()
        .map(|(i, rows)| format!("<table:table table:name=\"s{i}\">{rows}</table:table>"))
        .collect();
    let content = format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?><office:document-content \
         xmlns:office=\"urn:oasis:names:tc:opendocument:xmlns:office:1.0\" \
         xmlns:table=\"urn:oasis:names:tc:opendocument:xmlns:table:1.0\" \
         xmlns:text=\"urn:oasis:names:tc:opendocument:xmlns:text:1.0\" office:version=\"1.2\">\
         <office:body><office:spreadsheet>{tables}</office:spreadsheet></office:body></office:document-content>"
    );
    zipped(&[
        (
            "mimetype",
            "application/vnd.oasis.opendocument.spreadsheet".into(),
        ),
        ("content.xml", content),
    ])
}

/// An XLSX file of one sheet `cards` with cells `cells` (the XML of
/// `sheetData`) and shared strings `sst` (the whole part).
fn xlsx(cells: &str, sst: String) -> Vec<u8> {
    let ns = "http://schemas.openxmlformats.org";
    zipped(&[
        (
            "[Content_Types].xml",
            format!(
                "<?xml version=\"1.0\"?><Types xmlns=\"{ns}/package/2006/content-types\">\
                 <Default Extension=\"rels\" ContentType=\"application/vnd.openxmlformats-package.relationships+xml\"/>\
                 <Default Extension=\"xml\" ContentType=\"application/xml\"/>\
                 <Override PartName=\"/xl/workbook.xml\" ContentType=\"application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml\"/>\
                 <Override PartName=\"/xl/worksheets/sheet1.xml\" ContentType=\"application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml\"/>\
                 <Override PartName=\"/xl/sharedStrings.xml\" ContentType=\"application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml\"/></Types>"
            ),
        ),
        (
            "_rels/.rels",
            format!(
                "<?xml version=\"1.0\"?><Relationships xmlns=\"{ns}/package/2006/relationships\">\
                 <Relationship Id=\"rId1\" Type=\"{ns}/officeDocument/2006/relationships/officeDocument\" Target=\"xl/workbook.xml\"/></Relationships>"
            ),
        ),
        (
            "xl/workbook.xml",
            format!(
                "<?xml version=\"1.0\"?><workbook xmlns=\"{ns}/spreadsheetml/2006/main\" \
                 xmlns:r=\"{ns}/officeDocument/2006/relationships\"><sheets>\
                 <sheet name=\"cards\" sheetId=\"1\" r:id=\"rId1\"/></sheets></workbook>"
            ),
        ),
        (
            "xl/_rels/workbook.xml.rels",
            format!(
                "<?xml version=\"1.0\"?><Relationships xmlns=\"{ns}/package/2006/relationships\">\
                 <Relationship Id=\"rId1\" Type=\"{ns}/officeDocument/2006/relationships/worksheet\" Target=\"worksheets/sheet1.xml\"/>\
                 <Relationship Id=\"rId2\" Type=\"{ns}/officeDocument/2006/relationships/sharedStrings\" Target=\"sharedStrings.xml\"/></Relationships>"
            ),
        ),
        (
            "xl/worksheets/sheet1.xml",
            format!(
                "<?xml version=\"1.0\"?><worksheet xmlns=\"{ns}/spreadsheetml/2006/main\"><sheetData>{cells}</sheetData></worksheet>"
            ),
        ),
        ("xl/sharedStrings.xml", sst),
    ])
}

/// `bomb`, written as `cards/live/bomb.<ext>` of a fresh `carta init`
/// workspace, is refused by `check` with `sheet::too-large`: exit 1, no
/// panic, in under a few seconds and 128 MiB.
fn refused_quickly(ext: &str, bomb: &[u8]) {
    let tmp = tempfile::tempdir().unwrap();
    crate::harness::run_in(tmp.path(), ["init", "live", "--name", "Live"]).succeeds();
    let root = tmp.path().join("live");
    std::fs::write(root.join(format!("cards/live/bomb.{ext}")), bomb).unwrap();
    let started = std::time::Instant::now();
    let run = crate::harness::run_in(&root, ["--message-format", "json", "check", "--no-cache"]);
    let took = started.elapsed();
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    let refused = with_code(&run, "sheet::too-large");
    assert_eq!(refused.len(), 1, "{}", run.stdout);
    assert!(took < std::time::Duration::from_secs(5), "{ext}: {took:?}");
    let peak = peak_check_bytes_in(&root);
    assert!(peak < 128 << 20, "{ext}: {} MiB", peak >> 20);
}

/// A row of one valued cell repeated across every column, repeated `rows` times.
fn wide_rows(rows: u64, cell: &str) -> String {
    format!(
        "<table:table-row table:number-rows-repeated=\"{rows}\">\
         <table:table-cell table:number-columns-repeated=\"16384\" office:value-type=\"string\">\
         <text:p>{cell}</text:p></table:table-cell></table:table-row>"
    )
}

#[test]
fn an_ods_whose_repeats_claim_98_million_cells_is_refused_before_it_expands() {
    let bomb = ods(&[wide_rows(6_000, "x")]);
    assert!(bomb.len() < 2_000, "{} bytes", bomb.len());
    refused_quickly("ods", &bomb);
    let ten = ods(&vec![wide_rows(6_000, "x"); 10]);
    refused_quickly("ods", &ten);
}

#[test]
fn an_ods_with_a_megabyte_of_text_repeated_16384_times_is_refused() {
    let bomb = ods(&[wide_rows(1, &"a".repeat(1 << 20))]);
    assert!(bomb.len() < 8_000, "{} bytes", bomb.len());
    refused_quickly("ods", &bomb);
    // Spaces that `text:s` claims count as text too.
    let spaces = ods(&[wide_rows(1, "<text:s text:c=\"1000000\"/>")]);
    refused_quickly("ods", &spaces);
}

#[test]
fn an_xlsx_declaring_u64_max_shared_strings_is_refused_not_a_panic() {
    let sst = "<?xml version=\"1.0\"?><sst xmlns=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\" \
               count=\"18446744073709551615\" uniqueCount=\"18446744073709551615\"><si><t>x</t></si></sst>";
    refused_quickly("xlsx", &xlsx("", sst.into()));
}

#[test]
fn an_xlsx_with_a_megabyte_shared_string_in_a_thousand_cells_is_refused() {
    let sst = format!(
        "<?xml version=\"1.0\"?><sst xmlns=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\" \
         count=\"1000\" uniqueCount=\"1\"><si><t>{}</t></si></sst>",
        "a".repeat(1 << 20)
    );
    let cells: String = (1..=1_000)
        .map(|r| format!("<row r=\"{r}\"><c r=\"A{r}\" t=\"s\"><v>0</v></c></row>"))
        .collect();
    let bomb = xlsx(&cells, sst);
    assert!(bomb.len() < 16_000, "{} bytes", bomb.len());
    refused_quickly("xlsx", &bomb);
}

// ---- Size bounds: each input carta parses whole has its own ----

/// `text` padded with a comment to exactly `len` bytes.
fn padded(text: &str, len: usize) -> String {
    let pad = len - text.len() - "#\n".len();
    format!("{text}#{}\n", "x".repeat(pad))
}

/// Asserts `run` refused `file` of `size` bytes past `bound` bytes of
/// `what`, naming the variable that raises it.
fn refused_as_too_large(
    run: &crate::harness::Run,
    file: &str,
    size: usize,
    bound: u64,
    what: &str,
) {
    assert_eq!(run.code, Some(1), "{}", run.stdout);
    let d = &with_code(run, "load::too-large")[0];
    assert_eq!(d["file"], file, "{d}");
    assert_eq!(
        d["message"],
        format!("`{file}` is {size} bytes, more than the {bound} bytes {what} may hold"),
    );
    let var = if what == "a card file" {
        "CARTA_MAX_CARD_FILE_BYTES"
    } else {
        "CARTA_MAX_DECK_BYTES"
    };
    assert!(d["help"].as_str().unwrap().contains(var), "{d}");
}

#[test]
fn a_card_file_past_16_mib_is_refused_and_one_of_16_mib_loads() {
    let bound = 16 << 20;
    let ws = mini(&padded(&card("a", ""), bound));
    let run = json(&ws, &["check", "--no-cache"]);
    assert_eq!(run.code, Some(0), "{}", run.stdout);
    ws.write("cards/mini/cards.toml", padded(&card("a", ""), bound + 1));
    let run = json(&ws, &["check", "--no-cache"]);
    refused_as_too_large(
        &run,
        "cards/mini/cards.toml",
        bound + 1,
        bound as u64,
        "a card file",
    );
}

#[test]
fn a_csv_sheet_past_the_card_file_bound_is_refused_and_one_at_it_loads() {
    let ws = mini(&card("a", ""));
    // Longer than the TOML card file, which the bound applies to too.
    let rows: String = (0..10).map(|i| format!("b{i},card,Carta b{i}\n")).collect();
    let csv = format!("id,kind,name\n{rows}");
    ws.write("cards/mini/more.csv", &csv);
    let at = csv.len().to_string();
    let run = json_env(
        &ws,
        &["check", "--no-cache"],
        &[("CARTA_MAX_CARD_FILE_BYTES", &at)],
    );
    assert_eq!(run.code, Some(0), "{}", run.stdout);
    let under = (csv.len() - 1).to_string();
    let run = json_env(
        &ws,
        &["check", "--no-cache"],
        &[("CARTA_MAX_CARD_FILE_BYTES", &under)],
    );
    refused_as_too_large(
        &run,
        "cards/mini/more.csv",
        csv.len(),
        csv.len() as u64 - 1,
        "a card file",
    );
}

#[test]
fn a_deck_file_past_1_mib_is_refused_and_one_of_1_mib_is_read() {
    let bound = 1 << 20;
    let ws = mini(&card("a", ""));
    let deck = "game = \"mini\"\nname = \"D\"\n\n[main]\nnope = 1\n";
    for (rel, args) in [
        ("d.toml", vec!["deck", "check", "d.toml"]),
        ("cards/mini/decks/d.toml", vec!["check", "--no-cache"]),
    ] {
        ws.write(rel, padded(deck, bound));
        let run = json(&ws, &args);
        // Read whole: its unknown id is found, on its line.
        assert!(
            run.json()
                .iter()
                .any(|d| d["file"] == rel && d["line"] == 5 && d["severity"] == "error"),
            "{}",
            run.stdout
        );
        assert!(!run.stdout.contains("load::too-large"), "{}", run.stdout);
        ws.write(rel, padded(deck, bound + 1));
        let run = json(&ws, &args);
        refused_as_too_large(&run, rel, bound + 1, bound as u64, "a deck file or list");
        std::fs::remove_file(ws.path().join(rel)).unwrap();
    }
}

#[test]
fn a_list_past_1_mib_is_refused_and_one_of_1_mib_is_imported() {
    let bound = 1 << 20;
    let ws = mini(&card("a", ""));
    let list = "Game: mini\nName: L\n\n1 Carta a\n";
    let blank = |len: usize| format!("{list}{}", "\n".repeat(len - list.len()));
    ws.write("l.txt", blank(bound));
    let run = ws.run(["-q", "deck", "import", "l.txt"]).succeeds();
    assert!(run.stdout.contains("a = 1"), "{}", run.stdout);
    ws.write("l.txt", blank(bound + 1));
    let run = json(&ws, &["deck", "import", "l.txt"]);
    refused_as_too_large(
        &run,
        "l.txt",
        bound + 1,
        bound as u64,
        "a deck file or list",
    );
}
