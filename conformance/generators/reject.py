"""Write the rejection vectors (conformance/vectors/reject/reject.json).

Every other group holds valid streams. These are malformed ones: each breaks one
"a reader MUST reject" rule of spec/, and a conforming reader must answer a decode
of it with an error. Each vector names its rule (the spec file and section), says
what is wrong, and gives the schema a typed reader declares for the root; struct
and enum vectors use the types Point and Color of the structs group (copied into
this file's "types").

Most streams are written here byte by byte (the rule is about one byte); the
struct and TypeDef ones are valid pyfory 1.7.7 streams with one change. Each
vector records what pyfory 1.7.7 does with it: it refuses most, and where it
reads a value anyway the vector says what it read ("pyfory_accepts"), which
spec/DISAGREEMENTS.md lists ("Where pyfory's reader is more lenient than these
rules").

Usage:
    python conformance/generate.py reject            # (re)write vectors/reject/
    python conformance/generate.py --check reject    # compare with the files on disk
"""

import json
import os

import vectorlib as VL

FORMAT = "fury-reject/1"
COMPAT = {"xlang": True, "ref": False, "compatible": True}
SAME = {"xlang": True, "ref": False, "compatible": False}
REF = {"xlang": True, "ref": True, "compatible": True}

# The type definitions the struct and enum vectors use, taken from the structs group.
TYPE_NAMES = ("Point", "Color", "Shade")


def h(*parts):
    """Hex of the concatenation of parts: ints are bytes, str is hex text, bytes as is."""
    out = bytearray()
    for p in parts:
        if isinstance(p, int):
            out.append(p)
        elif isinstance(p, str):
            out += bytes.fromhex(p)
        else:
            out += p
    return out.hex()


def struct_types():
    path = os.path.join(VL.group_dir("structs"), "structs.json")
    with open(path, encoding="utf-8") as fh:
        doc = json.load(fh)
    defs = [t for t in doc["types"] if t["name"] in TYPE_NAMES]
    if sorted(t["name"] for t in defs) != sorted(TYPE_NAMES):
        VL.die("reject", "the structs group lost one of {}".format(TYPE_NAMES))
    return defs


def stream_of(group, name):
    """The bytes of a valid vector of another group: the base a vector changes."""
    path = os.path.join(VL.group_dir(group), group + ".json")
    with open(path, encoding="utf-8") as fh:
        doc = json.load(fh)
    for v in doc["vectors"]:
        if v["name"] == name:
            return bytes.fromhex(v["hex"])
    VL.die("reject", "no vector {} in the {} group".format(name, group))


def cases():
    """(name, rule, settings, schema, hex, what is wrong)."""
    shade = stream_of("structs", "structs/enums/shade_dark")  # 01 ff 1a <ns "demo"> <name "Shade"> 01
    point_same = stream_of("structs", "structs/point/basic")  # 01 ff 1b 64 <hash> <y> <x>
    point_compat = stream_of("compat", "compat/point/basic")  # 01 ff 1c 00 <TypeDef> <y> <x>
    out = [
        # -- the stream (spec 01)
        ("stream/empty", "01 §1.1", COMPAT, "bool", "", "no bytes at all: no header"),
        ("stream/header_only", "01 §1.1", COMPAT, "bool", "01", "the header and nothing after it"),
        ("stream/trailing_byte", "01 §1.1", COMPAT, "bool", "01ff0101" + "00",
         "a byte after the root value"),
        ("header/xlang_bit_clear", "01 §1.2", COMPAT, "bool", "00ff0101", "header 00: the xlang bit is clear"),
        ("header/reserved_bit", "01 §1.2", COMPAT, "bool", "05ff0101", "header 05: reserved bit 2 is set"),
        ("header/out_of_band_without_buffers", "01 §1.2", COMPAT, "bool", "03ff0101",
         "header 03: out-of-band buffers announced, and the reader was given none"),
        ("flag/not_a_flag", "01 §1.3", COMPAT, "bool", "01050101", "root flag 05 is none of fd fe ff 00"),
        ("flag/ref_without_tracking", "01 §1.3", COMPAT, "bool", "01fe00",
         "a back reference (fe) in a stream without reference tracking"),
        ("type_id/unknown", "01 §1.4", COMPAT, "any", "01ff3c00", "type id 60 is in no table"),
        ("type_id/float8_unused", "01 §1.5", COMPAT, "any", "01ff1000",
         "FLOAT8 (16) is reserved: no peer writes it"),
        # -- numbers (spec 02)
        ("bool/byte_02", "02 §2.1", COMPAT, "bool", "01ff0102", "a BOOL byte other than 00 and 01"),
        ("bool/byte_ff", "02 §2.1", COMPAT, "bool", "01ff01ff", "a BOOL byte other than 00 and 01"),
        ("int32/cut_short", "02 §2.2", COMPAT, "int32", "01ff040102", "an INT32 with two of its four bytes"),
        ("varint32/unterminated", "02 §2.3", COMPAT, "varint32", "01ff05808080",
         "every byte of the varint has its continuation bit, then the input ends"),
        ("varint32/fifth_byte_too_large", "02 §2.3", COMPAT, "varint32", "01ff05ffffffff7f",
         "the fifth byte of a varuint32 above 0f (more than 32 bits)"),
        ("varint32/overlong", "02 §2.3", COMPAT, "varint32", "01ff058000",
         "a continued byte followed by 00: the value 0 written in two bytes"),
        ("varint64/overlong", "02 §2.5", COMPAT, "varint64", "01ff078100",
         "a continued byte followed by 00: the value 1 written in two bytes"),
        ("varint64/ninth_byte_zero", "02 §2.5", COMPAT, "varint64", "01ff07" + "ff" * 8 + "00",
         "eight continued bytes and a ninth byte 00"),
        ("varint64/unterminated", "02 §2.5", COMPAT, "varint64", "01ff07" + "ff" * 5,
         "every byte has its continuation bit, then the input ends"),
        ("tagged_int64/odd_first_byte", "02 §2.7", COMPAT, "tagged_int64", "01ff08" + "03" + "00" * 8,
         "a tagged int64 whose first byte is odd but not 01"),
        ("float64/cut_short", "02 §2.8", COMPAT, "float64", "01ff14000000", "a FLOAT64 with three of its bytes"),
        # -- strings, binary, dense arrays (spec 03)
        ("string/reserved_encoding", "03 §3.1", COMPAT, "string", "01ff150761",
         "string header 07: encoding 3 is reserved"),
        ("string/length_beyond_input", "03 §3.1", COMPAT, "string", "01ff150a61",
         "a latin-1 string of 2 bytes with 1 byte left"),
        ("string/invalid_utf8", "03 §3.1", COMPAT, "string", "01ff150ac328", "c3 28 is not UTF-8"),
        ("string/utf16_odd_length", "03 §3.1", COMPAT, "string", "01ff150d610062",
         "a UTF-16 string of 3 bytes"),
        ("string/utf16_unpaired_surrogate", "03 §3.1", COMPAT, "string", "01ff150900d8",
         "UTF-16 text that is a lone high surrogate (d800)"),
        ("binary/length_beyond_input", "03 §3.2", COMPAT, "binary", "01ff29050102",
         "a BINARY of 5 bytes with 2 left"),
        ("int32_array/partial_element", "03 §3.3", COMPAT, "int32_array", "01ff2e03010203",
         "an INT32_ARRAY of 3 bytes: not a whole number of elements"),
        # -- collections (spec 04)
        ("list/count_beyond_input", "04 §4.1", COMPAT, "list<string>", "01ff16" + VL.var_uint32_bytes(1 << 30).hex() + "0815",
         "a list of 2^30 strings in a stream of a few bytes"),
        ("list/reserved_header_bit", "04 §4.2", COMPAT, "list<string>", "01ff16011815" + "0461",
         "elements header 18: reserved bit 4 is set"),
        ("list/ref_element_without_tracking", "04 §4.1", COMPAT, "list<string>", "01ff16010915fe00",
         "an element flagged fe (a back reference) in a stream without reference tracking"),
        ("list/null_element_not_nullable", "04 §4.1", COMPAT, "list<varint32>", "01ff16010a05fd",
         "a null element where the declared element type cannot be null"),
        ("map/reserved_header_bit", "04 §4.4", COMPAT, "map<string,string>", "01ff1801c00115150461" "0462",
         "map chunk header c0: reserved bits 6 and 7 are set"),
        ("map/chunk_size_zero", "04 §4.4", COMPAT, "map<string,string>", "01ff18010000151504610462",
         "a map of one pair whose chunk declares 0 pairs"),
        ("map/chunk_beyond_count", "04 §4.4", COMPAT, "map<string,string>", "01ff1801000215150461046204630464",
         "a map of one pair whose chunk declares 2 pairs"),
        ("list/nested_too_deep", "04 §4.1", COMPAT, "any", "01ff16" + "010816" * 299 + "00",
         "lists nested 300 deep: deeper than a reader's limit (pyfory allows 50, fury-rs 256 by default)"),
        # -- time (spec 05)
        ("duration/nanos_out_of_range", "05 §5.1", COMPAT, "duration", "01ff250000ca9a3b",
         "a DURATION whose nanosecond part is 1e9"),
        ("timestamp/nanos_out_of_range", "05 §5.2", COMPAT, "timestamp", "01ff26" + "00" * 8 + "00ca9a3b",
         "a TIMESTAMP whose nanosecond part is 1e9"),
        # -- structs and enums (spec 06)
        ("struct/hash_mismatch", "06 §6.9", SAME, "Point",
         h(point_same[:4], bytes(b ^ 0x01 if i == 0 else b for i, b in enumerate(point_same[4:8])), point_same[8:]),
         "Point's same-schema hash with one bit flipped"),
        ("struct/unregistered_id", "06 §6.9", SAME, "Point", h(point_same[:3], "65", point_same[4:]),
         "STRUCT with user id 101, which is the enum Color"),
        ("enum/unknown_number", "06 §6.7", COMPAT, "Color", "01ff196509",
         "Color has the numbers 0, 1 and 2; the stream says 9"),
        ("enum/struct_id", "06 §6.9", SAME, "Color", "01ff196400",
         "ENUM with user id 100, which is the struct Point"),
        # -- meta strings (spec 07): the names of Shade (NAMED_ENUM, namespace "demo")
        ("meta/encoding_out_of_range", "07 §7.6", SAME, "Shade", h(shade[:4], "05", shade[5:]),
         "the namespace's encoding byte is 05: encodings are 0 to 4"),
        ("meta/back_reference_beyond_table", "07 §7.9", SAME, "Shade", h(shade[:3], "03", shade[8:]),
         "the namespace is a back reference (03) to entry 0 before any meta string was read"),
        ("meta/length_beyond_input", "07 §7.9", SAME, "Shade", h(shade[:12]),
         "the type name announces 4 bytes and the stream ends after 3"),
        # -- TypeDefs (spec 08)
        ("typedef/hash_mismatch", "08 §8.3", COMPAT, "Point",
         h(point_compat[:5], point_compat[5] ^ 0x10, point_compat[6:]),
         "Point's TypeDef with one bit of its hash flipped"),
        ("typedef/reserved_header_bit", "08 §8.3", COMPAT, "Point",
         h(point_compat[:5], point_compat[5] | 0x02, point_compat[6:]),
         "Point's TypeDef with reserved header bit 9 set"),
        ("typedef/marker_back_reference_first", "08 §8.2", COMPAT, "Point",
         h(point_compat[:3], "01", point_compat[20:]),
         "a meta-share marker 01 (a back reference to TypeDef 0) before any TypeDef was read"),
        ("typedef/marker_new_index_skipped", "08 §8.2", COMPAT, "Point",
         h(point_compat[:3], "06", point_compat[4:]),
         "a new TypeDef announced as index 3 where it is the first (index 0)"),
        # -- references (spec 09)
        ("ref/id_beyond_read", "09 §9.10", REF, "any", "010016020916000208070204fe05",
         "pyfory's [v, v] (v = [1, 2]) with the back reference fe 01 changed to fe 05: only ids 0 "
         "and 1 were taken"),
        ("ref/root_back_reference", "09 §9.10", REF, "any", "01fe00",
         "the root is a back reference to id 0, which no value took"),
    ]
    return out


def union_cases():
    """Unions (spec 10), with the union group's Animal (id 300; cases 1 dog, 2 cat, 3 label,
    4 nothing)."""
    return [
        ("union/unknown_case", "10 §10.2", SAME, "Animal", "01ff22ac0209ff15086869",
         "Animal has the cases 1 to 4; the stream says 9 (and the reader has no unknown case)"),
        ("union/bare_union_type_info", "10 §10.1", SAME, "any", "01ff2103ff150478",
         "type info UNION (33), which names no union: a union value with type info is "
         "TYPED_UNION or NAMED_UNION"),
    ]


def oob_cases():
    """Out-of-band buffers (spec 03 §3.2.1): (name, rule, schema, hex, buffers, why)."""
    return [
        ("oob/flag_not_0_or_1", "03 §3.2.1", "binary", "03ff2902", [],
         "a BINARY in-band flag 02 in a stream with out-of-band buffers"),
        ("oob/more_flags_than_buffers", "03 §3.2.1", "list<binary>", "03ff160208290000", ["6869"],
         "two BINARY payloads out of band (flag 00) and one buffer given"),
        ("oob/buffers_without_the_bit", "03 §3.2.1", "binary", "01ff2900", ["6869"],
         "a buffer given for a stream whose header does not announce out-of-band buffers"),
    ]


def row_cases():
    """Rows (spec 11 §11.7), changes of the rows group's row/scalars (bitmap, then the slots
    of active, born, empty, id, name, payload, score, seen; the text and bytes from 72)."""
    row = stream_of("rows", "row/scalars")
    return [
        ("row/bool_byte", "11 §11.7", h(row[:8], "02", row[9:]), "the bool field `active` holds 02"),
        ("row/slot_beyond_row", "11 §11.7", h(row[:40], "7f", row[41:]),
         "the string field `name` announces 127 bytes at offset 72 of a row of 112"),
        ("row/invalid_utf8", "11 §11.7", h(row[:72], "c3", row[73:]),
         "the string field `name` starts with c3 65: not UTF-8"),
    ]


def pyfory_outcome(settings, schema, data, table):
    """What pyfory 1.7.7 makes of the stream: (refuses, what it said or read)."""
    if schema in TYPE_NAMES:
        fory = table.make_fory_with(settings, [])
    else:
        fory = VL.make_fory(settings)
    try:
        value, unread = VL.deserialize_all(fory, data)
    except Exception as exc:  # noqa: BLE001 - pyfory's refusal is what we record
        text = str(exc).split("\n")[0]
        return True, "{}: {}".format(type(exc).__name__, text[:160])
    if unread:
        return False, "reads {} and leaves {} byte(s) unread".format(VL.short_repr(value, 60), unread)
    return False, "reads {}".format(VL.short_repr(value, 60))


def union_types():
    path = os.path.join(VL.group_dir("union"), "union.json")
    with open(path, encoding="utf-8") as fh:
        doc = json.load(fh)
    return [t for t in doc["types"] if t["name"] in ("Animal", "Dog", "Cat")]


def refused_by(read, detail=True):
    """(refuses, what pyfory said or read) for a reading function of pyfory; without
    `detail` only the kind of error (pyfory.format reads past a row whose slot points outside
    it, and what it then finds is whatever lies in memory: its message varies)."""
    try:
        value = read()
    except Exception as exc:  # noqa: BLE001 - pyfory's refusal is what we record
        if not detail:
            return True, type(exc).__name__
        text = str(exc).split("\n")[0]
        return True, "{}: {}".format(type(exc).__name__, text[:160])
    return False, "reads {}".format(VL.short_repr(value, 60))


def record(vec, outcome):
    refuses, said = outcome
    vec["pyfory" if refuses else "pyfory_accepts"] = said
    return vec


def document():
    VL.require_pyfory()
    import pyfory
    from generators import rows as row_gen
    from generators import union as union_gen

    defs = struct_types()
    table = VL.TypeTable(defs)
    vectors = []
    for name, rule, settings, schema, hexs, why in cases():
        data = bytes.fromhex(hexs)
        refuses, said = pyfory_outcome(settings, schema, data, table)
        vec = {"name": "reject/" + name, "rule": "spec/" + rule, "why": why, "settings": settings,
               "schema": schema, "hex": hexs, "expected_error": True}
        if refuses:
            vec["pyfory"] = said
        else:
            vec["pyfory_accepts"] = said
        vectors.append(vec)
    kinds = union_types()
    union_fory = union_gen.make_fory(SAME, union_gen.classes())
    for name, rule, settings, schema, hexs, why in union_cases():
        data = bytes.fromhex(hexs)
        vec = {"name": "reject/" + name, "rule": "spec/" + rule, "why": why, "settings": settings,
               "schema": schema, "hex": hexs, "expected_error": True, "kind_types": True}
        vectors.append(record(vec, refused_by(lambda: VL.deserialize_all(union_fory, data)[0])))
    oob_settings = dict(COMPAT, out_of_band=True)
    for name, rule, schema, hexs, buffers, why in oob_cases():
        data = bytes.fromhex(hexs)
        fory = VL.make_fory(COMPAT)

        def read_oob():
            buf = pyfory.Buffer(data)
            value = fory.deserialize(buf, buffers=[bytes.fromhex(b) for b in buffers])
            if buf.get_reader_index() != len(data):
                raise ValueError("bytes left after the root value")
            return value

        vec = {"name": "reject/" + name, "rule": "spec/" + rule, "why": why, "settings": oob_settings,
               "schema": schema, "hex": hexs, "buffers": buffers, "expected_error": True}
        vectors.append(record(vec, refused_by(read_oob)))
    row_schema = next(v["schema"] for v in json.load(open(
        os.path.join(VL.group_dir("rows"), "rows.json"), encoding="utf-8"))["vectors"] if v["name"] == "row/scalars")
    for name, rule, hexs, why in row_cases():
        data = bytes.fromhex(hexs)
        vec = {"name": "reject/" + name, "rule": "spec/" + rule, "why": why, "format": "row",
               "row_schema": row_schema, "hex": hexs, "expected_error": True}
        vectors.append(record(vec, refused_by(lambda: row_gen.decode_node(row_schema, data), detail=False)))
    return {"format": FORMAT, "peer": VL.PEER, "group": "reject",
            "about": "streams every reader MUST refuse: a decode of each must answer an error",
            "types": defs, "kind_types": kinds, "vectors": vectors}


def documents():
    return {"reject": document()}
