//! The deck builder page's messages (ids starting `ui-`) in one language,
//! as JSON for its scripts: each message worded by Fluent with its
//! variables left as `{$name}` slots, and a message that picks a plural
//! form by a count as each of the language's forms, the count a `{#}`
//! slot. The page picks the form with the browser's `Intl.PluralRules`
//! for the same language (the same CLDR rules as Fluent's) and fills the
//! slots: `t("ui-cards", {count: 3})`.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::LazyLock;

use fluent_bundle::{FluentArgs, FluentResource, FluentValue};
use fluent_syntax::ast;
use intl_pluralrules::{PluralCategory, PluralRuleType, PluralRules};
use serde_json::{Map, Value, json};
use unic_langid::LanguageIdentifier;

use super::Lang;

/// The slot of a plural message's count in the table.
pub const NUMBER: &str = "{#}";

/// The prefix of the messages the page's scripts use.
pub const PAGE: &str = "ui-";

/// Words every number as [`NUMBER`] (the table's bundles only).
pub(super) fn mark<M>(value: &FluentValue, _: &M) -> Option<String> {
    matches!(value, FluentValue::Number(_)).then(|| NUMBER.to_owned())
}

/// The variables a message uses.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Variables {
    /// Every variable it names.
    pub all: BTreeSet<String>,
    /// Those a select expression picks a variant by (its counts).
    pub selectors: BTreeSet<String>,
    /// The numbers its variants name exactly (`[0]`), which come before
    /// the plural categories.
    pub exact: BTreeSet<u64>,
}

/// Every message of `lang`'s file, in file order, with its variables.
pub fn messages(lang: Lang) -> Vec<(String, Variables)> {
    let resource = FluentResource::try_new(lang.source().to_owned())
        .unwrap_or_else(|(_, e)| panic!("{lang}.ftl does not parse: {e:?}"));
    resource
        .entries()
        .filter_map(|entry| match entry {
            ast::Entry::Message(m) => {
                let mut vars = Variables::default();
                if let Some(p) = &m.value {
                    pattern(p, &mut vars);
                }
                Some((m.id.name.to_owned(), vars))
            }
            _ => None,
        })
        .collect()
}

fn pattern(p: &ast::Pattern<&str>, vars: &mut Variables) {
    for element in &p.elements {
        if let ast::PatternElement::Placeable { expression } = element {
            expression_vars(expression, vars);
        }
    }
}

fn expression_vars(e: &ast::Expression<&str>, vars: &mut Variables) {
    match e {
        ast::Expression::Select { selector, variants } => {
            if let ast::InlineExpression::VariableReference { id } = selector {
                vars.selectors.insert(id.name.to_owned());
            }
            inline(selector, vars);
            for v in variants {
                if let ast::VariantKey::NumberLiteral { value } = &v.key
                    && let Ok(n) = value.parse()
                {
                    vars.exact.insert(n);
                }
                pattern(&v.value, vars);
            }
        }
        ast::Expression::Inline(i) => inline(i, vars),
    }
}

fn inline(i: &ast::InlineExpression<&str>, vars: &mut Variables) {
    match i {
        ast::InlineExpression::VariableReference { id } => {
            vars.all.insert(id.name.to_owned());
        }
        ast::InlineExpression::Placeable { expression } => expression_vars(expression, vars),
        ast::InlineExpression::FunctionReference { arguments, .. } => {
            for a in &arguments.positional {
                inline(a, vars);
            }
            for a in &arguments.named {
                inline(&a.value, vars);
            }
        }
        _ => {}
    }
}

/// The plural categories whole numbers take in `lang`, each with its
/// least numbers (CLDR's names: `one`, `many`, `other`).
pub fn categories(lang: Lang) -> BTreeMap<&'static str, Vec<u64>> {
    // As Fluent finds them: the language alone (`pt` for `pt-BR`) when
    // the rules have no entry for the region.
    let id = lang.id();
    let rules = PluralRules::create(id.clone(), PluralRuleType::CARDINAL)
        .or_else(|_| {
            let base = LanguageIdentifier::from_parts(id.language, None, None, &[]);
            PluralRules::create(base, PluralRuleType::CARDINAL)
        })
        .unwrap_or_else(|e| panic!("no plural rules for {lang}: {e}"));
    let mut out = BTreeMap::new();
    for n in (0..=1_000).chain([1_000_000, 1_000_000_000]) {
        let Ok(category) = rules.select(n) else {
            continue;
        };
        let name = match category {
            PluralCategory::ZERO => "zero",
            PluralCategory::ONE => "one",
            PluralCategory::TWO => "two",
            PluralCategory::FEW => "few",
            PluralCategory::MANY => "many",
            PluralCategory::OTHER => "other",
        };
        let samples: &mut Vec<u64> = out.entry(name).or_default();
        if samples.len() < 4 {
            samples.push(n);
        }
    }
    out
}

static TABLES: LazyLock<[Value; 3]> = LazyLock::new(|| Lang::ALL.map(build));

/// The page's messages in `lang` (built once): `{id: text}` for a
/// message without a count, `{id: {n: "count", forms: {one: …, other:
/// …}}}` for one with, where a form `=0` is for exactly that number.
pub fn page(lang: Lang) -> &'static Value {
    &TABLES[lang.index()]
}

fn build(lang: Lang) -> Value {
    let bundle = super::bundle(lang, true);
    let categories = categories(lang);
    let mut out = Map::new();
    for (id, vars) in messages(lang) {
        if !id.starts_with(PAGE) {
            continue;
        }
        let Some(p) = bundle.get_message(&id).and_then(|m| m.value()) else {
            continue;
        };
        let word = |count: Option<(&str, u64)>| {
            let mut args = FluentArgs::new();
            for v in &vars.all {
                match count {
                    Some((n, sample)) if n == v => args.set(v.clone(), sample),
                    _ => args.set(v.clone(), format!("{{${v}}}")),
                }
            }
            let mut errors = Vec::new();
            bundle
                .format_pattern(p, Some(&args), &mut errors)
                .into_owned()
        };
        let entry = match vars.selectors.iter().next() {
            None => Value::String(word(None)),
            Some(n) => {
                // Each category worded with one of its numbers that no
                // variant names exactly, then each exact number.
                let mut forms: Map<String, Value> = categories
                    .iter()
                    .filter_map(|(name, samples)| {
                        let sample = samples.iter().find(|s| !vars.exact.contains(s))?;
                        Some(((*name).to_owned(), word(Some((n, *sample))).into()))
                    })
                    .collect();
                for &exact in &vars.exact {
                    forms.insert(format!("={exact}"), word(Some((n, exact))).into());
                }
                json!({ "n": n, "forms": forms })
            }
        };
        out.insert(id, entry);
    }
    Value::Object(out)
}
