//! [`Decimal`]: an exact decimal number of any size, the value of DECIMAL (40).

/// An exact decimal number: `unscaled × 10^-scale`, with an unscaled integer of any size, as
/// Python's `decimal.Decimal` and Java's `BigDecimal` hold it. The scale is kept as written
/// (`1.50` has scale 2, `1.5` scale 1), so values compare equal only with the same scale, as
/// their wire form does.
///
/// ```
/// use fury::Decimal;
/// let d: Decimal = "-123.456".parse().unwrap();
/// assert_eq!((d.to_i128(), d.scale()), (Some(-123456), 3));
/// assert_eq!(d.to_string(), "-123.456");
/// assert_eq!(Decimal::new(15, 1).to_string(), "1.5");
/// let big: Decimal = "98765432109876543210987654321.5".parse().unwrap();
/// assert_eq!(big.to_i128(), Some(987654321098765432109876543215));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct Decimal {
    negative: bool,
    /// The unscaled magnitude, little-endian, without trailing zero bytes (zero is empty).
    /// A boxed slice, so that a `Value` holding a decimal stays small.
    magnitude: Box<[u8]>,
    scale: i32,
}

impl Decimal {
    /// `unscaled × 10^-scale`.
    pub fn new(unscaled: i128, scale: i32) -> Self {
        let mut magnitude = unscaled.unsigned_abs().to_le_bytes().to_vec();
        trim(&mut magnitude);
        Decimal {
            negative: unscaled < 0,
            magnitude: magnitude.into_boxed_slice(),
            scale,
        }
    }

    /// From the sign, the unscaled magnitude as little-endian bytes (of any length) and the
    /// scale.
    pub fn from_parts(negative: bool, mut magnitude_le: Vec<u8>, scale: i32) -> Self {
        trim(&mut magnitude_le);
        let negative = negative && !magnitude_le.is_empty();
        Decimal {
            negative,
            magnitude: magnitude_le.into_boxed_slice(),
            scale,
        }
    }

    /// The scale: the number of digits after the decimal point (negative for a multiple of a
    /// power of ten, `1E+10` has scale -10).
    pub fn scale(&self) -> i32 {
        self.scale
    }

    /// True for a negative value (zero is not).
    pub fn is_negative(&self) -> bool {
        self.negative
    }

    /// The unscaled magnitude, little-endian, without trailing zero bytes.
    pub fn magnitude_le(&self) -> &[u8] {
        &self.magnitude
    }

    /// The unscaled integer, if it fits an `i128`.
    pub fn to_i128(&self) -> Option<i128> {
        if self.magnitude.len() > 16 {
            return None;
        }
        let mut le = [0u8; 16];
        le[..self.magnitude.len()].copy_from_slice(&self.magnitude);
        let m = u128::from_le_bytes(le);
        if self.negative {
            0i128.checked_sub_unsigned(m)
        } else {
            i128::try_from(m).ok()
        }
    }

    /// The unscaled digits in base 10 (no sign).
    fn unscaled_digits(&self) -> String {
        // Repeated division of the magnitude by 10^9, most significant limb first.
        let mut limbs: Vec<u32> = self
            .magnitude
            .chunks(4)
            .rev()
            .map(|c| {
                let mut b = [0u8; 4];
                b[..c.len()].copy_from_slice(c);
                u32::from_le_bytes(b)
            })
            .collect();
        let mut groups = Vec::new();
        while limbs.iter().any(|&l| l != 0) {
            let mut rem = 0u64;
            for l in limbs.iter_mut() {
                let cur = (rem << 32) | u64::from(*l);
                *l = (cur / 1_000_000_000) as u32;
                rem = cur % 1_000_000_000;
            }
            groups.push(rem as u32);
        }
        let mut out = String::new();
        for (i, g) in groups.iter().rev().enumerate() {
            if i == 0 {
                out.push_str(&g.to_string());
            } else {
                out.push_str(&format!("{g:09}"));
            }
        }
        if out.is_empty() {
            out.push('0');
        }
        out
    }
}

fn trim(m: &mut Vec<u8>) {
    while m.last() == Some(&0) {
        m.pop();
    }
}

impl std::fmt::Display for Decimal {
    /// As Python's `str(Decimal)`: plain notation when the exponent is at most 0 and the
    /// number has at most six leading zeros after the point (`-0.050`, `0.000`), otherwise
    /// `E` notation (`1E+10`, `1.23E-9`). The text is never much longer than the digits.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let digits = self.unscaled_digits();
        let sign = if self.negative { "-" } else { "" };
        let exp = -i64::from(self.scale);
        let adjusted = exp + digits.len() as i64 - 1;
        if exp <= 0 && adjusted >= -6 {
            let scale = self.scale as usize;
            if scale == 0 {
                return write!(f, "{sign}{digits}");
            }
            if digits.len() > scale {
                let (int, frac) = digits.split_at(digits.len() - scale);
                return write!(f, "{sign}{int}.{frac}");
            }
            return write!(f, "{sign}0.{}{digits}", "0".repeat(scale - digits.len()));
        }
        let (first, rest) = digits.split_at(1);
        let point = if rest.is_empty() { "" } else { "." };
        let exp_sign = if adjusted >= 0 { "+" } else { "-" };
        write!(
            f,
            "{sign}{first}{point}{rest}E{exp_sign}{}",
            adjusted.unsigned_abs()
        )
    }
}

/// The error of parsing a [`Decimal`] from text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseDecimalError(String);

impl std::fmt::Display for ParseDecimalError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "not a decimal number: {:?}", self.0)
    }
}

impl std::error::Error for ParseDecimalError {}

impl std::str::FromStr for Decimal {
    type Err = ParseDecimalError;

    /// Parses `[-+]digits[.digits][E[-+]digits]`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || ParseDecimalError(s.to_string());
        let (negative, rest) = match s.as_bytes().first() {
            Some(b'-') => (true, &s[1..]),
            Some(b'+') => (false, &s[1..]),
            _ => (false, s),
        };
        let (mantissa, exp) = match rest.find(['e', 'E']) {
            Some(i) => (&rest[..i], rest[i + 1..].parse::<i64>().map_err(|_| bad())?),
            None => (rest, 0),
        };
        let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
        if int.is_empty() && frac.is_empty() {
            return Err(bad());
        }
        let mut magnitude: Vec<u8> = Vec::new();
        for c in int.bytes().chain(frac.bytes()) {
            if !c.is_ascii_digit() {
                return Err(bad());
            }
            // magnitude = magnitude * 10 + digit
            let mut carry = u32::from(c - b'0');
            for b in magnitude.iter_mut() {
                let v = u32::from(*b) * 10 + carry;
                *b = v as u8;
                carry = v >> 8;
            }
            if carry > 0 {
                magnitude.push(carry as u8);
            }
        }
        let scale = i64::try_from(frac.len()).map_err(|_| bad())? - exp;
        let scale = i32::try_from(scale).map_err(|_| bad())?;
        Ok(Decimal::from_parts(negative, magnitude, scale))
    }
}
