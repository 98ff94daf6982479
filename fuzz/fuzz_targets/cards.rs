//! Fuzzes the card loader: any text as a card file of the shipped
//! `intrepidos` game must give cards and diagnostics, never a panic, and
//! every diagnostic must render (human and JSON).
//!
//! ```text
//! cd fuzz && cargo fuzz run cards --sanitizer none -- -max_total_time=60
//! ```

#![no_main]

#[path = "common.rs"]
mod common;

use carta::diag::SourceMap;
use carta::validate::read_cards;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let shipped = common::intrepidos();
    let mut sources = SourceMap::new();
    let file = sources.add("cards/intrepidos/fuzz.toml", text);
    let kinds = shipped.game.manifest.manifest.kind_ids();
    let found = read_cards(file, text, &kinds, &shipped.schemas, None, false);
    common::render_all(&found.diagnostics, &sources);
});
