#!/usr/bin/env python3
"""pyfory 1.7.7 as a testee of `fury-conformance run` (conformance/PROTOCOL.md).

pyfory does the decoding and the encoding; vectorlib only turns nodes into
Python values (node_to_py, as check_peer.py does) and decoded Python values
back into nodes.  Struct and enum classes are built from the request's
"types" (vectorlib.TypeTable) and registered as "register" says.

    python conformance/testee_pyfory.py
"""

import dataclasses
import datetime
import enum
import json
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import vectorlib as VL  # noqa: E402

# roots pyfory cannot write from a plain Python value: written as the annotated type
_NATIVE_ROOTS = {"bool", "varint64", "float64"}


class Testee:
    def __init__(self):
        self.tables = {}
        self.forys = {}

    def table(self, req):
        key = req.get("types_key")
        if key is None:
            return None
        if key not in self.tables:
            self.tables[key] = VL.TypeTable(req["types"])
        return self.tables[key]

    def fory(self, req, table):
        s = req["settings"]
        key = (req.get("types_key"), tuple(req.get("register") or ()), s["xlang"], s["ref"], s["compatible"])
        if key not in self.forys:
            if table is None:
                self.forys[key] = VL.make_fory(s)
            else:
                aliases = [n for n in req.get("register") or () if table.is_alias(n)]
                self.forys[key] = table.make_fory_with(s, aliases)
        return self.forys[key]

    def handle(self, req):
        if req.get("protocol") not in (VL.PROTOCOL_VERSION, VL.PROTOCOL_VERSION_2):
            return {"error": "unknown protocol {!r}".format(req.get("protocol"))}
        if req.get("format", "xlang") == "row":
            return self.handle_row(req)
        if req.get("format", "xlang") != "xlang":
            return {"error": "unknown format {!r}".format(req.get("format"))}
        if uses_kinds(req):
            return self.handle_kinds(req)
        table = self.table(req)
        fory = self.fory(req, table)
        op = req["op"]
        if req["settings"].get("out_of_band"):
            return self.handle_oob(req, fory, table)
        if op == "encode":
            value = (VL.ref_node_to_py if req["settings"]["ref"] else VL.node_to_py)(req["value"], table)
            return {"hex": self.write(fory, req["schema"], value).hex()}
        value, unread = VL.deserialize_all(fory, bytes.fromhex(req["hex"]))
        if unread:
            return {"error": "{} bytes left after the root value".format(unread)}
        if op == "decode":
            return {"value": to_node(value, table, {} if req["settings"]["ref"] else None)}
        if op == "roundtrip":
            return {"hex": self.write(fory, req["schema"], value).hex()}
        return {"error": "unknown op {!r}".format(op)}

    def handle_oob(self, req, fory, table):
        import pyfory

        op = req["op"]
        ref = req["settings"]["ref"]
        if op in ("decode", "roundtrip"):
            data = bytes.fromhex(req["hex"])
            buf = pyfory.Buffer(data)
            value = fory.deserialize(buf, buffers=[bytes.fromhex(b) for b in req["buffers"]])
            if buf.get_reader_index() != len(data):
                return {"error": "{} bytes left after the root value".format(len(data) - buf.get_reader_index())}
            if op == "decode":
                return {"value": to_node(value, table, {} if ref else None)}
        else:
            value = (VL.ref_node_to_py if ref else VL.node_to_py)(req["value"], table)
        answers = iter(req["in_band"])
        buffers = []

        def callback(obj):
            keep = next(answers)  # StopIteration: more BINARY values than answers, an error
            if not keep:
                buffers.append(bytes(obj.raw()))
            return keep

        data = fory.serialize(value, buffer_callback=callback)
        return {"hex": bytes(data).hex(), "buffers": [b.hex() for b in buffers]}

    def handle_kinds(self, req):
        key = ("kinds", req.get("types_key"), json.dumps(req["settings"], sort_keys=True))
        if key not in self.forys:
            table = VL.KindTable(req.get("types") or [])
            fory = VL.make_fory(req["settings"])
            table.register(fory)
            self.forys[key] = (table, fory)
        table, fory = self.forys[key]
        op = req["op"]
        if op == "encode":
            return {"hex": bytes(fory.serialize(table.node_to_py(req["value"]))).hex()}
        value, unread = VL.deserialize_all(fory, bytes.fromhex(req["hex"]))
        if unread:
            return {"error": "{} bytes left after the root value".format(unread)}
        if op == "decode":
            return {"value": table.py_to_node(value)}
        return {"hex": bytes(fory.serialize(value)).hex()}

    @staticmethod
    def handle_row(req):
        from generators import rows

        schema = req["row_schema"]
        to_row, _ = VL.row_encoder_for(schema)
        op = req["op"]
        if op == "decode":
            return {"value": rows.decode_node(schema, bytes.fromhex(req["hex"]))}
        if op == "encode":
            value = VL.row_value_from_node({"struct": schema}, req["value"])
        else:
            node = rows.decode_node(schema, bytes.fromhex(req["hex"]))
            value = VL.row_value_from_node({"struct": schema}, node)
        # pyfory leaves the slots of nulls as the memory was; they are zeroed, as the spec asks
        return {"hex": VL.row_zero_null_slots(schema, to_row(value).to_bytes())[0].hex()}

    @staticmethod
    def write(fory, schema, value):
        if schema not in _NATIVE_ROOTS and (schema in VL.INT_RANGES or schema in VL.FLOAT_HEX_WIDTH):
            return VL.write_typed_root(fory, schema, value)
        return fory.serialize(value)


_TRACKED = (list, dict, set, str, bytes, datetime.date, datetime.timedelta)


def uses_kinds(req):
    """A request of unions, extension types or decimals (vectorlib.KindTable)."""
    if any(d.get("kind") in ("union", "ext") for d in req.get("types") or ()):
        return True
    return "decimal" in req.get("schema", "")


def to_node(value, table, refs):
    """The node of a value pyfory decoded; with ``refs`` (a dict), every list, set,
    map and struct gets a "ref_id" and a second sighting is a "ref" node."""
    # what pyfory's ref=True tracks by identity (small ints and bools are shared by Python
    # itself, so they are never references)
    mutable = isinstance(value, _TRACKED) or dataclasses.is_dataclass(value)
    if refs is not None and mutable:
        if id(value) in refs:
            return {"type": "ref", "id": refs[id(value)][0]}
        refs[id(value)] = (len(refs), value)  # keep the object alive while its id is in use
    if isinstance(value, enum.Enum) or dataclasses.is_dataclass(value):
        name = next(n for n, c in table.python_classes().items() if c is type(value))
        if isinstance(value, enum.Enum):
            node = {"type": "enum", "name": name, "variant": value.name, "id": table.variant_id(name, value.name)}
        else:
            node = {"type": "struct", "name": name, "fields": {
                f.name: to_node(getattr(value, f.name), table, refs) for f in dataclasses.fields(value)}}
    elif isinstance(value, (list, tuple)):
        node = {"type": "list", "items": [to_node(x, table, refs) for x in value]}
    elif isinstance(value, (set, frozenset)):
        node = {"type": "set", "items": [to_node(x, table, refs) for x in value]}
    elif isinstance(value, dict):
        node = {"type": "map", "entries": [[to_node(k, table, refs), to_node(v, table, refs)] for k, v in value.items()]}
    elif type(value) is int and value > (1 << 63) - 1:
        node = {"type": "var_uint64", "value": str(value)}  # beyond py_to_node's int64
    else:
        node = VL.py_to_node(value)
    if refs is not None and mutable:
        node["ref_id"] = refs[id(value)][0]
    return node


def main():
    if os.environ.get("PYTHONHASHSEED") != "0" or os.environ.get("TZ") != "UTC":
        # set iteration order (and so the bytes of sets of strings) as when the vectors were
        # made; pyfory.format reads timestamps as local times, and the rows were made in UTC
        os.execve(sys.executable, [sys.executable] + sys.argv, dict(os.environ, PYTHONHASHSEED="0", TZ="UTC"))
    VL.require_pyfory()
    testee = Testee()
    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    while True:
        req = VL.read_message(stdin)
        if req is None or req.get("op") == "shutdown":
            return 0
        try:
            answer = testee.handle(req)
        except Exception as exc:  # noqa: BLE001 - pyfory's refusal is an answer
            answer = {"error": "{}: {}".format(type(exc).__name__, exc)}
        VL.write_message(stdout, answer)


if __name__ == "__main__":
    sys.exit(main())
