//! What reading differs in between the two forms of a dynamic value: how its leaves with a
//! heap are read (copied, or borrowed from the input), and where the copy of a value for
//! back references is kept.

use crate::buffer::{ArrayView, ViewElement};
use crate::context::{ReadContext, RefSlot};
use crate::error::Result;
use crate::serializer::array::{read_dense, Dense};
use crate::serializer::{BorrowCow, Deserialize, WireType};
use crate::types::TypeId;
use crate::value::{Borrowed, DynamicValue, Form, Owned, ValueRef};

/// A [`Form`] the reader can build.
pub(crate) trait ReadForm<'de>: Form + Sized {
    /// The key the TypeDef of a struct body about to be read is kept under.
    fn key() -> std::any::TypeId;
    /// A STRING's payload.
    fn read_str(ctx: &mut ReadContext<'de, '_>) -> Result<Self::Str>;
    /// A BINARY's payload.
    fn read_binary(ctx: &mut ReadContext<'de, '_>) -> Result<Self::Bytes>;
    /// A UINT8_ARRAY's payload.
    fn read_uint8_array(ctx: &mut ReadContext<'de, '_>) -> Result<Self::Bytes>;
    /// An INT8_ARRAY's payload.
    fn read_int8_array(ctx: &mut ReadContext<'de, '_>) -> Result<Self::Int8s>;
    /// The payload of a dense array of `T`.
    fn read_array<T: ViewElement + Dense + WireType>(
        ctx: &mut ReadContext<'de, '_>,
    ) -> Result<Self::Array<T>>;
    /// The copy of a value of this form that `slot` keeps for back references, if any.
    fn kept_copy<'c>(
        ctx: &'c ReadContext<'de, '_>,
        slot: &'c RefSlot,
    ) -> Option<&'c DynamicValue<Self>>;
    /// Keeps `copy` in reference slot `slot`, for the back references to it.
    fn keep_copy(copy: DynamicValue<Self>, ctx: &mut ReadContext<'de, '_>, slot: usize);
}

impl<'de> ReadForm<'de> for Owned {
    #[inline]
    fn key() -> std::any::TypeId {
        std::any::TypeId::of::<DynamicValue<Owned>>()
    }
    #[inline]
    fn read_str(ctx: &mut ReadContext<'de, '_>) -> Result<String> {
        String::read_data(ctx)
    }
    #[inline]
    fn read_binary(ctx: &mut ReadContext<'de, '_>) -> Result<Vec<u8>> {
        Ok(ctx.binary()?.to_vec())
    }
    #[inline]
    fn read_uint8_array(ctx: &mut ReadContext<'de, '_>) -> Result<Vec<u8>> {
        read_dense(ctx)
    }
    #[inline]
    fn read_int8_array(ctx: &mut ReadContext<'de, '_>) -> Result<Vec<i8>> {
        read_dense(ctx)
    }
    #[inline]
    fn read_array<T: ViewElement + Dense + WireType>(
        ctx: &mut ReadContext<'de, '_>,
    ) -> Result<Vec<T>> {
        read_dense(ctx)
    }
    #[inline]
    fn kept_copy<'c>(
        _ctx: &'c ReadContext<'de, '_>,
        slot: &'c RefSlot,
    ) -> Option<&'c DynamicValue<Owned>> {
        match slot {
            RefSlot::Rc(any) => any.downcast_ref::<DynamicValue<Owned>>(),
            _ => None,
        }
    }
    fn keep_copy(copy: DynamicValue<Owned>, ctx: &mut ReadContext<'de, '_>, slot: usize) {
        ctx.set_ref(slot, RefSlot::Rc(std::rc::Rc::new(copy)));
    }
}

impl<'de> ReadForm<'de> for Borrowed<'de> {
    #[inline]
    fn key() -> std::any::TypeId {
        std::any::TypeId::of::<ValueRef<'static>>()
    }
    #[inline]
    fn read_str(ctx: &mut ReadContext<'de, '_>) -> Result<std::borrow::Cow<'de, str>> {
        Ok(BorrowCow::<str>::read_data(ctx)?.0)
    }
    #[inline]
    fn read_binary(ctx: &mut ReadContext<'de, '_>) -> Result<&'de [u8]> {
        ctx.binary()
    }
    #[inline]
    fn read_uint8_array(ctx: &mut ReadContext<'de, '_>) -> Result<&'de [u8]> {
        <&[u8]>::read_typed(ctx, TypeId::UInt8Array)
    }
    #[inline]
    fn read_int8_array(ctx: &mut ReadContext<'de, '_>) -> Result<&'de [i8]> {
        <&[i8]>::read_data(ctx)
    }
    #[inline]
    fn read_array<T: ViewElement + Dense + WireType>(
        ctx: &mut ReadContext<'de, '_>,
    ) -> Result<ArrayView<'de, T>> {
        ArrayView::read_data(ctx)
    }
    #[inline]
    fn kept_copy<'c>(
        ctx: &'c ReadContext<'de, '_>,
        slot: &'c RefSlot,
    ) -> Option<&'c ValueRef<'de>> {
        match slot {
            RefSlot::Borrowed(i) => ctx.borrowed_copy(*i),
            _ => None,
        }
    }
    fn keep_copy(copy: ValueRef<'de>, ctx: &mut ReadContext<'de, '_>, slot: usize) {
        ctx.keep_borrowed_copy(slot, copy);
    }
}
