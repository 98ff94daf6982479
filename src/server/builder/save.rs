//! "Save": the one write the server makes — a player's deck file into
//! `decks/<game>/`, under a sanitised name, never over an existing file
//! unless asked, never outside the workspace. Not into `cards/<game>/decks/`:
//! those are the designer's example decks, which `carta check` and `carta
//! build` judge and bundle, so one illegal deck a player saved would fail
//! the game's build.

use std::path::Path;

use crate::write::{Folder, WriteError};

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
/// `furia-de-aries`); `deck` when nothing is left, and `collection-deck`
/// for `collection`, the name of the player's collection beside the decks.
pub(super) fn stem(wanted: &str) -> String {
    let wanted = wanted.trim();
    let stem = crate::suggest::slug(wanted.strip_suffix(".toml").unwrap_or(wanted), MAX_STEM);
    let collection = crate::collection::FILE_NAME.trim_end_matches(".toml");
    if stem.is_empty() {
        "deck".into()
    } else if stem == collection {
        format!("{stem}-deck")
    } else {
        stem
    }
}

/// The workspace folder players' decks of `game` are saved in.
pub(super) fn folder(game: &str) -> String {
    format!("decks/{game}")
}

/// Writes `text` to `decks/<game>/<stem>.toml` under `root`
/// (through a new temporary file, synced and renamed over it, or linked
/// into place when it must not replace one); returns its
/// workspace-relative path. Every folder on the way is reached without
/// following a link, and a link or a non-regular file at the target is
/// refused (see [`crate::write`]).
pub(super) fn write(
    root: &Path,
    game: &str,
    stem: &str,
    text: &str,
    overwrite: bool,
) -> Result<String, SaveError> {
    let rel = format!("{}/{stem}.toml", folder(game));
    let name = format!("{stem}.toml");
    let failed = |e: WriteError| {
        if e.is_refusal() {
            SaveError::Refused(e.to_string())
        } else {
            SaveError::Io(e.to_string())
        }
    };
    let dir = Folder::workspace(root)
        .and_then(|root| root.sub(folder(game)))
        .map_err(failed)?;
    let written = if overwrite {
        dir.write_atomic(&name, text.as_bytes(), true)
    } else {
        dir.write_new_atomic(&name, text.as_bytes())
    };
    match written {
        Ok(()) => Ok(rel),
        Err(e) if e.io_kind() == Some(std::io::ErrorKind::AlreadyExists) => {
            Err(SaveError::Exists(rel))
        }
        Err(e) => Err(failed(e)),
    }
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
        assert_eq!(stem("Collection"), "collection-deck");
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
            Ok("decks/g/a.toml".into())
        );
        assert_eq!(
            write(root, "g", "a", "two", false),
            Err(SaveError::Exists("decks/g/a.toml".into()))
        );
        let file = root.join("decks/g/a.toml");
        assert_eq!(std::fs::read_to_string(&file).unwrap(), "one");
        assert!(write(root, "g", "a", "two", true).is_ok());
        assert_eq!(std::fs::read_to_string(&file).unwrap(), "two");
        let left: Vec<_> = std::fs::read_dir(root.join("decks/g")).unwrap().collect();
        assert_eq!(left.len(), 1, "no temporary file is left");
    }

    #[test]
    fn a_save_never_goes_through_a_link() {
        let tmp = tempfile::tempdir().unwrap();
        let victim = tempfile::tempdir().unwrap();
        std::fs::write(victim.path().join("a.toml"), "mine").unwrap();
        let root = tmp.path();
        std::fs::create_dir_all(root.join("decks")).unwrap();
        std::os::unix::fs::symlink(victim.path(), root.join("decks/g")).unwrap();
        let refused = write(root, "g", "b", "attack", true);
        assert!(
            matches!(&refused, Err(SaveError::Refused(why)) if why.contains("decks/g")),
            "{refused:?}"
        );
        std::fs::remove_file(root.join("decks/g")).unwrap();
        std::fs::create_dir(root.join("decks/g")).unwrap();
        std::os::unix::fs::symlink(victim.path().join("a.toml"), root.join("decks/g/a.toml"))
            .unwrap();
        for overwrite in [false, true] {
            let refused = write(root, "g", "a", "attack", overwrite);
            assert!(matches!(refused, Err(SaveError::Refused(_))), "{refused:?}");
        }
        let names: Vec<_> = std::fs::read_dir(victim.path()).unwrap().collect();
        assert_eq!(names.len(), 1);
        assert_eq!(
            std::fs::read_to_string(victim.path().join("a.toml")).unwrap(),
            "mine"
        );
    }
}
