//! Writing a dynamic value in either form: its type info from the variant (or the
//! registration an enum, union or struct keeps), containers through the same code as static
//! types, and back references as the flags and ids they stand for.

use super::leaf::write_leaf;
use super::structs::{head, same_struct_type, struct_body, struct_type_info};
use super::user_types::{write_enum_type_info, write_union_type_info};
use crate::context::WriteContext;
use crate::error::{Error, ErrorKind, Result};
use crate::registry::Registry;
use crate::serializer::refs::write_plain_flag;
use crate::serializer::union::write_union_case;
use crate::serializer::{write_elements, write_map, Serialize, WireType};
use crate::types::{RefFlag, TypeId};
use crate::value::{DynamicValue, Form};

impl<F: Form> WireType for DynamicValue<F> {
    /// A dynamic value has no static type: its type info comes from the variant.
    const TYPE_ID: TypeId = TypeId::Unknown;
    const NULLABLE: bool = true;
    const FIELD_NULLABLE: bool = false;
    /// A dynamic value always carries its type info, even in a declared position.
    #[inline]
    fn needs_type_info(_registry: &Registry) -> bool {
        true
    }
}

/// A [`ValueRef`](crate::ValueRef) writes what its [`Value`](crate::Value) writes, byte for
/// byte.
impl<F: Form> Serialize for DynamicValue<F> {
    fn visit_buffers<'v>(&'v self, out: &mut Vec<&'v [u8]>) {
        match self {
            DynamicValue::Binary(b) => out.push(b),
            DynamicValue::List(items) | DynamicValue::Set(items) => {
                items.iter().for_each(|x| x.visit_buffers(out))
            }
            DynamicValue::Map(pairs) => pairs.iter().for_each(|(k, v)| {
                k.visit_buffers(out);
                v.visit_buffers(out);
            }),
            DynamicValue::Struct(s) => s.fields.iter().for_each(|(_, v)| v.visit_buffers(out)),
            DynamicValue::Union(u) => u.value.visit_buffers(out),
            _ => {}
        }
    }

    #[inline]
    fn write_type_info(&self, ctx: &mut WriteContext) -> Result<()> {
        let id = match self {
            DynamicValue::Struct(s) => return struct_type_info(head(s), ctx),
            DynamicValue::Enum(e) => return write_enum_type_info(e, ctx),
            DynamicValue::Union(u) => return write_union_type_info(u, ctx),
            // A back reference carries the type of the value it names.
            DynamicValue::Ref(r) => ctx.ref_type(*r).unwrap_or(TypeId::Unknown as u8),
            other => other.type_id() as u8,
        };
        ctx.writer.u8(id);
        Ok(())
    }

    fn write_data(&self, ctx: &mut WriteContext) -> Result<()> {
        // Containers recurse; everything else goes through a separate frame so that the
        // recursion stays small on the stack even in debug builds.
        match self {
            DynamicValue::List(items) | DynamicValue::Set(items) => {
                write_elements(items.len(), items.iter(), false, ctx)
            }
            DynamicValue::Map(pairs) => {
                write_map(pairs.len(), pairs.iter().map(|(k, v)| (k, v)), false, ctx)
            }
            DynamicValue::Struct(s) => struct_body(s, ctx),
            DynamicValue::Union(u) => write_union_case(u.case, &u.value, ctx),
            DynamicValue::Ref(_) => Err(Error::new(ErrorKind::Invalid {
                what: "a Value::Ref outside a position that carries reference flags".to_string(),
            })),
            leaf => write_leaf(leaf, ctx),
        }
    }

    #[inline]
    fn is_null(&self) -> bool {
        matches!(self, DynamicValue::Null)
    }

    /// `self` is the item whose type info a chunk carries. A back reference joins any chunk
    /// (it is written as a flag and an id); a chunk that a back reference opened carries the
    /// type of the value it names, which only another back reference is sure to share.
    #[inline]
    fn same_type(&self, other: &Self) -> bool {
        match (self, other) {
            (_, DynamicValue::Ref(_)) => true,
            (DynamicValue::Ref(_), _) => false,
            // Structs share type info only when they name the same TypeDef.
            (DynamicValue::Struct(a), DynamicValue::Struct(b)) => {
                same_struct_type(head(a), head(b))
            }
            (DynamicValue::Enum(a), DynamicValue::Enum(b)) => a.same_type(b),
            (DynamicValue::Union(a), DynamicValue::Union(b)) => a.same_type(b),
            _ => self.type_id() == other.type_id(),
        }
    }

    #[inline]
    fn is_back_ref(&self) -> bool {
        matches!(self, DynamicValue::Ref(_))
    }

    #[inline]
    fn is_ref_type(&self) -> bool {
        // The kinds pyfory tracks with reference tracking on (the type table's), and back
        // references.
        self.is_back_ref() || self.type_id().is_tracked()
    }

    #[inline]
    fn is_ref_among_mixed(&self) -> bool {
        !self.is_back_ref() && self.type_id().is_tracked_among_mixed()
    }

    fn write_ref_flag(&self, ctx: &mut WriteContext, track: bool) -> Result<bool> {
        if let DynamicValue::Ref(r) = self {
            if !ctx.ref_tracking() {
                return Err(Error::new(ErrorKind::Invalid {
                    what: format!(
                        "Value::Ref({r}) needs reference tracking \
                         (Fury::builder().ref_tracking(true))"
                    ),
                }));
            }
            ctx.ref_flag(RefFlag::Ref);
            ctx.writer.var_u32(*r);
            return Ok(true);
        }
        let id = self.type_id();
        let next = ctx.peek_ref_id();
        let done = write_plain_flag(id == TypeId::None, track, ctx)?;
        if ctx.peek_ref_id() != next {
            ctx.set_ref_type(next, id as u8);
        }
        Ok(done)
    }
}
