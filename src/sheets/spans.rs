//! Where a card's field is written: cards keep only their id and header
//! spans, so a diagnostic about one field re-reads the card's file (only
//! when there is something to report) to point at the exact value.

use std::collections::HashMap;

use crate::diag::{FileId, SourceMap, Span};
use crate::load::{SpanIndex, parse_toml};
use crate::validate::RawCard;

/// Field spans of the card files read so far.
#[derive(Debug, Default)]
pub(super) struct FieldSpans {
    files: HashMap<FileId, SpanIndex>,
}

impl FieldSpans {
    /// The span of `pointer` (a JSON pointer into the card's fields, such as
    /// `/levels/0/ability/text`) in `card`'s file; the card's header when
    /// the field cannot be found.
    pub(super) fn of(&mut self, sources: &SourceMap, card: &RawCard, pointer: &str) -> Span {
        let index = self.files.entry(card.file).or_insert_with(|| {
            let mut ignored = Vec::new();
            let (doc, _) = parse_toml(card.file, &sources.get(card.file).text, &mut ignored);
            SpanIndex::new(&doc)
        });
        (0..)
            .map_while(|i| index.value_span(&format!("/card/{i}/id")).map(|s| (i, s)))
            .find(|(_, s)| *s == card.id_span)
            .and_then(|(i, _)| index.value_span(&format!("/card/{i}{pointer}")))
            .unwrap_or_else(|| card.header.clone())
    }
}

/// A JSON pointer as a person reads it: `/levels/0/ability/text` →
/// `levels[0].ability.text`.
pub(super) fn readable(pointer: &str) -> String {
    let mut out = String::new();
    for part in pointer.split('/').skip(1) {
        if part.bytes().all(|b| b.is_ascii_digit()) && !part.is_empty() {
            out.push_str(&format!("[{part}]"));
        } else {
            if !out.is_empty() {
                out.push('.');
            }
            out.push_str(&part.replace("~1", "/").replace("~0", "~"));
        }
    }
    out
}
