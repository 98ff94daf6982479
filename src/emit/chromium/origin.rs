//! The one place an export's browser may load from: an HTTP origin on
//! 127.0.0.1 and an ephemeral port, in this process, that serves the
//! export's own files (the page, the art the sheets copied) and refuses
//! everything else. The browser also uses it as its proxy, so a request
//! for any other address reaches it too, and is refused.
//!
//! Every answer carries a Content-Security-Policy that lets the page load
//! only from this origin (images and fonts also from `data:`), run only
//! carta's own fit script (by its hash), and embed no frame or plugin. A
//! page from `http://` cannot reach `file://` at all: Chromium refuses it.
//!
//! The page's fit script may post what did not fit its boxes to
//! [`REPORT_PATH`] (a JSON body of at most [`MAX_REPORT`] bytes); the
//! origin keeps it for the job ([`Origin::overflows`]). Nothing else is
//! ever accepted but `GET` and `HEAD`.
//!
//! The page is a document fetched once. Any later request for a document
//! (a `<meta http-equiv=refresh>`, a navigation) is refused and recorded,
//! so the job stops at once with an error instead of photographing an
//! error page or reloading until its time limit.

use std::collections::BTreeSet;
use std::net::{Ipv4Addr, SocketAddr, TcpListener};
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::response::Response;

use crate::emit::sheets::overflow::{self, Overflow};
use crate::emit::sheets::placement::{self, Placement};
use crate::emit::sheets::{fit_script_source, page_policy};

/// Where the fit script posts its measurements, beside the page.
pub(super) const REPORT_PATH: &str = "/.carta-overflow";
/// The largest measurement accepted, in bytes.
pub(super) const MAX_REPORT: usize = 8 << 20;

/// The longest requested URL an error quotes.
const MAX_QUOTED: usize = 200;

/// A running origin for one job; stopped when dropped.
pub(super) struct Origin {
    addr: SocketAddr,
    served: Arc<Served>,
    runtime: Option<tokio::runtime::Runtime>,
}

/// What an origin serves and what it saw.
struct Served {
    /// The folder the files are in.
    root: PathBuf,
    /// `127.0.0.1:<port>`, the only authority it answers for.
    host: String,
    /// The page, `/`-separated, relative to `root`.
    page: String,
    /// The page's subresources, `/`-separated, relative to `root`.
    files: BTreeSet<String>,
    /// Whether the page was fetched.
    page_sent: AtomicBool,
    /// The first document asked for after the page: a navigation.
    navigation: Mutex<Option<String>>,
    /// The Content-Security-Policy header of every answer.
    policy: HeaderValue,
    /// What the page's fit script reported, once it did.
    report: Mutex<Option<Vec<Overflow>>>,
    /// The placements it reported, for a preflight.
    placements: Mutex<Vec<Placement>>,
}

impl Origin {
    /// Starts serving `page` and `files` (paths relative to `root`, `/`
    /// separated; any that is not a plain relative path is left out).
    pub(super) fn start(root: &Path, page: &str, files: &[String]) -> std::io::Result<Origin> {
        let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, 0))?;
        listener.set_nonblocking(true)?;
        let addr = listener.local_addr()?;
        let served = Arc::new(Served {
            root: root.to_path_buf(),
            host: addr.to_string(),
            page: page.to_owned(),
            files: files.iter().filter(|f| plain(f)).cloned().collect(),
            page_sent: AtomicBool::new(false),
            navigation: Mutex::new(None),
            policy: HeaderValue::from_str(&policy()).expect("the policy is ASCII"),
            report: Mutex::new(None),
            placements: Mutex::new(Vec::new()),
        });
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .thread_name("carta-export-origin")
            .enable_io()
            .build()?;
        let app = Router::new()
            .fallback(answer)
            .with_state(Arc::clone(&served));
        let listener = {
            let _entered = runtime.enter();
            tokio::net::TcpListener::from_std(listener)?
        };
        runtime.spawn(async move {
            // Serving ends only when the runtime is dropped with the origin.
            let _ = axum::serve(listener, app).await;
        });
        Ok(Origin {
            addr,
            served,
            runtime: Some(runtime),
        })
    }

    /// The origin, `http://127.0.0.1:<port>`.
    pub(super) fn base(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// The page's URL, asking its fit script to report what does not fit.
    pub(super) fn page_url(&self) -> String {
        format!("{}/{}?carta-report", self.base(), encode(&self.served.page))
    }

    /// What the page's fit script reported (the boxes whose text does not
    /// fit), or `None` when it reported nothing.
    pub(super) fn overflows(&self) -> Option<Vec<Overflow>> {
        self.served.report.lock().ok()?.take()
    }

    /// The placements the page's fit script reported (then forgotten).
    pub(super) fn placements(&self) -> Vec<Placement> {
        self.served
            .placements
            .lock()
            .map(|mut p| std::mem::take(&mut *p))
            .unwrap_or_default()
    }

    /// The document the page tried to load after itself, if any.
    pub(super) fn navigation(&self) -> Option<String> {
        self.served
            .navigation
            .lock()
            .map_or(None, |n| n.as_ref().cloned())
    }
}

impl Drop for Origin {
    fn drop(&mut self) {
        if let Some(runtime) = self.runtime.take() {
            runtime.shutdown_background();
        }
    }
}

/// The Content-Security-Policy of every answer: a page of sheets whose
/// one script is carta's fit script.
pub(super) fn policy() -> String {
    page_policy(fit_script_source())
}

/// Whether `rel` is a plain relative path: no root, no `..`, no `.`.
fn plain(rel: &str) -> bool {
    !rel.is_empty()
        && !rel.contains('\\')
        && Path::new(rel)
            .components()
            .all(|c| matches!(c, Component::Normal(_)))
}

/// `rel` as a URL path: each byte outside the unreserved set escaped.
fn encode(rel: &str) -> String {
    const KEEP: &percent_encoding::AsciiSet = &percent_encoding::NON_ALPHANUMERIC
        .remove(b'/')
        .remove(b'-')
        .remove(b'_')
        .remove(b'.')
        .remove(b'~');
    percent_encoding::utf8_percent_encode(rel, KEEP).to_string()
}

async fn answer(State(served): State<Arc<Served>>, req: Request) -> Response {
    if req.method() == Method::POST && req.uri().path() == REPORT_PATH {
        return served.take_report(req).await;
    }
    let rel = match served.admit(&req) {
        Ok(rel) => rel,
        Err(status) => return refusal(status),
    };
    let path = served.root.join(&rel);
    let opened = tokio::task::spawn_blocking(move || {
        let file = std::fs::File::open(path)?;
        let len = file.metadata()?.len();
        Ok::<_, std::io::Error>((file, len))
    });
    let Ok(Ok((file, len))) = opened.await else {
        return refusal(StatusCode::NOT_FOUND);
    };
    let mut response = Response::new(if req.method() == Method::HEAD {
        Body::empty()
    } else {
        chunks(file)
    });
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(mime(&rel)));
    headers.insert(header::CONTENT_LENGTH, HeaderValue::from(len));
    headers.insert(header::CONTENT_SECURITY_POLICY, served.policy.clone());
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

/// The rest of `file` as a body of 64 KiB chunks read on the blocking
/// pool: a PDF's page of a large game is never held whole.
fn chunks(file: std::fs::File) -> Body {
    let stream = futures_util::stream::unfold(Some(file), |file| async move {
        let mut file = file?;
        let read = tokio::task::spawn_blocking(move || {
            let mut buf = vec![0; 64 << 10];
            let n = std::io::Read::read(&mut file, &mut buf)?;
            buf.truncate(n);
            Ok::<_, std::io::Error>((file, buf))
        })
        .await
        .map_err(std::io::Error::other);
        match read {
            Ok(Ok((_, buf))) if buf.is_empty() => None,
            Ok(Ok((file, buf))) => Some((Ok(Bytes::from(buf)), Some(file))),
            Ok(Err(e)) | Err(e) => Some((Err(e), None)),
        }
    });
    Body::from_stream(stream)
}

impl Served {
    /// The file `req` may have, or why not. The page is served once; a
    /// document asked for after it (what the browser would show in its
    /// place) is recorded as a navigation.
    fn admit(&self, req: &Request) -> Result<String, StatusCode> {
        if req.method() != Method::GET && req.method() != Method::HEAD {
            return Err(StatusCode::METHOD_NOT_ALLOWED);
        }
        let uri = req.uri();
        let ours = self.ours(req);
        let rel = percent_encoding::percent_decode_str(uri.path().trim_start_matches('/'))
            .decode_utf8()
            .ok()
            .filter(|_| ours);
        let document = req
            .headers()
            .get(header::ACCEPT)
            .is_some_and(|a| a.as_bytes().windows(9).any(|w| w == b"text/html"));
        // The first request for the page is the page; any later document
        // is the page leaving.
        if rel.as_deref() == Some(self.page.as_str())
            && !self.page_sent.swap(true, Ordering::SeqCst)
        {
            return Ok(self.page.clone());
        }
        if document {
            self.record(&match uri.authority() {
                Some(_) => uri.to_string(),
                None => format!("http://{}{uri}", self.host),
            });
            return Err(StatusCode::CONFLICT);
        }
        match rel {
            Some(rel) if self.files.contains(rel.as_ref()) => Ok(rel.into_owned()),
            Some(_) => Err(StatusCode::NOT_FOUND),
            None => Err(StatusCode::FORBIDDEN),
        }
    }

    /// Whether `req` is for this origin: by its absolute URL (the
    /// browser's proxy request) or its `Host`.
    fn ours(&self, req: &Request) -> bool {
        let uri = req.uri();
        match uri.authority() {
            Some(authority) => uri.scheme_str() == Some("http") && authority == self.host.as_str(),
            None => req
                .headers()
                .get(header::HOST)
                .is_some_and(|h| h.as_bytes() == self.host.as_bytes()),
        }
    }

    /// Keeps the fit script's report: a JSON body, from this origin, of
    /// at most [`MAX_REPORT`] bytes, that [`overflow::parse`] reads (and
    /// [`placement::parse`], for its placements).
    async fn take_report(&self, req: Request) -> Response {
        let json = req
            .headers()
            .get(header::CONTENT_TYPE)
            .is_some_and(|t| t.as_bytes().starts_with(b"application/json"));
        if !json || !self.ours(&req) {
            return refusal(StatusCode::FORBIDDEN);
        }
        let Ok(body) = axum::body::to_bytes(req.into_body(), MAX_REPORT).await else {
            return refusal(StatusCode::PAYLOAD_TOO_LARGE);
        };
        let Some(found) = overflow::parse(&body) else {
            return refusal(StatusCode::BAD_REQUEST);
        };
        if let Ok(mut report) = self.report.lock() {
            report.get_or_insert_with(Vec::new).extend(found);
        }
        if let Ok(mut placements) = self.placements.lock() {
            placements.extend(placement::parse(&body));
        }
        refusal(StatusCode::NO_CONTENT)
    }

    fn record(&self, url: &str) {
        if let Ok(mut n) = self.navigation.lock() {
            n.get_or_insert_with(|| quoted(url));
        }
    }
}

/// `url` as an error quotes it: at most [`MAX_QUOTED`] characters.
pub(super) fn quoted(url: &str) -> String {
    let mut quoted: String = url.chars().take(MAX_QUOTED).collect();
    if quoted.len() < url.len() {
        quoted.push('…');
    }
    quoted
}

fn refusal(status: StatusCode) -> Response {
    let mut response = Response::new(Body::empty());
    *response.status_mut() = status;
    response
}

/// The media type of a file carta serves, by its extension.
fn mime(rel: &str) -> &'static str {
    let ext = rel.rsplit_once('.').map_or("", |(_, e)| e);
    match ext.to_ascii_lowercase().as_str() {
        "html" => "text/html; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "webp" => "image/webp",
        "gif" => "image/gif",
        "svg" => "image/svg+xml",
        "woff2" => "font/woff2",
        "woff" => "font/woff",
        "ttf" => "font/ttf",
        "otf" => "font/otf",
        _ => "application/octet-stream",
    }
}

#[cfg(test)]
mod tests {
    use std::io::{Read as _, Write as _};

    use super::*;

    /// Sends `request` (a request line and headers) with `Connection:
    /// close`, and returns the answer's status code and head.
    fn ask(origin: &Origin, request: &str) -> (u16, String) {
        let mut stream = std::net::TcpStream::connect(origin.addr).unwrap();
        write!(stream, "{request}\r\nConnection: close\r\n\r\n").unwrap();
        let mut answer = String::new();
        stream.read_to_string(&mut answer).unwrap();
        let status = answer[9..12].parse().unwrap();
        (status, answer.to_ascii_lowercase())
    }

    fn site() -> (tempfile::TempDir, Origin) {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("img")).unwrap();
        std::fs::write(dir.path().join("index.html"), "<p>page</p>").unwrap();
        std::fs::write(dir.path().join("img/a.png"), "png").unwrap();
        std::fs::write(dir.path().join("secret.txt"), "secret").unwrap();
        let files = ["img/a.png".to_owned(), "../secret.txt".to_owned()];
        let origin = Origin::start(dir.path(), "index.html", &files).unwrap();
        (dir, origin)
    }

    #[test]
    fn the_page_is_served_once_with_the_policy_then_a_reload_is_recorded() {
        let (_dir, origin) = site();
        let host = origin.addr.to_string();
        let doc = format!("GET /index.html HTTP/1.1\r\nHost: {host}\r\nAccept: text/html,*/*");
        let (status, head) = ask(&origin, &doc);
        assert_eq!(status, 200, "{head}");
        assert!(
            head.contains("content-security-policy: default-src 'none'"),
            "{head}"
        );
        assert!(head.contains("<p>page</p>"));
        assert_eq!(origin.navigation(), None);
        assert_eq!(ask(&origin, &doc).0, 409);
        assert_eq!(
            origin.navigation(),
            Some(format!("{}/index.html", origin.base()))
        );
    }

    #[test]
    fn a_document_from_elsewhere_is_a_navigation() {
        let (_dir, origin) = site();
        let nav = "GET http://example.com/x HTTP/1.1\r\nHost: example.com\r\nAccept: text/html";
        assert_eq!(ask(&origin, nav).0, 409);
        assert_eq!(origin.navigation().as_deref(), Some("http://example.com/x"));
    }

    #[test]
    fn only_listed_files_of_this_origin_are_served() {
        let (_dir, origin) = site();
        let host = origin.addr.to_string();
        let get = |path: &str, host: &str| {
            format!("GET {path} HTTP/1.1\r\nHost: {host}\r\nAccept: image/*")
        };
        let (status, head) = ask(&origin, &get("/img/a.png", &host));
        assert_eq!(status, 200);
        assert!(head.contains("content-type: image/png"), "{head}");
        // The page once, as the browser's first request; never again.
        assert_eq!(ask(&origin, &get("/index.html", &host)).0, 200);
        for path in [
            "/secret.txt",
            "/img/../secret.txt",
            "/img/%2e%2e/secret.txt",
            "/index.html",
        ] {
            assert_eq!(ask(&origin, &get(path, &host)).0, 404, "{path}");
        }
        assert_eq!(ask(&origin, &get("/img/a.png", "evil.example")).0, 403);
        let proxied = "GET http://127.0.0.1:1/img/a.png HTTP/1.1\r\nHost: 127.0.0.1:1";
        assert_eq!(ask(&origin, proxied).0, 403);
        let post = format!("POST /img/a.png HTTP/1.1\r\nHost: {host}\r\nContent-Length: 0");
        assert_eq!(ask(&origin, &post).0, 405);
        let tunnel = "CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443";
        assert_eq!(ask(&origin, tunnel).0, 405);
        assert_eq!(origin.navigation(), None, "no document was asked for");
    }

    #[test]
    fn the_fit_script_s_report_is_kept_only_as_json_from_this_origin() {
        let (_dir, origin) = site();
        let host = origin.addr.to_string();
        let body = r#"{"overflows":[{"card":"a","side":"face","box":"div.rules","down":14,"across":0,"lines":2,"hidden":"long","text":"long"}]}"#;
        let post = |host: &str, kind: &str, body: &str| {
            format!(
                "POST {REPORT_PATH} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\nContent-Type: {kind}\r\nContent-Length: {}\r\n\r\n{body}",
                body.len()
            )
        };
        let ask_raw = |request: String| {
            let mut stream = std::net::TcpStream::connect(origin.addr).unwrap();
            stream.write_all(request.as_bytes()).unwrap();
            let mut answer = String::new();
            stream.read_to_string(&mut answer).unwrap();
            answer[9..12].parse::<u16>().unwrap()
        };
        assert_eq!(ask_raw(post(&host, "text/plain", body)), 403);
        assert_eq!(ask_raw(post("evil.example", "application/json", body)), 403);
        assert_eq!(ask_raw(post(&host, "application/json", "{}")), 400);
        assert_eq!(origin.overflows(), None, "nothing reported yet");
        assert_eq!(ask_raw(post(&host, "application/json", body)), 204);
        let got = origin.overflows().unwrap();
        assert_eq!(
            (got[0].card.as_str(), got[0].down, got[0].lines),
            ("a", 14, 2)
        );
    }

    #[test]
    fn the_policy_allows_carta_s_script_by_its_hash_and_nothing_from_elsewhere() {
        let p = policy();
        assert!(
            p.starts_with("default-src 'none'; script-src 'sha256-"),
            "{p}"
        );
        assert!(!p.contains("unsafe-eval") && !p.contains("script-src 'self'"));
        assert!(!p.contains('*') && !p.contains("http"), "{p}");
    }

    #[test]
    fn only_plain_relative_paths_are_served() {
        assert!(plain("img/ab12.png") && plain("index.html"));
        for bad in ["", "/etc/passwd", "../x", "img/../../x", "./x", "a\\..\\b"] {
            assert!(!plain(bad), "{bad}");
        }
    }

    #[test]
    fn page_urls_escape_what_a_url_cannot_hold() {
        assert_eq!(
            encode("grid 1/Fúria#1.html"),
            "grid%201/F%C3%BAria%231.html"
        );
    }
}
