//! Validate: each card against the JSON Schema of its kind, every error
//! mapped from its instance path back to the exact TOML span; and each
//! `game.toml` against the manifest's own schema ([`manifest`]).
//!
//! - Schemas: `documents.rs`, schema files as documents (URIs, parsing and
//!   the meta-check, JSON-pointer spans); `schema_refs.rs`, `$ref`s that
//!   lead nowhere, each reported at its place; `schemas.rs`, each kind's
//!   schema compiled with offline `$ref`s, all kinds at once on every core;
//!   `schemas/walk.rs`, what the documents say, read by walking them with
//!   every `$ref` and combinator followed — the `x-carta-ref` and
//!   `x-carta-labels` patterns and the default face's fields (from
//!   [`display`]), each kind's found the first time it is asked for
//!   (`GameSchemas::marks`, `GameSchemas::face`).
//! - Cards: `card.rs`, the card form, read in full through `toml`'s tree,
//!   with its errata (`errata.rs`, the `[[card.errata]]` entries);
//!   `clean.rs`, a file with nothing to report read from the event
//!   reader's tree instead (`load::tree`), validated in place through
//!   `instance.rs` against a second validator of the kind's schema,
//!   compiled once the kind has had `TREE_AFTER` cards, so a small game
//!   never pays for it; `packed.rs`, a card's fields as `MessagePack`,
//!   which `carta build` keeps; `cell_types.rs`, what a schema accepts at
//!   a path, for typing spreadsheet cells.
//! - Errors: `pointer.rs` walks an instance path to its TOML span,
//!   `messages.rs` words the error for a card designer; `sheet_missing.rs`
//!   places a field missing from a spreadsheet row at its cell.

mod card;
mod cell_types;
mod clean;
pub mod display;
mod documents;
pub mod errata;
mod instance;
pub mod manifest;
mod messages;
mod packed;
mod pointer;
mod schema_refs;
mod schemas;
mod sheet_missing;

pub use card::{CARD_KEYS, CardRef, FileCards, MAX_COPIES, RESERVED, RawCard, is_valid_id};
pub use cell_types::SheetTypes;
pub use clean::read_cards;
pub use documents::{PathStep, REF_KEYWORD, SchemaDoc, uri_of};
pub use manifest::LoadedManifest;
pub use messages::{Subject, diagnose};
pub use packed::PackedFields;
pub(crate) use pointer::each_string;
pub use pointer::{Located, locate};
pub use schemas::{GameSchemas, KindSchema, RefPattern, Visit};
pub use sheet_missing::place_missing_in_sheet;
