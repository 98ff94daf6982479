//! Where a card's field is written: cards keep only their id and header
//! spans, so a diagnostic about one field parses the card's file again (only
//! when there is something to report) and follows the pointer with the
//! validator's own [`locate`].

use crate::diag::SourceMap;
use crate::load::{Jail, parse_toml, text_of};
use crate::validate::{Located, RawCard, locate};

/// The span of `pointer` (a JSON pointer into the card's fields, such as
/// `/levels/0/ability/text`) in `card`'s file, and the field as a person
/// reads it (`levels[0].ability.text`); the card's header when the card
/// cannot be found again. A file whose text was not kept is read again
/// through `jail`.
pub(super) fn field(sources: &SourceMap, jail: &Jail, card: &RawCard, pointer: &str) -> Located {
    // A file changed since it was read gives no span: the header's.
    let text = text_of(jail, sources.get(card.file)).unwrap_or_default();
    let (doc, _) = parse_toml(card.file, &text, &mut Vec::new());
    let cards = doc
        .get_ref()
        .iter()
        .find(|(k, _)| k.get_ref() == "card")
        .and_then(|(_, v)| v.get_ref().as_array());
    let table = cards
        .into_iter()
        .flatten()
        .filter_map(|c| c.get_ref().as_table().map(|t| (t, c.span())))
        .find(|(t, _)| {
            t.iter()
                .any(|(k, v)| k.get_ref() == "id" && v.span() == card.id_span)
        });
    match table {
        Some((t, span)) => locate(t, span, pointer),
        None => Located {
            value: card.header.clone(),
            key: None,
            display: pointer.trim_start_matches('/').replace('/', "."),
        },
    }
}
