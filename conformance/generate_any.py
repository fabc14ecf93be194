#!/usr/bin/env python3
"""Write the untyped-field vectors (conformance/vectors_any/any.json).

pyfory 1.7.7 declares a dataclass field annotated ``typing.Any`` (and the
elements of ``List[Any]``, the values of ``Dict[str, Any]``) as UNKNOWN (0)
in the schema fingerprint and in a TypeDef, and writes the value with its
whole type info before the payload: the kind byte, then the user type id,
the names or the shared TypeDef of a struct or enum.  An ``Any`` field that
is not ``ref`` has no null flag: None is the NONE type (36).  With
``ref=True`` on the field every value takes a reference flag, and the same
object written twice is a back reference.  These are the vectors of a Rust
``Box<dyn AnyObject>`` / ``Rc<dyn AnyObject>`` field, which must read
them to the concrete types and write them back byte for byte
(``conformance/tests/any.rs``).

Each vector is confirmed before it is stored: pyfory reads its bytes back to
a value equal to the input, and for a vector with ``shared`` paths the
objects at those paths are one object (``is``).  ``value`` is the input in
a plain JSON form: an int or a string as itself, a float as itself, bytes as
{"bytes": hex}, a dict as {"map": [[key, value], ...]}, a struct as
{"Name": {fields}}, an enum as {"Color": "NAME"}, None as null.

Usage:
    python conformance/generate_any.py            # (re)write the file
    python conformance/generate_any.py --check    # compare with the file on disk
    python conformance/generate_any.py --check-peer FILE
        # pyfory reads another writer's streams ({"name", "hex"} list) to the values
"""

import dataclasses
import enum
import json
import os
import sys
from typing import Any, Dict, List

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import vectorlib as VL  # noqa: E402

OUT = os.path.join(VL.CONFORMANCE_DIR, "vectors_any", "any.json")
GROUP = "any"


def classes():
    import pyfory

    @dataclasses.dataclass
    class Point:
        x: pyfory.Int32 = 0
        y: pyfory.Int32 = 0

    class Color(enum.Enum):
        RED = 0
        GREEN = 1

    @dataclasses.dataclass
    class Holder:
        name: str = ""
        value: Any = None

    @dataclasses.dataclass
    class Bag:
        items: List[Any] = dataclasses.field(default_factory=list)
        props: Dict[str, Any] = dataclasses.field(default_factory=dict)

    @dataclasses.dataclass
    class Refs:
        first: Any = pyfory.field(default=None, ref=True)
        second: Any = pyfory.field(default=None, ref=True)

    return {"Point": Point, "Color": Color, "Holder": Holder, "Bag": Bag, "Refs": Refs}


def make_fory(settings, c, named=False):
    import pyfory

    f = pyfory.Fory(xlang=True, ref=settings["ref"], compatible=settings["compatible"])
    if named:
        f.register_type(c["Point"], name="geo.Point")
    else:
        f.register_type(c["Point"], type_id=500)
    f.register_type(c["Holder"], type_id=501)
    f.register_type(c["Refs"], type_id=502)
    f.register_type(c["Color"], type_id=503)
    f.register_type(c["Bag"], type_id=504)
    return f


# The same types as data, for other implementations.
TYPES = [
    {"name": "Point", "kind": "struct", "register": {"id": 500},
     "fields": [{"name": "x", "schema": "varint32"}, {"name": "y", "schema": "varint32"}]},
    {"name": "Holder", "kind": "struct", "register": {"id": 501},
     "fields": [{"name": "name", "schema": "string"}, {"name": "value", "schema": "any"}]},
    {"name": "Refs", "kind": "struct", "register": {"id": 502},
     "fields": [{"name": "first", "schema": "any", "ref": True}, {"name": "second", "schema": "any", "ref": True}]},
    {"name": "Color", "kind": "enum", "register": {"id": 503}, "variants": ["RED", "GREEN"]},
    {"name": "Bag", "kind": "struct", "register": {"id": 504},
     "fields": [{"name": "items", "schema": "list<any>"}, {"name": "props", "schema": "map<string,any>"}]},
]
NAMED_REGISTRATION = {"Point": {"namespace": "geo", "typename": "Point"}}

SAME = {"xlang": True, "ref": False, "compatible": False}
COMPAT = {"xlang": True, "ref": False, "compatible": True}
REFS_SAME = {"xlang": True, "ref": True, "compatible": False}
REFS_COMPAT = {"xlang": True, "ref": True, "compatible": True}

# (name, root type, python expression, registered by name, groups of paths that hold one
# object); in a reference-tracking vector every other pair of the paths `REF_PATHS` names
# holds two objects.
SHAPES = [
    ("int", "Holder", 'Holder("n", 5)', False, []),
    ("negative_big_int", "Holder", 'Holder("n", -(2**40))', False, []),
    ("string", "Holder", 'Holder("n", "s")', False, []),
    ("float", "Holder", 'Holder("n", 2.5)', False, []),
    ("bool", "Holder", 'Holder("n", True)', False, []),
    ("bytes", "Holder", 'Holder("n", b"ab")', False, []),
    ("none", "Holder", 'Holder("n", None)', False, []),
    ("point", "Holder", 'Holder("n", Point(1, 2))', False, []),
    ("named_point", "Holder", 'Holder("n", Point(1, 2))', True, []),
    ("enum", "Holder", 'Holder("n", Color.GREEN)', False, []),
    ("list", "Holder", 'Holder("n", [1, "a", Point(3, 4), None])', False, []),
    ("map", "Holder", 'Holder("n", {"k": 1, "p": Point(5, 6)})', False, []),
    ("nested_holder", "Holder", 'Holder("outer", Holder("inner", Point(7, 8)))', False, []),
    ("bag", "Bag", 'Bag([1, "two", Point(1, 1)], {"a": 1, "b": Point(2, 2)})', False, []),
    ("bag_same_type", "Bag", "Bag([Point(1, 2), Point(3, 4)], {})", False, []),
]
REF_SHAPES = [
    ("shared_point", "Refs", "p = Point(3, 4); Refs(p, p)", False, [["first", "second"]]),
    ("two_points", "Refs", "Refs(Point(3, 4), Point(3, 4))", False, []),
    ("shared_in_list", "Bag", "p = Point(1, 2); Bag([p, p, Point(1, 2)], {})", False, [["items.0", "items.1"]]),
]


REF_PATHS = {"Refs": ["first", "second"], "Bag": ["items.0", "items.1", "items.2"]}


def cases():
    for mode, settings in (("same_schema", SAME), ("compatible", COMPAT)):
        for shape, root, python, named, shared in SHAPES:
            yield "any/{}/{}".format(mode, shape), settings, named, root, python, shared
    for mode, settings in (("same_schema", REFS_SAME), ("compatible", REFS_COMPAT)):
        for shape, root, python, named, shared in REF_SHAPES:
            yield "any/refs/{}/{}".format(mode, shape), settings, named, root, python, shared


def plain(v):
    """A Python value in the vectors' JSON form."""
    if v is None or isinstance(v, (bool, int, float, str)):
        return v
    if isinstance(v, bytes):
        return {"bytes": v.hex()}
    if isinstance(v, enum.Enum):
        return {type(v).__name__: v.name}
    if dataclasses.is_dataclass(v):
        return {type(v).__name__: {f.name: plain(getattr(v, f.name)) for f in dataclasses.fields(v)}}
    if isinstance(v, list):
        return [plain(x) for x in v]
    if isinstance(v, dict):
        return {"map": [[plain(k), plain(x)] for k, x in v.items()]}
    raise TypeError("no plain form for {!r}".format(v))


def at_path(v, path):
    for part in path.split("."):
        v = v[int(part)] if part.isdigit() else getattr(v, part)
    return v


def evaluate(python, c):
    scope = dict(c)
    *stmts, last = python.split("; ")
    for s in stmts:
        exec(s, scope)  # noqa: S102 - the expressions above
    return eval(last, scope)  # noqa: S307


def sharing_problem(value, shared, settings, root):
    """None when the objects at the paths of each group of ``shared`` are one object, and
    (with reference tracking) the other paths of REF_PATHS hold distinct objects."""
    if not settings["ref"]:
        return None
    paths = REF_PATHS[root]
    for i, p in enumerate(paths):
        for q in paths[i + 1:]:
            together = any(p in g and q in g for g in shared)
            if (at_path(value, p) is at_path(value, q)) != together:
                return "{} and {}: {}".format(p, q, "not one object" if together else "one object")
    return None


def document():
    VL.require_pyfory()
    c = classes()
    vectors = []
    for name, settings, named, root, python, shared in cases():
        fory = make_fory(settings, c, named)
        value = evaluate(python, c)
        data = bytes(fory.serialize(value))
        back = fory.deserialize(data)
        if plain(back) != plain(value):
            sys.exit("generate_any.py: {}: pyfory reads back {} for {}".format(name, plain(back), plain(value)))
        problem = sharing_problem(back, shared, settings, root)
        if problem:
            sys.exit("generate_any.py: {}: {}".format(name, problem))
        vectors.append({"name": name, "python": python, "settings": settings, "registered_by_name": named,
                        "schema": root, "value": plain(value), "shared": shared, "hex": data.hex(),
                        "writer_same": True})
    return {"format": VL.VECTOR_FORMAT, "peer": VL.PEER, "group": GROUP, "types": TYPES,
            "named_registration": NAMED_REGISTRATION, "vectors": vectors}


def check_peer(path):
    with open(OUT, encoding="utf-8") as fh:
        vectors = json.load(fh)["vectors"]
    with open(path, encoding="utf-8") as fh:
        written = json.load(fh)
    c = classes()

    def read_back(vec, w):
        fory = make_fory(vec["settings"], c, vec["registered_by_name"])
        back = fory.deserialize(bytes.fromhex(w["hex"]))
        got = plain(back)
        if got != vec["value"]:
            return "pyfory read {}, expected {}".format(got, vec["value"])
        return sharing_problem(back, vec["shared"], vec["settings"], vec["schema"])

    return VL.peer_report("untyped-field", vectors, written, read_back)


if __name__ == "__main__":
    sys.exit(VL.group_main("generate_any.py", __doc__, OUT, document, check_peer))
