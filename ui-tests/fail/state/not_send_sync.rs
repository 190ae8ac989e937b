use std::cell::RefCell;

use mcp_tool::{State, mcp_tool};

/// A cache that only one thread may use.
struct Cache {
    hits: RefCell<u64>,
}

/// Returns how many times the cache was hit.
#[mcp_tool]
fn hits(cache: State<Cache>) -> u64 {
    *cache.hits.borrow()
}

fn main() {}
