#!/usr/bin/env python3
"""pyfory 1.7.7's side of benches/examples/gamestate_fields.rs (spec/DISAGREEMENTS.md, 49).

Prints, for each field of GameState's Entity and for the whole Entity, the bytes pyfory
writes for a one-field dataclass registered as type_id=126 (EntityKind as 125), in
same-schema and compatible mode, with pyfory's fingerprint and hash. With --read, it reads
the Rust example's output on stdin, compares fury-rs's bytes with pyfory's and tries
pyfory's reader on the official crate's bytes:

    python benches/scripts/gamestate_fields.py
    cargo run -q -p fury-benches --example gamestate_fields | python benches/scripts/gamestate_fields.py --read

The Python types are the ones pyfory declares for the Rust fields as fury-rs maps them
(spec 06 and conformance/generators/rust_mirrors.py): u64 -> UInt64 (VAR_UINT64), u32 -> UInt32
(VAR_UINT32), (f32, f32) -> Tuple[Float32, Float32], [u32; 4] -> UInt32Array,
Vec<bool> -> BoolArray, Vec<u16> -> UInt16Array, Vec<Vec<u16>> -> List[UInt16Array].
"""

import dataclasses
import enum
import re
import sys
import typing

import pyfory
from pyfory import annotation as A
from pyfory import serialization as S
from pyfory.struct import compute_struct_fingerprint


class EntityKind(enum.Enum):
    Player = 0
    Monster = 1
    Projectile = 2
    Item = 3


# field -> (annotation, the value of benches/examples/gamestate_fields.rs)
FIELDS = {
    "id": (A.UInt64, 1_000_007),
    "kind": (EntityKind, EntityKind.Monster),
    "position": (typing.Tuple[A.Float32, A.Float32], (1.5, -2.0)),
    "velocity": (typing.Tuple[A.Float32, A.Float32], (0.25, 0.5)),
    "ids": (S.UInt32Array, S.UInt32Array([1, 3, 77, 2**32 - 2])),
    "health": (typing.Optional[A.UInt32], 101),
    "target": (typing.Optional[A.UInt64], None),
    "flags": (S.BoolArray, S.BoolArray([False, True])),
    "inventory": (S.UInt16Array, S.UInt16Array([31, 38, 45])),
    "path": (typing.List[S.UInt16Array], [S.UInt16Array([6, 7, 8])]),
}
# the one-field structs of the Rust example (velocity is only in the whole Entity)
SINGLE = ["id", "kind", "position", "ids", "health", "target", "flags", "inventory", "path"]


def fory_for(names, compatible):
    cls = dataclasses.make_dataclass("Entity", [(n, FIELDS[n][0]) for n in names])
    f = pyfory.Fory(xlang=True, ref=False, compatible=compatible)
    f.register_type(EntityKind, type_id=125)
    f.register_type(cls, type_id=126)
    return f, cls, cls(**{n: FIELDS[n][1] for n in names})


def facts(f, cls):
    ser = f.type_resolver.get_type_info(cls).serializer
    if type(ser).__name__ == "DataClassStubSerializer":
        ser = ser._replace()
    fp = compute_struct_fingerprint(ser.type_resolver, ser._field_names, ser._serializers,
                                    ser._nullable_fields, ser._field_infos)
    return fp, int(ser._hash) & 0xFFFFFFFF


def cases():
    for name in SINGLE:
        yield name, [name]
    yield "Entity", list(FIELDS)


def show():
    for label, names in cases():
        for compatible in (False, True):
            f, cls, value = fory_for(names, compatible)
            data = f.serialize(value)
            print("{} ({})".format(label, "compatible" if compatible else "same-schema"))
            print("  pyfory   " + " ".join("%02x" % b for b in data))
            if not compatible:
                fp, h = facts(f, cls)
                print("  fingerprint {}  hash 0x{:08x}".format(fp, h))


def read_stdin():
    text = sys.stdin.read()
    ours = dict(re.findall(r"^(\w+ \([\w-]+\))\n  fury-rs  ([0-9a-f ]+)$", text, re.M))
    crate = dict(re.findall(r"^(\w+ \([\w-]+\))\n(?:  .*\n)*?  fory     ([0-9a-f ]+?)(?:  \(identical\))?$", text, re.M))
    for label, names in cases():
        for compatible in (False, True):
            key = "{} ({})".format(label, "compatible" if compatible else "same-schema")
            if key not in crate:
                continue
            f, cls, value = fory_for(names, compatible)
            try:
                got = f.deserialize(bytes.fromhex(crate[key].replace(" ", "")))
                outcome = "reads" if got == value else "another value: {!r}".format(got)
            except Exception as exc:  # noqa: BLE001
                outcome = "fails: {}: {}".format(type(exc).__name__, exc)
            same = bytes.fromhex(ours.get(key, "").replace(" ", "")) == f.serialize(value)
            print("{}: fury-rs writes pyfory's bytes: {}; pyfory reading fory's: {}".format(
                key, "yes" if same else "NO", outcome))


if __name__ == "__main__":
    read_stdin() if "--read" in sys.argv else show()
