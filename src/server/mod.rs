//! The local preview server of `carta watch --serve`: a page per game (its
//! print sheets, every card face and back at print size, and its decks with
//! their verdicts) that reloads itself when the sources change, with the
//! diagnostics laid over it while they are broken.
//!
//! It listens on loopback only unless told otherwise, answers only its own
//! pages ([`guard`]: the `Host`, the `Origin`, the body), bounds its
//! connections in time and number ([`net`]), serves files only from the
//! build folder and through the read jail, and learns about changes through
//! [`Live`], which the watcher updates after every rebuild.
//!
//! The same server carries the deck builder of `carta serve`; under
//! `serve`, which builds no sheets, the front pages (`/`, `/g/<game>/`)
//! lead to the builder instead of the preview (`Front`).
//!
//! - This file: [`Live`] (the status of the last round, its diagnostics
//!   for the overlay — a clean round's warnings folded in a corner — and
//!   what each game's page measured as not fitting, posted by its fit
//!   script and reported by the watcher), and the server-sent events of
//!   live reload: the generation, and a `catalog` event per game whose
//!   deck-builder catalog changed, which the builder's open pages take.
//!   `/g/` reads the build's sheets through `load::Jail`.
//! - `page.rs`: the preview's HTML. `parts.rs`: a game's built sheets cut
//!   into parts, one per page, each named by the hash of its HTML, so an
//!   open preview fetches and replaces only the pages a save changed.
//! - `builder/`: the deck builder — the catalog of compiled games with
//!   their printed faces and schema facets (`summary.rs`), verdicts by
//!   `deck::judge`, deck codes, text lists and printable decklists through
//!   `decklist` (`lists.rs`), the game's `[play]` and draw odds through
//!   `play` (`play.rs`), the player's collection (`collection.rs`), the
//!   two writes (`save.rs`: a player's deck file into `decks/<game>/`;
//!   `collection.rs`: one card's count in `decks/<game>/collection.toml`)
//!   and the organisers' rows and CSV by `event` (`organize.rs`). Its
//!   plain JS/CSS pages are embedded (`assets/`: `lists.js` the text lists
//!   and printable decklist, `play.js` the playtest panel, `collection.js`
//!   owned counts and missing copies) and speak the page's language
//!   (`?ui=`, else `--ui-lang`, else the game's own): their words come
//!   from `l10n` through `l10n.js`'s `t()`, the cards from the game's
//!   translation into it.
//! - `guard.rs`: every request's `Host`, `Origin`, `Sec-Fetch-Site`,
//!   content type and announced size, checked before any route (DNS
//!   rebinding, cross-site writes). `net.rs`: the connections, served by
//!   hyper's HTTP/1 server with a header timeout, a request timeout and a
//!   cap on their number.

pub(crate) mod builder;
mod guard;
pub(crate) use guard::Token;
mod net;
mod page;
mod parts;

use std::convert::Infallible;
use std::error::Error;
use std::net::SocketAddr;
use std::path::{Component, Path, PathBuf};
use std::sync::{Arc, Mutex, RwLock};
use std::time::Duration;

use axum::Router;
use axum::body::Bytes;
use axum::extract::{Path as UrlPath, RawQuery, State};
use axum::http::{StatusCode, header};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{Html, IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use futures_util::{Stream, StreamExt as _};
use serde::Serialize;

pub(crate) use builder::{Catalog, Served};
pub(crate) use net::ConnLimits;

use crate::emit::sheets::overflow::{self, Overflow};
use crate::load::{Jail, ReadProblem};
use parts::Sheets;

/// Called when a preview page reports text that does not fit differently
/// from before.
struct FitListener(Box<dyn Fn() + Send + Sync>);

impl std::fmt::Debug for FitListener {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("FitListener")
    }
}

/// One diagnostic as the overlay shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub(crate) struct Problem {
    /// `error`, `warning` or `advice`.
    pub(crate) severity: String,
    /// The stable code.
    pub(crate) code: String,
    /// The message.
    pub(crate) message: String,
    /// `file:line:column`, when the problem has a place.
    pub(crate) place: Option<String>,
    /// The help line.
    pub(crate) help: Option<String>,
}

/// A deck file and whether its last check found it legal.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub(crate) struct DeckVerdict {
    /// The deck file, relative to the workspace.
    pub(crate) file: String,
    /// The problems its check reported (none: legal).
    pub(crate) problems: Vec<Problem>,
}

/// One game as the server shows it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(crate) struct GameEntry {
    /// The game id.
    pub(crate) id: String,
    /// Its display name.
    pub(crate) name: String,
    /// Its decks, from the last build without errors.
    pub(crate) decks: Vec<DeckVerdict>,
}

/// What the server shows, as of the last rebuild.
#[derive(Debug, Clone, Default, Serialize)]
pub(crate) struct Status {
    /// Bumped on every rebuild; pages reload when it moves.
    pub(crate) generation: u64,
    /// The games, as of their last good build.
    pub(crate) games: Vec<GameEntry>,
    /// The diagnostics of the last check (errors mean the pages show the
    /// last good build).
    pub(crate) problems: Vec<Problem>,
}

/// What the open pages are told of: the generation of the preview, and
/// a version of each game's catalog in the deck builder.
#[derive(Debug, Clone, Default)]
struct Tick {
    generation: u64,
    catalogs: Arc<std::collections::BTreeMap<String, u64>>,
}

/// What the server's front pages (`/` and `/g/<game>/`) are: the watch
/// preview over the built sheets, or, under `carta serve`, which builds
/// nothing, the deck builder they lead to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Front {
    /// `carta watch --serve`: the games' built sheets with the overlay.
    Preview,
    /// `carta serve`: `/` is the builder's `/play/`, a game's page its cards.
    Builder,
}

/// The state the watcher shares with the server.
#[derive(Debug)]
pub(crate) struct Live {
    status: Mutex<Status>,
    front: Front,
    changed: tokio::sync::watch::Sender<Tick>,
    /// The workspace (absolute).
    root: PathBuf,
    /// The build folder (absolute), whose sheets `/g/` serves.
    out: PathBuf,
    /// The largest file served from it, in bytes.
    max_bytes: u64,
    /// The deck builder's games (swapped whole when they change).
    catalog: RwLock<Arc<Catalog>>,
    /// Per game, what its preview page last measured as not fitting.
    fits: Mutex<std::collections::BTreeMap<String, Vec<Overflow>>>,
    /// Who hears of a new measurement (the watcher).
    on_fit: RwLock<Option<FitListener>>,
    /// Per game, its sheets as last read, with the generation they were
    /// read in (read again once it moves).
    sheets_read: Mutex<std::collections::HashMap<String, (u64, Arc<Sheets>)>>,
}

impl Live {
    /// A state serving the build folder `out` of the workspace `root`,
    /// files of at most `max_bytes`, with `front` as its front pages.
    ///
    /// # Errors
    /// When the current folder cannot be read (to make the paths absolute).
    pub(crate) fn new(
        root: &Path,
        out: &Path,
        max_bytes: u64,
        front: Front,
    ) -> std::io::Result<Arc<Self>> {
        Ok(Arc::new(Live {
            status: Mutex::new(Status::default()),
            front,
            changed: tokio::sync::watch::Sender::new(Tick::default()),
            root: std::path::absolute(root)?,
            out: std::path::absolute(out)?,
            max_bytes,
            catalog: RwLock::default(),
            fits: Mutex::default(),
            on_fit: RwLock::default(),
            sheets_read: Mutex::default(),
        }))
    }

    /// Has `listener` called each time a preview page reports text that
    /// does not fit differently from the last report of its game.
    pub(crate) fn on_fit(&self, listener: impl Fn() + Send + Sync + 'static) {
        *self.on_fit.write().expect("listener lock") = Some(FitListener(Box::new(listener)));
    }

    /// What game `id`'s preview page last reported as not fitting.
    pub(crate) fn fits(&self, id: &str) -> Vec<Overflow> {
        let fits = self.fits.lock().expect("fits lock");
        fits.get(id).cloned().unwrap_or_default()
    }

    /// Forgets what game `id`'s page reported: its sheets were rebuilt,
    /// and the page will measure them again.
    pub(crate) fn forget_fits(&self, id: &str) {
        self.fits.lock().expect("fits lock").remove(id);
    }

    /// Keeps `found` as game `id`'s report, telling the listener when it
    /// differs from the last.
    fn measured(&self, id: &str, mut found: Vec<Overflow>) {
        // A page that measured only the parts it replaced reports its
        // cards in another order: the same boxes are the same report.
        found.sort();
        let changed = {
            let mut fits = self.fits.lock().expect("fits lock");
            let changed = fits.get(id).map_or(!found.is_empty(), |old| *old != found);
            fits.insert(id.to_owned(), found);
            changed
        };
        if changed && let Some(listener) = &*self.on_fit.read().expect("listener lock") {
            (listener.0)();
        }
    }

    /// Publishes a rebuild: `update` edits the status, the generation moves,
    /// and every open page is told.
    pub(crate) fn publish(&self, update: impl FnOnce(&mut Status)) {
        let generation = {
            let mut s = self.status.lock().expect("status lock");
            update(&mut s);
            s.generation += 1;
            s.generation
        };
        self.changed
            .send_modify(|tick| tick.generation = generation);
    }

    /// Replaces the deck builder's games, telling the open builder pages
    /// of each game whose cards, rules or faces changed.
    pub(crate) fn set_catalog(&self, catalog: Catalog) {
        let old = self.catalog();
        let moved: Vec<String> = catalog
            .games()
            .filter(|g| old.game(g.id()).is_none_or(|o| o.summary != g.summary))
            .map(|g| g.id().to_owned())
            .collect();
        *self.catalog.write().expect("catalog lock") = Arc::new(catalog);
        if !moved.is_empty() {
            self.changed.send_modify(|tick| {
                let catalogs = Arc::make_mut(&mut tick.catalogs);
                for id in moved {
                    *catalogs.entry(id).or_default() += 1;
                }
            });
        }
    }

    /// The deck builder's games, as of now.
    fn catalog(&self) -> Arc<Catalog> {
        Arc::clone(&self.catalog.read().expect("catalog lock"))
    }

    fn snapshot(&self) -> Status {
        self.status.lock().expect("status lock").clone()
    }

    /// The read jail of `game`'s built sheets, when the game is served and
    /// its sheets folder, once links are followed, lies in the build
    /// folder — and the build folder in the workspace, when it is named
    /// inside it (a workspace's own `build` may be a link to anywhere).
    fn sheets(&self, game: &str) -> Option<Jail> {
        let served = {
            let status = self.status.lock().expect("status lock");
            status.games.iter().any(|g| g.id == game)
        };
        if !served || !plain(Path::new(game)) {
            return None;
        }
        let inside = self
            .out
            .strip_prefix(&self.root)
            .is_ok_and(|rel| plain(rel) || rel.as_os_str().is_empty());
        let out = if inside {
            Jail::new(&self.root, self.max_bytes)
                .ok()?
                .confine(&self.out)
                .ok()?
        } else {
            self.out.clone()
        };
        let out = Jail::new(&out, self.max_bytes).ok()?;
        let sheets = out.confine(&out.root().join(game).join("sheets")).ok()?;
        Jail::new(&sheets, self.max_bytes).ok()
    }
}

impl Live {
    /// Game `game`'s built sheets, cut into parts: read again only when
    /// the generation moved since they were last read (a rebuild writes
    /// its sheets before it publishes).
    fn sheets_of(&self, game: &str) -> Option<Arc<Sheets>> {
        let generation = self.status.lock().expect("status lock").generation;
        if let Some((read_in, sheets)) = self.sheets_read.lock().expect("sheets lock").get(game)
            && *read_in == generation
        {
            return Some(Arc::clone(sheets));
        }
        let jail = self.sheets(game)?;
        let bytes = jail.read(&jail.root().join("index.html")).ok()?;
        let sheets = Arc::new(Sheets::new(String::from_utf8(bytes).ok()?));
        self.sheets_read
            .lock()
            .expect("sheets lock")
            .insert(game.to_owned(), (generation, Arc::clone(&sheets)));
        Some(sheets)
    }
}

/// Why `addr` could not be bound, and which option to change.
fn cannot_bind(addr: SocketAddr, e: &std::io::Error) -> String {
    let (port, ip) = (addr.port(), addr.ip());
    match e.kind() {
        std::io::ErrorKind::AddrInUse => format!(
            "port {port} is in use on {ip}: choose another with `--port N`, or `--port 0` for any free one"
        ),
        std::io::ErrorKind::AddrNotAvailable => format!(
            "{ip} is not an address of this machine: choose one with `--host IP` (127.0.0.1 serves this machine only)"
        ),
        std::io::ErrorKind::PermissionDenied => {
            format!("port {port} needs privileges: choose one above 1023 with `--port N`")
        }
        _ => format!("cannot listen on {addr}: {e}"),
    }
}

/// Whether `path` is relative and only plain names (no `..`, no root).
fn plain(path: &Path) -> bool {
    path.components().all(|c| matches!(c, Component::Normal(_)))
}

/// Binds `addr` and serves in a background thread, each connection within
/// `limits`; returns the address bound (the port is the system's choice
/// when `addr`'s is 0).
///
/// # Errors
/// When the address cannot be bound: the message names it and the option
/// that changes it.
pub(crate) fn start(
    addr: SocketAddr,
    live: Arc<Live>,
    limits: ConnLimits,
) -> Result<Started, Box<dyn Error>> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    let listener = runtime
        .block_on(tokio::net::TcpListener::bind(addr))
        .map_err(|e| cannot_bind(addr, &e))?;
    let bound = listener.local_addr()?;
    let token = Token::for_bound(bound);
    if !bound.ip().is_loopback() && token.is_none() {
        return Err("no token for the network could be drawn (the system gave no randomness): serve on 127.0.0.1".into());
    }
    let app = Router::new()
        .route("/", get(index))
        .route("/status.json", get(status))
        .route("/events", get(events))
        .route("/g/{game}/", get(game_page))
        .route("/g/{game}/.carta-overflow", post(fit_report))
        .route("/g/{game}/.carta-parts", get(game_parts))
        .route("/g/{game}/{*path}", get(game_file))
        .merge(builder::api::routes())
        .layer(axum::middleware::from_fn_with_state(
            guard::Guard {
                origins: guard::Origins::new(bound),
                request_timeout: limits.request_timeout,
                token: token.clone(),
            },
            guard::guard,
        ))
        .with_state(live);
    std::thread::spawn(move || {
        // The server lives as long as the watcher or `serve`; it stops
        // only with the process.
        runtime.block_on(net::serve(listener, app, limits));
    });
    Ok(Started { bound, token })
}

/// A server started: where it listens, and the token other machines need
/// to write (none on loopback).
#[derive(Debug)]
pub(crate) struct Started {
    /// The address bound.
    pub(crate) bound: SocketAddr,
    /// See [`Token`].
    pub(crate) token: Option<Token>,
}

/// A preview page's HTML with its Content-Security-Policy.
fn preview(html: String, generation: u64, frame: &str) -> Response {
    (
        [(
            header::CONTENT_SECURITY_POLICY,
            page::policy(generation, frame),
        )],
        Html(html),
    )
        .into_response()
}

async fn index(State(live): State<Arc<Live>>) -> Response {
    match live.front {
        Front::Preview => {
            let status = live.snapshot();
            preview(page::index(&status), status.generation, "")
        }
        Front::Builder => Redirect::to("/play/").into_response(),
    }
}

async fn status(State(live): State<Arc<Live>>) -> impl IntoResponse {
    axum::Json(live.snapshot())
}

/// Server-sent events: the generation, each time it moves (a plain
/// message, for the preview), and the id of each game whose deck-builder
/// catalog changed (a `catalog` event, for the builder's pages).
async fn events(
    State(live): State<Arc<Live>>,
) -> Sse<impl Stream<Item = Result<Event, Infallible>>> {
    let rx = live.changed.subscribe();
    let last = rx.borrow().clone();
    let stream = futures_util::stream::unfold((rx, last), |(mut rx, last)| async move {
        rx.changed().await.ok()?;
        let now = rx.borrow_and_update().clone();
        let mut events = Vec::new();
        if now.generation != last.generation {
            events.push(Ok(Event::default().data(now.generation.to_string())));
        }
        for (id, version) in now.catalogs.iter() {
            if last.catalogs.get(id) != Some(version) {
                events.push(Ok(Event::default().event("catalog").data(id.clone())));
            }
        }
        Some((futures_util::stream::iter(events), (rx, now)))
    })
    .flatten();
    Sse::new(stream).keep_alive(KeepAlive::new().interval(Duration::from_secs(10)))
}

async fn game_page(State(live): State<Arc<Live>>, UrlPath(game): UrlPath<String>) -> Response {
    let status = live.snapshot();
    let Some(entry) = status.games.iter().find(|g| g.id == game) else {
        return match live.front {
            Front::Preview => {
                let page = preview(page::index(&status), status.generation, "");
                (StatusCode::NOT_FOUND, page).into_response()
            }
            Front::Builder => Redirect::to("/play/").into_response(),
        };
    };
    if live.front == Front::Builder {
        // Nothing is built under `serve`: the game's page is its cards.
        let id =
            percent_encoding::utf8_percent_encode(&entry.id, percent_encoding::NON_ALPHANUMERIC);
        return Redirect::to(&format!("/play/{id}/cards")).into_response();
    }
    let sheets = live.sheets_of(&game);
    let frame = sheets.as_deref().map_or("", |s| s.frame());
    preview(
        page::game(&status, entry, sheets.as_deref()),
        status.generation,
        frame,
    )
}

/// The most parts one request of `.carta-parts?h=` gets.
const MAX_PARTS_ASKED: usize = 64;

/// A game's sheets for its open preview page to update itself by:
/// without a query, the name of their frame, each part's name in order
/// and what the page shows above them; with `?h=NAME,…`, the parts of
/// those names (those the sheets still have, at most 64), by name.
async fn game_parts(
    State(live): State<Arc<Live>>,
    UrlPath(game): UrlPath<String>,
    RawQuery(query): RawQuery,
) -> Response {
    let status = live.snapshot();
    let (Some(entry), true) = (
        status.games.iter().find(|g| g.id == game),
        live.front == Front::Preview,
    ) else {
        return StatusCode::NOT_FOUND.into_response();
    };
    let sheets = live.sheets_of(&game);
    let Some(asked) = query.as_deref().and_then(|q| q.strip_prefix("h=")) else {
        let (frame, names) = match &sheets {
            Some(s) => (s.frame(), s.names().collect()),
            None => ("", Vec::new()),
        };
        return axum::Json(serde_json::json!({
            "frame": frame,
            "parts": names,
            "top": page::top(&status, entry),
        }))
        .into_response();
    };
    let found: serde_json::Map<String, serde_json::Value> = asked
        .split(',')
        .take(MAX_PARTS_ASKED)
        .filter_map(|h| Some((h.to_owned(), sheets.as_ref()?.part(h)?.into())))
        .collect();
    axum::Json(found).into_response()
}

/// What a game's preview page measured as not fitting (its fit script's
/// JSON report, posted by the page itself: the guard has checked its
/// origin and type): kept for the watcher, which reports it.
async fn fit_report(
    _: guard::MayWrite,
    State(live): State<Arc<Live>>,
    UrlPath(game): UrlPath<String>,
    body: Bytes,
) -> Response {
    let served = {
        let status = live.status.lock().expect("status lock");
        status.games.iter().any(|g| g.id == game)
    };
    if !served || live.front != Front::Preview {
        return StatusCode::NOT_FOUND.into_response();
    }
    match overflow::parse(&body) {
        Some(found) => {
            live.measured(&game, found);
            StatusCode::NO_CONTENT.into_response()
        }
        None => StatusCode::BAD_REQUEST.into_response(),
    }
}

/// A file of the game's built sheets (art, styles), read through the jail
/// of the sheets folder: a regular file inside it once links are followed,
/// within the size limit.
async fn game_file(
    State(live): State<Arc<Live>>,
    UrlPath((game, path)): UrlPath<(String, String)>,
) -> Response {
    let rel = Path::new(&path);
    let Some(jail) = live.sheets(&game).filter(|_| plain(rel)) else {
        return StatusCode::NOT_FOUND.into_response();
    };
    match jail.read(&jail.root().join(rel)) {
        Ok(bytes) => ([(header::CONTENT_TYPE, content_type(rel))], bytes).into_response(),
        Err(ReadProblem::Missing) => StatusCode::NOT_FOUND.into_response(),
        Err(_) => StatusCode::FORBIDDEN.into_response(),
    }
}

fn content_type(path: &Path) -> &'static str {
    match path.extension().and_then(|e| e.to_str()).unwrap_or("") {
        "html" => "text/html; charset=utf-8",
        "css" => "text/css",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "webp" => "image/webp",
        "gif" => "image/gif",
        "js" => "text/javascript",
        _ => "application/octet-stream",
    }
}
