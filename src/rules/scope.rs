//! What a rule kind compiles against: the game ([`Cx`]) and the rule in
//! its scope ([`Scoped`]), with the checks every kind shares (bounds,
//! filters, fields). `compile` dispatches each rule to its kind; the kinds
//! use these pieces, so neither imports the other.

use std::collections::{BTreeSet, HashMap};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use serde_json::Value;

use super::filter::CardFilter;
use super::keys::{Keyed, KeyedBuilder, field_text, path};
use crate::config::rules::{Bounds, Filter};
use crate::diag::{Diagnostic, Diagnostics};
use crate::link::CardPool;
use crate::suggest;
use crate::validate::{GameSchemas, LoadedManifest, RESERVED};

/// The game every rule compiles against: its manifest, card pool and
/// schemas.
pub(super) struct Cx<'a> {
    pub(super) manifest: &'a LoadedManifest,
    pub(super) pool: &'a CardPool,
    pub(super) schemas: &'a GameSchemas,
    /// The copy keys of the pool, by the fields they are made of: rules
    /// keyed alike (several `copies` and `distinct` rules by `name`, in
    /// the deck rules and again in each format's) share one walk.
    pub(super) keys: KeyMemo,
}

/// The pool's keys ([`Keys`]) by the fields they are made of, each made
/// once by whichever rule asks first (the rules compile side by side).
pub(super) type KeyMemo = Mutex<HashMap<Vec<String>, Arc<OnceLock<Keys>>>>;

/// Interned copy keys of every card of the pool, in pool order, with how
/// each card's value reads.
pub(super) type Keys = Keyed;

impl Cx<'_> {
    /// A `game.toml` error at `pointer`.
    pub(super) fn error(
        &self,
        code: &'static str,
        pointer: &str,
        message: String,
        label: &str,
    ) -> Diagnostic {
        let span = self.manifest.spans.key_span(pointer).unwrap_or(0..0);
        Diagnostic::error(code, message).at(self.manifest.file, span, label)
    }

    /// The game's kind ids, in manifest order.
    fn kind_ids(&self) -> Vec<&str> {
        self.manifest
            .manifest
            .kinds
            .keys()
            .map(String::as_str)
            .collect()
    }

    /// Whether `kind` is a kind of the game; reports it when it is not.
    pub(super) fn check_kind(&self, kind: &str, pointer: &str, diags: &mut Diagnostics) -> bool {
        if self.manifest.manifest.kinds.contains_key(kind) {
            return true;
        }
        diags.push(
            self.error(
                "rules::unknown-kind",
                pointer,
                format!("`{kind}` is not a kind of this game"),
                "unknown kind",
            )
            .with_help(suggest::help(kind, self.kind_ids(), "the game declares")),
        );
        false
    }
}

/// A rule being compiled, with the kinds it looks at: what each rule
/// kind's `compile` checks its declaration against and precomputes over.
pub(super) struct Scoped<'a, 'c> {
    pub(super) cx: &'a Cx<'c>,
    /// The rule's JSON pointer in `game.toml`.
    pub(super) at: &'a str,
    pub(super) scope: &'a [String],
}

impl Scoped<'_, '_> {
    /// A value computed for every card of the pool, in pool order.
    pub(super) fn each<T>(&self, mut f: impl FnMut(&crate::validate::RawCard) -> T) -> Vec<T> {
        self.cx.pool.iter().map(&mut f).collect()
    }

    /// Interned copy keys of every card, with how each card's value
    /// reads: made once per compile for each list of fields.
    pub(super) fn keys(&self, fields: &[String]) -> Keys {
        let once = {
            let mut memo = self.cx.keys.lock().unwrap_or_else(PoisonError::into_inner);
            Arc::clone(memo.entry(fields.to_vec()).or_default())
        };
        once.get_or_init(|| self.make_keys(fields)).clone()
    }

    fn make_keys(&self, fields: &[String]) -> Keys {
        let paths: Vec<Vec<String>> = fields.iter().map(|f| path(f)).collect();
        let words = |card: &crate::validate::RawCard| match &paths[..] {
            [one] => field_text(card, one),
            _ => paths
                .iter()
                .map(|p| field_text(card, p))
                .collect::<Vec<_>>()
                .join(" / "),
        };
        let mut keys = KeyedBuilder::default();
        for card in self.cx.pool.iter() {
            keys.card(card, &paths, words);
        }
        keys.finish()
    }

    /// Reports bounds that can never be met.
    pub(super) fn bounds(&self, b: &Bounds, pointer: &str, diags: &mut Diagnostics) -> Option<()> {
        let conflicting = b.exact.is_some() && (b.min.is_some() || b.max.is_some());
        let empty = b.exact.is_none() && b.min.is_none() && b.max.is_none();
        let inverted = matches!((b.min, b.max), (Some(lo), Some(hi)) if lo > hi);
        let problem = if conflicting {
            "`exact` cannot be combined with `min` or `max`"
        } else if empty {
            "give at least one of `exact`, `min` or `max`"
        } else if inverted {
            "`min` is greater than `max`"
        } else {
            return Some(());
        };
        diags.push(self.cx.error(
            "rules::bounds",
            pointer,
            format!("these bounds can never be met: {problem}"),
            "bad bounds",
        ));
        None
    }

    /// A filter compiled, its kinds and fields checked against the game.
    pub(super) fn filter(
        &self,
        filter: &Filter,
        pointer: &str,
        diags: &mut Diagnostics,
    ) -> Option<CardFilter> {
        let compiled = match CardFilter::compile(filter) {
            Ok(f) => f,
            Err(e) => {
                diags.push(self.cx.error(
                    "rules::filter",
                    &format!("{pointer}/{}", e.field),
                    e.message,
                    "bad condition",
                ));
                return None;
            }
        };
        let mut ok = true;
        if let Some(kinds) = compiled.kinds() {
            for (i, k) in kinds.iter().enumerate() {
                let p = if filter.get("kind").is_some_and(Value::is_array) {
                    format!("{pointer}/kind/{i}")
                } else {
                    format!("{pointer}/kind")
                };
                ok &= self.cx.check_kind(k, &p, diags);
            }
        }
        let fields: Vec<String> = compiled.fields().map(str::to_owned).collect();
        let paths: Vec<String> = filter.keys().cloned().collect();
        for (field, key) in fields.iter().zip(&paths) {
            ok &= self.field_exists(
                field,
                compiled.kinds().as_deref(),
                &format!("{pointer}/{key}"),
                diags,
            );
        }
        ok.then_some(compiled)
    }

    /// Reports fields no card of the rule's kinds can have.
    pub(super) fn fields(
        &self,
        fields: &[String],
        kinds: Option<&[String]>,
        pointer: &str,
        diags: &mut Diagnostics,
    ) -> Option<()> {
        let mut ok = true;
        for f in fields {
            let first = f.split('.').next().unwrap_or(f);
            ok &= self.field_exists(first, kinds, pointer, diags);
        }
        ok.then_some(())
    }

    /// Whether `field` can exist on the kinds the rule looks at: a reserved
    /// field, or a property of at least one of their schemas.
    fn field_exists(
        &self,
        field: &str,
        kinds: Option<&[String]>,
        pointer: &str,
        diags: &mut Diagnostics,
    ) -> bool {
        let field = field.split('.').next().unwrap_or(field);
        if RESERVED.contains(&field) {
            return true;
        }
        let kinds: Vec<&str> = kinds.map_or_else(
            || self.scope.iter().map(String::as_str).collect(),
            |k| k.iter().map(String::as_str).collect(),
        );
        let mut known = BTreeSet::new();
        for k in &kinds {
            match self.cx.schemas.property_names(k) {
                Some(props) => known.extend(props),
                // A kind whose schema is broken is reported elsewhere; do not pile on.
                None => return true,
            }
        }
        if known.contains(field) {
            return true;
        }
        let hint = suggest::closest(field, known.iter().map(String::as_str).chain(RESERVED));
        diags.push(
            self.cx
                .error(
                    "rules::unknown-field",
                    pointer,
                    format!("the rule uses the field `{field}`, which no card of kind {} has", kinds.iter().map(|k| format!("`{k}`")).collect::<Vec<_>>().join(", ")),
                    "unknown field",
                )
                .with_help(hint.map_or_else(|| "a rule may use the fields the kinds' schemas define, and id, kind, name, copies".into(), |h| format!("did you mean `{h}`?"))),
        );
        false
    }
}
