//! Card images kept between exports (`build/.cache/shots/`), so that an
//! export after a one-card edit draws that card only.
//!
//! Each cell an image export photographs (a card's face or back at one
//! pixel size and resolution) is one file, named by the hash of everything
//! its pixels come from: the side's HTML (which names its art by the art's
//! content hash), the set's CSS (fonts included, as `data:` URLs) and
//! language, the smallest readable text size, the card's geometry, kind
//! and id, the cell's size, resolution and place on its page (Chromium's
//! anti-aliasing of a card depends on where it stands), and the browser's
//! binary (its path, size and modification time). Cells to draw are drawn
//! in their places, the page's other cells left out. The file is framed like every cache
//! of carta's (`cache::frame`): written by another build of carta, or
//! damaged, it is never read. It holds the cell as the PNG the exports
//! write and the boxes the fit script found too small on it, which are
//! reported again when the cell is reused.
//!
//! The folder keeps the cells of the last exports: when it holds more
//! than [`KEEP`] files, or twice the cells of the run, the oldest are
//! removed (a reused cell's time is renewed).

use std::collections::HashSet;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::path::Path;
use std::time::SystemTime;

use serde::{Deserialize, Serialize};

use super::sheets::RenderedCard;
use super::sheets::overflow::Overflow;
use crate::cache::{self, Key};
use crate::write::{Folder, Kind, read_at_most};

/// The fewest files the folder keeps.
pub const KEEP: usize = 2_000;

const MAGIC: [u8; 8] = *b"carta-sh";

/// One cell as an export wrote it.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Cell {
    /// The PNG, its resolution recorded.
    #[serde(with = "serde_bytes")]
    pub png: Vec<u8>,
    /// The boxes of the cell whose text did not fit.
    pub overflows: Vec<Overflow>,
}

/// The folder of kept cells of a workspace, and the browser they were
/// drawn by.
#[derive(Debug)]
pub struct Shots {
    folder: Folder,
    browser: Key,
}

impl Shots {
    /// The kept cells of the workspace at `root`, drawn by the browser
    /// `binary`; `None` when the folder cannot be made (the export then
    /// draws every cell).
    pub fn open(root: &Path, binary: &Path) -> Option<Shots> {
        let folder = cache::folder(root).ok()?.sub("shots").ok()?;
        let mut h = DefaultHasher::new();
        let real = std::fs::canonicalize(binary).unwrap_or_else(|_| binary.to_path_buf());
        real.hash(&mut h);
        if let Ok(meta) = std::fs::metadata(&real) {
            meta.len().hash(&mut h);
            meta.modified().ok().hash(&mut h);
        }
        Some(Shots {
            folder,
            browser: h.finish(),
        })
    }

    /// The key of `card`'s face (its back when `back`) drawn in a cell of `cell` pixels at
    /// `dpi` in a page of `set`'s CSS, language and smallest text, in
    /// `place`: its index, the cells of a row and the cells of its page.
    pub fn key(
        &self,
        set: (&str, &str, f64),
        (card, back): (&RenderedCard, bool),
        (cell, place): ((u32, u32), (usize, usize, usize)),
        dpi: u32,
    ) -> Key {
        let (css, language, min_text) = set;
        let mut h = DefaultHasher::new();
        (self.browser, css, language, min_text.to_bits()).hash(&mut h);
        let b = card.size;
        for v in [b.width, b.height, b.bleed, b.safe] {
            v.to_bits().hash(&mut h);
        }
        (&card.kind, &card.id, cell, place, dpi).hash(&mut h);
        if back {
            (1u8, &card.back).hash(&mut h);
        } else {
            (0u8, &card.face).hash(&mut h);
        }
        h.finish()
    }

    /// The cell kept under `key`, its time renewed.
    pub fn get(&self, key: Key) -> Option<Cell> {
        // Opened once, without following a link, to be read and renewed.
        let file = self.folder.open_read(&name(key)).ok()??;
        let bytes = read_at_most(file.try_clone().ok()?, cache::MAX_FILE).ok()??;
        let cell = cache::unframe(&bytes, MAGIC, key)?;
        // Renewed so that the oldest files are the least used.
        let _ = file.set_modified(SystemTime::now());
        Some(cell)
    }

    /// Keeps `cell` under `key` (a cell that cannot be kept is drawn again
    /// next time).
    pub fn put(&self, key: Key, cell: &Cell) {
        cache::write_framed(&self.folder, &name(key), MAGIC, key, cell);
    }

    /// Removes the oldest files past the larger of [`KEEP`] and twice
    /// `used`, never one of `used`.
    pub fn prune(&self, used: &HashSet<Key>) {
        let Ok(entries) = self.folder.entries() else {
            return;
        };
        let keep = KEEP.max(used.len() * 2);
        if entries.len() <= keep {
            return;
        }
        let used: HashSet<String> = used.iter().map(|&k| name(k)).collect();
        let mut old: Vec<(SystemTime, String)> = entries
            .into_iter()
            .filter(|(_, kind)| *kind == Kind::File)
            .filter_map(|(n, _)| n.into_string().ok())
            .filter(|n| !used.contains(n))
            .map(|n| {
                let at = std::fs::metadata(self.folder.path().join(&n))
                    .and_then(|m| m.modified())
                    .unwrap_or(SystemTime::UNIX_EPOCH);
                (at, n)
            })
            .collect();
        old.sort();
        let excess = (old.len() + used.len()).saturating_sub(keep);
        for (_, n) in old.into_iter().take(excess) {
            let _ = self.folder.remove_file(&n);
        }
    }
}

fn name(key: Key) -> String {
    format!("{key:016x}")
}
