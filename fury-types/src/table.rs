//! The wire types of the xlang format, one row each: the one table that the runtime, the derive
//! and the Python tools (through `spec/wire-types.json`, which a test of `fury` keeps equal to
//! it) all read.

/// What kind of value a wire type carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// `UNKNOWN`: a declared type that says nothing (a dynamic field).
    Unknown,
    /// `BOOL`.
    Bool,
    /// The signed and unsigned integers, in every encoding.
    Int,
    /// The binary floating-point numbers.
    Float,
    /// `STRING`.
    String,
    /// `LIST`.
    List,
    /// `SET`.
    Set,
    /// `MAP`.
    Map,
    /// `ENUM`, `NAMED_ENUM`.
    Enum,
    /// The struct kinds, same-schema and compatible, by id and by name.
    Struct,
    /// `EXT`, `NAMED_EXT`: a user type with its own serializer.
    Ext,
    /// The union kinds.
    Union,
    /// `NONE`: the null of a dynamic value.
    None,
    /// `DURATION`, `TIMESTAMP`, `DATE`.
    Time,
    /// `DECIMAL`.
    Decimal,
    /// `BINARY`.
    Binary,
    /// `ARRAY` and the dense arrays of one primitive.
    Array,
}

impl Family {
    /// The family's name in `spec/wire-types.json`.
    pub const fn name(self) -> &'static str {
        match self {
            Family::Unknown => "unknown",
            Family::Bool => "bool",
            Family::Int => "int",
            Family::Float => "float",
            Family::String => "string",
            Family::List => "list",
            Family::Set => "set",
            Family::Map => "map",
            Family::Enum => "enum",
            Family::Struct => "struct",
            Family::Ext => "ext",
            Family::Union => "union",
            Family::None => "none",
            Family::Time => "time",
            Family::Decimal => "decimal",
            Family::Binary => "binary",
            Family::Array => "array",
        }
    }
}

/// One wire type.
#[derive(Clone, Copy, Debug)]
pub struct TypeRow {
    /// The type id byte.
    pub id: u8,
    /// The spec's upper-case name (`VARINT32`); its lower-case form is the name the
    /// conformance vectors use (`varint32`).
    pub name: &'static str,
    /// For the primitives (bool, integers, floats): the size in bytes of the value, which
    /// orders struct fields (a VARINT32 counts 4). 0 for every other type.
    pub size: u8,
    /// A variable-length integer encoding (varint or tagged): ordered after the fixed ones.
    pub compressed: bool,
    /// What kind of value it is.
    pub family: Family,
    /// Values of this type take a reference id when reference tracking is on and the
    /// position tracks references.
    pub tracked: bool,
    /// The kind byte is followed by a varuint32 user type id.
    pub user_id: bool,
}

const fn row(id: u8, name: &'static str, size: u8, compressed: bool, family: Family) -> TypeRow {
    // pyfory tracks containers, binary and the time types; not strings or scalars.
    let tracked = matches!(
        family,
        Family::List | Family::Set | Family::Map | Family::Binary | Family::Time
    );
    // The kinds registered by id (ENUM 25, STRUCT 27, EXT 31, TYPED_UNION 34).
    let user_id = matches!(id, 25 | 27 | 31 | 34);
    TypeRow {
        id,
        name,
        size,
        compressed,
        family,
        tracked,
        user_id,
    }
}

/// Every wire type, indexed by its id: `WIRE_TYPES[i].id == i`.
pub const WIRE_TYPES: [TypeRow; 57] = {
    use Family::*;
    [
        row(0, "UNKNOWN", 0, false, Unknown),
        row(1, "BOOL", 1, false, Bool),
        row(2, "INT8", 1, false, Int),
        row(3, "INT16", 2, false, Int),
        row(4, "INT32", 4, false, Int),
        row(5, "VARINT32", 4, true, Int),
        row(6, "INT64", 8, false, Int),
        row(7, "VARINT64", 8, true, Int),
        row(8, "TAGGED_INT64", 8, true, Int),
        row(9, "UINT8", 1, false, Int),
        row(10, "UINT16", 2, false, Int),
        row(11, "UINT32", 4, false, Int),
        row(12, "VAR_UINT32", 4, true, Int),
        row(13, "UINT64", 8, false, Int),
        row(14, "VAR_UINT64", 8, true, Int),
        row(15, "TAGGED_UINT64", 8, true, Int),
        row(16, "FLOAT8", 1, false, Float),
        row(17, "FLOAT16", 2, false, Float),
        row(18, "BFLOAT16", 2, false, Float),
        row(19, "FLOAT32", 4, false, Float),
        row(20, "FLOAT64", 8, false, Float),
        row(21, "STRING", 0, false, String),
        row(22, "LIST", 0, false, List),
        row(23, "SET", 0, false, Set),
        row(24, "MAP", 0, false, Map),
        row(25, "ENUM", 0, false, Enum),
        row(26, "NAMED_ENUM", 0, false, Enum),
        row(27, "STRUCT", 0, false, Struct),
        row(28, "COMPATIBLE_STRUCT", 0, false, Struct),
        row(29, "NAMED_STRUCT", 0, false, Struct),
        row(30, "NAMED_COMPATIBLE_STRUCT", 0, false, Struct),
        row(31, "EXT", 0, false, Ext),
        row(32, "NAMED_EXT", 0, false, Ext),
        row(33, "UNION", 0, false, Union),
        row(34, "TYPED_UNION", 0, false, Union),
        row(35, "NAMED_UNION", 0, false, Union),
        row(36, "NONE", 0, false, None),
        row(37, "DURATION", 0, false, Time),
        row(38, "TIMESTAMP", 0, false, Time),
        row(39, "DATE", 0, false, Time),
        row(40, "DECIMAL", 0, false, Decimal),
        row(41, "BINARY", 0, false, Binary),
        row(42, "ARRAY", 0, false, Array),
        row(43, "BOOL_ARRAY", 0, false, Array),
        row(44, "INT8_ARRAY", 0, false, Array),
        row(45, "INT16_ARRAY", 0, false, Array),
        row(46, "INT32_ARRAY", 0, false, Array),
        row(47, "INT64_ARRAY", 0, false, Array),
        row(48, "UINT8_ARRAY", 0, false, Array),
        row(49, "UINT16_ARRAY", 0, false, Array),
        row(50, "UINT32_ARRAY", 0, false, Array),
        row(51, "UINT64_ARRAY", 0, false, Array),
        row(52, "FLOAT8_ARRAY", 0, false, Array),
        row(53, "FLOAT16_ARRAY", 0, false, Array),
        row(54, "BFLOAT16_ARRAY", 0, false, Array),
        row(55, "FLOAT32_ARRAY", 0, false, Array),
        row(56, "FLOAT64_ARRAY", 0, false, Array),
    ]
};

/// The row of type id `id`, if it names a wire type.
pub const fn wire_type(id: u8) -> Option<&'static TypeRow> {
    if (id as usize) < WIRE_TYPES.len() {
        Some(&WIRE_TYPES[id as usize])
    } else {
        None
    }
}

/// The row whose name is `name` (upper-case, as in the spec).
pub fn wire_type_named(name: &str) -> Option<&'static TypeRow> {
    WIRE_TYPES.iter().find(|t| t.name == name)
}

/// True for the fixed-size scalars (bool, integers, floats) that struct field ordering
/// puts first.
pub const fn is_primitive(id: u8) -> bool {
    match wire_type(id) {
        Some(t) => t.size > 0,
        None => false,
    }
}

/// The table as the JSON document `spec/wire-types.json` holds.
pub fn wire_types_json() -> String {
    let mut out = String::from("{\n  \"format\": \"fury-wire-types/1\",\n  \"types\": [\n");
    for (i, t) in WIRE_TYPES.iter().enumerate() {
        out.push_str(&format!(
            "    {{\"id\": {}, \"name\": \"{}\", \"size\": {}, \"compressed\": {}, \"family\": \"{}\", \"tracked\": {}, \"user_id\": {}}}{}\n",
            t.id,
            t.name,
            t.size,
            t.compressed,
            t.family.name(),
            t.tracked,
            t.user_id,
            if i + 1 < WIRE_TYPES.len() { "," } else { "" }
        ));
    }
    out.push_str("  ]\n}\n");
    out
}
