//! `smallvec::SmallVec<[T; N]>` (feature `smallvec`) exactly as `Vec<T>`: a dense array for
//! primitive `T` (`SmallVec<[i32; 4]>` is an INT32_ARRAY, `SmallVec<[u8; 16]>` BINARY), a
//! LIST otherwise; it reads what `Vec<T>` reads.

use super::refs::container_is_ref_type;
use super::{Deserialize, Serialize, WireType};
use crate::context::{ReadContext, WriteContext};
use crate::error::Result;
use crate::meta::typedef::FieldType;
use crate::registry::Registry;
use crate::types::TypeId;
use smallvec::{Array, SmallVec};

impl<A: Array> WireType for SmallVec<A>
where
    A::Item: WireType,
{
    const TYPE_ID: TypeId = <A::Item as WireType>::VEC_TYPE_ID;
    const REF_TYPE: bool = container_is_ref_type(<A::Item as WireType>::VEC_TYPE_ID);
    fn field_type(registry: &Registry, compatible: bool) -> FieldType {
        <Vec<A::Item> as WireType>::field_type(registry, compatible)
    }
    #[inline]
    fn reach(reach: &mut crate::registry::Reach<'_>) -> crate::error::Result<()> {
        <A::Item as WireType>::reach(reach)
    }
}

impl<A: Array> Serialize for SmallVec<A>
where
    A::Item: Serialize,
{
    #[inline]
    fn visit_buffers<'v>(&'v self, out: &mut Vec<&'v [u8]>) {
        A::Item::visit_slice(self, out)
    }

    #[inline]
    fn write_data(&self, ctx: &mut WriteContext) -> Result<()> {
        A::Item::write_vec(self, false, ctx)
    }

    #[inline]
    fn write_declared(&self, ctx: &mut WriteContext) -> Result<()> {
        A::Item::write_vec(self, true, ctx)
    }
}

impl<'de, A: Array> Deserialize<'de> for SmallVec<A>
where
    A::Item: Deserialize<'de>,
{
    #[inline]
    fn missing() -> Option<Self> {
        Some(SmallVec::new())
    }

    #[inline]
    fn read_data(ctx: &mut ReadContext<'de, '_>) -> Result<Self> {
        A::Item::read_vec(ctx, A::Item::VEC_TYPE_ID).map(inline_if_fits)
    }

    #[inline]
    fn read_typed(ctx: &mut ReadContext<'de, '_>, id: TypeId) -> Result<Self> {
        A::Item::read_vec(ctx, id).map(inline_if_fits)
    }
}

/// The elements inline when they fit (`SmallVec::from_vec` keeps any heap buffer whose
/// capacity passes the inline size, even for fewer elements), else the `Vec`'s buffer.
fn inline_if_fits<A: Array>(v: Vec<A::Item>) -> SmallVec<A> {
    if v.len() <= A::size() {
        v.into_iter().collect()
    } else {
        SmallVec::from_vec(v)
    }
}
