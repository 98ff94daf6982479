//! A sheet's column headers (`stats.atk`, `traits[;]`) and what they
//! resolve to for a kind: the path of the value each cell fills, and what
//! the kind's schema accepts there.

use serde_json::Value;

/// A step of the path of a value in a card: a field, or an item of a list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step<'a> {
    /// A field of a table.
    Key(&'a str),
    /// An item of a list.
    Item,
}

/// What a kind's schema accepts at one path: the JSON types, and for an
/// enum its values with their display labels.
// The JSON types a schema allows are independent flags, as the schema's
// `type` list is.
#[allow(clippy::struct_excessive_bools)]
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Expect {
    /// A string.
    pub string: bool,
    /// A whole number.
    pub integer: bool,
    /// Any number.
    pub number: bool,
    /// `true` or `false`.
    pub boolean: bool,
    /// A list.
    pub array: bool,
    /// A table.
    pub object: bool,
    /// The allowed values, each with its display label (`x-carta-labels`).
    pub choices: Vec<(Value, Option<String>)>,
}

/// The schemas a shadow is typed by (the validate stage implements it).
pub trait Types: Sync {
    /// What the schema of `kind` accepts at `path` (nothing known: all false).
    fn expect(&self, kind: &str, path: &[Step<'_>]) -> Expect;
    /// The kind the manifest gives the rows of sheet `sheet` of card file
    /// `rel` (workspace-relative), when it gives one.
    fn sheet_kind(&self, rel: &str, sheet: &str) -> Option<&str>;
}

/// One header: the path it names and, for a list of scalars, its separator.
#[derive(Debug, Clone)]
pub(super) struct Column {
    /// The header as written (trimmed): what resolving it depends on.
    pub(super) key: String,
    pub(super) col: u32,
    pub(super) segments: Vec<String>,
    pub(super) separator: Option<String>,
}

/// A path step of a resolved column.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(super) enum Seg {
    Key(String),
    Index(usize),
}

/// A column resolved for one kind: its path, and what its cells must be.
#[derive(Debug, Clone)]
pub(super) struct Resolved {
    pub(super) path: Vec<Seg>,
    pub(super) expect: Expect,
    /// What one item of the list is, when the cell is split.
    pub(super) item: Expect,
}

/// Resolves a header for `kind`: a numeric part is a list index where the
/// schema has a list, a field name elsewhere.
pub(super) fn resolve(types: &dyn Types, kind: &str, column: &Column) -> Result<Resolved, String> {
    let mut steps: Vec<Step<'_>> = Vec::new();
    let mut path = Vec::new();
    for (i, seg) in column.segments.iter().enumerate() {
        let index = seg.parse::<usize>().ok().filter(|_| i > 0);
        let parent = types.expect(kind, &steps);
        match index {
            Some(n) if parent.array && !parent.object => {
                if n == 0 {
                    return Err(format!(
                        "`{}`: list items are numbered from 1",
                        column.segments.join(".")
                    ));
                }
                path.push(Seg::Index(n - 1));
                steps.push(Step::Item);
            }
            _ => {
                path.push(Seg::Key(seg.clone()));
                steps.push(Step::Key(seg));
            }
        }
    }
    let expect = match column.segments.as_slice() {
        [one] if matches!(one.as_str(), "id" | "kind" | "name") => Expect {
            string: true,
            ..Expect::default()
        },
        [one] if one == "copies" => Expect {
            integer: true,
            ..Expect::default()
        },
        _ => types.expect(kind, &steps),
    };
    steps.push(Step::Item);
    let item = types.expect(kind, &steps);
    Ok(Resolved { path, expect, item })
}

/// A header: dotted field names, and an optional `[sep]` suffix declaring
/// the separator of a list of scalars.
pub(super) fn parse_header(text: &str) -> Result<Column, String> {
    let (name, separator) = match text.strip_suffix(']').and_then(|t| t.rsplit_once('[')) {
        Some((name, sep)) if !sep.is_empty() => (name, Some(sep.to_owned())),
        Some(_) => {
            return Err(
                "an empty list separator (write it between the brackets: `traits[;]`)".into(),
            );
        }
        None => (text, None),
    };
    if name.is_empty() {
        return Err("it is empty".into());
    }
    let segments: Vec<String> = name.split('.').map(|s| s.trim().to_owned()).collect();
    if segments.iter().any(String::is_empty) {
        return Err("a part of the dotted name is empty".into());
    }
    Ok(Column {
        key: text.to_owned(),
        col: 0,
        segments,
        separator,
    })
}
