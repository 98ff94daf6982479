//! Timing shared by the bench binaries: medians of interleaved runs, so
//! that load from other processes falls on every side alike.

use std::time::{Duration, Instant};

/// The median times of `runs` rounds of each of `fs`, run in turn, after
/// one warm-up round.
pub(crate) fn medians<const N: usize>(runs: usize, fs: [&dyn Fn(); N]) -> [Duration; N] {
    let mut times = [(); N].map(|()| Vec::with_capacity(runs));
    for round in 0..=runs {
        for (f, t) in fs.iter().zip(&mut times) {
            let start = Instant::now();
            f();
            if round > 0 {
                t.push(start.elapsed());
            }
        }
    }
    times.map(|mut t| {
        t.sort();
        t[t.len() / 2]
    })
}
