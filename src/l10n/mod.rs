//! carta's own words in the player's language, through Fluent
//! (`fluent-bundle`): the deck builder's labels, headings and messages,
//! and the engine's messages a player reads there (a broken rule's "has X;
//! requires Y", a deck's unknown card). The message files, one per
//! language (`en.ftl`, `pt-BR.ftl`, `es.ftl`), are compiled into carta.
//!
//! The command line speaks English: the engine builds each message as a
//! [`Phrase`] and prints its English wording ([`english`]); the builder
//! words the same phrase in the player's language ([`word`]). Plural forms
//! are Fluent's (CLDR's plural rules: "1 carta", "2 cartas").
//!
//! Message ids say whose they are: `ui-…` the deck builder page's words
//! (`ui-play-…` the playtest panel's, `ui-owned-…` the collection's);
//! `rule-…`, `deck-…` and `play-…` the engine's messages; `api-…` and
//! `collection-…` the builder's own refusals. [`Lang`] is the languages
//! spoken; the unit tests hold every message, with the same variables, in
//! all three files.
//!
//! - [`table`]: the builder page's messages for one language, as JSON
//!   for its scripts' `t("id", {count})` — each plural form worded by
//!   Fluent, the count a slot.

pub mod table;

use std::fmt;
use std::sync::LazyLock;

use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::{FluentArgs, FluentResource, FluentValue};
use unic_langid::LanguageIdentifier;

use crate::diag::{Arg, Phrase, PhraseKey};
use crate::suggest;

/// A language carta speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Lang {
    /// English, the command line's language and every fallback.
    En,
    /// Brazilian Portuguese.
    PtBr,
    /// Spanish.
    Es,
}

impl Lang {
    /// Every language carta speaks, English first.
    pub const ALL: [Lang; 3] = [Lang::En, Lang::PtBr, Lang::Es];

    /// Its BCP 47 tag (`pt-BR`), as a page's `lang` attribute takes it.
    pub fn tag(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::PtBr => "pt-BR",
            Lang::Es => "es",
        }
    }

    /// Its name in itself, for a language menu.
    pub fn name(self) -> &'static str {
        match self {
            Lang::En => "English",
            Lang::PtBr => "Português (Brasil)",
            Lang::Es => "Español",
        }
    }

    /// The language a tag asks for, by its language subtag (`pt`, `pt-BR`
    /// and `pt-PT` are Portuguese, `es-419` Spanish); `None` when carta
    /// does not speak it.
    pub fn parse(tag: &str) -> Option<Lang> {
        let id: LanguageIdentifier = tag.trim().parse().ok()?;
        match id.language.as_str() {
            "en" => Some(Lang::En),
            "pt" => Some(Lang::PtBr),
            "es" => Some(Lang::Es),
            _ => None,
        }
    }

    /// Its message file.
    fn source(self) -> &'static str {
        match self {
            Lang::En => include_str!("en.ftl"),
            Lang::PtBr => include_str!("pt-BR.ftl"),
            Lang::Es => include_str!("es.ftl"),
        }
    }

    fn index(self) -> usize {
        match self {
            Lang::En => 0,
            Lang::PtBr => 1,
            Lang::Es => 2,
        }
    }

    fn id(self) -> LanguageIdentifier {
        self.tag().parse().expect("carta's language tags parse")
    }
}

impl fmt::Display for Lang {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.tag())
    }
}

/// A language's messages, parsed once.
type Bundle = FluentBundle<FluentResource>;

/// The bundle of `lang`'s message file. The files are carta's own and
/// checked by its tests, so a syntax error in one is a bug of carta.
/// With `marked`, every number is worded as [`table::NUMBER`], for the
/// page's table of plural forms.
fn bundle(lang: Lang, marked: bool) -> Bundle {
    let resource = FluentResource::try_new(lang.source().to_owned())
        .unwrap_or_else(|(_, e)| panic!("{lang}.ftl does not parse: {e:?}"));
    let mut bundle = FluentBundle::new_concurrent(vec![lang.id()]);
    // The words go into HTML text and JSON, never beside right-to-left
    // text: no isolation marks around the values.
    bundle.set_use_isolating(false);
    if marked {
        bundle.set_formatter(Some(table::mark));
    }
    bundle
        .add_resource(resource)
        .unwrap_or_else(|e| panic!("{lang}.ftl repeats a message: {e:?}"));
    bundle
}

static BUNDLES: LazyLock<[Bundle; 3]> = LazyLock::new(|| Lang::ALL.map(|lang| bundle(lang, false)));

/// `phrase` in `lang`. A message missing from `lang`'s file is worded in
/// English (the tests require every file to have every message).
pub fn word(lang: Lang, phrase: &Phrase) -> String {
    match &phrase.key {
        PhraseKey::Id(id) => message(&BUNDLES[lang.index()], lang, id, &phrase.args),
        PhraseKey::Own(pattern) => {
            // The slots are filled in the order given, as a game's rule
            // messages always were.
            let mut out = pattern.clone();
            for (name, value) in &phrase.args {
                out = out.replace(&format!("{{{name}}}"), &arg_text(lang, value));
            }
            out
        }
    }
}

/// What `suggest::help` says of an unknown `name`, as a phrase: "did
/// you mean `x`?" for the closest candidate, else message `every` (with
/// its `$names`) listing them all.
pub fn choices<'a, I>(name: &str, candidates: I, every: &'static str) -> Phrase
where
    I: IntoIterator<Item = &'a str>,
    I::IntoIter: Clone,
{
    let all = candidates.into_iter();
    match suggest::closest(name, all.clone()) {
        Some(c) => Phrase::new("deck-did-you-mean").with("name", c),
        None => Phrase::new(every).with("names", all.collect::<Vec<_>>().join(", ")),
    }
}

/// `phrase` in English: what the command line prints.
pub fn english(phrase: &Phrase) -> String {
    word(Lang::En, phrase)
}

fn arg_text(lang: Lang, value: &Arg) -> String {
    match value {
        Arg::Num(n) => n.to_string(),
        Arg::Text(t) => t.clone(),
        Arg::Phrase(p) => word(lang, p),
    }
}

/// Message `id` of `bundle` with `args`, falling back to English, and to
/// the id itself when no file has it.
fn message(bundle: &Bundle, lang: Lang, id: &str, args: &[(&'static str, Arg)]) -> String {
    let Some(pattern) = bundle.get_message(id).and_then(|m| m.value()) else {
        return if lang == Lang::En {
            id.to_owned()
        } else {
            message(&BUNDLES[Lang::En.index()], Lang::En, id, args)
        };
    };
    let mut fluent = FluentArgs::new();
    for (name, value) in args {
        let v = match value {
            Arg::Num(n) => FluentValue::from(*n),
            other => FluentValue::from(arg_text(lang, other)),
        };
        fluent.set(*name, v);
    }
    let mut errors = Vec::new();
    bundle
        .format_pattern(pattern, Some(&fluent), &mut errors)
        .into_owned()
}

#[cfg(test)]
mod tests;
