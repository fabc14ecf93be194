//! LIST and SET payloads: `varuint32 length | elements header | [type info] | elements`.

use super::{null_of, Deserialize, Serialize};
use crate::context::{ReadContext, WriteContext};
use crate::error::{ErrorKind, Result};
use crate::types::{elements, RefFlag, TypeId};

/// Writes `len` items as a list/set payload.
///
/// The elements header is chosen as pyfory chooses it for an undeclared element type: when
/// all non-null items share one type, `SAME_TYPE` is set and the type info is written once
/// (`NONE` if every item is null); `HAS_NULL` is set when some item is null, and then every
/// item carries a null/not-null flag. Mixed types get a type info per item. An empty
/// collection is the single byte `0`, with no header.
pub fn write_elements<'b, T, I>(len: usize, items: I, ctx: &mut WriteContext) -> Result<()>
where
    T: Serialize + 'b,
    I: Iterator<Item = &'b T> + Clone,
{
    ctx.length(len)?;
    if len == 0 {
        return Ok(());
    }
    let mut first: Option<&T> = None;
    let mut has_null = false;
    let mut same = true;
    if T::NULLABLE || !is_static::<T>() {
        for item in items.clone() {
            if T::NULLABLE && item.is_null() {
                has_null = true;
                continue;
            }
            match first {
                None => first = Some(item),
                Some(f) => same = same && f.same_type(item),
            }
        }
    } else {
        first = items.clone().next();
    }
    let mut header = 0u8;
    if same {
        header |= elements::SAME_TYPE;
    }
    if has_null {
        header |= elements::HAS_NULL;
    }
    ctx.writer.u8(header);
    ctx.enter()?;
    if same {
        match first {
            Some(f) => f.write_type_info(ctx),
            None => ctx.writer.u8(TypeId::None as u8),
        }
    }
    for item in items {
        if has_null {
            if item.is_null() {
                ctx.ref_flag(RefFlag::Null);
                continue;
            }
            ctx.ref_flag(RefFlag::NotNull);
        }
        if !same {
            item.write_type_info(ctx);
        }
        item.write_data(ctx)?;
    }
    ctx.leave();
    Ok(())
}

/// True when every value of `T` has the same type info, so no per-item check is needed.
#[inline]
fn is_static<T: Serialize>() -> bool {
    T::TYPE_ID != TypeId::Unknown
}

/// Reads a list/set payload into a `Vec`, obeying the header written by the peer.
pub fn read_elements<T: Deserialize>(ctx: &mut ReadContext) -> Result<Vec<T>> {
    let at = ctx.reader.position();
    let declared = ctx.reader.var_u32()?;
    if declared == 0 {
        return Ok(Vec::new());
    }
    // Every element costs at least one byte (a flag, a type id or a payload byte); the
    // zero-byte NONE payload is refused below unless flags are present.
    let len = ctx.reader.check_count("list", declared as u64, 1, at)?;
    let header_at = ctx.reader.position();
    let header = ctx.reader.u8()?;
    if header & 0xf0 != 0 {
        return Err(crate::Error::at(
            ErrorKind::Invalid {
                what: format!("elements header 0x{header:02x} has reserved bits set"),
            },
            header_at,
        ));
    }
    let flagged = header & (elements::TRACK_REF | elements::HAS_NULL) != 0;
    let elem_id = if header & elements::SAME_TYPE != 0 {
        if header & elements::DECL_TYPE != 0 {
            Some(T::TYPE_ID)
        } else {
            Some(ctx.type_id()?)
        }
    } else {
        None
    };
    if elem_id == Some(TypeId::None) && !flagged {
        return Err(ctx.error(ErrorKind::Invalid {
            what: "list of NONE elements without null flags".to_string(),
        }));
    }
    let mut out = Vec::with_capacity(len);
    ctx.enter()?;
    for _ in 0..len {
        if flagged {
            match ctx.ref_flag()? {
                RefFlag::Null => {
                    out.push(null_of::<T>(ctx)?);
                    continue;
                }
                RefFlag::Ref => return Err(ctx.unsupported_ref()),
                RefFlag::NotNull | RefFlag::RefValue => {}
            }
        }
        let id = match elem_id {
            Some(id) => id,
            None => ctx.type_id()?,
        };
        out.push(T::read_typed(ctx, id)?);
    }
    ctx.leave();
    Ok(out)
}

macro_rules! set_impl {
    ($set:ident, $($bound:tt)+) => {
        impl<T: Serialize + $($bound)+> Serialize for std::collections::$set<T> {
            const TYPE_ID: TypeId = TypeId::Set;

            #[inline]
            fn write_data(&self, ctx: &mut WriteContext) -> Result<()> {
                write_elements(self.len(), self.iter(), ctx)
            }
        }

        impl<T: Deserialize + $($bound)+> Deserialize for std::collections::$set<T> {
            #[inline]
            fn read_data(ctx: &mut ReadContext) -> Result<Self> {
                Ok(read_elements::<T>(ctx)?.into_iter().collect())
            }

            #[inline]
            fn read_typed(ctx: &mut ReadContext, id: TypeId) -> Result<Self> {
                // A LIST is accepted where a set is expected (duplicates collapse).
                if id == TypeId::Set || id == TypeId::List {
                    Self::read_data(ctx)
                } else {
                    Err(ctx.mismatch(std::any::type_name::<Self>(), id))
                }
            }
        }
    };
}

set_impl!(HashSet, Eq + std::hash::Hash);
set_impl!(BTreeSet, Ord);
