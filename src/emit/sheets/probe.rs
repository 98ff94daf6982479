//! What `carta check` finds in the sheets: every face rendered and thrown
//! away, as `carta build` would render it, so that a template's unknown
//! variable fails the check at the same place in the same words.
//!
//! A face that rendered cleanly renders cleanly again while nothing it is
//! made from changes, and the faces cache's key (`reuse::print_key`) covers
//! all of that: the probe's cache, `build/.cache/<game>.probe`, keeps the
//! key of each face that rendered without a failure (with the other cards
//! it read, each with its hash), so a check renders only the faces whose
//! key it does not know. Framed as every cache file is (keyed by the
//! running carta, and by the game's key under it).

use std::collections::HashMap;
use std::path::Path;

use rayon::prelude::*;

use super::assets::ImageCache;
use super::document::resolve_build;
use super::faces_index::{Key, ReadCards};
use super::reads::recording;
use super::renderer::{Failures, Renderer};
use super::reuse::{self, ByKey, print_key, read_cards, unchanged};
use super::{Inputs, SHEET_BLEED, Selection, SheetOptions, Subject, sheet_order};
use crate::cache::{hash_of, read_framed, write_framed};
use crate::diag::{Diagnostic, SourceMap};
use crate::game::Game;
use crate::load::Jail;
use crate::write::Folder;

const MAGIC: [u8; 8] = *b"carta-q1";

/// The faces that rendered cleanly: each one's key and the other cards it
/// read, each with its hash then.
type Clean = Vec<(Key, ReadCards)>;

/// Reports what rendering the sheets of `game`'s whole pool would report
/// (its icons, templates and art, and each template's failure at the first
/// card it fails on, in sheet order), without laying out or writing a
/// sheet. With `cache` (the workspace root), faces that rendered cleanly
/// before with the same inputs are not rendered again.
pub fn probe(
    jail: &Jail,
    sources: &SourceMap,
    game: &Game,
    inputs: &Inputs,
    cache: Option<&Path>,
    diags: &mut Vec<Diagnostic>,
) {
    /// Faces rendered and dropped at a time, so memory does not grow with
    /// the pool.
    const BATCH: usize = 256;
    let m = &game.manifest.manifest;
    let print = m.print.clone().unwrap_or_default();
    let build = resolve_build(&print, SheetOptions::default());
    let renderer = Renderer::new(
        jail,
        sources,
        game,
        inputs,
        (build.ink_saver, SHEET_BLEED),
        diags,
    );
    let selection = Selection {
        subject: Subject::Game,
        prints: super::pool_prints(game),
        notes: Vec::new(),
    };
    let mut prints = sheet_order(game, &selection);
    prints.retain(|p| p.count > 0);
    let mut images = ImageCache::default();
    let arts = renderer.prepare_all(jail, sources, &prints, &mut images, diags);
    let game_key = reuse::game_key(game, inputs, sources, renderer.icons(), build.ink_saver);
    let store = cache.and_then(|root| Store::open(root, &m.id, game_key));
    let known = store.as_ref().map(|s| &s.known);
    let mut clean: Clean = Vec::new();
    let mut rendered = false;
    let mut failures = Failures::default();
    for (prints, arts) in prints.chunks(BATCH).zip(arts.chunks(BATCH)) {
        let made: Vec<_> = prints
            .par_iter()
            .zip(arts.par_iter())
            .map(|(p, images)| {
                let key = print_key(game_key, *p, images);
                let seen = known.and_then(|k| k.get(&key));
                if let Some(read) = seen.filter(|read| unchanged(read, game)) {
                    return (key, None, Some(read.clone()));
                }
                let (r, read) = recording(|| renderer.render(*p, images));
                let read = (!r.failed()).then(|| read_cards(read, game));
                (key, Some(r), read)
            })
            .collect();
        for (p, (key, r, read)) in prints.iter().zip(made) {
            if let Some(mut r) = r {
                rendered = true;
                failures.add(p.card, &mut r);
            }
            clean.extend(read.map(|read| (key, read)));
        }
    }
    failures.report(&renderer, sources, diags);
    if let Some(store) = store
        && (rendered || clean.len() != store.known.len())
    {
        store.save(game_key, &clean);
    }
}

/// The probe's cache file of one game, and the faces it knows to render
/// cleanly.
struct Store {
    folder: Folder,
    name: String,
    known: HashMap<Key, ReadCards, ByKey>,
}

impl Store {
    /// The cache of game `id` in the workspace at `root`, knowing the faces
    /// its file names for a game whose key is `game` (none when the file is
    /// missing, damaged, or of another game key or carta); `None` when the
    /// cache folder cannot be made.
    fn open(root: &Path, id: &str, game: Key) -> Option<Store> {
        let folder = crate::cache::folder(root).ok()?;
        let name = format!("{id}.probe");
        let known = read_framed::<Clean>(&folder, &name, MAGIC)
            .and_then(|f| f.under(hash_of(&game)))
            .unwrap_or_default();
        Some(Store {
            folder,
            name,
            known: known.into_iter().collect(),
        })
    }

    /// Replaces the file with `clean`, the faces this probe found clean.
    fn save(self, game: Key, clean: &Clean) {
        // A cache that cannot be written only costs the next check renders.
        let _ = write_framed(&self.folder, &self.name, MAGIC, hash_of(&game), clean);
    }
}
