//! Caching, in one place: what every cache under `build/.cache/` shares.
//!
//! carta answers a re-check or a rebuild in a fraction of a cold run by
//! reusing what the last run concluded. Every such result lives in a file
//! under `build/.cache/`, and every one of those files is written and read
//! through this module, which owns the three facts its trust rests on:
//!
//! - **The program** ([`program`]): every cached result is keyed by the
//!   identity of the running carta executable (and `CARTA_CACHE_SALT`), so
//!   a cache written by one build of carta is never trusted by another,
//!   whatever their version strings say.
//! - **The inputs** ([`Key`]): each cache names what else its result was
//!   made from (a manifest, schemas, a file's text or stamp), hashed.
//! - **The bytes** ([`frame`], [`unframe`]): every file starts with its
//!   magic and keys, carries the checksum of its payload, and is one
//!   `MessagePack` value; a file that is foreign, stale, cut short or
//!   damaged is never decoded.
//!
//! What each cache stores, and which edit it answers, is said where it is
//! used (ARCHITECTURE.md lists them under "Incremental"); why a cache
//! declined to answer is told on stderr with `CARTA_LOG=debug`.

mod check;
mod frame;
mod program;
mod stamp;

pub use self::check::{CheckCache, Mark, drop_ledger, get_ledger, put_ledger, read_record};
pub use self::frame::{Framed, frame, framed, read_framed, unframe, write_framed};
pub use self::program::program;
pub use self::stamp::{Stamp, same_stamp, settled_stamp};

use std::hash::{DefaultHasher, Hash, Hasher};
use std::path::Path;

use crate::write::{Folder, WriteError};

/// The workspace's `build/.cache/` folder, made when it is missing (a link
/// there is refused, as everywhere carta writes).
///
/// # Errors
/// When the folder cannot be made or is not a folder of the workspace.
pub fn folder(root: &Path) -> Result<Folder, WriteError> {
    Folder::workspace(root)?.sub(Path::new("build").join(".cache"))
}

/// What a cached result was made from besides the program: a hash of its
/// inputs, as each cache defines them.
pub type Key = u64;

/// A 64-bit hash of some text. `DefaultHasher` is stable only within one
/// build of carta, which is all a cache needs: its files are keyed by the
/// program ([`program`]).
pub fn hash_text(text: &str) -> u64 {
    let mut h = DefaultHasher::new();
    text.hash(&mut h);
    h.finish()
}

/// A 64-bit hash of some bytes (see [`hash_text`]).
pub fn hash_bytes(bytes: &[u8]) -> u64 {
    let mut h = DefaultHasher::new();
    bytes.hash(&mut h);
    h.finish()
}

/// A 64-bit hash of anything hashable (see [`hash_text`]).
pub fn hash_of<T: Hash + ?Sized>(value: &T) -> u64 {
    let mut h = DefaultHasher::new();
    value.hash(&mut h);
    h.finish()
}

/// The largest cache file read; a larger one is ignored (and rewritten).
pub const MAX_FILE: u64 = 256 << 20;
