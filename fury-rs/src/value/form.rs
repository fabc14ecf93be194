//! The two forms of a dynamic value: [`Owned`] leaves (a [`Value`](super::Value)) and leaves
//! [`Borrowed`] from the input (a [`ValueRef`](super::ValueRef)). Everything else about the
//! two (containers, structs, enums, unions, back references, the reader and the writer) is
//! one generic implementation over [`Form`].

use crate::buffer::{ArrayView, ViewElement};
use std::borrow::Cow;
use std::fmt::Debug;
use std::ops::Deref;

mod sealed {
    pub trait Sealed {}
}

/// How a dynamic value holds the leaves that have a heap of their own: text, byte strings
/// and dense numeric arrays. Implemented by [`Owned`] and [`Borrowed`] only.
pub trait Form: sealed::Sealed + Clone + Debug + PartialEq {
    /// A STRING.
    type Str: Deref<Target = str> + Clone + Debug + PartialEq;
    /// A BINARY or UINT8_ARRAY.
    type Bytes: Deref<Target = [u8]> + Clone + Debug + PartialEq;
    /// An INT8_ARRAY.
    type Int8s: Deref<Target = [i8]> + Clone + Debug + PartialEq;
    /// A dense array of 16-, 32- or 64-bit numbers.
    type Array<T: ViewElement>: Elements<T> + Clone + Debug + PartialEq;
}

/// Leaves that own what they hold: `String`, `Vec<u8>`, `Vec<T>`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Owned;

/// Leaves that borrow what they hold from input that lives for `'de`: `Cow<'de, str>` (owned
/// only where the input's text is not UTF-8: LATIN1 beyond ASCII, UTF-16), `&'de [u8]`,
/// `&'de [i8]` and [`ArrayView<'de, T>`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Borrowed<'de>(std::marker::PhantomData<&'de [u8]>);

impl sealed::Sealed for Owned {}
impl sealed::Sealed for Borrowed<'_> {}

impl Form for Owned {
    type Str = String;
    type Bytes = Vec<u8>;
    type Int8s = Vec<i8>;
    type Array<T: ViewElement> = Vec<T>;
}

impl<'de> Form for Borrowed<'de> {
    type Str = Cow<'de, str>;
    type Bytes = &'de [u8];
    type Int8s = &'de [i8];
    type Array<T: ViewElement> = ArrayView<'de, T>;
}

/// The elements of a dense numeric array, however a form holds them.
pub trait Elements<T>: sealed::Sealed {
    /// The number of elements.
    fn len(&self) -> usize;
    /// True when there are none.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The elements, copied into a vector.
    fn to_vec(&self) -> Vec<T>;
    /// What the writer copies: the elements, or their little-endian bytes.
    #[doc(hidden)]
    fn data(&self) -> ArrayData<'_, T>;
}

/// See [`Elements::data`].
#[doc(hidden)]
pub enum ArrayData<'a, T> {
    /// The elements themselves.
    Elements(&'a [T]),
    /// Their little-endian encodings, back to back.
    Encoded(&'a [u8]),
}

impl<T> sealed::Sealed for Vec<T> {}
impl<T> sealed::Sealed for ArrayView<'_, T> {}

impl<T: ViewElement> Elements<T> for Vec<T> {
    #[inline]
    fn len(&self) -> usize {
        <[T]>::len(self)
    }
    fn to_vec(&self) -> Vec<T> {
        self.clone()
    }
    #[inline]
    fn data(&self) -> ArrayData<'_, T> {
        ArrayData::Elements(self)
    }
}

impl<T: ViewElement> Elements<T> for ArrayView<'_, T> {
    #[inline]
    fn len(&self) -> usize {
        ArrayView::len(self)
    }
    fn to_vec(&self) -> Vec<T> {
        ArrayView::to_vec(self)
    }
    #[inline]
    fn data(&self) -> ArrayData<'_, T> {
        ArrayData::Encoded(self.as_bytes())
    }
}
