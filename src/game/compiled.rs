//! The compiled [`Game`] every command and emitter takes.

use super::partials;
use crate::deck::DeckFile;
use crate::diag::Diagnostics;
use crate::i18n::{self, Translations};
use crate::link::{CardPool, link};
use crate::load::{LoadError, Workspace};
use crate::rules::Rules;
use crate::validate::{GameSchemas, LoadedManifest};

/// A game that passed loading: its manifest and its linked cards.
#[derive(Debug)]
pub struct Game {
    /// The manifest and its spans.
    pub manifest: LoadedManifest,
    /// Every card, linked.
    pub pool: CardPool,
    /// The compiled deck and box rules.
    pub rules: Rules,
    /// The kinds' compiled schemas and their documents.
    pub schemas: GameSchemas,
    /// The example decks under `cards/<game>/decks/` that parsed.
    pub decks: Vec<DeckFile>,
    /// Its translations (`cards/<game>/i18n/`).
    pub i18n: Translations,
    /// Its templates (`templates/<game>/*.hbs`), read and checked once.
    pub templates: partials::Templates,
    /// How many card files were unchanged since the last `carta check` and
    /// taken from its cache instead of being parsed and validated again.
    pub reused_files: usize,
    /// Whether it was compiled through the check cache (without
    /// `--no-cache`): what is derived from it may keep caches of its own
    /// beside it (the editor deck schema's index).
    pub cached: bool,
}

impl Game {
    /// The game's id (its folder name).
    pub fn id(&self) -> &str {
        &self.manifest.manifest.id
    }

    /// The catalog of `lang`, unless it is the game's own language.
    fn catalog_of(&self, lang: &str) -> Option<&i18n::Catalog> {
        (lang != self.manifest.manifest.language)
            .then(|| self.i18n.catalog(lang))
            .flatten()
    }

    /// The keys of the strings of `sources` ([`translatable`]) that keep
    /// their source text in `lang`.
    pub fn untranslated(&self, lang: &str, sources: &i18n::Sources) -> Vec<String> {
        i18n::untranslated(
            lang,
            &self.manifest.manifest,
            sources,
            self.catalog_of(lang),
        )
    }

    /// The game in `lang` (its own language or one of its translations):
    /// every translated string put in, the source text where a translation
    /// is missing.
    #[must_use]
    pub fn localized(&self, lang: &str) -> Game {
        // Localizing reads the strings only through a catalog, and a game
        // with catalogs read its strings when it was compiled.
        let l = i18n::localize(
            lang,
            &self.manifest.manifest,
            self.pool.iter(),
            &self.i18n.sources,
            self.catalog_of(lang),
        );
        // Relinking the same ids reports nothing new.
        let pool = link(l.cards, &mut Diagnostics::new());
        Game {
            manifest: LoadedManifest {
                manifest: l.manifest,
                ..self.manifest.clone()
            },
            pool,
            rules: self.rules.clone(),
            schemas: self.schemas.clone(),
            decks: Vec::new(),
            i18n: self.i18n.only(lang, &self.manifest.manifest.language),
            templates: self.templates.clone(),
            reused_files: 0,
            cached: false,
        }
    }
}

/// The translatable strings of `game`, compiled with every field kept
/// ([`Keep::All`]): those its compile kept when it has a translation file
/// to check, or made now when it has none yet — for what needs them
/// anyway (sheets in a language without a file, a first export for
/// translators).
///
/// # Errors
/// When a template cannot be read.
pub fn translatable<'g>(
    ws: &mut Workspace,
    game: &'g Game,
    diags: &mut Diagnostics,
) -> Result<std::borrow::Cow<'g, i18n::Sources>, LoadError> {
    if !game.i18n.catalogs.is_empty() || game.manifest.manifest.translations.is_empty() {
        return Ok(std::borrow::Cow::Borrowed(&game.i18n.sources));
    }
    let phrases = i18n::phrases::read(ws, game.id(), diags)?;
    let titled = titled_kinds(ws, &game.manifest.manifest, &game.templates);
    let sources = i18n::Sources::of(&game.manifest, &game.schemas, &game.pool)
        .with_phrases(phrases)
        .with_titles(&game.schemas, &titled);
    Ok(std::borrow::Cow::Owned(sources))
}

/// The kinds whose face may print the default face's titles: those with
/// no face template of their own (`<kind>.hbs`, or the game's
/// `face.hbs`), and every kind when a template of the game reads `layout`
/// or the templates are not rendered (a cycle of partials).
pub(super) fn titled_kinds(
    ws: &Workspace,
    manifest: &crate::config::Manifest,
    templates: &partials::Templates,
) -> Vec<String> {
    let has = |name: &str| templates.files.iter().any(|(n, _)| n == name);
    let reads_layout = !templates.sound
        || templates
            .files
            .iter()
            .any(|(_, f)| ws.sources.get(*f).text.contains("layout"));
    manifest
        .kinds
        .keys()
        .filter(|k| reads_layout || !(has("face.hbs") || has(&format!("{k}.hbs"))))
        .cloned()
        .collect()
}
