//! The interning of a run-time tool's name.

use super::*;

#[test]
fn a_name_is_kept_once() {
    assert!(std::ptr::eq(intern("same_name"), intern("same_name")));
}
