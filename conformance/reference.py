#!/usr/bin/env python3
"""The checking half of `fury-conformance run` (conformance/PROTOCOL.md).

The runner starts this script and talks to it with the testee framing
(4-byte little-endian length + UTF-8 JSON).  It owns the vectors and all
judgement, so there is one decoder and one comparison (vectorlib, the same
code check_peer.py uses):

* {"op": "list", "dirs": [DIR, ...]} -> {"types": {KEY: [defs]}, "vectors":
  [{name, group, hex, writer_same, decode_expects_error, requests: [decode,
  encode, roundtrip]}]}; each request with types names them by "types_key".
* {"op": "check_decode", "name": N, "value": NODE} -> {"problems": [...]}:
  the testee's node, read as a value (ints by value, floats by bit pattern
  in the expected width, strings by content, sets and maps without order,
  shared objects by identity), against the vector's expected value (for an
  evolution vector, the reader's "expected").
* {"op": "check_bytes", "name": N, "hex": H[, "buffers": [H, ...]]} ->
  {"problems": [...]}: pyfory 1.7.7 decodes the bytes (with the out-of-band
  buffers, for the oob group) to the vector's value, the independent wire
  decoder agrees on every wire kind (check_peer.check_entry; for evolution
  vectors pyfory's reader must also give "expected").
* {"op": "shutdown"} -> exits.

The groups of protocol version 2 (oob, union, ext, decimal, rows) are judged
here too: unions and extension types with the very classes and serializers
their generator wrote the vectors with, rows with pyfory.format's from_row.
"""

import importlib
import json
import os
import sys

if os.environ.get("TZ") != "UTC" or os.environ.get("PYTHONHASHSEED") != "0":
    # pyfory.format reads timestamps as local times (generate.py runs in UTC too)
    os.execve(sys.executable, [sys.executable] + sys.argv, dict(os.environ, TZ="UTC", PYTHONHASHSEED="0"))

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import check_peer  # noqa: E402
import vectorlib as VL  # noqa: E402


class Reference:
    def __init__(self, dirs):
        VL.require_pyfory()
        self.vectors = VL.load_runner_vectors(dirs)
        self.by_name = {v["name"]: v for v in self.vectors}
        # the rejection vectors are only decoded by the testee, never read here
        v1 = [v for v in self.vectors if v["_group"] not in VL.V2_GROUPS and v["_group"] != "reject"]
        self.type_fory = check_peer.make_type_forys(v1)
        self.ref_fory = check_peer.make_ref_forys(v1)
        self.fory_cache = {}
        self.alias_cache = {}
        self.v2_cache = {}

    def listing(self):
        keys = {}
        types = {}
        out = []
        for v in self.vectors:
            key = None
            if "_types" in v:
                key = keys.get(id(v["_types"]))
                if key is None:
                    key = "{}#{}".format(v["_group"], len(keys))
                    keys[id(v["_types"])] = key
                    types[key] = VL.wire_types(v["_type_defs"])
            entry = VL.vector_requests(v, key)
            for r in entry["requests"]:
                r.pop("types", None)  # the runner puts them back from "types"
            out.append(entry)
        return {"types": types, "vectors": out}

    def _alias_fory(self, vec, names):
        key = (id(vec["_types"]), tuple(names))
        if key not in self.alias_cache:
            self.alias_cache[key] = vec["_types"].make_fory_with(vec["settings"], names)
        return self.alias_cache[key]

    def forys(self, vec):
        if VL.is_ref_vector(vec):
            return self.ref_fory[check_peer.ref_fory_key(vec)], None
        if "_types" in vec and "writer_type" in vec:
            return self._alias_fory(vec, vec["writer_registers"]), self._alias_fory(vec, vec["reader_registers"])
        if "_types" in vec:
            return self.type_fory[check_peer.type_fory_key(vec)], None
        key = repr(sorted(vec["settings"].items()))
        if key not in self.fory_cache:
            self.fory_cache[key] = VL.make_fory(vec["settings"])
        return self.fory_cache[key], None

    def check_bytes(self, vec, hex_text, buffers=None):
        try:
            data = bytes.fromhex(hex_text)
            buffers = None if buffers is None else [bytes.fromhex(b) for b in buffers]
        except (TypeError, ValueError, AttributeError) as exc:
            return ["the answer's hex is not hex: {}".format(exc)]
        if vec["_group"] in VL.V2_GROUPS:
            try:
                return self.check_v2_bytes(vec, data, buffers)
            except Exception as exc:  # noqa: BLE001 - pyfory's refusal is the testee's failure
                return ["pyfory could not read the bytes: {}: {}".format(type(exc).__name__, exc)]
        fory, reader = self.forys(vec)
        return check_peer.check_entry(vec, data, fory, True, reader)

    # -- the groups of protocol version 2 ------------------------------------------------

    def v2_fory(self, vec):
        """(fory, plain): the Fory that reads a vector's bytes, and for unions and extension
        types the generator's function that turns what pyfory read into the plain form."""
        group = vec["_group"]
        key = (group, bool(vec.get("registered_by_name")), json.dumps(vec.get("settings"), sort_keys=True))
        if key not in self.v2_cache:
            plain = None
            if group in ("union", "ext"):
                gen = importlib.import_module("generators." + group)
                fory = gen.make_fory(vec["settings"], gen.classes(), vec["registered_by_name"])
                plain = gen.plain
            elif group == "oob":
                fory = vec["_types"].make_fory(vec["settings"])
            else:
                fory = VL.make_fory(vec["settings"])
            self.v2_cache[key] = (fory, plain)
        return self.v2_cache[key]

    def check_v2_bytes(self, vec, data, buffers):
        group = vec["_group"]
        if group == "rows":
            from generators import rows

            got = rows.decode_node(vec["schema"], data)
            return row_diff(vec["value"], got)
        if group == "oob":
            return self.check_oob_bytes(vec, data, buffers)
        if buffers is not None:
            return ["buffers in the answer to a vector without out-of-band buffers"]
        fory, plain = self.v2_fory(vec)
        value, unread = VL.deserialize_all(fory, data)
        problems = ["{} trailing bytes after the root value".format(unread)] if unread else []
        if group == "decimal":
            from generators import decimal

            got = decimal.value_of(value)
            if got != vec["plain"]:
                problems.append("pyfory read {}, expected {}".format(got, vec["plain"]))
            problems.extend("wire check: " + p for p in decimal_wire_problems(data, vec["plain"]))
        else:
            got = plain(value)
            if got != vec["plain"]:
                problems.append("pyfory read {}, expected {}".format(VL.short_repr(got, 200), VL.short_repr(vec["plain"], 200)))
        return problems

    def check_oob_bytes(self, vec, data, buffers):
        if buffers is None:
            return ["an out-of-band vector needs \"buffers\" beside \"hex\" in the answer"]
        import pyfory

        fory, _ = self.v2_fory(vec)
        types = vec["_types"]
        settings = vec["settings"]
        buf = pyfory.Buffer(data)
        value = fory.deserialize(buf, buffers=buffers)
        unread = len(data) - buf.get_reader_index()
        problems = ["{} trailing bytes after the root value".format(unread)] if unread else []
        if settings["ref"]:
            problems.extend(VL.compare_ref_graph(vec["value"], value, types, strict=True))
        else:
            problems.extend(VL.compare(vec["value"], value, types=types))
        try:
            node, _ = VL.decode_stream(data, vec["schema"], types, settings["compatible"], settings["ref"],
                                       buffers=buffers)
        except (VL.WireError, VL.VectorError) as exc:
            problems.append("wire check: {}".format(exc))
        else:
            diff = VL.ref_graph_diff if settings["ref"] else VL.nodes_equal_wire
            problems.extend("wire check: " + d for d in diff(vec["value"], node))
        return problems

    def check_decode(self, vec, node):
        group = vec["_group"]
        if group == "reject":
            return ["a reader MUST refuse this stream ({}: {}); the testee decoded a value".format(
                vec["rule"], vec["why"])]
        if group in ("union", "ext", "decimal"):
            try:
                return VL.value_diff(vec["value"], node)
            except Exception as exc:  # noqa: BLE001 - a malformed node is the testee's failure
                return [node_problem(exc)]
        if group == "rows":
            return row_diff(vec["value"], node)
        types = vec.get("_types")
        expected = vec.get("expected", vec["value"]) if "reader_type" in vec else vec["value"]
        if "reader_type" in vec and vec.get("expected_error"):
            return ["the vector expects an error ({}), the testee decoded a value".format(vec.get("error"))]
        if VL.is_ref_vector(vec):
            # the node of another port may number ref ids its own way; the graph must match
            problems = VL.ref_node_errors(node) if isinstance(node, dict) else ["the value is not a node"]
            if problems:
                return ["bad node: " + p for p in problems]
            try:
                actual = VL.ref_node_to_py(node, types)
            except Exception as exc:  # noqa: BLE001 - a malformed node is the testee's failure
                return [node_problem(exc)]
            return VL.compare_ref_graph(expected, actual, types, strict=True)
        try:
            actual = VL.node_to_py(node, types)
        except Exception as exc:  # noqa: BLE001
            return [node_problem(exc)]
        return VL.compare(expected, actual, types=types)


def node_problem(exc):
    """What is wrong with a testee's node, in the runner's words: the message of our own node
    checks, and for any other failure only that the node does not have a value node's shape
    (a Python exception's text would describe this script, not the node)."""
    if isinstance(exc, (VL.NodeError, VL.VectorError)):
        return "the node is not valid: {}".format(exc)
    return ("the node does not have the shape of a value node (conformance/README.md, "
            "\"Value nodes\", and the nodes of PROTOCOL.md)")


def row_diff(expected, got, path="$"):
    """Differences between two row values (plain JSON shaped by the row schema: README,
    "Row-format vectors"); map entries and list elements in order."""
    if isinstance(expected, dict):
        if not isinstance(got, dict):
            return ["{}: expected a struct, got {}".format(path, VL.short_repr(got))]
        out = ["{}.{}: missing".format(path, k) for k in expected if k not in got]
        out += ["{}.{}: not in the schema".format(path, k) for k in got if k not in expected]
        for k, v in expected.items():
            if k in got:
                out += row_diff(v, got[k], "{}.{}".format(path, k))
        return out
    if isinstance(expected, list):
        if not isinstance(got, list) or len(got) != len(expected):
            return ["{}: expected {} elements, got {}".format(path, len(expected), VL.short_repr(got))]
        out = []
        for i, (e, g) in enumerate(zip(expected, got)):
            out += row_diff(e, g, "{}[{}]".format(path, i))
        return out
    if type(expected) is not type(got) or expected != got:
        return ["{}: expected {}, got {}".format(path, VL.short_repr(expected), VL.short_repr(got))]
    return []


def decimal_wire_problems(data, plain):
    """Our own reading of a DECIMAL root (spec: scale as a zigzag varint32, then the small
    form zigzag(unscaled) << 1 or the big form len << 2 | negative << 1 | 1 and the
    little-endian magnitude)."""
    r = VL.ByteReader(data)
    try:
        head = (r.u8(), r.u8(), r.u8())
        if head != (0x01, 0xFF, VL.wire_type_id("DECIMAL")):
            return ["the stream does not start 01 ff 28 (a non-null DECIMAL root): {}".format(data[:3].hex())]
        scale = r.unzigzag(r.var_uint32())
        header = r.var_uint64()
        if header & 1 == 0:
            unscaled = r.unzigzag(header >> 1)
        else:
            magnitude = int.from_bytes(r.take(header >> 2), "little")
            unscaled = -magnitude if header & 2 else magnitude
    except (VL.WireError, VL.VectorError) as exc:
        return [str(exc)]
    problems = []
    if r.pos != len(data):
        problems.append("{} trailing bytes".format(len(data) - r.pos))
    if (str(unscaled), scale) != (plain["unscaled"], plain["scale"]):
        problems.append("the bytes hold {}e-{}, expected {}e-{}".format(unscaled, scale, plain["unscaled"], plain["scale"]))
    return problems


def main():
    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    ref = None
    while True:
        msg = VL.read_message(stdin)
        if msg is None or msg.get("op") == "shutdown":
            return 0
        op = msg.get("op")
        try:
            if op == "list":
                ref = Reference(msg["dirs"])
                answer = ref.listing()
            elif op in ("check_decode", "check_bytes"):
                vec = ref.by_name.get(msg.get("name")) if ref else None
                if vec is None:
                    answer = {"problems": ["no vector named {!r}".format(msg.get("name"))]}
                elif op == "check_decode":
                    answer = {"problems": ref.check_decode(vec, msg.get("value"))}
                else:
                    answer = {"problems": ref.check_bytes(vec, msg.get("hex"), msg.get("buffers"))}
            else:
                answer = {"error": "unknown op {!r}".format(op)}
        except (OSError, ValueError, KeyError, VL.VectorError) as exc:
            answer = {"error": "{}: {}".format(type(exc).__name__, exc)}
        VL.write_message(stdout, answer)


if __name__ == "__main__":
    sys.exit(main())
