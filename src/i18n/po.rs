//! GNU gettext PO files for translators (Poedit, Weblate, Lokalize, …):
//! one message per translatable string, its context the entry's key
//! (`cards/rei-frixo/levels.0.ability.text`), its `msgid` the source text,
//! its `msgstr` the translation (empty when missing); a translation made
//! from an older source text is marked `fuzzy`. Reading one back gives the
//! changes to the translation file: the texts, and the current source hash
//! of every message that is translated, not fuzzy, and whose `msgid` is
//! the current source text (the translator saw it).

use std::io::BufWriter;

use polib::catalog::Catalog as PoCatalog;
use polib::message::{Message, MessageFlags};
use polib::metadata::CatalogMetadata;
use polib::po_file;

use super::edit::Change;
use super::{Catalog, Key, Sources, source_hash};

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
    /// The language in its header (`Language:`), if any.
    pub lang: Option<String>,
    /// The changes to the translation file.
    pub changes: Vec<Change>,
    /// Messages that were not taken: (message context, why).
    pub problems: Vec<(String, String)>,
}

/// Why a PO file could not be read.
#[derive(Debug, thiserror::Error)]
#[error("this is not a PO file carta can read: {0}")]
pub struct PoError(String);

/// Reads a PO file against the game's strings and its current translations.
///
/// # Errors
/// When the text is not a PO file.
pub fn import(
    text: &str,
    sources: &Sources,
    catalog: Option<&Catalog>,
) -> Result<Imported, PoError> {
    let po = po_file::parse_from_reader(text.as_bytes()).map_err(|e| PoError(e.to_string()))?;
    let mut out = Imported {
        lang: Some(po.metadata.language.clone()).filter(|l| !l.is_empty()),
        ..Imported::default()
    };
    for message in po.messages() {
        let context = message.msgctxt().unwrap_or_default().to_owned();
        let Some(key) = Key::parse(&context) else {
            out.problems
                .push((context, "its context is not a carta translation key".into()));
            continue;
        };
        let Some(source) = sources.strings.get(&key) else {
            out.problems
                .push((context, "the game has no such string (any more)".into()));
            continue;
        };
        let Ok(text) = message.msgstr() else {
            out.problems
                .push((context, "plural messages are not used by carta".into()));
            continue;
        };
        if text.is_empty() {
            continue;
        }
        let entry = catalog.and_then(|c| c.get(&key));
        let reviewed = !message.is_fuzzy() && message.msgid() == source.text;
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
    Ok(out)
}
