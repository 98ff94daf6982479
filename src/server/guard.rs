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
//! under its own to trick a click on *Save*.

use std::net::{IpAddr, SocketAddr};
use std::time::Duration;

use axum::extract::{Request, State};
use axum::http::uri::Authority;
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use serde_json::json;

use super::builder::api::max_body;

/// What the guard knows: the server's origins and how long a request may
/// take to arrive.
#[derive(Debug, Clone, Copy)]
pub(super) struct Guard {
    /// The server's names and port.
    pub(super) origins: Origins,
    /// How long a request may take to arrive whole, once its head has.
    pub(super) request_timeout: Duration,
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
pub(super) async fn guard(State(guard): State<Guard>, req: Request, next: Next) -> Response {
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
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static("frame-ancestors 'none'"),
    );
    response
}

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
