//! Which other cards a face reads while it renders (a reference shown by
//! its name, the `card` helper): noted by the helpers as they run, so the
//! faces cache (`reuse.rs`) can tell when a cached face is out of date.

use std::cell::RefCell;

thread_local! {
    /// The cards the render on this thread has read, while one is recorded.
    static READ: RefCell<Option<Vec<String>>> = const { RefCell::new(None) };
}

/// Notes that the card being rendered read card `id` (its name, its view).
pub(super) fn note_read(id: &str) {
    READ.with(|r| {
        if let Some(read) = r.borrow_mut().as_mut() {
            read.push(id.to_owned());
        }
    });
}

/// Runs `f` (one card's render, on this thread), returning its result and
/// the ids of the other cards it read, sorted, each once.
pub(super) fn recording<T>(f: impl FnOnce() -> T) -> (T, Vec<String>) {
    READ.with(|r| *r.borrow_mut() = Some(Vec::new()));
    let out = f();
    let mut read = READ.with(|r| r.borrow_mut().take()).unwrap_or_default();
    read.sort_unstable();
    read.dedup();
    (out, read)
}
