//! Type registration: which user types a `Fury` instance knows, and under which id or name.

mod names;
pub(crate) mod plan;
mod table;
mod typedef_cache;

pub(crate) use names::EncodedTypeName;
pub use table::{
    type_key, AnyReaderSlot, Registration, Registry, TypeEntry, TypeSlot, UserKind, UserType,
};
pub use typedef_cache::{RemoteTypeDef, TypeDefCache};
