//! Reading a dynamic value in either form: containers through the same code as static
//! types, structs from their TypeDef, enums and unions with their type info, and back
//! references renumbered as the writer numbers values.

use super::form::ReadForm;
use super::leaf::read_leaf;
use super::user_types::{read_enum, read_union, read_user_type_info};
use crate::context::{ReadContext, RefSlot};
use crate::error::{Error, ErrorKind, Result};
use crate::registry::plan::name_of;
use crate::registry::RemoteTypeDef;
use crate::serializer::map::PairVec;
use crate::serializer::typedef_declared::{
    current_body_typedef, dynamic_type_info_rest, read_declared, Dynamic,
};
use crate::serializer::{read_elements, read_map, read_with_flag, Deserialize};
use crate::types::TypeId;
use crate::value::{registration_name, DynamicStruct, DynamicValue, EnumValue, UnionValue, Value};
use std::sync::Arc;

impl<'de, F: ReadForm<'de>> Dynamic<'de> for DynamicValue<F> {
    const WRITTEN: bool = true;
    fn written_type(&self) -> Option<TypeId> {
        match self {
            DynamicValue::Ref(_) | DynamicValue::Null => None,
            other => Some(other.type_id()),
        }
    }
    fn list(items: Vec<Self>) -> Self {
        DynamicValue::List(items)
    }
    fn set(items: Vec<Self>) -> Self {
        DynamicValue::Set(items)
    }
    fn map(pairs: Vec<(Self, Self)>) -> Self {
        DynamicValue::Map(pairs)
    }
    fn variant(id: u32) -> Self {
        DynamicValue::Enum(EnumValue::new(id))
    }
}

/// [`Value`] and [`ValueRef`](crate::ValueRef) read alike: the same checks, errors and
/// reference numbering, with the leaves copied or borrowed.
impl<'de, F: ReadForm<'de>> Deserialize<'de> for DynamicValue<F> {
    const DYNAMIC_REFS: bool = true;

    fn read_data(ctx: &mut ReadContext<'de, '_>) -> Result<Self> {
        Err(ctx.error(ErrorKind::Invalid {
            what: "a declared element type where a dynamic value needs its type id".to_string(),
        }))
    }

    /// Reads what follows the kind byte of user types: the user id, the names, or the
    /// meta-share marker and TypeDef of a compatible struct (kept for `read_typed`). Out of
    /// line, so that the frames of the container readers that recurse through dynamic values
    /// stay small.
    #[inline(never)]
    fn read_type_info_rest(ctx: &mut ReadContext<'de, '_>, id: TypeId) -> Result<()> {
        let at = ctx.reader.position().saturating_sub(1);
        crate::serializer::object::check_struct_mode(ctx, id, at)?;
        if id == TypeId::Union {
            // UNION (33) only declares a field or an element type; a value whose type info
            // is written names its union (TYPED_UNION and the id, NAMED_UNION and the
            // names), as every peer writes it. Without that the value could not be written
            // back (spec 10 §10.1).
            return Err(Error::at(
                ErrorKind::Invalid {
                    what: "type info UNION (33) without the union's registration: a union \
                           value with type info is TYPED_UNION (34) or NAMED_UNION (35)"
                        .to_string(),
                },
                at,
            ));
        }
        match id {
            TypeId::Enum | TypeId::NamedEnum | TypeId::TypedUnion | TypeId::NamedUnion => {
                read_user_type_info(ctx, id)
            }
            _ => dynamic_type_info_rest(ctx, id, F::key()),
        }
    }

    fn read_typed(ctx: &mut ReadContext<'de, '_>, id: TypeId) -> Result<Self> {
        if ctx.values_canonical() {
            // Where the position decides (a lone side of a null pair, a struct field), as it
            // says; otherwise the root and the tracked kinds: the writer flags them.
            let counted = ctx.take_count();
            let root = ctx.take_canon_root();
            // A null is written `fd` wherever it is: it never takes an id.
            if counted.unwrap_or(root || id.is_tracked()) && id != TypeId::None {
                ctx.bump_canon();
            }
        }
        // As for writing: containers here, leaves in their own frame.
        match id {
            TypeId::Enum | TypeId::NamedEnum => read_enum(ctx).map(DynamicValue::Enum),
            TypeId::Union | TypeId::TypedUnion | TypeId::NamedUnion => {
                read_union(ctx, id).map(|u| DynamicValue::Union(Box::new(u)))
            }
            TypeId::CompatibleStruct | TypeId::NamedCompatibleStruct => {
                let key = F::key();
                let def = current_body_typedef(ctx, key)?;
                let v = read_struct(ctx, &def)?;
                // Sibling values that share this type info find it again.
                ctx.set_current_typedef(key, def);
                Ok(v)
            }
            TypeId::List => Ok(DynamicValue::List(read_elements(ctx)?)),
            TypeId::Set => Ok(DynamicValue::Set(read_elements(ctx)?)),
            TypeId::Map => {
                let mut pairs = Vec::new();
                read_map::<Self, Self, _>(ctx, PairVec(&mut pairs))?;
                Ok(DynamicValue::Map(pairs))
            }
            _ => read_leaf(ctx, id),
        }
    }

    #[inline]
    fn null() -> Option<Self> {
        Some(DynamicValue::Null)
    }

    /// A stream whose root is a dynamic value, with tracking on, has its back references
    /// renumbered as the writer numbers values: the root, every value of a tracked kind
    /// (containers, binary, time, structs), the value of a ref `any` field of a struct and
    /// the present side of a null map pair, in stream order, whether or not the stream
    /// flagged them. pyfory numbers the same way, so its ids are kept; a stream that numbers
    /// otherwise still reads to a value that writes back to bytes that read to it.
    fn read_root(ctx: &mut ReadContext<'de, '_>) -> Result<Self> {
        if ctx.ref_tracking() {
            ctx.set_canon_root();
        }
        read_with_flag(ctx)
    }

    /// A back reference stays a reference: [`Value::Ref`] (a reference to a scalar or string
    /// that a stream flagged reads as a copy of it: the writer gives such values no id). Only
    /// with reference tracking on: without it a writer assigns no ids.
    fn from_ref(ctx: &ReadContext<'de, '_>, id: u32, at: usize) -> Result<Self> {
        let invalid = |what: String| Error::at(ErrorKind::Invalid { what }, at);
        if !ctx.ref_tracking() {
            return Err(invalid(format!(
                "a back reference (to id {id}) in a stream read without reference tracking"
            )));
        }
        ctx.check_ref_id(id, at)?;
        if !ctx.values_canonical() {
            return Ok(DynamicValue::Ref(id));
        }
        let slot = ctx.ref_slot_raw(id as usize);
        if let Some(RefSlot::Node(node)) = slot {
            return Ok(DynamicValue::Ref(*node));
        }
        if let Some(v) = slot.and_then(|s| F::kept_copy(ctx, s)) {
            let size = copy_size(v, ctx.copy_allowance()).ok_or_else(|| too_large(id, at))?;
            ctx.spend_copy(size);
            return Ok(v.clone());
        }
        // A value of a static type around the dynamic one (a `Vec<Value>` holding a reference
        // to itself): the id its writer gives it.
        ctx.typed_slot_canon(id as usize)
            .map(DynamicValue::Ref)
            .ok_or_else(|| too_large_or_skipped(id, at))
    }

    fn begin_ref(ctx: &mut ReadContext<'de, '_>, slot: usize) {
        if ctx.values_canonical() {
            let node = ctx.peek_canon();
            ctx.set_ref(slot, RefSlot::Node(node));
        }
    }

    fn keep_ref(self, ctx: &mut ReadContext<'de, '_>, slot: usize) -> Self {
        if !ctx.values_canonical() {
            ctx.set_ref(slot, RefSlot::Plain);
            return self;
        }
        // Counted in the writer's numbering (the id moved past its own): keep the node.
        // Otherwise the stream flagged a value the writer will not: keep a copy.
        let counted = match ctx.ref_slot_raw(slot) {
            Some(RefSlot::Node(n)) => ctx.peek_canon() > *n,
            _ => false,
        };
        if !counted {
            // A copy for the back references to it, within the copy allowance; past it the
            // slot stays plain and a back reference to it is an error.
            match copy_size(&self, ctx.copy_allowance()) {
                Some(size) => {
                    ctx.spend_copy(size);
                    F::keep_copy(self.clone(), ctx, slot);
                }
                None => ctx.set_ref(slot, RefSlot::Plain),
            }
        }
        self
    }

    /// A missing `Any` field reads as null.
    #[inline]
    fn missing() -> Option<Self> {
        Some(DynamicValue::Null)
    }
}

/// Reads the body of a compatible struct described by `def`. Returns the value boxed, so
/// that the caller's frame, which every level of nesting repeats, holds no struct.
fn read_struct<'de, F: ReadForm<'de>>(
    ctx: &mut ReadContext<'de, '_>,
    def: &Arc<RemoteTypeDef>,
) -> Result<DynamicValue<F>> {
    if !def.def.is_struct() {
        // Read as a struct, it could not be written back as one.
        return Err(ctx.error(ErrorKind::Invalid {
            what: "a struct's type info names a TypeDef that does not describe a struct"
                .to_string(),
        }));
    }
    let type_name = registration_name(&def.def.registration);
    ctx.charge(
        std::mem::size_of::<DynamicStruct<F>>()
            + def.def.fields.len() * std::mem::size_of::<(String, Value)>(),
    )?;
    ctx.enter()?;
    let mut fields = Vec::with_capacity(def.def.fields.len());
    for f in &def.def.fields {
        let v = read_declared::<DynamicValue<F>>(ctx, &f.field_type)?;
        fields.push((name_of(&f.id), v));
    }
    ctx.leave();
    Ok(DynamicValue::Struct(Box::new(DynamicStruct::with_typedef(
        type_name,
        fields,
        def.clone(),
    ))))
}

/// A back reference to a value the writer gives no id would need more copying than the
/// stream's allowance (`ReadContext::copy_allowance`).
#[cold]
fn too_large(id: u32, at: usize) -> Error {
    Error::at(
        ErrorKind::Invalid {
            what: format!(
                "a back reference (to id {id}) to a value that a writer gives no id (a number, \
             string, enum, union or dense array) would be copied beyond the input's size"
            ),
        },
        at,
    )
}

/// A back reference to a slot that holds no value to refer to: one too large to copy (see
/// [`too_large`]) or a field skipped by a reader of another version (never written again).
#[cold]
fn too_large_or_skipped(id: u32, at: usize) -> Error {
    Error::at(
        ErrorKind::Invalid {
            what: format!(
                "a back reference (to id {id}) to a value that is not written again: a skipped \
             field, or a value a writer gives no id that would be copied beyond the input's size"
            ),
        },
        at,
    )
}

/// About how many heap bytes a copy of `v` takes beyond the value itself (the nested values,
/// and what strings, byte strings and arrays hold), or `None` once that passes `limit`. Sized
/// as `Value`s for every form, so that a stream's copies are allowed or refused alike
/// whichever form reads it (and a `ValueRef`'s `to_owned` is bounded like a `Value`). Out of
/// line: only back references to values the writer gives no id need it.
#[inline(never)]
fn copy_size<F: crate::value::Form>(v: &DynamicValue<F>, limit: usize) -> Option<usize> {
    fn add<F: crate::value::Form>(
        v: &DynamicValue<F>,
        total: &mut usize,
        limit: usize,
    ) -> Option<()> {
        *total = total.saturating_add(std::mem::size_of::<Value>());
        add_heap(v, total, limit)
    }
    fn add_heap<F: crate::value::Form>(
        v: &DynamicValue<F>,
        total: &mut usize,
        limit: usize,
    ) -> Option<()> {
        use crate::value::Elements;
        use DynamicValue as V;
        let own = match v {
            V::String(s) => s.len(),
            V::Binary(b) | V::UInt8Array(b) => b.len(),
            V::BoolArray(a) => a.len(),
            V::Int8Array(a) => a.len(),
            V::Int16Array(a) => a.len() * 2,
            V::UInt16Array(a) => a.len() * 2,
            V::Float16Array(a) => a.len() * 2,
            V::BFloat16Array(a) => a.len() * 2,
            V::Int32Array(a) => a.len() * 4,
            V::UInt32Array(a) => a.len() * 4,
            V::Float32Array(a) => a.len() * 4,
            V::Int64Array(a) => a.len() * 8,
            V::UInt64Array(a) => a.len() * 8,
            V::Float64Array(a) => a.len() * 8,
            V::Decimal(_) => std::mem::size_of::<crate::Decimal>(),
            V::List(xs) | V::Set(xs) => {
                for x in xs {
                    add(x, total, limit)?;
                }
                0
            }
            V::Map(ps) => {
                for (k, x) in ps {
                    add(k, total, limit)?;
                    add(x, total, limit)?;
                }
                0
            }
            V::Struct(s) => {
                for (name, x) in &s.fields {
                    *total = total.saturating_add(name.len());
                    add(x, total, limit)?;
                }
                std::mem::size_of::<crate::value::StructValue>()
            }
            V::Union(u) => {
                add(&u.value, total, limit)?;
                std::mem::size_of::<UnionValue>()
            }
            _ => 0,
        };
        *total = total.saturating_add(own);
        (*total <= limit).then_some(())
    }
    let mut total = 0;
    add_heap(v, &mut total, limit).map(|()| total)
}
