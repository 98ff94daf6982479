//! What a spreadsheet may hold, and why one could not be read: shared by
//! the reader (`read`) and the size-up that runs before it (`prescan`).

/// Why a file could not be read as a spreadsheet.
#[derive(Debug)]
pub(super) enum Unreadable {
    /// Past a limit (cells, unpacked size).
    TooLarge(String),
    /// Not a spreadsheet of its kind, or damaged.
    Broken(String),
    /// A CSV file that is not UTF-8, and the byte offset of the first bad byte.
    NotUtf8(usize),
}

/// What a spreadsheet may hold at most.
#[derive(Debug, Clone, Copy)]
pub(super) struct Bounds {
    /// Non-empty cells in the whole file.
    pub cells: usize,
    /// Bytes of a workbook's parts once unpacked.
    pub unpacked: u64,
}
