//! `carta serve`: the deck builder in the browser — a card browser per
//! game, a deck builder judged by the game's own rules, deck codes, links
//! and saving, and a page for organisers — on the same server as `carta
//! watch --serve` ([`crate::server`]).

use std::error::Error;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};

use super::Report;
use crate::diag::Diagnostics;
use crate::game::{self, Decks, Keep};
use crate::l10n::Lang;
use crate::load::{LoadError, Workspace};
use crate::server::{Catalog, ConnLimits, Front, GameEntry, Live};

/// What `carta serve` was asked to do.
#[derive(Debug, Clone)]
pub(crate) struct ServeOptions {
    /// The games to serve (all when empty).
    pub(crate) games: Vec<String>,
    /// Where to listen.
    pub(crate) addr: SocketAddr,
    /// Whether to open the builder in the default browser.
    pub(crate) open: bool,
    /// The build folder, whose sheets the preview pages show.
    pub(crate) out: PathBuf,
    /// The pages' language when a page asks for none (`--ui-lang`).
    pub(crate) ui_lang: Option<String>,
    /// The cards' language whatever the page's (`--lang`).
    pub(crate) cards_lang: Option<String>,
}

/// Compiles the named games (all when empty) for the deck builder: every
/// card kept, its face rendered with the game's templates. A game whose
/// check finds errors is left out (its problems are in `diags`).
///
/// # Errors
/// When the workspace or a file cannot be read, or a named game does not exist.
pub(crate) fn catalog(
    root: &Path,
    games: &[String],
    diags: &mut Diagnostics,
) -> Result<(Catalog, Workspace), LoadError> {
    let mut ws = Workspace::open(root)?;
    let mut compiled = Vec::new();
    for id in ws.select_games(games)? {
        let before = diags.error_count();
        let game = game::compile(&mut ws, &id, Decks::Skip, Keep::All, diags)?;
        if let Some(game) = game.filter(|_| diags.error_count() == before) {
            compiled.push(game);
        }
    }
    let catalog = super::serving::catalog_of(&mut ws, compiled, None, diags)?;
    Ok((catalog, ws))
}

/// The language `--ui-lang` names; English, said once, when carta does
/// not speak it.
fn ui_lang(tag: &str) -> Lang {
    Lang::parse(tag).unwrap_or_else(|| {
        let spoken: Vec<&str> = Lang::ALL.iter().map(|l| l.tag()).collect();
        eprintln!(
            "warning: the deck builder does not speak `{tag}` (it speaks {}): its pages are in English",
            spoken.join(", ")
        );
        Lang::En
    })
}

/// Serves the builder until the process is stopped; `report` shows the
/// games' problems first.
///
/// # Errors
/// When the workspace cannot be read, no game can be served, or the
/// address cannot be bound.
pub(crate) fn serve(
    root: &Path,
    options: &ServeOptions,
    report: &mut dyn FnMut(Report),
) -> Result<(), Box<dyn Error>> {
    let root = std::path::absolute(root)?;
    let limits = ConnLimits::from_env()?;
    let mut diags = Diagnostics::new();
    let (catalog, ws) = catalog(&root, &options.games, &mut diags)?;
    let max_bytes = ws.jail().max_bytes();
    let broken = diags.has_errors();
    let empty = catalog.is_empty();
    let summary = if broken {
        "games with errors are not served: fix what `carta check` reports".to_owned()
    } else {
        String::new()
    };
    let entries: Vec<GameEntry> = catalog
        .games_served()
        .map(|(id, name)| GameEntry {
            id: id.to_owned(),
            name: name.to_owned(),
            decks: Vec::new(),
        })
        .collect();
    if diags.iter().next().is_some() {
        report(Report::new(ws, diags, summary)?);
    }
    if empty {
        return Err("no game can be served".into());
    }
    let live = Live::new(&root, &options.out, max_bytes, Front::Builder)?;
    live.set_catalog(
        catalog
            .with_ui(options.ui_lang.as_deref().map(ui_lang))
            .with_cards_lang(options.cards_lang.clone()),
    );
    live.publish(|status| status.games = entries);
    let started = crate::server::start(options.addr, live, limits)
        .map_err(|e| format!("cannot serve the deck builder: {e}"))?;
    let lines = super::serving::announce("the deck builder", &started, "/play/");
    eprintln!("{} (Ctrl-C to stop)", lines.join("\n"));
    if options.open {
        super::serving::open_browser(&super::serving::local_url(&started, "/play/"));
    }
    loop {
        std::thread::park();
    }
}
