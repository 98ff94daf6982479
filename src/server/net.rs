//! The server's connections: accepted by hand (not through `axum::serve`)
//! so that each is bounded in time and their number is bounded.
//!
//! A client that opens a connection and sends nothing, or a header a byte
//! at a time, is cut after [`HEADER_TIMEOUT`]; the same clock runs between
//! two requests of a kept-alive connection. At most [`MAX_CONNECTIONS`] are
//! served at once, and at most a quarter of them from one peer address:
//! past either, a new connection is closed as soon as it is accepted, so a
//! flood of idle ones (or of held event streams) from one machine cannot
//! queue up or take every place, and carta's own pages are answered again
//! once the idle ones have timed out. Each request carries its peer's
//! address (`ConnectInfo`), for the guard.

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::extract::ConnectInfo;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;

use crate::limits::BadLimit;

/// How long a client has to send a request's head (and, between two
/// requests on one connection, the next one's) before it is cut.
pub(crate) const HEADER_TIMEOUT: Duration = Duration::from_secs(10);
/// Environment variable overriding [`HEADER_TIMEOUT`], in milliseconds.
pub(crate) const HEADER_TIMEOUT_VAR: &str = "CARTA_SERVER_HEADER_TIMEOUT_MS";
/// How long a request may take to arrive whole, body included, once its
/// head has; a body sent slower is answered `408` and its connection cut.
pub(crate) const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);
/// Environment variable overriding [`REQUEST_TIMEOUT`], in milliseconds.
pub(crate) const REQUEST_TIMEOUT_VAR: &str = "CARTA_SERVER_REQUEST_TIMEOUT_MS";
/// The most connections served at once (a browser opens six per server;
/// live-reload pages hold one each).
pub(crate) const MAX_CONNECTIONS: usize = 128;
/// Environment variable overriding [`MAX_CONNECTIONS`].
pub(crate) const MAX_CONNECTIONS_VAR: &str = "CARTA_SERVER_MAX_CONNECTIONS";
/// The largest read buffer of a connection, in bytes: a request head
/// longer than this is refused with `431`.
const MAX_HEAD_BYTES: usize = 16 << 10;

/// The bounds on connections of one server.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ConnLimits {
    /// See [`HEADER_TIMEOUT`].
    pub(crate) header_timeout: Duration,
    /// See [`REQUEST_TIMEOUT`].
    pub(crate) request_timeout: Duration,
    /// See [`MAX_CONNECTIONS`].
    pub(crate) max_connections: usize,
}

impl Default for ConnLimits {
    fn default() -> Self {
        ConnLimits {
            header_timeout: HEADER_TIMEOUT,
            request_timeout: REQUEST_TIMEOUT,
            max_connections: MAX_CONNECTIONS,
        }
    }
}

impl ConnLimits {
    /// The defaults, overridden by the environment variables that are set.
    ///
    /// # Errors
    /// When a variable is set to something that is not a positive number.
    pub(crate) fn from_env() -> Result<Self, BadLimit> {
        Self::from_lookup(|var| std::env::var(var).ok())
    }

    fn from_lookup(lookup: impl Fn(&str) -> Option<String>) -> Result<Self, BadLimit> {
        let read = |var: &'static str| crate::limits::positive(&lookup, var);
        let d = ConnLimits::default();
        Ok(ConnLimits {
            header_timeout: read(HEADER_TIMEOUT_VAR)?
                .map_or(d.header_timeout, Duration::from_millis),
            request_timeout: read(REQUEST_TIMEOUT_VAR)?
                .map_or(d.request_timeout, Duration::from_millis),
            max_connections: read(MAX_CONNECTIONS_VAR)?.map_or(d.max_connections, |n| {
                usize::try_from(n).unwrap_or(Semaphore::MAX_PERMITS)
            }),
        })
    }
}

/// Serves `app` on every connection `listener` accepts, within `limits`,
/// until the runtime stops.
pub(super) async fn serve(listener: TcpListener, app: Router, limits: ConnLimits) {
    let permits = Arc::new(Semaphore::new(
        limits.max_connections.min(Semaphore::MAX_PERMITS),
    ));
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout)
        .max_buf_size(MAX_HEAD_BYTES);
    let peers = Arc::new(Peers {
        cap: (limits.max_connections / 4).max(1),
        held: Mutex::new(HashMap::new()),
    });
    loop {
        let Ok((stream, peer)) = listener.accept().await else {
            // Out of file descriptors, or a connection reset before it was
            // accepted: wait a little rather than spin.
            tokio::time::sleep(Duration::from_millis(50)).await;
            continue;
        };
        // Past either cap the connection is dropped (closed) at once.
        let Some(held) = Peers::enter(&peers, peer.ip()) else {
            continue;
        };
        let Ok(permit) = Arc::clone(&permits).try_acquire_owned() else {
            continue;
        };
        let app = tower::ServiceExt::map_request(
            app.clone(),
            move |mut req: hyper::Request<hyper::body::Incoming>| {
                req.extensions_mut().insert(ConnectInfo::<SocketAddr>(peer));
                req
            },
        );
        let conn = http.serve_connection(TokioIo::new(stream), TowerToHyperService::new(app));
        tokio::spawn(async move {
            // A connection's error (a timeout, a reset) ends only it.
            let _ = conn.await;
            drop(permit);
            drop(held);
        });
    }
}

/// How many connections each peer address holds, against its cap.
#[derive(Debug)]
struct Peers {
    /// The most one address may hold at once.
    cap: usize,
    /// Connections held, by address (absent: none).
    held: Mutex<HashMap<IpAddr, usize>>,
}

/// One connection's place among its peer's, given back when dropped.
struct Held {
    peers: Arc<Peers>,
    ip: IpAddr,
}

impl Peers {
    /// A place for one more connection from `ip`, unless it holds its cap.
    fn enter(peers: &Arc<Peers>, ip: IpAddr) -> Option<Held> {
        let mut held = peers.held.lock().ok()?;
        let n = held.entry(ip).or_insert(0);
        if *n >= peers.cap {
            return None;
        }
        *n += 1;
        Some(Held {
            peers: Arc::clone(peers),
            ip,
        })
    }
}

impl Drop for Held {
    fn drop(&mut self) {
        if let Ok(mut held) = self.peers.held.lock()
            && let Some(n) = held.get_mut(&self.ip)
        {
            *n -= 1;
            if *n == 0 {
                held.remove(&self.ip);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_peer_holds_at_most_its_cap_and_gets_places_back() {
        let peers = Arc::new(Peers {
            cap: 2,
            held: Mutex::new(HashMap::new()),
        });
        let a: IpAddr = "192.168.1.9".parse().unwrap();
        let b: IpAddr = "127.0.0.1".parse().unwrap();
        let first = Peers::enter(&peers, a).unwrap();
        let _second = Peers::enter(&peers, a).unwrap();
        assert!(Peers::enter(&peers, a).is_none(), "a third from one peer");
        assert!(Peers::enter(&peers, b).is_some(), "another peer is served");
        drop(first);
        assert!(Peers::enter(&peers, a).is_some(), "a place given back");
    }

    #[test]
    fn limits_come_from_the_environment_or_default() {
        assert_eq!(
            ConnLimits::from_lookup(|_| None).unwrap(),
            ConnLimits::default()
        );
        let set = ConnLimits::from_lookup(|var| {
            Some(
                if var == MAX_CONNECTIONS_VAR {
                    "7"
                } else {
                    "250"
                }
                .to_owned(),
            )
        })
        .unwrap();
        assert_eq!(set.header_timeout, Duration::from_millis(250));
        assert_eq!(set.request_timeout, Duration::from_millis(250));
        assert_eq!(set.max_connections, 7);
        for bad in ["0", "-1", "soon", ""] {
            let err =
                ConnLimits::from_lookup(|var| (var == MAX_CONNECTIONS_VAR).then(|| bad.to_owned()))
                    .unwrap_err();
            assert_eq!(err.var, MAX_CONNECTIONS_VAR);
        }
    }
}
