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

use super::{Catalog, DeckInput, GameCatalog, Invalid, collection, lists, organize, save};
use crate::server::Live;

/// The largest request body accepted (a tournament's codes fit many times).
pub(in crate::server) const MAX_BODY: usize = 1 << 20;
/// The most decks one organisers' request may hold.
const MAX_DECKS: usize = 2_000;

const APP_JS: &str = include_str!("assets/app.js");
const APP_CSS: &str = include_str!("assets/app.css");
const LISTS_JS: &str = include_str!("assets/lists.js");
const COLLECTION_JS: &str = include_str!("assets/collection.js");
const PAGE: &str = include_str!("assets/page.html");

/// The builder's routes, over the server's shared state.
pub(in crate::server) fn routes() -> Router<Arc<Live>> {
    Router::new()
        .route("/play/", get(index_page))
        .route("/play/organize", get(organize_page))
        .route("/play/app.js", get(app_js))
        .route("/play/app.css", get(app_css))
        .route("/play/lists.js", get(lists_js))
        .route("/play/collection.js", get(collection_js))
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
        .route(
            "/api/games/{game}/collection",
            get(collection_of).post(set_owned),
        )
        .route("/api/organize", post(organize))
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
    fn from(e: Invalid) -> Self {
        ApiError(StatusCode::UNPROCESSABLE_ENTITY, e.0)
    }
}

type ApiResult = Result<Response, ApiError>;

/// The body as JSON of type `T`, or the reason it is not.
fn body<T: DeserializeOwned>(bytes: Result<Bytes, BytesRejection>) -> Result<T, ApiError> {
    let bytes = bytes.map_err(|r| {
        let status = r.status();
        let message = if status == StatusCode::PAYLOAD_TOO_LARGE {
            format!("the request is larger than {MAX_BODY} bytes")
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

fn page(kind: &str, game: Option<&GameCatalog>) -> Response {
    let (id, name) = game.map_or(("", "carta"), |g| {
        (g.id(), g.game.manifest.manifest.name.as_str())
    });
    let title = match kind {
        "cards" => format!("{name} — cards"),
        "deck" => format!("{name} — deck builder"),
        "organize" => "carta — deck verdicts for organisers".to_owned(),
        _ => "carta — games".to_owned(),
    };
    let faces = if game.is_some() {
        format!("<link rel=\"stylesheet\" href=\"/play/{id}/faces.css\">")
    } else {
        String::new()
    };
    let html = PAGE
        .replace("{{title}}", &crate::server::page::esc(&title))
        .replace("{{faces}}", &faces)
        .replace("{{page}}", kind)
        .replace("{{game}}", &crate::server::page::esc(id));
    Html(html).into_response()
}

async fn index_page() -> Response {
    page("index", None)
}

async fn organize_page() -> Response {
    page("organize", None)
}

fn game_page(live: &Live, game: &str, kind: &str) -> Response {
    let catalog = live.catalog();
    match catalog.game(game) {
        Some(g) => page(kind, Some(g)),
        None => (StatusCode::NOT_FOUND, page("index", None)).into_response(),
    }
}

async fn cards_page(State(live): State<Arc<Live>>, UrlPath(game): UrlPath<String>) -> Response {
    game_page(&live, &game, "cards")
}

async fn deck_page(State(live): State<Arc<Live>>, UrlPath(game): UrlPath<String>) -> Response {
    game_page(&live, &game, "deck")
}

async fn app_js() -> Response {
    (
        [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")],
        APP_JS,
    )
        .into_response()
}

async fn lists_js() -> Response {
    (
        [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")],
        LISTS_JS,
    )
        .into_response()
}

async fn collection_js() -> Response {
    (
        [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")],
        COLLECTION_JS,
    )
        .into_response()
}

async fn app_css() -> Response {
    ([(header::CONTENT_TYPE, "text/css; charset=utf-8")], APP_CSS).into_response()
}

async fn faces_css(State(live): State<Arc<Live>>, UrlPath(game): UrlPath<String>) -> ApiResult {
    let catalog = live.catalog();
    let g = game_of(&catalog, &game)?;
    Ok((
        [(header::CONTENT_TYPE, "text/css; charset=utf-8")],
        g.faces.css.clone(),
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
        .faces
        .images
        .get(&url)
        .ok_or_else(|| ApiError(StatusCode::NOT_FOUND, format!("no image `{file}`")))?;
    let mime = crate::server::content_type(std::path::Path::new(&file));
    Ok(([(header::CONTENT_TYPE, mime)], bytes.clone()).into_response())
}

async fn games(State(live): State<Arc<Live>>) -> Response {
    let catalog = live.catalog();
    let list: Vec<_> = catalog
        .games()
        .map(|g| {
            json!({
                "id": g.id(),
                "name": g.game.manifest.manifest.name,
                "description": g.game.manifest.manifest.description,
                "cards": g.game.pool.len(),
                "zones": g.game.manifest.manifest.zones.len(),
            })
        })
        .collect();
    axum::Json(list).into_response()
}

async fn game(State(live): State<Arc<Live>>, UrlPath(game): UrlPath<String>) -> ApiResult {
    let catalog = live.catalog();
    Ok(axum::Json(&game_of(&catalog, &game)?.summary).into_response())
}

async fn verdict(
    State(live): State<Arc<Live>>,
    UrlPath(game): UrlPath<String>,
    bytes: Result<Bytes, BytesRejection>,
) -> ApiResult {
    let catalog = live.catalog();
    let g = game_of(&catalog, &game)?;
    let deck: DeckInput = body(bytes)?;
    let valid = g.validate(&deck)?;
    let mut answer = serde_json::to_value(g.verdict(&valid)).expect("a verdict is JSON");
    // Beside the verdict, never in it: owning cards is not a rule.
    answer["collection"] = collection::missing(catalog.root(), g, &valid);
    Ok(axum::Json(answer).into_response())
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

/// Sets the copies of one card the player owns, in their collection file.
async fn set_owned(
    State(live): State<Arc<Live>>,
    UrlPath(game): UrlPath<String>,
    bytes: Result<Bytes, BytesRejection>,
) -> ApiResult {
    let catalog = live.catalog();
    let g = game_of(&catalog, &game)?;
    let req: OwnedRequest = body(bytes)?;
    match collection::set(catalog.root(), g, &req.card, req.owned) {
        Ok(owned) => Ok(axum::Json(owned).into_response()),
        Err(collection::SetError::Invalid(why)) => {
            Err(ApiError(StatusCode::UNPROCESSABLE_ENTITY, why))
        }
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
    bytes: Result<Bytes, BytesRejection>,
) -> ApiResult {
    let catalog = live.catalog();
    let g = game_of(&catalog, &game)?;
    let req: CodeRequest = body(bytes)?;
    let named = crate::deckcode::game_of(&req.code).map_err(|e| Invalid(e.to_string()))?;
    if named != g.id() {
        return Err(Invalid(format!(
            "this code is a deck of `{named}`, not of `{}`",
            g.id()
        ))
        .into());
    }
    Ok(axum::Json(g.decode(&req.code)?).into_response())
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
    State(live): State<Arc<Live>>,
    UrlPath(game): UrlPath<String>,
    bytes: Result<Bytes, BytesRejection>,
) -> ApiResult {
    let catalog = live.catalog();
    let g = game_of(&catalog, &game)?;
    let req: SaveRequest = body(bytes)?;
    let valid = g.validate(&req.deck)?;
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
                "error": format!("`{file}` exists; save again to replace it"),
                "exists": true,
                "file": file,
            })),
        )
            .into_response()),
        Err(save::SaveError::Refused(why)) => Err(ApiError(StatusCode::FORBIDDEN, why)),
        Err(save::SaveError::Io(why)) => Err(ApiError(StatusCode::INTERNAL_SERVER_ERROR, why)),
    }
}

async fn organize(
    State(live): State<Arc<Live>>,
    bytes: Result<Bytes, BytesRejection>,
) -> ApiResult {
    let catalog = live.catalog();
    let req: organize::Request = body(bytes)?;
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
/// every problem at its line and column with its did-you-mean.
async fn parse_list(
    State(live): State<Arc<Live>>,
    UrlPath(game): UrlPath<String>,
    bytes: Result<Bytes, BytesRejection>,
) -> ApiResult {
    let catalog = live.catalog();
    let g = game_of(&catalog, &game)?;
    let req: ParseRequest = body(bytes)?;
    let fallback = if req.name.trim().is_empty() {
        "Imported deck"
    } else {
        req.name.trim()
    };
    Ok(axum::Json(lists::parse(g, &req.text, fallback)).into_response())
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
        return (StatusCode::NOT_FOUND, page("index", None)).into_response();
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
        Err(Invalid(why)) => refused(why),
    }
}
