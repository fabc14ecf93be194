//! The tree of a dynamic value, in either [`Form`] ([`Value`] owns its leaves, [`ValueRef`]
//! borrows them from the input): [`DynamicValue`], and the structs ([`DynamicStruct`]) and
//! unions ([`UnionValue`]) it holds, which hold dynamic values in turn.

use super::form::{Borrowed, Elements, Form, Owned};
use super::user_type::{DynType, EnumValue};
use crate::float16::{BF16, F16};
use crate::registry::RemoteTypeDef;
use crate::temporal::{Date, Duration, Timestamp};
use crate::types::TypeId;
use std::sync::Arc;

/// A dynamically typed xlang value, like `serde_json::Value` for this type system.
///
/// Every variant records the wire type it came from (e.g. [`Value::VarInt32`] vs
/// [`Value::Int32`]), so decoding and re-encoding a stream of built-in types gives the same
/// bytes, apart from strings that the peer wrote as LATIN1 with non-ASCII characters or as
/// UTF-16 (re-encoded as UTF-8). Maps keep their pairs in wire order.
///
/// ```
/// use fury::{Fury, Value};
/// let fury = Fury::default();
/// // pyfory's bytes for [1, "a"]: a list of mixed types
/// let bytes = [0x01, 0xff, 0x16, 0x02, 0x00, 0x07, 0x02, 0x15, 0x04, 0x61];
/// let v: Value = fury.deserialize(&bytes).unwrap();
/// assert_eq!(v, Value::List(vec![Value::VarInt64(1), Value::String("a".into())]));
/// assert_eq!(fury.serialize(&v).unwrap(), bytes);
/// ```
///
/// `Value` is the [`Owned`] form of [`DynamicValue`]; [`ValueRef`] is the same enum with its
/// text, byte strings and numeric arrays borrowed from the input. Both are read and written
/// by one implementation, so they accept, refuse and write exactly the same streams.
pub type Value = DynamicValue<Owned>;

/// A dynamically typed value like [`Value`], whose strings, byte strings and numeric arrays
/// stay in the input: decoding a stream of unknown shape copies none of them.
///
/// The variants are `Value`'s ([`DynamicValue`] in the [`Borrowed`] form), with these
/// leaves borrowed:
///
/// | wire type | `Value` | `ValueRef<'de>` |
/// |---|---|---|
/// | STRING | `String` | `Cow<'de, str>`: borrowed when the input holds UTF-8 (a UTF-8 payload, or LATIN1 that is all ASCII), owned for LATIN1 beyond ASCII and UTF-16 |
/// | BINARY, UINT8_ARRAY | `Vec<u8>` | `&'de [u8]` |
/// | INT8_ARRAY | `Vec<i8>` | `&'de [i8]` |
/// | the other numeric arrays but BOOL_ARRAY | `Vec<T>` | [`ArrayView<'de, T>`](crate::ArrayView) |
///
/// BOOL_ARRAY stays a `Vec<bool>` (its bytes are checked), and containers, structs
/// ([`StructRef`](crate::StructRef)), enums, unions and back references (numbered as for
/// [`Value::Ref`]) are as in `Value`. [`to_owned`](ValueRef::to_owned) gives the `Value` that
/// the same bytes decode to, and a `ValueRef` writes the bytes that value writes.
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
pub type ValueRef<'de> = DynamicValue<Borrowed<'de>>;

/// A dynamically typed xlang value in the form `F`: use it as [`Value`] (owned leaves) or
/// [`ValueRef`] (leaves borrowed from the input).
#[derive(Debug, Clone, PartialEq)]
pub enum DynamicValue<F: Form> {
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
    /// STRING
    String(F::Str),
    /// BINARY
    Binary(F::Bytes),
    /// DURATION
    Duration(Duration),
    /// TIMESTAMP
    Timestamp(Timestamp),
    /// DATE
    Date(Date),
    /// DECIMAL
    Decimal(crate::Decimal),
    /// LIST
    List(Vec<DynamicValue<F>>),
    /// SET (elements in wire order)
    Set(Vec<DynamicValue<F>>),
    /// MAP (pairs in wire order)
    Map(Vec<(DynamicValue<F>, DynamicValue<F>)>),
    /// BOOL_ARRAY
    BoolArray(Vec<bool>),
    /// INT8_ARRAY
    Int8Array(F::Int8s),
    /// INT16_ARRAY
    Int16Array(F::Array<i16>),
    /// INT32_ARRAY
    Int32Array(F::Array<i32>),
    /// INT64_ARRAY
    Int64Array(F::Array<i64>),
    /// UINT8_ARRAY
    UInt8Array(F::Bytes),
    /// UINT16_ARRAY
    UInt16Array(F::Array<u16>),
    /// UINT32_ARRAY
    UInt32Array(F::Array<u32>),
    /// UINT64_ARRAY
    UInt64Array(F::Array<u64>),
    /// FLOAT16_ARRAY
    Float16Array(F::Array<F16>),
    /// BFLOAT16_ARRAY
    BFloat16Array(F::Array<BF16>),
    /// FLOAT32_ARRAY
    Float32Array(F::Array<f32>),
    /// FLOAT64_ARRAY
    Float64Array(F::Array<f64>),
    /// ENUM / NAMED_ENUM: the variant id, and the enum's registration where the stream
    /// gave it (a value in an `any` position does; one in a field its TypeDef declares an
    /// enum does not).
    Enum(EnumValue),
    /// A struct decoded from its TypeDef (compatible mode) without a local type.
    Struct(Box<DynamicStruct<F>>),
    /// TYPED_UNION / NAMED_UNION / a declared UNION: the case id, the case value and the
    /// union's registration where the stream gave it.
    Union(Box<UnionValue<DynamicValue<F>>>),
    /// A back reference (reference tracking) to the value that took reference id `.0`:
    /// ids count, in stream order from 0, the values a writer flags REF_VALUE (the root,
    /// and values of the tracked kinds: containers, binary, time values, structs), so a
    /// decoded value writes back to bytes that decode to it (spec 09 §9.12). Kept as a
    /// reference rather than a copy, so shared and cyclic graphs decode in bounded memory.
    Ref(u32),
}

impl<F: Form> DynamicValue<F> {
    /// The wire type of this value (`NONE` for a null).
    pub fn type_id(&self) -> TypeId {
        use DynamicValue as V;
        match self {
            V::Null => TypeId::None,
            V::Bool(_) => TypeId::Bool,
            V::Int8(_) => TypeId::Int8,
            V::Int16(_) => TypeId::Int16,
            V::Int32(_) => TypeId::Int32,
            V::VarInt32(_) => TypeId::VarInt32,
            V::Int64(_) => TypeId::Int64,
            V::VarInt64(_) => TypeId::VarInt64,
            V::TaggedInt64(_) => TypeId::TaggedInt64,
            V::UInt8(_) => TypeId::UInt8,
            V::UInt16(_) => TypeId::UInt16,
            V::UInt32(_) => TypeId::UInt32,
            V::VarUInt32(_) => TypeId::VarUInt32,
            V::UInt64(_) => TypeId::UInt64,
            V::VarUInt64(_) => TypeId::VarUInt64,
            V::TaggedUInt64(_) => TypeId::TaggedUInt64,
            V::Float16(_) => TypeId::Float16,
            V::BFloat16(_) => TypeId::BFloat16,
            V::Float32(_) => TypeId::Float32,
            V::Float64(_) => TypeId::Float64,
            V::String(_) => TypeId::String,
            V::Binary(_) => TypeId::Binary,
            V::Duration(_) => TypeId::Duration,
            V::Timestamp(_) => TypeId::Timestamp,
            V::Date(_) => TypeId::Date,
            V::Decimal(_) => TypeId::Decimal,
            V::List(_) => TypeId::List,
            V::Set(_) => TypeId::Set,
            V::Map(_) => TypeId::Map,
            V::BoolArray(_) => TypeId::BoolArray,
            V::Int8Array(_) => TypeId::Int8Array,
            V::Int16Array(_) => TypeId::Int16Array,
            V::Int32Array(_) => TypeId::Int32Array,
            V::Int64Array(_) => TypeId::Int64Array,
            V::UInt8Array(_) => TypeId::UInt8Array,
            V::UInt16Array(_) => TypeId::UInt16Array,
            V::UInt32Array(_) => TypeId::UInt32Array,
            V::UInt64Array(_) => TypeId::UInt64Array,
            V::Float16Array(_) => TypeId::Float16Array,
            V::BFloat16Array(_) => TypeId::BFloat16Array,
            V::Float32Array(_) => TypeId::Float32Array,
            V::Float64Array(_) => TypeId::Float64Array,
            V::Enum(_) => TypeId::Enum,
            V::Ref(_) => TypeId::Unknown,
            V::Struct(_) => TypeId::NamedCompatibleStruct,
            V::Union(..) => TypeId::TypedUnion,
        }
    }

    /// True for a null.
    pub fn is_null(&self) -> bool {
        matches!(self, DynamicValue::Null)
    }

    /// The integer value of any integer variant, widened to `i128`.
    ///
    /// ```
    /// use fury::Value;
    /// assert_eq!(Value::VarUInt64(u64::MAX).as_i128(), Some(u64::MAX as i128));
    /// assert_eq!(Value::Float32(1.0).as_i128(), None);
    /// ```
    pub fn as_i128(&self) -> Option<i128> {
        use DynamicValue as V;
        Some(match *self {
            V::Int8(v) => v as i128,
            V::Int16(v) => v as i128,
            V::Int32(v) | V::VarInt32(v) => v as i128,
            V::Int64(v) | V::VarInt64(v) | V::TaggedInt64(v) => v as i128,
            V::UInt8(v) => v as i128,
            V::UInt16(v) => v as i128,
            V::UInt32(v) | V::VarUInt32(v) => v as i128,
            V::UInt64(v) | V::VarUInt64(v) | V::TaggedUInt64(v) => v as i128,
            _ => return None,
        })
    }

    /// The text of a STRING.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            DynamicValue::String(s) => Some(s),
            _ => None,
        }
    }

    /// Compares two values treating floats by bit pattern (so `NaN` equals the same `NaN`
    /// and `0.0` differs from `-0.0`), which is what "the same bytes" needs.
    ///
    /// ```
    /// use fury::Value;
    /// assert!(Value::Float64(f64::NAN).bitwise_eq(&Value::Float64(f64::NAN)));
    /// assert!(!Value::Float64(0.0).bitwise_eq(&Value::Float64(-0.0)));
    /// ```
    pub fn bitwise_eq(&self, other: &Self) -> bool {
        use DynamicValue as V;
        fn same_bits<T: Copy, A: Elements<T> + ?Sized, B: Elements<T> + ?Sized>(
            a: &A,
            b: &B,
            bits: impl Fn(T) -> u64,
        ) -> bool {
            a.len() == b.len()
                && a.to_vec()
                    .into_iter()
                    .map(&bits)
                    .eq(b.to_vec().into_iter().map(&bits))
        }
        match (self, other) {
            (V::Float32(a), V::Float32(b)) => a.to_bits() == b.to_bits(),
            (V::Float64(a), V::Float64(b)) => a.to_bits() == b.to_bits(),
            (V::Float32Array(a), V::Float32Array(b)) => {
                same_bits(a, b, |x: f32| x.to_bits().into())
            }
            (V::Float64Array(a), V::Float64Array(b)) => same_bits(a, b, f64::to_bits),
            (V::List(a), V::List(b)) | (V::Set(a), V::Set(b)) => {
                a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.bitwise_eq(y))
            }
            (V::Union(a), V::Union(b)) => {
                a.case == b.case && a.type_name() == b.type_name() && a.value.bitwise_eq(&b.value)
            }
            (V::Struct(a), V::Struct(b)) => {
                a.type_name == b.type_name
                    && a.fields.len() == b.fields.len()
                    && a.fields
                        .iter()
                        .zip(&b.fields)
                        .all(|((n1, v1), (n2, v2))| n1 == n2 && v1.bitwise_eq(v2))
            }
            (V::Map(a), V::Map(b)) => {
                a.len() == b.len()
                    && a.iter()
                        .zip(b)
                        .all(|((k1, v1), (k2, v2))| k1.bitwise_eq(k2) && v1.bitwise_eq(v2))
            }
            _ => self == other,
        }
    }

    /// The [`Value`] of this value: itself for a `Value`, every borrowed leaf copied for a
    /// [`ValueRef`].
    pub(crate) fn owned(&self) -> Value {
        use DynamicValue as V;
        match self {
            V::Null => V::Null,
            V::Bool(v) => V::Bool(*v),
            V::Int8(v) => V::Int8(*v),
            V::Int16(v) => V::Int16(*v),
            V::Int32(v) => V::Int32(*v),
            V::VarInt32(v) => V::VarInt32(*v),
            V::Int64(v) => V::Int64(*v),
            V::VarInt64(v) => V::VarInt64(*v),
            V::TaggedInt64(v) => V::TaggedInt64(*v),
            V::UInt8(v) => V::UInt8(*v),
            V::UInt16(v) => V::UInt16(*v),
            V::UInt32(v) => V::UInt32(*v),
            V::VarUInt32(v) => V::VarUInt32(*v),
            V::UInt64(v) => V::UInt64(*v),
            V::VarUInt64(v) => V::VarUInt64(*v),
            V::TaggedUInt64(v) => V::TaggedUInt64(*v),
            V::Float16(v) => V::Float16(*v),
            V::BFloat16(v) => V::BFloat16(*v),
            V::Float32(v) => V::Float32(*v),
            V::Float64(v) => V::Float64(*v),
            V::String(s) => V::String(s.to_string()),
            V::Binary(b) => V::Binary(b.to_vec()),
            V::Duration(v) => V::Duration(*v),
            V::Timestamp(v) => V::Timestamp(*v),
            V::Date(v) => V::Date(*v),
            V::Decimal(v) => V::Decimal(v.clone()),
            V::List(xs) => V::List(xs.iter().map(Self::owned).collect()),
            V::Set(xs) => V::Set(xs.iter().map(Self::owned).collect()),
            V::Map(ps) => V::Map(ps.iter().map(|(k, v)| (k.owned(), v.owned())).collect()),
            V::BoolArray(a) => V::BoolArray(a.clone()),
            V::Int8Array(a) => V::Int8Array(a.to_vec()),
            V::Int16Array(a) => V::Int16Array(a.to_vec()),
            V::Int32Array(a) => V::Int32Array(a.to_vec()),
            V::Int64Array(a) => V::Int64Array(a.to_vec()),
            V::UInt8Array(a) => V::UInt8Array(a.to_vec()),
            V::UInt16Array(a) => V::UInt16Array(a.to_vec()),
            V::UInt32Array(a) => V::UInt32Array(a.to_vec()),
            V::UInt64Array(a) => V::UInt64Array(a.to_vec()),
            V::Float16Array(a) => V::Float16Array(a.to_vec()),
            V::BFloat16Array(a) => V::BFloat16Array(a.to_vec()),
            V::Float32Array(a) => V::Float32Array(a.to_vec()),
            V::Float64Array(a) => V::Float64Array(a.to_vec()),
            V::Enum(e) => V::Enum(e.clone()),
            V::Struct(s) => V::Struct(Box::new(s.owned())),
            V::Union(u) => V::Union(Box::new(u.map(Self::owned))),
            V::Ref(id) => V::Ref(*id),
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
        self.owned()
    }

    /// The bytes of a BINARY or UINT8_ARRAY, borrowed from the input.
    pub fn as_bytes(&self) -> Option<&'de [u8]> {
        match self {
            DynamicValue::Binary(b) | DynamicValue::UInt8Array(b) => Some(b),
            _ => None,
        }
    }
}

macro_rules! from_impl {
    ($($t:ty => $v:ident),* $(,)?) => {$(
        impl<F: Form> From<$t> for DynamicValue<F> {
            fn from(x: $t) -> Self {
                DynamicValue::$v(x)
            }
        }
    )*};
}

from_impl!(
    bool => Bool, i8 => Int8, i16 => Int16, i32 => VarInt32, i64 => VarInt64, u8 => UInt8,
    u16 => UInt16, u32 => VarUInt32, u64 => VarUInt64, f32 => Float32, f64 => Float64,
    F16 => Float16, BF16 => BFloat16, Duration => Duration, Timestamp => Timestamp,
    Date => Date,
);

impl From<String> for Value {
    fn from(s: String) -> Value {
        Value::String(s)
    }
}

impl From<&str> for Value {
    fn from(s: &str) -> Value {
        Value::String(s.to_string())
    }
}

impl<F: Form> From<Vec<DynamicValue<F>>> for DynamicValue<F> {
    fn from(items: Vec<DynamicValue<F>>) -> Self {
        DynamicValue::List(items)
    }
}

impl<F: Form, T: Into<DynamicValue<F>>> From<Option<T>> for DynamicValue<F> {
    fn from(o: Option<T>) -> Self {
        o.map_or(DynamicValue::Null, Into::into)
    }
}

/// A struct known only through the peer's TypeDef: its registration and named fields.
///
/// # Writing
///
/// A `StructValue` writes in compatible mode only (same-schema bodies start with a schema
/// hash computed from the declared Rust types, which a dynamic value does not have; writing
/// one there is an [`ErrorKind::Unsupported`](crate::ErrorKind) error naming the struct).
/// Its schema, in this order of preference:
///
/// 1. the TypeDef it was read with: a `StructValue` decoded from a stream keeps the peer's
///    TypeDef, and writes it back byte for byte (registration, field names, field types,
///    field order as read), with the fields in that order;
/// 2. otherwise (a value built with [`StructValue::new`]), the TypeDef of the struct the
///    writing [`Fury`](crate::Fury) has registered under `type_name` (`#<id>` for an id,
///    `namespace.name` or `name` for a name).
///
/// Each field value must fit its declared type exactly: the same wire type for a leaf
/// (`Value::VarInt32` for a VARINT32 field, not `Value::Int32`), `Value::Enum` for an enum
/// field, a null only where the field is nullable or `any`, and one value for every field
/// of the schema and none other. Anything else is an error naming the struct and the field;
/// nothing is written that would read back differently.
///
/// ```
/// use fury::{Fury, FuryObject, StructValue, Value};
///
/// #[derive(FuryObject, Debug, PartialEq)]
/// struct Point {
///     x: i32,
///     y: i32,
/// }
///
/// let mut fury = Fury::builder().compatible(true).build();
/// fury.register_by_id::<Point>(100).unwrap();
/// let bytes = fury.serialize(&Point { x: 1, y: 2 }).unwrap();
///
/// // Another process, which does not know `Point`, reads and writes it back unchanged.
/// let reader = Fury::builder().compatible(true).build();
/// let v: Value = reader.deserialize(&bytes).unwrap();
/// let Value::Struct(s) = &v else { panic!("not a struct") };
/// assert_eq!(s.type_name, "#100");
/// assert!(s.has_typedef());
/// assert_eq!(format!("{s:?}"), "#100 { x: VarInt32(1), y: VarInt32(2) }");
/// assert_eq!(reader.serialize(&v).unwrap(), bytes);
///
/// // A value built by hand takes the schema of the registered type.
/// let built = Value::Struct(Box::new(StructValue::new(
///     "#100",
///     vec![("x".into(), Value::VarInt32(1)), ("y".into(), Value::VarInt32(2))],
/// )));
/// assert_eq!(fury.serialize(&built).unwrap(), bytes);
/// ```
pub type StructValue = DynamicStruct<Owned>;

/// A struct known only through the peer's TypeDef, with borrowed field values: the
/// [`StructValue`] of a [`ValueRef`](crate::ValueRef).
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
pub type StructRef<'de> = DynamicStruct<Borrowed<'de>>;

/// A struct of a [`DynamicValue`] in the form `F`: use it as [`StructValue`] or
/// [`StructRef`].
#[derive(Clone)]
pub struct DynamicStruct<F: Form> {
    /// `namespace.name`, `name`, or `#<user type id>` for a type registered by id.
    pub type_name: String,
    /// Field names (or `#<tag id>`) and values, in wire order.
    pub fields: Vec<(String, DynamicValue<F>)>,
    /// The TypeDef the value was read with, if it was read from a stream.
    typedef: Option<Arc<RemoteTypeDef>>,
}

/// Equality compares the type name and the fields; the TypeDef a value was read with is
/// not part of it (a value read from a stream equals the same value built by hand).
impl<F: Form> PartialEq for DynamicStruct<F> {
    fn eq(&self, other: &Self) -> bool {
        self.type_name == other.type_name && self.fields == other.fields
    }
}

/// The registered name and the fields, as a struct literal: `#100 { x: VarInt32(1) }`.
impl<F: Form> std::fmt::Debug for DynamicStruct<F> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut s = f.debug_struct(&self.type_name);
        for (name, value) in &self.fields {
            s.field(name, value);
        }
        s.finish()
    }
}

impl<F: Form> DynamicStruct<F> {
    /// A struct value without a TypeDef: it writes with the schema of the struct registered
    /// under `type_name` (see [`StructValue`]).
    pub fn new(type_name: impl Into<String>, fields: Vec<(String, DynamicValue<F>)>) -> Self {
        DynamicStruct {
            type_name: type_name.into(),
            fields,
            typedef: None,
        }
    }

    /// A struct value read with the TypeDef `typedef`.
    pub(crate) fn with_typedef(
        type_name: String,
        fields: Vec<(String, DynamicValue<F>)>,
        typedef: Arc<RemoteTypeDef>,
    ) -> Self {
        DynamicStruct {
            type_name,
            fields,
            typedef: Some(typedef),
        }
    }

    /// Whether the value carries the TypeDef it was read with (and writes with it).
    pub fn has_typedef(&self) -> bool {
        self.typedef.is_some()
    }

    /// The TypeDef the value was read with, if any.
    pub(crate) fn typedef(&self) -> Option<&Arc<RemoteTypeDef>> {
        self.typedef.as_ref()
    }

    /// Forgets the TypeDef the value was read with, so that it writes with the schema of
    /// the registered struct (after fields were added, removed or retyped).
    pub fn clear_typedef(&mut self) {
        self.typedef = None;
    }

    /// The value of the field named `name`, if present.
    pub fn get(&self, name: &str) -> Option<&DynamicValue<F>> {
        self.fields.iter().find(|(n, _)| n == name).map(|(_, v)| v)
    }

    /// The owned struct value: the same fields, owned, and the same TypeDef.
    pub(crate) fn owned(&self) -> StructValue {
        DynamicStruct {
            type_name: self.type_name.clone(),
            fields: self
                .fields
                .iter()
                .map(|(n, v)| (n.clone(), v.owned()))
                .collect(),
            typedef: self.typedef.clone(),
        }
    }
}

impl StructRef<'_> {
    /// The owned struct value: the same fields, owned, and the same TypeDef.
    pub fn to_owned(&self) -> StructValue {
        self.owned()
    }
}

/// A value of a tagged union: its case id, the case's value ([`Value::Null`] for an empty
/// case), and the union's registration where it is known.
///
/// As for [`EnumValue`], a union read from an `any` position keeps its type info (TYPED_UNION
/// and the id, or NAMED_UNION and the name) and writes it back; one read from a field its
/// TypeDef declares UNION has none and writes in declared positions only.
///
/// ```
/// use fury::{Fury, UnionValue, Value};
///
/// // pyfory 1.7.7's bytes for a union registered with id 300, case 3 holding "hi"
/// let bytes = [0x01, 0xff, 0x22, 0xac, 0x02, 0x03, 0xff, 0x15, 0x08, 0x68, 0x69];
/// let fury = Fury::builder().compatible(false).build();
/// let v: Value = fury.deserialize(&bytes).unwrap();
/// let hand = UnionValue::named("#300", 3, Value::String("hi".into()));
/// assert_eq!(v, Value::Union(Box::new(hand)));
/// assert_eq!(fury.serialize(&v).unwrap(), bytes);
/// ```
///
/// The same struct, with `V` = [`ValueRef`](crate::ValueRef), is the union of a borrowed
/// dynamic value ([`UnionRef`]).
#[derive(Clone)]
pub struct UnionValue<V = Value> {
    /// The case id.
    pub case: u32,
    /// The case's value; the null ([`Value::Null`]) for an empty case.
    pub value: V,
    ty: DynType,
}

impl<V> UnionValue<V> {
    /// A case without its union's registration: for fields whose TypeDef declares a union.
    pub fn new(case: u32, value: V) -> Self {
        UnionValue {
            case,
            value,
            ty: DynType::Untyped,
        }
    }

    /// A case of the union registered as `type_name` (`#<id>`, `namespace.name` or `name`,
    /// as for [`EnumValue::named`]).
    pub fn named(type_name: &str, case: u32, value: V) -> Self {
        UnionValue {
            case,
            value,
            ty: DynType::parse(type_name),
        }
    }

    /// The union's registration as `#<id>`, `namespace.name` or `name`, if known.
    pub fn type_name(&self) -> Option<String> {
        self.ty.display()
    }

    /// The same case and registration with the value mapped by `f` (from a borrowed union to
    /// an owned one, say).
    ///
    /// ```
    /// use fury::{UnionValue, Value};
    ///
    /// let u = UnionValue::named("#300", 2, 7i64);
    /// let v = u.map(|n| Value::VarInt64(*n));
    /// assert_eq!((v.case, v.type_name()), (2, Some("#300".to_string())));
    /// assert_eq!(v.value, Value::VarInt64(7));
    /// ```
    pub fn map<W>(&self, f: impl FnOnce(&V) -> W) -> UnionValue<W> {
        UnionValue {
            case: self.case,
            value: f(&self.value),
            ty: self.ty.clone(),
        }
    }

    pub(crate) fn same_type<W>(&self, other: &UnionValue<W>) -> bool {
        self.ty.same(&other.ty)
    }

    /// A case read with the registration `ty`.
    pub(crate) fn with_type(case: u32, value: V, ty: DynType) -> Self {
        UnionValue { case, value, ty }
    }

    /// The registration the value writes its type info with.
    pub(crate) fn dyn_type(&self) -> &DynType {
        &self.ty
    }
}

/// The case, its value and the registration's name, not how the stream gave it.
impl<V: std::fmt::Debug> std::fmt::Debug for UnionValue<V> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("UnionValue")
            .field("case", &self.case)
            .field("value", &self.value)
            .field("type_name", &self.type_name())
            .finish()
    }
}

/// Two union values are equal when their case ids, values and type names are.
impl<V: PartialEq> PartialEq for UnionValue<V> {
    fn eq(&self, other: &Self) -> bool {
        self.case == other.case
            && self.value == other.value
            && self.ty.display() == other.ty.display()
    }
}

/// The union of a borrowed dynamic value ([`ValueRef`](crate::ValueRef)).
pub type UnionRef<'de> = UnionValue<ValueRef<'de>>;
