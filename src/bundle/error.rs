//! Why a bundle could not be read.

use std::path::PathBuf;

use super::numbers::FORMAT_VERSION;

/// Why a bundle could not be opened or a record not decoded. Every variant
/// but [`BundleError::Io`] and [`BundleError::TooLarge`] means the bytes
/// are damaged or not a bundle.
#[derive(Debug, thiserror::Error)]
pub enum BundleError {
    /// The file could not be read.
    #[error("cannot read `{path}`: {source}")]
    Io {
        /// The path that failed.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The bytes do not start with the bundle magic.
    #[error("not a carta bundle (the file does not start with the bundle magic)")]
    NotABundle,
    /// The bundle was written in a format version this carta does not read.
    #[error(
        "bundle format version {found} is not supported (this carta reads version {FORMAT_VERSION}); rebuild it with this carta"
    )]
    Version {
        /// The version in the header.
        found: u16,
    },
    /// The file is shorter than its header says.
    #[error("the bundle is truncated: {actual} bytes, the header says {expected}")]
    Truncated {
        /// The length the header announces.
        expected: u64,
        /// The length found.
        actual: u64,
    },
    /// The file is longer than its header says.
    #[error("the bundle has trailing bytes: {actual} bytes, the header says {expected}")]
    TrailingBytes {
        /// The length the header announces.
        expected: u64,
        /// The length found.
        actual: u64,
    },
    /// The header's checksum does not match it.
    #[error("the bundle header is damaged (its checksum does not match)")]
    HeaderChecksum,
    /// The payload's checksum does not match it.
    #[error(
        "the bundle is damaged: the payload checksum is {found:08x}, the header says {expected:08x}"
    )]
    PayloadChecksum {
        /// The checksum in the header.
        expected: u32,
        /// The checksum of the bytes.
        found: u32,
    },
    /// Decompiling the bundle would write more JSON than the limit allows.
    #[error(
        "decompiling this bundle would write more than {limit} bytes of JSON (its cards inflate far beyond the bundle's own size); nothing was written (to decompile it anyway, raise the limit: CARTA_MAX_DECOMPILE_BYTES=<bytes>)"
    )]
    TooLarge {
        /// The limit, in bytes.
        limit: u64,
    },
    /// A section is malformed although the checksums match (a crafted file,
    /// or a bug in the writer).
    #[error("the bundle is damaged: {section}: {detail}")]
    Corrupt {
        /// The section (`header`, `game`, `decks`, `index`, `cards`).
        section: &'static str,
        /// What is wrong.
        detail: String,
    },
}

impl BundleError {
    pub(crate) fn corrupt(section: &'static str, detail: impl Into<String>) -> Self {
        BundleError::Corrupt {
            section,
            detail: detail.into(),
        }
    }

    /// Whether the error is an I/O failure (exit 2) rather than a damaged
    /// bundle (exit 1).
    pub fn is_io(&self) -> bool {
        matches!(self, BundleError::Io { .. })
    }
}
