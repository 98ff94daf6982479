//! The integration tests: one binary, one module per area.

mod browser;
mod check;
mod corpus;
mod harness;
mod schemas;
mod sheets;
