//! carta compiles tabletop card games: cards written as TOML, checked
//! against the JSON Schema of their kind, linked, and checked against the
//! game's rules.
//!
//! The pipeline, one module per stage, data flowing one way:
//!
//! 1. [`load`] reads the workspace: the games, their files, TOML with spans.
//! 2. [`manifest`] reads each game's `game.toml`.
//! 3. [`validate`] checks every card against its kind's schema.
//! 4. [`link`] indexes the cards by id and resolves card references.
//! 5. [`sheets`] renders print-and-play sheets from handlebars templates.
//!
//! [`check`] runs the stages for the `carta check` command; [`emit`] writes
//! what `carta build` makes, such as the binary [`bundle`] that game clients
//! read; [`diag`] is what every stage reports through; [`cli`] is the
//! command line.

pub mod bundle;
pub mod check;
pub mod cli;
pub mod deck;
pub mod deckcode;
pub mod diag;
pub mod editor;
pub mod emit;
pub mod init;
pub mod link;
pub mod load;
pub mod manifest;
pub mod rules;
pub mod server;
pub mod sheets;
pub mod suggest;
pub mod validate;
pub mod watch;
