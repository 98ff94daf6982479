//! The deck builder's routes: its pages (plain HTML, JS and CSS embedded in
//! carta), each game's printed faces and art, and a JSON API. Every request
//! is validated; a bad one gets a 4xx answer `{"error": "…"}`. The one
//! route that writes is `save`, into the workspace's `decks/<game>/` folder
//! (players' decks, kept apart from the game's own example decks).

use std::sync::Arc;

use axum::Router;
use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, QueryRejection};
use axum::extract::{DefaultBodyLimit, Path as UrlPath, Query, State};
use axum::http::{StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::json;

use super::{Catalog, DeckInput, GameCatalog, Invalid, collection, lists, organize, play, save};
use crate::diag::Phrase;
use crate::emit::sheets::page_policy;
use crate::l10n::{self, Lang, table};
use crate::server::Live;
use crate::server::guard::{MayWrite, secret};

/// The largest request body accepted (a tournament's codes fit many times).
const MAX_BODY: usize = 1 << 20;
/// The most decks one organisers' request may hold.
const MAX_DECKS: usize = 10_000;
/// The largest organisers' request: [`MAX_DECKS`] deck files of about
/// 800 bytes each, with their labels and JSON's escapes, fit.
const MAX_EVENT_BODY: usize = 16 << 20;
/// The organisers' route, the one that takes a whole event's deck files.
const ORGANIZE: &str = "/api/organize";

/// The largest body a request to `path` may carry.
pub(in crate::server) fn max_body(path: &str) -> usize {
    if path == ORGANIZE {
        MAX_EVENT_BODY
    } else {
        MAX_BODY
    }
}

const PAGE: &str = include_str!("assets/page.html");

/// The builder's scripts and style sheet: path, type, body (embedded).
const ASSETS: &[(&str, &str, &str)] = &[
    (
        "/play/app.js",
        "text/javascript",
        include_str!("assets/app.js"),
    ),
    ("/play/app.css", "text/css", include_str!("assets/app.css")),
    (
        "/play/lists.js",
        "text/javascript",
        include_str!("assets/lists.js"),
    ),
    (
        "/play/l10n.js",
        "text/javascript",
        include_str!("assets/l10n.js"),
    ),
    (
        "/play/play.js",
        "text/javascript",
        include_str!("assets/play.js"),
    ),
    (
        "/play/collection.js",
        "text/javascript",
        include_str!("assets/collection.js"),
    ),
];

/// The builder's routes, over the server's shared state.
pub(in crate::server) fn routes() -> Router<Arc<Live>> {
    let mut router = Router::new();
    for &(path, mime, body) in ASSETS {
        router = router.route(path, get(move || async move { asset(mime, body) }));
    }
    router
        .route("/play/", get(index_page))
        .route("/play/organize", get(organize_page))
        .route("/play/{game}/decklist", get(decklist_page))
        .route("/play/{game}/cards", get(cards_page))
        .route("/play/{game}/deck", get(deck_page))
        .route("/play/{game}/faces.css", get(faces_css))
        .route("/play/{game}/img/{file}", get(image))
        .route("/api/games", get(games))
        .route("/api/games/{game}", get(game))
        .route("/api/games/{game}/verdict", post(verdict))
        .route("/api/games/{game}/decode", post(decode))
        .route("/api/games/{game}/save", post(save_deck))
        .route("/api/games/{game}/list", post(list_of))
        .route("/api/games/{game}/list/parse", post(parse_list))
        .route("/api/games/{game}/odds", post(odds))
        .route(
            "/api/games/{game}/collection",
            get(collection_of).post(set_owned),
        )
        .route(
            ORGANIZE,
            post(organize).layer(DefaultBodyLimit::max(MAX_EVENT_BODY)),
        )
        .route("/api/{*rest}", get(no_route).post(no_route))
        .layer(DefaultBodyLimit::max(MAX_BODY))
}

/// A refused request: its status and why.
#[derive(Debug)]
struct ApiError(StatusCode, String);

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.0, axum::Json(json!({ "error": self.1 }))).into_response()
    }
}

impl From<Invalid> for ApiError {
    /// In English: the routes a script rather than a player calls.
    fn from(e: Invalid) -> Self {
        ApiError(StatusCode::UNPROCESSABLE_ENTITY, e.word(Lang::En))
    }
}

impl Invalid {
    /// The refusal, worded in `lang`.
    fn refused(&self, lang: Lang) -> ApiError {
        ApiError(StatusCode::UNPROCESSABLE_ENTITY, self.word(lang))
    }
}

/// The page's choice of language, `?ui=` on every page and API request
/// (see [`Catalog::language`]); other query parameters are left alone.
#[derive(Debug, Default, Deserialize)]
struct Ui {
    #[serde(default)]
    ui: Option<String>,
}

type UiQuery = Result<Query<Ui>, QueryRejection>;

/// The language asked for, if any (a malformed query asks for none).
fn asked(q: &UiQuery) -> Option<&str> {
    q.as_ref().ok().and_then(|Query(u)| u.ui.as_deref())
}

type ApiResult = Result<Response, ApiError>;

/// The body as JSON of type `T`, or the reason it is not.
fn body<T: DeserializeOwned>(bytes: Result<Bytes, BytesRejection>) -> Result<T, ApiError> {
    body_within(bytes, MAX_BODY)
}

/// [`body`] of a route that takes bodies of up to `max` bytes.
fn body_within<T: DeserializeOwned>(
    bytes: Result<Bytes, BytesRejection>,
    max: usize,
) -> Result<T, ApiError> {
    let bytes = bytes.map_err(|r| {
        let status = r.status();
        let message = if status == StatusCode::PAYLOAD_TOO_LARGE {
            format!("the request is larger than {max} bytes")
        } else {
            r.body_text()
        };
        ApiError(status, message)
    })?;
    serde_json::from_slice(&bytes).map_err(|e| {
        ApiError(
            StatusCode::BAD_REQUEST,
            format!("the request is not the JSON expected: {e}"),
        )
    })
}

fn game_of<'c>(catalog: &'c Catalog, id: &str) -> Result<&'c GameCatalog, ApiError> {
    catalog.game(id).ok_or_else(|| {
        ApiError(
            StatusCode::NOT_FOUND,
            format!("there is no game `{id}` here"),
        )
    })
}

async fn no_route() -> ApiError {
    ApiError(StatusCode::NOT_FOUND, "no such API route".into())
}

/// A page of the builder in the language the request chooses: its
/// `lang`, title and, for its scripts, its messages (`l10n.js`).
fn page(
    catalog: &Catalog,
    kind: &str,
    game: Option<&GameCatalog>,
    asked: Option<&str>,
) -> Response {
    let chosen = catalog.language(asked, game);
    let lang = chosen.lang;
    let (id, name) = game.map_or(("", String::new()), |g| {
        let summary = catalog.summary(g, lang);
        (
            g.id(),
            summary["name"].as_str().unwrap_or(g.id()).to_owned(),
        )
    });
    let title = match kind {
        "cards" => Phrase::new("ui-title-cards").with("game", name),
        "deck" => Phrase::new("ui-title-deck").with("game", name),
        "organize" => Phrase::new("ui-title-organize"),
        _ => Phrase::new("ui-title-games"),
    };
    let faces = if game.is_some() {
        format!("<link rel=\"stylesheet\" href=\"/play/{id}/faces.css\">")
    } else {
        String::new()
    };
    let words = json!({
        "lang": lang.tag(),
        "langs": Lang::ALL.map(|l| json!({ "tag": l.tag(), "name": l.name() })),
        "unknown": chosen.unknown,
        "messages": table::page(lang),
    });
    // Safe inside <script>: no `<` (so no `</script>`) and, for the
    // replacements below, no `{{`; both only ever occur inside strings.
    let words = serde_json::to_string(&words)
        .expect("JSON of strings")
        .replace('<', "\\u003c")
        .replace("{{", "{\\u007b");
    let esc = crate::server::page::esc;
    let html = PAGE
        .replace("{{l10n}}", &words)
        .replace("{{lang}}", lang.tag())
        .replace(
            "{{noscript}}",
            &esc(&l10n::word(lang, &Phrase::new("ui-noscript"))),
        )
        .replace("{{title}}", &esc(&l10n::word(lang, &title)))
        .replace("{{faces}}", &faces)
        .replace("{{page}}", kind)
        .replace("{{game}}", &esc(id));
    // A nonce lets carta's five scripts run and nothing else: a face's
    // markup (inserted as HTML) runs no script and no handler.
    let Some(nonce) = secret::<16>() else {
        let why = "no script nonce could be drawn (the system gave no randomness)";
        return (StatusCode::INTERNAL_SERVER_ERROR, why).into_response();
    };
    let html = html.replace("{{nonce}}", &nonce);
    let policy = page_policy(&format!("'nonce-{nonce}'"));
    ([(header::CONTENT_SECURITY_POLICY, policy)], Html(html)).into_response()
}

async fn index_page(State(live): State<Arc<Live>>, q: UiQuery) -> Response {
    page(&live.catalog(), "index", None, asked(&q))
}

async fn organize_page(State(live): State<Arc<Live>>, q: UiQuery) -> Response {
    page(&live.catalog(), "organize", None, asked(&q))
}

fn game_page(live: &Live, game: &str, kind: &str, asked: Option<&str>) -> Response {
    let catalog = live.catalog();
    match catalog.game(game) {
        Some(g) => page(&catalog, kind, Some(g), asked),
        None => (StatusCode::NOT_FOUND, page(&catalog, "index", None, asked)).into_response(),
    }
}

async fn cards_page(
    State(live): State<Arc<Live>>,
    UrlPath(game): UrlPath<String>,
    q: UiQuery,
) -> Response {
    game_page(&live, &game, "cards", asked(&q))
}

async fn deck_page(
    State(live): State<Arc<Live>>,
    UrlPath(game): UrlPath<String>,
    q: UiQuery,
) -> Response {
    game_page(&live, &game, "deck", asked(&q))
}

/// One of the builder's embedded scripts or style sheets, as UTF-8 `mime`.
fn asset(mime: &'static str, body: &'static str) -> Response {
    let kind = format!("{mime}; charset=utf-8");
    ([(header::CONTENT_TYPE, kind)], body).into_response()
}

async fn faces_css(State(live): State<Arc<Live>>, UrlPath(game): UrlPath<String>) -> ApiResult {
    let catalog = live.catalog();
    let g = game_of(&catalog, &game)?;
    Ok((
        [(header::CONTENT_TYPE, "text/css; charset=utf-8")],
        g.css.clone(),
    )
        .into_response())
}

/// A card's art, as the faces name it (`img/<hash>.<ext>`); nothing else.
async fn image(
    State(live): State<Arc<Live>>,
    UrlPath((game, file)): UrlPath<(String, String)>,
) -> ApiResult {
    let catalog = live.catalog();
    let g = game_of(&catalog, &game)?;
    let url = format!("img/{file}");
    let bytes = g
        .images
        .get(&url)
        .ok_or_else(|| ApiError(StatusCode::NOT_FOUND, format!("no image `{file}`")))?;
    let mime = crate::server::content_type(std::path::Path::new(&file));
    Ok(([(header::CONTENT_TYPE, mime)], bytes.clone()).into_response())
}

/// What a game's POST handler starts from: the game named in the path,
/// the page's language for its refusals, and the body as `T`.
fn posted<'c, T: DeserializeOwned>(
    catalog: &'c Catalog,
    game: &str,
    q: &UiQuery,
    bytes: Result<Bytes, BytesRejection>,
) -> Result<(&'c GameCatalog, Lang, T), ApiError> {
    let g = game_of(catalog, game)?;
    let lang = catalog.language(asked(q), Some(g)).lang;
    Ok((g, lang, body(bytes)?))
}

async fn games(State(live): State<Arc<Live>>, q: UiQuery) -> Response {
    let catalog = live.catalog();
    let list: Vec<_> = catalog
        .games()
        .map(|g| {
            // In the language of the request, where the game ships it.
            let summary = catalog.summary(g, catalog.language(asked(&q), Some(g)).lang);
            json!({
                "id": g.id(),
                "name": summary["name"],
                "description": summary["description"],
                "cards": g.game.pool.len(),
                "zones": g.game.manifest.manifest.zones.len(),
            })
        })
        .collect();
    axum::Json(list).into_response()
}

async fn game(
    State(live): State<Arc<Live>>,
    UrlPath(game): UrlPath<String>,
    q: UiQuery,
) -> ApiResult {
    let catalog = live.catalog();
    let g = game_of(&catalog, &game)?;
    let lang = catalog.language(asked(&q), Some(g)).lang;
    Ok(axum::Json(catalog.summary(g, lang)).into_response())
}

async fn verdict(
    State(live): State<Arc<Live>>,
    UrlPath(game): UrlPath<String>,
    q: UiQuery,
    bytes: Result<Bytes, BytesRejection>,
) -> ApiResult {
    let catalog = live.catalog();
    let (g, lang, deck): (_, _, DeckInput) = posted(&catalog, &game, &q, bytes)?;
    let valid = g.validate(&deck).map_err(|e| e.refused(lang))?;
    let owned = collection::missing(catalog.root(), g, &valid, lang);
    let json = g
        .verdict(&valid, lang, catalog.cards_of(g, lang))
        .to_json(&owned);
    Ok(([(header::CONTENT_TYPE, "application/json")], json).into_response())
}

/// The player's collection of a game, with the file's problems.
async fn collection_of(State(live): State<Arc<Live>>, UrlPath(game): UrlPath<String>) -> ApiResult {
    let catalog = live.catalog();
    let g = game_of(&catalog, &game)?;
    Ok(axum::Json(collection::read(catalog.root(), g)).into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct OwnedRequest {
    /// The card's id.
    card: String,
    /// The copies owned now (0 removes the card's line).
    owned: i64,
}

/// Sets the copies of one card the player owns, in their collection file
/// (a refusal in the page's language).
async fn set_owned(
    _: MayWrite,
    State(live): State<Arc<Live>>,
    UrlPath(game): UrlPath<String>,
    q: UiQuery,
    bytes: Result<Bytes, BytesRejection>,
) -> ApiResult {
    let catalog = live.catalog();
    let (g, lang, req): (_, _, OwnedRequest) = posted(&catalog, &game, &q, bytes)?;
    match collection::set(catalog.root(), g, &req.card, req.owned) {
        Ok(owned) => Ok(axum::Json(owned).into_response()),
        Err(collection::SetError::Invalid(why)) => Err(why.refused(lang)),
        Err(collection::SetError::Refused(why)) => Err(ApiError(StatusCode::FORBIDDEN, why)),
        Err(collection::SetError::Io(why)) => Err(ApiError(StatusCode::INTERNAL_SERVER_ERROR, why)),
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CodeRequest {
    code: String,
}

async fn decode(
    State(live): State<Arc<Live>>,
    UrlPath(game): UrlPath<String>,
    q: UiQuery,
    bytes: Result<Bytes, BytesRejection>,
) -> ApiResult {
    let catalog = live.catalog();
    let (g, lang, req): (_, _, CodeRequest) = posted(&catalog, &game, &q, bytes)?;
    let named = crate::deckcode::game_of(&req.code)
        .map_err(|e| Invalid::text(e.to_string()).refused(lang))?;
    if named != g.id() {
        let said = Phrase::new("api-other-game")
            .with("named", named)
            .with("game", g.id());
        return Err(Invalid(said).refused(lang));
    }
    Ok(axum::Json(g.decode(&req.code).map_err(|e| e.refused(lang))?).into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SaveRequest {
    deck: DeckInput,
    /// The file name wanted (sanitised); the deck's name when empty.
    #[serde(default)]
    file: String,
    /// Replace an existing file of that name.
    #[serde(default)]
    overwrite: bool,
}

async fn save_deck(
    _: MayWrite,
    State(live): State<Arc<Live>>,
    UrlPath(game): UrlPath<String>,
    q: UiQuery,
    bytes: Result<Bytes, BytesRejection>,
) -> ApiResult {
    let catalog = live.catalog();
    let (g, lang, req): (_, _, SaveRequest) = posted(&catalog, &game, &q, bytes)?;
    let valid = g.validate(&req.deck).map_err(|e| e.refused(lang))?;
    let wanted = if req.file.trim().is_empty() {
        &valid.name
    } else {
        &req.file
    };
    let stem = save::stem(wanted);
    let text = g.to_toml(&valid);
    match save::write(catalog.root(), g.id(), &stem, &text, req.overwrite) {
        Ok(file) => Ok((StatusCode::CREATED, axum::Json(json!({ "file": file }))).into_response()),
        Err(save::SaveError::Exists(file)) => Ok((
            StatusCode::CONFLICT,
            axum::Json(json!({
                "error": l10n::word(lang, &Phrase::new("api-exists").with("file", &file)),
                "exists": true,
                "file": file,
            })),
        )
            .into_response()),
        Err(save::SaveError::Refused(why)) => Err(ApiError(StatusCode::FORBIDDEN, why)),
        Err(save::SaveError::Io(why)) => Err(ApiError(StatusCode::INTERNAL_SERVER_ERROR, why)),
    }
}

/// An event's submissions judged, as rows and CSV. Up to 10,000 decks
/// (16 MiB of JSON) are seconds of work in a debug build, done with
/// `block_in_place`: the executor's other tasks move to another thread
/// meanwhile, so other requests are answered. Not on the blocking pool,
/// as [`parse_list`] is: the request's time limit (which bounds its
/// arrival) would then cut a long judgement with a `408` while it ran on.
async fn organize(
    State(live): State<Arc<Live>>,
    bytes: Result<Bytes, BytesRejection>,
) -> ApiResult {
    let catalog = live.catalog();
    tokio::task::block_in_place(|| {
        let req: organize::Request = body_within(bytes, MAX_EVENT_BODY)?;
        let subs = req.submissions();
        if subs.len() > MAX_DECKS {
            return Err(ApiError(
                StatusCode::PAYLOAD_TOO_LARGE,
                format!("at most {MAX_DECKS} decks at a time"),
            ));
        }
        let event = req
            .requirements(&catalog)
            .map_err(|why| ApiError(StatusCode::UNPROCESSABLE_ENTITY, why))?;
        let rows = organize::judge(&catalog, &subs, &event);
        let table = crate::event::csv(&rows);
        Ok(axum::Json(json!({ "rows": rows, "csv": table })).into_response())
    })
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ParseRequest {
    /// The pasted list.
    text: String,
    /// The name for a list without a `Name:` line.
    #[serde(default)]
    name: String,
}

/// A pasted text list, read as `carta deck import` reads it: the deck, or
/// every problem at its line and column with its did-you-mean. A list of
/// up to a megabyte is seconds of work in a debug build, so it is read on
/// the blocking pool, leaving the executor's two threads to answer other
/// requests meanwhile.
async fn parse_list(
    State(live): State<Arc<Live>>,
    UrlPath(game): UrlPath<String>,
    q: UiQuery,
    bytes: Result<Bytes, BytesRejection>,
) -> ApiResult {
    let catalog = live.catalog();
    off_executor(move || {
        let (g, lang, req): (_, _, ParseRequest) = posted(&catalog, &game, &q, bytes)?;
        let fallback = if req.name.trim().is_empty() {
            "Imported deck"
        } else {
            req.name.trim()
        };
        let shown = catalog.cards_of(g, lang);
        Ok(axum::Json(lists::parse(g, shown, &req.text, fallback, lang)).into_response())
    })
    .await
}

/// The answer `work` gives, worked out on tokio's blocking pool.
async fn off_executor(work: impl FnOnce() -> ApiResult + Send + 'static) -> ApiResult {
    tokio::task::spawn_blocking(work)
        .await
        .map_err(|e| ApiError(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?
}

/// A deck's text list, as `carta deck export` writes it.
async fn list_of(
    State(live): State<Arc<Live>>,
    UrlPath(game): UrlPath<String>,
    bytes: Result<Bytes, BytesRejection>,
) -> ApiResult {
    let catalog = live.catalog();
    let g = game_of(&catalog, &game)?;
    let req: lists::ListRequest = body(bytes)?;
    let text = lists::render(g, &req)?;
    Ok(axum::Json(json!({ "text": text })).into_response())
}

#[derive(Deserialize)]
struct DecklistQuery {
    code: String,
    #[serde(default)]
    player: Option<String>,
}

/// The printable decklist of the deck a code stands for (the page opens it
/// in a new tab to print).
async fn decklist_page(
    State(live): State<Arc<Live>>,
    UrlPath(game): UrlPath<String>,
    query: Result<Query<DecklistQuery>, QueryRejection>,
) -> Response {
    let catalog = live.catalog();
    let Some(g) = catalog.game(&game) else {
        return (StatusCode::NOT_FOUND, page(&catalog, "index", None, None)).into_response();
    };
    let refused = |why: String| {
        let text = format!(
            "<!doctype html><meta charset=\"utf-8\"><title>No decklist</title><p>No decklist: {}</p>",
            crate::server::page::esc(&why)
        );
        (StatusCode::UNPROCESSABLE_ENTITY, Html(text)).into_response()
    };
    let Ok(Query(q)) = query else {
        return refused("the link needs the deck's `code`".into());
    };
    match lists::decklist(g, &q.code, q.player.as_deref()) {
        Ok(html) => Html(html).into_response(),
        Err(why) => refused(why.word(Lang::En)),
    }
}

/// The odds of drawing at least `k` cards of a group by a turn (the
/// playtest panel; `carta deck odds` answers the same), refused in the
/// page's language.
async fn odds(
    State(live): State<Arc<Live>>,
    UrlPath(game): UrlPath<String>,
    q: UiQuery,
    bytes: Result<Bytes, BytesRejection>,
) -> ApiResult {
    let catalog = live.catalog();
    let (g, lang, req): (_, _, play::OddsRequest) = posted(&catalog, &game, &q, bytes)?;
    let odds = play::answer(g, &req).map_err(|e| e.refused(lang))?;
    Ok(axum::Json(odds).into_response())
}
