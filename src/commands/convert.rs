//! `carta convert PATH --to xlsx|csv|toml`: a game's cards (or one card
//! file's) written in the other form. The game is compiled first, so a
//! spreadsheet is converted as carta reads it (typed by the schemas, labels
//! turned into values) and nothing with an error is converted. Nested
//! fields become dotted columns (`levels.1.attack`), lists of scalars one
//! cell with a declared separator (`traits[;]`), anything else a cell of
//! inline TOML — the spellings `load::sheet` reads back
//! (docs/spreadsheets.md). An existing file is replaced only with `--force`.

use std::path::Path;

use serde_json::{Map, Value};

use super::{CommandError, Report, plural, write_unless_exists};
use crate::diag::{Diagnostic, Diagnostics};
use crate::emit::EmitError;
use crate::game::{self, Decks, Keep};
use crate::load::sheet::{self, formula_safe};
use crate::load::{Jail, Listing, LoadError, Workspace};
use crate::validate::display::scalar_key;
use crate::write::{self, Folder};

/// The forms `convert` writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Form {
    /// One workbook, a sheet per card file.
    Xlsx,
    /// One CSV file (`,`, UTF-8).
    Csv,
    /// One TOML card file.
    Toml,
}

impl Form {
    fn extension(self) -> &'static str {
        match self {
            Form::Xlsx => "xlsx",
            Form::Csv => "csv",
            Form::Toml => "toml",
        }
    }
}

/// The cards of one source file, as authored (field order kept).
struct Source {
    rel: String,
    cards: Vec<Map<String, Value>>,
}

/// Converts `path` (a game folder `cards/<g>` or a card file in it, named
/// as every path on the command line: relative to the current directory)
/// into `to`, written to `out` (default: beside
/// a file, with the new extension; `<g>.<ext>` in the workspace for a game).
///
/// # Errors
/// When the workspace cannot be read or the output cannot be written.
pub(crate) fn run(
    root: &Path,
    path: &str,
    to: Form,
    out: Option<&str>,
    force: bool,
) -> Result<Report, CommandError> {
    let mut ws = Workspace::open(root)?;
    let mut diags = Diagnostics::new();
    // Outside the workspace it names no game of it.
    let named = ws.name_of(Path::new(path))?.unwrap_or_default();
    let shown = path;
    let path = named.trim_end_matches('/');
    let Some(game) = game_of(path) else {
        diags.push(usage(format!(
            "`{shown}` is not a game folder (`cards/<game>`) of the workspace nor a card file in one"
        )));
        return Ok(Report::new(ws, diags, "nothing written")?);
    };
    ws.select_games(&[game.to_owned()])?;
    let before = diags.error_count();
    let compiled = game::compile(&mut ws, game, Decks::Skip, Keep::All, &mut diags)?;
    if compiled.is_none() || diags.error_count() > before {
        // Said in full: a reader about to delete the source learns that
        // no converted copy exists.
        let summary = format!(
            "nothing written, and `{shown}` is untouched: fix the errors above, then convert again"
        );
        return Ok(Report::new(ws, diags, summary)?);
    }
    let files = ws.list_quietly(game, Listing::Cards)?.unwrap_or_default();
    let chosen: Vec<String> = files
        .into_iter()
        .filter(|rel| rel == path || path == format!("cards/{game}"))
        .collect();
    if chosen.is_empty() {
        diags.push(usage(format!(
            "`{path}` is not a card file of game `{game}`"
        )));
        return Ok(Report::new(ws, diags, "nothing written")?);
    }
    let sources = read_sources(&ws, &chosen)?;
    let target = match out {
        Some(out) => out.to_owned(),
        None if chosen.len() == 1 && chosen[0] == path => with_extension(path, to.extension()),
        None => format!("{game}.{}", to.extension()),
    };
    if !Jail::is_plain_relative(&target) {
        diags.push(usage(format!(
            "`{target}` is not a path inside the workspace (relative, without `..`)"
        )));
        return Ok(Report::new(ws, diags, "nothing written")?);
    }
    let bytes = match to {
        Form::Xlsx => xlsx(&sources).map_err(|e| io_error(root, &target, &e.to_string()))?,
        Form::Csv => csv(&sources).map_err(|e| io_error(root, &target, &e.to_string()))?,
        Form::Toml => toml_text(&sources).into_bytes(),
    };
    let written = write_out(root, &target, &bytes, force, &mut diags)?;
    let cards: usize = sources.iter().map(|s| s.cards.len()).sum();
    let beside = (chosen.len() == 1).then_some(path);
    let summary = summary(written, cards, (&target, game), beside);
    Ok(Report::new(ws, diags, summary)?)
}

/// What a conversion of `cards` cards into `target` (of workspace `game`)
/// says; `source` is the one card file converted, if one was.
fn summary(
    written: bool,
    cards: usize,
    (target, game): (&str, &str),
    source: Option<&str>,
) -> String {
    if !written {
        return "nothing written".to_owned();
    }
    let converted = format!("converted {cards} card{} to `{target}`", plural(cards));
    match source {
        // A card file converted beside itself: the game now reads both.
        Some(source) if game_of(target) == Some(game) => format!(
            "{converted}; `{source}` is still there, and both are card files of `{game}`: delete one, or each card is read twice (duplicate ids)"
        ),
        _ => converted,
    }
}

/// The game a path names (`cards/<g>` or below).
fn game_of(path: &str) -> Option<&str> {
    let mut parts = path.split('/');
    (parts.next() == Some("cards"))
        .then(|| parts.next())
        .flatten()
        .filter(|g| !g.is_empty())
}

fn with_extension(path: &str, ext: &str) -> String {
    match path.rsplit_once('.') {
        Some((stem, _)) if !stem.ends_with('/') => format!("{stem}.{ext}"),
        _ => format!("{path}.{ext}"),
    }
}

fn usage(message: String) -> Diagnostic {
    Diagnostic::error("convert::path", message)
        .with_help("name a game folder (`cards/intrepidos`) or a card file (`cards/intrepidos/itens/pocoes.xlsx`) of the workspace")
}

fn io_error(root: &Path, rel: &str, why: &str) -> CommandError {
    CommandError::Emit(EmitError::Write {
        path: root.join(rel),
        source: std::io::Error::other(why.to_owned()),
    })
}

/// The cards of each file as the compile read them: a spreadsheet's from
/// its shadow (typed, labels resolved), a TOML file's from its text.
fn read_sources(ws: &Workspace, chosen: &[String]) -> Result<Vec<Source>, CommandError> {
    let mut out = Vec::new();
    for rel in chosen {
        let Some((id, _)) = ws.sources.iter().find(|(_, f)| &f.name == rel) else {
            continue;
        };
        let text = ws.text_of(id)?;
        let doc: Map<String, Value> = toml::from_str(&text).map_err(|_| {
            CommandError::Load(LoadError::Changed {
                path: ws.root().join(rel),
            })
        })?;
        let cards = match doc.get("card") {
            Some(Value::Array(cards)) => cards
                .iter()
                .filter_map(|c| c.as_object().cloned())
                .collect(),
            _ => Vec::new(),
        };
        out.push(Source {
            rel: rel.clone(),
            cards,
        });
    }
    Ok(out)
}

/// Writes `bytes` to workspace file `rel`, never over an existing file
/// without `force`; whether it wrote.
fn write_out(
    root: &Path,
    rel: &str,
    bytes: &[u8],
    force: bool,
    diags: &mut Diagnostics,
) -> Result<bool, CommandError> {
    let (dir, name) = write::split(Path::new(rel));
    let folder = Folder::workspace(root)
        .and_then(|root| root.sub(dir))
        .map_err(EmitError::from)?;
    write_unless_exists(&folder, name, bytes, force, ("convert::exists", rel), diags)
}

/// The cards as one TOML card file, a `[[card]]` table each.
fn toml_text(sources: &[Source]) -> String {
    let cards: Vec<Value> = sources
        .iter()
        .flat_map(|s| s.cards.iter().cloned().map(Value::Object))
        .collect();
    let mut doc = Map::new();
    doc.insert("card".to_owned(), Value::Array(cards));
    toml::to_string(&doc).unwrap_or_default()
}

/// A cell to write: a value of the card, or inline TOML text.
#[derive(Debug, Clone, PartialEq)]
enum Out {
    Scalar(Value),
    Text(String),
}

/// The separator lists of scalars are written with.
const SEPARATOR: &str = ";";

/// The columns and rows of some cards: headers in first-seen order.
fn table<'c>(
    cards: impl Iterator<Item = &'c Map<String, Value>> + Clone,
) -> (Vec<String>, Vec<Vec<(usize, Out)>>) {
    // A field spelled two ways in different cards (a list here, inline
    // TOML there) is inline TOML in every card.
    let mut spelled: std::collections::HashMap<String, String> = std::collections::HashMap::new();
    let mut inline = std::collections::HashSet::new();
    for card in cards.clone() {
        for (path, header, _) in flatten(card, &inline) {
            if spelled
                .entry(path.clone())
                .or_insert_with(|| header.clone())
                != &header
            {
                inline.insert(path);
            }
        }
    }
    let mut headers: Vec<String> = Vec::new();
    let rows = cards
        .map(|card| {
            flatten(card, &inline)
                .into_iter()
                .map(|(_, header, out)| {
                    let i = headers
                        .iter()
                        .position(|h| *h == header)
                        .unwrap_or_else(|| {
                            headers.push(header);
                            headers.len() - 1
                        });
                    (i, out)
                })
                .collect()
        })
        .collect();
    (headers, rows)
}

/// A card's cells: (field path, header, value).
fn flatten(
    card: &Map<String, Value>,
    inline: &std::collections::HashSet<String>,
) -> Vec<(String, String, Out)> {
    let mut out = Vec::new();
    for (key, value) in card {
        cells(key, value, inline, &mut out);
    }
    out
}

fn cells(
    path: &str,
    v: &Value,
    inline: &std::collections::HashSet<String>,
    out: &mut Vec<(String, String, Out)>,
) {
    let plain_key = |k: &str| !k.is_empty() && !k.contains(['.', '[', ']']) && k.trim() == k;
    let forced = inline.contains(path);
    match v {
        Value::Object(map) if !forced && !map.is_empty() && map.keys().all(|k| plain_key(k)) => {
            for (k, item) in map {
                cells(&format!("{path}.{k}"), item, inline, out);
            }
        }
        Value::Array(items)
            if !forced && !items.is_empty() && items.iter().all(Value::is_object) =>
        {
            for (i, item) in items.iter().enumerate() {
                cells(&format!("{path}.{}", i + 1), item, inline, out);
            }
        }
        Value::Array(items) if !forced && !items.is_empty() && items.iter().all(listable) => {
            let text: Vec<String> = items
                .iter()
                .map(|v| scalar_key(v).unwrap_or_default())
                .collect();
            out.push((
                path.to_owned(),
                format!("{path}[{SEPARATOR}]"),
                Out::Text(text.join(&format!("{SEPARATOR} "))),
            ));
        }
        Value::Array(_) | Value::Object(_) => {
            let text = sheet::inline(v);
            out.push((path.to_owned(), path.to_owned(), Out::Text(text)));
        }
        scalar => out.push((
            path.to_owned(),
            path.to_owned(),
            Out::Scalar(scalar.clone()),
        )),
    }
}

/// Whether a list item can stand in a separated cell and read back the same.
fn listable(v: &Value) -> bool {
    match v {
        Value::String(s) => !s.is_empty() && !s.contains(SEPARATOR) && s.trim() == s,
        Value::Number(_) | Value::Bool(_) => true,
        _ => false,
    }
}

/// A workbook: one sheet per source file, its cards one per row.
fn xlsx(sources: &[Source]) -> Result<Vec<u8>, rust_xlsxwriter::XlsxError> {
    use rust_xlsxwriter::{DocProperties, ExcelDateTime, Workbook};
    let mut book = Workbook::new();
    // A fixed date: the same cards make the same bytes.
    let props = DocProperties::new().set_creation_datetime(&ExcelDateTime::from_ymd(2000, 1, 1)?);
    book.set_properties(&props);
    let mut names: Vec<String> = Vec::new();
    for source in sources {
        let name = sheet_name(&source.rel, &names);
        names.push(name.clone());
        let sheet = book.add_worksheet();
        sheet.set_name(&name)?;
        let (headers, rows) = table(source.cards.iter());
        for (c, h) in headers.iter().enumerate() {
            sheet.write_string(0, c as u16, h)?;
        }
        for (r, row) in rows.iter().enumerate() {
            let r = r as u32 + 1;
            for (c, out) in row {
                let c = *c as u16;
                match out {
                    Out::Scalar(Value::Bool(b)) => sheet.write_boolean(r, c, *b).map(drop)?,
                    Out::Scalar(Value::Number(n)) => {
                        sheet
                            .write_number(r, c, n.as_f64().unwrap_or_default())
                            .map(drop)?;
                    }
                    Out::Scalar(Value::String(s)) | Out::Text(s) => {
                        sheet.write_string(r, c, s).map(drop)?;
                    }
                    Out::Scalar(_) => {}
                }
            }
        }
    }
    book.save_to_buffer()
}

/// A sheet name for a card file: its name without extension, within
/// Excel's 31 characters and without the characters it forbids, unique.
fn sheet_name(rel: &str, taken: &[String]) -> String {
    let stem = rel.rsplit('/').next().unwrap_or(rel);
    let stem = stem.rsplit_once('.').map_or(stem, |(s, _)| s);
    let clean: String = stem
        .chars()
        .map(|c| if "[]:*?/\\".contains(c) { '-' } else { c })
        .collect();
    let clean = clean.trim_start_matches(['_', '\'']);
    let base: String = if clean.is_empty() { "cards" } else { clean }
        .chars()
        .take(28)
        .collect();
    let mut name = base.clone();
    let mut n = 2;
    while taken.iter().any(|t| t.eq_ignore_ascii_case(&name)) {
        name = format!("{base}-{n}");
        n += 1;
    }
    name
}

/// One CSV file of every card (`,`, UTF-8 without BOM, CRLF).
fn csv(sources: &[Source]) -> Result<Vec<u8>, csv::Error> {
    let (headers, rows) = table(sources.iter().flat_map(|s| s.cards.iter()));
    let mut w = csv::WriterBuilder::new()
        .terminator(csv::Terminator::CRLF)
        .from_writer(Vec::new());
    w.write_record(&headers)?;
    for row in rows {
        let mut record = vec![String::new(); headers.len()];
        for (c, out) in row {
            record[c] = match out {
                Out::Scalar(v) => scalar_key(&v).unwrap_or_default(),
                Out::Text(t) => t,
            };
            record[c] = formula_safe::defuse(&record[c]).into_owned();
        }
        w.write_record(&record)?;
    }
    w.into_inner().map_err(|e| e.into_error().into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nested_fields_become_dotted_columns_and_lists_a_separated_cell() {
        let card: Map<String, Value> = serde_json::from_str(
            r#"{"id": "a", "levels": [{"attack": 3}, {"attack": 5}], "tags": ["x", "y"], "odd": [["z"]], "none": []}"#,
        )
        .unwrap();
        let (headers, rows) = table(std::iter::once(&card));
        assert_eq!(
            headers,
            [
                "id",
                "levels.1.attack",
                "levels.2.attack",
                "tags[;]",
                "odd",
                "none"
            ]
        );
        assert_eq!(rows[0][3].1, Out::Text("x; y".into()));
        assert_eq!(rows[0][4].1, Out::Text(r#"[["z"]]"#.into()));
        assert_eq!(rows[0][5].1, Out::Text("[]".into()));
        let nested: Value = serde_json::from_str(r#"{"a": {}, "b c": [1, 2.5, true]}"#).unwrap();
        assert_eq!(
            sheet::inline(&nested),
            r#"{ a = {}, "b c" = [1, 2.5, true] }"#
        );
    }

    #[test]
    fn sheet_names_are_unique_and_allowed() {
        let a = sheet_name("cards/g/a:b.toml", &[]);
        assert_eq!(a, "a-b");
        assert_eq!(sheet_name("cards/g/x/a:b.toml", &[a]), "a-b-2");
        assert_eq!(sheet_name("cards/g/_notes.toml", &[]), "notes");
        assert_eq!(
            game_of("cards/intrepidos/itens/pocoes.xlsx"),
            Some("intrepidos")
        );
        assert_eq!(game_of("schemas/x"), None);
        assert_eq!(with_extension("cards/g/a.xlsx", "toml"), "cards/g/a.toml");
    }
}
