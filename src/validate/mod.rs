//! Validate: each card against the JSON Schema of its kind, every error
//! mapped from its instance path back to the exact TOML span; and each
//! `game.toml` against the manifest's own schema ([`manifest`]).

mod card;
mod cell_types;
mod clean;
pub mod display;
mod documents;
mod instance;
pub mod manifest;
mod messages;
mod packed;
mod pointer;
mod schema_refs;
mod schemas;

pub use card::{CardRef, FileCards, MAX_COPIES, RESERVED, RawCard, is_valid_id};
pub use cell_types::SheetTypes;
pub use clean::read_cards;
pub use documents::{PathStep, REF_KEYWORD, SchemaDoc, uri_of};
pub use manifest::LoadedManifest;
pub use messages::{Subject, diagnose};
pub use packed::PackedFields;
pub use pointer::{Located, locate};
pub use schemas::{GameSchemas, KindSchema, RefPattern, Visit};
