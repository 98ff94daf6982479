//! Binary bundles: one file per game that a game client loads instead of the
//! TOML sources.
//!
//! A bundle is a fixed 128-byte [`Header`] followed by four sections: the
//! game manifest, the example decks, an index sorted by card id, and the card
//! records in zlib-compressed blocks. Records are `MessagePack`, so any
//! language with a `MessagePack` library and zlib can read them;
//! `docs/bundle-format.md` specifies every byte.
//!
//! - [`encode`] turns a manifest, cards and decks into bundle bytes
//!   (deterministically: the same input gives the same bytes);
//!   [`encode_translated`] adds the game's labels and translations
//!   ([`GameTexts`]).
//! - [`Bundle`] opens a bundle from a file or bytes, verifies it, and reads
//!   one card by id without decoding the others.
//!
//! Inside: `format.rs` is the header and section table, `numbers.rs` the
//! format's fixed numbers (which the header, the codec and the errors
//! share), `write.rs` the encoder (which also hands `emit` the bundle in
//! its pieces, never joined in memory), `read.rs` the verifying reader and
//! `summary.rs` what `carta inspect` prints. `view.rs` is the one
//! `MessagePack` reader (borrowed [`ValueRef`]/[`MapRef`], checked without
//! recursion), on which [`CardRef`] (a card read without allocating) and
//! every section's decoding stand. `inflate.rs` inflates blocks with
//! libdeflate into one reused buffer; its FFI calls are the library's only
//! `unsafe` outside tests. `game.rs` is the game section as written
//! (integers kept) and as read (unknown keys of later minor versions
//! pruned); `texts.rs` its enum labels and manifest translations.
//!
//! ```
//! use carta::bundle::{self, Bundle, CardRecord, SourceHash};
//! use carta::config::Manifest;
//!
//! let manifest: Manifest = toml::from_str(r#"
//!     id = "demo"
//!     name = "Demo"
//!     language = "en"
//!     [kinds.unit]
//!     name = "Unit"
//! "#).unwrap();
//! let mut fields = serde_json::Map::new();
//! fields.insert("attack".into(), 3.into());
//! let cards = [CardRecord { id: "knight", kind: "unit", name: "Knight", copies: None, fields: &fields, i18n: None, errata: &[] }];
//! let bytes = bundle::encode(&manifest, None, &cards, &[], SourceHash::of([("cards/demo/game.toml", "…")])).unwrap();
//!
//! let bundle = Bundle::from_bytes(bytes).unwrap();
//! assert_eq!(bundle.manifest().name, "Demo");
//! let knight = bundle.card("knight").unwrap().unwrap();
//! assert_eq!(knight.kind, "unit");
//! assert_eq!(knight.fields["attack"], 3);
//! assert!(bundle.card("dragon").unwrap().is_none());
//! ```

mod error;
mod format;
mod game;
mod hash;
mod inflate;
mod numbers;
mod read;
mod record;
mod summary;
#[cfg(test)]
mod tests;
mod texts;
mod view;
mod write;

pub use error::BundleError;
pub use format::{Header, Section, Sections};
pub use hash::{SourceHash, SourceHasher};
pub use numbers::{
    BLOCK_ENTRY_LEN, BLOCK_TARGET, EXTENSION, FORMAT_MINOR, FORMAT_VERSION, HEADER_LEN,
    INDEX_ENTRY_LEN, MAGIC, MAX_BLOCK, MAX_DEPTH, MAX_INFLATE_RATIO,
};
pub use read::Bundle;
pub use record::{Card, CardRecord, CardRef, DeckRecord, Translated};
pub(crate) use record::{PackedRecord, packed_map};
pub use summary::summary;
pub use texts::{GameTexts, ManifestTexts, Markup, Scoped};
pub use view::{ArrayRef, MapRef, ValueRef};
pub use write::{EncodeError, encode, encode_translated};
pub(crate) use write::{Encoded, encode_records};
