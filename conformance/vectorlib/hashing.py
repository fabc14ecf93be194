"""MurmurHash3 x64 128 (pyfory's hash of struct fingerprints, long meta
strings and TypeDefs) and the integer wrapping it needs."""

__all__ = ["MASK64", "to_signed", "murmur3_x64_128"]

MASK64 = (1 << 64) - 1


def to_signed(value, bits):
    value &= (1 << bits) - 1
    return value - (1 << bits) if value >> (bits - 1) else value


def _rotl64(x, r):
    return ((x << r) | (x >> (64 - r))) & MASK64


def _fmix64(k):
    k ^= k >> 33
    k = (k * 0xFF51AFD7ED558CCD) & MASK64
    k ^= k >> 33
    k = (k * 0xC4CEB9FE1A85EC53) & MASK64
    k ^= k >> 33
    return k


def murmur3_x64_128(data, seed):
    """MurmurHash3 x64 128-bit; returns (h1, h2) as unsigned 64-bit ints."""
    c1, c2 = 0x87C37B91114253D5, 0x4CF5AD432745937F
    h1 = h2 = seed & MASK64
    n = len(data)
    full = n - n % 16
    for off in range(0, full, 16):
        k1 = int.from_bytes(data[off : off + 8], "little")
        k2 = int.from_bytes(data[off + 8 : off + 16], "little")
        k1 = (_rotl64((k1 * c1) & MASK64, 31) * c2) & MASK64
        h1 ^= k1
        h1 = (((_rotl64(h1, 27) + h2) & MASK64) * 5 + 0x52DCE729) & MASK64
        k2 = (_rotl64((k2 * c2) & MASK64, 33) * c1) & MASK64
        h2 ^= k2
        h2 = (((_rotl64(h2, 31) + h1) & MASK64) * 5 + 0x38495AB5) & MASK64
    tail = data[full:]
    if len(tail) > 8:
        k2 = int.from_bytes(tail[8:], "little")
        h2 ^= (_rotl64((k2 * c2) & MASK64, 33) * c1) & MASK64
    if tail:
        k1 = int.from_bytes(tail[:8], "little")
        h1 ^= (_rotl64((k1 * c1) & MASK64, 31) * c2) & MASK64
    h1 ^= n
    h2 ^= n
    h1 = (h1 + h2) & MASK64
    h2 = (h2 + h1) & MASK64
    h1 = _fmix64(h1)
    h2 = _fmix64(h2)
    h1 = (h1 + h2) & MASK64
    h2 = (h2 + h1) & MASK64
    return h1, h2
