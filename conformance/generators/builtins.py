"""Write the conformance vectors (conformance/vectors/builtins/<file group>.json) with pyfory.

Every vector's bytes are produced by pyfory 1.7.7 (the pinned reference
implementation).  Before a vector is written it is confirmed four ways, and
the script aborts on the first disagreement:

1. an independent decoder (vectorlib.decode_wire) turns the bytes into a
   node, which must equal the node predicted from the Python value (wire
   types, string encodings, element order);
2. pyfory.deserialize(bytes) must consume every byte and equal the expected
   node (floats compared by bit pattern, NaN included);
3. the original Python value must equal the expected node as well;
4. the schema must accept the node.

Usage:
    python conformance/generate.py builtins            # (re)write vectors/builtins/
    python conformance/generate.py --check builtins    # compare with the files on disk

The output is deterministic; generate.py runs it with
PYTHONHASHSEED=0 so that the iteration order of sets of strings is stable.
"""

import array
import datetime
import math


import vectorlib as VL  # noqa: E402

UTC = datetime.timezone.utc
NAN = float("nan")
INF = float("inf")


class Spec:
    """One vector to produce.

    Either ``value`` (a Python value serialized with Fory.serialize) or
    ``typed`` (a scalar wire kind written as a typed root, with ``value``
    being an int, or for float kinds the bit pattern in ``bits``).
    """

    def __init__(self, name, value=None, *, typed=None, bits=None, schema=None, note=None, not_same=None):
        self.name = name
        self.value = value
        self.typed = typed
        self.bits = bits
        self.schema = schema
        self.note = note
        self.not_same = not_same  # reason why our writer gives other bytes


def label(v):
    """Readable label for an integer: powers of two spelled out."""
    if abs(v) >= 16383:
        for p in range(14, 65):
            for expr, val in (
                ("2^{}".format(p), 1 << p),
                ("2^{}-1".format(p), (1 << p) - 1),
                ("-2^{}".format(p), -(1 << p)),
                ("-2^{}-1".format(p), -(1 << p) - 1),
                ("-2^{}+1".format(p), -(1 << p) + 1),
            ):
                if v == val:
                    return expr
    return str(v)


# ---------------------------------------------------------------------------
# groups
# ---------------------------------------------------------------------------

VARINT_COMMON = [0, 1, -1, 63, 64, -64, -65, 127, 128, 16383, 16384, 2**21 - 1, 2**21, 2**28, 2**31 - 1, -(2**31)]
UVARINT_COMMON = [0, 1, 63, 64, 127, 128, 16383, 16384, 2**21 - 1, 2**21, 2**28, 2**31 - 1, 2**32 - 1]


def group_scalars():
    s = [Spec("scalars/none", None, schema="none"), Spec("scalars/bool/true", True), Spec("scalars/bool/false", False)]
    # Python int -> VARINT64
    for v in VARINT_COMMON + [2**32 - 1, 2**35, 2**56 - 1, 2**56, 2**63 - 1, -(2**63), -(2**63) + 1]:
        s.append(Spec("scalars/varint64/{}".format(label(v)), v))
    for v in VARINT_COMMON:
        s.append(Spec("scalars/varint32/{}".format(label(v)), v, typed="varint32"))
    for v in UVARINT_COMMON:
        s.append(Spec("scalars/var_uint32/{}".format(label(v)), v, typed="var_uint32"))
    for v in UVARINT_COMMON + [2**35, 2**56 - 1, 2**56, 2**63 - 1, 2**63, 2**64 - 1]:
        s.append(Spec("scalars/var_uint64/{}".format(label(v)), v, typed="var_uint64"))
    fixed = {
        "int8": [-128, -1, 0, 127],
        "int16": [-32768, -1, 0, 32767],
        "int32": [-(2**31), -1, 0, 2**31 - 1],
        "int64": [-(2**63), -1, 0, 2**63 - 1],
        "uint8": [0, 128, 255],
        "uint16": [0, 32768, 65535],
        "uint32": [0, 2**31, 2**32 - 1],
        "uint64": [0, 2**63, 2**64 - 1],
    }
    for kind, values in fixed.items():
        for v in values:
            lo, hi = VL.INT_RANGES[kind]
            what = "min" if v == lo and v != 0 else "max" if v == hi else label(v)
            s.append(Spec("scalars/{}/{}".format(kind, what), v, typed=kind))
    for v in [0, 1, -1, 2**30 - 1, 2**30, -(2**30), -(2**30) - 1, 2**63 - 1, -(2**63)]:
        s.append(Spec("scalars/tagged_int64/{}".format(label(v)), v, typed="tagged_int64"))
    for v in [0, 1, 2**30, 2**31 - 1, 2**31, 2**32, 2**64 - 1]:
        s.append(Spec("scalars/tagged_uint64/{}".format(label(v)), v, typed="tagged_uint64"))
    # FLOAT64 from Python floats
    f64 = [
        ("0", 0.0),
        ("neg0", -0.0),
        ("1.5", 1.5),
        ("neg_pi", -math.pi),
        ("nan", NAN),
        ("neg_nan", VL.f64_from_bits(0xFFF8000000000000)),
        ("nan_payload", VL.f64_from_bits(0x7FF8000000000001)),
        ("inf", INF),
        ("neg_inf", -INF),
        ("min_subnormal", 5e-324),
        ("min_normal", 2.2250738585072014e-308),
        ("max", 1.7976931348623157e308),
        ("lowest", -1.7976931348623157e308),
    ]
    for what, v in f64:
        s.append(Spec("scalars/float64/{}".format(what), v))
    f32 = [
        ("0", 0x00000000),
        ("neg0", 0x80000000),
        ("1.5", 0x3FC00000),
        ("neg2", 0xC0000000),
        ("nan", 0x7FC00000),
        ("nan_payload", 0x7FC00001),
        ("inf", 0x7F800000),
        ("neg_inf", 0xFF800000),
        ("min_subnormal", 0x00000001),
        ("min_normal", 0x00800000),
        ("max", 0x7F7FFFFF),
    ]
    for what, b in f32:
        s.append(Spec("scalars/float32/{}".format(what), typed="float32", bits=b))
    f16 = [
        ("0", 0x0000, None),
        ("neg0", 0x8000, None),
        ("1.5", 0x3E00, None),
        ("neg2", 0xC000, None),
        ("inf", 0x7C00, None),
        ("neg_inf", 0xFC00, None),
        ("nan", 0x7E01, "pyfory turns a Python NaN into float16 bits 0x7e01 (not 0x7e00); a writer must keep the exact bits"),
        ("max", 0x7BFF, None),
        ("min_subnormal", 0x0001, None),
        ("min_normal", 0x0400, None),
    ]
    for what, b, note in f16:
        s.append(Spec("scalars/float16/{}".format(what), typed="float16", bits=b, note=note))
    bf16 = [
        ("0", 0x0000),
        ("neg0", 0x8000),
        ("1.5", 0x3FC0),
        ("neg2", 0xC000),
        ("inf", 0x7F80),
        ("neg_inf", 0xFF80),
        ("nan", 0x7FC0),
        ("max", 0x7F7F),
        ("min_subnormal", 0x0001),
    ]
    for what, b in bf16:
        s.append(Spec("scalars/bfloat16/{}".format(what), typed="bfloat16", bits=b))
    return s


def group_strings():
    s = []
    items = [
        ("empty", ""),
        ("a", "a"),
        ("ascii_word", "hello, world"),
        ("ascii_31", "x" * 31),
        ("ascii_32", "y" * 32),
        ("ascii_200", "".join(chr(0x20 + (i % 95)) for i in range(200))),
        ("ascii_4095", "z" * 4095),
        ("ascii_4096", "w" * 4096),
        ("ascii_20000", "".join("abcdefghijklmnopqrstuvwxyz0123456789"[i % 36] for i in range(20000))),
        ("ascii_del", "\x7f"),
        ("nul", "a\x00b"),
        ("only_nul", "\x00"),
        ("control", "tab\there\nnewline\r"),
        ("latin1_hello", "h\u00e9llo"),
        ("latin1_ff", "\u00ff"),
        ("latin1_80", "\u0080"),
        ("latin1_long", "\u00e9\u00e8\u00ea" * 70),
        ("utf16_nihao", "\u4f60\u597d"),
        ("utf16_0100", "\u0100"),
        ("utf16_latin1_mix", "caf\u00e9 \u0100"),
        ("utf16_ffff", "\uffff"),
        ("utf16_long", "\u4e2d\u6587" * 100),
        ("utf8_emoji", "\U0001f600"),
        ("utf8_emoji_cjk", "\U0001f600\u4f60\u597d"),
        ("utf8_mixed_all", "a\u00e9\u4f60\U0001f600"),
        ("utf8_max_scalar", "\U0010ffff"),
        ("utf8_emoji_long", "\U0001f680" * 50),
    ]
    for what, v in items:
        s.append(Spec("strings/{}".format(what), v))
    return s


def group_temporal():
    s = []
    td = datetime.timedelta
    durations = [
        ("zero", td(0)),
        ("1s", td(seconds=1)),
        ("1s_5us", td(seconds=1, microseconds=5)),
        ("half_second", td(microseconds=500000)),
        ("1us", td(microseconds=1)),
        ("neg_1s", td(seconds=-1)),
        ("neg_1us", td(microseconds=-1)),
        ("neg_1.5s", td(seconds=-1, microseconds=-500000)),
        ("one_day", td(days=1)),
        ("large", td(days=1000000, seconds=7, microseconds=123456)),
        ("neg_large", -td(days=1000000, seconds=7, microseconds=123456)),
        ("100M_days", td(days=100000000, microseconds=1)),
        ("neg_100M_days", -td(days=100000000, microseconds=1)),
    ]
    for what, v in durations:
        s.append(Spec("temporal/duration/{}".format(what), v))
    dt = datetime.datetime
    timestamps = [
        ("epoch", dt(1970, 1, 1, tzinfo=UTC)),
        ("2020", dt(2020, 1, 1, tzinfo=UTC)),
        ("2020_micros", dt(2020, 1, 1, 12, 30, 45, 123456, tzinfo=UTC)),
        ("epoch_plus_1us", dt(1970, 1, 1, 0, 0, 0, 1, tzinfo=UTC)),
        ("pre_epoch_half", dt(1969, 12, 31, 23, 59, 59, 500000, tzinfo=UTC)),
        ("pre_epoch_1s", dt(1969, 12, 31, 23, 59, 59, tzinfo=UTC)),
        ("1900", dt(1900, 1, 1, tzinfo=UTC)),
        ("2038_overflow_32", dt(2038, 1, 19, 3, 14, 8, tzinfo=UTC)),
        ("far_future", dt(9999, 12, 31, 23, 59, 59, tzinfo=UTC)),
        ("year_1", dt(1, 1, 1, tzinfo=UTC)),
    ]
    for what, v in timestamps:
        s.append(Spec("temporal/timestamp/{}".format(what), v))
    d = datetime.date
    dates = [
        ("epoch", d(1970, 1, 1)),
        ("day_after_epoch", d(1970, 1, 2)),
        ("pre_epoch", d(1969, 12, 31)),
        ("1900", d(1900, 1, 1)),
        ("2020", d(2020, 1, 1)),
        ("2038", d(2038, 1, 19)),
        ("far_future", d(9999, 12, 31)),
        ("min", d(1, 1, 1)),
    ]
    for what, v in dates:
        s.append(Spec("temporal/date/{}".format(what), v))
    return s


def group_binary_arrays():
    from pyfory import serialization as S

    s = [
        Spec("binary_arrays/binary/empty", b""),
        Spec("binary_arrays/binary/small", b"ab"),
        Spec("binary_arrays/binary/nul", b"\x00"),
        Spec("binary_arrays/binary/all_bytes", bytes(range(256))),
        Spec("binary_arrays/binary/1000", bytes((i * 7 + 3) % 256 for i in range(1000))),
    ]
    arrays = [
        ("bool_array", "BoolArray", [True, False, True]),
        ("int8_array", "Int8Array", [-128, -1, 0, 1, 127]),
        ("int16_array", "Int16Array", [-32768, -1, 0, 1, 32767]),
        ("int32_array", "Int32Array", [-(2**31), -1, 0, 1, 2**31 - 1]),
        ("int64_array", "Int64Array", [-(2**63), -1, 0, 1, 2**63 - 1]),
        ("uint8_array", "UInt8Array", [0, 1, 127, 128, 255]),
        ("uint16_array", "UInt16Array", [0, 1, 32768, 65535]),
        ("uint32_array", "UInt32Array", [0, 1, 2**31, 2**32 - 1]),
        ("uint64_array", "UInt64Array", [0, 1, 2**63, 2**64 - 1]),
        ("float16_array", "Float16Array", [0.0, -0.0, 1.5, -2.0, INF, -INF, NAN, 65504.0, 2.0**-24]),
        ("bfloat16_array", "BFloat16Array", [0.0, -0.0, 1.5, -2.0, INF, -INF, NAN, 2.0**-133]),
        ("float32_array", "Float32Array", [0.0, -0.0, 1.5, NAN, INF, -INF, 2.0**-149, 3.4028234663852886e38]),
        (
            "float64_array",
            "Float64Array",
            [0.0, -0.0, 1.5, NAN, INF, -INF, 5e-324, 1.7976931348623157e308, VL.f64_from_bits(0x7FF8000000000001)],
        ),
    ]
    for kind, cls_name, values in arrays:
        cls = getattr(S, cls_name)
        note = None
        if kind == "float16_array":
            note = "pyfory turns a Python NaN into float16 bits 0x7e01 (not 0x7e00); a writer must keep the exact bits"
        s.append(Spec("binary_arrays/{}/empty".format(kind), cls([])))
        s.append(Spec("binary_arrays/{}/boundaries".format(kind), cls(values), note=note))
    s.append(Spec("binary_arrays/int32_array/300", S.Int32Array(list(range(-150, 150)))))
    s.append(Spec("binary_arrays/uint8_array/200", S.UInt8Array([i % 256 for i in range(200)])))
    s.append(Spec("binary_arrays/bool_array/40", S.BoolArray([i % 3 == 0 for i in range(40)])))
    # Python array.array values map onto the same wire types.
    pyarrays = [
        ("b", [-128, 0, 127]),
        ("B", [0, 255]),
        ("h", [-32768, 32767]),
        ("H", [0, 65535]),
        ("i", [-(2**31), 2**31 - 1]),
        ("I", [0, 2**32 - 1]),
        ("q", [-(2**63), 2**63 - 1]),
        ("Q", [0, 2**64 - 1]),
        ("f", [1.5, -0.0]),
        ("d", [1.5, -0.0]),
    ]
    for code, values in pyarrays:
        kind = VL.PY_ARRAY_KINDS[code]
        s.append(
            Spec(
                "binary_arrays/pyarray_{}/{}".format("u" + code.lower() if code.isupper() else code, kind),
                array.array(code, values),
                note="written from Python array.array('{}'); same wire type as {}".format(code, kind),
            )
        )
    return s


def group_lists():
    from pyfory import serialization as S

    d = datetime.date
    s = [
        Spec("lists/empty", [], schema="list<varint64>"),
        Spec("lists/ints", [1, 2, 3]),
        Spec("lists/ints_boundaries", [0, -1, 127, 128, 2**63 - 1, -(2**63)]),
        Spec("lists/single_int", [42]),
        Spec("lists/strings_ascii", ["a", "bc", "", "hello"]),
        Spec("lists/strings_mixed_encodings", ["a", "\u00e9", "\u4f60", "\U0001f600"]),
        Spec("lists/floats", [1.5, -0.0, 0.0, INF, -INF, NAN]),
        Spec("lists/bools", [True, False, True]),
        Spec("lists/nested_lists", [[1, 2], [3], []]),
        Spec("lists/nested_strings", [["a", "b"], ["c"]]),
        Spec("lists/with_nulls", [1, None, 3]),
        Spec("lists/null_first", [None, "a", "b"]),
        Spec("lists/strings_with_null", ["x", None]),
        Spec("lists/bools_with_null", [True, None, False]),
        Spec(
            "lists/all_null",
            [None, None, None],
            schema="list<option<varint64>>",
            note="every element is null, so the shared element type is NONE (36); fury-rs writes "
            "the same, whatever its static element type",
        ),
        Spec(
            "lists/single_null",
            [None],
            schema="list<option<string>>",
            note="every element is null, so the shared element type is NONE (36); fury-rs writes "
            "the same, whatever its static element type",
        ),
        Spec("lists/mixed", [1, "a", True, 1.5, b"x"]),
        Spec("lists/mixed_with_null", [1, None, "a"]),
        Spec("lists/int_and_float", [1, 1.0]),
        Spec("lists/of_maps", [{"a": 1}, {"b": 2, "c": 3}]),
        Spec("lists/of_sets", [{1, 2}, {3}]),
        Spec("lists/of_empty_containers", [[], [], []], schema="list<list<varint64>>"),
        Spec("lists/of_binary", [b"", b"\x00\x01", b"xyz"]),
        Spec("lists/of_dates", [d(2020, 1, 1), d(1969, 12, 31)]),
        Spec("lists/of_durations", [datetime.timedelta(seconds=1), datetime.timedelta(microseconds=-1)]),
        Spec("lists/of_timestamps", [datetime.datetime(2020, 1, 1, tzinfo=UTC), datetime.datetime(1970, 1, 1, tzinfo=UTC)]),
        Spec("lists/of_int32_arrays", [S.Int32Array([1, 2]), S.Int32Array([])]),
        Spec("lists/of_float64_arrays", [S.Float64Array([1.5]), S.Float64Array([-0.0, 2.0])]),
        Spec("lists/127", list(range(127))),
        Spec("lists/128", list(range(128))),
        Spec("lists/300", [i * 1000 - 150000 for i in range(300)]),
        Spec("lists/300_strings", ["s{}".format(i) for i in range(300)]),
        Spec("lists/tuple", (1, 2, 3), note="written from a Python tuple; same bytes as a list"),
    ]
    return s


def group_sets():
    d = datetime.date
    s = [
        Spec("sets/empty", set(), schema="set<varint64>"),
        Spec("sets/ints", {1, 2, 3}),
        Spec("sets/ints_wide", {0, -1, 2**40, -(2**40), 2**63 - 1}),
        Spec("sets/single_string", {"a"}),
        Spec("sets/strings", {"apple", "banana", "cherry"}, note="element order is pyfory's iteration order with PYTHONHASHSEED=0"),
        Spec("sets/with_null", {None, 1, 2}),
        Spec(
            "sets/only_null",
            {None},
            schema="set<option<varint64>>",
            note="every element is null, so the shared element type is NONE (36); fury-rs writes "
            "the same, whatever its static element type",
        ),
        Spec("sets/bools", {True, False}),
        Spec("sets/mixed", {1, "a"}),
        Spec("sets/dates", {d(2020, 1, 1), d(1970, 1, 1)}),
        Spec("sets/floats", {1.5, -2.0}),
        Spec("sets/100_ints", set(range(100))),
        Spec("sets/frozenset", frozenset({7, 8}), note="written from a Python frozenset"),
    ]
    return s


def group_maps():
    from pyfory import serialization as S

    d = datetime.date
    s = [
        Spec("maps/empty", {}, schema="map<string,varint64>"),
        Spec("maps/string_int", {"a": 1, "b": 2}),
        Spec("maps/int_string", {1: "one", 2: "two", -3: "minus three"}),
        Spec("maps/string_float", {"x": 1.5, "y": -0.0}),
        Spec("maps/int_bool", {0: False, 1: True}),
        Spec("maps/bool_int", {True: 1, False: 0}),
        Spec("maps/float_string", {1.5: "x", -2.0: "y"}),
        Spec("maps/null_value", {"a": None}, schema="map<string,option<varint64>>"),
        Spec("maps/null_key", {None: 1}, schema="map<option<string>,varint64>"),
        Spec("maps/null_key_null_value", {None: None}, schema="map<option<string>,option<varint64>>"),
        Spec("maps/nulls_between_chunks", {"a": 1, "b": None, None: 2, "c": 3}),
        Spec("maps/consecutive_null_values", {"a": None, "b": None, "c": 1}),
        Spec("maps/255", {i: i * 2 for i in range(255)}),
        Spec("maps/256", {i: i * 2 for i in range(256)}),
        Spec("maps/600", {"k{}".format(i): i for i in range(600)}),
        Spec("maps/mixed_keys", {1: "a", "b": "c", 2: "d"}),
        Spec("maps/value_type_change", {"a": 1, "b": "x", "c": 2, "d": 3}),
        Spec("maps/of_lists", {"a": [1, 2], "b": [], "c": [3]}),
        Spec("maps/of_maps", {"outer": {"inner": 1}, "other": {}}),
        Spec("maps/of_sets", {1: {1, 2}, 2: set()}),
        Spec("maps/string_binary", {"k": b"\x00\xff"}),
        Spec("maps/date_string", {d(2020, 1, 1): "new year", d(1969, 12, 31): "eve"}),
        Spec("maps/list_with_null_values", {"a": [1, None]}),
        Spec("maps/string_int32_array", {"v": S.Int32Array([1, -1])}),
        Spec("maps/non_ascii_keys", {"h\u00e9llo": 1, "\u4f60\u597d": 2, "\U0001f600": 3}),
        Spec("maps/mixed_values_with_null", {"i": 1, "s": "x", "n": None, "f": 1.5, "l": [1]}),
    ]
    return s


def group_nested():
    d = datetime.date
    s = [
        Spec("nested/list_map_list", [{"a": [1, 2]}, {"b": [3]}]),
        Spec("nested/map_map_list", {"x": {"y": ["p", "q"]}, "z": {}}),
        Spec("nested/list_list_list", [[[1], [2, 3]], [[]]]),
        Spec("nested/map_list_map_nullable", {1: [{"a": 1, "b": None}], 2: []}),
        Spec("nested/list_set_list", [{1, 2}, set()], schema="list<set<varint64>>"),
        Spec("nested/map_any", {"i": 1, "l": [1, "two", None], "m": {"k": [1.5]}, "n": None}),
        Spec("nested/four_deep", [[[[1, 2]]], [[[3]]]]),
        Spec("nested/list_map_null_values", [{"a": None}, {"b": 2}]),
        Spec("nested/map_list_floats", {"v": [1.5, NAN, -INF]}),
        Spec("nested/list_map_set", [{1: {1, 2}}, {2: {3}}]),
        Spec("nested/map_list_dates", {"days": [d(2020, 1, 1), d(1970, 1, 1)]}),
        Spec("nested/list_of_mixed_lists", [[1, "a"], [None, 2.5]]),
        Spec("nested/map_nested_non_ascii", {"k": [{"\u00e9": ["\u4f60"]}]}),
        Spec("nested/map_string_list_of_lists", {"a": [[1], [2, 3]], "b": [[]]}),
        Spec("nested/list_map_int_keys_lists", [{1: [True, False]}, {}], schema="list<map<varint64,list<bool>>>"),
        Spec("nested/map_of_map_of_map", {"a": {"b": {"c": 1}}}),
    ]
    return s


GROUP_BUILDERS = {
    "scalars": group_scalars,
    "strings": group_strings,
    "temporal": group_temporal,
    "binary_arrays": group_binary_arrays,
    "lists": group_lists,
    "sets": group_sets,
    "maps": group_maps,
    "nested": group_nested,
}


# ---------------------------------------------------------------------------
# building and confirming one vector
# ---------------------------------------------------------------------------


def build_vector(fory, spec):
    name = spec.name
    if spec.typed:
        kind = spec.typed
        if kind in VL.FLOAT_HEX_WIDTH:
            py_value = VL.float_from_bits(kind, spec.bits)
            model = VL.float_node(kind, spec.bits)
        else:
            py_value = spec.value
            lo, hi = VL.INT_RANGES[kind]
            if not lo <= py_value <= hi:
                VL.die(name, "value out of range for {}".format(kind))
            model = {"type": kind, "value": str(py_value)}
        data = VL.write_typed_root(fory, kind, py_value)
    else:
        py_value = spec.value
        try:
            data = fory.serialize(py_value)
        except Exception as exc:  # noqa: BLE001
            VL.die(name, "pyfory could not serialize {!r}: {!r}".format(py_value, exc))
        model = VL.py_to_node(py_value)

    # 1. the independent decoder must see exactly the predicted node
    try:
        wire = VL.decode_wire(data)
    except VL.WireError as exc:
        VL.die(name, "independent decoder failed on {}: {}".format(data.hex()[:200], exc))
    if wire != model:
        diffs = VL.nodes_equal_wire(model, wire, ignore=()) or ["nodes differ"]
        VL.die(name, "pyfory wrote {} which decodes to a different node: {}".format(data.hex()[:200], "; ".join(diffs[:5])))

    # 2. pyfory must read the bytes back to the expected value
    try:
        decoded, unread = VL.deserialize_all(fory, data)
    except Exception as exc:  # noqa: BLE001 - report anything pyfory raises
        VL.die(name, "pyfory could not read its own bytes: {!r}".format(exc))
    if unread:
        VL.die(name, "pyfory left {} bytes unread".format(unread))
    diffs = VL.compare(model, decoded)
    if diffs:
        VL.die(name, "pyfory.deserialize differs from the expected value: " + "; ".join(diffs[:5]))

    # 3. the original value must match the expected node too
    diffs = VL.compare(model, py_value) if not spec.typed or model["type"] in VL.FLOAT_HEX_WIDTH else []
    if spec.typed and model["type"] in VL.INT_RANGES and py_value != int(model["value"]):
        diffs = ["typed value mismatch"]
    if diffs:
        VL.die(name, "the input value differs from the expected node: " + "; ".join(diffs[:5]))

    # node -> Python -> pyfory must give the same bytes again (not for sets,
    # whose rebuilt iteration order may differ)
    if not spec.typed and not VL.contains_set(model):
        again = fory.serialize(VL.node_to_py(model))
        if again != data:
            VL.die(name, "node_to_py(value) serializes to {} instead of {}".format(again.hex()[:200], data.hex()[:200]))

    # 4. schema
    schema = spec.schema or VL.derive_schema(model)
    if schema is None:
        VL.die(name, "schema cannot be derived (empty or all-null container); give one")
    derived = VL.derive_schema(model)
    if spec.schema and derived and derived != spec.schema:
        VL.die(name, "given schema {} differs from derived {}".format(spec.schema, derived))
    errs = VL.schema_errors(schema, model)
    if errs:
        VL.die(name, "schema {} does not fit: {}".format(schema, "; ".join(errs[:5])))

    reasons = VL.string_writer_differences(model)
    if spec.not_same:
        reasons.append(spec.not_same)
    vec = {
        "name": name,
        "settings": dict(VL.DEFAULT_SETTINGS),
        "schema": schema,
        "value": model,
        "hex": data.hex(),
        "writer_same": not reasons,
    }
    notes = list(reasons)
    if spec.note:
        notes.append(spec.note)
    if notes:
        vec["note"] = "; ".join(notes)
    return vec


def build_all():
    VL.require_pyfory()
    fory = VL.make_fory(VL.DEFAULT_SETTINGS)
    docs = {}
    seen = set()
    for group in VL.group("builtins")["files"]:
        vectors = []
        for spec in GROUP_BUILDERS[group]():
            if spec.name in seen:
                VL.die(spec.name, "duplicate name")
            if not spec.name.startswith(group + "/"):
                VL.die(spec.name, "name must start with the group")
            seen.add(spec.name)
            vectors.append(build_vector(fory, spec))
        docs[group] = {
            "format": VL.VECTOR_FORMAT,
            "peer": VL.PEER,
            "group": group,
            "vectors": vectors,
        }
    return docs


def documents():
    """The group's files: one per file group, by name."""
    return build_all()
