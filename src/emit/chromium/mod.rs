//! Headless Chromium, the renderer behind `carta export`: the same HTML the
//! sheets are, printed to PDF or photographed to PNG by the browser a
//! designer checks them in. A run starts one browser, with a throwaway
//! profile, on its first page ([`cdp`]) — one per device scale its images
//! are drawn at, as Chromium sets that for a whole browser; each page is a
//! tab in a context of its own; pages run in parallel, a bounded number at
//! a time, with a progress bar of the cards done when stderr is a terminal.
//!
//! The browser is sealed (docs/security.md, "The export browser"): it
//! loads the page from an origin of this process ([`origin`]), which serves
//! only the export's own files and is the browser's proxy for every other
//! address; a Content-Security-Policy keeps the page to that origin and to
//! carta's own script; a page that reloads or navigates is stopped at once,
//! and one that does not finish within its time limit is stopped then.

mod cdp;
mod origin;

use std::io::{IsTerminal, Write as _};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use cdp::{Browser, CdpError, Tab};
use origin::{Origin, quoted};
use serde_json::{Value, json};

use super::sheets::overflow::Overflow;
use super::sheets::placement::Placement;
use super::shots::Shots;

/// The environment variable naming the browser binary.
pub const CHROMIUM_ENV: &str = "CARTA_CHROMIUM";

/// How many card boxes one time limit covers: a job drawing more (a PDF
/// of a large game) gets one more limit for each such share.
pub const CARDS_PER_LIMIT: usize = 500;

/// Why the browser could not render.
#[derive(Debug, thiserror::Error)]
pub enum ChromiumError {
    /// No browser to run.
    #[error(
        "no Chromium to render with: install Debian's `chromium` package (`apt-get install chromium`), or set {CHROMIUM_ENV} to a Chromium or Chrome binary"
    )]
    Missing,
    /// The browser could not be started or failed on a page.
    #[error("Chromium failed on {about}: {message}")]
    Failed {
        /// What the page shows (`the sheets of mini`, `cards a … c`).
        about: String,
        /// What went wrong (its stderr's last lines, or the I/O error).
        message: String,
    },
    /// The page did not render within its time limit.
    #[error(
        "the export of {about} was stopped: Chromium gave no result within {seconds} s (a template that never finishes loading, or a page too large for the limit: {var} raises it)",
        var = crate::limits::EXPORT_SECONDS_VAR
    )]
    TimedOut {
        /// What the page shows.
        about: String,
        /// The time it was given.
        seconds: u64,
    },
    /// The page tried to load another document: a reload or a navigation.
    #[error(
        "the export of {about} was stopped: its page tried to load `{url}` in place of itself (a `<meta http-equiv=refresh>` or a followed link in a template?); an export shows only its own page"
    )]
    Navigated {
        /// What the page shows.
        about: String,
        /// The document it asked for.
        url: String,
    },
}

impl ChromiumError {
    /// The stable code of the error in JSON output.
    pub fn code(&self) -> &'static str {
        match self {
            ChromiumError::Missing => "export::no-browser",
            ChromiumError::Failed { .. } => "export::browser-failed",
            ChromiumError::TimedOut { .. } => "export::time-limit",
            ChromiumError::Navigated { .. } => "export::navigation",
        }
    }
}

/// The files of an export that its pages may load: the folder they are in
/// and their paths in it (`/`-separated, such as `img/<hash>.png`).
#[derive(Debug, Clone)]
pub struct Site {
    /// The folder.
    pub root: PathBuf,
    /// The files any page of the export may load, relative to `root`.
    pub files: Vec<String>,
}

/// One page of an export to render.
#[derive(Debug, Clone)]
pub struct Job {
    /// The HTML file, relative to the site's root.
    pub page: String,
    /// The file to write (a PDF or a PNG).
    pub out: PathBuf,
    /// What the page shows, for errors: `the sheets of mini`, `cards a … c`.
    pub about: String,
    /// How many card boxes it draws (its time limit grows with them).
    pub cards: usize,
    /// What to make of it.
    pub shot: Shot,
}

/// What to make of a page.
#[derive(Debug, Clone, Copy)]
pub enum Shot {
    /// Print it to PDF (page size from the page's `@page`).
    Pdf,
    /// Only load it, for what its fit script measures (the job's `out`
    /// is not written).
    Measure,
    /// Photograph the top-left `width` × `height` CSS pixels at `scale`
    /// device pixels per CSS pixel into a PNG.
    Png {
        /// The window's width, in CSS pixels.
        width: u32,
        /// The window's height, in CSS pixels.
        height: u32,
        /// Device pixels per CSS pixel (dpi / 96).
        scale: f64,
    },
}

/// The run's browsers, by the bits of their device scale.
type Browsers = Vec<(u64, Arc<Browser>)>;

/// A headless Chromium binary and the time a page may take; its clones
/// share what their pages measured ([`Chromium::take_measured`]).
#[derive(Debug, Clone)]
pub struct Chromium {
    binary: PathBuf,
    limit: Duration,
    measured: Arc<Mutex<Measured>>,
    /// The run's browsers, each started when a page first needed it: one
    /// per device scale, which Chromium sets for a whole browser (and an
    /// emulated one snaps boxes to whole CSS pixels).
    browsers: Arc<Mutex<Browsers>>,
    /// The cells kept from earlier exports, when the run uses them.
    shots: Option<Arc<Shots>>,
    /// How many cells the run drew, and how many it reused.
    counts: Arc<Mutex<(usize, usize)>>,
}

/// What the fit script of the pages rendered so far reported: the card
/// boxes whose text does not fit, and how many pages reported at all.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Measured {
    /// Pages whose fit script reported (an empty report included).
    pub pages: usize,
    /// Pages that rendered without reporting (a template that broke the
    /// script, a page without one).
    pub silent: usize,
    /// The boxes, page after page.
    pub overflows: Vec<Overflow>,
    /// What pages marked for a print shop's preflight placed where.
    pub placements: Vec<Placement>,
}

impl Chromium {
    /// `$CARTA_CHROMIUM`, or `chromium` / `chromium-browser` /
    /// `google-chrome` on the `PATH`, with the default time limit.
    ///
    /// # Errors
    /// [`ChromiumError::Missing`] when there is none.
    pub fn find() -> Result<Chromium, ChromiumError> {
        let limit = Duration::from_secs(crate::limits::Limits::default().export_seconds);
        if let Some(p) = std::env::var_os(CHROMIUM_ENV) {
            let binary = PathBuf::from(p);
            return if binary.is_file() {
                Ok(Chromium::new(binary, limit))
            } else {
                Err(ChromiumError::Missing)
            };
        }
        let path = std::env::var_os("PATH").unwrap_or_default();
        for name in ["chromium", "chromium-browser", "google-chrome"] {
            for dir in std::env::split_paths(&path) {
                let binary = dir.join(name);
                if binary.is_file() {
                    return Ok(Chromium::new(binary, limit));
                }
            }
        }
        Err(ChromiumError::Missing)
    }

    fn new(binary: PathBuf, limit: Duration) -> Chromium {
        Chromium {
            binary,
            limit,
            measured: Arc::default(),
            browsers: Arc::default(),
            shots: None,
            counts: Arc::default(),
        }
    }

    /// The same browser, reusing the cells kept in the workspace at `root`
    /// by earlier exports with this browser ([`super::shots`]).
    #[must_use]
    pub fn with_shots(self, root: &Path) -> Chromium {
        Chromium {
            shots: Shots::open(root, &self.binary).map(Arc::new),
            ..self
        }
    }

    /// The kept cells, when the run uses them.
    pub fn shots(&self) -> Option<&Shots> {
        self.shots.as_deref()
    }

    /// Counts `drawn` cells drawn and `reused` reused.
    pub fn count(&self, drawn: usize, reused: usize) {
        if let Ok(mut c) = self.counts.lock() {
            *c = (c.0 + drawn, c.1 + reused);
        }
    }

    /// How many cells the run drew and reused so far.
    pub fn counts(&self) -> (usize, usize) {
        self.counts.lock().map_or((0, 0), |c| *c)
    }

    /// What the pages rendered since the last [`Chromium::take_measured`]
    /// measured, kept.
    pub fn peek_measured(&self) -> Measured {
        self.measured.lock().map(|m| m.clone()).unwrap_or_default()
    }

    /// Adds boxes measured earlier (on cells drawn by an earlier export).
    pub fn add_measured(&self, overflows: impl IntoIterator<Item = Overflow>) {
        if let Ok(mut m) = self.measured.lock() {
            m.overflows.extend(overflows);
        }
    }

    /// What the pages rendered since the last call measured (then
    /// forgotten).
    pub fn take_measured(&self) -> Measured {
        self.measured
            .lock()
            .map(|mut m| std::mem::take(&mut *m))
            .unwrap_or_default()
    }

    /// The same browser, giving each page `seconds` (per
    /// [`CARDS_PER_LIMIT`] card boxes it draws) before it is stopped.
    #[must_use]
    pub fn with_limit(self, seconds: u64) -> Chromium {
        Chromium {
            limit: Duration::from_secs(seconds),
            ..self
        }
    }

    /// Runs `jobs` over the files of `site`, at most `parallel` pages at a
    /// time in the run's browser (started on first use), showing
    /// progress as `what` on a terminal.
    ///
    /// # Errors
    /// The first job that failed.
    pub fn run_all(
        &self,
        site: &Site,
        jobs: &[Job],
        parallel: usize,
        what: &str,
    ) -> Result<(), ChromiumError> {
        let bar = progress(jobs.iter().map(|j| j.cards).sum(), what);
        let next = Mutex::new(0usize);
        let failure: Mutex<Option<ChromiumError>> = Mutex::new(None);
        std::thread::scope(|s| {
            for _ in 0..parallel.clamp(1, jobs.len().max(1)) {
                s.spawn(|| {
                    loop {
                        let i = {
                            let mut n = next.lock().expect("no worker panics holding it");
                            let i = *n;
                            *n += 1;
                            i
                        };
                        let stop = failure
                            .lock()
                            .expect("no worker panics holding it")
                            .is_some();
                        let Some(job) = jobs.get(i).filter(|_| !stop) else {
                            break;
                        };
                        let done = self
                            .browser(job)
                            .and_then(|browser| self.run(&browser, site, job));
                        if let Err(e) = done {
                            failure
                                .lock()
                                .expect("no worker panics holding it")
                                .get_or_insert(e);
                        }
                        bar.inc(job.cards as u64);
                    }
                });
            }
        });
        bar.finish_and_clear();
        match failure.into_inner().expect("no worker panicked") {
            Some(e) => {
                // A page stopped mid-way may have left its renderer busy:
                // the next run starts afresh.
                self.forget_browsers();
                Err(e)
            }
            None => Ok(()),
        }
    }

    /// The run's browser for `job`'s device scale, started now if there is
    /// none or it has gone.
    fn browser(&self, job: &Job) -> Result<Arc<Browser>, ChromiumError> {
        let scale = match job.shot {
            Shot::Png { scale, .. } => scale,
            Shot::Pdf | Shot::Measure => 1.0,
        };
        let mut browsers = self
            .browsers
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        browsers.retain(|(_, b)| b.alive());
        if let Some((_, browser)) = browsers.iter().find(|(s, _)| *s == scale.to_bits()) {
            return Ok(Arc::clone(browser));
        }
        let mut args = flags();
        args.push(format!("--force-device-scale-factor={scale}"));
        let browser = Browser::start(&self.binary, &args).map_err(|e| ChromiumError::Failed {
            about: job.about.clone(),
            message: format!("cannot start `{}`: {e}", self.binary.display()),
        })?;
        let browser = Arc::new(browser);
        browsers.push((scale.to_bits(), Arc::clone(&browser)));
        Ok(browser)
    }

    /// Stops the run's browsers once no page uses them.
    fn forget_browsers(&self) {
        if let Ok(mut browsers) = self.browsers.lock() {
            browsers.clear();
        }
    }

    /// The time `job` may take.
    fn limit_of(&self, job: &Job) -> Duration {
        let shares = u32::try_from(job.cards.div_ceil(CARDS_PER_LIMIT).max(1)).unwrap_or(u32::MAX);
        self.limit.saturating_mul(shares)
    }

    /// Runs one job in a tab of its own, its page served by its own origin.
    fn run(&self, browser: &Browser, site: &Site, job: &Job) -> Result<(), ChromiumError> {
        let failed = |message: String| ChromiumError::Failed {
            about: job.about.clone(),
            message,
        };
        let origin =
            Origin::start(&site.root, &job.page, &site.files).map_err(|e| failed(e.to_string()))?;
        let limit = self.limit_of(job);
        let deadline = Instant::now() + limit;
        let timed_out = || ChromiumError::TimedOut {
            about: job.about.clone(),
            seconds: limit.as_secs(),
        };
        let cdp = |e: CdpError| match e {
            CdpError::TimedOut => timed_out(),
            CdpError::Closed => failed(format!("{e}: {}", browser.log_tail())),
            CdpError::Protocol(_) => failed(e.to_string()),
        };
        let window = match job.shot {
            Shot::Png { width, height, .. } => Some((width, height)),
            Shot::Pdf | Shot::Measure => None,
        };
        let tab = browser
            .open(&origin.base(), window, deadline)
            .map_err(cdp)?;
        let opened = tab
            .call(
                "Page.navigate",
                json!({ "url": origin.page_url() }),
                deadline,
            )
            .map_err(cdp)?;
        if let Some(error) = opened.get("errorText").and_then(Value::as_str) {
            return Err(failed(format!("the page did not load: {error}")));
        }
        let frame = opened.get("frameId").cloned().unwrap_or_default();
        // Until the page has loaded: its fit script has reported by then
        // (synchronously, in its load handler).
        loop {
            if let Some(url) = origin.navigation() {
                return Err(navigated(job, url));
            }
            if Instant::now() > deadline {
                return Err(timed_out());
            }
            match tab.event(Duration::from_millis(20)).map_err(cdp)? {
                Some(e) if e.method == "Page.loadEventFired" => break,
                Some(e) => {
                    if let Some(url) = leaves(&e, &frame) {
                        return Err(navigated(job, url));
                    }
                }
                None => {}
            }
        }
        let shot = shoot(&tab, job, deadline, cdp);
        // A page that left while it was printed or photographed (a
        // refresh of no delay fires right after the load) is named as
        // such, whatever became of the shot.
        if let Some(url) = leaving(&tab, &frame, &origin, Duration::from_millis(10)).map_err(cdp)? {
            return Err(navigated(job, url));
        }
        shot?;
        drop(tab);
        self.keep_measured(&origin);
        Ok(())
    }

    /// Keeps what the page of `origin` reported (or that it did not).
    fn keep_measured(&self, origin: &Origin) {
        if let Ok(mut measured) = self.measured.lock() {
            match origin.overflows() {
                Some(found) => {
                    measured.pages += 1;
                    measured.overflows.extend(found);
                }
                None => measured.silent += 1,
            }
            measured.placements.extend(origin.placements());
        }
    }
}

/// Prints or photographs the loaded page of `tab` into `job.out`.
fn shoot(
    tab: &Tab<'_>,
    job: &Job,
    deadline: Instant,
    cdp: impl Fn(CdpError) -> ChromiumError,
) -> Result<(), ChromiumError> {
    let io = |e: std::io::Error| ChromiumError::Failed {
        about: job.about.clone(),
        message: format!("cannot write {}: {e}", job.out.display()),
    };
    match job.shot {
        Shot::Measure => {}
        Shot::Pdf => {
            let printed = tab
                .call(
                    "Page.printToPDF",
                    json!({
                        "printBackground": true,
                        "preferCSSPageSize": true,
                        "displayHeaderFooter": false,
                        "transferMode": "ReturnAsStream",
                    }),
                    deadline,
                )
                .map_err(&cdp)?;
            let stream = printed.get("stream").cloned().unwrap_or_default();
            let file = std::fs::File::create(&job.out).map_err(io)?;
            let mut file = std::io::BufWriter::new(file);
            loop {
                let chunk = tab
                    .call(
                        "IO.read",
                        json!({ "handle": stream, "size": 1 << 20 }),
                        deadline,
                    )
                    .map_err(&cdp)?;
                file.write_all(&payload(&chunk, "data").map_err(|m| cdp(CdpError::Protocol(m)))?)
                    .map_err(io)?;
                if chunk.get("eof").and_then(Value::as_bool) != Some(false) {
                    break;
                }
            }
            file.flush().map_err(io)?;
        }
        Shot::Png { .. } => {
            // The load event does not wait for images to be decoded or for
            // a frame that shows them: on a busy machine the photograph
            // would miss what the next frame draws.
            tab.call(
                "Runtime.evaluate",
                json!({ "expression": SETTLED, "awaitPromise": true }),
                deadline,
            )
            .map_err(&cdp)?;
            let shot = tab
                .call(
                    "Page.captureScreenshot",
                    // Chromium's fastest PNG: the image is decoded and cut here.
                    json!({ "format": "png", "fromSurface": true, "optimizeForSpeed": true }),
                    deadline,
                )
                .map_err(&cdp)?;
            let png = payload(&shot, "data").map_err(|m| cdp(CdpError::Protocol(m)))?;
            std::fs::write(&job.out, png).map_err(io)?;
        }
    }
    Ok(())
}

/// The document the page of `tab` (its main frame `frame`) asked for in
/// its own place, if it did: by a request to its origin or by an event of
/// the browser, waiting `wait` for events.
fn leaving(
    tab: &Tab<'_>,
    frame: &Value,
    origin: &Origin,
    wait: Duration,
) -> Result<Option<String>, CdpError> {
    let mut wait = wait;
    while let Some(event) = tab.event(wait)? {
        wait = Duration::ZERO;
        if let Some(url) = leaves(&event, frame) {
            return Ok(Some(url));
        }
    }
    Ok(origin.navigation())
}

/// The document `event` says the main frame `frame` asked for in its own
/// place, if it does.
fn leaves(event: &cdp::Event, frame: &Value) -> Option<String> {
    let main = event.params.get("frameId") == Some(frame);
    (main && event.method == "Page.frameRequestedNavigation").then(|| {
        quoted(
            event
                .params
                .get("url")
                .and_then(Value::as_str)
                .unwrap_or(""),
        )
    })
}

/// The base64 field `key` of a result, decoded.
fn payload(result: &Value, key: &str) -> Result<Vec<u8>, String> {
    use base64::Engine as _;
    let data = result.get(key).and_then(Value::as_str).unwrap_or("");
    match result.get("base64Encoded").and_then(Value::as_bool) {
        Some(false) => Ok(data.as_bytes().to_vec()),
        _ => base64::engine::general_purpose::STANDARD
            .decode(data)
            .map_err(|e| format!("the browser sent damaged data: {e}")),
    }
}

/// The browser's command line besides its pipe and profile.
fn flags() -> Vec<String> {
    [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--hide-scrollbars",
        // Every tab is drawn as if in front: a page in the background
        // would wait for a frame that never comes.
        "--disable-backgrounding-occluded-windows",
        "--disable-renderer-backgrounding",
        "--disable-background-timer-throttling",
    ]
    .iter()
    .chain(SEALED.iter())
    .map(|f| (*f).to_owned())
    .collect()
}

/// A promise, evaluated by carta in the page (not the page's own script),
/// kept until every image is decoded, every font loaded and two frames
/// drawn since.
const SETTLED: &str = "Promise.all(Array.from(document.images, i => i.decode().catch(() => null))).then(() => document.fonts.ready).then(() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r))))";

/// The flags that keep the browser off the network besides the proxy:
/// no name resolves, WebRTC may not send UDP around the proxy, no pop-up
/// opens, no ping or report is sent.
const SEALED: [&str; 6] = [
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
    "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
    "--block-new-web-contents",
    "--no-pings",
    "--disable-domain-reliability",
    "--disable-breakpad",
];

fn navigated(job: &Job, url: String) -> ChromiumError {
    ChromiumError::Navigated {
        about: job.about.clone(),
        url,
    }
}

/// The `file://` URL of an absolute path.
pub fn file_url(path: &Path) -> String {
    let mut url = String::from("file://");
    for b in path.to_string_lossy().bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'/' | b'-' | b'_' | b'.' | b'~' => {
                url.push(b as char);
            }
            _ => url.push_str(&format!("%{b:02X}")),
        }
    }
    url
}

/// A progress bar on stderr when it is a terminal, else a hidden one.
fn progress(len: usize, what: &str) -> indicatif::ProgressBar {
    if !std::io::stderr().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(len as u64);
    if let Ok(style) = indicatif::ProgressStyle::with_template(
        "{msg} [{bar:30}] {pos}/{len} cards ({per_sec}, {eta} left)",
    ) {
        bar.set_style(style.progress_chars("=> "));
    }
    bar.set_message(what.to_owned());
    bar
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_page_s_time_limit_grows_with_every_500_card_boxes_it_draws() {
        let chromium =
            Chromium::new(PathBuf::from("chromium"), Duration::from_mins(1)).with_limit(7);
        let job = |cards| Job {
            page: "index.html".into(),
            out: PathBuf::from("out.pdf"),
            about: "the sheets of `mini`".into(),
            cards,
            shot: Shot::Pdf,
        };
        assert_eq!(chromium.limit_of(&job(0)), Duration::from_secs(7));
        assert_eq!(chromium.limit_of(&job(70)), Duration::from_secs(7));
        assert_eq!(chromium.limit_of(&job(500)), Duration::from_secs(7));
        assert_eq!(chromium.limit_of(&job(1_001)), Duration::from_secs(21));
    }

    #[test]
    fn file_urls_escape_what_a_url_cannot_hold() {
        assert_eq!(
            file_url(Path::new("/srv/jogos/a b/Fúria#1.png")),
            "file:///srv/jogos/a%20b/F%C3%BAria%231.png"
        );
    }
}
