//! Compile-fail cases must keep their reviewed `.stderr`; compile-pass cases must build and run.

#[test]
fn ui() {
    let cases = trybuild::TestCases::new();
    cases.compile_fail("fail/*/*.rs");
    cases.pass("pass/*.rs");
}
