"""Write the out-of-band buffer vectors (conformance/vectors/oob/oob.json).

pyfory 1.7.7 writes a stream with out-of-band buffers when ``serialize`` is
given a ``buffer_callback``: the header byte gets bit 0x02, and every BINARY
payload (a Python ``bytes``) starts with a flag, ``01`` (in band: the length
and the bytes follow) or ``00`` (out of band: nothing follows; the reader
takes the next buffer of the list it is given).  The callback is called for
each BINARY in write order and returns True to keep it in band.

Each vector records, besides the usual keys, ``in_band`` (the callback's
answers, in order: a writer that gives the same answers must write the same
bytes) and ``buffers`` (hex of each out-of-band buffer, in order).

Every vector is confirmed before it is stored; the script aborts on the first
disagreement:

1. our independent decoder (vectorlib.decode_stream with the buffers) reads
   every byte of the stream and takes every buffer;
2. pyfory.deserialize(stream, buffers=...) gives a value equal to that node,
   and equal to the input;
3. the number of ``00`` flags is the number of buffers, and pyfory calls the
   callback once per BINARY.

Usage:
    python conformance/generate.py oob            # (re)write vectors/oob/
    python conformance/generate.py --check oob    # compare with the files on disk
        # pyfory reads the streams another implementation wrote for these vectors
        # (a JSON list of {"name", "hex", "buffers"}) to the vectors' values
"""

import json

import vectorlib as VL  # noqa: E402

GROUP = "oob"
SAME = {"xlang": True, "ref": False, "compatible": False}
COMPAT = {"xlang": True, "ref": False, "compatible": True}
REFS = {"xlang": True, "ref": True, "compatible": False}

TYPES = [
    {"name": "Blob", "kind": "struct", "register": {"namespace": "demo", "typename": "Blob"},
     "fields": [{"name": "name", "schema": "string"}, {"name": "data", "schema": "binary"},
                {"name": "opt", "schema": "option<binary>"}]},
]


# (name, settings, schema, python expression, rule, description); the rule
# answers the callback: "out" (every BINARY out of band), "in" (every BINARY
# in band), "short_in" (in band below 3 bytes).
CASES = [
    ("oob/root/out", SAME, "binary", 'b"hello"', "out",
     "a root BINARY out of band: the header is 03, the payload the flag 00 alone"),
    ("oob/root/kept_in_band", SAME, "binary", 'b"hello"', "in",
     "the callback keeps it in band: header 03, then the flag 01, the length and the bytes"),
    ("oob/root/empty_out", SAME, "binary", 'b""', "out",
     "an empty BINARY goes out of band too (an empty buffer)"),
    ("oob/root/large_out", SAME, "binary", 'bytes(range(256)) * 4', "out",
     "a 1 KiB BINARY out of band"),
    ("oob/list/mixed", SAME, "any", '[b"ab", b"cdef", 1]', "short_in",
     "a list of two BINARY and an int: the short one in band, the long one out"),
    ("oob/list/all_out", SAME, "any", '[b"x", b"yy", b"zzz"]', "out",
     "three buffers, taken in order"),
    ("oob/map/value", SAME, "any", '{"k": b"v", "w": b"long value"}', "short_in",
     "BINARY map values: one in band, one out"),
    ("oob/nested/list_of_lists", SAME, "any", '[[b"abc"], [b"defg", b"h"]]', "short_in",
     "nested lists: buffers in depth-first write order"),
    ("oob/struct/same_schema", SAME, "Blob", 'Blob("x", b"\\x01\\x02\\x03", b"zz")', "out",
     "a struct's BINARY and option<binary> fields, same-schema mode"),
    ("oob/struct/same_schema_none", SAME, "Blob", 'Blob("x", b"abcd", None)', "out",
     "a null option<binary> field is a null flag: nothing is taken"),
    ("oob/struct/compatible", COMPAT, "Blob", 'Blob("y", b"abcdef", b"q")', "short_in",
     "compatible mode: the TypeDef then the fields; one field in band, one out"),
    ("oob/refs/shared", REFS, "any", '(lambda x: [x, x])(b"shared")', "out",
     "reference tracking: a BINARY shared twice goes out of band once, the second is a back reference"),
]


def rule_answer(rule, raw):
    if rule == "out":
        return False
    if rule == "in":
        return True
    if rule == "short_in":
        return len(raw) < 3
    raise ValueError(rule)


def serialize_oob(fory, value, rule):
    """pyfory's stream and buffers for ``value``, with the callback's answers."""
    answers, buffers = [], []

    def callback(obj):
        raw = bytes(obj.raw())
        keep = rule_answer(rule, raw)
        answers.append(keep)
        if not keep:
            buffers.append(raw)
        return keep

    data = fory.serialize(value, buffer_callback=callback)
    return bytes(data), answers, buffers


def compare(node, actual, types, settings):
    """Differences between a node and a Python value (with its sharing, under tracking)."""
    if settings["ref"]:
        return VL.compare_ref_graph(node, actual, types=types)
    return VL.compare(node, actual, types=types)


def build(types):
    classes = types.python_classes()
    env = dict(classes)
    forys = {}
    vectors = []
    for name, settings, schema, python, rule, description in CASES:
        key = json.dumps(settings, sort_keys=True)
        if key not in forys:
            forys[key] = types.make_fory(settings)
        fory = forys[key]
        value = eval(python, env)  # noqa: S307 - the expressions are the ones above
        data, answers, buffers = serialize_oob(fory, value, rule)
        if data[0] & 0x02 == 0:
            VL.die(name, "pyfory's header {:02x} lacks the out-of-band bit".format(data[0]))
        try:
            node, _ = VL.decode_stream(data, schema, types, settings["compatible"], settings["ref"], buffers=buffers)
        except VL.WireError as exc:
            VL.die(name, "independent decoder failed on {}: {}".format(data.hex(), exc))
        if answers.count(False) != len(buffers):
            VL.die(name, "{} answers out of band but {} buffers".format(answers.count(False), len(buffers)))
        decoded = fory.deserialize(data, buffers=buffers)
        for what, actual in (("pyfory.deserialize", decoded), ("the input", value)):
            diffs = compare(node, actual, types, settings)
            if diffs:
                VL.die(name, "{} differs from the decoded node: {}".format(what, "; ".join(diffs[:5])))
        vectors.append({
            "name": name, "description": description, "python": python, "settings": settings,
            "schema": schema, "value": node, "hex": data.hex(), "in_band": answers,
            "buffers": [b.hex() for b in buffers], "writer_same": True,
        })
    return vectors


def type_docs(types):
    fory = types.make_fory(SAME)
    docs = []
    for d in TYPES:
        d = dict(d)
        name = d["name"]
        facts = VL.pyfory_struct_facts(fory, types.python_class(name))
        own = {"field_order": types.wire_order(name), "fingerprint": types.fingerprint(name),
               "hash": types.struct_hash(name)}
        if facts != own:
            VL.die(name, "pyfory computes {} but we compute {}".format(facts, own))
        d.update(own)
        docs.append(d)
    return docs


def document():
    VL.require_pyfory()
    types = VL.TypeTable(TYPES)
    return {"format": VL.VECTOR_FORMAT, "peer": VL.PEER, "group": GROUP, "types": type_docs(types),
            "vectors": build(types)}


def check_peer(path):
    """pyfory reads another writer's streams and buffers to the vectors' values."""
    with open(VL.group_file("oob"), encoding="utf-8") as fh:
        doc = json.load(fh)
    types = VL.TypeTable(doc["types"])

    def read_back(vec, w):
        fory = types.make_fory(vec["settings"])
        buffers = [bytes.fromhex(b) for b in w["buffers"]]
        value = fory.deserialize(bytes.fromhex(w["hex"]), buffers=buffers)
        diffs = compare(vec["value"], value, types, vec["settings"])
        return "; ".join(diffs[:3]) if diffs else None

    return VL.peer_check(GROUP, "out-of-band", path, read_back, vectors=doc["vectors"])


def documents():
    return {"oob": document()}
