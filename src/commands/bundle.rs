//! `carta decompile BUNDLE` (the bundle as JSON on stdout) and `carta
//! inspect BUNDLE` (a summary): the bundle's reader, as a game client would
//! use it.

use std::io::{self, BufWriter, Write};
use std::path::Path;

use super::{CommandError, Report};
use crate::bundle::{Bundle, BundleError};
use crate::diag::escape_controls;
use crate::limits::Limits;
use crate::load::LoadError;

/// Reads the bundle at `given` (relative to `root`) and prints it whole as
/// JSON, or its summary (control and bidi characters escaped) when
/// `inspect`. The JSON is streamed, one card at
/// a time, once a first pass has found that it stays within
/// [`Limits::max_decompile_bytes`]: a bundle that would write more is
/// refused before anything is written.
///
/// # Errors
/// When the bundle cannot be read, or is damaged or not a bundle, or its
/// JSON would be too large.
pub(crate) fn show(root: &Path, given: &Path, inspect: bool) -> Result<Report, CommandError> {
    let limits = Limits::from_env().map_err(LoadError::from)?;
    let bad = |source: BundleError| CommandError::Bundle {
        path: given.to_path_buf(),
        source,
    };
    let bundle = Bundle::open(root.join(given)).map_err(bad)?;
    if inspect {
        let text = crate::bundle::summary(&bundle, given).map_err(bad)?;
        // The bundle's names are the stranger's: no escape reaches the
        // terminal. A closed pipe (`| head`) is not an error worth reporting.
        let _ = io::stdout()
            .lock()
            .write_all(escape_controls(&text).as_bytes());
    } else {
        let limit = limits.max_decompile_bytes;
        let mut counted = Counter { bytes: 0, limit };
        match bundle.write_json(&mut counted, given) {
            Err(BundleError::Io { .. }) => return Err(bad(BundleError::TooLarge { limit })),
            other => other.map_err(bad)?,
        }
        let mut out = BufWriter::new(io::stdout().lock());
        match bundle.write_json(&mut out, given) {
            Ok(()) => {
                let _ = out.write_all(b"\n").and_then(|()| out.flush());
            }
            Err(e) if !e.is_io() => return Err(bad(e)),
            // As above: a closed pipe ends the output, quietly.
            Err(_) => {}
        }
    }
    Ok(Report::plain(""))
}

/// A writer that only counts, and fails past `limit` bytes.
struct Counter {
    bytes: u64,
    limit: u64,
}

impl Write for Counter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.bytes += buf.len() as u64;
        if self.bytes > self.limit {
            return Err(io::Error::other("over the limit"));
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}
