//! Where each rule comes from: its `source`, as advice that `carta check -v`
//! shows at the rule in `game.toml`.

use super::{CompiledRule, Rules};
use crate::diag::{Diagnostic, Severity};
use crate::validate::LoadedManifest;

/// One advice per declared rule (deck rules, box rules, each format's own
/// rules) naming its source, at the `source` value, or at the rule when it
/// states none.
pub fn sources(manifest: &LoadedManifest, rules: &Rules) -> Vec<Diagnostic> {
    // A format that extends the game's rules holds them too: name each once.
    let own = rules.formats.values().flat_map(|f| {
        f.rules
            .iter()
            .filter(|r| r.pointer.starts_with("/formats/"))
    });
    rules
        .deck
        .rules
        .iter()
        .chain(&rules.boxed.rules)
        .chain(own)
        .map(|rule| advice(manifest, rule))
        .collect()
}

fn advice(manifest: &LoadedManifest, rule: &CompiledRule) -> Diagnostic {
    let at = |pointer: &str| manifest.spans.value_span(pointer);
    match &rule.source {
        Some(source) => Diagnostic::new(
            Severity::Advice,
            "rules::source",
            format!("the rule `{}` ({}) comes from: {source}", rule.id, rule.name),
        )
        .at(
            manifest.file,
            at(&format!("{}/source", rule.pointer)).unwrap_or(0..0),
            "source",
        ),
        None => Diagnostic::new(
            Severity::Advice,
            "rules::source",
            format!(
                "the rule `{}` ({}) does not say where it comes from",
                rule.id, rule.name
            ),
        )
        .at(
            manifest.file,
            manifest.spans.key_span(&rule.pointer).unwrap_or(0..0),
            "no `source`",
        )
        .with_help("add `source = \"…\"`: the rulebook's section and a short quote, or \"inferred: …\" / \"sample: …\""),
    }
}
