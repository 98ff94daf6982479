//! Writing a folder of output all at once: the files go to a hidden
//! sibling folder first, which then takes the place of the old one, so a
//! reader sees the old sheets or the new ones, never a mix or a half.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use super::OutputFile;

/// Replaces folder `dest` by a folder holding exactly `files`.
///
/// # Errors
/// When a file or folder cannot be written or renamed; `dest` is then left
/// as it was (or absent if it was), and the temporary folder is removed.
pub fn write_atomically(dest: &Path, files: &[OutputFile]) -> io::Result<()> {
    let parent = dest.parent().unwrap_or(Path::new("."));
    fs::create_dir_all(parent)?;
    let name = dest
        .file_name()
        .and_then(|n| n.to_str())
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "output folder has no name"))?;
    remove_stale(parent, name);
    let tmp = sibling(parent, name, "tmp");
    let old = sibling(parent, name, "old");
    let result = fill(&tmp, files).and_then(|()| swap(dest, &tmp, &old));
    if result.is_err() {
        let _ = fs::remove_dir_all(&tmp);
    }
    result
}

/// Removes the staging folders of `name` that earlier runs left behind when
/// they were killed (their process is gone); a running build's are kept.
fn remove_stale(parent: &Path, name: &str) {
    let Ok(entries) = fs::read_dir(parent) else {
        return;
    };
    for entry in entries.flatten() {
        let file_name = entry.file_name();
        let Some(rest) = file_name
            .to_str()
            .and_then(|n| n.strip_prefix(&format!(".{name}.")))
        else {
            continue;
        };
        let pid = ["tmp-", "old-"]
            .iter()
            .find_map(|p| rest.strip_prefix(p))
            .and_then(|pid| pid.parse::<u32>().ok());
        // Only real folders: a symlink named like one is not followed.
        let is_dir = entry.file_type().is_ok_and(|t| t.is_dir());
        if let (Some(pid), true) = (pid, is_dir) {
            if pid != std::process::id() && !is_running(pid) {
                let _ = fs::remove_dir_all(entry.path());
            }
        }
    }
}

/// Whether a process with id `pid` exists.
fn is_running(pid: u32) -> bool {
    #[cfg(unix)]
    {
        let Ok(pid) = libc::pid_t::try_from(pid) else {
            return false;
        };
        // Signal 0 checks that the process exists without touching it.
        // SAFETY: kill with signal 0 sends nothing and has no memory effects.
        let alive = unsafe { libc::kill(pid, 0) } == 0;
        alive || io::Error::last_os_error().raw_os_error() == Some(libc::EPERM)
    }
    #[cfg(not(unix))]
    {
        let _ = pid;
        true
    }
}

fn sibling(parent: &Path, name: &str, what: &str) -> PathBuf {
    parent.join(format!(".{name}.{what}-{}", std::process::id()))
}

fn fill(tmp: &Path, files: &[OutputFile]) -> io::Result<()> {
    if tmp.exists() {
        fs::remove_dir_all(tmp)?;
    }
    fs::create_dir_all(tmp)?;
    for f in files {
        let path = tmp.join(&f.path);
        if let Some(dir) = path.parent() {
            fs::create_dir_all(dir)?;
        }
        fs::write(&path, &f.bytes)?;
    }
    Ok(())
}

fn swap(dest: &Path, tmp: &Path, old: &Path) -> io::Result<()> {
    if dest.exists() {
        fs::rename(dest, old)?;
        if let Err(e) = fs::rename(tmp, dest) {
            let _ = fs::rename(old, dest);
            return Err(e);
        }
        fs::remove_dir_all(old)?;
    } else {
        fs::rename(tmp, dest)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(path: &str, text: &str) -> OutputFile {
        OutputFile {
            path: path.into(),
            bytes: text.as_bytes().to_vec(),
        }
    }

    #[test]
    fn replaces_the_whole_folder_and_leaves_no_temporary() {
        let dir = tempfile::tempdir().unwrap();
        let dest = dir.path().join("g/sheets");
        write_atomically(&dest, &[file("index.html", "1"), file("img/a.png", "a")]).unwrap();
        write_atomically(&dest, &[file("index.html", "2")]).unwrap();
        assert_eq!(fs::read_to_string(dest.join("index.html")).unwrap(), "2");
        assert!(!dest.join("img/a.png").exists(), "stale files are gone");
        let names: Vec<_> = fs::read_dir(dir.path().join("g"))
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, ["sheets"]);
    }

    #[test]
    fn stale_staging_folders_of_dead_runs_are_removed() {
        let dir = tempfile::tempdir().unwrap();
        let dest = dir.path().join("sheets");
        // No process has an id this large (the kernel's maximum is 2^22).
        let dead = dir.path().join(".sheets.tmp-4000000000");
        // Process 1 always runs: its staging folder is left alone.
        let alive = dir.path().join(".sheets.tmp-1");
        fs::create_dir_all(dead.join("img")).unwrap();
        fs::create_dir_all(&alive).unwrap();
        write_atomically(&dest, &[file("index.html", "1")]).unwrap();
        assert!(!dead.exists(), "a dead run's staging folder is removed");
        assert!(alive.exists(), "a running process's is kept");
        assert!(dest.join("index.html").exists());
    }
}
