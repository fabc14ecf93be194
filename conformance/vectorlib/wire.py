"""The independent wire decoder: xlang bytes -> value node.

This is our own reading of the format, written without pyfory's code, so
that wire types, string encodings, element order, TypeDefs and reference
ids can be checked, which a Python-level comparison cannot see.  One
decoder serves every vector family; two switches say what a stream holds:

* ``compatible``: structs are COMPATIBLE_STRUCT / NAMED_COMPATIBLE_STRUCT
  with shared TypeDef meta, read field by field as their TypeDef says, and
  every TypeDef must equal typedef_encode() of the type it names.  Without
  it (same-schema mode) a struct payload starts with the schema hash and
  its fields follow in our wire order.
* ``ref`` (Fory(ref=True)): a value with the REF_VALUE flag (0x00) takes
  the next reference id (from 0, in wire order) and gets "ref_id" in its
  node; REF (0xfe) + var_uint32 id is a back reference, the node
  {"type": "ref", "id": N}.  Where pyfory writes which flag is our own
  reading of pyfory 1.7.7; generators/refs.py checks it for every vector.

A schema (string or tree) is consulted for declared element types and
for the fields of structs; ``types`` (a TypeTable) is needed for structs
and enums.
"""

import struct

from .errors import VectorError
from .floats import float_node
from .meta_string import META_ENCODING_NAMES, META_SMALL_LIMIT, meta_string_decode, meta_string_hash
from .nodes import array_node_from_values
from .primitives import ByteReader
from .schema import format_schema, parse_schema
from .typedef import read_typedef, typedef_encode
from .types import (
    ARRAY_KINDS,
    COLL_DECL_ELEM,
    COLL_HAS_NULL,
    COLL_SAME_TYPE,
    COLL_TRACKING_REF,
    COMPAT_TYPE_INFO_IDS,
    FLAG_NOT_NULL,
    FLAG_NULL,
    FLAG_REF,
    FLAG_REF_VALUE,
    FLOAT_HEX_WIDTH,
    INT_RANGES,
    MAP_KEY_DECL,
    MAP_KEY_NULL,
    MAP_TRACK_KEY_REF,
    MAP_TRACK_VALUE_REF,
    MAP_VALUE_DECL,
    MAP_VALUE_NULL,
    REF_BASIC_FIELD_KINDS,
    REF_TRACKED_KINDS,
    TYPE_IDS,
    TYPE_NAMES,
    USER_TYPE_KINDS,
)

__all__ = ["Decoder", "decode_stream", "decode_wire", "decode_wire_compat", "decode_wire_refs"]

# fixed-width integer kinds -> byte size
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


def _null():
    return {"type": "null"}


def _with_ref_id(node, ref_id):
    out = {"type": node["type"], "ref_id": ref_id}
    out.update((k, v) for k, v in node.items() if k != "type")
    return out


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


class Decoder(ByteReader):
    """A cursor over one stream, with what the stream has defined so far:
    meta strings, TypeDefs and reference ids."""

    def __init__(self, data, types=None, compatible=False, ref=False, buffers=None):
        ByteReader.__init__(self, data)
        # the out-of-band buffers of a stream whose header announces them (vectors/oob/)
        self.buffers = None if buffers is None else list(buffers)
        self.buffers_taken = 0
        self.types = types  # a RegisteredTypes view, or None
        self.compat = bool(compatible)
        self.ref = bool(ref)
        self.meta_strings = []  # (encoding, bytes) read so far, for back-references
        self.typedefs = []  # index -> (kind, type name, description)
        self.struct_defs = {}  # type name -> TypeDef description used in this stream
        self.typedef_bytes = {}  # type name -> raw TypeDef bytes seen in this stream
        self.next_ref_id = 0

    # -- the stream, flags and type infos ------------------------------------------------

    def stream(self, schema):
        header = self.u8()
        if header & 0xFC:
            self.fail("unknown header bits 0x{:02x}".format(header))
        if not header & 0x01:
            self.fail("header does not have the xlang bit")
        if bool(header & 0x02) != (self.buffers is not None):
            self.fail("the header's out-of-band bit is {}, but buffers were {}given".format(
                header & 0x02, "" if self.buffers is not None else "not "))
        node = self.flagged(True, lambda: self.payload(self.type_id(), schema))
        if self.pos != len(self.data):
            self.fail("{} trailing bytes".format(len(self.data) - self.pos))
        if self.buffers is not None and self.buffers_taken != len(self.buffers):
            self.fail("the stream took {} of {} out-of-band buffers".format(self.buffers_taken, len(self.buffers)))
        return node

    def binary(self):
        """A BINARY payload: with out-of-band buffers, a flag 01 (in band: length and bytes
        follow) or 00 (the next buffer)."""
        if self.buffers is not None:
            flag = self.u8()
            if flag == 0:
                if self.buffers_taken >= len(self.buffers):
                    self.fail("the stream takes more than the {} out-of-band buffers".format(len(self.buffers)))
                self.buffers_taken += 1
                return bytes(self.buffers[self.buffers_taken - 1])
            if flag != 1:
                self.fail("out-of-band flag 0x{:02x}".format(flag))
        return self.take(self.var_uint32())

    def flagged(self, tracked, read):
        """Read a flag byte, then (for a value) ``read()``.  With ref tracking,
        ``tracked`` says whether the position may carry REF_VALUE (0x00, takes
        the next id) and REF (0xfe + id); otherwise only NULL (0xfd) and
        NOT_NULL (0xff) are valid there."""
        start = self.pos
        flag = self.u8()
        if flag == FLAG_NULL:
            return _null()
        if flag == FLAG_NOT_NULL:
            return read()
        if not self.ref:
            # no ids without ref tracking: REF_VALUE reads as "not null", as
            # the ref=False checks have always taken it
            if flag == FLAG_REF_VALUE:
                return read()
            if flag == FLAG_REF:
                self.fail("back-reference (0xFE) is not supported by this checker")
            self.fail("bad ref flag 0x{:02x}".format(flag))
        if tracked and flag == FLAG_REF_VALUE:
            ref_id = self.next_ref_id
            self.next_ref_id += 1  # reserved before the payload: children get later ids
            return _with_ref_id(read(), ref_id)
        if tracked and flag == FLAG_REF:
            ref_id = self.var_uint32()
            if ref_id >= self.next_ref_id:
                self.pos = start
                self.fail("reference to id {} but only {} ids were given".format(ref_id, self.next_ref_id))
            return {"type": "ref", "id": ref_id}
        self.pos = start
        self.fail("flag 0x{:02x} where {} expected".format(
            flag, "a ref flag (fd/ff/00/fe) was" if tracked else "only a null flag (fd/ff) was"))

    def type_id(self):
        """A type id, or for an application type its type info, read as
        ("struct" | "enum", type name)."""
        start = self.pos
        tid = self.u8()
        if tid in TYPE_NAMES:
            return tid
        if tid in USER_TYPE_KINDS or tid in COMPAT_TYPE_INFO_IDS:
            if self.types is None:
                self.pos = start
                self.fail("type id {} of an application type, but no type definitions".format(tid))
            if self.compat and tid in COMPAT_TYPE_INFO_IDS:
                return self._shared_type_info(tid)
            if tid in USER_TYPE_KINDS:
                return self._user_type_info(tid)
        self.fail("unsupported type id {}".format(tid))

    def declared_type_id(self, schema):
        """The element / key / value type a collection or map header declares
        (not on the wire): taken from the schema."""
        if schema is not None and schema[0] == "named" and self.types is not None:
            return self.types.type_key(schema[1])
        if schema is None or schema[0] != "scalar":
            if schema is not None and schema[0] in ("list", "set", "map"):
                return TYPE_IDS[schema[0]]
            if schema is not None and schema[0] == "tuple":
                return TYPE_IDS["list"]  # a Python tuple is written as a list
            self.fail("declared element type without a concrete schema")
        return TYPE_IDS[schema[1]]

    def _meta_string(self, role):
        header = self.var_uint32()
        if header & 1:
            index = header >> 1
            if not 1 <= index <= len(self.meta_strings):
                self.fail("meta string back-reference {} but only {} read".format(index, len(self.meta_strings)))
            enc, data = self.meta_strings[index - 1]
        else:
            length = header >> 1
            if length == 0:
                enc, data = 0, b""
            elif length <= META_SMALL_LIMIT:
                enc = self.u8()
                data = self.take(length)
            else:
                hashcode = self.fixed(8, True)
                data = self.take(length)
                enc = hashcode & 0xFF
                if enc < len(META_ENCODING_NAMES) and hashcode != meta_string_hash(data, enc):
                    self.fail("meta string hash {} does not match its bytes (expected {})".format(
                        hashcode, meta_string_hash(data, enc)))
            if enc >= len(META_ENCODING_NAMES):
                self.fail("unknown meta string encoding {}".format(enc))
            self.meta_strings.append((enc, data))
        try:
            return meta_string_decode(data, enc, role)
        except (ValueError, UnicodeDecodeError, IndexError) as exc:
            self.fail("bad {} meta string: {}".format(role, exc))

    def _registered_kind(self, tid, kind, by_name, name, what):
        # the type info's kind must be the one the type is registered as
        if self.types.kind(name) != kind or self.types.is_named(name) != by_name:
            self.fail("type id {} {} {} (a {} registered by {})".format(
                tid, what, name, self.types.kind(name), "name" if self.types.is_named(name) else "id"))
        return (kind, name)

    def _user_type_info(self, tid):
        """Same-schema type info: a user id, or namespace + type name."""
        kind, by_name = USER_TYPE_KINDS[tid]
        if by_name:
            ns = self._meta_string("namespace")
            tn = self._meta_string("typename")
            name = self.types.by_reg_name(ns, tn)
            if name is None:
                self.fail("no type registered as namespace {!r} type name {!r}".format(ns, tn))
        else:
            uid = self.var_uint32()
            name = self.types.by_id(uid)
            if name is None:
                self.fail("no type registered with id {}".format(uid))
        return self._registered_kind(tid, kind, by_name, name, "does not fit")

    def _shared_type_info(self, tid):
        """Compatible-mode type info: a new TypeDef or a back-reference to one."""
        kind, by_name = COMPAT_TYPE_INFO_IDS[tid]
        marker = self.var_uint32()
        index = marker >> 1
        if marker & 1:
            if index >= len(self.typedefs):
                self.fail("TypeDef back-reference {} but only {} TypeDefs read".format(index, len(self.typedefs)))
            _kind, name, _desc = self.typedefs[index]
        else:
            if index != len(self.typedefs):
                self.fail("new TypeDef with index {} but {} TypeDefs read".format(index, len(self.typedefs)))
            name = self._new_typedef()
        return self._registered_kind(tid, kind, by_name, name, "with the TypeDef of")

    def _new_typedef(self):
        desc = read_typedef(self)
        raw = desc.pop("_raw")
        reg = desc["registration"]
        if "id" in reg:
            name = self.types.by_id(reg["id"])
        else:
            name = self.types.by_reg_name(reg["namespace"]["text"], reg["typename"]["text"])
        if name is None:
            self.fail("TypeDef of an unregistered type {}".format(reg))
        try:
            own = typedef_encode(self.types, name)
        except VectorError as exc:
            self.fail("cannot encode the TypeDef of {}: {}".format(name, exc))
        if own != raw:
            self.fail("TypeDef of {} is {} but ours is {}".format(name, raw.hex(), own.hex()))
        if name in self.typedef_bytes and self.typedef_bytes[name] != raw:
            self.fail("two different TypeDefs of {} in one stream".format(name))
        self.typedef_bytes[name] = raw
        kind = self.types.kind(name)
        self.typedefs.append((kind, name, desc))
        if kind == "struct":
            self.struct_defs[name] = desc
        return name

    # -- payloads --------------------------------------------------------------------------

    def payload(self, tid, schema=None):
        """The value after its type id (or type info, a tuple)."""
        if isinstance(tid, tuple):
            kind, name = tid
            return self.struct(name) if kind == "struct" else self.enum(name)
        name = TYPE_NAMES.get(tid)
        if name is None:
            self.fail("unsupported type id {}".format(tid))
        if name in ("list", "set"):
            return self.collection(name, schema)
        if name == "map":
            return self.map(schema)
        if name == "none":
            self.fail("a non-null value of type NONE")
        return self.scalar(name)

    def scalar(self, name):
        if name == "bool":
            b = self.u8()
            if b > 1:
                self.fail("bool byte {}".format(b))
            return {"type": "bool", "value": b == 1}
        if name in INT_RANGES:
            if name in _FIXED_INT_SIZES:
                v = self.fixed(_FIXED_INT_SIZES[name], not name.startswith("u"))
            elif name == "varint32":
                v = self.unzigzag(self.var_uint32())
            elif name == "var_uint32":
                v = self.var_uint32()
            elif name == "varint64":
                v = self.unzigzag(self.var_uint64())
            elif name == "var_uint64":
                v = self.var_uint64()
            elif name == "tagged_int64":
                v = self.tagged_int64()
            else:
                v = self.tagged_uint64()
            return {"type": name, "value": str(v)}
        if name in FLOAT_HEX_WIDTH:
            return float_node(name, self.fixed(FLOAT_HEX_WIDTH[name] // 2, False))
        if name == "string":
            return self.string()
        if name == "binary":
            return {"type": "binary", "hex": self.binary().hex()}
        if name == "duration":
            seconds = self.unzigzag(self.var_uint64())
            nanos = self.fixed(4, True)
            return {"type": "duration", "seconds": str(seconds), "nanos": nanos}
        if name == "timestamp":
            seconds = self.fixed(8, True)
            nanos = self.fixed(4, False)
            return {"type": "timestamp", "seconds": str(seconds), "nanos": nanos}
        if name == "date":
            return {"type": "date", "days": self.unzigzag(self.var_uint64())}
        if name in ARRAY_KINDS:
            elem, size, code = ARRAY_KINDS[name]
            nbytes = self.var_uint32()
            if nbytes % size:
                self.fail("{} byte length {} not a multiple of {}".format(name, nbytes, size))
            n = nbytes // size
            vals = list(struct.unpack("<{}{}".format(n, code), self.take(nbytes)))
            if elem == "bool" and any(v > 1 for v in vals):
                self.fail("bool_array byte other than 0/1")
            return array_node_from_values(name, vals)
        self.fail("type {} cannot be decoded here".format(name))

    def string(self):
        header = self.var_uint64()
        size, enc = header >> 2, header & 3
        raw = self.take(size)
        if enc == 0:
            return {"type": "string", "value": raw.decode("latin-1"), "encoding": "latin1"}
        if enc == 1:
            if size % 2:
                self.fail("odd UTF-16 byte length")
            try:
                return {"type": "string", "value": raw.decode("utf-16-le"), "encoding": "utf16"}
            except UnicodeDecodeError as exc:
                self.fail("bad UTF-16: {}".format(exc))
        if enc == 2:
            try:
                return {"type": "string", "value": raw.decode("utf-8"), "encoding": "utf8"}
            except UnicodeDecodeError as exc:
                self.fail("bad UTF-8: {}".format(exc))
        self.fail("unknown string encoding {}".format(enc))

    def enum(self, name):
        vid = self.var_uint32()
        variant = self.types.variant_by_id(name, vid)
        if variant is None:
            self.fail("enum {} has no variant with id {}".format(name, vid))
        return {"type": "enum", "name": name, "variant": variant, "id": vid}

    # -- collections and maps --------------------------------------------------------------

    def collection(self, name, schema):
        n = self.var_uint32()
        if n == 0:
            return {"type": name, "items": []}
        flags = self.u8()
        if flags & 0xF0:
            self.fail("unknown collection flag bits 0x{:02x}".format(flags))
        tracking = bool(flags & COLL_TRACKING_REF)
        has_null = bool(flags & COLL_HAS_NULL)
        elem_schema = _schema_child(schema, 0)
        if flags & COLL_SAME_TYPE:
            tid = self.declared_type_id(elem_schema) if flags & COLL_DECL_ELEM else self.type_id()

            def read():
                return self.payload(tid, elem_schema)
        else:
            if flags & COLL_DECL_ELEM:
                self.fail("declared element type on a collection of mixed types")

            def read():
                return self.payload(self.type_id(), elem_schema)

        items = []
        for _ in range(n):
            items.append(self.flagged(tracking, read) if (tracking or has_null) else read())
        return {"type": name, "items": items}

    def map(self, schema):
        remaining = self.var_uint32()
        key_schema = _schema_child(schema, 0)
        value_schema = _schema_child(schema, 1)
        entries = []

        def lone_side(decl, track, sub):
            # the non-null side of an entry whose key or value is null
            if decl:
                tid = self.declared_type_id(sub)
                if track:
                    return self.flagged(True, lambda: self.payload(tid, sub))
                return self.payload(tid, sub)
            return self.flagged(bool(track), lambda: self.payload(self.type_id(), sub))

        while remaining > 0:
            header = self.u8()
            if header & 0xC0:
                self.fail("unknown map chunk header bits 0x{:02x}".format(header))
            key_null = bool(header & MAP_KEY_NULL)
            value_null = bool(header & MAP_VALUE_NULL)
            if key_null or value_null:
                if key_null and value_null:
                    entries.append([_null(), _null()])
                elif value_null:
                    k = lone_side(header & MAP_KEY_DECL, header & MAP_TRACK_KEY_REF, key_schema)
                    entries.append([k, _null()])
                else:
                    v = lone_side(header & MAP_VALUE_DECL, header & MAP_TRACK_VALUE_REF, value_schema)
                    entries.append([_null(), v])
                remaining -= 1
                continue
            size = self.u8()
            if size == 0 or size > remaining:
                self.fail("bad map chunk size {} ({} entries left)".format(size, remaining))
            ktid = self.declared_type_id(key_schema) if header & MAP_KEY_DECL else self.type_id()
            vtid = self.declared_type_id(value_schema) if header & MAP_VALUE_DECL else self.type_id()
            for _ in range(size):
                pair = []
                for track, tid, sub in ((header & MAP_TRACK_KEY_REF, ktid, key_schema),
                                        (header & MAP_TRACK_VALUE_REF, vtid, value_schema)):
                    if track:
                        node = self.flagged(True, lambda: self.payload(tid, sub))
                        # pyfory never writes a null inside a chunk; the ref=True
                        # check refuses one, the ref=False check has always read it
                        if node["type"] == "null" and self.ref:
                            self.fail("null inside a map chunk")
                    else:
                        node = self.payload(tid, sub)
                    pair.append(node)
                entries.append(pair)
            remaining -= size
        return {"type": "map", "entries": entries}

    # -- structs ---------------------------------------------------------------------------

    def struct(self, name):
        types = self.types
        values = {}
        if self.compat:
            # the fields the TypeDef lists, in its order, matched by tag id or name
            desc = self.struct_defs.get(name)
            if desc is None:
                self.fail("struct {} without a TypeDef in this stream".format(name))
            by_tag = {tag: f for f, _tree, tag in types.fields(name) if tag is not None}
            by_name = {f: f for f, _tree, tag in types.fields(name) if tag is None}
            for fd in desc["fields"]:
                fname = by_tag.get(fd["tag_id"]) if "tag_id" in fd else by_name.get(fd["name"])
                if fname is None:
                    self.fail("struct {}: TypeDef field {} is not in the definition".format(
                        name, fd.get("name", fd.get("tag_id"))))
                values[fname] = self.field(types.field_tree(name, fname), self.ref and fd["ref"], fd["nullable"])
        else:
            got = self.fixed(4, True)
            expected = types.struct_hash(name)
            if got != expected:
                self.fail("struct {}: schema hash {} but expected {}".format(name, got, expected))
            for fname in types.wire_order(name):
                tree = types.field_tree(name, fname)
                ref = self.ref and types.field_ref(name, fname)
                values[fname] = self.field(tree, ref, tree[0] == "option")
        missing = [f for f, _t, _g in types.fields(name) if f not in values]
        if missing:
            self.fail("struct {}: fields {} are not on the wire".format(name, missing))
        return {"type": "struct", "name": name, "fields": {f: values[f] for f, _t, _g in types.fields(name)}}

    def field(self, tree, ref, nullable):
        """One struct field of schema ``tree``.  ``ref``: the field is
        pyfory.field(ref=True) and the stream tracks references;
        ``nullable``: Optional (same-schema) / the TypeDef's nullable bit."""
        inner = tree[1] if tree[0] == "option" else tree
        k = inner[0]
        if k == "scalar" and inner[1] in REF_BASIC_FIELD_KINDS:
            # inline ("basic") field: a null flag only when nullable, never a ref flag

            def read_basic():
                return self.payload(TYPE_IDS[inner[1]], inner)

            return self.flagged(False, read_basic) if nullable else read_basic()
        types = self.types
        dynamic = k == "any" or (
            k == "named" and types.kind(inner[1]) == "struct" and (self.compat or types.is_named(inner[1])))
        if dynamic:
            # type info + payload; a ref field takes a ref flag whatever the value is

            def read():
                start = self.pos
                key = self.type_id()
                if k == "any" and key == TYPE_IDS["none"]:
                    # pyfory writes None in an Any field without a null flag (not nullable,
                    # no ref) as the bare NONE type
                    return _null()
                if k == "named" and key != ("struct", inner[1]):
                    self.pos = start
                    self.fail("expected the type info of struct {}, got {!r}".format(inner[1], key))
                return self.payload(key, None if k == "any" else inner)

            tracked = True
        elif k == "named":
            key = types.type_key(inner[1])

            def read():
                return self.payload(key, inner)

            tracked = key[0] == "struct"
        elif k in ("list", "set", "map", "tuple"):
            tid = TYPE_IDS["list" if k == "tuple" else k]  # a Python tuple is written as a list

            def read():
                return self.payload(tid, inner)

            tracked = True
        elif k == "scalar":

            def read():
                return self.payload(TYPE_IDS[inner[1]], inner)

            tracked = inner[1] in REF_TRACKED_KINDS
        else:
            self.fail("cannot read a field of schema {}".format(format_schema(tree)))
        if ref:
            # pyfory writes a flag for every ref field, nullable or not: 00/fe/fd
            # for a tracked kind, ff/fd for the others
            return self.flagged(tracked, read)
        if nullable:
            return self.flagged(False, read)
        return read()


# -- entry points ----------------------------------------------------------------------------


def decode_stream(data, schema=None, types=None, compatible=False, ref=False, alias_names=(), buffers=None):
    """Decode a whole xlang stream.  ``types`` (a TypeTable) defines the
    structs and enums; its plain types and ``alias_names`` are the ones
    registered; ``buffers`` are the out-of-band buffers of a stream whose
    header announces them.  Returns (node, {type name: raw TypeDef bytes in
    the stream})."""
    view = types.registered_view(alias_names) if types is not None else None
    if isinstance(schema, str):
        schema = parse_schema(schema, types)
    decoder = Decoder(data, view, compatible, ref, buffers)
    return decoder.stream(schema), dict(decoder.typedef_bytes)


def decode_wire(data, schema=None, types=None):
    """A same-schema, ref=False stream (vectors/builtins/, vectors/structs/) -> node."""
    return decode_stream(data, schema, types)[0]


def decode_wire_compat(data, schema, types, alias_names=()):
    """A compatible-mode, ref=False stream (vectors/compat/) -> (node, TypeDef bytes by type name)."""
    return decode_stream(data, schema, types, compatible=True, alias_names=alias_names)


def decode_wire_refs(data, schema=None, types=None, compatible=False):
    """A ref=True stream (vectors/refs/), in either mode -> node with "ref_id"
    keys and {"type": "ref", "id": N} nodes."""
    return decode_stream(data, schema, types, compatible, ref=True)[0]
