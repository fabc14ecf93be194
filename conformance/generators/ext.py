"""Write the extension-type vectors (conformance/vectors/ext/ext.json).

pyfory 1.7.7 writes a value whose class is registered with a custom
serializer (``register_type(cls, type_id=N, serializer=...)``) as EXT (31)
and the user type id, or NAMED_EXT (32) and the names (same-schema mode),
then whatever the serializer writes, with no length.  The serializer here
writes a ``Point`` as two zigzag varint32s (``write_varint32``), which is
what ``conformance/tests/ext.rs`` implements with ``fury::Ext``.  A struct
field of an extension type is declared EXT in a TypeDef and has no type
info in the payload.  pyfory 1.7.7 writes a name-registered extension type
in compatible mode as a struct (its fields and a TypeDef), not through the
serializer, so that form has no vector.

Each vector is confirmed: pyfory reads its bytes back to the input.
``value`` is the input in plain JSON: a Point is ``{"x":, "y":}``, a struct
an object of its fields.

Usage:
    python conformance/generate.py ext            # (re)write vectors/ext/
    python conformance/generate.py --check ext    # compare with the files on disk
"""

import dataclasses
import sys
from typing import List, Optional

import vectorlib as VL  # noqa: E402


def classes():
    import pyfory
    from pyfory.serializer import Serializer

    class Point:
        def __init__(self, x, y):
            self.x, self.y = x, y

        def __eq__(self, other):
            return isinstance(other, Point) and (self.x, self.y) == (other.x, other.y)

    class PointSerializer(Serializer):
        def write(self, write_context, value):
            write_context.write_varint32(value.x)
            write_context.write_varint32(value.y)

        def read(self, read_context):
            return Point(read_context.read_varint32(), read_context.read_varint32())

        xwrite = write
        xread = read

    @dataclasses.dataclass
    class Shape:
        name: str = ""
        origin: Point = None
        path: List[Point] = dataclasses.field(default_factory=list)
        maybe: Optional[Point] = pyfory.field(default=None, nullable=True)

    return {"Point": Point, "PointSerializer": PointSerializer, "Shape": Shape}


def make_fory(settings, c, named):
    import pyfory

    f = pyfory.Fory(xlang=True, ref=settings["ref"], compatible=settings["compatible"])
    if named:
        f.register_type(c["Point"], name="geo.Point", serializer=c["PointSerializer"](f.type_resolver, c["Point"]))
    else:
        f.register_type(c["Point"], type_id=400, serializer=c["PointSerializer"](f.type_resolver, c["Point"]))
    f.register_type(c["Shape"], type_id=401)
    return f


# The same types as data, for other implementations (README, "Union, extension-type and
# decimal vectors"): an "ext" type's payload is its fields' bare payloads in order, which is
# what PointSerializer writes.
TYPES = [
    {"name": "Point", "kind": "ext", "register": {"id": 400},
     "fields": [{"name": "x", "schema": "varint32"}, {"name": "y", "schema": "varint32"}]},
    {"name": "Shape", "kind": "struct", "register": {"id": 401},
     "fields": [{"name": "name", "schema": "string"}, {"name": "origin", "schema": "Point"},
                {"name": "path", "schema": "list<Point>"}, {"name": "maybe", "schema": "option<Point>"}]},
]
NAMED_REGISTRATION = {"Point": {"namespace": "geo", "typename": "Point"}}

SAME = {"xlang": True, "ref": False, "compatible": False}
COMPAT = {"xlang": True, "ref": False, "compatible": True}

CASES = [
    ("ext/same_schema/root", SAME, False, "Point", "Point(3, -4)"),
    ("ext/same_schema/root_extremes", SAME, False, "Point", "Point(2**31 - 1, -2**31)"),
    ("ext/same_schema/list", SAME, False, "list<Point>", "[Point(1, 2), Point(5, 6)]"),
    ("ext/same_schema/named_root", SAME, True, "Point", "Point(3, -4)"),
    ("ext/same_schema/shape", SAME, False, "Shape", 'Shape("tri", Point(0, 0), [Point(1, 0), Point(0, 1)], Point(9, 9))'),
    ("ext/same_schema/shape_none", SAME, False, "Shape", 'Shape("dot", Point(-1, 1), [], None)'),
    ("ext/compatible/root", COMPAT, False, "Point", "Point(3, -4)"),
    ("ext/compatible/shape", COMPAT, False, "Shape", 'Shape("tri", Point(0, 0), [Point(1, 0), Point(0, 1)], Point(9, 9))'),
]


def plain(v):
    if v is None or isinstance(v, (str, int)):
        return v
    if isinstance(v, list):
        return [plain(x) for x in v]
    if dataclasses.is_dataclass(v):
        return {f.name: plain(getattr(v, f.name)) for f in dataclasses.fields(v)}
    return {"x": v.x, "y": v.y}


def document():
    VL.require_pyfory()
    c = classes()
    vectors = []
    for name, settings, named, root, python in CASES:
        fory = make_fory(settings, c, named)
        value = eval(python, dict(c))  # noqa: S307 - the expressions above
        data = bytes(fory.serialize(value))
        if plain(fory.deserialize(data)) != plain(value):
            sys.exit("generators/ext.py: {}: pyfory does not read its bytes back".format(name))
        vectors.append({"name": name, "python": python, "settings": settings, "registered_by_name": named,
                        "schema": root, "value": plain(value), "hex": data.hex(), "writer_same": True})
    doc = {"format": VL.VECTOR_FORMAT, "peer": VL.PEER, "group": "ext", "types": TYPES,
           "named_registration": NAMED_REGISTRATION, "vectors": vectors}
    problems = VL.confirm_kind_vectors(doc, VL.make_fory)
    if problems:
        sys.exit("generators/ext.py: the types do not describe the classes: " + "; ".join(problems[:3]))
    return doc


def check_peer(path):
    c = classes()

    def read(vec, data):
        return plain(make_fory(vec["settings"], c, vec["registered_by_name"]).deserialize(data))

    return VL.peer_check("ext", "extension-type", path, VL.plain_read_back(read))


def documents():
    return {"ext": document()}
