"""The testee protocol (conformance/PROTOCOL.md): message framing, the
requests the runner sends for each vector, and the meta-string streams of
the group meta seen as vectors.

Used by reference.py (the runner's checker), testee_pyfory.py and the tests;
only the standard library is needed."""

import json
import os
import re
import struct

from .errors import VectorError
from .group import protocol_2_groups
from .kinds import KindTable, vector_type_defs
from .rows import ROW_FORMAT
from .typetable import TypeTable

__all__ = [
    "PROTOCOL_VERSION", "PROTOCOL_VERSION_2", "V2_GROUPS", "MAX_MESSAGE", "read_message", "write_message",
    "meta_stream_vectors", "load_runner_vectors", "vector_requests", "wire_types",
]

PROTOCOL_VERSION = "fury-testee/1"
# the requests of the groups with "protocol": 2 in groups.json use what version 2 added
# (PROTOCOL.md, section 9): out-of-band buffers, unions, extension types, decimals and the
# row format; every other request is a version-1 request, unchanged
PROTOCOL_VERSION_2 = "fury-testee/2"
V2_GROUPS = protocol_2_groups()
KIND_GROUPS = ("union", "ext", "decimal")
# The rejection vectors (generators/reject.py): malformed streams every reader must refuse.
REJECT_FORMAT = "fury-reject/1"
MAX_MESSAGE = 64 << 20  # a longer frame is garbage, not a message

# type-definition keys a testee needs; the rest (TypeDef dumps, pyfory's facts) is informative
_WIRE_TYPE_KEYS = ("name", "kind", "register", "fields", "variants", "cases", "alias_of_registration", "version",
                   "generic")


def read_message(stream):
    """One framed JSON message from a binary stream, or None at a clean end of input."""
    head = stream.read(4)
    if not head:
        return None
    if len(head) != 4:
        raise VectorError("truncated frame header ({} bytes)".format(len(head)))
    (length,) = struct.unpack("<I", head)
    if length > MAX_MESSAGE:
        raise VectorError("frame of {} bytes is longer than {}".format(length, MAX_MESSAGE))
    body = stream.read(length)
    if len(body) != length:
        raise VectorError("truncated frame: {} of {} bytes".format(len(body), length))
    return json.loads(body.decode("utf-8"))


def write_message(stream, obj):
    body = json.dumps(obj, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    stream.write(struct.pack("<I", len(body)) + body)
    stream.flush()


def wire_types(defs):
    """The type definitions as a testee receives them (informative keys left out)."""
    return [{k: d[k] for k in _WIRE_TYPE_KEYS if k in d} for d in defs]


_SETTINGS_SAME = {"xlang": True, "ref": False, "compatible": False}


def _meta_name(title, seen):
    base = "meta/" + re.sub(r"[^A-Za-z0-9/_.^-]", "_", title).strip("_")
    name, n = base, 1
    while name in seen:
        n += 1
        name = "{}-{}".format(base, n)
    seen.add(name)
    return name


def meta_stream_vectors(path):
    """The streams of vectors/meta/meta_strings.json as ordinary vectors.

    Each stream holds values of enums registered by name (MetaProbe<i>, with
    the variants FIRST = 0 and SECOND = 1; the stream holds SECOND) or of the
    struct StructProbe {x: int = 5}, written by Fory(xlang, ref=False,
    compatible=False); one value is the root, several are a list."""
    with open(path, "r", encoding="utf-8") as fh:
        doc = json.load(fh)
    if doc.get("format") != "fury-meta-strings/1":
        raise VectorError("{}: format is {!r}".format(path, doc.get("format")))
    seen = set()
    out = []
    for s in doc["streams"]:
        struct_kind = s["kind"] == "named_struct"
        defs = []
        for i, t in enumerate(s["types"]):
            reg = {"namespace": t["namespace"], "typename": t["type_name"]}
            if struct_kind:
                defs.append({"name": "StructProbe", "kind": "struct", "register": reg,
                             "fields": [{"name": "x", "schema": "varint64"}]})
            else:
                defs.append({"name": "MetaProbe{}".format(i), "kind": "enum", "register": reg,
                             "variants": [{"name": "FIRST", "id": 0}, {"name": "SECOND", "id": 1}]})
        try:
            table = TypeTable(defs)
        except VectorError:
            # a namespace ending in "." (pyfory splits "..Color" as "." + "Color"): the
            # type-definition grammar has no such registration
            continue

        def node(t):
            if struct_kind:
                return {"type": "struct", "name": "StructProbe", "fields": {"x": {"type": "varint64", "value": "5"}}}
            return {"type": "enum", "name": "MetaProbe{}".format(t), "variant": "SECOND", "id": 1}

        seq = s["sequence"]
        if len(seq) == 1:
            schema, value = defs[seq[0]]["name"], node(seq[0])
        else:
            schema, value = "list<any>", {"type": "list", "items": [node(t) for t in seq]}
        out.append({
            "name": _meta_name(s["name"], seen),
            "settings": dict(_SETTINGS_SAME),
            "schema": schema,
            "value": value,
            "hex": s["bytes"],
            "writer_same": True,
            "note": "meta-string stream {!r}".format(s["name"]),
            "_group": "meta",
            "_types": table,
            "_type_defs": defs,
        })
    return out


def load_runner_vectors(directories):
    """Every vector of the given directories, in order: vector files
    (fury-conformance/1) and meta-string files (fury-meta-strings/1).
    Each vector with types carries "_type_defs" (the file's definitions)."""
    from .vectors import load_vectors

    out = []
    names = {}
    for directory in directories:
        files = sorted(f for f in os.listdir(directory) if f.endswith(".json"))
        if not files:
            raise VectorError("no vector files in {}".format(directory))
        formats = set()
        defs_of = {}
        for f in files:
            with open(os.path.join(directory, f), "r", encoding="utf-8") as fh:
                doc = json.load(fh)
            formats.add(doc.get("format"))
            defs_of[doc.get("group")] = doc.get("types")
        if formats == {"fury-meta-strings/1"}:
            vecs = [v for f in files for v in meta_stream_vectors(os.path.join(directory, f))]
        elif formats == {ROW_FORMAT}:
            vecs = [v for f in files for v in row_vectors(os.path.join(directory, f))]
        elif formats == {REJECT_FORMAT}:
            vecs = [v for f in files for v in reject_vectors(os.path.join(directory, f))]
        elif set(defs_of) <= set(KIND_GROUPS):
            vecs = [v for f in files for v in kind_vectors(os.path.join(directory, f))]
        else:
            vecs = load_vectors(directory)
            for v in vecs:
                if "_types" in v:
                    v["_type_defs"] = defs_of[v["_group"]]
        for v in vecs:
            if v["name"] in names:
                raise VectorError("duplicate vector name {!r} in {} and {}".format(v["name"], names[v["name"]], directory))
            names[v["name"]] = directory
            out.append(v)
    return out


def _load(path, fmt):
    with open(path, "r", encoding="utf-8") as fh:
        doc = json.load(fh)
    if doc.get("format") != fmt or not isinstance(doc.get("vectors"), list):
        raise VectorError("{}: format is {!r}, expected {!r}".format(path, doc.get("format"), fmt))
    return doc


def kind_vectors(path):
    """The vectors of a union, extension-type or decimal file, with their plain values
    turned into value nodes (vectorlib.kinds); "plain" keeps the file's form."""
    from .formats import VECTOR_FORMAT

    doc = _load(path, VECTOR_FORMAT)
    tables = {}
    out = []
    for v in doc["vectors"]:
        defs = vector_type_defs(doc, v)
        key = json.dumps(defs, sort_keys=True)
        if key not in tables:
            tables[key] = (KindTable(defs), defs)
        table, defs = tables[key]
        vec = dict(v)
        vec["plain"] = v["value"]
        vec["value"] = table.plain_to_node(v["schema"], v["value"])
        vec["_group"] = doc["group"]
        if defs:
            vec["_types"] = table
            vec["_type_defs"] = defs
        out.append(vec)
    return out


def reject_vectors(path):
    """The rejection vectors (fury-reject/1): a stream, the schema it is read as, and the
    rule it breaks; the types of the struct and enum ones."""
    doc = _load(path, REJECT_FORMAT)
    table = TypeTable(doc["types"]) if doc.get("types") else None
    kinds = KindTable(doc["kind_types"]) if doc.get("kind_types") else None
    out = []
    for v in doc["vectors"]:
        vec = dict(v)
        vec["_group"] = doc["group"]
        vec["writer_same"] = False
        if v.get("kind_types"):
            vec["_types"] = kinds
            vec["_type_defs"] = doc["kind_types"]
        elif table is not None and v.get("schema") in table:
            vec["_types"] = table
            vec["_type_defs"] = doc["types"]
        out.append(vec)
    return out


def row_vectors(path):
    """The row-format vectors (fury-row/1): a row schema, a row value, pyfory's row."""
    doc = _load(path, ROW_FORMAT)
    out = []
    for v in doc["vectors"]:
        vec = dict(v)
        vec["_group"] = doc["group"]
        vec["writer_same"] = True  # the null slots are zeroed, as fury-rs and the spec write them
        out.append(vec)
    return out


def _registered(vec, alias_names):
    table = vec["_types"]
    return [n for n in table if not table.is_alias(n) or n in alias_names]


def vector_requests(vec, types_key):
    """The decode / encode / roundtrip requests for a vector (without "op"
    filled in for the caller) and what the runner needs to judge them."""
    group = vec["_group"]
    if group == "rows":
        return _row_requests(vec)
    if group == "reject":
        return _reject_requests(vec, types_key)
    base = {
        "protocol": PROTOCOL_VERSION_2 if group in V2_GROUPS else PROTOCOL_VERSION,
        "name": vec["name"],
        "group": group,
        "settings": vec["settings"],
        "schema": vec["schema"],
    }
    oob = group == "oob"
    if oob:
        base["settings"] = dict(vec["settings"], out_of_band=True)
    if "_types" in vec:
        base["types"] = wire_types(vec["_type_defs"])
        base["types_key"] = types_key
        base["register"] = _registered(vec, vec.get("writer_registers", ()))
    decode = dict(base, op="decode", hex=vec["hex"])
    if "reader_type" in vec:
        decode["schema"] = vec["reader_type"]
        decode["register"] = _registered(vec, vec.get("reader_registers", ()))
    encode = dict(base, op="encode", value=vec["value"])
    roundtrip = dict(base, op="roundtrip", hex=vec["hex"])
    entry = {
        "name": vec["name"],
        "group": group,
        "hex": vec["hex"],
        "writer_same": bool(vec["writer_same"]),
        "decode_expects_error": bool(vec.get("expected_error")),
        "optional": vec.get("optional"),
        "requests": [decode, encode, roundtrip],
    }
    if oob:
        # the reader is given pyfory's buffers; the writer's callback answers as pyfory's did
        decode["buffers"] = roundtrip["buffers"] = list(vec["buffers"])
        encode["in_band"] = roundtrip["in_band"] = list(vec["in_band"])
        entry["buffers"] = list(vec["buffers"])
    return entry


def _reject_requests(vec, types_key):
    """A rejection vector asks one thing: decode, which must answer an error. Unions,
    out-of-band buffers and rows are requests of protocol version 2 (PROTOCOL.md §9)."""
    if vec.get("format") == "row":
        decode = {"protocol": PROTOCOL_VERSION_2, "op": "decode", "name": vec["name"], "group": vec["_group"],
                  "format": "row", "settings": {}, "row_schema": vec["row_schema"], "hex": vec["hex"]}
    else:
        v2 = vec.get("kind_types") or "buffers" in vec
        decode = {"protocol": PROTOCOL_VERSION_2 if v2 else PROTOCOL_VERSION, "op": "decode",
                  "name": vec["name"], "group": vec["_group"], "settings": vec["settings"],
                  "schema": vec["schema"], "hex": vec["hex"]}
    if "buffers" in vec:
        decode["buffers"] = list(vec["buffers"])
    if "_types" in vec:
        decode["types"] = wire_types(vec["_type_defs"])
        decode["types_key"] = types_key
        decode["register"] = [t["name"] for t in vec["_type_defs"]] if vec.get("kind_types") else _registered(vec, ())
    return {"name": vec["name"], "group": vec["_group"], "hex": vec["hex"], "writer_same": False,
            "decode_expects_error": True, "optional": None, "requests": [decode]}


def _row_requests(vec):
    base = {"protocol": PROTOCOL_VERSION_2, "name": vec["name"], "group": vec["_group"], "format": "row",
            "settings": {}, "row_schema": vec["schema"]}
    return {
        "name": vec["name"],
        "group": vec["_group"],
        "hex": vec["hex"],
        "writer_same": True,
        "decode_expects_error": False,
        "optional": None,
        "requests": [dict(base, op="decode", hex=vec["hex"]), dict(base, op="encode", value=vec["value"]),
                     dict(base, op="roundtrip", hex=vec["hex"])],
    }
