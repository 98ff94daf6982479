//! Who may drive the server: only carta's own pages, in the user's browser.
//!
//! A web page on another site can make the browser send requests to
//! `127.0.0.1`: directly (a form, `fetch` with `text/plain`, which needs
//! no preflight), or by DNS rebinding (its own name, re-pointed at
//! `127.0.0.1`, so that it may also read the answers). So every request is
//! checked before it reaches a route, as Vite (`server.allowedHosts`,
//! CVE-2025-24010) and webpack-dev-server (`allowedHosts`, CVE-2018-14732)
//! came to do:
//!
//! - its `Host` must name this server: `localhost`, `127.0.0.1` or `[::1]`
//!   with the bound port, or the bound address (any IP address when bound
//!   to all of them: an address cannot be rebound, a name can);
//! - a request the browser marks as sent by another site
//!   (`Sec-Fetch-Site`) may only be a navigation to a page;
//! - a request that is not `GET` or `HEAD` must not carry an `Origin` other
//!   than this server's (`null` included), and must carry a JSON body
//!   (`Content-Type: application/json`, which a cross-site page can only
//!   send after a preflight carta never grants). Browsers send `Origin` on
//!   every such request, same-origin included (the Fetch standard), so a
//!   request without one was not sent by a browser but by a program on
//!   this machine, such as a script using the API: it is let through;
//! - a body announced larger than the limit is refused at once, unread;
//! - a request must arrive whole, body included, within the request
//!   timeout (`net::REQUEST_TIMEOUT`), or it is answered `408`.
//!
//! Every answer forbids framing, so no other site can lay carta's pages
//! under its own to trick a click on *Save*, and carries a
//! Content-Security-Policy: no script runs on carta's origin but carta's
//! own (a stranger's template is rendered into the preview and the
//! builder, and must not drive the API from there).

use std::net::{IpAddr, SocketAddr};
use std::time::Duration;

use axum::extract::{ConnectInfo, Request, State};
use axum::http::uri::Authority;
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use serde_json::json;

use super::builder::api::max_body;

/// What the guard knows: the server's origins, how long a request may
/// take to arrive, and the token writes from other machines need.
#[derive(Debug, Clone)]
pub(super) struct Guard {
    /// The server's names and port.
    pub(super) origins: Origins,
    /// How long a request may take to arrive whole, once its head has.
    pub(super) request_timeout: Duration,
    /// The secret a write from another machine must carry: set when the
    /// server listens off loopback ([`Token::for_bound`]).
    pub(super) token: Option<Token>,
}

/// The secret that lets another machine of the network write (save a deck,
/// change a collection) when the server listens off loopback, as Jupyter's
/// token does: printed once at start in the address to open, which sets it
/// as a cookie (`carta-token`, HTTP-only, same-site) for the page's
/// requests; a script sends it as `X-Carta-Token`.
#[derive(Debug, Clone)]
pub(crate) struct Token(std::sync::Arc<str>);

/// The cookie and header names of the token.
const TOKEN_COOKIE: &str = "carta-token";
const TOKEN_HEADER: &str = "x-carta-token";

impl Token {
    /// A fresh token for a server bound to `bound`, or none on loopback
    /// (where only this machine can connect).
    pub(crate) fn for_bound(bound: SocketAddr) -> Option<Token> {
        if bound.ip().is_loopback() {
            return None;
        }
        secret::<24>().map(|text| Token(text.into()))
    }

    /// The token's text, for the address printed at start.
    pub(crate) fn as_str(&self) -> &str {
        &self.0
    }

    /// Whether `offered` is the token, compared in constant time.
    fn is(&self, offered: &str) -> bool {
        let (a, b) = (self.0.as_bytes(), offered.as_bytes());
        a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
    }

    /// Whether `headers` carry the token (its header, or its cookie).
    fn carried_by(&self, headers: &HeaderMap) -> bool {
        let header = headers.get(TOKEN_HEADER).and_then(|v| v.to_str().ok());
        let cookies = headers
            .get_all(header::COOKIE)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(';'))
            .filter_map(|c| c.trim().strip_prefix(TOKEN_COOKIE)?.strip_prefix('='));
        header.into_iter().chain(cookies).any(|t| self.is(t))
    }

    /// Whether the query of `req` offers the token (`?token=…`).
    fn offered_in_query(&self, req: &Request) -> bool {
        req.uri().query().is_some_and(|q| {
            q.split('&')
                .filter_map(|kv| kv.strip_prefix("token="))
                .any(|t| self.is(t))
        })
    }
}

/// `N` bytes of the system's randomness as hex: a token or a script nonce
/// no page can guess (none when the system gives no randomness).
pub(crate) fn secret<const N: usize>() -> Option<String> {
    let mut bytes = [0u8; N];
    getrandom::fill(&mut bytes).ok()?;
    Some(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// Whether a request may write, as the guard decided: put in every
/// request's extensions, read by [`MayWrite`].
#[derive(Debug, Clone, Copy)]
struct Grant(bool);

/// The extractor of every route that writes a file (a saved deck, a
/// collection): refuses with `403` a request from another machine that
/// does not carry the token, when the server listens off loopback. A
/// request from this machine, or to a server on loopback, may write (the
/// other checks of the guard still apply).
#[derive(Debug)]
pub(crate) struct MayWrite;

impl<S: Send + Sync> axum::extract::FromRequestParts<S> for MayWrite {
    type Rejection = Response;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        _: &S,
    ) -> Result<Self, Response> {
        match parts.extensions.get::<Grant>() {
            Some(Grant(true)) => Ok(MayWrite),
            _ => Err(json_error(
                StatusCode::FORBIDDEN,
                "another machine may save only with the token carta printed at start: open the address it printed",
            )),
        }
    }
}

/// Whether `req` may write: from this machine, to a server on loopback,
/// or carrying the token.
fn grant(guard: &Guard, req: &Request) -> Grant {
    let peer = req
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|c| c.0.ip());
    Grant(match &guard.token {
        None => true,
        Some(token) => peer.is_some_and(|ip| ip.is_loopback()) || token.carried_by(req.headers()),
    })
}

/// The names and port under which the server is its own origin.
#[derive(Debug, Clone, Copy)]
pub(super) struct Origins {
    /// The address bound.
    bound: SocketAddr,
}

impl Origins {
    /// The origins of a server bound to `bound`.
    pub(super) fn new(bound: SocketAddr) -> Self {
        Origins { bound }
    }

    /// Whether `authority` (a `Host` header, or an origin's host and port)
    /// names this server.
    fn names_us(&self, authority: &str) -> bool {
        if authority.contains('@') {
            return false;
        }
        let Ok(a) = authority.parse::<Authority>() else {
            return false;
        };
        if a.port_u16().unwrap_or(80) != self.bound.port() {
            return false;
        }
        let host = a.host().to_ascii_lowercase();
        if matches!(host.as_str(), "localhost" | "127.0.0.1" | "[::1]") {
            return true;
        }
        let bare = host
            .strip_prefix('[')
            .and_then(|h| h.strip_suffix(']'))
            .unwrap_or(&host);
        bare.parse::<IpAddr>()
            .is_ok_and(|ip| ip == self.bound.ip() || self.bound.ip().is_unspecified())
    }

    /// Whether `origin` (an `Origin` header) is this server's.
    fn is_ours(&self, origin: &HeaderValue) -> bool {
        origin
            .to_str()
            .ok()
            .and_then(|o| o.strip_prefix("http://"))
            .is_some_and(|authority| self.names_us(authority))
    }

    /// How to reach the server, for a refusal's message.
    fn url(&self) -> String {
        let ip = self.bound.ip();
        let host = if ip.is_unspecified() || ip.is_loopback() {
            "127.0.0.1".to_owned()
        } else {
            SocketAddr::new(ip, 0)
                .to_string()
                .trim_end_matches(":0")
                .to_owned()
        };
        format!("http://{host}:{}/", self.bound.port())
    }
}

/// The checks of the module's documentation, around every route.
pub(super) async fn guard(State(guard): State<Guard>, mut req: Request, next: Next) -> Response {
    let granted = grant(&guard, &req);
    req.extensions_mut().insert(granted);
    // The address printed at start carries the token; the page opened with
    // it keeps it as a cookie for its own requests.
    let set_token = guard
        .token
        .as_ref()
        .filter(|t| req.method() == Method::GET && t.offered_in_query(&req))
        .map(|t| {
            format!(
                "{TOKEN_COOKIE}={}; Path=/; HttpOnly; SameSite=Strict",
                t.as_str()
            )
        });
    let mut response = match refusal(&guard.origins, &req) {
        Some(refused) => refused,
        None => match tokio::time::timeout(guard.request_timeout, next.run(req)).await {
            Ok(response) => response,
            Err(_) => json_error(
                StatusCode::REQUEST_TIMEOUT,
                &format!(
                    "the request did not arrive within {} ms",
                    guard.request_timeout.as_millis()
                ),
            ),
        },
    };
    let headers = response.headers_mut();
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    // A page that runs scripts says which (`page_policy`, with
    // `frame-ancestors 'none'`); anything else — a sheet's file, a
    // picture (an SVG opened on its own), an answer of the API — runs
    // none, in a sandbox whose requests carry no origin of carta's.
    headers
        .entry(header::CONTENT_SECURITY_POLICY)
        .or_insert(HeaderValue::from_static(DEFAULT_POLICY));
    if let Some(cookie) = set_token.and_then(|c| HeaderValue::from_str(&c).ok()) {
        headers.insert(header::SET_COOKIE, cookie);
    }
    response
}

/// The Content-Security-Policy of every answer that does not set its own.
const DEFAULT_POLICY: &str = "default-src 'none'; style-src 'self' 'unsafe-inline'; \
     img-src 'self' data:; font-src 'self' data:; base-uri 'none'; form-action 'none'; \
     frame-ancestors 'none'; sandbox";

/// Why `req` is refused before it reaches a route, if it is.
fn refusal(origins: &Origins, req: &Request) -> Option<Response> {
    let headers = req.headers();
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok());
    let named = req.uri().authority().map(Authority::as_str);
    if !host.or(named).is_some_and(|h| origins.names_us(h))
        || named.is_some_and(|a| !origins.names_us(a))
    {
        let text = format!(
            "carta answers only requests for {}: this one names another host\n",
            origins.url()
        );
        let plain = [(header::CONTENT_TYPE, "text/plain; charset=utf-8")];
        return Some((StatusCode::FORBIDDEN, plain, text).into_response());
    }
    if from_another_site(headers) {
        return Some(json_error(
            StatusCode::FORBIDDEN,
            "another site's page cannot use carta's server",
        ));
    }
    if req.method() != Method::GET && req.method() != Method::HEAD {
        if headers
            .get(header::ORIGIN)
            .is_some_and(|o| !origins.is_ours(o))
        {
            return Some(json_error(
                StatusCode::FORBIDDEN,
                "only carta's own pages can send this request (its Origin is not this server)",
            ));
        }
        if !is_json(headers) {
            return Some(json_error(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "the request must be JSON (Content-Type: application/json)",
            ));
        }
    }
    let announced = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|l| l.to_str().ok()?.parse::<u64>().ok());
    let max = max_body(req.uri().path());
    if announced.is_some_and(|n| n > max as u64) {
        return Some(json_error(
            StatusCode::PAYLOAD_TOO_LARGE,
            &format!("the request is larger than {max} bytes"),
        ));
    }
    None
}

/// Whether the browser says another site (another origin) sent this
/// request, other than by navigating to a page.
fn from_another_site(headers: &HeaderMap) -> bool {
    let get = |name: &str| headers.get(name).and_then(|v| v.to_str().ok());
    let site = get("sec-fetch-site").unwrap_or("none");
    !matches!(site, "same-origin" | "none") && get("sec-fetch-mode") != Some("navigate")
}

/// Whether the body is declared JSON (`application/json`, any parameters).
fn is_json(headers: &HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|essence| essence.trim().eq_ignore_ascii_case("application/json"))
}

fn json_error(status: StatusCode, message: &str) -> Response {
    (status, axum::Json(json!({ "error": message }))).into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A server bound to `bound` with the guard and one route that writes,
    /// asked `POST /w` from `peer` with `headers`: the status, and the
    /// cookie the answer sets.
    fn ask_write(bound: &str, peer: &str, headers: &[(&str, &str)], uri: &str) -> (u16, String) {
        use axum::routing::{get, post};
        use tower::ServiceExt as _;
        let bound: SocketAddr = bound.parse().unwrap();
        let guard = Guard {
            origins: Origins::new(bound),
            request_timeout: Duration::from_secs(5),
            token: Some(Token("s3cret".into())).filter(|_| !bound.ip().is_loopback()),
        };
        let app = axum::Router::new()
            .route("/w", post(|_: MayWrite| async { "written" }))
            .route("/page", get(|| async { "page" }))
            .layer(axum::middleware::from_fn_with_state(guard, super::guard));
        let method = if uri.starts_with("/w") { "POST" } else { "GET" };
        let mut req = axum::http::Request::builder()
            .method(method)
            .uri(uri)
            .header("host", bound.to_string().replace("0.0.0.0", "192.168.1.20"))
            .header("content-type", "application/json");
        for (k, v) in headers {
            req = req.header(*k, *v);
        }
        let mut req = req.body(axum::body::Body::from("{}")).unwrap();
        req.extensions_mut()
            .insert(ConnectInfo::<SocketAddr>(peer.parse().unwrap()));
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let response = runtime.block_on(app.oneshot(req)).unwrap();
        let cookie = response
            .headers()
            .get(header::SET_COOKIE)
            .map(|v| v.to_str().unwrap().to_owned())
            .unwrap_or_default();
        (response.status().as_u16(), cookie)
    }

    #[test]
    fn off_loopback_another_machine_writes_only_with_the_token() {
        let lan = "0.0.0.0:7878";
        let other = "192.168.1.33:50000";
        // No Origin (a program, not a browser): refused from another
        // machine without the token, as with a wrong one.
        assert_eq!(ask_write(lan, other, &[], "/w").0, 403);
        assert_eq!(
            ask_write(lan, other, &[("x-carta-token", "guess")], "/w").0,
            403
        );
        assert_eq!(
            ask_write(lan, other, &[("cookie", "carta-token=s3cre")], "/w").0,
            403
        );
        // With it, as the header a script sends or the page's cookie.
        assert_eq!(
            ask_write(lan, other, &[("x-carta-token", "s3cret")], "/w").0,
            200
        );
        let cookie = [("cookie", "theme=dark; carta-token=s3cret")];
        assert_eq!(ask_write(lan, other, &cookie, "/w").0, 200);
        // This machine needs none; a server on loopback asks none.
        assert_eq!(ask_write(lan, "127.0.0.1:50000", &[], "/w").0, 200);
        assert_eq!(
            ask_write("127.0.0.1:7878", "127.0.0.1:50000", &[], "/w").0,
            200
        );
        // The printed address sets the cookie; a wrong token sets nothing.
        let (status, set) = ask_write(lan, other, &[], "/page?token=s3cret");
        assert_eq!(status, 200);
        assert!(
            set.starts_with("carta-token=s3cret;")
                && set.contains("HttpOnly")
                && set.contains("SameSite=Strict"),
            "{set}"
        );
        assert_eq!(ask_write(lan, other, &[], "/page?token=nope").1, "");
    }

    fn ours(bound: &str, authority: &str) -> bool {
        Origins::new(bound.parse().unwrap()).names_us(authority)
    }

    #[test]
    fn only_this_servers_names_and_port_are_ours() {
        for yes in [
            "127.0.0.1:7878",
            "localhost:7878",
            "LocalHost:7878",
            "[::1]:7878",
        ] {
            assert!(ours("127.0.0.1:7878", yes), "{yes}");
        }
        for no in [
            "evil.example:7878",
            "127.0.0.1:7879",
            "127.0.0.1",
            "localhost.:7878",
            "127.0.0.1.nip.io:7878",
            "user@127.0.0.1:7878",
            "10.0.0.2:7878",
            "",
        ] {
            assert!(!ours("127.0.0.1:7878", no), "{no}");
        }
        assert!(ours("127.0.0.1:80", "localhost"));
        assert!(ours("10.0.0.2:7878", "10.0.0.2:7878"));
        assert!(!ours("10.0.0.2:7878", "10.0.0.3:7878"));
        assert!(ours("0.0.0.0:7878", "192.168.1.20:7878"));
        assert!(ours("[::]:7878", "[fe80::1]:7878"));
        assert!(!ours("0.0.0.0:7878", "my-laptop.local:7878"));
    }

    #[test]
    fn origins_must_be_http_and_ours() {
        let o = Origins::new("127.0.0.1:7878".parse().unwrap());
        let is = |v: &'static str| o.is_ours(&HeaderValue::from_static(v));
        assert!(is("http://127.0.0.1:7878"));
        assert!(is("http://localhost:7878"));
        assert!(!is("null"));
        assert!(!is("https://127.0.0.1:7878"));
        assert!(!is("http://evil.example"));
        assert!(!is("http://127.0.0.1:7878/path"));
    }

    #[test]
    fn cross_site_requests_are_told_apart_from_navigations() {
        let with = |pairs: &[(&'static str, &'static str)]| {
            let mut h = HeaderMap::new();
            for (k, v) in pairs {
                h.insert(*k, HeaderValue::from_static(v));
            }
            from_another_site(&h)
        };
        assert!(!with(&[]));
        assert!(!with(&[
            ("sec-fetch-site", "same-origin"),
            ("sec-fetch-mode", "cors")
        ]));
        assert!(!with(&[
            ("sec-fetch-site", "cross-site"),
            ("sec-fetch-mode", "navigate")
        ]));
        assert!(with(&[
            ("sec-fetch-site", "cross-site"),
            ("sec-fetch-mode", "no-cors")
        ]));
        assert!(with(&[
            ("sec-fetch-site", "same-site"),
            ("sec-fetch-mode", "cors")
        ]));
    }
}
