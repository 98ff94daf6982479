//! `carta i18n update|export|import`: keeping a game's translation files
//! (`cards/<game>/i18n/<lang>.toml`) without editing TOML by hand. These
//! are the only commands that write into a game's sources, and only into
//! its translation files, each atomically.

use std::io::Write;
use std::path::Path;
use std::sync::Arc;

use super::{CommandError, Report, plural};
use crate::diag::{Diagnostic, Diagnostics, FileId};
use crate::emit::EmitError;
use crate::game::{self, Decks, Game, Keep};
use crate::i18n::{self, edit, po};
use crate::load::Workspace;
use crate::write::{self, Folder};

/// Compiles `game` for its translations; `None` (reported) when it cannot
/// be translated as it stands.
fn open(
    ws: &mut Workspace,
    game: &str,
    lang: Option<&str>,
    diags: &mut Diagnostics,
) -> Result<Option<Game>, CommandError> {
    ws.select_games(&[game.to_owned()])?;
    let Some(compiled) = game::compile(ws, game, Decks::Skip, Keep::All, diags)? else {
        return Ok(None);
    };
    if compiled.i18n.coverage.is_none() {
        if compiled.manifest.manifest.translations.is_empty() {
            diags.push(
                Diagnostic::error(
                    "i18n::language",
                    format!("game `{game}` declares no translations"),
                )
                .at(compiled.manifest.file, 0..0, "no `translations`")
                .with_help("add `translations = [\"en\"]` (the languages to translate into) to `game.toml`"),
            );
        }
        return Ok(None);
    }
    if let Some(lang) = lang
        && !compiled
            .manifest
            .manifest
            .translations
            .iter()
            .any(|l| l == lang)
    {
        let span = compiled
            .manifest
            .spans
            .value_span("/translations")
            .unwrap_or(0..0);
        diags.push(
            Diagnostic::error(
                "i18n::language",
                format!("game `{game}` declares no translation into `{lang}`"),
            )
            .at(compiled.manifest.file, span, "the declared translations")
            .with_help(format!("add \"{lang}\" to `translations` in `game.toml`")),
        );
        return Ok(None);
    }
    // A game without a translation file yet has its strings made now: a
    // first export lists them all.
    let made = match game::translatable(ws, &compiled, diags)? {
        std::borrow::Cow::Owned(sources) => Some(sources),
        std::borrow::Cow::Borrowed(_) => None,
    };
    let mut compiled = compiled;
    if let Some(sources) = made {
        compiled.i18n.sources = sources;
    }
    Ok(Some(compiled))
}

/// Writes `text` to workspace file `rel` atomically: a new temporary file
/// beside it, created exclusively, synced and renamed over it; never
/// through a link, never onto a FIFO or a device (see [`crate::write`]).
fn write_atomic(root: &Path, rel: &str, text: &str) -> Result<(), CommandError> {
    let (dir, name) = write::split(Path::new(rel));
    let dir = Folder::workspace(root)
        .and_then(|root| root.sub(dir))
        .map_err(EmitError::from)?;
    dir.write_atomic(name, text.as_bytes(), true)
        .map_err(EmitError::from)?;
    Ok(())
}

/// Applies `changes` to the translation of `game` into `lang` and writes it
/// when it changed; whether it did.
fn rewrite(
    ws: &Workspace,
    game: &Game,
    lang: &str,
    changes: &[edit::Change],
) -> Result<bool, CommandError> {
    let rel = i18n::file_path(game.id(), lang);
    let old = match game.i18n.catalog(lang) {
        Some(c) => ws.sources.get(c.file).text.to_string(),
        None => format!(
            "# {} translation of {}.\n",
            lang, game.manifest.manifest.name
        ),
    };
    let new = edit::apply(&old, changes).map_err(|e| {
        CommandError::Emit(EmitError::Write {
            path: ws.root().join(&rel),
            source: std::io::Error::new(std::io::ErrorKind::InvalidData, e),
        })
    })?;
    if new == old && game.i18n.catalog(lang).is_some() {
        return Ok(false);
    }
    write_atomic(ws.root(), &rel, &new)?;
    Ok(true)
}

/// `carta i18n update GAME [--lang L]`: records the current source hash in
/// every translation entry (after a reviewer checked them), and adds the
/// captions carta prints that it knows in the translation's language.
///
/// # Errors
/// When a file cannot be read or written.
pub(crate) fn update(root: &Path, game: &str, lang: Option<&str>) -> Result<Report, CommandError> {
    let mut ws = Workspace::open(root)?;
    let mut diags = Diagnostics::new();
    let Some(compiled) = open(&mut ws, game, lang, &mut diags)? else {
        return Ok(Report::new(ws, diags, "nothing written")?);
    };
    let mut updated = Vec::new();
    for catalog in &compiled.i18n.catalogs {
        if lang.is_some_and(|l| l != catalog.lang) {
            continue;
        }
        let mut changes: Vec<edit::Change> = catalog
            .entries
            .iter()
            .filter_map(|(key, entry)| {
                let source = compiled.i18n.sources.strings.get(key)?;
                let hash = i18n::source_hash(&source.text);
                (entry.hash.as_ref() != Some(&hash)).then(|| edit::Change {
                    key: key.clone(),
                    text: None,
                    hash: Some(hash),
                })
            })
            .collect();
        changes.extend(known_captions(&compiled.i18n.sources, catalog));
        if !changes.is_empty() && rewrite(&ws, &compiled, &catalog.lang, &changes)? {
            updated.push(format!(
                "{} ({} entr{})",
                catalog.lang,
                changes.len(),
                if changes.len() == 1 { "y" } else { "ies" }
            ));
        }
    }
    // The stale warnings of the compile are what this command resolves.
    let diags = without_code(diags, "i18n::stale");
    let summary = if updated.is_empty() {
        "every translation hash is current".into()
    } else {
        format!("updated source hashes: {}", updated.join(", "))
    };
    Ok(Report::new(ws, diags, summary)?)
}

/// The captions carta prints that `catalog` lacks and carta knows in its
/// language (see [`i18n::captions`]): added as carta writes them, made
/// from the current source text.
fn known_captions(sources: &i18n::Sources, catalog: &i18n::Catalog) -> Vec<edit::Change> {
    sources
        .strings
        .iter()
        .filter(|(key, _)| catalog.get(key).is_none())
        .filter_map(|(key, source)| {
            let i18n::Scope::Caption(id) = &key.scope else {
                return None;
            };
            let text = i18n::captions::known(id, &catalog.lang)?;
            Some(edit::Change {
                key: key.clone(),
                text: Some(text.to_owned()),
                hash: Some(i18n::source_hash(&source.text)),
            })
        })
        .collect()
}

/// `carta i18n export GAME --lang L [-o FILE]`: the PO file to translate.
///
/// # Errors
/// When a file cannot be read or written.
pub(crate) fn export(
    root: &Path,
    game: &str,
    lang: &str,
    out: Option<&Path>,
) -> Result<Report, CommandError> {
    let mut ws = Workspace::open(root)?;
    let mut diags = Diagnostics::new();
    let Some(compiled) = open(&mut ws, game, Some(lang), &mut diags)? else {
        return Ok(Report::new(ws, diags, "nothing written")?);
    };
    let text = po::export(
        game,
        lang,
        &compiled.i18n.sources,
        compiled.i18n.catalog(lang),
    );
    let count = compiled.i18n.sources.strings.len();
    let summary = if let Some(path) = out {
        std::fs::write(path, &text).map_err(|source| EmitError::Write {
            path: path.to_path_buf(),
            source,
        })?;
        format!(
            "wrote {count} string{} of `{game}` in `{lang}` to {}",
            plural(count),
            path.display()
        )
    } else {
        // A closed pipe (`| head`) is not an error worth reporting.
        let _ = std::io::stdout().lock().write_all(text.as_bytes());
        String::new()
    };
    Ok(Report::new(
        ws,
        without_code(diags, "i18n::missing"),
        summary,
    )?)
}

/// `carta i18n import GAME FILE [--lang L]`: reads a translated PO file
/// into the game's translation file.
///
/// # Errors
/// When a file cannot be read or written.
pub(crate) fn import(
    root: &Path,
    game: &str,
    file: &Path,
    lang: Option<&str>,
) -> Result<Report, CommandError> {
    let mut ws = Workspace::open(root)?;
    let mut diags = Diagnostics::new();
    let po_file = ws.read_path(file, &mut diags)?;
    let text = Arc::clone(&ws.sources.get(po_file).text);
    let parsed = match po::parse(&text) {
        Ok(parsed) => parsed,
        Err(e) => {
            diags.push(syntax_error(e, po_file));
            return Ok(Report::new(ws, diags, "nothing written")?);
        }
    };
    let Some(lang) = lang
        .map(str::to_owned)
        .or(parsed.language().map(str::to_owned))
    else {
        diags.push(
            Diagnostic::error("i18n::po", "the PO file names no language")
                .at(po_file, 0..0, "no `Language:` header")
                .with_help("pass `--lang <tag>`"),
        );
        return Ok(Report::new(ws, diags, "nothing written")?);
    };
    let Some(compiled) = open(&mut ws, game, Some(&lang), &mut diags)? else {
        return Ok(Report::new(ws, diags, "nothing written")?);
    };
    let imported = po::import(
        &parsed,
        &compiled.i18n.sources,
        compiled.i18n.catalog(&lang),
    );
    for problem in imported.problems {
        diags.push(
            Diagnostic::error(
                "i18n::po",
                format!(
                    "message `{}` was not imported: {}",
                    crate::diag::clip(&problem.context),
                    problem.why
                ),
            )
            .at(po_file, problem.span, "not imported")
            .with_help("export a fresh file with `carta i18n export` and translate that one"),
        );
    }
    if diags.has_errors() {
        return Ok(Report::new(ws, diags, "nothing written")?);
    }
    let n = imported.changes.len();
    let wrote = n > 0 && rewrite(&ws, &compiled, &lang, &imported.changes)?;
    let summary = if wrote {
        format!(
            "imported {n} change{} into {}",
            plural(n),
            i18n::file_path(game, &lang)
        )
    } else {
        "nothing to import: the translation file already says it all".into()
    };
    // What was stale or missing before the import is reported by the next check.
    let diags = without_code(without_code(diags, "i18n::missing"), "i18n::stale");
    Ok(Report::new(ws, diags, summary)?)
}

/// A PO file's syntax error as a diagnostic at its place.
fn syntax_error(e: po::SyntaxError, file: FileId) -> Diagnostic {
    Diagnostic::error(
        "i18n::po-syntax",
        format!("this is not a PO file carta can read: {e}"),
    )
    .at(file, e.span, "here")
    .with_help("fix this line, or export a fresh file with `carta i18n export`")
}

/// The diagnostics without those of `code`.
fn without_code(diags: Diagnostics, code: &str) -> Diagnostics {
    let mut out = Diagnostics::new();
    out.extend(diags.into_sorted().into_iter().filter(|d| d.code != code));
    out
}
