//! carta compiles tabletop card games: cards written as TOML, checked
//! against the JSON Schema of their kind, linked, checked against the
//! game's rules, and emitted as binary bundles and print-and-play sheets.
//!
//! The pipeline, one module per stage, data flowing one way:
//!
//! 1. [`load`] reads the workspace: the games, their files, TOML with spans.
//! 2. [`validate`] checks each `game.toml` against the manifest schema
//!    (into [`config`] types) and every card against its kind's schema.
//! 3. [`link`] indexes the cards by id and resolves card references.
//! 4. [`rules`] compiles the game's deck and box rules; [`deck`] reads deck
//!    files and checks them.
//! 5. [`game`] runs those stages for one game: the compiled [`game::Game`]
//!    every command and emitter takes.
//! 6. [`emit`] turns a game into outputs: the binary [`bundle`] game
//!    clients read, and print-and-play sheets.
//!
//! `commands` are the command line's verbs, one file each; [`cli`] parses
//! the arguments and dispatches; [`diag`] is what every stage reports
//! through; [`config`] (the manifest's types) sits under everything;
//! [`write`] is the one way anything is written or deleted.

pub mod art;
pub mod bundle;
pub mod cache;
pub mod cli;
pub mod collection;
pub(crate) mod commands;
pub mod config;
pub mod deck;
pub mod deckcode;
pub mod decklist;
pub mod diag;
pub mod digest;
pub mod editor;
pub mod emit;
pub mod event;
pub mod game;
pub mod history;
pub mod i18n;
pub mod l10n;
pub mod limits;
pub mod link;
pub mod load;
pub mod markup;
pub mod play;
pub mod rules;
pub(crate) mod server;
pub(crate) mod suggest;
pub mod validate;
pub mod write;
