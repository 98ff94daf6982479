//! The sheets' side of `carta build` and `carta print`: check, render every
//! game (or deck), and write only when nothing failed.

use std::collections::BTreeMap;
use std::error::Error;
use std::path::{Path, PathBuf};

use super::{
    CopyBudget, Inputs, OutputFile, Selection, SheetOptions, deck, pool_prints, render,
    write_atomically,
};
use crate::check::{self, Game};
use crate::diag::{Diagnostics, SourceMap};
use crate::load::{LoadError, Workspace};

/// What a command leaves for the session to print: its diagnostics, the
/// sources they point into, and a one-line summary.
pub type Report = (Diagnostics, SourceMap, String);

/// Why the files could not be written (exit 2).
#[derive(Debug, thiserror::Error)]
#[error("cannot write `{path}`: {source}")]
pub struct WriteError {
    /// The folder being written.
    pub path: PathBuf,
    /// The I/O error.
    pub source: std::io::Error,
}

/// Folders to write, each replaced whole, and the copies left to print.
struct Outputs {
    folders: Vec<(PathBuf, Vec<OutputFile>)>,
    budget: CopyBudget,
}

impl Outputs {
    fn new(ws: &Workspace) -> Self {
        Outputs {
            folders: Vec::new(),
            budget: CopyBudget::new(ws.limits().max_print_copies),
        }
    }
}

/// `carta build`: `out/<game>/<game>.carta` (the bundle) and
/// `out/<game>/sheets/` for each game, all or nothing.
///
/// # Errors
/// When the workspace cannot be read or the output cannot be written.
pub fn build(
    root: &Path,
    games: &[String],
    out: &Path,
    options: &SheetOptions,
) -> Result<Report, Box<dyn Error>> {
    let mut ws = Workspace::open(root)?;
    let mut diags = Diagnostics::new();
    let checked = check::check(&mut ws, games, &mut diags)?;
    let mut outputs = Outputs::new(&ws);
    // Every bundle is encoded before anything is written; an error in one
    // game writes no bundle and no sheet.
    let bundles = match diags.has_errors() {
        true => None,
        false => crate::emit::encode_bundles(&checked, &ws.sources, out, &mut diags),
    };
    if let Some(bundles) = &bundles {
        for game in &checked {
            let selection = Selection {
                subject: "Every card of the game".into(),
                prints: pool_prints(game),
            };
            let dest = out.join(&game.manifest.manifest.id).join("sheets");
            render_one(
                &mut ws,
                game,
                &selection,
                options,
                dest,
                &mut diags,
                &mut outputs,
            )?;
        }
        if !diags.has_errors() {
            crate::emit::write_encoded(bundles)?;
        }
    }
    finish(
        ws,
        diags,
        outputs,
        "built bundles and sheets of",
        checked.len(),
        ("game", "games"),
    )
}

/// `carta print`: games (as `build` does, sheets only) and deck files
/// (`out/<game>/decks/<deck file stem>/`).
///
/// # Errors
/// When the workspace or a deck file cannot be read or the output cannot be written.
pub fn print(
    root: &Path,
    targets: &[String],
    out: &Path,
    options: &SheetOptions,
) -> Result<Report, Box<dyn Error>> {
    let (decks, games): (Vec<&String>, Vec<&String>) =
        targets.iter().partition(|t| t.ends_with(".toml"));
    if decks.is_empty() {
        return build(root, targets, out, options);
    }
    let mut ws = Workspace::open(root)?;
    let mut diags = Diagnostics::new();
    let mut outputs = Outputs::new(&ws);
    let games: Vec<String> = games.into_iter().cloned().collect();
    let mut printed = 0;
    // Each game is checked once, however many of its decks are printed.
    let mut checked: BTreeMap<String, Option<check::Game>> = BTreeMap::new();
    if !games.is_empty() {
        for game in check::check(&mut ws, &games, &mut diags)? {
            let selection = Selection {
                subject: "Every card of the game".into(),
                prints: pool_prints(&game),
            };
            let dest = out.join(&game.manifest.manifest.id).join("sheets");
            render_one(
                &mut ws,
                &game,
                &selection,
                options,
                dest,
                &mut diags,
                &mut outputs,
            )?;
            printed += 1;
            checked.insert(game.manifest.manifest.id.clone(), Some(game));
        }
    }
    for path in decks {
        let file = ws.read_path(Path::new(path), &mut diags)?;
        let text = ws.sources.get(file).text.clone();
        let mut found = Vec::new();
        let parsed = crate::deck::parse(file, &text, &mut found);
        diags.extend(found);
        let Some(d) = parsed else { continue };
        if !checked.contains_key(&d.game) {
            let game = check::check(&mut ws, std::slice::from_ref(&d.game), &mut diags)?.pop();
            checked.insert(d.game.clone(), game);
        }
        let Some(game) = &checked[&d.game] else {
            continue;
        };
        let mut found = Vec::new();
        let prints = deck::prints(&d, game, &mut found);
        diags.extend(found);
        let Some(prints) = prints else { continue };
        let stem = Path::new(path)
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or("deck")
            .to_owned();
        let dest = out.join(&d.game).join("decks").join(stem);
        let selection = Selection {
            subject: format!("Deck: {}", d.name),
            prints,
        };
        render_one(
            &mut ws,
            game,
            &selection,
            options,
            dest,
            &mut diags,
            &mut outputs,
        )?;
        printed += 1;
    }
    finish(
        ws,
        diags,
        outputs,
        "printed",
        printed,
        ("set of sheets", "sets of sheets"),
    )
}

fn render_one(
    ws: &mut Workspace,
    game: &Game,
    selection: &Selection<'_>,
    options: &SheetOptions,
    dest: PathBuf,
    diags: &mut Diagnostics,
    outputs: &mut Outputs,
) -> Result<(), LoadError> {
    let mut found = Vec::new();
    if !outputs.budget.spend(&selection.prints, &ws.sources, &mut found) {
        diags.extend(found);
        return Ok(());
    }
    let inputs = Inputs::read(ws, &game.manifest.manifest.id, diags)?;
    let files = render(
        ws.jail(),
        &ws.sources,
        game,
        &inputs,
        selection,
        options,
        &mut found,
    );
    diags.extend(found);
    if let Some(files) = files {
        outputs.folders.push((dest, files));
    }
    Ok(())
}

/// Writes every folder, only when no error was found anywhere.
fn finish(
    ws: Workspace,
    diags: Diagnostics,
    outputs: Outputs,
    verb: &str,
    n: usize,
    noun: (&str, &str),
) -> Result<Report, Box<dyn Error>> {
    if diags.has_errors() {
        return Ok((diags, ws.sources, "nothing written".into()));
    }
    for (dest, files) in &outputs.folders {
        write_atomically(dest, files).map_err(|source| WriteError {
            path: dest.clone(),
            source,
        })?;
    }
    let summary = format!("{verb} {n} {}", if n == 1 { noun.0 } else { noun.1 });
    Ok((diags, ws.sources, summary))
}
