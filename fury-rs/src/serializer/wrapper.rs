//! Wrappers that pick a non-default integer encoding: [`Fixed`] and [`Tagged`].

use super::{Deserialize, Serialize, WireType};
use crate::context::{ReadContext, WriteContext};
use crate::error::Result;
use crate::types::TypeId;

/// An integer written with its fixed-width encoding (INT32, INT64, UINT32, UINT64) instead of
/// the default varint.
///
/// ```
/// use fury::{Fury, Fixed};
/// let fury = Fury::default();
/// let bytes = fury.serialize(&Fixed(5i32)).unwrap();
/// assert_eq!(bytes, [0x01, 0xff, 0x04, 5, 0, 0, 0]);
/// assert_eq!(fury.deserialize::<Fixed<i32>>(&bytes).unwrap(), Fixed(5));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Fixed<T>(pub T);

/// A 64-bit integer written with the tagged encoding (TAGGED_INT64 / TAGGED_UINT64): 4 bytes
/// for small values, 9 otherwise.
///
/// ```
/// use fury::{Fury, Tagged};
/// let fury = Fury::default();
/// let bytes = fury.serialize(&Tagged(-5i64)).unwrap();
/// assert_eq!(bytes, [0x01, 0xff, 0x08, 0xf6, 0xff, 0xff, 0xff]);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Tagged<T>(pub T);

macro_rules! wrapped {
    ($wrap:ident, $t:ty, $id:ident, $max:expr, $write:ident, $read:ident) => {
        impl WireType for $wrap<$t> {
            const TYPE_ID: TypeId = TypeId::$id;
        }

        impl Serialize for $wrap<$t> {
            #[inline]
            fn write_data(&self, ctx: &mut WriteContext) -> Result<()> {
                ctx.writer.$write(self.0);
                Ok(())
            }
        }

        impl<'de> Deserialize<'de> for $wrap<$t> {
            #[inline]
            fn missing() -> Option<Self> {
                Some(Self::default())
            }

            #[inline]
            fn read_data(ctx: &mut ReadContext<'de, '_>) -> Result<Self> {
                ctx.reader.$read().map($wrap)
            }

            const DIRECT: bool = true;

            #[inline(always)]
            fn read_direct(
                r: &mut crate::buffer::Reader<'de>,
                _ctx: &ReadContext<'de, '_>,
            ) -> Option<Self> {
                r.$read().ok().map($wrap)
            }

            #[inline]
            fn read_typed(ctx: &mut ReadContext<'de, '_>, id: TypeId) -> Result<Self> {
                if id == TypeId::$id {
                    Self::read_data(ctx)
                } else {
                    super::scalar::read_int_as(ctx, id).map($wrap)
                }
            }
        }
    };
}

wrapped!(Fixed, i32, Int32, 4, i32, i32);
wrapped!(Fixed, i64, Int64, 8, i64, i64);
wrapped!(Fixed, u32, UInt32, 4, u32, u32);
wrapped!(Fixed, u64, UInt64, 8, u64, u64);
wrapped!(Tagged, i64, TaggedInt64, 9, tagged_i64, tagged_i64);
wrapped!(Tagged, u64, TaggedUInt64, 9, tagged_u64, tagged_u64);
