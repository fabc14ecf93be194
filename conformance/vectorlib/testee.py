"""The testee protocol (conformance/PROTOCOL.md): message framing, the
requests the runner sends for each vector, and the meta-string streams of
vectors_meta/ seen as vectors.

Used by reference.py (the runner's checker), testee_pyfory.py and the tests;
only the standard library is needed."""

import json
import os
import re
import struct

from .errors import VectorError
from .typetable import TypeTable

__all__ = [
    "PROTOCOL_VERSION", "MAX_MESSAGE", "read_message", "write_message", "meta_stream_vectors",
    "load_runner_vectors", "vector_requests", "wire_types",
]

PROTOCOL_VERSION = "fury-testee/1"
MAX_MESSAGE = 64 << 20  # a longer frame is garbage, not a message

# type-definition keys a testee needs; the rest (TypeDef dumps, pyfory's facts) is informative
_WIRE_TYPE_KEYS = ("name", "kind", "register", "fields", "variants", "alias_of_registration", "version", "generic")


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
    """The streams of vectors_meta/meta_strings.json as ordinary vectors.

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


def _registered(vec, alias_names):
    table = vec["_types"]
    return [n for n in table if not table.is_alias(n) or n in alias_names]


def vector_requests(vec, types_key):
    """The decode / encode / roundtrip requests for a vector (without "op"
    filled in for the caller) and what the runner needs to judge them."""
    base = {
        "protocol": PROTOCOL_VERSION,
        "name": vec["name"],
        "group": vec["_group"],
        "settings": vec["settings"],
        "schema": vec["schema"],
    }
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
    return {
        "name": vec["name"],
        "group": vec["_group"],
        "hex": vec["hex"],
        "writer_same": bool(vec["writer_same"]),
        "decode_expects_error": bool(vec.get("expected_error")),
        "optional": vec.get("optional"),
        "requests": [decode, encode, roundtrip],
    }
