"""Write the struct/enum conformance vectors (conformance/vectors/structs/*.json).

The application types (structs and enums) are defined once, below, as plain
data.  The same definitions are written into the vector file ("types"); the
Python mirrors (dataclasses and Enums) are built from them by vectorlib, and
a port mirrors them with its own derived types.

Every vector is written by pyfory 1.7.7 with
``pyfory.Fory(xlang=True, ref=False, compatible=False)`` (same-schema mode)
and is confirmed before it is stored; the script aborts on the first
disagreement:

1. our independent decoder (vectorlib.decode_wire with the type table: our
   own field order, schema hash, meta-string and payload rules) must decode
   the bytes to the node built from the definitions (set order aside);
2. pyfory.deserialize must consume every byte and give a value equal to the
   node (floats by bit pattern);
3. the Python input must equal the node, and rebuilding the Python value
   from the stored node must serialize to the same bytes;
4. the schema must accept the node.

For every struct, pyfory's own field order, fingerprint string and 32-bit
hash must equal ours; they are stored in the type definition.  For every
name-registered type, pyfory's meta-string bytes must equal ours.  For every
enum variant, pyfory must write the variant's id.

Usage:
    python conformance/generate.py structs            # (re)write vectors/structs/
    python conformance/generate.py --check structs    # compare with the files on disk

The output is deterministic (generate.py runs it with
PYTHONHASHSEED=0 so that set iteration order is stable).
"""

import datetime


import vectorlib as VL  # noqa: E402

UTC = datetime.timezone.utc
NAN = float("nan")
INF = float("inf")
GROUP = "structs"

I32_MIN, I32_MAX = -(2**31), 2**31 - 1
I64_MIN, I64_MAX = -(2**63), 2**63 - 1
U32_MAX, U64_MAX = 2**32 - 1, 2**64 - 1


def bits(n):
    """A float given by its exact bit pattern (in the width of its field)."""
    return ("bits", n)


# ---------------------------------------------------------------------------
# type definitions
# ---------------------------------------------------------------------------


def by_id(n):
    return {"id": n}


def by_name(namespace, typename):
    return {"namespace": namespace, "typename": typename}


def F(name, schema, tag=None, length=None):
    f = {"name": name, "schema": schema}
    if tag is not None:
        f["tag_id"] = tag
    if length is not None:
        f["length"] = length
    return f


def struct(name, register, fields, note=None, generic=None):
    d = {"name": name, "kind": "struct", "register": register, "fields": fields}
    if generic is not None:
        d["generic"] = generic
    if note:
        d["note"] = note
    return d


def generic(name, args, fields):
    """This struct is the instantiation ``name<args>`` of a generic type whose
    templated fields are ``fields`` (field -> schema with the parameters)."""
    return {"name": name, "args": args, "fields": fields}


def enum(name, register, variants, note=None):
    vs = []
    for v in variants:
        entry = {"name": v[0], "id": v[1]}
        if len(v) > 2:
            entry["py_value"] = v[2]
        vs.append(entry)
    d = {"name": name, "kind": "enum", "register": register, "variants": vs}
    if note:
        d["note"] = note
    return d


PRIMITIVE_FIELDS = [
    ("flag", "bool"),
    ("i8", "int8"),
    ("i16", "int16"),
    ("i32", "int32"),
    ("vi32", "varint32"),
    ("i64", "int64"),
    ("vi64", "varint64"),
    ("ti64", "tagged_int64"),
    ("u8", "uint8"),
    ("u16", "uint16"),
    ("u32", "uint32"),
    ("vu32", "var_uint32"),
    ("u64", "uint64"),
    ("vu64", "var_uint64"),
    ("tu64", "tagged_uint64"),
    ("f32", "float32"),
    ("f64", "float64"),
]
ARRAY_FIELDS = [(kind.replace("_array", "s"), kind) for kind in VL.ARRAY_KINDS]

WIDE_FIELDS = [
    ("w01", "bool"), ("w02", "int8"), ("w03", "int16"), ("w04", "int32"), ("w05", "varint32"),
    ("w06", "int64"), ("w07", "varint64"), ("w08", "tagged_int64"), ("w09", "uint8"), ("w10", "uint16"),
    ("w11", "uint32"), ("w12", "var_uint32"), ("w13", "uint64"), ("w14", "var_uint64"), ("w15", "tagged_uint64"),
    ("w16", "float32"), ("w17", "float64"), ("w18", "string"), ("w19", "binary"), ("w20", "date"),
    ("w21", "timestamp"), ("w22", "duration"), ("w23", "option<varint32>"), ("w24", "option<string>"),
    ("w25", "option<float64>"), ("w26", "list<string>"), ("w27", "list<varint64>"), ("w28", "set<string>"),
    ("w29", "map<string,varint64>"), ("w30", "Point"), ("w31", "option<Point>"), ("w32", "Color"),
    ("w33", "option<Color>"), ("w34", "Server"), ("w35", "list<Point>"), ("w36", "int32_array"),
    ("w37", "map<varint32,list<string>>"), ("w38", "option<bool>"), ("w39", "Shade"), ("w40", "list<Color>"),
]

TYPES = [
    # -- enums ---------------------------------------------------------------
    enum("Color", by_id(101), [("RED", 0), ("GREEN", 1), ("BLUE", 2)],
         note="'default ids': Python values 0, 1, 2, so ids = ordinals"),
    enum("Sparse", by_id(102), [("ZERO", 0), ("FIVE", 5), ("NINE", 9)],
         note="explicit ids: the Python values 0, 5, 9 are written"),
    enum("Level", by_id(103), [("LOW", 1), ("MID", 2), ("HIGH", 3)],
         note="Python enum.auto() values start at 1, and pyfory writes the values, not the ordinals"),
    enum("Sign", by_id(104), [("NEG", 0, -1), ("NIL", 1, 0), ("POS", 2, 1)],
         note="a negative Python value makes pyfory fall back to ordinals for the whole enum"),
    enum("Shade", by_name("demo", "Shade"), [("LIGHT", 0, "light"), ("DARK", 1, "dark"), ("DIM", 2, "dim")],
         note="string Python values: pyfory writes ordinals"),
    enum("Mood", by_name("Demo", "Mood"), [("HAPPY", 10), ("SAD", 20)],
         note="registered by name, explicit ids; namespace 'Demo' is FIRST_TO_LOWER_SPECIAL"),
    enum("Status", by_id(1000), [("OK", 0), ("NOT_FOUND", 404), ("ERROR", 500)],
         note="id and variant ids above 127 take two var_uint32 bytes"),
    # -- structs registered by id ----------------------------------------------
    struct("Point", by_id(100), [F("x", "varint32"), F("y", "int32")]),
    struct("AllPrimitives", by_id(110), [F(n, k) for n, k in PRIMITIVE_FIELDS]),
    struct("HalfFloats", by_id(111), [F("h", "float16"), F("bh", "bfloat16"),
                                      F("oh", "option<float16>"), F("obh", "option<bfloat16>")]),
    struct("NullablePrimitives", by_id(112), [F(n, "option<{}>".format(k)) for n, k in PRIMITIVE_FIELDS]),
    struct("Scalars", by_id(113), [
        F("text", "string"), F("data", "binary"), F("day", "date"), F("at", "timestamp"), F("span", "duration"),
        F("opt_text", "option<string>"), F("opt_data", "option<binary>"), F("opt_day", "option<date>"),
        F("opt_at", "option<timestamp>"), F("opt_span", "option<duration>"),
    ]),
    struct("Collections", by_id(114), [
        F("strings", "list<string>"), F("ints", "list<varint64>"), F("fixed", "list<int32>"),
        F("maybe_ints", "list<option<varint64>>"), F("tags", "set<string>"), F("small", "set<varint32>"),
        F("counts", "map<string,varint64>"), F("names", "map<varint32,string>"),
        F("maybe", "map<string,option<string>>"), F("nested", "list<list<varint64>>"),
        F("groups", "map<string,list<string>>"), F("opt_list", "option<list<string>>"),
        F("opt_map", "option<map<string,varint64>>"), F("floats", "list<float64>"), F("singles", "list<float32>"),
        F("flags", "list<bool>"), F("blobs", "list<binary>"), F("days", "list<date>"),
    ]),
    struct("Arrays", by_id(115), [F(n, k) for n, k in ARRAY_FIELDS] + [F("opt_ints", "option<int32_array>")]),
    struct("Inner", by_id(120), [F("point", "Point"), F("weight", "varint64")]),
    struct("Middle", by_id(121), [F("inner", "Inner"), F("label", "string")]),
    struct("Outer", by_id(122), [F("middle", "Middle"), F("opt_middle", "option<Middle>"), F("id", "varint64")]),
    # plain nested structs (numbers only), in lists: what fury-rs reads and writes on its direct path
    struct("Vec3", by_id(150), [F("x", "float32"), F("y", "float32"), F("z", "float32")]),
    struct("Vec2", by_id(151), [F("x", "float32"), F("y", "float32")]),
    struct("Triangle", by_id(152), [F("a", "Vec3"), F("b", "Vec3"), F("c", "Vec3"), F("normal", "Vec3")]),
    struct("Sprite", by_id(153), [
        F("pos", "Vec2"), F("tint", "Vec3"), F("size", "Vec2"), F("pivot", "option<Vec2>"), F("layer", "varint32"),
        F("visible", "bool"), F("color", "Color"),
    ]),
    struct("Mesh", by_id(154), [F("triangles", "list<Triangle>"), F("sprites", "list<Sprite>")]),
    # -- structs registered by name ----------------------------------------------
    struct("Person", by_name("demo", "Person"), [
        F("name", "string"), F("nick", "option<string>"), F("home", "Point"), F("tags", "list<string>"),
        F("age", "uint8"),
    ]),
    struct("Server", by_name("a_b", "MyHTTPServer2"), [F("host", "string"), F("port", "uint16")],
           note="type name with digits: LOWER_UPPER_DIGIT_SPECIAL"),
    struct("Leaf", by_name("a_b", "c"), [F("v", "varint32")],
           note="registered with the name 'a_b.c'"),
    struct("LowerName", by_name("", "lower_name"), [F("on", "bool")],
           note="no namespace; type name LOWER_SPECIAL"),
    struct("Namae", by_name("", "\u540d\u524d"), [F("label", "string")],
           note="non-ASCII type name: UTF_8 meta string"),
    struct("LongName", by_name("org.example.conformance.v1", "AVeryLongTypeNameForTesting"), [F("n", "varint64")],
           note="namespace and type name longer than 16 bytes once encoded: written with an 8-byte hash"),
    struct("OrderItem", by_name("myCompany", "orderItemList"), [F("qty", "var_uint32"), F("sku", "string")],
           note="namespace and type name ALL_TO_LOWER_SPECIAL"),
    struct("CNode", by_name("c", "node"), [F("leaf", "Leaf"), F("name", "string")],
           note="namespace 'c' has the same encoding as Leaf's type name 'c': one shared meta-string entry"),
    struct("Holder", by_id(130), [
        F("server", "Server"), F("leaf", "Leaf"), F("leaves", "list<Leaf>"), F("other", "Leaf"),
        F("person", "Person"), F("long", "LongName"), F("item", "OrderItem"), F("opt_server", "option<Server>"),
    ], note="several name-registered types in one stream: meta strings are deduplicated"),
    struct("NamedHolder", by_name("", "NamedHolder"), [
        F("a", "LowerName"), F("b", "Namae"), F("a2", "LowerName"), F("bs", "list<Namae>"),
    ], note="three types with an empty namespace: see the README on empty-namespace deduplication"),
    struct("StructCollections", by_id(131), [
        F("points", "list<Point>"), F("servers", "list<Server>"), F("by_key", "map<string,Point>"),
        F("servers_by_key", "map<string,Server>"), F("maybe_points", "list<option<Point>>"),
        F("maybe_servers", "list<option<Server>>"), F("opt_points", "option<list<Point>>"),
        F("maybe_by_key", "map<string,option<Point>>"),
    ]),
    struct("EnumFields", by_id(132), [
        F("color", "Color"), F("sparse", "Sparse"), F("level", "Level"), F("shade", "Shade"), F("mood", "Mood"),
        F("status", "Status"), F("sign", "Sign"), F("opt_color", "option<Color>"), F("opt_shade", "option<Shade>"),
        F("colors", "list<Color>"), F("color_map", "map<string,Color>"), F("color_set", "set<Color>"),
        F("by_color", "map<Color,string>"), F("maybe_colors", "list<option<Color>>"), F("shades", "list<Shade>"),
        F("moods", "map<string,Mood>"),
    ]),
    struct("Optionals", by_id(133), [
        F("opt_point", "option<Point>"), F("opt_server", "option<Server>"), F("opt_int", "option<varint32>"),
        F("opt_text", "option<string>"), F("opt_list", "option<list<varint32>>"),
        F("opt_map", "option<map<string,string>>"), F("opt_color", "option<Color>"), F("opt_set", "option<set<string>>"),
        F("opt_longs", "option<int64_array>"),
    ]),
    struct("Wide", by_id(300), [F(n, k) for n, k in WIDE_FIELDS], note="40 fields of mixed kinds"),
    struct("SortOrder", by_id(134), [
        F("zed", "option<int32>"), F("userTags", "list<string>"), F("Zeta", "varint32"), F("item2", "string"),
        F("alpha", "varint32"), F("Beta", "Point"), F("aZ", "varint32"), F("maybeFlag", "option<bool>"),
        F("a_b", "varint32"), F("HTTPCode", "int16"), F("color", "Color"), F("getHTTP2Code", "int16"),
        F("item10", "string"), F("userId", "option<varint64>"), F("Mid", "varint32"), F("flagOn", "bool"),
        F("alphaBeta", "map<string,varint32>"), F("bigB", "int64"), F("userName", "string"),
        F("maybeCount", "option<varint32>"),
    ], note="field names whose snake_case order differs from their raw order"),
    struct("Tagged", by_id(135), [
        F("extra", "string"), F("score", "varint64", 3), F("name", "string", 0), F("count", "varint64"),
        F("nick", "option<string>", 1), F("id", "int32", 2), F("level", "varint32"), F("opt_v", "option<varint32>", 5),
        F("alpha", "string"),
    ], note="pyfory.field(id=...) tag ids: they replace the name in sorting and in the fingerprint"),
    struct("Empty", by_id(136), []),
    struct("EmptyNamed", by_name("demo", "Empty"), []),
    struct("Dynamic", by_id(137), [F("value", "any"), F("values", "list<any>"), F("props", "map<string,any>")],
           note="typing.Any fields: no null flag, type info + payload"),
]


# Types of structs.json only.  generators/compat.py rewrites TYPES and vectors()
# in compatible mode; these shapes (tuples, fixed-length fields, generic
# instantiations) are kept out of that list so that compat.json does not change
# with them.
STRUCT_ONLY_TYPES = [
    struct("Tuples", by_id(138), [
        F("pair", "tuple<varint64,string>"), F("triple", "tuple<string,float64,bool>"),
        F("maybe_first", "tuple<option<varint64>,string>"), F("opt_pair", "option<tuple<varint64,string>>"),
        F("with_point", "tuple<Point,string>"), F("with_list", "tuple<list<string>,varint64>"),
        F("pairs", "list<tuple<varint64,string>>"), F("pair_by_key", "map<string,tuple<varint64,string>>"),
    ], note="Python Tuple[...] fields with elements of different types: declared as a list of UNKNOWN "
            "(fingerprint 22,0,0[0,0,0]) and written as a list whose elements carry their type ids"),
    struct("FixedArrays", by_id(139), [
        F("ints", "int32_array", length=3), F("names", "list<string>", length=2),
        F("coords", "float64_array", length=2), F("flags", "bool_array", length=4), F("digest", "binary", length=4),
        F("points", "list<Point>", length=2), F("opt_ints", "option<int32_array>", length=3),
        F("maybe_names", "list<option<string>>", length=2),
    ], note="fields that always hold the same number of elements (a port's fixed-size arrays); pyfory declares "
            "List[pyfory.Int32] as a LIST of VARINT32 and pyfory.Int32Array as INT32_ARRAY, and only the second "
            "is what a Rust [i32; N] is"),
    struct("PointPage", by_name("shop", "PointPage"), [F("items", "list<Point>"), F("next", "option<string>")],
           generic=generic("Page", {"T": "Point"}, {"items": "list<T>"}),
           note="Page<Point>: one instantiation of a generic Page<T>, registered by name"),
    struct("IntPage", by_name("shop", "IntPage"), [F("items", "list<varint64>"), F("next", "option<string>")],
           generic=generic("Page", {"T": "option<varint64>"}, {"items": "list<T>"}),
           note="Python List[int]: a LIST of VARINT64.  As Page<T> { items: Vec<T> }, T = i64 would be an INT64_ARRAY; "
                "T = Option<i64> is pyfory's list (the fingerprint has no element nullability)"),
    struct("Pages", by_id(143), [F("points", "PointPage"), F("ints", "IntPage"), F("more", "list<IntPage>")],
           note="two instantiations of one generic type in one stream"),
]


# ---------------------------------------------------------------------------
# vectors
# ---------------------------------------------------------------------------


class Spec:
    def __init__(self, what, schema, data, note=None):
        self.name = "{}/{}".format(GROUP, what)
        self.schema = schema
        self.data = data
        self.note = note


def prims(flag, i8, i16, i32, vi32, i64, vi64, ti64, u8, u16, u32, vu32, u64, vu64, tu64, f32, f64):
    return dict(flag=flag, i8=i8, i16=i16, i32=i32, vi32=vi32, i64=i64, vi64=vi64, ti64=ti64, u8=u8, u16=u16,
                u32=u32, vu32=vu32, u64=u64, vu64=vu64, tu64=tu64, f32=f32, f64=f64)


P_ZERO = prims(False, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0.0, 0.0)
P_MAX = prims(True, 127, 32767, I32_MAX, I32_MAX, I64_MAX, I64_MAX, I64_MAX, 255, 65535, U32_MAX, U32_MAX,
              U64_MAX, U64_MAX, U64_MAX, bits(0x7F7FFFFF), 1.7976931348623157e308)
P_MIN = prims(False, -128, -32768, I32_MIN, I32_MIN, I64_MIN, I64_MIN, I64_MIN, 0, 0, 0, 0, 0, 0, 0,
              bits(0xFF7FFFFF), -1.7976931348623157e308)
P_EDGE = prims(True, -1, -1, -1, -64, -1, 63, 2**30 - 1, 128, 32768, 2**31, 127, 2**63, 128, 2**31 - 1, -0.0, NAN)
P_EDGE2 = prims(False, 1, 256, 65536, -65, 2**32, -(2**56), 2**30, 1, 256, 65536, 128, 2**32, 2**56, 2**31, INF, -INF)


def point(x, y):
    return {"x": x, "y": y}


def scalars(text, data, day, at, span, opt_text=None, opt_data=None, opt_day=None, opt_at=None, opt_span=None):
    return dict(text=text, data=data, day=day, at=at, span=span, opt_text=opt_text, opt_data=opt_data,
                opt_day=opt_day, opt_at=opt_at, opt_span=opt_span)


D = datetime.date
DT = datetime.datetime
TD = datetime.timedelta

SERVER = {"host": "example.org", "port": 8080}
PERSON = {"name": "Ada", "nick": "countess", "home": point(3, -4), "tags": ["math", "engines"], "age": 36}


def person(name, nick, home, tags, age):
    return {"name": name, "nick": nick, "home": home, "tags": tags, "age": age}


def vec3(x, y, z):
    return {"x": x, "y": y, "z": z}


def mesh(n):
    """n triangles and n sprites; every other sprite has no pivot; floats exact in 32 bits."""
    tris = [{"a": vec3(i, -i, 0.5), "b": vec3(1.25, i * 2.0, -3.0), "c": vec3(0.0, 0.0, i + 0.75),
             "normal": vec3(0.0, 1.0, 0.0)} for i in range(n)]
    sprites = [{"pos": {"x": i * 1.5, "y": -2.0}, "tint": vec3(1.0, 0.5, 0.25), "size": {"x": 16.0, "y": 8.0},
                "pivot": {"x": 0.5, "y": 0.5} if i % 2 == 0 else None, "layer": i - 1, "visible": i % 2 == 0,
                "color": ["RED", "GREEN", "BLUE"][i % 3]} for i in range(n)]
    return {"triangles": tris, "sprites": sprites}


def inner(px, py, weight):
    return {"point": point(px, py), "weight": weight}


def wide(seed):
    s = seed
    return {
        "w01": bool(s % 2), "w02": -s, "w03": 300 * s, "w04": -70000 * s, "w05": 1000 * s, "w06": -(2**40) * s,
        "w07": 2**35 + s, "w08": 2**31 + s, "w09": 200 + s, "w10": 60000 + s, "w11": 2**31 + s, "w12": 2**20 + s,
        "w13": 2**63 + s, "w14": 2**50 + s, "w15": 2**40 + s, "w16": 0.5 * s, "w17": -1.25 * s,
        "w18": "wide-{}".format(s), "w19": bytes([s, 0, 255]), "w20": D(2000, 1, 1 + s),
        "w21": DT(2001, 2, 3, 4, 5, 6, 7000 * s, tzinfo=UTC), "w22": TD(seconds=-s, microseconds=1),
        "w23": None if s % 2 else -5 * s, "w24": "opt" if s % 2 else None, "w25": 0.25 if s % 2 else None,
        "w26": ["a", "b"][: s % 3], "w27": [s, -s], "w28": ["x"], "w29": [("k", s)], "w30": point(s, -s),
        "w31": point(-s, s) if s % 2 else None, "w32": "BLUE", "w33": None if s % 2 else "RED",
        "w34": {"host": "h{}".format(s), "port": s}, "w35": [point(1, 2), point(3, 4)][: s % 3],
        "w36": [s, -s, I32_MAX], "w37": [(s, ["p", "q"]), (-s, [])], "w38": bool(s % 2) if s != 2 else None,
        "w39": "DIM", "w40": ["RED", "GREEN"],
    }


def enum_fields(color, sparse, level, shade, mood, status, sign, opt_color, opt_shade, colors, color_map,
                color_set, by_color, maybe_colors, shades, moods):
    return dict(color=color, sparse=sparse, level=level, shade=shade, mood=mood, status=status, sign=sign,
                opt_color=opt_color, opt_shade=opt_shade, colors=colors, color_map=color_map, color_set=color_set,
                by_color=by_color, maybe_colors=maybe_colors, shades=shades, moods=moods)


def vectors():
    s = [
        Spec("point/basic", "Point", point(1, 2)),
        Spec("point/zero", "Point", point(0, 0)),
        Spec("point/min_max", "Point", point(I32_MIN, I32_MAX)),
        Spec("point/max_min", "Point", point(I32_MAX, I32_MIN)),
        Spec("point/varint_edges", "Point", point(-65, 64)),
        Spec("all_primitives/zero", "AllPrimitives", P_ZERO),
        Spec("all_primitives/max", "AllPrimitives", P_MAX),
        Spec("all_primitives/min", "AllPrimitives", P_MIN),
        Spec("all_primitives/edges", "AllPrimitives", P_EDGE,
             note="tagged_int64 2^30-1 and tagged_uint64 2^31-1 still fit the 4-byte form"),
        Spec("all_primitives/edges2", "AllPrimitives", P_EDGE2,
             note="tagged_int64 2^30 and tagged_uint64 2^31 need the 9-byte form"),
        Spec("half_floats/basic", "HalfFloats", {"h": 1.5, "bh": -2.0, "oh": None, "obh": None}),
        Spec("half_floats/special", "HalfFloats", {"h": INF, "bh": bits(0x7F80), "oh": 65504.0, "obh": -0.0}),
        Spec("nullable_primitives/all_null", "NullablePrimitives", {k: None for k in P_ZERO}),
        Spec("nullable_primitives/all_max", "NullablePrimitives", P_MAX),
        Spec("nullable_primitives/mixed", "NullablePrimitives",
             {k: (v if i % 2 == 0 else None) for i, (k, v) in enumerate(P_EDGE.items())}),
        Spec("scalars/ascii", "Scalars", scalars("hello", b"\x00\x01\xff", D(2020, 1, 1),
                                                  DT(2020, 1, 1, 12, 30, 45, 123456, tzinfo=UTC), TD(seconds=1, microseconds=5))),
        Spec("scalars/all_present", "Scalars", scalars("", b"", D(1969, 12, 31), DT(1969, 12, 31, 23, 59, 59, 500000, tzinfo=UTC),
                                                        TD(microseconds=-1), "opt", b"\x07", D(1970, 1, 1),
                                                        DT(1970, 1, 1, tzinfo=UTC), TD(days=1))),
        Spec("scalars/latin1", "Scalars", scalars("h\u00e9llo", b"", D(2000, 2, 29), DT(2000, 2, 29, tzinfo=UTC), TD(0),
                                                   opt_text="caf\u00e9")),
        Spec("scalars/utf16", "Scalars", scalars("\u4f60\u597d", b"x", D(2038, 1, 19), DT(2038, 1, 19, 3, 14, 8, tzinfo=UTC),
                                                  TD(days=-3), opt_text="\u0100")),
        Spec("scalars/utf8", "Scalars", scalars("\U0001f600 ok", b"y", D(9999, 12, 31), DT(9999, 12, 31, 23, 59, 59, tzinfo=UTC),
                                                 TD(days=1000000, seconds=7, microseconds=123456), opt_text="a\u00e9\u4f60\U0001f600")),
        Spec("collections/basic", "Collections", {
            "strings": ["a", "bc", ""], "ints": [0, -1, 2**40], "fixed": [I32_MIN, 0, I32_MAX],
            "maybe_ints": [1, None, 3], "tags": ["red"], "small": [7], "counts": [("a", 1), ("b", -2)],
            "names": [(1, "one"), (-2, "minus two")], "maybe": [("x", None), ("y", "why"), ("z", None)],
            "nested": [[1, 2], [], [3]], "groups": [("g", ["m1", "m2"]), ("e", [])], "opt_list": ["p"],
            "opt_map": [("k", 9)], "floats": [1.5, -0.0, NAN, INF], "singles": [1.5, bits(0x7FC00001)],
            "flags": [True, False], "blobs": [b"", b"\x01\x02"], "days": [D(2020, 1, 1), D(1969, 12, 31)],
        }),
        Spec("collections/empty", "Collections", {
            "strings": [], "ints": [], "fixed": [], "maybe_ints": [], "tags": [], "small": [], "counts": [],
            "names": [], "maybe": [], "nested": [], "groups": [], "opt_list": [], "opt_map": [], "floats": [],
            "singles": [], "flags": [], "blobs": [], "days": [],
        }, note="empty containers are a single 0 count; empty optional containers are ff 00"),
        Spec("collections/nulls", "Collections", {
            "strings": ["only"], "ints": [5], "fixed": [6], "maybe_ints": [None, None], "tags": ["a", "b", "c"],
            "small": [1, 2, 3], "counts": [("z", 0)], "names": [(0, "")], "maybe": [("n", None)],
            "nested": [[]], "groups": [], "opt_list": None, "opt_map": None, "floats": [0.1], "singles": [],
            "flags": [True], "blobs": [b"\x00"], "days": [D(1, 1, 1)],
        }),
        Spec("arrays/basic", "Arrays", {
            "bools": [True, False, True], "int8s": [-128, 0, 127], "int16s": [-32768, 32767], "int32s": [I32_MIN, -1, I32_MAX],
            "int64s": [I64_MIN, I64_MAX], "uint8s": [0, 255], "uint16s": [0, 65535], "uint32s": [0, U32_MAX],
            "uint64s": [0, U64_MAX], "float16s": [1.5, -0.0, INF], "bfloat16s": [1.5, -2.0],
            "float32s": [1.5, bits(0x7FC00000)], "float64s": [0.1, -INF], "opt_ints": [1, 2, 3],
        }),
        Spec("arrays/empty", "Arrays", {
            "bools": [], "int8s": [], "int16s": [], "int32s": [], "int64s": [], "uint8s": [], "uint16s": [],
            "uint32s": [], "uint64s": [], "float16s": [], "bfloat16s": [], "float32s": [], "float64s": [],
            "opt_ints": None,
        }),
        Spec("nested/three_deep", "Outer", {"middle": {"inner": inner(1, 2, 300), "label": "mid"},
                                            "opt_middle": {"inner": inner(-1, -2, -300), "label": ""}, "id": 7}),
        Spec("nested/opt_null", "Outer", {"middle": {"inner": inner(0, 0, 0), "label": "m"}, "opt_middle": None, "id": -1}),
        Spec("plain_nested/mesh", "Mesh", mesh(3)),
        Spec("plain_nested/empty_mesh", "Mesh", {"triangles": [], "sprites": []}),
        Spec("plain_nested/triangles", "list<Triangle>", mesh(2)["triangles"]),
        Spec("named/person", "Person", PERSON),
        Spec("named/person_nick_null", "Person", person("Bob", None, point(0, 0), [], 0)),
        Spec("named/server", "Server", SERVER),
        Spec("named/leaf", "Leaf", {"v": -1}),
        Spec("named/lower_name", "LowerName", {"on": True}),
        Spec("named/namae", "Namae", {"label": "x"}),
        Spec("named/long_name", "LongName", {"n": 2**40}),
        Spec("named/order_item", "OrderItem", {"qty": 3, "sku": "A-1"}),
        Spec("named/cross_role_dedup", "CNode", {"leaf": {"v": 7}, "name": "n"},
             note="Leaf's type name 'c' is written as a back-reference to the namespace 'c' of CNode"),
        Spec("named/holder", "Holder", {
            "server": SERVER, "leaf": {"v": 1}, "leaves": [{"v": 2}, {"v": 3}], "other": {"v": 4}, "person": PERSON,
            "long": {"n": 5}, "item": {"qty": 6, "sku": "s"}, "opt_server": {"host": "h", "port": 1},
        }, note="a_b, MyHTTPServer2, c, demo, Person are written once each and then referenced"),
        Spec("named/holder_opt_null", "Holder", {
            "server": {"host": "", "port": 0}, "leaf": {"v": 0}, "leaves": [], "other": {"v": 0},
            "person": person("", None, point(0, 0), [], 0), "long": {"n": 0}, "item": {"qty": 0, "sku": ""},
            "opt_server": None,
        }),
        Spec("named/named_holder", "NamedHolder", {
            "a": {"on": True}, "b": {"label": "b"}, "a2": {"on": False}, "bs": [{"label": "c"}, {"label": "d"}],
        }, note="pyfory does not share one empty-namespace entry between different types: each type's empty "
                "namespace is written as 00 (a new table entry) the first time that type appears"),
        Spec("struct_collections/basic", "StructCollections", {
            "points": [point(1, 2), point(3, 4)], "servers": [SERVER, {"host": "b", "port": 2}],
            "by_key": [("a", point(5, 6))], "servers_by_key": [("s", SERVER)],
            "maybe_points": [None, point(7, 8)], "maybe_servers": [{"host": "c", "port": 3}, None],
            "opt_points": [point(9, 10)], "maybe_by_key": [("n", None), ("p", point(11, 12))],
        }, note="struct elements of a list carry type info once (flags 0x08/0x0a); struct map values do not (declared)"),
        Spec("struct_collections/empty", "StructCollections", {
            "points": [], "servers": [], "by_key": [], "servers_by_key": [], "maybe_points": [], "maybe_servers": [],
            "opt_points": None, "maybe_by_key": [],
        }),
        Spec("struct_collections/all_null_elements", "StructCollections", {
            "points": [point(0, 0)], "servers": [{"host": "x", "port": 1}], "by_key": [], "servers_by_key": [],
            "maybe_points": [None, None], "maybe_servers": [None], "opt_points": [], "maybe_by_key": [("q", None)],
        }, note="a list of optional structs holding only nulls still names the struct type"),
        Spec("enums/fields", "EnumFields", enum_fields(
            "GREEN", "FIVE", "HIGH", "DIM", "SAD", "NOT_FOUND", "NEG", "BLUE", "DARK", ["RED", "BLUE"], [("k", "GREEN")],
            ["RED"], [("BLUE", "b"), ("RED", "r")], [None, "GREEN"], ["LIGHT", "DIM"], [("m", "HAPPY")])),
        Spec("enums/fields_nulls", "EnumFields", enum_fields(
            "RED", "ZERO", "LOW", "LIGHT", "HAPPY", "ERROR", "POS", None, None, [], [], [], [], [None], [], [])),
        Spec("enums/fields_all_colors", "EnumFields", enum_fields(
            "BLUE", "NINE", "MID", "DARK", "HAPPY", "OK", "NIL", "RED", "LIGHT", ["RED", "GREEN", "BLUE"],
            [("r", "RED"), ("g", "GREEN")], ["RED", "GREEN", "BLUE"], [("GREEN", "")], ["BLUE", None, "RED"],
            ["DARK"], [("s", "SAD"), ("h", "HAPPY")])),
        Spec("enums/color_red", "Color", "RED"),
        Spec("enums/color_green", "Color", "GREEN"),
        Spec("enums/color_blue", "Color", "BLUE"),
        Spec("enums/sparse_five", "Sparse", "FIVE"),
        Spec("enums/sparse_nine", "Sparse", "NINE"),
        Spec("enums/level_low", "Level", "LOW", note="Python value 1 (enum.auto()) is written, not the ordinal 0"),
        Spec("enums/sign_neg", "Sign", "NEG", note="written as ordinal 0 (the Python value is -1)"),
        Spec("enums/shade_dark", "Shade", "DARK", note="named enum (NAMED_ENUM 26 + namespace + type name), ordinal 1"),
        Spec("enums/mood_sad", "Mood", "SAD"),
        Spec("enums/status_not_found", "Status", "NOT_FOUND"),
        Spec("optionals/present", "Optionals", {
            "opt_point": point(1, 1), "opt_server": SERVER, "opt_int": -7, "opt_text": "t", "opt_list": [1, 2],
            "opt_map": [("k", "v")], "opt_color": "GREEN", "opt_set": ["s"], "opt_longs": [I64_MIN],
        }),
        Spec("optionals/absent", "Optionals", {
            "opt_point": None, "opt_server": None, "opt_int": None, "opt_text": None, "opt_list": None,
            "opt_map": None, "opt_color": None, "opt_set": None, "opt_longs": None,
        }),
        Spec("optionals/present_empty", "Optionals", {
            "opt_point": point(0, 0), "opt_server": {"host": "", "port": 0}, "opt_int": 0, "opt_text": "",
            "opt_list": [], "opt_map": [], "opt_color": "RED", "opt_set": [], "opt_longs": [],
        }),
        Spec("wide/one", "Wide", wide(1)),
        Spec("wide/two", "Wide", wide(2)),
        Spec("sort_order/basic", "SortOrder", {
            "zed": -1, "userTags": ["t"], "Zeta": 1, "item2": "i2", "alpha": 2, "Beta": point(3, 3), "aZ": 4,
            "maybeFlag": True, "a_b": 5, "HTTPCode": 200, "color": "BLUE", "getHTTP2Code": 404, "item10": "i10",
            "userId": 42, "Mid": 6, "flagOn": True, "alphaBeta": [("x", 7)], "bigB": -8, "userName": "u",
            "maybeCount": None,
        }),
        Spec("tagged/basic", "Tagged", {"extra": "e", "score": 100, "name": "n", "count": 1, "nick": "k", "id": -2,
                                        "level": 3, "opt_v": 4, "alpha": "a"}),
        Spec("tagged/nulls", "Tagged", {"extra": "", "score": 0, "name": "", "count": 0, "nick": None, "id": 0,
                                        "level": 0, "opt_v": None, "alpha": ""}),
        Spec("empty/by_id", "Empty", {}, note="no fields: the hash is 47 (the seed), written as 2f000000"),
        Spec("empty/by_name", "EmptyNamed", {}),
        Spec("dynamic/basic", "Dynamic", {"value": 5, "values": [1, "two", 3.5], "props": [("i", 1), ("s", "x"), ("l", [True])]}),
        Spec("dynamic/same_types", "Dynamic", {"value": "s", "values": ["a", "b"], "props": [("f", 1.5)]}),
        Spec("roots/list_of_points", "list<Point>", [point(1, 2), point(-3, 4)],
             note="a root list is written dynamically: flags 0x08 and the element type info 1b 64"),
        Spec("roots/list_of_servers", "list<Server>", [SERVER, {"host": "y", "port": 9}]),
        Spec("roots/list_of_optional_points", "list<option<Point>>", [point(1, 1), None]),
        Spec("roots/list_of_colors", "list<Color>", ["RED", "BLUE", "RED"]),
        Spec("roots/map_string_color", "map<string,Color>", [("a", "RED"), ("b", "GREEN")],
             note="a root map writes the key and value type info per chunk: 15 and 19 65"),
        Spec("roots/map_string_point", "map<string,Point>", [("p", point(5, 5))]),
        Spec("roots/set_of_shades", "set<Shade>", ["DARK"]),
    ]
    return s


def struct_only_vectors():
    """The vectors of STRUCT_ONLY_TYPES."""
    return [
        Spec("tuples/basic", "Tuples", {
            "pair": (1, "a"), "triple": ("x", 1.5, True), "maybe_first": (None, "b"), "opt_pair": None,
            "with_point": (point(1, 2), "s"), "with_list": (["p", "q"], 5), "pairs": [(1, "a"), (2, "b")],
            "pair_by_key": [("k", (3, "c"))],
        }, note="a tuple with a null element has flags 0x0a and the type id of its one non-null element"),
        Spec("tuples/other", "Tuples", {
            "pair": (-(2**40), ""), "triple": ("", -0.0, False), "maybe_first": (7, "c"), "opt_pair": (2, "z"),
            "with_point": (point(I32_MIN, I32_MAX), "t"), "with_list": ([], 0), "pairs": [], "pair_by_key": [],
        }),
        Spec("fixed_arrays/basic", "FixedArrays", {
            "ints": [1, 2, 3], "names": ["a", "b"], "coords": [1.5, -2.0], "flags": [True, False, True, True],
            "digest": b"\x01\x02\x03\x04", "points": [point(1, 2), point(3, 4)], "opt_ints": [7, 8, 9],
            "maybe_names": ["x", None],
        }),
        Spec("fixed_arrays/edges", "FixedArrays", {
            "ints": [I32_MIN, 0, I32_MAX], "names": ["", "b" * 20], "coords": [-0.0, INF],
            "flags": [False, False, False, False], "digest": b"\x00\xff\x00\xff", "points": [point(0, 0), point(0, 0)],
            "opt_ints": None, "maybe_names": [None, None],
        }),
        Spec("generic/point_page", "PointPage", {"items": [point(1, 2), point(-3, 4)], "next": "p2"}),
        Spec("generic/int_page", "IntPage", {"items": [5, -6, 2**40], "next": None}),
        Spec("generic/empty_page", "IntPage", {"items": [], "next": "start"}),
        Spec("generic/both", "Pages", {
            "points": {"items": [point(7, 8)], "next": None}, "ints": {"items": [1], "next": "n"},
            "more": [{"items": [], "next": None}, {"items": [2, 3], "next": "m"}],
        }, note="shop, PointPage and IntPage are written once each and then referenced"),
    ]


# ---------------------------------------------------------------------------
# building nodes from the authored data
# ---------------------------------------------------------------------------


def _float_bits(kind, x, path):
    if isinstance(x, tuple) and x[0] == "bits":
        return x[1]
    b = VL.float_bits(kind, x)
    if b is None:
        raise VL.NodeError("{}: {!r} is not exactly a {}".format(path, x, kind))
    return b


def scalar_node(kind, x, path):
    if kind == "bool":
        if type(x) is not bool:
            raise VL.NodeError("{}: bool expected, got {!r}".format(path, x))
        return {"type": "bool", "value": x}
    if kind in VL.INT_RANGES:
        lo, hi = VL.INT_RANGES[kind]
        if type(x) is not int or not lo <= x <= hi:
            raise VL.NodeError("{}: {!r} is not a {}".format(path, x, kind))
        return {"type": kind, "value": str(x)}
    if kind in VL.FLOAT_HEX_WIDTH:
        return VL.float_node(kind, _float_bits(kind, x, path))
    if kind == "string":
        if type(x) is not str:
            raise VL.NodeError("{}: str expected".format(path))
        return {"type": "string", "value": x, "encoding": VL.string_encoding(x)}
    if kind == "binary":
        if type(x) is not bytes:
            raise VL.NodeError("{}: bytes expected".format(path))
        return {"type": "binary", "hex": x.hex()}
    if kind in ("date", "timestamp", "duration"):
        node = VL.py_to_node(x)
        if node["type"] != kind:
            raise VL.NodeError("{}: {} expected, got {!r}".format(path, kind, x))
        return node
    if kind in VL.ARRAY_KINDS:
        elem = VL.ARRAY_KINDS[kind][0]
        if elem in VL.FLOAT_HEX_WIDTH:
            return VL.array_node_from_values(kind, [_float_bits(elem, v, path) for v in x])
        if elem == "bool":
            return VL.array_node_from_values(kind, [scalar_node("bool", v, path)["value"] for v in x])
        return VL.array_node_from_values(kind, [int(scalar_node(elem, v, path)["value"]) for v in x])
    raise VL.NodeError("{}: unknown kind {}".format(path, kind))


def typed_node(tree, data, types, path="$"):
    """Node for authored data of the given schema (structs as dicts, enums as
    variant names, maps as dicts or lists of pairs, sets as lists)."""
    k = tree[0]
    if k == "option":
        return {"type": "null"} if data is None else typed_node(tree[1], data, types, path)
    if data is None:
        raise VL.NodeError("{}: null in a non-optional {} position".format(path, VL.format_schema(tree)))
    if k == "any":
        return VL.py_to_node(data)
    if k == "scalar":
        return scalar_node(tree[1], data, path)
    if k in ("list", "set"):
        return {"type": k, "items": [typed_node(tree[1], x, types, "{}[{}]".format(path, i)) for i, x in enumerate(data)]}
    if k == "tuple":
        # a Python tuple goes on the wire as a list
        if not isinstance(data, tuple) or len(data) != len(tree) - 1:
            raise VL.NodeError("{}: a tuple of {} elements expected, got {!r}".format(path, len(tree) - 1, data))
        return {"type": "list", "items": [typed_node(t, x, types, "{}[{}]".format(path, i))
                                          for i, (t, x) in enumerate(zip(tree[1:], data))]}
    if k == "map":
        pairs = list(data.items()) if isinstance(data, dict) else list(data)
        return {"type": "map", "entries": [[typed_node(tree[1], a, types, path + "<key>"),
                                            typed_node(tree[2], b, types, "{}[{!r}]".format(path, a))] for a, b in pairs]}
    if k == "named":
        name = tree[1]
        if types.kind(name) == "enum":
            vid = types.variant_id(name, data)
            if vid is None:
                raise VL.NodeError("{}: {} has no variant {!r}".format(path, name, data))
            return {"type": "enum", "name": name, "variant": data, "id": vid}
        names = [f for f, _t, _g in types.fields(name)]
        if not isinstance(data, dict) or sorted(data) != sorted(names):
            raise VL.NodeError("{}: struct {} needs exactly the fields {}".format(path, name, names))
        fields = {}
        for f, t, _g in types.fields(name):
            fields[f] = typed_node(t, data[f], types, "{}.{}".format(path, f))
            want = types.field_length(name, f)
            if want is not None and data[f] is not None and len(data[f]) != want:
                raise VL.NodeError("{}.{}: the field has length {}, the data {} elements".format(
                    path, f, want, len(data[f])))
        return {"type": "struct", "name": name, "fields": fields}
    raise VL.NodeError("{}: bad schema {}".format(path, VL.format_schema(tree)))


def build_vector(fory, types, spec):
    name = spec.name
    try:
        tree = VL.parse_schema(spec.schema, types)
        model = typed_node(tree, spec.data, types)
    except (VL.NodeError, VL.VectorError) as exc:
        VL.die(name, str(exc))
    py_value = VL.node_to_py(model, types)
    try:
        data = fory.serialize(py_value)
    except Exception as exc:  # noqa: BLE001
        VL.die(name, "pyfory could not serialize: {!r}".format(exc))

    # 1. the independent decoder must see the predicted node (sets in any order)
    try:
        wire = VL.decode_wire(data, tree, types)
    except VL.WireError as exc:
        VL.die(name, "independent decoder failed on {}: {}".format(data.hex()[:300], exc))
    diffs = VL.nodes_equal_wire(model, wire, ignore=())
    if not VL.contains_set(model) and wire != model:
        diffs = diffs or ["nodes differ (order)"]
    if diffs:
        VL.die(name, "pyfory wrote {} which decodes to a different node: {}".format(data.hex()[:300], "; ".join(diffs[:5])))

    # 2. pyfory must read its bytes back to the expected value; 3. the input value, and the
    # value rebuilt from the stored node
    VL.confirm_read_back(name, fory, data, wire, py_value, types)

    # 4. schema
    errs = VL.schema_errors(tree, wire, types=types)
    if errs:
        VL.die(name, "schema {} does not fit: {}".format(spec.schema, "; ".join(errs[:5])))

    reasons = VL.string_writer_differences(wire)
    vec = {
        "name": name,
        "settings": dict(VL.STRUCT_SETTINGS),
        "schema": spec.schema,
        "value": wire,
        "hex": data.hex(),
        "writer_same": not reasons,
    }
    notes = list(reasons)
    if spec.note:
        notes.append(spec.note)
    if notes:
        vec["note"] = "; ".join(notes)
    return vec


def check_enum_variants(fory, types):
    """Every variant of every enum must be written with its id."""
    for name in types:
        if types.kind(name) != "enum":
            continue
        cls = types.python_class(name)
        for v in types.get(name)["variants"]:
            data = fory.serialize(cls[v["name"]])
            try:
                node = VL.decode_wire(data, name, types)
            except VL.WireError as exc:
                VL.die(name, "variant {}: {}".format(v["name"], exc))
            if node.get("variant") != v["name"] or node.get("id") != v["id"]:
                VL.die(name, "variant {} is written as {} ({})".format(v["name"], node, data.hex()))


def build_all():
    VL.require_pyfory()
    try:
        types = VL.TypeTable(TYPES + STRUCT_ONLY_TYPES)
    except VL.VectorError as exc:
        VL.die("types", str(exc))
    fory = types.make_fory(VL.STRUCT_SETTINGS)
    out = []
    seen = set()
    for spec in vectors() + struct_only_vectors():
        if spec.name in seen:
            VL.die(spec.name, "duplicate name")
        seen.add(spec.name)
        out.append(build_vector(fory, types, spec))
    check_enum_variants(fory, types)

    # facts: pyfory's field order, fingerprint, hash and meta strings must equal ours
    problems = VL.pyfory_facts_errors(types, fory)
    if problems:
        VL.die("types", "; ".join(problems[:10]))
    type_docs = []
    for d in TYPES + STRUCT_ONLY_TYPES:
        d = dict(d)
        name = d["name"]
        if d["kind"] == "struct":
            d["field_order"] = types.wire_order(name)
            d["fingerprint"] = types.fingerprint(name)
            d["hash"] = types.struct_hash(name)
        if types.is_named(name):
            d["meta_strings"] = types.meta_strings(name)
        type_docs.append(d)
    # the finished type list must load and agree with itself
    check = VL.TypeTable(type_docs)
    if check.own_facts_errors():
        VL.die("types", "; ".join(check.own_facts_errors()))
    return {
        "format": VL.VECTOR_FORMAT,
        "peer": VL.PEER,
        "group": GROUP,
        "types": type_docs,
        "vectors": out,
    }


def documents():
    return {GROUP: build_all()}
