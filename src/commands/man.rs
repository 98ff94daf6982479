//! `carta man --out DIR`: the manual pages, one per command, written into a
//! folder (created with its parents, as `mkdir -p` would). The pages come
//! rendered from [`crate::cli`], which owns the command line they describe.

use std::path::Path;

use super::{CommandError, Report};
use crate::emit::EmitError;
use crate::write::Folder;

/// Writes each `(file name, roff)` page into `out`, each atomically; a link
/// or a non-regular file where a page goes is refused.
///
/// # Errors
/// When the folder cannot be created or a page cannot be written.
pub(crate) fn write(out: &Path, pages: &[(String, Vec<u8>)]) -> Result<Report, CommandError> {
    let folder = Folder::create(out).map_err(EmitError::from)?;
    for (name, page) in pages {
        folder
            .write_atomic(name, page, false)
            .map_err(EmitError::from)?;
    }
    Ok(Report::plain(format!(
        "wrote {} manual pages to {}",
        pages.len(),
        out.display()
    )))
}
