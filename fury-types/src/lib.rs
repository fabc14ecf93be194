//! The wire-type table and the field-name rule of the Fory xlang format, shared by the `fury`
//! runtime and `fury-derive` (one copy of each fact).
//!
//! A support crate: its items are re-exported by `fury` where users need them.
//!
//! ```
//! use fury_types::{snake::snake_case, table::wire_type};
//!
//! assert_eq!(wire_type(5).map(|t| t.name), Some("VARINT32"));
//! assert_eq!(snake_case("HTTPServer"), "http_server");
//! ```

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod ids;
pub mod snake;
pub mod table;
