//! Compiles Fory IDL and proto3 schemas into Rust types for the `fury` crate.

#![deny(unsafe_code)]
#![warn(missing_docs)]

mod error;
mod fdl;
mod lexer;
pub mod model;

pub use error::Error;
