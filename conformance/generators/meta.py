"""Write conformance/vectors/meta/meta_strings.json: meta-string vectors from pyfory 1.7.7.

Everything in the file comes from pyfory itself:

* ``murmur3``: ``pyfory.lib.mmh3.hash_buffer`` (MurmurHash3 x64_128) for inputs of 0 to 40
  bytes and several seeds;
* ``strings``: for each test string and each context, the encoding pyfory chooses and the
  bytes it produces, using the same encoder objects and calls as pyfory's own code paths
  (``registry.py`` for type info, ``meta/typedef_encoder.py`` for TypeDefs), or the error
  pyfory raises;
* ``streams``: bytes of real ``Fory.serialize`` calls (xlang, ref=False, compatible=False)
  of enums (NAMED_ENUM) and one dataclass (NAMED_STRUCT) registered by name, with the
  position of every meta string in them. The meta-string bytes are produced by pyfory's own
  ``MetaStringWriter`` from the registered ``TypeInfo``; the script checks that the
  serialized stream is exactly those pieces put together, so the offsets are right.

Usage:
    python conformance/generate.py meta            # (re)write vectors/meta/
    python conformance/generate.py --check meta    # compare with the files on disk

The output is deterministic (no sets or hashes of Python objects are involved; generate.py
still runs it with PYTHONHASHSEED=0).
"""

import dataclasses
import enum
import json
import keyword
import sys

import pyfory  # noqa: E402
from pyfory.lib.mmh3 import hash_buffer  # noqa: E402
from pyfory.meta import typedef_encoder  # noqa: E402
from pyfory.meta.metastring import Encoding, MetaStringDecoder, MetaStringEncoder  # noqa: E402
from pyfory.meta.typedef import FIELD_NAME_ENCODINGS, NAMESPACE_ENCODINGS, TYPE_NAME_ENCODINGS  # noqa: E402
from pyfory.serialization import Buffer, MetaStringWriter  # noqa: E402

import vectorlib as VL  # noqa: E402

PEER = "pyfory==1.7.7"
U64 = (1 << 64) - 1

VL.require_pyfory()


def fail(msg):
    sys.exit("generators/meta.py: " + msg)


def hex_u64(v):
    return "{:016x}".format(v & U64)


# ---------------------------------------------------------------------------
# Test strings

LOWER = "abcdefghijklmnopqrstuvwxyz"
STRINGS = [
    # empty and one character
    "", "a", "z", "A", "Z", "0", "9", ".", "_", "$", "|",
    # LOWER_SPECIAL
    "demo", "ab", "abc", "a_b", "a.b", "a_b.c", "a$b", "abc|def", "$inner", "_private",
    "__dunder__", "com.example.app", "snake_case_name", "x.y_z",
    # FIRST_TO_LOWER_SPECIAL candidates
    "Point", "Foo", "Demo", "Color", "Outer$inner", "A_b", "Ab", "Demo.sub",
    # ALL_TO_LOWER_SPECIAL vs LOWER_UPPER_DIGIT_SPECIAL (5 * uppers < chars decides)
    "aB", "MyType", "MyTypeName", "myField", "camelCaseName", "PascalCaseName",
    "abcdefghIJ", "abcdefghiJK", "myTypeNameIsLong", "UPPER", "ABC", "a.B", "A.B", "x.Y", "x$Y",
    "Outer$Inner", "A_B", "ALLCAPS_WITH_UNDERSCORE",
    # digits
    "x1", "v2", "2fast", "123", "MyHTTPServer2", "field_1", "Type2Name", "a1.b2", "a1$b2",
    # UTF8
    "a-b", "with space", "tab\there", "non-ASCII é", "café", "Café", "中文名", "emoji😀",
    "a/b", "a:b", "x²", "\u212aelvin",
    # boundaries of the 16-byte small form
    LOWER[:25], LOWER[:26], "Hello-World-1234", "Hello-World-12345",
    # long strings: 17, 30 and 64 characters
    LOWER[:17], (LOWER + LOWER)[:30], ("MyVeryLongTypeName" * 4)[:64], (LOWER * 3)[:64],
    ("Name2" * 13)[:64], "org.apache.fory.test.namespace.with.many.parts",
]
# every length 1..12 of the two packed alphabets, to cover each strip-flag case
STRINGS += [LOWER[:n] for n in range(5, 13) if LOWER[:n] not in STRINGS]
STRINGS += [("aB3" * 5)[:n] for n in range(3, 13)]

if len(set(STRINGS)) != len(STRINGS):
    fail("duplicate test strings")


# ---------------------------------------------------------------------------
# Contexts: the encoder objects and calls pyfory uses

# registry.py: self.namespace_encoder = MetaStringEncoder(".", "_"), .encode(namespace or "")
TYPEINFO_NAMESPACE = MetaStringEncoder(".", "_")
# registry.py: self.typename_encoder = MetaStringEncoder("$", "_"), .encode(typename)
TYPEINFO_TYPENAME = MetaStringEncoder("$", "_")

CONTEXTS = {
    "namespace": {
        "used_for": "namespace in type info (registry.py, namespace_encoder.encode(ns))",
        "special_chars": ".,_",
        "encodings": [e.value for e in Encoding],
    },
    "type_name": {
        "used_for": "type name in type info (registry.py, typename_encoder.encode(name))",
        "special_chars": "$,_",
        "encodings": [e.value for e in Encoding],
    },
    "typedef_namespace": {
        "used_for": "namespace in a TypeDef (typedef_encoder.write_namespace)",
        "special_chars": ".,_",
        "encodings": [e.value for e in NAMESPACE_ENCODINGS],
    },
    "typedef_type_name": {
        "used_for": "type name in a TypeDef (typedef_encoder.write_typename)",
        "special_chars": "$,_",
        "encodings": [e.value for e in TYPE_NAME_ENCODINGS],
    },
    "field_name": {
        "used_for": "field name in a TypeDef (typedef_encoder.write_field_info)",
        "special_chars": "$,_",
        "encodings": [e.value for e in FIELD_NAME_ENCODINGS],
    },
}
DECODERS = {
    "namespace": MetaStringDecoder(".", "_"),
    "type_name": MetaStringDecoder("$", "_"),
    "typedef_namespace": MetaStringDecoder(".", "_"),
    "typedef_type_name": MetaStringDecoder("$", "_"),
    "field_name": MetaStringDecoder("$", "_"),
}

_REGISTRY_FORY = pyfory.Fory(xlang=True, ref=False, compatible=False)
_SHARED_REGISTRY = _REGISTRY_FORY.type_resolver.shared_registry


def encode_in(context, s):
    """(MetaString, pyfory hashcode or None) the way pyfory encodes s in context."""
    if context == "namespace":
        ms = TYPEINFO_NAMESPACE.encode(s)
    elif context == "type_name":
        ms = TYPEINFO_TYPENAME.encode(s)
    elif context == "typedef_namespace":
        ms = typedef_encoder.NAMESPACE_ENCODER.encode(s, NAMESPACE_ENCODINGS)
        NAMESPACE_ENCODINGS.index(ms.encoding)  # what write_meta_string does next
    elif context == "typedef_type_name":
        ms = typedef_encoder.TYPENAME_ENCODER.encode(s, TYPE_NAME_ENCODINGS)
        TYPE_NAME_ENCODINGS.index(ms.encoding)
    elif context == "field_name":
        enc = typedef_encoder.FIELD_NAME_ENCODER.compute_encoding(s, FIELD_NAME_ENCODINGS)
        ms = typedef_encoder.FIELD_NAME_ENCODER.encode_with_encoding(s, enc)
        FIELD_NAME_ENCODINGS.index(ms.encoding)
    else:
        raise AssertionError(context)
    hashcode = None
    if context in ("namespace", "type_name"):
        hashcode = _SHARED_REGISTRY.get_encoded_meta_string(ms).hashcode
    return ms, hashcode


def string_entry(s):
    entry = {"text": s, "contexts": {}}
    for context in CONTEXTS:
        try:
            ms, hashcode = encode_in(context, s)
        except Exception as e:  # pyfory refuses the string in this context
            entry["contexts"][context] = {"error": "{}: {}".format(type(e).__name__, e)}
            continue
        c = {
            "encoding": ms.encoding.value,
            "encoding_name": ms.encoding.name,
            "bytes": ms.encoded_data.hex(),
        }
        if hashcode is not None:
            c["hash"] = hex_u64(hashcode)
        decoded = DECODERS[context].decode(ms.encoded_data, ms.encoding)
        if decoded != s:
            c["pyfory_decodes_to"] = decoded
        if context == "field_name":
            c["seen_in_typedef"] = field_name_in_typedef(s, ms)
        entry["contexts"][context] = c
    return entry


def field_name_in_typedef(name, ms):
    """True when a compatible-mode struct with this field carries the encoded name."""
    if not name.isidentifier() or keyword.iskeyword(name) or not ms.encoded_data:
        return False
    cls = dataclasses.make_dataclass("FieldProbe", [(name, int)])
    f = pyfory.Fory(xlang=True, ref=False, compatible=True)
    f.register_type(cls, name="probe.FieldProbe")
    data = f.serialize(cls(**{name: 7}))
    if ms.encoded_data not in data:
        fail("field name {!r}: encoded bytes not found in a TypeDef".format(name))
    return True


# ---------------------------------------------------------------------------
# MurmurHash3

MURMUR_SEEDS = [0, 1, 47, 0x9747B28C, 0xFFFFFFFF]


def murmur_vectors():
    inputs = [bytes((i * 31 + 7) & 0xFF for i in range(n)) for n in range(0, 41)]
    inputs += [b"hello", b"The quick brown fox jumps over the lazy dog", bytes(range(256))]
    out = []
    for seed in MURMUR_SEEDS:
        for data in inputs:
            h1, h2 = hash_buffer(data, seed=seed)
            out.append({"seed": seed, "input": data.hex(), "h1": hex_u64(h1), "h2": hex_u64(h2)})
    return out


# ---------------------------------------------------------------------------
# Streams


STREAM_HEADER = bytes([0x01, 0xFF])  # stream header byte, NOT_NULL reference flag
NAMED_ENUM = 26
NAMED_STRUCT = 29
LIST = 22


def split_name(name):
    """pyfory's split of a registration name: at the last dot."""
    ns, sep, tn = name.rpartition(".")
    return (ns, tn) if sep else ("", name)


def make_enum(i):
    return enum.Enum("MetaProbe{}".format(i), [("FIRST", 0), ("SECOND", 1)])


@dataclasses.dataclass
class StructProbe:
    x: int = 0


def meta_piece(writer, ems):
    buf = Buffer.allocate(64)
    writer.write_encoded_meta_string(buf, ems)
    return buf.to_bytes(0, buf.get_writer_index())


def stream_vector(title, names, sequence, struct=False, note=None):
    """Serialize values of types registered under `names`, in `sequence` order."""
    f = pyfory.Fory(xlang=True, ref=False, compatible=False)
    classes = []
    for i, name in enumerate(names):
        cls = StructProbe if struct else make_enum(i)
        f.register_type(cls, name=name)
        classes.append(cls)
    values = [StructProbe(5) if struct else classes[t].SECOND for t in sequence]
    type_id = NAMED_STRUCT if struct else NAMED_ENUM

    # The value bytes of each type alone: what follows its type info.
    infos = [f.type_resolver.get_type_info(c) for c in classes]
    tails = []
    for cls, info, v in zip(classes, infos, [StructProbe(5) if struct else c.SECOND for c in classes]):
        alone = f.serialize(v)
        w = MetaStringWriter()
        head = STREAM_HEADER + bytes([type_id]) + meta_piece(w, info.namespace_bytes) + meta_piece(w, info.typename_bytes)
        if not alone.startswith(head):
            fail("{}: unexpected single-value layout {}".format(title, alone.hex()))
        tails.append(alone[len(head):])

    if len(sequence) == 1:
        expected = bytearray(STREAM_HEADER)
        data = f.serialize(values[0])
    else:
        expected = bytearray(STREAM_HEADER + bytes([LIST]) + VL.var_uint32_bytes(len(sequence)) + b"\x00")
        data = f.serialize(values)
    writer = MetaStringWriter()
    meta = []
    for t in sequence:
        expected.append(type_id)
        ns, tn = split_name(names[t])
        for role, ems, text in (("namespace", infos[t].namespace_bytes, ns), ("type_name", infos[t].typename_bytes, tn)):
            piece = meta_piece(writer, ems)
            meta.append(
                {
                    "type": t,
                    "role": role,
                    "text": text,
                    "offset": len(expected),
                    "wire": piece.hex(),
                    "back_reference": bool(piece[0] & 1),
                }
            )
            expected += piece
        expected += tails[t]
    if bytes(expected) != data:
        fail("{}: stream is not the meta pieces put together:\n  got      {}\n  expected {}".format(title, data.hex(), bytes(expected).hex()))
    back = f.deserialize(data)
    if back != (values[0] if len(sequence) == 1 else values):
        fail("{}: pyfory does not read its own bytes back".format(title))
    for t, name in enumerate(names):
        ns, tn = split_name(name)
        if infos[t].decode_namespace() != ns or infos[t].decode_typename() != tn:
            fail("{}: registered names decode differently".format(title))
    v = {
        "name": title,
        "kind": "named_struct" if struct else "named_enum",
        "types": [{"name": n, "namespace": split_name(n)[0], "type_name": split_name(n)[1]} for n in names],
        "sequence": sequence,
        "bytes": data.hex(),
        "meta": meta,
    }
    if note:
        v["note"] = note
    return v


def faithful(context, s):
    """pyfory can register s in this role and decodes it back to s."""
    try:
        ms, _ = encode_in(context, s)
    except Exception:
        return False
    return DECODERS[context].decode(ms.encoded_data, ms.encoding) == s


def stream_vectors():
    out = []
    for s in STRINGS:
        if faithful("namespace", s):
            out.append(stream_vector("namespace {!r}".format(s), [s + ".Color" if s else "Color"], [0]))
    for s in STRINGS:
        if s and "." not in s and faithful("type_name", s):
            out.append(stream_vector("type name {!r}".format(s), ["demo." + s], [0]))
    out.append(stream_vector("struct demo.Point", ["demo.Point"], [0], struct=True))
    out.append(
        stream_vector(
            "shared namespace",
            ["demo.Color", "demo.Shape", "other.Color"],
            [0, 1, 2, 0],
            note="demo is written once; Color of other.Color repeats the type name of demo.Color",
        )
    )
    out.append(
        stream_vector(
            "empty namespaces",
            ["Alpha", "Beta"],
            [0, 1, 0],
            note="each registration's empty namespace takes its own id; only the same type repeats it",
        )
    )
    out.append(stream_vector("namespace equals type name", ["foo.foo"], [0]))
    out.append(
        stream_vector(
            "type name equals an earlier namespace",
            ["b.x", "a.b"],
            [0, 1],
        )
    )
    out.append(
        stream_vector(
            "same packed bytes in both roles",
            ["x.Y.T", "ns.x$Y"],
            [0, 1],
            note="namespace x.Y and type name x$Y encode to identical LOWER_UPPER_DIGIT_SPECIAL bytes",
        )
    )
    long_ns = "org.apache.fory.test.namespace.with.many.parts"
    out.append(stream_vector("shared long namespace", [long_ns + ".First", long_ns + ".Second"], [0, 1, 0]))
    huge_ns = "a" * 3300  # 2063 bytes of LOWER_SPECIAL: above pyfory's 2048-byte interning limit
    out.append(
        stream_vector(
            "namespace above the interning limit",
            [huge_ns + ".X", huge_ns + ".Y"],
            [0, 1, 0],
            note="meta strings over 2048 bytes are not interned: equal ones from two registrations are both written in full",
        )
    )
    return out


def build():
    return {
        "format": "fury-meta-strings/1",
        "peer": PEER,
        "notes": [
            "bytes, hashes and h1/h2 are lower-case hex; hashes are pyfory's int64 hashcode as unsigned 64-bit",
            "a context entry with 'error' means pyfory raises for that string in that context",
            "streams: xlang, ref=False, compatible=False; meta[].offset indexes bytes; wire is the meta string as written there",
        ],
        "contexts": CONTEXTS,
        "murmur3": murmur_vectors(),
        "strings": [string_entry(s) for s in STRINGS],
        "streams": stream_vectors(),
    }


def render(doc):
    """Pretty JSON with one line per vector (ASCII only: non-ASCII text is \\u-escaped)."""

    def one(v):
        return json.dumps(v, ensure_ascii=True, allow_nan=False, separators=(", ", ": "))

    parts = []
    for key, value in doc.items():
        if isinstance(value, list):
            body = ",\n".join("  " + one(v) for v in value)
            parts.append("{}: [\n{}\n ]".format(one(key), body))
        elif isinstance(value, dict):
            body = ",\n".join("  {}: {}".format(one(k), one(v)) for k, v in value.items())
            parts.append("{}: {{\n{}\n }}".format(one(key), body))
        else:
            parts.append("{}: {}".format(one(key), one(value)))
    text = "{\n" + ",\n".join(" " + p for p in parts) + "\n}\n"
    if json.loads(text) != doc:
        fail("rendering changed the document")
    return text


def documents():
    return {"meta_strings": render(build())}
