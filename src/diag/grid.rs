//! A diagnostic at a spreadsheet cell, drawn for people: the sheet's
//! header row, the cell's row under it, the cell marked, in miette's
//! style (a snippet's frame and gutter, with the true row numbers).

use super::Label;
use super::cells::{CellAt, CellMap};
use super::source::SourceFile;
use super::text::escape_controls;

/// The most characters of one cell shown.
const MAX_CELL: usize = 24;
/// The most columns shown on each side of the marked one.
const SIDE: u32 = 3;

/// The snippet of `primary` (and the labels of the same file): the row
/// of its cell under the header row, the cell marked with its message.
pub(super) fn draw(file: &SourceFile, primary: &Label, others: &[&Label]) -> String {
    let Some(map) = file.cells.as_deref() else {
        return String::new();
    };
    let Some(at) = map.cell_of(primary.span.start) else {
        return format!("    ╭─[{}]\n    ╰────\n", escape_controls(&file.name));
    };
    let header_row = map.header_row(at.sheet);
    let rows: Vec<u32> = if at.row == header_row {
        vec![header_row]
    } else {
        vec![header_row, at.row]
    };
    let cols = shown_columns(map, at, &rows);
    let (texts, widths) = cell_texts(map, at.sheet, &rows, &cols);
    let gutter = at.row.to_string().len().max(2);
    let pad = " ".repeat(gutter + 1);
    let mut out = format!(
        "{pad}╭─[{} · {}]\n",
        escape_controls(&file.name),
        map.name(at)
    );
    let mut marked_from = 0;
    for (row, cells) in rows.iter().zip(&texts) {
        let mut line = String::new();
        for (i, text) in cells.iter().enumerate() {
            if i > 0 {
                line.push_str(" │ ");
            }
            if cols[i] == at.col && *row == at.row {
                marked_from = line.chars().count();
            }
            line.push_str(&format!("{text:<w$}", w = widths[i]));
        }
        out.push_str(&format!("{row:>gutter$} │ {}\n", line.trim_end()));
    }
    let width = cols
        .iter()
        .position(|c| *c == at.col)
        .map_or(1, |i| widths[i]);
    out.push_str(&marker(&pad, marked_from, width, &primary.message));
    for label in others {
        if let Some(other) = map.cell_of(label.span.start) {
            out.push_str(&format!("{pad}· {}: {}\n", label.message, map.name(other)));
        }
    }
    out.push_str(&format!("{pad}╰────\n"));
    out
}

/// The text shown of each of `cols` on each of `rows`, and each column's width.
fn cell_texts(
    map: &CellMap,
    sheet: u16,
    rows: &[u32],
    cols: &[u32],
) -> (Vec<Vec<String>>, Vec<usize>) {
    let texts: Vec<Vec<String>> = rows
        .iter()
        .map(|&row| {
            let cells: Vec<(u32, &str)> = map.row(sheet, row).collect();
            cols.iter()
                .map(|c| shown(cells.iter().find(|(col, _)| col == c).map_or("", |t| t.1)))
                .collect()
        })
        .collect();
    let widths = (0..cols.len())
        .map(|i| {
            texts
                .iter()
                .map(|r| r[i].chars().count())
                .max()
                .unwrap_or(0)
                .max(1)
        })
        .collect();
    (texts, widths)
}

/// The columns shown: those near the marked one that have a header or a
/// value on the rows shown, and the marked one.
fn shown_columns(map: &CellMap, at: CellAt, rows: &[u32]) -> Vec<u32> {
    let mut cols: Vec<u32> = rows
        .iter()
        .flat_map(|&row| map.row(at.sheet, row).map(|(c, _)| c))
        .chain(std::iter::once(at.col))
        .collect();
    cols.sort_unstable();
    cols.dedup();
    let i = cols.iter().position(|c| *c == at.col).unwrap_or(0);
    let from = i.saturating_sub(SIDE as usize);
    let to = (i + SIDE as usize + 1).min(cols.len());
    cols[from..to].to_vec()
}

/// The marker under the cell, miette's way: `──┬──` then `╰── message`.
fn marker(pad: &str, from: usize, width: usize, message: &str) -> String {
    let lead = " ".repeat(from);
    if message.is_empty() {
        return format!("{pad}· {lead}{}\n", "─".repeat(width));
    }
    let mid = width / 2;
    let bar = format!(
        "{}┬{}",
        "─".repeat(mid),
        "─".repeat(width.saturating_sub(mid + 1))
    );
    format!(
        "{pad}· {lead}{bar}\n{pad}· {lead}{}╰── {}\n",
        " ".repeat(mid),
        escape_controls(&super::text::clip(message))
    )
}

/// A cell's text as shown: one line, bounded, no control characters.
fn shown(text: &str) -> String {
    let one_line: String = text
        .chars()
        .map(|c| match c {
            '\n' => '⏎',
            '\r' | '\t' => ' ',
            c => c,
        })
        .collect();
    let mut clipped: String = one_line.chars().take(MAX_CELL).collect();
    if one_line.chars().count() > MAX_CELL {
        clipped.push('…');
    }
    escape_controls(&clipped).into_owned()
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::diag::FileId;

    #[test]
    fn the_cell_is_drawn_under_its_header_with_its_true_row() {
        let mut map = CellMap::new();
        let s = map.add_sheet("", 1);
        let at = |row, col| CellAt { sheet: s, row, col };
        for (col, text) in ["id", "kind", "nome", "ataque"].iter().enumerate() {
            map.add_cell(at(1, col as u32), text);
        }
        for (col, text) in ["guardiao", "heroi", "Guardião", "12abc"]
            .iter()
            .enumerate()
        {
            map.add_cell(at(14, col as u32), text);
        }
        map.place(0, at(14, 3));
        let mut file = SourceFile::new("cards/g/c.csv".into(), Arc::from("x = 1\n"));
        file.cells = Some(Arc::new(map));
        let label = Label::new(FileId(0), 0..1, "expected an integer");
        let drawn = draw(&file, &label, &[]);
        let lines: Vec<&str> = drawn.lines().collect();
        assert_eq!(lines[0], "   ╭─[cards/g/c.csv · D14]");
        assert_eq!(lines[1], " 1 │ id       │ kind  │ nome     │ ataque");
        assert_eq!(lines[2], "14 │ guardiao │ heroi │ Guardião │ 12abc");
        let chars = |line: &str, at: usize| line[..at].chars().count();
        let col = chars(lines[2], lines[2].find("12abc").unwrap());
        assert_eq!(chars(lines[3], lines[3].find('─').unwrap()), col, "{drawn}");
        assert!(lines[4].ends_with("╰── expected an integer"), "{drawn}");
    }
}
