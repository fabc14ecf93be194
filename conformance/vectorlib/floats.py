"""Float bit patterns (all conversions exact) and float nodes."""

import math
import struct

from .types import FLOAT_HEX_WIDTH

__all__ = [
    "f64_bits", "f64_from_bits", "f32_bits", "f32_from_bits", "half_to_float", "float_to_half_exact",
    "bfloat16_to_float", "float_bits", "float_from_bits", "bits_hex", "float_node",
]


def f64_bits(x):
    return struct.unpack("<Q", struct.pack("<d", x))[0]


def f64_from_bits(bits):
    return struct.unpack("<d", struct.pack("<Q", bits))[0]


def f32_bits(x):
    return struct.unpack("<I", struct.pack("<f", x))[0]


def f32_from_bits(bits):
    return struct.unpack("<f", struct.pack("<I", bits))[0]


def half_to_float(bits):
    """float16 bit pattern -> Python float (exact)."""
    sign = -1.0 if bits & 0x8000 else 1.0
    exp = (bits >> 10) & 0x1F
    mant = bits & 0x3FF
    if exp == 0x1F:
        if mant == 0:
            return sign * math.inf
        # keep the payload: widen through the float32 pattern
        return f32_from_bits(((bits & 0x8000) << 16) | 0x7F800000 | (mant << 13))
    if exp == 0:
        return sign * math.ldexp(mant, -24)
    return sign * math.ldexp(mant | 0x400, exp - 25)


def float_to_half_exact(x):
    """Python float -> float16 bits, or None if x is not exactly a float16."""
    if math.isnan(x):
        b32 = f32_bits(x)
        if b32 & 0x1FFF:
            return None  # payload bits a float16 cannot carry
        return ((b32 >> 16) & 0x8000) | 0x7C00 | ((b32 >> 13) & 0x3FF)
    sign = 0x8000 if math.copysign(1.0, x) < 0 else 0
    a = abs(x)
    if math.isinf(a):
        return sign | 0x7C00
    if a == 0.0:
        return sign
    mant, exp = math.frexp(a)  # a = mant * 2**exp, 0.5 <= mant < 1
    e = exp - 1  # a = 1.m * 2**e
    if e >= -14:
        if e > 15:
            return None
        frac = a / math.ldexp(1.0, e) - 1.0  # in [0, 1)
        m = frac * 1024
        if m != int(m):
            return None
        return sign | ((e + 15) << 10) | int(m)
    m = a / math.ldexp(1.0, -24)
    if m != int(m) or m >= 1024:
        return None
    return sign | int(m)


def bfloat16_to_float(bits):
    return f32_from_bits(bits << 16)


def float_bits(kind, x):
    """Bit pattern of Python float x in the given width, or None if inexact."""
    if kind == "float64":
        return f64_bits(x)
    if kind == "float32":
        try:
            b = f32_bits(x)
        except OverflowError:
            return None
        back = f32_from_bits(b)
        if not (back == x or (math.isnan(back) and math.isnan(x))):
            return None
        if back == 0.0 and math.copysign(1.0, back) != math.copysign(1.0, x):
            return None
        return b
    if kind == "bfloat16":
        b = float_bits("float32", x)
        if b is None or (b & 0xFFFF) != 0:
            return None
        return b >> 16
    if kind == "float16":
        return float_to_half_exact(x)
    raise ValueError(kind)


def float_from_bits(kind, bits):
    if kind == "float64":
        return f64_from_bits(bits)
    if kind == "float32":
        return f32_from_bits(bits)
    if kind == "bfloat16":
        return bfloat16_to_float(bits)
    if kind == "float16":
        return half_to_float(bits)
    raise ValueError(kind)


def bits_hex(kind, bits):
    return format(bits, "0{}x".format(FLOAT_HEX_WIDTH[kind]))


def float_node(kind, bits):
    node = {"type": kind, "bits": bits_hex(kind, bits)}
    x = float_from_bits(kind, bits)
    if math.isfinite(x):
        node["approx"] = x
    return node
