#!/usr/bin/env python3
"""Print pyfory 1.7.7's streams for the values of the interop table's union, decimal, EXT
and ``Any`` rows (benches/src/interop_kinds.rs), in the layout of
``cargo run -p fury-benches --example interop_kinds``, to decide the rows where fury-rs and
the official crate ``fory`` 1.7.7 write different bytes (spec/DISAGREEMENTS.md).

    /work/main/.venv/bin/python conformance/examples/interop_kinds.py
"""

import dataclasses
import decimal
from typing import Any

import pyfory
from pyfory.serializer import Serializer
from pyfory.union import Union, UnionSerializer


@dataclasses.dataclass
class Pet:
    name: str = ""
    age: pyfory.Int32 = 0


class Shape(Union):
    CASES = {1: Pet, 2: str, 3: str}

    @classmethod
    def _from_case_id(cls, case_id, value):
        return cls(case_id, value)


class ShapeSerializer(UnionSerializer):
    def __init__(self, type_resolver):
        super().__init__(type_resolver, Shape, dict(Shape.CASES))


@dataclasses.dataclass
class Pen:
    shape: Shape = None
    note: str = ""


@dataclasses.dataclass
class Prices:
    small: decimal.Decimal = None
    negative: decimal.Decimal = None
    whole: decimal.Decimal = None
    big: decimal.Decimal = None


class Point3:
    def __init__(self, x, y, z):
        self.x, self.y, self.z = x, y, z


class Point3Serializer(Serializer):
    def write(self, write_context, value):
        write_context.write_varint32(value.x)
        write_context.write_varint32(value.y)
        write_context.write_varint32(value.z)

    def read(self, read_context):
        return Point3(read_context.read_varint32(), read_context.read_varint32(), read_context.read_varint32())

    xwrite = write
    xread = read


@dataclasses.dataclass
class Located:
    at: Point3 = None
    name: str = ""


@dataclasses.dataclass
class Holder:
    value: Any = None
    label: str = ""


def make_fory(compatible):
    f = pyfory.Fory(xlang=True, ref=False, compatible=compatible)
    f.register_type(Pet, type_id=210)
    f.register_union(Shape, type_id=211, serializer=ShapeSerializer(f.type_resolver))
    f.register_type(Pen, type_id=212)
    f.register_type(Prices, type_id=213)
    f.register_type(Point3, type_id=214, serializer=Point3Serializer(f.type_resolver, Point3))
    f.register_type(Located, type_id=215)
    f.register_type(Holder, type_id=216)
    return f


# What the official crate writes for the union's struct case (the flag 00 where pyfory writes
# ff; spec/DISAGREEMENTS.md, "The official Rust crate"): the root union in same-schema mode
# and the struct with the union field in compatible mode. pyfory must read both.
CRATE_UNION_STREAMS = [
    (False, "01ff22d30101001bd2018a1e1ec3061e726578f09f9095"),
    (True, "01ff1c000e4057eeb6ac5827c2d401481535d3204c21c8e07900166ef09f939d"
           "01001c020cc0f01bfd3c281ec2d201440500c44815340c20061e726578f09f90"
           "95"),
]


def main():
    # The values of benches/src/interop_kinds.rs (DECIMALS as decimal.Decimal text).
    decimals = ["123.45", "-98.765", "42", "12345678901234567.8901234567"]
    for compatible in (False, True):
        print("== compatible({})".format("true" if compatible else "false"))
        f = make_fory(compatible)
        shapes = [("Pet", Shape(1, Pet("rex\U0001f415", 3))), ("Label", Shape(2, "hello\U0001f30d")), ("Empty", Shape(3, None))]
        values = [(name, s) for name, s in shapes]
        values += [("Pen " + name, Pen(s, "n\U0001f4dd")) for name, s in shapes]
        for text in decimals:
            values.append(("Decimal " + text, decimal.Decimal(text)))
        values.append(("Prices", Prices(*[decimal.Decimal(t) for t in decimals])))
        p = Point3(3, -4, 300)
        values.append(("Point3", p))
        values.append(("Located", Located(p, "origin\U0001f4cd")))
        values.append(("AnyStruct", Holder(Pet("tom\U0001f408", 7), "l\U0001f3f7")))
        values.append(("AnyString", Holder("text\U0001f524", "l\U0001f3f7")))
        for name, v in values:
            data = bytes(f.serialize(v))
            print("{}\n  pyfory  {}".format(name, data.hex(" ")))
    for compatible, text in CRATE_UNION_STREAMS:
        back = make_fory(compatible).deserialize(bytes.fromhex(text))
        shape = back.shape if compatible else back
        if (shape.case_id(), shape.value()) != (1, Pet("rex\U0001f415", 3)):
            raise SystemExit("pyfory reads the crate's union stream as {!r}".format(back))
        print("pyfory reads the crate's union stream (compatible={}): {!r}".format(compatible, back))


if __name__ == "__main__":
    main()
