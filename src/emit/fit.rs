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

/// Loads the sheets staged in `folder` (relative to the output folder:
/// its `index.html` and the files beside it) in `chromium`, and reports
/// into `diags` the text of `game`'s cards that does not fit. `about`
/// names the sheets, `cards` counts their boxes (the page's time limit
/// grows with them). A browser that fails on the page is a warning: the
/// sheets are written all the same. Returns whether the page reported.
///
/// # Errors
/// When the staged folder cannot be listed.
pub fn check_sheets(
    chromium: &Chromium,
    (game, ws): (&Game, &Workspace),
    (stage, folder): (&Stage, &Path),
    (about, cards): (&str, usize),
    diags: &mut Diagnostics,
) -> Result<bool, EmitError> {
    let Some(root) = stage.staged_path(folder) else {
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
        about: about.to_owned(),
        cards,
        shot: Shot::Measure,
    };
    // What earlier pages of this browser measured is not these sheets'.
    chromium.take_measured();
    if let Err(e) = chromium.run_all(&site, &[job], 1, "checking fit") {
        diags.push(
            Diagnostic::warning(
                UNCHECKED,
                format!("the fit of {about} was not checked: {e}"),
            )
            .with_help("the sheets are written; `--no-fit-check` skips the check"),
        );
        return Ok(false);
    }
    let measured = chromium.take_measured();
    report(&measured, about, (game, ws), diags);
    let reported = measured.pages > 0;
    Ok(reported)
}

/// Reports into `diags` what the pages of `game`'s cards (named by
/// `about`) measured: each box whose text does not fit, at the card's
/// field; a warning when no page reported at all.
pub fn report(
    measured: &Measured,
    about: &str,
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
        &ws.sources,
        ws.jail(),
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
