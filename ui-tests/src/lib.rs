//! The cases live in `fail/` and `pass/`; see `tests/ui.rs`.
