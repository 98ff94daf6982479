//! The checks of a game's translations: every entry translates a string the
//! game has, carries the same placeholders and icon tokens, and was made
//! from the current source text; every string has a translation.

use std::collections::{BTreeMap, BTreeSet};

use super::catalog::{self, Catalog};
use super::unknown::unknown;
use super::{Key, Scope, Sources, file_path, source_hash, tokens};
use crate::diag::{Diagnostic, Diagnostics, Label};
use crate::link::CardPool;
use crate::load::{LoadError, Workspace};
use crate::suggest;
use crate::validate::LoadedManifest;

/// How much of the pool one language translates.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Coverage {
    /// The language.
    pub lang: String,
    /// Cards whose every translatable string is translated.
    pub translated: usize,
    /// Cards.
    pub total: usize,
    /// Template phrases it translates.
    pub phrases: usize,
    /// Template phrases.
    pub phrases_total: usize,
    /// carta's captions and the default face's titles it translates.
    pub captions: usize,
    /// carta's captions and the default face's titles.
    pub captions_total: usize,
}

impl std::fmt::Display for Coverage {
    /// `en: 76/76`, and when phrases or captions are missing `en: 76/76
    /// (phrases 29/31, captions 20/22)`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}/{}", self.lang, self.translated, self.total)?;
        let mut parts = Vec::new();
        if self.phrases < self.phrases_total {
            parts.push(format!("phrases {}/{}", self.phrases, self.phrases_total));
        }
        if self.captions < self.captions_total {
            parts.push(format!(
                "captions {}/{}",
                self.captions, self.captions_total
            ));
        }
        if !parts.is_empty() {
            write!(f, " ({})", parts.join(", "))?;
        }
        Ok(())
    }
}

/// Reads the translation files of a game: one per declared language (a
/// missing one is reported), and reports files of undeclared languages.
///
/// # Errors
/// When a file cannot be read.
pub fn read(
    ws: &mut Workspace,
    manifest: &LoadedManifest,
    diags: &mut Diagnostics,
) -> Result<Vec<Catalog>, LoadError> {
    let m = &manifest.manifest;
    let present = ws.translation_files(&m.id, diags)?;
    let mut catalogs = Vec::new();
    for (i, lang) in m.translations.iter().enumerate() {
        let path = file_path(&m.id, lang);
        let span = manifest
            .spans
            .value_span(&format!("/translations/{i}"))
            .unwrap_or(0..0);
        if lang == &m.language {
            diags.push(
                Diagnostic::error(
                    "i18n::language",
                    format!("`{lang}` is the game's own language, not a translation"),
                )
                .at(manifest.file, span, "the source language")
                .with_help("list only the languages the game is translated into"),
            );
            continue;
        }
        if !present.contains(&path) {
            diags.push(missing_file(&m.id, lang, &path).at(manifest.file, span, "declared here"));
            continue;
        }
        let file = ws.read(&path, diags)?;
        if !ws.is_text(file) {
            continue;
        }
        let text = std::sync::Arc::clone(&ws.sources.get(file).text);
        let mut found = Vec::new();
        catalogs.push(catalog::parse(file, &text, lang, &mut found));
        diags.extend(found);
    }
    for path in present {
        let lang = language_of(&path);
        if !m.translations.iter().any(|l| l == lang) {
            let file = ws.read(&path, diags)?;
            diags.push(
                Diagnostic::error(
                    "i18n::language",
                    format!("`{path}` translates the game into `{lang}`, which `game.toml` does not declare"),
                )
                .at(file, 0..0, "undeclared language")
                .with_help(format!(
                    "add \"{lang}\" to `translations` in `game.toml`, or remove the file{}",
                    suggest::closest(lang, m.translations.iter().map(String::as_str))
                        .map(|l| format!(" (did you mean `{l}`?)"))
                        .unwrap_or_default()
                )),
            );
        }
    }
    Ok(catalogs)
}

/// The warning for a declared language without a translation file; its
/// help gives commands that run as written.
fn missing_file(game: &str, lang: &str, path: &str) -> Diagnostic {
    Diagnostic::warning(
        "i18n::missing",
        format!("the game declares a translation into `{lang}`, but `{path}` does not exist"),
    )
    .with_help(format!(
        "`carta i18n export {game} --lang {lang} -o {game}.{lang}.po` writes a file to translate; `carta i18n import {game} {game}.{lang}.po` reads it back"
    ))
}

/// The language of a translation file: its name without `.toml`.
fn language_of(path: &str) -> &str {
    let name = path.rsplit('/').next().unwrap_or(path);
    name.strip_suffix(".toml").unwrap_or(name)
}

/// Checks every catalog against the game's strings; returns the coverage
/// of each declared language (a language without a file covers nothing).
pub fn check(
    sources: &Sources,
    catalogs: &[Catalog],
    manifest: &LoadedManifest,
    pool: &CardPool,
    diags: &mut Diagnostics,
) -> Vec<Coverage> {
    let count = |f: fn(&Scope) -> bool| sources.strings.keys().filter(|k| f(&k.scope)).count();
    let phrases_total = count(|s| matches!(s, Scope::Phrase(_)));
    let captions_total = count(is_caption);
    let mut coverage = Vec::new();
    for lang in &manifest.manifest.translations {
        let found = catalogs.iter().find(|c| &c.lang == lang);
        let counts = found.map_or(Counts::default(), |c| {
            check_one(sources, c, manifest, pool, diags)
        });
        coverage.push(Coverage {
            lang: lang.clone(),
            translated: counts.cards,
            total: pool.len(),
            phrases: counts.phrases,
            phrases_total,
            captions: counts.captions,
            captions_total,
        });
    }
    coverage
}

/// Whether a scope is carta's caption or a default face's title.
fn is_caption(scope: &Scope) -> bool {
    matches!(scope, Scope::Caption(_) | Scope::Title(_))
}

/// What one catalog translates: cards completely, template phrases,
/// captions and titles.
#[derive(Debug, Clone, Copy, Default)]
struct Counts {
    cards: usize,
    phrases: usize,
    captions: usize,
}

/// Checks one catalog; returns what it translates.
fn check_one(
    sources: &Sources,
    catalog: &Catalog,
    manifest: &LoadedManifest,
    pool: &CardPool,
    diags: &mut Diagnostics,
) -> Counts {
    let mut unknown_cards = BTreeSet::new();
    for (key, entry) in &catalog.entries {
        let Some(source) = sources.strings.get(key) else {
            if let Some(d) = unknown(
                sources,
                catalog,
                key,
                entry,
                manifest,
                pool,
                &mut unknown_cards,
            ) {
                diags.push(d);
            }
            continue;
        };
        diags.extend(placeholders(catalog, key, entry, source));
        diags.extend(stale(&manifest.manifest.id, catalog, key, entry, source));
    }
    report_missing(sources, catalog, &manifest.manifest.id, diags)
}

/// The error for a translation whose placeholders differ from its source's.
fn placeholders(
    catalog: &Catalog,
    key: &Key,
    entry: &catalog::Entry,
    source: &super::Source,
) -> Option<Diagnostic> {
    let (want, got) = (tokens(&source.text), tokens(&entry.text));
    if want == got {
        return None;
    }
    let mut d = Diagnostic::error(
        "i18n::placeholders",
        format!(
            "the {} translation of `{key}` has {}, but its source text has {}",
            catalog.lang,
            list_or_none(&got),
            list_or_none(&want)
        ),
    )
    .at(catalog.file, entry.text_span.clone(), "placeholders differ")
    .with_help("a translation keeps every `{…}` placeholder and icon token of its source, each as many times");
    if let Some((f, span)) = &source.at {
        d = d.with_label(Label::new(*f, span.clone(), "the source text"));
    }
    Some(d)
}

/// The warning for a translation made from another source text than the
/// current one (or from one it does not record).
fn stale(
    game: &str,
    catalog: &Catalog,
    key: &Key,
    entry: &catalog::Entry,
    source: &super::Source,
) -> Option<Diagnostic> {
    let lang = &catalog.lang;
    let message = match &entry.hash {
        None => format!(
            "the {lang} translation of `{key}` records no source hash, so carta cannot tell whether it is up to date"
        ),
        Some(h) if *h != source_hash(&source.text) => {
            format!("the {lang} translation of `{key}` was made from an older source text")
        }
        Some(_) => return None,
    };
    let mut d = Diagnostic::warning("i18n::stale", message)
        .at(
            catalog.file,
            entry.text_span.clone(),
            "review this translation",
        )
        .with_help(format!(
            "compare it with the source text \"{}\", then run `carta i18n update {game} --lang {lang}`",
            source.text
        ));
    if let Some((f, span)) = &source.at {
        d = d.with_label(Label::new(*f, span.clone(), "the source"));
    }
    Some(d)
}

/// Reports the strings `catalog` lacks; returns what it translates.
fn report_missing(
    sources: &Sources,
    catalog: &Catalog,
    game: &str,
    diags: &mut Diagnostics,
) -> Counts {
    let lang = &catalog.lang;
    let path = &file_path(game, lang);
    let mut cards: BTreeMap<&str, (Vec<&str>, bool)> = BTreeMap::new();
    let mut labels = Vec::new();
    let mut captions = Vec::new();
    let mut counts = Counts::default();
    for (key, source) in &sources.strings {
        let missing = !catalog.entries.contains_key(key);
        match &key.scope {
            Scope::Phrase(_) if !missing => counts.phrases += 1,
            Scope::Caption(_) | Scope::Title(_) if !missing => counts.captions += 1,
            Scope::Caption(_) | Scope::Title(_) => captions.push(key),
            Scope::Phrase(phrase) => diags.push(missing_phrase(phrase, source, lang, path)),
            Scope::Card(id) => {
                let card = cards.entry(id).or_default();
                if missing {
                    card.0.push(&key.field);
                }
                card.1 |= true;
            }
            Scope::Label(value) if missing => labels.push(format!("`{value}`")),
            _ if missing => {
                let mut d = Diagnostic::warning(
                    "i18n::missing",
                    format!("`{key}` has no {lang} translation"),
                );
                if let Some((f, span)) = &source.at {
                    d = d.at(*f, span.clone(), "untranslated");
                }
                diags.push(d.with_help(format!("add it to `{path}`")));
            }
            _ => {}
        }
    }
    counts.cards = missing_cards(sources, &cards, game, lang, diags);
    if !captions.is_empty() {
        diags.push(missing_captions(&captions, catalog, game));
    }
    if !labels.is_empty() {
        diags.push(
            Diagnostic::warning(
                "i18n::missing",
                format!(
                    "the labels of {} have no {lang} translation",
                    labels.join(", ")
                ),
            )
            .at(catalog.file, 0..0, "in this translation")
            .with_help("add them under `[labels]`, by value"),
        );
    }
    counts
}

/// The warning for carta's captions and the default face's titles that
/// `catalog` lacks: one for all of them, as for labels.
fn missing_captions(keys: &[&Key], catalog: &Catalog, game: &str) -> Diagnostic {
    const SHOWN: usize = 8;
    let lang = &catalog.lang;
    let mut list: Vec<String> = keys.iter().take(SHOWN).map(|k| format!("`{k}`")).collect();
    if keys.len() > SHOWN {
        list.push(format!("{} more", keys.len() - SHOWN));
    }
    let known = keys.iter().any(
        |k| matches!(&k.scope, Scope::Caption(id) if super::captions::known(id, lang).is_some()),
    );
    let help = if known {
        format!(
            "`carta i18n update {game} --lang {lang}` adds carta's own {lang} captions; titles go under `[titles.<kind>]`, captions under `[captions]`"
        )
    } else {
        "add them under `[captions]` (by id) and `[titles.<kind>]` (by field), or translate them in the PO file `carta i18n export` writes".to_owned()
    };
    Diagnostic::warning(
        "i18n::missing",
        format!(
            "{} of carta's captions and the default face's titles {} no {lang} translation: {}",
            keys.len(),
            if keys.len() == 1 { "has" } else { "have" },
            list.join(", ")
        ),
    )
    .at(catalog.file, 0..0, "in this translation")
    .with_help(help)
}

/// Reports each card some of whose strings `cards` lists as missing;
/// returns how many cards have none missing.
fn missing_cards(
    sources: &Sources,
    cards: &BTreeMap<&str, (Vec<&str>, bool)>,
    game: &str,
    lang: &str,
    diags: &mut Diagnostics,
) -> usize {
    let path = file_path(game, lang);
    let mut complete = 0;
    for (id, (fields, _)) in cards {
        if fields.is_empty() {
            complete += 1;
            continue;
        }
        let at = sources
            .strings
            .get(&Key::new(Scope::Card((*id).to_owned()), "name"))
            .and_then(|s| s.at.clone());
        let shown: Vec<String> = fields.iter().map(|f| format!("`{f}`")).collect();
        let mut d = Diagnostic::warning(
            "i18n::missing",
            format!(
                "card `{id}` has no {lang} translation of {}",
                shown.join(", ")
            ),
        );
        if let Some((f, span)) = at {
            d = d.at(f, span, "untranslated card");
        }
        diags.push(d.with_help(format!(
            "add `[cards.{id}]` to `{path}`, or translate it in the file `carta i18n export {game} --lang {lang}` writes"
        )));
    }
    complete
}

/// The warning for a template phrase without a translation, at its first
/// use in a template.
fn missing_phrase(phrase: &str, source: &super::Source, lang: &str, path: &str) -> Diagnostic {
    let mut d = Diagnostic::warning(
        "i18n::missing",
        format!("the template phrase \"{phrase}\" has no {lang} translation"),
    );
    if let Some((f, span)) = &source.at {
        d = d.at(*f, span.clone(), "printed in the source language");
    }
    d.with_help(format!(
        "add `{} = \"…\"` under `[phrases]` in `{path}`",
        toml_key(phrase)
    ))
}

/// A phrase as a TOML key: quoted (and escaped) as a basic string.
fn toml_key(phrase: &str) -> String {
    toml::Value::String(phrase.to_owned()).to_string()
}

/// Placeholder tokens as a message lists them.
fn list_or_none(tokens: &[&str]) -> String {
    if tokens.is_empty() {
        "no placeholders".into()
    } else {
        tokens.join(" ")
    }
}
