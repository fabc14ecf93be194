//! Extension types (EXT 31, NAMED_EXT 32): a type whose payload its own code writes, as a
//! peer's custom serializer does (pyfory's `register_type(cls, serializer=...)`, Java's
//! `registerSerializer`). The type info is EXT and the user type id, or NAMED_EXT and the
//! names; the payload has no length, so both sides must agree on it.

use crate::context::{ReadContext, WriteContext};
use crate::error::Result;

/// The payload of an extension type: implement it, add `#[derive(FuryObject)]` with
/// `#[fury(ext, id = N)]` (or `namespace`/`name`), and register the type. For a type of
/// another crate, wrap it in a newtype (and use `#[fury(with = "...")]` on fields that hold
/// the foreign type directly).
///
/// ```
/// use fury::wire::{ReadContext, WriteContext};
/// use fury::{Ext, FuryObject};
///
/// /// Written as two varints, as a pyfory serializer for `Point` registered with id 400
/// /// writes it (`write_varint32(x); write_varint32(y)`).
/// #[derive(FuryObject, Debug, PartialEq)]
/// #[fury(ext, id = 400)]
/// struct Point { x: i32, y: i32 }
///
/// impl Ext for Point {
///     fn write_ext(&self, ctx: &mut WriteContext) -> fury::Result<()> {
///         ctx.writer.var_i32(self.x);
///         ctx.writer.var_i32(self.y);
///         Ok(())
///     }
///     fn read_ext(ctx: &mut ReadContext<'_, '_>) -> fury::Result<Self> {
///         Ok(Point { x: ctx.reader.var_i32()?, y: ctx.reader.var_i32()? })
///     }
/// }
///
/// let mut fury = fury::Fury::default();
/// fury.register::<Point>().unwrap();
/// // pyfory 1.7.7's bytes for Point(3, -4) (conformance/vectors/ext has more)
/// let bytes = [0x01, 0xff, 0x1f, 0x90, 0x03, 0x06, 0x07];
/// assert_eq!(fury.deserialize::<Point>(&bytes).unwrap(), Point { x: 3, y: -4 });
/// assert_eq!(fury.serialize(&Point { x: 3, y: -4 }).unwrap(), bytes);
/// ```
pub trait Ext: Sized {
    /// Writes the payload (after the type info, which the caller writes).
    fn write_ext(&self, ctx: &mut WriteContext) -> Result<()>;
    /// Reads the payload written by [`Ext::write_ext`] (or the peer's serializer).
    fn read_ext(ctx: &mut ReadContext<'_, '_>) -> Result<Self>;
}

/// Writes an extension value's payload, one nesting level down.
#[inline]
pub fn write_ext<T: Ext>(v: &T, ctx: &mut WriteContext) -> Result<()> {
    ctx.enter()?;
    let r = v.write_ext(ctx);
    ctx.leave();
    r
}

/// Reads an extension value's payload, one nesting level down.
#[inline]
pub fn read_ext<T: Ext>(ctx: &mut ReadContext<'_, '_>) -> Result<T> {
    ctx.enter()?;
    let r = T::read_ext(ctx);
    ctx.leave();
    r
}
