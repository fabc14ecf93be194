"""Write the DECIMAL vectors (conformance/vectors/decimal/decimal.json).

pyfory 1.7.7 writes a ``decimal.Decimal`` as DECIMAL (40): the scale (the
negated exponent) as a zigzag varint32, then the unscaled integer, small
form ``zigzag(unscaled) << 1`` (varuint64, bit 0 clear) when that fits 64
bits, else big form: varuint64 ``len << 2 | negative << 1 | 1`` and ``len``
bytes of magnitude, little-endian.  Each vector is confirmed: pyfory reads
its bytes back to the same sign, digits and exponent.  ``value`` holds the
unscaled integer (decimal text) and the scale.

Usage:
    python conformance/generate.py decimal            # (re)write vectors/decimal/
    python conformance/generate.py --check decimal    # compare with the files on disk
        # pyfory reads another writer's streams ({"name", "hex"} list) to the values
"""

import decimal
import sys

import vectorlib as VL  # noqa: E402

SETTINGS = {"xlang": True, "ref": False, "compatible": True}

# name -> the Decimal's text
CASES = [
    ("zero", "0"), ("one", "1"), ("minus_one", "-1"), ("one_and_a_half", "1.5"),
    ("negative_scaled", "-123.456"), ("zero_scale_3", "0.000"), ("pi_5", "3.14159"),
    ("negative_scale", "1E+10"), ("small_limit_below", str(2**62 - 1)),
    ("small_limit_negative", str(-(2**62))), ("big_2_62", str(2**62)),
    ("big_negative_past_limit", str(-(2**62) - 1)), ("big_2_63", str(2**63)),
    ("big_fraction", "12345678901234567890.12"), ("big_negative", "-98765432109876543210987654321"),
    ("big_40_digits", "1234567890123456789012345678901234567890"),
    ("tiny", "0.000000000000000000000000000001"), ("seven_zeros", "0.00000001"), ("six_zeros", "0.0000001"),
    ("exponent_with_digits", "123E+2"), ("negative_small", "-0.050"),
]


def value_of(d):
    sign, digits, exp = d.as_tuple()
    unscaled = int("".join(map(str, digits)) or "0")
    return {"unscaled": str(-unscaled if sign else unscaled), "scale": -exp}


def document():
    VL.require_pyfory()
    fory = VL.make_fory(SETTINGS)
    vectors = []
    for name, text in CASES:
        d = decimal.Decimal(text)
        data = bytes(fory.serialize(d))
        back = fory.deserialize(data)
        if back.as_tuple() != d.as_tuple():
            sys.exit("generators/decimal.py: {}: pyfory reads back {}".format(name, back))
        vectors.append({"name": "decimal/" + name, "python": "decimal.Decimal({!r})".format(text),
                        "settings": SETTINGS, "schema": "decimal", "value": value_of(d), "text": str(d),
                        "hex": data.hex(), "writer_same": True})
    return {"format": VL.VECTOR_FORMAT, "peer": VL.PEER, "group": "decimal", "vectors": vectors}


def check_peer(path):
    fory = VL.make_fory(SETTINGS)

    def read(_vec, data):
        return value_of(fory.deserialize(data))

    return VL.peer_check("decimal", "decimal", path, VL.plain_read_back(read))


def documents():
    return {"decimal": document()}
