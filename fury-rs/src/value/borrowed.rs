//! [`ValueRef`]: a [`Value`] that borrows its text and bytes from the input. Read by the
//! reader `Value` has (`codec::DynValue`), written through `Value`'s writer.

use super::codec::{
    begin_ref_dyn, from_ref_dyn, keep_ref_dyn, read_root_dyn, read_type_info_rest_dyn,
    read_typed_dyn, write_dyn_ref_flag, write_leaf, DynValue, Holds,
};
use super::{EnumValue, StructValue, UnionValue, Value};
use crate::buffer::ArrayView;
use crate::context::{ReadContext, RefSlot, WriteContext};
use crate::error::{ErrorKind, Result};
use crate::float16::{BF16, F16};
use crate::registry::{Registry, RemoteTypeDef};
use crate::serializer::array::{read_dense, write_dense};
use crate::serializer::declared::Dynamic;
use crate::serializer::{write_elements, write_map, BorrowCow, Deserialize, Serialize, WireType};
use crate::temporal::{Date, Duration, Timestamp};
use crate::types::TypeId;
use std::borrow::Cow;
use std::sync::Arc;

/// A dynamically typed value like [`Value`], whose strings, byte strings and numeric arrays
/// stay in the input: decoding a stream of unknown shape copies none of them.
///
/// The variants are `Value`'s, with these leaves borrowed:
///
/// | wire type | `Value` | `ValueRef<'de>` |
/// |---|---|---|
/// | STRING | `String` | `Cow<'de, str>`: borrowed when the input holds UTF-8 (a UTF-8 payload, or LATIN1 that is all ASCII), owned for LATIN1 beyond ASCII and UTF-16 |
/// | BINARY, UINT8_ARRAY | `Vec<u8>` | `&'de [u8]` |
/// | INT8_ARRAY | `Vec<i8>` | `&'de [i8]` |
/// | INT16/32/64, UINT16/32/64, FLOAT32/64 arrays | `Vec<T>` | [`ArrayView<'de, T>`] |
///
/// BOOL_ARRAY, FLOAT16_ARRAY and BFLOAT16_ARRAY stay owned vectors (their elements are
/// checked or converted), and containers, structs ([`StructRef`]), enums, unions and back
/// references ([`ValueRef::Ref`], numbered as for [`Value::Ref`]) are as in `Value`.
/// [`to_owned`](ValueRef::to_owned) gives the `Value` that the same bytes decode to, and a
/// `ValueRef` writes the bytes that value writes.
///
/// A `ValueRef` is read as a whole stream, or inside containers of it
/// (`Vec<ValueRef<'de>>`, ...), with the input's lifetime.
///
/// ```
/// use fury::{Fury, Value, ValueRef};
/// let fury = Fury::default();
/// // pyfory's bytes for [1, "a"]: a list of mixed types
/// let bytes = [0x01, 0xff, 0x16, 0x02, 0x00, 0x07, 0x02, 0x15, 0x04, 0x61];
/// let v: ValueRef = fury.deserialize(&bytes).unwrap();
/// let ValueRef::List(items) = &v else { panic!("not a list") };
/// let text = items[1].as_str().unwrap();
/// assert_eq!(text, "a");
/// // The text is the input's last byte, not a copy of it.
/// assert!(std::ptr::eq(text.as_ptr(), &bytes[9]));
///
/// assert_eq!(v.to_owned(), Value::List(vec![Value::VarInt64(1), Value::String("a".into())]));
/// assert_eq!(fury.serialize(&v).unwrap(), bytes);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub enum ValueRef<'de> {
    /// A null (the NULL flag, or the NONE type).
    Null,
    /// BOOL
    Bool(bool),
    /// INT8
    Int8(i8),
    /// INT16
    Int16(i16),
    /// INT32 (fixed 4 bytes)
    Int32(i32),
    /// VARINT32
    VarInt32(i32),
    /// INT64 (fixed 8 bytes)
    Int64(i64),
    /// VARINT64
    VarInt64(i64),
    /// TAGGED_INT64
    TaggedInt64(i64),
    /// UINT8
    UInt8(u8),
    /// UINT16
    UInt16(u16),
    /// UINT32 (fixed 4 bytes)
    UInt32(u32),
    /// VAR_UINT32
    VarUInt32(u32),
    /// UINT64 (fixed 8 bytes)
    UInt64(u64),
    /// VAR_UINT64
    VarUInt64(u64),
    /// TAGGED_UINT64
    TaggedUInt64(u64),
    /// FLOAT16
    Float16(F16),
    /// BFLOAT16
    BFloat16(BF16),
    /// FLOAT32
    Float32(f32),
    /// FLOAT64
    Float64(f64),
    /// STRING: borrowed when the input holds it as UTF-8 (see the type's documentation).
    String(Cow<'de, str>),
    /// BINARY
    Binary(&'de [u8]),
    /// DURATION
    Duration(Duration),
    /// TIMESTAMP
    Timestamp(Timestamp),
    /// DATE
    Date(Date),
    /// DECIMAL
    Decimal(crate::Decimal),
    /// LIST
    List(Vec<ValueRef<'de>>),
    /// SET (elements in wire order)
    Set(Vec<ValueRef<'de>>),
    /// MAP (pairs in wire order)
    Map(Vec<(ValueRef<'de>, ValueRef<'de>)>),
    /// BOOL_ARRAY
    BoolArray(Vec<bool>),
    /// INT8_ARRAY
    Int8Array(&'de [i8]),
    /// INT16_ARRAY
    Int16Array(ArrayView<'de, i16>),
    /// INT32_ARRAY
    Int32Array(ArrayView<'de, i32>),
    /// INT64_ARRAY
    Int64Array(ArrayView<'de, i64>),
    /// UINT8_ARRAY
    UInt8Array(&'de [u8]),
    /// UINT16_ARRAY
    UInt16Array(ArrayView<'de, u16>),
    /// UINT32_ARRAY
    UInt32Array(ArrayView<'de, u32>),
    /// UINT64_ARRAY
    UInt64Array(ArrayView<'de, u64>),
    /// FLOAT16_ARRAY
    Float16Array(ArrayView<'de, F16>),
    /// BFLOAT16_ARRAY
    BFloat16Array(ArrayView<'de, BF16>),
    /// FLOAT32_ARRAY
    Float32Array(ArrayView<'de, f32>),
    /// FLOAT64_ARRAY
    Float64Array(ArrayView<'de, f64>),
    /// ENUM / NAMED_ENUM, as [`Value::Enum`].
    Enum(EnumValue),
    /// A struct decoded from its TypeDef (compatible mode) without a local type.
    Struct(Box<StructRef<'de>>),
    /// TYPED_UNION / NAMED_UNION, or a field declared UNION: the case id, the case value
    /// (`ValueRef::Null` for an empty case) and the union's registration, as
    /// [`Value::Union`].
    Union(Box<UnionRef<'de>>),
    /// A back reference to the value that took reference id `.0`, numbered as
    /// [`Value::Ref`] is.
    Ref(u32),
}

/// The union of a [`ValueRef`]: a [`UnionValue`] whose case value borrows.
pub type UnionRef<'de> = UnionValue<ValueRef<'de>>;

/// A struct known only through the peer's TypeDef, with borrowed field values: the
/// [`StructValue`] of a [`ValueRef`].
///
/// ```
/// use fury::{Fury, FuryObject, ValueRef};
///
/// #[derive(FuryObject)]
/// #[fury(id = 100)]
/// struct Note<'a> {
///     title: &'a str,
///     pages: i32,
/// }
///
/// let mut fury = Fury::builder().compatible(true).build();
/// fury.register::<Note>().unwrap();
/// let bytes = fury.serialize(&Note { title: "fury", pages: 3 }).unwrap();
///
/// // A reader that does not know `Note`.
/// let reader = Fury::builder().compatible(true).build();
/// let v: ValueRef = reader.deserialize(&bytes).unwrap();
/// let ValueRef::Struct(s) = &v else { panic!("not a struct") };
/// assert_eq!(s.type_name, "#100");
/// assert_eq!(s.get("title").and_then(ValueRef::as_str), Some("fury"));
/// assert_eq!(reader.serialize(&v).unwrap(), bytes);
/// ```
#[derive(Debug, Clone)]
pub struct StructRef<'de> {
    /// `namespace.name`, `name`, or `#<user type id>` for a type registered by id.
    pub type_name: String,
    /// Field names (or `#<tag id>`) and values, in wire order.
    pub fields: Vec<(String, ValueRef<'de>)>,
    /// The TypeDef the value was read with, if it was read from a stream.
    typedef: Option<Arc<RemoteTypeDef>>,
}

/// Equality compares the type name and the fields, as for [`StructValue`].
impl PartialEq for StructRef<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.type_name == other.type_name && self.fields == other.fields
    }
}

impl<'de> StructRef<'de> {
    /// A struct value without a TypeDef: it writes with the schema of the struct registered
    /// under `type_name` (see [`StructValue`]).
    pub fn new(type_name: impl Into<String>, fields: Vec<(String, ValueRef<'de>)>) -> Self {
        StructRef {
            type_name: type_name.into(),
            fields,
            typedef: None,
        }
    }

    /// Whether the value carries the TypeDef it was read with (and writes with it).
    pub fn has_typedef(&self) -> bool {
        self.typedef.is_some()
    }

    /// The value of the field named `name`, if present.
    pub fn get(&self, name: &str) -> Option<&ValueRef<'de>> {
        self.fields.iter().find(|(n, _)| n == name).map(|(_, v)| v)
    }

    /// The owned struct value: the same fields, owned, and the same TypeDef.
    pub fn to_owned(&self) -> StructValue {
        StructValue {
            type_name: self.type_name.clone(),
            fields: self
                .fields
                .iter()
                .map(|(n, v)| (n.clone(), v.to_owned()))
                .collect(),
            typedef: self.typedef.clone(),
        }
    }

    fn head(&self) -> super::write::StructHead<'_> {
        super::write::StructHead {
            type_name: &self.type_name,
            typedef: self.typedef.as_ref(),
        }
    }
}

impl<'de> ValueRef<'de> {
    /// The [`Value`] these bytes decode to: every borrowed string, byte string and array
    /// copied.
    ///
    /// ```
    /// use fury::{Fury, Value, ValueRef};
    /// let fury = Fury::default();
    /// let bytes = fury.serialize(&vec![1i32, 2, 3]).unwrap();
    /// let v: ValueRef = fury.deserialize(&bytes).unwrap();
    /// assert_eq!(v.to_owned(), Value::Int32Array(vec![1, 2, 3]));
    /// ```
    pub fn to_owned(&self) -> Value {
        match self {
            ValueRef::Null => Value::Null,
            ValueRef::Bool(v) => Value::Bool(*v),
            ValueRef::Int8(v) => Value::Int8(*v),
            ValueRef::Int16(v) => Value::Int16(*v),
            ValueRef::Int32(v) => Value::Int32(*v),
            ValueRef::VarInt32(v) => Value::VarInt32(*v),
            ValueRef::Int64(v) => Value::Int64(*v),
            ValueRef::VarInt64(v) => Value::VarInt64(*v),
            ValueRef::TaggedInt64(v) => Value::TaggedInt64(*v),
            ValueRef::UInt8(v) => Value::UInt8(*v),
            ValueRef::UInt16(v) => Value::UInt16(*v),
            ValueRef::UInt32(v) => Value::UInt32(*v),
            ValueRef::VarUInt32(v) => Value::VarUInt32(*v),
            ValueRef::UInt64(v) => Value::UInt64(*v),
            ValueRef::VarUInt64(v) => Value::VarUInt64(*v),
            ValueRef::TaggedUInt64(v) => Value::TaggedUInt64(*v),
            ValueRef::Float16(v) => Value::Float16(*v),
            ValueRef::BFloat16(v) => Value::BFloat16(*v),
            ValueRef::Float32(v) => Value::Float32(*v),
            ValueRef::Float64(v) => Value::Float64(*v),
            ValueRef::String(s) => Value::String(s.to_string()),
            ValueRef::Binary(b) => Value::Binary(b.to_vec()),
            ValueRef::Duration(v) => Value::Duration(*v),
            ValueRef::Timestamp(v) => Value::Timestamp(*v),
            ValueRef::Date(v) => Value::Date(*v),
            ValueRef::Decimal(v) => Value::Decimal(v.clone()),
            ValueRef::List(xs) => Value::List(xs.iter().map(ValueRef::to_owned).collect()),
            ValueRef::Set(xs) => Value::Set(xs.iter().map(ValueRef::to_owned).collect()),
            ValueRef::Map(ps) => Value::Map(
                ps.iter()
                    .map(|(k, v)| (k.to_owned(), v.to_owned()))
                    .collect(),
            ),
            ValueRef::BoolArray(a) => Value::BoolArray(a.clone()),
            ValueRef::Int8Array(a) => Value::Int8Array(a.to_vec()),
            ValueRef::Int16Array(a) => Value::Int16Array(a.to_vec()),
            ValueRef::Int32Array(a) => Value::Int32Array(a.to_vec()),
            ValueRef::Int64Array(a) => Value::Int64Array(a.to_vec()),
            ValueRef::UInt8Array(a) => Value::UInt8Array(a.to_vec()),
            ValueRef::UInt16Array(a) => Value::UInt16Array(a.to_vec()),
            ValueRef::UInt32Array(a) => Value::UInt32Array(a.to_vec()),
            ValueRef::UInt64Array(a) => Value::UInt64Array(a.to_vec()),
            ValueRef::Float16Array(a) => Value::Float16Array(a.to_vec()),
            ValueRef::BFloat16Array(a) => Value::BFloat16Array(a.to_vec()),
            ValueRef::Float32Array(a) => Value::Float32Array(a.to_vec()),
            ValueRef::Float64Array(a) => Value::Float64Array(a.to_vec()),
            ValueRef::Enum(e) => Value::Enum(e.clone()),
            ValueRef::Struct(s) => Value::Struct(Box::new(StructRef::to_owned(s))),
            ValueRef::Union(u) => Value::Union(Box::new(u.map(ValueRef::to_owned))),
            ValueRef::Ref(id) => Value::Ref(*id),
        }
    }

    /// The wire type of this value (`NONE` for [`ValueRef::Null`]), as [`Value::type_id`].
    pub fn type_id(&self) -> TypeId {
        match self {
            ValueRef::Null => TypeId::None,
            ValueRef::Bool(_) => TypeId::Bool,
            ValueRef::Int8(_) => TypeId::Int8,
            ValueRef::Int16(_) => TypeId::Int16,
            ValueRef::Int32(_) => TypeId::Int32,
            ValueRef::VarInt32(_) => TypeId::VarInt32,
            ValueRef::Int64(_) => TypeId::Int64,
            ValueRef::VarInt64(_) => TypeId::VarInt64,
            ValueRef::TaggedInt64(_) => TypeId::TaggedInt64,
            ValueRef::UInt8(_) => TypeId::UInt8,
            ValueRef::UInt16(_) => TypeId::UInt16,
            ValueRef::UInt32(_) => TypeId::UInt32,
            ValueRef::VarUInt32(_) => TypeId::VarUInt32,
            ValueRef::UInt64(_) => TypeId::UInt64,
            ValueRef::VarUInt64(_) => TypeId::VarUInt64,
            ValueRef::TaggedUInt64(_) => TypeId::TaggedUInt64,
            ValueRef::Float16(_) => TypeId::Float16,
            ValueRef::BFloat16(_) => TypeId::BFloat16,
            ValueRef::Float32(_) => TypeId::Float32,
            ValueRef::Float64(_) => TypeId::Float64,
            ValueRef::String(_) => TypeId::String,
            ValueRef::Binary(_) => TypeId::Binary,
            ValueRef::Duration(_) => TypeId::Duration,
            ValueRef::Timestamp(_) => TypeId::Timestamp,
            ValueRef::Date(_) => TypeId::Date,
            ValueRef::Decimal(_) => TypeId::Decimal,
            ValueRef::List(_) => TypeId::List,
            ValueRef::Set(_) => TypeId::Set,
            ValueRef::Map(_) => TypeId::Map,
            ValueRef::BoolArray(_) => TypeId::BoolArray,
            ValueRef::Int8Array(_) => TypeId::Int8Array,
            ValueRef::Int16Array(_) => TypeId::Int16Array,
            ValueRef::Int32Array(_) => TypeId::Int32Array,
            ValueRef::Int64Array(_) => TypeId::Int64Array,
            ValueRef::UInt8Array(_) => TypeId::UInt8Array,
            ValueRef::UInt16Array(_) => TypeId::UInt16Array,
            ValueRef::UInt32Array(_) => TypeId::UInt32Array,
            ValueRef::UInt64Array(_) => TypeId::UInt64Array,
            ValueRef::Float16Array(_) => TypeId::Float16Array,
            ValueRef::BFloat16Array(_) => TypeId::BFloat16Array,
            ValueRef::Float32Array(_) => TypeId::Float32Array,
            ValueRef::Float64Array(_) => TypeId::Float64Array,
            ValueRef::Enum(_) => TypeId::Enum,
            ValueRef::Ref(_) => TypeId::Unknown,
            ValueRef::Struct(_) => TypeId::NamedCompatibleStruct,
            ValueRef::Union(..) => TypeId::TypedUnion,
        }
    }

    /// True for [`ValueRef::Null`].
    pub fn is_null(&self) -> bool {
        matches!(self, ValueRef::Null)
    }

    /// The string of a [`ValueRef::String`].
    pub fn as_str(&self) -> Option<&str> {
        match self {
            ValueRef::String(s) => Some(s),
            _ => None,
        }
    }

    /// The bytes of a [`ValueRef::Binary`] or [`ValueRef::UInt8Array`].
    pub fn as_bytes(&self) -> Option<&'de [u8]> {
        match self {
            ValueRef::Binary(b) | ValueRef::UInt8Array(b) => Some(b),
            _ => None,
        }
    }
}

/// Reads the payload of a leaf of type `id`: what `Value`'s leaf reader reads, with text,
/// bytes and numeric arrays left in the input.
#[inline(never)]
fn read_leaf<'de>(ctx: &mut ReadContext<'de, '_>, id: TypeId) -> Result<ValueRef<'de>> {
    let r = &mut ctx.reader;
    Ok(match id {
        TypeId::None => ValueRef::Null,
        TypeId::Bool => ValueRef::Bool(r.bool()?),
        TypeId::Int8 => ValueRef::Int8(r.i8()?),
        TypeId::Int16 => ValueRef::Int16(r.i16()?),
        TypeId::Int32 => ValueRef::Int32(r.i32()?),
        TypeId::VarInt32 => ValueRef::VarInt32(r.var_i32()?),
        TypeId::Int64 => ValueRef::Int64(r.i64()?),
        TypeId::VarInt64 => ValueRef::VarInt64(r.var_i64()?),
        TypeId::TaggedInt64 => ValueRef::TaggedInt64(r.tagged_i64()?),
        TypeId::UInt8 => ValueRef::UInt8(r.u8()?),
        TypeId::UInt16 => ValueRef::UInt16(r.u16()?),
        TypeId::UInt32 => ValueRef::UInt32(r.u32()?),
        TypeId::VarUInt32 => ValueRef::VarUInt32(r.var_u32()?),
        TypeId::UInt64 => ValueRef::UInt64(r.u64()?),
        TypeId::VarUInt64 => ValueRef::VarUInt64(r.var_u64()?),
        TypeId::TaggedUInt64 => ValueRef::TaggedUInt64(r.tagged_u64()?),
        TypeId::Float16 => ValueRef::Float16(F16(r.u16()?)),
        TypeId::BFloat16 => ValueRef::BFloat16(BF16(r.u16()?)),
        TypeId::Float32 => ValueRef::Float32(r.f32()?),
        TypeId::Float64 => ValueRef::Float64(r.f64()?),
        TypeId::String => ValueRef::String(BorrowCow::<str>::read_data(ctx)?.0),
        TypeId::Binary => ValueRef::Binary(ctx.binary()?),
        TypeId::Duration => ValueRef::Duration(Duration::read_data(ctx)?),
        TypeId::Timestamp => ValueRef::Timestamp(Timestamp::read_data(ctx)?),
        TypeId::Date => ValueRef::Date(Date::read_data(ctx)?),
        TypeId::Decimal => ValueRef::Decimal(crate::Decimal::read_data(ctx)?),
        TypeId::BoolArray => ValueRef::BoolArray(read_dense(ctx)?),
        TypeId::Int8Array => ValueRef::Int8Array(<&[i8]>::read_data(ctx)?),
        TypeId::Int16Array => ValueRef::Int16Array(ArrayView::read_data(ctx)?),
        TypeId::Int32Array => ValueRef::Int32Array(ArrayView::read_data(ctx)?),
        TypeId::Int64Array => ValueRef::Int64Array(ArrayView::read_data(ctx)?),
        TypeId::UInt8Array => ValueRef::UInt8Array(<&[u8]>::read_typed(ctx, id)?),
        TypeId::UInt16Array => ValueRef::UInt16Array(ArrayView::read_data(ctx)?),
        TypeId::UInt32Array => ValueRef::UInt32Array(ArrayView::read_data(ctx)?),
        TypeId::UInt64Array => ValueRef::UInt64Array(ArrayView::read_data(ctx)?),
        TypeId::Float16Array => ValueRef::Float16Array(ArrayView::read_data(ctx)?),
        TypeId::BFloat16Array => ValueRef::BFloat16Array(ArrayView::read_data(ctx)?),
        TypeId::Float32Array => ValueRef::Float32Array(ArrayView::read_data(ctx)?),
        TypeId::Float64Array => ValueRef::Float64Array(ArrayView::read_data(ctx)?),
        other => {
            return Err(ctx.error(ErrorKind::Unsupported {
                what: format!("type {} in a dynamic ValueRef", other.name()),
            }))
        }
    })
}

impl<'de> Dynamic<'de> for ValueRef<'de> {
    const WRITTEN: bool = true;
    fn written_type(&self) -> Option<TypeId> {
        match self {
            ValueRef::Ref(_) | ValueRef::Null => None,
            other => Some(other.type_id()),
        }
    }
    fn list(items: Vec<Self>) -> Self {
        ValueRef::List(items)
    }
    fn set(items: Vec<Self>) -> Self {
        ValueRef::Set(items)
    }
    fn map(pairs: Vec<(Self, Self)>) -> Self {
        ValueRef::Map(pairs)
    }
    fn variant(id: u32) -> Self {
        ValueRef::Enum(EnumValue::new(id))
    }
}

impl<'de> DynValue<'de> for ValueRef<'de> {
    const NULL: Self = ValueRef::Null;
    #[inline]
    fn key() -> std::any::TypeId {
        std::any::TypeId::of::<ValueRef<'static>>()
    }
    #[inline]
    fn back_ref(id: u32) -> Self {
        ValueRef::Ref(id)
    }
    #[inline]
    fn enum_value(e: EnumValue) -> Self {
        ValueRef::Enum(e)
    }
    #[inline]
    fn union(u: UnionValue<Self>) -> Self {
        ValueRef::Union(Box::new(u))
    }
    #[inline]
    fn structure(type_name: String, fields: Vec<(String, Self)>, def: Arc<RemoteTypeDef>) -> Self {
        ValueRef::Struct(Box::new(StructRef {
            type_name,
            fields,
            typedef: Some(def),
        }))
    }
    #[inline]
    fn read_leaf(ctx: &mut ReadContext<'de, '_>, id: TypeId) -> Result<Self> {
        read_leaf(ctx, id)
    }
    /// Sized as the `Value` it stands for (borrowed text and bytes too): see `copy_size`.
    fn holds(&self) -> Holds<'_, Self> {
        Holds::Bytes(match self {
            ValueRef::String(s) => s.len(),
            ValueRef::Binary(b) | ValueRef::UInt8Array(b) => b.len(),
            ValueRef::BoolArray(a) => a.len(),
            ValueRef::Int8Array(a) => a.len(),
            ValueRef::Int16Array(a) => a.as_bytes().len(),
            ValueRef::UInt16Array(a) => a.as_bytes().len(),
            ValueRef::Float16Array(a) => a.as_bytes().len(),
            ValueRef::BFloat16Array(a) => a.as_bytes().len(),
            ValueRef::Int32Array(a) => a.as_bytes().len(),
            ValueRef::UInt32Array(a) => a.as_bytes().len(),
            ValueRef::Float32Array(a) => a.as_bytes().len(),
            ValueRef::Int64Array(a) => a.as_bytes().len(),
            ValueRef::UInt64Array(a) => a.as_bytes().len(),
            ValueRef::Float64Array(a) => a.as_bytes().len(),
            ValueRef::Decimal(_) => std::mem::size_of::<crate::Decimal>(),
            ValueRef::List(xs) | ValueRef::Set(xs) => return Holds::Items(xs),
            ValueRef::Map(ps) => return Holds::Pairs(ps),
            ValueRef::Struct(s) => return Holds::Fields(&s.fields),
            ValueRef::Union(u) => return Holds::Case(&u.value),
            _ => 0,
        })
    }
    #[inline]
    fn kept_copy<'c>(ctx: &'c ReadContext<'de, '_>, slot: &'c RefSlot) -> Option<&'c Self> {
        match slot {
            RefSlot::Borrowed(i) => ctx.borrowed_copy(*i),
            _ => None,
        }
    }
    fn keep_copy(copy: Self, ctx: &mut ReadContext<'de, '_>, slot: usize) {
        ctx.keep_borrowed_copy(slot, copy);
    }
}

/// Read exactly as [`Value`] is (the same checks, errors and reference numbering), with the
/// leaves borrowed.
impl<'de> Deserialize<'de> for ValueRef<'de> {
    const DYNAMIC_REFS: bool = true;

    fn read_data(ctx: &mut ReadContext<'de, '_>) -> Result<Self> {
        Err(ctx.error(ErrorKind::Invalid {
            what: "a declared element type where a dynamic ValueRef needs its type id".to_string(),
        }))
    }

    fn read_type_info_rest(ctx: &mut ReadContext<'de, '_>, id: TypeId) -> Result<()> {
        read_type_info_rest_dyn::<ValueRef<'de>>(ctx, id)
    }

    fn read_typed(ctx: &mut ReadContext<'de, '_>, id: TypeId) -> Result<Self> {
        read_typed_dyn(ctx, id)
    }

    #[inline]
    fn null() -> Option<Self> {
        Some(ValueRef::Null)
    }

    fn read_root(ctx: &mut ReadContext<'de, '_>) -> Result<Self> {
        read_root_dyn(ctx)
    }

    fn from_ref(ctx: &ReadContext<'de, '_>, id: u32, at: usize) -> Result<Self> {
        from_ref_dyn(ctx, id, at)
    }

    fn begin_ref(ctx: &mut ReadContext<'de, '_>, slot: usize) {
        begin_ref_dyn(ctx, slot)
    }

    fn keep_ref(self, ctx: &mut ReadContext<'de, '_>, slot: usize) -> Self {
        keep_ref_dyn(self, ctx, slot)
    }

    #[inline]
    fn missing() -> Option<Self> {
        Some(ValueRef::Null)
    }
}

impl WireType for ValueRef<'_> {
    /// Like a `Value`: its type info comes from the variant.
    const TYPE_ID: TypeId = TypeId::Unknown;
    const NULLABLE: bool = true;
    const FIELD_NULLABLE: bool = false;
    #[inline]
    fn needs_type_info(_registry: &Registry) -> bool {
        true
    }
}

/// Writes what [`ValueRef::to_owned`] writes, byte for byte: the same flags, type infos and
/// payloads (a struct through `Value`'s writer).
impl Serialize for ValueRef<'_> {
    fn visit_buffers<'v>(&'v self, out: &mut Vec<&'v [u8]>) {
        match self {
            ValueRef::Binary(b) => out.push(b),
            ValueRef::List(items) | ValueRef::Set(items) => {
                items.iter().for_each(|x| x.visit_buffers(out))
            }
            ValueRef::Map(pairs) => pairs.iter().for_each(|(k, v)| {
                k.visit_buffers(out);
                v.visit_buffers(out);
            }),
            ValueRef::Struct(s) => s.fields.iter().for_each(|(_, v)| v.visit_buffers(out)),
            ValueRef::Union(u) => u.value.visit_buffers(out),
            _ => {}
        }
    }

    fn write_type_info(&self, ctx: &mut WriteContext) -> Result<()> {
        let id = match self {
            ValueRef::Struct(s) => return super::write::struct_type_info(s.head(), ctx),
            ValueRef::Enum(e) => return super::user_type::write_enum_type_info(e, ctx),
            ValueRef::Union(u) => return super::user_type::write_union_type_info(u, ctx),
            ValueRef::Ref(r) => ctx.ref_type(*r).unwrap_or(TypeId::Unknown as u8),
            other => other.type_id() as u8,
        };
        ctx.writer.u8(id);
        Ok(())
    }

    fn write_data(&self, ctx: &mut WriteContext) -> Result<()> {
        match self {
            ValueRef::List(items) | ValueRef::Set(items) => {
                write_elements(items.len(), items.iter(), false, ctx)
            }
            ValueRef::Map(pairs) => {
                write_map(pairs.len(), pairs.iter().map(|(k, v)| (k, v)), false, ctx)
            }
            ValueRef::String(s) => s.as_ref().write_data(ctx),
            ValueRef::Binary(b) => ctx.binary(b),
            ValueRef::UInt8Array(b) => write_dense(b, ctx),
            ValueRef::Int8Array(a) => write_dense(a, ctx),
            ValueRef::BoolArray(a) => write_dense(a, ctx),
            ValueRef::Float16Array(a) => a.write_data(ctx),
            ValueRef::BFloat16Array(a) => a.write_data(ctx),
            ValueRef::Int16Array(a) => a.write_data(ctx),
            ValueRef::Int32Array(a) => a.write_data(ctx),
            ValueRef::Int64Array(a) => a.write_data(ctx),
            ValueRef::UInt16Array(a) => a.write_data(ctx),
            ValueRef::UInt32Array(a) => a.write_data(ctx),
            ValueRef::UInt64Array(a) => a.write_data(ctx),
            ValueRef::Float32Array(a) => a.write_data(ctx),
            ValueRef::Float64Array(a) => a.write_data(ctx),
            // The fields are written as the struct's TypeDef declares them: by `Value`'s writer.
            ValueRef::Struct(s) => super::write::struct_body(&StructRef::to_owned(s), ctx),
            // Numbers, time values, enums, nulls, and what `Value` refuses to write here (a
            // back reference, a union): a `Value` without a heap of its own.
            other => write_leaf(&other.to_owned(), ctx),
        }
    }

    #[inline]
    fn is_null(&self) -> bool {
        matches!(self, ValueRef::Null)
    }

    /// As for `Value`: a back reference joins any chunk; structs and enums share type info
    /// only when they write the same one.
    #[inline]
    fn same_type(&self, other: &Self) -> bool {
        match (self, other) {
            (_, ValueRef::Ref(_)) => true,
            (ValueRef::Ref(_), _) => false,
            (ValueRef::Struct(a), ValueRef::Struct(b)) => {
                super::write::same_struct_type(a.head(), b.head())
            }
            (ValueRef::Enum(a), ValueRef::Enum(b)) => a.same_type(b),
            (ValueRef::Union(a), ValueRef::Union(b)) => a.same_type(b),
            _ => self.type_id() == other.type_id(),
        }
    }

    #[inline]
    fn is_back_ref(&self) -> bool {
        matches!(self, ValueRef::Ref(_))
    }

    #[inline]
    fn is_ref_type(&self) -> bool {
        // The kinds pyfory tracks with reference tracking on (the type table's), and back
        // references.
        self.is_back_ref() || self.type_id().is_tracked()
    }

    #[inline]
    fn is_ref_among_mixed(&self) -> bool {
        !matches!(self, ValueRef::Ref(_)) && self.type_id().is_tracked_among_mixed()
    }

    fn write_ref_flag(&self, ctx: &mut WriteContext, track: bool) -> Result<bool> {
        let back_ref = match self {
            ValueRef::Ref(id) => Some(*id),
            _ => None,
        };
        write_dyn_ref_flag(back_ref, self.type_id(), track, ctx)
    }
}
