//! A diagnostic as the record and the ledger store it (its files by path),
//! and how a stored diagnostic is placed again.

use std::collections::HashMap;
use std::sync::Mutex;

use serde::{Deserialize, Serialize};

use crate::diag::{Diagnostic, Elided, FileId, Label, Severity};
use crate::load::Workspace;

/// A diagnostic as the record and the ledger store it: files by path.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(super) struct Stored {
    pub(super) severity: u8,
    pub(super) code: String,
    pub(super) message: String,
    pub(super) primary: Option<StoredLabel>,
    pub(super) labels: Vec<StoredLabel>,
    pub(super) help: Option<String>,
    /// A placeholder's count and errors (see `diag::cap`).
    pub(super) elided: (usize, usize),
}

/// A label as the record and the ledger store it.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(super) struct StoredLabel {
    pub(super) file: String,
    pub(super) start: usize,
    pub(super) end: usize,
    pub(super) message: String,
}

/// Diagnostic `d` of `ws`, as the record and the ledger store it.
pub(super) fn store(ws: &Workspace, d: &Diagnostic) -> Stored {
    let label = |l: &Label| StoredLabel {
        file: ws.sources.get(l.file).name.clone(),
        start: l.span.start,
        end: l.span.end,
        message: l.message.clone(),
    };
    Stored {
        severity: match d.severity {
            Severity::Error => 0,
            Severity::Warning => 1,
            Severity::Advice => 2,
        },
        code: d.code.to_owned(),
        message: d.message.clone(),
        primary: d.primary.as_ref().map(label),
        labels: d.labels.iter().map(label).collect(),
        help: d.help.clone(),
        elided: (d.elided.count, d.elided.errors),
    }
}

/// Stored diagnostic `k` placed again, each file found by `file_of`;
/// `None` when a file is not found, or `k` is not one carta could have
/// written: the record lies in the workspace, and a crafted one must not
/// put an escape sequence on the terminal, nor a span that runs backwards.
fn place(k: &Stored, file_of: &dyn Fn(&str) -> Option<FileId>) -> Option<Diagnostic> {
    let clean = |s: &str| !s.chars().any(char::is_control);
    let label = |l: &StoredLabel| {
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
/// shown) after those of `ws`, and returns the `stored` diagnostics placed
/// in them; `None`, registering nothing, when one cannot be placed.
pub(super) fn restore(
    ws: &mut Workspace,
    files: &[String],
    stored: &[Stored],
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
    let out = stored
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
