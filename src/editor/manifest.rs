//! The schema of `game.toml` for the editor: the manifest's own schema
//! (generated from the Rust types) in draft 7.

use serde_json::Value;

use super::draft7::to_draft7;

/// The manifest's editor schema (without `$schema`).
pub(super) fn schema() -> Value {
    // The manifest's schema is one document: its refs are local.
    let local = |r: &str| {
        r.starts_with('#')
            .then(|| r.replace("/$defs/", "/definitions/"))
    };
    to_draft7(crate::config::json_schema(), &local)
}
