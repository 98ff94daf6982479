//! The bound on what one build or print may lay out: a few lines of input
//! asking for a million copies must not become sheets that fill the disk.
//! Every card face printed counts, over every game and deck of the run.

use super::{Print, spans};
use crate::diag::{Diagnostic, Diagnostics};
use crate::emit::Stage;
use crate::limits::MAX_PRINT_COPIES_VAR;
use crate::load::Workspace;

/// [`spend`] against the run's count in `stage` and the workspace's limit:
/// `false` once the excess is reported into `diags`.
pub(super) fn within(
    stage: &mut Stage,
    ws: &Workspace,
    prints: &[Print<'_>],
    diags: &mut Diagnostics,
) -> bool {
    let mut found = Vec::new();
    let limit = ws.limits().max_print_copies;
    let ok = spend(stage.printed(), limit, prints, ws, &mut found);
    diags.extend(found);
    ok
}

/// Adds the copies of `prints` to `used` (the card faces the run has laid
/// out so far) when the total stays within `limit`; otherwise reports it at
/// the card asking for the most copies, adds nothing and returns `false`.
fn spend(
    used: &mut u64,
    limit: u64,
    prints: &[Print<'_>],
    ws: &Workspace,
    diags: &mut Vec<Diagnostic>,
) -> bool {
    let wanted: u64 = prints.iter().map(|p| u64::from(p.count)).sum();
    let total = used.saturating_add(wanted);
    if total <= limit {
        *used = total;
        return true;
    }
    let mut d = Diagnostic::error(
        "sheets::too-many-copies",
        format!("this would print {total} card faces, more than the limit of {limit} per run"),
    )
    .with_help(format!(
        "lower `copies`, print fewer games or decks at once, or raise the limit with {MAX_PRINT_COPIES_VAR}=<n>"
    ));
    if let Some(most) = prints.iter().max_by_key(|p| p.count) {
        let at = spans::field(&ws.sources, ws.jail(), most.card, "/copies");
        d = d.at(
            most.card.file,
            at.value,
            format!("{} copies of `{}`", most.count, most.card.id),
        );
    }
    diags.push(d);
    false
}
