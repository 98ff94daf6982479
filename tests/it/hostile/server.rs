//! `carta serve` answers only its own pages: foreign `Host`s and `Origin`s are refused, `/g/` serves only what the build wrote, and idle or oversize connections are cut.
//!
//! Each test starts `carta serve --port 0` on 127.0.0.1 and speaks HTTP/1.1
//! to it over a raw TCP socket, as a hostile page's browser (or a flood of
//! sockets) would.

use std::fs;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::os::unix::fs::symlink;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use super::{SECRET, outside};
use crate::harness::Workspace;
use crate::sheets::{card, mini};
use crate::watch::{Killed, start_server_with};

/// How long any one answer may take (the server's own default header
/// timeout is 10 s).
const ANSWER: Duration = Duration::from_secs(20);

/// A running `carta serve` and its port.
struct Serve {
    _process: Killed,
    port: u16,
}

/// Starts `carta serve --port 0` in `ws` with `env` and waits for its
/// address.
fn serve(ws: &Workspace, env: &[(&str, &str)]) -> Serve {
    serve_at(ws.path(), env)
}

/// Starts `carta serve --port 0` in the workspace at `root`.
fn serve_at(root: &std::path::Path, env: &[(&str, &str)]) -> Serve {
    let (process, url) = start_server_with(root, &["serve", "--port", "0"], env);
    let port = url["http://127.0.0.1:".len()..]
        .trim_end_matches('/')
        .split('/')
        .next()
        .and_then(|p| p.parse().ok())
        .unwrap_or_else(|| panic!("no port in {url}"));
    Serve {
        _process: process,
        port,
    }
}

/// A workspace with the mini game, built, and a deck file of it.
fn workspace() -> Workspace {
    let ws = mini(&[card("a", ""), card("b", "")].concat());
    ws.run(["build"]).succeeds();
    ws.write(
        "cards/mini/decks/mine.toml",
        "game = \"mini\"\nname = \"Mine\"\n\n[main]\na = 1\n",
    );
    ws
}

fn connect(port: u16) -> TcpStream {
    let stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
    stream.set_read_timeout(Some(ANSWER)).unwrap();
    stream
}

/// Sends `head` (and `body`) on a new connection and reads the whole
/// answer: its status and text.
fn ask(port: u16, head: &str, body: &str) -> (u16, String) {
    let mut stream = connect(port);
    let request = format!(
        "{head}Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).unwrap();
    let mut answer = Vec::new();
    // A reset after the answer (an unread body) still leaves the answer.
    let _ = stream.read_to_end(&mut answer);
    let answer = String::from_utf8_lossy(&answer).into_owned();
    let status = answer
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no status in {answer:?}"));
    (status, answer)
}

/// A `GET path` with `Host: host`.
fn get(port: u16, host: &str, path: &str) -> (u16, String) {
    ask(
        port,
        &format!("GET {path} HTTP/1.1\r\nHost: {host}\r\n"),
        "",
    )
}

/// A `POST path` with `Host: host` and the extra header lines `headers`.
fn post(port: u16, host: &str, path: &str, headers: &str, body: &str) -> (u16, String) {
    ask(
        port,
        &format!("POST {path} HTTP/1.1\r\nHost: {host}\r\n{headers}"),
        body,
    )
}

#[test]
fn a_foreign_host_is_refused_on_every_route_dns_rebinding_included() {
    let ws = workspace();
    let s = serve(&ws, &[]);
    let p = s.port;
    let own = format!("127.0.0.1:{p}");
    // Under `serve`, `/` leads to the builder (303); the rest answer.
    for (path, answer) in [
        ("/api/games", 200),
        ("/api/games/mini", 200),
        ("/play/", 200),
        ("/", 303),
        ("/status.json", 200),
    ] {
        assert_eq!(get(p, &own, path).0, answer, "{path}");
        assert_eq!(get(p, &format!("localhost:{p}"), path).0, answer, "{path}");
        for host in [
            format!("evil.example:{p}"),
            "evil.example".to_owned(),
            format!("127.0.0.1:{}", p.wrapping_add(1)),
            format!("127.0.0.1.evil.example:{p}"),
        ] {
            let (status, text) = get(p, &host, path);
            assert_eq!(status, 403, "{host}{path}: {text}");
            assert!(!text.contains("Mini"), "{host}{path}: {text}");
        }
    }
    let (status, _) = ask(p, "GET /api/games HTTP/1.0\r\n", "");
    assert_eq!(status, 403, "no Host at all");
    let (status, text) = get(p, &format!("evil.example:{p}"), "/events");
    assert_eq!(status, 403, "server-sent events too: {text}");
    let (status, text) = ask(
        p,
        &format!("GET http://evil.example:{p}/api/games HTTP/1.1\r\nHost: {own}\r\n"),
        "",
    );
    assert_eq!(status, 403, "an absolute URI names the host too: {text}");
}

#[test]
fn a_cross_site_post_cannot_save_a_deck() {
    let ws = workspace();
    // The builder saves a player's decks in `decks/<game>/`.
    ws.write(
        "decks/mini/mine.toml",
        "game = \"mini\"\nname = \"Mine\"\n\n[main]\na = 1\n",
    );
    let s = serve(&ws, &[]);
    let p = s.port;
    let own = format!("127.0.0.1:{p}");
    let before = fs::read(ws.path().join("decks/mini/mine.toml")).unwrap();
    let body = r#"{"deck": {"name": "Pwned", "zones": {"main": {"b": 1}}}, "file": "mine", "overwrite": true}"#;
    let save = "/api/games/mini/save";
    let evil = "Origin: http://evil.example\r\n";
    for (headers, status) in [
        (format!("{evil}Content-Type: text/plain\r\n"), 403),
        (format!("{evil}Content-Type: application/json\r\n"), 403),
        (
            "Origin: null\r\nContent-Type: application/json\r\n".into(),
            403,
        ),
        ("Content-Type: text/plain\r\n".into(), 415),
        (
            format!("Origin: http://{own}\r\nContent-Type: text/plain\r\n"),
            415,
        ),
        (format!("Origin: http://{own}\r\n"), 415),
        (
            format!(
                "Origin: http://{own}\r\nContent-Type: application/json\r\nSec-Fetch-Site: cross-site\r\nSec-Fetch-Mode: no-cors\r\n"
            ),
            403,
        ),
    ] {
        let (got, text) = post(p, &own, save, &headers, body);
        assert_eq!(got, status, "{headers}: {text}");
    }
    // DNS rebinding: the page's own name, re-pointed at 127.0.0.1.
    let rebound = format!("evil.example:{p}");
    let headers = format!("Origin: http://{rebound}\r\nContent-Type: application/json\r\n");
    assert_eq!(post(p, &rebound, save, &headers, body).0, 403);
    let after = fs::read(ws.path().join("decks/mini/mine.toml")).unwrap();
    assert_eq!(before, after, "the deck file is byte-identical");
    let names: Vec<_> = fs::read_dir(ws.path().join("decks/mini"))
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names.len(), 1, "no other file was written: {names:?}");
    // carta's own page, as a browser sends it, still saves; so does a
    // script on this machine (no browser: no Origin).
    for origin in [
        format!("Origin: http://{own}\r\nSec-Fetch-Site: same-origin\r\n"),
        format!("Origin: http://localhost:{p}\r\n"),
        String::new(),
    ] {
        let headers = format!("{origin}Content-Type: application/json; charset=utf-8\r\n");
        let (got, text) = post(p, &own, save, &headers, body);
        assert_eq!(got, 201, "{text}");
    }
    let saved = ws.read("decks/mini/mine.toml");
    assert!(saved.contains("Pwned"), "{saved}");
}

#[test]
fn a_cross_site_post_cannot_change_a_collection() {
    let ws = workspace();
    let mine = "game = \"mini\"\n\n[cards]\na = 1\n";
    ws.write("decks/mini/collection.toml", mine);
    let s = serve(&ws, &[]);
    let p = s.port;
    let own = format!("127.0.0.1:{p}");
    let set = "/api/games/mini/collection";
    let body = r#"{"card": "a", "owned": 0}"#;
    for (host, headers) in [
        (
            own.clone(),
            "Origin: http://evil.example\r\nContent-Type: application/json\r\n".to_owned(),
        ),
        (
            own.clone(),
            format!(
                "Origin: http://{own}\r\nContent-Type: application/json\r\nSec-Fetch-Site: cross-site\r\n"
            ),
        ),
        (
            format!("evil.example:{p}"),
            format!("Origin: http://evil.example:{p}\r\nContent-Type: application/json\r\n"),
        ),
    ] {
        let (got, text) = post(p, &host, set, &headers, body);
        assert_eq!(got, 403, "{headers}: {text}");
    }
    let (got, _) = post(p, &own, set, "Content-Type: text/plain\r\n", body);
    assert_eq!(got, 415);
    assert_eq!(ws.read("decks/mini/collection.toml"), mine);
    // A rebound name cannot read it either.
    assert_eq!(get(p, &format!("evil.example:{p}"), set).0, 403);
    // carta's own page still changes it.
    let headers = format!("Origin: http://{own}\r\nContent-Type: application/json\r\n");
    let (got, text) = post(p, &own, set, &headers, body);
    assert_eq!(got, 200, "{text}");
    assert!(!ws.read("decks/mini/collection.toml").contains("a = 1"));
}

#[test]
fn sheets_linked_outside_the_build_are_never_served() {
    let out = outside();
    fs::write(
        out.path().join("index.html"),
        format!("<html><body>{SECRET}</body></html>"),
    )
    .unwrap();
    let ws = workspace();
    let s = serve(&ws, &[]);
    let p = s.port;
    let own = format!("127.0.0.1:{p}");
    let sheets = ws.path().join("build/mini/sheets");
    let (status, page) = get(p, &own, "/g/mini/index.html");
    assert_eq!(status, 200, "the build's own file is served");
    assert!(page.contains("Carta a"), "{page}");
    // A link out from inside the sheets, to a file and to a folder.
    symlink(out.path().join("secret.txt"), sheets.join("leak.txt")).unwrap();
    symlink(out.path(), sheets.join("out")).unwrap();
    symlink("/etc", sheets.join("etc")).unwrap();
    for path in [
        "/g/mini/leak.txt",
        "/g/mini/out/secret.txt",
        "/g/mini/etc/passwd",
    ] {
        let (status, text) = get(p, &own, path);
        assert!(matches!(status, 403 | 404), "{path}: {text}");
        assert!(
            !text.contains(SECRET) && !text.contains("root:"),
            "{path}: {text}"
        );
    }
    // The sheets folder itself a link out (to the secret's folder, to `/`).
    fs::remove_dir_all(&sheets).unwrap();
    for target in [out.path(), std::path::Path::new("/")] {
        let _ = fs::remove_file(&sheets);
        symlink(target, &sheets).unwrap();
        for path in [
            "/g/mini/secret.txt",
            "/g/mini/index.html",
            "/g/mini/",
            "/g/mini/etc/passwd",
        ] {
            let (status, text) = get(p, &own, path);
            assert_ne!(status, 500, "{path}");
            assert!(
                !text.contains(SECRET) && !text.contains("root:"),
                "{path}: {text}"
            );
        }
    }
    // A FIFO named like a sheet is refused at once, not waited on.
    fs::remove_file(&sheets).unwrap();
    fs::create_dir(&sheets).unwrap();
    super::mkfifo(&sheets.join("fifo.css"));
    let start = Instant::now();
    assert_eq!(get(p, &own, "/g/mini/fifo.css").0, 403);
    assert!(start.elapsed() < Duration::from_secs(5));
    assert_eq!(get(p, &format!("evil.example:{p}"), "/g/mini/").0, 403);
}

/// The median of `n` timings of `f`.
fn median(n: usize, mut f: impl FnMut() -> Duration) -> Duration {
    let mut all: Vec<Duration> = (0..n).map(|_| f()).collect();
    all.sort();
    all[n / 2]
}

#[test]
fn an_oversize_content_length_is_refused_at_once() {
    let ws = workspace();
    let s = serve(&ws, &[]);
    let p = s.port;
    let own = format!("127.0.0.1:{p}");
    // The baseline: a plain GET of the games, in the same run.
    let plain = median(15, || {
        let start = Instant::now();
        assert_eq!(get(p, &own, "/api/games").0, 200);
        start.elapsed()
    });
    let took = median(15, || {
        let mut stream = connect(p);
        let start = Instant::now();
        write!(
            stream,
            "POST /api/organize HTTP/1.1\r\nHost: {own}\r\nOrigin: http://{own}\r\nContent-Type: application/json\r\nContent-Length: 99999999999\r\n\r\n"
        )
        .unwrap();
        let mut answer = [0; 512];
        let n = stream.read(&mut answer).unwrap();
        let took = start.elapsed();
        let answer = String::from_utf8_lossy(&answer[..n]);
        assert!(answer.starts_with("HTTP/1.1 413"), "{answer}");
        took
    });
    // The default header timeout is 10 s; the answer comes before any of
    // the body does.
    assert!(took < Duration::from_secs(2), "answered in {took:?}");
    let long = format!("X-Pad: {}\r\n", "x".repeat(32 << 10));
    let (status, _) = ask(
        p,
        &format!("GET /play/ HTTP/1.1\r\nHost: {own}\r\n{long}"),
        "",
    );
    assert_eq!(status, 431, "a head over 16 KiB");
    eprintln!(
        "median of 15: 413 for Content-Length 99999999999 in {took:?}; a plain GET in {plain:?} (x{:.2}); the header timeout is 10 s",
        took.as_secs_f64() / plain.as_secs_f64()
    );
}

#[test]
fn a_body_that_never_finishes_is_answered_408() {
    let ws = workspace();
    let s = serve(&ws, &[("CARTA_SERVER_REQUEST_TIMEOUT_MS", "500")]);
    let p = s.port;
    let own = format!("127.0.0.1:{p}");
    let mut stream = connect(p);
    let start = Instant::now();
    write!(
        stream,
        "POST /api/organize HTTP/1.1\r\nHost: {own}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{{\"decks\": ["
    )
    .unwrap();
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer);
    let took = start.elapsed();
    let answer = String::from_utf8_lossy(&answer);
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(took >= Duration::from_millis(400), "{took:?}");
    assert!(took < Duration::from_secs(5), "{took:?}");
}

/// Whether `stream` was closed by the server (an end of file or a reset).
fn closed(stream: &mut TcpStream) -> bool {
    let mut byte = [0; 1];
    matches!(stream.read(&mut byte), Ok(0) | Err(_))
}

#[test]
fn an_idle_connection_is_closed_after_the_header_timeout() {
    let ws = workspace();
    let s = serve(&ws, &[("CARTA_SERVER_HEADER_TIMEOUT_MS", "500")]);
    let p = s.port;
    // Nothing sent; half a head sent; a kept-alive connection after an answer.
    let mut silent = connect(p);
    let mut partial = connect(p);
    write!(partial, "GET /play/ HTTP/1.1\r\nHost: 127.0.0.1:{p}\r\n").unwrap();
    let mut kept = connect(p);
    write!(
        kept,
        "GET /api/games HTTP/1.1\r\nHost: 127.0.0.1:{p}\r\n\r\n"
    )
    .unwrap();
    let mut answer = [0; 4096];
    let n = kept.read(&mut answer).unwrap();
    assert!(answer[..n].starts_with(b"HTTP/1.1 200"));
    let start = Instant::now();
    for (what, stream) in [("silent", &mut silent), ("partial", &mut partial)] {
        assert!(closed(stream), "{what}");
    }
    let mut rest = Vec::new();
    let _ = kept.read_to_end(&mut rest);
    let took = start.elapsed();
    assert!(
        took >= Duration::from_millis(300),
        "closed too soon: {took:?}"
    );
    assert!(took < Duration::from_secs(5), "closed after {took:?}");
}

#[test]
fn a_flood_of_idle_connections_does_not_keep_carta_from_answering() {
    let ws = workspace();
    let env = [
        ("CARTA_SERVER_HEADER_TIMEOUT_MS", "2000"),
        ("CARTA_SERVER_MAX_CONNECTIONS", "16"),
    ];
    let s = serve(&ws, &env);
    let p = s.port;
    let flood = Instant::now();
    let idle: Vec<TcpStream> = (0..300).map(|_| connect(p)).collect();
    // Past the cap, a connection is closed as soon as it is accepted; the
    // ones within it are held until the header timeout.
    let mut held = 0;
    for mut stream in &idle {
        stream
            .set_read_timeout(Some(Duration::from_millis(20)))
            .unwrap();
        let mut byte = [0; 1];
        if let Err(e) = stream.read(&mut byte) {
            held += usize::from(matches!(
                e.kind(),
                std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
            ));
        }
    }
    assert!((1..=16).contains(&held), "{held} connections held");
    // carta's own request, while the flood is still open: answered once the
    // idle connections have timed out (2 s).
    let asked = Instant::now();
    let request =
        format!("GET /api/games HTTP/1.1\r\nHost: 127.0.0.1:{p}\r\nConnection: close\r\n\r\n");
    let text = loop {
        let mut stream = connect(p);
        let mut answer = Vec::new();
        let _ = stream
            .write_all(request.as_bytes())
            .and_then(|()| stream.read_to_end(&mut answer));
        if !answer.is_empty() {
            break String::from_utf8_lossy(&answer).into_owned();
        }
        assert!(asked.elapsed() < Duration::from_secs(10), "never answered");
        std::thread::sleep(Duration::from_millis(100));
    };
    assert!(
        text.starts_with("HTTP/1.1 200") && text.contains("Mini"),
        "{text}"
    );
    eprintln!(
        "answered {:?} after a flood of 300 idle connections began (header timeout 2 s, cap 16)",
        flood.elapsed()
    );
    drop(idle);
}

#[test]
fn a_server_limit_that_is_not_a_number_stops_the_command_with_exit_2() {
    let ws = workspace();
    for (command, var) in [
        (
            &["serve", "--port", "0"][..],
            "CARTA_SERVER_MAX_CONNECTIONS",
        ),
        (
            &["watch", "--serve", "--port", "0"][..],
            "CARTA_SERVER_HEADER_TIMEOUT_MS",
        ),
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_carta"))
            .args(command)
            .current_dir(ws.path())
            .env(var, "lots")
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let start = Instant::now();
        let code = loop {
            if let Some(status) = child.try_wait().unwrap() {
                break status.code();
            }
            if start.elapsed() > Duration::from_mins(1) {
                let _ = child.kill();
                panic!("{command:?} with {var}=lots kept running");
            }
            std::thread::sleep(Duration::from_millis(50));
        };
        let mut stderr = String::new();
        child
            .stderr
            .take()
            .unwrap()
            .read_to_string(&mut stderr)
            .unwrap();
        assert_eq!(code, Some(2), "{command:?}: {stderr}");
        assert!(stderr.contains(var) && stderr.contains("lots"), "{stderr}");
    }
}

#[test]
fn a_pasted_list_of_80000_lines_is_read_in_seconds_and_others_are_answered_meanwhile() {
    let tmp = tempfile::tempdir().unwrap();
    crate::harness::run_in(tmp.path(), ["init", "live", "--name", "Live"]).succeeds();
    let s = serve_at(&tmp.path().join("live"), &[]);
    let p = s.port;
    let own = format!("127.0.0.1:{p}");
    // 80,000 lines of an unknown card: a 480 KB body, under the 1 MiB
    // limit, and 80,000 problems, each placed at its line and column.
    let list = format!("Spells:\n{}", "1 zz\n".repeat(80_000));
    let body = serde_json::json!({ "text": list }).to_string();
    let path = "/api/games/live/list/parse";
    let json = "Content-Type: application/json\r\n";
    // Two at once: each would hold one of the executor's two threads if
    // it were read there.
    let started = Instant::now();
    let lists: Vec<_> = (0..2)
        .map(|_| {
            let (own, body) = (own.clone(), body.clone());
            std::thread::spawn(move || {
                let (status, text) = post(p, &own, path, json, &body);
                (status, text, started.elapsed())
            })
        })
        .collect();
    std::thread::sleep(Duration::from_millis(200));
    let asked = Instant::now();
    let (status, _) = get(p, &own, "/api/games");
    let waited = asked.elapsed();
    assert_eq!(status, 200);
    for list in lists {
        let (status, text, took) = list.join().unwrap();
        assert_eq!(status, 200, "{}", &text[..text.len().min(500)]);
        assert_eq!(
            text.matches("list::unknown-card").count(),
            80_000,
            "{}",
            &text[..text.len().min(800)]
        );
        assert!(text.contains("\"line\":80001"), "the last line is placed");
        // Scanning from the start for each problem took minutes here.
        assert!(took < Duration::from_secs(10), "the lists took {took:?}");
    }
    assert!(
        waited < Duration::from_secs(2),
        "a plain request waited {waited:?} behind the lists"
    );
}
