//! [`ArrayView`]: a dense array of numbers read in place, decoded element by element.

use crate::float16::{BF16, F16};

/// A number that an [`ArrayView`] can hold: the integers, the binary floats and the
/// half-precision floats ([`F16`], [`BF16`]).
#[doc(hidden)]
pub trait ViewElement: Copy + std::fmt::Debug + PartialEq + 'static {
    /// Encoded size in bytes.
    const SIZE: usize;
    /// Decodes one element from its little-endian bytes (`bytes.len() == SIZE`).
    fn from_le_slice(bytes: &[u8]) -> Option<Self>;
}

macro_rules! view_number {
    ($($t:ty),*) => {$(
        impl ViewElement for $t {
            const SIZE: usize = <$t as super::LeNumber>::SIZE;
            #[inline]
            fn from_le_slice(bytes: &[u8]) -> Option<Self> {
                <$t as super::LeNumber>::from_le_slice(bytes)
            }
        }
    )*};
}
view_number!(i16, i32, i64, u16, u32, u64, f32, f64, u8, i8);

macro_rules! view_half {
    ($($t:ident),*) => {$(
        impl ViewElement for $t {
            const SIZE: usize = 2;
            #[inline]
            fn from_le_slice(bytes: &[u8]) -> Option<Self> {
                bytes.try_into().ok().map(u16::from_le_bytes).map($t)
            }
        }
    )*};
}
view_half!(F16, BF16);

/// A dense numeric array (`INT32_ARRAY`, `FLOAT64_ARRAY`, ...) read in place: the bytes stay
/// in the input and elements are decoded (little-endian, no alignment needed) when asked
/// for, so reading a million-element array takes the same time as reading an empty one.
///
/// ```
/// use fury::ArrayView;
///
/// let fury = fury::Fury::default();
/// let bytes = fury.serialize(&vec![1.5f64, -2.0, 4.25]).unwrap();
/// let view: ArrayView<f64> = fury.deserialize(&bytes).unwrap();
/// assert_eq!(view.len(), 3);
/// assert_eq!(view.get(2), Some(4.25));
/// assert_eq!(view.iter().sum::<f64>(), 3.75);
/// assert_eq!(view.to_vec(), [1.5, -2.0, 4.25]);
/// ```
#[derive(Clone, Copy)]
pub struct ArrayView<'de, T> {
    bytes: &'de [u8],
    _element: std::marker::PhantomData<T>,
}

impl<'de, T: ViewElement> ArrayView<'de, T> {
    /// A view of `bytes`, the little-endian encodings of the elements back to back (a
    /// trailing part shorter than one element is not an element).
    #[inline]
    pub(crate) fn new(bytes: &'de [u8]) -> Self {
        ArrayView {
            bytes,
            _element: std::marker::PhantomData,
        }
    }

    /// The number of elements.
    #[inline]
    pub fn len(&self) -> usize {
        self.bytes.len() / T::SIZE
    }

    /// True when there are no elements.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    /// Element `i`, if there is one.
    #[inline]
    pub fn get(&self, i: usize) -> Option<T> {
        let start = i.checked_mul(T::SIZE)?;
        let end = start.checked_add(T::SIZE)?;
        self.bytes.get(start..end).and_then(T::from_le_slice)
    }

    /// The elements in order.
    pub fn iter(&self) -> impl Iterator<Item = T> + 'de {
        self.bytes
            .chunks_exact(T::SIZE)
            .filter_map(T::from_le_slice)
    }

    /// The elements, copied into a vector.
    pub fn to_vec(&self) -> Vec<T> {
        self.iter().collect()
    }

    /// The encoded elements as they are in the input.
    #[inline]
    pub fn as_bytes(&self) -> &'de [u8] {
        self.bytes
    }
}

impl<T: ViewElement + std::fmt::Debug> std::fmt::Debug for ArrayView<'_, T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<T: ViewElement + PartialEq> PartialEq for ArrayView<'_, T> {
    fn eq(&self, other: &Self) -> bool {
        self.iter().eq(other.iter())
    }
}
