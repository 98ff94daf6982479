//! What the sheets take from disk besides cards: icon SVGs and card art.
//! Paths are relative to the game's folder and must stay inside the
//! workspace: absolute paths, `..` and symlinks that lead out are refused.
//! Art is copied beside the sheets under a content-hashed name.

use std::collections::BTreeMap;

use super::icons::IconSet;
use crate::art;
use crate::config::{Icon, Icons};
use crate::diag::{Diagnostic, FileId};
use crate::load::{Jail, ReadProblem, SpanIndex};

/// An image to copy beside the sheets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Image {
    /// Its path in the output, relative to `index.html` (`img/<hash>.png`).
    pub url: String,
    /// Its bytes.
    pub bytes: Vec<u8>,
}

/// Why a path was refused.
#[derive(Debug)]
pub enum PathProblem {
    /// An absolute path (or a Windows drive or UNC path).
    Absolute,
    /// A `..` component, or a backslash.
    Escapes,
    /// The workspace's rule for reads refused it (missing, outside the
    /// workspace through a symlink, not a regular file, too large).
    Read(ReadProblem),
}

impl PathProblem {
    /// One sentence, for the diagnostic.
    pub fn message(&self, path: &str) -> String {
        match self {
            PathProblem::Absolute => format!("`{path}` is an absolute path"),
            PathProblem::Escapes => format!("`{path}` leaves the game's folder"),
            PathProblem::Read(p) => p.message(path),
        }
    }

    /// The stable code.
    pub fn code(&self) -> &'static str {
        match self {
            PathProblem::Read(ReadProblem::Missing) => "sheets::missing-file",
            PathProblem::Read(ReadProblem::OutsideWorkspace)
            | PathProblem::Absolute
            | PathProblem::Escapes => "sheets::path-escapes",
            PathProblem::Read(p) => p.code(),
        }
    }
}

/// Reads `rel` (relative to `cards/<game>/`), which must be a plain
/// relative path; the jail then checks where it leads.
///
/// # Errors
/// When the path is absolute, climbs with `..`, or the jail refuses it.
pub fn read(jail: &Jail, game: &str, rel: &str) -> Result<Vec<u8>, PathProblem> {
    if Jail::is_absolute(rel) {
        return Err(PathProblem::Absolute);
    }
    if !Jail::is_plain_relative(rel) {
        return Err(PathProblem::Escapes);
    }
    let full = jail.root().join("cards").join(game).join(rel);
    jail.read(&full).map_err(PathProblem::Read)
}

/// Reads the game's `[icons]`; each problem is a diagnostic at the icon's
/// entry in `game.toml`.
pub(super) fn load_icons(
    jail: &Jail,
    game: &str,
    icons: &Icons,
    manifest: (FileId, &SpanIndex),
    diags: &mut Vec<Diagnostic>,
) -> IconSet {
    let (file, spans) = manifest;
    let mut set = IconSet::default();
    for (name, icon) in icons {
        let pointer = format!("/icons/{}", name.replace('~', "~0").replace('/', "~1"));
        let at = |sub: &str| {
            spans
                .value_span(&format!("{pointer}{sub}"))
                .or_else(|| spans.key_span(&pointer))
                .unwrap_or(0..0)
        };
        let svg = icon_text(jail, game, name, icon).and_then(|svg| match svg.find("<svg") {
            Some(start) => Ok(svg[start..].trim_end().to_owned()),
            None => Err((
                Box::new(Diagnostic::error(
                    "sheets::icon",
                    format!("icon `{name}` is not SVG: it has no `<svg` element"),
                )),
                "not SVG",
            )),
        });
        match svg {
            Ok(svg) => set.insert(
                name,
                svg,
                icon.label.clone().unwrap_or_else(|| name.clone()),
            ),
            Err((d, label)) => {
                // At the entry's `file`, its `svg`, or the entry itself.
                let sub = match (&icon.file, &icon.svg) {
                    (Some(_), None) => "/file",
                    (None, Some(_)) => "/svg",
                    _ => "",
                };
                diags.push(d.at(file, at(sub), label));
            }
        }
    }
    set
}

/// The SVG text of one icon (read from its file, or written inline), or
/// the problem with it and its label, for the caller to place.
fn icon_text(
    jail: &Jail,
    game: &str,
    name: &str,
    icon: &Icon,
) -> Result<String, (Box<Diagnostic>, &'static str)> {
    match (&icon.file, &icon.svg) {
        (Some(path), None) => match read(jail, game, path) {
            Ok(bytes) => String::from_utf8(bytes).map_err(|_| {
                let message = format!("icon file `{path}` is not UTF-8 text");
                (
                    Box::new(Diagnostic::error("sheets::icon", message)),
                    "this icon",
                )
            }),
            Err(problem) => Err((
                Box::new(
                    Diagnostic::error(problem.code(), problem.message(path)).with_help(
                        "icon files are relative to the game's folder, inside the workspace",
                    ),
                ),
                "icon file",
            )),
        },
        (None, Some(svg)) => Ok(svg.clone()),
        _ => Err((
            Box::new(Diagnostic::error(
                "sheets::icon",
                format!("icon `{name}` needs exactly one of `file` and `svg`"),
            )),
            "this icon",
        )),
    }
}

/// The output name of an image: `img/` + the first 16 hex digits of the
/// SHA-256 of its bytes + its extension, so equal art is stored once and a
/// changed image gets a new name (no stale browser cache).
pub(super) fn hashed_url(bytes: &[u8], ext: &str) -> String {
    format!("img/{}.{ext}", crate::digest::sha256_hex(bytes, 8))
}

/// What the sheets print in place of a missing art file (`check` warned
/// about it): a light hatch, cheap in ink.
const MISSING_ART: &str = include_str!("default/missing-art.svg");

/// Card art read so far, by path as written, so each file is read once.
#[derive(Debug, Default)]
pub(super) struct ImageCache {
    /// Path as written → the image (the placeholder for a missing file),
    /// or the problem with it.
    pub by_path: BTreeMap<String, Result<Image, (&'static str, String)>>,
}

impl ImageCache {
    /// Reads `rel` (once), checking its path and type; a missing file
    /// gives the placeholder picture.
    pub(super) fn get(
        &mut self,
        jail: &Jail,
        game: &str,
        rel: &str,
    ) -> Result<&Image, (&'static str, String)> {
        let entry = self.by_path.entry(rel.to_owned()).or_insert_with(|| {
            let read = art::read(jail, game, rel)
                .and_then(|(ext, bytes)| art::picture(&ext, &bytes).map(|_| (ext, bytes)));
            match read {
                Ok((ext, bytes)) => Ok(Image {
                    url: hashed_url(&bytes, &ext),
                    bytes,
                }),
                Err(p) if p.is_missing() => Ok(Image {
                    url: hashed_url(MISSING_ART.as_bytes(), "svg"),
                    bytes: MISSING_ART.as_bytes().to_vec(),
                }),
                Err(p) => Err((p.code(), p.message(rel))),
            }
        });
        entry.as_ref().map_err(Clone::clone)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use std::fs;

    fn code(r: Result<Vec<u8>, PathProblem>) -> &'static str {
        r.map_or_else(|p| p.code(), |_| "ok")
    }

    #[test]
    fn refuses_paths_that_leave() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        fs::create_dir_all(root.join("cards/g/art")).unwrap();
        fs::write(root.join("cards/g/art/a.png"), b"png").unwrap();
        let jail = Jail::new(root, 1 << 20).unwrap();
        assert_eq!(read(&jail, "g", "art/a.png").unwrap(), b"png");
        assert_eq!(read(&jail, "g", "./art/a.png").unwrap(), b"png");
        for (path, expected) in [
            ("../../etc/passwd", "sheets::path-escapes"),
            ("art/../art/a.png", "sheets::path-escapes"),
            ("/etc/passwd", "sheets::path-escapes"),
            ("C:/x.png", "sheets::path-escapes"),
            ("art\\a.png", "sheets::path-escapes"),
            ("art/b.png", "sheets::missing-file"),
            ("art", "load::not-a-file"),
        ] {
            assert_eq!(code(read(&jail, "g", path)), expected, "{path}");
        }
        assert!(matches!(
            read(&jail, "g", "/etc/passwd"),
            Err(PathProblem::Absolute)
        ));
    }

    #[cfg(unix)]
    #[test]
    fn refuses_symlinks_out_of_the_workspace() {
        let outside = tempfile::tempdir().unwrap();
        fs::write(outside.path().join("secret.png"), b"x").unwrap();
        let dir = tempfile::tempdir().unwrap();
        fs::create_dir_all(dir.path().join("cards/g")).unwrap();
        std::os::unix::fs::symlink(
            outside.path().join("secret.png"),
            dir.path().join("cards/g/s.png"),
        )
        .unwrap();
        let jail = Jail::new(dir.path(), 1 << 20).unwrap();
        assert!(matches!(
            read(&jail, "g", "s.png"),
            Err(PathProblem::Read(ReadProblem::OutsideWorkspace))
        ));
    }

    #[test]
    fn hashed_names_follow_content() {
        assert_eq!(hashed_url(b"a", "png"), hashed_url(b"a", "png"));
        assert_ne!(hashed_url(b"a", "png"), hashed_url(b"b", "png"));
        assert!(hashed_url(b"a", "png").starts_with("img/ca978112ca1bbdca"));
    }
}
