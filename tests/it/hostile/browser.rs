//! The export browser is sealed: a template cannot make Chromium read a
//! file outside the workspace, reach the network, run its own scripts,
//! navigate away or hang an export. Every case runs the real Chromium
//! (a missing browser fails them, as in `export.rs`) and reads the PDF
//! back with poppler's `pdftotext`.

use std::net::{SocketAddr, TcpListener};
use std::process::Command;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use carta::emit::cards::Image;

use super::{SECRET, json, json_env, no_secret, outside, with_code};
use crate::harness::{Run, Workspace};
use crate::sheets::{card, mini};

/// The mini game whose card face is `{{name}}` then `markup`.
fn templated(cards: &str, markup: &str) -> Workspace {
    // The tests never skip: without a browser this panics with the fix.
    crate::browser::chromium();
    let ws = mini(cards);
    ws.write(
        "templates/mini/card.hbs",
        format!("<p>{{{{name}}}}</p>\n{markup}\n"),
    );
    ws
}

/// The text of the exported PDF of the mini game.
fn pdf_text(ws: &Workspace) -> String {
    let out = Command::new("pdftotext")
        .arg(ws.path().join("build/mini/pdf/mini.pdf"))
        .arg("-")
        .output()
        .expect("pdftotext runs (poppler-utils)");
    assert!(out.status.success(), "{out:?}");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Exports `format` with `env`, returning the run and its wall time.
fn timed(ws: &Workspace, format: &str, env: &[(&str, &str)]) -> (Run, Duration) {
    let started = Instant::now();
    let run = json_env(ws, &["export", format], env);
    (run, started.elapsed())
}

#[test]
fn frames_objects_embeds_and_navigations_to_file_urls_never_reach_the_pdf() {
    let out = outside();
    let secret = format!("file://{}", out.path().join("secret.txt").display());
    for markup in [
        format!("<iframe src=\"{secret}\" width=\"300\" height=\"80\"></iframe>"),
        format!(
            "<object data=\"{secret}\" type=\"text/plain\" width=\"300\" height=\"80\"></object>"
        ),
        format!("<embed src=\"{secret}\" type=\"text/plain\" width=\"300\" height=\"80\">"),
        format!("<script>location.href = \"{secret}\";</script>"),
        format!("<meta http-equiv=\"refresh\" content=\"0;url={secret}\">"),
        format!("<link rel=\"stylesheet\" href=\"{secret}\"><img src=\"{secret}\">"),
        format!(
            "<iframe width=\"300\" height=\"80\" srcdoc=\"<iframe src='{secret}'></iframe>\
             <meta http-equiv=refresh content='0;url={secret}'>\"></iframe>"
        ),
    ] {
        let ws = templated(&card("a", ""), &markup);
        let run = json(&ws, &["export", "pdf"]);
        assert_eq!(run.code, Some(0), "{markup}: {}{}", run.stdout, run.stderr);
        no_secret(&run);
        let text = pdf_text(&ws);
        assert!(
            !text.contains(SECRET),
            "{markup} put the outside file into the PDF"
        );
        assert!(
            text.contains("Carta a"),
            "{markup}: the page itself is printed"
        );
    }
}

/// A listener on 127.0.0.1 that counts the connections made to it.
struct Listener {
    addr: SocketAddr,
    seen: Arc<AtomicUsize>,
    stop: Arc<AtomicBool>,
}

impl Listener {
    fn start() -> Listener {
        let socket = TcpListener::bind("127.0.0.1:0").unwrap();
        socket.set_nonblocking(true).unwrap();
        let addr = socket.local_addr().unwrap();
        let seen = Arc::new(AtomicUsize::new(0));
        let stop = Arc::new(AtomicBool::new(false));
        let (count, done) = (Arc::clone(&seen), Arc::clone(&stop));
        std::thread::spawn(move || {
            while !done.load(Ordering::SeqCst) {
                match socket.accept() {
                    Ok(_) => {
                        count.fetch_add(1, Ordering::SeqCst);
                    }
                    Err(_) => std::thread::sleep(Duration::from_millis(5)),
                }
            }
        });
        Listener { addr, seen, stop }
    }

    fn seen(&self) -> usize {
        self.seen.load(Ordering::SeqCst)
    }
}

impl Drop for Listener {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
    }
}

#[test]
fn no_request_of_a_template_reaches_the_network() {
    let listener = Listener::start();
    let at = format!("http://{}", listener.addr);
    let markup = format!(
        r#"<img src="{at}/img.png">
<script src="{at}/script.js"></script>
<script>fetch("{at}/fetch"); new Image().src = "{at}/js-img";</script>
<style>@font-face {{ font-family: leak; src: url({at}/font.woff2); }}
.leak {{ font-family: leak; background: url({at}/css.png); }}
@import url({at}/import.css);</style>
<p class="leak">leak</p>
<link rel="stylesheet" href="{at}/style.css">
<link rel="preconnect" href="{at}"><link rel="prefetch" href="{at}/prefetch">
<link rel="icon" href="{at}/favicon.ico">
<svg width="10" height="10"><image href="{at}/svg.png" width="10" height="10"/></svg>
<video poster="{at}/poster.png" src="{at}/video.mp4"></video>
<iframe src="{at}/frame"></iframe><object data="{at}/object"></object>
<img src="http://localhost:{port}/by-name.png">"#,
        port = listener.addr.port()
    );
    let ws = templated(&card("a", ""), &markup);
    for format in ["pdf", "png"] {
        let run = json(&ws, &["export", format]);
        assert_eq!(run.code, Some(0), "{format}: {}{}", run.stdout, run.stderr);
    }
    assert!(pdf_text(&ws).contains("Carta a"));
    assert_eq!(listener.seen(), 0, "the export browser reached the network");
    // The listener does count: the zero above is the browser's.
    std::net::TcpStream::connect(listener.addr).unwrap();
    let deadline = Instant::now() + Duration::from_secs(5);
    while listener.seen() == 0 && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(10));
    }
    assert_eq!(listener.seen(), 1);
}

#[test]
fn template_scripts_do_not_run_and_carta_s_fit_script_does() {
    let markup = "<script>document.body.insertAdjacentText('beforeend', 'JS' + '-RAN');</script>\n\
         <img src=\"nowhere.png\" onerror=\"document.body.insertAdjacentText('beforeend', 'JS' + '-RAN')\">\n\
         <a href=\"javascript:void(0)\">link</a>\n\
         <script>for (;;) {}</script>";
    let ws = templated(&card("a", ""), markup);
    // An endless loop that ran would meet this limit and fail the export.
    let (run, _) = timed(&ws, "pdf", &[("CARTA_EXPORT_SECONDS", "20")]);
    assert_eq!(run.code, Some(0), "{}{}", run.stdout, run.stderr);
    let text = pdf_text(&ws);
    assert!(text.contains("Carta a"), "{text}");
    assert!(!text.contains("JS-RAN"), "a template's script ran");
    // The default face shrinks a long text to fit its box: every word of
    // it is printed only when carta's own script ran (without it, two
    // thirds are cut off).
    let long = "Longo ".repeat(300);
    let ws = mini(
        &[
            card("a", "text = \"Curto\""),
            card("b", &format!("text = \"{long}\"")),
        ]
        .concat(),
    );
    let run = json(&ws, &["export", "pdf"]);
    assert_eq!(run.code, Some(0), "{}{}", run.stdout, run.stderr);
    assert_eq!(pdf_text(&ws).matches("Longo").count(), 300);
}

#[test]
fn art_from_the_workspace_is_drawn_in_the_sealed_browser() {
    let red = Image {
        width: 16,
        height: 16,
        rgba: [255, 0, 0, 255].repeat(256),
    };
    let ws = mini(&card("a", "art = \"art/a.png\""));
    ws.write("cards/mini/art/a.png", red.encode(96));
    crate::browser::chromium();
    let run = json(&ws, &["export", "png"]);
    assert_eq!(run.code, Some(0), "{}{}", run.stdout, run.stderr);
    let face = Image::read(&ws.path().join("build/mini/png/mini/a.png")).unwrap();
    let reds = face
        .rgba
        .chunks(4)
        .filter(|p| p[0] > 200 && p[1] < 60 && p[2] < 60)
        .count();
    // 16 CSS pixels at 300 dpi: 50 × 50 device pixels.
    assert!(reds >= 2_000, "the art is drawn ({reds} red pixels)");
}

#[test]
fn a_page_that_reloads_or_navigates_is_stopped_at_once_and_named() {
    let listener = Listener::start();
    let away = format!(
        "<meta http-equiv=\"refresh\" content=\"0;url=http://{}/x\">",
        listener.addr
    );
    let cases = [
        ("<meta http-equiv=\"refresh\" content=\"0\">", "png", "card"),
        (away.as_str(), "pdf", "mini"),
    ];
    for (markup, format, named) in cases {
        let ws = templated(&card("card", ""), markup);
        let (run, took) = timed(&ws, format, &[]);
        assert_eq!(run.code, Some(2), "{markup}: {}{}", run.stdout, run.stderr);
        let d = &with_code(&run, "export::navigation")[0];
        let message = d["message"].as_str().unwrap();
        assert!(message.contains(&format!("`{named}`")), "{message}");
        assert!(message.contains("refresh"), "{message}");
        assert!(took < Duration::from_secs(30), "stopped after {took:?}");
        assert!(!ws.path().join("build/mini").exists(), "nothing is written");
    }
    assert_eq!(listener.seen(), 0);
}

#[test]
fn a_page_slower_than_its_time_limit_is_stopped_with_a_clear_error() {
    // Thirty octaves of turbulence on every face: seconds of drawing per
    // card even on a fast machine.
    let heavy = "<svg style=\"position:absolute;left:0;top:0;width:100%;height:100%\">\
        <filter id=\"t\"><feTurbulence baseFrequency=\"0.01\" numOctaves=\"30\"/>\
        <feGaussianBlur stdDeviation=\"40\"/></filter>\
        <rect width=\"100%\" height=\"100%\" filter=\"url(#t)\"/></svg>";
    let cards: String = (0..6).map(|i| card(&format!("c{i}"), "")).collect();
    let ws = templated(&cards, heavy);
    let (run, took) = timed(&ws, "png", &[("CARTA_EXPORT_SECONDS", "2")]);
    assert_eq!(run.code, Some(2), "{}{}", run.stdout, run.stderr);
    let d = &with_code(&run, "export::time-limit")[0];
    let message = d["message"].as_str().unwrap();
    assert!(
        message.contains("`c0`") && message.contains("`c5`"),
        "{message}"
    );
    assert!(
        message.contains("2 s") && message.contains("CARTA_EXPORT_SECONDS"),
        "{message}"
    );
    assert!(took < Duration::from_secs(20), "stopped after {took:?}");
    assert!(!ws.path().join("build/mini").exists(), "nothing is written");
    let bad = json_env(&ws, &["export", "png"], &[("CARTA_EXPORT_SECONDS", "0")]);
    assert_eq!(bad.code, Some(2));
    with_code(&bad, "load::limit");
}

#[test]
fn an_export_leaves_nothing_in_the_users_home() {
    crate::browser::chromium();
    let tmp = tempfile::tempdir().unwrap();
    crate::harness::run_in(tmp.path(), ["init", "live", "--name", "Live"]).succeeds();
    let home = tmp.path().join("home");
    std::fs::create_dir(&home).unwrap();
    let home_var = home.display().to_string();
    crate::harness::run_with(
        &tmp.path().join("live"),
        ["export", "png", "--out", "../png"],
        &[("HOME", home_var.as_str())],
    )
    .succeeds();
    assert!(tmp.path().join("png/live/png").is_dir(), "the export ran");
    let left: Vec<_> = walkdir(&home);
    assert!(left.is_empty(), "the export browser wrote {left:?}");
}

/// Every path under `dir`.
fn walkdir(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.extend(walkdir(&path));
        }
        out.push(path);
    }
    out
}

/// What marked the page at `url` as attacked (`data-pwned`), once `shown`
/// is on it (so carta's own scripts ran).
async fn pwned(client: &fantoccini::Client, url: &str, shown: &str) -> Option<String> {
    client.goto(url).await.unwrap();
    crate::watch::wait_for(client, std::time::Duration::from_secs(30), shown, |t| {
        t.contains(shown)
    })
    .await;
    // Time for a handler or a request to have its effect.
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    client
        .execute("return document.body.getAttribute('data-pwned')", vec![])
        .await
        .unwrap()
        .as_str()
        .map(str::to_owned)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_templates_script_runs_neither_in_the_preview_nor_in_the_builder() {
    let tmp = tempfile::tempdir().unwrap();
    crate::harness::run_in(tmp.path(), ["init", "live", "--name", "Live"]).succeeds();
    let root = tmp.path().join("live");
    // A face that, were its script or handler run, would mark the page and
    // save a deck through the server's API from the server's own origin.
    let attack = r#"<script>document.body.setAttribute('data-pwned', 'script');
fetch('/api/games/live/save', {method: 'POST', headers: {'Content-Type': 'application/json'},
  body: JSON.stringify({deck: {name: 'Pwned', zones: {main: {fireball: 1}}}, file: 'pwned'})});</script>
<img src="data:," onerror="document.body.setAttribute('data-pwned', 'handler')">
<svg onload="document.body.setAttribute('data-pwned', 'svg')"></svg>"#;
    let template = root.join("templates/live/spell.hbs");
    let face = std::fs::read_to_string(&template).unwrap();
    std::fs::write(&template, format!("{face}\n{attack}\n")).unwrap();
    let (_driver, client) = crate::watch::browser(&tmp.path().join("profile")).await;

    // The preview of `watch --serve`: the page is carta's, the sheets the
    // stranger's.
    let (watch, url) = crate::watch::start_watch(&root);
    let found = pwned(&client, &format!("{url}g/live/"), "Ember Shield").await;
    assert_eq!(found, None, "a template's script ran in the preview");
    drop(watch);

    // The builder of `serve`, where faces are put in as HTML by carta's
    // scripts (the faces shown say that those ran).
    let (_serve, url) = crate::watch::start_server(&root, &["serve", "--port", "0"]);
    let found = pwned(&client, &format!("{url}live/cards"), "Ember Shield").await;
    assert_eq!(found, None, "a template's script ran in the builder");
    assert!(
        !root.join("decks/live/pwned.toml").exists(),
        "a template saved a deck"
    );
    client.close().await.unwrap();
}
