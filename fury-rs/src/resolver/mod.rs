//! Type registration: which user types a `Fury` instance knows, and under which id or name.

mod names;
mod registry;
mod typedef_cache;

pub(crate) use names::{read_type_name, write_type_name};
pub use registry::{Registration, Registry, TypeEntry, TypeSlot, UserKind};
pub use typedef_cache::{RemoteTypeDef, TypeDefCache};
