//! The integration tests: one binary, one module per area.

mod bundle;
mod check;
mod corpus;
mod harness;
mod schemas;
