//! The schemas of `conformance/schemas`, compiled by fury-build in `build.rs`.
#![allow(missing_docs)]

include!(concat!(env!("OUT_DIR"), "/schemas.rs"));
