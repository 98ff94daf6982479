//! Reprints (`--changed-since REV`): the cards whose printed face or back
//! differs between two versions of a game, decided from what the sheets
//! print — each card's face and back rendered alone from each version's
//! templates, with the art named by its content hash and the game's CSS —
//! not from its data, so a field no template prints reprints nothing. The
//! reasons given (`new`, `face changed: cost`) come from the data diff.

use std::collections::BTreeMap;

use super::compare::GameDiff;
use crate::diag::Diagnostics;
use crate::emit::sheets::{CardSet, Inputs, Selection, Subject, pool_prints, render_cards_in};
use crate::game::Game;
use crate::i18n::captions;
use crate::load::{LoadError, Workspace};

/// Why a card is reprinted.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Why {
    /// It is not in the old version.
    pub new: bool,
    /// Its old name, when it was renamed.
    pub renamed_from: Option<String>,
    /// Its face differs: the data paths that changed in the language
    /// printed (empty when only the templates, the style or the art did).
    pub face: Option<Vec<String>>,
    /// Its back differs.
    pub back: bool,
}

/// What a reprint of one game in one language holds.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Reprint {
    /// The cards to print, by id, each with why.
    pub cards: BTreeMap<String, Why>,
    /// The names of the cards of the old version the new one lacks.
    pub removed: Vec<String>,
}

impl Reprint {
    /// Whether nothing is to be printed.
    pub fn is_empty(&self) -> bool {
        self.cards.is_empty()
    }
}

/// A version of a game to render: the game (in the language printed) and
/// the workspace it was compiled from.
pub type Side<'a> = (&'a Game, &'a mut Workspace);

/// The cards of `new` whose face or back as printed differs from `old`'s
/// (every card when `old` lacks the game), in `lang` (`None`: the game's
/// own language); `diff` compares the two versions' data and gives the
/// reasons. `None` when a version's cards do not render (the problems are
/// in that version's diagnostics, the old one's then the new one's).
///
/// # Errors
/// When a version's templates cannot be read.
pub fn reprint(
    old: Option<Side<'_>>,
    new: Side<'_>,
    diff: Option<&GameDiff>,
    lang: Option<&str>,
    (old_diags, new_diags): (&mut Diagnostics, &mut Diagnostics),
) -> Result<Option<Reprint>, LoadError> {
    let Some(now) = render(new, new_diags)? else {
        return Ok(None);
    };
    let was = match old {
        Some(old) => match render(old, old_diags)? {
            Some(set) => Some(set),
            None => return Ok(None),
        },
        None => None,
    };
    let olds: BTreeMap<&str, _> = was
        .iter()
        .flat_map(|set| &set.cards)
        .map(|c| (c.id.as_str(), c))
        .collect();
    // The whole sheet looks different under another style or language.
    let look = was
        .as_ref()
        .is_none_or(|w| w.css != now.css || w.language != now.language);
    let mut out = Reprint::default();
    for card in &now.cards {
        let why = match olds.get(card.id.as_str()) {
            None => Why {
                new: true,
                ..Why::default()
            },
            Some(old) => {
                let face = look || old.face != card.face || old.size != card.size;
                Why {
                    new: false,
                    renamed_from: None,
                    face: face.then(|| fields(diff, &card.id, lang)),
                    back: look || old.back != card.back,
                }
            }
        };
        if why.new || why.face.is_some() || why.back {
            out.cards.insert(card.id.clone(), why);
        }
    }
    if let Some(diff) = diff {
        for renamed in &diff.renamed {
            if let Some(why) = out.cards.get_mut(&renamed.id) {
                why.renamed_from = Some(renamed.old.clone());
            }
        }
        out.removed = diff.removed.iter().map(|c| c.name.clone()).collect();
    }
    Ok(Some(out))
}

/// Every card of a version's game rendered alone, as the sheets print it.
fn render((game, ws): Side<'_>, diags: &mut Diagnostics) -> Result<Option<CardSet>, LoadError> {
    let inputs = Inputs::read(ws, game, diags)?;
    let selection = Selection {
        subject: Subject::Cards,
        prints: pool_prints(game),
        notes: Vec::new(),
    };
    Ok(render_cards_in(ws, game, &inputs, &selection, diags))
}

/// The data paths of card `id` that changed in `lang` (its translation's,
/// then its own), as the diff found them.
fn fields(diff: Option<&GameDiff>, id: &str, lang: Option<&str>) -> Vec<String> {
    let Some(change) = diff.and_then(|d| d.changed.iter().find(|c| c.id == id)) else {
        return Vec::new();
    };
    let translated = change
        .translations
        .iter()
        .filter(|t| Some(t.lang.as_str()) == lang)
        .map(|t| t.change.field.clone());
    let own = change.fields.iter().map(|f| f.field.clone());
    let mut out: Vec<String> = Vec::new();
    for field in translated.chain(own) {
        if !out.contains(&field) {
            out.push(field);
        }
    }
    out
}

/// `why` in words, in `lang` (English where carta does not know it).
pub fn describe(why: &Why, lang: &str) -> String {
    let say = |id, values: &[(&str, &str)]| captions::reprint(id, lang, values);
    let mut parts = Vec::new();
    if why.new {
        parts.push(say("reprint-new", &[]));
    }
    if let Some(old) = &why.renamed_from {
        parts.push(say("reprint-renamed", &[("old", old)]));
    }
    match why.face.as_deref() {
        // A new name is reason enough for a face that prints it.
        Some([]) if why.renamed_from.is_some() => {}
        Some([]) => parts.push(say("reprint-look", &[])),
        Some(fields) => parts.push(say("reprint-face", &[("fields", &fields.join(", "))])),
        None => {}
    }
    if why.back {
        parts.push(say("reprint-back", &[]));
    }
    parts.join("; ")
}

/// The lines a reprint's cover and report give, in `lang`: each card to
/// print (by its name in `game`, the game printed) and why, then the cards
/// removed.
pub fn lines(reprint: &Reprint, game: &Game, lang: &str) -> Vec<String> {
    let mut out: Vec<String> = game
        .pool
        .iter()
        .filter_map(|card| {
            let why = reprint.cards.get(&card.id)?;
            Some(format!("{}: {}", card.name, describe(why, lang)))
        })
        .collect();
    if !reprint.removed.is_empty() {
        let list = reprint.removed.join(", ");
        out.push(captions::reprint(
            "reprint-removed",
            lang,
            &[("list", &list)],
        ));
    }
    out
}

/// The cover's subject of a reprint since `since`, in `lang`.
pub fn subject(since: &str, lang: &str) -> String {
    captions::reprint("reprint-subject", lang, &[("since", since)])
}
