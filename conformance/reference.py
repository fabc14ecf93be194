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
* {"op": "check_bytes", "name": N, "hex": H} -> {"problems": [...]}: pyfory
  1.7.7 decodes the bytes to the vector's value, the independent wire
  decoder agrees on every wire kind (check_peer.check_entry; for evolution
  vectors pyfory's reader must also give "expected").
* {"op": "shutdown"} -> exits.
"""

import os
import sys

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
        self.type_fory = check_peer.make_type_forys(self.vectors)
        self.ref_fory = check_peer.make_ref_forys(self.vectors)
        self.fory_cache = {}
        self.alias_cache = {}

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
            return self.type_fory[id(vec["_types"])], None
        key = repr(sorted(vec["settings"].items()))
        if key not in self.fory_cache:
            self.fory_cache[key] = VL.make_fory(vec["settings"])
        return self.fory_cache[key], None

    def check_bytes(self, vec, hex_text):
        try:
            data = bytes.fromhex(hex_text)
        except (TypeError, ValueError) as exc:
            return ["the answer's hex is not hex: {}".format(exc)]
        fory, reader = self.forys(vec)
        return check_peer.check_entry(vec, data, fory, True, reader)

    def check_decode(self, vec, node):
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
                return ["cannot read the node: {}: {}".format(type(exc).__name__, exc)]
            return VL.compare_ref_graph(expected, actual, types, strict=True)
        try:
            actual = VL.node_to_py(node, types)
        except Exception as exc:  # noqa: BLE001
            return ["cannot read the node: {}: {}".format(type(exc).__name__, exc)]
        return VL.compare(expected, actual, types=types)


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
                    answer = {"problems": ref.check_bytes(vec, msg.get("hex"))}
            else:
                answer = {"error": "unknown op {!r}".format(op)}
        except (OSError, ValueError, KeyError, VL.VectorError) as exc:
            answer = {"error": "{}: {}".format(type(exc).__name__, exc)}
        VL.write_message(stdout, answer)


if __name__ == "__main__":
    sys.exit(main())
