//! `bytes::Bytes` and `bytes::BytesMut` (feature `bytes`): BINARY, like `Vec<u8>`. A `Bytes`
//! read from an input given as `Bytes` (`Fury::deserialize_bytes`) is a slice of it, sharing
//! its reference count instead of copying.

use super::{Deserialize, Serialize, WireType};
use crate::context::{ReadContext, WriteContext};
use crate::error::Result;
use crate::types::TypeId;
use bytes::{Bytes, BytesMut};

impl WireType for Bytes {
    const TYPE_ID: TypeId = TypeId::Binary;
    const REF_TYPE: bool = super::refs::container_is_ref_type(TypeId::Binary);
}

impl Serialize for Bytes {
    #[inline]
    fn write_data(&self, ctx: &mut WriteContext) -> Result<()> {
        ctx.binary(self)
    }

    #[inline]
    fn visit_buffers<'v>(&'v self, out: &mut Vec<&'v [u8]>) {
        out.push(self);
    }
}

/// ```
/// // Needs fury's feature `bytes` and the crate `bytes`.
/// use bytes::Bytes;
/// let fury = fury::Fury::default();
/// let input = Bytes::from(fury.serialize(&vec![1u8, 2, 3]).unwrap());
/// let b: Bytes = fury.deserialize_bytes(&input).unwrap();
/// assert_eq!(b, [1, 2, 3][..]);
/// // A slice of the input, not a copy.
/// assert!(input.as_ptr_range().contains(&b.as_ptr()));
/// ```
impl<'de> Deserialize<'de> for Bytes {
    #[inline]
    fn missing() -> Option<Self> {
        Some(Bytes::new())
    }

    #[inline]
    fn read_data(ctx: &mut ReadContext<'de, '_>) -> Result<Self> {
        let part = ctx.binary()?;
        Ok(ctx.bytes_of(part))
    }

    #[inline]
    fn read_typed(ctx: &mut ReadContext<'de, '_>, id: TypeId) -> Result<Self> {
        if id == TypeId::Binary {
            Self::read_data(ctx)
        } else {
            u8::read_vec(ctx, id).map(Bytes::from)
        }
    }
}

impl WireType for BytesMut {
    const TYPE_ID: TypeId = TypeId::Binary;
    const REF_TYPE: bool = super::refs::container_is_ref_type(TypeId::Binary);
}

impl Serialize for BytesMut {
    #[inline]
    fn write_data(&self, ctx: &mut WriteContext) -> Result<()> {
        ctx.binary(self)
    }

    #[inline]
    fn visit_buffers<'v>(&'v self, out: &mut Vec<&'v [u8]>) {
        out.push(self);
    }
}

impl<'de> Deserialize<'de> for BytesMut {
    #[inline]
    fn missing() -> Option<Self> {
        Some(BytesMut::new())
    }

    #[inline]
    fn read_data(ctx: &mut ReadContext<'de, '_>) -> Result<Self> {
        ctx.binary().map(BytesMut::from)
    }

    #[inline]
    fn read_typed(ctx: &mut ReadContext<'de, '_>, id: TypeId) -> Result<Self> {
        if id == TypeId::Binary {
            Self::read_data(ctx)
        } else {
            u8::read_vec(ctx, id).map(|v| BytesMut::from(&v[..]))
        }
    }
}
