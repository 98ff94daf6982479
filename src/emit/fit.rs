//! Whether the cards' text fits its boxes, as the browser lays it out:
//! `carta print` loads the sheets it staged in the sealed browser
//! ([`check_sheets`]), `carta export` reads what its own pages reported
//! ([`report`]); both turn the boxes the fit script found into
//! `sheets::overflow` warnings at the cards' fields
//! ([`super::sheets::overflow`]). Warnings only: a build never fails on them.

use std::path::Path;

use super::chromium::{Chromium, Job, Measured, Shot, Site};
use super::sheets::overflow;
use super::{EmitError, Stage};
use crate::diag::{Diagnostic, Diagnostics};
use crate::game::Game;
use crate::load::Workspace;

/// The code of a fit check that could not be made.
pub const UNCHECKED: &str = "sheets::fit-unchecked";

/// A set of sheets staged for [`check_sheets`].
#[derive(Debug, Clone, Copy)]
pub struct Staged<'a> {
    /// Its folder, relative to the output folder (its `index.html` and
    /// the files beside it).
    pub folder: &'a Path,
    /// What it is, for messages (``the sheets of `mini` ``).
    pub about: &'a str,
    /// How many card boxes it draws (the page's time limit grows with them).
    pub cards: usize,
    /// The language it is printed in, when not the game's own.
    pub lang: Option<&'a str>,
}

/// Loads the `sheets` staged in `stage` in `chromium`, and reports into
/// `diags` the text of `game`'s cards (the game in the sheets' language)
/// that does not fit. A browser that fails on the page is a warning: the
/// sheets are written all the same. Returns whether the page reported.
///
/// # Errors
/// When the staged folder cannot be listed.
pub fn check_sheets(
    chromium: &Chromium,
    (game, ws): (&Game, &Workspace),
    stage: &Stage,
    sheets: Staged<'_>,
    diags: &mut Diagnostics,
) -> Result<bool, EmitError> {
    let Some(root) = stage.staged_path(sheets.folder) else {
        return Ok(false);
    };
    let mut files = Vec::new();
    list(&root, "", &mut files).map_err(|source| EmitError::Write {
        path: root.clone(),
        source,
    })?;
    let site = Site { root, files };
    let job = Job {
        page: "index.html".to_owned(),
        out: site.root.join("index.html"),
        about: sheets.about.to_owned(),
        cards: sheets.cards,
        shot: Shot::Measure,
    };
    // What earlier pages of this browser measured is not these sheets'.
    chromium.take_measured();
    if let Err(e) = chromium.run_all(&site, &[job], 1, "checking fit") {
        diags.push(
            Diagnostic::warning(
                UNCHECKED,
                format!("the fit of {} was not checked: {e}", sheets.about),
            )
            .with_help("the sheets are written; `--no-fit-check` skips the check"),
        );
        return Ok(false);
    }
    let measured = chromium.take_measured();
    report(&measured, (sheets.about, sheets.lang), (game, ws), diags);
    Ok(measured.pages > 0)
}

/// Reports into `diags` what the pages of `game`'s cards (named by
/// `about`, in language `lang` when not the game's own) measured: each
/// box whose text does not fit, at the card's field; a warning when no
/// page reported at all.
pub fn report(
    measured: &Measured,
    (about, lang): (&str, Option<&str>),
    (game, ws): (&Game, &Workspace),
    diags: &mut Diagnostics,
) {
    if measured.pages == 0 && measured.silent > 0 {
        diags.push(
            Diagnostic::warning(
                UNCHECKED,
                format!("the fit of {about} was not checked: its page reported nothing"),
            )
            .with_help("a template's markup may have kept carta's fit script from running"),
        );
    }
    diags.extend(overflow::diagnose(
        game,
        (&ws.sources, ws.jail()),
        lang,
        &measured.overflows,
    ));
}

/// Appends to `out` every file under `dir` (whose path from the sheets'
/// folder is `prefix`), `/`-separated; carta wrote them all.
fn list(dir: &Path, prefix: &str, out: &mut Vec<String>) -> std::io::Result<()> {
    let mut entries: Vec<_> = std::fs::read_dir(dir)?.collect::<Result<_, _>>()?;
    entries.sort_by_key(std::fs::DirEntry::file_name);
    for e in entries {
        let name = e.file_name().to_string_lossy().into_owned();
        let rel = format!("{prefix}{name}");
        let kind = e.file_type()?;
        if kind.is_dir() {
            list(&e.path(), &format!("{rel}/"), out)?;
        } else if kind.is_file() {
            out.push(rel);
        }
    }
    Ok(())
}
