"""Write the reference-tracking vectors (conformance/vectors/refs/refs.json).

Everything here is written by pyfory 1.7.7 with
``pyfory.Fory(xlang=True, ref=True, compatible=False)`` and with
``compatible=True``: shared objects and cycles (lists, maps, sets, bytes,
dates, dataclasses), ``pyfory.field(ref=True)`` struct fields, and root
values, which always carry a REF_VALUE flag.

Nodes: a value written with a REF_VALUE flag (0x00) has "ref_id": N (ids
from 0, in the order the 0x00 flags appear on the wire); a back reference
(0xfe + N) is {"type": "ref", "id": N}.  See README.md, "Reference-tracking
vectors".

Every vector is built by running its "python" text, and is confirmed before
it is stored; the script aborts on the first disagreement:

1. our independent decoder (vectorlib.decode_stream with ref=True: our
   own reading of where pyfory writes which flag, every TypeDef equal to
   our own encoding) decodes the bytes, consuming every byte; the node's
   ids are 0..N-1, and the root always has ref id 0;
2. pyfory.deserialize consumes every byte and gives a graph equal to the
   node, with exactly the node's sharing (compare_ref_graph, strict: a
   "ref" is the very object, ``is``; no other list / dict / set / struct is
   shared);
3. the Python input equals the node, every "ref" being the very object of
   its target (the input may share more than the node: an untracked field);
4. the node turned back into an object graph (ref_node_to_py) serializes to
   the same bytes;
5. the spec's own identity expectations hold on pyfory's result ("same":
   ``is``, "distinct": ``is not``);
6. the schema fits the node;
7. the value node is the same in both modes, and a vector without structs
   has the same bytes in both modes.

For the types: pyfory's field order, fingerprint and hash (ref=True,
compatible=False) and its TypeDef (ref=True, compatible=True) must equal
our own (vectorlib.TypeTable, vectorlib.typedef_encode).

Usage:
    python conformance/generate.py refs            # (re)write vectors/refs/
    python conformance/generate.py --check refs    # compare with the files on disk
"""

import ast
import datetime
import json


import vectorlib as VL  # noqa: E402

GROUP = "refs"
MODES = (("same_schema", VL.REFS_SETTINGS_SAME), ("compatible", VL.REFS_SETTINGS_COMPAT))


# ---------------------------------------------------------------------------
# type definitions
# ---------------------------------------------------------------------------


def by_id(n):
    return {"id": n}


def by_name(namespace, typename):
    return {"namespace": namespace, "typename": typename}


def F(name, schema, ref=False):
    f = {"name": name, "schema": schema}
    if ref:
        f["ref"] = True
    return f


def struct(name, register, fields, note=None):
    d = {"name": name, "kind": "struct", "register": register, "fields": fields}
    if note:
        d["note"] = note
    return d


TYPES = [
    struct("Point", by_id(100), [F("x", "varint32"), F("y", "int32")]),
    {"name": "Color", "kind": "enum", "register": by_id(101),
     "variants": [{"name": "RED", "id": 0}, {"name": "GREEN", "id": 1}, {"name": "BLUE", "id": 2}]},
    struct("Node", by_id(300), [F("value", "varint32"), F("next", "option<Node>", ref=True)],
           note="a linked node: next is Optional['Node'] = pyfory.field(ref=True, nullable=True)"),
    struct("NamedNode", by_name("refs", "NamedNode"), [F("label", "string"), F("next", "option<NamedNode>", ref=True)],
           note="Node registered by name: the struct field carries type info (same-schema mode too)"),
    struct("TreeParent", by_id(301), [F("name", "string"), F("children", "list<TreeChild>")],
           note="children is a plain List['TreeChild'] field (no pyfory.field)"),
    struct("TreeChild", by_id(302), [F("name", "string"), F("parent", "TreeParent", ref=True)],
           note="parent: TreeParent = pyfory.field(ref=True), not nullable"),
    struct("RefPair", by_id(303), [F("first", "list<varint64>", ref=True), F("second", "list<varint64>", ref=True)]),
    struct("PlainPair", by_id(304), [F("first", "list<varint64>"), F("second", "list<varint64>")],
           note="no pyfory.field(ref=True): the field values are never tracked"),
    struct("PointRefs", by_id(305), [F("main", "Point", ref=True), F("extra", "option<Point>", ref=True)]),
    struct("ScalarRefs", by_id(306), [
        F("text", "string", ref=True), F("count", "varint32", ref=True), F("color", "Color", ref=True),
        F("day", "date", ref=True), F("blob", "binary", ref=True), F("other_day", "date", ref=True),
        F("other_blob", "binary", ref=True)],
           note="pyfory.field(ref=True) on kinds pyfory does not track (string, varint32, enum) and on kinds it "
                "does (date, binary)"),
    struct("AnyRefs", by_id(307), [F("first", "any", ref=True), F("second", "any", ref=True)],
           note="typing.Any = pyfory.field(ref=True): every value, even an int or a string, gets a ref flag"),
    struct("Shelf", by_id(308), [F("points", "list<Point>"), F("by_name", "map<string,Point>"),
                                 F("nested", "list<list<varint64>>")],
           note="plain fields whose elements / values pyfory tracks anyway (structs, lists)"),
]


# ---------------------------------------------------------------------------
# vectors
# ---------------------------------------------------------------------------


class Spec:
    """One value, written in both modes.  ``python`` is run (the last
    statement is the value); ``same`` / ``distinct`` are pairs of
    expressions over ``r`` (pyfory's result) that must be / must not be the
    same object."""

    def __init__(self, what, schema, python, description, same=(), distinct=(), note=None):
        self.what = what
        self.schema = schema
        self.python = python
        self.description = description
        self.same = list(same)
        self.distinct = list(distinct)
        self.note = note


DATE = "datetime.date(2024, 1, 2)"
STAMP = "datetime.datetime(2024, 1, 2, 3, 4, 5, tzinfo=datetime.timezone.utc)"
SPAN = "datetime.timedelta(seconds=90)"


def specs():
    return [
        # -- roots ---------------------------------------------------------------------
        Spec("roots/int", "varint64", "5",
             "a root int: the root flag is 00 (REF_VALUE, id 0) even for a value pyfory never tracks elsewhere"),
        Spec("roots/string", "string", '"hi"', "a root string: flag 00, ref id 0"),
        Spec("roots/float", "float64", "1.5", "a root float: flag 00"),
        Spec("roots/bool", "bool", "True", "a root bool: flag 00"),
        Spec("roots/bytes", "binary", 'b"xyz"', "a root bytes value: flag 00"),
        Spec("roots/date", "date", DATE, "a root date: flag 00"),
        Spec("roots/null", "none", "None", "a null root: fd, no ref id"),
        # -- lists ---------------------------------------------------------------------
        Spec("lists/same_list_twice", "list<list<varint64>>", "a = [1, 2]; [a, a]",
             "a list holding the same list twice: the second occurrence is fe + the id of the first",
             same=[("r[0]", "r[1]")]),
        Spec("lists/equal_distinct_lists", "list<list<varint64>>", "[[1, 2], [1, 2]]",
             "two equal but distinct lists: both written in full, each with its own id",
             distinct=[("r[0]", "r[1]")]),
        Spec("lists/unreferenced_ids", "list<list<varint64>>", "a = [3]; [[1], [2], a, a]",
             "every REF_VALUE flag takes an id, also for values never referenced again: the back reference is "
             "fe 03", same=[("r[2]", "r[3]")], distinct=[("r[0]", "r[1]")]),
        Spec("lists/self_cycle", "list<any>", "a = []; a.append(a); a",
             "a list that contains itself: the element is fe 00 (the root)", same=[("r", "r[0]")]),
        Spec("lists/self_then_ints", "list<any>", "a = []; a.append(a); a.extend([1, 2]); a",
             "a list that contains itself, then ints: mixed types, so every element is flagged (fe 00, "
             "then ff and the type of each int)", same=[("r", "r[0]")]),
        Spec("lists/ints_then_self", "list<any>", "a = [1, 2]; a.append(a); a",
             "ints, then the list itself: mixed types as well", same=[("r", "r[2]")]),
        Spec("lists/shared_with_null", "list<option<list<varint64>>>", "a = [1, 2]; [a, None, a]",
             "a shared list next to a null: header 0b (tracking, has null, same type)", same=[("r[0]", "r[2]")]),
        Spec("lists/nested_shared", "list<list<list<varint64>>>", "a = [9]; [[a, a], a]",
             "one list referenced from two levels", same=[("r[0][0]", "r[0][1]"), ("r[0][0]", "r[1]")]),
        Spec("lists/empty_shared", "list<list<varint64>>", "e = []; [e, e]",
             "an empty list is tracked like any other", same=[("r[0]", "r[1]")]),
        Spec("lists/mixed_types", "list<any>", 'a = [1]; [a, 1, "s", a, 2.5, True, None]',
             "a list of mixed types always has the tracking bit; int, str, float and bool elements get ff, "
             "the list 00 and then fe", same=[("r[0]", "r[3]")]),
        Spec("lists/shared_strings", "list<string>", 's = "x" * 20; [s, s]',
             "strings are not tracked: the same str object is written twice (header 08)"),
        Spec("lists/shared_bytes", "list<binary>", 'b = b"abc"; [b, b]',
             "bytes are tracked: header 09, 00 + payload, then fe", same=[("r[0]", "r[1]")]),
        Spec("lists/shared_temporal", "list<any>", "d = {}; t = {}; span = {}; [d, t, span, d, t, span]".format(
            DATE, STAMP, SPAN),
             "date, timestamp and duration values are tracked",
             same=[("r[0]", "r[3]"), ("r[1]", "r[4]"), ("r[2]", "r[5]")]),
        Spec("lists/shared_sets", "list<set<varint64>>", "s = {1, 2}; [s, s]",
             "a set is tracked", same=[("r[0]", "r[1]")]),
        Spec("lists/set_of_shared_bytes", "list<any>", 'b = b"q"; [b, {b}]',
             "set elements of a tracked kind (bytes) have the tracking bit: the element is fe 01",
             same=[("r[0]", "next(iter(r[1]))")]),
        Spec("lists/mixed_enums", "list<any>", "[Color.RED, 1, Color.RED]",
             "an enum in a list of mixed types is written with 00 (the member is one Python object, so the "
             "second is fe); enums in a same-type list are not tracked", same=[("r[0]", "r[2]")]),
        # -- maps ----------------------------------------------------------------------
        Spec("maps/shared_value", "map<string,list<varint64>>", 'v = [1]; {"x": v, "y": v}',
             "a dict whose values share one list: chunk header 08 (track value ref)", same=[('r["x"]', 'r["y"]')]),
        Spec("maps/self_cycle", "map<string,any>", 'd = {}; d["me"] = d; d',
             "a dict that contains itself", same=[("r", 'r["me"]')]),
        Spec("maps/value_then_self", "map<string,any>", 'd = {}; d["a"] = 1.5; d["me"] = d; d',
             "an untracked value, then the dict itself: two chunks, the second with the value bit "
             "(the back reference needs a flag)", same=[("r", 'r["me"]')]),
        Spec("maps/null_entries", "map<string,option<list<varint64>>>", 'v = [1]; {"a": None, "b": v, "c": v}',
             "a null value stands alone (11) and its key is written with write_ref: a string key gets 00 and "
             "takes an id", same=[('r["b"]', 'r["c"]')]),
        Spec("maps/null_key", "map<option<string>,list<varint64>>", "{None: [1, 2]}",
             "a null key stands alone (0a); the value gets 00"),
        Spec("maps/shared_strings", "map<string,string>", 's = "y" * 20; {"a": s, "b": s}',
             "string values are not tracked (chunk header 00)"),
        Spec("maps/tracked_keys", "list<any>", 'd = {}; b = b"k"; [d, {{d: b, b: 1}}]'.format(DATE),
             "keys of a tracked kind (date, bytes) set the key bit of the chunk header: the date key is fe 01, "
             "the bytes key of the second chunk is fe 03 (the value of the first entry)",
             same=[("r[0]", "list(r[1])[0]"), ("list(r[1])[1]", "r[1][r[0]]")]),
        Spec("maps/list_and_map", "list<any>", 'v = [1]; [v, {"k": v}]',
             "one list as a list element and as a map value", same=[("r[0]", 'r[1]["k"]')]),
        # -- structs at the root and in containers --------------------------------------------
        Spec("structs/list_same_point", "list<Point>", "p = Point(x=1, y=2); [p, Point(x=3, y=4), p]",
             "a list of structs where two elements are the same object: header 09 + the element type info",
             same=[("r[0]", "r[2]")], distinct=[("r[0]", "r[1]")]),
        Spec("structs/map_shared_point", "map<string,Point>", 'p = Point(x=1, y=2); {"a": p, "b": p}',
             "a dict whose values share one dataclass instance", same=[('r["a"]', 'r["b"]')]),
        # -- cycles through ref fields ----------------------------------------------------
        Spec("node/self", "Node", "n = Node(value=1, next=None); n.next = n; n",
             "a dataclass that points to itself: next is fe 00 (the enclosing object, the root)",
             same=[("r", "r.next")]),
        Spec("node/chain", "Node", "Node(value=2, next=Node(value=3, next=None))",
             "two nodes without sharing: the inner node gets 00 (id 1), its next is fd"),
        Spec("node/two_cycle", "Node", "a = Node(value=4, next=None); b = Node(value=5, next=a); a.next = b; a",
             "a -> b -> a: b's next is fe 00", same=[("r", "r.next.next")]),
        Spec("node/list_of_self", "list<Node>", "n = Node(value=1, next=None); n.next = n; [n, n]",
             "a list holding one self-referencing node twice", same=[("r[0]", "r[1]"), ("r[0]", "r[0].next")]),
        Spec("named_node/self", "NamedNode", 'n = NamedNode(label="loop", next=None); n.next = n; n',
             "a name-registered self-referencing dataclass", same=[("r", "r.next")]),
        Spec("named_node/chain", "NamedNode", 'NamedNode(label="a", next=NamedNode(label="b", next=None))',
             "a name-registered struct in a ref field: 00, then its type info, then the payload"),
        Spec("tree/two_children", "TreeParent",
             'p = TreeParent(name="p", children=[]); '
             'p.children = [TreeChild(name="a", parent=p), TreeChild(name="b", parent=p)]; p',
             "a parent/children tree with back references: each child's parent is fe 00",
             same=[("r", "r.children[0].parent"), ("r", "r.children[1].parent")]),
        Spec("tree/child_root", "TreeChild",
             'p = TreeParent(name="p", children=[]); c = TreeChild(name="c", parent=p); p.children.append(c); c',
             "the same tree written from a child: the parent is 00 (id 1) and its children list holds fe 00",
             same=[("r", "r.parent.children[0]")]),
        # -- ref fields -------------------------------------------------------------------------
        Spec("fields/ref_pair_shared", "RefPair", "v = [1, 2]; RefPair(first=v, second=v)",
             "two pyfory.field(ref=True) list fields sharing one list: 00 + list, then fe",
             same=[("r.first", "r.second")]),
        Spec("fields/plain_pair_shared", "PlainPair", "v = [1, 2]; PlainPair(first=v, second=v)",
             "the same with plain fields: no flags, the list is written twice and the sharing is lost",
             distinct=[("r.first", "r.second")]),
        Spec("fields/plain_field_not_registered", "list<any>", "v = [1]; [PlainPair(first=v, second=v), v]",
             "a value written by a plain field is not registered: the later list element is written in full "
             "(00, a new id), not as a back reference", distinct=[("r[0].first", "r[1]")]),
        Spec("fields/point_refs_shared", "PointRefs", "p = Point(x=1, y=2); PointRefs(main=p, extra=p)",
             "two ref fields of a struct type sharing one struct", same=[("r.main", "r.extra")]),
        Spec("fields/point_refs_null", "PointRefs", "PointRefs(main=Point(x=1, y=2), extra=None)",
             "a null ref field is fd"),
        Spec("fields/scalar_refs", "ScalarRefs",
             'd = {}; b = b"ab"; ScalarRefs(text="t", count=7, color=Color.GREEN, day=d, blob=b, other_day=d, '
             'other_blob=b)'.format(DATE),
             "ref=True is ignored on the wire for string and integer fields (inline, no flag), an enum field "
             "gets ff, date and binary fields get 00 and then fe",
             same=[("r.day", "r.other_day"), ("r.blob", "r.other_blob")]),
        Spec("fields/any_refs_list", "AnyRefs", "v = [1]; AnyRefs(first=v, second=v)",
             "two ref Any fields sharing a list: 00 + type id + list, then fe", same=[("r.first", "r.second")]),
        Spec("fields/any_refs_string", "AnyRefs", 's = "shared"; AnyRefs(first=s, second=s)',
             "a ref Any field tracks even a string: 00 15 ..., then fe", same=[("r.first", "r.second")]),
        Spec("fields/any_refs_small_int", "AnyRefs", "AnyRefs(first=5, second=5)",
             "a ref Any field tracks even an int, by Python object identity: CPython has one object for 5, "
             "so the second field is fe", same=[("r.first", "r.second")],
             note="the sharing comes from CPython's small-int cache (-5..256), but it is what pyfory writes: the "
                  "node asks a writer for the same back reference (a port writing 00 07 0a twice passes the pyfory "
                  "check of check_peer, not its wire check)"),
        Spec("fields/any_refs_big_int", "AnyRefs", 'AnyRefs(first=int("300"), second=int("300"))',
             "two distinct int objects in ref Any fields: both 00, no back reference"),
        Spec("fields/shelf", "Shelf",
             'p = Point(x=1, y=2); q = [7]; Shelf(points=[p, p], by_name={"p": p}, nested=[q, q])',
             "plain (non-ref) fields still track their elements: list<Point> (09), map values of a struct "
             "type and list<list<...>> (0d) elements",
             same=[("r.points[0]", "r.points[1]"), ("r.points[0]", 'r.by_name["p"]'),
                   ("r.nested[0]", "r.nested[1]")]),
    ]


# ---------------------------------------------------------------------------
# building and checking
# ---------------------------------------------------------------------------


def run_python(text, env):
    """Run ``text`` (statements; the last one an expression) and return the
    value of the last expression."""
    tree = ast.parse(text, mode="exec")
    if not tree.body or not isinstance(tree.body[-1], ast.Expr):
        raise ValueError("the last statement of {!r} is not an expression".format(text))
    last = ast.Expression(tree.body.pop().value)
    scope = dict(env)
    exec(compile(tree, "<python>", "exec"), scope)  # noqa: S102 - our own vector definitions
    return eval(compile(last, "<python>", "eval"), scope)  # noqa: S307


def uses_structs(node):
    return any(n["type"] in ("struct", "enum") for n in VL.iter_nodes(node))


class Builder:
    def __init__(self, types):
        self.types = types
        self.env = {"datetime": datetime}
        self.env.update(types.python_classes())
        self.forys = {mode: types.make_fory(settings) for mode, settings in MODES}
        self.typedefs = {}  # type name -> TypeDef bytes seen in compatible streams

    def vector(self, spec, mode, settings):
        types = self.types
        name = "{}/{}/{}".format(GROUP, mode, spec.what)
        fory = self.forys[mode]
        compatible = bool(settings["compatible"])
        try:
            value = run_python(spec.python, self.env)
        except Exception as exc:  # noqa: BLE001
            VL.die(name, "cannot run {!r}: {!r}".format(spec.python, exc))
        try:
            data = fory.serialize(value)
        except Exception as exc:  # noqa: BLE001
            VL.die(name, "pyfory cannot write it: {!r}".format(exc))
        # 1. independent decoder
        try:
            node, typedefs = VL.decode_stream(data, spec.schema, types, compatible, ref=True)
        except (VL.WireError, VL.VectorError) as exc:
            VL.die(name, "independent decoder failed on {}: {}".format(data.hex()[:400], exc))
        problems = VL.ref_node_errors(node)
        if problems:
            VL.die(name, "; ".join(problems))
        if node["type"] != "null" and node.get("ref_id") != 0:
            VL.die(name, "the root does not carry ref id 0: {}".format(json.dumps(node)[:200]))
        if compatible:
            self.record_typedefs(name, typedefs)
        # 2. pyfory reads its bytes back, with the node's sharing
        try:
            decoded, unread = VL.deserialize_all(fory, data)
        except Exception as exc:  # noqa: BLE001
            VL.die(name, "pyfory could not read its own bytes {}: {!r}".format(data.hex()[:200], exc))
        if unread:
            VL.die(name, "pyfory left {} bytes unread".format(unread))
        diffs = VL.compare_ref_graph(node, decoded, types, strict=True)
        if diffs:
            VL.die(name, "pyfory.deserialize differs from the node: " + "; ".join(diffs[:6]))
        # 3. the input equals the node
        diffs = VL.compare_ref_graph(node, value, types, strict=False)
        if diffs:
            VL.die(name, "the input value differs from the node: " + "; ".join(diffs[:6]))
        # 4. the node's object graph writes the same bytes
        again = fory.serialize(VL.ref_node_to_py(node, types))
        if again != data:
            VL.die(name, "ref_node_to_py(value) serializes to {} instead of {}".format(again.hex()[:200], data.hex()[:200]))
        # 5. the spec's identity expectations on pyfory's result
        for left, right, want in [(a, b, True) for a, b in spec.same] + [(a, b, False) for a, b in spec.distinct]:
            got = eval(left, {"r": decoded}) is eval(right, {"r": decoded})  # noqa: S307
            if got != want:
                VL.die(name, "expected {} {} {} in pyfory's result".format(left, "is" if want else "is not", right))
        # 6. schema
        errs = VL.ref_schema_errors(spec.schema, node, types)
        if errs:
            VL.die(name, "schema does not fit: " + "; ".join(errs[:5]))
        vec = {"name": name, "description": spec.description, "python": spec.python,
               "settings": dict(settings), "schema": spec.schema, "value": node, "hex": data.hex()}
        reasons = VL.string_writer_differences(node)
        vec["writer_same"] = not reasons
        notes = list(reasons)
        if spec.note:
            notes.append(spec.note)
        if notes:
            vec["note"] = "; ".join(notes)
        return vec

    def record_typedefs(self, name, typedefs):
        """Keep the TypeDef bytes of a compatible stream (our decoder has
        already required each to equal typedef_encode)."""
        for tname, raw in typedefs.items():
            if self.typedefs.setdefault(tname, raw) != raw:
                VL.die(name, "pyfory wrote two different TypeDefs of {}".format(tname))


def type_docs(types, builder):
    try:
        return VL.pyfory_type_docs(TYPES, types, builder.forys["same_schema"], builder.forys["compatible"],
                                   builder.typedefs)
    except VL.VectorError as exc:
        VL.die("types", str(exc))


def build_all():
    VL.require_pyfory()
    try:
        types = VL.TypeTable(TYPES)
    except VL.VectorError as exc:
        VL.die("types", str(exc))
    b = Builder(types)
    vectors = []
    by_mode = {}
    for spec in specs():
        for mode, settings in MODES:
            vec = b.vector(spec, mode, settings)
            vectors.append(vec)
            by_mode[(spec.what, mode)] = vec
        same, compat = by_mode[(spec.what, "same_schema")], by_mode[(spec.what, "compatible")]
        if same["value"] != compat["value"]:
            VL.die(spec.what, "the value node differs between the modes")
        if not uses_structs(same["value"]) and same["hex"] != compat["hex"]:
            VL.die(spec.what, "a vector without structs has different bytes in the two modes")
    names = [v["name"] for v in vectors]
    if len(set(names)) != len(names):
        VL.die("vectors", "duplicate names")
    docs = type_docs(types, b)
    check = VL.TypeTable(docs)
    problems = VL.refs_facts_errors(check)
    if problems:
        VL.die("types", "; ".join(problems[:10]))
    return {
        "format": VL.VECTOR_FORMAT,
        "peer": VL.PEER,
        "group": GROUP,
        "types": docs,
        "vectors": vectors,
    }


def documents():
    return {GROUP: build_all()}
