//! The type-id table and the one-byte flags of the xlang format.

use crate::error::ErrorKind;

pub(crate) use fury_types::{snake, table};

/// Internal type ids of the xlang format, as pyfory 1.7.7 and the official crates number them.
///
/// On the wire a type id is one byte; the user-registered kinds (`Enum`, `Struct`, `Ext`,
/// `TypedUnion`) are followed by a varuint32 user id, the named kinds by meta strings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
#[allow(missing_docs)] // the variants are the spec's names; see `TypeId::name`
pub enum TypeId {
    Unknown = 0,
    Bool = 1,
    Int8 = 2,
    Int16 = 3,
    Int32 = 4,
    VarInt32 = 5,
    Int64 = 6,
    VarInt64 = 7,
    TaggedInt64 = 8,
    UInt8 = 9,
    UInt16 = 10,
    UInt32 = 11,
    VarUInt32 = 12,
    UInt64 = 13,
    VarUInt64 = 14,
    TaggedUInt64 = 15,
    Float8 = 16,
    Float16 = 17,
    BFloat16 = 18,
    Float32 = 19,
    Float64 = 20,
    String = 21,
    List = 22,
    Set = 23,
    Map = 24,
    Enum = 25,
    NamedEnum = 26,
    Struct = 27,
    CompatibleStruct = 28,
    NamedStruct = 29,
    NamedCompatibleStruct = 30,
    Ext = 31,
    NamedExt = 32,
    Union = 33,
    TypedUnion = 34,
    NamedUnion = 35,
    None = 36,
    Duration = 37,
    Timestamp = 38,
    Date = 39,
    Decimal = 40,
    Binary = 41,
    Array = 42,
    BoolArray = 43,
    Int8Array = 44,
    Int16Array = 45,
    Int32Array = 46,
    Int64Array = 47,
    UInt8Array = 48,
    UInt16Array = 49,
    UInt32Array = 50,
    UInt64Array = 51,
    Float8Array = 52,
    Float16Array = 53,
    BFloat16Array = 54,
    Float32Array = 55,
    Float64Array = 56,
}

/// Every id in wire order; `ALL[i] as u8 == i`.
const ALL: [TypeId; 57] = {
    use TypeId::*;
    [
        Unknown,
        Bool,
        Int8,
        Int16,
        Int32,
        VarInt32,
        Int64,
        VarInt64,
        TaggedInt64,
        UInt8,
        UInt16,
        UInt32,
        VarUInt32,
        UInt64,
        VarUInt64,
        TaggedUInt64,
        Float8,
        Float16,
        BFloat16,
        Float32,
        Float64,
        String,
        List,
        Set,
        Map,
        Enum,
        NamedEnum,
        Struct,
        CompatibleStruct,
        NamedStruct,
        NamedCompatibleStruct,
        Ext,
        NamedExt,
        Union,
        TypedUnion,
        NamedUnion,
        None,
        Duration,
        Timestamp,
        Date,
        Decimal,
        Binary,
        Array,
        BoolArray,
        Int8Array,
        Int16Array,
        Int32Array,
        Int64Array,
        UInt8Array,
        UInt16Array,
        UInt32Array,
        UInt64Array,
        Float8Array,
        Float16Array,
        BFloat16Array,
        Float32Array,
        Float64Array,
    ]
};

impl TypeId {
    /// The id for a wire byte, if it names an internal type.
    #[inline]
    pub fn from_u8(b: u8) -> Option<TypeId> {
        ALL.get(b as usize).copied()
    }

    /// Like [`TypeId::from_u8`] but an error kind for unknown ids.
    #[inline]
    pub fn parse(b: u8) -> std::result::Result<TypeId, ErrorKind> {
        Self::from_u8(b).ok_or(ErrorKind::UnknownTypeId { id: b })
    }

    /// The spec's upper-case name, e.g. `VARINT32`.
    pub fn name(self) -> &'static str {
        self.row().name
    }

    /// This type's row of the wire-type table.
    #[inline]
    pub(crate) const fn row(self) -> &'static table::TypeRow {
        &table::WIRE_TYPES[self as usize]
    }

    /// True for the fixed-size scalar kinds (bool, integers, floats) that struct field
    /// ordering treats as primitives.
    pub const fn is_primitive(self) -> bool {
        table::is_primitive(self as u8)
    }

    /// True for the kinds followed on the wire by a varuint32 user type id.
    #[inline]
    pub fn has_user_id(self) -> bool {
        self.row().user_id
    }

    /// Whether a writer gives a value of this kind a reference id when tracking is on: the
    /// kinds the type table marks tracked (containers, binary, time values) and the structs.
    pub(crate) fn is_tracked(self) -> bool {
        let row = self.row();
        row.tracked || row.family == table::Family::Struct
    }

    /// Whether a value of this kind takes a reference id as an element of a tracked list of
    /// mixed types: every kind but the inline ones (bool, the integers, float32/64, string)
    /// and the null, as pyfory writes every object there through its reference table but
    /// Python's `str`, `int`, `bool` and `float` (spec 09 §9.5).
    pub(crate) fn is_tracked_among_mixed(self) -> bool {
        use table::Family;
        let inline = match self.row().family {
            Family::Bool | Family::Int | Family::String => true,
            Family::Float => matches!(self, TypeId::Float32 | TypeId::Float64),
            Family::None => true,
            _ => false,
        };
        !inline
    }
}

impl std::fmt::Display for TypeId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The reference/null flag written before a value whose nullness or identity is not implied.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RefFlag {
    /// `-3` (0xfd): the value is null; nothing follows.
    Null,
    /// `-2` (0xfe): a back reference; a varuint32 reference id follows.
    Ref,
    /// `-1` (0xff): a non-null value that is not reference-tracked follows.
    NotNull,
    /// `0` (0x00): a non-null value that takes the next reference id follows.
    RefValue,
}

impl RefFlag {
    /// The flag as its wire byte.
    #[inline]
    pub const fn byte(self) -> u8 {
        match self {
            RefFlag::Null => 0xfd,
            RefFlag::Ref => 0xfe,
            RefFlag::NotNull => 0xff,
            RefFlag::RefValue => 0x00,
        }
    }

    /// Parses a wire byte.
    #[inline]
    pub fn parse(b: u8) -> std::result::Result<RefFlag, ErrorKind> {
        match b {
            0xfd => Ok(RefFlag::Null),
            0xfe => Ok(RefFlag::Ref),
            0xff => Ok(RefFlag::NotNull),
            0x00 => Ok(RefFlag::RefValue),
            _ => Err(ErrorKind::BadRefFlag { byte: b }),
        }
    }
}

/// Bits of the one-byte stream header.
pub mod header {
    /// Set when the stream uses the cross-language format (always, for this crate).
    pub const XLANG: u8 = 0x01;
    /// Set when buffers were written out of band.
    pub const OUT_OF_BAND: u8 = 0x02;
    /// Bits that must be zero.
    pub const RESERVED: u8 = !(XLANG | OUT_OF_BAND);
}

/// Bits of the elements header of a list or set.
pub mod elements {
    /// Elements carry reference flags.
    pub const TRACK_REF: u8 = 0x01;
    /// Elements carry null flags (some may be null).
    pub const HAS_NULL: u8 = 0x02;
    /// Elements are of the declared element type; no type info is written.
    pub const DECL_TYPE: u8 = 0x04;
    /// All elements share one type, written once after the header.
    pub const SAME_TYPE: u8 = 0x08;
}

/// Bits of a map chunk header.
pub mod kv {
    /// Keys carry reference flags.
    pub const KEY_TRACK_REF: u8 = 0x01;
    /// This chunk's key is null (a one-pair chunk without size byte).
    pub const KEY_NULL: u8 = 0x02;
    /// Keys are of the declared key type.
    pub const KEY_DECL_TYPE: u8 = 0x04;
    /// Values carry reference flags.
    pub const VALUE_TRACK_REF: u8 = 0x08;
    /// This chunk's value is null (a one-pair chunk without size byte).
    pub const VALUE_NULL: u8 = 0x10;
    /// Values are of the declared value type.
    pub const VALUE_DECL_TYPE: u8 = 0x20;
    /// Most pairs in one chunk.
    pub const MAX_CHUNK: usize = 255;
}

/// String header encodings (low two bits of the string header).
pub mod string_encoding {
    /// ISO-8859-1, one byte per char.
    pub const LATIN1: u64 = 0;
    /// UTF-16 little-endian.
    pub const UTF16: u64 = 1;
    /// UTF-8.
    pub const UTF8: u64 = 2;
}

#[cfg(test)]
mod tests {
    use super::{table, TypeId};

    #[test]
    fn the_enum_and_the_table_agree() {
        for (i, row) in table::WIRE_TYPES.iter().enumerate() {
            assert_eq!(row.id as usize, i, "{}", row.name);
            let id = TypeId::from_u8(row.id).map(|t| t as u8);
            assert_eq!(id, Some(row.id), "{}", row.name);
        }
        assert_eq!(TypeId::from_u8(table::WIRE_TYPES.len() as u8), None);
    }

    /// The Python tools read the table from `spec/wire-types.json`; this keeps it current.
    /// `FURY_BLESS=1 cargo test -p fury --lib wire_types_json` rewrites it.
    #[test]
    fn wire_types_json_is_current() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../spec/wire-types.json");
        let want = table::wire_types_json();
        if std::env::var_os("FURY_BLESS").is_some() {
            std::fs::write(path, &want).unwrap();
        }
        let have = std::fs::read_to_string(path).unwrap_or_default();
        assert!(
            have == want,
            "spec/wire-types.json is stale: run with FURY_BLESS=1"
        );
    }
}
