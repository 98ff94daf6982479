//! Decks: a deck file (`file.rs`) is resolved against its game's pool and
//! zones, and checked against the game's deck rules; the box rules over
//! the pool.
//!
//! [`judge`] is the one verdict: it picks the deck's rules (the game's, or
//! those of the `format` it names), resolves the deck (zones, ids, kinds)
//! and checks it, every violation a diagnostic. `carta deck check`, the
//! deck builder and the organisers' page all judge through it.

use indexmap::IndexMap;

use crate::config::rules::RuleSeverity;
use crate::diag::{Cap, Diagnostic, Label, Phrase, Severity};
use crate::l10n::{self, english};
use crate::limits::max_diagnostics_per_file;
use crate::link::CardPool;
use crate::rules::{DeckView, Entry, RuleSet, Rules, Tally};
use crate::suggest;
use crate::validate::LoadedManifest;

mod file;

pub use file::{DeckEntry, DeckFile, DeckZone, MAX_COUNT, parse};

/// A deck resolved against its game: the engine's view, and for each view
/// entry the deck line it came from.
#[derive(Debug, Clone)]
pub struct ResolvedDeck {
    /// The engine's view.
    pub view: DeckView,
    /// For each view zone and entry, the (deck zone, deck entry) it came from.
    pub origin: Vec<Vec<(usize, usize)>>,
}

/// Resolves a deck: zones and card ids must exist, and each card's kind must
/// be accepted by its zone. Returns `None` (after reporting) when anything
/// could not be resolved or a line was left out, since rule counts would
/// then mislead; a line naming a card left out of the pool for its own
/// error ([`CardPool::left_out`]) is not reported again.
pub fn resolve(
    deck: &DeckFile,
    manifest: &LoadedManifest,
    pool: &CardPool,
    rules: &RuleSet,
    out: &mut Vec<Diagnostic>,
) -> Option<ResolvedDeck> {
    let zones = &manifest.manifest.zones;
    let mut view = DeckView {
        zones: vec![Vec::new(); rules.zones.len()],
    };
    let mut origin = vec![Vec::new(); rules.zones.len()];
    if zones.is_empty() {
        let said = Phrase::new("deck-no-zones").with("game", &deck.game);
        out.push(
            Diagnostic::error("deck::no-zones", english(&said))
                .at(deck.file, deck.game_span.clone(), "this game")
                .worded(said, None),
        );
        return None;
    }
    // A deck of a million unknown ids keeps the diagnostics of a few.
    let mut found = Vec::new();
    let mut cap = Cap::new(max_diagnostics_per_file());
    let mut left_out = false;
    for (dz, zone) in deck.zones.iter().enumerate() {
        let Some(z) = rules.zones.iter().position(|r| r.id == zone.id) else {
            let said = Phrase::new("deck-unknown-zone")
                .with("zone", &zone.id)
                .with("game", &deck.game);
            let help = l10n::choices(&zone.id, zones.keys().map(String::as_str), "deck-zones-are");
            found.push(
                Diagnostic::error("deck::unknown-zone", english(&said))
                    .at(deck.file, zone.span.clone(), "unknown zone")
                    .with_help(english(&help))
                    .worded(said, Some(help)),
            );
            continue;
        };
        for (de, entry) in zone.entries.iter().enumerate() {
            // A card left out of the pool for its own error is no unknown
            // card, but the deck is not whole without it.
            if pool.left_out(&entry.id) {
                left_out = true;
                continue;
            }
            let card = entry_card(deck, zone, entry, (z, manifest), pool, rules, &mut found);
            cap.settle(&mut found);
            let Some(card) = card else {
                continue;
            };
            view.zones[z].push(Entry {
                card,
                count: entry.count,
            });
            origin[z].push((dz, de));
        }
    }
    let clean = found.is_empty() && deck.complete && !left_out;
    out.append(&mut found);
    clean.then_some(ResolvedDeck { view, origin })
}

/// The pool index of a deck line's card, when the game has it and zone `z`
/// takes its kind; otherwise reports why and returns `None`.
fn entry_card(
    deck: &DeckFile,
    zone: &DeckZone,
    entry: &DeckEntry,
    (z, manifest): (usize, &LoadedManifest),
    pool: &CardPool,
    rules: &RuleSet,
    out: &mut Vec<Diagnostic>,
) -> Option<u32> {
    let Some(card) = pool.position(&entry.id) else {
        let hint = suggest::closest(&entry.id, pool.ids())
            .map(|h| Phrase::new("deck-did-you-mean").with("name", h));
        let said = Phrase::new("deck-unknown-card")
            .with("card", &entry.id)
            .with("game", &deck.game);
        out.push(
            Diagnostic::error("deck::unknown-card", english(&said))
                .at(deck.file, entry.span.clone(), "no such card")
                .with_help_opt(hint.as_ref().map(english))
                .worded(said, hint),
        );
        return None;
    };
    if !rules.zones[z].accepts[card] {
        let kind = &pool.card(card).kind;
        let zone_decl = &manifest.manifest.zones[&zone.id];
        let said = Phrase::new("deck-zone-kind")
            .with("card", &entry.id)
            .with("kind", kind)
            .with("zone", &zone.id);
        let help = Phrase::new("deck-zone-kind-help")
            .with("zone", &zone.id)
            .with("name", &zone_decl.name)
            .with("kinds", zone_decl.kinds.join(", "));
        out.push(
            Diagnostic::error("deck::zone-kind", english(&said))
                .at(deck.file, entry.span.clone(), format!("of kind `{kind}`"))
                .with_help(english(&help))
                .worded(said, Some(help)),
        );
        return None;
    }
    Some(u32::try_from(card).expect("pool fits u32"))
}

/// The deck rules a deck is judged by: those of the format it names, or the
/// game's own. An unknown format is reported at the deck's `format` value.
pub fn rules_for<'r>(
    deck: &DeckFile,
    rules: &'r Rules,
    out: &mut Vec<Diagnostic>,
) -> Option<&'r RuleSet> {
    let Some((format, span)) = &deck.format else {
        return Some(&rules.deck);
    };
    if let Some(set) = rules.formats.get(format) {
        return Some(set);
    }
    let help = if rules.formats.is_empty() {
        Phrase::new("deck-no-formats").with("game", &deck.game)
    } else {
        l10n::choices(
            format,
            rules.formats.keys().map(String::as_str),
            "deck-formats-are",
        )
    };
    let said = Phrase::new("deck-unknown-format")
        .with("format", format)
        .with("game", &deck.game);
    out.push(
        Diagnostic::error("deck::unknown-format", english(&said))
            .at(deck.file, span.clone(), "unknown format")
            .with_help(english(&help))
            .worded(said, Some(help)),
    );
    None
}

/// Judges a deck: picks its rules ([`rules_for`]), resolves it and checks
/// it, reporting into `out`. Returns the resolved deck and the rules it was
/// judged by, or `None` when it could not be judged.
pub fn judge<'r>(
    deck: &DeckFile,
    manifest: &LoadedManifest,
    pool: &CardPool,
    rules: &'r Rules,
    out: &mut Vec<Diagnostic>,
) -> Option<(ResolvedDeck, &'r RuleSet)> {
    let set = rules_for(deck, rules, out)?;
    let resolved = resolve(deck, manifest, pool, set, out)?;
    check(deck, &resolved, manifest, set, out);
    Some((resolved, set))
}

/// At most this many cards are labelled in one diagnostic.
const MAX_LABELS: usize = 8;

/// Checks a resolved deck against the deck rules, reporting each broken rule
/// at the deck line most to blame, with the rule labelled in `game.toml`.
pub fn check(
    deck: &DeckFile,
    resolved: &ResolvedDeck,
    manifest: &LoadedManifest,
    rules: &RuleSet,
    out: &mut Vec<Diagnostic>,
) {
    for v in rules.check(&resolved.view) {
        let rule = &rules.rules[v.rule];
        let line = |(z, i): (usize, usize)| {
            let (dz, de) = resolved.origin[z][i];
            &deck.zones[dz].entries[de]
        };
        let zone_span = v
            .zone
            .and_then(|z| deck.zones.iter().find(|dz| dz.id == rules.zones[z].id))
            .map(|dz| dz.span.clone());
        let primary = v
            .primary
            .map(|p| line(p).span.clone())
            .or(zone_span)
            .unwrap_or_else(|| deck.game_span.clone());
        let mut d = Diagnostic::new(severity(rule.severity), rule.code(false), v.message).at(
            deck.file,
            primary,
            format!("breaks `{}`", rule.id),
        );
        for &at in v.entries.iter().take(MAX_LABELS) {
            let l = line(at);
            d = d.with_label(Label::new(
                deck.file,
                l.span.clone(),
                format!("{} × `{}`", l.count, l.id),
            ));
        }
        out.push(
            d.with_label(rule_label(manifest, rule))
                .with_help(more(v.entries.len())),
        );
    }
}

/// The severity of a diagnostic for a broken rule of severity `s`.
fn severity(s: RuleSeverity) -> Severity {
    match s {
        RuleSeverity::Error => Severity::Error,
        RuleSeverity::Warning => Severity::Warning,
    }
}

/// Checks the whole card pool against the box rules, each card counted
/// `copies` times; a broken rule is reported at the rule, with the cards.
pub fn check_box(
    manifest: &LoadedManifest,
    pool: &CardPool,
    rules: &RuleSet,
    out: &mut Vec<Diagnostic>,
) {
    if rules.rules.is_empty() {
        return;
    }
    let view = box_view(pool);
    for v in rules.check(&view) {
        let rule = &rules.rules[v.rule];
        let span = manifest.spans.key_span(&rule.pointer).unwrap_or(0..0);
        let mut d = Diagnostic::new(severity(rule.severity), rule.code(true), v.message).at(
            manifest.file,
            span,
            format!("the rule `{}`", rule.id),
        );
        for &(_, i) in v.primary.iter().chain(&v.entries).take(MAX_LABELS) {
            let card = pool.card(view.zones[0][i].card as usize);
            d = d.with_label(Label::new(
                card.file,
                card.id_span.clone(),
                format!("`{}` counts here", card.id),
            ));
        }
        out.push(d.with_help(more(v.entries.len() + usize::from(v.primary.is_some()))));
    }
}

/// The pool as one zone, each card `copies` times.
pub fn box_view(pool: &CardPool) -> DeckView {
    let entries = pool
        .iter()
        .enumerate()
        .map(|(i, c)| Entry {
            card: u32::try_from(i).expect("pool fits u32"),
            count: c.copies.unwrap_or(1),
        })
        .collect();
    DeckView {
        zones: vec![entries],
    }
}

fn more(n: usize) -> String {
    if n > MAX_LABELS {
        format!("{} more cards are involved but not shown", n - MAX_LABELS)
    } else {
        String::new()
    }
}

fn rule_label(manifest: &LoadedManifest, rule: &crate::rules::CompiledRule) -> Label {
    let span = manifest.spans.key_span(&rule.pointer).unwrap_or(0..0);
    Label::new(
        manifest.file,
        span,
        format!("the rule `{}` is declared here", rule.id),
    )
}

/// The tally of every rule for a deck, as lines of a table (`--explain`):
/// each rule's verdict, then where the rule comes from.
pub fn tally_lines(rules: &RuleSet, tallies: &[Tally]) -> Vec<String> {
    let width = rules.rules.iter().map(|r| r.id.len()).max().unwrap_or(0);
    tallies
        .iter()
        .flat_map(|t| {
            let r = &rules.rules[t.rule];
            let mark = if t.ok {
                "ok  "
            } else if r.severity == RuleSeverity::Warning {
                "warn"
            } else {
                "FAIL"
            };
            let verdict = format!(
                "  {mark} {:width$}  {}: {} (requires {})",
                r.id, r.name, t.actual, t.expected
            );
            let source = format!(
                "       {:width$}  source: {}",
                "",
                r.source.as_deref().unwrap_or("not stated")
            );
            [verdict, source]
        })
        .collect()
}

/// A deck's lines by zone, for printing it back (deck codes).
pub fn zones_of(deck: &DeckFile) -> IndexMap<String, Vec<(String, u32)>> {
    deck.zones
        .iter()
        .map(|z| {
            (
                z.id.clone(),
                z.entries.iter().map(|e| (e.id.clone(), e.count)).collect(),
            )
        })
        .collect()
}
