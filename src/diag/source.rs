//! The source map: every file a run has read, by id, with line lookup.

use std::sync::Arc;

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
}

impl SourceFile {
    /// Line and column of byte offset `offset` (clamped to the text).
    pub fn line_col(&self, offset: usize) -> LineCol {
        let mut offset = offset.min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        let before = &self.text[..offset];
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        LineCol {
            line: before.matches('\n').count() + 1,
            column: before[line_start..].chars().count() + 1,
        }
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
        self.files.push(SourceFile {
            name: name.into(),
            text: text.into(),
            resident: true,
        });
        id
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

    /// Replaces the text of a file (the loader registers names first, then
    /// fills in texts read in parallel).
    pub fn set_text(&mut self, id: FileId, text: Arc<str>) {
        let file = &mut self.files[id.0 as usize];
        file.text = text;
        file.resident = true;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_col_counts_characters_not_bytes() {
        let file = SourceFile {
            name: "a.toml".into(),
            text: "a = 1\nnome = \"Guardião\" x\n".into(),
            resident: true,
        };
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
