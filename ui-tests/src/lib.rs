//! The cases live in `fail/` and `pass/`; see `tests/ui.rs`. A case in `fail/<area>/`
//! makes one mistake; one in `fail/combined/` makes several, all reported by one build.
