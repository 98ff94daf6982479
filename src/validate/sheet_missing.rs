//! A required field missing from a spreadsheet row, said in the sheet's
//! terms: at the row's empty cell under the field's column, or, when no
//! column names the field, where that column would go in the header row
//! — with help about cells and columns rather than TOML tables.

use super::messages::missing_field;
use crate::diag::{CellAt, CellMap, Diagnostic, FileId, column_name};

/// Moves each `schema::required` diagnostic of sheet file `file` (shadow
/// `text`, cells `map`) about a card's own field to the cell it concerns.
/// A field missing from a table nested in a card stays where the
/// validator put it.
pub fn place_missing_in_sheet(diags: &mut [Diagnostic], file: FileId, text: &str, map: &CellMap) {
    let mut offsets = None;
    for d in diags.iter_mut() {
        let Some(name) = missing_field(d).map(str::to_owned) else {
            continue;
        };
        let Some(primary) = d.primary.as_mut().filter(|p| p.file == file) else {
            continue;
        };
        // A card's own table starts at its `[[card]]` line.
        let root = text
            .get(primary.span.start..)
            .is_some_and(|t| t.starts_with("[[card]]"));
        let Some(row) = map.cell_of(primary.span.start).filter(|_| root) else {
            continue;
        };
        let offsets = offsets.get_or_insert_with(|| map.offsets());
        let header_row = map.header_row(row.sheet);
        let (at, label, help) = if let Some(col) = map.column_named(row.sheet, &name) {
            (
                CellAt { col, ..row },
                "empty cell".to_owned(),
                format!("fill this cell: every card of this kind needs its `{name}`"),
            )
        } else {
            let next = map
                .row(row.sheet, header_row)
                .last()
                .map_or(0, |(col, _)| col + 1);
            (
                CellAt {
                    row: header_row,
                    col: next,
                    ..row
                },
                format!("no column `{name}`"),
                format!(
                    "add a column named `{name}` to the header row (row {header_row}, e.g. column {}) and fill it for each card",
                    column_name(next)
                ),
            )
        };
        if let Some(&offset) = offsets.get(&at) {
            primary.span = offset..offset;
            primary.message = label;
            d.help = Some(help);
        }
    }
}
