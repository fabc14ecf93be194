"""Byte-level primitives: a cursor that reads the xlang integer encodings,
and the var_uint32 writer.  Shared by the value decoder (wire.py), the
TypeDef codec (typedef.py) and the meta-string writer (meta_string.py)."""

from .errors import WireError

__all__ = ["ByteReader", "var_uint32_bytes"]


class ByteReader:
    def __init__(self, data):
        self.data = bytes(data)
        self.pos = 0

    def fail(self, msg):
        raise WireError("offset {}: {}".format(self.pos, msg))

    def take(self, n):
        if n < 0 or self.pos + n > len(self.data):
            self.fail("need {} bytes, {} left".format(n, len(self.data) - self.pos))
        b = self.data[self.pos : self.pos + n]
        self.pos += n
        return b

    def u8(self):
        return self.take(1)[0]

    def fixed(self, size, signed):
        return int.from_bytes(self.take(size), "little", signed=signed)

    def _leb128(self, groups):
        """Up to ``groups`` bytes of 7 bits each: (value, whether a byte without
        the continuation bit ended it)."""
        result = 0
        for i in range(groups):
            b = self.u8()
            result |= (b & 0x7F) << (7 * i)
            if b < 0x80:
                return result, True
        return result, False

    def var_uint32(self):
        result, ended = self._leb128(5)
        if not ended:
            self.fail("var_uint32 longer than 5 bytes")
        if result >= 1 << 32:
            self.fail("var_uint32 overflow")
        return result

    def var_uint64(self):
        # 8 groups of 7 bits, then a 9th byte carrying 8 full bits
        result, ended = self._leb128(8)
        return result if ended else result | (self.u8() << 56)

    @staticmethod
    def unzigzag(n):
        return (n >> 1) ^ -(n & 1)

    def _tagged(self, signed, what):
        # lowest bit 0: a 4-byte value << 1; otherwise 0x01 and 8 bytes
        if self.pos >= len(self.data):
            self.fail("truncated tagged {}".format(what))
        if self.data[self.pos] & 1 == 0:
            return self.fixed(4, signed) >> 1
        self.take(1)
        return self.fixed(8, signed)

    def tagged_int64(self):
        return self._tagged(True, "int64")

    def tagged_uint64(self):
        return self._tagged(False, "uint64")


def var_uint32_bytes(v):
    out = bytearray()
    while True:
        b = v & 0x7F
        v >>= 7
        if v:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)
