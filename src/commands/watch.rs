//! `carta watch`: re-check on every save (with the check cache, so only
//! the files that changed are parsed and validated again), print the
//! diagnostics in place of the previous ones, and rebuild the outputs of
//! the games the save touched. A broken save writes nothing, so the last
//! good bundle, sheets and preview stay; with `--serve`, [`crate::server`]
//! shows them and lays the errors over them.

use std::collections::{BTreeSet, HashMap};
use std::error::Error;
use std::io::IsTerminal;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant, SystemTime};

use notify::{RecursiveMode, Watcher as _, recommended_watcher};

use super::Report;
use crate::diag::{Diagnostics, Format, Renderer, Severity, SourceMap};
use crate::emit::sheets::overflow;
use crate::emit::sheets::{FaceMemo, SheetOptions};
use crate::game::{self, Game, Keep};
use crate::limits::{MAX_DIAGNOSTICS_VAR, max_diagnostics_per_file};
use crate::load::Workspace;
use crate::server::{Catalog, ConnLimits, DeckVerdict, Front, GameEntry, Live, Problem};

/// How long the file events of one save may be apart: a round starts
/// this long after the last event of a burst (an editor's save is often
/// a write and a rename, microseconds apart), never later than [`BURST`]
/// after its first.
const SETTLE: Duration = Duration::from_millis(8);
/// The longest a burst of events delays its round.
const BURST: Duration = Duration::from_millis(50);

/// What `carta watch` was asked to do.
#[derive(Debug, Clone)]
pub(crate) struct WatchOptions {
    /// The games to watch (all when empty).
    pub(crate) games: Vec<String>,
    /// The build folder (absolute, or relative to the current directory).
    pub(crate) out: PathBuf,
    /// Print settings of the sheets.
    pub(crate) sheets: SheetOptions,
    /// Where to serve the preview, if at all.
    pub(crate) serve: Option<SocketAddr>,
    /// Whether to open the preview in the default browser.
    pub(crate) open: bool,
    /// Whether the preview's overlay shows advice too (`-v`), as the
    /// terminal does: without it, advice such as a rule's missing
    /// `source` would be repeated on every save.
    pub(crate) verbose: bool,
}

/// Prints one round's diagnostics and summary.
pub(crate) type Show<'a> = dyn FnMut(Report) + 'a;

/// What wakes the watcher: a file event, or a preview page that measured
/// its text differently from before.
enum Wake {
    Files(notify::Result<notify::Event>),
    Fit,
}

/// The files a burst of events names, and whether a page measured.
struct Burst {
    paths: Vec<PathBuf>,
    fit: bool,
}

/// Watches the workspace at `root` until the process is stopped.
///
/// # Errors
/// When the workspace cannot be opened or watched, or the server cannot bind.
pub(crate) fn watch(
    root: &Path,
    options: &WatchOptions,
    report: &mut Show<'_>,
) -> Result<(), Box<dyn Error>> {
    let root = std::path::absolute(root)?;
    let ws = Workspace::open(&root)?;
    ws.select_games(&options.games)?;
    let max_bytes = ws.jail().max_bytes();
    let limits = ConnLimits::from_env()?;
    let live = match options.serve {
        Some(_) => Some(Live::new(&root, &options.out, max_bytes, Front::Preview)?),
        None => None,
    };
    let mut watcher = Watcher {
        root: root.clone(),
        options: options.clone(),
        live: live.clone(),
        clear: std::io::stderr().is_terminal(),
        seen: HashMap::new(),
        memo: Mutex::default(),
    };
    for dir in ["cards", "schemas", "templates"] {
        watcher.remember(&root.join(dir));
    }
    // Listen before the first build and before the page can be opened: a
    // save made while either happens is queued, not lost.
    let (tx, rx) = std::sync::mpsc::channel();
    let files = tx.clone();
    let mut notifier = recommended_watcher(move |event| {
        let _ = files.send(Wake::Files(event));
    })?;
    for dir in ["cards", "schemas", "templates"] {
        let path = root.join(dir);
        if path.is_dir() {
            notifier.watch(&path, RecursiveMode::Recursive)?;
        }
    }
    watcher.rebuild(&options.games, report)?;
    if let (Some(addr), Some(live)) = (options.serve, live) {
        serve(addr, live, limits, options.open, tx)?;
    }
    eprintln!("watching cards/, schemas/ and templates/ (Ctrl-C to stop)");
    while let Some(burst) = next_burst(&rx)? {
        let modified: Vec<&Path> = burst
            .paths
            .iter()
            .map(PathBuf::as_path)
            .filter(|p| watcher.modified(p))
            .collect();
        let changed: Vec<String> = modified
            .iter()
            .filter_map(|p| watcher.relevant(p))
            .collect();
        if changed.is_empty() {
            if burst.fit {
                watcher.refit(report)?;
            }
            continue;
        }
        let games = watcher.affected(&changed)?;
        watcher.rebuild(&games, report)?;
    }
    Ok(())
}

/// Serves the preview at `addr`, waking the watcher through `wake` when a
/// page measures its text differently, and opens it when `open`.
///
/// # Errors
/// When the address cannot be bound.
fn serve(
    addr: SocketAddr,
    live: Arc<Live>,
    limits: ConnLimits,
    open: bool,
    wake: std::sync::mpsc::Sender<Wake>,
) -> Result<(), Box<dyn Error>> {
    live.on_fit(move || {
        let _ = wake.send(Wake::Fit);
    });
    let started = crate::server::start(addr, live, limits)
        .map_err(|e| format!("cannot serve the preview: {e}"))?;
    eprintln!(
        "{}",
        super::serving::announce("the preview", &started, "/").join("\n")
    );
    if open {
        super::serving::open_browser(&super::serving::local_url(&started, "/"));
    }
    Ok(())
}

/// The paths a burst of file events names, and whether a preview page
/// measured among them, as soon as the burst is over (see [`SETTLE`]);
/// access events (carta's own reads among them) are left out. `None` when
/// the watcher is gone.
///
/// # Errors
/// When the watcher reports an error.
fn next_burst(rx: &Receiver<Wake>) -> Result<Option<Burst>, notify::Error> {
    let Ok(first) = rx.recv() else {
        return Ok(None);
    };
    let start = Instant::now();
    let mut paths = Vec::new();
    let mut fit = false;
    let mut take = |wake: Wake| -> Result<(), notify::Error> {
        match wake {
            Wake::Files(event) => {
                let event = event?;
                if !event.kind.is_access() {
                    paths.extend(event.paths);
                }
            }
            Wake::Fit => fit = true,
        }
        Ok(())
    };
    take(first)?;
    while let Some(left) = BURST.checked_sub(start.elapsed()) {
        match rx.recv_timeout(SETTLE.min(left)) {
            Ok(event) => take(event)?,
            Err(RecvTimeoutError::Timeout) => break,
            Err(RecvTimeoutError::Disconnected) => return Ok(None),
        }
    }
    paths.sort();
    paths.dedup();
    Ok(Some(Burst { paths, fit }))
}

struct Watcher {
    root: PathBuf,
    options: WatchOptions,
    live: Option<Arc<Live>>,
    clear: bool,
    /// Each source file's last known length and modification time: the
    /// watcher also reports files merely opened (by carta's own reads).
    seen: HashMap<PathBuf, Option<(u64, SystemTime)>>,
    /// The deck builder's faces of the last round, rendered again only
    /// when what they were rendered from changed.
    memo: Mutex<FaceMemo>,
}

impl Watcher {
    /// Records the state of every file under `dir`.
    fn remember(&mut self, dir: &Path) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for e in entries.filter_map(Result::ok) {
            let path = e.path();
            if path.is_dir() {
                self.remember(&path);
            } else {
                self.seen.insert(path.clone(), stamp(&path));
            }
        }
    }

    /// Whether `path` changed since it was last seen (and records it).
    fn modified(&mut self, path: &Path) -> bool {
        if path.is_dir() {
            return false;
        }
        let now = stamp(path);
        match self.seen.insert(path.to_path_buf(), now) {
            // A file that came and went unseen (an editor's temporary file).
            None => now.is_some(),
            Some(before) => before != now,
        }
    }

    /// The workspace-relative path of a changed source, or `None` for what
    /// carta writes itself (editor schemas, the build folder) and hidden files.
    fn relevant(&self, path: &Path) -> Option<String> {
        let rel = path.strip_prefix(&self.root).ok()?;
        let out = std::path::absolute(&self.options.out).ok()?;
        if path.starts_with(&out) {
            return None;
        }
        let rel = rel.to_string_lossy().replace('\\', "/");
        let hidden = rel
            .split('/')
            .any(|s| s.starts_with('.') || s.ends_with('~'));
        (!hidden && !rel.starts_with(&format!("{}/", crate::editor::DIR))).then_some(rel)
    }

    /// The games whose outputs `changed` touches: the game folder each path
    /// names, or every watched game when one is not a known game's.
    fn affected(&self, changed: &[String]) -> Result<Vec<String>, Box<dyn Error>> {
        let known = Workspace::open(&self.root)?.select_games(&self.options.games)?;
        let mut games = BTreeSet::new();
        for rel in changed {
            match rel.split('/').nth(1) {
                Some(g) if known.iter().any(|k| k == g) => {
                    games.insert(g.to_owned());
                }
                _ => return Ok(self.options.games.clone()),
            }
        }
        Ok(games.into_iter().collect())
    }

    /// Checks every watched game (cached), then builds `games` when the
    /// check is clean; tells the preview as soon as the outputs are
    /// written (the deck builder's catalog follows), and prints the outcome.
    fn rebuild(&mut self, games: &[String], report: &mut Show<'_>) -> Result<(), Box<dyn Error>> {
        self.round(games, true, report)
    }

    /// Reports again, without building, what a preview page measured:
    /// the last round's problems and the text that does not fit.
    fn refit(&mut self, report: &mut Show<'_>) -> Result<(), Box<dyn Error>> {
        self.round(&[], false, report)
    }

    /// [`Watcher::rebuild`], writing the outputs only when `emit`. One
    /// compile of every watched game, with every field (through the build's
    /// cache), serves the check, the build and the deck builder's catalog.
    fn round(
        &mut self,
        games: &[String],
        emit: bool,
        report: &mut Show<'_>,
    ) -> Result<(), Box<dyn Error>> {
        let mut ws = Workspace::open(&self.root)?;
        let mut diags = Diagnostics::new();
        let compiled =
            game::compile_all(&mut ws, &self.options.games, Keep::AllCached, &mut diags)?;
        ws.restore(&diags)?;
        crate::editor::refresh_reporting(&ws, &compiled, &mut diags)?;
        super::init::warn_folders_without_manifest(ws.root(), &mut diags);
        let entries = self.entries(&mut ws, &compiled, &diags)?;
        let live = self.live.clone();
        let verbose = self.options.verbose;
        let tell = move |diags: &Diagnostics, sources: &SourceMap| {
            if let Some(live) = &live {
                publish(live, entries, &problems(diags, sources, verbose));
            }
        };
        let round = if diags.has_errors() {
            tell(&diags, &ws.sources);
            Report::new(ws, diags, "check failed, nothing rebuilt")?
        } else {
            let (round, catalog) = self.build(ws, diags, compiled, (games, emit), tell)?;
            // The deck builder follows the last clean round.
            if let (Some(live), Some(catalog)) = (&self.live, catalog) {
                live.set_catalog(catalog);
            }
            round
        };
        if self.clear {
            // Clear the screen and scroll-back: only this round's diagnostics show.
            eprint!("\x1b[2J\x1b[3J\x1b[H");
        }
        report(round);
        Ok(())
    }

    /// Each compiled game's entry for the preview, with its decks' verdicts
    /// when the round's check (`diags`) found no error.
    fn entries(
        &self,
        ws: &mut Workspace,
        compiled: &[Game],
        diags: &Diagnostics,
    ) -> Result<Vec<Entry>, Box<dyn Error>> {
        let checked_problems = problems(diags, &ws.sources, self.options.verbose);
        let clean = !diags.has_errors();
        let mut entries = Vec::new();
        for g in compiled {
            let decks = if clean {
                Some(deck_verdicts(ws, g.id(), &checked_problems)?)
            } else {
                None
            };
            entries.push((g.id().to_owned(), g.manifest.manifest.name.clone(), decks));
        }
        Ok(entries)
    }

    /// Builds `games` (every watched game when empty; none unless `emit`)
    /// of the clean `compiled`, calls `tell` with the round's diagnostics —
    /// what the preview pages measured as not fitting among them — once
    /// the outputs are written (or were not), and then, with the preview,
    /// makes the deck builder's catalog of every watched game.
    fn build(
        &self,
        mut ws: Workspace,
        mut diags: Diagnostics,
        compiled: Vec<Game>,
        (games, emit): (&[String], bool),
        tell: impl FnOnce(&Diagnostics, &SourceMap),
    ) -> Result<(Report, Option<Catalog>), Box<dyn Error>> {
        let built = ws.select_games(if games.is_empty() {
            &self.options.games
        } else {
            games
        })?;
        let target = super::build::Target {
            out: &self.options.out,
            sheets: self.options.sheets,
            languages: &[],
        };
        let to_build: Vec<&Game> = compiled
            .iter()
            .filter(|g| emit && built.iter().any(|id| id == g.id()))
            .collect();
        let bar = super::progress::Progress::new(false, 0);
        let units = if emit {
            super::build::emit_games(&mut ws, &to_build, (&target, true), &bar, &mut diags)?
        } else {
            None
        };
        if let Some(live) = &self.live {
            preview_fits(live, &compiled, &to_build, &ws, &mut diags);
        }
        ws.restore(&diags)?;
        tell(&diags, &ws.sources);
        let summary = match &units {
            Some(units) => super::build::written(&to_build, &self.root, &self.options.out, units),
            None if emit => "nothing written".to_owned(),
            None => "the preview measured the sheets".to_owned(),
        };
        let catalog = match (&self.live, units) {
            (Some(_), Some(_)) => {
                // The builder's own problems are the check's, shown already.
                let mut memo = self.memo.lock().unwrap_or_else(PoisonError::into_inner);
                Some(super::serving::catalog_of(
                    &mut ws,
                    compiled,
                    Some(&mut memo),
                    &mut Diagnostics::new(),
                )?)
            }
            _ => None,
        };
        let round = Report::new(ws, diags, summary)?;
        Ok((round, catalog))
    }
}

/// Reports into `diags` the text each game's preview page measured as not
/// fitting; the pages of the games in `rebuilt` are forgotten, since they
/// show new sheets (they measure those and report again).
fn preview_fits(
    live: &Live,
    compiled: &[Game],
    rebuilt: &[&Game],
    ws: &Workspace,
    diags: &mut Diagnostics,
) {
    for g in rebuilt {
        live.forget_fits(g.id());
    }
    for g in compiled {
        let fits = live.fits(g.id());
        diags.extend(overflow::diagnose(g, (&ws.sources, ws.jail()), None, &fits));
    }
}

/// A game's entry in the preview: its id, name, and its decks' verdicts
/// (`None` when the check failed: the last good verdicts stay).
type Entry = (String, String, Option<Vec<DeckVerdict>>);

/// Tells the preview this round's problems and games.
fn publish(live: &Live, entries: Vec<Entry>, problems: &[Problem]) {
    live.publish(|status| {
        status.problems = problems.to_vec();
        let old = std::mem::take(&mut status.games);
        status.games = entries
            .into_iter()
            .map(|(id, name, decks)| {
                // A broken round keeps the verdicts of the last good one.
                let decks = decks.unwrap_or_else(|| {
                    old.iter()
                        .find(|g| g.id == id)
                        .map(|g| g.decks.clone())
                        .unwrap_or_default()
                });
                GameEntry { id, name, decks }
            })
            .collect();
    });
}

/// Game `id`'s deck files, each with the problems reported in it.
fn deck_verdicts(
    ws: &mut Workspace,
    id: &str,
    problems: &[Problem],
) -> Result<Vec<DeckVerdict>, Box<dyn Error>> {
    let verdicts = ws
        // The walk's own problems were reported by the check.
        .deck_files(id, &mut Diagnostics::new())?
        .into_iter()
        .map(|file| {
            let at = format!("{file}:");
            let problems = problems
                .iter()
                .filter(|p| p.place.as_ref().is_some_and(|pl| pl.starts_with(&at)))
                .cloned()
                .collect();
            DeckVerdict { file, problems }
        })
        .collect();
    Ok(verdicts)
}

fn stamp(path: &Path) -> Option<(u64, SystemTime)> {
    let m = std::fs::metadata(path).ok()?;
    Some((m.len(), m.modified().ok()?))
}

/// The diagnostics as the preview shows them, in order, capped per file
/// as the terminal shows them; advice only when `verbose`, as in the
/// terminal.
fn problems(diags: &Diagnostics, sources: &SourceMap, verbose: bool) -> Vec<Problem> {
    let json = Renderer::new(Format::Json, false, 100);
    let mut copy = Diagnostics::new();
    copy.extend(diags.iter().cloned());
    let raise = format!("{MAX_DIAGNOSTICS_VAR}=<n>");
    let all = copy.into_capped(max_diagnostics_per_file(), &raise);
    all.iter()
        .filter(|d| verbose || d.severity != Severity::Advice || d.code == "diag::truncated")
        .filter_map(|d| {
            serde_json::from_str::<serde_json::Value>(json.render(d, sources).trim()).ok()
        })
        .map(|v| {
            let text = |k: &str| v[k].as_str().map(str::to_owned);
            let place = text("file").map(|f| match (v["line"].as_u64(), v["column"].as_u64()) {
                (Some(l), Some(c)) => format!("{f}:{l}:{c}"),
                _ => f,
            });
            Problem {
                severity: text("severity").unwrap_or_default(),
                code: text("code").unwrap_or_default(),
                message: text("message").unwrap_or_default(),
                place,
                help: text("help"),
            }
        })
        .collect()
}
