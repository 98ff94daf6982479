//! What the sheets take from disk besides cards: icon SVGs and card art.
//! Paths are relative to the game's folder and must stay inside the
//! workspace: absolute paths, `..` and symlinks that lead out are refused.
//! Art is copied beside the sheets under a content-hashed name.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Component, Path, PathBuf};

use sha2::{Digest, Sha256};

use super::icons::IconSet;
use crate::config::Icons;
use crate::diag::{Diagnostic, FileId};
use crate::load::SpanIndex;

/// The image types art may have, by extension.
pub(super) const IMAGE_TYPES: [&str; 6] = ["png", "jpg", "jpeg", "webp", "gif", "svg"];

/// An image to copy beside the sheets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Image {
    /// Its path in the output, relative to `index.html` (`img/<hash>.png`).
    pub url: String,
    /// Its bytes.
    pub bytes: Vec<u8>,
}

/// Why a path was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PathProblem {
    /// An absolute path (or a Windows drive or UNC path).
    Absolute,
    /// A `..` component, or a backslash.
    Escapes,
    /// Nothing is there.
    Missing,
    /// It resolves (through a symlink) outside the workspace.
    OutsideWorkspace,
}

impl PathProblem {
    /// One sentence, for the diagnostic.
    pub fn message(&self, path: &str) -> String {
        match self {
            PathProblem::Absolute => format!("`{path}` is an absolute path"),
            PathProblem::Escapes => format!("`{path}` leaves the game's folder"),
            PathProblem::Missing => format!("`{path}` does not exist"),
            PathProblem::OutsideWorkspace => format!("`{path}` leads outside the workspace"),
        }
    }

    /// The stable code.
    pub fn code(&self) -> &'static str {
        match self {
            PathProblem::Missing => "sheets::missing-file",
            _ => "sheets::path-escapes",
        }
    }
}

/// Resolves `rel` (relative to `cards/<game>/`) to a file in the workspace.
///
/// # Errors
/// When the path is absolute, climbs with `..`, is missing, or leads out of
/// the workspace through a symlink.
pub fn resolve(root: &Path, game: &str, rel: &str) -> Result<PathBuf, PathProblem> {
    let p = Path::new(rel);
    let drive = rel.len() > 1 && rel.as_bytes()[1] == b':';
    if rel.starts_with('/') || rel.starts_with('\\') || drive || p.is_absolute() {
        return Err(PathProblem::Absolute);
    }
    if rel.contains('\\')
        || p.components()
            .any(|c| !matches!(c, Component::Normal(_) | Component::CurDir))
    {
        return Err(PathProblem::Escapes);
    }
    let full = root.join("cards").join(game).join(p);
    if !full.is_file() {
        return Err(PathProblem::Missing);
    }
    let (Ok(real), Ok(real_root)) = (fs::canonicalize(&full), fs::canonicalize(root)) else {
        return Err(PathProblem::Missing);
    };
    if !real.starts_with(&real_root) {
        return Err(PathProblem::OutsideWorkspace);
    }
    Ok(real)
}

/// Reads the game's `[icons]`; each problem is a diagnostic at the icon's
/// entry in `game.toml`.
pub(super) fn load_icons(
    root: &Path,
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
        let svg = match (&icon.file, &icon.svg) {
            (Some(path), None) => match resolve(root, game, path) {
                Ok(full) => match fs::read_to_string(&full) {
                    Ok(text) => text,
                    Err(e) => {
                        diags.push(
                            Diagnostic::error(
                                "sheets::missing-file",
                                format!("cannot read `{path}`: {e}"),
                            )
                            .at(file, at("/file"), "this icon"),
                        );
                        continue;
                    }
                },
                Err(problem) => {
                    diags.push(
                        Diagnostic::error(problem.code(), problem.message(path))
                            .at(file, at("/file"), "icon file")
                            .with_help("icon files are relative to the game's folder, inside the workspace"),
                    );
                    continue;
                }
            },
            (None, Some(svg)) => svg.clone(),
            _ => {
                diags.push(
                    Diagnostic::error(
                        "sheets::icon",
                        format!("icon `{name}` needs exactly one of `file` and `svg`"),
                    )
                    .at(file, at(""), "this icon"),
                );
                continue;
            }
        };
        let svg = match svg.find("<svg") {
            Some(start) => svg[start..].trim_end().to_owned(),
            None => {
                let sub = if icon.file.is_some() { "/file" } else { "/svg" };
                diags.push(
                    Diagnostic::error(
                        "sheets::icon",
                        format!("icon `{name}` is not SVG: it has no `<svg` element"),
                    )
                    .at(file, at(sub), "not SVG"),
                );
                continue;
            }
        };
        set.insert(
            name,
            svg,
            icon.label.clone().unwrap_or_else(|| name.clone()),
        );
    }
    set
}

/// The output name of an image: `img/` + the first 16 hex digits of the
/// SHA-256 of its bytes + its extension, so equal art is stored once and a
/// changed image gets a new name (no stale browser cache).
pub(super) fn hashed_url(bytes: &[u8], ext: &str) -> String {
    let digest = Sha256::digest(bytes);
    let hex: String = digest.iter().take(8).map(|b| format!("{b:02x}")).collect();
    format!("img/{hex}.{ext}")
}

/// Card art read so far, by path as written, so each file is read once.
#[derive(Debug, Default)]
pub(super) struct ImageCache {
    /// Path as written → the image, or the problem with it.
    pub by_path: BTreeMap<String, Result<Image, (&'static str, String)>>,
}

impl ImageCache {
    /// Reads `rel` (once), checking its path and type.
    pub(super) fn get(
        &mut self,
        root: &Path,
        game: &str,
        rel: &str,
    ) -> Result<&Image, (&'static str, String)> {
        let entry = self.by_path.entry(rel.to_owned()).or_insert_with(|| {
            let ext = Path::new(rel)
                .extension()
                .and_then(|e| e.to_str())
                .map(str::to_ascii_lowercase)
                .unwrap_or_default();
            if !IMAGE_TYPES.contains(&ext.as_str()) {
                return Err((
                    "sheets::image-type",
                    format!(
                        "`{rel}` is not an image carta prints (use {})",
                        IMAGE_TYPES.join(", ")
                    ),
                ));
            }
            let full = resolve(root, game, rel).map_err(|p| (p.code(), p.message(rel)))?;
            let bytes = fs::read(&full)
                .map_err(|e| ("sheets::missing-file", format!("cannot read `{rel}`: {e}")))?;
            Ok(Image {
                url: hashed_url(&bytes, &ext),
                bytes,
            })
        });
        entry.as_ref().map_err(Clone::clone)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_paths_that_leave() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        fs::create_dir_all(root.join("cards/g/art")).unwrap();
        fs::write(root.join("cards/g/art/a.png"), b"png").unwrap();
        assert!(resolve(root, "g", "art/a.png").is_ok());
        assert!(resolve(root, "g", "./art/a.png").is_ok());
        assert_eq!(
            resolve(root, "g", "../../etc/passwd"),
            Err(PathProblem::Escapes)
        );
        assert_eq!(
            resolve(root, "g", "art/../art/a.png"),
            Err(PathProblem::Escapes)
        );
        assert_eq!(
            resolve(root, "g", "/etc/passwd"),
            Err(PathProblem::Absolute)
        );
        assert_eq!(resolve(root, "g", "C:/x.png"), Err(PathProblem::Absolute));
        assert_eq!(resolve(root, "g", "art\\a.png"), Err(PathProblem::Escapes));
        assert_eq!(resolve(root, "g", "art/b.png"), Err(PathProblem::Missing));
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
        assert_eq!(
            resolve(dir.path(), "g", "s.png"),
            Err(PathProblem::OutsideWorkspace)
        );
    }

    #[test]
    fn hashed_names_follow_content() {
        assert_eq!(hashed_url(b"a", "png"), hashed_url(b"a", "png"));
        assert_ne!(hashed_url(b"a", "png"), hashed_url(b"b", "png"));
        assert!(hashed_url(b"a", "png").starts_with("img/ca978112ca1bbdca"));
    }
}
