"""Python mirrors of a TypeTable for pyfory: an enum.Enum per enum and a
dataclass per struct, with pyfory.field() where a field has a tag id, a
default or "ref": true."""

import datetime

from .errors import VectorError
from .nodes import node_to_py
from .peer import array_class, require_pyfory
from .schema import format_schema, named_refs
from .types import ANNOTATION_FOR_KIND, ARRAY_KINDS

__all__ = ["build_python_classes"]

# the module the mirror classes name as theirs (the package, as before the split into modules)
MIRROR_MODULE = __package__


def _scalar_hint(kind):
    from pyfory import annotation

    if kind in ANNOTATION_FOR_KIND:
        return getattr(annotation, ANNOTATION_FOR_KIND[kind])
    if kind in ARRAY_KINDS:
        return array_class(kind)
    return {
        "bool": bool,
        "string": str,
        "binary": bytes,
        "date": datetime.date,
        "timestamp": datetime.datetime,
        "duration": datetime.timedelta,
    }[kind]


def _python_hint(tree, classes):
    import typing

    k = tree[0]
    if k == "option":
        return typing.Optional[_python_hint(tree[1], classes)]
    if k == "list":
        return typing.List[_python_hint(tree[1], classes)]
    if k == "set":
        return typing.Set[_python_hint(tree[1], classes)]
    if k == "map":
        return typing.Dict[_python_hint(tree[1], classes), _python_hint(tree[2], classes)]
    if k == "tuple":
        return typing.Tuple[tuple(_python_hint(t, classes) for t in tree[1:])]
    if k == "named":
        return classes[tree[1]]
    if k == "any":
        return typing.Any
    if k == "scalar":
        return _scalar_hint(tree[1])
    raise VectorError("no Python type for schema {}".format(format_schema(tree)))


def build_python_classes(types):
    import dataclasses
    import enum
    import typing

    pyfory = require_pyfory()
    classes = {}
    for name in types:
        d = types.get(name)
        if d["kind"] == "enum":
            members = [(v["name"], v.get("py_value", v["id"])) for v in d["variants"]]
            classes[name] = enum.Enum(name, members, module=MIRROR_MODULE)

    building = set()
    deferred = []  # (class name, field name, schema tree): hints that name a class still being built

    def build(name):
        if name in classes:
            return classes[name]
        building.add(name)
        specs = []
        for fname, tree, tag in types.fields(name):
            cyclic = False
            for ref in named_refs(tree):
                if ref in building:
                    cyclic = True  # only possible through a "ref": true field (see _check_acyclic)
                else:
                    build(ref)
            if cyclic:
                hint = typing.Any  # replaced below, once every class exists
                deferred.append((name, fname, tree))
            else:
                hint = _python_hint(tree, classes)
            default = types.field_default(name, fname)
            if types.field_ref(name, fname):
                # pyfory.field(ref=True): reference tracking for this field
                # (Optional[T] needs nullable=True as well)
                kwargs = {"ref": True, "nullable": tree[0] == "option"}
                if default is not None:
                    kwargs["default_factory"] = _default_factory(default, types)
                field = pyfory.field(tag, **kwargs) if tag is not None else pyfory.field(**kwargs)
                specs.append((fname, hint, field))
            elif default is not None:
                factory = _default_factory(default, types)
                if tag is not None:
                    specs.append((fname, hint, pyfory.field(tag, nullable=tree[0] == "option", default_factory=factory)))
                else:
                    specs.append((fname, hint, dataclasses.field(default_factory=factory)))
            elif tag is not None:
                specs.append((fname, hint, pyfory.field(tag, nullable=tree[0] == "option")))
            else:
                specs.append((fname, hint))
        cls = dataclasses.make_dataclass(name, specs)
        cls.__module__ = MIRROR_MODULE
        classes[name] = cls
        building.discard(name)
        return cls

    for name in types:
        if types.kind(name) == "struct":
            build(name)
    for name, fname, tree in deferred:
        hint = _python_hint(tree, classes)
        cls = classes[name]
        cls.__annotations__[fname] = hint
        cls.__dataclass_fields__[fname].type = hint
    return classes


def _default_factory(node, types):
    """A dataclass default_factory giving a fresh Python value of the node."""
    return lambda: node_to_py(node, types)
