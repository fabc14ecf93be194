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
* the helper that writes a typed root scalar with pyfory's own pieces.

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


def node_to_py(node):
    """The Python value pyfory is expected to produce when it decodes the node."""
    t = node["type"]
    if t == "null":
        return None
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
        return [node_to_py(n) for n in node["items"]]
    if t == "set":
        return set(node_to_py(n) for n in node["items"])
    if t == "map":
        return {node_to_py(k): node_to_py(v) for k, v in node["entries"]}
    raise ValueError("unknown node type {!r}".format(t))


# ---------------------------------------------------------------------------
# node-guided comparison of a Python value
# ---------------------------------------------------------------------------


def _short(x, limit=80):
    r = repr(x)
    return r if len(r) <= limit else r[: limit - 3] + "..."


def compare(node, actual, path="$"):
    """Compare a decoded Python value with the expected node.

    Returns a list of human-readable differences (empty when equal).
    Floats are compared by bit pattern in the node's width (NaN payload and
    the sign of zero included).
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
            out.extend(compare(n, a, "{}[{}]".format(path, i)))
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
                if not compare(n, a):
                    del remaining[j]
                    break
            else:
                out.append("{}{{{}}}: no element equal to {}".format(path, i, _short(node_to_py(n))))
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
            key = node_to_py(kn)
            kpath = "{}[{}]".format(path, _short(key, 40))
            if key not in stored_keys:
                out.append("{}: key missing".format(kpath))
                continue
            key_diff = compare(kn, stored_keys[key], kpath + "<key>")
            out.extend(key_diff)
            out.extend(compare(vn, actual[key], kpath))
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
    def __init__(self, data):
        self.data = bytes(data)
        self.pos = 0

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
    if tid not in TYPE_NAMES:
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


def decode_wire(data, schema=None):
    """Decode a whole xlang stream into a node. ``schema`` (a string or parsed
    schema) is only consulted when the bytes use declared element types."""
    if isinstance(schema, str):
        schema = parse_schema(schema)
    r = WireReader(data)
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


def parse_schema(text):
    """Parse a schema expression into a tuple tree:
    ("scalar", name) | ("none",) | ("any",) | ("option", T) | ("list", T) |
    ("set", T) | ("map", K, V)."""
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


def schema_errors(schema, node, path="$"):
    """Does the node fit the schema? Returns a list of problems."""
    if isinstance(schema, str):
        schema = parse_schema(schema)
    kind = schema[0]
    t = node["type"]
    if kind == "any":
        return []
    if kind == "none":
        return [] if t == "null" else ["{}: schema none but node is {}".format(path, t)]
    if kind == "option":
        if t == "null":
            return []
        return schema_errors(schema[1], node, path)
    if t == "null":
        return ["{}: null in a non-optional {} position".format(path, format_schema(schema))]
    if kind == "scalar":
        return [] if t == schema[1] else ["{}: schema {} but node is {}".format(path, schema[1], t)]
    if kind in ("list", "set"):
        if t != kind:
            return ["{}: schema {} but node is {}".format(path, kind, t)]
        out = []
        for i, n in enumerate(node["items"]):
            out.extend(schema_errors(schema[1], n, "{}[{}]".format(path, i)))
        return out
    if kind == "map":
        if t != "map":
            return ["{}: schema map but node is {}".format(path, t)]
        out = []
        for i, (k, v) in enumerate(node["entries"]):
            out.extend(schema_errors(schema[1], k, "{}[{}].key".format(path, i)))
            out.extend(schema_errors(schema[2], v, "{}[{}].value".format(path, i)))
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
            vectors.append(vec)
    return vectors
