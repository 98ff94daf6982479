//! Writing a shadow's TOML: keys, strings and numbers spelled so that the
//! TOML parser reads back exactly the value meant, whatever a cell holds.

use serde_json::Value;

use super::Expect;
use super::read::{Raw, float_text};

/// A key, bare when TOML allows it, else quoted.
pub(super) fn push_key(out: &mut String, key: &str) {
    out.push_str(&crate::load::toml_key(key));
}

/// A basic string, every control character escaped (a cell can hold
/// anything; the shadow stays one valid TOML value per cell).
pub(super) fn push_string(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => out.push_str(&format!("\\u{:04X}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
}

fn push_float(out: &mut String, f: f64) {
    if f.is_nan() {
        out.push_str("nan");
    } else if f.is_infinite() {
        out.push_str(if f > 0.0 { "inf" } else { "-inf" });
    } else {
        let s = format!("{f:?}");
        out.push_str(&s);
        if !s.contains(['.', 'e', 'E']) {
            out.push_str(".0");
        }
    }
}

/// A JSON value (an enum's, or a cell's to write) as inline TOML.
fn push_json(out: &mut String, v: &Value) {
    match v {
        Value::String(s) => push_string(out, s),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => match n.as_i64() {
            Some(i) => out.push_str(&i.to_string()),
            None => push_float(out, n.as_f64().unwrap_or(f64::NAN)),
        },
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                push_json(out, item);
            }
            out.push(']');
        }
        Value::Object(map) => {
            out.push('{');
            for (i, (k, item)) in map.iter().enumerate() {
                out.push_str(if i > 0 { ", " } else { " " });
                push_key(out, k);
                out.push_str(" = ");
                push_json(out, item);
            }
            out.push_str(if map.is_empty() { "}" } else { " }" });
        }
        // TOML has no null; a card's values never hold one.
        Value::Null => out.push_str("\"\""),
    }
}

/// A JSON value as inline TOML (what a spreadsheet cell holds for a value
/// nested deeper than its columns spell).
pub fn inline(v: &Value) -> String {
    let mut out = String::new();
    push_json(&mut out, v);
    out
}

/// The choice a cell names, by its value or its display label (exactly,
/// then ignoring case).
fn choose<'c>(text: &str, choices: &'c [(Value, Option<String>)]) -> Option<&'c Value> {
    let key = |v: &Value| match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    };
    let text = text.trim();
    let lower = text.to_lowercase();
    choices
        .iter()
        .find(|(v, _)| key(v).as_deref() == Some(text))
        .or_else(|| choices.iter().find(|(_, l)| l.as_deref() == Some(text)))
        .or_else(|| {
            choices
                .iter()
                .find(|(_, l)| l.as_ref().is_some_and(|l| l.to_lowercase() == lower))
        })
        .map(|(v, _)| v)
}

/// A cell's value as the type `expect` asks for, when it is one; else as
/// what it literally is (a number, or text), for the schema to refuse at
/// the cell — never coerced into something it does not say.
pub(super) fn push_scalar(out: &mut String, raw: &Raw, expect: &Expect) {
    if !expect.choices.is_empty()
        && let Some(v) = choose(&raw.shown(), &expect.choices)
    {
        return push_json(out, v);
    }
    let text_only = expect.string && !expect.integer && !expect.number && !expect.boolean;
    match raw {
        Raw::Text(s) => push_text(out, s, expect),
        _ if text_only => push_string(out, &raw.shown()),
        Raw::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Raw::Int(i) => out.push_str(&i.to_string()),
        Raw::Float(f) if f.fract() == 0.0 && f.abs() < 9e15 => out.push_str(&float_text(*f)),
        Raw::Float(f) => push_float(out, *f),
        Raw::Date(s) | Raw::Error(s) | Raw::Formula(s) => push_string(out, s),
    }
}

fn push_text(out: &mut String, s: &str, expect: &Expect) {
    let t = s.trim();
    let int = t.parse::<i64>().ok();
    let float = t.parse::<f64>().ok().filter(|f| f.is_finite());
    if let (true, Some(i)) = (expect.integer || expect.number, int) {
        return out.push_str(&i.to_string());
    }
    if let (true, Some(f)) = (expect.number, float) {
        return push_float(out, f);
    }
    if expect.boolean {
        if t.eq_ignore_ascii_case("true") {
            return out.push_str("true");
        }
        if t.eq_ignore_ascii_case("false") {
            return out.push_str("false");
        }
    }
    if expect.string {
        return push_string(out, s);
    }
    // Not what the schema asks for: as literal as it reads, so the
    // schema's message names it (`3.5` is not an integer).
    match (int, float) {
        (Some(i), _) => out.push_str(&i.to_string()),
        (None, Some(f)) => push_float(out, f),
        _ => push_string(out, s),
    }
}

/// A TOML value (an inline TOML cell), inline.
pub(super) fn push_toml(out: &mut String, v: &toml::Value) {
    match v {
        toml::Value::String(s) => push_string(out, s),
        toml::Value::Integer(i) => out.push_str(&i.to_string()),
        toml::Value::Float(f) => push_float(out, *f),
        toml::Value::Boolean(b) => out.push_str(if *b { "true" } else { "false" }),
        toml::Value::Datetime(d) => out.push_str(&d.to_string()),
        toml::Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                push_toml(out, item);
            }
            out.push(']');
        }
        toml::Value::Table(t) => {
            out.push_str("{ ");
            for (i, (k, item)) in t.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                push_key(out, k);
                out.push_str(" = ");
                push_toml(out, item);
            }
            out.push_str(" }");
        }
    }
}
