//! Inflating blocks of records with libdeflate's whole-buffer
//! decompressor: a block is a small zlib stream whose inflated length the
//! block table records, which is the case libdeflate is built for (it
//! inflates into the final buffer in one call, without a streaming
//! state machine or a sliding window of its own), so it does less work
//! per block than a streaming inflater such as zlib-rs (`cargo bench
//! --bench bundle` compares the two).

use std::ptr::NonNull;

use libdeflate_sys::{
    libdeflate_alloc_decompressor, libdeflate_decompressor, libdeflate_deflate_decompress_ex,
    libdeflate_free_decompressor, libdeflate_result_LIBDEFLATE_INSUFFICIENT_SPACE as TOO_LONG,
    libdeflate_result_LIBDEFLATE_SHORT_OUTPUT as TOO_SHORT,
    libdeflate_result_LIBDEFLATE_SUCCESS as SUCCESS,
};

/// A decompressor and the buffer it inflates into, both reused from one
/// block to the next: inflating a block allocates nothing unless the block
/// is larger than every one before it.
pub(crate) struct Inflater {
    decompressor: NonNull<libdeflate_decompressor>,
    raw: Vec<u8>,
}

// SAFETY: a libdeflate decompressor is plain memory with no tie to the
// thread that made it; `Inflater` only uses it through `&mut self`, so it
// is never used from two threads at once (it is not `Sync`).
unsafe impl Send for Inflater {}

impl std::fmt::Debug for Inflater {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Inflater")
            .field("capacity", &self.raw.capacity())
            .finish_non_exhaustive()
    }
}

impl Inflater {
    /// A decompressor with an empty buffer.
    pub(crate) fn new() -> Self {
        // SAFETY: takes no argument; returns null only when out of memory.
        let decompressor = unsafe { libdeflate_alloc_decompressor() };
        let Some(decompressor) = NonNull::new(decompressor) else {
            // As Rust's own collections do when `malloc` fails.
            std::alloc::handle_alloc_error(std::alloc::Layout::new::<[u8; 1 << 15]>());
        };
        Inflater {
            decompressor,
            raw: Vec::new(),
        }
    }

    /// Inflates the zlib stream `stored`, which must inflate to exactly
    /// `raw_len` bytes and end exactly where `stored` ends; returns the
    /// inflated bytes (valid until the next call). No more than `raw_len`
    /// bytes are ever written or set aside.
    ///
    /// A zlib stream is a 2-byte header, DEFLATE data and an Adler-32 of
    /// the inflated bytes. The bundle's payload CRC already vouches for the
    /// stored bytes, so the Adler-32 is not recomputed: the header is
    /// checked and the DEFLATE data inflated raw, and it must end where the
    /// Adler-32 begins.
    ///
    /// # Errors
    /// What is wrong with the stream, in words.
    pub(crate) fn inflate(&mut self, stored: &[u8], raw_len: usize) -> Result<&[u8], String> {
        let deflate = match *stored {
            [cmf, flg, ref data @ .., _, _, _, _]
                if cmf & 0x0f == 8
                    && cmf >> 4 <= 7
                    && flg & 0x20 == 0
                    && (u16::from(cmf) << 8 | u16::from(flg)) % 31 == 0 =>
            {
                data
            }
            _ => return Err("not a zlib stream".into()),
        };
        // Shrinking keeps the capacity; growing zeroes only the new bytes.
        self.raw.resize(raw_len, 0);
        let mut used = 0usize;
        // SAFETY: the decompressor is live and used by this thread alone
        // (`&mut self`); `deflate` is readable and `raw` writable for the
        // lengths passed, and libdeflate touches nothing outside them.
        // With no place for the output length, libdeflate fails unless the
        // output fills `raw_len` bytes exactly.
        let result = unsafe {
            libdeflate_deflate_decompress_ex(
                self.decompressor.as_ptr(),
                deflate.as_ptr().cast(),
                deflate.len(),
                self.raw.as_mut_ptr().cast(),
                raw_len,
                &raw mut used,
                std::ptr::null_mut(),
            )
        };
        match result {
            SUCCESS if used == deflate.len() => Ok(&self.raw),
            SUCCESS => Err(match deflate.len() - used {
                1 => "its DEFLATE data stops 1 byte short of the Adler-32 that closes the stream"
                    .into(),
                n => format!(
                    "its DEFLATE data stops {n} bytes short of the Adler-32 that closes the stream"
                ),
            }),
            TOO_SHORT => Err(format!(
                "inflates to fewer than the {raw_len} bytes the block table says"
            )),
            TOO_LONG => Err(format!(
                "inflates to more than the {raw_len} bytes the block table says"
            )),
            _ => Err("not a valid zlib stream (its DEFLATE data is damaged or cut short)".into()),
        }
    }
}

impl Inflater {
    /// The bytes the last successful [`Inflater::inflate`] returned.
    pub(crate) fn inflated(&self) -> &[u8] {
        &self.raw
    }
}

impl Drop for Inflater {
    fn drop(&mut self) {
        // SAFETY: allocated by `libdeflate_alloc_decompressor` and freed once.
        unsafe { libdeflate_free_decompressor(self.decompressor.as_ptr()) }
    }
}
