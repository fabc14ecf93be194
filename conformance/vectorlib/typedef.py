"""TypeDefs (compatible mode): our own encoder, a parser that describes
TypeDef bytes (README, "TypeDef description"), and the check of the facts a
vector file stores about them.

With compatible=True pyfory registers structs as COMPATIBLE_STRUCT (28) or
NAMED_COMPATIBLE_STRUCT (30) and describes each struct type once per stream
with a TypeDef: the type info is the kind byte, a var_uint32 marker
``index << 1`` followed by the TypeDef bytes (first use in the stream) or
``(index << 1) | 1`` (back-reference), index counting the TypeDefs of the
stream from 0.  NAMED_ENUM (26) uses the same shared meta; ENUM (25) keeps
its var_uint32 user id.  The rules are our own reading of pyfory 1.7.7;
generators/compat.py checks each TypeDef pyfory writes against typedef_encode()
and decodes every stream with the wire decoder (wire.py), which requires the
same of every TypeDef it meets."""

from .errors import TypeDefError, VectorError, WireError
from .hashing import MASK64, murmur3_x64_128, to_signed
from .meta_string import META_ENCODING_NAMES, encoding_after_lower_special, meta_string_decode, meta_string_encode_as
from .primitives import ByteReader, var_uint32_bytes
from .schema import format_schema
from .types import (
    COMPATIBLE_STRUCT_TYPE_ID,
    ENUM_TYPE_ID,
    FIELD_TYPE_KINDS,
    NAMED_COMPATIBLE_STRUCT_TYPE_ID,
    TYPE_IDS,
    UNKNOWN_TYPE_ID,
)

__all__ = [
    "TYPEDEF_STRUCT_FLAG", "TYPEDEF_COMPATIBLE_FLAG", "TYPEDEF_NAMED_FLAG", "TYPEDEF_SMALL_FIELD_COUNT",
    "TYPEDEF_SIZE_MASK", "TYPEDEF_COMPRESS_FLAG", "TYPEDEF_RESERVED_FLAGS", "TYPEDEF_HASH_SHIFT", "TYPEDEF_BIG_NAME",
    "TYPEDEF_FIELD_SIZE_LIMIT", "TYPEDEF_NON_STRUCT_KINDS", "TYPEDEF_FIELD_TAG_ID", "TYPEDEF_NAME_ENCODINGS", "typedef_name_encoding", "typedef_header_hash", "typedef_field_type",
    "typedef_body", "typedef_encode", "read_typedef", "typedef_describe", "typedef_type_matches",
    "typedef_facts_errors",
]

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


def typedef_name_encoding(text, role):
    """META_ENCODING_NAMES index pyfory 1.7.7 picks for a name inside a
    TypeDef: LOWER_SPECIAL is never allowed there, so the choice is
    encoding_after_lower_special() -- even FIRST_TO_LOWER_SPECIAL where a
    TypeDef cannot name it, on which pyfory fails (TypeDefError here)."""
    if not text:
        return 0
    enc = encoding_after_lower_special(text, role)
    if enc not in TYPEDEF_NAME_ENCODINGS[role]:
        raise TypeDefError(
            "{} {!r}: pyfory 1.7.7 picks FIRST_TO_LOWER_SPECIAL, which a TypeDef {} cannot name "
            "(ValueError: <Encoding.FIRST_TO_LOWER_SPECIAL: 3> is not in list)".format(role, text, role))
    return enc


def typedef_header_hash(body, low_bits):
    """The hash part (bits 12..63) of a TypeDef header: h = the first 64-bit
    half of MurmurHash3_x64_128(body + the two low bytes of low_bits, seed
    47) as a signed int64; s = int64(h << 12) (wrapping); s = -s when s is
    negative (and not INT64_MIN); the result is s with its low 12 bits
    cleared, as an unsigned 64-bit number."""
    h1 = murmur3_x64_128(bytes(body) + bytes((low_bits & 0xFF, (low_bits >> 8) & 0xFF)), 47)[0]
    shifted = to_signed((h1 << TYPEDEF_HASH_SHIFT) & MASK64, 64)
    if shifted < 0 and shifted != -(1 << 63):
        shifted = -shifted
    return shifted & MASK64 & ~((1 << TYPEDEF_HASH_SHIFT) - 1)


def typedef_field_type(types, tree, ref=False):
    """The TypeDef type tree of a field schema:
    {"id", "nullable", "ref"[, "element" | "key", "value"]}.  Structs
    registered by id are COMPATIBLE_STRUCT (28), by name
    NAMED_COMPATIBLE_STRUCT (30); every enum is ENUM (25); any is UNKNOWN (0).
    ``ref`` is the field's "ref": true (with Fory(ref=True), vectors/refs/):
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
        out += var_uint32_bytes((ft["id"] << 2) | (2 if ft["nullable"] else 0) | (1 if ft["ref"] else 0))
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
        out += var_uint32_bytes(len(data) - TYPEDEF_BIG_NAME)
    else:
        out.append((len(data) << 2) | index)
    out += data


def _write_field_header(out, header, value):
    # bits 2..5 hold the tag id or the name size - 1; from 15 on, the rest
    # follows as a var_uint32
    if value >= TYPEDEF_FIELD_SIZE_LIMIT:
        out.append(header | (TYPEDEF_FIELD_SIZE_LIMIT << 2))
        out += var_uint32_bytes(value - TYPEDEF_FIELD_SIZE_LIMIT)
    else:
        out.append(header | (value << 2))


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
            out += var_uint32_bytes(len(fields) - TYPEDEF_SMALL_FIELD_COUNT)
    else:
        out.append(TYPEDEF_NON_STRUCT_KINDS.index("NAMED_ENUM" if named else "ENUM"))
    reg = d["register"]
    if named:
        _write_typedef_name(out, reg["namespace"], "namespace")
        _write_typedef_name(out, reg["typename"], "typename")
    else:
        out += var_uint32_bytes(reg["id"])
    for fname, tree, tag in fields:
        ft = typedef_field_type(types, tree, types.field_ref(name, fname))
        header = (2 if ft["nullable"] else 0) | (1 if ft["ref"] else 0)
        if tag is not None:
            _write_field_header(out, header | (TYPEDEF_FIELD_TAG_ID << 6), tag)
            _write_typedef_type(out, ft, True)
            continue
        enc = typedef_name_encoding(fname, "field")
        data = meta_string_encode_as(fname, enc, "field")
        _write_field_header(out, header | (TYPEDEF_NAME_ENCODINGS["field"].index(enc) << 6), len(data) - 1)
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
        out += var_uint32_bytes(len(body) - TYPEDEF_SIZE_MASK)
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
        text = meta_string_decode(data, enc, role)
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
    if header & ~0xFFF & MASK64 != expected_hash:
        r.fail("TypeDef hash 0x{:x} but the body hashes to 0x{:x}".format(header >> 12, expected_hash >> 12))
    b = ByteReader(body)
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
                f["name"] = meta_string_decode(data, enc, "field")
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
    r = ByteReader(data)
    desc = read_typedef(r)
    if r.pos != len(r.data):
        r.fail("{} bytes after the TypeDef".format(len(r.data) - r.pos))
    desc.pop("_raw")
    return desc


def typedef_type_matches(desc_type, ft):
    """Does a described TypeDef type tree (from read_typedef) equal ours (from typedef_field_type)?"""
    if desc_type["id"] != ft["id"] or desc_type["nullable"] != ft["nullable"] or desc_type["ref"] != ft["ref"]:
        return False
    for k in ("element", "key", "value"):
        if (k in desc_type) != (k in ft):
            return False
        if k in ft and not typedef_type_matches(desc_type[k], ft[k]):
            return False
    return True


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
                        if not typedef_type_matches(fdesc["type"], ft):
                            problems.append("type {}: field {}: TypeDef type differs".format(name, fname))
    return problems
