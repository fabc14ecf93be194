//! Sequences in a row: `Vec<T>`, `[T; N]` and tuples of one element type are lists.
//!
//! A list of `T` is a row array of `T` for every row type but `u8`, whose lists are binary
//! (a `Vec<u8>` or `[u8; 32]` is pyfory's `bytes`, not an array of numbers). [`RowList`]
//! says which, per element type: a blanket impl over the [`RowElement`] marker gives the
//! array, and `u8` (which has no marker) its own impl gives the bytes.

#![allow(unsafe_code)] // `view` trusts validated bytes; every block says why it is sound

use super::array::{write_array, RowArray};
use super::hash::hash_step;
use super::layout::word;
use super::{Check, RowValue};
use crate::error::Result;
use crate::types::TypeId;

/// How a list of this type is laid out (hidden: `Vec<T>`, `[T; N]` and tuples go through
/// it): an array of elements, or binary bytes for `u8`.
///
/// # Safety
///
/// [`view_list`](RowList::view_list) may rely on its bytes having passed
/// [`check_list`](RowList::check_list), and must not panic on any bytes.
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no row layout as a list element",
    note = "list elements are the row field types; `#[derive(FuryRow)]` structs are elements too"
)]
pub unsafe trait RowList: RowValue + Sized {
    /// What a list accessor returns: a [`RowArray`], or `&[u8]` for `u8`.
    type ListView<'a>: Copy;

    /// Folds a list of this type into pyfory's schema hash.
    fn hash_list(h: u64) -> u64;
    /// Appends a list of `items` to `buf`.
    fn write_list<'v>(
        items: impl ExactSizeIterator<Item = &'v Self>,
        buf: &mut Vec<u8>,
    ) -> Result<()>
    where
        Self: 'v;
    /// Validates a list, of exactly `len` elements when `len` is given (arrays, tuples).
    fn check_list(bytes: &[u8], cx: &mut Check, len: Option<usize>) -> Result<()>;
    /// The view of a list.
    ///
    /// # Safety
    ///
    /// `bytes` passed [`check_list`](RowList::check_list).
    unsafe fn view_list(bytes: &[u8]) -> Self::ListView<'_>;
    /// The owned elements of a list view.
    fn list_to_vec(view: Self::ListView<'_>) -> Vec<Self>;
    /// The first `N` elements of a list view (checked to have `N`).
    fn list_to_array<const N: usize>(view: Self::ListView<'_>) -> [Self; N];
}

/// Marks the row types whose lists are row arrays: every row type but `u8` (hidden:
/// `#[derive(FuryRow)]` implements it).
#[doc(hidden)]
pub trait RowElement: RowValue {}

// SAFETY: `check_list` is `Check::array::<T>`, which `RowArray::new_unchecked` relies on.
unsafe impl<T: RowElement> RowList for T {
    type ListView<'a> = RowArray<'a, T>;

    fn hash_list(h: u64) -> u64 {
        T::hash_into(hash_step(h, TypeId::List as u8))
    }

    #[inline]
    fn write_list<'v>(items: impl ExactSizeIterator<Item = &'v T>, buf: &mut Vec<u8>) -> Result<()>
    where
        T: 'v,
    {
        write_array(buf, items)
    }

    fn check_list(bytes: &[u8], cx: &mut Check, len: Option<usize>) -> Result<()> {
        cx.array::<T>(bytes)?;
        // After the array check the count is there and at most the byte length.
        match len {
            Some(n) if word(bytes, 0) != n as u64 => Err(cx.error(
                0,
                format!("expected {n} elements, found {}", word(bytes, 0)),
            )),
            _ => Ok(()),
        }
    }

    #[inline(always)]
    unsafe fn view_list(bytes: &[u8]) -> RowArray<'_, T> {
        // SAFETY: the caller's promise: `bytes` passed `Check::array::<T>`.
        unsafe { RowArray::new_unchecked(bytes) }
    }

    fn list_to_vec(view: RowArray<'_, T>) -> Vec<T> {
        view.to_vec()
    }

    fn list_to_array<const N: usize>(view: RowArray<'_, T>) -> [T; N] {
        // `at` reads past a short array as empty bytes (only possible for unchecked rows).
        std::array::from_fn(|i| T::from_view(view.at(i)))
    }
}

// SAFETY: `view_list` reads any bytes.
unsafe impl RowList for u8 {
    type ListView<'a> = &'a [u8];

    fn hash_list(h: u64) -> u64 {
        hash_step(h, TypeId::Binary as u8)
    }

    #[inline]
    fn write_list<'v>(
        items: impl ExactSizeIterator<Item = &'v u8>,
        buf: &mut Vec<u8>,
    ) -> Result<()> {
        buf.extend(items);
        Ok(())
    }

    fn check_list(bytes: &[u8], cx: &mut Check, len: Option<usize>) -> Result<()> {
        match len {
            Some(n) if bytes.len() != n => {
                Err(cx.error(0, format!("expected {n} bytes, found {}", bytes.len())))
            }
            _ => Ok(()),
        }
    }

    #[inline(always)]
    unsafe fn view_list(bytes: &[u8]) -> &[u8] {
        bytes
    }

    fn list_to_vec(view: &[u8]) -> Vec<u8> {
        view.to_vec()
    }

    fn list_to_array<const N: usize>(view: &[u8]) -> [u8; N] {
        std::array::from_fn(|i| view.get(i).copied().unwrap_or(0))
    }
}

// SAFETY: `check` is `T::check_list`, which `T::view_list` relies on.
unsafe impl<T: RowList> RowValue for Vec<T> {
    const WIDTH: usize = 8;
    const VARIABLE: bool = true;
    type View<'a> = T::ListView<'a>;
    fn hash_into(h: u64) -> u64 {
        T::hash_list(h)
    }
    #[inline]
    fn write_variable(&self, buf: &mut Vec<u8>) -> Result<()> {
        T::write_list(self.iter(), buf)
    }
    fn check(bytes: &[u8], cx: &mut Check) -> Result<()> {
        T::check_list(bytes, cx, None)
    }
    #[inline(always)]
    unsafe fn view(_: bool, bytes: &[u8]) -> Self::View<'_> {
        // SAFETY: the caller's promise: `bytes` passed `T::check_list`.
        unsafe { T::view_list(bytes) }
    }
    fn from_view(v: Self::View<'_>) -> Self {
        T::list_to_vec(v)
    }
}

/// `[T; N]` is a list of `T` (an array, binary for `u8`) of exactly `N` elements, as the
/// official crate lays out a fixed array; another count fails validation.
// SAFETY: `check` is `T::check_list`, which `T::view_list` relies on.
unsafe impl<T: RowList, const N: usize> RowValue for [T; N] {
    const WIDTH: usize = 8;
    const VARIABLE: bool = true;
    type View<'a> = T::ListView<'a>;
    fn hash_into(h: u64) -> u64 {
        T::hash_list(h)
    }
    #[inline]
    fn write_variable(&self, buf: &mut Vec<u8>) -> Result<()> {
        T::write_list(self.iter(), buf)
    }
    fn check(bytes: &[u8], cx: &mut Check) -> Result<()> {
        T::check_list(bytes, cx, Some(N))
    }
    #[inline(always)]
    unsafe fn view(_: bool, bytes: &[u8]) -> Self::View<'_> {
        // SAFETY: the caller's promise: `bytes` passed `T::check_list`.
        unsafe { T::view_list(bytes) }
    }
    fn from_view(v: Self::View<'_>) -> Self {
        T::list_to_array::<N>(v)
    }
}

impl<T: RowList, const N: usize> RowElement for [T; N] {}
impl<T: RowList> RowElement for Vec<T> {}

/// The type `$t`, whatever `$x` is (to repeat a type once per tuple element).
macro_rules! same {
    ($x:ident $t:ty) => {
        $t
    };
}

/// A tuple whose elements are all of one type is a list of that type with exactly that many
/// elements, as pyfory lays out a homogeneous `Tuple[int, int]` (a `list<int64>`).
macro_rules! tuples {
    ($($n:literal: $($x:ident)+;)*) => {$(
        // SAFETY: `check` is `T::check_list`, which `T::view_list` relies on.
        unsafe impl<T: RowList> RowValue for ($(same!($x T),)+) {
            const WIDTH: usize = 8;
            const VARIABLE: bool = true;
            type View<'a> = T::ListView<'a>;
            fn hash_into(h: u64) -> u64 {
                T::hash_list(h)
            }
            fn write_variable(&self, buf: &mut Vec<u8>) -> Result<()> {
                let ($($x,)+) = self;
                T::write_list([$($x),+].into_iter(), buf)
            }
            fn check(bytes: &[u8], cx: &mut Check) -> Result<()> {
                T::check_list(bytes, cx, Some($n))
            }
            #[inline(always)]
            unsafe fn view(_: bool, bytes: &[u8]) -> Self::View<'_> {
                // SAFETY: the caller's promise: `bytes` passed `T::check_list`.
                unsafe { T::view_list(bytes) }
            }
            fn from_view(v: Self::View<'_>) -> Self {
                let [$($x),+] = T::list_to_array::<$n>(v);
                ($($x,)+)
            }
        }

        impl<T: RowList> RowElement for ($(same!($x T),)+) {}
    )*};
}

tuples! {
    1: a;
    2: a b;
    3: a b c;
    4: a b c d;
    5: a b c d e;
    6: a b c d e f;
    7: a b c d e f g;
    8: a b c d e f g h;
    9: a b c d e f g h i;
    10: a b c d e f g h i j;
    11: a b c d e f g h i j k;
    12: a b c d e f g h i j k l;
}
