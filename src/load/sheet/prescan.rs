//! What a workbook would expand to, counted from its XML before calamine
//! reads it: calamine builds every ODS sheet as a dense grid, copying a
//! cell once per `table:number-columns-repeated` and a row once per
//! `table:number-rows-repeated`, and reserves room for an XLSX file's
//! shared strings by the count the file declares. A few hundred bytes
//! can claim gigabytes either way, so each is refused here, streaming
//! the part with a buffer of one XML event.

use std::io::{BufReader, Cursor, Read};

use quick_xml::Reader;
use quick_xml::events::{BytesStart, Event};

use super::bounds::{Bounds, Unreadable};

/// The most columns calamine expands a row to (repeats past it are cut).
const MAX_COLUMNS: u64 = 16_384;
/// The most rows calamine expands a sheet to.
const MAX_ROWS: u64 = 1_048_576;

/// Refuses a workbook whose cells, grids or text would expand past
/// `bounds` (the cell bound for cells and for each sheet's grid, empty
/// cells inside it included; the unpacked bound for text, every repeat
/// counted: the TOML a sheet stands for holds all of it, and may not be
/// larger than a card file).
pub(super) fn check(bytes: &[u8], bounds: Bounds) -> Result<(), Unreadable> {
    let mut zip = zip::ZipArchive::new(Cursor::new(bytes))
        .map_err(|e| Unreadable::Broken(format!("it is not a workbook ({e})")))?;
    if let Ok(part) = zip.by_name("content.xml") {
        ods(part.take(bounds.unpacked), bounds)?;
    }
    if let Ok(part) = zip.by_name("xl/sharedStrings.xml") {
        shared_strings(part.take(bounds.unpacked), bounds)?;
    }
    Ok(())
}

/// The value of attribute `name` of `e` as a whole number, if it is one.
fn number(e: &BytesStart<'_>, name: &str) -> Option<u64> {
    let attr = e.try_get_attribute(name).ok()??;
    attr.value.trim().parse().ok()
}

/// What an ODS file's tables expand to so far.
#[derive(Default)]
struct Tally {
    /// Non-empty cells, every repeat counted.
    cells: u64,
    /// Bytes of text and formulas, every repeat counted.
    text: u64,
    /// Cells of the finished tables' grids.
    grid: u64,
}

/// One table being read: rows so far, and the box of its non-empty cells.
#[derive(Default)]
struct Table {
    rows: u64,
    first_row: Option<u64>,
    last_row: u64,
    first_col: u64,
    last_col: u64,
}

impl Table {
    fn grid(&self) -> u64 {
        self.first_row.map_or(0, |first| {
            (self.last_row - first + 1).saturating_mul(self.last_col - self.first_col + 1)
        })
    }
}

/// One row element being read.
#[derive(Default)]
struct Row {
    repeats: u64,
    col: u64,
    cells: u64,
    text: u64,
    first_col: Option<u64>,
    last_col: u64,
}

/// Whether a cell's attributes give it a value (calamine keeps it).
fn has_value(e: &BytesStart<'_>) -> (bool, u64) {
    let mut valued = false;
    let mut text = 0;
    for attr in e.attributes().flatten() {
        match attr.key.as_ref() {
            "office:value-type"
            | "office:value"
            | "office:date-value"
            | "office:time-value"
            | "office:boolean-value" => valued = true,
            "office:string-value" | "table:formula" => {
                valued = true;
                text += attr.value.len() as u64;
            }
            _ => {}
        }
    }
    (valued, text)
}

/// An ODS file's `content.xml` being read.
#[derive(Default)]
struct Scan {
    tally: Tally,
    table: Table,
    row: Row,
    /// Inside a cell: its repeats, whether it has a value, its text.
    cell: Option<(u64, bool, u64)>,
}

impl Scan {
    /// An element's start (`empty`: it is also its end).
    fn start(&mut self, e: &BytesStart<'_>, empty: bool) {
        match e.name().as_ref() {
            "table:table" => self.table = Table::default(),
            "table:table-row" => {
                let claimed = number(e, "table:number-rows-repeated").unwrap_or(1);
                let repeats = claimed.min(MAX_ROWS.saturating_sub(self.table.rows));
                self.row = Row {
                    repeats,
                    ..Row::default()
                };
                if empty {
                    self.table.rows += repeats;
                }
            }
            "table:table-cell" | "table:covered-table-cell" => {
                let claimed = number(e, "table:number-columns-repeated").unwrap_or(1);
                let repeats = claimed.min(MAX_COLUMNS.saturating_sub(self.row.col));
                let (valued, text) = has_value(e);
                self.cell = Some((repeats, valued, text));
                if empty {
                    end_cell(&mut self.row, self.cell.take());
                }
            }
            "text:s" => self.text(number(e, "text:c").unwrap_or(1)),
            _ => {}
        }
    }

    /// `bytes` of text in the cell being read, if any.
    fn text(&mut self, bytes: u64) {
        if let Some((_, _, text)) = &mut self.cell {
            *text = text.saturating_add(bytes);
        }
    }

    /// An element's end.
    fn end(&mut self, name: &str, bounds: Bounds) -> Result<(), Unreadable> {
        match name {
            "table:table-cell" | "table:covered-table-cell" => {
                end_cell(&mut self.row, self.cell.take());
            }
            "table:table-row" => {
                end_row(&mut self.tally, &mut self.table, &self.row);
                tally_within(&self.tally, &self.table, bounds)?;
            }
            "table:table" => {
                self.tally.grid = self.tally.grid.saturating_add(self.table.grid());
                self.table = Table::default();
            }
            _ => {}
        }
        Ok(())
    }
}

fn ods(part: impl Read, bounds: Bounds) -> Result<(), Unreadable> {
    let mut xml = Reader::from_reader(BufReader::new(part));
    let mut buf = Vec::new();
    let mut scan = Scan::default();
    loop {
        let event = xml
            .read_event_into(&mut buf)
            .map_err(|e| Unreadable::Broken(format!("its content.xml is not XML ({e})")))?;
        match event {
            Event::Start(e) => scan.start(&e, false),
            Event::Empty(e) => scan.start(&e, true),
            Event::Text(t) => scan.text(t.len() as u64),
            Event::GeneralRef(r) => scan.text(r.len() as u64),
            Event::End(e) => scan.end(e.name().as_ref(), bounds)?,
            Event::Eof => return Ok(()),
            _ => {}
        }
        buf.clear();
    }
}

/// A cell's end: its repeats counted in its row when it holds anything.
fn end_cell(row: &mut Row, cell: Option<(u64, bool, u64)>) {
    let Some((repeats, valued, text)) = cell else {
        return;
    };
    if valued || text > 0 {
        row.cells = row.cells.saturating_add(repeats);
        row.text = row.text.saturating_add(text.saturating_mul(repeats));
        row.first_col.get_or_insert(row.col);
        row.last_col = row.col + repeats.saturating_sub(1);
    }
    row.col = row.col.saturating_add(repeats);
}

/// A row's end: its cells and text counted once per repeat, its place in
/// its table's box.
fn end_row(tally: &mut Tally, table: &mut Table, row: &Row) {
    if let Some(first_col) = row.first_col {
        tally.cells = tally
            .cells
            .saturating_add(row.cells.saturating_mul(row.repeats));
        tally.text = tally
            .text
            .saturating_add(row.text.saturating_mul(row.repeats));
        if table.first_row.is_none() {
            table.first_row = Some(table.rows);
            table.first_col = first_col;
        }
        table.first_col = table.first_col.min(first_col);
        table.last_col = table.last_col.max(row.last_col);
        table.last_row = table.rows + row.repeats.saturating_sub(1);
    }
    table.rows = table.rows.saturating_add(row.repeats);
}

fn tally_within(tally: &Tally, table: &Table, bounds: Bounds) -> Result<(), Unreadable> {
    let cells = bounds.cells as u64;
    if tally.cells > cells {
        return Err(Unreadable::TooLarge(format!(
            "its repeated cells make more than {cells} non-empty cells"
        )));
    }
    if tally.grid.saturating_add(table.grid()) > cells {
        return Err(Unreadable::TooLarge(format!(
            "its sheets span more than {cells} cells from their first to their last non-empty cell, \
             empty ones between included"
        )));
    }
    if tally.text > bounds.unpacked {
        return Err(Unreadable::TooLarge(format!(
            "its cells' text, every repeat counted, is more than {} bytes",
            bounds.unpacked
        )));
    }
    Ok(())
}

/// Refuses an XLSX file's shared strings when they declare more strings
/// than the file may have cells (calamine reserves room for each).
fn shared_strings(part: impl Read, bounds: Bounds) -> Result<(), Unreadable> {
    let mut xml = Reader::from_reader(BufReader::new(part));
    let mut buf = Vec::new();
    loop {
        match xml.read_event_into(&mut buf) {
            Ok(Event::Start(e) | Event::Empty(e)) if e.name().as_ref() == "sst" => {
                let declared = number(&e, "uniqueCount").unwrap_or(0);
                if declared > bounds.cells as u64 {
                    return Err(Unreadable::TooLarge(format!(
                        "its shared strings declare {declared} strings, more than the limit of {} cells",
                        bounds.cells
                    )));
                }
                return Ok(());
            }
            // A count that is not a number is calamine's to refuse.
            Ok(Event::Eof) | Err(_) => return Ok(()),
            Ok(_) => {}
        }
        buf.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BOUNDS: Bounds = Bounds {
        cells: 1_000,
        unpacked: 1 << 20,
    };

    fn table(rows: &str) -> String {
        format!("<office:spreadsheet><table:table>{rows}</table:table></office:spreadsheet>")
    }

    #[test]
    fn empty_repeats_cost_nothing_and_valued_ones_count_each_copy() {
        // LibreOffice closes every sheet with its empty rest, repeated.
        let saved = table(
            "<table:table-row><table:table-cell office:value-type=\"string\">\
             <text:p>id</text:p></table:table-cell></table:table-row>\
             <table:table-row table:number-rows-repeated=\"1048575\">\
             <table:table-cell table:number-columns-repeated=\"16384\"/></table:table-row>",
        );
        assert!(ods(saved.as_bytes(), BOUNDS).is_ok());
        let copied = table(
            "<table:table-row table:number-rows-repeated=\"40\">\
             <table:table-cell table:number-columns-repeated=\"26\" office:value=\"1\"/>\
             </table:table-row>",
        );
        assert!(matches!(
            ods(copied.as_bytes(), BOUNDS),
            Err(Unreadable::TooLarge(_))
        ));
        // Two far cells: the grid between them is counted.
        let far = table(
            "<table:table-row><table:table-cell office:value=\"1\"/></table:table-row>\
             <table:table-row table:number-rows-repeated=\"50\"/>\
             <table:table-row><table:table-cell table:number-columns-repeated=\"30\"/>\
             <table:table-cell office:value=\"1\"/></table:table-row>",
        );
        assert!(matches!(
            ods(far.as_bytes(), BOUNDS),
            Err(Unreadable::TooLarge(_))
        ));
    }

    #[test]
    fn a_declared_count_of_shared_strings_past_the_cells_is_refused() {
        let sst = |n: &str| format!("<sst uniqueCount=\"{n}\"><si><t>x</t></si></sst>");
        assert!(shared_strings(sst("3").as_bytes(), BOUNDS).is_ok());
        assert!(matches!(
            shared_strings(sst("18446744073709551615").as_bytes(), BOUNDS),
            Err(Unreadable::TooLarge(_))
        ));
    }
}
