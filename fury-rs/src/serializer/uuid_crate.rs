//! `uuid::Uuid` (feature `uuid`) as BINARY: its 16 bytes in RFC 4122 order (`as_bytes`,
//! Python's `UUID.bytes`), written and read exactly as a `[u8; 16]`.
//!
//! The xlang format has no UUID type, and pyfory 1.7.7 refuses to write a `uuid.UUID` in
//! xlang mode ("not registered"); BINARY is what a binary serde format writes for a `Uuid`,
//! the shortest form, and every peer reads it (`uuid.UUID(bytes=...)` in Python). Reading
//! takes BINARY of exactly 16 bytes. For `uuid.UUID` objects on the Python side, register an
//! extension type instead (`examples/uuid_ext.rs`).

use super::{Deserialize, Serialize, WireType};
use crate::context::{ReadContext, WriteContext};
use crate::error::Result;
use crate::meta::typedef::FieldType;
use crate::registry::Registry;
use crate::types::TypeId;
use uuid::Uuid;

impl WireType for Uuid {
    const TYPE_ID: TypeId = <[u8; 16] as WireType>::TYPE_ID;
    const REF_TYPE: bool = <[u8; 16] as WireType>::REF_TYPE;
    fn field_type(registry: &Registry, compatible: bool) -> FieldType {
        <[u8; 16] as WireType>::field_type(registry, compatible)
    }
}

impl Serialize for Uuid {
    #[inline]
    fn visit_buffers<'v>(&'v self, out: &mut Vec<&'v [u8]>) {
        self.as_bytes().visit_buffers(out)
    }

    #[inline]
    fn write_data(&self, ctx: &mut WriteContext) -> Result<()> {
        self.as_bytes().write_data(ctx)
    }

    #[inline]
    fn write_declared(&self, ctx: &mut WriteContext) -> Result<()> {
        self.as_bytes().write_declared(ctx)
    }
}

impl<'de> Deserialize<'de> for Uuid {
    #[inline]
    fn missing() -> Option<Self> {
        Some(Uuid::nil())
    }

    #[inline]
    fn read_data(ctx: &mut ReadContext<'de, '_>) -> Result<Self> {
        <[u8; 16]>::read_data(ctx).map(Uuid::from_bytes)
    }

    #[inline]
    fn read_typed(ctx: &mut ReadContext<'de, '_>, id: TypeId) -> Result<Self> {
        <[u8; 16]>::read_typed(ctx, id).map(Uuid::from_bytes)
    }
}
