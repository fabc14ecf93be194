//! # fury
//!
//! A Rust implementation of the Apache Fory (formerly Fury) *xlang* binary serialization
//! format, byte-compatible with pyfory 1.7.7 and the other Fory implementations.
//!
//! ```
//! use fury::{Fury, Value};
//!
//! let fury = Fury::default();
//! let bytes = fury.serialize(&vec!["a".to_string(), "b".to_string()]).unwrap();
//! assert_eq!(bytes, [0x01, 0xff, 0x16, 0x02, 0x08, 0x15, 0x04, b'a', 0x04, b'b']);
//!
//! let typed: Vec<String> = fury.deserialize(&bytes).unwrap();
//! assert_eq!(typed, ["a", "b"]);
//! let dynamic: Value = fury.deserialize(&bytes).unwrap();
//! assert_eq!(dynamic, Value::List(vec!["a".into(), "b".into()]));
//! ```
//!
//! Structs and enums derive [`FuryObject`] and are registered on a [`Fury`] by id or by name
//! (see [`FuryObject`] for the attributes):
//!
//! ```
//! use fury::{Fury, FuryObject};
//!
//! #[derive(FuryObject, Debug, PartialEq)]
//! #[fury(namespace = "demo", name = "Point")]
//! struct Point {
//!     x: i32,
//!     y: i32,
//! }
//!
//! let mut fury = Fury::default(); // compatible mode, as the peers default to
//! fury.register::<Point>()?;
//! let bytes = fury.serialize(&Point { x: 1, y: 2 })?;
//! assert_eq!(fury.deserialize::<Point>(&bytes)?, Point { x: 1, y: 2 });
//! # Ok::<(), fury::Error>(())
//! ```
//!
//! The traits: [`WireType`] says what a type is on the wire, [`Serialize`] writes it and
//! [`Deserialize<'de>`](Deserialize) reads it from input that lives for `'de`
//! ([`DeserializeOwned`] for types that borrow nothing). The layout is described in the
//! repository's `spec/` folder.

//! # Modules
//!
//! The root holds what a program needs first: [`Fury`] and its [`FuryBuilder`] and [`Config`],
//! the traits, the dynamic values, [`Error`], the wrapper, number and time types, and the
//! derives. The machinery is in public modules named for what it is:
//!
//! | module | what it holds |
//! |---|---|
//! | [`wire`] | the reader, writer and contexts that hand-written `Serialize`/`Deserialize`/[`Ext`] impls use, and the wire's type ids and flags |
//! | [`value`] | [`Value`] and [`ValueRef`] as one generic [`DynamicValue`](value::DynamicValue) |
//! | [`registry`] | the user types a `Fury` knows, by id or name |
//! | [`meta`] | meta strings and TypeDefs (the type metadata of compatible mode), for tools that read streams without types |
//! | [`connection`] | type metadata shared across the messages of one connection |
//! | [`frame`] | length-prefixed frames over `std::io`, and the tokio codec (feature `tokio`) |
//! | [`row`] | the row format: random access without decoding |
//! | `tonic` | gRPC over tonic: `tonic::FuryCodec` (feature `tonic`) |
//! | `serde` | types that derive only serde's traits: `serde::Serde<T>` and `Fury::register_serde` (feature `serde`) |
//!
//! Inside, dependencies point one way, each module using only those listed before it:
//! `error`; `buffer` (bytes, varints, UTF-8); `types` (type ids, flags) and the number and time
//! types; `meta`; `registry`; `value` (data only); `config`; `context` (the state of one call);
//! `serializer` (the traits and every built-in type, dynamic values included); `fury` (the
//! entry points); `frame`, `serde` and `tonic`; and `row`, which stands apart on `buffer`. `scripts/module-cycles.py`
//! checks that no file imports another in a cycle.

#![deny(unsafe_code)]
#![warn(missing_docs)]

mod buffer;
mod config;
pub mod connection;
mod context;
mod decimal;
mod error;
mod float16;
pub mod frame;
mod fury;
pub mod meta;
pub mod registry;
pub mod row;
#[cfg(feature = "serde")]
pub mod serde;
mod serializer;
mod temporal;
#[cfg(feature = "tonic")]
pub mod tonic;
mod types;
pub mod value;
pub mod wire;

pub use crate::buffer::ArrayView;
pub use crate::config::Config;
pub use crate::decimal::{Decimal, ParseDecimalError};
pub use crate::error::{Error, ErrorKind, Result};
pub use crate::float16::{BF16, F16};
pub use crate::fury::{Fury, FuryBuilder};
pub use crate::serializer::{
    AnyObject, Deserialize, DeserializeOwned, Ext, Fixed, ForyForm, FuryObject, List, Map,
    Serialize, Set, Tagged, UInt8Array, UnknownCase, WireType,
};
pub use crate::temporal::{Date, Duration, Timestamp};
pub use crate::value::{EnumValue, StructRef, StructValue, UnionRef, UnionValue, Value, ValueRef};
pub use fury_derive::{FuryObject, FuryRow};

/// The README's examples are compiled and run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
pub struct ReadmeDoctests;

/// What `#[derive(FuryObject)]` generates code against. Not part of the public API: it may
/// change in any release.
#[doc(hidden)]
pub mod __private {
    pub use crate::buffer::{Reader, Room};
    pub use crate::context::{ReadContext, WriteContext};
    pub use crate::meta::typedef::{FieldId, FieldInfo, FieldType};
    pub use crate::registry::plan::ReadPlan;
    pub use crate::registry::table::Reach;
    pub use crate::registry::table::{AnyReaderSlot, TypeSlot, UserType};
    pub use crate::registry::{Registration, Registry, UserKind};
    pub use crate::serializer::any::{
        any_reader, read_any_object, AnyLocalProbe, AnyProbe, AnyReader, AnySendProbe,
    };
    pub use crate::serializer::compatible::{
        missing_field, read_evolved, read_evolved_or_null, skip_field,
    };
    pub use crate::serializer::ext::{read_ext, write_ext};
    pub use crate::serializer::fory_form::ForyFormRef;
    pub use crate::serializer::layout::{
        field_order, same_order, unordered_field, FieldKey, StructLayout,
    };
    pub use crate::serializer::object::{
        bad_enum_variant, check_user_kind, fingerprint_field, read_field, read_field_direct,
        read_flagged_field, read_ref_field, read_user_type_info, registry_schema_hash, room_str,
        struct_body_direct, struct_kind, struct_read_data, struct_read_direct, struct_read_root,
        struct_read_run, struct_read_typed, struct_write_data, struct_write_direct,
        struct_write_run, struct_write_stream, write_field, write_flagged_field, write_ref_field,
        write_union_struct_case, write_untracked_elements_field, write_user_type_info, SchemaHash,
        StructBody, StructRead,
    };
    pub use crate::serializer::union::{
        bad_union_case, read_union_case, read_union_case_id, read_union_unit, read_union_unknown,
        write_union_case, write_union_unit, write_union_unknown,
    };
    pub use crate::serializer::{BorrowCow, CowRead};
    pub use crate::types::{RefFlag, TypeId};

    // For the repository's own tests, which check hashes against the peers'.
    pub use crate::serializer::object::schema_hash;
}

#[cfg(test)]
mod doc_examples;
