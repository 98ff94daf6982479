//! "Save": the one write the server makes — a deck file into
//! `cards/<game>/decks/`, under a sanitised name, never over an existing
//! file unless asked, never outside the workspace.

use std::io::Write as _;
use std::path::Path;

/// Why a deck was not saved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum SaveError {
    /// The file exists (workspace-relative path) and replacing was not asked.
    Exists(String),
    /// The target is not a plain file inside the workspace.
    Refused(String),
    /// The file could not be written.
    Io(String),
}

/// The longest file stem made.
const MAX_STEM: usize = 64;

/// A file stem from what the player typed: lower-case ASCII letters,
/// digits and single dashes (accents dropped: `Fúria de Áries` →
/// `furia-de-aries`); `deck` when nothing is left.
pub(super) fn stem(wanted: &str) -> String {
    let wanted = wanted.trim();
    let stem = crate::suggest::slug(wanted.strip_suffix(".toml").unwrap_or(wanted), MAX_STEM);
    if stem.is_empty() { "deck".into() } else { stem }
}

/// Writes `text` to `cards/<game>/decks/<stem>.toml` under `root`
/// (through a temporary file renamed over it); returns its
/// workspace-relative path.
pub(super) fn write(
    root: &Path,
    game: &str,
    stem: &str,
    text: &str,
    overwrite: bool,
) -> Result<String, SaveError> {
    let rel = format!("cards/{game}/decks/{stem}.toml");
    let dir = root.join("cards").join(game).join("decks");
    std::fs::create_dir_all(&dir)
        .map_err(|e| SaveError::Io(format!("cannot create the decks folder: {e}")))?;
    let (Ok(real_dir), Ok(real_root)) = (dir.canonicalize(), root.canonicalize()) else {
        return Err(SaveError::Refused(
            "the decks folder cannot be resolved".into(),
        ));
    };
    if !real_dir.starts_with(&real_root) {
        return Err(SaveError::Refused(
            "the decks folder leads outside the workspace".into(),
        ));
    }
    let target = real_dir.join(format!("{stem}.toml"));
    match std::fs::symlink_metadata(&target) {
        Ok(m) if !m.file_type().is_file() => {
            return Err(SaveError::Refused(format!("`{rel}` is not a plain file")));
        }
        Ok(_) if !overwrite => return Err(SaveError::Exists(rel)),
        _ => {}
    }
    let tmp = real_dir.join(format!(".{stem}.toml.{}.tmp", std::process::id()));
    let result = std::fs::File::create_new(&tmp)
        .and_then(|mut f| {
            f.write_all(text.as_bytes())?;
            f.sync_all()
        })
        .and_then(|()| {
            if !overwrite && target.exists() {
                return Err(std::io::Error::from(std::io::ErrorKind::AlreadyExists));
            }
            std::fs::rename(&tmp, &target)
        });
    if let Err(e) = result {
        let _ = std::fs::remove_file(&tmp);
        return Err(
            if e.kind() == std::io::ErrorKind::AlreadyExists && !overwrite {
                SaveError::Exists(rel)
            } else {
                SaveError::Io(format!("cannot write `{rel}`: {e}"))
            },
        );
    }
    Ok(rel)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_sanitised() {
        assert_eq!(stem("Fúria de Áries"), "furia-de-aries");
        assert_eq!(stem("../../etc/passwd"), "etc-passwd");
        assert_eq!(stem("  my deck.toml "), "my-deck");
        assert_eq!(stem("..."), "deck");
        assert_eq!(stem("Ünïcödé ✨ 2"), "unicode-2");
        assert!(stem(&"x".repeat(500)).len() <= MAX_STEM);
    }

    #[test]
    fn an_existing_file_is_kept_unless_replacing_is_asked() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path();
        std::fs::create_dir_all(root.join("cards/g")).unwrap();
        assert_eq!(
            write(root, "g", "a", "one", false),
            Ok("cards/g/decks/a.toml".into())
        );
        assert_eq!(
            write(root, "g", "a", "two", false),
            Err(SaveError::Exists("cards/g/decks/a.toml".into()))
        );
        let file = root.join("cards/g/decks/a.toml");
        assert_eq!(std::fs::read_to_string(&file).unwrap(), "one");
        assert!(write(root, "g", "a", "two", true).is_ok());
        assert_eq!(std::fs::read_to_string(&file).unwrap(), "two");
        let left: Vec<_> = std::fs::read_dir(root.join("cards/g/decks"))
            .unwrap()
            .collect();
        assert_eq!(left.len(), 1, "no temporary file is left");
    }
}
