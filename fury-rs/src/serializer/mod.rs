//! The [`Serialize`] / [`Deserialize`] traits and their implementations for built-in types.
//!
//! A value on the wire is `type info` + `payload` ("data"); where a value may be null or
//! shared, a one-byte reference flag precedes it. The traits split these parts so containers
//! can write the type info once for many elements and skip flags they do not need.

pub(crate) mod array;
mod collection;
mod map;
mod scalar;
mod string;
mod temporal;
mod wrapper;

pub use collection::{read_elements, write_elements};
pub use map::{read_map, write_map};
pub use wrapper::{Fixed, Tagged};

use crate::context::{ReadContext, WriteContext};
use crate::error::{ErrorKind, Result};
use crate::types::{RefFlag, TypeId};

/// A type that can be written in the xlang format.
///
/// Implemented for the built-in types; `#[derive(FuryObject)]` implements it for structs.
pub trait Serialize {
    /// Wire type id of values of this type (for `Option<T>`, that of `T`).
    const TYPE_ID: TypeId;
    /// True when values may be null (`Option`), so containers must check for nulls.
    const NULLABLE: bool = false;
    /// Wire type id used for a `Vec<Self>` / `[Self]`: `LIST` unless a dense array fits.
    const VEC_TYPE_ID: TypeId = TypeId::List;

    /// Writes the type info of this value (one byte for internal types).
    #[inline]
    fn write_type_info(&self, ctx: &mut WriteContext) {
        ctx.writer.u8(Self::TYPE_ID as u8);
    }

    /// Writes the payload, without flag or type info.
    fn write_data(&self, ctx: &mut WriteContext) -> Result<()>;

    /// True for the null value of a nullable type.
    #[inline]
    fn is_null(&self) -> bool {
        false
    }

    /// True when `other` has the same wire type info as `self` (always, for static types),
    /// so both can share one type info in a list or map chunk.
    #[inline]
    fn same_type(&self, _other: &Self) -> bool
    where
        Self: Sized,
    {
        true
    }

    /// Writes a slice as the payload of `Vec<Self>` (type [`Serialize::VEC_TYPE_ID`]).
    #[inline]
    fn write_vec(items: &[Self], ctx: &mut WriteContext) -> Result<()>
    where
        Self: Sized,
    {
        write_elements(items.len(), items.iter(), ctx)
    }
}

/// A type that can be read from the xlang format.
pub trait Deserialize: Serialize + Sized {
    /// Reads the payload of a value whose type info was `Self::TYPE_ID`.
    fn read_data(ctx: &mut ReadContext) -> Result<Self>;

    /// Reads the payload of a value whose type info byte was `id` (already consumed). The
    /// default accepts only `Self::TYPE_ID`; numeric types also accept compatible encodings.
    #[inline]
    fn read_typed(ctx: &mut ReadContext, id: TypeId) -> Result<Self> {
        if id == Self::TYPE_ID {
            Self::read_data(ctx)
        } else {
            Err(ctx.mismatch(std::any::type_name::<Self>(), id))
        }
    }

    /// The value a null on the wire becomes, if this type can hold one.
    #[inline]
    fn null() -> Option<Self> {
        None
    }

    /// Reads the payload of a `Vec<Self>` whose type info was `id`.
    #[inline]
    fn read_vec(ctx: &mut ReadContext, id: TypeId) -> Result<Vec<Self>> {
        if id == TypeId::List {
            read_elements(ctx)
        } else {
            Err(ctx.mismatch(std::any::type_name::<Vec<Self>>(), id))
        }
    }
}

/// Writes `v` with a reference/null flag and its type info: the form of a root value, a
/// polymorphic element, or the lone side of a map pair whose other side is null.
#[inline]
pub fn write_with_flag<T: Serialize + ?Sized>(v: &T, ctx: &mut WriteContext) -> Result<()> {
    if v.is_null() {
        ctx.ref_flag(RefFlag::Null);
        return Ok(());
    }
    ctx.ref_flag(RefFlag::NotNull);
    v.write_type_info(ctx);
    v.write_data(ctx)
}

/// Reads a value written by [`write_with_flag`].
#[inline]
pub fn read_with_flag<T: Deserialize>(ctx: &mut ReadContext) -> Result<T> {
    match ctx.ref_flag()? {
        RefFlag::Null => null_of::<T>(ctx),
        RefFlag::Ref => Err(ctx.unsupported_ref()),
        RefFlag::NotNull | RefFlag::RefValue => {
            let id = ctx.type_id()?;
            T::read_typed(ctx, id)
        }
    }
}

/// `T`'s null, or the error saying `T` cannot be null.
#[inline]
pub(crate) fn null_of<T: Deserialize>(ctx: &ReadContext) -> Result<T> {
    T::null().ok_or_else(|| {
        ctx.error(ErrorKind::UnexpectedNull {
            expected: std::any::type_name::<T>().to_string(),
        })
    })
}

// ---- generic wrappers: Option, Box, references, slices, Vec ----

impl<T: Serialize> Serialize for Option<T> {
    const TYPE_ID: TypeId = T::TYPE_ID;
    const NULLABLE: bool = true;

    #[inline]
    fn write_type_info(&self, ctx: &mut WriteContext) {
        match self {
            Some(v) => v.write_type_info(ctx),
            None => ctx.writer.u8(TypeId::None as u8),
        }
    }

    #[inline]
    fn write_data(&self, ctx: &mut WriteContext) -> Result<()> {
        match self {
            Some(v) => v.write_data(ctx),
            None => Ok(()),
        }
    }

    #[inline]
    fn is_null(&self) -> bool {
        self.is_none()
    }

    #[inline]
    fn same_type(&self, other: &Self) -> bool {
        match (self, other) {
            (Some(a), Some(b)) => a.same_type(b),
            _ => true,
        }
    }
}

impl<T: Deserialize> Deserialize for Option<T> {
    #[inline]
    fn read_data(ctx: &mut ReadContext) -> Result<Self> {
        T::read_data(ctx).map(Some)
    }

    #[inline]
    fn read_typed(ctx: &mut ReadContext, id: TypeId) -> Result<Self> {
        T::read_typed(ctx, id).map(Some)
    }

    #[inline]
    fn null() -> Option<Self> {
        Some(None)
    }
}

/// `Box<T>` and `&T` are written exactly as `T`.
macro_rules! delegate_serialize {
    ($($outer:ty),*) => {$(
        impl<T: Serialize + ?Sized> Serialize for $outer {
            const TYPE_ID: TypeId = T::TYPE_ID;
            const NULLABLE: bool = T::NULLABLE;

            #[inline]
            fn write_type_info(&self, ctx: &mut WriteContext) {
                (**self).write_type_info(ctx)
            }

            #[inline]
            fn write_data(&self, ctx: &mut WriteContext) -> Result<()> {
                (**self).write_data(ctx)
            }

            #[inline]
            fn is_null(&self) -> bool {
                (**self).is_null()
            }
        }
    )*};
}

delegate_serialize!(Box<T>, &T);

impl<T: Deserialize> Deserialize for Box<T> {
    #[inline]
    fn read_data(ctx: &mut ReadContext) -> Result<Self> {
        T::read_data(ctx).map(Box::new)
    }

    #[inline]
    fn read_typed(ctx: &mut ReadContext, id: TypeId) -> Result<Self> {
        T::read_typed(ctx, id).map(Box::new)
    }

    #[inline]
    fn null() -> Option<Self> {
        T::null().map(Box::new)
    }
}

impl<T: Serialize> Serialize for [T] {
    const TYPE_ID: TypeId = T::VEC_TYPE_ID;

    #[inline]
    fn write_data(&self, ctx: &mut WriteContext) -> Result<()> {
        T::write_vec(self, ctx)
    }
}

impl<T: Serialize> Serialize for Vec<T> {
    const TYPE_ID: TypeId = T::VEC_TYPE_ID;

    #[inline]
    fn write_data(&self, ctx: &mut WriteContext) -> Result<()> {
        T::write_vec(self, ctx)
    }
}

impl<T: Deserialize> Deserialize for Vec<T> {
    #[inline]
    fn read_data(ctx: &mut ReadContext) -> Result<Self> {
        T::read_vec(ctx, T::VEC_TYPE_ID)
    }

    #[inline]
    fn read_typed(ctx: &mut ReadContext, id: TypeId) -> Result<Self> {
        T::read_vec(ctx, id)
    }
}
