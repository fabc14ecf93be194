//! Benchmarks for fury-rs against other Rust serializers.
//!
//! - [`data`]: the dataset types, defined once (fury-rs, fory, serde, bitcode and rkyv
//!   derives, declared once for all), [`values`]: the values measured, [`pb`]: their protobuf
//!   (prost) mirrors, [`views`]: borrowed mirrors;
//! - [`datasets`]: the table of datasets (how to add one), [`peers`]: the table of serializers
//!   (how to add one), their codecs behind one trait, and the timed cases;
//! - [`measure`]: the quick interleaved measurement, [`threads`]: 1 vs 2 threads sharing one
//!   instance, [`interop`]: fury-rs vs fory bytes, [`borrowed`]: borrowed decoding and
//!   out-of-band buffers, [`render`]: markdown and SVG.
//!
//! `cargo run --release -p fury-benches --bin report [-- --smoke]` runs it all;
//! `cargo bench -p fury-benches` runs the criterion benches.

pub mod borrowed;
pub mod data;
pub mod datasets;
pub mod interop;
pub mod interop_kinds;
pub mod interop_types;
pub mod measure;
pub mod pb;
pub mod peers;
pub mod render;
pub mod rpc;
mod table;
pub mod threads;
pub mod values;
pub mod views;
