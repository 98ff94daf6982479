//! The limits that bound what a hostile or careless workspace can make
//! carta do (see docs/security.md). Each has a default and can be changed
//! with an environment variable.

/// Environment variable overriding [`Limits::max_file_bytes`].
pub const MAX_FILE_BYTES_VAR: &str = "CARTA_MAX_FILE_BYTES";
/// Environment variable overriding [`Limits::max_print_copies`].
pub const MAX_PRINT_COPIES_VAR: &str = "CARTA_MAX_PRINT_COPIES";
/// Environment variable overriding [`Limits::max_diagnostics_per_file`].
pub const MAX_DIAGNOSTICS_VAR: &str = "CARTA_MAX_DIAGNOSTICS_PER_FILE";
/// Environment variable overriding [`Limits::export_seconds`].
pub const EXPORT_SECONDS_VAR: &str = "CARTA_EXPORT_SECONDS";
/// Environment variable overriding [`Limits::max_decompile_bytes`].
pub const MAX_DECOMPILE_BYTES_VAR: &str = "CARTA_MAX_DECOMPILE_BYTES";
/// Environment variable overriding [`Limits::max_card_file_bytes`].
pub const MAX_CARD_FILE_BYTES_VAR: &str = "CARTA_MAX_CARD_FILE_BYTES";
/// Environment variable overriding [`Limits::max_deck_bytes`].
pub const MAX_DECK_BYTES_VAR: &str = "CARTA_MAX_DECK_BYTES";

/// The default of [`Limits::max_card_file_bytes`]: 16 MiB.
pub const MAX_CARD_FILE_BYTES: u64 = 16 << 20;
/// The default of [`Limits::max_deck_bytes`]: 1 MiB.
pub const MAX_DECK_BYTES: u64 = 1 << 20;

/// The limits of one run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// The largest source file read, in bytes (default 64 MiB).
    pub max_file_bytes: u64,
    /// The most card faces one build or print may lay out, counting every
    /// copy (default 100,000: a 20,000-card pool at five copies each).
    pub max_print_copies: u64,
    /// The most diagnostics reported, and kept in memory, for one file; the
    /// rest are counted in one closing diagnostic (default 200).
    pub max_diagnostics_per_file: usize,
    /// The seconds the export browser may spend on one page (per 500 card
    /// boxes it draws) before it is stopped (default 60).
    pub export_seconds: u64,
    /// The most bytes of JSON `carta decompile` writes (default 256 MiB): a
    /// bundle of a few kilobytes can hold blocks that inflate to 16 MiB of
    /// NUL bytes each, which JSON writes six bytes apiece.
    pub max_decompile_bytes: u64,
    /// The largest card file read, TOML or a CSV/TSV sheet's text, in bytes
    /// (default 16 MiB: twenty thousand cards in one file take 10 MB as
    /// TOML and 7 MB as CSV, and a parsed card file holds many times its
    /// size in memory).
    pub max_card_file_bytes: u64,
    /// The largest deck file or text list read, in bytes (default 1 MiB:
    /// a real deck takes a few kilobytes).
    pub max_deck_bytes: u64,
}

/// A bound on the bytes of one kind of file, for its diagnostic.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bound {
    /// The most bytes read.
    pub bytes: u64,
    /// What it bounds, as the diagnostic names it ("a card file").
    pub what: &'static str,
    /// What to do about a file past it, before raising it.
    pub advice: &'static str,
    /// The environment variable that raises it.
    pub var: &'static str,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_file_bytes: 64 << 20,
            max_print_copies: 100_000,
            max_diagnostics_per_file: 200,
            export_seconds: 60,
            max_decompile_bytes: 256 << 20,
            max_card_file_bytes: MAX_CARD_FILE_BYTES,
            max_deck_bytes: MAX_DECK_BYTES,
        }
    }
}

/// A limit set to something that is not a positive whole number.
#[derive(Debug, thiserror::Error)]
#[error("{var} must be a positive whole number, not `{value}`")]
pub struct BadLimit {
    /// The variable.
    pub var: &'static str,
    /// What it was set to.
    pub value: String,
}

impl Limits {
    /// The defaults, overridden by the environment variables that are set.
    ///
    /// # Errors
    /// When a variable is set to something that is not a positive number.
    pub fn from_env() -> Result<Self, BadLimit> {
        Self::from_lookup(|var| std::env::var(var).ok())
    }

    /// The defaults, overridden by what `lookup` finds for each variable.
    ///
    /// # Errors
    /// As [`Limits::from_env`].
    pub fn from_lookup(lookup: impl Fn(&str) -> Option<String>) -> Result<Self, BadLimit> {
        let read = |var: &'static str, default: u64| -> Result<u64, BadLimit> {
            Ok(positive(&lookup, var)?.unwrap_or(default))
        };
        let d = Limits::default();
        Ok(Limits {
            max_file_bytes: read(MAX_FILE_BYTES_VAR, d.max_file_bytes)?,
            max_print_copies: read(MAX_PRINT_COPIES_VAR, d.max_print_copies)?,
            max_diagnostics_per_file: usize::try_from(read(
                MAX_DIAGNOSTICS_VAR,
                d.max_diagnostics_per_file as u64,
            )?)
            .unwrap_or(usize::MAX),
            export_seconds: read(EXPORT_SECONDS_VAR, d.export_seconds)?,
            max_decompile_bytes: read(MAX_DECOMPILE_BYTES_VAR, d.max_decompile_bytes)?,
            max_card_file_bytes: read(MAX_CARD_FILE_BYTES_VAR, d.max_card_file_bytes)?,
            max_deck_bytes: read(MAX_DECK_BYTES_VAR, d.max_deck_bytes)?,
        })
    }

    /// The bound on any source file.
    pub fn file_bound(&self) -> Bound {
        Bound {
            bytes: self.max_file_bytes,
            what: "a source file",
            advice: "split the file",
            var: MAX_FILE_BYTES_VAR,
        }
    }

    /// The bound on a card file (TOML, CSV or TSV), never above
    /// [`Limits::file_bound`].
    pub fn card_file_bound(&self) -> Bound {
        self.within_files(Bound {
            bytes: self.max_card_file_bytes,
            what: "a card file",
            advice: "split its cards over several files",
            var: MAX_CARD_FILE_BYTES_VAR,
        })
    }

    /// The bound on a deck file or a text list, never above
    /// [`Limits::file_bound`].
    pub fn deck_bound(&self) -> Bound {
        self.within_files(Bound {
            bytes: self.max_deck_bytes,
            what: "a deck file or list",
            advice: "a deck takes a few kilobytes: check that this is the file meant",
            var: MAX_DECK_BYTES_VAR,
        })
    }

    /// `bound`, or the bound on any file when that is lower.
    fn within_files(&self, bound: Bound) -> Bound {
        if bound.bytes <= self.max_file_bytes {
            bound
        } else {
            self.file_bound()
        }
    }
}

/// What `lookup` finds for `var` as a positive whole number: `None` when
/// it is unset, an error naming the variable when it is anything else.
/// Every limit carta reads from the environment is read so.
///
/// # Errors
/// When the variable is set to something that is not a positive number.
pub fn positive(
    lookup: impl Fn(&str) -> Option<String>,
    var: &'static str,
) -> Result<Option<u64>, BadLimit> {
    lookup(var)
        .map(|value| match value.trim().parse::<u64>() {
            Ok(n) if n > 0 => Ok(n),
            _ => Err(BadLimit { var, value }),
        })
        .transpose()
}

/// The diagnostics kept per file in this run: what the environment says,
/// or the default when it says nothing usable (opening the workspace
/// reports a bad value). Parsers read it to bound the memory a file's
/// problems take, as the output does to bound what it shows.
pub fn max_diagnostics_per_file() -> usize {
    Limits::from_env()
        .unwrap_or_default()
        .max_diagnostics_per_file
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variables_override_defaults_and_bad_values_are_refused() {
        assert_eq!(Limits::from_lookup(|_| None).unwrap(), Limits::default());
        let l = Limits::from_lookup(|v| (v == MAX_PRINT_COPIES_VAR).then(|| "12".into())).unwrap();
        assert_eq!(l.max_print_copies, 12);
        assert_eq!(l.max_file_bytes, Limits::default().max_file_bytes);
        let l = Limits::from_lookup(|v| (v == EXPORT_SECONDS_VAR).then(|| "5".into())).unwrap();
        assert_eq!(l.export_seconds, 5);
        for bad in ["0", "-1", "ten", ""] {
            let e = Limits::from_lookup(|_| Some(bad.into())).unwrap_err();
            assert_eq!(e.value, bad);
        }
    }
}
