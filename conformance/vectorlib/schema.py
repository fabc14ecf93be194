"""Schemas: the static type of a vector (README, "Schema grammar") as a
tuple tree, parsed, printed, derived from a node and checked against one."""

from .errors import VectorError
from .types import SCALAR_NAMES

__all__ = ["UNKNOWN", "parse_schema", "format_schema", "named_refs", "derive_schema", "schema_errors", "sized_length"]


def parse_schema(text, types=None):
    """Parse a schema expression into a tuple tree:
    ("scalar", name) | ("none",) | ("any",) | ("option", T) | ("list", T) |
    ("set", T) | ("map", K, V) | ("tuple", T1, T2, ...), plus ("named", name)
    for a struct or enum name of ``types`` (a TypeTable or a collection of
    names).

    ``tuple<T1,...,Tn>`` is a Python ``Tuple[...]`` field: on the wire a LIST
    whose elements are written as undeclared values (type id + payload), which
    pyfory declares as a list of UNKNOWN.  pyfory declares a tuple whose
    element types are all one type as a list of that type instead, so such a
    tuple (a 1-tuple included) is refused here: it is ``list<T>``."""
    pos = 0

    def ident():
        nonlocal pos
        start = pos
        while pos < len(text) and (text[pos].isalnum() or text[pos] == "_"):
            pos += 1
        if start == pos:
            raise VectorError("bad schema {!r} at {}".format(text, pos))
        return text[start:pos]

    def expect(ch):
        nonlocal pos
        if pos >= len(text) or text[pos] != ch:
            raise VectorError("bad schema {!r}: expected {!r} at {}".format(text, ch, pos))
        pos += 1

    def parse():
        nonlocal pos
        name = ident()
        if name in ("list", "set", "option"):
            expect("<")
            inner = parse()
            expect(">")
            return (name, inner)
        if name == "map":
            expect("<")
            k = parse()
            expect(",")
            v = parse()
            expect(">")
            return ("map", k, v)
        if name == "tuple":
            expect("<")
            elems = [parse()]
            while pos < len(text) and text[pos] == ",":
                pos += 1
                elems.append(parse())
            expect(">")
            # pyfory/type_util.py get_homogeneous_tuple_elem_type: one element
            # type for all (or a 1-tuple) makes a declared list of that type
            if all(e == elems[0] for e in elems[1:]):
                raise VectorError("bad schema {!r}: a tuple whose elements all have one type is written by pyfory "
                                  "as a list of that type; write list<{}>".format(text, format_schema(elems[0])))
            return ("tuple",) + tuple(elems)
        if name == "none":
            return ("none",)
        if name == "any":
            return ("any",)
        if name in SCALAR_NAMES:
            return ("scalar", name)
        if types is not None and name in types:
            return ("named", name)
        raise VectorError("unknown schema type {!r} in {!r}".format(name, text))

    tree = parse()
    if pos != len(text):
        raise VectorError("trailing text in schema {!r}".format(text))
    return tree


def format_schema(tree):
    kind = tree[0]
    if kind == "scalar":
        return tree[1]
    if kind in ("none", "any"):
        return kind
    if kind == "named":
        return tree[1]
    if kind == "unknown":
        return "?"
    if kind in ("list", "set", "option"):
        return "{}<{}>".format(kind, format_schema(tree[1]))
    if kind == "map":
        return "map<{},{}>".format(format_schema(tree[1]), format_schema(tree[2]))
    if kind == "tuple":
        return "tuple<{}>".format(",".join(format_schema(t) for t in tree[1:]))
    raise ValueError(tree)


UNKNOWN = ("unknown",)


def _unify(a, b):
    if a == b:
        return a
    if a == UNKNOWN:
        return b
    if b == UNKNOWN:
        return a
    if a[0] == "option" or b[0] == "option":
        inner = _unify(a[1] if a[0] == "option" else a, b[1] if b[0] == "option" else b)
        return inner if inner == ("any",) else ("option", inner)
    if a[0] == b[0] and a[0] in ("list", "set"):
        return (a[0], _unify(a[1], b[1]))
    if a[0] == b[0] == "map":
        return ("map", _unify(a[1], b[1]), _unify(a[2], b[2]))
    return ("any",)


def _derive_elements(nodes):
    """Schema of a position holding the given nodes."""
    has_null = False
    acc = UNKNOWN
    for n in nodes:
        if n["type"] == "null":
            has_null = True
            continue
        acc = _unify(acc, _derive(n))
    if acc == ("any",):
        return acc
    if has_null:
        return ("option", acc)
    return acc


def _derive(node):
    t = node["type"]
    if t == "null":
        return ("none",)
    if t in ("struct", "enum"):
        return ("named", node["name"])
    if t in ("list", "set"):
        return (t, _derive_elements(node["items"]))
    if t == "map":
        return (
            "map",
            _derive_elements([e[0] for e in node["entries"]]),
            _derive_elements([e[1] for e in node["entries"]]),
        )
    return ("scalar", t)


def _contains_unknown(tree):
    if tree == UNKNOWN:
        return True
    return any(isinstance(x, tuple) and _contains_unknown(x) for x in tree[1:])


def derive_schema(node):
    """Schema string for a node, or None when it cannot be derived
    (empty or all-null containers)."""
    tree = _derive(node)
    if _contains_unknown(tree):
        return None
    return format_schema(tree)


def named_refs(tree):
    """The struct and enum names a schema tree mentions."""
    if tree[0] == "named":
        yield tree[1]
    for sub in tree[1:]:
        if isinstance(sub, tuple):
            yield from named_refs(sub)


def schema_errors(schema, node, path="$", types=None, targets=None):
    """Does the node fit the schema? Returns a list of problems.
    ``types`` (a TypeTable) is needed for struct and enum names.
    ``targets`` (ref id -> node, for a node with references) lets a
    {"type": "ref"} position fit with the kind (and name) of its target."""
    if isinstance(schema, str):
        schema = parse_schema(schema, types)
    kind = schema[0]
    t = node["type"]
    if t == "ref" and targets is not None:
        target = targets.get(node.get("id"))
        if target is None:
            return ["{}: reference to id {!r}, which no value carries".format(path, node.get("id"))]
        return _ref_fit_errors(schema, target, path)
    if kind == "any":
        return []
    if kind == "none":
        return [] if t == "null" else ["{}: schema none but node is {}".format(path, t)]
    if kind == "option":
        if t == "null":
            return []
        return schema_errors(schema[1], node, path, types, targets)
    if t == "null":
        return ["{}: null in a non-optional {} position".format(path, format_schema(schema))]
    if kind == "scalar":
        return [] if t == schema[1] else ["{}: schema {} but node is {}".format(path, schema[1], t)]
    if kind == "named":
        return _user_schema_errors(schema[1], node, path, types, targets)
    if kind in ("list", "set"):
        if t != kind:
            return ["{}: schema {} but node is {}".format(path, kind, t)]
        out = []
        for i, n in enumerate(node["items"]):
            out.extend(schema_errors(schema[1], n, "{}[{}]".format(path, i), types, targets))
        return out
    if kind == "map":
        if t != "map":
            return ["{}: schema map but node is {}".format(path, t)]
        out = []
        for i, (k, v) in enumerate(node["entries"]):
            out.extend(schema_errors(schema[1], k, "{}[{}].key".format(path, i), types, targets))
            out.extend(schema_errors(schema[2], v, "{}[{}].value".format(path, i), types, targets))
        return out
    if kind == "tuple":
        # a tuple is a LIST on the wire, with exactly one element per position
        if t != "list":
            return ["{}: schema {} but node is {}".format(path, format_schema(schema), t)]
        if len(node["items"]) != len(schema) - 1:
            return ["{}: schema {} has {} elements, node has {}".format(
                path, format_schema(schema), len(schema) - 1, len(node["items"]))]
        out = []
        for i, (sub, n) in enumerate(zip(schema[1:], node["items"])):
            out.extend(schema_errors(sub, n, "{}[{}]".format(path, i), types, targets))
        return out
    return ["{}: bad schema {!r}".format(path, schema)]


def sized_length(node):
    """The element count of a list, set or dense array node, or the byte
    count of a binary node (what a field's "length" constrains); None for
    any other node."""
    t = node["type"]
    if t in ("list", "set"):
        return len(node["items"])
    if t == "binary":
        return len(node["hex"]) // 2
    if "values" in node:
        return len(node["values"])
    if "bits" in node and isinstance(node["bits"], list):
        return len(node["bits"])
    return None


def _ref_fit_errors(tree, target, path):
    """A reference fits where its target's kind (and struct / enum name) does;
    the target itself is checked where it stands."""
    if tree[0] == "option":
        tree = tree[1]
    if tree[0] == "any":
        return []
    t = target["type"]
    if tree[0] == "scalar":
        ok = t == tree[1]
    elif tree[0] == "named":
        ok = t in ("struct", "enum") and target.get("name") == tree[1]
    elif tree[0] in ("list", "set", "map"):
        ok = t == tree[0]
    elif tree[0] == "tuple":
        ok = t == "list"
    else:
        ok = False
    return [] if ok else ["{}: a reference to a {} in a {} position".format(path, t, format_schema(tree))]


def _user_schema_errors(name, node, path, types, targets):
    if types is None or name not in types:
        return ["{}: unknown type {}".format(path, name)]
    d = types.get(name)
    t = node["type"]
    if t != d["kind"] or node.get("name") != name:
        return ["{}: schema {} ({}) but node is {} {}".format(path, name, d["kind"], t, node.get("name", ""))]
    if t == "enum":
        vid = types.variant_id(name, node.get("variant"))
        if vid is None or vid != node.get("id"):
            return ["{}: enum {} has no variant {!r} with id {!r}".format(path, name, node.get("variant"), node.get("id"))]
        return []
    expected = [f for f, _t, _g in types.fields(name)]
    fields = node.get("fields")
    if not isinstance(fields, dict) or list(fields) != expected:
        return ["{}: struct {} needs the fields {} in this order, node has {}".format(
            path, name, expected, list(fields) if isinstance(fields, dict) else fields)]
    out = []
    for fname, tree, _tag in types.fields(name):
        fpath = "{}.{}".format(path, fname)
        out.extend(schema_errors(tree, fields[fname], fpath, types, targets))
        want = types.field_length(name, fname)
        got = sized_length(fields[fname]) if fields[fname]["type"] != "null" else None
        if want is not None and got is not None and got != want:
            out.append("{}: a field of length {} holds {} elements".format(fpath, want, got))
    return out
