"""Value nodes: the typed JSON form of a value (README, "Value nodes").

Python value -> node (our model of how pyfory maps dynamic Python values),
node -> the Python value pyfory should decode, a node-guided comparison of
a decoded Python value, and a structural node comparison (wire types
included).  "struct" and "enum" nodes need a TypeTable with its Python
classes built."""

import array
import datetime
import json
import struct

from .floats import bits_hex, f32_bits, f64_bits, float_bits, float_from_bits, float_node
from .peer import array_class
from .types import ARRAY_CLASS_NAMES, ARRAY_KINDS, FLOAT_HEX_WIDTH, INT_RANGES

__all__ = [
    "EPOCH_DATE", "EPOCH_DATETIME", "PY_ARRAY_KINDS", "array_node_from_values", "fory_array_kind",
    "fory_array_raw", "string_encoding", "py_to_node", "node_to_py", "compare", "nodes_equal_wire",
    "iter_nodes", "contains_set", "string_writer_differences", "short_repr", "container_shape_errors",
]

EPOCH_DATE = datetime.date(1970, 1, 1)
EPOCH_DATETIME = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)

# Python array.array typecode -> array kind
PY_ARRAY_KINDS = {
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
        kind = PY_ARRAY_KINDS.get(value.typecode)
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


def string_encoding(s):
    """The encoding pyfory picks for a str (from CPython's storage width)."""
    m = max((ord(c) for c in s), default=0)
    if m <= 0xFF:
        return "latin1"
    if m <= 0xFFFF:
        return "utf16"
    return "utf8"


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
        kind = PY_ARRAY_KINDS[value.typecode]
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


# -- node -> Python value ----------------------------------------------------------


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


def _user_node_to_py(node, types):
    if types is None:
        raise ValueError("a {} node needs the type definitions".format(node["type"]))
    cls = types.python_class(node["name"])
    if node["type"] == "enum":
        return cls[node["variant"]]
    return cls(**{f: _as_schema(types.field_tree(node["name"], f), node_to_py(v, types))
                  for f, v in node["fields"].items()})


def _as_schema(tree, value):
    """A field value with the Python container its schema names: a ``tuple``
    where the schema is tuple<...> (a list node gives a list otherwise), as
    pyfory itself gives back for a Tuple[...] field."""
    if value is None or not _has_tuple(tree):
        return value
    k = tree[0]
    if k == "option":
        return _as_schema(tree[1], value)
    if k == "tuple":
        return tuple(_as_schema(t, v) for t, v in zip(tree[1:], value))
    if k == "list":
        return [_as_schema(tree[1], v) for v in value]
    if k == "map":
        return {k2: _as_schema(tree[2], v) for k2, v in value.items()}
    return value


def _has_tuple(tree):
    return tree[0] == "tuple" or any(isinstance(t, tuple) and _has_tuple(t) for t in tree[1:])


# -- comparison ----------------------------------------------------------------------


def short_repr(x, limit=80):
    r = repr(x)
    return r if len(r) <= limit else r[: limit - 3] + "..."


# container node type -> (the Python types pyfory gives for it, the node's element key)
_CONTAINER_TYPES = {"list": ((list, tuple), "items"), "set": ((set, frozenset), "items"), "map": ((dict,), "entries")}


def container_shape_errors(node, actual, path):
    """The Python type and the size of a decoded list / set / map against its node."""
    t = node["type"]
    py_types, what = _CONTAINER_TYPES[t]
    if type(actual) not in py_types:
        return ["{}: expected {}, got {}".format(path, t, type(actual).__name__)]
    if len(node[what]) != len(actual):
        return ["{}: expected {} {}, got {}".format(path, len(node[what]), what, len(actual))]
    return []


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
            out.append("{}: expected null, got {}".format(path, short_repr(actual)))
        return out
    if actual is None:
        out.append("{}: expected {}, got null".format(path, t))
        return out
    if t in ("struct", "enum"):
        return _compare_user(node, actual, path, types)
    if t == "bool":
        if type(actual) is not bool or actual != node["value"]:
            out.append("{}: expected bool {}, got {}".format(path, node["value"], short_repr(actual)))
        return out
    if t in INT_RANGES:
        if type(actual) is not int or actual != _int_of(node):
            out.append("{}: expected {} {}, got {}".format(path, t, node["value"], short_repr(actual)))
        return out
    if t in FLOAT_HEX_WIDTH:
        if type(actual) is not float:
            out.append("{}: expected {} bits {}, got {}".format(path, t, node["bits"], short_repr(actual)))
            return out
        got = float_bits(t, actual)
        if got is None:
            out.append("{}: expected {} bits {}, got {!r} which is not a {}".format(path, t, node["bits"], actual, t))
        elif got != int(node["bits"], 16):
            out.append("{}: expected {} bits {}, got bits {} ({!r})".format(path, t, node["bits"], bits_hex(t, got), actual))
        return out
    if t == "string":
        if type(actual) is not str or actual != node["value"]:
            out.append("{}: expected string {}, got {}".format(path, short_repr(node["value"]), short_repr(actual)))
        return out
    if t == "binary":
        if type(actual) is not bytes or actual.hex() != node["hex"]:
            out.append("{}: expected binary {}, got {}".format(path, short_repr(node["hex"]), short_repr(actual)))
        return out
    if t in ("duration", "timestamp", "date"):
        try:
            expected = node_to_py(node)
        except ValueError as exc:
            return ["{}: {}".format(path, exc)]
        if type(actual) is not type(expected) or actual != expected:
            out.append("{}: expected {} {}, got {}".format(path, t, short_repr(expected), short_repr(actual)))
        elif t == "timestamp" and actual.utcoffset() != datetime.timedelta(0):
            out.append("{}: expected a UTC timestamp, got {}".format(path, short_repr(actual)))
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
                out.append("{}: bool_array holds bytes other than 0/1: {}".format(path, short_repr(raw)))
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
    if t in _CONTAINER_TYPES:
        shape = container_shape_errors(node, actual, path)
        if shape:
            return shape
    if t == "list":
        for i, (n, a) in enumerate(zip(node["items"], actual)):
            out.extend(compare(n, a, "{}[{}]".format(path, i), types))
        return out
    if t == "set":
        remaining = list(actual)
        for i, n in enumerate(node["items"]):
            for j, a in enumerate(remaining):
                if not compare(n, a, types=types):
                    del remaining[j]
                    break
            else:
                out.append("{}{{{}}}: no element equal to {}".format(path, i, short_repr(node_to_py(n, types))))
        return out
    if t == "map":
        stored_keys = {k: k for k in actual}
        for i, (kn, vn) in enumerate(node["entries"]):
            key = node_to_py(kn, types)
            kpath = "{}[{}]".format(path, short_repr(key, 40))
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
            out.append("{}: expected {}, got {}".format(path, short_repr(expected), short_repr(got)))
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
            out.append("{}.{}: expected {}, got {}".format(path, key, short_repr(e), short_repr(g)))
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
            shown = short_repr(node_to_py(node), 40)
        except Exception:  # noqa: BLE001 - only used for the message
            shown = short_repr(key, 60)
        candidates = pool.get(key)
        if not candidates:
            out.append("{}: no {} equal to expected {}[{}] = {}".format(
                path, "element" if what == "items" else "key", what, i, shown))
            continue
        got_value = candidates.pop(0)
        if what == "entries":
            out.extend(nodes_equal_wire(value, got_value, "{}[{}]".format(path, shown), ignore))
    return out


def _compare_user(node, actual, path, types):
    t = node["type"]
    if types is None or node.get("name") not in types:
        return ["{}: no definition for {} {!r}".format(path, t, node.get("name"))]
    cls = types.python_class(node["name"])
    if t == "enum":
        if type(actual) is not cls or actual.name != node["variant"]:
            return ["{}: expected enum {}.{}, got {}".format(path, node["name"], node["variant"], short_repr(actual))]
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


# -- walking a node, and the writer rules ---------------------------------------------


def contains_set(node):
    """Whether a node holds a set (whose order a rebuilt Python value may not keep)."""
    return any(n["type"] == "set" for n in iter_nodes(node))


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
