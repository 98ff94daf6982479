//! Deck files: `game`, `name`, and one table per zone mapping card ids to
//! copies. A deck is parsed with spans, resolved against its game's pool and
//! zones, and checked against the game's deck rules.

use indexmap::IndexMap;
use toml::de::DeValue;

use crate::config::rules::RuleSeverity;
use crate::diag::{Cap, Diagnostic, FileId, Label, Phrase, Severity, Span};
use crate::l10n::{self, english};
use crate::limits::max_diagnostics_per_file;
use crate::link::CardPool;
use crate::load::{parse_toml, toml_key};
use crate::rules::{DeckView, Entry, RuleSet, Rules, Tally};
use crate::suggest;
use crate::validate::LoadedManifest;

/// The most copies one deck line may hold (a sanity bound, not a game rule).
pub const MAX_COUNT: i64 = 10_000;

/// A deck file as written.
#[derive(Debug, Clone, PartialEq)]
pub struct DeckFile {
    /// The file.
    pub file: FileId,
    /// The game it is for, and where that is written.
    pub game: String,
    /// The span of the `game` value.
    pub game_span: Span,
    /// The deck's name.
    pub name: String,
    /// Who plays the deck (`player = "…"`), for organisers' tables and
    /// printed decklists; no rule reads it.
    pub player: Option<String>,
    /// The format the deck opts into (`format = "<id>"`), and where that is
    /// written; without one the deck is judged by the game's own rules.
    pub format: Option<(String, Span)>,
    /// The zones, in file order.
    pub zones: Vec<DeckZone>,
    /// Whether every line was read (a line with a bad count is left out and
    /// makes the deck incomplete: its rules are not evaluated).
    pub complete: bool,
}

/// One zone table of a deck file.
#[derive(Debug, Clone, PartialEq)]
pub struct DeckZone {
    /// The zone id.
    pub id: String,
    /// The span of the zone's header key.
    pub span: Span,
    /// Its lines, in file order.
    pub entries: Vec<DeckEntry>,
}

/// One line of a deck: `card-id = copies`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeckEntry {
    /// The card id.
    pub id: String,
    /// The number of copies.
    pub count: u32,
    /// The span of the id (the key).
    pub span: Span,
}

/// Parses a deck file, reporting every malformed part. Returns `None` when
/// there is no usable deck (a syntax error, no `game`).
pub fn parse(file: FileId, text: &str, out: &mut Vec<Diagnostic>) -> Option<DeckFile> {
    let (doc, ok) = parse_toml(file, text, out);
    if !ok {
        return None;
    }
    let mut game = None;
    let mut name = None;
    let mut format = None;
    let mut player = None;
    let mut zones = Vec::new();
    let mut complete = true;
    let example = first_line(doc.get_ref());
    for (key, value) in doc.get_ref() {
        match (key.get_ref().as_ref(), value.get_ref()) {
            ("game", DeValue::String(s)) => game = Some((s.to_string(), value.span())),
            ("name", DeValue::String(s)) => name = Some(s.to_string()),
            ("format", DeValue::String(s)) => format = Some((s.to_string(), value.span())),
            ("player", DeValue::String(s)) => player = Some(s.to_string()),
            ("game" | "name" | "format" | "player", _) => out.push(
                Diagnostic::error(
                    "deck::field",
                    format!("`{}` must be a string", key.get_ref()),
                )
                .at(file, value.span(), "expected a string"),
            ),
            (zone, DeValue::Table(table)) => {
                let (z, whole) = zone_of(file, (zone, key.span()), table, example.as_deref(), out);
                complete &= whole;
                zones.push(z);
            }
            (other, _) => out.push(unknown_field(file, other, key.span())),
        }
    }
    let head = 0..text.find('\n').unwrap_or(text.len());
    if name.is_none() {
        out.push(
            Diagnostic::error("deck::field", "the deck has no `name`")
                .at(file, head.clone(), "`name` is missing")
                .with_help("add `name = \"…\"`"),
        );
    }
    let Some((game, game_span)) = game else {
        out.push(
            Diagnostic::error("deck::field", "the deck does not say which game it is for")
                .at(file, head, "`game` is missing")
                .with_help(
                    "add `game = \"<game id>\"`, the name of the game's folder under `cards/`",
                ),
        );
        return None;
    };
    Some(DeckFile {
        file,
        game,
        game_span,
        name: name.unwrap_or_default(),
        player,
        format,
        zones,
        complete,
    })
}

/// The deck's first well-formed line (`card-id = copies`), to show a bad
/// count how a line of this very game is written.
fn first_line(doc: &toml::de::DeTable<'_>) -> Option<String> {
    doc.values()
        .filter_map(|v| match v.get_ref() {
            DeValue::Table(t) => Some(t),
            _ => None,
        })
        .flat_map(|t| t.iter())
        .find_map(|(id, count)| {
            let n = count_of(count.get_ref()).ok()?;
            Some(format!("{} = {n}", toml_key(id.get_ref())))
        })
}

/// One zone's table of a deck file (its name and header span), and whether
/// every line of it counted. `example` is a well-formed line for the help.
fn zone_of(
    file: FileId,
    (zone, span): (&str, Span),
    table: &toml::de::DeTable<'_>,
    example: Option<&str>,
    out: &mut Vec<Diagnostic>,
) -> (DeckZone, bool) {
    let mut entries = Vec::new();
    let mut complete = true;
    let mut cap = Cap::new(max_diagnostics_per_file());
    for (id, count) in table {
        match count_of(count.get_ref()) {
            Ok(n) => entries.push(DeckEntry {
                id: id.get_ref().to_string(),
                count: n,
                span: id.span(),
            }),
            Err(found) => {
                complete = false;
                let example = example
                    .map_or_else(|| format!("{} = 1", toml_key(id.get_ref())), str::to_owned);
                cap.push(out,
                    Diagnostic::error("deck::bad-count", format!("the count of `{}` must be a whole number from 1 to {MAX_COUNT}, but it is {found}", id.get_ref()))
                        .at(file, count.span(), "not a number of copies")
                        .with_help(format!("write how many copies the deck holds, such as `{example}`; remove the line for none")),
                );
            }
        }
    }
    let zone = DeckZone {
        id: zone.to_owned(),
        span,
        entries,
    };
    (zone, complete)
}

fn unknown_field(file: FileId, field: &str, span: Span) -> Diagnostic {
    let hint = suggest::closest(field, ["game", "name", "format", "player"]);
    Diagnostic::error("deck::field", format!("`{field}` is not a deck field"))
        .at(file, span, "unknown field")
        .with_help(hint.map_or_else(
            || "a deck file holds `game`, `name`, optionally `format` and `player`, and a table per zone such as `[main]`".into(),
            |h| format!("did you mean `{h}`?"),
        ))
}

fn count_of(value: &DeValue<'_>) -> Result<u32, String> {
    match value {
        DeValue::Integer(i) => match i64::from_str_radix(i.as_str(), i.radix()) {
            Ok(n) if (1..=MAX_COUNT).contains(&n) => Ok(u32::try_from(n).expect("bounded")),
            Ok(n) => Err(n.to_string()),
            Err(_) => Err(i.to_string()),
        },
        DeValue::Float(f) => Err(format!("the float {f}")),
        DeValue::String(s) => Err(format!("the string {s:?}")),
        other => Err(format!("a {}", other.type_str())),
    }
}

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
/// then mislead.
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
    let clean = found.is_empty() && deck.complete;
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
        let severity = if rule.severity == RuleSeverity::Warning {
            Severity::Warning
        } else {
            Severity::Error
        };
        let mut d = Diagnostic::new(severity, rule.code(false), v.message).at(
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
        let severity = if rule.severity == RuleSeverity::Warning {
            Severity::Warning
        } else {
            Severity::Error
        };
        let mut d = Diagnostic::new(severity, rule.code(true), v.message).at(
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::SourceMap;

    fn bad_count_help(text: &str) -> String {
        let file = SourceMap::new().add("d.toml", text);
        let mut out = Vec::new();
        parse(file, text, &mut out);
        let bad = out.iter().find(|d| d.code == "deck::bad-count");
        bad.and_then(|d| d.help.clone()).expect("a bad count")
    }

    #[test]
    fn a_bad_count_shows_the_decks_first_well_formed_line() {
        let help = bad_count_help("game = \"g\"\nname = \"d\"\n[a]\nx = 0\n[b]\ny = 4\n");
        assert!(help.contains("such as `y = 4`"), "{help}");
    }

    #[test]
    fn without_a_well_formed_line_a_bad_count_shows_its_own_id() {
        let help = bad_count_help("game = \"g\"\nname = \"d\"\n[a]\n\"x y\" = 0\n");
        assert!(help.contains("such as `\"x y\" = 1`"), "{help}");
    }
}
