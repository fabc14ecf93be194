//! [`Value`]: any stream of built-in types, decoded without knowing its shape.

mod borrowed;
mod codec;
mod user_type;
mod write;

pub use borrowed::{StructRef, UnionRef, ValueRef};
pub(crate) use user_type::DynType;
pub use user_type::{EnumValue, UnionValue};

use crate::float16::{BF16, F16};
use crate::temporal::{Date, Duration, Timestamp};
use crate::types::TypeId;

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
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
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
    String(String),
    /// BINARY
    Binary(Vec<u8>),
    /// DURATION
    Duration(Duration),
    /// TIMESTAMP
    Timestamp(Timestamp),
    /// DATE
    Date(Date),
    /// DECIMAL
    Decimal(crate::Decimal),
    /// LIST
    List(Vec<Value>),
    /// SET (elements in wire order)
    Set(Vec<Value>),
    /// MAP (pairs in wire order)
    Map(Vec<(Value, Value)>),
    /// BOOL_ARRAY
    BoolArray(Vec<bool>),
    /// INT8_ARRAY
    Int8Array(Vec<i8>),
    /// INT16_ARRAY
    Int16Array(Vec<i16>),
    /// INT32_ARRAY
    Int32Array(Vec<i32>),
    /// INT64_ARRAY
    Int64Array(Vec<i64>),
    /// UINT8_ARRAY
    UInt8Array(Vec<u8>),
    /// UINT16_ARRAY
    UInt16Array(Vec<u16>),
    /// UINT32_ARRAY
    UInt32Array(Vec<u32>),
    /// UINT64_ARRAY
    UInt64Array(Vec<u64>),
    /// FLOAT16_ARRAY
    Float16Array(Vec<F16>),
    /// BFLOAT16_ARRAY
    BFloat16Array(Vec<BF16>),
    /// FLOAT32_ARRAY
    Float32Array(Vec<f32>),
    /// FLOAT64_ARRAY
    Float64Array(Vec<f64>),
    /// ENUM / NAMED_ENUM: the variant id, and the enum's registration where the stream
    /// gave it (a value in an `any` position does; one in a field its TypeDef declares an
    /// enum does not).
    Enum(EnumValue),
    /// A struct decoded from its TypeDef (compatible mode) without a local type.
    Struct(Box<StructValue>),
    /// TYPED_UNION / NAMED_UNION / a declared UNION: the case id, the case value and the
    /// union's registration where the stream gave it.
    Union(Box<UnionValue>),
    /// A back reference (reference tracking) to the value that took reference id `.0`:
    /// ids count, in stream order from 0, the values a writer flags REF_VALUE (the root,
    /// and values of the tracked kinds: containers, binary, time values, structs), so a
    /// decoded `Value` writes back to bytes that decode to it (spec 09 §9.12). Kept as a
    /// reference rather than a copy, so shared and cyclic graphs decode in bounded memory.
    Ref(u32),
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
/// assert_eq!(reader.serialize(&v).unwrap(), bytes);
///
/// // A value built by hand takes the schema of the registered type.
/// let built = Value::Struct(Box::new(StructValue::new(
///     "#100",
///     vec![("x".into(), Value::VarInt32(1)), ("y".into(), Value::VarInt32(2))],
/// )));
/// assert_eq!(fury.serialize(&built).unwrap(), bytes);
/// ```
#[derive(Debug, Clone)]
pub struct StructValue {
    /// `namespace.name`, `name`, or `#<user type id>` for a type registered by id.
    pub type_name: String,
    /// Field names (or `#<tag id>`) and values, in wire order.
    pub fields: Vec<(String, Value)>,
    /// The TypeDef the value was read with, if it was read from a stream.
    typedef: Option<std::sync::Arc<crate::registry::RemoteTypeDef>>,
}

/// Equality compares the type name and the fields; the TypeDef a value was read with is
/// not part of it (a value read from a stream equals the same value built by hand).
impl PartialEq for StructValue {
    fn eq(&self, other: &Self) -> bool {
        self.type_name == other.type_name && self.fields == other.fields
    }
}

impl StructValue {
    /// A struct value without a TypeDef: it writes with the schema of the struct registered
    /// under `type_name` (see the type's documentation).
    pub fn new(type_name: impl Into<String>, fields: Vec<(String, Value)>) -> Self {
        StructValue {
            type_name: type_name.into(),
            fields,
            typedef: None,
        }
    }

    pub(crate) fn with_typedef(
        type_name: String,
        fields: Vec<(String, Value)>,
        typedef: std::sync::Arc<crate::registry::RemoteTypeDef>,
    ) -> Self {
        StructValue {
            type_name,
            fields,
            typedef: Some(typedef),
        }
    }

    /// Whether the value carries the TypeDef it was read with (and writes with it).
    pub fn has_typedef(&self) -> bool {
        self.typedef.is_some()
    }

    /// Forgets the TypeDef the value was read with, so that it writes with the schema of
    /// the registered struct (after fields were added, removed or retyped).
    pub fn clear_typedef(&mut self) {
        self.typedef = None;
    }

    /// The value of the field named `name`, if present.
    pub fn get(&self, name: &str) -> Option<&Value> {
        self.fields.iter().find(|(n, _)| n == name).map(|(_, v)| v)
    }
}

impl Value {
    /// The wire type of this value (`NONE` for [`Value::Null`]).
    pub fn type_id(&self) -> TypeId {
        match self {
            Value::Null => TypeId::None,
            Value::Bool(_) => TypeId::Bool,
            Value::Int8(_) => TypeId::Int8,
            Value::Int16(_) => TypeId::Int16,
            Value::Int32(_) => TypeId::Int32,
            Value::VarInt32(_) => TypeId::VarInt32,
            Value::Int64(_) => TypeId::Int64,
            Value::VarInt64(_) => TypeId::VarInt64,
            Value::TaggedInt64(_) => TypeId::TaggedInt64,
            Value::UInt8(_) => TypeId::UInt8,
            Value::UInt16(_) => TypeId::UInt16,
            Value::UInt32(_) => TypeId::UInt32,
            Value::VarUInt32(_) => TypeId::VarUInt32,
            Value::UInt64(_) => TypeId::UInt64,
            Value::VarUInt64(_) => TypeId::VarUInt64,
            Value::TaggedUInt64(_) => TypeId::TaggedUInt64,
            Value::Float16(_) => TypeId::Float16,
            Value::BFloat16(_) => TypeId::BFloat16,
            Value::Float32(_) => TypeId::Float32,
            Value::Float64(_) => TypeId::Float64,
            Value::String(_) => TypeId::String,
            Value::Binary(_) => TypeId::Binary,
            Value::Duration(_) => TypeId::Duration,
            Value::Timestamp(_) => TypeId::Timestamp,
            Value::Date(_) => TypeId::Date,
            Value::Decimal(_) => TypeId::Decimal,
            Value::List(_) => TypeId::List,
            Value::Set(_) => TypeId::Set,
            Value::Map(_) => TypeId::Map,
            Value::BoolArray(_) => TypeId::BoolArray,
            Value::Int8Array(_) => TypeId::Int8Array,
            Value::Int16Array(_) => TypeId::Int16Array,
            Value::Int32Array(_) => TypeId::Int32Array,
            Value::Int64Array(_) => TypeId::Int64Array,
            Value::UInt8Array(_) => TypeId::UInt8Array,
            Value::UInt16Array(_) => TypeId::UInt16Array,
            Value::UInt32Array(_) => TypeId::UInt32Array,
            Value::UInt64Array(_) => TypeId::UInt64Array,
            Value::Float16Array(_) => TypeId::Float16Array,
            Value::BFloat16Array(_) => TypeId::BFloat16Array,
            Value::Float32Array(_) => TypeId::Float32Array,
            Value::Float64Array(_) => TypeId::Float64Array,
            Value::Enum(_) => TypeId::Enum,
            Value::Ref(_) => TypeId::Unknown,
            Value::Struct(_) => TypeId::NamedCompatibleStruct,
            Value::Union(..) => TypeId::TypedUnion,
        }
    }

    /// True for [`Value::Null`].
    pub fn is_null(&self) -> bool {
        matches!(self, Value::Null)
    }

    /// The integer value of any integer variant, widened to `i128`.
    pub fn as_i128(&self) -> Option<i128> {
        Some(match *self {
            Value::Int8(v) => v as i128,
            Value::Int16(v) => v as i128,
            Value::Int32(v) | Value::VarInt32(v) => v as i128,
            Value::Int64(v) | Value::VarInt64(v) | Value::TaggedInt64(v) => v as i128,
            Value::UInt8(v) => v as i128,
            Value::UInt16(v) => v as i128,
            Value::UInt32(v) | Value::VarUInt32(v) => v as i128,
            Value::UInt64(v) | Value::VarUInt64(v) | Value::TaggedUInt64(v) => v as i128,
            _ => return None,
        })
    }

    /// The string of a [`Value::String`].
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(s) => Some(s),
            _ => None,
        }
    }

    /// Compares two values treating floats by bit pattern (so `NaN` equals the same `NaN`
    /// and `0.0` differs from `-0.0`), which is what "the same bytes" needs.
    pub fn bitwise_eq(&self, other: &Value) -> bool {
        use Value::*;
        match (self, other) {
            (Float32(a), Float32(b)) => a.to_bits() == b.to_bits(),
            (Float64(a), Float64(b)) => a.to_bits() == b.to_bits(),
            (Float32Array(a), Float32Array(b)) => {
                a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.to_bits() == y.to_bits())
            }
            (Float64Array(a), Float64Array(b)) => {
                a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.to_bits() == y.to_bits())
            }
            (List(a), List(b)) | (Set(a), Set(b)) => {
                a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.bitwise_eq(y))
            }
            (Union(a), Union(b)) => {
                a.case == b.case && a.type_name() == b.type_name() && a.value.bitwise_eq(&b.value)
            }
            (Struct(a), Struct(b)) => {
                a.type_name == b.type_name
                    && a.fields.len() == b.fields.len()
                    && a.fields
                        .iter()
                        .zip(&b.fields)
                        .all(|((n1, v1), (n2, v2))| n1 == n2 && v1.bitwise_eq(v2))
            }
            (Map(a), Map(b)) => {
                a.len() == b.len()
                    && a.iter()
                        .zip(b)
                        .all(|((k1, v1), (k2, v2))| k1.bitwise_eq(k2) && v1.bitwise_eq(v2))
            }
            _ => self == other,
        }
    }
}

macro_rules! from_impl {
    ($($t:ty => $v:ident),* $(,)?) => {$(
        impl From<$t> for Value {
            fn from(x: $t) -> Value {
                Value::$v(x)
            }
        }
    )*};
}

from_impl!(
    bool => Bool, i8 => Int8, i16 => Int16, i32 => VarInt32, i64 => VarInt64, u8 => UInt8,
    u16 => UInt16, u32 => VarUInt32, u64 => VarUInt64, f32 => Float32, f64 => Float64,
    F16 => Float16, BF16 => BFloat16, String => String, Duration => Duration,
    Timestamp => Timestamp, Date => Date, Vec<Value> => List,
);

impl From<&str> for Value {
    fn from(s: &str) -> Value {
        Value::String(s.to_string())
    }
}

impl<T: Into<Value>> From<Option<T>> for Value {
    fn from(o: Option<T>) -> Value {
        o.map_or(Value::Null, Into::into)
    }
}
