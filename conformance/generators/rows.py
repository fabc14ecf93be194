"""Write the row-format vectors (conformance/vectors/rows/rows.json) with pyfory 1.7.7's
``pyfory.format``, and check rows written by fury-rs with pyfory's ``from_row``.

Each vector is a row schema, a value and the bytes pyfory wrote for it
(``hex``).  A vector built from a dataclass ("inferred": true) is written by
``pyfory.format.encoder(cls).to_row(obj).to_bytes()``: its schema is the one
pyfory infers (fields in alphabetical order, ``int`` as int64), which must
print as the stored schema, and ``encoded_hex`` holds ``encode(obj)``: the
8-byte schema hash, then the same row.  The other vectors use an explicit
schema (``create_row_encoder``), for the types inference never gives (int8,
int16, int32, float32, more than 64 fields, lists of lists).

pyfory leaves the 8-byte slot of a null field (and the element of a null
array element) holding whatever the memory held; the spec leaves it
undefined.  The stored rows have those slots zeroed (what fury-rs and the
official crate write); every other byte is pyfory's, the same on every run.

Map entries are written in the dict's order; the vectors' dicts are in key
order, so a reader with a sorted map (a Rust BTreeMap) writes the same bytes.

Before a vector is stored it is confirmed: pyfory's ``from_row`` of the
bytes gives back the input's value node, and an inferred vector's explicit
encoder writes the same bytes as ``encoder(cls)``.  The script re-runs itself
with TZ=UTC (pyfory reads timestamps as local naive datetimes).

Usage:
    python conformance/generate.py rows            # (re)write vectors/rows/
    python conformance/generate.py --check rows    # compare with the files on disk
                                                       # ("fury-row-bytes/1", written by cargo test)
"""

import dataclasses
import datetime
import json
import os
import sys
import typing
import warnings


import vectorlib as VL  # noqa: E402

# pyfory.format warns about a Cython enum it cannot import; it does not affect the bytes.
warnings.filterwarnings("ignore", category=UserWarning)
warnings.filterwarnings("ignore", category=RuntimeWarning)


class _QuietStderr:
    """pyfory's ArrayData.__dealloc__ fails (AttributeError on `value_type`) after reading a
    list of lists and Cython prints that to file descriptor 2 itself; the value read is
    right. Around pyfory's reads only, descriptor 2 goes to /dev/null (exceptions still
    propagate as usual)."""

    def __enter__(self):
        sys.stderr.flush()
        self.saved = os.dup(2)
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 2)
        os.close(devnull)

    def __exit__(self, *exc):
        os.dup2(self.saved, 2)
        os.close(self.saved)
        return False

GROUP = "rows"
UTC = datetime.timezone.utc


def f(name, t):
    return {"name": name, "type": t}


def lst(t):
    return {"list": t}


def mp(k, v):
    return {"map": [k, v]}


def st(*fields):
    return {"struct": list(fields)}


# ---------------------------------------------------------------------------
# dataclasses whose schema pyfory infers
# ---------------------------------------------------------------------------


@dataclasses.dataclass
class Scalars:
    name: str
    id: int
    score: float
    active: bool
    payload: bytes
    born: datetime.date
    seen: datetime.datetime
    empty: str


SCALARS_SCHEMA = [
    f("active", "bool"), f("born", "date32"), f("empty", "string"), f("id", "int64"), f("name", "string"),
    f("payload", "binary"), f("score", "float64"), f("seen", "timestamp"),
]


@dataclasses.dataclass
class Point:
    y: int
    x: int
    label: typing.Optional[str]


POINT = [f("label", "string"), f("x", "int64"), f("y", "int64")]


@dataclasses.dataclass
class Shape:
    name: str
    origin: typing.Optional[Point]
    points: typing.List[Point]
    tags: typing.Dict[str, int]
    weights: typing.List[float]
    by_id: typing.Dict[int, Point]
    notes: typing.List[typing.Optional[str]]


SHAPE_SCHEMA = [
    f("by_id", mp("int64", st(*POINT))), f("name", "string"), f("notes", lst("string")), f("origin", st(*POINT)),
    f("points", lst(st(*POINT))), f("tags", mp("string", "int64")), f("weights", lst("float64")),
]


@dataclasses.dataclass
class Lists:
    ints: typing.List[int]
    strs: typing.List[str]
    blobs: typing.List[bytes]
    flags: typing.List[bool]
    days: typing.List[datetime.date]
    empty: typing.List[int]
    maybe: typing.List[typing.Optional[int]]


LISTS_SCHEMA = [
    f("blobs", lst("binary")), f("days", lst("date32")), f("empty", lst("int64")), f("flags", lst("bool")),
    f("ints", lst("int64")), f("maybe", lst("int64")), f("strs", lst("string")),
]


@dataclasses.dataclass
class Maps:
    counts: typing.Dict[str, int]
    names: typing.Dict[int, str]
    groups: typing.Dict[str, typing.List[int]]
    empty: typing.Dict[str, str]


MAPS_SCHEMA = [
    f("counts", mp("string", "int64")), f("empty", mp("string", "string")),
    f("groups", mp("string", lst("int64"))), f("names", mp("int64", "string")),
]


# The Rust model types without a row type of their own (spec/11-row-format.md §11.8):
# fury-rs widens u8/u16/u32 to int16/int32/int64, so the Python side of a Rust struct
# with them declares those (pyfory.Int16, pyfory.Int32, int); a tuple of one type is a
# list (pyfory infers Tuple[int, int] and Tuple[str, ...] as lists); SystemTime is a
# timestamp.
def rust_model():
    """The dataclass, built on first use (its annotations need pyfory)."""
    global _RUST_MODEL
    if _RUST_MODEL is None:
        import pyfory

        @dataclasses.dataclass
        class RustModel:
            small: pyfory.Int16
            mid: pyfory.Int32
            big: int
            maybe: typing.Optional[int]
            pair: typing.Tuple[int, int]
            names: typing.Tuple[str, ...]
            when: datetime.datetime
            day: datetime.date
            mids: typing.List[pyfory.Int32]

        _RUST_MODEL = RustModel
    return _RUST_MODEL


_RUST_MODEL = None

RUST_MODEL_SCHEMA = [
    f("big", "int64"), f("day", "date32"), f("maybe", "int64"), f("mid", "int32"), f("mids", lst("int32")),
    f("names", lst("string")), f("pair", lst("int64")), f("small", "int16"), f("when", "timestamp"),
]


def scalars_value():
    return Scalars(
        name="héllo, wörld ✓", id=-(2**62) - 5, score=-1.25e-3, active=True, payload=bytes(range(11)),
        born=datetime.date(1969, 7, 20), seen=datetime.datetime(2024, 2, 29, 23, 59, 58, 123456, tzinfo=UTC),
        empty="",
    )


VECTORS = [
    # name, schema, value, dataclass (inferred) or None
    ("row/scalars", SCALARS_SCHEMA, scalars_value, Scalars),
    ("row/scalars_nulls", SCALARS_SCHEMA,
     lambda: Scalars(name=None, id=7, score=None, active=None, payload=None, born=None, seen=None, empty="12345678"),
     Scalars),
    ("row/shape", SHAPE_SCHEMA, lambda: Shape(
        name="triangle", origin=Point(y=-1, x=2, label=None),
        points=[Point(y=0, x=0, label="a"), Point(y=1, x=5, label="bcdefghij"), None],
        tags={"": -2, "red": 1}, weights=[0.5, float("inf"), -0.0],
        by_id={-4: None, 3: Point(y=3, x=3, label="c")}, notes=["x", None, ""],
    ), Shape),
    ("row/shape_null_origin", SHAPE_SCHEMA, lambda: Shape(
        name="", origin=None, points=[], tags={}, weights=[], by_id={}, notes=[],
    ), Shape),
    ("row/lists", LISTS_SCHEMA, lambda: Lists(
        ints=[1, -1, 2**63 - 1, -(2**63)], strs=["", "a", "abcdefgh", "日本語"], blobs=[b"\x00\xff", b"12345678x"],
        flags=[True, False, True, True, False, False, False, True, True], days=[datetime.date(2000, 1, 1)],
        empty=[], maybe=[None, 0, None],
    ), Lists),
    ("row/maps", MAPS_SCHEMA, lambda: Maps(
        counts={"a": 1, "b": 2, "c": 3}, names={-1: "minus one", 10: "ten"},
        groups={"even": [2], "none": [], "odd": [1, 3, 5]}, empty={},
    ), Maps),
    # explicit schemas: the widths inference never produces
    ("row/widths", [
        f("i8", "int8"), f("i16", "int16"), f("i32", "int32"), f("f32", "float32"), f("flag", "bool"),
        f("i8s", lst("int8")), f("i16s", lst("int16")), f("i32s", lst("int32")), f("f32s", lst("float32")),
        f("m32", mp("int32", "float32")),
    ], lambda: {
        "i8": -128, "i16": -300, "i32": -5, "f32": 2.5, "flag": False,
        "i8s": [1, -1, 127], "i16s": [-32768, 32767], "i32s": [1, -2, 3, None, 5],
        "f32s": [1.0, -0.0, 3.5], "m32": {-7: -1.5, 7: 0.25},
    }, None),
    ("row/list_of_lists", [f("grid", lst(lst("int16"))), f("words", lst(lst("string")))],
     lambda: {"grid": [[1, 2], [], None, [3]], "words": [["a", "bc"], [""]]}, None),
    ("row/wide", [f("f{:02d}".format(i), "int64") for i in range(70)],
     lambda: {"f{:02d}".format(i): (None if i in (0, 63, 64, 69) else i * 1000 - 35000) for i in range(70)}, None),
    ("row/long_array", [f("id", "int32"), f("values", lst("int32"))],
     lambda: {"id": 1, "values": [(i * 7919) % 100003 - 50000 for i in range(1000)]}, None),
    ("row/rust_model", RUST_MODEL_SCHEMA, lambda: rust_model()(
        small=255, mid=65535, big=2**32 - 1, maybe=None, pair=(7, -7), names=("a", "bc", ""),
        when=datetime.datetime(1969, 7, 20, 20, 17, 40, 123456, tzinfo=UTC), day=datetime.date(2024, 2, 29),
        mids=[0, 1, 65535],
    ), rust_model),
    ("row/rust_model_zeros", RUST_MODEL_SCHEMA, lambda: rust_model()(
        small=0, mid=0, big=0, maybe=2**32 - 1, pair=(0, 0), names=(), when=datetime.datetime(1970, 1, 1, tzinfo=UTC),
        day=datetime.date(1970, 1, 1), mids=[],
    ), rust_model),
    # fixed arrays ([T; N]) are lists of N elements, [u8; N] binary of N bytes; a
    # Vec<Option<u8>> a list<int16> with nulls
    ("row/fixed_arrays", [
        f("coords", lst("float64")), f("digest", "binary"), f("grid", lst(lst("int16"))),
        f("bytes_opt", lst("int16")), f("words", lst("string")), f("stamps", lst("timestamp")),
    ], lambda: {
        "coords": [0.5, -1.5, 2.25], "digest": bytes([0, 1, 0xfe, 0xff, 7, 8, 9, 10, 11]),
        "grid": [[1, 2], [-3, 4], [5, -32768]], "bytes_opt": [0, None, 255], "words": ["x", "", "yz"],
        "stamps": [datetime.datetime(2000, 1, 1, tzinfo=UTC), datetime.datetime(1960, 1, 1, 0, 0, 0, 1, tzinfo=UTC)],
    }, None),
    ("row/nested_deep", [f("a", st(f("b", st(f("c", st(f("d", "string"), f("n", "int64"))))), f("k", "int32")))],
     lambda: {"a": {"b": {"c": {"d": "deep", "n": 4}}, "k": 3}}, None),
]


def build_vector(name, schema, make, cls):
    if cls is not None and not isinstance(cls, type):
        cls = cls()  # a dataclass built on first use
    value = make()
    node = {fd["name"]: VL.row_value_node(fd["type"], VL.rows._get(value, fd["name"])) for fd in schema}
    to_row, from_row = VL.row_encoder_for(schema)
    # pyfory leaves the slots of nulls uninitialised (spec/DISAGREEMENTS.md): they are zeroed
    # here, as the spec asks of writers; every other byte must be the same on every run.
    data = VL.row_zero_null_slots(schema, to_row(value).to_bytes())[0]
    for _ in range(3):
        again = VL.row_zero_null_slots(schema, to_row(value).to_bytes())[0]
        if again != data:
            VL.die(name, "pyfory wrote different bytes on two runs outside the null slots")
    vec = {"name": name, "inferred": cls is not None, "schema": schema, "value": node}
    if cls is not None:
        from pyfory.format import encoder, infer_schema

        if str(infer_schema(cls)) != VL.row_schema_text(schema):
            VL.die(name, "pyfory infers {}, the vector says {}".format(infer_schema(cls), VL.row_schema_text(schema)))
        try:
            enc = encoder(cls)
        except AttributeError as exc:  # the hash, computed in Encoder(), fails for some schemas
            enc = None
            vec["hash_note"] = "pyfory 1.7.7's encoder(cls) fails computing the schema hash: AttributeError: {}".format(exc)
            import pyfory.format as F

            row_encoder = F.create_row_encoder(infer_schema(cls))
        else:
            row_encoder = enc.row_encoder
        inferred = VL.row_zero_null_slots(schema, row_encoder.to_row(value).to_bytes())[0]
        if inferred != data:
            VL.die(name, "the inferred schema and the explicit one write different bytes")
        if enc is not None:
            encoded = enc.encode(value)
            encoded = encoded[:8] + VL.row_zero_null_slots(schema, encoded[8:])[0]
            if encoded[8:] != data:
                VL.die(name, "encode() is not the schema hash followed by the row")
            vec["schema_hash"] = str(int.from_bytes(encoded[:8], "little", signed=True))
            vec["encoded_hex"] = encoded.hex()
            back = enc.decode(encoded)
            back_node = {fd["name"]: VL.row_value_node(fd["type"], getattr(back, fd["name"])) for fd in schema}
            if back_node != node:
                VL.die(name, "decode(encode(obj)) gives {}, expected {}".format(back_node, node))
    check = decode_node(schema, data, from_row)
    if check != node:
        VL.die(name, "from_row gives {}, expected {}".format(check, node))
    vec["hex"] = data.hex()
    return vec


def decode_node(schema, data, from_row=None):
    if from_row is None:
        from_row = VL.row_encoder_for(schema)[1]
    with _QuietStderr():
        back = from_row(data)
        node = {fd["name"]: VL.row_value_node(fd["type"], getattr(back, fd["name"])) for fd in schema}
        del back
    return node


def build_all():
    VL.require_pyfory()
    vectors = [build_vector(*v) for v in VECTORS]
    return {"format": VL.ROW_FORMAT, "peer": VL.PEER, "group": GROUP, "vectors": vectors}


def documents():
    return {GROUP: build_all()}


def check_peer(path):
    """pyfory's from_row must read every row in PATH to its vector's value. An
    entry may carry its own schema (the same fields in another order)."""
    with open(VL.group_file(GROUP), "r", encoding="utf-8") as fh:
        vectors = {v["name"]: v for v in json.load(fh)["vectors"]}
    with open(path, "r", encoding="utf-8") as fh:
        doc = json.load(fh)
    if doc.get("format") != VL.ROW_BYTES_FORMAT:
        VL.die(path, "format is {!r}, expected {!r}".format(doc.get("format"), VL.ROW_BYTES_FORMAT))
    passed = failed = 0
    seen = set()
    for entry in doc["rows"]:
        vec = vectors.get(entry["vector"])
        if vec is None:
            print("FAIL {}: no vector {!r}".format(entry["label"], entry["vector"]))
            failed += 1
            continue
        seen.add(vec["name"])
        schema = entry.get("schema", vec["schema"])
        try:
            got = decode_node(schema, bytes.fromhex(entry["hex"]))
        except Exception as exc:  # noqa: BLE001 - pyfory's failure is the finding
            print("FAIL {}: pyfory cannot read it: {}: {}".format(entry["label"], type(exc).__name__, exc))
            failed += 1
            continue
        if got != vec["value"]:
            print("FAIL {}: pyfory reads {}, expected {}".format(entry["label"], got, vec["value"]))
            failed += 1
        else:
            passed += 1
    for name in vectors:
        if name not in seen:
            print("FAIL {}: no row from fury-rs".format(name))
            failed += 1
    print("{} passed, {} failed".format(passed, failed))
    return 0 if failed == 0 and passed > 0 else 1
