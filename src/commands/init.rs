//! `carta init`: a new workspace, or a new game in one, that checks and
//! builds clean at once: a manifest with two example kinds, their schemas
//! (labelled values, art fields), a card file per kind, a deck, templates
//! with an art box, labelled stats and a back of their own, three pictures
//! (SVG, drawn for carta and under its licence), and the editor files.

use std::path::{Path, PathBuf};

use super::{CommandError, Report};
use crate::diag::Diagnostics;
use crate::game::{self, Decks, Keep};
use crate::load::{LoadError, Workspace};
use crate::write::{self, Folder, Kind, WriteError};

/// The game id `carta init` uses when none is given and the folder's name
/// is not a valid id.
pub(crate) const DEFAULT_GAME: &str = "my-game";

/// Why `carta init` could not run (exit 2).
#[derive(Debug, thiserror::Error)]
pub(crate) enum InitError {
    /// The game id is not a valid id.
    #[error(
        "`{0}` is not a valid game id: use lowercase letters, digits and single dashes, such as `my-game`"
    )]
    BadId(String),
    /// The name has a line break or another control character.
    #[error("the game's name must be one line of text")]
    BadName,
    /// Some of the files to write exist.
    #[error("carta init writes nothing over existing files, and these exist: {}", .0.join(", "))]
    Exists(Vec<String>),
    /// Writing failed, or a link or a non-regular file is in the way.
    #[error(transparent)]
    Confined(#[from] WriteError),
    /// The new game could not be checked.
    #[error(transparent)]
    Load(#[from] LoadError),
    /// The editor files could not be written.
    #[error(transparent)]
    Emit(#[from] crate::emit::EmitError),
}

/// `carta init [DIR] [--game ID] [--name NAME]`: writes the game and, with
/// `list`, lists what it wrote on stderr.
///
/// # Errors
/// As [`init`].
pub(crate) fn run(
    dir: &Path,
    game: Option<&str>,
    name: Option<&str>,
    list: bool,
) -> Result<Report, CommandError> {
    let id = game.map_or_else(|| default_id(dir), str::to_owned);
    let name = name.map_or_else(|| default_name(&id), str::to_owned);
    let created = init(dir, &id, &name)?;
    if list {
        for f in &created.files {
            eprintln!("  created {}", tidy(&dir.join(f)).display());
        }
    }
    let summary = format!(
        "created game `{}` in {} (next: `carta build`, or `carta watch --serve --open`)",
        created.game,
        tidy(dir).display()
    );
    Ok(Report::new(
        created.workspace,
        created.diagnostics,
        summary,
    )?)
}

/// `path` without its `.` components, as the user would write it: `-C .`
/// and the default folder `.` join into `././schemas/…`; `.` when nothing
/// else is left.
fn tidy(path: &Path) -> PathBuf {
    let tidy: PathBuf = path
        .components()
        .filter(|c| *c != std::path::Component::CurDir)
        .collect();
    if tidy.as_os_str().is_empty() {
        PathBuf::from(".")
    } else {
        tidy
    }
}

impl InitError {
    /// The stable code of the error in JSON output.
    pub(crate) fn code(&self) -> &'static str {
        match self {
            InitError::BadId(_) => "init::bad-id",
            InitError::BadName => "init::bad-name",
            InitError::Exists(_) => "init::exists",
            InitError::Confined(e) if e.is_refusal() => e.code(),
            InitError::Confined(_) => "init::io",
            InitError::Load(_) => "init::load",
            InitError::Emit(_) => "emit::write",
        }
    }
}

/// What `carta init` made.
#[derive(Debug)]
pub(crate) struct Created {
    /// The game id.
    pub(crate) game: String,
    /// The files written, relative to the workspace.
    pub(crate) files: Vec<String>,
    /// The check of the new game (clean unless the workspace around it is not).
    pub(crate) diagnostics: Diagnostics,
    /// The workspace, with the files the check read.
    pub(crate) workspace: Workspace,
}

/// The example game's files: (path with `{{ID}}` in it, content).
const FILES: &[(&str, &str)] = &[
    ("cards/{{ID}}/game.toml", include_str!("init/game.toml")),
    ("cards/{{ID}}/heroes.toml", include_str!("init/heroes.toml")),
    ("cards/{{ID}}/spells.toml", include_str!("init/spells.toml")),
    (
        "cards/{{ID}}/decks/starter.toml",
        include_str!("init/starter.toml"),
    ),
    (
        "schemas/{{ID}}/hero.schema.json",
        include_str!("init/hero.schema.json"),
    ),
    (
        "schemas/{{ID}}/spell.schema.json",
        include_str!("init/spell.schema.json"),
    ),
    ("cards/{{ID}}/art/ember.svg", include_str!("init/ember.svg")),
    ("cards/{{ID}}/art/tide.svg", include_str!("init/tide.svg")),
    ("cards/{{ID}}/art/spell.svg", include_str!("init/spell.svg")),
    ("templates/{{ID}}/hero.hbs", include_str!("init/hero.hbs")),
    ("templates/{{ID}}/_art.hbs", include_str!("init/_art.hbs")),
    ("templates/{{ID}}/spell.hbs", include_str!("init/spell.hbs")),
    ("templates/{{ID}}/back.hbs", include_str!("init/back.hbs")),
    ("templates/{{ID}}/style.css", include_str!("init/style.css")),
];

/// The game id for `dir` when none is given: the folder's name when it is a
/// valid id, else [`DEFAULT_GAME`].
pub(crate) fn default_id(dir: &Path) -> String {
    std::path::absolute(dir)
        .ok()
        .and_then(|d| d.file_name().map(|n| n.to_string_lossy().to_lowercase()))
        .filter(|n| crate::validate::is_valid_id(n))
        .unwrap_or_else(|| DEFAULT_GAME.to_owned())
}

/// A display name from an id: `my-game` → `My Game`.
pub(crate) fn default_name(id: &str) -> String {
    id.split('-')
        .map(|w| {
            let mut c = w.chars();
            c.next()
                .map(|f| f.to_uppercase().chain(c).collect::<String>())
                .unwrap_or_default()
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Writes game `id` named `name` into the workspace at `root` (created when
/// missing), then checks it and writes the editor files.
///
/// # Errors
/// A bad id or name, any file that exists, or an I/O failure.
pub(crate) fn init(root: &Path, id: &str, name: &str) -> Result<Created, InitError> {
    if !crate::validate::is_valid_id(id) {
        return Err(InitError::BadId(id.to_owned()));
    }
    if name.trim().is_empty() || name.chars().any(char::is_control) {
        return Err(InitError::BadName);
    }
    // The name goes into TOML and JSON strings, and into comments: its
    // JSON-escaped form is valid in both kinds of string.
    let quoted = serde_json::to_string(name).expect("strings serialize");
    let escaped = &quoted[1..quoted.len() - 1];
    let files: Vec<(String, String)> = FILES
        .iter()
        .map(|(path, text)| {
            (
                path.replace("{{ID}}", id),
                text.replace("{{ID}}", id).replace("{{NAME}}", escaped),
            )
        })
        .collect();
    std::fs::create_dir_all(root).map_err(|source| WriteError::Io {
        path: root.to_path_buf(),
        source,
    })?;
    let folder = Folder::workspace(root)?;
    let mut existing = Vec::new();
    for (path, _) in &files {
        if present(&folder, path)? {
            existing.push(path.clone());
        }
    }
    if !existing.is_empty() {
        return Err(InitError::Exists(existing));
    }
    let mut written = Vec::new();
    for (path, text) in &files {
        write_new(&folder, path, text)?;
        written.push(path.clone());
    }
    if !present(&folder, ".gitignore")? {
        write_new(&folder, ".gitignore", "build/\n")?;
        written.push(".gitignore".into());
    }
    let mut ws = Workspace::open(root)?;
    let mut diagnostics = Diagnostics::new();
    let game = game::compile(&mut ws, id, Decks::Check, Keep::All, &mut diagnostics)?;
    let games: Vec<game::Game> = game.into_iter().collect();
    let editor = crate::editor::refresh(root, &games, &ws.game_ids()?)?;
    written.extend(editor.written);
    Ok(Created {
        game: id.to_owned(),
        files: written,
        diagnostics,
        workspace: ws,
    })
}

/// The folders of `cards/` with no `game.toml` (carta skips them), as
/// workspace-relative paths, sorted.
pub(crate) fn folders_without_manifest(root: &Path) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(root.join("cards")) else {
        return Vec::new();
    };
    let mut out: Vec<String> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_dir() && !p.join("game.toml").exists())
        .filter_map(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
        .filter(|n| !n.starts_with('.'))
        .map(|n| format!("cards/{n}"))
        .collect();
    out.sort();
    out
}

/// Warns about each folder of `cards/` without a `game.toml`, naming the fix.
pub(crate) fn warn_folders_without_manifest(root: &Path, diags: &mut Diagnostics) {
    for folder in folders_without_manifest(root) {
        let game = folder.trim_start_matches("cards/");
        diags.push(
            crate::diag::Diagnostic::warning(
                "load::no-manifest",
                format!("`{folder}/` has no `game.toml`, so it is not a game and its files are not checked"),
            )
            .with_help(format!(
                "run `carta init --game {game}` to add a manifest, schemas and templates for it, or move the folder out of `cards/`"
            )),
        );
    }
}

/// Whether workspace file `rel` exists. A link on the way to it, or in
/// its place, is refused before anything is written.
fn present(root: &Folder, rel: &str) -> Result<bool, WriteError> {
    let (dir, name) = write::split(Path::new(rel));
    let Some(dir) = root.existing(dir)? else {
        return Ok(false);
    };
    match dir.kind(name)? {
        Some(Kind::Link) => Err(WriteError::Link {
            path: dir.shown(name),
        }),
        found => Ok(found.is_some()),
    }
}

/// Creates workspace file `rel` with `text`, and the folders on its way;
/// never through a link, never over a file that appeared since the check.
fn write_new(root: &Folder, rel: &str, text: &str) -> Result<(), WriteError> {
    let (dir, name) = write::split(Path::new(rel));
    let dir = root.sub(dir)?;
    let mut file = dir.create_new(name)?;
    std::io::Write::write_all(&mut file, text.as_bytes()).map_err(|source| WriteError::Io {
        path: dir.shown(name),
        source,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn printed_paths_lose_their_dot_components() {
        for (path, shown) in [
            ("././schemas/carta/x.json", "schemas/carta/x.json"),
            ("./.", "."),
            (".", "."),
            ("duel/./cards", "duel/cards"),
            ("a/./b/./c", "a/b/c"),
            ("../w/./cards", "../w/cards"),
        ] {
            assert_eq!(tidy(Path::new(path)), Path::new(shown), "{path}");
        }
    }

    #[test]
    fn names_and_ids_default_from_the_folder() {
        assert_eq!(default_name("my-game"), "My Game");
        assert_eq!(default_id(Path::new("games/dragon-duel")), "dragon-duel");
        assert_eq!(default_id(Path::new("games/Not An Id")), DEFAULT_GAME);
    }
}
