//! Fuzzes the check of a game's templates: the input, split at each NUL
//! byte, is the text of `card.hbs`, `_a.hbs`, `_b.hbs` and `_c.hbs`. The
//! check must not panic, its diagnostics must render, and whatever it
//! passes must render with handlebars (as the sheets set it up) without
//! overflowing the stack: a cycle or a depth it missed aborts the run.
//!
//! ```text
//! cd fuzz && cargo fuzz run templates --sanitizer none -- -max_total_time=60
//! ```

#![no_main]

#[path = "common.rs"]
mod common;

use carta::diag::SourceMap;
use carta::game::partials::{self, Source};
use handlebars::Handlebars;
use libfuzzer_sys::fuzz_target;

const NAMES: [&str; 4] = ["card.hbs", "_a.hbs", "_b.hbs", "_c.hbs"];

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let mut sources = SourceMap::new();
    let files: Vec<Source<'_>> = NAMES
        .iter()
        .zip(text.split('\0'))
        .map(|(name, text)| Source {
            name,
            file: sources.add(*name, text),
            text,
        })
        .collect();
    let problems = partials::problems(&files);
    common::render_all(&problems, &sources);
    if !problems.is_empty() {
        return;
    }
    let mut hb = Handlebars::new();
    hb.set_strict_mode(true);
    hb.set_prevent_indent(true);
    for f in &files {
        let _ = hb.register_template_string(f.name.trim_end_matches(".hbs"), f.text);
    }
    let data = serde_json::json!({
        "name": "_a", "fields": {"a": [1, 2], "b": {"c": "_b"}}, "list": ["_a", "_b", "_c"],
    });
    let _ = hb.render("card", &data);
});
