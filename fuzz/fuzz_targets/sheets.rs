//! Fuzzes the spreadsheet reader: any bytes as a `.csv`, `.tsv`, `.xlsx`
//! or `.ods` card file of the shipped `intrepidos` game (the first byte
//! picks which) must give its shadow and diagnostics, never a panic or
//! an abort, and every diagnostic must render (human and JSON).
//!
//! ```text
//! cd fuzz && cargo fuzz run sheets --sanitizer none -- -max_total_time=60
//! ```

#![no_main]

#[path = "common.rs"]
mod common;

use carta::diag::SourceMap;
use carta::limits::Limits;
use carta::load::sheet::{EXTENSIONS, shadow};
use carta::validate::SheetTypes;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&pick, bytes)) = data.split_first() else {
        return;
    };
    let ext = EXTENSIONS[usize::from(pick) % EXTENSIONS.len()];
    let shipped = common::intrepidos();
    let types = SheetTypes::new(&shipped.game.manifest, &shipped.schemas);
    let mut sources = SourceMap::new();
    let rel = format!("cards/intrepidos/fuzz.{ext}");
    let file = sources.add(rel.clone(), "");
    let out = shadow(file, (&rel, ext), bytes, &types, &Limits::default());
    let mut sources = SourceMap::new();
    sources.add(rel, out.text);
    common::render_all(&out.diagnostics, &sources);
});
