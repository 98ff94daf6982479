//! The source map: every file a run has read, by id, with line lookup.

use std::ops::Range;
use std::sync::{Arc, OnceLock};

use super::cells::CellMap;

/// Index of a file in the [`SourceMap`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct FileId(pub u32);

/// A 1-based line and column (columns count characters, not bytes).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LineCol {
    /// 1-based line number.
    pub line: usize,
    /// 1-based column, in Unicode scalar values.
    pub column: usize,
}

/// One file: its workspace-relative name and its text.
#[derive(Debug, Clone)]
pub struct SourceFile {
    /// Path relative to the workspace root, `/`-separated.
    pub name: String,
    /// The text (lossily decoded when the file is not UTF-8); empty while
    /// the file is not resident (see [`SourceMap::add_unread`]).
    pub text: Arc<str>,
    /// Whether `text` holds the file's text.
    pub resident: bool,
    /// For a file read whose text was not kept: the CRC-32 of its bytes,
    /// which reading it again must give (else it changed since).
    pub crc: Option<u32>,
    /// For a spreadsheet: `text` is the TOML the loader wrote for it (its
    /// shadow), and this says which cell each span of it stands for.
    pub cells: Option<Arc<CellMap>>,
    /// Where each line starts, computed once when first needed, so that
    /// placing many diagnostics in one file stays linear.
    index: OnceLock<LineIndex>,
}

/// The byte offset of every line's start in one text: built once, it
/// places any number of offsets in the text in logarithmic time each
/// (scanning from the start for each would be quadratic in their number).
#[derive(Debug, Clone)]
pub struct LineIndex {
    starts: Vec<usize>,
}

impl LineIndex {
    /// The index of `text`'s lines.
    pub fn new(text: &str) -> Self {
        LineIndex {
            starts: std::iter::once(0)
                .chain(text.match_indices('\n').map(|(i, _)| i + 1))
                .collect(),
        }
    }

    /// Line and column of byte offset `offset` of `text`, the text the
    /// index was built from (clamped to it, and back to a character's
    /// start).
    pub fn line_col(&self, text: &str, offset: usize) -> LineCol {
        let mut offset = offset.min(text.len());
        while !text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = self.starts.partition_point(|&s| s <= offset) - 1;
        LineCol {
            line: line + 1,
            column: text[self.starts[line]..offset].chars().count() + 1,
        }
    }
}

impl SourceFile {
    /// A resident file.
    pub fn new(name: String, text: Arc<str>) -> Self {
        SourceFile {
            name,
            text,
            resident: true,
            crc: None,
            cells: None,
            index: OnceLock::new(),
        }
    }

    fn lines(&self) -> &LineIndex {
        self.index.get_or_init(|| LineIndex::new(&self.text))
    }

    fn line_starts(&self) -> &[usize] {
        &self.lines().starts
    }

    /// How many lines the text has (an empty text has one, empty).
    pub fn line_count(&self) -> usize {
        self.line_starts().len()
    }

    /// Byte range of 0-based line `line`, without its line break.
    pub fn line_range(&self, line: usize) -> Range<usize> {
        let starts = self.line_starts();
        let start = starts[line];
        let mut end = starts
            .get(line + 1)
            .map_or(self.text.len(), |&next| next - 1);
        if end > start && self.text.as_bytes()[end - 1] == b'\r' {
            end -= 1;
        }
        start..end
    }

    /// Line and column of byte offset `offset` (clamped to the text).
    pub fn line_col(&self, offset: usize) -> LineCol {
        self.lines().line_col(&self.text, offset)
    }
}

/// Every file read in a run. Ids are handed out in the order files are added,
/// which the loader makes the sorted path order, so sorting by id sorts by path.
#[derive(Debug, Default)]
pub struct SourceMap {
    files: Vec<SourceFile>,
}

impl SourceMap {
    /// An empty map.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a file and returns its id.
    pub fn add(&mut self, name: impl Into<String>, text: impl Into<Arc<str>>) -> FileId {
        let id = FileId(u32::try_from(self.files.len()).expect("fewer than 2^32 files"));
        self.files.push(SourceFile::new(name.into(), text.into()));
        id
    }

    /// Makes room for `more` files, so that adding a game's files moves
    /// the list at most once.
    pub fn reserve(&mut self, more: usize) {
        self.files.reserve_exact(more);
    }

    /// Adds a file whose text is not kept (yet): a file that produced no
    /// diagnostic need not stay in memory; [`SourceMap::set_text`] brings
    /// its text back when a diagnostic of another file labels it.
    pub fn add_unread(&mut self, name: impl Into<String>) -> FileId {
        let id = self.add(name, "");
        self.files[id.0 as usize].resident = false;
        id
    }

    /// The files whose text is not resident.
    pub fn unread(&self) -> impl Iterator<Item = FileId> + '_ {
        self.files
            .iter()
            .enumerate()
            .filter(|(_, f)| !f.resident)
            .map(|(i, _)| FileId(i as u32))
    }

    /// How many files have been added.
    pub fn len(&self) -> usize {
        self.files.len()
    }

    /// Whether no file has been added.
    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    /// The file with id `id`.
    ///
    /// # Panics
    /// If `id` was not handed out by this map.
    pub fn get(&self, id: FileId) -> &SourceFile {
        &self.files[id.0 as usize]
    }

    /// Every file with its id, in the order added.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (FileId, &SourceFile)> {
        self.files
            .iter()
            .enumerate()
            .map(|(i, f)| (FileId(i as u32), f))
    }

    /// Records the CRC-32 of the bytes of a file read whose text is not
    /// kept.
    pub fn set_crc(&mut self, id: FileId, crc: u32) {
        self.files[id.0 as usize].crc = Some(crc);
    }

    /// Gives a spreadsheet file its shadow text and the cells it stands
    /// for (see [`SourceFile::cells`]).
    pub fn set_sheet(&mut self, id: FileId, text: Arc<str>, cells: Arc<CellMap>) {
        self.set_text(id, text);
        self.files[id.0 as usize].cells = Some(cells);
    }

    /// Replaces the text of a file (the loader registers names first, then
    /// fills in texts read in parallel).
    pub fn set_text(&mut self, id: FileId, text: Arc<str>) {
        let file = &mut self.files[id.0 as usize];
        *file = SourceFile::new(std::mem::take(&mut file.name), text);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_col_counts_characters_not_bytes() {
        let file = SourceFile::new("a.toml".into(), "a = 1\nnome = \"Guardião\" x\n".into());
        let x = file.text.find(" x").unwrap() + 1;
        assert_eq!(
            file.line_col(x),
            LineCol {
                line: 2,
                column: 19
            }
        );
        assert_eq!(file.line_col(0), LineCol { line: 1, column: 1 });
        assert_eq!(file.line_col(10_000), LineCol { line: 3, column: 1 });
    }
}
