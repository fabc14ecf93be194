//! Writing and reading [`Value`] through the same container code as static types, and the
//! reader that [`Value`] and [`ValueRef`](super::ValueRef) share ([`DynValue`]).

use super::Value;
use crate::context::{ReadContext, RefSlot, WriteContext};
use crate::error::{ErrorKind, Result};
use crate::registry::{Registry, RemoteTypeDef};
use crate::serializer::array::{read_dense, write_dense};
use crate::serializer::declared::{
    current_body_typedef, dynamic_type_info_rest, read_declared, Dynamic,
};
use crate::serializer::{
    read_elements, read_map, write_elements, write_map, Deserialize, Serialize, WireType,
};
use crate::types::TypeId;

impl<'de> Dynamic<'de> for Value {
    const WRITTEN: bool = true;
    fn written_type(&self) -> Option<TypeId> {
        match self {
            Value::Ref(_) | Value::Null => None,
            other => Some(other.type_id()),
        }
    }
    fn list(items: Vec<Self>) -> Self {
        Value::List(items)
    }
    fn set(items: Vec<Self>) -> Self {
        Value::Set(items)
    }
    fn map(pairs: Vec<(Self, Self)>) -> Self {
        Value::Map(pairs)
    }
    fn variant(id: u32) -> Self {
        Value::Enum(super::EnumValue::new(id))
    }
}

/// The dynamic forms that one reader builds: [`Value`], which owns what it holds, and
/// [`ValueRef`](super::ValueRef), which borrows text and bytes from the input. They differ in
/// their leaves and in where the copy for a back reference is kept; reading containers,
/// structs, unions and enums, and the reference numbering, are the functions below.
pub(crate) trait DynValue<'de>: Dynamic<'de> + Clone {
    /// The null.
    const NULL: Self;
    /// The key the TypeDef of a struct body about to be read is kept under.
    fn key() -> std::any::TypeId;
    /// A back reference kept as one (`Value::Ref`).
    fn back_ref(id: u32) -> Self;
    /// An enum value.
    fn enum_value(e: super::EnumValue) -> Self;
    /// A union value.
    fn union(u: super::UnionValue<Self>) -> Self;
    /// A struct read with the TypeDef `def`.
    fn structure(
        type_name: String,
        fields: Vec<(String, Self)>,
        def: std::sync::Arc<RemoteTypeDef>,
    ) -> Self;
    /// Reads the payload of a scalar, string, binary, dense array or time value of type `id`.
    fn read_leaf(ctx: &mut ReadContext<'de, '_>, id: TypeId) -> Result<Self>;
    /// What the value holds beyond itself, for sizing a copy of it.
    fn holds(&self) -> Holds<'_, Self>;
    /// The copy of a value of this form that `slot` keeps for back references, if any.
    fn kept_copy<'c>(ctx: &'c ReadContext<'de, '_>, slot: &'c RefSlot) -> Option<&'c Self>;
    /// Keeps `copy` in reference slot `slot`, for the back references to it.
    fn keep_copy(copy: Self, ctx: &mut ReadContext<'de, '_>, slot: usize);
}

/// What a dynamic value holds beyond itself (see [`copy_size`]).
pub(crate) enum Holds<'a, V> {
    /// Heap bytes of its own (text, bytes, array elements; 0 for a number or a null).
    Bytes(usize),
    /// Elements (a list or set).
    Items(&'a [V]),
    /// Pairs (a map).
    Pairs(&'a [(V, V)]),
    /// Named fields (a struct).
    Fields(&'a [(String, V)]),
    /// One value (a union's case value).
    Case(&'a V),
}

impl<'de> DynValue<'de> for Value {
    const NULL: Self = Value::Null;
    #[inline]
    fn key() -> std::any::TypeId {
        std::any::TypeId::of::<Value>()
    }
    #[inline]
    fn back_ref(id: u32) -> Self {
        Value::Ref(id)
    }
    #[inline]
    fn enum_value(e: super::EnumValue) -> Self {
        Value::Enum(e)
    }
    #[inline]
    fn union(u: super::UnionValue<Self>) -> Self {
        Value::Union(Box::new(u))
    }
    #[inline]
    fn structure(
        type_name: String,
        fields: Vec<(String, Self)>,
        def: std::sync::Arc<RemoteTypeDef>,
    ) -> Self {
        Value::Struct(Box::new(crate::value::StructValue::with_typedef(
            type_name, fields, def,
        )))
    }
    #[inline]
    fn read_leaf(ctx: &mut ReadContext<'de, '_>, id: TypeId) -> Result<Self> {
        read_leaf(ctx, id)
    }
    fn holds(&self) -> Holds<'_, Self> {
        Holds::Bytes(match self {
            Value::String(s) => s.len(),
            Value::Binary(b) | Value::UInt8Array(b) => b.len(),
            Value::BoolArray(a) => a.len(),
            Value::Int8Array(a) => a.len(),
            Value::Int16Array(a) => a.len() * 2,
            Value::UInt16Array(a) => a.len() * 2,
            Value::Float16Array(a) => a.len() * 2,
            Value::BFloat16Array(a) => a.len() * 2,
            Value::Int32Array(a) => a.len() * 4,
            Value::UInt32Array(a) => a.len() * 4,
            Value::Float32Array(a) => a.len() * 4,
            Value::Int64Array(a) => a.len() * 8,
            Value::UInt64Array(a) => a.len() * 8,
            Value::Float64Array(a) => a.len() * 8,
            Value::Decimal(_) => std::mem::size_of::<crate::Decimal>(),
            Value::List(xs) | Value::Set(xs) => return Holds::Items(xs),
            Value::Map(ps) => return Holds::Pairs(ps),
            Value::Struct(s) => return Holds::Fields(&s.fields),
            Value::Union(u) => return Holds::Case(&u.value),
            _ => 0,
        })
    }
    #[inline]
    fn kept_copy<'c>(_ctx: &'c ReadContext<'de, '_>, slot: &'c RefSlot) -> Option<&'c Self> {
        match slot {
            RefSlot::Rc(any) => any.downcast_ref::<Value>(),
            _ => None,
        }
    }
    fn keep_copy(copy: Self, ctx: &mut ReadContext<'de, '_>, slot: usize) {
        ctx.set_ref(slot, RefSlot::Rc(std::rc::Rc::new(copy)));
    }
}

/// Reads the body of a compatible struct described by `def` as a struct of the form `V`.
fn read_struct_value<'de, V: DynValue<'de>>(
    ctx: &mut ReadContext<'de, '_>,
    def: &std::sync::Arc<crate::registry::RemoteTypeDef>,
) -> Result<V> {
    if !def.def.is_struct() {
        // Read as a struct, it could not be written back as one.
        return Err(ctx.error(ErrorKind::Invalid {
            what: "a struct's type info names a TypeDef that does not describe a struct"
                .to_string(),
        }));
    }
    let type_name = super::user_type::registration_name(&def.def.registration);
    ctx.charge(
        std::mem::size_of::<crate::value::StructValue>()
            + def.def.fields.len() * std::mem::size_of::<(String, Value)>(),
    )?;
    ctx.enter()?;
    let mut fields = Vec::with_capacity(def.def.fields.len());
    for f in &def.def.fields {
        let v = read_declared::<V>(ctx, &f.field_type)?;
        fields.push((crate::registry::plan::name_of(&f.id), v));
    }
    ctx.leave();
    Ok(V::structure(type_name, fields, def.clone()))
}

impl WireType for Value {
    /// A `Value` has no static type: its type info comes from the variant.
    const TYPE_ID: TypeId = TypeId::Unknown;
    const NULLABLE: bool = true;
    const FIELD_NULLABLE: bool = false;
    /// A `Value` always carries its type info, even in a declared position.
    #[inline]
    fn needs_type_info(_registry: &Registry) -> bool {
        true
    }
}

impl Serialize for Value {
    fn visit_buffers<'v>(&'v self, out: &mut Vec<&'v [u8]>) {
        match self {
            Value::Binary(b) => out.push(b),
            Value::List(items) | Value::Set(items) => {
                items.iter().for_each(|x| x.visit_buffers(out))
            }
            Value::Map(pairs) => pairs.iter().for_each(|(k, v)| {
                k.visit_buffers(out);
                v.visit_buffers(out);
            }),
            Value::Struct(s) => s.fields.iter().for_each(|(_, v)| v.visit_buffers(out)),
            Value::Union(u) => u.value.visit_buffers(out),
            _ => {}
        }
    }

    #[inline]
    fn write_type_info(&self, ctx: &mut WriteContext) -> Result<()> {
        let id = match self {
            Value::Struct(s) => return super::write::struct_type_info(s.head(), ctx),
            Value::Enum(e) => return super::user_type::write_enum_type_info(e, ctx),
            Value::Union(u) => return super::user_type::write_union_type_info(u, ctx),
            // A back reference carries the type of the value it names.
            Value::Ref(r) => ctx.ref_type(*r).unwrap_or(TypeId::Unknown as u8),
            other => other.type_id() as u8,
        };
        ctx.writer.u8(id);
        Ok(())
    }

    fn write_data(&self, ctx: &mut WriteContext) -> Result<()> {
        // Containers recurse; everything else goes through a separate frame so that the
        // recursion stays small on the stack even in debug builds.
        match self {
            Value::List(items) | Value::Set(items) => {
                write_elements(items.len(), items.iter(), false, ctx)
            }
            Value::Map(pairs) => {
                write_map(pairs.len(), pairs.iter().map(|(k, v)| (k, v)), false, ctx)
            }
            leaf => write_leaf(leaf, ctx),
        }
    }

    #[inline]
    fn is_null(&self) -> bool {
        matches!(self, Value::Null)
    }

    /// `self` is the item whose type info a chunk carries. A back reference joins any chunk
    /// (it is written as a flag and an id); a chunk that a back reference opened carries the
    /// type of the value it names, which only another back reference is sure to share.
    #[inline]
    fn same_type(&self, other: &Self) -> bool {
        match (self, other) {
            (_, Value::Ref(_)) => true,
            (Value::Ref(_), _) => false,
            // Structs share type info only when they name the same TypeDef.
            (Value::Struct(a), Value::Struct(b)) => {
                super::write::same_struct_type(a.head(), b.head())
            }
            (Value::Enum(a), Value::Enum(b)) => a.same_type(b),
            (Value::Union(a), Value::Union(b)) => a.same_type(b),
            _ => self.type_id() == other.type_id(),
        }
    }

    #[inline]
    fn is_back_ref(&self) -> bool {
        matches!(self, Value::Ref(_))
    }

    #[inline]
    fn is_ref_type(&self) -> bool {
        // The kinds pyfory tracks with reference tracking on (the type table's), and back
        // references.
        self.is_back_ref() || self.type_id().is_tracked()
    }

    #[inline]
    fn is_ref_among_mixed(&self) -> bool {
        !matches!(self, Value::Ref(_)) && self.type_id().is_tracked_among_mixed()
    }

    fn write_ref_flag(&self, ctx: &mut WriteContext, track: bool) -> Result<bool> {
        let back_ref = match self {
            Value::Ref(id) => Some(*id),
            _ => None,
        };
        write_dyn_ref_flag(back_ref, self.type_id(), track, ctx)
    }
}

/// `Serialize::write_ref_flag` of a dynamic value of type `id` (`NONE` for a null), or of the
/// back reference `back_ref`.
#[inline]
pub(super) fn write_dyn_ref_flag(
    back_ref: Option<u32>,
    id: TypeId,
    track: bool,
    ctx: &mut WriteContext,
) -> Result<bool> {
    if let Some(r) = back_ref {
        if !ctx.ref_tracking() {
            return Err(crate::Error::new(ErrorKind::Invalid {
                what: format!(
                    "Value::Ref({r}) needs reference tracking (Fury::builder().ref_tracking(true))"
                ),
            }));
        }
        ctx.ref_flag(crate::types::RefFlag::Ref);
        ctx.writer.var_u32(r);
        return Ok(true);
    }
    let next = ctx.peek_ref_id();
    let done = crate::serializer::refs::write_plain_flag(id == TypeId::None, track, ctx)?;
    if ctx.peek_ref_id() != next {
        ctx.set_ref_type(next, id as u8);
    }
    Ok(done)
}

#[inline(never)]
pub(super) fn write_leaf(value: &Value, ctx: &mut WriteContext) -> Result<()> {
    let w = &mut ctx.writer;
    match value {
        Value::Null => {}
        Value::Bool(v) => w.bool(*v),
        Value::Int8(v) => w.i8(*v),
        Value::Int16(v) => w.i16(*v),
        Value::Int32(v) => w.i32(*v),
        Value::VarInt32(v) => w.var_i32(*v),
        Value::Int64(v) => w.i64(*v),
        Value::VarInt64(v) => w.var_i64(*v),
        Value::TaggedInt64(v) => w.tagged_i64(*v),
        Value::UInt8(v) => w.u8(*v),
        Value::UInt16(v) => w.u16(*v),
        Value::UInt32(v) => w.u32(*v),
        Value::VarUInt32(v) => w.var_u32(*v),
        Value::UInt64(v) => w.u64(*v),
        Value::VarUInt64(v) => w.var_u64(*v),
        Value::TaggedUInt64(v) => w.tagged_u64(*v),
        Value::Float16(v) => w.u16(v.0),
        Value::BFloat16(v) => w.u16(v.0),
        Value::Float32(v) => w.f32(*v),
        Value::Float64(v) => w.f64(*v),
        Value::String(s) => s.write_data(ctx)?,
        Value::Binary(b) => ctx.binary(b)?,
        Value::UInt8Array(b) => write_dense(b, ctx)?,
        Value::Duration(d) => d.write_data(ctx)?,
        Value::Timestamp(t) => t.write_data(ctx)?,
        Value::Date(d) => d.write_data(ctx)?,
        Value::Decimal(d) => d.write_data(ctx)?,
        Value::List(_) | Value::Set(_) | Value::Map(_) => return value.write_data(ctx),
        Value::Ref(_) => {
            return Err(crate::Error::new(ErrorKind::Invalid {
                what: "a Value::Ref outside a position that carries reference flags".to_string(),
            }))
        }
        Value::Struct(s) => return super::write::struct_body(s, ctx),
        Value::Enum(e) => w.var_u32(e.variant),
        Value::Union(u) => {
            return crate::serializer::union::write_union_case(u.case, &u.value, ctx)
        }
        Value::BoolArray(a) => write_dense(a, ctx)?,
        Value::Int8Array(a) => write_dense(a, ctx)?,
        Value::Int16Array(a) => write_dense(a, ctx)?,
        Value::Int32Array(a) => write_dense(a, ctx)?,
        Value::Int64Array(a) => write_dense(a, ctx)?,
        Value::UInt16Array(a) => write_dense(a, ctx)?,
        Value::UInt32Array(a) => write_dense(a, ctx)?,
        Value::UInt64Array(a) => write_dense(a, ctx)?,
        Value::Float16Array(a) => write_dense(a, ctx)?,
        Value::BFloat16Array(a) => write_dense(a, ctx)?,
        Value::Float32Array(a) => write_dense(a, ctx)?,
        Value::Float64Array(a) => write_dense(a, ctx)?,
    }
    Ok(())
}

impl<'de> Deserialize<'de> for Value {
    const DYNAMIC_REFS: bool = true;

    fn read_data(ctx: &mut ReadContext<'de, '_>) -> Result<Self> {
        Err(ctx.error(ErrorKind::Invalid {
            what: "a declared element type where a dynamic Value needs its type id".to_string(),
        }))
    }

    /// Reads what follows the kind byte of user types: the user id, the names, or the
    /// meta-share marker and TypeDef of a compatible struct (kept for `read_typed`).
    fn read_type_info_rest(ctx: &mut ReadContext<'de, '_>, id: TypeId) -> Result<()> {
        read_type_info_rest_dyn::<Value>(ctx, id)
    }

    fn read_typed(ctx: &mut ReadContext<'de, '_>, id: TypeId) -> Result<Self> {
        read_typed_dyn(ctx, id)
    }

    #[inline]
    fn null() -> Option<Self> {
        Some(Value::Null)
    }

    /// A stream whose root is a `Value`, with tracking on, has its back references
    /// renumbered as the writer numbers values: the root, every value of a tracked kind
    /// (containers, binary, time, structs), the value of a ref `any` field of a struct and
    /// the present side of a null map pair, in
    /// stream order, whether or not the stream flagged them. pyfory numbers the same way, so
    /// its ids are kept; a stream that numbers otherwise still reads to a `Value` that writes
    /// back to bytes that read to it.
    fn read_root(ctx: &mut ReadContext<'de, '_>) -> Result<Self> {
        read_root_dyn(ctx)
    }

    /// A back reference stays a reference: [`Value::Ref`] (a reference to a scalar or string
    /// that a stream flagged reads as a copy of it: the writer gives such values no id). Only
    /// with reference tracking on: without it a writer assigns no ids.
    fn from_ref(ctx: &ReadContext<'de, '_>, id: u32, at: usize) -> Result<Self> {
        from_ref_dyn(ctx, id, at)
    }

    fn begin_ref(ctx: &mut ReadContext<'de, '_>, slot: usize) {
        begin_ref_dyn(ctx, slot)
    }

    fn keep_ref(self, ctx: &mut ReadContext<'de, '_>, slot: usize) -> Self {
        keep_ref_dyn(self, ctx, slot)
    }

    /// A missing `Any` field reads as null.
    #[inline]
    fn missing() -> Option<Self> {
        Some(Value::Null)
    }
}

/// `Deserialize::read_type_info_rest` of a dynamic form.
#[inline(always)]
pub(super) fn read_type_info_rest_dyn<'de, V: DynValue<'de>>(
    ctx: &mut ReadContext<'de, '_>,
    id: TypeId,
) -> Result<()> {
    match id {
        TypeId::Enum | TypeId::NamedEnum | TypeId::TypedUnion | TypeId::NamedUnion => {
            super::user_type::read_user_type_info(ctx, id)
        }
        _ => dynamic_type_info_rest(ctx, id, V::key()),
    }
}

/// `Deserialize::read_typed` of a dynamic form.
#[inline(always)]
pub(super) fn read_typed_dyn<'de, V: DynValue<'de>>(
    ctx: &mut ReadContext<'de, '_>,
    id: TypeId,
) -> Result<V> {
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
        TypeId::Enum | TypeId::NamedEnum => super::user_type::read_enum(ctx).map(V::enum_value),
        TypeId::Union | TypeId::TypedUnion | TypeId::NamedUnion => {
            super::user_type::read_union(ctx, id).map(V::union)
        }
        TypeId::CompatibleStruct | TypeId::NamedCompatibleStruct => {
            let key = V::key();
            let def = current_body_typedef(ctx, key)?;
            let v = read_struct_value(ctx, &def)?;
            // Sibling values that share this type info find it again.
            ctx.set_current_typedef(key, def);
            Ok(v)
        }
        TypeId::List => Ok(V::list(read_elements(ctx)?)),
        TypeId::Set => Ok(V::set(read_elements(ctx)?)),
        TypeId::Map => {
            let mut pairs = Vec::new();
            read_map::<V, V, _>(ctx, crate::serializer::map::PairVec(&mut pairs))?;
            Ok(V::map(pairs))
        }
        _ => V::read_leaf(ctx, id),
    }
}

/// `Deserialize::read_root` of a dynamic form (see `Value`'s).
#[inline(always)]
pub(super) fn read_root_dyn<'de, V: DynValue<'de>>(ctx: &mut ReadContext<'de, '_>) -> Result<V> {
    if ctx.ref_tracking() {
        ctx.set_canon_root();
    }
    crate::serializer::read_with_flag(ctx)
}

/// `Deserialize::from_ref` of a dynamic form (see `Value`'s).
#[inline(always)]
pub(super) fn from_ref_dyn<'de, V: DynValue<'de>>(
    ctx: &ReadContext<'de, '_>,
    id: u32,
    at: usize,
) -> Result<V> {
    let invalid = |what: String| crate::Error::at(ErrorKind::Invalid { what }, at);
    if !ctx.ref_tracking() {
        return Err(invalid(format!(
            "a back reference (to id {id}) in a stream read without reference tracking"
        )));
    }
    ctx.check_ref_id(id, at)?;
    if !ctx.values_canonical() {
        return Ok(V::back_ref(id));
    }
    let slot = ctx.ref_slot_raw(id as usize);
    if let Some(RefSlot::Node(node)) = slot {
        return Ok(V::back_ref(*node));
    }
    if let Some(v) = slot.and_then(|s| V::kept_copy(ctx, s)) {
        let size = copy_size(v, ctx.copy_allowance()).ok_or_else(|| too_large(id, at))?;
        ctx.spend_copy(size);
        return Ok(v.clone());
    }
    // A value of a static type around the dynamic one (a `Vec<Value>` holding a reference
    // to itself): the id its writer gives it.
    ctx.typed_slot_canon(id as usize)
        .map(V::back_ref)
        .ok_or_else(|| too_large_or_skipped(id, at))
}

/// `Deserialize::begin_ref` of a dynamic form.
#[inline(always)]
pub(super) fn begin_ref_dyn(ctx: &mut ReadContext<'_, '_>, slot: usize) {
    if ctx.values_canonical() {
        let node = ctx.peek_canon();
        ctx.set_ref(slot, RefSlot::Node(node));
    }
}

/// `Deserialize::keep_ref` of a dynamic form.
#[inline(always)]
pub(super) fn keep_ref_dyn<'de, V: DynValue<'de>>(
    v: V,
    ctx: &mut ReadContext<'de, '_>,
    slot: usize,
) -> V {
    if !ctx.values_canonical() {
        ctx.set_ref(slot, RefSlot::Plain);
        return v;
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
        match copy_size(&v, ctx.copy_allowance()) {
            Some(size) => {
                ctx.spend_copy(size);
                V::keep_copy(v.clone(), ctx, slot);
            }
            None => ctx.set_ref(slot, RefSlot::Plain),
        }
    }
    v
}

/// A back reference to a value the writer gives no id would need more copying than the
/// stream's allowance (`ReadContext::copy_allowance`).
#[cold]
fn too_large(id: u32, at: usize) -> crate::Error {
    crate::Error::at(
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
fn too_large_or_skipped(id: u32, at: usize) -> crate::Error {
    crate::Error::at(
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
/// whichever form reads it (and a `ValueRef`'s `to_owned` is bounded like a `Value`).
fn copy_size<'de, V: DynValue<'de>>(v: &V, limit: usize) -> Option<usize> {
    fn add<'de, V: DynValue<'de>>(v: &V, total: &mut usize, limit: usize) -> Option<()> {
        *total = total.saturating_add(std::mem::size_of::<Value>());
        add_heap(v, total, limit)
    }
    fn add_heap<'de, V: DynValue<'de>>(v: &V, total: &mut usize, limit: usize) -> Option<()> {
        let own = match v.holds() {
            Holds::Bytes(n) => n,
            Holds::Items(xs) => {
                for x in xs {
                    add(x, total, limit)?;
                }
                0
            }
            Holds::Pairs(ps) => {
                for (k, x) in ps {
                    add(k, total, limit)?;
                    add(x, total, limit)?;
                }
                0
            }
            Holds::Fields(fs) => {
                for (name, x) in fs {
                    *total = total.saturating_add(name.len());
                    add(x, total, limit)?;
                }
                std::mem::size_of::<crate::value::StructValue>()
            }
            Holds::Case(x) => {
                add(x, total, limit)?;
                std::mem::size_of::<super::UnionValue>()
            }
        };
        *total = total.saturating_add(own);
        (*total <= limit).then_some(())
    }
    let mut total = 0;
    add_heap(v, &mut total, limit).map(|()| total)
}

#[inline(never)]
fn read_leaf<'de>(ctx: &mut ReadContext<'de, '_>, id: TypeId) -> Result<Value> {
    let r = &mut ctx.reader;
    Ok(match id {
        TypeId::None => Value::Null,
        TypeId::Bool => Value::Bool(r.bool()?),
        TypeId::Int8 => Value::Int8(r.i8()?),
        TypeId::Int16 => Value::Int16(r.i16()?),
        TypeId::Int32 => Value::Int32(r.i32()?),
        TypeId::VarInt32 => Value::VarInt32(r.var_i32()?),
        TypeId::Int64 => Value::Int64(r.i64()?),
        TypeId::VarInt64 => Value::VarInt64(r.var_i64()?),
        TypeId::TaggedInt64 => Value::TaggedInt64(r.tagged_i64()?),
        TypeId::UInt8 => Value::UInt8(r.u8()?),
        TypeId::UInt16 => Value::UInt16(r.u16()?),
        TypeId::UInt32 => Value::UInt32(r.u32()?),
        TypeId::VarUInt32 => Value::VarUInt32(r.var_u32()?),
        TypeId::UInt64 => Value::UInt64(r.u64()?),
        TypeId::VarUInt64 => Value::VarUInt64(r.var_u64()?),
        TypeId::TaggedUInt64 => Value::TaggedUInt64(r.tagged_u64()?),
        TypeId::Float16 => Value::Float16(crate::F16(r.u16()?)),
        TypeId::BFloat16 => Value::BFloat16(crate::BF16(r.u16()?)),
        TypeId::Float32 => Value::Float32(r.f32()?),
        TypeId::Float64 => Value::Float64(r.f64()?),
        TypeId::String => Value::String(String::read_data(ctx)?),
        TypeId::Binary => Value::Binary(ctx.binary()?.to_vec()),
        TypeId::Duration => Value::Duration(crate::Duration::read_data(ctx)?),
        TypeId::Timestamp => Value::Timestamp(crate::Timestamp::read_data(ctx)?),
        TypeId::Date => Value::Date(crate::Date::read_data(ctx)?),
        TypeId::Decimal => Value::Decimal(crate::Decimal::read_data(ctx)?),
        TypeId::BoolArray => Value::BoolArray(read_dense(ctx)?),
        TypeId::Int8Array => Value::Int8Array(read_dense(ctx)?),
        TypeId::Int16Array => Value::Int16Array(read_dense(ctx)?),
        TypeId::Int32Array => Value::Int32Array(read_dense(ctx)?),
        TypeId::Int64Array => Value::Int64Array(read_dense(ctx)?),
        TypeId::UInt8Array => Value::UInt8Array(read_dense(ctx)?),
        TypeId::UInt16Array => Value::UInt16Array(read_dense(ctx)?),
        TypeId::UInt32Array => Value::UInt32Array(read_dense(ctx)?),
        TypeId::UInt64Array => Value::UInt64Array(read_dense(ctx)?),
        TypeId::Float16Array => Value::Float16Array(read_dense(ctx)?),
        TypeId::BFloat16Array => Value::BFloat16Array(read_dense(ctx)?),
        TypeId::Float32Array => Value::Float32Array(read_dense(ctx)?),
        TypeId::Float64Array => Value::Float64Array(read_dense(ctx)?),
        other => {
            return Err(ctx.error(ErrorKind::Unsupported {
                what: format!("type {} in a dynamic Value", other.name()),
            }))
        }
    })
}
