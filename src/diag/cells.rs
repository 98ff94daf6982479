//! Cell locations: a spreadsheet card file is checked through a TOML text
//! the loader writes for it (its *shadow*), and this map says which cell
//! each span of that text stands for, so every diagnostic of every stage
//! names a sheet and a cell ("D14") instead of a place in the shadow.
//!
//! The map also keeps the text of every non-empty cell of the sheets (one
//! string, cells as ranges of it), to show the marked cell's row under its
//! header row.

use std::ops::Range;

/// A cell: sheet index, 1-based row, 0-based column.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct CellAt {
    /// Index of the sheet in [`CellMap::sheet_name`].
    pub sheet: u16,
    /// 1-based row, as the spreadsheet numbers it.
    pub row: u32,
    /// 0-based column (`A` is 0).
    pub col: u32,
}

/// Which cell each span of a shadow text stands for, and the cells' text.
#[derive(Debug, Clone, Default)]
pub struct CellMap {
    /// Sheet names; a CSV file has one sheet with an empty name.
    sheets: Vec<String>,
    /// Per sheet, the row its headers are on.
    header_rows: Vec<u32>,
    /// (shadow offset, cell) sorted by offset: an offset at or after
    /// one entry's and before the next's stands for that entry's cell.
    places: Vec<(u32, CellAt)>,
    /// Every non-empty cell shown, sorted by place, with its text in `text`.
    cells: Vec<(CellAt, Range<u32>)>,
    text: String,
    /// The cells the reader reported as errors (a date, an error value).
    reported: std::collections::HashSet<CellAt>,
}

impl CellMap {
    /// An empty map.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a sheet whose headers are on `header_row`; returns its index.
    ///
    /// # Panics
    /// With more than 65,535 sheets (the loader caps them far below).
    pub fn add_sheet(&mut self, name: &str, header_row: u32) -> u16 {
        self.sheets.push(name.to_owned());
        self.header_rows.push(header_row);
        u16::try_from(self.sheets.len() - 1).expect("fewer than 2^16 sheets")
    }

    /// Records the text of a non-empty cell; cells must come in sheet,
    /// row, column order.
    pub fn add_cell(&mut self, at: CellAt, text: &str) {
        let start = self.text.len() as u32;
        self.text.push_str(text);
        self.cells.push((at, start..self.text.len() as u32));
    }

    /// Says that the shadow text from `offset` on stands for `at`; offsets
    /// must grow.
    pub fn place(&mut self, offset: usize, at: CellAt) {
        self.places.push((offset as u32, at));
    }

    /// Records that the reader reported cell `at` as an error: what a
    /// later stage finds wrong with its value only repeats that.
    pub fn mark_reported(&mut self, at: CellAt) {
        self.reported.insert(at);
    }

    /// The cell a shadow offset stands for.
    pub fn cell_of(&self, offset: usize) -> Option<CellAt> {
        let i = self.places.partition_point(|(o, _)| *o as usize <= offset);
        self.places.get(i.checked_sub(1)?).map(|(_, at)| *at)
    }

    /// The name of sheet `sheet` (empty for a CSV file).
    pub fn sheet_name(&self, sheet: u16) -> &str {
        self.sheets
            .get(usize::from(sheet))
            .map_or("", String::as_str)
    }

    /// The row the headers of `sheet` are on.
    pub fn header_row(&self, sheet: u16) -> u32 {
        self.header_rows
            .get(usize::from(sheet))
            .copied()
            .unwrap_or(1)
    }

    /// The non-empty cells of one row, by column.
    pub fn row(&self, sheet: u16, row: u32) -> impl Iterator<Item = (u32, &str)> {
        let first = CellAt { sheet, row, col: 0 };
        let from = self.cells.partition_point(|(at, _)| *at < first);
        self.cells[from..]
            .iter()
            .take_while(move |(at, _)| at.sheet == sheet && at.row == row)
            .map(|(at, r)| (at.col, &self.text[r.start as usize..r.end as usize]))
    }

    /// A cell as a person names it: `D14`, or `Cartas!D14` in a workbook.
    pub fn name(&self, at: CellAt) -> String {
        let sheet = self.sheet_name(at.sheet);
        let cell = format!("{}{}", column_name(at.col), at.row);
        if sheet.is_empty() {
            cell
        } else {
            format!("{sheet}!{cell}")
        }
    }
}

/// A 0-based column as letters: 0 → `A`, 25 → `Z`, 26 → `AA`.
pub fn column_name(col: u32) -> String {
    let mut n = u64::from(col) + 1;
    let mut out = Vec::new();
    while n > 0 {
        let rem = (n - 1) % 26;
        out.push(b'A' + rem as u8);
        n = (n - 1) / 26;
    }
    out.reverse();
    String::from_utf8(out).expect("ASCII letters")
}

/// Folds the diagnostics of spreadsheet file `file` that repeat at one
/// header cell — a problem with a column, found once per card, such as an
/// unknown field — into the first of them, which says how many more cards
/// share it: a column of 300 cards is one problem, not 300.
pub fn fold_header_repeats(diags: &mut Vec<super::Diagnostic>, file: super::FileId, map: &CellMap) {
    let header_cell = |d: &super::Diagnostic| {
        let primary = d.primary.as_ref().filter(|p| p.file == file)?;
        let at = map.cell_of(primary.span.start)?;
        (at.row == map.header_row(at.sheet)).then_some((d.code, at))
    };
    let mut seen: Vec<((&'static str, CellAt), usize, usize)> = Vec::new();
    let mut keep = Vec::with_capacity(diags.len());
    for (i, d) in diags.iter().enumerate() {
        let Some(key) = header_cell(d) else {
            keep.push(true);
            continue;
        };
        if let Some(entry) = seen.iter_mut().find(|(k, _, _)| *k == key) {
            entry.2 += 1;
            keep.push(false);
        } else {
            seen.push((key, i, 0));
            keep.push(true);
        }
    }
    for (_, first, more) in &seen {
        if *more > 0 {
            let d = &mut diags[*first];
            d.message = format!(
                "{} (and {more} more card{} of this column)",
                d.message,
                if *more == 1 { "" } else { "s" }
            );
        }
    }
    let mut flags = keep.into_iter();
    diags.retain(|_| flags.next().unwrap_or(true));
}

/// Drops the diagnostics of spreadsheet file `file` that land on a cell
/// the reader reported as an error already ([`CellMap::mark_reported`]):
/// a date typed into a number's column is one error, not also the
/// schema's "must be an integer".
pub fn drop_reported_repeats(
    diags: &mut Vec<super::Diagnostic>,
    file: super::FileId,
    map: &CellMap,
) {
    if map.reported.is_empty() {
        return;
    }
    diags.retain(|d| {
        let at = d
            .primary
            .as_ref()
            .filter(|p| p.file == file)
            .and_then(|p| map.cell_of(p.span.start));
        !at.is_some_and(|at| map.reported.contains(&at))
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_are_named_as_spreadsheets_name_them() {
        let names: Vec<String> = [0, 3, 25, 26, 27, 701, 702, 16_383]
            .into_iter()
            .map(column_name)
            .collect();
        assert_eq!(names, ["A", "D", "Z", "AA", "AB", "ZZ", "AAA", "XFD"]);
    }

    #[test]
    fn an_offset_stands_for_the_last_cell_placed_at_or_before_it() {
        let mut map = CellMap::new();
        let s = map.add_sheet("Cartas", 1);
        let at = |row, col| CellAt { sheet: s, row, col };
        map.add_cell(at(1, 0), "id");
        map.add_cell(at(1, 3), "ataque");
        map.add_cell(at(14, 0), "guardiao");
        map.add_cell(at(14, 3), "12abc");
        map.place(0, at(14, 0));
        map.place(20, at(14, 3));
        assert_eq!(map.cell_of(5), Some(at(14, 0)));
        assert_eq!(map.cell_of(20), Some(at(14, 3)));
        assert_eq!(map.name(at(14, 3)), "Cartas!D14");
        let row: Vec<_> = map.row(s, 14).collect();
        assert_eq!(row, [(0, "guardiao"), (3, "12abc")]);
        assert_eq!(map.row(s, 2).count(), 0);
    }
}
