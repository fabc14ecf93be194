//! Skipping a value without building it: the fields of a peer's struct that the local struct
//! lacks. The structure is checked (lengths against the input, flags, nesting depth, TypeDefs),
//! the content is not (a skipped string is not validated as UTF-8).

use super::typedef_declared::{
    current_body_typedef, dynamic_type_info_rest, read_declared, Dynamic,
};
use super::{read_elements, read_map, Deserialize, WireType};
use crate::context::ReadContext;
use crate::error::{Error, ErrorKind, Result};
use crate::types::table::wire_type;
use crate::types::TypeId;

/// A value read past and dropped.
pub(crate) struct Skipped;

impl WireType for Skipped {
    // Like a dynamic value: its type info comes from the wire.
    const TYPE_ID: TypeId = TypeId::Unknown;
    const NULLABLE: bool = true;
    const FIELD_NULLABLE: bool = false;

    fn needs_type_info(_registry: &crate::registry::Registry) -> bool {
        true
    }
}

impl<'de> Dynamic<'de> for Skipped {
    const WRITTEN: bool = false;
    fn written_type(&self) -> Option<TypeId> {
        None
    }
    fn list(_: Vec<Self>) -> Self {
        Skipped
    }
    fn set(_: Vec<Self>) -> Self {
        Skipped
    }
    fn map(_: Vec<(Self, Self)>) -> Self {
        Skipped
    }
    fn variant(_: u32) -> Self {
        Skipped
    }
}

impl<'de> Deserialize<'de> for Skipped {
    const DYNAMIC_REFS: bool = true;

    fn read_data(ctx: &mut ReadContext<'de, '_>) -> Result<Self> {
        Err(ctx.error(ErrorKind::Invalid {
            what: "a declared element type where a skipped value needs its type id".to_string(),
        }))
    }

    fn read_type_info_rest(ctx: &mut ReadContext<'de, '_>, id: TypeId) -> Result<()> {
        dynamic_type_info_rest(ctx, id, std::any::TypeId::of::<Skipped>())
    }

    fn read_typed(ctx: &mut ReadContext<'de, '_>, id: TypeId) -> Result<Self> {
        match id {
            TypeId::Enum | TypeId::NamedEnum => {
                ctx.reader.var_u32()?;
            }
            TypeId::Union | TypeId::TypedUnion | TypeId::NamedUnion => {
                ctx.reader.var_u32()?;
                if !ctx.reader.take_if(crate::types::RefFlag::Null.byte()) {
                    super::union::read_union_case::<Skipped>(ctx)?;
                }
            }
            TypeId::CompatibleStruct | TypeId::NamedCompatibleStruct => {
                let key = std::any::TypeId::of::<Skipped>();
                let def = current_body_typedef(ctx, key)?;
                ctx.enter()?;
                for f in &def.def.fields {
                    read_declared::<Skipped>(ctx, &f.field_type)?;
                }
                ctx.leave();
                ctx.set_current_typedef(key, def);
            }
            TypeId::List | TypeId::Set => {
                ctx.enter()?;
                read_elements::<Skipped>(ctx)?;
                ctx.leave();
            }
            TypeId::Map => {
                ctx.enter()?;
                read_map::<Skipped, Skipped, _>(ctx, |_, _| {})?;
                ctx.leave();
            }
            _ => skip_leaf(ctx, id)?,
        }
        Ok(Skipped)
    }

    #[inline]
    fn null() -> Option<Self> {
        Some(Skipped)
    }

    fn from_ref(ctx: &ReadContext<'de, '_>, id: u32, at: usize) -> Result<Self> {
        ctx.check_ref_id(id, at)?;
        Ok(Skipped)
    }

    #[inline]
    fn missing() -> Option<Self> {
        Some(Skipped)
    }
}

/// Reads past a scalar, string, binary, dense array or time value.
pub(crate) fn skip_leaf(ctx: &mut ReadContext<'_, '_>, id: TypeId) -> Result<()> {
    let r = &mut ctx.reader;
    match id {
        TypeId::None => {}
        TypeId::VarInt32 | TypeId::VarUInt32 => {
            r.var_u32()?;
        }
        TypeId::VarInt64 | TypeId::VarUInt64 => {
            r.var_u64()?;
        }
        TypeId::TaggedInt64 | TypeId::TaggedUInt64 => {
            r.tagged_i64()?;
        }
        TypeId::String => {
            let at = r.position();
            let header = r.var_u64()?;
            if header & 3 == 3 {
                return Err(Error::at(
                    ErrorKind::Invalid {
                        what: "string header uses the reserved encoding 3".to_string(),
                    },
                    at,
                ));
            }
            let len = r.check_count("string", header >> 2, 1, at)?;
            r.bytes(len)?;
        }
        TypeId::Duration => {
            crate::Duration::read_data(ctx)?;
        }
        TypeId::Timestamp => {
            crate::Timestamp::read_data(ctx)?;
        }
        TypeId::Date => {
            crate::Date::read_data(ctx)?;
        }
        TypeId::Decimal => {
            crate::Decimal::read_data(ctx)?;
        }
        _ => match wire_type(id as u8) {
            // Fixed-size scalars.
            Some(row) if row.size > 0 && !row.compressed => {
                r.bytes(row.size as usize)?;
            }
            // BINARY (which may be out of band) and the dense arrays: a byte length, then
            // the bytes.
            Some(_) if id == TypeId::Binary => {
                ctx.binary()?;
            }
            Some(row) if row.name.ends_with("_ARRAY") => {
                let at = r.position();
                let len = r.var_u32()?;
                let len = r.check_count("array", len as u64, 1, at)?;
                r.bytes(len)?;
            }
            _ => {
                return Err(ctx.error(ErrorKind::Unsupported {
                    what: format!("skipping a value of type {}", id.name()),
                }))
            }
        },
    }
    Ok(())
}
