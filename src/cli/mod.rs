//! The command line: clap types (`args.rs`), and the dispatch from a
//! parsed command to its module in `commands` (`run.rs`). Nothing else
//! happens here.

mod args;
mod run;

pub use args::{
    Cli, Color, Command, ConvertArgs, ConvertTo, DeckCommand, ExportArgs, ExportFormat, Global,
    I18nCommand, ListBy, MessageFormat, PrintArgs, ServeArgs, WatchArgs,
};
pub use run::{parse, run};
