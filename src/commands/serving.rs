//! What the two commands that serve pages (`serve`, `watch --serve`)
//! share: the deck builder's catalog of compiled games, and opening the
//! served page in the desktop's browser.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};

use crate::diag::{Diagnostics, Severity};
use crate::emit::sheets::{self, FaceMemo, Faces, Inputs};
use crate::game::Game;
use crate::load::{LoadError, Workspace};
use crate::server::{Catalog, Served, Started};

/// The catalog of `games`, compiled clean with every field: each game's
/// faces rendered, and rendered again in each language the game ships a
/// translation into; a game whose faces fail is left out (reported). With
/// `memo` (a watch process's), the faces of the last round whose inputs
/// did not change are taken again instead of rendered.
///
/// # Errors
/// When a game's templates cannot be read.
pub(super) fn catalog_of(
    ws: &mut Workspace,
    games: Vec<Game>,
    mut memo: Option<&mut FaceMemo>,
    diags: &mut Diagnostics,
) -> Result<Catalog, LoadError> {
    let mut served = Vec::new();
    for game in games {
        let before = diags.error_count();
        let inputs = Inputs::read(ws, &game, diags)?;
        let mut found = Vec::new();
        let at = (ws.jail(), &ws.sources);
        let faces = sheets::faces(at, &game, &inputs, memo.as_deref_mut(), &mut found);
        diags.extend(found);
        if diags.error_count() == before {
            let translations = translations(ws, &game, &inputs, memo.as_deref_mut());
            served.push(Served {
                game,
                faces,
                translations,
            });
        }
    }
    if let Some(memo) = memo {
        memo.next_round();
    }
    Ok(Catalog::new(ws.root().to_path_buf(), served))
}

/// `game` in each language it ships a translation into, by its tag, with
/// its faces rendered in it. A language whose faces fail to render is
/// left out: its problems are those of `carta print --lang`, which
/// reports them.
fn translations(
    ws: &Workspace,
    game: &Game,
    inputs: &Inputs,
    mut memo: Option<&mut FaceMemo>,
) -> Vec<(String, Game, Faces)> {
    let m = &game.manifest.manifest;
    let mut out = Vec::new();
    for tag in m.translations.iter().filter(|t| **t != m.language) {
        let localized = game.localized(tag);
        let mut found = Vec::new();
        let at = (ws.jail(), &ws.sources);
        let faces = sheets::faces(at, &localized, inputs, memo.as_deref_mut(), &mut found);
        if !found.iter().any(|d| d.severity == Severity::Error) {
            out.push((tag.clone(), localized, faces));
        }
    }
    out
}

/// The address of this machine that the network reaches a server bound to
/// `bound` by: the bound address, or, bound to every address, the one
/// the system would send from (no packet is sent); else loopback.
fn network_address(bound: SocketAddr) -> IpAddr {
    if !bound.ip().is_unspecified() {
        return bound.ip();
    }
    let probe = match bound.ip() {
        IpAddr::V4(_) => ("0.0.0.0:0", "192.0.2.1:9"),
        IpAddr::V6(_) => ("[::]:0", "[2001:db8::1]:9"),
    };
    std::net::UdpSocket::bind(probe.0)
        .and_then(|s| s.connect(probe.1).and(s.local_addr()))
        .map_or(IpAddr::V4(Ipv4Addr::LOCALHOST), |a| a.ip())
}

/// What the start-up lines say of a server `started`, showing `what` at
/// `path`: the address on this machine and, off loopback, the address on
/// the network with its token and what other machines may do. The first
/// line is the address to open here.
pub(super) fn announce(what: &str, started: &Started, path: &str) -> Vec<String> {
    let port = started.bound.port();
    let mut lines = vec![format!("serving {what} at {}", local_url(started, path))];
    if let Some(token) = &started.token {
        let there = SocketAddr::new(network_address(started.bound), port);
        lines.push(format!(
            "on the network at http://{there}{path}?token={}: other machines may browse the cards and check decks; saving a deck or a collection needs that address's token",
            token.as_str()
        ));
    }
    lines
}

/// The address this machine opens a server `started` at, showing `path`:
/// on loopback when the server listens there, else at the address bound,
/// with the token (a request from it is not from loopback).
pub(super) fn local_url(started: &Started, path: &str) -> String {
    let (ip, port) = (started.bound.ip(), started.bound.port());
    match &started.token {
        Some(token) if !ip.is_unspecified() => {
            format!("http://{}{path}?token={}", started.bound, token.as_str())
        }
        _ => format!("http://127.0.0.1:{port}{path}"),
    }
}

/// Opens `url` in the desktop's browser; when there is none to open, or
/// the opener fails, says so and how to open the page.
pub(super) fn open_browser(url: &str) {
    // Without a display, xdg-open has no browser to start.
    if cfg!(all(unix, not(target_os = "macos")))
        && std::env::var_os("DISPLAY").is_none()
        && std::env::var_os("WAYLAND_DISPLAY").is_none()
    {
        eprintln!(
            "no browser to open: this session has no display (DISPLAY and WAYLAND_DISPLAY are unset); open {url} in a browser"
        );
        return;
    }
    let opener = if cfg!(target_os = "macos") {
        "open"
    } else if cfg!(windows) {
        "explorer"
    } else {
        "xdg-open"
    };
    match std::process::Command::new(opener)
        .arg(url)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
    {
        Err(_) => eprintln!("could not start `{opener}`: open {url} in a browser"),
        // Waited for aside, so that it leaves no defunct process behind and
        // a failure is told.
        Ok(mut child) => {
            let url = url.to_owned();
            std::thread::spawn(move || {
                if let Ok(status) = child.wait()
                    && !status.success()
                {
                    eprintln!("`{opener}` opened no browser ({status}): open {url} in a browser");
                }
            });
        }
    }
}
