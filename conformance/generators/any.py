"""Write the untyped-field vectors (conformance/vectors/any/any.json).

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
(``conformance/tests/any.rs``, and ``fury-conformance run``'s group ``any``).

The file has the format of the other struct groups (README, "Struct and
enum vectors", "Compatible-mode vectors", "Reference-tracking vectors"):
the types as data (``Point`` and ``NamedPoint`` have the same fields, one
registered by id, the other by name), value nodes, and for the vectors with
``ref`` the reference nodes ("ref_id", {"type": "ref", "id": N}).  The
settings differ per vector: same-schema and compatible mode, each without
and with reference tracking.

Each vector is built by running its "python" text with the mirror classes
of the types (vectorlib.TypeTable), and confirmed before it is stored; the
script stops on the first disagreement:

1. our independent decoder (vectorlib.decode_stream) decodes the bytes,
   consuming every byte, to the node that is stored; with ``ref`` the ids
   are 0..N-1 and the root has id 0;
2. pyfory.deserialize consumes every byte and gives a value equal to the
   node (with ``ref``, with exactly the node's sharing: compare_ref_graph);
3. the Python input equals the node, and the node turned back into Python
   values serializes to the same bytes;
4. the identity expectations of the vector hold on pyfory's result
   ("same": ``is``, "distinct": ``is not``);
5. the schema fits the node.

For the types: pyfory's field order, fingerprint and hash and its TypeDef
must equal ours (vectorlib.pyfory_type_docs), and the TypeDefs in the
compatible streams must be those.

Usage:
    python conformance/generate.py any            # (re)write vectors/any/
    python conformance/generate.py --check any    # compare with the files on disk
        # pyfory reads another writer's streams ({"name", "hex"} list) to the values,
        # and the independent decoder finds the vectors' wire kinds and sharing
"""

import ast
import json


import check_peer as CP  # noqa: E402
import vectorlib as VL  # noqa: E402

GROUP = "any"


def F(name, schema, ref=False):
    f = {"name": name, "schema": schema}
    if ref:
        f["ref"] = True
    return f


POINT_FIELDS = [F("x", "varint32"), F("y", "varint32")]
TYPES = [
    {"name": "Point", "kind": "struct", "register": {"id": 500}, "fields": POINT_FIELDS},
    {"name": "NamedPoint", "kind": "struct", "register": {"namespace": "geo", "typename": "Point"},
     "fields": POINT_FIELDS, "note": "Point registered by name: in an any position its type info is the names "
                                     "(same-schema mode) or the TypeDef with them (compatible mode)"},
    {"name": "Holder", "kind": "struct", "register": {"id": 501}, "fields": [F("name", "string"), F("value", "any")],
     "note": "value: typing.Any"},
    {"name": "Refs", "kind": "struct", "register": {"id": 502},
     "fields": [F("first", "any", ref=True), F("second", "any", ref=True)],
     "note": "typing.Any = pyfory.field(ref=True): a flag before every value, a back reference for the same object"},
    {"name": "Color", "kind": "enum", "register": {"id": 503},
     "variants": [{"name": "RED", "id": 0}, {"name": "GREEN", "id": 1}]},
    {"name": "Bag", "kind": "struct", "register": {"id": 504},
     "fields": [F("items", "list<any>"), F("props", "map<string,any>")],
     "note": "List[Any] and Dict[str, Any]: every element and value with its type info"},
]

SAME = {"xlang": True, "ref": False, "compatible": False}
COMPAT = {"xlang": True, "ref": False, "compatible": True}
REFS_SAME = {"xlang": True, "ref": True, "compatible": False}
REFS_COMPAT = {"xlang": True, "ref": True, "compatible": True}

# (what, root schema, python text, identity expectations on pyfory's result r: same, distinct)
SHAPES = [
    ("int", "Holder", 'Holder("n", 5)'),
    ("negative_big_int", "Holder", 'Holder("n", -(2**40))'),
    ("string", "Holder", 'Holder("n", "s")'),
    ("float", "Holder", 'Holder("n", 2.5)'),
    ("bool", "Holder", 'Holder("n", True)'),
    ("bytes", "Holder", 'Holder("n", b"ab")'),
    ("none", "Holder", 'Holder("n", None)'),
    ("point", "Holder", 'Holder("n", Point(1, 2))'),
    ("named_point", "Holder", 'Holder("n", NamedPoint(1, 2))'),
    ("enum", "Holder", 'Holder("n", Color.GREEN)'),
    ("list", "Holder", 'Holder("n", [1, "a", Point(3, 4), None])'),
    ("map", "Holder", 'Holder("n", {"k": 1, "p": Point(5, 6)})'),
    ("nested_holder", "Holder", 'Holder("outer", Holder("inner", Point(7, 8)))'),
    ("bag", "Bag", 'Bag([1, "two", Point(1, 1)], {"a": 1, "b": Point(2, 2)})'),
    ("bag_same_type", "Bag", "Bag([Point(1, 2), Point(3, 4)], {})"),
]
REF_SHAPES = [
    ("shared_point", "Refs", "p = Point(3, 4); Refs(p, p)", [("r.first", "r.second")], []),
    ("two_points", "Refs", "Refs(Point(3, 4), Point(3, 4))", [], [("r.first", "r.second")]),
    ("shared_in_list", "Bag", "p = Point(1, 2); Bag([p, p, Point(1, 2)], {})",
     [("r.items[0]", "r.items[1]")], [("r.items[0]", "r.items[2]")]),
]


def cases():
    """(name, settings, schema, python, same, distinct) of every vector, in file order."""
    for mode, settings in (("same_schema", SAME), ("compatible", COMPAT)):
        for what, schema, python in SHAPES:
            yield "any/{}/{}".format(mode, what), settings, schema, python, [], []
    for mode, settings in (("same_schema", REFS_SAME), ("compatible", REFS_COMPAT)):
        for what, schema, python, same, distinct in REF_SHAPES:
            yield "any/refs/{}/{}".format(mode, what), settings, schema, python, same, distinct


def run_python(text, env):
    """The value of the last statement of ``text`` (our own vector definitions above)."""
    tree = ast.parse(text, mode="exec")
    last = ast.Expression(tree.body.pop().value)
    scope = dict(env)
    exec(compile(tree, "<python>", "exec"), scope)  # noqa: S102
    return eval(compile(last, "<python>", "eval"), scope)  # noqa: S307


def settings_key(settings):
    return json.dumps(settings, sort_keys=True)


def build_vector(name, settings, schema, python, same, distinct, types, fory, typedefs):
    ref, compatible = settings["ref"], settings["compatible"]
    value = run_python(python, types.python_classes())
    data = bytes(fory.serialize(value))
    # 1. the independent decoder
    try:
        node, seen = VL.decode_stream(data, schema, types, compatible, ref)
    except (VL.WireError, VL.VectorError) as exc:
        VL.die(name, "the independent decoder fails on {}: {}".format(data.hex(), exc))
    if ref:
        problems = VL.ref_node_errors(node)
        if problems or node.get("ref_id") != 0:
            VL.die(name, "bad references in {}: {}".format(json.dumps(node), problems))
    for tname, raw in seen.items():
        if typedefs.setdefault(tname, raw) != raw:
            VL.die(name, "pyfory wrote two different TypeDefs of {}".format(tname))
    # 2. pyfory reads its bytes back to the node
    back, unread = VL.deserialize_all(fory, data)
    if unread:
        VL.die(name, "pyfory left {} bytes unread".format(unread))
    if ref:
        diffs = VL.compare_ref_graph(node, back, types, strict=True)
    else:
        diffs = VL.compare(node, back, types=types)
    if diffs:
        VL.die(name, "pyfory's result differs from the node: " + "; ".join(diffs[:5]))
    # 3. the input equals the node, and the node writes the same bytes
    diffs = VL.compare_ref_graph(node, value, types, strict=False) if ref else VL.compare(node, value, types=types)
    if diffs:
        VL.die(name, "the input differs from the node: " + "; ".join(diffs[:5]))
    again = bytes(fory.serialize((VL.ref_node_to_py if ref else VL.node_to_py)(node, types)))
    if again != data:
        VL.die(name, "the node's value writes {} instead of {}".format(again.hex(), data.hex()))
    # 4. identity on pyfory's result
    for left, right, want in [(a, b, True) for a, b in same] + [(a, b, False) for a, b in distinct]:
        if (eval(left, {"r": back}) is eval(right, {"r": back})) != want:  # noqa: S307
            VL.die(name, "expected {} {} {} in pyfory's result".format(left, "is" if want else "is not", right))
    # 5. the schema
    errs = VL.ref_schema_errors(schema, node, types) if ref else VL.schema_errors(
        VL.parse_schema(schema, types), node, types=types)
    if errs:
        VL.die(name, "the schema does not fit: " + "; ".join(errs[:5]))
    vec = {"name": name, "python": python, "settings": dict(settings), "schema": schema, "value": node,
           "hex": data.hex()}
    reasons = VL.string_writer_differences(node)
    vec["writer_same"] = not reasons
    if reasons:
        vec["note"] = "; ".join(reasons)
    return vec


def document():
    VL.require_pyfory()
    try:
        types = VL.TypeTable(TYPES)
    except VL.VectorError as exc:
        VL.die("types", str(exc))
    forys = {}
    typedefs = {}
    vectors = []
    for name, settings, schema, python, same, distinct in cases():
        key = settings_key(settings)
        if key not in forys:
            forys[key] = types.make_fory(settings)
        vectors.append(build_vector(name, settings, schema, python, same, distinct, types, forys[key], typedefs))
    try:
        # the TypeDef of Refs has its fields' ref bits only from a Fory(ref=True) (README,
        # "The declaration pyfory needs"); the other TypeDefs are the same in both, which the
        # streams show (one TypeDef per type over all compatible vectors)
        docs = VL.pyfory_type_docs(TYPES, types, forys[settings_key(SAME)], forys[settings_key(REFS_COMPAT)],
                                   typedefs)
    except VL.VectorError as exc:
        VL.die("types", str(exc))
    problems = VL.TypeTable(docs).own_facts_errors()
    if problems:
        VL.die("types", "; ".join(problems[:5]))
    return {"format": VL.VECTOR_FORMAT, "peer": VL.PEER, "group": GROUP, "types": docs, "vectors": vectors}


def check_peer(path):
    """pyfory (and the independent decoder) read another writer's bytes of every vector."""
    VL.require_pyfory()
    forys = {}

    def read_back(vec, w):
        key = settings_key(vec["settings"])
        if key not in forys:
            forys[key] = vec["_types"].make_fory(vec["settings"])
        problems = CP.check_entry(vec, bytes.fromhex(w["hex"]), forys[key], True)
        return "; ".join(problems[:5]) or None

    return VL.peer_check(GROUP, "untyped-field", path, read_back, vectors=VL.load_vectors(VL.group_dir(GROUP)))


def documents():
    return {"any": document()}
