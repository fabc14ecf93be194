"""Meta strings: the compact encodings pyfory 1.7.7 uses for namespaces,
type names (in the stream, and in TypeDefs) and TypeDef field names."""

import struct

from .hashing import MASK64, murmur3_x64_128, to_signed
from .primitives import var_uint32_bytes

__all__ = [
    "META_ENCODING_NAMES", "META_SPECIALS", "META_SMALL_LIMIT", "meta_string_encoding",
    "encoding_after_lower_special", "meta_string_encode", "meta_string_encode_as", "meta_string_decode",
    "meta_string_hash", "meta_string_first_write",
]

# encoding index -> name
META_ENCODING_NAMES = (
    "UTF_8",
    "LOWER_SPECIAL",
    "LOWER_UPPER_DIGIT_SPECIAL",
    "FIRST_TO_LOWER_SPECIAL",
    "ALL_TO_LOWER_SPECIAL",
)
# role -> the two special characters of the 6-bit alphabet (values 62, 63);
# "field" (TypeDef field names) has the type names' pair
META_SPECIALS = {"namespace": (".", "_"), "typename": ("$", "_"), "field": ("$", "_")}
_LOWER_SPECIAL_ALPHABET = "abcdefghijklmnopqrstuvwxyz._$|"  # values 0..29
_LUDS_ALPHABET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"  # values 0..61
META_SMALL_LIMIT = 16  # longer encodings carry an 8-byte hash on the wire


def _ascii_lower(c):
    return "a" <= c <= "z"


def _ascii_upper(c):
    return "A" <= c <= "Z"


def _ascii_digit(c):
    return "0" <= c <= "9"


def encoding_after_lower_special(text, role):
    """The encoding index pyfory picks once LOWER_SPECIAL is out (a stream
    meta string that needs more, or any TypeDef name): text of letters,
    digits and the role's two specials is LOWER_UPPER_DIGIT_SPECIAL when it
    has a digit, FIRST_TO_LOWER_SPECIAL when its only capital leads,
    ALL_TO_LOWER_SPECIAL when (len + capitals) * 5 < len * 6, else
    LOWER_UPPER_DIGIT_SPECIAL; any other text is UTF_8."""
    sp1, sp2 = META_SPECIALS[role]
    if not all(_ascii_lower(c) or _ascii_upper(c) or _ascii_digit(c) or c in (sp1, sp2) for c in text):
        return 0
    if any(_ascii_digit(c) for c in text):
        return 2
    uppers = sum(1 for c in text if _ascii_upper(c))
    if uppers == 1 and _ascii_upper(text[0]):
        return 3
    if (len(text) + uppers) * 5 < len(text) * 6:
        return 4
    return 2


def meta_string_encoding(text, role):
    """Encoding index pyfory picks for a namespace/type name in the stream
    (ASCII input; pyfory 1.7.7 cannot encode names with non-ASCII letters,
    see README)."""
    if not text:
        return 0
    if all(_ascii_lower(c) or c in "._$|" for c in text):
        return 1
    return encoding_after_lower_special(text, role)


def _pack_bits(values, width):
    total = len(values) * width + 1  # one leading flag bit
    nbytes = (total + 7) // 8
    acc = 0
    for v in values:
        acc = (acc << width) | v
    acc <<= nbytes * 8 - total
    out = bytearray(acc.to_bytes(nbytes, "big"))
    if nbytes * 8 >= total + width:  # room for one more (spurious) char: flag it
        out[0] |= 0x80
    return bytes(out)


def _unpack_bits(data, width):
    count = (len(data) * 8 - 1) // width
    if data[0] & 0x80:
        count -= 1
    acc = int.from_bytes(data, "big")
    nbits = len(data) * 8
    out = []
    for i in range(count):
        shift = nbits - 1 - width * (i + 1)
        out.append((acc >> shift) & ((1 << width) - 1))
    return out


def meta_string_encode_as(text, enc, role):
    """Encode ``text`` with the META_ENCODING_NAMES index ``enc``; ``role``
    ("namespace", "typename" or "field") gives the two special characters."""
    if not text:
        return b""
    if enc == 0:
        return text.encode("utf-8")
    if enc in (1, 3, 4):
        if enc == 3:
            chars = text[0].lower() + text[1:]
        elif enc == 4:
            chars = "".join("|" + c.lower() if _ascii_upper(c) else c for c in text)
        else:
            chars = text
        return _pack_bits([_LOWER_SPECIAL_ALPHABET.index(c) for c in chars], 5)
    table = _LUDS_ALPHABET + "".join(META_SPECIALS[role])
    return _pack_bits([table.index(c) for c in text], 6)


def meta_string_encode(text, role):
    """(encoding index, encoded bytes) of a namespace or type name in the stream."""
    enc = meta_string_encoding(text, role)
    return enc, meta_string_encode_as(text, enc, role)


def meta_string_decode(data, enc, role):
    if not data:
        return ""
    if enc == 0:
        return data.decode("utf-8")
    if enc == 2:
        table = _LUDS_ALPHABET + "".join(META_SPECIALS[role])
        return "".join(table[v] for v in _unpack_bits(data, 6))
    if enc not in (1, 3, 4):
        raise ValueError("unknown meta string encoding {}".format(enc))
    vals = _unpack_bits(data, 5)
    if any(v >= len(_LOWER_SPECIAL_ALPHABET) for v in vals):
        raise ValueError("bad 5-bit meta string character")
    text = "".join(_LOWER_SPECIAL_ALPHABET[v] for v in vals)
    if enc == 3:
        return text[:1].upper() + text[1:]
    if enc == 4:
        out, i = [], 0
        while i < len(text):
            if text[i] == "|":
                if i + 1 >= len(text):
                    raise ValueError("trailing escape in ALL_TO_LOWER_SPECIAL meta string")
                out.append(text[i + 1].upper())
                i += 2
            else:
                out.append(text[i])
                i += 1
        return "".join(out)
    return text


def meta_string_hash(data, enc):
    """The signed 64-bit hash written before an encoding longer than 16 bytes:
    the first half of MurmurHash3_x64_128(data, seed 47) with its low byte
    replaced by the encoding index."""
    h1 = murmur3_x64_128(data, 47)[0]
    return to_signed((h1 & ~0xFF & MASK64) | enc, 64)


def meta_string_first_write(enc, data, hashcode=None):
    """Bytes of a meta string the first time it appears in a stream.
    ``hashcode`` replaces our meta_string_hash (to show what pyfory wrote)."""
    out = bytearray(var_uint32_bytes(len(data) << 1))
    if len(data) > META_SMALL_LIMIT:
        out += struct.pack("<q", meta_string_hash(data, enc) if hashcode is None else hashcode)
    elif data:
        out.append(enc)
    return bytes(out + data)
