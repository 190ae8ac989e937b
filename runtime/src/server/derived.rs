//! What the protocol layer derives once from what the server lists (its own form of a
//! listing, say), kept beside it without the server knowing its type.

use std::any::Any;
use std::sync::{Arc, OnceLock};

/// A value derived once and kept: the first [`get_or_init`](Self::get_or_init) makes it.
#[derive(Default)]
pub(crate) struct Derived(OnceLock<Arc<dyn Any + Send + Sync>>);

impl Derived {
    /// The value kept, made by `make` on first use. Each slot holds values of one type;
    /// asked for another, it makes one that is not kept.
    pub(crate) fn get_or_init<T: Any + Send + Sync>(&self, make: impl Fn() -> T) -> Arc<T> {
        let kept = self.0.get_or_init(|| Arc::new(make()));
        Arc::clone(kept)
            .downcast::<T>()
            .unwrap_or_else(|_| Arc::new(make()))
    }
}

impl std::fmt::Debug for Derived {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.get().is_some() {
            "Derived(kept)"
        } else {
            "Derived(empty)"
        })
    }
}
