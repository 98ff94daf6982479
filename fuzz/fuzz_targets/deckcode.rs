//! Fuzzes the deck-code decoder: any string as a code must decode to a deck
//! of the shipped `intrepidos` game or be refused, never panic; a decoded
//! deck prints as TOML that the deck parser reads without panicking.
//!
//! ```text
//! cd fuzz && cargo fuzz run deckcode --sanitizer none -- -max_total_time=60
//! ```

#![no_main]

#[path = "common.rs"]
mod common;

use carta::deckcode;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(code) = std::str::from_utf8(data) else {
        return;
    };
    let _ = deckcode::game_of(code);
    let game = &common::intrepidos().game;
    if let Ok(deck) = deckcode::decode(code, &game.manifest.manifest, &game.pool) {
        let toml = deckcode::to_toml(&deck);
        let mut found = Vec::new();
        let _ = carta::deck::parse(carta::diag::FileId(0), &toml, &mut found);
    }
});
