//! Issue 22, rows 9–11: partials that include each other (or nest too
//! deep) are found by `check`, so `build`, `print` and `export` stop with
//! a diagnostic instead of overflowing the renderer's stack; a broken PO
//! file is a located syntax error, not a panic; and importing a PO file
//! of many messages carta cannot place takes linear time.

use std::time::Instant;

use super::{all_located, json, with_code};
use crate::harness::{Run, Workspace};
use crate::sheets::{card, mini};

/// The mini game with a face that includes `_a`, and `partials` written
/// as `templates/mini/<name>`.
fn with_partials(partials: &[(&str, &str)]) -> Workspace {
    let ws = mini(&card("a", ""));
    ws.write("templates/mini/card.hbs", "<p>{{> _a}}</p>\n");
    for (name, text) in partials {
        ws.write(&format!("templates/mini/{name}"), text);
    }
    ws
}

/// Asserts that `args` stop with exit 1 and `code`, and wrote nothing.
fn stops(ws: &Workspace, args: &[&str], code: &str) -> Run {
    let run = ws
        .run(args)
        .fails()
        .stderr_has(code)
        .stderr_has("nothing written");
    assert!(!ws.path().join("build/mini").exists(), "{args:?} wrote");
    run
}

#[test]
fn row_9_a_cycle_of_partials_is_found_by_check_at_the_include_that_closes_it() {
    let ws = with_partials(&[("_a.hbs", "A {{> _b}}\n"), ("_b.hbs", "B\n  {{> _a}}\n")]);
    let run = json(&ws, &["check"]).fails();
    let d = &with_code(&run, "template::partial-cycle")[0];
    assert_eq!(d["file"], "templates/mini/_b.hbs", "{d}");
    assert_eq!(
        (d["line"].as_u64(), d["column"].as_u64()),
        (Some(2), Some(3)),
        "{d}"
    );
    assert_eq!(
        (d["end_line"].as_u64(), d["end_column"].as_u64()),
        (Some(2), Some(11))
    );
    assert!(
        d["message"]
            .as_str()
            .unwrap()
            .contains("`_a.hbs` → `_b.hbs` → `_a.hbs`"),
        "{d}"
    );
    assert!(d["help"].is_string());
    all_located(&run);
    ws.run(["check"]).fails().stderr_has("_b.hbs:2:3");
}

#[test]
fn row_9_build_print_and_export_stop_at_the_cycle_instead_of_aborting() {
    let ws = with_partials(&[("_a.hbs", "A {{> _b}}\n"), ("_b.hbs", "B {{> _a}}\n")]);
    stops(&ws, &["build"], "template::partial-cycle");
    stops(&ws, &["print"], "template::partial-cycle");
    stops(&ws, &["print", "mini"], "template::partial-cycle");
    // Chromium is never started: the check stops the export first.
    stops(&ws, &["export", "pdf"], "template::partial-cycle");
    // A check taken from the cache repeats the verdict.
    ws.run(["check"]).fails();
    ws.run(["check"])
        .fails()
        .stderr_has("template::partial-cycle");
    ws.run(["build", "--no-cache"])
        .fails()
        .stderr_has("template::partial-cycle");
    // Once the cycle is broken, the record of the last check is not repeated.
    ws.write("templates/mini/_b.hbs", "B\n");
    ws.run(["check"]).succeeds();
    ws.run(["build"]).succeeds();
    assert!(ws.read("build/mini/sheets/index.html").contains("A B"));
}

#[test]
fn a_partial_that_includes_itself_and_a_cycle_of_inline_partials_are_cycles() {
    let ws = with_partials(&[("_a.hbs", "{{> _a}}")]);
    let run = json(&ws, &["check"]).fails();
    let d = &with_code(&run, "template::partial-cycle")[0];
    assert!(
        d["message"]
            .as_str()
            .unwrap()
            .contains("`_a.hbs` → `_a.hbs`"),
        "{d}"
    );
    let inline = r#"{{#*inline "box"}}[{{> box}}]{{/inline}}{{> box}}"#;
    let ws = with_partials(&[("_a.hbs", inline)]);
    let run = json(&ws, &["check"]).fails();
    let d = &with_code(&run, "template::partial-cycle")[0];
    assert!(
        d["message"].as_str().unwrap().contains("inline `box`"),
        "{d}"
    );
    stops(&ws, &["build"], "template::partial-cycle");
    // Through a partial block's body and a face.
    let ws = with_partials(&[
        ("_a.hbs", "{{#> _b}}{{> card}}{{/_b}}"),
        ("_b.hbs", "{{> @partial-block}}"),
    ]);
    with_code(&json(&ws, &["check"]).fails(), "template::partial-cycle");
}

#[test]
fn a_chain_of_partials_too_deep_to_render_is_refused_and_a_shallow_one_builds() {
    let chain = |n: usize| {
        let ws = with_partials(&[]);
        ws.write("templates/mini/card.hbs", "{{> _p0}}");
        for i in 0..n {
            let text = if i + 1 < n {
                format!("{{{{#if true}}}}{{{{> _p{}}}}}{{{{/if}}}}\n", i + 1)
            } else {
                "end\n".to_owned()
            };
            ws.write(&format!("templates/mini/_p{i}.hbs"), text);
        }
        ws
    };
    // 2,000 partials deep aborted every build (exit 134) before.
    let ws = chain(2_000);
    let run = json(&ws, &["check"]).fails();
    let d = &with_code(&run, "template::too-deep")[0];
    assert_eq!(d["file"], "templates/mini/card.hbs", "{d}");
    assert!(
        d["message"].as_str().unwrap().contains("(at most 96)"),
        "{d}"
    );
    stops(&ws, &["build"], "template::too-deep");
    let ws = chain(30);
    ws.run(["build"]).succeeds();
    assert!(ws.read("build/mini/sheets/index.html").contains("end"));
}

#[test]
fn blocks_nested_too_deep_in_one_template_are_refused() {
    let ws = with_partials(&[]);
    let n = 400;
    ws.write(
        "templates/mini/card.hbs",
        format!("{}x{}", "{{#if true}}".repeat(n), "{{/if}}".repeat(n)),
    );
    with_code(&json(&ws, &["check"]).fails(), "template::too-deep");
    stops(&ws, &["build"], "template::too-deep");
}

#[test]
fn a_computed_partial_name_and_a_huge_template_are_refused() {
    let ws = with_partials(&[("_a.hbs", "{{> (lookup this \"name\")}}")]);
    let run = json(&ws, &["check"]).fails();
    let d = &with_code(&run, "template::dynamic-partial")[0];
    assert_eq!(
        (d["file"].as_str(), d["line"].as_u64()),
        (Some("templates/mini/_a.hbs"), Some(1))
    );
    stops(&ws, &["build"], "template::dynamic-partial");
    // Its parse time would grow with tags × bytes.
    let ws = with_partials(&[("_a.hbs", &"{{name}}".repeat(50_000))]);
    with_code(&json(&ws, &["check"]).fails(), "template::too-large");
    // A large decoration may hold a few tags: 100 in 200 KB, not 200.
    let decoration = "<path d=\"M0 0 L10 10\"/>".repeat(8_000);
    let ws = with_partials(&[("_a.hbs", &format!("{decoration}{}", "{{name}}".repeat(200)))]);
    with_code(&json(&ws, &["check"]).fails(), "template::too-large");
    let ws = with_partials(&[("_a.hbs", &format!("{decoration}{}", "{{name}}".repeat(100)))]);
    json(&ws, &["check"]).succeeds();
}

/// The shipped game `zodiacos` with `po` written as `x.po`.
fn with_po(po: &str) -> Workspace {
    let ws = Workspace::shipped(&["zodiacos"]);
    ws.write("x.po", po);
    ws
}

const HEADER: &str = "msgid \"\"\nmsgstr \"\"\n\"Language: en\\n\"\n\n";

#[test]
fn row_10_a_broken_po_file_is_a_located_syntax_error_not_a_panic() {
    let cases = [
        // A line that is only `"`.
        (
            format!("{HEADER}msgctxt \"cards/leo/name\"\nmsgid \"Leo\"\nmsgstr \"Lion\"\n\"\n"),
            8,
            1,
        ),
        // An unterminated string.
        (
            format!("{HEADER}msgctxt \"cards/leo/name\"\nmsgid \"Leo\"\nmsgstr \"traduçã\n"),
            7,
            8,
        ),
        (
            format!("{HEADER}msgid \"Leo\"\nmsgstr[99999999999] \"x\"\n"),
            6,
            1,
        ),
        (format!("{HEADER}msgid \"Leo\"\nmsgstr \"a\\qb\"\n"), 6, 10),
        (format!("{HEADER}msgid \"Leo\"\nmsgstr \"x\" y\n"), 6, 12),
        (format!("{HEADER}bogus\n"), 5, 1),
    ];
    for (po, line, column) in cases {
        let ws = with_po(&po);
        let before = ws.read("cards/zodiacos/i18n/en.toml");
        let run = json(&ws, &["i18n", "import", "zodiacos", "x.po"]).fails();
        let d = &with_code(&run, "i18n::po-syntax")[0];
        assert_eq!(d["file"], "x.po");
        assert_eq!(
            (d["line"].as_u64(), d["column"].as_u64()),
            (Some(line), Some(column)),
            "{po}\n{d}"
        );
        ws.run(["i18n", "import", "zodiacos", "x.po"])
            .fails()
            .stderr_has("nothing written");
        assert_eq!(ws.read("cards/zodiacos/i18n/en.toml"), before);
    }
}

#[test]
fn row_11_many_messages_carta_cannot_place_are_reported_in_linear_time() {
    let n = 20_000;
    let mut po = HEADER.to_owned();
    for i in 0..n {
        po.push_str(&format!(
            "msgctxt \"cards/nope{i}/name\"\nmsgid \"X{i}\"\nmsgstr \"Y{i}\"\n\n"
        ));
    }
    let ws = with_po(&po);
    let start = Instant::now();
    let run = json(&ws, &["i18n", "import", "zodiacos", "x.po"]).fails();
    // Before, a search of the file per message took 5.6 s (release) here.
    assert!(start.elapsed().as_secs() < 60, "{:?}", start.elapsed());
    let found = with_code(&run, "i18n::po");
    assert!(found.len() >= 200, "{}", found.len());
    assert_eq!(found[0]["line"].as_u64(), Some(5));
    assert_eq!(found[1]["line"].as_u64(), Some(9));
    ws.run(["i18n", "import", "zodiacos", "x.po"])
        .fails()
        .stderr_has(&format!("nothing written: {n} errors"));
    // A message given twice is not taken twice.
    let leo = "msgctxt \"cards/leo/name\"\nmsgid \"Leo\"\nmsgstr \"Lion\"\n\n";
    let ws = with_po(&format!("{HEADER}{leo}{leo}"));
    let run = json(&ws, &["i18n", "import", "zodiacos", "x.po"]).fails();
    let d = &with_code(&run, "i18n::po")[0];
    assert_eq!(d["line"].as_u64(), Some(9), "{d}");
    assert!(
        d["message"]
            .as_str()
            .unwrap()
            .contains("an earlier message has the same context")
    );
}
