#!/usr/bin/env python3
"""Write the DECIMAL vectors (conformance/vectors_decimal/decimal.json).

pyfory 1.7.7 writes a ``decimal.Decimal`` as DECIMAL (40): the scale (the
negated exponent) as a zigzag varint32, then the unscaled integer, small
form ``zigzag(unscaled) << 1`` (varuint64, bit 0 clear) when that fits 64
bits, else big form: varuint64 ``len << 2 | negative << 1 | 1`` and ``len``
bytes of magnitude, little-endian.  Each vector is confirmed: pyfory reads
its bytes back to the same sign, digits and exponent.  ``value`` holds the
unscaled integer (decimal text) and the scale.

Usage:
    python conformance/generate_decimal.py            # (re)write the file
    python conformance/generate_decimal.py --check    # compare with the file on disk
    python conformance/generate_decimal.py --check-peer FILE
        # pyfory reads another writer's streams ({"name", "hex"} list) to the values
"""

import argparse
import decimal
import json
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import vectorlib as VL  # noqa: E402

OUT = os.path.join(VL.CONFORMANCE_DIR, "vectors_decimal", "decimal.json")
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
            sys.exit("generate_decimal.py: {}: pyfory reads back {}".format(name, back))
        vectors.append({"name": "decimal/" + name, "python": "decimal.Decimal({!r})".format(text),
                        "settings": SETTINGS, "schema": "decimal", "value": value_of(d), "text": str(d),
                        "hex": data.hex(), "writer_same": True})
    return {"format": VL.VECTOR_FORMAT, "peer": VL.PEER, "group": "decimal", "vectors": vectors}


def check_peer(path):
    with open(OUT, encoding="utf-8") as fh:
        by_name = {v["name"]: v for v in json.load(fh)["vectors"]}
    with open(path, encoding="utf-8") as fh:
        written = json.load(fh)
    fory = VL.make_fory(SETTINGS)
    failures, seen = [], set()
    for w in written:
        vec = by_name.get(w["name"])
        if vec is None:
            failures.append("{}: not a vector".format(w["name"]))
            continue
        seen.add(w["name"])
        try:
            got = value_of(fory.deserialize(bytes.fromhex(w["hex"])))
        except Exception as exc:  # noqa: BLE001
            failures.append("{}: pyfory could not read it: {!r}".format(w["name"], exc))
            continue
        if got != vec["value"]:
            failures.append("{}: pyfory read {}, expected {}".format(w["name"], got, vec["value"]))
    missing = sorted(set(by_name) - seen)
    if missing:
        failures.append("no bytes for: " + ", ".join(missing))
    for f in failures:
        print("FAIL", f)
    print("{} of {} decimal vectors read by pyfory {}".format(len(seen) - len(failures), len(by_name),
                                                             VL.PYFORY_VERSION))
    return 1 if failures else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--check-peer", metavar="FILE")
    args = ap.parse_args()
    if args.check_peer:
        return check_peer(args.check_peer)
    text = json.dumps(document(), indent=2) + "\n"
    if args.check:
        with open(OUT, encoding="utf-8") as fh:
            if fh.read() != text:
                print("generate_decimal.py: {} is not what pinned pyfory writes; rerun without --check".format(OUT))
                return 1
        print("generate_decimal.py: {} is current".format(os.path.relpath(OUT)))
        return 0
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w", encoding="utf-8") as fh:
        fh.write(text)
    print("wrote {} vectors to {}".format(len(CASES), os.path.relpath(OUT)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
