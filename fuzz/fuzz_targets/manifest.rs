//! Fuzzes the manifest reader: any text as `cards/g/game.toml` must give a
//! manifest or diagnostics, never a panic, and every diagnostic must render.
//!
//! ```text
//! cd fuzz && cargo fuzz run manifest --sanitizer none -- -max_total_time=60
//! ```

#![no_main]

#[path = "common.rs"]
mod common;

use carta::diag::{Diagnostics, SourceMap};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let mut sources = SourceMap::new();
    let file = sources.add("cards/g/game.toml", text);
    let mut diags = Diagnostics::new();
    let _ = carta::validate::manifest::parse("g", file, &sources, &mut diags);
    let all: Vec<_> = diags.into_sorted();
    common::render_all(&all, &sources);
});
