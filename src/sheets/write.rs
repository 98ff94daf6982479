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
    let tmp = sibling(parent, name, "tmp");
    let old = sibling(parent, name, "old");
    let result = fill(&tmp, files).and_then(|()| swap(dest, &tmp, &old));
    if result.is_err() {
        let _ = fs::remove_dir_all(&tmp);
    }
    result
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
}
