//! How containers read one element, key or value: as a static type ([`Typed`]), or through
//! another [`ItemReader`] (the dynamic forms, and values only a peer's TypeDef declares).

use super::{null_of, Deserialize};
use crate::context::ReadContext;
use crate::error::Result;
use crate::types::TypeId;

/// How to read one element, key or value of a container: typed ([`Typed`]) or dynamic.
pub trait ItemReader<'de> {
    /// What one item reads as.
    type Out;
    /// Whether the next item numbers its own back references (see
    /// [`Deserialize::DYNAMIC_REFS`]).
    fn dynamic_refs(&self) -> bool;
    /// The item for a null on the wire (or the error saying it cannot be null).
    fn null(&self, ctx: &ReadContext<'de, '_>) -> Result<Self::Out>;
    /// Reads a complete type info for an item, returning its kind.
    fn type_info(&self, ctx: &mut ReadContext<'de, '_>) -> Result<TypeId>;
    /// Reads one payload: after the type info `Some(id)`, or of the declared type (`None`).
    fn read(&self, ctx: &mut ReadContext<'de, '_>, id: Option<TypeId>) -> Result<Self::Out>;
    /// The item a back reference to id `id` (read at `at`) stands for.
    fn resolve_ref(&self, ctx: &ReadContext<'de, '_>, id: u32, at: usize) -> Result<Self::Out>;
    /// A REF_VALUE flag was read for an item about to be read into slot `slot`.
    fn begin_ref(&self, ctx: &mut ReadContext<'de, '_>, slot: usize);
    /// Records a freshly read item under reference slot `slot`, returning the item to use.
    fn keep_ref(&self, ctx: &mut ReadContext<'de, '_>, v: Self::Out, slot: usize) -> Self::Out;
    /// Reads `n` unflagged payloads into `out`, as `n` calls of [`read`](Self::read) with
    /// the same `id`.
    #[inline]
    fn read_run(
        &self,
        ctx: &mut ReadContext<'de, '_>,
        id: Option<TypeId>,
        n: usize,
        out: &mut Vec<Self::Out>,
    ) -> Result<()> {
        for _ in 0..n {
            out.push(self.read(ctx, id)?);
        }
        Ok(())
    }
}

/// Reads items as the static type `T`.
pub struct Typed<T>(std::marker::PhantomData<T>);

impl<T> Typed<T> {
    /// The reader for `T`.
    pub const fn new() -> Self {
        Typed(std::marker::PhantomData)
    }
}

impl<T> Default for Typed<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<'de, T: Deserialize<'de>> ItemReader<'de> for Typed<T> {
    type Out = T;
    #[inline]
    fn dynamic_refs(&self) -> bool {
        T::DYNAMIC_REFS
    }

    #[inline]
    fn null(&self, ctx: &ReadContext<'de, '_>) -> Result<T> {
        null_of::<T>(ctx)
    }

    #[inline]
    fn type_info(&self, ctx: &mut ReadContext<'de, '_>) -> Result<TypeId> {
        super::read_type_info::<T>(ctx)
    }

    #[inline]
    fn read(&self, ctx: &mut ReadContext<'de, '_>, id: Option<TypeId>) -> Result<T> {
        match id {
            Some(id) => T::read_typed(ctx, id),
            None => T::read_data(ctx),
        }
    }

    #[inline]
    fn resolve_ref(&self, ctx: &ReadContext<'de, '_>, id: u32, at: usize) -> Result<T> {
        T::from_ref(ctx, id, at)
    }

    #[inline]
    fn begin_ref(&self, ctx: &mut ReadContext<'de, '_>, slot: usize) {
        T::begin_ref(ctx, slot)
    }

    #[inline]
    fn keep_ref(&self, ctx: &mut ReadContext<'de, '_>, v: T, slot: usize) -> T {
        v.keep_ref(ctx, slot)
    }

    #[inline]
    fn read_run(
        &self,
        ctx: &mut ReadContext<'de, '_>,
        id: Option<TypeId>,
        n: usize,
        out: &mut Vec<T>,
    ) -> Result<()> {
        T::read_run(ctx, id, n, out)
    }
}

/// Reads items as `T`, taking elements written without type info as the peer's declared
/// element type rather than `T`'s own (see [`Deserialize::read_list_declared`]).
pub struct Declared<T> {
    element: TypeId,
    ty: std::marker::PhantomData<T>,
}

impl<T> Declared<T> {
    /// The reader for `T` of elements the peer declared as `element`.
    pub const fn new(element: TypeId) -> Self {
        Declared {
            element,
            ty: std::marker::PhantomData,
        }
    }
}

impl<'de, T: Deserialize<'de>> ItemReader<'de> for Declared<T> {
    type Out = T;
    fn dynamic_refs(&self) -> bool {
        T::DYNAMIC_REFS
    }

    fn null(&self, ctx: &ReadContext<'de, '_>) -> Result<T> {
        null_of::<T>(ctx)
    }

    fn type_info(&self, ctx: &mut ReadContext<'de, '_>) -> Result<TypeId> {
        super::read_type_info::<T>(ctx)
    }

    fn read(&self, ctx: &mut ReadContext<'de, '_>, id: Option<TypeId>) -> Result<T> {
        T::read_typed(ctx, id.unwrap_or(self.element))
    }

    fn resolve_ref(&self, ctx: &ReadContext<'de, '_>, id: u32, at: usize) -> Result<T> {
        T::from_ref(ctx, id, at)
    }

    fn begin_ref(&self, ctx: &mut ReadContext<'de, '_>, slot: usize) {
        T::begin_ref(ctx, slot)
    }

    fn keep_ref(&self, ctx: &mut ReadContext<'de, '_>, v: T, slot: usize) -> T {
        v.keep_ref(ctx, slot)
    }
}
