"""Shared helpers for the fury-rs conformance vectors.

This module is used by generate.py (which writes the vector files with
pyfory) and by check_peer.py (which checks bytes produced by another port).

It contains:

* constants describing the vector and peer-bytes file formats;
* the wire-type table (name <-> type id) used by nodes and schemas;
* node -> Python value conversion and a node-guided comparison of a decoded
  Python value against an expected node (floats compared by bit pattern);
* an independent decoder that turns xlang bytes into a node tree (so the
  wire types, string encodings and element order can be checked, which a
  Python-level comparison cannot see);
* schema parsing, derivation and validation;
* the helper that writes a typed root scalar with pyfory's own pieces;
* struct/enum type tables (same-schema mode), and for compatible mode our
  own TypeDef encoder / decoder and a TypeDef-driven wire decoder
  (decode_wire_compat), with evolution types that share a registration;
* reference tracking (ref=True, vectors_refs/): struct fields with
  "ref": true, a wire decoder that gives ref ids and "ref" nodes
  (decode_wire_refs), an identity-aware comparison of object graphs
  (compare_ref_graph, ref_graph_diff) and the rebuilding of a shared /
  cyclic object graph from a node (ref_node_to_py).

Only the standard library is needed at import time; pyfory is imported
lazily by the functions that need it.
"""

import array
import datetime
import json
import math
import os
import struct

VECTOR_FORMAT = "fury-conformance/1"
PEER_BYTES_FORMAT = "fury-peer-bytes/1"
PYFORY_VERSION = "1.7.7"
PEER = "pyfory==" + PYFORY_VERSION
DEFAULT_SETTINGS = {"xlang": True, "ref": False, "compatible": True}
GROUPS = (
    "scalars",
    "strings",
    "temporal",
    "binary_arrays",
    "lists",
    "sets",
    "maps",
    "nested",
)

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_VECTOR_DIR = os.path.join(HERE, "vectors")

# ---------------------------------------------------------------------------
# wire types
# ---------------------------------------------------------------------------

TYPE_IDS = {
    "bool": 1,
    "int8": 2,
    "int16": 3,
    "int32": 4,
    "varint32": 5,
    "int64": 6,
    "varint64": 7,
    "tagged_int64": 8,
    "uint8": 9,
    "uint16": 10,
    "uint32": 11,
    "var_uint32": 12,
    "uint64": 13,
    "var_uint64": 14,
    "tagged_uint64": 15,
    "float16": 17,
    "bfloat16": 18,
    "float32": 19,
    "float64": 20,
    "string": 21,
    "list": 22,
    "set": 23,
    "map": 24,
    "none": 36,
    "duration": 37,
    "timestamp": 38,
    "date": 39,
    "binary": 41,
    "bool_array": 43,
    "int8_array": 44,
    "int16_array": 45,
    "int32_array": 46,
    "int64_array": 47,
    "uint8_array": 48,
    "uint16_array": 49,
    "uint32_array": 50,
    "uint64_array": 51,
    "float16_array": 53,
    "bfloat16_array": 54,
    "float32_array": 55,
    "float64_array": 56,
}
TYPE_NAMES = {v: k for k, v in TYPE_IDS.items()}

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

# array kinds: name -> (element kind, element byte size, struct code)
ARRAY_KINDS = {
    "bool_array": ("bool", 1, "B"),
    "int8_array": ("int8", 1, "b"),
    "int16_array": ("int16", 2, "h"),
    "int32_array": ("int32", 4, "i"),
    "int64_array": ("int64", 8, "q"),
    "uint8_array": ("uint8", 1, "B"),
    "uint16_array": ("uint16", 2, "H"),
    "uint32_array": ("uint32", 4, "I"),
    "uint64_array": ("uint64", 8, "Q"),
    "float16_array": ("float16", 2, "H"),
    "bfloat16_array": ("bfloat16", 2, "H"),
    "float32_array": ("float32", 4, "I"),
    "float64_array": ("float64", 8, "Q"),
}
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

EPOCH_DATE = datetime.date(1970, 1, 1)
EPOCH_DATETIME = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)


class VectorError(Exception):
    """A vector file or peer file is malformed."""


class WireError(Exception):
    """The independent decoder could not decode some bytes."""


# ---------------------------------------------------------------------------
# pyfory access
# ---------------------------------------------------------------------------


def require_pyfory():
    """Import pyfory and insist on the pinned version."""
    try:
        import pyfory
    except ImportError as exc:  # pragma: no cover - environment problem
        raise SystemExit(
            "pyfory is not installed; run: pip install -r conformance/requirements.txt ({})".format(exc)
        )
    if pyfory.__version__ != PYFORY_VERSION:
        raise SystemExit(
            "pyfory {} is required, found {} (pip install pyfory=={})".format(
                PYFORY_VERSION, pyfory.__version__, PYFORY_VERSION
            )
        )
    return pyfory


def make_fory(settings):
    pyfory = require_pyfory()
    return pyfory.Fory(
        xlang=bool(settings["xlang"]),
        ref=bool(settings["ref"]),
        compatible=bool(settings["compatible"]),
    )


def array_class(kind):
    from pyfory import serialization

    return getattr(serialization, ARRAY_CLASS_NAMES[kind])


def write_typed_root(fory, kind, value):
    """Serialize ``value`` as a root of the scalar wire type ``kind``.

    pyfory has no Python class for most fixed-width scalar types, so the
    stream is put together from pyfory's own pieces: the header byte, the
    not-null ref flag, the type info of the annotated type and the
    payload written by that type's serializer.
    """
    pyfory = require_pyfory()
    from pyfory import annotation

    ann = getattr(annotation, ANNOTATION_FOR_KIND[kind])
    buf = pyfory.Buffer.allocate(64)
    wc = fory.write_context
    wc.prepare(buf)
    try:
        header = 0x01 if fory.xlang else 0x00
        buf.write_int8(header)
        wc.write_int8(-1)  # not-null flag, no reference tracking for scalars
        type_info = fory.type_resolver.get_type_info(ann)
        fory.type_resolver.write_type_info(wc, type_info)
        type_info.serializer.write(wc, value)
        return buf.to_bytes(0, buf.get_writer_index())
    finally:
        fory.reset_write()


def deserialize_all(fory, data):
    """Deserialize ``data`` and return (value, unread byte count)."""
    pyfory = require_pyfory()
    buf = pyfory.Buffer(bytes(data))
    value = fory.deserialize(buf)
    return value, len(data) - buf.get_reader_index()


# ---------------------------------------------------------------------------
# float bit helpers (all exact)
# ---------------------------------------------------------------------------


def f64_bits(x):
    return struct.unpack("<Q", struct.pack("<d", x))[0]


def f64_from_bits(bits):
    return struct.unpack("<d", struct.pack("<Q", bits))[0]


def f32_bits(x):
    return struct.unpack("<I", struct.pack("<f", x))[0]


def f32_from_bits(bits):
    return struct.unpack("<f", struct.pack("<I", bits))[0]


def half_to_float(bits):
    """float16 bit pattern -> Python float (exact)."""
    sign = -1.0 if bits & 0x8000 else 1.0
    exp = (bits >> 10) & 0x1F
    mant = bits & 0x3FF
    if exp == 0x1F:
        if mant == 0:
            return sign * math.inf
        # keep the payload: widen through the float32 pattern
        return f32_from_bits(((bits & 0x8000) << 16) | 0x7F800000 | (mant << 13))
    if exp == 0:
        return sign * math.ldexp(mant, -24)
    return sign * math.ldexp(mant | 0x400, exp - 25)


def float_to_half_exact(x):
    """Python float -> float16 bits, or None if x is not exactly a float16."""
    if math.isnan(x):
        b32 = f32_bits(x)
        if b32 & 0x1FFF:
            return None  # payload bits a float16 cannot carry
        return ((b32 >> 16) & 0x8000) | 0x7C00 | ((b32 >> 13) & 0x3FF)
    sign = 0x8000 if math.copysign(1.0, x) < 0 else 0
    a = abs(x)
    if math.isinf(a):
        return sign | 0x7C00
    if a == 0.0:
        return sign
    mant, exp = math.frexp(a)  # a = mant * 2**exp, 0.5 <= mant < 1
    e = exp - 1  # a = 1.m * 2**e
    if e >= -14:
        if e > 15:
            return None
        frac = a / math.ldexp(1.0, e) - 1.0  # in [0, 1)
        m = frac * 1024
        if m != int(m):
            return None
        return sign | ((e + 15) << 10) | int(m)
    m = a / math.ldexp(1.0, -24)
    if m != int(m) or m >= 1024:
        return None
    return sign | int(m)


def bfloat16_to_float(bits):
    return f32_from_bits(bits << 16)


def float_bits(kind, x):
    """Bit pattern of Python float x in the given width, or None if inexact."""
    if kind == "float64":
        return f64_bits(x)
    if kind == "float32":
        try:
            b = f32_bits(x)
        except OverflowError:
            return None
        back = f32_from_bits(b)
        if not (back == x or (math.isnan(back) and math.isnan(x))):
            return None
        if back == 0.0 and math.copysign(1.0, back) != math.copysign(1.0, x):
            return None
        return b
    if kind == "bfloat16":
        b = float_bits("float32", x)
        if b is None or (b & 0xFFFF) != 0:
            return None
        return b >> 16
    if kind == "float16":
        return float_to_half_exact(x)
    raise ValueError(kind)


def float_from_bits(kind, bits):
    if kind == "float64":
        return f64_from_bits(bits)
    if kind == "float32":
        return f32_from_bits(bits)
    if kind == "bfloat16":
        return bfloat16_to_float(bits)
    if kind == "float16":
        return half_to_float(bits)
    raise ValueError(kind)


def bits_hex(kind, bits):
    return format(bits, "0{}x".format(FLOAT_HEX_WIDTH[kind]))


def float_node(kind, bits):
    node = {"type": kind, "bits": bits_hex(kind, bits)}
    x = float_from_bits(kind, bits)
    if math.isfinite(x):
        node["approx"] = x
    return node


def string_encoding(s):
    """The encoding pyfory picks for a str (from CPython's storage width)."""
    m = max((ord(c) for c in s), default=0)
    if m <= 0xFF:
        return "latin1"
    if m <= 0xFFFF:
        return "utf16"
    return "utf8"


# ---------------------------------------------------------------------------
# Python value -> node (the model of how pyfory maps dynamic Python values)
# ---------------------------------------------------------------------------

_PYARRAY_KIND = {
    "b": "int8_array",
    "B": "uint8_array",
    "h": "int16_array",
    "H": "uint16_array",
    "i": "int32_array",
    "I": "uint32_array",
    "l": "int64_array",
    "L": "uint64_array",
    "q": "int64_array",
    "Q": "uint64_array",
    "f": "float32_array",
    "d": "float64_array",
}


def array_node_from_values(kind, values):
    """Node of an array kind from a list of element values (ints/bools) or,
    for float kinds, from a list of bit patterns."""
    elem = ARRAY_KINDS[kind][0]
    if elem == "bool":
        return {"type": kind, "values": [bool(v) for v in values]}
    if elem in FLOAT_HEX_WIDTH:
        return {"type": kind, "bits": [bits_hex(elem, b) for b in values]}
    return {"type": kind, "values": [str(int(v)) for v in values]}


def fory_array_kind(value):
    """Array kind of a pyfory array object or of a Python array.array."""
    if type(value) is array.array:
        kind = _PYARRAY_KIND.get(value.typecode)
        if kind and value.itemsize != ARRAY_KINDS[kind][1]:
            return None
        return kind
    name = type(value).__name__
    for kind, cls_name in ARRAY_CLASS_NAMES.items():
        if name == cls_name and type(value).__module__.startswith("pyfory"):
            return kind
    return None


def fory_array_raw(value):
    """Element storage of a pyfory array object as a list of ints (bits for floats)."""
    kind = fory_array_kind(value)
    raw = value if type(value) is array.array else value.to_buffer()
    data = bytes(raw) if not isinstance(raw, array.array) else raw.tobytes()
    elem, size, code = ARRAY_KINDS[kind]
    n = len(data) // size
    return list(struct.unpack("<{}{}".format(n, code), data))


def py_to_node(value):
    """Node for a dynamic Python value, following pyfory's type mapping."""
    if value is None:
        return {"type": "null"}
    t = type(value)
    if t is bool:
        return {"type": "bool", "value": value}
    if t is int:
        lo, hi = INT_RANGES["varint64"]
        if not lo <= value <= hi:
            raise ValueError("int out of varint64 range: {}".format(value))
        return {"type": "varint64", "value": str(value)}
    if t is float:
        return float_node("float64", f64_bits(value))
    if t is str:
        return {"type": "string", "value": value, "encoding": string_encoding(value)}
    if t is bytes:
        return {"type": "binary", "hex": value.hex()}
    if t in (list, tuple):
        return {"type": "list", "items": [py_to_node(v) for v in value]}
    if t in (set, frozenset):
        return {"type": "set", "items": [py_to_node(v) for v in value]}
    if t is dict:
        return {"type": "map", "entries": [[py_to_node(k), py_to_node(v)] for k, v in value.items()]}
    if t is datetime.timedelta:
        total = (value.days * 86400 + value.seconds) * 1000000 + value.microseconds
        seconds, micros = divmod(total, 1000000)
        return {"type": "duration", "seconds": str(seconds), "nanos": micros * 1000}
    if t is datetime.datetime:
        if value.tzinfo is None:
            raise ValueError("naive datetime is not supported: {!r}".format(value))
        delta = value - EPOCH_DATETIME
        seconds = delta.days * 86400 + delta.seconds
        return {"type": "timestamp", "seconds": str(seconds), "nanos": delta.microseconds * 1000}
    if t is datetime.date:
        return {"type": "date", "days": (value - EPOCH_DATE).days}
    if t is array.array:
        kind = _PYARRAY_KIND[value.typecode]
        if value.typecode in "lL" and value.itemsize != 8:
            raise ValueError("array typecode {} is not 64-bit here".format(value.typecode))
        if kind == "float32_array":
            return array_node_from_values(kind, [f32_bits(v) for v in value])
        if kind == "float64_array":
            return array_node_from_values(kind, [f64_bits(v) for v in value])
        return array_node_from_values(kind, list(value))
    kind = fory_array_kind(value)
    if kind is not None:
        raw = fory_array_raw(value)
        return array_node_from_values(kind, raw)
    raise TypeError("no node mapping for {!r}".format(t))


# ---------------------------------------------------------------------------
# node -> Python value
# ---------------------------------------------------------------------------


def _int_of(node):
    return int(node["value"], 10)


def node_to_py(node, types=None):
    """The Python value pyfory is expected to produce when it decodes the node.

    ``types`` (a TypeTable with its Python classes built) is needed for
    "struct" and "enum" nodes."""
    t = node["type"]
    if t == "null":
        return None
    if t in ("struct", "enum"):
        return _user_node_to_py(node, types)
    if t == "bool":
        return bool(node["value"])
    if t in INT_RANGES:
        return _int_of(node)
    if t in FLOAT_HEX_WIDTH:
        return float_from_bits(t, int(node["bits"], 16))
    if t == "string":
        return node["value"]
    if t == "binary":
        return bytes.fromhex(node["hex"])
    if t == "duration":
        nanos = int(node["nanos"])
        if nanos % 1000:
            raise ValueError("duration nanos {} not representable in Python".format(nanos))
        return datetime.timedelta(seconds=int(node["seconds"]), microseconds=nanos // 1000)
    if t == "timestamp":
        nanos = int(node["nanos"])
        if nanos % 1000:
            raise ValueError("timestamp nanos {} not representable in Python".format(nanos))
        return EPOCH_DATETIME + datetime.timedelta(seconds=int(node["seconds"]), microseconds=nanos // 1000)
    if t == "date":
        return EPOCH_DATE + datetime.timedelta(days=int(node["days"]))
    if t in ARRAY_KINDS:
        cls = array_class(t)
        elem, size, code = ARRAY_KINDS[t]
        if elem in ("float16", "bfloat16"):
            raw = [int(b, 16) for b in node["bits"]]
            return cls.from_buffer(struct.pack("<{}H".format(len(raw)), *raw))
        if elem in ("float32", "float64"):
            return cls([float_from_bits(elem, int(b, 16)) for b in node["bits"]])
        if elem == "bool":
            return cls([bool(v) for v in node["values"]])
        return cls([int(v, 10) for v in node["values"]])
    if t == "list":
        return [node_to_py(n, types) for n in node["items"]]
    if t == "set":
        return set(node_to_py(n, types) for n in node["items"])
    if t == "map":
        return {node_to_py(k, types): node_to_py(v, types) for k, v in node["entries"]}
    raise ValueError("unknown node type {!r}".format(t))


# ---------------------------------------------------------------------------
# node-guided comparison of a Python value
# ---------------------------------------------------------------------------


def _short(x, limit=80):
    r = repr(x)
    return r if len(r) <= limit else r[: limit - 3] + "..."


def compare(node, actual, path="$", types=None):
    """Compare a decoded Python value with the expected node.

    Returns a list of human-readable differences (empty when equal).
    Floats are compared by bit pattern in the node's width (NaN payload and
    the sign of zero included).  ``types`` (a TypeTable with its Python
    classes built) is needed for "struct" and "enum" nodes.
    """
    t = node["type"]
    out = []
    if t == "null":
        if actual is not None:
            out.append("{}: expected null, got {}".format(path, _short(actual)))
        return out
    if actual is None:
        out.append("{}: expected {}, got null".format(path, t))
        return out
    if t in ("struct", "enum"):
        return _compare_user(node, actual, path, types)
    if t == "bool":
        if type(actual) is not bool or actual != node["value"]:
            out.append("{}: expected bool {}, got {}".format(path, node["value"], _short(actual)))
        return out
    if t in INT_RANGES:
        if type(actual) is not int or actual != _int_of(node):
            out.append("{}: expected {} {}, got {}".format(path, t, node["value"], _short(actual)))
        return out
    if t in FLOAT_HEX_WIDTH:
        if type(actual) is not float:
            out.append("{}: expected {} bits {}, got {}".format(path, t, node["bits"], _short(actual)))
            return out
        got = float_bits(t, actual)
        if got is None:
            out.append("{}: expected {} bits {}, got {!r} which is not a {}".format(path, t, node["bits"], actual, t))
        elif got != int(node["bits"], 16):
            out.append("{}: expected {} bits {}, got bits {} ({!r})".format(path, t, node["bits"], bits_hex(t, got), actual))
        return out
    if t == "string":
        if type(actual) is not str or actual != node["value"]:
            out.append("{}: expected string {}, got {}".format(path, _short(node["value"]), _short(actual)))
        return out
    if t == "binary":
        if type(actual) is not bytes or actual.hex() != node["hex"]:
            out.append("{}: expected binary {}, got {}".format(path, _short(node["hex"]), _short(actual)))
        return out
    if t in ("duration", "timestamp", "date"):
        try:
            expected = node_to_py(node)
        except ValueError as exc:
            return ["{}: {}".format(path, exc)]
        if type(actual) is not type(expected) or actual != expected:
            out.append("{}: expected {} {}, got {}".format(path, t, _short(expected), _short(actual)))
        elif t == "timestamp" and actual.utcoffset() != datetime.timedelta(0):
            out.append("{}: expected a UTC timestamp, got {}".format(path, _short(actual)))
        return out
    if t in ARRAY_KINDS:
        kind = fory_array_kind(actual)
        if kind != t:
            out.append("{}: expected {}, got {}".format(path, t, type(actual).__name__))
            return out
        elem = ARRAY_KINDS[t][0]
        raw = fory_array_raw(actual)
        if elem in FLOAT_HEX_WIDTH:
            expected = [int(b, 16) for b in node["bits"]]
            got = raw
            show = lambda v: bits_hex(elem, v)  # noqa: E731
        elif elem == "bool":
            expected = [bool(v) for v in node["values"]]
            got = [bool(v) for v in raw]
            if any(v not in (0, 1) for v in raw):
                out.append("{}: bool_array holds bytes other than 0/1: {}".format(path, _short(raw)))
            show = repr
        else:
            expected = [int(v, 10) for v in node["values"]]
            got = raw
            show = str
        if len(expected) != len(got):
            out.append("{}: expected {} elements, got {}".format(path, len(expected), len(got)))
            return out
        for i, (e, g) in enumerate(zip(expected, got)):
            if e != g:
                out.append("{}[{}]: expected {}, got {}".format(path, i, show(e), show(g)))
                break
        return out
    if t == "list":
        if type(actual) not in (list, tuple):
            out.append("{}: expected list, got {}".format(path, type(actual).__name__))
            return out
        items = node["items"]
        if len(items) != len(actual):
            out.append("{}: expected {} items, got {}".format(path, len(items), len(actual)))
            return out
        for i, (n, a) in enumerate(zip(items, actual)):
            out.extend(compare(n, a, "{}[{}]".format(path, i), types))
        return out
    if t == "set":
        if type(actual) not in (set, frozenset):
            out.append("{}: expected set, got {}".format(path, type(actual).__name__))
            return out
        items = node["items"]
        if len(items) != len(actual):
            out.append("{}: expected {} items, got {}".format(path, len(items), len(actual)))
            return out
        remaining = list(actual)
        for i, n in enumerate(items):
            for j, a in enumerate(remaining):
                if not compare(n, a, types=types):
                    del remaining[j]
                    break
            else:
                out.append("{}{{{}}}: no element equal to {}".format(path, i, _short(node_to_py(n, types))))
        return out
    if t == "map":
        if type(actual) is not dict:
            out.append("{}: expected map, got {}".format(path, type(actual).__name__))
            return out
        entries = node["entries"]
        if len(entries) != len(actual):
            out.append("{}: expected {} entries, got {}".format(path, len(entries), len(actual)))
            return out
        stored_keys = {k: k for k in actual}
        for i, (kn, vn) in enumerate(entries):
            key = node_to_py(kn, types)
            kpath = "{}[{}]".format(path, _short(key, 40))
            if key not in stored_keys:
                out.append("{}: key missing".format(kpath))
                continue
            key_diff = compare(kn, stored_keys[key], kpath + "<key>", types)
            out.extend(key_diff)
            out.extend(compare(vn, actual[key], kpath, types))
        return out
    return ["{}: unknown node type {!r}".format(path, t)]


def nodes_equal_wire(expected, got, path="$", ignore=("approx", "encoding")):
    """Structural node comparison (wire types included), ignoring informative keys."""
    out = []
    if not isinstance(expected, dict) or not isinstance(got, dict):
        if expected != got:
            out.append("{}: expected {}, got {}".format(path, _short(expected), _short(got)))
        return out
    if expected.get("type") != got.get("type"):
        out.append("{}: wire type {} expected, peer wrote {}".format(path, expected.get("type"), got.get("type")))
        return out
    if expected.get("type") in ("set", "map"):
        return _unordered_wire_diff(expected, got, path, ignore)
    keys = (set(expected) | set(got)) - set(ignore)
    for key in sorted(keys):
        e, g = expected.get(key), got.get(key)
        if key == "fields" and expected.get("type") == "struct" and isinstance(e, dict) and isinstance(g, dict):
            if list(e) != list(g):
                out.append("{}.fields: expected fields {}, got {}".format(path, list(e), list(g)))
                continue
            for fname in e:
                out.extend(nodes_equal_wire(e[fname], g[fname], "{}.{}".format(path, fname), ignore))
            continue
        if key in ("items", "entries", "values", "bits") and isinstance(e, list) and isinstance(g, list):
            if len(e) != len(g):
                out.append("{}.{}: expected {} elements, got {}".format(path, key, len(e), len(g)))
                continue
            for i, (ee, gg) in enumerate(zip(e, g)):
                sub = "{}.{}[{}]".format(path, key, i)
                if key == "entries":
                    out.extend(nodes_equal_wire(ee[0], gg[0], sub + ".key", ignore))
                    out.extend(nodes_equal_wire(ee[1], gg[1], sub + ".value", ignore))
                else:
                    out.extend(nodes_equal_wire(ee, gg, sub, ignore))
            continue
        if e != g:
            out.append("{}.{}: expected {}, got {}".format(path, key, _short(e), _short(g)))
    return out


def _canonical(node, ignore):
    """Hashable canonical text of a node without the informative keys."""

    def strip(n):
        if isinstance(n, dict):
            return {k: strip(v) for k, v in n.items() if k not in ignore}
        if isinstance(n, list):
            return [strip(v) for v in n]
        return n

    return json.dumps(strip(node), sort_keys=True)


def _unordered_wire_diff(expected, got, path, ignore):
    """Sets and maps: element / entry order on the wire carries no meaning."""
    out = []
    if expected["type"] == "set":
        exp_items = [(_canonical(n, ignore), n, None) for n in expected["items"]]
        got_items = [(_canonical(n, ignore), n, None) for n in got.get("items", [])]
        what = "items"
    else:
        exp_items = [(_canonical(k, ignore), k, v) for k, v in expected["entries"]]
        got_items = [(_canonical(k, ignore), k, v) for k, v in got.get("entries", [])]
        what = "entries"
    if len(exp_items) != len(got_items):
        out.append("{}.{}: expected {} elements, got {}".format(path, what, len(exp_items), len(got_items)))
        return out
    pool = {}
    for key, _node, value in got_items:
        pool.setdefault(key, []).append(value)
    for i, (key, node, value) in enumerate(exp_items):
        try:
            shown = _short(node_to_py(node), 40)
        except Exception:  # noqa: BLE001 - only used for the message
            shown = _short(key, 60)
        candidates = pool.get(key)
        if not candidates:
            out.append("{}: no {} equal to expected {}[{}] = {}".format(
                path, "element" if what == "items" else "key", what, i, shown))
            continue
        got_value = candidates.pop(0)
        if what == "entries":
            out.extend(nodes_equal_wire(value, got_value, "{}[{}]".format(path, shown), ignore))
    return out


# ---------------------------------------------------------------------------
# independent wire decoder: bytes -> node
# ---------------------------------------------------------------------------


class WireReader:
    def __init__(self, data, types=None):
        self.data = bytes(data)
        self.pos = 0
        self.types = types  # TypeTable for struct/enum type info, or None
        self.meta_strings = []  # meta strings read so far (for back-references)

    def fail(self, msg):
        raise WireError("offset {}: {}".format(self.pos, msg))

    def take(self, n):
        if n < 0 or self.pos + n > len(self.data):
            self.fail("need {} bytes, {} left".format(n, len(self.data) - self.pos))
        b = self.data[self.pos : self.pos + n]
        self.pos += n
        return b

    def u8(self):
        return self.take(1)[0]

    def fixed(self, size, signed):
        return int.from_bytes(self.take(size), "little", signed=signed)

    def var_uint32(self):
        result = 0
        for i in range(5):
            b = self.u8()
            result |= (b & 0x7F) << (7 * i)
            if b < 0x80:
                if result >= 1 << 32:
                    self.fail("var_uint32 overflow")
                return result
        self.fail("var_uint32 longer than 5 bytes")

    def var_uint64(self):
        # 8 groups of 7 bits, then a 9th byte carrying 8 full bits
        result = 0
        for i in range(8):
            b = self.u8()
            result |= (b & 0x7F) << (7 * i)
            if b < 0x80:
                return result
        return result | (self.u8() << 56)

    @staticmethod
    def unzigzag(n):
        return (n >> 1) ^ -(n & 1)

    def tagged_int64(self):
        if self.pos >= len(self.data):
            self.fail("truncated tagged int64")
        if self.data[self.pos] & 1 == 0:
            return self.fixed(4, True) >> 1
        self.take(1)
        return self.fixed(8, True)

    def tagged_uint64(self):
        if self.pos >= len(self.data):
            self.fail("truncated tagged uint64")
        if self.data[self.pos] & 1 == 0:
            return self.fixed(4, False) >> 1
        self.take(1)
        return self.fixed(8, False)


def _schema_child(schema, index):
    """Element (0), key (0) or value (1) schema of a container schema, unwrapped."""
    if schema is None:
        return None
    if schema[0] == "option":
        schema = schema[1]
    if schema[0] in ("list", "set"):
        child = schema[1]
    elif schema[0] == "map":
        child = schema[1 + index]
    else:
        return None
    if child[0] == "option":
        child = child[1]
    return child


def _declared_type_id(schema, r):
    if schema is not None and schema[0] == "named" and r.types is not None:
        return r.types.type_key(schema[1])
    if schema is None or schema[0] != "scalar":
        if schema is not None and schema[0] in ("list", "set", "map"):
            return TYPE_IDS[schema[0]]
        r.fail("declared element type without a concrete schema")
    return TYPE_IDS[schema[1]]


_FIXED_INT_SIZES = {
    "int8": 1,
    "int16": 2,
    "int32": 4,
    "int64": 8,
    "uint8": 1,
    "uint16": 2,
    "uint32": 4,
    "uint64": 8,
}


def _read_payload(r, type_id, schema=None):
    if isinstance(type_id, tuple):
        return _read_user_payload(r, type_id)
    name = TYPE_NAMES.get(type_id)
    if name is None:
        r.fail("unsupported type id {}".format(type_id))
    if name == "bool":
        b = r.u8()
        if b > 1:
            r.fail("bool byte {}".format(b))
        return {"type": "bool", "value": b == 1}
    if name in INT_RANGES:
        if name in ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"):
            v = r.fixed(_FIXED_INT_SIZES[name], not name.startswith("u"))
        elif name == "varint32":
            v = WireReader.unzigzag(r.var_uint32())
        elif name == "var_uint32":
            v = r.var_uint32()
        elif name == "varint64":
            v = WireReader.unzigzag(r.var_uint64())
        elif name == "var_uint64":
            v = r.var_uint64()
        elif name == "tagged_int64":
            v = r.tagged_int64()
        else:
            v = r.tagged_uint64()
        return {"type": name, "value": str(v)}
    if name in FLOAT_HEX_WIDTH:
        size = FLOAT_HEX_WIDTH[name] // 2
        return float_node(name, r.fixed(size, False))
    if name == "string":
        header = r.var_uint64()
        size, enc = header >> 2, header & 3
        raw = r.take(size)
        if enc == 0:
            return {"type": "string", "value": raw.decode("latin-1"), "encoding": "latin1"}
        if enc == 1:
            if size % 2:
                r.fail("odd UTF-16 byte length")
            try:
                return {"type": "string", "value": raw.decode("utf-16-le"), "encoding": "utf16"}
            except UnicodeDecodeError as exc:
                r.fail("bad UTF-16: {}".format(exc))
        if enc == 2:
            try:
                return {"type": "string", "value": raw.decode("utf-8"), "encoding": "utf8"}
            except UnicodeDecodeError as exc:
                r.fail("bad UTF-8: {}".format(exc))
        r.fail("unknown string encoding {}".format(enc))
    if name == "binary":
        return {"type": "binary", "hex": r.take(r.var_uint32()).hex()}
    if name == "duration":
        seconds = WireReader.unzigzag(r.var_uint64())
        nanos = r.fixed(4, True)
        return {"type": "duration", "seconds": str(seconds), "nanos": nanos}
    if name == "timestamp":
        seconds = r.fixed(8, True)
        nanos = r.fixed(4, False)
        return {"type": "timestamp", "seconds": str(seconds), "nanos": nanos}
    if name == "date":
        return {"type": "date", "days": WireReader.unzigzag(r.var_uint64())}
    if name in ARRAY_KINDS:
        elem, size, code = ARRAY_KINDS[name]
        nbytes = r.var_uint32()
        if nbytes % size:
            r.fail("{} byte length {} not a multiple of {}".format(name, nbytes, size))
        n = nbytes // size
        vals = list(struct.unpack("<{}{}".format(n, code), r.take(nbytes)))
        if elem == "bool" and any(v > 1 for v in vals):
            r.fail("bool_array byte other than 0/1")
        return array_node_from_values(name, vals)
    if name in ("list", "set"):
        return _read_collection(r, name, schema)
    if name == "map":
        return _read_map(r, schema)
    r.fail("type {} cannot be decoded here".format(name))


def _read_ref_flag(r):
    flag = r.u8()
    if flag == FLAG_NULL:
        return False
    if flag in (FLAG_NOT_NULL, FLAG_REF_VALUE):
        return True
    if flag == FLAG_REF:
        r.fail("back-reference (0xFE) is not supported by this checker")
    r.fail("bad ref flag 0x{:02x}".format(flag))


def _read_type_id(r):
    tid = r.u8()
    if getattr(r, "compat", False) and tid in COMPAT_TYPE_INFO_IDS:
        return _read_compat_type_info(r, tid)
    if tid not in TYPE_NAMES:
        if r.types is not None and tid in USER_TYPE_KINDS:
            return _read_user_type_info(r, tid)
        r.fail("unsupported type id {}".format(tid))
    return tid


def _read_collection(r, name, schema):
    n = r.var_uint32()
    if n == 0:
        return {"type": name, "items": []}
    flags = r.u8()
    if flags & 0xF0:
        r.fail("unknown collection flag bits 0x{:02x}".format(flags))
    tracking = bool(flags & COLL_TRACKING_REF)
    has_null = bool(flags & COLL_HAS_NULL)
    elem_schema = _schema_child(schema, 0)
    items = []
    if flags & COLL_SAME_TYPE:
        if flags & COLL_DECL_ELEM:
            tid = _declared_type_id(elem_schema, r)
        else:
            tid = _read_type_id(r)
        for _ in range(n):
            if tracking or has_null:
                if not _read_ref_flag(r):
                    items.append({"type": "null"})
                    continue
            if tid == TYPE_IDS["none"]:
                r.fail("non-null element of type NONE")
            items.append(_read_payload(r, tid, elem_schema))
    else:
        if flags & COLL_DECL_ELEM:
            r.fail("declared element type on a collection of mixed types")
        for _ in range(n):
            if tracking or has_null:
                if not _read_ref_flag(r):
                    items.append({"type": "null"})
                    continue
            tid = _read_type_id(r)
            items.append(_read_payload(r, tid, elem_schema))
    return {"type": name, "items": items}


def _read_map(r, schema):
    remaining = r.var_uint32()
    key_schema = _schema_child(schema, 0)
    value_schema = _schema_child(schema, 1)
    entries = []

    def read_side(decl, track, sub_schema, tid=None):
        if tid is None:
            if decl:
                tid = _declared_type_id(sub_schema, r)
                if track and not _read_ref_flag(r):
                    return {"type": "null"}
            else:
                if not _read_ref_flag(r):
                    return {"type": "null"}
                tid = _read_type_id(r)
        return _read_payload(r, tid, sub_schema)

    while remaining > 0:
        header = r.u8()
        if header & 0xC0:
            r.fail("unknown map chunk header bits 0x{:02x}".format(header))
        key_null = bool(header & MAP_KEY_NULL)
        value_null = bool(header & MAP_VALUE_NULL)
        if key_null or value_null:
            if key_null and value_null:
                entries.append([{"type": "null"}, {"type": "null"}])
            elif value_null:
                k = read_side(header & MAP_KEY_DECL, header & MAP_TRACK_KEY_REF, key_schema)
                entries.append([k, {"type": "null"}])
            else:
                v = read_side(header & MAP_VALUE_DECL, header & MAP_TRACK_VALUE_REF, value_schema)
                entries.append([{"type": "null"}, v])
            remaining -= 1
            continue
        size = r.u8()
        if size == 0 or size > remaining:
            r.fail("bad map chunk size {} ({} entries left)".format(size, remaining))
        if header & MAP_KEY_DECL:
            ktid = _declared_type_id(key_schema, r)
        else:
            ktid = _read_type_id(r)
        if header & MAP_VALUE_DECL:
            vtid = _declared_type_id(value_schema, r)
        else:
            vtid = _read_type_id(r)
        for _ in range(size):
            if header & MAP_TRACK_KEY_REF and not _read_ref_flag(r):
                k = {"type": "null"}
            else:
                k = _read_payload(r, ktid, key_schema)
            if header & MAP_TRACK_VALUE_REF and not _read_ref_flag(r):
                v = {"type": "null"}
            else:
                v = _read_payload(r, vtid, value_schema)
            entries.append([k, v])
        remaining -= size
    return {"type": "map", "entries": entries}


def decode_wire(data, schema=None, types=None):
    """Decode a whole xlang stream into a node. ``schema`` (a string or parsed
    schema) is only consulted when the bytes use declared element types.
    ``types`` (a TypeTable) lets the decoder read application structs and
    enums (same-schema mode)."""
    if isinstance(schema, str):
        schema = parse_schema(schema, types)
    r = WireReader(data, types)
    header = r.u8()
    if header & 0xFC:
        r.fail("unknown header bits 0x{:02x}".format(header))
    if not header & 0x01:
        r.fail("header does not have the xlang bit")
    if header & 0x02:
        r.fail("out-of-band buffers are not supported")
    if not _read_ref_flag(r):
        node = {"type": "null"}
    else:
        node = _read_payload(r, _read_type_id(r), schema)
    if r.pos != len(r.data):
        r.fail("{} trailing bytes".format(len(r.data) - r.pos))
    return node


# ---------------------------------------------------------------------------
# schemas
# ---------------------------------------------------------------------------


def parse_schema(text, types=None):
    """Parse a schema expression into a tuple tree:
    ("scalar", name) | ("none",) | ("any",) | ("option", T) | ("list", T) |
    ("set", T) | ("map", K, V), plus ("named", name) for a struct or enum
    name of ``types`` (a TypeTable or a collection of names)."""
    pos = 0

    def ident():
        nonlocal pos
        start = pos
        while pos < len(text) and (text[pos].isalnum() or text[pos] == "_"):
            pos += 1
        if start == pos:
            raise VectorError("bad schema {!r} at {}".format(text, pos))
        return text[start:pos]

    def expect(ch):
        nonlocal pos
        if pos >= len(text) or text[pos] != ch:
            raise VectorError("bad schema {!r}: expected {!r} at {}".format(text, ch, pos))
        pos += 1

    def parse():
        name = ident()
        if name in ("list", "set", "option"):
            expect("<")
            inner = parse()
            expect(">")
            return (name, inner)
        if name == "map":
            expect("<")
            k = parse()
            expect(",")
            v = parse()
            expect(">")
            return ("map", k, v)
        if name == "none":
            return ("none",)
        if name == "any":
            return ("any",)
        if name in SCALAR_NAMES:
            return ("scalar", name)
        if types is not None and name in types:
            return ("named", name)
        raise VectorError("unknown schema type {!r} in {!r}".format(name, text))

    tree = parse()
    if pos != len(text):
        raise VectorError("trailing text in schema {!r}".format(text))
    return tree


def format_schema(tree):
    kind = tree[0]
    if kind == "scalar":
        return tree[1]
    if kind in ("none", "any"):
        return kind
    if kind == "named":
        return tree[1]
    if kind == "unknown":
        return "?"
    if kind in ("list", "set", "option"):
        return "{}<{}>".format(kind, format_schema(tree[1]))
    if kind == "map":
        return "map<{},{}>".format(format_schema(tree[1]), format_schema(tree[2]))
    raise ValueError(tree)


UNKNOWN = ("unknown",)


def _unify(a, b):
    if a == b:
        return a
    if a == UNKNOWN:
        return b
    if b == UNKNOWN:
        return a
    if a[0] == "option" or b[0] == "option":
        inner = _unify(a[1] if a[0] == "option" else a, b[1] if b[0] == "option" else b)
        return inner if inner == ("any",) else ("option", inner)
    if a[0] == b[0] and a[0] in ("list", "set"):
        return (a[0], _unify(a[1], b[1]))
    if a[0] == b[0] == "map":
        return ("map", _unify(a[1], b[1]), _unify(a[2], b[2]))
    return ("any",)


def _derive_elements(nodes):
    """Schema of a position holding the given nodes."""
    has_null = False
    acc = UNKNOWN
    for n in nodes:
        if n["type"] == "null":
            has_null = True
            continue
        acc = _unify(acc, _derive(n))
    if acc == ("any",):
        return acc
    if has_null:
        return ("option", acc)
    return acc


def _derive(node):
    t = node["type"]
    if t == "null":
        return ("none",)
    if t in ("struct", "enum"):
        return ("named", node["name"])
    if t in ("list", "set"):
        return (t, _derive_elements(node["items"]))
    if t == "map":
        return (
            "map",
            _derive_elements([e[0] for e in node["entries"]]),
            _derive_elements([e[1] for e in node["entries"]]),
        )
    return ("scalar", t)


def _contains_unknown(tree):
    if tree == UNKNOWN:
        return True
    return any(isinstance(x, tuple) and _contains_unknown(x) for x in tree[1:])


def derive_schema(node):
    """Schema string for a node, or None when it cannot be derived
    (empty or all-null containers)."""
    tree = _derive(node)
    if _contains_unknown(tree):
        return None
    return format_schema(tree)


def schema_errors(schema, node, path="$", types=None):
    """Does the node fit the schema? Returns a list of problems.
    ``types`` (a TypeTable) is needed for struct and enum names."""
    if isinstance(schema, str):
        schema = parse_schema(schema, types)
    kind = schema[0]
    t = node["type"]
    if kind == "any":
        return []
    if kind == "none":
        return [] if t == "null" else ["{}: schema none but node is {}".format(path, t)]
    if kind == "option":
        if t == "null":
            return []
        return schema_errors(schema[1], node, path, types)
    if t == "null":
        return ["{}: null in a non-optional {} position".format(path, format_schema(schema))]
    if kind == "scalar":
        return [] if t == schema[1] else ["{}: schema {} but node is {}".format(path, schema[1], t)]
    if kind == "named":
        return _user_schema_errors(schema[1], node, path, types)
    if kind in ("list", "set"):
        if t != kind:
            return ["{}: schema {} but node is {}".format(path, kind, t)]
        out = []
        for i, n in enumerate(node["items"]):
            out.extend(schema_errors(schema[1], n, "{}[{}]".format(path, i), types))
        return out
    if kind == "map":
        if t != "map":
            return ["{}: schema map but node is {}".format(path, t)]
        out = []
        for i, (k, v) in enumerate(node["entries"]):
            out.extend(schema_errors(schema[1], k, "{}[{}].key".format(path, i), types))
            out.extend(schema_errors(schema[2], v, "{}[{}].value".format(path, i), types))
        return out
    return ["{}: bad schema {!r}".format(path, schema)]


# ---------------------------------------------------------------------------
# writer rules
# ---------------------------------------------------------------------------


def iter_nodes(node):
    yield node
    t = node["type"]
    if t in ("list", "set"):
        for n in node["items"]:
            yield from iter_nodes(n)
    elif t == "map":
        for k, v in node["entries"]:
            yield from iter_nodes(k)
            yield from iter_nodes(v)
    elif t == "struct":
        for v in node["fields"].values():
            yield from iter_nodes(v)


def string_writer_differences(node):
    """Reasons why our writer rules (ASCII -> LATIN1, everything else -> UTF-8)
    give different bytes from pyfory for the strings inside the node."""
    reasons = []
    for n in iter_nodes(node):
        if n["type"] != "string":
            continue
        enc = n["encoding"]
        if enc == "utf16":
            reason = "pyfory writes UTF-16 for a string whose characters all fit in 16 bits; fury-rs writes UTF-8"
        elif enc == "latin1" and any(ord(c) > 0x7F for c in n["value"]):
            reason = "pyfory writes LATIN1 for a non-ASCII string whose characters are all <= U+00FF; fury-rs writes UTF-8"
        else:
            continue
        if reason not in reasons:
            reasons.append(reason)
    return reasons


# ---------------------------------------------------------------------------
# files
# ---------------------------------------------------------------------------


def load_vector_file(path):
    with open(path, "r", encoding="utf-8") as fh:
        doc = json.load(fh)
    if doc.get("format") != VECTOR_FORMAT:
        raise VectorError("{}: format is {!r}, expected {!r}".format(path, doc.get("format"), VECTOR_FORMAT))
    if not isinstance(doc.get("vectors"), list):
        raise VectorError("{}: no vector list".format(path))
    return doc


def load_vectors(directory=None):
    """All vectors of all groups in the directory, in file then vector order.
    Checks that names are unique."""
    directory = directory or DEFAULT_VECTOR_DIR
    files = sorted(f for f in os.listdir(directory) if f.endswith(".json"))
    if not files:
        raise VectorError("no vector files in {}".format(directory))
    vectors = []
    seen = {}
    for fname in files:
        doc = load_vector_file(os.path.join(directory, fname))
        table = None
        if "types" in doc:  # struct/enum vectors: the file's own type definitions
            table = TypeTable(doc["types"])
            problems = table.own_facts_errors()
            if problems:
                raise VectorError("{}: {}".format(fname, "; ".join(problems[:5])))
        for vec in doc["vectors"]:
            name = vec.get("name")
            if not name:
                raise VectorError("{}: vector without a name".format(fname))
            if name in seen:
                raise VectorError("duplicate vector name {!r} in {} and {}".format(name, seen[name], fname))
            seen[name] = fname
            for key in ("settings", "schema", "value", "hex", "writer_same"):
                if key not in vec:
                    raise VectorError("{}: vector {!r} lacks {!r}".format(fname, name, key))
            if vec["writer_same"] is False and not vec.get("note"):
                raise VectorError("{}: vector {!r} has writer_same=false without a note".format(fname, name))
            vec = dict(vec)
            vec["_group"] = doc.get("group")
            if table is not None:
                vec["_types"] = table
            vectors.append(vec)
    return vectors


# ---------------------------------------------------------------------------
# application types: structs and enums (same-schema mode)
# ---------------------------------------------------------------------------
#
# A vector file may carry a "types" list (see README.md, "Struct and enum
# vectors").  Everything below works from those definitions: the field wire
# order, the schema fingerprint and its 32-bit hash, the meta strings of
# name-registered types, the decoding of struct/enum payloads, and the
# Python classes (dataclasses and Enums) that mirror the definitions for
# pyfory.  The rules are our own reading of pyfory 1.7.7; generate_structs.py
# checks each of them against pyfory and refuses to write a file otherwise.

DEFAULT_STRUCT_VECTOR_DIR = os.path.join(HERE, "vectors_structs")
STRUCT_SETTINGS = {"xlang": True, "ref": False, "compatible": False}

# xlang type ids of registered application types
ENUM_TYPE_ID = 25
NAMED_ENUM_TYPE_ID = 26
STRUCT_TYPE_ID = 27
NAMED_STRUCT_TYPE_ID = 29
# type id -> (kind, registered by name)
USER_TYPE_KINDS = {
    ENUM_TYPE_ID: ("enum", False),
    NAMED_ENUM_TYPE_ID: ("enum", True),
    STRUCT_TYPE_ID: ("struct", False),
    NAMED_STRUCT_TYPE_ID: ("struct", True),
}

# primitive kinds (the ones sorted into the leading "primitive" field groups)
PRIMITIVE_SIZES = {
    "bool": 1,
    "int8": 1,
    "int16": 2,
    "int32": 4,
    "varint32": 4,
    "int64": 8,
    "varint64": 8,
    "tagged_int64": 8,
    "uint8": 1,
    "uint16": 2,
    "uint32": 4,
    "var_uint32": 4,
    "uint64": 8,
    "var_uint64": 8,
    "tagged_uint64": 8,
    "float16": 2,
    "bfloat16": 2,
    "float32": 4,
    "float64": 8,
}
COMPRESSED_KINDS = frozenset(["varint32", "varint64", "tagged_int64", "var_uint32", "var_uint64", "tagged_uint64"])

_MASK64 = (1 << 64) - 1


def _to_signed(value, bits):
    value &= (1 << bits) - 1
    return value - (1 << bits) if value >> (bits - 1) else value


# -- MurmurHash3 x64 128 ------------------------------------------------------


def _rotl64(x, r):
    return ((x << r) | (x >> (64 - r))) & _MASK64


def _fmix64(k):
    k ^= k >> 33
    k = (k * 0xFF51AFD7ED558CCD) & _MASK64
    k ^= k >> 33
    k = (k * 0xC4CEB9FE1A85EC53) & _MASK64
    k ^= k >> 33
    return k


def murmur3_x64_128(data, seed):
    """MurmurHash3 x64 128-bit; returns (h1, h2) as unsigned 64-bit ints."""
    c1, c2 = 0x87C37B91114253D5, 0x4CF5AD432745937F
    h1 = h2 = seed & _MASK64
    n = len(data)
    full = n - n % 16
    for off in range(0, full, 16):
        k1 = int.from_bytes(data[off : off + 8], "little")
        k2 = int.from_bytes(data[off + 8 : off + 16], "little")
        k1 = (_rotl64((k1 * c1) & _MASK64, 31) * c2) & _MASK64
        h1 ^= k1
        h1 = (((_rotl64(h1, 27) + h2) & _MASK64) * 5 + 0x52DCE729) & _MASK64
        k2 = (_rotl64((k2 * c2) & _MASK64, 33) * c1) & _MASK64
        h2 ^= k2
        h2 = (((_rotl64(h2, 31) + h1) & _MASK64) * 5 + 0x38495AB5) & _MASK64
    tail = data[full:]
    if len(tail) > 8:
        k2 = int.from_bytes(tail[8:], "little")
        h2 ^= (_rotl64((k2 * c2) & _MASK64, 33) * c1) & _MASK64
    if tail:
        k1 = int.from_bytes(tail[:8], "little")
        h1 ^= (_rotl64((k1 * c1) & _MASK64, 31) * c2) & _MASK64
    h1 ^= n
    h2 ^= n
    h1 = (h1 + h2) & _MASK64
    h2 = (h2 + h1) & _MASK64
    h1 = _fmix64(h1)
    h2 = _fmix64(h2)
    h1 = (h1 + h2) & _MASK64
    h2 = (h2 + h1) & _MASK64
    return h1, h2


# -- meta strings (namespaces and type names) ------------------------------------

META_ENCODING_NAMES = (
    "UTF_8",
    "LOWER_SPECIAL",
    "LOWER_UPPER_DIGIT_SPECIAL",
    "FIRST_TO_LOWER_SPECIAL",
    "ALL_TO_LOWER_SPECIAL",
)
# role -> the two special characters of the 6-bit alphabet (values 62, 63)
META_SPECIALS = {"namespace": (".", "_"), "typename": ("$", "_")}
_LOWER_SPECIAL_ALPHABET = "abcdefghijklmnopqrstuvwxyz._$|"  # values 0..29
META_SMALL_LIMIT = 16  # longer encodings carry an 8-byte hash on the wire


def _ascii_lower(c):
    return "a" <= c <= "z"


def _ascii_upper(c):
    return "A" <= c <= "Z"


def _ascii_digit(c):
    return "0" <= c <= "9"


def meta_string_encoding(text, role):
    """Encoding index pyfory picks for a namespace/type name (ASCII input;
    pyfory 1.7.7 cannot encode names with non-ASCII letters, see README)."""
    if not text:
        return 0
    sp1, sp2 = META_SPECIALS[role]
    if all(_ascii_lower(c) or c in "._$|" for c in text):
        return 1
    if all(_ascii_lower(c) or _ascii_upper(c) or _ascii_digit(c) or c in (sp1, sp2) for c in text):
        digits = sum(1 for c in text if _ascii_digit(c))
        uppers = sum(1 for c in text if _ascii_upper(c))
        if digits:
            return 2
        if uppers == 1 and _ascii_upper(text[0]):
            return 3
        if (len(text) + uppers) * 5 < len(text) * 6:
            return 4
        return 2
    return 0


def _pack_bits(values, width):
    total = len(values) * width + 1  # one leading flag bit
    nbytes = (total + 7) // 8
    acc = 0
    for v in values:
        acc = (acc << width) | v
    acc <<= nbytes * 8 - total
    out = bytearray(acc.to_bytes(nbytes, "big"))
    if nbytes * 8 >= total + width:  # room for one more (spurious) char: flag it
        out[0] |= 0x80
    return bytes(out)


def _unpack_bits(data, width):
    count = (len(data) * 8 - 1) // width
    if data[0] & 0x80:
        count -= 1
    acc = int.from_bytes(data, "big")
    nbits = len(data) * 8
    out = []
    for i in range(count):
        shift = nbits - 1 - width * (i + 1)
        out.append((acc >> shift) & ((1 << width) - 1))
    return out


def meta_string_encode(text, role):
    """(encoding index, encoded bytes) of a namespace or type name."""
    enc = meta_string_encoding(text, role)
    if not text:
        return 0, b""
    sp1, sp2 = META_SPECIALS[role]
    if enc == 0:
        return 0, text.encode("utf-8")
    if enc == 1:
        return 1, _pack_bits([_LOWER_SPECIAL_ALPHABET.index(c) for c in text], 5)
    if enc == 3:
        chars = text[0].lower() + text[1:]
        return 3, _pack_bits([_LOWER_SPECIAL_ALPHABET.index(c) for c in chars], 5)
    if enc == 4:
        chars = "".join("|" + c.lower() if _ascii_upper(c) else c for c in text)
        return 4, _pack_bits([_LOWER_SPECIAL_ALPHABET.index(c) for c in chars], 5)

    def v6(c):
        if _ascii_lower(c):
            return ord(c) - 97
        if _ascii_upper(c):
            return 26 + ord(c) - 65
        if _ascii_digit(c):
            return 52 + ord(c) - 48
        return 62 if c == sp1 else 63

    return 2, _pack_bits([v6(c) for c in text], 6)


def meta_string_decode(data, enc, role):
    if not data:
        return ""
    sp1, sp2 = META_SPECIALS[role]
    if enc == 0:
        return data.decode("utf-8")
    if enc == 2:
        table = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789" + sp1 + sp2
        return "".join(table[v] for v in _unpack_bits(data, 6))
    if enc not in (1, 3, 4):
        raise ValueError("unknown meta string encoding {}".format(enc))
    vals = _unpack_bits(data, 5)
    if any(v >= len(_LOWER_SPECIAL_ALPHABET) for v in vals):
        raise ValueError("bad 5-bit meta string character")
    text = "".join(_LOWER_SPECIAL_ALPHABET[v] for v in vals)
    if enc == 3:
        return text[:1].upper() + text[1:]
    if enc == 4:
        out, i = [], 0
        while i < len(text):
            if text[i] == "|":
                if i + 1 >= len(text):
                    raise ValueError("trailing escape in ALL_TO_LOWER_SPECIAL meta string")
                out.append(text[i + 1].upper())
                i += 2
            else:
                out.append(text[i])
                i += 1
        return "".join(out)
    return text


def meta_string_hash(data, enc):
    """The signed 64-bit hash written before an encoding longer than 16 bytes:
    the first half of MurmurHash3_x64_128(data, seed 47) with its low byte
    replaced by the encoding index."""
    h1 = murmur3_x64_128(data, 47)[0]
    return _to_signed((h1 & ~0xFF & _MASK64) | enc, 64)


def _var_uint32_bytes(v):
    out = bytearray()
    while True:
        b = v & 0x7F
        v >>= 7
        if v:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def meta_string_first_write(enc, data):
    """Bytes of a meta string the first time it appears in a stream."""
    out = bytearray(_var_uint32_bytes(len(data) << 1))
    if len(data) > META_SMALL_LIMIT:
        out += struct.pack("<q", meta_string_hash(data, enc))
    elif data:
        out.append(enc)
    return bytes(out + data)


# -- field names -------------------------------------------------------------------


def snake_case(name):
    """The snake_case form pyfory sorts and fingerprints field names by:
    an '_' goes before an upper-case letter that follows a lower-case letter
    or digit, or that starts a new word after an upper-case run
    ("HTTPServer" -> "http_server"); trailing '_' are dropped."""
    out = []
    prev = ""
    for i, ch in enumerate(name):
        if ch.isupper():
            next_lower = i + 1 < len(name) and name[i + 1].islower()
            boundary = prev.islower() or prev.isdigit() or (prev.isupper() and next_lower)
            if out and out[-1] != "_" and boundary:
                out.append("_")
            out.append(ch.lower())
        else:
            out.append(ch)
        prev = ch
    return "".join(out).rstrip("_")


def _is_ascii_identifier(name):
    import keyword

    return (
        isinstance(name, str)
        and name.isascii()
        and name.isidentifier()
        and not keyword.iskeyword(name)
    )


# -- the type table ------------------------------------------------------------------

_STRUCT_DEF_KEYS = {"name", "kind", "register", "fields", "field_order", "fingerprint", "hash", "meta_strings", "note"}
_ENUM_DEF_KEYS = {"name", "kind", "register", "variants", "meta_strings", "note"}
# keys of the compatible-mode vector files (vectors_compat/): the TypeDef pyfory
# writes for the type, and evolution types that share one registration
_COMPAT_DEF_KEYS = {"typedef_hex", "typedef", "typedef_error", "alias_of_registration", "version"}
_RESERVED_TYPE_NAMES = set(SCALAR_NAMES) | {"none", "any", "list", "set", "map", "option", "null", "struct", "enum"}


class TypeTable:
    """The struct and enum definitions of one vector file."""

    def __init__(self, defs):
        if not isinstance(defs, list):
            raise VectorError("'types' must be a list")
        self._defs = {}
        self._by_id = {}
        self._by_reg_name = {}
        self._alias_regs = {}  # registration key -> alias types sharing it
        for d in defs:
            self._add(d)
        self._fields = {}
        self._ref_fields = {}  # struct name -> names of its "ref": true fields (vectors_refs/)
        for name, d in self._defs.items():
            if d["kind"] == "struct":
                self._fields[name] = self._parse_fields(d)
                self._ref_fields[name] = frozenset(f["name"] for f in d["fields"] if f.get("ref"))
        self._check_acyclic()
        self._order_cache = {}
        self._classes = None
        self._check_defaults()

    # validation ----------------------------------------------------------------
    def _add(self, d):
        if not isinstance(d, dict):
            raise VectorError("type definition is not an object: {!r}".format(d))
        name = d.get("name")
        if not _is_ascii_identifier(name) or name in _RESERVED_TYPE_NAMES:
            raise VectorError("bad type name {!r}".format(name))
        if name in self._defs:
            raise VectorError("type {} defined twice".format(name))
        kind = d.get("kind")
        if kind not in ("struct", "enum"):
            raise VectorError("type {}: kind must be struct or enum".format(name))
        extra = set(d) - (_STRUCT_DEF_KEYS if kind == "struct" else _ENUM_DEF_KEYS) - _COMPAT_DEF_KEYS
        if extra:
            raise VectorError("type {}: unknown keys {}".format(name, sorted(extra)))
        alias = d.get("alias_of_registration", False)
        if alias is not False and alias is not True:
            raise VectorError("type {}: alias_of_registration must be a boolean".format(name))
        if "version" in d and (type(d["version"]) is not int or not alias):
            raise VectorError("type {}: 'version' must be an integer, on an alias_of_registration type".format(name))
        reg = d.get("register")
        if not isinstance(reg, dict):
            raise VectorError("type {}: no 'register'".format(name))
        if set(reg) == {"id"}:
            uid = reg["id"]
            if type(uid) is not int or not 1 <= uid <= 0xFFFFFFFE:
                raise VectorError("type {}: bad id {!r}".format(name, uid))
            if alias:
                self._add_alias(name, kind, ("id", uid), self._by_id.get(uid))
            else:
                if uid in self._by_id or ("id", uid) in self._alias_regs:
                    raise VectorError("type {}: id {} already used by {}".format(name, uid, self._by_id.get(uid, "an alias type")))
                self._by_id[uid] = name
        elif set(reg) == {"namespace", "typename"}:
            ns, tn = reg["namespace"], reg["typename"]
            if not isinstance(ns, str) or not isinstance(tn, str) or not tn or "." in tn or ns.endswith("."):
                raise VectorError("type {}: bad namespace/typename {!r}".format(name, reg))
            if alias:
                self._add_alias(name, kind, ("name", ns, tn), self._by_reg_name.get((ns, tn)))
            else:
                if (ns, tn) in self._by_reg_name or ("name", ns, tn) in self._alias_regs:
                    raise VectorError("type {}: name {!r} already used".format(name, reg))
                self._by_reg_name[(ns, tn)] = name
        else:
            raise VectorError("type {}: 'register' needs 'id' or 'namespace'+'typename'".format(name))
        if kind == "enum":
            variants = d.get("variants")
            if not isinstance(variants, list) or not variants:
                raise VectorError("enum {}: no variants".format(name))
            names, ids = set(), set()
            for v in variants:
                if not isinstance(v, dict) or set(v) - {"name", "id", "py_value"} or not _is_ascii_identifier(v.get("name")):
                    raise VectorError("enum {}: bad variant {!r}".format(name, v))
                if type(v.get("id")) is not int or not 0 <= v["id"] <= 0xFFFFFFFF:
                    raise VectorError("enum {}: bad variant id {!r}".format(name, v))
                if v["name"] in names or v["id"] in ids:
                    raise VectorError("enum {}: duplicate variant {!r}".format(name, v))
                names.add(v["name"])
                ids.add(v["id"])
        else:
            if not isinstance(d.get("fields"), list):
                raise VectorError("struct {}: no field list".format(name))
        self._defs[name] = d

    def _add_alias(self, name, kind, key, plain_owner):
        """An evolution type (alias_of_registration): it may share its
        registration with other alias types of the same kind, never with a
        plain type, and it is registered only on request (register_with)."""
        if plain_owner is not None:
            raise VectorError("type {}: registration {} already used by the plain type {}".format(name, key[1:], plain_owner))
        owners = self._alias_regs.setdefault(key, [])
        if owners and self._defs[owners[0]]["kind"] != kind:
            raise VectorError("type {}: shares registration {} with {} of another kind".format(name, key[1:], owners[0]))
        owners.append(name)

    def _parse_fields(self, d):
        out = []
        seen, snakes, tags = set(), set(), set()
        for f in d["fields"]:
            if not isinstance(f, dict) or set(f) - {"name", "schema", "tag_id", "default", "ref"}:
                raise VectorError("struct {}: bad field {!r}".format(d["name"], f))
            if "ref" in f and f["ref"] is not True and f["ref"] is not False:
                raise VectorError("struct {}: field {}: 'ref' must be a boolean".format(d["name"], f.get("name")))
            fname = f.get("name")
            if not _is_ascii_identifier(fname) or fname.endswith("_"):
                raise VectorError("struct {}: bad field name {!r}".format(d["name"], fname))
            if fname in seen or snake_case(fname) in snakes:
                raise VectorError("struct {}: field {} clashes with another".format(d["name"], fname))
            seen.add(fname)
            snakes.add(snake_case(fname))
            tree = parse_schema(f.get("schema", ""), self)
            if tree[0] == "none" or ("option" == tree[0] and tree[1][0] in ("any", "none")):
                raise VectorError("struct {}: field {}: schema {} not allowed".format(d["name"], fname, f["schema"]))
            tag = f.get("tag_id")
            if tag is not None:
                if type(tag) is not int or not 0 <= tag < (1 << 29) or tag in tags:
                    raise VectorError("struct {}: field {}: bad tag_id {!r}".format(d["name"], fname, tag))
                tags.add(tag)
            out.append((fname, tree, tag))
        return out

    def _check_acyclic(self):
        """Struct definitions must not be recursive, except through a field
        with "ref": true (reference tracking, vectors_refs/): such a field
        is not followed here."""
        state = {}

        def refs(tree):
            if tree[0] == "named":
                yield tree[1]
            for sub in tree[1:]:
                if isinstance(sub, tuple):
                    yield from refs(sub)

        def visit(name, stack):
            if state.get(name) == "done":
                return
            if state.get(name) == "active":
                raise VectorError("recursive struct definitions are not supported: {}".format(" -> ".join(stack + [name])))
            state[name] = "active"
            for fname, tree, _tag in self._fields.get(name, ()):
                if fname in self._ref_fields.get(name, ()):
                    continue
                for ref in refs(tree):
                    visit(ref, stack + [name])
            state[name] = "done"

        for name in self._defs:
            visit(name, [])

    def _check_defaults(self):
        """A field "default" (a value node) is the value the Python mirror
        gets when the field is missing from the data (compatible mode).
        Once a field of a struct has one, every later field needs one."""
        self._defaults = {}
        for name, d in self._defs.items():
            if d["kind"] != "struct":
                continue
            seen_default = False
            for f, (fname, tree, _tag) in zip(d["fields"], self._fields[name]):
                if "default" in f:
                    seen_default = True
                    errs = schema_errors(tree, f["default"], "{}.{}<default>".format(name, fname), self)
                    if errs:
                        raise VectorError("struct {}: field {}: bad default: {}".format(name, fname, "; ".join(errs[:3])))
                    self._defaults.setdefault(name, {})[fname] = f["default"]
                elif seen_default:
                    raise VectorError("struct {}: field {} needs a default (an earlier field has one)".format(name, fname))

    def field_default(self, name, fname):
        """The default node of a field, or None."""
        return self._defaults.get(name, {}).get(fname)

    # lookups -------------------------------------------------------------------
    def __contains__(self, name):
        return name in self._defs

    def __iter__(self):
        return iter(self._defs)

    def get(self, name):
        return self._defs[name]

    def kind(self, name):
        return self._defs[name]["kind"]

    def type_key(self, name):
        return (self._defs[name]["kind"], name)

    def is_named(self, name):
        return "typename" in self._defs[name]["register"]

    def is_alias(self, name):
        """True for an evolution type (alias_of_registration): not registered
        by register()/make_fory(), only by register_with()."""
        return bool(self._defs[name].get("alias_of_registration", False))

    def alias_closure(self, name):
        """The alias types a value of type ``name`` may contain (itself
        included when it is one), sorted."""
        out, todo = set(), [name]
        while todo:
            n = todo.pop()
            if n in out:
                continue
            out.add(n)
            for _f, tree, _t in self._fields.get(n, ()):
                todo.extend(_named_refs(tree))
        return sorted(n for n in out if self.is_alias(n))

    def registered_view(self, alias_names=()):
        """The types one Fory registers: every plain type plus the given alias
        types (see register_with); by_id / by_reg_name resolve among those."""
        return RegisteredTypes(self, alias_names)

    def by_id(self, uid):
        return self._by_id.get(uid)

    def by_reg_name(self, namespace, typename):
        return self._by_reg_name.get((namespace, typename))

    def fields(self, name):
        """[(field name, schema tree, tag id or None)] in definition order."""
        return self._fields[name]

    def field_ref(self, name, fname):
        """True for a field declared with "ref": true (pyfory.field(ref=True))."""
        return fname in self._ref_fields.get(name, ())

    def field_tree(self, name, fname):
        for f, tree, _tag in self._fields[name]:
            if f == fname:
                return tree
        raise KeyError(fname)

    def variant_by_id(self, name, vid):
        for v in self._defs[name]["variants"]:
            if v["id"] == vid:
                return v["name"]
        return None

    def variant_id(self, name, variant):
        for v in self._defs[name]["variants"]:
            if v["name"] == variant:
                return v["id"]
        return None

    # the rules ---------------------------------------------------------------------
    @staticmethod
    def _sort_key(fname, tag):
        return (0, tag, "") if tag is not None else (1, snake_case(fname), fname)

    def wire_order(self, name):
        """Field names in the order their values are written:
        1. non-nullable primitives, 2. nullable primitives, each sorted by
        (fixed-width before varint/tagged, larger size first, lower type id,
        then tag id / snake_case name); 3. every other field sorted by tag id
        (tagged fields first) and then snake_case name."""
        if name in self._order_cache:
            return self._order_cache[name]
        plain, nullable, other = [], [], []
        for fname, tree, tag in self._fields[name]:
            is_null = tree[0] == "option"
            inner = tree[1] if is_null else tree
            key = self._sort_key(fname, tag)
            if inner[0] == "scalar" and inner[1] in PRIMITIVE_SIZES:
                kind = inner[1]
                pkey = (kind in COMPRESSED_KINDS, -PRIMITIVE_SIZES[kind], TYPE_IDS[kind], key)
                (nullable if is_null else plain).append((pkey, fname))
            else:
                other.append((key, fname))
        order = [f for _k, f in sorted(plain)] + [f for _k, f in sorted(nullable)] + [f for _k, f in sorted(other)]
        self._order_cache[name] = order
        return order

    def _fp_type(self, tree, top, ref=False):
        nullable = "0"
        if tree[0] == "option":
            nullable = "1" if top else "0"
            tree = tree[1]
        # only a top-level field carries its "ref"; children always write 0
        r = "1" if (top and ref) else "0"
        k = tree[0]
        if k == "list":
            return "22,{},{}[{}]".format(r, nullable, self._fp_type(tree[1], False))
        if k == "set":
            return "23,{},{}[{}]".format(r, nullable, self._fp_type(tree[1], False))
        if k == "map":
            return "24,{},{}[{}|{}]".format(r, nullable, self._fp_type(tree[1], False), self._fp_type(tree[2], False))
        if k == "scalar":
            tid = TYPE_IDS[tree[1]]
        else:  # struct and enum names, any
            tid = 0
        return "{},{},{}".format(tid, r, nullable)

    def fingerprint(self, name):
        """'<tag id or snake_case name>,<type id>,<ref>,<nullable>[children];'
        per field, sorted like the non-primitive field group.  <ref> is 1 for
        a field with "ref": true (never for its children)."""
        parts = []
        for fname, tree, tag in self._fields[name]:
            ident = str(tag) if tag is not None else snake_case(fname)
            fp = self._fp_type(tree, True, self.field_ref(name, fname))
            parts.append((self._sort_key(fname, tag), "{},{};".format(ident, fp)))
        return "".join(p for _k, p in sorted(parts))

    def struct_hash(self, name):
        """Signed low 32 bits of MurmurHash3_x64_128(fingerprint, 47)[0]; 47
        when the fingerprint is empty."""
        fp = self.fingerprint(name).encode("utf-8")
        if not fp:
            return 47
        return _to_signed(murmur3_x64_128(fp, 47)[0], 32)

    def meta_strings(self, name):
        """Own encoding of the namespace and type name of a named type."""
        reg = self._defs[name]["register"]
        out = {}
        for role in ("namespace", "typename"):
            enc, data = meta_string_encode(reg[role], role)
            entry = {"text": reg[role], "encoding": META_ENCODING_NAMES[enc], "hex": data.hex(),
                     "first_write_hex": meta_string_first_write(enc, data).hex()}
            out[role] = entry
        return out

    def own_facts_errors(self):
        """Compare the facts stored in the definitions (if any) with our own
        computation of them."""
        problems = []
        for name, d in self._defs.items():
            if d["kind"] == "struct":
                for key, own in (("field_order", self.wire_order(name)), ("fingerprint", self.fingerprint(name)),
                                 ("hash", self.struct_hash(name))):
                    if key in d and d[key] != own:
                        problems.append("type {}: stored {} {!r} differs from the computed {!r}".format(name, key, d[key], own))
            if "meta_strings" in d:
                if not self.is_named(name):
                    problems.append("type {}: meta_strings on a type registered by id".format(name))
                elif d["meta_strings"] != self.meta_strings(name):
                    problems.append("type {}: stored meta_strings differ from the computed ones".format(name))
        problems.extend(typedef_facts_errors(self))  # compatible-mode files only (typedef_* keys)
        return problems

    # Python mirrors (need pyfory) ----------------------------------------------------
    def python_classes(self):
        """name -> Python class: an enum.Enum per enum, a dataclass per struct."""
        if self._classes is None:
            self._classes = _build_python_classes(self)
        return self._classes

    def python_class(self, name):
        return self.python_classes()[name]

    def register(self, fory):
        self.register_with(fory, ())

    def register_with(self, fory, alias_names):
        """Register every plain type, and of the alias types only ``alias_names``
        (which must not share a registration)."""
        alias_names = set(alias_names)
        for a in alias_names:
            if a not in self._defs or not self.is_alias(a):
                raise VectorError("{} is not an alias_of_registration type".format(a))
        RegisteredTypes(self, alias_names)  # checks for clashes
        classes = self.python_classes()
        for name, d in self._defs.items():
            if self.is_alias(name) and name not in alias_names:
                continue
            reg = d["register"]
            if "id" in reg:
                fory.register_type(classes[name], type_id=reg["id"])
            else:
                full = reg["typename"] if not reg["namespace"] else reg["namespace"] + "." + reg["typename"]
                fory.register_type(classes[name], name=full)

    def make_fory(self, settings=None):
        fory = make_fory(settings or STRUCT_SETTINGS)
        self.register(fory)
        return fory

    def make_fory_with(self, settings, alias_names):
        fory = make_fory(settings)
        self.register_with(fory, alias_names)
        return fory


class RegisteredTypes:
    """A view of a TypeTable as one Fory sees it: the plain types plus some
    alias types.  Registration lookups resolve among those; everything else
    is the table's."""

    def __init__(self, table, alias_names):
        self._table = table
        self._ids = dict(table._by_id)
        self._names = dict(table._by_reg_name)
        self.alias_names = tuple(sorted(set(alias_names)))
        for a in self.alias_names:
            reg = table.get(a)["register"]
            if "id" in reg:
                if reg["id"] in self._ids:
                    raise VectorError("{} and {} are both registered with id {}".format(self._ids[reg["id"]], a, reg["id"]))
                self._ids[reg["id"]] = a
            else:
                key = (reg["namespace"], reg["typename"])
                if key in self._names:
                    raise VectorError("{} and {} are both registered as {!r}".format(self._names[key], a, key))
                self._names[key] = a

    def by_id(self, uid):
        return self._ids.get(uid)

    def by_reg_name(self, namespace, typename):
        return self._names.get((namespace, typename))

    def __contains__(self, name):
        return name in self._table

    def __iter__(self):
        return iter(self._table)

    def __getattr__(self, attr):
        return getattr(self._table, attr)


def _scalar_hint(kind):
    from pyfory import annotation

    if kind in ANNOTATION_FOR_KIND:
        return getattr(annotation, ANNOTATION_FOR_KIND[kind])
    if kind in ARRAY_KINDS:
        return array_class(kind)
    return {
        "bool": bool,
        "string": str,
        "binary": bytes,
        "date": datetime.date,
        "timestamp": datetime.datetime,
        "duration": datetime.timedelta,
    }[kind]


def _python_hint(tree, classes):
    import typing

    k = tree[0]
    if k == "option":
        return typing.Optional[_python_hint(tree[1], classes)]
    if k == "list":
        return typing.List[_python_hint(tree[1], classes)]
    if k == "set":
        return typing.Set[_python_hint(tree[1], classes)]
    if k == "map":
        return typing.Dict[_python_hint(tree[1], classes), _python_hint(tree[2], classes)]
    if k == "named":
        return classes[tree[1]]
    if k == "any":
        return typing.Any
    if k == "scalar":
        return _scalar_hint(tree[1])
    raise VectorError("no Python type for schema {}".format(format_schema(tree)))


def _build_python_classes(types):
    import dataclasses
    import enum
    import typing

    pyfory = require_pyfory()
    classes = {}
    for name in types:
        d = types.get(name)
        if d["kind"] == "enum":
            members = [(v["name"], v.get("py_value", v["id"])) for v in d["variants"]]
            classes[name] = enum.Enum(name, members, module=__name__)

    building = set()
    deferred = []  # (class name, field name, schema tree): hints that name a class still being built

    def build(name):
        if name in classes:
            return classes[name]
        building.add(name)
        specs = []
        for fname, tree, tag in types.fields(name):
            cyclic = False
            for ref in _named_refs(tree):
                if ref in building:
                    cyclic = True  # only possible through a "ref": true field (see _check_acyclic)
                else:
                    build(ref)
            if cyclic:
                hint = typing.Any  # replaced below, once every class exists
                deferred.append((name, fname, tree))
            else:
                hint = _python_hint(tree, classes)
            default = types.field_default(name, fname)
            if types.field_ref(name, fname):
                # pyfory.field(ref=True): reference tracking for this field
                # (Optional[T] needs nullable=True as well)
                kwargs = {"ref": True, "nullable": tree[0] == "option"}
                if default is not None:
                    kwargs["default_factory"] = _default_factory(default, types)
                field = pyfory.field(tag, **kwargs) if tag is not None else pyfory.field(**kwargs)
                specs.append((fname, hint, field))
            elif default is not None:
                factory = _default_factory(default, types)
                if tag is not None:
                    specs.append((fname, hint, pyfory.field(tag, nullable=tree[0] == "option", default_factory=factory)))
                else:
                    specs.append((fname, hint, dataclasses.field(default_factory=factory)))
            elif tag is not None:
                specs.append((fname, hint, pyfory.field(tag, nullable=tree[0] == "option")))
            else:
                specs.append((fname, hint))
        cls = dataclasses.make_dataclass(name, specs)
        cls.__module__ = __name__
        classes[name] = cls
        building.discard(name)
        return cls

    for name in types:
        if types.kind(name) == "struct":
            build(name)
    for name, fname, tree in deferred:
        hint = _python_hint(tree, classes)
        cls = classes[name]
        cls.__annotations__[fname] = hint
        cls.__dataclass_fields__[fname].type = hint
    return classes


def _default_factory(node, types):
    """A dataclass default_factory giving a fresh Python value of the node."""
    return lambda: node_to_py(node, types)


def _named_refs(tree):
    if tree[0] == "named":
        yield tree[1]
    for sub in tree[1:]:
        if isinstance(sub, tuple):
            yield from _named_refs(sub)


def pyfory_struct_facts(fory, cls):
    """field_order / fingerprint / hash as pyfory 1.7.7 computes them."""
    from pyfory.struct import compute_struct_fingerprint

    ser = fory.type_resolver.get_type_info(cls).serializer
    if type(ser).__name__ == "DataClassStubSerializer":
        ser = ser._replace()
    fp = compute_struct_fingerprint(ser.type_resolver, ser._field_names, ser._serializers, ser._nullable_fields, ser._field_infos)
    return {"field_order": list(ser._field_names), "fingerprint": fp, "hash": int(ser._hash)}


def pyfory_meta_strings(fory, cls):
    """Namespace and type name of a name-registered type, as pyfory encoded them."""
    ti = fory.type_resolver.get_type_info(cls)
    out = {}
    for role, ems, text in (("namespace", ti.namespace_bytes, ti.decode_namespace()), ("typename", ti.typename_bytes, ti.decode_typename())):
        data = bytes(ems.data)
        enc = ems.encoding if data else 0
        first = bytearray(_var_uint32_bytes(len(data) << 1))
        if len(data) > META_SMALL_LIMIT:
            first += struct.pack("<q", ems.hashcode)
        elif data:
            first.append(enc)
        first += data
        out[role] = {"text": text, "encoding": META_ENCODING_NAMES[enc], "hex": data.hex(), "first_write_hex": bytes(first).hex()}
    return out


def pyfory_facts_errors(types, fory):
    """Compare stored and own facts with what pyfory computes for the Python
    mirrors registered in ``fory``."""
    problems = list(types.own_facts_errors())
    classes = types.python_classes()
    for name in types:
        d = types.get(name)
        if d["kind"] == "struct":
            facts = pyfory_struct_facts(fory, classes[name])
            own = {"field_order": types.wire_order(name), "fingerprint": types.fingerprint(name), "hash": types.struct_hash(name)}
            for key, value in facts.items():
                if own[key] != value:
                    problems.append("type {}: pyfory {} {!r}, computed {!r}".format(name, key, value, own[key]))
        if types.is_named(name):
            pm = pyfory_meta_strings(fory, classes[name])
            if pm != types.meta_strings(name):
                problems.append("type {}: pyfory meta strings {!r}, computed {!r}".format(name, pm, types.meta_strings(name)))
    return problems


# -- nodes of struct / enum values ---------------------------------------------------


def _user_node_to_py(node, types):
    if types is None:
        raise ValueError("a {} node needs the type definitions".format(node["type"]))
    cls = types.python_class(node["name"])
    if node["type"] == "enum":
        return cls[node["variant"]]
    return cls(**{f: node_to_py(v, types) for f, v in node["fields"].items()})


def _compare_user(node, actual, path, types):
    t = node["type"]
    if types is None or node.get("name") not in types:
        return ["{}: no definition for {} {!r}".format(path, t, node.get("name"))]
    cls = types.python_class(node["name"])
    if t == "enum":
        if type(actual) is not cls or actual.name != node["variant"]:
            return ["{}: expected enum {}.{}, got {}".format(path, node["name"], node["variant"], _short(actual))]
        return []
    if type(actual) is not cls:
        return ["{}: expected struct {}, got {}".format(path, node["name"], type(actual).__name__)]
    out = []
    for fname, fnode in node["fields"].items():
        if not hasattr(actual, fname):
            out.append("{}.{}: field missing".format(path, fname))
            continue
        out.extend(compare(fnode, getattr(actual, fname), "{}.{}".format(path, fname), types))
    return out


def _user_schema_errors(name, node, path, types):
    if types is None or name not in types:
        return ["{}: unknown type {}".format(path, name)]
    d = types.get(name)
    t = node["type"]
    if t != d["kind"] or node.get("name") != name:
        return ["{}: schema {} ({}) but node is {} {}".format(path, name, d["kind"], t, node.get("name", ""))]
    if t == "enum":
        vid = types.variant_id(name, node.get("variant"))
        if vid is None or vid != node.get("id"):
            return ["{}: enum {} has no variant {!r} with id {!r}".format(path, name, node.get("variant"), node.get("id"))]
        return []
    expected = [f for f, _t, _g in types.fields(name)]
    fields = node.get("fields")
    if not isinstance(fields, dict) or list(fields) != expected:
        return ["{}: struct {} needs the fields {} in this order, node has {}".format(
            path, name, expected, list(fields) if isinstance(fields, dict) else fields)]
    out = []
    for fname, tree, _tag in types.fields(name):
        out.extend(schema_errors(tree, fields[fname], "{}.{}".format(path, fname), types))
    return out


# -- decoding struct / enum payloads ------------------------------------------------------


def _read_meta_string(r, role):
    header = r.var_uint32()
    if header & 1:
        index = header >> 1
        if not 1 <= index <= len(r.meta_strings):
            r.fail("meta string back-reference {} but only {} read".format(index, len(r.meta_strings)))
        enc, data = r.meta_strings[index - 1]
    else:
        length = header >> 1
        if length == 0:
            enc, data = 0, b""
        elif length <= META_SMALL_LIMIT:
            enc = r.u8()
            data = r.take(length)
        else:
            hashcode = r.fixed(8, True)
            data = r.take(length)
            enc = hashcode & 0xFF
            if enc < len(META_ENCODING_NAMES) and hashcode != meta_string_hash(data, enc):
                r.fail("meta string hash {} does not match its bytes (expected {})".format(hashcode, meta_string_hash(data, enc)))
        if enc >= len(META_ENCODING_NAMES):
            r.fail("unknown meta string encoding {}".format(enc))
        r.meta_strings.append((enc, data))
    try:
        return meta_string_decode(data, enc, role)
    except (ValueError, UnicodeDecodeError, IndexError) as exc:
        r.fail("bad {} meta string: {}".format(role, exc))


def _read_user_type_info(r, tid):
    kind, by_name = USER_TYPE_KINDS[tid]
    if by_name:
        ns = _read_meta_string(r, "namespace")
        tn = _read_meta_string(r, "typename")
        name = r.types.by_reg_name(ns, tn)
        if name is None:
            r.fail("no type registered as namespace {!r} type name {!r}".format(ns, tn))
    else:
        uid = r.var_uint32()
        name = r.types.by_id(uid)
        if name is None:
            r.fail("no type registered with id {}".format(uid))
    if r.types.kind(name) != kind or r.types.is_named(name) != by_name:
        r.fail("type id {} does not fit {} (a {} registered by {})".format(
            tid, name, r.types.kind(name), "name" if r.types.is_named(name) else "id"))
    return (kind, name)


def _read_user_payload(r, key):
    kind, name = key
    if kind == "struct" and getattr(r, "compat", False):
        return _read_compat_struct(r, name)
    if kind == "enum":
        vid = r.var_uint32()
        variant = r.types.variant_by_id(name, vid)
        if variant is None:
            r.fail("enum {} has no variant with id {}".format(name, vid))
        return {"type": "enum", "name": name, "variant": variant, "id": vid}
    got = r.fixed(4, True)
    expected = r.types.struct_hash(name)
    if got != expected:
        r.fail("struct {}: schema hash {} but expected {}".format(name, got, expected))
    values = {}
    for fname in r.types.wire_order(name):
        values[fname] = _read_struct_field(r, r.types.field_tree(name, fname))
    return {"type": "struct", "name": name, "fields": {f: values[f] for f, _t, _g in r.types.fields(name)}}


def _read_struct_field(r, tree):
    if tree[0] == "option":
        if not _read_ref_flag(r):
            return {"type": "null"}
        tree = tree[1]
    k = tree[0]
    if k == "any":
        return _read_payload(r, _read_type_id(r), None)
    if k == "named":
        key = r.types.type_key(tree[1])
        if key[0] == "struct" and r.types.is_named(tree[1]):
            start = r.pos
            got = _read_type_id(r)
            if got != key:
                r.pos = start
                r.fail("expected the type info of named struct {}, got {!r}".format(tree[1], got))
        return _read_user_payload(r, key)
    if k == "scalar":
        return _read_payload(r, TYPE_IDS[tree[1]], tree)
    if k in ("list", "set", "map"):
        return _read_payload(r, TYPE_IDS[k], tree)
    r.fail("cannot read a field of schema {}".format(format_schema(tree)))


# -- loading several vector directories -----------------------------------------------------


def load_vector_dirs(directories):
    """load_vectors() for each directory; names must be unique across all."""
    vectors = []
    seen = {}
    for directory in directories:
        for vec in load_vectors(directory):
            if vec["name"] in seen:
                raise VectorError("duplicate vector name {!r} in {} and {}".format(vec["name"], seen[vec["name"]], directory))
            seen[vec["name"]] = directory
            vectors.append(vec)
    return vectors


# ---------------------------------------------------------------------------
# compatible mode (vectors_compat/): TypeDef meta and TypeDef-driven decoding
# ---------------------------------------------------------------------------
#
# With compatible=True pyfory registers structs as COMPATIBLE_STRUCT (28) or
# NAMED_COMPATIBLE_STRUCT (30) and describes each struct type once per stream
# with a TypeDef: the type info is the kind byte, a var_uint32 marker
# ``index << 1`` followed by the TypeDef bytes (first use in the stream) or
# ``(index << 1) | 1`` (back-reference), index counting the TypeDefs of the
# stream from 0.  NAMED_ENUM (26) uses the same shared meta; ENUM (25) keeps
# its var_uint32 user id.  The functions below are our own reading of
# pyfory 1.7.7; generate_compat.py checks each TypeDef pyfory writes against
# typedef_encode() and decodes every stream with decode_wire_compat().

DEFAULT_COMPAT_VECTOR_DIR = os.path.join(HERE, "vectors_compat")
COMPAT_SETTINGS = {"xlang": True, "ref": False, "compatible": True}

UNKNOWN_TYPE_ID = 0
COMPATIBLE_STRUCT_TYPE_ID = 28
NAMED_COMPATIBLE_STRUCT_TYPE_ID = 30
# type id -> (kind, registered by name) for the type infos that carry shared meta
COMPAT_TYPE_INFO_IDS = {
    NAMED_ENUM_TYPE_ID: ("enum", True),
    COMPATIBLE_STRUCT_TYPE_ID: ("struct", False),
    NAMED_COMPATIBLE_STRUCT_TYPE_ID: ("struct", True),
}

TYPEDEF_STRUCT_FLAG = 0x80
TYPEDEF_COMPATIBLE_FLAG = 0x40
TYPEDEF_NAMED_FLAG = 0x20
TYPEDEF_SMALL_FIELD_COUNT = 0x1F  # 31: the count continues as a var_uint32
TYPEDEF_SIZE_MASK = 0xFF  # 255: the size continues as a var_uint32
TYPEDEF_COMPRESS_FLAG = 0x100
TYPEDEF_RESERVED_FLAGS = 0xE00
TYPEDEF_HASH_SHIFT = 12
TYPEDEF_BIG_NAME = 0x3F  # 63: the length of a namespace / type name continues as a var_uint32
TYPEDEF_FIELD_SIZE_LIMIT = 0x0F  # 15: name size - 1 / tag id continues as a var_uint32
TYPEDEF_NON_STRUCT_KINDS = ("ENUM", "NAMED_ENUM", "EXT", "NAMED_EXT", "TYPED_UNION", "NAMED_UNION")
# the meta-string encodings a TypeDef can name, by the 2-bit index it writes
# (values are META_ENCODING_NAMES indexes); for field names index 3 is TAG_ID
TYPEDEF_NAME_ENCODINGS = {
    "namespace": (0, 4, 2),  # UTF_8, ALL_TO_LOWER_SPECIAL, LOWER_UPPER_DIGIT_SPECIAL
    "typename": (0, 4, 2, 3),  # ... and FIRST_TO_LOWER_SPECIAL
    "field": (0, 4, 2),
}
TYPEDEF_FIELD_TAG_ID = 3
_TYPEDEF_SPECIALS = {"namespace": (".", "_"), "typename": ("$", "_"), "field": ("$", "_")}

FIELD_TYPE_KINDS = dict(TYPE_NAMES)
FIELD_TYPE_KINDS.update({
    UNKNOWN_TYPE_ID: "unknown",
    ENUM_TYPE_ID: "enum",
    COMPATIBLE_STRUCT_TYPE_ID: "compatible_struct",
    NAMED_COMPATIBLE_STRUCT_TYPE_ID: "named_compatible_struct",
})


class TypeDefError(VectorError):
    """pyfory 1.7.7 cannot encode a TypeDef for this type (see README)."""


def typedef_name_encoding(text, role):
    """META_ENCODING_NAMES index pyfory 1.7.7 picks for a name inside a
    TypeDef.  Its encoder tries LOWER_SPECIAL only if allowed (never here),
    then LOWER_UPPER_DIGIT_SPECIAL-compatible text: digits -> LUDS, a single
    leading capital -> FIRST_TO_LOWER_SPECIAL (even where that encoding is
    not allowed: pyfory then fails), (len + capitals) * 5 < len * 6 ->
    ALL_TO_LOWER_SPECIAL, else LUDS; any other text is UTF_8."""
    if not text:
        return 0
    sp1, sp2 = _TYPEDEF_SPECIALS[role]
    if all(_ascii_lower(c) or _ascii_upper(c) or _ascii_digit(c) or c in (sp1, sp2) for c in text):
        digits = sum(1 for c in text if _ascii_digit(c))
        uppers = sum(1 for c in text if _ascii_upper(c))
        if digits:
            return 2
        if uppers == 1 and _ascii_upper(text[0]):
            if 3 not in TYPEDEF_NAME_ENCODINGS[role]:
                raise TypeDefError(
                    "{} {!r}: pyfory 1.7.7 picks FIRST_TO_LOWER_SPECIAL, which a TypeDef {} cannot name "
                    "(ValueError: <Encoding.FIRST_TO_LOWER_SPECIAL: 3> is not in list)".format(role, text, role))
            return 3
        if (len(text) + uppers) * 5 < len(text) * 6:
            return 4
        return 2
    return 0


def meta_string_encode_as(text, enc, role):
    """Encode ``text`` with the META_ENCODING_NAMES index ``enc``; ``role``
    is "namespace", "typename" or "field" (the two special characters)."""
    if not text:
        return b""
    if enc == 0:
        return text.encode("utf-8")
    if enc in (1, 3, 4):
        if enc == 3:
            chars = text[0].lower() + text[1:]
        elif enc == 4:
            chars = "".join("|" + c.lower() if _ascii_upper(c) else c for c in text)
        else:
            chars = text
        return _pack_bits([_LOWER_SPECIAL_ALPHABET.index(c) for c in chars], 5)
    sp1, sp2 = _TYPEDEF_SPECIALS[role]

    def v6(c):
        if _ascii_lower(c):
            return ord(c) - 97
        if _ascii_upper(c):
            return 26 + ord(c) - 65
        if _ascii_digit(c):
            return 52 + ord(c) - 48
        return 62 if c == sp1 else 63

    return _pack_bits([v6(c) for c in text], 6)


def typedef_header_hash(body, low_bits):
    """The hash part (bits 12..63) of a TypeDef header: h = the first 64-bit
    half of MurmurHash3_x64_128(body + the two low bytes of low_bits, seed
    47) as a signed int64; s = int64(h << 12) (wrapping); s = -s when s is
    negative (and not INT64_MIN); the result is s with its low 12 bits
    cleared, as an unsigned 64-bit number."""
    h1 = murmur3_x64_128(bytes(body) + bytes((low_bits & 0xFF, (low_bits >> 8) & 0xFF)), 47)[0]
    shifted = _to_signed((h1 << TYPEDEF_HASH_SHIFT) & _MASK64, 64)
    if shifted < 0 and shifted != -(1 << 63):
        shifted = -shifted
    return shifted & _MASK64 & ~((1 << TYPEDEF_HASH_SHIFT) - 1)


def typedef_field_type(types, tree, ref=False):
    """The TypeDef type tree of a field schema:
    {"id", "nullable", "ref"[, "element" | "key", "value"]}.  Structs
    registered by id are COMPATIBLE_STRUCT (28), by name
    NAMED_COMPATIBLE_STRUCT (30); every enum is ENUM (25); any is UNKNOWN (0).
    ``ref`` is the field's "ref": true (with Fory(ref=True), vectors_refs/):
    pyfory 1.7.7 sets the ref bit on the field and on every element, key and
    value type below it."""
    nullable = tree[0] == "option"
    if nullable:
        tree = tree[1]
    k = tree[0]
    out = {"id": None, "nullable": nullable, "ref": bool(ref)}
    if k == "scalar":
        out["id"] = TYPE_IDS[tree[1]]
    elif k == "any":
        out["id"] = UNKNOWN_TYPE_ID
    elif k == "named":
        if types.kind(tree[1]) == "enum":
            out["id"] = ENUM_TYPE_ID
        else:
            out["id"] = NAMED_COMPATIBLE_STRUCT_TYPE_ID if types.is_named(tree[1]) else COMPATIBLE_STRUCT_TYPE_ID
    elif k in ("list", "set"):
        out["id"] = TYPE_IDS[k]
        out["element"] = typedef_field_type(types, tree[1], ref)
    elif k == "map":
        out["id"] = TYPE_IDS[k]
        out["key"] = typedef_field_type(types, tree[1], ref)
        out["value"] = typedef_field_type(types, tree[2], ref)
    else:
        raise VectorError("no TypeDef type for schema {}".format(format_schema(tree)))
    return out


def _write_typedef_type(out, ft, top):
    if top:
        out.append(ft["id"])  # one byte; nullable/ref are in the field header
    else:
        out += _var_uint32_bytes((ft["id"] << 2) | (2 if ft["nullable"] else 0) | (1 if ft["ref"] else 0))
    if "element" in ft:
        _write_typedef_type(out, ft["element"], False)
    elif "key" in ft:
        _write_typedef_type(out, ft["key"], False)
        _write_typedef_type(out, ft["value"], False)


def _write_typedef_name(out, text, role):
    enc = typedef_name_encoding(text, role)
    data = meta_string_encode_as(text, enc, role)
    index = TYPEDEF_NAME_ENCODINGS[role].index(enc)
    if len(data) >= TYPEDEF_BIG_NAME:
        out.append((TYPEDEF_BIG_NAME << 2) | index)
        out += _var_uint32_bytes(len(data) - TYPEDEF_BIG_NAME)
    else:
        out.append((len(data) << 2) | index)
    out += data


def typedef_body(types, name):
    """Our own encoding of the TypeDef body (everything after the 8-byte
    header and its size extension) of a struct or enum."""
    d = types.get(name)
    out = bytearray()
    named = types.is_named(name)
    fields = []
    if d["kind"] == "struct":
        by_name = {f: (tree, tag) for f, tree, tag in types.fields(name)}
        fields = [(f,) + by_name[f] for f in types.wire_order(name)]
        header = TYPEDEF_STRUCT_FLAG | TYPEDEF_COMPATIBLE_FLAG | (TYPEDEF_NAMED_FLAG if named else 0)
        header |= min(len(fields), TYPEDEF_SMALL_FIELD_COUNT)
        out.append(header)
        if len(fields) >= TYPEDEF_SMALL_FIELD_COUNT:
            out += _var_uint32_bytes(len(fields) - TYPEDEF_SMALL_FIELD_COUNT)
    else:
        out.append(TYPEDEF_NON_STRUCT_KINDS.index("NAMED_ENUM" if named else "ENUM"))
    reg = d["register"]
    if named:
        _write_typedef_name(out, reg["namespace"], "namespace")
        _write_typedef_name(out, reg["typename"], "typename")
    else:
        out += _var_uint32_bytes(reg["id"])
    for fname, tree, tag in fields:
        ft = typedef_field_type(types, tree, types.field_ref(name, fname))
        header = (2 if ft["nullable"] else 0) | (1 if ft["ref"] else 0)
        if tag is not None:
            header |= TYPEDEF_FIELD_TAG_ID << 6
            if tag >= TYPEDEF_FIELD_SIZE_LIMIT:
                out.append(header | (TYPEDEF_FIELD_SIZE_LIMIT << 2))
                out += _var_uint32_bytes(tag - TYPEDEF_FIELD_SIZE_LIMIT)
            else:
                out.append(header | (tag << 2))
            _write_typedef_type(out, ft, True)
            continue
        enc = typedef_name_encoding(fname, "field")
        data = meta_string_encode_as(fname, enc, "field")
        header |= TYPEDEF_NAME_ENCODINGS["field"].index(enc) << 6
        size = len(data) - 1
        if size >= TYPEDEF_FIELD_SIZE_LIMIT:
            out.append(header | (TYPEDEF_FIELD_SIZE_LIMIT << 2))
            out += _var_uint32_bytes(size - TYPEDEF_FIELD_SIZE_LIMIT)
        else:
            out.append(header | (size << 2))
        _write_typedef_type(out, ft, True)
        out += data
    return bytes(out)


def typedef_encode(types, name):
    """Our own encoding of the whole TypeDef of a type: the 8-byte
    little-endian header (hash | compress flag | min(size, 255)), a
    var_uint32 ``size - 255`` when size >= 255, then the body."""
    body = typedef_body(types, name)
    low = min(len(body), TYPEDEF_SIZE_MASK)
    header = typedef_header_hash(body, low) | low
    out = bytearray(header.to_bytes(8, "little"))
    if len(body) >= TYPEDEF_SIZE_MASK:
        out += _var_uint32_bytes(len(body) - TYPEDEF_SIZE_MASK)
    return bytes(out + body)


def _typedef_type_desc(ft):
    out = {"id": ft["id"], "kind": FIELD_TYPE_KINDS.get(ft["id"], "?"), "nullable": ft["nullable"], "ref": ft["ref"]}
    if "element" in ft:
        out["element"] = _typedef_type_desc(ft["element"])
    if "key" in ft:
        out["key"] = _typedef_type_desc(ft["key"])
        out["value"] = _typedef_type_desc(ft["value"])
    return out


def _read_typedef_type(r, top, nullable=False, ref=False):
    if top:
        tid = r.u8()
    else:
        v = r.var_uint32()
        tid, nullable, ref = v >> 2, bool(v & 2), bool(v & 1)
    ft = {"id": tid, "nullable": nullable, "ref": ref}
    if tid in (TYPE_IDS["list"], TYPE_IDS["set"]):
        ft["element"] = _read_typedef_type(r, False)
    elif tid == TYPE_IDS["map"]:
        ft["key"] = _read_typedef_type(r, False)
        ft["value"] = _read_typedef_type(r, False)
    elif tid not in FIELD_TYPE_KINDS:
        r.fail("unknown TypeDef field type id {}".format(tid))
    return ft


def _read_typedef_name(r, role):
    header = r.u8()
    index, size = header & 3, header >> 2
    if index >= len(TYPEDEF_NAME_ENCODINGS[role]):
        r.fail("bad TypeDef {} encoding index {}".format(role, index))
    if size == TYPEDEF_BIG_NAME:
        size += r.var_uint32()
    enc = TYPEDEF_NAME_ENCODINGS[role][index]
    data = r.take(size)
    try:
        text = meta_string_decode(data, enc, "namespace" if role == "namespace" else "typename")
    except (ValueError, UnicodeDecodeError, IndexError) as exc:
        r.fail("bad TypeDef {}: {}".format(role, exc))
    return {"text": text, "encoding": META_ENCODING_NAMES[enc], "hex": data.hex()}


def read_typedef(r):
    """Read one TypeDef at the reader's position.  Returns its description
    (see README, "TypeDef description"), with the raw bytes under "_raw"."""
    start = r.pos
    header = r.fixed(8, False)
    low = header & 0xFFF
    if low & TYPEDEF_RESERVED_FLAGS:
        r.fail("reserved TypeDef header bits set: 0x{:x}".format(low))
    size = header & TYPEDEF_SIZE_MASK
    extended = None
    if size == TYPEDEF_SIZE_MASK:
        extended = r.var_uint32()
        size += extended
    compressed = bool(header & TYPEDEF_COMPRESS_FLAG)
    if compressed:
        r.fail("compressed TypeDef")
    body = r.take(size)
    expected_hash = typedef_header_hash(body, low)
    if header & ~0xFFF & _MASK64 != expected_hash:
        r.fail("TypeDef hash 0x{:x} but the body hashes to 0x{:x}".format(header >> 12, expected_hash >> 12))
    b = WireReader(body)
    meta = b.u8()
    desc = {
        "header": {
            "hex": r.data[start : start + 8].hex(),
            "size": size,
            "size_extension": extended,
            "compressed": compressed,
            "hash": "{:013x}".format(header >> TYPEDEF_HASH_SHIFT),
        },
    }
    if meta & TYPEDEF_STRUCT_FLAG:
        count = meta & TYPEDEF_SMALL_FIELD_COUNT
        if count == TYPEDEF_SMALL_FIELD_COUNT:
            count += b.var_uint32()
        named = bool(meta & TYPEDEF_NAMED_FLAG)
        compatible = bool(meta & TYPEDEF_COMPATIBLE_FLAG)
        desc["meta_header"] = {"byte": "{:02x}".format(meta), "struct": True, "compatible": compatible,
                               "by_name": named, "field_count": count}
        desc["kind"] = ("NAMED_" if named else "") + ("COMPATIBLE_STRUCT" if compatible else "STRUCT")
    else:
        if meta & 0x70 or (meta & 0x0F) >= len(TYPEDEF_NON_STRUCT_KINDS):
            b.fail("bad non-struct TypeDef kind byte 0x{:02x}".format(meta))
        kind = TYPEDEF_NON_STRUCT_KINDS[meta & 0x0F]
        named = kind.startswith("NAMED_")
        count = 0
        desc["meta_header"] = {"byte": "{:02x}".format(meta), "struct": False, "kind_code": meta & 0x0F}
        desc["kind"] = kind
    if named:
        desc["registration"] = {"namespace": _read_typedef_name(b, "namespace"),
                                "typename": _read_typedef_name(b, "typename")}
    else:
        desc["registration"] = {"id": b.var_uint32()}
    fields = []
    for _ in range(count):
        h = b.u8()
        nullable, ref = bool(h & 2), bool(h & 1)
        size_or_tag = (h >> 2) & 0x0F
        enc_index = h >> 6
        if size_or_tag == TYPEDEF_FIELD_SIZE_LIMIT:
            size_or_tag += b.var_uint32()
        ft = _read_typedef_type(b, True, nullable, ref)
        f = {}
        if enc_index == TYPEDEF_FIELD_TAG_ID:
            f["tag_id"] = size_or_tag
        else:
            enc = TYPEDEF_NAME_ENCODINGS["field"][enc_index]
            data = b.take(size_or_tag + 1)
            try:
                f["name"] = meta_string_decode(data, enc, "typename")
            except (ValueError, UnicodeDecodeError, IndexError) as exc:
                b.fail("bad field name: {}".format(exc))
            f["name_encoding"] = META_ENCODING_NAMES[enc]
            f["name_hex"] = data.hex()
        f["nullable"] = nullable
        f["ref"] = ref
        f["type"] = _typedef_type_desc(ft)
        fields.append(f)
    if b.pos != len(body):
        b.fail("{} bytes left in the TypeDef body".format(len(body) - b.pos))
    desc["fields"] = fields
    desc["_raw"] = r.data[start : r.pos]
    return desc


def typedef_describe(data):
    """Description of the TypeDef bytes ``data`` (which must be exactly one TypeDef)."""
    r = WireReader(data)
    desc = read_typedef(r)
    if r.pos != len(r.data):
        r.fail("{} bytes after the TypeDef".format(len(r.data) - r.pos))
    desc.pop("_raw")
    return desc


def _typedef_type_node_matches(desc_type, ft):
    """Does a described TypeDef type tree (from read_typedef) equal ours (from typedef_field_type)?"""
    if desc_type["id"] != ft["id"] or desc_type["nullable"] != ft["nullable"] or desc_type["ref"] != ft["ref"]:
        return False
    for k in ("element", "key", "value"):
        if (k in desc_type) != (k in ft):
            return False
        if k in ft and not _typedef_type_node_matches(desc_type[k], ft[k]):
            return False
    return True


class CompatWireReader(WireReader):
    """WireReader for compatible-mode streams: struct payloads follow the
    TypeDef that came with them (no schema hash), and struct / named-enum
    type infos are shared-meta markers."""

    compat = True

    def __init__(self, data, types):
        WireReader.__init__(self, data, types)
        self.typedefs = []  # index -> (kind, type name, description)
        self.struct_defs = {}  # type name -> TypeDef description used in this stream
        self.typedef_bytes = {}  # type name -> raw TypeDef bytes seen in this stream


def _read_compat_type_info(r, tid):
    kind, by_name = COMPAT_TYPE_INFO_IDS[tid]
    marker = r.var_uint32()
    index = marker >> 1
    if marker & 1:
        if index >= len(r.typedefs):
            r.fail("TypeDef back-reference {} but only {} TypeDefs read".format(index, len(r.typedefs)))
        got_kind, name, desc = r.typedefs[index]
    else:
        if index != len(r.typedefs):
            r.fail("new TypeDef with index {} but {} TypeDefs read".format(index, len(r.typedefs)))
        desc = read_typedef(r)
        raw = desc.pop("_raw")
        reg = desc["registration"]
        if "id" in reg:
            name = r.types.by_id(reg["id"])
        else:
            name = r.types.by_reg_name(reg["namespace"]["text"], reg["typename"]["text"])
        if name is None:
            r.fail("TypeDef of an unregistered type {}".format(reg))
        got_kind = r.types.kind(name)
        try:
            own = typedef_encode(r.types, name)
        except VectorError as exc:
            r.fail("cannot encode the TypeDef of {}: {}".format(name, exc))
        if own != raw:
            r.fail("TypeDef of {} is {} but ours is {}".format(name, raw.hex(), own.hex()))
        if name in r.typedef_bytes and r.typedef_bytes[name] != raw:
            r.fail("two different TypeDefs of {} in one stream".format(name))
        r.typedef_bytes[name] = raw
        r.typedefs.append((got_kind, name, desc))
        if got_kind == "struct":
            r.struct_defs[name] = desc
    if got_kind != kind or r.types.is_named(name) != by_name:
        r.fail("type id {} with the TypeDef of {} (a {} registered by {})".format(
            tid, name, got_kind, "name" if r.types.is_named(name) else "id"))
    return (kind, name)


def _read_compat_struct(r, name):
    desc = r.struct_defs.get(name)
    if desc is None:
        r.fail("struct {} without a TypeDef in this stream".format(name))
    by_tag = {tag: (f, tree) for f, tree, tag in r.types.fields(name) if tag is not None}
    by_name = {f: (f, tree) for f, tree, tag in r.types.fields(name) if tag is None}
    values = {}
    for fd in desc["fields"]:
        hit = by_tag.get(fd["tag_id"]) if "tag_id" in fd else by_name.get(fd["name"])
        if hit is None:
            r.fail("struct {}: TypeDef field {} is not in the definition".format(name, fd.get("name", fd.get("tag_id"))))
        fname, tree = hit
        values[fname] = _read_compat_field(r, fd, tree)
    missing = [f for f, _t, _g in r.types.fields(name) if f not in values]
    if missing:
        r.fail("struct {}: fields {} are not in the TypeDef".format(name, missing))
    return {"type": "struct", "name": name, "fields": {f: values[f] for f, _t, _g in r.types.fields(name)}}


def _read_compat_field(r, fd, tree):
    """One field value, read as the TypeDef field ``fd`` says (``tree`` is
    our schema of the field, used for declared element types and enums)."""
    if fd["nullable"]:
        if not _read_ref_flag(r):
            return {"type": "null"}
    if tree[0] == "option":
        tree = tree[1]
    tid = fd["type"]["id"]
    if tid == UNKNOWN_TYPE_ID:
        return _read_payload(r, _read_type_id(r), None)
    if tid == ENUM_TYPE_ID:
        if tree[0] != "named" or r.types.kind(tree[1]) != "enum":
            r.fail("ENUM field for schema {}".format(format_schema(tree)))
        return _read_user_payload(r, ("enum", tree[1]))
    if tid in (COMPATIBLE_STRUCT_TYPE_ID, NAMED_COMPATIBLE_STRUCT_TYPE_ID):
        start = r.pos
        key = _read_type_id(r)
        if tree[0] != "named" or key != ("struct", tree[1]):
            r.pos = start
            r.fail("expected the type info of struct {}, got {!r}".format(format_schema(tree), key))
        return _read_user_payload(r, key)
    return _read_payload(r, tid, tree)


def decode_wire_compat(data, schema, types, alias_names=()):
    """Decode a compatible-mode stream into a node.  ``types`` is a TypeTable;
    the plain types and ``alias_names`` are the registered ones.  Every TypeDef
    in the stream must equal typedef_encode() of the type it names.  Returns
    (node, {type name: raw TypeDef bytes})."""
    view = types.registered_view(alias_names)
    if isinstance(schema, str):
        schema = parse_schema(schema, types)
    r = CompatWireReader(data, view)
    header = r.u8()
    if header & 0xFC:
        r.fail("unknown header bits 0x{:02x}".format(header))
    if not header & 0x01:
        r.fail("header does not have the xlang bit")
    if header & 0x02:
        r.fail("out-of-band buffers are not supported")
    if not _read_ref_flag(r):
        node = {"type": "null"}
    else:
        node = _read_payload(r, _read_type_id(r), schema)
    if r.pos != len(r.data):
        r.fail("{} trailing bytes".format(len(r.data) - r.pos))
    return node, dict(r.typedef_bytes)


def typedef_facts_errors(types):
    """Stored typedef_hex / typedef / typedef_error of each type against our
    own encoder and decoder."""
    problems = []
    for name in types:
        d = types.get(name)
        if not set(d) & {"typedef_hex", "typedef", "typedef_error"}:
            continue
        if "typedef" in d and "typedef_hex" not in d:
            problems.append("type {}: a typedef description without typedef_hex".format(name))
        try:
            own = typedef_encode(types, name)
            own_error = None
        except TypeDefError as exc:
            own, own_error = None, str(exc)
        if "typedef_error" in d and own_error is None:
            problems.append("type {}: stored typedef_error but we can encode its TypeDef".format(name))
        if "typedef_hex" in d:
            if own is None:
                problems.append("type {}: stored typedef_hex but we cannot encode it: {}".format(name, own_error))
            elif d["typedef_hex"] != own.hex():
                problems.append("type {}: stored typedef_hex {} differs from ours {}".format(name, d["typedef_hex"], own.hex()))
            else:
                try:
                    desc = typedef_describe(own)
                except WireError as exc:
                    problems.append("type {}: cannot describe its TypeDef: {}".format(name, exc))
                    continue
                if "typedef" in d and d["typedef"] != desc:
                    problems.append("type {}: stored typedef description differs from ours".format(name))
                if d["kind"] == "struct":
                    by_name = {f: (tree, tag) for f, tree, tag in types.fields(name)}
                    for fname, fdesc in zip(types.wire_order(name), desc["fields"]):
                        tree, _tag = by_name[fname]
                        ft = typedef_field_type(types, tree, types.field_ref(name, fname))
                        if not _typedef_type_node_matches(fdesc["type"], ft):
                            problems.append("type {}: field {}: TypeDef type differs".format(name, fname))
    return problems


def pyfory_typedef(fory, cls):
    """The TypeDef bytes pyfory 1.7.7 encodes for a registered class."""
    from pyfory.meta.typedef_encoder import encode_typedef

    return bytes(encode_typedef(fory.type_resolver, cls).encoded)


def pyfory_compat_facts_errors(types, settings=None):
    """For each type with typedef_hex / typedef_error: pyfory must encode the
    same TypeDef bytes (or fail the same way).  Alias types are encoded in a
    Fory that registers them (and their alias closure)."""
    settings = settings or COMPAT_SETTINGS
    problems = list(types.own_facts_errors())
    cache = {}
    for name in types:
        d = types.get(name)
        if "typedef_hex" not in d and "typedef_error" not in d:
            continue
        key = tuple(types.alias_closure(name))
        if key not in cache:
            cache[key] = types.make_fory_with(settings, key)
        fory = cache[key]
        try:
            got = pyfory_typedef(fory, types.python_class(name)).hex()
            err = None
        except Exception as exc:  # noqa: BLE001 - pyfory's own failure is the fact
            got, err = None, "{}: {}".format(type(exc).__name__, exc)
        if "typedef_hex" in d and got != d["typedef_hex"]:
            problems.append("type {}: pyfory TypeDef {} ({}), stored {}".format(name, got, err, d["typedef_hex"]))
        if "typedef_error" in d and err is None:
            problems.append("type {}: stored typedef_error, but pyfory encodes {}".format(name, got))
    return problems


# ---------------------------------------------------------------------------
# reference tracking (vectors_refs/): Fory(xlang=True, ref=True, ...)
# ---------------------------------------------------------------------------
#
# With ref=True pyfory gives every value it writes with a REF_VALUE flag
# (0x00) the next reference id (from 0, in wire order) and writes a later
# occurrence of the same Python object as REF (0xfe) + var_uint32 id.  In a
# node, a value that carried 0x00 has the extra key "ref_id"; a back
# reference is {"type": "ref", "id": N}.  The node is a tree: cycles and
# sharing are expressed only by "ref" nodes.  The rules below (where pyfory
# writes which flag) are our own reading of pyfory 1.7.7; generate_refs.py
# checks them against pyfory for every vector.

DEFAULT_REFS_VECTOR_DIR = os.path.join(HERE, "vectors_refs")
REFS_SETTINGS_SAME = {"xlang": True, "ref": True, "compatible": False}
REFS_SETTINGS_COMPAT = {"xlang": True, "ref": True, "compatible": True}

# wire kinds whose pyfory serializer tracks references (need_to_write_ref);
# every struct does too.  Not tracked: bool, the integer and float kinds,
# string, enums and the dense arrays.
REF_TRACKED_KINDS = frozenset(["binary", "list", "set", "map", "date", "timestamp", "duration"])
# struct field kinds pyfory writes inline ("basic" fields): a "ref": true on
# such a field changes the fingerprint and the TypeDef, but never the bytes
REF_BASIC_FIELD_KINDS = frozenset(
    ["bool", "float32", "float64", "string"] + list(INT_RANGES)
)


def is_ref_vector(vec):
    """A vector written with Fory(ref=True) (vectors_refs/)."""
    return bool((vec.get("settings") or {}).get("ref"))


class RefWireReader(CompatWireReader):
    """WireReader for ref=True streams, same-schema (compatible=False) or
    compatible mode.  Counts the REF_VALUE flags (the next reference id)."""

    def __init__(self, data, types, compatible):
        CompatWireReader.__init__(self, data, types)
        self.compat = bool(compatible)
        self.next_ref_id = 0


def _with_ref_id(node, ref_id):
    if ref_id is None:
        return node
    out = {"type": node["type"], "ref_id": ref_id}
    out.update((k, v) for k, v in node.items() if k != "type")
    return out


def _rr_flagged(r, tracked, read):
    """Read a flag byte, then (for a value) ``read()``.  ``tracked``: the
    position may carry REF_VALUE (0x00, takes the next id) and REF (0xfe +
    id); otherwise only NULL (0xfd) and NOT_NULL (0xff) are valid."""
    start = r.pos
    flag = r.u8()
    if flag == FLAG_NULL:
        return {"type": "null"}
    if flag == FLAG_NOT_NULL:
        return read()
    if tracked and flag == FLAG_REF_VALUE:
        ref_id = r.next_ref_id
        r.next_ref_id += 1  # reserved before the payload: children get later ids
        return _with_ref_id(read(), ref_id)
    if tracked and flag == FLAG_REF:
        ref_id = r.var_uint32()
        if ref_id >= r.next_ref_id:
            r.pos = start
            r.fail("reference to id {} but only {} ids were given".format(ref_id, r.next_ref_id))
        return {"type": "ref", "id": ref_id}
    r.pos = start
    r.fail("flag 0x{:02x} where {} expected".format(
        flag, "a ref flag (fd/ff/00/fe) was" if tracked else "only a null flag (fd/ff) was"))


def _rr_type_id(r):
    if r.types is None and r.pos < len(r.data) and (r.data[r.pos] in USER_TYPE_KINDS or r.data[r.pos] in COMPAT_TYPE_INFO_IDS):
        r.fail("type id {} of an application type, but no type definitions".format(r.data[r.pos]))
    return _read_type_id(r)


def _rr_payload(r, tid, schema=None):
    if isinstance(tid, tuple):
        if tid[0] == "struct":
            return _rr_struct(r, tid[1])
        return _read_user_payload(r, tid)  # enum
    name = TYPE_NAMES.get(tid)
    if name in ("list", "set"):
        return _rr_collection(r, name, schema)
    if name == "map":
        return _rr_map(r, schema)
    if name == "none":
        r.fail("a non-null value of type NONE")
    return _read_payload(r, tid, schema)


def _rr_collection(r, name, schema):
    n = r.var_uint32()
    if n == 0:
        return {"type": name, "items": []}
    flags = r.u8()
    if flags & 0xF0:
        r.fail("unknown collection flag bits 0x{:02x}".format(flags))
    tracking = bool(flags & COLL_TRACKING_REF)
    has_null = bool(flags & COLL_HAS_NULL)
    elem_schema = _schema_child(schema, 0)
    if flags & COLL_SAME_TYPE:
        tid = _declared_type_id(elem_schema, r) if flags & COLL_DECL_ELEM else _rr_type_id(r)

        def read():
            return _rr_payload(r, tid, elem_schema)
    else:
        if flags & COLL_DECL_ELEM:
            r.fail("declared element type on a collection of mixed types")

        def read():
            return _rr_payload(r, _rr_type_id(r), elem_schema)

    items = []
    for _ in range(n):
        items.append(_rr_flagged(r, tracking, read) if (tracking or has_null) else read())
    return {"type": name, "items": items}


def _rr_map(r, schema):
    remaining = r.var_uint32()
    key_schema = _schema_child(schema, 0)
    value_schema = _schema_child(schema, 1)
    entries = []

    def lone_side(decl, track, sub):
        # the non-null side of an entry whose key or value is null
        if decl:
            tid = _declared_type_id(sub, r)
            if track:
                return _rr_flagged(r, True, lambda: _rr_payload(r, tid, sub))
            return _rr_payload(r, tid, sub)
        return _rr_flagged(r, bool(track), lambda: _rr_payload(r, _rr_type_id(r), sub))

    while remaining > 0:
        header = r.u8()
        if header & 0xC0:
            r.fail("unknown map chunk header bits 0x{:02x}".format(header))
        key_null = bool(header & MAP_KEY_NULL)
        value_null = bool(header & MAP_VALUE_NULL)
        if key_null or value_null:
            if key_null and value_null:
                entries.append([{"type": "null"}, {"type": "null"}])
            elif value_null:
                k = lone_side(header & MAP_KEY_DECL, header & MAP_TRACK_KEY_REF, key_schema)
                entries.append([k, {"type": "null"}])
            else:
                v = lone_side(header & MAP_VALUE_DECL, header & MAP_TRACK_VALUE_REF, value_schema)
                entries.append([{"type": "null"}, v])
            remaining -= 1
            continue
        size = r.u8()
        if size == 0 or size > remaining:
            r.fail("bad map chunk size {} ({} entries left)".format(size, remaining))
        ktid = _declared_type_id(key_schema, r) if header & MAP_KEY_DECL else _rr_type_id(r)
        vtid = _declared_type_id(value_schema, r) if header & MAP_VALUE_DECL else _rr_type_id(r)
        for _ in range(size):
            pair = []
            for track, tid, sub in ((header & MAP_TRACK_KEY_REF, ktid, key_schema),
                                    (header & MAP_TRACK_VALUE_REF, vtid, value_schema)):
                if track:
                    node = _rr_flagged(r, True, lambda: _rr_payload(r, tid, sub))
                    if node["type"] == "null":
                        r.fail("null inside a map chunk")
                else:
                    node = _rr_payload(r, tid, sub)
                pair.append(node)
            entries.append(pair)
        remaining -= size
    return {"type": "map", "entries": entries}


def _rr_struct(r, name):
    types = r.types
    values = {}
    if r.compat:
        desc = r.struct_defs.get(name)
        if desc is None:
            r.fail("struct {} without a TypeDef in this stream".format(name))
        by_tag = {tag: f for f, _tree, tag in types.fields(name) if tag is not None}
        by_name = {f: f for f, _tree, tag in types.fields(name) if tag is None}
        for fd in desc["fields"]:
            fname = by_tag.get(fd["tag_id"]) if "tag_id" in fd else by_name.get(fd["name"])
            if fname is None:
                r.fail("struct {}: TypeDef field {} is not in the definition".format(name, fd.get("name", fd.get("tag_id"))))
            values[fname] = _rr_field(r, types.field_tree(name, fname), fd["ref"], fd["nullable"])
    else:
        got = r.fixed(4, True)
        expected = types.struct_hash(name)
        if got != expected:
            r.fail("struct {}: schema hash {} but expected {}".format(name, got, expected))
        for fname in types.wire_order(name):
            tree = types.field_tree(name, fname)
            values[fname] = _rr_field(r, tree, types.field_ref(name, fname), tree[0] == "option")
    missing = [f for f, _t, _g in types.fields(name) if f not in values]
    if missing:
        r.fail("struct {}: fields {} are not on the wire".format(name, missing))
    return {"type": "struct", "name": name, "fields": {f: values[f] for f, _t, _g in types.fields(name)}}


def _rr_field(r, tree, ref, nullable):
    """One struct field with Fory(ref=True).  ``ref``: the field is
    pyfory.field(ref=True) (TypeDef ref bit); ``nullable``: Optional."""
    inner = tree[1] if tree[0] == "option" else tree
    k = inner[0]
    if k == "scalar" and inner[1] in REF_BASIC_FIELD_KINDS:
        # inline ("basic") field: a null flag only when nullable, never a ref flag

        def read_basic():
            return _read_payload(r, TYPE_IDS[inner[1]], inner)

        return _rr_flagged(r, False, read_basic) if nullable else read_basic()
    types = r.types
    dynamic = k == "any" or (
        k == "named" and types.kind(inner[1]) == "struct" and (r.compat or types.is_named(inner[1])))
    if dynamic:
        # type info + payload; a ref field takes a ref flag whatever the value is

        def read():
            start = r.pos
            key = _rr_type_id(r)
            if k == "named" and key != ("struct", inner[1]):
                r.pos = start
                r.fail("expected the type info of struct {}, got {!r}".format(inner[1], key))
            return _rr_payload(r, key, None if k == "any" else inner)

        tracked = True
    elif k == "named":
        key = types.type_key(inner[1])

        def read():
            return _rr_payload(r, key, inner)

        tracked = key[0] == "struct"
    elif k in ("list", "set", "map"):

        def read():
            return _rr_payload(r, TYPE_IDS[k], inner)

        tracked = True
    elif k == "scalar":

        def read():
            return _read_payload(r, TYPE_IDS[inner[1]], inner)

        tracked = inner[1] in REF_TRACKED_KINDS
    else:
        r.fail("cannot read a field of schema {}".format(format_schema(tree)))
    if ref:
        # pyfory writes a flag for every ref field, nullable or not: 00/fe/fd
        # for a tracked kind, ff/fd for the others
        return _rr_flagged(r, tracked, read)
    if nullable:
        return _rr_flagged(r, False, read)
    return read()


def decode_wire_refs(data, schema=None, types=None, compatible=False):
    """Decode a whole ref=True stream into a node with "ref_id" keys and
    {"type": "ref", "id": N} nodes.  ``types`` (a TypeTable) is needed for
    structs and enums; with ``compatible`` every TypeDef in the stream must
    equal typedef_encode() of its type (for Fory(ref=True))."""
    if isinstance(schema, str):
        schema = parse_schema(schema, types)
    view = types.registered_view(()) if types is not None else None
    r = RefWireReader(data, view, compatible)
    header = r.u8()
    if header & 0xFC:
        r.fail("unknown header bits 0x{:02x}".format(header))
    if not header & 0x01:
        r.fail("header does not have the xlang bit")
    if header & 0x02:
        r.fail("out-of-band buffers are not supported")
    node = _rr_flagged(r, True, lambda: _rr_payload(r, _rr_type_id(r), schema))
    if r.pos != len(r.data):
        r.fail("{} trailing bytes".format(len(r.data) - r.pos))
    return node


# -- nodes with references ---------------------------------------------------------------


def ref_targets(node):
    """ref id -> the node that carries it."""
    out = {}
    for n in iter_nodes(node):
        if "ref_id" in n:
            out[n["ref_id"]] = n
    return out


def ref_node_errors(node):
    """Structural problems of the references in a node: ids 0..N-1 each
    given once, every "ref" naming one of them."""
    ids, refs = [], []
    for n in iter_nodes(node):
        if "ref_id" in n:
            ids.append(n["ref_id"])
        if n["type"] == "ref":
            refs.append(n.get("id"))
    problems = []
    if sorted(ids) != list(range(len(ids))) or any(type(i) is not int for i in ids):
        problems.append("ref ids {} are not 0..{} each once".format(sorted(ids, key=str), len(ids) - 1))
    for rid in refs:
        if rid not in ids:
            problems.append("reference to id {!r}, which no value carries".format(rid))
    return problems


def ref_node_to_py(node, types=None):
    """The Python object graph of a node: a value with "ref_id" N is one
    object, and every {"type": "ref", "id": N} is that same object (cycles
    included).  Lists, dicts, sets and structs are built as empty shells
    first, so a reference may appear before its target in node order."""
    objs = {}
    for n in iter_nodes(node):
        if "ref_id" not in n:
            continue
        t = n["type"]
        if t == "list":
            objs[n["ref_id"]] = []
        elif t == "map":
            objs[n["ref_id"]] = {}
        elif t == "set":
            objs[n["ref_id"]] = set()
        elif t == "struct":
            cls = types.python_class(n["name"])
            objs[n["ref_id"]] = cls.__new__(cls)
        else:
            objs[n["ref_id"]] = node_to_py(n, types)

    def build(n):
        t = n["type"]
        if t == "ref":
            return objs[n["id"]]
        rid = n.get("ref_id")
        if t == "list":
            obj = objs[rid] if rid is not None else []
            for item in n["items"]:
                obj.append(build(item))
            return obj
        if t == "set":
            obj = objs[rid] if rid is not None else set()
            for item in n["items"]:
                obj.add(build(item))
            return obj
        if t == "map":
            obj = objs[rid] if rid is not None else {}
            for k, v in n["entries"]:
                key = build(k)
                obj[key] = build(v)
            return obj
        if t == "struct":
            cls = types.python_class(n["name"])
            obj = objs[rid] if rid is not None else cls.__new__(cls)
            for fname, fnode in n["fields"].items():
                setattr(obj, fname, build(fnode))
            return obj
        return objs[rid] if rid is not None else node_to_py(n, types)

    return build(node)


def _is_mutable_graph_object(obj):
    import dataclasses

    return type(obj) in (list, dict, set) or (dataclasses.is_dataclass(obj) and not isinstance(obj, type))


def compare_ref_graph(node, actual, types=None, strict=True):
    """Compare a Python object graph with a node that has references.

    Values are compared as compare() does.  Every {"type": "ref", "id": N}
    must be the very object (``is``) found where "ref_id" N is.  With
    ``strict`` (a decoded graph) no two list / dict / set / struct positions
    of the node may hold the same object unless a "ref" says so; without it
    (the input value) the object graph may share more than the node."""
    objs, where, pending, seen, out = {}, {}, [], {}, []
    targets = ref_targets(node)

    def leaf_value(n):
        """Python value of a map key / set element node (a "ref" resolved)."""
        if n["type"] == "ref":
            n = targets.get(n.get("id"))
            if n is None:
                return None, "a reference to an id no value carries"
        if n["type"] in ("list", "set", "map", "struct"):
            return None, "a {} as a map key or set element cannot be checked".format(n["type"])
        return node_to_py(n, types), None

    def walk(n, a, path):
        t = n["type"]
        if t == "ref":
            pending.append((n["id"], a, path))
            return
        if "ref_id" in n:
            objs[n["ref_id"]] = a
            where[n["ref_id"]] = path
        if t in ("list", "map", "set", "struct"):
            if a is None:
                out.append("{}: expected {}, got null".format(path, t))
                return
            if strict and _is_mutable_graph_object(a):
                if id(a) in seen:
                    out.append("{}: is the same object as {}, but the node has no reference here".format(path, seen[id(a)]))
                else:
                    seen[id(a)] = path
        if t == "list":
            if type(a) not in (list, tuple):
                out.append("{}: expected list, got {}".format(path, type(a).__name__))
                return
            if len(a) != len(n["items"]):
                out.append("{}: expected {} items, got {}".format(path, len(n["items"]), len(a)))
                return
            for i, (item, x) in enumerate(zip(n["items"], a)):
                walk(item, x, "{}[{}]".format(path, i))
        elif t == "map":
            if type(a) is not dict:
                out.append("{}: expected map, got {}".format(path, type(a).__name__))
                return
            if len(a) != len(n["entries"]):
                out.append("{}: expected {} entries, got {}".format(path, len(n["entries"]), len(a)))
                return
            stored = {k: k for k in a}
            for kn, vn in n["entries"]:
                key, err = leaf_value(kn)
                if err:
                    out.append("{}: {}".format(path, err))
                    continue
                kpath = "{}[{}]".format(path, _short(key, 40))
                if key not in stored:
                    out.append("{}: key missing".format(kpath))
                    continue
                walk(kn, stored[key], kpath + "<key>")
                walk(vn, a[key], kpath)
        elif t == "set":
            if type(a) not in (set, frozenset):
                out.append("{}: expected set, got {}".format(path, type(a).__name__))
                return
            if len(a) != len(n["items"]):
                out.append("{}: expected {} items, got {}".format(path, len(n["items"]), len(a)))
                return
            remaining = list(a)
            for i, item in enumerate(n["items"]):
                value, err = leaf_value(item)
                if err:
                    out.append("{}{{{}}}: {}".format(path, i, err))
                    continue
                leaf = targets[item["id"]] if item["type"] == "ref" else item
                for j, x in enumerate(remaining):
                    if not compare(leaf, x, types=types):
                        walk(item, x, "{}{{{}}}".format(path, i))
                        del remaining[j]
                        break
                else:
                    out.append("{}{{{}}}: no element equal to {}".format(path, i, _short(value)))
        elif t == "struct":
            if types is None or n.get("name") not in types:
                out.append("{}: no definition for struct {!r}".format(path, n.get("name")))
                return
            cls = types.python_class(n["name"])
            if type(a) is not cls:
                out.append("{}: expected struct {}, got {}".format(path, n["name"], type(a).__name__))
                return
            for fname, fnode in n["fields"].items():
                if not hasattr(a, fname):
                    out.append("{}.{}: field missing".format(path, fname))
                    continue
                walk(fnode, getattr(a, fname), "{}.{}".format(path, fname))
        else:
            out.extend(compare(n, a, path, types))

    walk(node, actual, "$")
    for rid, a, path in pending:
        if rid not in objs:
            out.append("{}: reference to id {}, which no value carries".format(path, rid))
        elif a is not objs[rid]:
            out.append("{}: expected the same object as {} (ref id {}), got {}".format(path, where[rid], rid, _short(a)))
    return out


def ref_schema_errors(schema, node, types=None):
    """schema_errors() for a node with references: a "ref" position must fit
    the schema with the kind (and struct / enum name) of its target."""
    if isinstance(schema, str):
        schema = parse_schema(schema, types)
    targets = ref_targets(node)

    def shallow(tree, target, path):
        if tree[0] == "option":
            tree = tree[1]
        if tree[0] == "any":
            return []
        t = target["type"]
        if tree[0] == "scalar":
            ok = t == tree[1]
        elif tree[0] == "named":
            ok = t in ("struct", "enum") and target.get("name") == tree[1]
        elif tree[0] in ("list", "set", "map"):
            ok = t == tree[0]
        else:
            ok = False
        return [] if ok else ["{}: a reference to a {} in a {} position".format(path, t, format_schema(tree))]

    def check(tree, n, path):
        t = n["type"]
        if t == "ref":
            target = targets.get(n.get("id"))
            if target is None:
                return ["{}: reference to id {!r}, which no value carries".format(path, n.get("id"))]
            return shallow(tree, target, path)
        kind = tree[0]
        if kind == "any":
            return []
        if kind == "none":
            return [] if t == "null" else ["{}: schema none but node is {}".format(path, t)]
        if kind == "option":
            return [] if t == "null" else check(tree[1], n, path)
        if t == "null":
            return ["{}: null in a non-optional {} position".format(path, format_schema(tree))]
        if kind == "scalar":
            return [] if t == tree[1] else ["{}: schema {} but node is {}".format(path, tree[1], t)]
        if kind == "named":
            name = tree[1]
            if types is None or name not in types:
                return ["{}: unknown type {}".format(path, name)]
            if types.kind(name) == "enum" or t != "struct":
                return _user_schema_errors(name, n, path, types)
            if n.get("name") != name:
                return ["{}: schema {} but node is struct {}".format(path, name, n.get("name"))]
            expected = [f for f, _t, _g in types.fields(name)]
            fields = n.get("fields")
            if not isinstance(fields, dict) or list(fields) != expected:
                return ["{}: struct {} needs the fields {} in this order".format(path, name, expected)]
            out = []
            for fname, ftree, _tag in types.fields(name):
                out.extend(check(ftree, fields[fname], "{}.{}".format(path, fname)))
            return out
        if kind in ("list", "set"):
            if t != kind:
                return ["{}: schema {} but node is {}".format(path, kind, t)]
            out = []
            for i, item in enumerate(n["items"]):
                out.extend(check(tree[1], item, "{}[{}]".format(path, i)))
            return out
        if kind == "map":
            if t != "map":
                return ["{}: schema map but node is {}".format(path, t)]
            out = []
            for i, (k, v) in enumerate(n["entries"]):
                out.extend(check(tree[1], k, "{}[{}].key".format(path, i)))
                out.extend(check(tree[2], v, "{}[{}].value".format(path, i)))
            return out
        return ["{}: bad schema {!r}".format(path, tree)]

    return ref_node_errors(node) + check(schema, node, "$")


def _strip_ref_keys(node, ignore):
    """A leaf node without "ref_id" and the informative keys (for comparison)."""
    return {k: v for k, v in node.items() if k != "ref_id" and k not in ignore}


def ref_graph_diff(expected, got, ignore=("approx", "encoding")):
    """Differences between two nodes with references, read as object graphs:
    the same values, and the same sharing, whatever ids each side uses (a
    bijection between the ids is built as the graphs are walked).  Set and
    map order carries no meaning (which also changes which occurrence of a
    shared value comes first on the wire: that is not a difference)."""
    e_targets, g_targets = ref_targets(expected), ref_targets(got)
    e2g, g2e, out = {}, {}, []

    def resolve(n, targets):
        if n["type"] == "ref":
            return targets.get(n.get("id")), n.get("id")
        return n, n.get("ref_id")

    def leaf_key(n, targets):
        n, _rid = resolve(n, targets)
        if n is None or n["type"] in ("list", "set", "map", "struct"):
            return None
        return json.dumps(_strip_ref_keys(n, ignore), sort_keys=True)

    def unordered(e_list, g_list, path, pairs):
        # pairs: True for map entries [k, v]; False for set items
        e_keys = [leaf_key(x[0] if pairs else x, e_targets) for x in e_list]
        g_keys = [leaf_key(x[0] if pairs else x, g_targets) for x in g_list]
        if None in e_keys or None in g_keys:
            return False  # not comparable without order: compare in order
        pool = {}
        for key, x in zip(g_keys, g_list):
            pool.setdefault(key, []).append(x)
        for i, (key, x) in enumerate(zip(e_keys, e_list)):
            candidates = pool.get(key)
            if not candidates:
                out.append("{}: no {} equal to expected {} {}".format(path, "key" if pairs else "element", i, key))
                continue
            y = candidates.pop(0)
            if pairs:
                eq(x[0], y[0], "{}[{}]<key>".format(path, i))
                eq(x[1], y[1], "{}[{}]".format(path, i))
            else:
                eq(x, y, "{}{{{}}}".format(path, i))
        return True

    def eq(e, g, path):
        e_node, e_id = resolve(e, e_targets)
        g_node, g_id = resolve(g, g_targets)
        if e_node is None or g_node is None:
            out.append("{}: reference to an id no value carries".format(path))
            return
        if (e_id is None) != (g_id is None):
            out.append("{}: expected {}, the peer wrote {}".format(
                path, "an untracked value" if e_id is None else "a tracked value (ref id {})".format(e_id),
                "an untracked value" if g_id is None else "a tracked value (ref id {})".format(g_id)))
            return
        if e_id is not None:
            if e_id in e2g or g_id in g2e:
                if e2g.get(e_id) != g_id or g2e.get(g_id) != e_id:
                    out.append("{}: expected the object of ref id {} (peer id {}), the peer refers to its id {}".format(
                        path, e_id, e2g.get(e_id), g_id))
                return  # compared where it was first met (also ends cycles)
            e2g[e_id], g2e[g_id] = g_id, e_id
        t = e_node["type"]
        if g_node["type"] != t:
            out.append("{}: wire type {} expected, peer wrote {}".format(path, t, g_node["type"]))
            return
        if t == "struct":
            if e_node.get("name") != g_node.get("name") or list(e_node["fields"]) != list(g_node["fields"]):
                out.append("{}: expected struct {} {}, got {} {}".format(
                    path, e_node.get("name"), list(e_node["fields"]), g_node.get("name"), list(g_node["fields"])))
                return
            for fname in e_node["fields"]:
                eq(e_node["fields"][fname], g_node["fields"][fname], "{}.{}".format(path, fname))
        elif t in ("list", "set", "map"):
            what = "entries" if t == "map" else "items"
            e_list, g_list = e_node[what], g_node[what]
            if len(e_list) != len(g_list):
                out.append("{}: expected {} {}, got {}".format(path, len(e_list), what, len(g_list)))
                return
            if t in ("set", "map") and unordered(e_list, g_list, path, t == "map"):
                return
            for i, (x, y) in enumerate(zip(e_list, g_list)):
                if t == "map":
                    eq(x[0], y[0], "{}[{}]<key>".format(path, i))
                    eq(x[1], y[1], "{}[{}]".format(path, i))
                else:
                    eq(x, y, "{}[{}]".format(path, i))
        else:
            out.extend(nodes_equal_wire(_strip_ref_keys(e_node, ()), _strip_ref_keys(g_node, ()), path, ignore))

    eq(expected, got, "$")
    return out


def refs_facts_errors(types):
    """The stored facts of a vectors_refs/ type table against our own
    computation and against pyfory: field order, fingerprint and hash with
    Fory(ref=True, compatible=False), and the TypeDef with
    Fory(ref=True, compatible=True)."""
    fory = types.make_fory(REFS_SETTINGS_SAME)
    problems = pyfory_facts_errors(types, fory)
    for p in pyfory_compat_facts_errors(types, REFS_SETTINGS_COMPAT):
        if p not in problems:
            problems.append(p)
    return problems
