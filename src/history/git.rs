//! A git revision of the workspace, read with gix (no `git` binary): the
//! folders a compile reads (`cards/`, `schemas/`, `templates/`) written
//! from the revision's tree into a temporary folder carta owns, which the
//! same load → validate → link pipeline then opens as a workspace.

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::write::Folder;

/// The folders of a workspace that a compile reads.
const READ: [&str; 3] = ["cards", "schemas", "templates"];

/// Why a revision could not be read.
#[derive(Debug, thiserror::Error)]
pub enum GitError {
    /// The workspace is in no git repository.
    #[error("`{}` is in no git repository, so `{rev}` names no revision", root.display())]
    NoRepository {
        /// The workspace folder.
        root: PathBuf,
        /// The revision asked for.
        rev: String,
    },
    /// The revision does not parse or names nothing.
    #[error("`{rev}` is no revision of this repository ({why})")]
    UnknownRevision {
        /// The revision asked for.
        rev: String,
        /// gix's reason.
        why: String,
    },
    /// Reading the repository's objects failed.
    #[error("cannot read `{rev}` from the repository: {why}")]
    Read {
        /// The revision being read.
        rev: String,
        /// What failed.
        why: String,
    },
    /// Writing the revision's files into the temporary folder failed.
    #[error("cannot write revision `{rev}` into a temporary folder: {why}")]
    Write {
        /// The revision being written.
        rev: String,
        /// What failed.
        why: String,
    },
}

/// The repository holding the workspace at `root`, and the workspace's
/// folder relative to the repository's work tree (`""` at its top).
fn open(root: &Path, rev: &str) -> Result<(gix::Repository, String), GitError> {
    let none = || GitError::NoRepository {
        root: root.to_path_buf(),
        rev: rev.to_owned(),
    };
    let repo = gix::discover(root).map_err(|_| none())?;
    let top = repo.workdir().ok_or_else(none)?;
    let (top, here) = (
        top.canonicalize().map_err(|_| none())?,
        root.canonicalize().map_err(|_| none())?,
    );
    let below = here.strip_prefix(&top).map_err(|_| none())?;
    let prefix = below
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/");
    Ok((repo, prefix))
}

/// The tag of the repository holding `root` whose commit is the newest
/// (by commit time, then by name), or `None` when it has none (or there is
/// no repository).
pub fn last_tag(root: &Path) -> Option<String> {
    let (repo, _) = open(root, "").ok()?;
    let refs = repo.references().ok()?;
    let mut best: Option<(i64, String)> = None;
    for mut tag in refs.tags().ok()?.flatten() {
        let name = tag.name().shorten().to_string();
        let Ok(id) = tag.peel_to_id() else { continue };
        let commit = id.object().ok().and_then(|o| o.peel_to_commit().ok());
        let Some(time) = commit.and_then(|c| c.time().ok()).map(|t| t.seconds) else {
            continue;
        };
        if best.as_ref().is_none_or(|(t, n)| (time, &name) > (*t, n)) {
            best = Some((time, name));
        }
    }
    best.map(|(_, name)| name)
}

/// Whether the workspace at `root` is in a git repository.
pub fn in_repository(root: &Path) -> bool {
    open(root, "").is_ok()
}

/// Writes the workspace's folders as they are at revision `rev` into the
/// empty folder `into`: each file of `cards/`, `schemas/` and
/// `templates/` below the workspace's place in the repository. Links and
/// submodules are left out (a workspace read from disk never follows a
/// link out of itself either).
///
/// # Errors
/// When there is no repository, `rev` names no commit, or a file cannot be
/// read or written.
pub(super) fn write_revision(root: &Path, rev: &str, into: &Path) -> Result<(), GitError> {
    let (repo, prefix) = open(root, rev)?;
    let unknown = |why: String| GitError::UnknownRevision {
        rev: rev.to_owned(),
        why,
    };
    let read = |e: &dyn std::fmt::Display| GitError::Read {
        rev: rev.to_owned(),
        why: e.to_string(),
    };
    let id = repo
        .rev_parse_single(rev)
        .map_err(|e| unknown(e.to_string()))?;
    let object = id.object().map_err(|e| read(&e))?;
    let tree = object
        .peel_to_commit()
        .map_err(|e| unknown(e.to_string()))?
        .tree()
        .map_err(|e| read(&e))?;
    let mut found = gix::traverse::tree::Recorder::default();
    tree.traverse()
        .breadthfirst(&mut found)
        .map_err(|e| read(&e))?;
    let folder = Folder::open(into).map_err(|e| write_error(rev, &e))?;
    for entry in found.records {
        if !entry.mode.is_blob() {
            continue;
        }
        let path = entry.filepath.to_string();
        let Some(rel) = inside(&path, &prefix) else {
            continue;
        };
        let blob = repo.find_object(entry.oid).map_err(|e| read(&e))?;
        write_file(&folder, rel, &blob.data).map_err(|e| write_error(rev, &e))?;
    }
    Ok(())
}

/// `path` relative to the workspace at `prefix` of the repository, when it
/// lies in one of the folders a compile reads.
fn inside<'p>(path: &'p str, prefix: &str) -> Option<&'p str> {
    let rel = if prefix.is_empty() {
        path
    } else {
        path.strip_prefix(prefix)?.strip_prefix('/')?
    };
    let top = rel.split('/').next()?;
    (READ.contains(&top) && rel.contains('/')).then_some(rel)
}

/// Writes `bytes` as `rel` below `folder`, creating its folders.
fn write_file(folder: &Folder, rel: &str, bytes: &[u8]) -> Result<(), crate::write::WriteError> {
    let (dir, name) = crate::write::split(Path::new(rel));
    let dir = folder.sub(dir)?;
    let mut file = dir.create_new(name)?;
    file.write_all(bytes)
        .map_err(|source| crate::write::WriteError::Io {
            path: dir.shown(name),
            source,
        })
}

fn write_error(rev: &str, e: &dyn std::fmt::Display) -> GitError {
    GitError::Write {
        rev: rev.to_owned(),
        why: e.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::inside;

    #[test]
    fn only_the_folders_a_compile_reads_are_written() {
        assert_eq!(inside("cards/g/a.toml", ""), Some("cards/g/a.toml"));
        assert_eq!(inside("ws/cards/g/a.toml", "ws"), Some("cards/g/a.toml"));
        assert_eq!(inside("wsx/cards/g/a.toml", "ws"), None);
        assert_eq!(inside("build/g/g.carta", ""), None);
        assert_eq!(inside("cards", ""), None);
        assert_eq!(inside("README.md", ""), None);
    }
}
