//! Spreadsheet card files (`.csv`, `.tsv`, `.xlsx`, `.ods`): each sheet's
//! first row names the fields, each further row is a card. A sheet enters
//! the pipeline as the TOML card file it stands for — its *shadow*, written
//! here with every cell typed by the kind's schema — and a [`CellMap`] that
//! says which cell each span of the shadow stands for, so every later stage
//! (validate, link, rules, decks, translations, the check cache) works on
//! it unchanged and every diagnostic lands on a cell. See
//! docs/spreadsheets.md.

mod bounds;
pub mod formula_safe;
mod header;
mod prescan;
mod read;
mod toml_out;

use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use self::header::{Column, Resolved, Seg, parse_header, resolve};
pub use self::header::{Expect, Step, Types};
use self::read::{Bounds, Cell, Raw, Sheet, Unreadable};
pub use self::toml_out::inline;
use self::toml_out::{push_key, push_scalar, push_string, push_toml};
use crate::diag::{CellAt, CellMap, Diagnostic, FileId, column_name};
use crate::limits::Limits;

/// The extensions of spreadsheet card files, lowercase.
pub const EXTENSIONS: [&str; 4] = ["csv", "tsv", "xlsx", "ods"];

/// The most non-empty cells one spreadsheet file may hold.
pub const MAX_CELLS: usize = 4_000_000;

/// The spreadsheet extension of a path (`xlsx`), if it has one.
pub fn extension(rel: &str) -> Option<&'static str> {
    let (_, ext) = rel.rsplit_once('.')?;
    EXTENSIONS.into_iter().find(|e| e.eq_ignore_ascii_case(ext))
}

/// Whether a path names a spreadsheet card file: a spreadsheet extension,
/// and not the owner file Excel keeps beside an open workbook (`~$x.xlsx`).
pub fn is_card_sheet(rel: &str) -> bool {
    let name = rel.rsplit('/').next().unwrap_or(rel);
    extension(name).is_some() && !name.starts_with("~$")
}

/// A spreadsheet as the TOML card file it stands for.
#[derive(Debug, Default)]
pub struct Shadow {
    /// The TOML text (one `[[card]]` per row).
    pub text: String,
    /// Which cell each span of `text` stands for.
    pub cells: CellMap,
    /// What was wrong with cells, at them.
    pub diagnostics: Vec<Diagnostic>,
}

/// The shadow of spreadsheet file `file` (extension `ext`, see
/// [`extension`]) from its bytes, typed by `types`.
pub fn shadow(
    file: FileId,
    (rel, ext): (&str, &str),
    bytes: &[u8],
    types: &dyn Types,
    limits: &Limits,
) -> Shadow {
    let bounds = Bounds {
        cells: MAX_CELLS,
        unpacked: limits.max_file_bytes,
    };
    let mut w = Writer {
        file,
        rel,
        types,
        out: Shadow::default(),
        paths: HashMap::new(),
        refused: HashSet::new(),
    };
    match read::read(ext, bytes, bounds) {
        Ok(sheets) => {
            for (i, sheet) in sheets.iter().enumerate() {
                if !sheet.name.starts_with('_') {
                    w.sheet(i, sheet);
                }
            }
        }
        Err(problem) => w.unreadable(&problem),
    }
    w.out
}

struct Writer<'a> {
    file: FileId,
    /// The file's workspace path, which the manifest's `sheets` name.
    rel: &'a str,
    types: &'a dyn Types,
    out: Shadow,
    /// Per header text and kind: the resolved column, or why it is unusable.
    paths: HashMap<String, HashMap<String, Result<Rc<Resolved>, String>>>,
    /// The (sheet, column) whose header was reported unusable.
    refused: HashSet<(usize, u32)>,
}

/// The cells of one row, by column.
type Row<'s> = Vec<&'s Cell>;

impl Writer<'_> {
    fn unreadable(&mut self, problem: &Unreadable) {
        let (code, message, help) = match problem {
            Unreadable::TooLarge(why) => (
                "sheet::too-large",
                format!("this spreadsheet is too large: {why}"),
                "split its cards over several files (see docs/security.md for the limits)",
            ),
            Unreadable::Broken(why) => (
                "sheet::unreadable",
                format!("this file cannot be read as a spreadsheet: {why}"),
                "save it again from the spreadsheet program (as .xlsx, .ods or UTF-8 .csv)",
            ),
            Unreadable::NotUtf8(at) => (
                "load::not-utf8",
                format!("this CSV file is not valid UTF-8 (byte {at})"),
                "export it as \"CSV UTF-8\" (Excel) or from Google Sheets or LibreOffice, which write UTF-8",
            ),
        };
        self.out.diagnostics.push(
            Diagnostic::error(code, message)
                .at(self.file, 0..0, "this file")
                .with_help(help),
        );
    }

    /// A comment line in the shadow standing for `at`, and `d` placed on it.
    fn note(&mut self, at: CellAt, d: Diagnostic, label: &str) {
        let start = self.out.text.len();
        self.out.cells.place(start, at);
        self.out.text.push_str("# ");
        self.out.text.push_str(&column_name(at.col));
        self.out.text.push_str(&at.row.to_string());
        self.out.text.push('\n');
        let end = self.out.text.len() - 1;
        self.out
            .diagnostics
            .push(d.at(self.file, start..end, label));
    }

    fn sheet(&mut self, index: usize, sheet: &Sheet) {
        let Some(first) = sheet.cells.first() else {
            return;
        };
        // The kind the manifest gives rows without a `kind` cell of their own.
        let given = self.types.sheet_kind(self.rel, &sheet.name);
        let header_row = first.row;
        let s = self.out.cells.add_sheet(&sheet.name, header_row + 1);
        let at = |row: u32, col: u32| CellAt {
            sheet: s,
            row: row + 1,
            col,
        };
        for cell in &sheet.cells {
            self.out
                .cells
                .add_cell(at(cell.row, cell.col), &cell.value.shown());
        }
        self.sheet_notes(sheet, at(header_row, first.col));
        for &(r0, c0, r1, c1) in &sheet.merged {
            let range = format!(
                "{}{}:{}{}",
                column_name(c0),
                r0 + 1,
                column_name(c1),
                r1 + 1
            );
            self.note(
                at(r0, c0),
                Diagnostic::error("sheet::merged", format!("cells {range} are merged")).with_help(
                    "unmerge them: each cell of a card sheet holds one field of one card",
                ),
                "merged cells",
            );
        }
        let rows = rows(&sheet.cells);
        let columns = self.columns(s, &rows[0]);
        for row in &rows[1..] {
            self.card(index, s, &columns, row, given);
        }
    }

    fn sheet_notes(&mut self, sheet: &Sheet, first: CellAt) {
        if sheet.hidden {
            self.note(
                first,
                Diagnostic::warning(
                    "sheet::hidden",
                    format!("sheet `{}` is hidden, yet its cards are read", sheet.name),
                )
                .with_help("show it, or start its name with `_` to have carta skip it"),
                "in a hidden sheet",
            );
        }
    }

    /// The headers of a sheet, each column's once; what is wrong with them
    /// is reported at their cells.
    fn columns(&mut self, s: u16, header: &[&Cell]) -> Vec<Option<Column>> {
        let width = header.last().map_or(0, |c| c.col as usize + 1);
        let mut columns: Vec<Option<Column>> = vec![None; width];
        let mut seen: HashMap<String, u32> = HashMap::new();
        for cell in header {
            let at = CellAt {
                sheet: s,
                row: cell.row + 1,
                col: cell.col,
            };
            let text = cell.value.shown();
            match parse_header(text.trim()) {
                Ok(column) => {
                    let key = column.segments.join(".");
                    if let Some(first) = seen.insert(key.clone(), cell.col) {
                        self.note(
                            at,
                            Diagnostic::error(
                                "sheet::header",
                                format!(
                                    "column `{key}` is named twice (first in column {})",
                                    column_name(first)
                                ),
                            )
                            .with_help("give each field one column"),
                            "named twice",
                        );
                        continue;
                    }
                    columns[cell.col as usize] = Some(Column {
                        col: cell.col,
                        ..column
                    });
                }
                Err(why) => self.note(
                    at,
                    Diagnostic::error("sheet::header", format!("`{text}` is not a column header: {why}"))
                        .with_help("name a field (`attack`), a nested one (`levels.1.attack`), or a list with its separator (`traits[;]`)"),
                    "not a header",
                ),
            }
        }
        columns
    }

    /// One row as one `[[card]]`; `given`, the kind the manifest gives
    /// the sheet's rows, is written for a row without a `kind` cell.
    fn card(
        &mut self,
        index: usize,
        s: u16,
        columns: &[Option<Column>],
        row: &[&Cell],
        given: Option<&str>,
    ) {
        let at = |cell: &Cell| CellAt {
            sheet: s,
            row: cell.row + 1,
            col: cell.col,
        };
        let header_row = self.out.cells.header_row(s);
        let used = self.used_cells(s, columns, row);
        if used.is_empty() {
            return;
        }
        let own = used
            .iter()
            .find(|(c, _)| c.segments == ["kind"])
            .map(|(_, cell)| cell.value.shown().trim().to_owned());
        let start = self.out.text.len();
        self.out.cells.place(start, at(row[0]));
        self.out.text.push_str("[[card]]\n");
        let kind = match (own, given) {
            (Some(own), _) => own,
            (None, Some(given)) => {
                // Not in any cell: what is said of it lands on the row.
                self.out.cells.place(self.out.text.len(), at(row[0]));
                self.out.text.push_str("kind = ");
                push_string(&mut self.out.text, given);
                self.out.text.push('\n');
                given.to_owned()
            }
            (None, None) => String::new(),
        };
        let mut entries: Vec<(Rc<Resolved>, &Column, &Cell)> = Vec::new();
        for (column, cell) in used {
            if let Some(r) = self.resolve(index, &kind, column, s) {
                entries.push((r, column, cell));
            }
        }
        let refs: Vec<Entry<'_>> = entries
            .iter()
            .map(|(r, column, cell)| Entry {
                path: &r.path,
                resolved: r,
                column,
                cell,
            })
            .collect();
        for group in group(refs.iter(), 0) {
            let (key, members) = group;
            let Seg::Key(key) = key else { continue };
            let header = CellAt {
                sheet: s,
                row: header_row,
                col: members[0].column.col,
            };
            self.out.cells.place(self.out.text.len(), header);
            push_key(&mut self.out.text, &key);
            self.out.text.push_str(" = ");
            self.value(s, &members, 1);
            self.out.text.push('\n');
        }
    }

    /// The cells of a row with their columns; a value in a column without
    /// a header is reported at that header.
    fn used_cells<'c>(
        &mut self,
        s: u16,
        columns: &'c [Option<Column>],
        row: &[&'c Cell],
    ) -> Vec<(&'c Column, &'c Cell)> {
        let header_row = self.out.cells.header_row(s);
        let mut used = Vec::new();
        for &cell in row {
            if let Some(column) = columns.get(cell.col as usize).and_then(Option::as_ref) {
                used.push((column, cell));
                continue;
            }
            let d = Diagnostic::error(
                "sheet::empty-header",
                format!(
                    "column {} holds values (`{}` in row {}) but has no header",
                    column_name(cell.col),
                    cell.value.shown().chars().take(40).collect::<String>(),
                    cell.row + 1
                ),
            )
            .with_help("name the field in the header row, or clear the column");
            let at = CellAt {
                sheet: s,
                row: header_row,
                col: cell.col,
            };
            self.note(at, d, "no header");
        }
        used
    }

    /// Resolves a column for `kind`, once per header text and kind however
    /// many sheets have it; a header that resolves to nothing is reported
    /// at each column that has it.
    fn resolve(
        &mut self,
        sheet: usize,
        kind: &str,
        column: &Column,
        s: u16,
    ) -> Option<Rc<Resolved>> {
        let found = self
            .paths
            .get(&column.key)
            .and_then(|k| k.get(kind))
            .cloned();
        let resolved = found.unwrap_or_else(|| {
            let made = resolve(self.types, kind, column).map(Rc::new);
            self.paths
                .entry(column.key.clone())
                .or_default()
                .insert(kind.to_owned(), made.clone());
            made
        });
        if let Err(why) = &resolved
            && self.refused.insert((sheet, column.col))
        {
            let at = CellAt {
                sheet: s,
                row: self.out.cells.header_row(s),
                col: column.col,
            };
            self.note(
                at,
                Diagnostic::error("sheet::header", why.clone()).with_help(
                    "list items are numbered from 1: `levels.1.attack`, `levels.2.attack`",
                ),
                "bad header",
            );
        }
        resolved.ok()
    }
}

/// A cell with its resolved column, while a row is written.
struct Entry<'e> {
    path: &'e [Seg],
    resolved: &'e Resolved,
    column: &'e Column,
    cell: &'e Cell,
}

/// The entries grouped by their path step at `depth`, in the order the
/// steps first appear (indices sorted).
fn group<'e, 'r>(
    entries: impl IntoIterator<Item = &'r Entry<'e>>,
    depth: usize,
) -> Vec<(Seg, Vec<&'r Entry<'e>>)>
where
    'e: 'r,
{
    let mut groups: Vec<(Seg, Vec<&Entry<'_>>)> = Vec::new();
    for e in entries {
        let Some(step) = e.path.get(depth) else {
            continue;
        };
        match groups.iter_mut().find(|(s, _)| s == step) {
            Some((_, members)) => members.push(e),
            None => groups.push((step.clone(), vec![e])),
        }
    }
    if groups.iter().all(|(s, _)| matches!(s, Seg::Index(_))) {
        groups.sort_by(|a, b| a.0.cmp(&b.0));
    }
    groups
}

impl Writer<'_> {
    /// Writes the value that `members` (entries sharing a path up to
    /// `depth`) make: one cell's, or an inline table or list of them.
    fn value(&mut self, s: u16, members: &[&Entry<'_>], depth: usize) {
        let at = |e: &Entry<'_>| CellAt {
            sheet: s,
            row: e.cell.row + 1,
            col: e.cell.col,
        };
        if let Some(leaf) = members.iter().find(|e| e.path.len() == depth) {
            if members.len() > 1 {
                let other = members.iter().find(|e| e.path.len() > depth).expect("more");
                self.note(
                    at(other),
                    Diagnostic::error(
                        "sheet::header",
                        format!(
                            "`{}` has a value of its own in column {}, so it cannot also have parts",
                            other.column.segments[..depth].join("."),
                            column_name(leaf.column.col)
                        ),
                    )
                    .with_help("fill either the whole value or its parts"),
                    "a part of a value already given",
                );
            }
            self.out.cells.place(self.out.text.len(), at(leaf));
            self.leaf(leaf);
            return;
        }
        let groups = group(members.iter().copied(), depth);
        self.out.cells.place(self.out.text.len(), at(members[0]));
        let list = matches!(groups.first(), Some((Seg::Index(_), _)));
        self.out.text.push_str(if list { "[" } else { "{ " });
        let mut expected = 0;
        for (i, (step, inner)) in groups.iter().enumerate() {
            if i > 0 {
                self.out.text.push_str(", ");
            }
            match step {
                Seg::Index(n) => {
                    if *n != expected {
                        self.note_inline(at(inner[0]), &inner[0].column.segments[..=depth], *n);
                    }
                    expected = n + 1;
                }
                Seg::Key(k) => {
                    let header = CellAt {
                        sheet: s,
                        row: self.out.cells.header_row(s),
                        col: inner[0].column.col,
                    };
                    self.out.cells.place(self.out.text.len(), header);
                    push_key(&mut self.out.text, k);
                    self.out.text.push_str(" = ");
                }
            }
            self.value(s, inner, depth + 1);
        }
        self.out.text.push_str(if list { "]" } else { " }" });
    }

    /// Reports a list item whose number skips one, without breaking the
    /// line being written (the report is kept; its place is the cell).
    fn note_inline(&mut self, at: CellAt, segments: &[String], n: usize) {
        let start = self.out.text.len();
        self.out.cells.place(start, at);
        self.out.diagnostics.push(
            Diagnostic::error(
                "sheet::list-gap",
                format!(
                    "`{}` is item {} of its list, but the item before it has no column",
                    segments.join("."),
                    n + 1
                ),
            )
            .with_help("number the items of a list 1, 2, 3… without a gap")
            .at(self.file, start..start, "an item after a gap"),
        );
    }

    /// Writes one cell's value, typed by what its column expects.
    /// Reports a date, an error value or a formula at its cell; whether
    /// the cell's value is written already (a date's, an error's or an
    /// uncomputed formula's text). A cell reported as an error here is
    /// marked so, and later stages say nothing more of it
    /// ([`CellMap::mark_reported`]): one mistake, one error.
    fn odd_cell(&mut self, e: &Entry<'_>) -> bool {
        let start = self.out.text.len();
        let here = |d: Diagnostic, label: &str| d.at(self.file, start..start, label.to_owned());
        if matches!(e.cell.value, Raw::Date(_) | Raw::Error(_) | Raw::Formula(_))
            && let Some(at) = self.out.cells.cell_of(start)
        {
            self.out.cells.mark_reported(at);
        }
        match &e.cell.value {
            Raw::Formula(formula) => {
                let d = Diagnostic::error(
                    "sheet::formula",
                    format!("this cell is the formula {formula}, but the file stores no value for it"),
                )
                .with_help("carta does not compute formulas: open and save the file in a spreadsheet program, which stores each formula's value, or write the value itself (a script such as openpyxl writes formulas without values)");
                self.out
                    .diagnostics
                    .push(here(d, "a formula without a value"));
                push_string(&mut self.out.text, formula);
                return true;
            }
            Raw::Date(date) => {
                let d = Diagnostic::error(
                    "sheet::date",
                    format!("this cell is a date ({date}): the spreadsheet turned what was typed into one"),
                )
                .with_help("format the column as plain text, then type the value again");
                self.out.diagnostics.push(here(d, "a date"));
                push_string(&mut self.out.text, date);
                return true;
            }
            Raw::Error(err) => {
                let d = Diagnostic::error(
                    "sheet::cell-error",
                    format!("this cell holds the error {err}"),
                )
                .with_help("fix the formula, or type the value");
                self.out.diagnostics.push(here(d, "an error value"));
                push_string(&mut self.out.text, err);
                return true;
            }
            _ => {}
        }
        if e.cell.formula {
            let d = Diagnostic::warning(
                "sheet::formula",
                "this cell is a formula: its last computed value is read",
            )
            .with_help("carta does not compute formulas; paste the values (Paste Special → Values) to make that plain");
            self.out.diagnostics.push(here(d, "a formula"));
        }
        false
    }

    /// A cell of a list column: its items, split and typed.
    fn list(&mut self, text: &str, sep: &str, item: &Expect) {
        self.out.text.push('[');
        let items = text.split(sep).map(str::trim).filter(|t| !t.is_empty());
        for (i, one) in items.enumerate() {
            if i > 0 {
                self.out.text.push_str(", ");
            }
            push_scalar(&mut self.out.text, &Raw::Text(one.to_owned()), item);
        }
        self.out.text.push(']');
    }

    fn leaf(&mut self, e: &Entry<'_>) {
        if self.odd_cell(e) {
            return;
        }
        let start = self.out.text.len();
        let here = |d: Diagnostic, label: &str| d.at(self.file, start..start, label.to_owned());
        let r = e.resolved;
        let text = e.cell.value.shown();
        if let (Some(sep), true) = (&e.column.separator, r.expect.array) {
            self.list(&text, sep, &r.item);
            return;
        }
        let trimmed = text.trim_start();
        let inline = (r.expect.array && trimmed.starts_with('['))
            || (r.expect.object && trimmed.starts_with('{'));
        if inline {
            // Text may look like a list (`[1] See…`): where a string is
            // allowed, only what parses is taken for one.
            match inline_toml(&text) {
                Ok(value) => push_toml(&mut self.out.text, &value),
                Err(_) if r.expect.string => push_string(&mut self.out.text, &text),
                Err(why) => {
                    let d = Diagnostic::error("sheet::inline-toml", format!("this cell is not a TOML value: {why}"))
                        .with_help("write a list as `[\"a\", \"b\"]` and a table as `{ name = \"x\", cost = 2 }`");
                    self.out.diagnostics.push(here(d, "not TOML"));
                    push_string(&mut self.out.text, &text);
                }
            }
            return;
        }
        push_scalar(&mut self.out.text, &e.cell.value, &r.expect);
    }
}

/// A cell holding an inline TOML value (a list or table), parsed alone.
fn inline_toml(text: &str) -> Result<toml::Value, String> {
    let doc = format!("v = {text}");
    let mut table: toml::Table = toml::from_str(&doc).map_err(|e| e.message().to_owned())?;
    match (table.remove("v"), table.is_empty()) {
        (Some(v), true) => Ok(v),
        _ => Err("it holds more than one value".to_owned()),
    }
}

/// The cells split into rows (each non-empty).
fn rows(cells: &[Cell]) -> Vec<Row<'_>> {
    let mut rows: Vec<Row<'_>> = Vec::new();
    for cell in cells {
        match rows.last_mut() {
            Some(row) if row[0].row == cell.row => row.push(cell),
            _ => rows.push(vec![cell]),
        }
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    /// A kind `k` with `levels`: a list of tables of integers, `tags`: a
    /// list of strings, `cor`: an enum with labels, `nota`: a string.
    struct Fake;

    impl Types for Fake {
        fn sheet_kind(&self, rel: &str, sheet: &str) -> Option<&str> {
            (rel == "cards/g/given.csv" && sheet.is_empty()).then_some("k")
        }

        fn expect(&self, _: &str, path: &[Step<'_>]) -> Expect {
            let mut e = Expect::default();
            match path {
                [Step::Key("levels" | "tags")] => e.array = true,
                [Step::Key("levels"), Step::Item] => e.object = true,
                [Step::Key("levels"), Step::Item, Step::Key(_)] => e.integer = true,
                [Step::Key("tags"), Step::Item] | [Step::Key("nota")] => e.string = true,
                [Step::Key("cor")] => {
                    e.string = true;
                    e.choices = vec![(Value::from("caotico-mau"), Some("Caótico e Mau".into()))];
                }
                _ => {}
            }
            e
        }
    }

    #[test]
    fn rows_without_a_kind_cell_take_the_kind_the_manifest_gives() {
        let s = shadow(
            FileId(0),
            ("cards/g/given.csv", "csv"),
            b"id,nota\nx,a\n",
            &Fake,
            &Limits::default(),
        );
        assert!(s.diagnostics.is_empty(), "{:?}", s.diagnostics);
        assert!(s.text.contains("[[card]]\nkind = \"k\"\n"), "{}", s.text);
        let own = shadow(
            FileId(0),
            ("cards/g/given.csv", "csv"),
            b"id,kind,nota\nx,other,a\n",
            &Fake,
            &Limits::default(),
        );
        assert!(
            !own.text.contains("\"k\""),
            "a kind cell wins: {}",
            own.text
        );
    }

    fn shadow_of(csv: &str) -> Shadow {
        shadow(
            FileId(0),
            ("cards/g/x.csv", "csv"),
            csv.as_bytes(),
            &Fake,
            &Limits::default(),
        )
    }

    #[test]
    fn cells_become_typed_toml_with_lists_tables_and_labels() {
        let s = shadow_of(
            "id,kind,levels.1.atk,levels.2.atk,tags[;],cor,nota\n\
             a,k,3,4, x ;y,Caótico e Mau,\"say \"\"hi\"\"\n]\"\n",
        );
        assert!(s.diagnostics.is_empty(), "{:?}", s.diagnostics);
        let doc: toml::Table = toml::from_str(&s.text).unwrap();
        let card = &doc["card"][0];
        assert_eq!(card["levels"][1]["atk"].as_integer(), Some(4));
        assert_eq!(card["tags"].as_array().unwrap().len(), 2);
        assert_eq!(card["cor"].as_str(), Some("caotico-mau"));
        // A cell's text cannot break out of its value.
        assert_eq!(card["nota"].as_str(), Some("say \"hi\"\n]"));
        let at = s.text.find('4').unwrap();
        assert_eq!(s.cells.name(s.cells.cell_of(at).unwrap()), "D2");
    }

    #[test]
    fn bad_headers_gaps_and_inline_toml_are_reported_at_their_cells() {
        let s = shadow_of("id,kind,a..b,levels.1.atk,levels.3.atk,levels.0.atk\nx,k,1,2,3,4\n");
        let codes: Vec<&str> = s.diagnostics.iter().map(|d| d.code).collect();
        assert!(codes.contains(&"sheet::header"), "{codes:?}");
        assert!(codes.contains(&"sheet::list-gap"), "{codes:?}");
        let s = shadow_of("id,kind,tags\nx,k,\"[1, \"\"a\"\"\"\n");
        assert_eq!(s.diagnostics[0].code, "sheet::inline-toml");
        assert!(toml::from_str::<toml::Table>(&s.text).is_ok(), "{}", s.text);
    }

    #[test]
    fn excel_s_owner_file_is_no_card_file() {
        assert!(is_card_sheet("cards/g/Cartas.XLSX"));
        assert!(!is_card_sheet("cards/g/~$Cartas.xlsx"));
        assert!(!is_card_sheet("cards/g/notes.txt"));
    }
}
