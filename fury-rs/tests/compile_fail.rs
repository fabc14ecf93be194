//! Misuse of `#[derive(FuryObject)]` is a compile error with a message at the field.

#[test]
fn derive_misuse_is_a_clear_compile_error() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/*.rs");
}
