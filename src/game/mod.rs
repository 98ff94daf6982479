//! The compiled game: one game's manifest, schemas, linked card pool, rules
//! and example decks, made by running the stages load → validate → link →
//! rules over it. Every command and every emitter takes a [`Game`].
//!
//! - `head.rs`: what a compile starts from (manifest, schemas, the fields
//!   kept of each card, the check cache's key);
//! - `cards.rs`: the card files read and checked, each through its cache
//!   entry; `decks.rs`: the example decks and the player's collection;
//! - `compile.rs`: the stages run for one game; `compiled.rs`: [`Game`];
//! - `record.rs`, `recall.rs`: `carta check`'s record of each game's last
//!   verdict and the inputs it read, repeated when they are unchanged;
//!   `ledger.rs`: the workspace's last check, repeated when nothing changed;
//!   `stored.rs`: a diagnostic as those two store it;
//! - `partials.rs`: the templates checked before anything renders them;
//!   `schemas.rs`: the kinds' schemas found and compiled.

mod cards;
mod compile;
mod compiled;
mod decks;
mod head;
pub mod ledger;
pub mod partials;
mod recall;
mod record;
mod schemas;
mod stored;

pub use self::compile::{Games, compile, compile_all};
pub use self::compiled::{Game, translatable};
pub use self::head::{Decks, Keep};
pub use self::recall::{Checked, EditorFresh, Recalled, check_all};
pub use self::record::{Draft, remember};
