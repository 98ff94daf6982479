//! Fuzzes the deck parser and resolver: any text as a deck file of the
//! shipped `intrepidos` game must give a deck or diagnostics, never a
//! panic, and every diagnostic must render.
//!
//! ```text
//! cd fuzz && cargo fuzz run deck --sanitizer none -- -max_total_time=60
//! ```

#![no_main]

#[path = "common.rs"]
mod common;

use carta::deck;
use carta::diag::SourceMap;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let game = &common::intrepidos().game;
    let mut sources = SourceMap::new();
    let file = sources.add("d.toml", text);
    let mut found = Vec::new();
    if let Some(parsed) = deck::parse(file, text, &mut found) {
        let rules = &game.rules.deck;
        if let Some(resolved) =
            deck::resolve(&parsed, &game.manifest, &game.pool, rules, &mut found)
        {
            deck::check(&parsed, &resolved, &game.manifest, rules, &mut found);
        }
    }
    common::render_all(&found, &sources);
});
