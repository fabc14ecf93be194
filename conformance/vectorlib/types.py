"""Wire types: the id table and the node vocabulary.

Ids, names, primitive sizes and the varint/tagged flag come from
spec/wire-types.json, which fury-rs writes from its own table (and keeps
current with a test), so the Rust and Python sides read one table.  What
stays here is ours: which kinds a value node or schema can name, and how
their values look (integer ranges, float widths, array layouts).
"""

import json
import os

from .formats import CONFORMANCE_DIR

__all__ = [
    "WIRE_TYPES_FORMAT", "WIRE_TYPES_PATH", "WIRE_TYPES", "wire_type_id",
    "INT_RANGES", "FLOAT_HEX_WIDTH", "ARRAY_KINDS", "ARRAY_CLASS_NAMES", "SCALAR_NAMES", "ANNOTATION_FOR_KIND",
    "TYPE_IDS", "TYPE_NAMES", "PRIMITIVE_SIZES", "COMPRESSED_KINDS",
    "UNKNOWN_TYPE_ID", "ENUM_TYPE_ID", "NAMED_ENUM_TYPE_ID", "STRUCT_TYPE_ID", "COMPATIBLE_STRUCT_TYPE_ID",
    "NAMED_STRUCT_TYPE_ID", "NAMED_COMPATIBLE_STRUCT_TYPE_ID", "USER_TYPE_KINDS", "COMPAT_TYPE_INFO_IDS",
    "FIELD_TYPE_KINDS", "REF_TRACKED_KINDS", "REF_BASIC_FIELD_KINDS",
    "FLAG_NULL", "FLAG_REF", "FLAG_NOT_NULL", "FLAG_REF_VALUE",
    "COLL_TRACKING_REF", "COLL_HAS_NULL", "COLL_DECL_ELEM", "COLL_SAME_TYPE",
    "MAP_TRACK_KEY_REF", "MAP_KEY_NULL", "MAP_KEY_DECL", "MAP_TRACK_VALUE_REF", "MAP_VALUE_NULL", "MAP_VALUE_DECL",
]

# -- the table (spec/wire-types.json) --------------------------------------------

WIRE_TYPES_FORMAT = "fury-wire-types/1"
WIRE_TYPES_PATH = os.path.join(os.path.dirname(CONFORMANCE_DIR), "spec", "wire-types.json")


def _load_wire_types(path):
    with open(path, "r", encoding="utf-8") as fh:
        doc = json.load(fh)
    if doc.get("format") != WIRE_TYPES_FORMAT:
        raise RuntimeError("{}: format is {!r}, expected {!r}".format(path, doc.get("format"), WIRE_TYPES_FORMAT))
    return doc["types"]


# [{"id", "name" (upper case), "size", "compressed", "family", "tracked", "user_id"}], by id
WIRE_TYPES = _load_wire_types(WIRE_TYPES_PATH)
_BY_NAME = {t["name"]: t for t in WIRE_TYPES}


def wire_type_id(name):
    """The id of a wire type, by its upper-case name in the table."""
    return _BY_NAME[name]["id"]


# -- the node vocabulary (ours) ----------------------------------------------------

# integer kinds: name -> (min, max)
INT_RANGES = {
    "int8": (-(1 << 7), (1 << 7) - 1),
    "int16": (-(1 << 15), (1 << 15) - 1),
    "int32": (-(1 << 31), (1 << 31) - 1),
    "varint32": (-(1 << 31), (1 << 31) - 1),
    "int64": (-(1 << 63), (1 << 63) - 1),
    "varint64": (-(1 << 63), (1 << 63) - 1),
    "tagged_int64": (-(1 << 63), (1 << 63) - 1),
    "uint8": (0, (1 << 8) - 1),
    "uint16": (0, (1 << 16) - 1),
    "uint32": (0, (1 << 32) - 1),
    "var_uint32": (0, (1 << 32) - 1),
    "uint64": (0, (1 << 64) - 1),
    "var_uint64": (0, (1 << 64) - 1),
    "tagged_uint64": (0, (1 << 64) - 1),
}
# float kinds: name -> number of hex digits of the bit pattern
FLOAT_HEX_WIDTH = {"float16": 4, "bfloat16": 4, "float32": 8, "float64": 16}

# array kind -> pyfory.serialization class name
ARRAY_CLASS_NAMES = {
    "bool_array": "BoolArray",
    "int8_array": "Int8Array",
    "int16_array": "Int16Array",
    "int32_array": "Int32Array",
    "int64_array": "Int64Array",
    "uint8_array": "UInt8Array",
    "uint16_array": "UInt16Array",
    "uint32_array": "UInt32Array",
    "uint64_array": "UInt64Array",
    "float16_array": "Float16Array",
    "bfloat16_array": "BFloat16Array",
    "float32_array": "Float32Array",
    "float64_array": "Float64Array",
}


def _array_layout(kind):
    # the element kind is the array kind's prefix and its byte size the
    # table's; float elements are handled as bit patterns (unsigned codes)
    elem = kind[: -len("_array")]
    size = _BY_NAME[elem.upper()]["size"]
    if elem == "bool":
        return elem, size, "B"
    code = {1: "b", 2: "h", 4: "i", 8: "q"}[size]
    return elem, size, code if elem.startswith("int") else code.upper()


# array kind -> (element kind, element byte size, struct code)
ARRAY_KINDS = {kind: _array_layout(kind) for kind in ARRAY_CLASS_NAMES}

SCALAR_NAMES = (
    ["bool"]
    + list(INT_RANGES)
    + list(FLOAT_HEX_WIDTH)
    + ["string", "binary", "duration", "timestamp", "date"]
    + list(ARRAY_KINDS)
)

# typed-root scalar kind -> name of the pyfory.annotation alias
ANNOTATION_FOR_KIND = {
    "int8": "Int8",
    "int16": "Int16",
    "int32": "FixedInt32",
    "varint32": "Int32",
    "int64": "FixedInt64",
    "varint64": "Int64",
    "tagged_int64": "TaggedInt64",
    "uint8": "UInt8",
    "uint16": "UInt16",
    "uint32": "FixedUInt32",
    "var_uint32": "UInt32",
    "uint64": "FixedUInt64",
    "var_uint64": "UInt64",
    "tagged_uint64": "TaggedUInt64",
    "float16": "Float16",
    "bfloat16": "BFloat16",
    "float32": "Float32",
    "float64": "Float64",
}

# -- the table, as the node vocabulary sees it -------------------------------------

# The kinds a node or schema can name: the scalars plus the containers and
# NONE.  The table also has ids without a node form here (UNKNOWN, FLOAT8,
# the enum / struct / ext / union kinds, DECIMAL, ARRAY, FLOAT8_ARRAY);
# they stay out of TYPE_IDS, and the application kinds get names below.
_NODE_KINDS = set(SCALAR_NAMES) | {"list", "set", "map", "none"}
_missing = _NODE_KINDS - {t["name"].lower() for t in WIRE_TYPES}
if _missing:
    raise RuntimeError("{} lacks the wire types {}".format(WIRE_TYPES_PATH, sorted(_missing)))

# lower-case name (the nodes' spelling) -> id, in id order
TYPE_IDS = {t["name"].lower(): t["id"] for t in WIRE_TYPES if t["name"].lower() in _NODE_KINDS}
TYPE_NAMES = {v: k for k, v in TYPE_IDS.items()}
# primitive kinds (the ones sorted into the leading "primitive" field groups) -> byte size
PRIMITIVE_SIZES = {t["name"].lower(): t["size"] for t in WIRE_TYPES if t["name"].lower() in TYPE_IDS and t["size"]}
# the varint / tagged encodings (sorted after the fixed-width primitives)
COMPRESSED_KINDS = frozenset(t["name"].lower() for t in WIRE_TYPES if t["name"].lower() in TYPE_IDS and t["compressed"])

# xlang type ids of application types
UNKNOWN_TYPE_ID = wire_type_id("UNKNOWN")
ENUM_TYPE_ID = wire_type_id("ENUM")
NAMED_ENUM_TYPE_ID = wire_type_id("NAMED_ENUM")
STRUCT_TYPE_ID = wire_type_id("STRUCT")
COMPATIBLE_STRUCT_TYPE_ID = wire_type_id("COMPATIBLE_STRUCT")
NAMED_STRUCT_TYPE_ID = wire_type_id("NAMED_STRUCT")
NAMED_COMPATIBLE_STRUCT_TYPE_ID = wire_type_id("NAMED_COMPATIBLE_STRUCT")


def _application_kind(name):
    # ("enum" | "struct", registered by name); the table's "family" is the kind
    return (_BY_NAME[name]["family"], name.startswith("NAMED_"))


# type id -> (kind, registered by name) of the type infos in same-schema mode
# (a var_uint32 user id, or the namespace and type name as meta strings)
USER_TYPE_KINDS = {wire_type_id(n): _application_kind(n) for n in ("ENUM", "NAMED_ENUM", "STRUCT", "NAMED_STRUCT")}
# ... and of the type infos that carry shared TypeDef meta in compatible mode
COMPAT_TYPE_INFO_IDS = {
    wire_type_id(n): _application_kind(n) for n in ("NAMED_ENUM", "COMPATIBLE_STRUCT", "NAMED_COMPATIBLE_STRUCT")
}
# type id -> kind name, for the field types a TypeDef can hold
FIELD_TYPE_KINDS = dict(TYPE_NAMES)
FIELD_TYPE_KINDS.update(
    (wire_type_id(n), n.lower()) for n in ("UNKNOWN", "ENUM", "COMPATIBLE_STRUCT", "NAMED_COMPATIBLE_STRUCT")
)

# Wire kinds whose pyfory serializer tracks references (need_to_write_ref);
# every struct does too.  Not tracked: bool, the integer and float kinds,
# string, enums and the dense arrays.  Not taken from the table: its
# "tracked" column leaves out date, timestamp and duration, which pyfory
# 1.7.7 does track (vectors/refs/, fields/scalar_refs: "day" is 00 ... fe 02);
# every vector generators/refs.py writes checks this set against pyfory.
REF_TRACKED_KINDS = frozenset(["binary", "list", "set", "map", "date", "timestamp", "duration"])
# struct field kinds pyfory writes inline ("basic" fields): a "ref": true on
# such a field changes the fingerprint and the TypeDef, but never the bytes
REF_BASIC_FIELD_KINDS = frozenset(["bool", "float32", "float64", "string"] + list(INT_RANGES))

# -- flags and header bits -----------------------------------------------------------

# reference flags (signed bytes)
FLAG_NULL = 0xFD
FLAG_REF = 0xFE
FLAG_NOT_NULL = 0xFF
FLAG_REF_VALUE = 0x00

# collection header bits
COLL_TRACKING_REF = 0x01
COLL_HAS_NULL = 0x02
COLL_DECL_ELEM = 0x04
COLL_SAME_TYPE = 0x08
# map chunk header bits
MAP_TRACK_KEY_REF = 0x01
MAP_KEY_NULL = 0x02
MAP_KEY_DECL = 0x04
MAP_TRACK_VALUE_REF = 0x08
MAP_VALUE_NULL = 0x10
MAP_VALUE_DECL = 0x20
