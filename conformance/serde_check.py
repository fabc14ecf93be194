"""The live check of fury::serde against pyfory 1.7.7 (issue 31 item 3).

The Rust side (fury-rs/examples/serde_check.rs) is a model that derives only serde's traits,
registered with `register_serde_by_id` / `_by_name` and read and written through
`fury::serde::Serde`; the dataclasses below mirror it, with the same ids and names. For each
mode (compatible and same-schema, no reference tracking), pyfory writes every value below, the
Rust example reads each into its serde type and writes it back, and pyfory reads those bytes:
the value must equal the one written. The Rust side also prints the value it read as JSON
(serde_json), compared with the value's JSON form here, so a value it misread fails even if
the bytes it wrote are pyfory's. The bytes must also be identical to pyfory's, except
for the values listed in BYTE_DIFFERENCES with the reason.

Enums with data are tagged unions (a pyfory ``Union`` with its case structs, declared as
conformance/generators/union.py declares them); tuple and newtype structs are structs with
fields _0, _1, ...

Usage: python conformance/serde_check.py target/debug/examples/serde_check
"""

import dataclasses
import enum
import json
import subprocess
import sys
import types
import typing

from generators.union import case_struct_id


def model_classes():
    """The mirrors of serde_check.rs: Python types chosen for the Rust mapping (i32 -> Int32,
    the varint; i64 -> int; u64 -> UInt64, the varint; f64 -> float; Vec<i32> -> Int32Array;
    Vec<u8> -> bytes)."""
    import pyfory
    from pyfory.annotation import Int32
    from pyfory.serialization import Int32Array
    from pyfory.union import Union, UnionSerializer

    class Status(enum.Enum):
        Draft = 0
        Active = 1
        Archived = 2

    @dataclasses.dataclass
    class Item:
        sku: str
        qty: Int32
        price: float

    # Page<Item> on the Rust side, with #[serde(rename_all = "camelCase")]
    @dataclasses.dataclass
    class Page:
        pageNo: Int32
        items: typing.List[Item]
        nextCursor: typing.Optional[str] = None

    @dataclasses.dataclass
    class UserId:  # struct UserId(u64)
        _0: pyfory.UInt64

    @dataclasses.dataclass
    class Point:  # struct Point(i32, i32)
        _0: Int32
        _1: Int32

    # the case structs of Event's struct and tuple variants
    @dataclasses.dataclass
    class EventMoved:
        origin: str
        dest: str
        hops: Int32

    @dataclasses.dataclass
    class EventAt:
        _0: Int32
        _1: Int32

    class Event(Union):
        CASES = {1: Item, 2: str, 3: EventMoved, 4: EventAt, 5: str}
        VARIANTS = {1: "Shipped", 2: "Note", 3: "Moved", 4: "At", 5: "Closed"}

        @classmethod
        def _from_case_id(cls, case_id, value):
            return cls(case_id, value)

        def __eq__(self, other):
            return isinstance(other, Event) and (self.case_id(), self.value()) == (other.case_id(), other.value())

        def __repr__(self):
            return f"Event({self.case_id()}, {self.value()!r})"

    class EventSerializer(UnionSerializer):
        def __init__(self, type_resolver):
            super().__init__(type_resolver, Event, dict(Event.CASES))

    @dataclasses.dataclass
    class Model:
        name: str
        ident: int  # `id` with #[serde(rename = "ident")]
        active: bool
        counts: typing.Dict[str, int]
        sorted: typing.Dict[Int32, str]
        tags: typing.List[str]
        numbers: Int32Array
        data: bytes
        items: typing.List[Item]
        status: Status
        page: Page
        event: Event
        events: typing.List[Event]
        user: UserId
        at: Point
        best: typing.Optional[Item] = None
        total: typing.Optional[int] = None
        maybe_event: typing.Optional[Event] = pyfory.field(default=None, nullable=True)

    return types.SimpleNamespace(Status=Status, Item=Item, Page=Page, UserId=UserId, Point=Point,
                                 EventMoved=EventMoved, EventAt=EventAt, Event=Event,
                                 EventSerializer=EventSerializer, Model=Model, Int32Array=Int32Array)


# serde_check.rs registers Event by this id; its case structs get case_struct_id(EVENT_ID, variant)
EVENT_ID = 306


def register(fory, c):
    fory.register_type(c.Status, type_id=301)
    fory.register_type(c.Item, type_id=302)
    fory.register_type(c.Page, name="check.serde.Page")
    fory.register_type(c.UserId, type_id=304)
    fory.register_type(c.Point, type_id=305)
    fory.register_union(c.Event, type_id=EVENT_ID, serializer=c.EventSerializer(fory.type_resolver))
    fory.register_type(c.EventMoved, type_id=case_struct_id(EVENT_ID, "Moved"))
    fory.register_type(c.EventAt, type_id=case_struct_id(EVENT_ID, "At"))
    fory.register_type(c.Model, type_id=303)


def values(c):
    """(Rust type name, value) pairs: every field with and without its optional parts, empty
    collections, and every variant of Event as a root, a field, a list element and an option."""
    Status, Item, Page, Model, Int32Array, Event = c.Status, c.Item, c.Page, c.Model, c.Int32Array, c.Event
    tea = Item(sku="tea", qty=2, price=3.5)
    shipped = Event(1, Item(sku="crate", qty=4, price=12.5))
    note = Event(2, "left at the door")
    moved = Event(3, c.EventMoved(origin="north", dest="south", hops=-3))
    at = Event(4, c.EventAt(_0=7, _1=-(2**31)))
    closed = Event(5, None)
    out = [
        ("Item", Item(sku="", qty=-(2**31), price=-0.0)),
        ("Item", Item(sku="mug ✓", qty=2**31 - 1, price=1e300)),
        ("Page", Page(pageNo=0, items=[])),
        ("Page", Page(pageNo=7, items=[Item(sku="a", qty=1, price=0.5), Item(sku="b", qty=-1, price=2.0)],
                      nextCursor="c-8")),
        ("Event", shipped),
        ("Event", note),
        ("Event", Event(2, "")),
        ("Event", moved),
        ("Event", at),
        ("Event", closed),
        ("UserId", c.UserId(2**64 - 1)),
        ("Point", c.Point(-1, 2**31 - 1)),
        (
            "Model",
            Model(
                name="full", ident=-(2**40), active=True, counts={"apples": 3}, sorted={-5: "minus", 0: "zero", 9: "nine"},
                tags=["x", "", "zé"], numbers=Int32Array([1, -2, 300000, -(2**31)]), data=b"\x00\x01\xff",
                items=[Item(sku="s1", qty=1, price=0.25), Item(sku="s2", qty=-70000, price=-9.75)],
                status=Status.Archived, page=Page(pageNo=2, items=[Item(sku="p", qty=3, price=1.0)], nextCursor="n"),
                event=shipped, events=[shipped, note, moved, at, closed], user=c.UserId(2**63),
                at=c.Point(3, -4), best=Item(sku="best", qty=99, price=9.99), total=2**62, maybe_event=moved,
            ),
        ),
        (
            "Model",
            Model(
                name="", ident=0, active=False, counts={}, sorted={}, tags=[], numbers=Int32Array([]), data=b"",
                items=[], status=Status.Draft, page=Page(pageNo=0, items=[]), event=closed, events=[],
                user=c.UserId(0), at=c.Point(0, 0),
            ),
        ),
        (
            "Model",
            Model(
                name="some", ident=1, active=True, counts={"k": -1}, sorted={1: "one"}, tags=["only"],
                numbers=Int32Array([0]), data=b"\x7f", items=[tea], status=Status.Active,
                page=Page(pageNo=1, items=[], nextCursor=""), event=note, events=[closed], user=c.UserId(1),
                at=c.Point(-(2**31), 2**31 - 1), best=None, total=-1, maybe_event=closed,
            ),
        ),
        (
            "Model",
            Model(
                name="many counts", ident=5, active=False, counts={"a": 1, "b": 2, "c": 3, "d": 4}, sorted={},
                tags=[], numbers=Int32Array([]), data=b"", items=[], status=Status.Active, page=Page(pageNo=0, items=[]),
                event=at, events=[moved, moved], user=c.UserId(300), at=c.Point(1, 1),
                best=Item(sku="", qty=0, price=0.0), total=None, maybe_event=shipped,
            ),
        ),
    ]
    return out


def as_json(v):
    """The value as serde_json writes the Rust model (unit variant -> its name, variant with
    data -> {name: data}, newtype struct -> its value, tuple struct -> list, bytes and arrays
    -> lists of numbers, map keys -> strings)."""
    from pyfory.union import Union

    if isinstance(v, Union):
        name = type(v).VARIANTS[v.case_id()]
        return name if v.value() is None else {name: as_json(v.value())}
    if dataclasses.is_dataclass(v):
        names = [f.name for f in dataclasses.fields(v)]
        if names == [f"_{i}" for i in range(len(names))]:
            parts = [as_json(getattr(v, n)) for n in names]
            return parts[0] if len(parts) == 1 else parts
        return {n: as_json(getattr(v, n)) for n in names}
    if isinstance(v, enum.Enum):
        return v.name
    if isinstance(v, dict):
        return {str(k): as_json(x) for k, x in v.items()}
    if isinstance(v, (list, bytes)) or type(v).__name__ == "Int32Array":
        return [as_json(x) for x in v]
    return v


# The values whose bytes differ from pyfory's although both sides read each other's: "type #n"
# (the n-th value of that type, from 0) -> (reason, always). An unlisted difference fails; so
# does a value listed as always different whose bytes have become identical.
UTF8 = "pyfory writes a string that is not ASCII as LATIN1 or UTF-16, fury-rs as UTF-8 (both read all three)"
BYTE_DIFFERENCES = {
    "Item #1": (UTF8 + ": 'mug ✓' (UTF-16)", True),
    "Model #0": (UTF8 + ": 'zé' (LATIN1)", True),
    # a HashMap's order is its hash order, so the bytes may also come out equal
    "Model #3": ("several HashMap entries: fury-rs writes the HashMap's order, pyfory the dict's", False),
}


def known_difference(mode, ty, n):
    key = f"{ty} #{n}"
    return BYTE_DIFFERENCES.get(f"{mode} {key}") or BYTE_DIFFERENCES.get(key)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    binary = sys.argv[1]
    import pyfory

    if pyfory.__version__ != "1.7.7":
        sys.exit(f"pyfory {pyfory.__version__}: this check is for pyfory 1.7.7")
    classes = model_classes()
    cases = values(classes)
    passed = failed = identical = 0
    for compatible in (True, False):
        fory = pyfory.Fory(xlang=True, ref=False, compatible=compatible)
        register(fory, classes)
        mode = "compatible" if compatible else "same-schema"
        sent = [fory.serialize(v).hex() for _, v in cases]
        proc = subprocess.run(
            [binary, "--compatible", "true" if compatible else "false"],
            input="".join(f"{ty} {h}\n" for (ty, _), h in zip(cases, sent)),
            capture_output=True, text=True, timeout=120,
        )
        if proc.returncode != 0:
            print(proc.stderr)
            sys.exit(f"{binary} failed with exit code {proc.returncode}")
        answers = proc.stdout.splitlines()
        if len(answers) != len(cases):
            sys.exit(f"{binary} answered {len(answers)} lines for {len(cases)} values")
        seen = {}
        mode_passed = mode_identical = 0
        for (ty, v), ours, answer in zip(cases, sent, answers):
            n = seen[ty] = seen.get(ty, -1) + 1
            known = known_difference(mode, ty, n)
            got_ty, _, rest = answer.partition(" ")
            payload, _, rust_json = rest.partition(" ")
            where = f"[{mode}] {ty} #{n} {v!r}"
            if got_ty != ty or payload.startswith("ERROR"):
                print(f"FAIL {where}: fury-rs could not read pyfory's bytes {ours}: {rest}")
                failed += 1
                continue
            if json.loads(rust_json) != as_json(v):
                print(f"FAIL {where}: fury-rs read {rust_json}")
                failed += 1
                continue
            try:
                back = fory.deserialize(bytes.fromhex(payload))
            except Exception as e:  # noqa: BLE001 - every failure is reported with its value
                print(f"FAIL {where}: pyfory could not read fury-rs's bytes {payload}: {e!r}")
                failed += 1
                continue
            if back != v:
                print(f"FAIL {where}: pyfory read back {back!r}")
                failed += 1
                continue
            same = payload == ours
            if not same and not known:
                print(f"FAIL {where}: fury-rs wrote\n  {payload}\n pyfory wrote\n  {ours}")
                failed += 1
                continue
            if same and known and known[1]:
                print(f"FAIL {where}: now byte-identical; remove it from BYTE_DIFFERENCES ({known[0]})")
                failed += 1
                continue
            mode_identical += same
            mode_passed += 1
        print(f"{mode}: {mode_passed} of {len(cases)} values read both ways, {mode_identical} byte-identical "
              f"to pyfory's")
        passed += mode_passed
        identical += mode_identical
    print(f"{identical} of {passed} values byte-identical (the others: BYTE_DIFFERENCES); "
          f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
