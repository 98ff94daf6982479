//! Fuzzes the bundle reader: any bytes must give a bundle or an error,
//! never a panic, an abort or a huge allocation.
//!
//! ```text
//! cd fuzz && cargo fuzz run bundle --sanitizer none -- -max_total_time=60
//! ```
//!
//! Each input is read twice: as given (the checksums refuse nearly all
//! mutations), and with its length and checksums repaired as
//! docs/bundle-format.md says, so that mutations reach the parsers behind
//! the checksums.

#![no_main]

use carta::bundle::{Bundle, HEADER_LEN};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    read(data.to_vec());
    if data.len() >= HEADER_LEN {
        let mut repaired = data.to_vec();
        let payload_len = (data.len() - HEADER_LEN) as u32;
        repaired[80..84].copy_from_slice(&payload_len.to_le_bytes());
        let payload_crc = crc32fast::hash(&repaired[HEADER_LEN..]);
        repaired[84..88].copy_from_slice(&payload_crc.to_le_bytes());
        let header_crc = crc32fast::hash(&repaired[..124]);
        repaired[124..128].copy_from_slice(&header_crc.to_le_bytes());
        read(repaired);
    }
});

/// Opens the bundle and, if it opens, reads everything in every way.
fn read(bytes: Vec<u8>) {
    let Ok(bundle) = Bundle::from_bytes(bytes) else {
        return;
    };
    for card in bundle.cards() {
        let _ = card;
    }
    let _ = bundle.decode_all();
    let _ = bundle.visit(|card| {
        let _ = card.to_card();
    });
    let _ = bundle.to_json();
    let ids: Vec<String> = bundle.ids().take(64).map(str::to_owned).collect();
    for id in ids {
        let _ = bundle.card(&id);
    }
    let _ = bundle.card("no-such-card");
    let _ = carta::bundle::summary(&bundle, std::path::Path::new("fuzz.carta"));
}
