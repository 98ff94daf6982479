//! The format's fixed numbers: its magic, versions, lengths and limits,
//! which the header, the writer, the reader and their errors all name (so
//! that none of them imports another for a constant).

/// The first eight bytes of every bundle: `\x89CARTA\r\n` (the high byte
/// catches 7-bit transfers, CR LF catches newline conversion).
pub const MAGIC: [u8; 8] = *b"\x89CARTA\r\n";

/// The format's major version, which this carta writes and reads. A reader
/// refuses any other: a new major version is one an old reader would
/// misread.
pub const FORMAT_VERSION: u16 = 1;

/// The format's minor version, which this carta writes. A reader accepts
/// any minor version of its major one: a minor version only adds what a
/// reader may ignore (map keys).
pub const FORMAT_MINOR: u16 = 5;

/// The size of the header in bytes; the payload starts right after it.
pub const HEADER_LEN: usize = 128;

/// The file extension of a bundle.
pub const EXTENSION: &str = "carta";

/// The deepest nesting of arrays and tables a card field may have. The writer
/// refuses deeper values and the reader stops decoding at this depth, so a
/// crafted bundle cannot exhaust the stack.
pub const MAX_DEPTH: usize = 64;

/// The size of one index entry: five little-endian u32.
pub const INDEX_ENTRY_LEN: usize = 20;

/// The size of one entry of the cards section's block table: three u32.
pub const BLOCK_ENTRY_LEN: usize = 12;

/// The writer closes a block of records once it holds this many bytes.
pub const BLOCK_TARGET: usize = 32 * 1024;

/// The most bytes a block may inflate to; a reader refuses larger claims.
pub const MAX_BLOCK: usize = 16 * 1024 * 1024;

/// DEFLATE cannot expand data by more than this factor, so a block that
/// claims to inflate to more than this times its stored size is refused
/// before any memory is set aside for it.
pub const MAX_INFLATE_RATIO: usize = 1032;
