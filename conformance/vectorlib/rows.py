"""The row format (pyfory.format): row schemas as JSON, values as JSON nodes,
and pyfory's row encoders built from a JSON schema.

A row schema is a list of fields ``{"name": N, "type": T}``; a type is one of
the names in ROW_SCALARS or ``{"list": T}``, ``{"map": [K, V]}``,
``{"struct": [fields]}``.  A row value node is plain JSON, shaped by its
type: int64 and timestamp (microseconds since the epoch) as decimal strings,
the narrower integers and date32 (days since the epoch) as numbers, floats as
the hex of their bit pattern, binary as hex, a list as an array, a map as an
array of [key, value] pairs, a struct as an object, a null as null.
"""

import datetime

from .errors import VectorError
from .floats import f32_bits, f64_bits

__all__ = [
    "ROW_FORMAT", "ROW_BYTES_FORMAT", "ROW_SCALARS", "row_schema_to_pyfory", "row_type_to_pyfory",
    "row_value_node", "row_schema_text", "row_encoder_for", "row_zero_null_slots", "row_value_from_node",
]

ROW_FORMAT = "fury-row/1"
ROW_BYTES_FORMAT = "fury-row-bytes/1"
ROW_SCALARS = (
    "bool", "int8", "int16", "int32", "int64", "float32", "float64", "string", "binary", "date32", "timestamp",
)
_EPOCH = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)
_FACTORY = {
    "bool": "boolean", "int8": "int8", "int16": "int16", "int32": "int32", "int64": "int64",
    "float32": "float32", "float64": "float64", "string": "utf8", "binary": "binary", "date32": "date32",
    "timestamp": "timestamp",
}


def row_type_to_pyfory(t):
    import pyfory.format as F

    if isinstance(t, str):
        if t not in _FACTORY:
            raise VectorError("unknown row type {!r}".format(t))
        return getattr(F, _FACTORY[t])()
    if "list" in t:
        return F.list_(row_type_to_pyfory(t["list"]))
    if "map" in t:
        k, v = t["map"]
        return F.map_(row_type_to_pyfory(k), row_type_to_pyfory(v))
    if "struct" in t:
        return F.struct([F.field(f["name"], row_type_to_pyfory(f["type"])) for f in t["struct"]])
    raise VectorError("unknown row type {!r}".format(t))


def row_schema_to_pyfory(fields):
    import pyfory.format as F

    return F.schema([F.field(f["name"], row_type_to_pyfory(f["type"])) for f in fields])


def row_schema_text(fields):
    """pyfory's own printing of the schema (to compare with an inferred one)."""
    return str(row_schema_to_pyfory(fields))


def row_encoder_for(fields):
    """(to_row, from_row) of pyfory's row encoder for a JSON schema."""
    import pyfory.format as F

    schema = row_schema_to_pyfory(fields)
    enc = F.create_row_encoder(schema)
    return enc.to_row, lambda data: enc.from_row(F.RowData(schema, data))


def _micros(dt):
    if dt.tzinfo is None:  # pyfory reads naive datetimes; the generators run with TZ=UTC
        dt = dt.replace(tzinfo=datetime.timezone.utc)
    return (dt - _EPOCH) // datetime.timedelta(microseconds=1)


def _get(value, name):
    if isinstance(value, dict):
        return value.get(name)
    return getattr(value, name, None)


def row_value_node(t, value):
    """The JSON node of a Python value (input or pyfory's from_row result)."""
    if value is None:
        return None
    if isinstance(t, str):
        if t == "bool":
            return bool(value)
        if t in ("int8", "int16", "int32"):
            return int(value)
        if t == "int64":
            return str(int(value))
        if t == "float32":
            return "{:08x}".format(f32_bits(value))
        if t == "float64":
            return "{:016x}".format(f64_bits(value))
        if t == "string":
            return str(value)
        if t == "binary":
            return bytes(value).hex()
        if t == "date32":
            return (value - datetime.date(1970, 1, 1)).days
        if t == "timestamp":
            return str(_micros(value))
        raise VectorError("unknown row type {!r}".format(t))
    if "list" in t:
        return [row_value_node(t["list"], v) for v in value]
    if "map" in t:
        k, v = t["map"]
        return [[row_value_node(k, a), row_value_node(v, b)] for a, b in value.items()]
    if "struct" in t:
        return {f["name"]: row_value_node(f["type"], _get(value, f["name"])) for f in t["struct"]}
    raise VectorError("unknown row type {!r}".format(t))


_WIDTH = {"bool": 1, "int8": 1, "int16": 2, "int32": 4, "float32": 4, "date32": 4, "int64": 8, "float64": 8,
          "timestamp": 8}


def _u64(data, at):
    if at < 0 or at + 8 > len(data):
        raise VectorError("row offset {} out of range ({} bytes)".format(at, len(data)))
    return int.from_bytes(data[at:at + 8], "little")


def _var(data, base, slot):
    word = _u64(data, slot)
    return base + (word >> 32), word & 0xFFFFFFFF


def _zero_nulls_struct(data, fields, base, zeroed):
    width = (len(fields) + 63) // 64 * 8
    for i, fd in enumerate(fields):
        slot = base + width + 8 * i
        if data[base + i // 8] >> (i % 8) & 1:
            zeroed[0] += any(data[slot:slot + 8])
            data[slot:slot + 8] = bytes(8)
        elif not isinstance(fd["type"], str):
            _zero_nulls_value(data, fd["type"], *_var(data, base, slot), zeroed)


def _zero_nulls_array(data, elem, base, zeroed):
    count = _u64(data, base)
    ew = _WIDTH.get(elem, 8) if isinstance(elem, str) else 8
    header = 8 + (count + 63) // 64 * 8
    for i in range(count):
        slot = base + header + ew * i
        if data[base + 8 + i // 8] >> (i % 8) & 1:
            zeroed[0] += any(data[slot:slot + ew])
            data[slot:slot + ew] = bytes(ew)
        elif not isinstance(elem, str):
            _zero_nulls_value(data, elem, *_var(data, base, slot), zeroed)


def _zero_nulls_value(data, t, at, size, zeroed):
    if at + size > len(data):
        raise VectorError("row value at {} of {} bytes overruns the row".format(at, size))
    if "list" in t:
        _zero_nulls_array(data, t["list"], at, zeroed)
    elif "map" in t:
        k, v = t["map"]
        _zero_nulls_array(data, k, at + 8, zeroed)
        _zero_nulls_array(data, v, at + 8 + _u64(data, at), zeroed)
    elif "struct" in t:
        _zero_nulls_struct(data, t["struct"], at, zeroed)


def row_zero_null_slots(fields, data):
    """(row, n): the row with the slots of null fields and null elements zeroed
    (pyfory 1.7.7 leaves them as it found the memory), and how many of them were
    not zero.  Walks the whole row, so it also checks every offset is in range."""
    out = bytearray(data)
    zeroed = [0]
    _zero_nulls_struct(out, fields, 0, zeroed)
    return bytes(out), zeroed[0]


def row_value_from_node(t, node):
    """The Python value of a row value node (the inverse of row_value_node): what pyfory's
    row encoder writes (a struct as a dict of its fields)."""
    if node is None:
        return None
    if isinstance(t, str):
        if t == "bool":
            return bool(node)
        if t in ("int8", "int16", "int32"):
            return int(node)
        if t == "int64":
            return int(node, 10)
        if t in ("float32", "float64"):
            from .floats import float_from_bits

            return float_from_bits(t, int(node, 16))
        if t == "string":
            return str(node)
        if t == "binary":
            return bytes.fromhex(node)
        if t == "date32":
            return datetime.date(1970, 1, 1) + datetime.timedelta(days=int(node))
        if t == "timestamp":
            return _EPOCH + datetime.timedelta(microseconds=int(node, 10))
        raise VectorError("unknown row type {!r}".format(t))
    if "list" in t:
        return [row_value_from_node(t["list"], v) for v in node]
    if "map" in t:
        k, v = t["map"]
        return {row_value_from_node(k, a): row_value_from_node(v, b) for a, b in node}
    if "struct" in t:
        return {f["name"]: row_value_from_node(f["type"], node.get(f["name"])) for f in t["struct"]}
    raise VectorError("unknown row type {!r}".format(t))
