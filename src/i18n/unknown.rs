//! The diagnostics of translation entries that name nothing the game has:
//! an unknown card, kind, field, label or caption, each with its
//! did-you-mean.

use std::collections::BTreeSet;

use super::catalog::{self, Catalog};
use super::{Key, Scope, Sources};
use crate::diag::Diagnostic;
use crate::link::CardPool;
use crate::suggest;
use crate::validate::LoadedManifest;

/// The diagnostic for an entry that translates nothing the game has.
pub(super) fn unknown(
    sources: &Sources,
    catalog: &Catalog,
    key: &Key,
    entry: &catalog::Entry,
    manifest: &LoadedManifest,
    pool: &CardPool,
    unknown_cards: &mut BTreeSet<String>,
) -> Option<Diagnostic> {
    let file = catalog.file;
    let m = &manifest.manifest;
    let scope_span = catalog.scope_spans.get(&key.scope).cloned().unwrap_or(0..0);
    let unknown_entry = |what: String, known: Vec<&str>, kind: &str| {
        Diagnostic::error("i18n::unknown-entry", format!("this game has no {what}"))
            .at(file, scope_span.clone(), "translates nothing")
            .with_help(suggest::help(&what_id(&key.scope), known, kind))
    };
    let unknown_field =
        |owner: String| unknown_field(file, key, entry, &owner, &fields_of(sources, &key.scope));
    Some(match &key.scope {
        Scope::Card(id) => {
            return unknown_in_card(sources, catalog, key, entry, pool, unknown_cards, id);
        }
        Scope::Kind(id) if !m.kinds.contains_key(id) => unknown_entry(
            format!("kind `{id}`"),
            m.kinds.keys().map(String::as_str).collect(),
            "kinds",
        ),
        Scope::Zone(id) if !m.zones.contains_key(id) => unknown_entry(
            format!("zone `{id}`"),
            m.zones.keys().map(String::as_str).collect(),
            "zones",
        ),
        Scope::Format(id) if !m.formats.contains_key(id) => unknown_entry(
            format!("format `{id}`"),
            m.formats.keys().map(String::as_str).collect(),
            "formats",
        ),
        Scope::Rule(id) if !has_scope(sources, &key.scope) => {
            let rules = scope_ids(sources, |s| match s {
                Scope::Rule(r) => Some(r),
                _ => None,
            });
            unknown_entry(
                format!("rule `{id}`"),
                rules.iter().map(String::as_str).collect(),
                "rules",
            )
        }
        Scope::Keyword(id) if !m.keywords.contains_key(id) => unknown_entry(
            format!("keyword `{id}`"),
            m.keywords.keys().map(String::as_str).collect(),
            "keywords",
        ),
        Scope::Label(value) => unknown_label(sources, file, entry, value),
        Scope::Phrase(phrase) => unused_phrase(sources, file, entry, phrase),
        Scope::Caption(id) => unknown_caption(file, entry, id),
        Scope::Title(kind) if !has_scope(sources, &key.scope) => {
            untitled_kind(file, scope_span, kind, m)
        }
        Scope::Title(kind) => unknown_field(format!("titles of kind `{kind}`")),
        Scope::Game => unknown_field("the game".into()),
        Scope::Kind(id) => unknown_field(format!("kind `{id}`")),
        Scope::Zone(id) => unknown_field(format!("zone `{id}`")),
        Scope::Format(id) => unknown_field(format!("format `{id}`")),
        Scope::Rule(id) => unknown_field(format!("rule `{id}`")),
        Scope::Keyword(id) => unknown_field(format!("keyword `{id}`")),
    })
}

/// The error for a `[captions]` entry naming no caption carta prints.
fn unknown_caption(file: crate::diag::FileId, entry: &catalog::Entry, id: &str) -> Diagnostic {
    Diagnostic::error(
        "i18n::unknown-entry",
        format!("carta prints no caption `{id}`"),
    )
    .at(file, entry.key_span.clone(), "no such caption")
    .with_help(suggest::help(
        id,
        super::captions::ids().collect::<Vec<_>>(),
        "captions",
    ))
}

/// The error for `[titles.<kind>]` of a kind the game does not have, or
/// that the default face does not print (it has a template of its own).
fn untitled_kind(
    file: crate::diag::FileId,
    at: crate::diag::Span,
    kind: &str,
    m: &crate::config::Manifest,
) -> Diagnostic {
    if !m.kinds.contains_key(kind) {
        let known: Vec<&str> = m.kinds.keys().map(String::as_str).collect();
        return Diagnostic::error(
            "i18n::unknown-entry",
            format!("this game has no kind `{kind}`"),
        )
        .at(file, at, "translates nothing")
        .with_help(suggest::help(kind, known, "kinds"));
    }
    Diagnostic::error(
        "i18n::unknown-entry",
        format!("kind `{kind}` prints no titles: it has a face template of its own"),
    )
    .at(file, at, "translates nothing")
    .with_help("the default face prints a kind's field titles; a template prints its own captions through `{{t \"…\"}}` (`[phrases]`)")
}

/// The diagnostic for a card entry that translates nothing: an unknown
/// card (once per card), a field that is not translatable, or no such field.
fn unknown_in_card(
    sources: &Sources,
    catalog: &Catalog,
    key: &Key,
    entry: &catalog::Entry,
    pool: &CardPool,
    unknown_cards: &mut BTreeSet<String>,
    id: &str,
) -> Option<Diagnostic> {
    let file = catalog.file;
    let Some(card) = pool.get(id) else {
        if !unknown_cards.insert(id.to_owned()) {
            return None;
        }
        let scope_span = catalog.scope_spans.get(&key.scope).cloned().unwrap_or(0..0);
        return Some(
            Diagnostic::error(
                "i18n::unknown-card",
                format!("there is no card `{id}` to translate"),
            )
            .at(file, scope_span, "unknown card")
            .with_help(suggest::help(id, pool.ids().collect::<Vec<_>>(), "cards")),
        );
    };
    if sources.is_known_untranslatable(&card.kind, &key.field) == Some(true) {
        return Some(not_translatable(file, key, entry, id, &card.kind));
    }
    let mut known = fields_of(sources, &key.scope);
    if known.len() <= 1 {
        known = sources.translatable_patterns(&card.kind);
    }
    Some(unknown_field(
        file,
        key,
        entry,
        &format!("card `{id}`"),
        &known,
    ))
}

fn unknown_field(
    file: crate::diag::FileId,
    key: &Key,
    entry: &catalog::Entry,
    owner: &str,
    known: &[String],
) -> Diagnostic {
    Diagnostic::error(
        "i18n::unknown-field",
        format!("{owner} has no translatable field `{}`", key.field),
    )
    .at(file, entry.key_span.clone(), "no such field")
    .with_help(suggest::help(
        &key.field,
        known.iter().map(String::as_str),
        "translatable fields",
    ))
}

/// The translatable fields the game has in `scope`.
fn fields_of(sources: &Sources, scope: &Scope) -> Vec<String> {
    sources
        .strings
        .keys()
        .filter(|k| &k.scope == scope)
        .map(|k| k.field.clone())
        .collect()
}

fn not_translatable(
    file: crate::diag::FileId,
    key: &Key,
    entry: &catalog::Entry,
    id: &str,
    kind: &str,
) -> Diagnostic {
    Diagnostic::error(
        "i18n::not-translatable",
        format!("field `{}` of card `{id}` is not translatable", key.field),
    )
    .at(file, entry.key_span.clone(), "not translatable")
    .with_help(format!(
        "only `name` and the string fields the schema of kind `{kind}` marks `\"x-carta-translate\": true` are translated"
    ))
}

fn unknown_label(
    sources: &Sources,
    file: crate::diag::FileId,
    entry: &catalog::Entry,
    value: &str,
) -> Diagnostic {
    let labelled = scope_ids(sources, |s| match s {
        Scope::Label(v) => Some(v),
        _ => None,
    });
    Diagnostic::error(
        "i18n::unknown-entry",
        format!("no enum value `{value}` of this game has a label (`x-carta-labels`) to translate"),
    )
    .at(file, entry.key_span.clone(), "no such label")
    .with_help(if labelled.is_empty() {
        "the schemas of this game give no enum value a label (`x-carta-labels`)".to_owned()
    } else {
        suggest::help(
            value,
            labelled.iter().map(String::as_str),
            "labelled values",
        )
    })
}

fn unused_phrase(
    sources: &Sources,
    file: crate::diag::FileId,
    entry: &catalog::Entry,
    phrase: &str,
) -> Diagnostic {
    let used = scope_ids(sources, |s| match s {
        Scope::Phrase(p) => Some(p),
        _ => None,
    });
    Diagnostic::warning(
        "i18n::unused-phrase",
        format!("no template of this game prints the phrase \"{phrase}\""),
    )
    .at(file, entry.key_span.clone(), "translates nothing")
    .with_help(if used.is_empty() {
        "the templates of this game print no phrase with `{{t \"…\"}}`; remove the entry".to_owned()
    } else {
        suggest::help(
            phrase,
            used.iter().map(String::as_str),
            "phrases the templates print",
        )
    })
}

/// Whether the game has any string of `scope`.
fn has_scope(sources: &Sources, scope: &Scope) -> bool {
    sources.strings.keys().any(|k| &k.scope == scope)
}

/// The distinct ids of the scopes `pick` accepts.
fn scope_ids(sources: &Sources, pick: impl Fn(&Scope) -> Option<&String>) -> Vec<String> {
    let mut ids: Vec<String> = sources
        .strings
        .keys()
        .filter_map(|k| pick(&k.scope).cloned())
        .collect();
    ids.dedup();
    ids
}

/// The id a scope names, for did-you-mean.
fn what_id(scope: &Scope) -> String {
    match scope {
        Scope::Game => String::new(),
        Scope::Kind(id)
        | Scope::Zone(id)
        | Scope::Format(id)
        | Scope::Rule(id)
        | Scope::Keyword(id)
        | Scope::Label(id)
        | Scope::Phrase(id)
        | Scope::Caption(id)
        | Scope::Title(id)
        | Scope::Card(id) => id.clone(),
    }
}
