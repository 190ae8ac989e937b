//! The heap this test binary holds, counted by its global allocator (`stats_alloc`): the
//! bytes allocated and not yet freed, whatever thread allocated them. Unlike the resident
//! set size, the count does not depend on the allocator's arenas, on how many threads ran,
//! or on what else the machine is doing: a memory bound on it holds on every machine alike.
//!
//! nextest runs each test in a process of its own, so the count is that test's (test and
//! server alike). A test binary that uses it declares the allocator:
//!
//! ```ignore
//! #[global_allocator]
//! static HEAP: &common::allocated::Counting = &common::allocated::COUNTING;
//! ```

use std::alloc::System;

pub use stats_alloc::INSTRUMENTED_SYSTEM as COUNTING;

/// The system allocator, counting what it holds.
pub type Counting = stats_alloc::StatsAlloc<System>;

/// The bytes this process holds on its heap now. Panics if the binary did not declare
/// [`COUNTING`] as its global allocator (the count would stay at zero).
pub fn heap_bytes() -> u64 {
    drop(std::hint::black_box(Vec::<u8>::with_capacity(64)));
    let stats = COUNTING.stats();
    assert!(
        stats.allocations > 0,
        "this test binary does not count its heap: declare `#[global_allocator] static HEAP: \
         &common::allocated::Counting = &common::allocated::COUNTING;`"
    );
    // A reallocation adds the change of its size to one side or the other.
    stats
        .bytes_allocated
        .saturating_sub(stats.bytes_deallocated) as u64
}

/// `bytes` in KiB, for messages.
pub fn kib(bytes: u64) -> u64 {
    bytes / 1024
}
