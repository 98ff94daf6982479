//! The deck builder's faces that a long-running process remembers from
//! one round to the next, by the faces cache's keys (`reuse`).

use std::collections::{BTreeMap, HashMap};

use rayon::prelude::*;

use super::Print;
use super::faces_index::{Key, ReadCards};
use super::reads::recording;
use super::renderer::{Rendered, Renderer};
use super::reuse::{ByKey, print_key, read_cards, unchanged};
use crate::game::Game;

/// The faces a long-running process (`carta watch --serve`) rendered for
/// the deck builder's catalog in its last round, by the same keys as the
/// faces cache's, so that the next round renders only the cards whose
/// inputs changed (or another card they read). Held in memory only.
#[derive(Debug, Default)]
pub struct FaceMemo {
    last: HashMap<Key, Remembered, ByKey>,
    this: HashMap<Key, Remembered, ByKey>,
}

/// One remembered face and back, with the other cards they read.
#[derive(Debug)]
struct Remembered {
    face: String,
    back: String,
    read: ReadCards,
}

impl FaceMemo {
    /// Ends a round: the faces it did not use are forgotten.
    pub fn next_round(&mut self) {
        self.last = std::mem::take(&mut self.this);
    }
}

/// Renders `prints` (each with its art URLs `images`) on every core, as
/// [`Renderer::render_all`], taking from `memo` each face and back it
/// remembers for a game whose key is `game_key`, and remembering this
/// round's.
pub(super) fn render_remembered(
    renderer: &Renderer<'_>,
    game: (&Game, Key),
    (prints, images): (&[Print<'_>], &[&BTreeMap<String, String>]),
    memo: &mut FaceMemo,
) -> Vec<Rendered> {
    let (game, game_key) = game;
    let last = &memo.last;
    let made: Vec<(Key, Rendered, Option<ReadCards>)> = prints
        .par_iter()
        .zip(images.par_iter())
        .map(|(p, im)| {
            let key = print_key(game_key, *p, im);
            let size = renderer.card_box(&p.card.kind);
            if let Some(m) = last.get(&key).filter(|m| unchanged(&m.read, game)) {
                let r = Rendered::reused(m.face.clone(), m.back.clone(), size);
                return (key, r, Some(m.read.clone()));
            }
            let (r, read) = recording(|| renderer.render(*p, im));
            let keep = !r.failed();
            (key, r, keep.then(|| read_cards(read, game)))
        })
        .collect();
    made.into_iter()
        .map(|(key, r, read)| {
            if let Some(read) = read {
                let (face, back) = (r.face.clone(), r.back.clone());
                memo.this.insert(key, Remembered { face, back, read });
            }
            r
        })
        .collect()
}
