//! Listing the files under a workspace folder with `walkdir`: sorted,
//! hidden entries skipped, symlinks followed only while they stay inside
//! the workspace, loops detected instead of followed.

use std::path::Path;

use walkdir::WalkDir;

use super::LoadError;
use super::confine::{Jail, ReadProblem};

/// What a walk found.
#[derive(Debug, Default)]
pub(super) struct Found {
    /// Workspace-relative paths of the files (anything not a folder), sorted.
    pub files: Vec<String>,
    /// Workspace-relative paths the walk did not enter or list, why, and
    /// whether they lead to a folder.
    pub refused: Vec<(String, ReadProblem, bool)>,
}

/// The files under `root/rel_dir` (`/`-separated, relative to `root`); an
/// absent folder has none.
///
/// # Errors
/// When a folder cannot be listed for a reason other than a loop.
pub(super) fn files(root: &Path, jail: &Jail, rel_dir: &str) -> Result<Found, LoadError> {
    if let Some(files) = jail.seen().and_then(|seen| seen.listed(rel_dir)) {
        // A snapshot holds no link: nothing to refuse.
        return Ok(Found {
            files,
            refused: Vec::new(),
        });
    }
    walk(root, jail, rel_dir)
}

/// [`files`], listed by `walkdir`.
fn walk(root: &Path, jail: &Jail, rel_dir: &str) -> Result<Found, LoadError> {
    let mut found = Found::default();
    let top = root.join(rel_dir);
    if !top.is_dir() {
        return Ok(found);
    }
    let relative = |path: &Path| -> String {
        let below = path.strip_prefix(&top).unwrap_or(path);
        let mut rel = rel_dir.to_owned();
        for c in below.components() {
            rel.push('/');
            rel.push_str(&c.as_os_str().to_string_lossy());
        }
        rel
    };
    let mut refused = Vec::new();
    let walker = WalkDir::new(&top)
        .follow_links(true)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|e| {
            if e.depth() > 0 && e.file_name().to_string_lossy().starts_with('.') {
                return false;
            }
            // A link is entered or listed only if it stays in the workspace;
            // `ln -s / cards/g/root` must not walk the disk.
            match e.path_is_symlink().then(|| jail.confine(e.path())) {
                Some(Err(problem)) => {
                    refused.push((relative(e.path()), problem, e.path().is_dir()));
                    false
                }
                _ => true,
            }
        });
    let mut loops = Vec::new();
    for entry in walker {
        match entry {
            Ok(e) if !e.file_type().is_dir() => found.files.push(relative(e.path())),
            Ok(_) => {}
            Err(e) if e.loop_ancestor().is_some() => {
                let at = e.path().map_or_else(|| rel_dir.to_owned(), &relative);
                loops.push((at, ReadProblem::Loop, true));
            }
            Err(e) => {
                let path = e.path().unwrap_or(&top).to_path_buf();
                // A link that points nowhere is listed: reading it reports it.
                if e.io_error().map(std::io::Error::kind) == Some(std::io::ErrorKind::NotFound) {
                    found.files.push(relative(&path));
                    continue;
                }
                let source = e
                    .into_io_error()
                    .unwrap_or_else(|| std::io::Error::other("cannot walk"));
                return Err(LoadError::Io { path, source });
            }
        }
    }
    found.refused = refused;
    found.refused.extend(loops);
    found.refused.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(found)
}
