//! Headless Chromium, the renderer behind `carta export`: the same HTML the
//! sheets are, printed to PDF or photographed to PNG by the browser a
//! designer checks them in. Each job is one browser process with a fresh
//! profile; jobs run in parallel, a bounded number at a time, with a
//! progress bar when stderr is a terminal.
//!
//! The browser is sealed (docs/security.md, "The export browser"): it
//! loads the page from an origin of this process ([`origin`]), which serves
//! only the export's own files and is the browser's proxy for every other
//! address; a Content-Security-Policy keeps the page to that origin and to
//! carta's own script; a page that reloads or navigates is stopped at once,
//! and one that does not finish within its time limit is stopped then.

mod origin;

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use origin::Origin;

use super::sheets::overflow::Overflow;

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

/// A headless Chromium binary and the time a page may take; its clones
/// share what their pages measured ([`Chromium::take_measured`]).
#[derive(Debug, Clone)]
pub struct Chromium {
    binary: PathBuf,
    limit: Duration,
    measured: Arc<Mutex<Measured>>,
}

/// What the fit script of the pages rendered so far reported: the card
/// boxes whose text does not fit, and how many pages reported at all.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Measured {
    /// Pages whose fit script reported (an empty report included).
    pub pages: usize,
    /// Pages that rendered without reporting (a template that broke the
    /// script, a page without one).
    pub silent: usize,
    /// The boxes, page after page.
    pub overflows: Vec<Overflow>,
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

    /// Runs `jobs` over the files of `site`, at most `parallel` browsers
    /// at a time, showing progress as `what` on a terminal.
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
        let bar = progress(jobs.len(), what);
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
                        if let Err(e) = self.run(site, job) {
                            failure
                                .lock()
                                .expect("no worker panics holding it")
                                .get_or_insert(e);
                        }
                        bar.inc(1);
                    }
                });
            }
        });
        bar.finish_and_clear();
        match failure.into_inner().expect("no worker panicked") {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    /// The time `job` may take.
    fn limit_of(&self, job: &Job) -> Duration {
        let shares = u32::try_from(job.cards.div_ceil(CARDS_PER_LIMIT).max(1)).unwrap_or(u32::MAX);
        self.limit.saturating_mul(shares)
    }

    /// Runs one job in a fresh profile, its page served by its own origin.
    fn run(&self, site: &Site, job: &Job) -> Result<(), ChromiumError> {
        let failed = |message: String| ChromiumError::Failed {
            about: job.about.clone(),
            message,
        };
        let origin =
            Origin::start(&site.root, &job.page, &site.files).map_err(|e| failed(e.to_string()))?;
        let profile = tempfile::tempdir().map_err(|e| failed(e.to_string()))?;
        // Chromium's log goes to a file: a pipe nobody reads while waiting
        // would block a chatty browser until the timeout.
        let log_path = profile.path().join("stderr.log");
        let log = std::fs::File::create(&log_path).map_err(|e| failed(e.to_string()))?;
        let mut child = self
            .command(job, &origin, profile.path())
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .map_err(|e| failed(format!("cannot start `{}`: {e}", self.binary.display())))?;
        let limit = self.limit_of(job);
        let started = Instant::now();
        let stop = |child: &mut std::process::Child| {
            let _ = child.kill();
            let _ = child.wait();
        };
        let status = loop {
            if let Some(url) = origin.navigation() {
                stop(&mut child);
                return Err(navigated(job, url));
            }
            match child.try_wait().map_err(|e| failed(e.to_string()))? {
                Some(status) => break status,
                None if started.elapsed() > limit => {
                    stop(&mut child);
                    return Err(ChromiumError::TimedOut {
                        about: job.about.clone(),
                        seconds: limit.as_secs(),
                    });
                }
                None => std::thread::sleep(Duration::from_millis(20)),
            }
        };
        if let Some(url) = origin.navigation() {
            return Err(navigated(job, url));
        }
        self.keep_measured(&origin);
        let writes = !matches!(job.shot, Shot::Measure);
        if status.success() && writes && !job.out.is_file() {
            return Err(failed(
                "it ended without writing its output (did the page navigate away?)".to_owned(),
            ));
        }
        if !status.success() {
            return Err(failed(format!("{status}: {}", log_tail(&log_path))));
        }
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
        }
    }

    /// The browser's command line for `job`, with its profile in `profile`
    /// and `origin` as the one place it may load from.
    fn command(&self, job: &Job, origin: &Origin, profile: &Path) -> Command {
        let mut cmd = Command::new(&self.binary);
        cmd.args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
        ])
        .args(SEALED)
        .arg(format!("--user-data-dir={}", profile.display()))
        // Chromium keeps its crash database under its configuration home,
        // not the profile, and GTK its settings cache under the user's:
        // both stay in the throwaway profile, so an export leaves nothing
        // in the user's home.
        .arg(format!(
            "--crash-dumps-dir={}",
            profile.join("crashes").display()
        ))
        .env("CHROME_CONFIG_HOME", profile.join("config"))
        .env("GSETTINGS_BACKEND", "memory")
        // Every request, loopback included, goes to the origin, which
        // answers only for its own files.
        .arg(format!("--proxy-server={}", origin.base()))
        .arg("--proxy-bypass-list=<-loopback>");
        match job.shot {
            // The document is dumped to stdout, which nobody reads: the
            // page reports what it measured to the origin.
            Shot::Measure => {
                cmd.arg("--dump-dom");
            }
            Shot::Pdf => {
                cmd.arg("--no-pdf-header-footer")
                    .arg(format!("--print-to-pdf={}", job.out.display()));
            }
            Shot::Png {
                width,
                height,
                scale,
            } => {
                cmd.arg(format!("--window-size={width},{height}"))
                    .arg(format!("--force-device-scale-factor={scale}"))
                    .arg(format!("--screenshot={}", job.out.display()));
            }
        }
        cmd.arg(origin.page_url());
        cmd
    }
}

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

/// The last lines of the browser's log, without the noise of a machine
/// with no D-Bus.
fn log_tail(path: &Path) -> String {
    let log = std::fs::read_to_string(path).unwrap_or_default();
    let tail: Vec<&str> = log
        .lines()
        .rev()
        .filter(|l| !l.contains(":ERROR:dbus/"))
        .take(3)
        .collect();
    tail.into_iter().rev().collect::<Vec<_>>().join(" / ")
}

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
    if let Ok(style) =
        indicatif::ProgressStyle::with_template("{msg} [{bar:30}] {pos}/{len} ({eta})")
    {
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
