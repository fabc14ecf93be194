//! Type registration: which user types a `Fury` instance knows, and under which id or name.
//!
//! A program registers its types on a [`Fury`](crate::Fury) (`register`, `register_by_id`,
//! `register_by_name`); the [`Registry`] is what the instance keeps, readable for tools
//! and tests:
//!
//! ```
//! use fury::registry::{Registration, UserKind};
//! use fury::{Fury, FuryObject};
//!
//! #[derive(FuryObject)]
//! #[fury(namespace = "demo", name = "Point")]
//! struct Point {
//!     x: i32,
//!     y: i32,
//! }
//!
//! let mut fury = Fury::default();
//! fury.register::<Point>()?;
//! let entry = fury.registry().get::<Point>().expect("registered");
//! assert_eq!(entry.kind, UserKind::Struct);
//! assert_eq!(entry.describe(), "demo.Point");
//! assert!(matches!(entry.registration, Registration::Name { .. }));
//! # Ok::<(), fury::Error>(())
//! ```

mod names;
pub(crate) mod plan;
pub(crate) mod table;
mod typedef_cache;

pub(crate) use names::EncodedTypeName;
pub(crate) use table::Reach;
pub use table::{
    case_struct_registration, LocalTypeDef, Registration, Registry, TypeEntry, UserKind,
};
pub(crate) use table::{type_key, AnyReaderSlot, UserType};
pub(crate) use typedef_cache::RemoteTypeDef;
pub use typedef_cache::{TypeDefCache, DEFAULT_TYPEDEF_CACHE_BYTES};
