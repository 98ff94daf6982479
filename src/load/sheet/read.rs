//! Reading a spreadsheet file into its cells: CSV and TSV with the `csv`
//! crate (UTF-8, a BOM dropped, `;` or `,` as the header row says), XLSX
//! and ODS with `calamine` (cached values of formulas, dates kept as
//! dates so they can be refused, merged regions and hidden sheets noted).

use std::io::{Cursor, Read, Seek};

use calamine::{Data, DataRef, Reader, SheetVisible, Sheets, Xlsx};

pub(super) use super::bounds::{Bounds, Unreadable};

/// A value as the spreadsheet stores it.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Raw {
    /// Text (every CSV cell).
    Text(String),
    /// A whole number.
    Int(i64),
    /// A number.
    Float(f64),
    /// A boolean cell.
    Bool(bool),
    /// A date or time, as ISO text.
    Date(String),
    /// An error value (`#DIV/0!`).
    Error(String),
    /// A formula with no stored result (a script such as openpyxl writes
    /// `<f>` without `<v>`), as `=` and its text.
    Formula(String),
}

impl Raw {
    /// The value as the spreadsheet shows it.
    pub(super) fn shown(&self) -> String {
        match self {
            Raw::Text(s) | Raw::Date(s) | Raw::Error(s) | Raw::Formula(s) => s.clone(),
            Raw::Int(i) => i.to_string(),
            Raw::Float(f) => float_text(*f),
            Raw::Bool(b) => if *b { "TRUE" } else { "FALSE" }.to_owned(),
        }
    }
}

/// A float as a spreadsheet shows it: `3` for 3.0, `0.5` for 0.5.
pub(super) fn float_text(f: f64) -> String {
    if f.fract() == 0.0 && f.abs() < 1e15 {
        format!("{}", f as i64)
    } else {
        format!("{f}")
    }
}

/// One non-empty cell (0-based row and column).
#[derive(Debug, Clone)]
pub(super) struct Cell {
    pub row: u32,
    pub col: u32,
    pub value: Raw,
    /// Whether the value is a formula's (cached) result.
    pub formula: bool,
}

/// One sheet: its non-empty cells in row, then column order.
#[derive(Debug, Default)]
pub(super) struct Sheet {
    /// Empty for a CSV or TSV file.
    pub name: String,
    pub hidden: bool,
    pub cells: Vec<Cell>,
    /// Merged regions: (first row, first column, last row, last column).
    pub merged: Vec<(u32, u32, u32, u32)>,
}

/// The sheets of a file, by its extension (`csv`, `tsv`, `xlsx`, `ods`).
pub(super) fn read(ext: &str, bytes: &[u8], bounds: Bounds) -> Result<Vec<Sheet>, Unreadable> {
    match ext {
        "csv" | "tsv" => delimited(bytes, ext == "tsv", bounds).map(|s| vec![s]),
        _ => workbook(bytes, bounds),
    }
}

/// The delimiter of a CSV file: `;` when its first line has more of them
/// than commas outside quotes (a spreadsheet in a locale with a decimal
/// comma exports so), else `,`.
fn delimiter(text: &str) -> u8 {
    let (mut quoted, mut commas, mut semis) = (false, 0, 0);
    for c in text.chars() {
        match c {
            '"' => quoted = !quoted,
            '\n' if !quoted => break,
            ',' if !quoted => commas += 1,
            ';' if !quoted => semis += 1,
            _ => {}
        }
    }
    if semis > commas { b';' } else { b',' }
}

fn delimited(bytes: &[u8], tabs: bool, bounds: Bounds) -> Result<Sheet, Unreadable> {
    let bytes = bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(bytes);
    let text = std::str::from_utf8(bytes).map_err(|e| Unreadable::NotUtf8(e.valid_up_to()))?;
    let sep = if tabs { b'\t' } else { delimiter(text) };
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .delimiter(sep)
        .from_reader(text.as_bytes());
    let mut sheet = Sheet::default();
    for (row, record) in reader.records().enumerate() {
        let record = record.map_err(|e| Unreadable::Broken(e.to_string()))?;
        let row = u32::try_from(row).map_err(|_| too_many(bounds))?;
        for (col, field) in record.iter().enumerate() {
            if field.is_empty() {
                continue;
            }
            if sheet.cells.len() >= bounds.cells {
                return Err(too_many(bounds));
            }
            sheet.cells.push(Cell {
                row,
                col: u32::try_from(col).map_err(|_| too_many(bounds))?,
                value: Raw::Text(super::formula_safe::restore(field).to_owned()),
                formula: false,
            });
        }
    }
    Ok(sheet)
}

fn too_many(bounds: Bounds) -> Unreadable {
    Unreadable::TooLarge(format!("it has more than {} non-empty cells", bounds.cells))
}

/// Refuses a workbook whose parts would unpack past the bound, before
/// anything is unpacked (a zip bomb stops here).
fn check_unpacked(bytes: &[u8], bounds: Bounds) -> Result<(), Unreadable> {
    let mut zip = zip::ZipArchive::new(Cursor::new(bytes))
        .map_err(|e| Unreadable::Broken(format!("it is not a workbook ({e})")))?;
    let mut total: u64 = 0;
    for i in 0..zip.len() {
        let entry = zip
            .by_index_raw(i)
            .map_err(|e| Unreadable::Broken(e.to_string()))?;
        total = total.saturating_add(entry.size());
    }
    if total > bounds.unpacked {
        return Err(Unreadable::TooLarge(format!(
            "its parts unpack to {total} bytes, more than the limit of {}",
            bounds.unpacked
        )));
    }
    Ok(())
}

fn workbook(bytes: &[u8], bounds: Bounds) -> Result<Vec<Sheet>, Unreadable> {
    check_unpacked(bytes, bounds)?;
    super::prescan::check(bytes, bounds)?;
    let broken = |e: calamine::Error| Unreadable::Broken(e.to_string());
    let mut book = calamine::open_workbook_auto_from_rs(Cursor::new(bytes)).map_err(broken)?;
    let metadata = book.sheets_metadata().to_vec();
    let mut sheets = Vec::with_capacity(metadata.len());
    let mut count = 0;
    for meta in metadata {
        let mut sheet = Sheet {
            name: meta.name.clone(),
            hidden: meta.visible != SheetVisible::Visible,
            ..Sheet::default()
        };
        match &mut book {
            Sheets::Xlsx(xlsx) => xlsx_cells(xlsx, &mut sheet, &mut count, bounds)?,
            other => dense_cells(other, &mut sheet, &mut count, bounds)?,
        }
        sheets.push(sheet);
    }
    Ok(sheets)
}

/// An XLSX sheet's cells, streamed (never a dense grid, which one far
/// cell would make huge), with its merged regions.
fn xlsx_cells<RS: Read + Seek>(
    xlsx: &mut Xlsx<RS>,
    sheet: &mut Sheet,
    count: &mut usize,
    bounds: Bounds,
) -> Result<(), Unreadable> {
    let broken = |e: calamine::XlsxError| Unreadable::Broken(e.to_string());
    let merged = xlsx
        .merge_cells_by_sheet_name(&sheet.name)
        .map_err(broken)?;
    sheet.merged = merged
        .iter()
        .map(|d| (d.start.0, d.start.1, d.end.0, d.end.1))
        .collect();
    let mut reader = xlsx.worksheet_cells_reader(&sheet.name).map_err(broken)?;
    // A shared string is copied into every cell that refers to it: the
    // copies are bounded as the TOML they end up in is.
    let mut text: u64 = 0;
    while let Some(cell) = reader.next_cell_with_formula().map_err(broken)? {
        let formula = cell.formula.as_deref().filter(|f| !f.is_empty());
        // A formula without its value is no empty cell: carta reports it.
        let Some(value) =
            raw_ref(&cell.value).or_else(|| formula.map(|f| Raw::Formula(format!("={f}"))))
        else {
            continue;
        };
        *count += 1;
        if *count > bounds.cells {
            return Err(too_many(bounds));
        }
        if let Raw::Text(s) = &value {
            text += s.len() as u64;
            if text > bounds.unpacked {
                return Err(Unreadable::TooLarge(format!(
                    "the text of sheet `{}`, every shared string counted where it is used, is more than {} bytes",
                    sheet.name, bounds.unpacked
                )));
            }
        }
        sheet.cells.push(Cell {
            row: cell.pos.0,
            col: cell.pos.1,
            value,
            formula: formula.is_some(),
        });
    }
    sheet.cells.sort_by_key(|c| (c.row, c.col));
    Ok(())
}

/// An ODS sheet's cells, from calamine's grid.
fn dense_cells<RS: Read + Seek>(
    book: &mut Sheets<RS>,
    sheet: &mut Sheet,
    count: &mut usize,
    bounds: Bounds,
) -> Result<(), Unreadable> {
    let broken = |e: calamine::Error| Unreadable::Broken(e.to_string());
    let range = book.worksheet_range(&sheet.name).map_err(broken)?;
    let formulas = book.worksheet_formula(&sheet.name).ok();
    for (row, col, data) in range.used_cells() {
        let Some(value) = raw(data) else {
            continue;
        };
        *count += 1;
        if *count > bounds.cells {
            return Err(too_many(bounds));
        }
        let (start_row, start_col) = range.start().unwrap_or((0, 0));
        let (row, col) = (start_row + row as u32, start_col + col as u32);
        let formula = formulas
            .as_ref()
            .and_then(|f| f.get_value((row, col)))
            .is_some_and(|f| !f.is_empty());
        sheet.cells.push(Cell {
            row,
            col,
            value,
            formula,
        });
    }
    Ok(())
}

/// Text, or nothing for an empty string.
fn text(s: &str) -> Option<Raw> {
    (!s.is_empty()).then(|| Raw::Text(s.to_owned()))
}

fn raw(data: &Data) -> Option<Raw> {
    Some(match data {
        Data::Empty => return None,
        Data::String(s) => return text(s),
        Data::Int(i) => Raw::Int(*i),
        Data::Float(f) => Raw::Float(*f),
        Data::Bool(b) => Raw::Bool(*b),
        Data::DateTime(d) => Raw::Date(date_text(d)),
        Data::DateTimeIso(s) | Data::DurationIso(s) => Raw::Date(s.clone()),
        Data::Error(e) => Raw::Error(e.to_string()),
    })
}

fn raw_ref(data: &DataRef<'_>) -> Option<Raw> {
    Some(match data {
        DataRef::Empty => return None,
        DataRef::String(s) => return text(s),
        DataRef::SharedString(s) => return text(s),
        DataRef::Int(i) => Raw::Int(*i),
        DataRef::Float(f) => Raw::Float(*f),
        DataRef::Bool(b) => Raw::Bool(*b),
        DataRef::DateTime(d) => Raw::Date(date_text(d)),
        DataRef::DateTimeIso(s) | DataRef::DurationIso(s) => Raw::Date(s.clone()),
        DataRef::Error(e) => Raw::Error(e.to_string()),
    })
}

/// A spreadsheet date as ISO text: `2026-03-04`, with its time of day
/// when it has one.
fn date_text(d: &calamine::ExcelDateTime) -> String {
    let (y, mo, day, h, mi, s, _) = d.to_ymd_hms_milli();
    if (h, mi, s) == (0, 0, 0) {
        format!("{y:04}-{mo:02}-{day:02}")
    } else {
        format!("{y:04}-{mo:02}-{day:02}T{h:02}:{mi:02}:{s:02}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BOUNDS: Bounds = Bounds {
        cells: 1_000,
        unpacked: 1 << 20,
    };

    #[test]
    fn excel_csv_with_bom_crlf_semicolons_and_a_multi_line_cell() {
        let text = "\u{feff}id;kind;text\r\na;b;\"one\r\ntwo; three\"\r\n;;\r\n";
        let sheet = &read("csv", text.as_bytes(), BOUNDS).unwrap()[0];
        let cells: Vec<(u32, u32, String)> = sheet
            .cells
            .iter()
            .map(|c| (c.row, c.col, c.value.shown()))
            .collect();
        assert_eq!(cells[0], (0, 0, "id".into()));
        assert_eq!(cells[5], (1, 2, "one\r\ntwo; three".into()));
        assert_eq!(cells.len(), 6);
    }

    #[test]
    fn too_many_cells_is_refused_and_so_is_a_file_that_is_no_workbook() {
        let text = "a,b\n".repeat(600);
        assert!(matches!(
            read("csv", text.as_bytes(), BOUNDS),
            Err(Unreadable::TooLarge(_))
        ));
        assert!(matches!(
            read("xlsx", b"not a zip", BOUNDS),
            Err(Unreadable::Broken(_))
        ));
        assert!(matches!(
            read("csv", b"a,\xff\n", BOUNDS),
            Err(Unreadable::NotUtf8(2))
        ));
    }
}
