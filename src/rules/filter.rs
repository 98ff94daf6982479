//! Card filters: the declared table ([`Filter`]) compiled into conditions
//! and matched against cards.

use std::borrow::Cow;

use serde_json::Value;

use crate::config::rules::Filter;
use crate::validate::RawCard;

/// A compiled filter: every condition must hold.
#[derive(Debug, Clone, Default)]
pub struct CardFilter {
    conditions: Vec<(Vec<String>, Cond)>,
}

#[derive(Debug, Clone)]
enum Cond {
    Any(Vec<Value>),
    Not(Vec<Value>),
    Range { min: Option<f64>, max: Option<f64> },
    Exists(bool),
}

/// Why a filter could not be compiled: the field (as written) and the problem.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FilterError {
    /// The filter key the problem is under.
    pub field: String,
    /// What is wrong.
    pub message: String,
}

impl CardFilter {
    /// Compiles a declared filter.
    ///
    /// # Errors
    /// A condition table with an unknown key or a bad value.
    pub fn compile(filter: &Filter) -> Result<Self, FilterError> {
        let mut conditions = Vec::with_capacity(filter.len());
        for (field, spec) in filter {
            let path = field.split('.').map(str::to_owned).collect();
            conditions.push((
                path,
                cond(spec).map_err(|message| FilterError {
                    field: field.clone(),
                    message,
                })?,
            ));
        }
        Ok(CardFilter { conditions })
    }

    /// Whether `card` matches.
    pub fn matches(&self, card: &RawCard) -> bool {
        self.conditions
            .iter()
            .all(|(path, c)| match reserved_str(card, path) {
                // Not copied into a value: a rule compiles over every card.
                Some(s) => c.holds_str(s),
                None => c.holds(field_value(card, path).as_deref()),
            })
    }

    /// The field names the filter uses (first segment of each path).
    pub fn fields(&self) -> impl Iterator<Item = &str> {
        self.conditions.iter().map(|(p, _)| p[0].as_str())
    }

    /// The kinds the filter restricts cards to, if it names any with `kind`.
    pub fn kinds(&self) -> Option<Vec<String>> {
        self.conditions
            .iter()
            .find(|(p, _)| p.len() == 1 && p[0] == "kind")
            .and_then(|(_, c)| match c {
                Cond::Any(values) => Some(
                    values
                        .iter()
                        .filter_map(|v| v.as_str().map(str::to_owned))
                        .collect(),
                ),
                _ => None,
            })
    }
}

fn cond(spec: &Value) -> Result<Cond, String> {
    Ok(match spec {
        Value::Array(values) => Cond::Any(values.clone()),
        Value::Object(table) => {
            let mut min = None;
            let mut max = None;
            let mut result = None;
            for (key, value) in table {
                match key.as_str() {
                    "not" => result = Some(Cond::Not(one_or_many(value))),
                    "exists" => {
                        result = Some(Cond::Exists(
                            value.as_bool().ok_or("`exists` takes true or false")?,
                        ));
                    }
                    "min" => min = Some(value.as_f64().ok_or("`min` takes a number")?),
                    "max" => max = Some(value.as_f64().ok_or("`max` takes a number")?),
                    other => {
                        return Err(format!(
                            "`{other}` is not a filter condition (use `not`, `min`, `max` or `exists`)"
                        ));
                    }
                }
            }
            match result {
                Some(c) if min.is_none() && max.is_none() => c,
                None if min.is_some() || max.is_some() => Cond::Range { min, max },
                _ => return Err("a condition table holds `not`, `exists`, or `min`/`max`".into()),
            }
        }
        scalar => Cond::Any(vec![scalar.clone()]),
    })
}

fn one_or_many(value: &Value) -> Vec<Value> {
    match value {
        Value::Array(values) => values.clone(),
        v => vec![v.clone()],
    }
}

impl Cond {
    fn holds(&self, value: Option<&Value>) -> bool {
        match (self, value) {
            (Cond::Any(values), Some(v)) => values.iter().any(|x| same(x, v)),
            (Cond::Any(_) | Cond::Range { .. }, None) => false,
            (Cond::Not(values), Some(v)) => !values.iter().any(|x| same(x, v)),
            (Cond::Not(_), None) => true,
            (Cond::Range { min, max }, Some(v)) => v
                .as_f64()
                .is_some_and(|n| min.is_none_or(|m| n >= m) && max.is_none_or(|m| n <= m)),
            (Cond::Exists(want), v) => v.is_some() == *want,
        }
    }
}

impl Cond {
    /// [`Cond::holds`] of a string value.
    fn holds_str(&self, s: &str) -> bool {
        let is = |x: &Value| x.as_str() == Some(s);
        match self {
            Cond::Any(values) => values.iter().any(is),
            Cond::Not(values) => !values.iter().any(is),
            // A string is no number.
            Cond::Range { .. } => false,
            Cond::Exists(want) => *want,
        }
    }
}

/// The reserved string field (`id`, `kind`, `name`) of `card` that `path`
/// names, if it names one.
pub(super) fn reserved_str<'c>(card: &'c RawCard, path: &[String]) -> Option<&'c str> {
    match path {
        [f] if f == "id" => Some(&card.id),
        [f] if f == "kind" => Some(&card.kind),
        [f] if f == "name" => Some(&card.name),
        _ => None,
    }
}

/// Equality of card values, with `1` equal to `1.0`.
pub fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        _ => a == b,
    }
}

/// The value of a (dotted) field of a card; the reserved fields included.
/// Borrowed from the card where it can be: rules are compiled over every
/// card of the pool.
pub fn field_value<'c>(card: &'c RawCard, path: &[String]) -> Option<Cow<'c, Value>> {
    let (first, rest) = path.split_first()?;
    let reserved = match first.as_str() {
        "id" => Value::String(card.id.clone()),
        "kind" => Value::String(card.kind.clone()),
        "name" => Value::String(card.name.clone()),
        "copies" => Value::from(card.copies.unwrap_or(1)),
        other => {
            let top = card.fields.get(other)?;
            return rest
                .iter()
                .try_fold(top, |v, seg| v.get(seg.as_str()))
                .map(Cow::Borrowed);
        }
    };
    // Reserved fields are scalars: nothing is below them.
    rest.is_empty().then_some(Cow::Owned(reserved))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn card(kind: &str, fields: &Value) -> RawCard {
        RawCard {
            id: "c".into(),
            kind: kind.into(),
            name: "C".into(),
            copies: None,
            errata: Vec::new(),
            fields: fields.as_object().unwrap().clone(),
            packed: None,
            file: crate::diag::FileId(0),
            header: 0..0,
            id_span: 0..0,
            refs: Vec::new(),
            names: 0,
        }
    }

    fn filter(v: Value) -> CardFilter {
        CardFilter::compile(&serde_json::from_value(v).unwrap()).unwrap()
    }

    #[test]
    fn filters_match_as_documented() {
        let merc = card(
            "character",
            &json!({"kingdom": "ferro", "mercenary": true, "level": 2, "bonus": {"attribute": "defense"}}),
        );
        let plain = card("character", &json!({"kingdom": "livre", "level": 1}));
        let table = [
            (json!({"kind": "character"}), true, true),
            (json!({"kind": ["hero", "character"]}), true, true),
            (json!({"kind": "hero"}), false, false),
            (json!({"mercenary": {"not": true}}), false, true),
            (json!({"mercenary": true}), true, false),
            (json!({"level": {"min": 2}}), true, false),
            (json!({"level": {"min": 1, "max": 1}}), false, true),
            (json!({"level": 2.0}), true, false),
            (json!({"mercenary": {"exists": false}}), false, true),
            (json!({"bonus.attribute": "defense"}), true, false),
            (
                json!({"kind": "character", "kingdom": {"not": ["ferro", "renegado"]}}),
                false,
                true,
            ),
            (json!({"copies": 1}), true, true),
        ];
        for (f, m, p) in table {
            let compiled = filter(f.clone());
            assert_eq!(compiled.matches(&merc), m, "{f} on the mercenary");
            assert_eq!(compiled.matches(&plain), p, "{f} on the plain card");
        }
    }

    #[test]
    fn bad_conditions_are_errors() {
        let bad: Filter = serde_json::from_value(json!({"level": {"atleast": 2}})).unwrap();
        let e = CardFilter::compile(&bad).unwrap_err();
        assert_eq!(e.field, "level");
        assert!(e.message.contains("atleast"));
    }

    #[test]
    fn a_filter_knows_its_kinds() {
        assert_eq!(
            filter(json!({"kind": ["a", "b"]})).kinds(),
            Some(vec!["a".into(), "b".into()])
        );
        assert_eq!(filter(json!({"level": 1})).kinds(), None);
    }
}
