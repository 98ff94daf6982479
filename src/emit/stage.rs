//! The stage: a hidden folder inside the output folder where emitters
//! write, swapped into place only when a whole build succeeded.
//!
//! Each path an emitter writes belongs to a *unit*: a file
//! (`intrepidos/intrepidos.carta`) or a folder (`intrepidos/sheets`) that
//! replaces its predecessor whole — a reader sees the old sheets or the new
//! ones, never a mix. Units are swapped one after the other with renames on
//! the same file system, after everything has been written.
//!
//! A unit is not synced to disk before its swap: like the caches, a build's
//! output is derived from the sources, and made again by the next build
//! should a crash of the system lose it (what a reader may then find, the
//! bundle's checksums and the faces cache's reject). carta syncs the files
//! it cannot make again: a player's saved deck and collection, a
//! translation file, what `init` and `convert` create.
//!
//! A build that fails, panics or is killed leaves its stage behind at
//! worst; the next build removes stages (and half-swapped leftovers) whose
//! process is gone.

use std::collections::{BTreeSet, HashMap};
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Component, Path, PathBuf};

use super::EmitError;
use crate::write::{self, Folder, Kind, WriteError};

/// The prefix of a stage folder's name: `.stage-<pid>`.
const STAGE_PREFIX: &str = ".stage-";

/// A build's staging folder under the output folder.
#[derive(Debug)]
pub struct Stage {
    root: PathBuf,
    out: PathBuf,
    /// The output folder and the stage in it, once opened.
    open: Option<(Folder, Folder)>,
    /// Folders of the stage already opened, by path relative to it.
    folders: HashMap<PathBuf, Folder>,
    units: BTreeSet<PathBuf>,
    /// Whether the stage created the output folder (removed again, when
    /// empty, by a build that writes nothing).
    created_out: bool,
    committed: bool,
    /// Card faces laid out so far by the sheets of this run (bounded by
    /// the limit on printed copies).
    printed: u64,
}

impl Stage {
    /// A stage for output folder `out` of the workspace at `root`. Nothing
    /// is created until the first write: a build that fails before it
    /// leaves no trace.
    ///
    /// An output folder inside the workspace (`build/`) is reached from
    /// the root without following a link; one outside it was named by the
    /// user and is taken as given. Under it, nothing is followed.
    pub fn new(root: &Path, out: &Path) -> Stage {
        Stage {
            root: root.to_path_buf(),
            out: out.to_path_buf(),
            open: None,
            folders: HashMap::new(),
            units: BTreeSet::new(),
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

    fn stage_name() -> String {
        format!("{STAGE_PREFIX}{}", std::process::id())
    }

    /// Opens (creating) the output folder and the stage on first use,
    /// removing what dead builds left behind.
    fn ensure(&mut self) -> Result<&Folder, EmitError> {
        if self.open.is_none() {
            let (out, created) = open_out(&self.root, &self.out)?;
            self.created_out = created;
            remove_stale(&out);
            let name = Stage::stage_name();
            out.remove_all(&name)?;
            let stage = out.sub(&name)?;
            self.open = Some((out, stage));
        }
        Ok(&self.open.as_ref().expect("opened above").1)
    }

    /// The stage's folder `rel`, created.
    fn staged(&mut self, rel: &Path) -> Result<&Folder, EmitError> {
        if !self.folders.contains_key(rel) {
            let folder = self.ensure()?.sub(rel)?;
            self.folders.insert(rel.to_path_buf(), folder);
        }
        Ok(&self.folders[rel])
    }

    /// Declares `unit` (relative to the output folder) a folder that is
    /// replaced whole, even by an empty one.
    ///
    /// # Errors
    /// When its staging folder cannot be created.
    pub fn folder(&mut self, unit: &Path) -> Result<(), EmitError> {
        self.staged(unit)?;
        self.units.insert(unit.to_path_buf());
        Ok(())
    }

    /// Writes `bytes` to `path` (relative to the output folder). A path in
    /// no declared folder is a unit of its own.
    ///
    /// # Errors
    /// When the file cannot be written.
    pub fn write(&mut self, path: &Path, bytes: &[u8]) -> Result<(), EmitError> {
        self.write_with(path, |file| file.write_all(bytes))
    }

    /// Writes the file at `path` (relative to the output folder) a piece
    /// at a time through `fill`, as [`Stage::write`].
    ///
    /// # Errors
    /// When the file cannot be created, or `fill` fails.
    pub fn write_with(
        &mut self,
        path: &Path,
        fill: impl FnOnce(&mut BufWriter<File>) -> std::io::Result<()>,
    ) -> Result<(), EmitError> {
        let mut file = self.create(path)?;
        fill(&mut file)
            .and_then(|()| file.flush())
            .map_err(|source| EmitError::Write {
                path: self.out.join(path),
                source,
            })
    }

    /// A file to stream into at `path` (relative to the output folder), as
    /// [`Stage::write`].
    ///
    /// # Errors
    /// When the file cannot be created.
    pub fn create(&mut self, path: &Path) -> Result<BufWriter<File>, EmitError> {
        if !self.units.iter().any(|u| path.starts_with(u)) {
            self.units.insert(path.to_path_buf());
        }
        let (dir, name) = write::split(path);
        Ok(BufWriter::new(self.staged(dir)?.create_file(name)?))
    }

    /// The file at `path` (relative to the output folder) as the last
    /// build put it in place, opened for reading without following a link
    /// (the faces cache reads the last sheets from it); `None` when there
    /// is none, or something else than a regular file is there.
    pub fn committed(&mut self, path: &Path) -> Option<File> {
        self.ensure().ok()?;
        let (out, _) = self.open.as_ref()?;
        let (dir, name) = write::split(path);
        out.existing(dir).ok()??.open_read(name).ok()?
    }

    /// Where `path` (relative to the output folder) is staged on disk, for
    /// a reader of what was written (the browser that measures the
    /// sheets); `None` before anything was staged.
    pub fn staged_path(&self, path: &Path) -> Option<PathBuf> {
        self.open
            .as_ref()
            .map(|_| self.out.join(Stage::stage_name()).join(path))
    }

    /// Moves every staged unit into place and returns them (relative to the
    /// output folder, in order). A link or a non-regular file where a unit
    /// goes, or on its way, is refused before any unit is moved.
    ///
    /// # Errors
    /// When a unit is refused, or cannot be renamed; units
    /// swapped before it stay swapped, the others keep their old contents.
    pub fn commit(mut self) -> Result<Vec<PathBuf>, EmitError> {
        let units = std::mem::take(&mut self.units);
        let Some((out, stage)) = self.open.as_ref() else {
            self.committed = true;
            return Ok(Vec::new());
        };
        for unit in &units {
            let (dir, name) = write::split(unit);
            if let Some(target) = out.existing(dir)? {
                refuse_special(&target, name)?;
            }
        }
        for unit in &units {
            let (dir, name) = write::split(unit);
            // The stage is this run's: its folders were all made above.
            let staged = stage.sub(dir)?;
            let target = out.sub(dir)?;
            swap(&staged, &target, name)?;
        }
        self.committed = true;
        let _ = out.remove_all(&Stage::stage_name());
        Ok(units.into_iter().collect())
    }
}

impl Drop for Stage {
    fn drop(&mut self) {
        if let Some((out, _)) = &self.open
            && !self.committed
        {
            let _ = out.remove_all(&Stage::stage_name());
            if self.created_out {
                // `rmdir` never follows a link, and keeps a non-empty folder.
                let _ = std::fs::remove_dir(&self.out);
            }
        }
    }
}

/// Opens the output folder `out`, creating it, and says whether it was
/// created. Inside the workspace at `root` it is reached from the root one
/// folder at a time without following a link; elsewhere, the user named
/// it and it is opened as given.
fn open_out(root: &Path, out: &Path) -> Result<(Folder, bool), WriteError> {
    let absolute = |p: &Path| std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf());
    let (root_abs, out_abs) = (absolute(root), absolute(out));
    let inside = out_abs.strip_prefix(&root_abs).ok().filter(|rel| {
        rel.components()
            .all(|c| matches!(c, Component::Normal(_) | Component::CurDir))
    });
    if let Some(rel) = inside {
        let root = Folder::workspace(root)?;
        let created = root.existing(rel)?.is_none();
        return Ok((root.sub(rel)?, created));
    }
    let created = std::fs::symlink_metadata(out).is_err();
    Ok((Folder::create(out)?, created))
}

/// Refuses a link, or anything but a file or a folder, at `name`.
fn refuse_special(dir: &Folder, name: &str) -> Result<(), WriteError> {
    match dir.kind(name)? {
        Some(Kind::Link) => Err(WriteError::Link {
            path: dir.shown(name),
        }),
        Some(Kind::Other(what)) => Err(WriteError::NotAFile {
            path: dir.shown(name),
            what,
            wanted: "a file or a folder",
        }),
        _ => Ok(()),
    }
}

/// Replaces entry `name` of `target` by the same entry of `staged`: a file
/// by a rename over it, a folder by moving the old one aside first.
fn swap(staged: &Folder, target: &Folder, name: &str) -> Result<(), WriteError> {
    refuse_special(target, name)?;
    let old_kind = target.kind(name)?;
    let replaces_file = old_kind == Some(Kind::File) && staged.kind(name)? == Some(Kind::File);
    if replaces_file || old_kind.is_none() {
        return staged.rename(name, target, name);
    }
    let old = format!(".{name}.old-{}", std::process::id());
    target.remove_all(&old)?;
    target.rename(name, target, &old)?;
    if let Err(e) = staged.rename(name, target, name) {
        let _ = target.rename(&old, target, name);
        return Err(e);
    }
    target.remove_all(&old)
}

/// Removes the stages of builds whose process is gone, and the folders they
/// left half-swapped (`.<name>.old-<pid>`, and `.<name>.tmp-<pid>` of
/// earlier carta versions) one level down; never a link, nor through one.
fn remove_stale(out: &Folder) {
    let dead = |name: &str, marker: &str| {
        name.starts_with('.')
            && name
                .rsplit_once(marker)
                .and_then(|(_, pid)| pid.parse::<u32>().ok())
                .is_some_and(|pid| !alive(pid))
    };
    let real = |kind: Kind| matches!(kind, Kind::File | Kind::Folder);
    for (name, kind) in out.entries().into_iter().flatten() {
        let Some(name) = name.to_str() else { continue };
        if name.starts_with(STAGE_PREFIX) && kind == Kind::Folder && dead(name, STAGE_PREFIX) {
            let _ = out.remove_all(name);
        } else if kind == Kind::Folder
            && !name.starts_with('.')
            && let Ok(Some(inner)) = out.existing(name)
        {
            for (leftover, kind) in inner.entries().into_iter().flatten() {
                let Some(leftover) = leftover.to_str() else {
                    continue;
                };
                if real(kind) && (dead(leftover, ".old-") || dead(leftover, ".tmp-")) {
                    let _ = inner.remove_all(leftover);
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

    use std::fs;

    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn a_streamed_file_is_staged_whole() {
        let out = tempfile::tempdir().unwrap();
        let mut stage = Stage::new(out.path(), out.path());
        let bytes: Vec<u8> = (0..9_012_345_u32).map(|i| (i % 251) as u8).collect();
        let mut file = stage.create(Path::new("g/big.html")).unwrap();
        // Odd pieces, some smaller and some larger than the buffer.
        for piece in bytes.chunks(65_521).flat_map(|c| c.chunks(40_000)) {
            file.write_all(piece).unwrap();
        }
        drop(file);
        assert!(
            !out.path().join("g/big.html").exists(),
            "staged, not in place"
        );
        stage.commit().unwrap();
        assert_eq!(fs::read(out.path().join("g/big.html")).unwrap(), bytes);
    }

    #[test]
    fn a_commit_replaces_folders_whole_and_files_and_leaves_no_temporary() {
        let out = tempfile::tempdir().unwrap();
        let g = out.path().join("g");
        fs::create_dir_all(g.join("sheets/img")).unwrap();
        fs::write(g.join("sheets/img/stale.png"), "old").unwrap();
        fs::write(g.join("g.carta"), "old").unwrap();
        fs::write(g.join("keep.txt"), "not ours").unwrap();

        let mut stage = Stage::new(out.path(), out.path());
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
            let mut stage = Stage::new(out.path(), out.path());
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
        let mut stage = Stage::new(root.path(), &out);
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
        let mut stage = Stage::new(out.path(), out.path());
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
