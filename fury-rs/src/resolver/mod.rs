//! Type registration: which user types a `Fury` instance knows, and under which id or name.

mod names;
pub(crate) mod plan;
mod registry;
mod typedef_cache;

pub(crate) use names::{names, EncodedTypeName};
pub use registry::{type_key, Registration, Registry, TypeEntry, TypeSlot, UserKind, UserType};
pub use typedef_cache::{RemoteTypeDef, TypeDefCache};
