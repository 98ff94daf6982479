//! The bound on what one build or print may lay out: a 6 KB input asking
//! for a million copies must not become a gigabyte of sheets. Every card
//! face printed counts, over every game and deck of the run.

use super::{Print, spans};
use crate::diag::{Diagnostic, SourceMap};
use crate::limits::MAX_PRINT_COPIES_VAR;

/// The copies one run may still print.
#[derive(Debug, Clone)]
pub struct CopyBudget {
    limit: u64,
    used: u64,
}

impl CopyBudget {
    /// A budget of `limit` copies (see [`crate::limits::Limits::max_print_copies`]).
    pub fn new(limit: u64) -> Self {
        CopyBudget { limit, used: 0 }
    }

    /// Takes the copies of `prints` from the budget; when they do not fit,
    /// reports it at the card asking for the most copies and takes nothing.
    pub fn spend(
        &mut self,
        prints: &[Print<'_>],
        sources: &SourceMap,
        diags: &mut Vec<Diagnostic>,
    ) -> bool {
        let wanted: u64 = prints.iter().map(|p| u64::from(p.count)).sum();
        if self.used.saturating_add(wanted) <= self.limit {
            self.used += wanted;
            return true;
        }
        let mut d = Diagnostic::error(
            "sheets::too-many-copies",
            format!(
                "this would print {} card faces, more than the limit of {} per run",
                self.used.saturating_add(wanted),
                self.limit
            ),
        )
        .with_help(format!(
            "lower `copies`, print fewer games or decks at once, or raise the limit with {MAX_PRINT_COPIES_VAR}=<n>"
        ));
        if let Some(most) = prints.iter().max_by_key(|p| p.count) {
            let at = spans::field(sources, most.card, "/copies");
            d = d.at(
                most.card.file,
                at.value,
                format!("{} copies of `{}`", most.count, most.card.id),
            );
        }
        diags.push(d);
        false
    }
}
