//! The five meta-string encodings, the rule that picks one, and decoding (bit layout: see
//! the `meta` module documentation).

use crate::error::{Error, ErrorKind, Result};

/// Longest meta string pyfory accepts: fewer than 32767 characters.
pub const MAX_META_STRING_CHARS: usize = 32766;

/// How the bytes of a meta string encode its characters. The discriminant is the id pyfory
/// writes on the wire.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum MetaEncoding {
    /// Plain UTF-8 bytes.
    Utf8 = 0,
    /// 5 bits per character from `a-z . _ $ |`.
    LowerSpecial = 1,
    /// 6 bits per character from `a-z A-Z 0-9` and the context's two special characters.
    LowerUpperDigitSpecial = 2,
    /// The first character is an upper-case letter stored lower-cased, then
    /// [`LowerSpecial`](Self::LowerSpecial).
    FirstToLowerSpecial = 3,
    /// Every upper-case letter `X` is stored as `|x`, then [`LowerSpecial`](Self::LowerSpecial).
    AllToLowerSpecial = 4,
}

impl MetaEncoding {
    /// All encodings, in id order.
    pub const ALL: [MetaEncoding; 5] = [
        MetaEncoding::Utf8,
        MetaEncoding::LowerSpecial,
        MetaEncoding::LowerUpperDigitSpecial,
        MetaEncoding::FirstToLowerSpecial,
        MetaEncoding::AllToLowerSpecial,
    ];

    /// The wire id (0 to 4).
    #[inline]
    pub const fn id(self) -> u8 {
        self as u8
    }

    /// The encoding with wire id `id`, if there is one.
    ///
    /// ```
    /// use fury::meta::MetaEncoding;
    /// assert_eq!(MetaEncoding::from_id(1), Some(MetaEncoding::LowerSpecial));
    /// assert_eq!(MetaEncoding::from_id(5), None);
    /// ```
    #[inline]
    pub const fn from_id(id: u8) -> Option<MetaEncoding> {
        match id {
            0 => Some(MetaEncoding::Utf8),
            1 => Some(MetaEncoding::LowerSpecial),
            2 => Some(MetaEncoding::LowerUpperDigitSpecial),
            3 => Some(MetaEncoding::FirstToLowerSpecial),
            4 => Some(MetaEncoding::AllToLowerSpecial),
            _ => None,
        }
    }

    /// The name used by the Fory specification, e.g. `"LOWER_SPECIAL"`.
    pub const fn name(self) -> &'static str {
        match self {
            MetaEncoding::Utf8 => "UTF8",
            MetaEncoding::LowerSpecial => "LOWER_SPECIAL",
            MetaEncoding::LowerUpperDigitSpecial => "LOWER_UPPER_DIGIT_SPECIAL",
            MetaEncoding::FirstToLowerSpecial => "FIRST_TO_LOWER_SPECIAL",
            MetaEncoding::AllToLowerSpecial => "ALL_TO_LOWER_SPECIAL",
        }
    }

    /// Bits per character of the packed encodings; `None` for UTF-8.
    const fn bits_per_char(self) -> Option<usize> {
        match self {
            MetaEncoding::Utf8 => None,
            MetaEncoding::LowerUpperDigitSpecial => Some(6),
            _ => Some(5),
        }
    }
}

/// Every encoding, for the contexts that do not restrict them (type info).
const ALL_ENCODINGS: &[MetaEncoding] = &MetaEncoding::ALL;
/// pyfory's `NAMESPACE_ENCODINGS` (TypeDef namespaces); the index is the 2-bit wire flag.
const TYPEDEF_NAMESPACE_ENCODINGS: &[MetaEncoding] = &[
    MetaEncoding::Utf8,
    MetaEncoding::AllToLowerSpecial,
    MetaEncoding::LowerUpperDigitSpecial,
];
/// pyfory's `TYPE_NAME_ENCODINGS` (TypeDef type names); the index is the 2-bit wire flag.
const TYPEDEF_TYPE_NAME_ENCODINGS: &[MetaEncoding] = &[
    MetaEncoding::Utf8,
    MetaEncoding::AllToLowerSpecial,
    MetaEncoding::LowerUpperDigitSpecial,
    MetaEncoding::FirstToLowerSpecial,
];
/// pyfory's `FIELD_NAME_ENCODINGS`; the index is the 2-bit field-header flag.
const FIELD_NAME_ENCODINGS: &[MetaEncoding] = &[
    MetaEncoding::Utf8,
    MetaEncoding::AllToLowerSpecial,
    MetaEncoding::LowerUpperDigitSpecial,
];

/// Chooses, encodes and decodes meta strings for one context: the two special characters of
/// the 6-bit encoding and the set of encodings the context allows.
///
/// | constructor | used for | specials (codes 62, 63) | encodings |
/// |---|---|---|---|
/// | [`namespace`](Self::namespace) | namespace in type info | `.` `_` | all five |
/// | [`type_name`](Self::type_name) | type name in type info | `$` `_` | all five |
/// | [`typedef_namespace`](Self::typedef_namespace) | namespace in a TypeDef | `.` `_` | UTF8, ALL_TO_LOWER, LUDS |
/// | [`typedef_type_name`](Self::typedef_type_name) | type name in a TypeDef | `$` `_` | UTF8, ALL_TO_LOWER, LUDS, FIRST_TO_LOWER |
/// | [`field_name`](Self::field_name) | field name in a TypeDef | `$` `_` | UTF8, ALL_TO_LOWER, LUDS |
///
/// ```
/// use fury::meta::{MetaEncoding, MetaStringEncoder};
///
/// let ns = MetaStringEncoder::namespace().encode("demo").unwrap();
/// assert_eq!(ns.encoding(), MetaEncoding::LowerSpecial);
/// assert_eq!(ns.bytes(), [0x0c, 0x8c, 0x70]);
///
/// let ty = MetaStringEncoder::type_name();
/// let point = ty.encode("Point").unwrap();
/// assert_eq!(point.encoding(), MetaEncoding::FirstToLowerSpecial);
/// assert_eq!(ty.decode(point.bytes(), point.encoding()).unwrap(), "Point");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MetaStringEncoder {
    special1: u8,
    special2: u8,
    encodings: &'static [MetaEncoding],
}

/// What the encoder learns about a string in one pass.
struct Stats {
    /// Every character is in `a-z . _ $ |`.
    lower_special: bool,
    /// Every character is in `a-z A-Z 0-9` or one of the two specials.
    luds: bool,
    digits: usize,
    uppers: usize,
    first_upper: bool,
    chars: usize,
}

impl MetaStringEncoder {
    /// Namespaces written in type info (`NAMED_STRUCT`, `NAMED_ENUM`, ...): specials `.` `_`,
    /// every encoding allowed.
    pub const fn namespace() -> Self {
        MetaStringEncoder {
            special1: b'.',
            special2: b'_',
            encodings: ALL_ENCODINGS,
        }
    }

    /// Type names written in type info: specials `$` `_`, every encoding allowed.
    pub const fn type_name() -> Self {
        MetaStringEncoder {
            special1: b'$',
            special2: b'_',
            encodings: ALL_ENCODINGS,
        }
    }

    /// Namespaces inside a TypeDef (compatible mode): specials `.` `_`; UTF8,
    /// ALL_TO_LOWER_SPECIAL and LOWER_UPPER_DIGIT_SPECIAL only.
    pub const fn typedef_namespace() -> Self {
        MetaStringEncoder {
            special1: b'.',
            special2: b'_',
            encodings: TYPEDEF_NAMESPACE_ENCODINGS,
        }
    }

    /// Type names inside a TypeDef: specials `$` `_`; UTF8, ALL_TO_LOWER_SPECIAL,
    /// LOWER_UPPER_DIGIT_SPECIAL and FIRST_TO_LOWER_SPECIAL.
    pub const fn typedef_type_name() -> Self {
        MetaStringEncoder {
            special1: b'$',
            special2: b'_',
            encodings: TYPEDEF_TYPE_NAME_ENCODINGS,
        }
    }

    /// Field names inside a TypeDef: specials `$` `_`; UTF8, ALL_TO_LOWER_SPECIAL and
    /// LOWER_UPPER_DIGIT_SPECIAL.
    pub const fn field_name() -> Self {
        MetaStringEncoder {
            special1: b'$',
            special2: b'_',
            encodings: FIELD_NAME_ENCODINGS,
        }
    }

    /// The characters coded 62 and 63 by LOWER_UPPER_DIGIT_SPECIAL.
    #[cfg(test)]
    pub const fn special_chars(&self) -> (char, char) {
        (self.special1 as char, self.special2 as char)
    }

    /// The encodings this context may produce, in pyfory's order: in a TypeDef the position
    /// in this list is the 2-bit encoding flag written on the wire.
    pub const fn encodings(&self) -> &'static [MetaEncoding] {
        self.encodings
    }

    #[inline]
    fn allows(&self, e: MetaEncoding) -> bool {
        self.encodings.contains(&e)
    }

    #[inline]
    fn is_lower_special_char(c: char) -> bool {
        c.is_ascii_lowercase() || matches!(c, '.' | '_' | '$' | '|')
    }

    #[inline]
    fn is_luds_char(&self, c: char) -> bool {
        c.is_ascii_alphanumeric() || c == self.special1 as char || c == self.special2 as char
    }

    fn stats(&self, s: &str) -> Stats {
        let mut st = Stats {
            lower_special: true,
            luds: true,
            digits: 0,
            uppers: 0,
            first_upper: s.chars().next().is_some_and(|c| c.is_ascii_uppercase()),
            chars: 0,
        };
        for c in s.chars() {
            st.chars += 1;
            st.lower_special &= Self::is_lower_special_char(c);
            st.luds &= self.is_luds_char(c);
            st.digits += usize::from(c.is_ascii_digit());
            st.uppers += usize::from(c.is_ascii_uppercase());
        }
        st
    }

    /// The encoding [`encode`](Self::encode) uses for `s`.
    ///
    /// The rule, in pyfory 1.7.7's order (character classes are ASCII):
    /// 1. empty string: UTF8 (no bytes);
    /// 2. every character in `a-z . _ $ |` and LOWER_SPECIAL allowed: LOWER_SPECIAL;
    /// 3. every character in `a-z A-Z 0-9` plus the two specials, and LUDS allowed:
    ///    - any digit: LOWER_UPPER_DIGIT_SPECIAL;
    ///    - exactly one upper-case letter, in first position: FIRST_TO_LOWER_SPECIAL
    ///      (skipped where the context does not allow it; pyfory raises an error instead);
    ///    - `(chars + uppers) * 5 < chars * 6` and ALL_TO_LOWER allowed: ALL_TO_LOWER_SPECIAL;
    ///    - otherwise LOWER_UPPER_DIGIT_SPECIAL;
    /// 4. otherwise UTF8.
    ///
    /// ```
    /// use fury::meta::{MetaEncoding as E, MetaStringEncoder};
    /// let ty = MetaStringEncoder::type_name();
    /// assert_eq!(ty.compute_encoding("my_type"), E::LowerSpecial);
    /// assert_eq!(ty.compute_encoding("Point"), E::FirstToLowerSpecial);
    /// assert_eq!(ty.compute_encoding("myField"), E::AllToLowerSpecial); // 8 * 5 < 7 * 6
    /// assert_eq!(ty.compute_encoding("MyType"), E::LowerUpperDigitSpecial); // 8 * 5 >= 6 * 6
    /// assert_eq!(
    ///     ty.compute_encoding("MyHTTPServer2"),
    ///     E::LowerUpperDigitSpecial
    /// );
    /// assert_eq!(ty.compute_encoding("a-b"), E::Utf8);
    /// ```
    pub fn compute_encoding(&self, s: &str) -> MetaEncoding {
        if s.is_empty() {
            return MetaEncoding::Utf8;
        }
        let st = self.stats(s);
        if st.lower_special && self.allows(MetaEncoding::LowerSpecial) {
            return MetaEncoding::LowerSpecial;
        }
        if st.luds && self.allows(MetaEncoding::LowerUpperDigitSpecial) {
            if st.digits != 0 {
                return MetaEncoding::LowerUpperDigitSpecial;
            }
            if st.uppers == 1 && st.first_upper && self.allows(MetaEncoding::FirstToLowerSpecial) {
                return MetaEncoding::FirstToLowerSpecial;
            }
            if (st.chars + st.uppers) * 5 < st.chars * 6
                && self.allows(MetaEncoding::AllToLowerSpecial)
            {
                return MetaEncoding::AllToLowerSpecial;
            }
            return MetaEncoding::LowerUpperDigitSpecial;
        }
        MetaEncoding::Utf8
    }

    /// Encodes `s` with the encoding chosen by [`compute_encoding`](Self::compute_encoding).
    ///
    /// Fails only for strings of 32767 characters or more, which pyfory refuses too.
    pub fn encode(&self, s: &str) -> Result<MetaString> {
        self.encode_with(s, self.compute_encoding(s))
    }

    /// Encodes `s` with `encoding`.
    ///
    /// Fails when `s` has 32767 characters or more, or when a character cannot be represented
    /// in `encoding` so that decoding would give `s` back (for FIRST_TO_LOWER_SPECIAL the
    /// first character must be `A-Z`; ALL_TO_LOWER_SPECIAL refuses `|`). The empty string
    /// is always UTF8 with no bytes, whatever `encoding` asks.
    pub fn encode_with(&self, s: &str, encoding: MetaEncoding) -> Result<MetaString> {
        let chars = s.chars().count();
        if chars > MAX_META_STRING_CHARS {
            return Err(Error::new(ErrorKind::LengthTooLarge {
                what: "meta string (characters)",
                declared: chars as u64,
                limit: MAX_META_STRING_CHARS as u64,
            }));
        }
        if s.is_empty() {
            return Ok(self.make(s, MetaEncoding::Utf8, Vec::new()));
        }
        let bytes = match encoding {
            MetaEncoding::Utf8 => s.as_bytes().to_vec(),
            MetaEncoding::LowerSpecial => {
                let codes = s
                    .chars()
                    .map(|c| lower_special_code(c).ok_or_else(|| unencodable(c, encoding)))
                    .collect::<Result<Vec<u8>>>()?;
                pack(&codes, 5)
            }
            MetaEncoding::LowerUpperDigitSpecial => {
                let codes = s
                    .chars()
                    .map(|c| self.luds_code(c).ok_or_else(|| unencodable(c, encoding)))
                    .collect::<Result<Vec<u8>>>()?;
                pack(&codes, 6)
            }
            MetaEncoding::FirstToLowerSpecial => {
                let mut codes = Vec::with_capacity(chars);
                for (i, c) in s.chars().enumerate() {
                    let code = if i == 0 {
                        c.is_ascii_uppercase()
                            .then(|| lower_special_code(c.to_ascii_lowercase()))
                            .flatten()
                    } else {
                        lower_special_code(c)
                    };
                    codes.push(code.ok_or_else(|| unencodable(c, encoding))?);
                }
                pack(&codes, 5)
            }
            MetaEncoding::AllToLowerSpecial => {
                let mut codes = Vec::with_capacity(chars + chars / 2);
                for c in s.chars() {
                    if c.is_ascii_uppercase() {
                        codes.push(ESCAPE_CODE);
                        codes.push(c as u8 - b'A');
                    } else if c == '|' {
                        return Err(unencodable(c, encoding));
                    } else {
                        codes.push(lower_special_code(c).ok_or_else(|| unencodable(c, encoding))?);
                    }
                }
                pack(&codes, 5)
            }
        };
        Ok(self.make(s, encoding, bytes))
    }

    fn make(&self, s: &str, encoding: MetaEncoding, bytes: Vec<u8>) -> MetaString {
        MetaString {
            original: s.to_owned(),
            encoding,
            bytes,
        }
    }

    #[inline]
    fn luds_code(&self, c: char) -> Option<u8> {
        match c {
            'a'..='z' => Some(c as u8 - b'a'),
            'A'..='Z' => Some(c as u8 - b'A' + 26),
            '0'..='9' => Some(c as u8 - b'0' + 52),
            _ if c == self.special1 as char => Some(62),
            _ if c == self.special2 as char => Some(63),
            _ => None,
        }
    }

    /// Decodes `data`, stored with `encoding`, back to text. Error offsets count from the
    /// start of `data`.
    ///
    /// Only the canonical form the encoder produces is accepted: besides invalid UTF-8 and
    /// 5-bit codes 30 and 31, this refuses a byte length or strip flag that the encoder would
    /// not produce for the decoded character count, set padding bits, an ALL_TO_LOWER
    /// escape `|` not followed by `a-z`, and a FIRST_TO_LOWER string not starting with `a-z`.
    /// Empty `data` is the empty string in every encoding.
    ///
    /// ```
    /// use fury::meta::{MetaEncoding, MetaStringEncoder};
    /// let ns = MetaStringEncoder::namespace();
    /// assert_eq!(
    ///     ns.decode(&[0x0c, 0x8c, 0x70], MetaEncoding::LowerSpecial)
    ///         .unwrap(),
    ///     "demo"
    /// );
    /// assert!(ns.decode(&[0xff, 0xfe], MetaEncoding::Utf8).is_err());
    /// ```
    pub fn decode(&self, data: &[u8], encoding: MetaEncoding) -> Result<String> {
        self.decode_at(data, encoding, 0)
    }

    /// [`decode`](Self::decode) for data found at `base` in some input; errors carry
    /// `base` plus the offset inside `data`.
    pub(crate) fn decode_at(
        &self,
        data: &[u8],
        encoding: MetaEncoding,
        base: usize,
    ) -> Result<String> {
        if data.is_empty() {
            return Ok(String::new());
        }
        let Some(bits) = encoding.bits_per_char() else {
            return match std::str::from_utf8(data) {
                Ok(s) => Ok(s.to_owned()),
                Err(e) => Err(Error::at(
                    ErrorKind::BadString {
                        encoding: "meta string UTF8",
                    },
                    base + e.valid_up_to(),
                )),
            };
        };
        let codes = unpack(data, bits, encoding, base)?;
        let bad = |what: String, at: usize| {
            Error::at(
                ErrorKind::Invalid {
                    what: format!("{} meta string: {what}", encoding.name()),
                },
                base + at,
            )
        };
        // Offset of the byte holding the start of character `i`.
        let at_char = |i: usize| (1 + i * bits) / 8;
        let mut out = String::with_capacity(codes.len());
        match encoding {
            MetaEncoding::Utf8 => {}
            MetaEncoding::LowerUpperDigitSpecial => {
                for &c in &codes {
                    out.push(match c {
                        0..=25 => (b'a' + c) as char,
                        26..=51 => (b'A' + c - 26) as char,
                        52..=61 => (b'0' + c - 52) as char,
                        62 => self.special1 as char,
                        _ => self.special2 as char,
                    });
                }
            }
            MetaEncoding::LowerSpecial => {
                for (i, &c) in codes.iter().enumerate() {
                    out.push(lower_special_char(c).ok_or_else(|| bad_code(i, encoding, base))?);
                }
            }
            MetaEncoding::FirstToLowerSpecial => {
                for (i, &c) in codes.iter().enumerate() {
                    let ch = lower_special_char(c).ok_or_else(|| bad_code(i, encoding, base))?;
                    if i == 0 {
                        if !ch.is_ascii_lowercase() {
                            return Err(bad(
                                format!("first character {ch:?} is not a letter"),
                                at_char(0),
                            ));
                        }
                        out.push(ch.to_ascii_uppercase());
                    } else {
                        out.push(ch);
                    }
                }
            }
            MetaEncoding::AllToLowerSpecial => {
                let mut escaped = false;
                for (i, &c) in codes.iter().enumerate() {
                    let ch = lower_special_char(c).ok_or_else(|| bad_code(i, encoding, base))?;
                    if escaped {
                        if !ch.is_ascii_lowercase() {
                            return Err(bad(
                                format!("escape '|' followed by {ch:?}, expected a-z"),
                                at_char(i),
                            ));
                        }
                        out.push(ch.to_ascii_uppercase());
                        escaped = false;
                    } else if c == ESCAPE_CODE {
                        escaped = true;
                    } else {
                        out.push(ch);
                    }
                }
                if escaped {
                    return Err(bad(
                        "ends with the escape character '|'".to_string(),
                        data.len() - 1,
                    ));
                }
            }
        }
        Ok(out)
    }
}

/// The 5-bit code of `|`, which ALL_TO_LOWER_SPECIAL uses as the upper-case escape.
const ESCAPE_CODE: u8 = 29;

#[inline]
fn lower_special_code(c: char) -> Option<u8> {
    match c {
        'a'..='z' => Some(c as u8 - b'a'),
        '.' => Some(26),
        '_' => Some(27),
        '$' => Some(28),
        '|' => Some(ESCAPE_CODE),
        _ => None,
    }
}

#[inline]
fn lower_special_char(code: u8) -> Option<char> {
    match code {
        0..=25 => Some((b'a' + code) as char),
        26 => Some('.'),
        27 => Some('_'),
        28 => Some('$'),
        29 => Some('|'),
        _ => None,
    }
}

#[cold]
fn unencodable(c: char, encoding: MetaEncoding) -> Error {
    Error::new(ErrorKind::Invalid {
        what: format!("character {c:?} cannot be encoded as {}", encoding.name()),
    })
}

#[cold]
fn bad_code(index: usize, encoding: MetaEncoding, base: usize) -> Error {
    Error::at(
        ErrorKind::BadString {
            encoding: match encoding {
                MetaEncoding::FirstToLowerSpecial => "meta string FIRST_TO_LOWER_SPECIAL",
                MetaEncoding::AllToLowerSpecial => "meta string ALL_TO_LOWER_SPECIAL",
                _ => "meta string LOWER_SPECIAL",
            },
        },
        // The byte holding the character's first bit.
        base + (1 + index * 5) / 8,
    )
}

/// Number of bytes the encoder produces for `n` characters of `bits` bits.
#[inline]
fn packed_len(n: usize, bits: usize) -> usize {
    (n * bits + 1).div_ceil(8)
}

/// Packs character codes of `bits` bits after the strip-flag bit, most significant bit
/// first, and sets the strip flag when the padding could hold another character.
fn pack(codes: &[u8], bits: usize) -> Vec<u8> {
    let total_bits = codes.len() * bits + 1;
    let len = total_bits.div_ceil(8);
    let mut out = Vec::with_capacity(len);
    // Bit accumulator: `acc` holds `nbits` pending bits in its low end.
    let mut acc: u32 = 0; // the strip flag, filled in below
    let mut nbits = 1u32;
    for &code in codes {
        acc = (acc << bits) | u32::from(code);
        nbits += bits as u32;
        while nbits >= 8 {
            nbits -= 8;
            out.push((acc >> nbits) as u8);
            acc &= (1 << nbits) - 1;
        }
    }
    if nbits > 0 {
        out.push((acc << (8 - nbits)) as u8);
    }
    if len * 8 >= total_bits + bits {
        if let Some(first) = out.first_mut() {
            *first |= 0x80;
        }
    }
    out
}

/// Unpacks the character codes of non-empty `data`, checking that the byte length, strip
/// flag and padding are exactly what [`pack`] produces.
fn unpack(data: &[u8], bits: usize, encoding: MetaEncoding, base: usize) -> Result<Vec<u8>> {
    let strip = data.first().is_some_and(|b| b & 0x80 != 0);
    let fitting = data.len().saturating_mul(8).saturating_sub(1) / bits;
    let n = fitting.saturating_sub(usize::from(strip));
    if n == 0 || packed_len(n, bits) != data.len() {
        return Err(Error::at(
            ErrorKind::Invalid {
                what: format!(
                    "{} meta string of {} byte(s) with strip flag {}: no character count \
                     encodes to that length",
                    encoding.name(),
                    data.len(),
                    u8::from(strip)
                ),
            },
            base,
        ));
    }
    let mask = (1u32 << bits) - 1;
    let mut codes = Vec::with_capacity(n);
    let mut acc: u32 = 0;
    let mut nbits = 0u32;
    let mut bytes = data.iter();
    // Skip the strip flag: load the first byte and drop its top bit.
    if let Some(&b) = bytes.next() {
        acc = u32::from(b & 0x7f);
        nbits = 7;
    }
    while codes.len() < n {
        while nbits < bits as u32 {
            let b = bytes.next().copied().unwrap_or(0);
            acc = (acc << 8) | u32::from(b);
            nbits += 8;
        }
        nbits -= bits as u32;
        codes.push(((acc >> nbits) & mask) as u8);
        acc &= (1 << nbits) - 1;
    }
    // The bits left in the last byte are padding and must be zero.
    if acc != 0 || bytes.next().is_some() {
        return Err(Error::at(
            ErrorKind::Invalid {
                what: format!("{} meta string has non-zero padding bits", encoding.name()),
            },
            base + data.len() - 1,
        ));
    }
    Ok(codes)
}

/// A string encoded for one meta-string context: the text, the encoding chosen and the
/// encoded bytes. Made by [`MetaStringEncoder::encode`].
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct MetaString {
    original: String,
    encoding: MetaEncoding,
    bytes: Vec<u8>,
}

impl MetaString {
    /// The text that was encoded.
    #[cfg(test)]
    pub fn as_str(&self) -> &str {
        &self.original
    }

    /// The encoding used.
    pub fn encoding(&self) -> MetaEncoding {
        self.encoding
    }

    /// The encoded bytes (empty for the empty string).
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pack_matches_known_bytes() {
        // "demo" as LOWER_SPECIAL (pyfory writes 0c 8c 70 for namespace "demo").
        assert_eq!(pack(&[3, 4, 12, 14], 5), [0x0c, 0x8c, 0x70]);
    }

    #[test]
    fn pack_unpack_round_trip_every_length() {
        for bits in [5usize, 6] {
            for n in 1..60usize {
                let codes: Vec<u8> = (0..n).map(|i| ((i * 7 + 3) % 30) as u8).collect();
                let packed = pack(&codes, bits);
                assert_eq!(packed.len(), packed_len(n, bits));
                let back = unpack(&packed, bits, MetaEncoding::LowerSpecial, 0).unwrap();
                assert_eq!(back, codes, "bits {bits} n {n}");
            }
        }
    }

    #[test]
    fn non_canonical_lengths_are_refused() {
        // One byte with the strip flag would hold zero characters.
        assert!(unpack(&[0x80], 5, MetaEncoding::LowerSpecial, 0).is_err());
        // Three bytes with the strip flag decode as 3 characters, which pack into 2 bytes.
        assert!(unpack(&[0x80, 0, 0], 5, MetaEncoding::LowerSpecial, 0).is_err());
        // Padding bit set.
        assert!(unpack(&[0x01], 5, MetaEncoding::LowerSpecial, 0).is_err());
    }

    #[test]
    fn restricted_context_skips_first_to_lower() {
        let f = MetaStringEncoder::field_name();
        assert_eq!(
            f.compute_encoding("Foo"),
            MetaEncoding::LowerUpperDigitSpecial
        );
        assert_eq!(
            MetaStringEncoder::typedef_type_name().compute_encoding("Foo"),
            MetaEncoding::FirstToLowerSpecial
        );
    }
}
