//! Emit: what `carta build` writes, and how it writes it.
//!
//! Invariant: every output file is written with [`write_atomic`], so a
//! reader sees the previous file or the new one, never a part of either.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use crate::bundle::{self, CardRecord, DeckRecord, SourceHash};
use crate::check::Game;
use crate::deck::DeckFile;
use crate::diag::{Diagnostic, Diagnostics, SourceMap};

/// Writes `bytes` to `path` atomically: into a temporary file in the same
/// folder, flushed to disk, then renamed over `path`. On any failure the
/// temporary file is removed and `path` is left as it was. Creates the
/// folder if needed.
///
/// # Errors
/// When a folder cannot be created or the file cannot be written or renamed.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    fs::create_dir_all(dir)?;
    let name = path
        .file_name()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "no file name"))?
        .to_string_lossy();
    let (tmp, mut file) = create_temp(dir, &name)?;
    let written = file
        .write_all(bytes)
        .and_then(|()| file.sync_all())
        .and_then(|()| fs::rename(&tmp, path));
    if let Err(e) = written {
        let _ = fs::remove_file(&tmp);
        return Err(e);
    }
    // Make the rename itself durable; not every platform can open a folder.
    if let Ok(d) = File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

/// A new temporary file `.<name>.<pid>.<n>.tmp` beside the target.
fn create_temp(dir: &Path, name: &str) -> io::Result<(PathBuf, File)> {
    let pid = std::process::id();
    let mut n = 0u32;
    loop {
        let tmp = dir.join(format!(".{name}.{pid}.{n}.tmp"));
        match OpenOptions::new().write(true).create_new(true).open(&tmp) {
            Ok(f) => return Ok((tmp, f)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists && n < 1000 => n += 1,
            Err(e) => return Err(e),
        }
    }
}

/// Where the bundle of game `game` goes under the output folder `out`.
pub fn bundle_path(out: &Path, game: &str) -> PathBuf {
    out.join(game).join(format!("{game}.{}", bundle::EXTENSION))
}

/// The source hash of `game`: every file of the game that the check read
/// (its `cards/<game>/` folder, its `schemas/<game>/` folder and the schema
/// of each kind), by workspace-relative path.
pub fn source_hash(game: &Game, sources: &SourceMap) -> SourceHash {
    let m = &game.manifest.manifest;
    let cards = format!("cards/{}/", m.id);
    let schemas = format!("schemas/{}/", m.id);
    let kind_schemas = m.schema_paths();
    SourceHash::of(
        sources
            .iter()
            .filter(|(_, f)| {
                f.name.starts_with(&cards)
                    || f.name.starts_with(&schemas)
                    || kind_schemas.values().any(|p| *p == f.name)
            })
            .map(|(_, f)| (f.name.as_str(), &*f.text)),
    )
}

/// A checked deck file as the bundle stores it.
pub fn deck_record(deck: &DeckFile, sources: &SourceMap) -> DeckRecord {
    DeckRecord {
        name: deck.name.clone(),
        file: sources.get(deck.file).name.clone(),
        zones: deck
            .zones
            .iter()
            .map(|z| {
                let cards = z.entries.iter().map(|e| (e.id.clone(), e.count)).collect();
                (z.id.clone(), cards)
            })
            .collect(),
    }
}

/// Encodes the bundle of one checked game. A failure (a field nested too
/// deep) is reported as a diagnostic at the card.
pub fn encode_game(
    game: &Game,
    decks: &[DeckRecord],
    sources: &SourceMap,
    diags: &mut Diagnostics,
) -> Option<Vec<u8>> {
    let cards: Vec<CardRecord<'_>> = game.pool.iter().map(CardRecord::from).collect();
    let hash = source_hash(game, sources);
    let written = written_manifest(game, sources);
    match bundle::encode(&game.manifest.manifest, written.as_ref(), &cards, decks, hash) {
        Ok(bytes) => Some(bytes),
        Err(e) => {
            let place = match &e {
                bundle::EncodeError::TooDeep { id, .. }
                | bundle::EncodeError::RecordTooLarge { id, .. }
                | bundle::EncodeError::DuplicateId(id) => {
                    game.pool.get(id).map(|c| (c.file, c.header.clone()))
                }
                _ => None,
            };
            let d = Diagnostic::error("bundle::encode", e.to_string());
            diags.push(match place {
                Some((file, span)) => d.at(file, span, "in this card"),
                None => d.at(game.manifest.file, 0..0, "in this game"),
            });
            None
        }
    }
}

/// The game's `game.toml` as written (parsed again: the checked manifest
/// holds millimetres as floats, and the bundle keeps integers as written).
fn written_manifest(game: &Game, sources: &SourceMap) -> Option<serde_json::Value> {
    let file = game.manifest.file;
    let (doc, ok) = crate::load::parse_toml(file, &sources.get(file).text, &mut Vec::new());
    ok.then(|| crate::load::table_to_json(doc.get_ref()).ok())
        .flatten()
        .map(serde_json::Value::Object)
}

/// Encodes the bundles of `games`, each with the path it goes to under
/// `out`; `None` when any game could not be encoded (reported in `diags`),
/// so that a failed build writes nothing.
pub fn encode_bundles(
    games: &[Game],
    sources: &SourceMap,
    out: &Path,
    diags: &mut Diagnostics,
) -> Option<Vec<(PathBuf, Vec<u8>)>> {
    let mut encoded = Vec::with_capacity(games.len());
    for game in games {
        let decks: Vec<DeckRecord> = game.decks.iter().map(|d| deck_record(d, sources)).collect();
        if let Some(bytes) = encode_game(game, &decks, sources, diags) {
            encoded.push((bundle_path(out, &game.manifest.manifest.id), bytes));
        }
    }
    (encoded.len() == games.len()).then_some(encoded)
}

/// Writes encoded bundles, each with [`write_atomic`].
///
/// # Errors
/// When a bundle cannot be written (the error names its path).
pub fn write_encoded(bundles: &[(PathBuf, Vec<u8>)]) -> io::Result<()> {
    for (path, bytes) in bundles {
        write_atomic(path, bytes).map_err(|e| {
            io::Error::new(e.kind(), format!("cannot write `{}`: {e}", path.display()))
        })?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn write_atomic_replaces_the_file_and_leaves_no_temporary() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a/b/out.bin");
        write_atomic(&path, b"one").unwrap();
        write_atomic(&path, b"two").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"two");
        let names: Vec<_> = fs::read_dir(path.parent().unwrap())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, ["out.bin"]);
    }

    #[test]
    fn a_failed_write_atomic_keeps_the_old_file() {
        let dir = tempfile::tempdir().unwrap();
        // The target is a non-empty folder: the rename must fail.
        let path = dir.path().join("target");
        fs::create_dir_all(path.join("inside")).unwrap();
        assert!(write_atomic(&path, b"new").is_err());
        assert!(path.join("inside").is_dir());
        let names: Vec<_> = fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, ["target"], "the temporary file is removed");
    }
}
