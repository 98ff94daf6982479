//! The integration tests: one binary, one module per area.
// A test reads as one scenario, top to bottom; splitting it only hides the steps.
#![allow(clippy::too_many_lines)]

mod architecture;
mod browser;
mod builder_ui;
mod bundle;
mod check;
mod check_sees_build;
mod clients;
mod corpus;
mod cutter;
mod decks;
mod differential;
mod editor;
mod export;
mod export_lang;
mod faces;
mod harness;
mod help;
mod history;
mod hostile;
mod i18n;
mod incremental;
mod mutants;
mod overflow;
mod packs;
mod pod;
mod preflight;
mod readme;
mod reprint;
mod schemas;
mod serve;
mod sheets;
mod sixth;
mod spreadsheets;
mod standalone;
mod tables;
mod toml_test;
mod tts;
mod watch;
