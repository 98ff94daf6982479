//! What the game's record keeps of a check besides its inputs' marks: each
//! diagnostic with its files by path, and the mark of a deck or
//! translation file; and how a kept diagnostic is placed again.

use std::collections::HashMap;
use std::sync::Mutex;

use serde::{Deserialize, Serialize};

use crate::diag::{Diagnostic, Elided, FileId, Label, Severity};
use crate::load::{Mark, Stamp, Workspace, hash_text, settled_stamp};

/// A diagnostic as the record keeps it: files by path.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(super) struct Kept {
    pub(super) severity: u8,
    pub(super) code: String,
    pub(super) message: String,
    pub(super) primary: Option<KeptLabel>,
    pub(super) labels: Vec<KeptLabel>,
    pub(super) help: Option<String>,
    /// A placeholder's count and errors (see `diag::cap`).
    pub(super) elided: (usize, usize),
}

/// A label as the record keeps it.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(super) struct KeptLabel {
    pub(super) file: String,
    pub(super) start: usize,
    pub(super) end: usize,
    pub(super) message: String,
}

/// The mark of a deck or translation file: its stamp and text.
pub(super) fn text_mark(text: &str, stamp: Option<Stamp>) -> Mark {
    Mark {
        stamp: settled_stamp(stamp),
        content: hash_text(text),
        payload: 0,
        shape: 0,
    }
}

/// What the record keeps of a card id a deck names or a card file holds:
/// a 32-bit hash (two ids that share one only make a deck be judged again,
/// or a card file be read, when it need not be). foldhash with a fixed
/// seed: the same in every run, and a compile hashes every card's id.
pub(super) fn id_hash(id: &str) -> u32 {
    use std::hash::BuildHasher;
    // The low half of a 64-bit hash.
    #[allow(clippy::cast_possible_truncation)]
    let low = foldhash::quality::FixedState::with_seed(0).hash_one(id) as u32;
    low
}

/// Diagnostic `d` of `ws`, as the record keeps it.
pub(super) fn kept(ws: &Workspace, d: &Diagnostic) -> Kept {
    let name = |f: FileId| Some(ws.sources.get(f).name.clone());
    kept_as(d, &name).expect("every file of `ws` has a name")
}

/// Diagnostic `d` as the record keeps it, each file named by `name_of`;
/// `None` when a file has no name there.
pub(super) fn kept_as(d: &Diagnostic, name_of: &dyn Fn(FileId) -> Option<String>) -> Option<Kept> {
    let label = |l: &Label| {
        Some(KeptLabel {
            file: name_of(l.file)?,
            start: l.span.start,
            end: l.span.end,
            message: l.message.clone(),
        })
    };
    Some(Kept {
        severity: match d.severity {
            Severity::Error => 0,
            Severity::Warning => 1,
            Severity::Advice => 2,
        },
        code: d.code.to_owned(),
        message: d.message.clone(),
        primary: match &d.primary {
            Some(l) => Some(label(l)?),
            None => None,
        },
        labels: d.labels.iter().map(label).collect::<Option<_>>()?,
        help: d.help.clone(),
        elided: (d.elided.count, d.elided.errors),
    })
}

/// Kept diagnostic `k` placed again, each file found by `file_of`; `None`
/// when a file is not found, or `k` is not one carta could have written:
/// the record lies in the workspace, and a crafted one must not put an
/// escape sequence on the terminal, nor a span that runs backwards.
pub(super) fn place(k: &Kept, file_of: &dyn Fn(&str) -> Option<FileId>) -> Option<Diagnostic> {
    let clean = |s: &str| !s.chars().any(char::is_control);
    let label = |l: &KeptLabel| {
        if !clean(&l.message) || l.start > l.end {
            return None;
        }
        Some(Label {
            file: file_of(&l.file)?,
            span: l.start..l.end,
            message: l.message.clone(),
        })
    };
    if !clean(&k.message) || !k.help.as_deref().is_none_or(clean) {
        return None;
    }
    let primary = match &k.primary {
        Some(l) => Some(label(l)?),
        None => None,
    };
    Some(Diagnostic {
        severity: [Severity::Error, Severity::Warning, Severity::Advice]
            .get(usize::from(k.severity))
            .copied()?,
        code: intern(&k.code)?,
        message: k.message.clone(),
        primary,
        labels: k.labels.iter().map(label).collect::<Option<_>>()?,
        help: k.help.clone(),
        elided: Elided {
            count: k.elided.0,
            errors: k.elided.1,
        },
        // A recalled verdict is printed by the command line only.
        words: None,
    })
}

/// Registers `files` (unread: a diagnostic's file is read back when it is
/// shown) after those of `ws`, and returns the `kept` diagnostics placed in
/// them; `None`, registering nothing, when one cannot be placed.
pub(super) fn restore(
    ws: &mut Workspace,
    files: &[String],
    kept: &[Kept],
) -> Option<Vec<Diagnostic>> {
    let mut ids: HashMap<&str, FileId> = ws
        .sources
        .iter()
        .map(|(id, f)| (f.name.as_str(), id))
        .collect();
    let first = ws.sources.len();
    for (i, rel) in files.iter().enumerate() {
        ids.insert(rel, FileId(u32::try_from(first + i).ok()?));
    }
    let file_of = |name: &str| ids.get(name).copied();
    let out = kept
        .iter()
        .map(|k| place(k, &file_of))
        .collect::<Option<Vec<_>>>()?;
    for rel in files {
        ws.sources.add_unread(rel.clone());
    }
    Some(out)
}

/// A diagnostic's code is a `&'static str` (the codes carta writes); one
/// read back from a record is leaked once per distinct code and run, and a
/// record naming more, or longer, codes than carta has is not trusted.
fn intern(code: &str) -> Option<&'static str> {
    static CODES: Mutex<Vec<&'static str>> = Mutex::new(Vec::new());
    let mut codes = CODES.lock().ok()?;
    if let Some(c) = codes.iter().find(|c| **c == code) {
        return Some(c);
    }
    if codes.len() >= 256 || code.len() > 64 || !code.chars().all(|c| c.is_ascii_graphic()) {
        return None;
    }
    let leaked: &'static str = Box::leak(code.to_owned().into_boxed_str());
    codes.push(leaked);
    Some(leaked)
}
