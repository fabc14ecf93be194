//! The Rust mirrors of the groups with `"rust_mirrors": true` in `groups.json`, written by
//! `generators/rust_mirrors.py` (`python conformance/generate.py`): for group `G`,
//! `G_mirror` (a derived Rust type per definition, the expected value and a monomorphic check
//! per vector) and `G_borrowed` (the same structs reading in place, and their conversion to
//! the owned mirror). Compiled once here, for the tests, the `fury-testee` binary and fuzz/.

// Generated code, formatted by its generator.
#[rustfmt::skip]
pub mod structs_mirror;
#[rustfmt::skip]
pub mod structs_borrowed;
#[rustfmt::skip]
pub mod compat_mirror;
#[rustfmt::skip]
pub mod compat_borrowed;
