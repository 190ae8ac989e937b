//! End-to-end tests live in `tests/`; this library holds what they share with the
//! fixture servers' and the runtime's own tests: [`profile_rules`], the rules of each
//! schema profile, and [`profile_check`], which lists a server under every profile
//! and checks it against them.

pub mod profile_check;
pub mod profile_rules;
