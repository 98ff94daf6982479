//! The JSON Schemas of carta's own formats are generated from the Rust types;
//! the committed copies in `schemas/carta/` must match what the code generates.

use crate::harness::{assert_golden, repo};

#[test]
fn committed_manifest_schema_matches_the_code() {
    let generated = serde_json::to_string_pretty(carta::config::json_schema()).unwrap() + "\n";
    assert_golden(&repo().join(carta::config::SCHEMA_PATH), &generated);
}
