//! The whole toml-test 1.1.0 suite (tests/toml-test/, TOML 1.0) through
//! carta's card-file reader: every valid case reads to the value its tagged
//! JSON names, every invalid case is a diagnostic — never a panic, never a
//! value. The few cases carta reads differently on purpose are listed in
//! `DIFFERENT`, each with its reason.

use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use carta::diag::{Diagnostic, FileId};

/// Valid cases carta refuses on purpose: a card field is JSON, which holds
/// no infinity and no NaN, so the reader reports them (`schema::type`).
const REFUSED: [&str; 1] = ["valid/float/inf-and-nan.toml"];

/// Invalid TOML 1.0 that TOML 1.1 made valid: carta reads TOML 1.1 (the
/// `toml` crate's `spec-1.1.0`), so it reads these, to the values TOML 1.1
/// gives them.
const TOML_1_1: [(&str, &str); 7] = [
    // Seconds may be left out.
    (
        "invalid/datetime/no-secs.toml",
        r#"{"no-secs":"1987-07-05T17:45Z"}"#,
    ),
    // Inline tables may span lines, with comments and a trailing comma.
    (
        "invalid/inline-table/linebreak-1.toml",
        r#"{"simple":{"a":1}}"#,
    ),
    (
        "invalid/inline-table/linebreak-2.toml",
        r#"{"t":{"a":1,"b":2}}"#,
    ),
    (
        "invalid/inline-table/linebreak-3.toml",
        r#"{"t":{"a":1,"b":2}}"#,
    ),
    (
        "invalid/inline-table/linebreak-4.toml",
        r#"{"json_like":{"first":"Tom","last":"Preston-Werner"}}"#,
    ),
    (
        "invalid/inline-table/trailing-comma.toml",
        r#"{"abc":{"abc":123}}"#,
    ),
    // `\xHH` escapes a code point below 256.
    (
        "invalid/string/basic-byte-escapes.toml",
        r#"{"answer":"3"}"#,
    ),
];

/// What carta's reader makes of a file's bytes: the document as JSON, or
/// the diagnostics that refused it. A file that is not UTF-8 never reaches
/// the parser: the loader refuses it (`load::not-utf8`).
fn read(bytes: &[u8]) -> Result<Map<String, Value>, Vec<Diagnostic>> {
    let Ok(text) = std::str::from_utf8(bytes) else {
        return Err(vec![Diagnostic::error("load::not-utf8", "not UTF-8")]);
    };
    let mut diags = Vec::new();
    let doc = carta::load::read_toml(FileId(0), text, &mut diags);
    match doc {
        Some(map) if diags.is_empty() => Ok(map),
        _ => Err(diags),
    }
}

fn cases(kind: &str) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = walkdir::WalkDir::new(suite().join(kind))
        .into_iter()
        .map(|e| e.unwrap().into_path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    out.sort();
    out
}

fn suite() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/toml-test")
}

fn name(path: &Path) -> String {
    path.strip_prefix(suite())
        .unwrap()
        .to_string_lossy()
        .replace('\\', "/")
}

/// Whether carta's `value` is what the tagged JSON `expected` describes:
/// tables and arrays alike, leaves by their TOML type.
fn same(value: &Value, expected: &Value) -> Result<(), String> {
    match (value, expected) {
        (Value::Object(v), Value::Object(e)) if !is_tagged(e) => {
            let mut keys: Vec<_> = v.keys().collect();
            let mut want: Vec<_> = e.keys().collect();
            keys.sort();
            want.sort();
            if keys != want {
                return Err(format!("keys {keys:?}, expected {want:?}"));
            }
            v.iter()
                .try_for_each(|(k, x)| same(x, &e[k]).map_err(|m| format!(".{k}: {m}")))
        }
        (Value::Array(v), Value::Array(e)) => {
            if v.len() != e.len() {
                return Err(format!("{} items, expected {}", v.len(), e.len()));
            }
            v.iter()
                .zip(e)
                .enumerate()
                .try_for_each(|(i, (x, y))| same(x, y).map_err(|m| format!("[{i}]: {m}")))
        }
        (_, Value::Object(e)) if is_tagged(e) => leaf(value, &e["type"], &e["value"]),
        _ => Err(format!("{value} where {expected} was expected")),
    }
}

fn is_tagged(e: &Map<String, Value>) -> bool {
    e.len() == 2 && e.get("type").is_some_and(Value::is_string) && e.contains_key("value")
}

/// One leaf: integers as `i64`, floats as `f64` (the suite writes `-0.0`
/// as `0`: equal, not bit for bit), booleans, strings; datetimes are the
/// RFC 3339 string carta keeps, equal as datetimes (`56.6` is `56.6000`).
fn leaf(value: &Value, kind: &Value, expected: &Value) -> Result<(), String> {
    let want = expected.as_str().unwrap_or_default();
    let ok = match kind.as_str().unwrap_or_default() {
        "string" => value.as_str() == Some(want),
        "integer" => value.as_i64().is_some() && value.as_i64() == want.parse().ok(),
        "float" => {
            let want: f64 = want.parse().map_err(|_| format!("bad float {want}"))?;
            #[allow(clippy::float_cmp)] // the exact value, read from the same text
            let equal = value.is_f64() && value.as_f64() == Some(want);
            equal
        }
        "bool" => value.as_bool() == want.parse().ok(),
        "datetime" | "datetime-local" | "date-local" | "time-local" => {
            let datetime = |s: &str| s.parse::<toml::value::Datetime>().ok();
            value
                .as_str()
                .and_then(datetime)
                .is_some_and(|d| Some(d) == datetime(want))
        }
        other => return Err(format!("unknown type {other}")),
    };
    if ok {
        Ok(())
    } else {
        Err(format!("{value}, expected {kind} {want}"))
    }
}

#[test]
fn every_valid_case_reads_to_its_value() {
    let cases = cases("valid");
    assert!(cases.len() >= 95, "the suite is vendored: {}", cases.len());
    let mut failures = Vec::new();
    for path in &cases {
        let name = name(path);
        let bytes = std::fs::read(path).unwrap();
        let expected: Value =
            serde_json::from_slice(&std::fs::read(path.with_extension("json")).unwrap()).unwrap();
        let got = read(&bytes);
        if REFUSED.contains(&name.as_str()) {
            if got.is_ok() {
                failures.push(format!("{name}: read, but carta refuses it on purpose"));
            }
            continue;
        }
        match got {
            Ok(map) => {
                if let Err(why) = same(&Value::Object(map), &expected) {
                    failures.push(format!("{name}: {why}"));
                }
            }
            Err(diags) => failures.push(format!("{name}: refused: {:?}", diags[0].message)),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_invalid_case_is_a_diagnostic() {
    let cases = cases("invalid");
    assert!(cases.len() >= 200, "the suite is vendored: {}", cases.len());
    let mut accepted = Vec::new();
    for path in &cases {
        let bytes = std::fs::read(path).unwrap();
        let name = name(path);
        let newer = TOML_1_1.iter().find(|(n, _)| *n == name);
        match (read(&bytes), newer) {
            (Ok(map), Some((_, value))) => {
                assert_eq!(
                    Value::Object(map),
                    serde_json::from_str::<Value>(value).unwrap()
                );
            }
            (Ok(map), None) => accepted.push(format!("{name}: {}", Value::Object(map))),
            (Err(diags), Some(_)) => panic!("{name} is TOML 1.1: {diags:?}"),
            (Err(diags), None) => assert!(
                diags
                    .iter()
                    .all(|d| d.severity == carta::diag::Severity::Error),
                "{name}: {diags:?}"
            ),
        }
    }
    assert!(accepted.is_empty(), "accepted:\n{}", accepted.join("\n"));
}

/// The old reading: `toml`'s tree, then JSON.
fn read_by_toml(text: &str) -> Option<Map<String, Value>> {
    let (doc, ok) = carta::load::parse_toml(FileId(0), text, &mut Vec::new());
    ok.then(|| carta::load::table_to_json(doc.get_ref()).ok())
        .flatten()
}

#[test]
fn the_event_reader_agrees_with_toml_on_every_case() {
    let mut read_by_events = 0;
    for path in cases("valid").iter().chain(&cases("invalid")) {
        let name = name(path);
        let Ok(text) = String::from_utf8(std::fs::read(path).unwrap()) else {
            continue;
        };
        let ours = carta::load::tree::read(&text).map(carta::load::tree::Table::into_json);
        // Serialized, so that key order counts too.
        let show = |m: &Option<Map<String, Value>>| {
            m.as_ref().map(|m| Value::Object(m.clone()).to_string())
        };
        assert_eq!(show(&ours), show(&read_by_toml(&text)), "{name}");
        let valid = name.starts_with("valid/") && !REFUSED.contains(&name.as_str());
        assert!(ours.is_some() || !valid, "{name}: left to toml");
        read_by_events += usize::from(ours.is_some());
    }
    assert!(read_by_events >= 100, "{read_by_events}");
}
