//! GNU gettext PO files for translators (Poedit, Weblate, Lokalize, …):
//! one message per translatable string, its context the entry's key
//! (`cards/rei-frixo/levels.0.ability.text`), its `msgid` the source text,
//! its `msgstr` the translation (empty when missing); a translation made
//! from an older source text is marked `fuzzy`. Reading one back gives the
//! changes to the translation file: the texts, and the current source hash
//! of every message that is translated, not fuzzy, and whose `msgid` is
//! the current source text (the translator saw it).

use std::collections::HashSet;
use std::io::BufWriter;

use polib::catalog::Catalog as PoCatalog;
use polib::message::{Message, MessageFlags};
use polib::metadata::CatalogMetadata;
use polib::po_file;

mod parse;

pub use self::parse::{Message as PoMessage, PoFile, SyntaxError, parse};
use super::edit::Change;
use super::{Catalog, Key, Sources, source_hash};
use crate::diag::Span;

/// The PO file of game `game`'s strings in `lang`, with `catalog`'s
/// translations filled in.
pub fn export(game: &str, lang: &str, sources: &Sources, catalog: Option<&Catalog>) -> String {
    let mut meta = CatalogMetadata::new();
    game.clone_into(&mut meta.project_id_version);
    lang.clone_into(&mut meta.language);
    meta.mime_version = "1.0".into();
    meta.content_type = "text/plain; charset=UTF-8".into();
    meta.content_transfer_encoding = "8bit".into();
    let mut po = PoCatalog::new(meta);
    for (key, source) in &sources.strings {
        let entry = catalog.and_then(|c| c.get(key));
        let mut flags = MessageFlags::new();
        if entry.is_some_and(|e| e.hash.as_deref() != Some(&source_hash(&source.text))) {
            flags.add_flag("fuzzy");
        }
        po.append_or_update(
            Message::build_singular()
                .with_msgctxt(key.to_string())
                .with_msgid(source.text.clone())
                .with_msgstr(entry.map(|e| e.text.clone()).unwrap_or_default())
                .with_flags(flags)
                .done(),
        );
    }
    let mut out = BufWriter::new(Vec::new());
    po_file::write(&po, &mut out).expect("writing to memory does not fail");
    String::from_utf8(out.into_inner().expect("memory")).expect("PO text is UTF-8")
}

/// What a PO file says.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Imported {
    /// The changes to the translation file.
    pub changes: Vec<Change>,
    /// Messages that were not taken: where each starts, its context, and
    /// why.
    pub problems: Vec<Problem>,
}

/// A message of a PO file that was not taken.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// Where the message starts in the PO file.
    pub span: Span,
    /// Its context (`msgctxt`).
    pub context: String,
    /// Why it was not taken.
    pub why: &'static str,
}

/// Reads a parsed PO file against the game's strings and its current
/// translations, in time linear in its messages.
pub fn import(po: &PoFile, sources: &Sources, catalog: Option<&Catalog>) -> Imported {
    let mut out = Imported::default();
    let mut seen: HashSet<&str> = HashSet::new();
    for message in po.messages.iter().filter(|m| !m.is_header()) {
        let context = message.msgctxt.as_deref().unwrap_or_default();
        let problem = |why| Problem {
            span: message.span.clone(),
            context: context.to_owned(),
            why,
        };
        if !seen.insert(context) {
            out.problems
                .push(problem("an earlier message has the same context"));
            continue;
        }
        let Some(key) = Key::parse(context) else {
            out.problems
                .push(problem("its context is not a carta translation key"));
            continue;
        };
        let Some(source) = sources.strings.get(&key) else {
            out.problems
                .push(problem("the game has no such string (any more)"));
            continue;
        };
        if message.msgid_plural.is_some() {
            out.problems
                .push(problem("plural messages are not used by carta"));
            continue;
        }
        let text = message.msgstr.first().map_or("", String::as_str);
        if text.is_empty() {
            continue;
        }
        let entry = catalog.and_then(|c| c.get(&key));
        let reviewed = !message.fuzzy && message.msgid == source.text;
        let hash = reviewed
            .then(|| source_hash(&source.text))
            .filter(|h| entry.is_none_or(|e| e.hash.as_ref() != Some(h)));
        let new_text = Some(text.to_owned()).filter(|t| entry.is_none_or(|e| &e.text != t));
        if new_text.is_some() || hash.is_some() {
            out.changes.push(Change {
                key,
                text: new_text,
                hash,
            });
        }
    }
    out
}
