"""Write the compatible-mode struct/enum vectors (conformance/vectors/compat/compat.json).

Everything here is written by pyfory 1.7.7 with
``pyfory.Fory(xlang=True, ref=False, compatible=True)`` (pyfory's default):
structs are COMPATIBLE_STRUCT / NAMED_COMPATIBLE_STRUCT and carry a TypeDef
(shared meta) once per stream.

The file holds:

* the struct and enum definitions of vectors/structs/structs.json (taken
  from generators/structs.py, same names and registrations; its TYPES and
  vectors(), not STRUCT_ONLY_TYPES), a few extra plain
  types, and the *evolution* types: several definitions of one registration
  ("alias_of_registration": true), registered only by the vectors that name
  them;
* for every type whose TypeDef pyfory writes, the exact TypeDef bytes
  ("typedef_hex") and our decoded description of them ("typedef");
* one vector per vector of structs.json, re-written in compatible mode, plus
  root vectors that show the TypeDef table (first use / back-reference);
* evolution vectors: a value of the writer's version, written with only the
  writer's version registered, and what a Fory that registers only the
  reader's version gives back ("expected"), or "expected_error".

Every vector is confirmed before it is stored; the script aborts on the
first disagreement:

1. our independent decoder (vectorlib.decode_wire_compat: TypeDef-driven,
   every TypeDef must equal our own encoding of the type) must decode the
   bytes to the node built from the authored data (set order aside);
2. pyfory.deserialize with the writer's registrations must consume every
   byte and give the value back;
3. the Python input must equal the node, and the node turned back into
   Python must serialize to the same bytes;
4. the schema must accept the node;
5. evolution vectors: pyfory with the reader's registrations must give
   exactly the predicted "expected" node (or fail, for "expected_error").

For every type, pyfory's TypeDef bytes must equal vectorlib.typedef_encode.

Usage:
    python conformance/generate.py compat            # (re)write vectors/compat/
    python conformance/generate.py --check compat    # compare with the files on disk
"""

import datetime


import vectorlib as VL  # noqa: E402
from generators import structs as GS  # noqa: E402  (the same-schema type definitions and vectors)

UTC = datetime.timezone.utc
D = datetime.date
DT = datetime.datetime
TD = datetime.timedelta
GROUP = "compat"
SETTINGS = VL.COMPAT_SETTINGS

I32_MIN, I32_MAX = -(2**31), 2**31 - 1
I64_MIN = -(2**63)


# ---------------------------------------------------------------------------
# authored data -> nodes
# ---------------------------------------------------------------------------


class S:
    """A struct value in an ``any`` position: S("Point", {"x": 1, "y": 2})."""

    def __init__(self, name, data):
        self.name, self.data = name, data


class E:
    """An enum value in an ``any`` position: E("Color", "RED")."""

    def __init__(self, name, variant):
        self.name, self.variant = name, variant


def typed(tree, data, types, path="$"):
    """Node for authored data of the given schema: structs as dicts, enums as
    variant names, maps as lists of pairs (or dicts), sets as lists; in
    ``any`` positions None, S(...), E(...) or plain Python values."""
    k = tree[0]
    if k == "option":
        return {"type": "null"} if data is None else typed(tree[1], data, types, path)
    if k == "any":
        if data is None:
            return {"type": "null"}
        if isinstance(data, S):
            return typed(("named", data.name), data.data, types, path)
        if isinstance(data, E):
            return typed(("named", data.name), data.variant, types, path)
        if isinstance(data, list):
            return {"type": "list", "items": [typed(("any",), x, types, "{}[{}]".format(path, i)) for i, x in enumerate(data)]}
        return VL.py_to_node(data)
    if data is None:
        raise VL.NodeError("{}: null in a non-optional {} position".format(path, VL.format_schema(tree)))
    if k == "scalar":
        return GS.scalar_node(tree[1], data, path)
    if k in ("list", "set"):
        return {"type": k, "items": [typed(tree[1], x, types, "{}[{}]".format(path, i)) for i, x in enumerate(data)]}
    if k == "map":
        pairs = list(data.items()) if isinstance(data, dict) else list(data)
        return {"type": "map", "entries": [[typed(tree[1], a, types, path + "<key>"),
                                            typed(tree[2], b, types, "{}[{!r}]".format(path, a))] for a, b in pairs]}
    if k == "named":
        name = tree[1]
        if types.kind(name) == "enum":
            vid = types.variant_id(name, data)
            if vid is None:
                raise VL.NodeError("{}: {} has no variant {!r}".format(path, name, data))
            return {"type": "enum", "name": name, "variant": data, "id": vid}
        names = [f for f, _t, _g in types.fields(name)]
        if not isinstance(data, dict) or sorted(data) != sorted(names):
            raise VL.NodeError("{}: struct {} needs exactly the fields {}, got {}".format(
                path, name, names, sorted(data) if isinstance(data, dict) else data))
        return {"type": "struct", "name": name,
                "fields": {f: typed(t, data[f], types, "{}.{}".format(path, f)) for f, t, _g in types.fields(name)}}
    raise VL.NodeError("{}: bad schema {}".format(path, VL.format_schema(tree)))


# ---------------------------------------------------------------------------
# type definitions
# ---------------------------------------------------------------------------

by_id, by_name, struct, enum = GS.by_id, GS.by_name, GS.struct, GS.enum


def F(name, schema, tag=None, default=None):
    """A field; ``default`` is authored data for the Python mirror's default
    (evolution types get the Rust Default of their schema when it is None)."""
    f = {"name": name, "schema": schema}
    if tag is not None:
        f["tag_id"] = tag
    if default is not None:
        f["_default_data"] = default
    return f


def evo(name, register, version, fields, note=None):
    d = struct(name, register, fields, note)
    d["alias_of_registration"] = True
    d["version"] = version
    return d


def _name_of_encoded_size(prefix, nbytes):
    """A lower-case field name whose ALL_TO_LOWER_SPECIAL encoding is exactly
    nbytes long (5 bits a character plus one flag bit)."""
    for n in range(len(prefix), 400):
        if (5 * n + 1 + 7) // 8 == nbytes:
            return prefix + "x" * (n - len(prefix))
    raise ValueError("no name of {} encoded bytes with prefix {!r}".format(nbytes, prefix))


LONG_NAMESPACE = "org.example.conformance.compatible.mode.namespaces.that.are.longer.than.sixty.three.encoded.bytes.need.more"
LONG_TYPENAME = "AVeryLongCompatibleTypeNameWhoseEncodingIsLongerThanSixtyThreeBytesSoTheSizeNeedsAVarUint32Extension"

EXTRA_TYPES = [
    struct("PointPair", by_id(140), [F("first", "Point"), F("second", "Point"), F("third", "option<Point>")],
           note="three fields of one struct type: its TypeDef is written once, then referenced"),
    struct("FieldNames", by_id(141), [
        F("x", "varint32"),
        F("camelCase", "varint32"),
        F("HTTPStatus", "varint32"),
        F("v2", "varint32"),
        F(_name_of_encoded_size("fifteen_bytes_", 15), "varint32"),
        F(_name_of_encoded_size("sixteen_bytes_", 16), "varint32"),
        F("a_very_long_field_name_that_needs_the_size_extension", "varint32"),
        F("tag14", "varint32", 14),
        F("tag15", "varint32", 15),
        F("tag200", "varint32", 200),
    ], note="field-name encodings in a TypeDef (ALL_TO_LOWER_SPECIAL, LOWER_UPPER_DIGIT_SPECIAL), names of 15 "
            "and 16 encoded bytes (the 4-bit size field holds size-1, 15 means a var_uint32 follows), tag ids "
            "14, 15 and 200 (15 and up continue in a var_uint32)"),
    struct("BigTypeDef", by_id(142), [F("field_number_{:02d}_with_a_long_name".format(i), "varint64") for i in range(31)],
           note="31 fields (the count 31 is written as 0x1f and a var_uint32 0) and a TypeDef body longer than "
                "255 bytes (the header's low byte is 0xff and a var_uint32 size-255 follows)"),
    struct("LongTypeName", by_name(LONG_NAMESPACE, LONG_TYPENAME), [F("v", "varint32")],
           note="namespace and type name of 63 or more encoded bytes: the 6-bit size is 63 and a var_uint32 follows"),
]

# -- evolution types --------------------------------------------------------------

# every kind of field a skipper has to walk (the removed fields)
DROP_KINDS = [
    ("bool", "bool", True), ("int8", "int8", -5), ("int16", "int16", -300), ("int32", "int32", -70000),
    ("varint32", "varint32", -70000), ("int64", "int64", -(2**40)), ("varint64", "varint64", 2**40),
    ("tagged_int64", "tagged_int64", 2**40), ("uint8", "uint8", 200), ("uint16", "uint16", 60000),
    ("uint32", "uint32", 2**31), ("var_uint32", "var_uint32", 2**31), ("uint64", "uint64", 2**63),
    ("var_uint64", "var_uint64", 2**63), ("tagged_uint64", "tagged_uint64", 2**40),
    ("float16", "float16", 1.5), ("bfloat16", "bfloat16", -2.0), ("float32", "float32", 0.5),
    ("float64", "float64", -1.25), ("string", "string", "dropped"), ("binary", "binary", b"\x00\xff"),
    ("date", "date", D(2024, 2, 29)), ("timestamp", "timestamp", DT(2024, 2, 29, 12, 0, 1, 250000, tzinfo=UTC)),
    ("duration", "duration", TD(seconds=-3, microseconds=5)),
    ("list_string", "list<string>", ["a", "b"]), ("list_varint64", "list<varint64>", [1, -1, 2**40]),
    ("list_option", "list<option<varint64>>", [1, None]), ("list_list", "list<list<string>>", [["a"], []]),
    ("set_varint32", "set<varint32>", [3]), ("map_string_varint64", "map<string,varint64>", [("k", 1), ("l", 2)]),
    ("map_option", "map<string,option<string>>", [("n", None), ("v", "x")]),
    ("point", "Point", {"x": 1, "y": -1}), ("server", "Server", {"host": "h", "port": 80}),
    ("person", "Person", GS.PERSON), ("outer", "Outer", {"middle": {"inner": GS.inner(1, 2, 3), "label": "m"},
                                                          "opt_middle": None, "id": 4}),
    ("color", "Color", "BLUE"), ("shade", "Shade", "DIM"), ("status", "Status", "ERROR"),
    ("option_point", "option<Point>", {"x": 2, "y": 3}), ("option_point_null", "option<Point>", None),
    ("option_string", "option<string>", "o"), ("option_varint64_null", "option<varint64>", None),
    ("option_color", "option<Color>", "GREEN"),
    ("list_point", "list<Point>", [{"x": 1, "y": 2}, {"x": 3, "y": 4}]),
    ("list_server", "list<Server>", [{"host": "a", "port": 1}]),
    ("list_option_point", "list<option<Point>>", [None, {"x": 5, "y": 6}]),
    ("map_string_point", "map<string,Point>", [("p", {"x": 7, "y": 8}), ("q", {"x": 9, "y": 10})]),
    ("map_string_server", "map<string,Server>", [("s", {"host": "b", "port": 2})]),
    ("list_color", "list<Color>", ["RED", "BLUE"]), ("map_color_string", "map<Color,string>", [("GREEN", "g")]),
    ("set_color", "set<Color>", ["RED"]),
    ("int32_array", "int32_array", [1, -1]), ("float64_array", "float64_array", [0.5]),
    ("bool_array", "bool_array", [True]), ("uint8_array", "uint8_array", [1, 2, 3]),
    ("any_int", "any", 5), ("any_string", "any", "s"), ("any_point", "any", S("Point", {"x": 1, "y": 1})),
    ("any_list", "any", [1, "two"]),
    ("list_any", "list<any>", [1, "two", 3.5]), ("map_string_any", "map<string,any>", [("i", 1), ("s", "x")]),
    ("gadget", "Gadget", {"id": 9, "parts": ["p"]}),
    ("list_gadget", "list<Gadget>", [{"id": 1, "parts": []}, {"id": 2, "parts": ["q"]}]),
]


# kinds whose removal pyfory 1.7.7 cannot skip: an enum without a local type is
# read as NonExistEnum, which cannot be a set element or a map key
PYFORY_CANNOT_SKIP = {"map_color_string", "set_color"}


def _camel(kind):
    return "".join(p[:1].upper() + p[1:] for p in kind.split("_"))


EVOLUTION_TYPES = [
    # a type only the writers know: the reader meets its TypeDef without a registration
    evo("Gadget", by_id(250), 1, [F("id", "varint32"), F("parts", "list<string>")],
        note="registered only by the writers of the drop/gadget vectors: unknown to the reader"),
    # fields added (v1 -> v2) and removed (v2 -> v1)
    evo("EvoPersonV1", by_name("evo", "Person"), 1, [F("name", "string"), F("age", "varint32")]),
    evo("EvoPersonV2", by_name("evo", "Person"), 2, [
        F("name", "string"), F("age", "varint32"), F("email", "string"), F("scores", "list<varint64>"),
        F("active", "bool"), F("rank", "option<varint32>"), F("labels", "set<string>"),
        F("attrs", "map<string,string>"), F("home", "Point"), F("color", "Color"), F("height", "float64"),
        F("blob", "binary"),
    ]),
    # one reader without the dropped field, one writer per kind of dropped field
    evo("EvoDropBase", by_id(210), 1, [F("keep", "varint32"), F("tail", "string")],
        note="reader (or writer) of the drop/<kind> vectors: the same registration without the field 'dropped'"),
] + [
    evo("EvoDrop" + _camel(kind), by_id(210), 2, [F("keep", "varint32"), F("dropped", schema), F("tail", "string")])
    for kind, schema, _v in DROP_KINDS
] + [
    # all the kinds at once: 60+ fields, a TypeDef longer than 255 bytes
    evo("EvoSkipV1", by_id(211), 1, [F("keep", "varint32"), F("tail", "string")] +
        [F("r_" + kind, schema) for kind, schema, _v in DROP_KINDS if kind not in PYFORY_CANNOT_SKIP],
        note="every kind of the drop/<kind> vectors except " + ", ".join(sorted(PYFORY_CANNOT_SKIP)) +
             ", which pyfory 1.7.7 cannot skip"),
    evo("EvoSkipV2", by_id(211), 2, [F("keep", "varint32"), F("tail", "string")]),
    # source order changed only
    evo("EvoOrderV1", by_id(212), 1, [F("alpha", "string"), F("beta", "varint32"), F("gamma", "list<string>"),
                                      F("delta", "float64"), F("epsilon", "option<Point>")]),
    evo("EvoOrderV2", by_id(212), 2, [F("epsilon", "option<Point>"), F("delta", "float64"), F("gamma", "list<string>"),
                                      F("beta", "varint32"), F("alpha", "string")]),
    # renamed fields with the same tag id
    evo("EvoTagV1", by_id(213), 1, [F("name", "string", 1), F("count", "varint64", 2), F("note", "string"),
                                    F("big", "varint32", 20)]),
    evo("EvoTagV2", by_id(213), 2, [F("total", "varint64", 2), F("note", "string"), F("title", "string", 1),
                                    F("huge", "varint32", 20)]),
    # renamed without a tag id: a different field
    evo("EvoRenameV1", by_id(214), 1, [F("id", "varint32"), F("old_name", "string")]),
    evo("EvoRenameV2", by_id(214), 2, [F("id", "varint32"), F("new_name", "string")]),
    # the two field-matching rules the spec allows (by snake_case form, or pyfory's)
    evo("EvoCaseV1", by_id(230), 1, [F("id", "varint32"), F("userId", "varint32")]),
    evo("EvoCaseV2", by_id(230), 2, [F("id", "varint32"), F("user_id", "varint32")]),
    evo("EvoTagNameV1", by_id(231), 1, [F("id", "varint32"), F("label", "string")]),
    evo("EvoTagNameV2", by_id(231), 2, [F("id", "varint32"), F("label", "string", 1)]),
    # T <-> Optional[T]
    evo("EvoOptV1", by_id(215), 1, [F("a", "varint32"), F("s", "string"), F("l", "list<string>"), F("p", "Point"),
                                    F("c", "Color"), F("m", "map<string,varint32>"), F("srv", "Server")]),
    evo("EvoOptV2", by_id(215), 2, [F("a", "option<varint32>"), F("s", "option<string>"), F("l", "option<list<string>>"),
                                    F("p", "option<Point>"), F("c", "option<Color>"), F("m", "option<map<string,varint32>>"),
                                    F("srv", "option<Server>")]),
    # integer and float widening
    evo("EvoNumV1", by_id(216), 1, [F("a", "varint32"), F("b", "int32"), F("c", "int8"), F("d", "var_uint32"),
                                    F("e", "float32"), F("f", "int16"), F("g", "uint8"), F("h", "int64")]),
    evo("EvoNumV2", by_id(216), 2, [F("a", "varint64"), F("b", "varint64"), F("c", "int16"), F("d", "var_uint64"),
                                    F("e", "float64"), F("f", "varint32"), F("g", "uint16"), F("h", "tagged_int64")]),
    # nested struct changes: an inner struct by id, an outer struct by name
    evo("EvoInnerV1", by_id(217), 1, [F("x", "varint32")]),
    evo("EvoInnerV2", by_id(217), 2, [F("x", "varint32"), F("y", "string")]),
    evo("EvoOuterV1", by_name("evo", "Outer"), 1, [
        F("inner", "EvoInnerV1"), F("inners", "list<EvoInnerV1>"), F("by_key", "map<string,EvoInnerV1>"),
        F("opt", "option<EvoInnerV1>"), F("id", "varint64")]),
    evo("EvoOuterV2", by_name("evo", "Outer"), 2, [
        F("inner", "EvoInnerV2"), F("inners", "list<EvoInnerV2>"), F("by_key", "map<string,EvoInnerV2>"),
        F("opt", "option<EvoInnerV2>"), F("id", "varint64"), F("label", "string")]),
    # incompatible: string -> integer under the same name
    evo("EvoBadV1", by_id(218), 1, [F("name", "string"), F("n", "varint32")]),
    evo("EvoBadV2", by_id(218), 2, [F("name", "varint32"), F("n", "varint32")]),
    # incompatible: list element type changed
    evo("EvoBadListV1", by_id(219), 1, [F("items", "list<string>"), F("n", "varint32")]),
    evo("EvoBadListV2", by_id(219), 2, [F("items", "list<varint32>"), F("n", "varint32")]),
    # incompatible: an element type changed below the field (no conversion inside a container)
    evo("EvoNestedListV1", by_id(232), 1, [F("path", "list<list<uint16>>"), F("n", "varint32")],
        note="a list of lists of uint16 (how the official Rust crate declares a Vec<Vec<u16>> field)"),
    evo("EvoNestedListV2", by_id(232), 2, [F("path", "list<uint16_array>"), F("n", "varint32")],
        note="a list of uint16 dense arrays (how pyfory declares List[UInt16Array] and fury-rs Vec<Vec<u16>>)"),
    evo("EvoWideElemV1", by_id(233), 1, [F("items", "list<varint32>"), F("n", "varint32")]),
    evo("EvoWideElemV2", by_id(233), 2, [F("items", "list<varint64>"), F("n", "varint32")]),
    evo("EvoWideValueV1", by_id(234), 1, [F("counts", "map<string,varint32>"), F("n", "varint32")]),
    evo("EvoWideValueV2", by_id(234), 2, [F("counts", "map<string,varint64>"), F("n", "varint32")]),
]


def rust_default(tree, types):
    """Authored data of the Rust Default of a schema (what a derived
    Default gives): 0, 0.0, false, "", empty bytes / collections / arrays,
    None, the epoch for dates and timestamps, a zero duration, the first
    variant of an enum, and a struct of defaults."""
    k = tree[0]
    if k in ("option", "any"):
        return None
    if k in ("list", "set", "map"):
        return []
    if k == "named":
        name = tree[1]
        if types.kind(name) == "enum":
            return types.get(name)["variants"][0]["name"]
        out = {}
        for fname, ftree, _tag in types.fields(name):
            dnode = types.field_default(name, fname)
            out[fname] = rust_default(ftree, types) if dnode is None else _data_of_default(name, fname)
        return out
    kind = tree[1]
    if kind == "bool":
        return False
    if kind in VL.INT_RANGES:
        return 0
    if kind in VL.FLOAT_HEX_WIDTH:
        return 0.0
    if kind == "string":
        return ""
    if kind == "binary":
        return b""
    if kind == "date":
        return D(1970, 1, 1)
    if kind == "timestamp":
        return DT(1970, 1, 1, tzinfo=UTC)
    if kind == "duration":
        return TD(0)
    if kind in VL.ARRAY_KINDS:
        return []
    raise VL.NodeError("no default for {}".format(kind))


_DEFAULT_DATA = {}  # (type, field) -> authored default data


def _data_of_default(tname, fname):
    return _DEFAULT_DATA[(tname, fname)]


def build_type_defs():
    """The type list: plain types first (copied definitions, then extras), then
    the evolution types with a "default" on every field."""
    plain = [dict(d) for d in GS.TYPES] + [dict(d) for d in EXTRA_TYPES]
    # evolution types need defaults; compute them in dependency order
    defs = plain + [dict(d, fields=[dict(f) for f in d["fields"]]) for d in EVOLUTION_TYPES]
    skeleton = [dict(d, fields=[{k: v for k, v in f.items() if k != "_default_data"} for f in d["fields"]])
                if d["kind"] == "struct" else d for d in defs]
    table = VL.TypeTable(skeleton)
    done = set()

    def fill(d):
        if d["name"] in done:
            return
        for f in d["fields"]:
            tree = table.field_tree(d["name"], f["name"])
            for ref in VL.named_refs(tree):
                rd = next(x for x in defs if x["name"] == ref)
                if rd.get("alias_of_registration") and rd["kind"] == "struct":
                    fill(rd)
        for f in d["fields"]:
            tree = table.field_tree(d["name"], f["name"])
            data = f.pop("_default_data", None)
            if data is None:
                data = rust_default_with(tree)
            _DEFAULT_DATA[(d["name"], f["name"])] = data
            f["default"] = typed(tree, data, table, "{}.{}<default>".format(d["name"], f["name"]))
        done.add(d["name"])

    def rust_default_with(tree):
        # struct defaults of evolution types use their own field defaults
        k = tree[0]
        if k == "named" and table.kind(tree[1]) == "struct" and table.is_alias(tree[1]):
            return {f: _DEFAULT_DATA[(tree[1], f)] for f, _t, _g in table.fields(tree[1])}
        return rust_default(tree, table)

    for d in defs:
        if d.get("alias_of_registration") and d["kind"] == "struct":
            fill(d)
    return defs


# ---------------------------------------------------------------------------
# vectors
# ---------------------------------------------------------------------------


class Spec:
    def __init__(self, what, schema, data, note=None):
        self.name = "{}/{}".format(GROUP, what)
        self.schema = schema
        self.data = data
        self.note = note


class Evo:
    def __init__(self, what, writer, reader, data, expected=None, error=False, note=None, same_hex_as=None,
                 reader_bug=False, optional=None):
        self.name = "{}/evolution/{}".format(GROUP, what)
        self.reader_bug = reader_bug  # pyfory's reader fails although the outcome is plain
        self.writer = writer
        self.reader = reader
        self.data = data
        self.expected = expected  # authored reader data; None: predicted
        self.error = error
        self.note = note
        self.same_hex_as = same_hex_as
        self.optional = optional  # the spec allows another outcome: why (the vector's "optional")


P = {"x": 1, "y": 2}


def root_specs():
    return [
        Spec("roots/list_of_three_points", "list<Point>", [{"x": 1, "y": 2}, {"x": 3, "y": 4}, {"x": 5, "y": 6}],
             note="one element type info (1c 00 + TypeDef) for the whole list, then bare payloads"),
        Spec("roots/point_pair", "PointPair", {"first": P, "second": {"x": 3, "y": 4}, "third": {"x": 5, "y": 6}},
             note="PointPair is TypeDef 0; first: 1c 02 + Point's TypeDef (index 1); second: 1c 03 (back-reference "
                  "to index 1); third: ff 1c 03"),
        Spec("roots/point_pair_null", "PointPair", {"first": P, "second": P, "third": None}),
        Spec("roots/two_struct_types", "list<any>",
             [S("Point", P), S("Server", GS.SERVER), S("Point", {"x": 0, "y": 0}), S("Server", {"host": "", "port": 0})],
             note="elements of different types: each has its type info; the second Point and Server refer back"),
        Spec("roots/structs_and_enums", "list<any>",
             [E("Color", "RED"), E("Shade", "DARK"), S("Point", P), E("Shade", "LIGHT"), E("Color", "BLUE")],
             note="an enum by id is 19 + id (no TypeDef); a named enum is 1a + shared TypeDef; they share the "
                  "TypeDef index space with structs"),
        Spec("roots/map_of_points", "map<string,Point>", [("a", P), ("b", {"x": 3, "y": 4}), ("c", {"x": 5, "y": 6})],
             note="one chunk: key type 15 and value type info 1c 00 + TypeDef once"),
        Spec("roots/map_of_servers", "map<string,Server>", [("s1", GS.SERVER), ("s2", {"host": "x", "port": 1})]),
        Spec("roots/map_point_values_and_enum_keys", "map<Color,Point>", [("RED", P), ("BLUE", {"x": 0, "y": 1})]),
        Spec("roots/struct_in_any_fields", "Dynamic", {
            "value": S("Point", P), "values": [S("Point", {"x": 3, "y": 4}), S("Server", GS.SERVER)],
            "props": [("p", S("Point", {"x": 5, "y": 6})), ("s", "str")]},
             note="struct values in Any positions carry the compatible type info like any other struct value"),
        Spec("roots/field_names", "FieldNames", {
            "x": 1, "camelCase": 2, "HTTPStatus": 3, "v2": 4, EXTRA_TYPES[1]["fields"][4]["name"]: 5,
            EXTRA_TYPES[1]["fields"][5]["name"]: 6, "a_very_long_field_name_that_needs_the_size_extension": 7,
            "tag14": 14, "tag15": 15, "tag200": 200}),
        Spec("roots/big_typedef", "BigTypeDef", {"field_number_{:02d}_with_a_long_name".format(i): i for i in range(31)}),
        Spec("roots/long_type_name", "LongTypeName", {"v": -1}),
        Spec("roots/empty_list_of_points", "list<Point>", [],
             note="an empty list writes no element type, so no TypeDef"),
    ]


def evolution_specs():
    out = []
    v2_person = {"name": "Ada", "age": 36, "email": "ada@example.org", "scores": [1, -2], "active": True, "rank": 3,
                 "labels": ["x"], "attrs": [("k", "v")], "home": {"x": 3, "y": -4}, "color": "BLUE", "height": 1.5,
                 "blob": b"\x01"}
    out += [
        Evo("added_fields/v1_to_v2", "EvoPersonV1", "EvoPersonV2", {"name": "Ada", "age": 36},
            note="the reader's extra fields get their defaults"),
        Evo("added_fields/v2_to_v1", "EvoPersonV2", "EvoPersonV1", v2_person,
            note="the writer's extra fields are skipped"),
    ]
    for kind, schema, value in DROP_KINDS:
        wname = "EvoDrop" + _camel(kind)
        data = {"keep": 7, "dropped": value, "tail": "end"}
        note = "the reader has no field 'dropped' ({}): it is skipped".format(schema)
        if kind in PYFORY_CANNOT_SKIP:
            note += ("; pyfory 1.7.7 fails here (it reads the unknown enum values as NonExistEnum, which it cannot "
                     "hash); 'expected' is the plain outcome, not confirmed by pyfory")
        out.append(Evo("drop/{}/removed".format(kind), wname, "EvoDropBase", data, note=note,
                       reader_bug=kind in PYFORY_CANNOT_SKIP))
        out.append(Evo("drop/{}/added".format(kind), "EvoDropBase", wname, {"keep": 7, "tail": "end"},
                       note="the reader's field 'dropped' ({}) is not in the data: default".format(schema)))
    skip_data = {"keep": 7, "tail": "end"}
    skip_data.update({"r_" + kind: value for kind, _s, value in DROP_KINDS if kind not in PYFORY_CANNOT_SKIP})
    out += [
        Evo("skip_all/v1_to_v2", "EvoSkipV1", "EvoSkipV2", skip_data,
            note="every kind of removed field in one struct"),
        Evo("skip_all/v2_to_v1", "EvoSkipV2", "EvoSkipV1", {"keep": 7, "tail": "end"},
            note="every kind of added field: all defaults"),
    ]
    order_v1 = {"alpha": "a", "beta": 2, "gamma": ["g"], "delta": 0.25, "epsilon": {"x": 1, "y": 1}}
    out += [
        Evo("reordered/v1_to_v2", "EvoOrderV1", "EvoOrderV2", order_v1,
            note="declaration order is not on the wire: both versions write the same TypeDef and bytes"),
        Evo("reordered/v2_to_v1", "EvoOrderV2", "EvoOrderV1", order_v1, same_hex_as="reordered/v1_to_v2"),
    ]
    out += [
        Evo("tag_renamed/v1_to_v2", "EvoTagV1", "EvoTagV2", {"name": "n", "count": 5, "note": "x", "big": 20},
            expected={"title": "n", "total": 5, "note": "x", "huge": 20},
            note="fields with a tag id are matched by the tag id, whatever their names"),
        Evo("tag_renamed/v2_to_v1", "EvoTagV2", "EvoTagV1", {"title": "t", "total": -5, "note": "y", "huge": 21},
            expected={"name": "t", "count": -5, "note": "y", "big": 21}),
        Evo("renamed_untagged/v1_to_v2", "EvoRenameV1", "EvoRenameV2", {"id": 1, "old_name": "o"},
            note="without a tag id a renamed field is another field: old_name is skipped, new_name gets its default"),
        Evo("renamed_untagged/v2_to_v1", "EvoRenameV2", "EvoRenameV1", {"id": 2, "new_name": "n"}),
        Evo("name_matching/camel_to_snake", "EvoCaseV1", "EvoCaseV2", {"id": 1, "userId": 5},
            expected={"id": 1, "user_id": 0},
            optional="pyfory never turns a remote camelCase name into snake_case, so user_id keeps its "
                     "default; a reader that matches snake_case forms (fury-rs) reads 5",
            note="remote userId, local user_id: the two matching rules of spec 08 8.7 differ here"),
        Evo("name_matching/snake_to_camel", "EvoCaseV2", "EvoCaseV1", {"id": 2, "user_id": 6},
            expected={"id": 2, "userId": 6},
            note="remote user_id, local userId: both matching rules match (pyfory through the camelCase form)"),
        Evo("name_matching/name_to_tag", "EvoTagNameV1", "EvoTagNameV2", {"id": 3, "label": "n"},
            expected={"id": 3, "label": "n"},
            optional="pyfory matches a remote field by name with a local tagged field of that name; a reader "
                     "that matches names only with names (fury-rs) gives the default",
            note="remote label by name, local label with tag 1: the two matching rules differ here"),
        Evo("name_matching/tag_to_name", "EvoTagNameV2", "EvoTagNameV1", {"id": 4, "label": "t"},
            expected={"id": 4, "label": ""},
            note="remote tag 1, local label without a tag: no rule matches them"),
    ]
    opt_data = {"a": 5, "s": "s", "l": ["x"], "p": {"x": 1, "y": 2}, "c": "GREEN", "m": [("k", 1)],
                "srv": {"host": "h", "port": 1}}
    out += [
        Evo("optional/required_to_optional", "EvoOptV1", "EvoOptV2", opt_data,
            note="T -> Optional[T]: the TypeDef says not nullable, so there is no null flag; the value is kept"),
        Evo("optional/optional_to_required", "EvoOptV2", "EvoOptV1", opt_data,
            note="Optional[T] -> T with values present: read the null flag, keep the value"),
        Evo("optional/optional_null_to_required", "EvoOptV2", "EvoOptV1",
            {"a": None, "s": None, "l": None, "p": None, "c": None, "m": None, "srv": None},
            note="Optional[T] -> T with nulls: pyfory gives the reader's field default"),
    ]
    num_v1 = {"a": I32_MIN, "b": I32_MAX, "c": -128, "d": 2**32 - 1, "e": 1.5, "f": -32768, "g": 255, "h": I64_MIN}
    out += [
        Evo("widen/v1_to_v2", "EvoNumV1", "EvoNumV2", num_v1,
            note="varint32 -> varint64, fixed int32 -> varint64, int8 -> int16, var_uint32 -> var_uint64, "
                 "float32 -> float64, int16 -> varint32, uint8 -> uint16, int64 -> tagged_int64: the value is kept"),
        Evo("widen/v2_to_v1_in_range", "EvoNumV2", "EvoNumV1",
            {"a": -5, "b": 6, "c": 7, "d": 8, "e": 0.5, "f": 9, "g": 10, "h": -11},
            note="narrowing with values that fit: pyfory converts"),
        Evo("widen/v2_to_v1_overflow", "EvoNumV2", "EvoNumV1",
            {"a": 2**40, "b": 0, "c": 0, "d": 0, "e": 0.0, "f": 0, "g": 0, "h": 0}, error=True,
            note="narrowing a varint64 that does not fit an int32: pyfory fails"),
    ]
    inner1 = [{"x": 1}, {"x": 2}]
    out += [
        Evo("nested/v1_to_v2", "EvoOuterV1", "EvoOuterV2",
            {"inner": {"x": 1}, "inners": inner1, "by_key": [("a", {"x": 3})], "opt": {"x": 4}, "id": 9},
            note="the inner struct (by id) gains a field: every inner value, in a field, a list, a map and an "
                 "option, gets its default; the outer struct (by name) gains 'label'"),
        Evo("nested/v2_to_v1", "EvoOuterV2", "EvoOuterV1",
            {"inner": {"x": 1, "y": "a"}, "inners": [{"x": 2, "y": "b"}], "by_key": [("k", {"x": 3, "y": "c"})],
             "opt": None, "id": -9, "label": "lbl"}),
    ]
    out += [
        Evo("incompatible/string_to_int", "EvoBadV1", "EvoBadV2", {"name": "abc", "n": 1}, error=True,
            note="a string field read as an integer field of the same name: pyfory fails"),
        Evo("incompatible/numeric_string_to_int", "EvoBadV1", "EvoBadV2", {"name": "12", "n": 1},
            expected={"name": 12, "n": 1},
            optional="spec 08 8.7: a reader MAY convert a string to an integer field as pyfory does, or fail",
            note="pyfory 1.7.7 parses a string that holds a decimal integer: a port may instead fail"),
        Evo("incompatible/int_to_string", "EvoBadV2", "EvoBadV1", {"name": 7, "n": 1},
            expected={"name": "7", "n": 1},
            optional="spec 08 8.7: a reader MAY convert an integer to a string field as pyfory does, or fail",
            note="pyfory 1.7.7 turns an integer into its decimal string: a port may instead fail"),
        Evo("incompatible/list_element_type/v1_to_v2", "EvoBadListV1", "EvoBadListV2", {"items": ["a"], "n": 1},
            error=True, note="list<string> read as list<varint32>: pyfory refuses the TypeDef"),
        Evo("incompatible/list_element_type/v2_to_v1", "EvoBadListV2", "EvoBadListV1", {"items": [], "n": 1},
            error=True, note="even for an empty list: the TypeDefs do not match"),
        Evo("incompatible/nested_element_type/v1_to_v2", "EvoNestedListV1", "EvoNestedListV2",
            {"path": [[6, 7, 8], []], "n": 1}, error=True,
            optional="spec 08 8.7: a reader MAY read a list of a primitive and its dense array as one another one level below the field (the official Rust crate's nested vectors), or fail as pyfory does",
            note="list<list<uint16>> read as list<uint16_array>: the element type differs (22 vs 49), pyfory "
                 "refuses the TypeDef; the inner lists are written with DECL_TYPE (03 0c ...), not as arrays"),
        Evo("incompatible/nested_element_type/v2_to_v1", "EvoNestedListV2", "EvoNestedListV1",
            {"path": [[6, 7, 8]], "n": 1}, error=True,
            optional="spec 08 8.7: a reader MAY read a list of a primitive and its dense array as one another one level below the field (the official Rust crate's nested vectors), or fail as pyfory does",
            note="list<uint16_array> read as list<list<uint16>>: pyfory refuses the TypeDef"),
        Evo("incompatible/list_element_widen/v1_to_v2", "EvoWideElemV1", "EvoWideElemV2",
            {"items": [1, -2], "n": 1}, error=True,
            note="list<varint32> read as list<varint64>: integer widening applies to a field's own type only; "
                 "pyfory refuses the TypeDef"),
        Evo("incompatible/list_element_widen/v2_to_v1", "EvoWideElemV2", "EvoWideElemV1",
            {"items": [3], "n": 1}, error=True,
            note="list<varint64> read as list<varint32>, the value in range: pyfory refuses the TypeDef"),
        Evo("incompatible/map_value_widen/v1_to_v2", "EvoWideValueV1", "EvoWideValueV2",
            {"counts": [("a", 5)], "n": 1}, error=True,
            note="map<string,varint32> read as map<string,varint64>: pyfory refuses the TypeDef"),
        Evo("incompatible/map_value_widen/v2_to_v1", "EvoWideValueV2", "EvoWideValueV1",
            {"counts": [("b", 6)], "n": 1}, error=True,
            note="map<string,varint64> read as map<string,varint32>: pyfory refuses the TypeDef"),
    ]
    return out


# ---------------------------------------------------------------------------
# checking and building
# ---------------------------------------------------------------------------


class Builder:
    def __init__(self, types):
        self.types = types
        self.typedefs = {}  # type name -> raw TypeDef bytes seen in streams
        self.forys = {}

    def fory(self, alias_names):
        key = tuple(sorted(alias_names))
        if key not in self.forys:
            self.forys[key] = self.types.make_fory_with(SETTINGS, key)
        return self.forys[key]

    def record_typedefs(self, name, tds):
        for tname, raw in tds.items():
            if self.typedefs.setdefault(tname, raw) != raw:
                VL.die(name, "pyfory wrote two different TypeDefs of {}".format(tname))

    def write_checked(self, name, fory, tree, model, alias_names, allow_read_failure=False):
        """Serialize the model with ``fory`` and run checks 1-4.  Returns
        ((bytes, node), None), (None, write error) or, with
        allow_read_failure, ((bytes, node), read error)."""
        types = self.types
        py_value = VL.node_to_py(model, types)
        try:
            data = fory.serialize(py_value)
        except Exception as exc:  # noqa: BLE001
            return None, "{}: {}".format(type(exc).__name__, exc)
        try:
            wire, tds = VL.decode_wire_compat(data, tree, types, alias_names)
        except VL.WireError as exc:
            VL.die(name, "independent decoder failed on {}: {}".format(data.hex()[:400], exc))
        diffs = VL.nodes_equal_wire(model, wire, ignore=())
        if not VL.contains_set(model) and wire != model:
            diffs = diffs or ["nodes differ (order)"]
        if diffs:
            VL.die(name, "pyfory wrote {} which decodes to a different node: {}".format(data.hex()[:300], "; ".join(diffs[:5])))
        self.record_typedefs(name, tds)
        failure = VL.confirm_read_back(name, fory, data, wire, py_value, types, read_failure_ok=allow_read_failure)
        if failure is not None:
            return (data, wire), "pyfory 1.7.7 writes these bytes but cannot read them back: " + failure
        errs = VL.schema_errors(tree, wire, types=types)
        if errs:
            VL.die(name, "schema does not fit: {}".format("; ".join(errs[:5])))
        return (data, wire), None

    def plain_vector(self, spec):
        types = self.types
        try:
            tree = VL.parse_schema(spec.schema, types)
            model = typed(tree, spec.data, types)
        except (VL.NodeError, VL.VectorError) as exc:
            VL.die(spec.name, str(exc))
        result, error = self.write_checked(spec.name, self.fory(()), tree, model, (), allow_read_failure=True)
        if result is None:
            return None, {"name": spec.name, "schema": spec.schema, "value": model, "error": error,
                          "pyfory_writes": False}
        data, wire = result
        if error is not None:
            return None, {"name": spec.name, "schema": spec.schema, "value": wire, "hex": data.hex(), "error": error,
                          "pyfory_writes": True}
        return self._vector(spec.name, spec.schema, wire, data, spec.note), None

    def _vector(self, name, schema, wire, data, note, extra=None):
        reasons = VL.string_writer_differences(wire)
        extra = dict(extra or {})
        expected = extra.pop("expected", None)
        vec = {"name": name, "settings": dict(SETTINGS), "schema": schema}
        vec.update(extra)
        vec["value"] = wire
        if expected is not None:
            vec["expected"] = expected
        vec["hex"] = data.hex()
        vec["writer_same"] = not reasons
        notes = list(reasons)
        if note:
            notes.append(note)
        if notes:
            vec["note"] = "; ".join(notes)
        return vec

    # -- evolution ------------------------------------------------------------------
    def predict(self, rtree, wtree, data):
        """Reader data for writer data: matched fields keep their value (by tag id,
        else by name), missing ones take the reader's default, a null read
        into a non-optional field takes the default too."""
        types = self.types
        if data is None:
            return None if rtree[0] == "option" else self.default_data(rtree)
        if rtree[0] == "option":
            rtree = rtree[1]
        if wtree[0] == "option":
            wtree = wtree[1]
        if rtree[0] == "named" and types.kind(rtree[1]) == "struct":
            rname, wname = rtree[1], wtree[1]
            wfields = types.fields(wname)
            out = {}
            for fname, ftree, tag in types.fields(rname):
                hit = None
                for wf, wt, wtag in wfields:
                    if (tag is not None and wtag == tag) or (tag is None and wtag is None and wf == fname):
                        hit = (wf, wt)
                if hit is None:
                    out[fname] = _data_of_default(rname, fname) if types.field_default(rname, fname) is not None \
                        else self.default_data(ftree)
                else:
                    out[fname] = self.predict(ftree, hit[1], data[hit[0]])
            return out
        if rtree[0] in ("list", "set"):
            return [self.predict(rtree[1], wtree[1], x) for x in data]
        if rtree[0] == "map":
            pairs = list(data.items()) if isinstance(data, dict) else list(data)
            return [(self.predict(rtree[1], wtree[1], a), self.predict(rtree[2], wtree[2], b)) for a, b in pairs]
        return data

    def default_data(self, tree):
        if tree[0] == "named" and self.types.kind(tree[1]) == "struct" and self.types.is_alias(tree[1]):
            return {f: _data_of_default(tree[1], f) for f, _t, _g in self.types.fields(tree[1])}
        return rust_default(tree, self.types)

    def evolution_vector(self, spec):
        types = self.types
        name = spec.name
        wtree, rtree = ("named", spec.writer), ("named", spec.reader)
        wreg, rreg = types.alias_closure(spec.writer), types.alias_closure(spec.reader)
        try:
            model = typed(wtree, spec.data, types)
        except VL.NodeError as exc:
            VL.die(name, str(exc))
        # fresh Forys: the reader must not have seen the writer's TypeDefs before
        writer = types.make_fory_with(SETTINGS, wreg)
        result, error = self.write_checked(name, writer, wtree, model, wreg)
        if result is None:
            VL.die(name, "pyfory cannot write the writer's value: {}".format(error))
        data, wire = result
        reader = types.make_fory_with(SETTINGS, rreg)
        extra = {"writer_type": spec.writer, "reader_type": spec.reader,
                 "writer_registers": wreg, "reader_registers": rreg}
        if spec.optional:
            extra["optional"] = spec.optional
        try:
            decoded, unread = VL.deserialize_all(reader, data)
            read_error = None
        except Exception as exc:  # noqa: BLE001 - the failure is the fact we record
            decoded, unread, read_error = None, 0, "{}: {}".format(type(exc).__name__, exc)
        if spec.error:
            if read_error is None:
                VL.die(name, "expected pyfory's reader to fail, it gave {!r}".format(decoded))
            extra["expected_error"] = True
            extra["error"] = read_error
        else:
            if read_error is not None and spec.reader_bug:
                # pyfory's reader fails where the outcome is plain: keep our prediction
                extra["pyfory_reader_error"] = read_error
                decoded = None
            elif spec.reader_bug:
                VL.die(name, "expected pyfory's reader to fail (reader_bug), it gave {!r}".format(decoded))
            elif read_error is not None:
                VL.die(name, "pyfory's reader failed: {}".format(read_error))
            if unread:
                VL.die(name, "the reader left {} bytes unread".format(unread))
            expected_data = spec.expected if spec.expected is not None else self.predict(rtree, wtree, spec.data)
            try:
                expected = typed(rtree, expected_data, types)
            except VL.NodeError as exc:
                VL.die(name, "expected: {}".format(exc))
            diffs = [] if decoded is None else VL.compare(expected, decoded, types=types)
            if diffs:
                VL.die(name, "the reader's value differs from the prediction: " + "; ".join(diffs[:6]))
            errs = VL.schema_errors(rtree, expected, types=types)
            if errs:
                VL.die(name, "expected does not fit the reader: " + "; ".join(errs[:5]))
            extra["expected"] = expected
        return self._vector(name, spec.writer, wire, data, spec.note, extra)


def build_all():
    VL.require_pyfory()
    defs = build_type_defs()
    try:
        types = VL.TypeTable(defs)
    except VL.VectorError as exc:
        VL.die("types", str(exc))
    b = Builder(types)
    vectors, failures, seen = [], [], set()

    def add(vec, name):
        if name in seen:
            VL.die(name, "duplicate name")
        seen.add(name)
        vectors.append(vec)

    # 1. the struct vectors of structs.json, in compatible mode
    for gspec in GS.vectors():
        spec = Spec(gspec.name.split("/", 1)[1], gspec.schema, gspec.data, gspec.note)
        vec, failure = b.plain_vector(spec)
        if failure is not None:
            failures.append(failure)
            seen.add(spec.name)
        else:
            add(vec, spec.name)
    for spec in root_specs():
        vec, failure = b.plain_vector(spec)
        if failure is not None:
            if not failure["pyfory_writes"]:
                VL.die(spec.name, "pyfory cannot write it: {}".format(failure["error"]))
            failures.append(failure)
            seen.add(spec.name)
        else:
            add(vec, spec.name)
    # 2. evolution
    by_name = {}
    for spec in evolution_specs():
        vec = b.evolution_vector(spec)
        add(vec, spec.name)
        by_name[spec.name] = vec
        if spec.same_hex_as:
            other = by_name["{}/evolution/{}".format(GROUP, spec.same_hex_as)]
            if other["hex"] != vec["hex"]:
                VL.die(spec.name, "expected the same bytes as {}".format(other["name"]))

    # TypeDefs: every type pyfory wrote a TypeDef for, and the ones it cannot write
    failed_types = {}
    for f in failures:
        if not f["pyfory_writes"]:
            failed_types.setdefault(f["schema"], f["error"])
    type_docs = []
    for d in defs:
        d = dict(d)
        name = d["name"]
        if d["kind"] == "struct":
            d["field_order"] = types.wire_order(name)
        fory = b.fory(types.alias_closure(name))
        try:
            py_td = VL.pyfory_typedef(fory, types.python_class(name))
            py_err = None
        except Exception as exc:  # noqa: BLE001
            py_td, py_err = None, "{}: {}".format(type(exc).__name__, exc)
        try:
            own = VL.typedef_encode(types, name)
        except VL.TypeDefError as exc:
            own = None
            if py_err is None:
                VL.die(name, "we cannot encode a TypeDef pyfory encodes: {}".format(exc))
        if py_err is not None:
            if own is not None:
                VL.die(name, "pyfory fails ({}) where we encode {}".format(py_err, own.hex()))
            d["typedef_error"] = py_err
        elif own != py_td:
            VL.die(name, "pyfory's TypeDef {} differs from ours {}".format(py_td.hex(), own.hex()))
        written = b.typedefs.get(name)
        if written is not None and written != py_td:
            VL.die(name, "the TypeDef in the streams {} differs from encode_typedef {}".format(written.hex(), py_td.hex()))
        by_id_enum = d["kind"] == "enum" and not types.is_named(name)
        if py_td is not None and not by_id_enum:
            if written is None:
                VL.die(name, "no vector writes this type's TypeDef")
            d["typedef_hex"] = py_td.hex()
            d["typedef"] = VL.typedef_describe(py_td)
        type_docs.append(d)
    for f in failures:
        if f["pyfory_writes"] and f["schema"] == "LongTypeName":
            f["note"] = ("pyfory 1.7.7 writes a namespace / type name of 63 or more encoded bytes in a TypeDef as "
                         "the byte (63 << 2) | encoding + var_uint32(length - 63), but reads the length back as "
                         "var_uint32 alone (63 - 63 + ext), so it cannot read its own TypeDef; the hex is what it writes")
        elif f["pyfory_writes"]:
            f["note"] = "pyfory 1.7.7 writes these bytes but cannot read them back"
        else:
            f["note"] = "pyfory 1.7.7 cannot write this value in compatible mode ({})".format(f["error"])
    check = VL.TypeTable(type_docs)
    problems = check.own_facts_errors()
    if problems:
        VL.die("types", "; ".join(problems[:10]))
    problems = VL.pyfory_compat_facts_errors(check)
    if problems:
        VL.die("types", "; ".join(problems[:10]))
    return {
        "format": VL.VECTOR_FORMAT,
        "peer": VL.PEER,
        "group": GROUP,
        "types": type_docs,
        "vectors": vectors,
        "pyfory_failures": failures,
    }


def documents():
    return {GROUP: build_all()}
