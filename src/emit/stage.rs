//! The stage: a hidden folder inside the output folder where emitters
//! write, swapped into place only when a whole build succeeded.
//!
//! Each path an emitter writes belongs to a *unit*: a file
//! (`intrepidos/intrepidos.carta`) or a folder (`intrepidos/sheets`) that
//! replaces its predecessor whole — a reader sees the old sheets or the new
//! ones, never a mix. Units are swapped one after the other with renames on
//! the same file system, after everything has been written and synced.
//!
//! A build that fails, panics or is killed leaves its stage behind at
//! worst; the next build removes stages (and half-swapped leftovers) whose
//! process is gone.

use std::collections::BTreeSet;
use std::fs::{self, File};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use super::EmitError;

/// The prefix of a stage folder's name: `.stage-<pid>`.
const STAGE_PREFIX: &str = ".stage-";

/// A build's staging folder under the output folder.
#[derive(Debug)]
pub struct Stage {
    out: PathBuf,
    dir: PathBuf,
    units: BTreeSet<PathBuf>,
    created: bool,
    /// Whether the stage created the output folder (removed again, when
    /// empty, by a build that writes nothing).
    created_out: bool,
    committed: bool,
    /// Card faces laid out so far by the sheets of this run (bounded by
    /// the limit on printed copies).
    printed: u64,
}

impl Stage {
    /// A stage for output folder `out`. Nothing is created until the first
    /// write: a build that fails before it leaves no trace.
    pub fn new(out: &Path) -> Stage {
        Stage {
            out: out.to_path_buf(),
            dir: out.join(format!("{STAGE_PREFIX}{}", std::process::id())),
            units: BTreeSet::new(),
            created: false,
            created_out: false,
            committed: false,
            printed: 0,
        }
    }

    /// The card faces the run's sheets have laid out so far, for the
    /// sheets emitter to count against the limit.
    pub fn printed(&mut self) -> &mut u64 {
        &mut self.printed
    }

    /// Creates the output folder and the stage on first use, removing what
    /// dead builds left behind.
    fn ensure(&mut self) -> Result<(), EmitError> {
        if self.created {
            return Ok(());
        }
        let write = |source| EmitError::Write {
            path: self.dir.clone(),
            source,
        };
        self.created_out = !self.out.exists();
        fs::create_dir_all(&self.out).map_err(write)?;
        remove_stale(&self.out);
        if self.dir.exists() {
            fs::remove_dir_all(&self.dir).map_err(write)?;
        }
        fs::create_dir(&self.dir).map_err(write)?;
        self.created = true;
        Ok(())
    }

    /// Declares `unit` (relative to the output folder) a folder that is
    /// replaced whole, even by an empty one.
    ///
    /// # Errors
    /// When its staging folder cannot be created.
    pub fn folder(&mut self, unit: &Path) -> Result<(), EmitError> {
        self.ensure()?;
        let staged = self.dir.join(unit);
        fs::create_dir_all(&staged).map_err(|source| EmitError::Write {
            path: staged,
            source,
        })?;
        self.units.insert(unit.to_path_buf());
        Ok(())
    }

    /// Writes `bytes` to `path` (relative to the output folder). A path in
    /// no declared folder is a unit of its own.
    ///
    /// # Errors
    /// When the file cannot be written.
    pub fn write(&mut self, path: &Path, bytes: &[u8]) -> Result<(), EmitError> {
        let mut file = self.create(path)?;
        let staged = self.dir.join(path);
        file.write_all(bytes)
            .and_then(|()| file.flush())
            .map_err(|source| EmitError::Write {
                path: staged,
                source,
            })
    }

    /// A file to stream into at `path` (relative to the output folder), as
    /// [`Stage::write`].
    ///
    /// # Errors
    /// When the file cannot be created.
    pub fn create(&mut self, path: &Path) -> Result<BufWriter<File>, EmitError> {
        self.ensure()?;
        if !self.units.iter().any(|u| path.starts_with(u)) {
            self.units.insert(path.to_path_buf());
        }
        let staged = self.dir.join(path);
        let created = staged
            .parent()
            .map_or(Ok(()), fs::create_dir_all)
            .and_then(|()| File::create(&staged));
        created
            .map(BufWriter::new)
            .map_err(|source| EmitError::Write {
                path: staged,
                source,
            })
    }

    /// Moves every staged unit into place and returns them (relative to the
    /// output folder, in order).
    ///
    /// # Errors
    /// When a unit cannot be synced or renamed; units swapped before it stay
    /// swapped, the others keep their old contents.
    pub fn commit(mut self) -> Result<Vec<PathBuf>, EmitError> {
        let units = std::mem::take(&mut self.units);
        for unit in &units {
            let staged = self.dir.join(unit);
            let target = self.out.join(unit);
            sync(&staged)
                .and_then(|()| swap(&staged, &target))
                .map_err(|source| EmitError::Write {
                    path: target.clone(),
                    source,
                })?;
        }
        self.committed = true;
        let _ = fs::remove_dir_all(&self.dir);
        Ok(units.into_iter().collect())
    }
}

impl Drop for Stage {
    fn drop(&mut self) {
        if self.created && !self.committed {
            let _ = fs::remove_dir_all(&self.dir);
            if self.created_out {
                let _ = fs::remove_dir(&self.out);
            }
        }
    }
}

/// Flushes a staged file, or every file of a staged folder, to disk before
/// it replaces anything.
fn sync(path: &Path) -> io::Result<()> {
    if path.is_dir() {
        for entry in fs::read_dir(path)? {
            sync(&entry?.path())?;
        }
        Ok(())
    } else {
        File::open(path)?.sync_all()
    }
}

/// Replaces `target` by `staged`: a file by a rename over it, a folder by
/// moving the old one aside first.
fn swap(staged: &Path, target: &Path) -> io::Result<()> {
    let parent = target.parent().unwrap_or(Path::new("."));
    fs::create_dir_all(parent)?;
    let replaces_file = target.is_file() && staged.is_file();
    if replaces_file || fs::symlink_metadata(target).is_err() {
        return fs::rename(staged, target);
    }
    let name = target.file_name().unwrap_or_default().to_string_lossy();
    let old = parent.join(format!(".{name}.old-{}", std::process::id()));
    fs::rename(target, &old)?;
    if let Err(e) = fs::rename(staged, target) {
        let _ = fs::rename(&old, target);
        return Err(e);
    }
    remove(&old)
}

/// Removes a file or a folder.
fn remove(path: &Path) -> io::Result<()> {
    if path.is_dir() {
        fs::remove_dir_all(path)
    } else {
        fs::remove_file(path)
    }
}

/// Removes the stages of builds whose process is gone, and the folders they
/// left half-swapped (`.<name>.old-<pid>`, and `.<name>.tmp-<pid>` of
/// earlier carta versions) one level down.
fn remove_stale(out: &Path) {
    let dead = |name: &str, marker: &str| {
        name.starts_with('.')
            && name
                .rsplit_once(marker)
                .and_then(|(_, pid)| pid.parse::<u32>().ok())
                .is_some_and(|pid| !alive(pid))
    };
    let entries = |dir: &Path| fs::read_dir(dir).into_iter().flatten().flatten();
    for entry in entries(out) {
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with(STAGE_PREFIX) && dead(&name, STAGE_PREFIX) {
            let _ = fs::remove_dir_all(entry.path());
        } else if entry.path().is_dir() && !name.starts_with('.') {
            for inner in entries(&entry.path()) {
                let name = inner.file_name().to_string_lossy().into_owned();
                if dead(&name, ".old-") || dead(&name, ".tmp-") {
                    let _ = remove(&inner.path());
                }
            }
        }
    }
}

/// Whether process `pid` is running. Where that cannot be known (no
/// `/proc`), every process counts as running: nothing is removed.
fn alive(pid: u32) -> bool {
    let proc = Path::new("/proc");
    !proc.is_dir() || proc.join(pid.to_string()).exists()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn a_commit_replaces_folders_whole_and_files_and_leaves_no_temporary() {
        let out = tempfile::tempdir().unwrap();
        let g = out.path().join("g");
        fs::create_dir_all(g.join("sheets/img")).unwrap();
        fs::write(g.join("sheets/img/stale.png"), "old").unwrap();
        fs::write(g.join("g.carta"), "old").unwrap();
        fs::write(g.join("keep.txt"), "not ours").unwrap();

        let mut stage = Stage::new(out.path());
        stage.folder(Path::new("g/sheets")).unwrap();
        stage
            .write(Path::new("g/sheets/index.html"), b"new page")
            .unwrap();
        stage.write(Path::new("g/g.carta"), b"new bundle").unwrap();
        let units = stage.commit().unwrap();

        assert_eq!(
            units,
            [PathBuf::from("g/g.carta"), PathBuf::from("g/sheets")]
        );
        assert_eq!(fs::read_to_string(g.join("g.carta")).unwrap(), "new bundle");
        assert_eq!(
            fs::read_to_string(g.join("sheets/index.html")).unwrap(),
            "new page"
        );
        assert!(
            !g.join("sheets/img").exists(),
            "the old folder is gone whole"
        );
        assert_eq!(names(&g), ["g.carta", "keep.txt", "sheets"]);
        assert_eq!(names(out.path()), ["g"], "no stage is left");
    }

    #[test]
    fn a_stage_dropped_without_commit_changes_nothing() {
        let out = tempfile::tempdir().unwrap();
        fs::create_dir_all(out.path().join("g")).unwrap();
        fs::write(out.path().join("g/g.carta"), "old").unwrap();
        {
            let mut stage = Stage::new(out.path());
            stage.write(Path::new("g/g.carta"), b"new").unwrap();
        }
        assert_eq!(
            fs::read_to_string(out.path().join("g/g.carta")).unwrap(),
            "old"
        );
        assert_eq!(names(out.path()), ["g"]);
    }

    #[test]
    fn a_failed_build_leaves_no_output_folder_it_created() {
        let root = tempfile::tempdir().unwrap();
        let out = root.path().join("build");
        let mut stage = Stage::new(&out);
        stage.write(Path::new("g/g.carta"), b"new").unwrap();
        drop(stage);
        assert!(!out.exists());
    }

    #[test]
    fn stages_and_leftovers_of_dead_builds_are_removed() {
        let out = tempfile::tempdir().unwrap();
        // No process has this id (Linux's pid_max is at most 2^22).
        let dead = 999_999_999;
        fs::create_dir_all(out.path().join(format!(".stage-{dead}/g"))).unwrap();
        fs::create_dir_all(out.path().join(format!("g/.sheets.tmp-{dead}"))).unwrap();
        fs::create_dir_all(out.path().join(format!("g/.sheets.old-{dead}"))).unwrap();
        let live = std::process::id();
        fs::create_dir_all(out.path().join(format!("g/.sheets.tmp-{live}"))).unwrap();
        let mut stage = Stage::new(out.path());
        stage.write(Path::new("g/g.carta"), b"new").unwrap();
        drop(stage);
        assert_eq!(names(out.path()), ["g"]);
        assert_eq!(
            names(&out.path().join("g")),
            [format!(".sheets.tmp-{live}")],
            "a running build's folder is kept"
        );
    }
}
