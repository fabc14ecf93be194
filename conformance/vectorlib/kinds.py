"""Unions, extension types and decimals as the testee protocol (version 2) carries them.

The union, extension-type and decimal vector files (vectors/union/, vectors/ext/,
vectors/decimal/) store each value in a plain JSON form (a union is
``{"case": id, "value": ...}``, a struct or an extension value an object of its
fields, a decimal ``{"unscaled", "scale"}``).  For the runner those become value
nodes, typed by the file's type definitions:

* a struct: ``{"type": "struct", "name": N, "fields": {...}}`` (as elsewhere);
* a union: ``{"type": "union", "name": N, "case": ID, "value": NODE}``, the value
  ``{"type": "null"}`` for an empty case;
* an extension value: ``{"type": "ext", "name": N, "fields": {...}}``;
* a decimal: ``{"type": "decimal", "unscaled": "<decimal text>", "scale": S}``.

A definition of kind ``union`` has ``cases``, each ``{"name", "id", "schema"}``; one
of kind ``ext`` has ``fields`` like a struct's, and its payload is what the
application's serializer writes: in these files the bare payload of each field, in
definition order, with no length and no type info.

KindTable holds such definitions, turns plain values into nodes, builds pyfory
classes for them (a dataclass per struct, a ``pyfory.union.Union`` subclass with a
``UnionSerializer`` per union, a class with a field-by-field serializer per
extension type) and registers them.  value_diff compares a node another
implementation answered with the expected node, by value.
"""

import dataclasses
import decimal

from .errors import VectorError
from .naming import is_ascii_identifier
from .nodes import compare, node_to_py, py_to_node, short_repr, string_encoding
from .schema import parse_schema
from .types import INT_RANGES

__all__ = ["KindTable", "value_diff", "decimal_node", "decimal_from_node", "DECIMAL_SCHEMA", "vector_type_defs",
           "confirm_kind_vectors"]

DECIMAL_SCHEMA = "decimal"
_KINDS = ("struct", "union", "ext")
# an extension payload field: how the serializer writes and reads it (pyfory's context methods)
_EXT_IO = {
    "varint32": ("write_varint32", "read_varint32"),
    "varint64": ("write_varint64", "read_varint64"),
    "int32": ("write_int32", "read_int32"),
    "int64": ("write_int64", "read_int64"),
    "string": ("write_string", "read_string"),
    "bool": ("write_bool", "read_bool"),
}


def decimal_node(unscaled, scale):
    return {"type": "decimal", "unscaled": str(int(unscaled)), "scale": int(scale)}


def decimal_from_node(node):
    """A decimal.Decimal with exactly the node's unscaled digits and scale."""
    unscaled = int(node["unscaled"], 10)
    scale = int(node["scale"])
    digits = tuple(int(c) for c in str(abs(unscaled)))
    return decimal.Decimal((1 if unscaled < 0 else 0, digits, -scale))


def _decimal_of(value):
    sign, digits, exp = value.as_tuple()
    if not isinstance(exp, int):
        raise VectorError("a decimal that is not finite: {}".format(value))
    unscaled = int("".join(map(str, digits)) or "0")
    return decimal_node(-unscaled if sign else unscaled, -exp)


class _Names:
    """What parse_schema needs: the defined names, plus "decimal"."""

    def __init__(self, names):
        self._names = set(names) | {DECIMAL_SCHEMA}

    def __contains__(self, name):
        return name in self._names


class KindTable:
    """Struct, union and extension-type definitions of one vector file."""

    def __init__(self, defs):
        if not isinstance(defs, list):
            raise VectorError("'types' must be a list")
        self._defs = {}
        for d in defs:
            if not isinstance(d, dict) or not is_ascii_identifier(d.get("name")) or d.get("kind") not in _KINDS:
                raise VectorError("bad type definition {!r}".format(d))
            if d["name"] in self._defs or d["name"] == DECIMAL_SCHEMA:
                raise VectorError("type {} defined twice".format(d["name"]))
            reg = d.get("register")
            if not isinstance(reg, dict) or not (set(reg) == {"id"} or set(reg) == {"namespace", "typename"}):
                raise VectorError("type {}: bad register {!r}".format(d["name"], reg))
            self._defs[d["name"]] = d
        names = _Names(self._defs)
        self._members = {}  # name -> [(field or case name, schema tree, tag or case id)]
        for name, d in self._defs.items():
            if d["kind"] == "union":
                cases = d.get("cases")
                if not isinstance(cases, list) or not cases:
                    raise VectorError("union {}: no cases".format(name))
                self._members[name] = [(c["name"], parse_schema(c["schema"], names), c["id"]) for c in cases]
            else:
                fields = d.get("fields")
                if not isinstance(fields, list):
                    raise VectorError("{} {}: no fields".format(d["kind"], name))
                self._members[name] = [(f["name"], parse_schema(f["schema"], names), f.get("tag_id")) for f in fields]
        self._classes = None

    def __contains__(self, name):
        return name in self._defs

    def __iter__(self):
        return iter(self._defs)

    def kind(self, name):
        return self._defs[name]["kind"]

    def is_alias(self, name):
        return False  # no evolution types in these files

    def members(self, name):
        return self._members[name]

    def case_tree(self, name, case_id):
        for _n, tree, cid in self._members[name]:
            if cid == case_id:
                return tree
        return None

    def parse(self, schema):
        return parse_schema(schema, _Names(self._defs))

    # plain JSON (the vector files' form) -> value node ----------------------------------
    def plain_to_node(self, tree, plain, path="$"):
        if isinstance(tree, str):
            tree = self.parse(tree)
        k = tree[0]
        if k == "option":
            return {"type": "null"} if plain is None else self.plain_to_node(tree[1], plain, path)
        if plain is None:
            raise VectorError("{}: null where the schema is not optional".format(path))
        if k == "list":
            return {"type": "list", "items": [self.plain_to_node(tree[1], v, "{}[{}]".format(path, i))
                                              for i, v in enumerate(plain)]}
        if k == "named" and tree[1] == DECIMAL_SCHEMA:
            return decimal_node(int(plain["unscaled"], 10), plain["scale"])
        if k == "named":
            name = tree[1]
            kind = self.kind(name)
            if kind == "union":
                case = plain["case"]
                sub = self.case_tree(name, case)
                if sub is None:
                    raise VectorError("{}: union {} has no case {}".format(path, name, case))
                value = {"type": "null"} if plain["value"] is None else self.plain_to_node(sub, plain["value"], path)
                return {"type": "union", "name": name, "case": case, "value": value}
            return {"type": kind, "name": name, "fields": {
                f: self.plain_to_node(t, plain[f], "{}.{}".format(path, f)) for f, t, _tag in self._members[name]}}
        if k == "scalar":
            s = tree[1]
            if s == "string":
                return {"type": "string", "value": plain, "encoding": string_encoding(plain)}
            if s in INT_RANGES:
                return {"type": s, "value": str(int(plain))}
            if s == "bool":
                return {"type": "bool", "value": bool(plain)}
        raise VectorError("{}: no plain form for schema {}".format(path, tree))

    # pyfory classes (need pyfory) -----------------------------------------------------
    def python_classes(self):
        if self._classes is None:
            self._classes = self._build_classes()
        return self._classes

    def _hint(self, tree, classes):
        import typing

        import pyfory

        k = tree[0]
        if k == "option":
            return typing.Optional[self._hint(tree[1], classes)]
        if k == "list":
            return typing.List[self._hint(tree[1], classes)]
        if k == "named" and tree[1] == DECIMAL_SCHEMA:
            return decimal.Decimal
        if k == "named":
            return classes[tree[1]]
        if k == "scalar":
            hints = {"string": str, "bool": bool, "varint32": pyfory.Int32, "varint64": pyfory.Int64,
                     "int32": pyfory.FixedInt32, "int64": pyfory.FixedInt64, "binary": bytes}
            if tree[1] in hints:
                return hints[tree[1]]
        raise VectorError("no Python type for schema {}".format(tree))

    @staticmethod
    def _default(tree):
        k = tree[0]
        if k == "option" or k == "named":
            return {"default": None}
        if k == "list":
            return {"default_factory": list}
        if tree[1] == "string":
            return {"default": ""}
        if tree[1] == "bool":
            return {"default": False}
        if tree[1] == "binary":
            return {"default": b""}
        return {"default": 0}

    def _build_classes(self):
        import pyfory
        from pyfory.serializer import Serializer
        from pyfory.union import Union, UnionSerializer

        classes = {}
        for name in self._defs:
            kind = self.kind(name)
            if kind == "union":
                def from_case_id(cls, case_id, value):
                    return cls(case_id, value)

                def union_eq(self_, other):
                    return type(other) is type(self_) and (self_.case_id(), self_.value()) == (
                        other.case_id(), other.value())

                classes[name] = type(name, (Union,), {"CASES": {}, "_from_case_id": classmethod(from_case_id),
                                                      "__eq__": union_eq, "__hash__": None})
            elif kind == "ext":
                field_names = [f for f, _t, _tag in self._members[name]]

                def ext_init(self_, *args, _names=tuple(field_names), **kwargs):
                    for n, v in zip(_names, args):
                        setattr(self_, n, v)
                    for n in _names[len(args):]:
                        setattr(self_, n, kwargs.get(n))

                def ext_eq(self_, other, _names=tuple(field_names)):
                    return type(other) is type(self_) and all(getattr(self_, n) == getattr(other, n) for n in _names)

                classes[name] = type(name, (), {"__init__": ext_init, "__eq__": ext_eq, "__hash__": None,
                                                "_fury_fields": tuple(field_names)})
        for name in self._defs:
            if self.kind(name) != "struct":
                continue
            specs = []
            for fname, tree, tag in self._members[name]:
                hint = self._hint(tree, classes)
                default = self._default(tree)
                if tag is not None:
                    spec = pyfory.field(tag, nullable=tree[0] == "option", **default)
                elif tree[0] == "option":
                    spec = pyfory.field(nullable=True, **default)
                else:
                    spec = dataclasses.field(**default)
                specs.append((fname, hint, spec))
            classes[name] = dataclasses.make_dataclass(name, specs)
        serializers = {}
        for name in self._defs:
            kind = self.kind(name)
            if kind == "union":
                cls = classes[name]
                cls.CASES = {cid: self._hint(tree, classes) for _c, tree, cid in self._members[name]}

                def union_ser_init(self_, type_resolver, _cls=cls):
                    UnionSerializer.__init__(self_, type_resolver, _cls, dict(_cls.CASES))

                serializers[name] = type(name + "Serializer", (UnionSerializer,), {"__init__": union_ser_init})
            elif kind == "ext":
                io = []
                for fname, tree, _tag in self._members[name]:
                    if tree[0] != "scalar" or tree[1] not in _EXT_IO:
                        raise VectorError("ext {}: no payload rule for field {} of schema {}".format(name, fname, tree))
                    io.append((fname,) + _EXT_IO[tree[1]])
                cls = classes[name]

                def ext_write(self_, write_context, value, _io=tuple(io)):
                    for fname, w, _r in _io:
                        getattr(write_context, w)(getattr(value, fname))

                def ext_read(self_, read_context, _io=tuple(io), _cls=cls):
                    return _cls(*[getattr(read_context, r)() for _f, _w, r in _io])

                serializers[name] = type(name + "Serializer", (Serializer,), {
                    "write": ext_write, "read": ext_read, "xwrite": ext_write, "xread": ext_read})
        self._serializers = serializers
        return classes

    def register(self, fory):
        """Register every type with ``fory``, in definition order, as the vector
        generators do (unions with register_union, extension types with their
        serializer)."""
        classes = self.python_classes()
        for name, d in self._defs.items():
            reg = d["register"]
            if "id" in reg:
                where = {"type_id": reg["id"]}
            else:
                where = {"name": reg["typename"] if not reg["namespace"] else reg["namespace"] + "." + reg["typename"]}
            cls = classes[name]
            kind = self.kind(name)
            if kind == "union":
                fory.register_union(cls, serializer=self._serializers[name](fory.type_resolver), **where)
            elif kind == "ext":
                fory.register_type(cls, serializer=self._serializers[name](fory.type_resolver, cls), **where)
            else:
                fory.register_type(cls, **where)

    # node <-> Python value ------------------------------------------------------------
    def node_to_py(self, node):
        t = node["type"]
        classes = self.python_classes()
        if t == "union":
            value = node["value"]
            return classes[node["name"]](int(node["case"]), None if value["type"] == "null" else self.node_to_py(value))
        if t in ("struct", "ext"):
            cls = classes[node["name"]]
            return cls(**{f: self.node_to_py(v) for f, v in node["fields"].items()})
        if t == "decimal":
            return decimal_from_node(node)
        if t == "list":
            return [self.node_to_py(n) for n in node["items"]]
        return node_to_py(node)

    def py_to_node(self, value):
        from pyfory.union import Union

        classes = self.python_classes()
        names = {cls: n for n, cls in classes.items()}
        if isinstance(value, Union):
            name = names.get(type(value))
            inner = value.value()
            return {"type": "union", "name": name, "case": value.case_id(),
                    "value": {"type": "null"} if inner is None else self.py_to_node(inner)}
        if type(value) in names:
            name = names[type(value)]
            return {"type": self.kind(name), "name": name, "fields": {
                f: self.py_to_node(getattr(value, f)) for f, _t, _tag in self._members[name]}}
        if isinstance(value, decimal.Decimal):
            return _decimal_of(value)
        if isinstance(value, (list, tuple)):
            return {"type": "list", "items": [self.py_to_node(v) for v in value]}
        return py_to_node(value)


def value_diff(expected, got, path="$"):
    """Differences between the expected node and another implementation's node, read as
    values (integers by value whatever their kind, strings by content, floats by bits,
    structs and extension values field by field, unions by case and value, decimals by
    unscaled value and scale)."""
    if not isinstance(got, dict) or not isinstance(got.get("type"), str):
        return ["{}: not a node: {}".format(path, short_repr(got))]
    t = expected["type"]
    g = got["type"]
    if t == "null" or g == "null":
        return [] if t == g else ["{}: expected {}, got {}".format(path, t, g)]
    if t in ("struct", "ext", "union", "decimal", "list") and g != t:
        return ["{}: expected a {} node, got {}".format(path, t, g)]
    if t in ("struct", "ext", "union") and got.get("name") != expected["name"]:
        return ["{}: expected {} {}, got {}".format(path, t, expected["name"], short_repr(got.get("name")))]
    if t in ("struct", "ext"):
        fields = got.get("fields")
        if not isinstance(fields, dict):
            return ["{}: no fields".format(path)]
        out = ["{}.{}: field missing".format(path, f) for f in expected["fields"] if f not in fields]
        out += ["{}.{}: no such field".format(path, f) for f in fields if f not in expected["fields"]]
        for f, n in expected["fields"].items():
            if f in fields:
                out += value_diff(n, fields[f], "{}.{}".format(path, f))
        return out
    if t == "union":
        if got.get("case") != expected["case"] or type(got.get("case")) is not int:
            return ["{}: expected case {}, got {}".format(path, expected["case"], short_repr(got.get("case")))]
        return value_diff(expected["value"], got.get("value"), "{}<case {}>".format(path, expected["case"]))
    if t == "decimal":
        try:
            same = int(got["unscaled"], 10) == int(expected["unscaled"], 10) and int(got["scale"]) == expected["scale"]
        except (KeyError, TypeError, ValueError) as exc:
            return ["{}: bad decimal node: {}".format(path, exc)]
        if not same or type(got["scale"]) is not int:
            return ["{}: expected decimal {}e-{}, got {}e-{}".format(
                path, expected["unscaled"], expected["scale"], got.get("unscaled"), got.get("scale"))]
        return []
    if t == "list":
        items = got.get("items")
        if not isinstance(items, list) or len(items) != len(expected["items"]):
            return ["{}: expected {} items, got {}".format(
                path, len(expected["items"]), len(items) if isinstance(items, list) else short_repr(items))]
        out = []
        for i, (e, a) in enumerate(zip(expected["items"], items)):
            out += value_diff(e, a, "{}[{}]".format(path, i))
        return out
    try:
        actual = node_to_py(got)
    except Exception as exc:  # noqa: BLE001 - a malformed node is the testee's failure
        return ["{}: cannot read the node: {}: {}".format(path, type(exc).__name__, exc)]
    return compare(expected, actual, path)


def vector_type_defs(doc, vec):
    """The type definitions a vector of a union or extension-type file is read with: the
    file's "types", with the registrations of "named_registration" for a vector that has
    "registered_by_name"."""
    defs = [dict(d) for d in doc.get("types", [])]
    if vec.get("registered_by_name"):
        named = doc.get("named_registration", {})
        for d in defs:
            if d["name"] in named:
                d["register"] = dict(named[d["name"]])
    return defs


def confirm_kind_vectors(doc, make_fory):
    """The file's type definitions describe what its generator's classes write: for every
    vector, classes built from the definitions (KindTable) give pyfory's bytes from the
    node, and read the bytes back to the node.  ``make_fory(settings)`` makes an empty
    Fory.  Returns the problems found."""
    problems = []
    tables = {}
    for vec in doc["vectors"]:
        defs = vector_type_defs(doc, vec)
        key = repr(defs)
        if key not in tables:
            tables[key] = KindTable(defs)
        table = tables[key]
        fory = make_fory(vec["settings"])
        table.register(fory)
        node = table.plain_to_node(vec["schema"], vec["value"])
        data = bytes(fory.serialize(table.node_to_py(node)))
        if data.hex() != vec["hex"]:
            problems.append("{}: the classes built from the types write {}, the generator's wrote {}".format(
                vec["name"], data.hex(), vec["hex"]))
            continue
        back = table.py_to_node(fory.deserialize(data))
        problems.extend("{}: {}".format(vec["name"], p) for p in value_diff(node, back))
    return problems
