//! Fuzzes the PO reader and import: any text as a PO file for the shipped
//! `intrepidos` game must parse or give a syntax error inside the text,
//! never a panic, and every diagnostic must render.
//!
//! ```text
//! cd fuzz && cargo fuzz run po --sanitizer none -- -max_total_time=60
//! ```

#![no_main]

#[path = "common.rs"]
mod common;

use carta::diag::{Diagnostic, SourceMap};
use carta::i18n::po;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let game = &common::intrepidos().game;
    let mut sources = SourceMap::new();
    let file = sources.add("x.po", text);
    let mut found = Vec::new();
    match po::parse(text) {
        Ok(parsed) => {
            let _ = parsed.language();
            let imported = po::import(&parsed, &game.i18n.sources, game.i18n.catalog("en"));
            for p in imported.problems {
                assert!(
                    text.get(p.span.clone()).is_some(),
                    "a span outside the text"
                );
                found.push(Diagnostic::error("i18n::po", p.why).at(file, p.span, "here"));
            }
        }
        Err(e) => {
            assert!(
                text.get(e.span.clone()).is_some(),
                "a span outside the text"
            );
            found.push(Diagnostic::error("i18n::po-syntax", e.message).at(file, e.span, "here"));
        }
    }
    common::render_all(&found, &sources);
});
