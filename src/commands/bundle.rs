//! `carta decompile BUNDLE` (the bundle as JSON on stdout) and `carta
//! inspect BUNDLE` (a summary): the bundle's reader, as a game client would
//! use it.

use std::io::Write;
use std::path::Path;

use super::{CommandError, Report};
use crate::bundle::{Bundle, BundleError};
use crate::diag::{Diagnostics, SourceMap};

/// Reads the bundle at `given` (relative to `root`) and prints it whole as
/// JSON, or its summary when `inspect`.
///
/// # Errors
/// When the bundle cannot be read, or is damaged or not a bundle.
pub(crate) fn show(root: &Path, given: &Path, inspect: bool) -> Result<Report, CommandError> {
    let bundle = Bundle::open(root.join(given)).map_err(|source| CommandError::Bundle {
        path: given.to_path_buf(),
        source,
    })?;
    let text = if inspect {
        crate::bundle::summary(&bundle, given)
    } else {
        bundle
            .to_json()
            .map(|v| serde_json::to_string_pretty(&v).expect("JSON values serialize") + "\n")
    }
    .map_err(|source: BundleError| CommandError::Bundle {
        path: given.to_path_buf(),
        source,
    })?;
    // A closed pipe (`| head`) is not an error worth reporting.
    let _ = std::io::stdout().lock().write_all(text.as_bytes());
    Ok(Report {
        diags: Diagnostics::new(),
        sources: SourceMap::default(),
        summary: String::new(),
    })
}
