//! One Chromium for a whole export run, driven over the `DevTools` protocol
//! on `--remote-debugging-pipe`: the browser reads commands on its file
//! descriptor 3 and writes answers and events on 4, each message a JSON
//! object ended by a NUL byte. A pipe, not a debugging port: nothing on
//! the machine or the network can connect to the browser but carta.
//!
//! Each page gets a [`Tab`]: a fresh browser context (an off-the-record
//! profile of its own, with the page's own origin as its proxy), one
//! target in it, and a flat session to it. Closing the tab disposes of the
//! context, and with it every cookie, cache entry and process of the page.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::os::fd::AsRawFd;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// Why a command got no answer.
#[derive(Debug)]
pub(super) enum CdpError {
    /// The browser has gone (crashed, killed, or never started).
    Closed,
    /// No answer before the deadline.
    TimedOut,
    /// The browser answered with an error.
    Protocol(String),
}

impl std::fmt::Display for CdpError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CdpError::Closed => f.write_str("the browser closed"),
            CdpError::TimedOut => f.write_str("the browser did not answer in time"),
            CdpError::Protocol(m) => write!(f, "the browser refused a command: {m}"),
        }
    }
}

/// An event of one session.
#[derive(Debug)]
pub(super) struct Event {
    /// Its method, such as `Page.loadEventFired`.
    pub method: String,
    /// Its parameters.
    pub params: Value,
}

/// Where the reader thread sends what the browser writes.
#[derive(Default)]
struct Routes {
    /// The caller waiting for each command's answer, by id.
    replies: Mutex<HashMap<u64, Sender<Result<Value, String>>>>,
    /// Each session's events, by session id.
    events: Mutex<HashMap<String, Sender<Event>>>,
}

/// A running browser, killed when dropped.
pub(super) struct Browser {
    child: Mutex<Child>,
    commands: Mutex<std::io::PipeWriter>,
    next_id: AtomicU64,
    routes: Arc<Routes>,
    log: PathBuf,
    // Last: removed after the browser is gone.
    _profile: tempfile::TempDir,
}

impl Browser {
    /// Starts `binary` with `args` and a throwaway profile.
    ///
    /// # Errors
    /// When the profile, the pipes or the process cannot be made.
    pub(super) fn start(binary: &Path, args: &[String]) -> std::io::Result<Browser> {
        let profile = tempfile::tempdir()?;
        // The log goes to a file: a pipe nobody reads would block a chatty
        // browser.
        let log = profile.path().join("stderr.log");
        let log_file = std::fs::File::create(&log)?;
        let (their_in, our_out) = std::io::pipe()?;
        let (our_in, their_out) = std::io::pipe()?;
        let (fd_in, fd_out) = (their_in.as_raw_fd(), their_out.as_raw_fd());
        let mut cmd = Command::new(binary);
        cmd.args(args)
            .arg("--remote-debugging-pipe")
            .arg(format!("--user-data-dir={}", profile.path().display()))
            // Chromium keeps its crash database under its configuration
            // home, and GTK its settings cache under the user's: both stay
            // in the throwaway profile, so an export leaves nothing in the
            // user's home.
            .arg(format!(
                "--crash-dumps-dir={}",
                profile.path().join("crashes").display()
            ))
            .env("CHROME_CONFIG_HOME", profile.path().join("config"))
            .env("GSETTINGS_BACKEND", "memory")
            .arg("about:blank")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(log_file);
        // SAFETY: between fork and exec only async-signal-safe calls
        // (fcntl, dup2) run. The pipe ends are first moved above 4 so that
        // neither dup2 overwrites the other end; dup2 clears close-on-exec.
        unsafe {
            cmd.pre_exec(move || {
                let high_in = libc::fcntl(fd_in, libc::F_DUPFD_CLOEXEC, 10);
                let high_out = libc::fcntl(fd_out, libc::F_DUPFD_CLOEXEC, 10);
                if high_in < 0
                    || high_out < 0
                    || libc::dup2(high_in, 3) < 0
                    || libc::dup2(high_out, 4) < 0
                {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        let child = cmd.spawn()?;
        // The browser's ends now live in the browser only: its exit closes
        // the pipe, which ends the reader.
        drop((their_in, their_out));
        let routes = Arc::new(Routes::default());
        let reader_routes = Arc::clone(&routes);
        std::thread::Builder::new()
            .name("carta-chromium".to_owned())
            .spawn(move || read(BufReader::with_capacity(1 << 20, our_in), &reader_routes))?;
        Ok(Browser {
            child: Mutex::new(child),
            commands: Mutex::new(our_out),
            next_id: AtomicU64::new(1),
            routes,
            log,
            _profile: profile,
        })
    }

    /// Sends `method` with `params` to `session` (the browser itself when
    /// `None`) and waits until `deadline` for its result.
    pub(super) fn call(
        &self,
        session: Option<&str>,
        method: &str,
        params: Value,
        deadline: Instant,
    ) -> Result<Value, CdpError> {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let (tx, rx) = mpsc::channel();
        lock(&self.routes.replies).insert(id, tx);
        let mut message = json!({ "id": id, "method": method });
        message["params"] = params;
        if let Some(s) = session {
            message["sessionId"] = Value::from(s);
        }
        let mut bytes = serde_json::to_vec(&message).expect("a JSON value serialises");
        bytes.push(0);
        if lock(&self.commands).write_all(&bytes).is_err() {
            lock(&self.routes.replies).remove(&id);
            return Err(CdpError::Closed);
        }
        let answer = rx.recv_timeout(deadline.saturating_duration_since(Instant::now()));
        lock(&self.routes.replies).remove(&id);
        match answer {
            Ok(Ok(result)) => Ok(result),
            Ok(Err(message)) => Err(CdpError::Protocol(message)),
            Err(RecvTimeoutError::Timeout) => Err(CdpError::TimedOut),
            Err(RecvTimeoutError::Disconnected) => Err(CdpError::Closed),
        }
    }

    /// Opens a tab in a context of its own whose every request goes to
    /// `proxy`, its window `size` CSS pixels when given.
    pub(super) fn open(
        &self,
        proxy: &str,
        size: Option<(u32, u32)>,
        deadline: Instant,
    ) -> Result<Tab<'_>, CdpError> {
        let context = self.call(
            None,
            "Target.createBrowserContext",
            json!({ "proxyServer": proxy, "proxyBypassList": "<-loopback>" }),
            deadline,
        )?;
        let context = text(&context, "browserContextId")?;
        let mut tab = Tab {
            browser: self,
            context,
            session: String::new(),
            events: None,
        };
        let target = self.call(
            None,
            "Target.createTarget",
            json!({ "url": "about:blank", "browserContextId": tab.context }),
            deadline,
        )?;
        let target = text(&target, "targetId")?;
        let attached = self.call(
            None,
            "Target.attachToTarget",
            json!({ "targetId": target, "flatten": true }),
            deadline,
        )?;
        tab.session = text(&attached, "sessionId")?;
        let (tx, rx) = mpsc::channel();
        lock(&self.routes.events).insert(tab.session.clone(), tx);
        tab.events = Some(rx);
        if let Some((width, height)) = size {
            // The browser's own device scale is kept (0): an emulated one
            // snaps boxes to whole CSS pixels.
            tab.call(
                "Emulation.setDeviceMetricsOverride",
                json!({ "width": width, "height": height, "deviceScaleFactor": 0, "mobile": false }),
                deadline,
            )?;
        }
        tab.call("Page.enable", json!({}), deadline)?;
        Ok(tab)
    }

    /// The last lines of the browser's log, without the noise of a
    /// machine with no D-Bus.
    pub(super) fn log_tail(&self) -> String {
        let log = std::fs::read_to_string(&self.log).unwrap_or_default();
        let tail: Vec<&str> = log
            .lines()
            .rev()
            .filter(|l| !l.contains(":ERROR:dbus/"))
            .take(3)
            .collect();
        tail.into_iter().rev().collect::<Vec<_>>().join(" / ")
    }

    /// Whether the browser still runs.
    pub(super) fn alive(&self) -> bool {
        matches!(lock(&self.child).try_wait(), Ok(None))
    }

    /// Stops the browser now (every tab's call then fails as closed).
    pub(super) fn kill(&self) {
        let mut child = lock(&self.child);
        let _ = child.kill();
        let _ = child.wait();
    }
}

impl std::fmt::Debug for Browser {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Browser")
            .field("pid", &lock(&self.child).id())
            .finish_non_exhaustive()
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        self.kill();
    }
}

/// One page in its own context; the context is disposed of when dropped.
pub(super) struct Tab<'b> {
    browser: &'b Browser,
    context: String,
    session: String,
    events: Option<Receiver<Event>>,
}

impl Tab<'_> {
    /// Sends `method` to the tab's page.
    pub(super) fn call(
        &self,
        method: &str,
        params: Value,
        deadline: Instant,
    ) -> Result<Value, CdpError> {
        self.browser
            .call(Some(&self.session), method, params, deadline)
    }

    /// The page's next event, waiting at most `wait`; `Ok(None)` when none
    /// came.
    pub(super) fn event(&self, wait: Duration) -> Result<Option<Event>, CdpError> {
        let Some(events) = &self.events else {
            return Err(CdpError::Closed);
        };
        match events.recv_timeout(wait) {
            Ok(e) => Ok(Some(e)),
            Err(RecvTimeoutError::Timeout) => Ok(None),
            Err(RecvTimeoutError::Disconnected) => Err(CdpError::Closed),
        }
    }
}

impl Drop for Tab<'_> {
    fn drop(&mut self) {
        lock(&self.browser.routes.events).remove(&self.session);
        let deadline = Instant::now() + Duration::from_secs(5);
        let _ = self.browser.call(
            None,
            "Target.disposeBrowserContext",
            json!({ "browserContextId": self.context }),
            deadline,
        );
    }
}

/// Reads the browser's messages until its pipe closes, answering each
/// waiting caller and passing each event to its session; then drops every
/// route, so that whoever still waits learns the browser is gone.
fn read(mut input: BufReader<std::io::PipeReader>, routes: &Routes) {
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match input.read_until(0, &mut buf) {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        if buf.last() == Some(&0) {
            buf.pop();
        }
        let Ok(mut message) = serde_json::from_slice::<Value>(&buf) else {
            continue;
        };
        if let Some(id) = message.get("id").and_then(Value::as_u64) {
            let answer = match message.get_mut("error") {
                Some(error) => Err(error
                    .get("message")
                    .and_then(Value::as_str)
                    .unwrap_or("unknown error")
                    .to_owned()),
                None => Ok(message
                    .get_mut("result")
                    .map(Value::take)
                    .unwrap_or_default()),
            };
            if let Some(tx) = lock(&routes.replies).remove(&id) {
                let _ = tx.send(answer);
            }
        } else if let (Some(session), Some(method)) = (
            message.get("sessionId").and_then(Value::as_str),
            message.get("method").and_then(Value::as_str),
        ) && let Some(tx) = lock(&routes.events).get(session)
        {
            let _ = tx.send(Event {
                method: method.to_owned(),
                params: message
                    .get_mut("params")
                    .map(Value::take)
                    .unwrap_or_default(),
            });
        }
    }
    lock(&routes.replies).clear();
    lock(&routes.events).clear();
}

/// The string field `key` of a result.
fn text(result: &Value, key: &str) -> Result<String, CdpError> {
    result
        .get(key)
        .and_then(Value::as_str)
        .map(str::to_owned)
        .ok_or_else(|| CdpError::Protocol(format!("no `{key}` in the answer")))
}

/// A lock that a panicked holder does not poison for the rest.
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}
