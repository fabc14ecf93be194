//! More standard-library types, each mapped onto an existing wire type and written by the
//! existing container code:
//!
//! | Rust type | wire type | following |
//! |-----------|-----------|---------|
//! | `VecDeque<T>`, `LinkedList<T>` | `LIST`, also for primitive `T` | the official `fory` 1.7.7 crate |
//! | `BinaryHeap<T>` | `SET`, elements in the heap's iteration order | the official crate |
//! | `Box<str>`, `Rc<str>`, `Arc<str>`, `Cow<str>` | `STRING` | `String` |
//! | `Box<[T]>`, `Rc<[T]>`, `Arc<[T]>`, `Cow<[T]>`, `[T; N]` | as `Vec<T>` (a dense array for primitive `T`, `LIST` otherwise) | `Vec<T>` |
//! | `Cow<'_, T>` | as `T::Owned` (read owned; a derived struct's `Cow<'a, _>` field borrows, see [`BorrowCow`]) | |
//! | `usize`, `isize` | `VAR_UINT64`, `VARINT64` (vectors: `UINT64_ARRAY`, `INT64_ARRAY`) | `u64`, `i64` |
//! | `(A,)` … 12-tuples | `LIST` of the elements, laid out as pyfory lays out a `tuple` | pyfory 1.7.7 |
//! | `()` | a null (`NONE` where a type is named; nothing in a struct field) | pyfory's `None` |
//!
//! Not supported, because no xlang peer can read them: `u128` / `i128` (the official crate
//! refuses `u128` in xlang mode and writes `i128` with its Rust-only id 65), and `char` (no
//! peer has a mapping for it). See `spec/DISAGREEMENTS.md` for what the official crate does
//! differently with tuples, `()` and `usize` / `isize`.

use super::array::{read_dense_or_list, write_dense, Dense};
use super::collection::{read_elements, read_elements_with, write_elements};
use super::items::ItemReader;
use super::refs::container_is_ref_type;
use super::{null_of, Deserialize, Serialize, WireType};
use crate::buffer::{Reader, Writer};
use crate::context::{ReadContext, RefSlot, WriteContext};
use crate::error::{Error, ErrorKind, Result};
use crate::meta::typedef::FieldType;
use crate::registry::Registry;
use crate::types::table::Family;
use crate::types::TypeId;
use std::borrow::Cow;
use std::cell::Cell;
use std::collections::{BinaryHeap, LinkedList, VecDeque};
use std::rc::Rc;
use std::sync::Arc;

// ---- VecDeque, LinkedList: always LIST ----

/// Reads a sequence written as a LIST or, for primitive `T`, as `T`'s dense array (the form of
/// a `Vec<T>`); `what` names the target in errors.
fn read_sequence<'de, T: Deserialize<'de>>(
    ctx: &mut ReadContext<'de, '_>,
    id: TypeId,
    what: &str,
) -> Result<Vec<T>> {
    let bytes_alias = T::VEC_TYPE_ID == TypeId::Binary && id == TypeId::UInt8Array;
    if id == TypeId::List || id == T::VEC_TYPE_ID || bytes_alias {
        T::read_vec(ctx, id)
    } else {
        Err(ctx.mismatch(what, id))
    }
}

/// `VecDeque<T>` and `LinkedList<T>` are LISTs for every `T`, primitives included (as the
/// official crate writes them; a `Vec<i32>` is an INT32_ARRAY instead). They read a LIST or,
/// for primitive `T`, the dense array of a `Vec<T>`.
macro_rules! list_like {
    ($($seq:ident),*) => {$(
        impl<T: WireType> WireType for $seq<T> {
            #[inline]
            fn reach(reach: &mut crate::registry::Reach<'_>) -> crate::error::Result<()> {
                T::reach(reach)
            }

            const TYPE_ID: TypeId = TypeId::List;
            const REF_TYPE: bool = true;
            fn field_type(registry: &Registry, compatible: bool) -> FieldType {
                super::collection_field_type::<T>(TypeId::List, registry, compatible)
            }
        }

        impl<T: Serialize> Serialize for $seq<T> {
            #[inline]
            fn visit_buffers<'v>(&'v self, out: &mut Vec<&'v [u8]>) {
                self.iter().for_each(|x| x.visit_buffers(out))
            }

            #[inline]
            fn write_data(&self, ctx: &mut WriteContext) -> Result<()> {
                write_elements(self.len(), self.iter(), false, ctx)
            }

            #[inline]
            fn write_declared(&self, ctx: &mut WriteContext) -> Result<()> {
                write_elements(self.len(), self.iter(), true, ctx)
            }
        }

        impl<'de, T: Deserialize<'de>> Deserialize<'de> for $seq<T> {
            #[inline]
            fn missing() -> Option<Self> {
                Some(Self::new())
            }

            #[inline]
            fn read_data(ctx: &mut ReadContext<'de, '_>) -> Result<Self> {
                Ok(read_elements::<T>(ctx)?.into_iter().collect())
            }

            #[inline]
            fn read_typed(ctx: &mut ReadContext<'de, '_>, id: TypeId) -> Result<Self> {
                let items = read_sequence::<T>(ctx, id, std::any::type_name::<Self>())?;
                Ok(items.into_iter().collect())
            }
        }
    )*};
}

list_like!(VecDeque, LinkedList);

// ---- BinaryHeap: SET ----

/// A `BinaryHeap<T>` is a SET, as the official crate writes it. Its elements are written in
/// the heap's iteration order ([`BinaryHeap::iter`]: the internal array, not sorted), so two
/// equal heaps built differently may give different bytes. Duplicates are kept on the wire
/// (a peer that reads a set, such as pyfory, drops them). It reads a SET or a LIST.
impl<T: WireType + Ord> WireType for BinaryHeap<T> {
    #[inline]
    fn reach(reach: &mut crate::registry::Reach<'_>) -> crate::error::Result<()> {
        T::reach(reach)
    }

    const TYPE_ID: TypeId = TypeId::Set;
    const REF_TYPE: bool = true;
    fn field_type(registry: &Registry, compatible: bool) -> FieldType {
        super::collection_field_type::<T>(TypeId::Set, registry, compatible)
    }
}

impl<T: Serialize + Ord> Serialize for BinaryHeap<T> {
    #[inline]
    fn visit_buffers<'v>(&'v self, out: &mut Vec<&'v [u8]>) {
        self.iter().for_each(|x| x.visit_buffers(out))
    }

    #[inline]
    fn write_data(&self, ctx: &mut WriteContext) -> Result<()> {
        write_elements(self.len(), self.iter(), false, ctx)
    }

    #[inline]
    fn write_declared(&self, ctx: &mut WriteContext) -> Result<()> {
        write_elements(self.len(), self.iter(), true, ctx)
    }
}

impl<'de, T: Deserialize<'de> + Ord> Deserialize<'de> for BinaryHeap<T> {
    #[inline]
    fn missing() -> Option<Self> {
        Some(Self::new())
    }

    #[inline]
    fn read_data(ctx: &mut ReadContext<'de, '_>) -> Result<Self> {
        read_elements::<T>(ctx).map(BinaryHeap::from)
    }

    #[inline]
    fn read_typed(ctx: &mut ReadContext<'de, '_>, id: TypeId) -> Result<Self> {
        if id == TypeId::Set || id == TypeId::List {
            Self::read_data(ctx)
        } else {
            Err(ctx.mismatch(std::any::type_name::<Self>(), id))
        }
    }
}

// ---- Box<str>, Rc<str>, Arc<str>: STRING ----

/// `Box<str>`, `Rc<str>` and `Arc<str>` are STRINGs, like `String`. The shared ones are not
/// reference-tracked: pyfory does not track strings, and each occurrence is written in full
/// (reading gives separate allocations).
macro_rules! str_pointer {
    ($($ptr:ident),*) => {$(
        impl WireType for $ptr<str> {
            const TYPE_ID: TypeId = TypeId::String;
        }

        impl Serialize for $ptr<str> {
            #[inline]
            fn write_data(&self, ctx: &mut WriteContext) -> Result<()> {
                super::string::write_str(self, ctx);
                Ok(())
            }
        }

        impl<'de> Deserialize<'de> for $ptr<str> {
            #[inline]
            fn missing() -> Option<Self> {
                Some($ptr::from(""))
            }

            #[inline]
            fn read_data(ctx: &mut ReadContext<'de, '_>) -> Result<Self> {
                super::string::read_string(ctx).map($ptr::from)
            }
        }
    )*};
}

str_pointer!(Box, Rc, Arc);

// ---- Box<[T]>, Rc<[T]>, Arc<[T]>, [T; N]: as Vec<T> ----

/// `Box<[T]>`, `Rc<[T]>` and `Arc<[T]>` are written and read as `Vec<T>`: a dense array for
/// primitive `T`, a LIST otherwise. The shared ones are not reference-tracked as pointers
/// (only sized `Rc<T>` / `Arc<T>` are); each occurrence is written in full.
macro_rules! slice_pointer {
    ($($ptr:ident: |$v:ident| $from:expr),*) => {$(
        impl<T: WireType> WireType for $ptr<[T]> {
            #[inline]
            fn reach(reach: &mut crate::registry::Reach<'_>) -> crate::error::Result<()> {
                T::reach(reach)
            }

            const TYPE_ID: TypeId = T::VEC_TYPE_ID;
            const REF_TYPE: bool = container_is_ref_type(T::VEC_TYPE_ID);
            fn field_type(registry: &Registry, compatible: bool) -> FieldType {
                <Vec<T> as WireType>::field_type(registry, compatible)
            }
        }

        impl<T: Serialize> Serialize for $ptr<[T]> {
            #[inline]
            fn visit_buffers<'v>(&'v self, out: &mut Vec<&'v [u8]>) {
                T::visit_slice(self, out)
            }

            #[inline]
            fn write_data(&self, ctx: &mut WriteContext) -> Result<()> {
                T::write_vec(self, false, ctx)
            }

            #[inline]
            fn write_declared(&self, ctx: &mut WriteContext) -> Result<()> {
                T::write_vec(self, true, ctx)
            }
        }

        impl<'de, T: Deserialize<'de>> Deserialize<'de> for $ptr<[T]> {
            #[inline]
            fn missing() -> Option<Self> {
                let $v: Vec<T> = Vec::new();
                Some($from)
            }

            #[inline]
            fn read_data(ctx: &mut ReadContext<'de, '_>) -> Result<Self> {
                let $v = T::read_vec(ctx, T::VEC_TYPE_ID)?;
                Ok($from)
            }

            #[inline]
            fn read_typed(ctx: &mut ReadContext<'de, '_>, id: TypeId) -> Result<Self> {
                let $v = T::read_vec(ctx, id)?;
                Ok($from)
            }
        }
    )*};
}

slice_pointer!(
    Box: |v| v.into_boxed_slice(),
    Rc: |v| Rc::from(v),
    Arc: |v| Arc::from(v)
);

/// `[T; N]` is written as `Vec<T>` (a dense array for primitive `T`, a LIST otherwise). Reading
/// accepts what `Vec<T>` accepts and then requires exactly `N` elements: any other count is a
/// [`ErrorKind::TypeMismatch`] at the offset of the length.
impl<T: WireType, const N: usize> WireType for [T; N] {
    #[inline]
    fn reach(reach: &mut crate::registry::Reach<'_>) -> crate::error::Result<()> {
        T::reach(reach)
    }

    const TYPE_ID: TypeId = T::VEC_TYPE_ID;
    const REF_TYPE: bool = container_is_ref_type(T::VEC_TYPE_ID);
    fn field_type(registry: &Registry, compatible: bool) -> FieldType {
        <Vec<T> as WireType>::field_type(registry, compatible)
    }
}

impl<T: Serialize, const N: usize> Serialize for [T; N] {
    #[inline]
    fn visit_buffers<'v>(&'v self, out: &mut Vec<&'v [u8]>) {
        T::visit_slice(self, out)
    }

    #[inline]
    fn write_data(&self, ctx: &mut WriteContext) -> Result<()> {
        T::write_vec(self, false, ctx)
    }

    #[inline]
    fn write_declared(&self, ctx: &mut WriteContext) -> Result<()> {
        T::write_vec(self, true, ctx)
    }
}

impl<'de, T: Deserialize<'de>, const N: usize> Deserialize<'de> for [T; N] {
    /// `N` missing elements, if `T` has a missing value (an empty array always).
    fn missing() -> Option<Self> {
        let items = (0..N).map(|_| T::missing()).collect::<Option<Vec<T>>>()?;
        items.try_into().ok()
    }

    fn stand_in() -> Option<Self> {
        let items = (0..N).map(|_| T::stand_in()).collect::<Option<Vec<T>>>()?;
        items.try_into().ok()
    }

    #[inline]
    fn read_data(ctx: &mut ReadContext<'de, '_>) -> Result<Self> {
        Self::read_typed(ctx, T::VEC_TYPE_ID)
    }

    fn read_typed(ctx: &mut ReadContext<'de, '_>, id: TypeId) -> Result<Self> {
        if let Some(items) = T::read_array::<N>(ctx, id)? {
            return Ok(items);
        }
        let at = ctx.reader.position();
        let items = T::read_vec(ctx, id)?;
        items.try_into().map_err(|items: Vec<T>| {
            Error::at(
                ErrorKind::TypeMismatch {
                    expected: format!("{} ({N} elements)", std::any::type_name::<Self>()),
                    found: format!("{} elements", items.len()),
                },
                at,
            )
        })
    }
}

// ---- Cow ----

/// `Cow<'_, T>` is written as `T` and has the wire facts of `T::Owned` (so `Cow<str>` is a
/// STRING and `Cow<[T]>` is written as `Vec<T>`). Reading a `Cow` on its own gives
/// `Cow::Owned`, as serde does, so that `Cow<'static, str>` stays `DeserializeOwned`; a
/// derived struct's `Cow<'a, str>` / `Cow<'a, [u8]>` field whose lifetime is one of the
/// struct's borrows from the input where it can (see [`BorrowCow`]).
impl<T> WireType for Cow<'_, T>
where
    T: ?Sized + ToOwned,
    T::Owned: WireType,
{
    #[inline]
    fn reach(reach: &mut crate::registry::Reach<'_>) -> crate::error::Result<()> {
        T::Owned::reach(reach)
    }

    const TYPE_ID: TypeId = <T::Owned as WireType>::TYPE_ID;
    const NULLABLE: bool = <T::Owned as WireType>::NULLABLE;
    const FIELD_NULLABLE: bool = <T::Owned as WireType>::FIELD_NULLABLE;
    const REF_TYPE: bool = <T::Owned as WireType>::REF_TYPE;
    const POLYMORPHIC: bool = <T::Owned as WireType>::POLYMORPHIC;
    #[inline]
    fn needs_type_info(registry: &Registry) -> bool {
        <T::Owned as WireType>::needs_type_info(registry)
    }
    fn field_type(registry: &Registry, compatible: bool) -> FieldType {
        <T::Owned as WireType>::field_type(registry, compatible)
    }
}

impl<T> Serialize for Cow<'_, T>
where
    T: ?Sized + ToOwned + Serialize,
    T::Owned: Serialize,
{
    #[inline]
    fn write_type_info(&self, ctx: &mut WriteContext) -> Result<()> {
        (**self).write_type_info(ctx)
    }

    #[inline]
    fn write_static_type_info(ctx: &mut WriteContext) -> Result<()> {
        <T::Owned as Serialize>::write_static_type_info(ctx)
    }

    #[inline]
    fn write_data(&self, ctx: &mut WriteContext) -> Result<()> {
        (**self).write_data(ctx)
    }

    #[inline]
    fn write_declared(&self, ctx: &mut WriteContext) -> Result<()> {
        (**self).write_declared(ctx)
    }

    #[inline]
    fn is_null(&self) -> bool {
        (**self).is_null()
    }

    #[inline]
    fn is_back_ref(&self) -> bool {
        (**self).is_back_ref()
    }

    #[inline]
    fn is_ref_type(&self) -> bool {
        // A slice does not know that its owned form (a list) is tracked: ask both.
        <Self as WireType>::REF_TYPE || (**self).is_ref_type()
    }

    #[inline]
    fn write_ref_flag(&self, ctx: &mut WriteContext, track: bool) -> Result<bool> {
        (**self).write_ref_flag(ctx, track)
    }

    #[inline]
    fn visit_buffers<'v>(&'v self, out: &mut Vec<&'v [u8]>) {
        (**self).visit_buffers(out)
    }
}

/// The reading half shared by `Cow` (always owned) and [`BorrowCow`] (borrowed where the
/// input holds the value as it is): every hook but the payload readers goes to `T::Owned`.
macro_rules! cow_read_hooks {
    ($wrap:expr) => {
        #[inline]
        fn read_type_info_rest(ctx: &mut ReadContext<'de, '_>, id: TypeId) -> Result<()> {
            T::Owned::read_type_info_rest(ctx, id)
        }

        #[inline]
        fn null() -> Option<Self> {
            T::Owned::null().map(|v| $wrap(Cow::Owned(v)))
        }

        #[inline]
        fn missing() -> Option<Self> {
            T::Owned::missing().map(|v| $wrap(Cow::Owned(v)))
        }

        fn from_ref(ctx: &ReadContext<'de, '_>, id: u32, at: usize) -> Result<Self> {
            T::Owned::from_ref(ctx, id, at).map(|v| $wrap(Cow::Owned(v)))
        }

        fn begin_ref(ctx: &mut ReadContext<'de, '_>, slot: usize) {
            T::Owned::begin_ref(ctx, slot)
        }
    };
}

impl<'de, T> Deserialize<'de> for Cow<'_, T>
where
    T: ?Sized + ToOwned,
    T::Owned: Deserialize<'de>,
{
    cow_read_hooks!(std::convert::identity);

    #[inline]
    fn read_data(ctx: &mut ReadContext<'de, '_>) -> Result<Self> {
        T::Owned::read_data(ctx).map(Cow::Owned)
    }

    #[inline]
    fn read_typed(ctx: &mut ReadContext<'de, '_>, id: TypeId) -> Result<Self> {
        T::Owned::read_typed(ctx, id).map(Cow::Owned)
    }

    fn keep_ref(self, ctx: &mut ReadContext<'de, '_>, slot: usize) -> Self {
        match self {
            Cow::Owned(v) => Cow::Owned(v.keep_ref(ctx, slot)),
            borrowed => {
                ctx.set_ref(slot, RefSlot::Plain);
                borrowed
            }
        }
    }
}

/// How a `T` is read into a `Cow<'de, T>`: borrowed from the input where it holds the value
/// as it is (a UTF-8 or all-ASCII LATIN1 string, bytes of BINARY, UINT8_ARRAY or
/// INT8_ARRAY), owned otherwise (LATIN1 text beyond ASCII, UTF-16, a list, any sized `T`).
#[doc(hidden)]
pub trait CowRead<'de>: ToOwned {
    /// Reads the payload of the declared type (`None`) or after the type info `Some(id)`.
    fn read_cow(ctx: &mut ReadContext<'de, '_>, id: Option<TypeId>) -> Result<Cow<'de, Self>>;
}

impl<'de> CowRead<'de> for str {
    #[inline]
    fn read_cow(ctx: &mut ReadContext<'de, '_>, id: Option<TypeId>) -> Result<Cow<'de, str>> {
        match id {
            None | Some(TypeId::String) => super::string::read_str_cow(ctx),
            Some(id) => Err(ctx.mismatch("Cow<str>", id)),
        }
    }
}

impl<'de, T: Clone + Deserialize<'de>> CowRead<'de> for [T] {
    #[inline]
    fn read_cow(ctx: &mut ReadContext<'de, '_>, id: Option<TypeId>) -> Result<Cow<'de, [T]>> {
        T::read_slice_cow(ctx, id.unwrap_or(T::VEC_TYPE_ID))
    }
}

impl<'de, T: Clone + Deserialize<'de>> CowRead<'de> for T {
    #[inline]
    fn read_cow(ctx: &mut ReadContext<'de, '_>, id: Option<TypeId>) -> Result<Cow<'de, T>> {
        match id {
            None => T::read_data(ctx),
            Some(id) => T::read_typed(ctx, id),
        }
        .map(Cow::Owned)
    }
}

/// A `Cow` field of a derived struct whose lifetime is one of the struct's: it reads
/// borrowed from the input where the input holds the value as it is, and owned otherwise
/// (see [`CowRead`]). Generated code reads the field as this type and unwraps it; the wire
/// facts and the bytes written are those of the `Cow`.
#[doc(hidden)]
pub struct BorrowCow<'a, T: ?Sized + ToOwned>(pub Cow<'a, T>);

impl<T> WireType for BorrowCow<'_, T>
where
    T: ?Sized + ToOwned,
    T::Owned: WireType,
{
    #[inline]
    fn reach(reach: &mut crate::registry::Reach<'_>) -> crate::error::Result<()> {
        T::Owned::reach(reach)
    }

    const TYPE_ID: TypeId = <T::Owned as WireType>::TYPE_ID;
    const NULLABLE: bool = <T::Owned as WireType>::NULLABLE;
    const FIELD_NULLABLE: bool = <T::Owned as WireType>::FIELD_NULLABLE;
    const REF_TYPE: bool = <T::Owned as WireType>::REF_TYPE;
    const POLYMORPHIC: bool = <T::Owned as WireType>::POLYMORPHIC;
    #[inline]
    fn needs_type_info(registry: &Registry) -> bool {
        <T::Owned as WireType>::needs_type_info(registry)
    }
    fn field_type(registry: &Registry, compatible: bool) -> FieldType {
        <T::Owned as WireType>::field_type(registry, compatible)
    }
}

impl<T> Serialize for BorrowCow<'_, T>
where
    T: ?Sized + ToOwned + Serialize,
    T::Owned: Serialize,
{
    #[inline]
    fn write_type_info(&self, ctx: &mut WriteContext) -> Result<()> {
        Serialize::write_type_info(&self.0, ctx)
    }

    #[inline]
    fn write_static_type_info(ctx: &mut WriteContext) -> Result<()> {
        <T::Owned as Serialize>::write_static_type_info(ctx)
    }

    #[inline]
    fn write_data(&self, ctx: &mut WriteContext) -> Result<()> {
        Serialize::write_data(&self.0, ctx)
    }

    #[inline]
    fn write_declared(&self, ctx: &mut WriteContext) -> Result<()> {
        Serialize::write_declared(&self.0, ctx)
    }

    #[inline]
    fn is_null(&self) -> bool {
        Serialize::is_null(&self.0)
    }

    #[inline]
    fn is_back_ref(&self) -> bool {
        Serialize::is_back_ref(&self.0)
    }

    #[inline]
    fn is_ref_type(&self) -> bool {
        Serialize::is_ref_type(&self.0)
    }

    #[inline]
    fn write_ref_flag(&self, ctx: &mut WriteContext, track: bool) -> Result<bool> {
        Serialize::write_ref_flag(&self.0, ctx, track)
    }

    #[inline]
    fn visit_buffers<'v>(&'v self, out: &mut Vec<&'v [u8]>) {
        Serialize::visit_buffers(&self.0, out)
    }
}

impl<'de: 'a, 'a, T> Deserialize<'de> for BorrowCow<'a, T>
where
    T: ?Sized + CowRead<'de> + 'de,
    T::Owned: Deserialize<'de>,
{
    cow_read_hooks!(BorrowCow);

    #[inline]
    fn read_data(ctx: &mut ReadContext<'de, '_>) -> Result<Self> {
        T::read_cow(ctx, None).map(BorrowCow)
    }

    #[inline]
    fn read_typed(ctx: &mut ReadContext<'de, '_>, id: TypeId) -> Result<Self> {
        T::read_cow(ctx, Some(id)).map(BorrowCow)
    }

    fn keep_ref(self, ctx: &mut ReadContext<'de, '_>, slot: usize) -> Self {
        match self.0 {
            Cow::Owned(v) => BorrowCow(Cow::Owned(v.keep_ref(ctx, slot))),
            borrowed => {
                ctx.set_ref(slot, RefSlot::Plain);
                BorrowCow(borrowed)
            }
        }
    }
}

// ---- usize, isize: as u64, i64 ----

// `usize` and `isize` are at most 64 bits wide on every target, so `as u64` / `as i64` below
// never lose a bit. (Reading converts back with `TryFrom` and fails on 32-bit targets for
// values that do not fit.)
const _: () = assert!(std::mem::size_of::<usize>() <= 8);

/// The error for a value read at `at` that does not fit the target type.
fn out_of_range<V: std::fmt::Display>(v: V, target: &'static str, at: usize) -> Error {
    Error::at(
        ErrorKind::OutOfRange {
            value: v.to_string(),
            target,
        },
        at,
    )
}

/// Writes `usize` as `u64` and `isize` as `i64` (the payload and type id of those: `usize` is
/// VAR_UINT64, `isize` VARINT64, their vectors UINT64_ARRAY and INT64_ARRAY); reads every
/// integer encoding whose value fits, failing with [`ErrorKind::OutOfRange`] otherwise (on
/// 32-bit targets, values above the pointer width).
macro_rules! pointer_sized {
    ($t:ty, $wide:ty, $id:ident, $vec_id:ident, $write:ident, $read:ident, $put:ident) => {
        impl WireType for $t {
            const TYPE_ID: TypeId = TypeId::$id;
            const VEC_TYPE_ID: TypeId = TypeId::$vec_id;
        }

        impl Serialize for $t {
            #[inline]
            fn write_data(&self, ctx: &mut WriteContext) -> Result<()> {
                ctx.writer.$write(*self as $wide);
                Ok(())
            }

            #[inline]
            fn write_vec(items: &[Self], _declared: bool, ctx: &mut WriteContext) -> Result<()> {
                write_dense(items, ctx)
            }
        }

        impl<'de> Deserialize<'de> for $t {
            #[inline]
            fn missing() -> Option<Self> {
                Some(0)
            }

            #[inline]
            fn read_data(ctx: &mut ReadContext<'de, '_>) -> Result<Self> {
                let at = ctx.reader.position();
                let v = ctx.reader.$read()?;
                <$t>::try_from(v).map_err(|_| out_of_range(v, stringify!($t), at))
            }

            #[inline]
            fn read_typed(ctx: &mut ReadContext<'de, '_>, id: TypeId) -> Result<Self> {
                if id == TypeId::$id {
                    Self::read_data(ctx)
                } else {
                    super::scalar::read_int_as(ctx, id)
                }
            }

            #[inline]
            fn read_vec(ctx: &mut ReadContext<'de, '_>, id: TypeId) -> Result<Vec<Self>> {
                read_dense_or_list(ctx, id, TypeId::$vec_id)
            }
        }

        impl Dense for $t {
            const SIZE: usize = 8;

            fn put_all(items: &[Self], w: &mut Writer) {
                w.reserve(items.len().saturating_mul(8));
                for &x in items {
                    w.$put(x as $wide);
                }
            }

            fn get_all(
                r: &mut Reader,
                count: usize,
            ) -> Result<std::result::Result<Vec<Self>, usize>> {
                let wide = r.numbers::<$wide>(count)?;
                Ok(wide
                    .into_iter()
                    .enumerate()
                    .map(|(i, v)| <$t>::try_from(v).map_err(|_| i))
                    .collect())
            }
        }
    };
}

pointer_sized!(usize, u64, VarUInt64, UInt64Array, var_u64, var_u64, u64);
pointer_sized!(isize, i64, VarInt64, Int64Array, var_i64, var_i64, i64);

// ---- () : a null ----

/// `()` is a null: pyfory's `None`. A root `()` is the NULL flag alone (`01 fd`); in a list
/// it is a null element (`[(), ()]` is `16 02 0a 24 fd fd`, as pyfory writes `[None, None]`);
/// in a struct field it takes no bytes at all (declared as NONE, as the official crate
/// declares it). Reading accepts a null, the NONE type, and an empty LIST (pyfory's `()`).
/// A consequence: an `Option<()>` has no room for `Some(())`, which is itself a null.
impl WireType for () {
    const TYPE_ID: TypeId = TypeId::None;
    const NULLABLE: bool = true;
    const FIELD_NULLABLE: bool = false;
}

impl Serialize for () {
    #[inline]
    fn write_data(&self, _ctx: &mut WriteContext) -> Result<()> {
        Ok(())
    }

    #[inline]
    fn is_null(&self) -> bool {
        true
    }
}

impl<'de> Deserialize<'de> for () {
    #[inline]
    fn read_data(_ctx: &mut ReadContext<'de, '_>) -> Result<Self> {
        Ok(())
    }

    fn read_typed(ctx: &mut ReadContext<'de, '_>, id: TypeId) -> Result<Self> {
        match id {
            TypeId::None => Ok(()),
            TypeId::List => {
                let at = ctx.reader.position();
                match ctx.reader.var_u32()? {
                    0 => Ok(()),
                    n => Err(Error::at(
                        ErrorKind::TypeMismatch {
                            expected: "() (an empty tuple)".to_string(),
                            found: format!("a list of {n} elements"),
                        },
                        at,
                    )),
                }
            }
            other => Err(ctx.mismatch("()", other)),
        }
    }

    #[inline]
    fn null() -> Option<Self> {
        Some(())
    }

    #[inline]
    fn missing() -> Option<Self> {
        Some(())
    }
}

// ---- tuples: LIST, as pyfory writes a Python tuple ----

/// What decides whether two tuple elements can share one type info in the list header.
#[derive(Clone, Copy, PartialEq, Eq)]
enum ItemKey {
    /// An internal type: its type info is the id byte alone.
    Internal(TypeId),
    /// A user type (struct, enum, ext, union): the same Rust type has the same type info.
    User(&'static str),
    /// A dynamic value: never assumed to share a type info with another element.
    Dynamic,
}

/// One tuple element, type-erased so that [`write_elements`] can lay out the tuple.
/// The methods are those of [`Serialize`] that [`write_elements`] calls.
trait AnyItem {
    /// What decides whether this element shares its type info with another.
    fn key(&self) -> ItemKey;
    /// [`Serialize::is_null`].
    fn is_null(&self) -> bool;
    /// [`Serialize::is_back_ref`].
    fn is_back_ref(&self) -> bool;
    /// [`Serialize::is_ref_type`].
    fn is_ref_type(&self) -> bool;
    /// [`Serialize::write_ref_flag`].
    fn write_ref_flag(&self, ctx: &mut WriteContext, track: bool) -> Result<bool>;
    /// [`Serialize::write_type_info`].
    fn write_type_info(&self, ctx: &mut WriteContext) -> Result<()>;
    /// [`Serialize::write_data`]: a tuple's elements are undeclared values.
    fn write_data(&self, ctx: &mut WriteContext) -> Result<()>;
}

impl<T: Serialize> AnyItem for T {
    #[inline]
    fn key(&self) -> ItemKey {
        match T::TYPE_ID.row().family {
            Family::Unknown => ItemKey::Dynamic,
            Family::Enum | Family::Struct | Family::Ext | Family::Union => {
                ItemKey::User(std::any::type_name::<T>())
            }
            _ => ItemKey::Internal(T::TYPE_ID),
        }
    }
    #[inline]
    fn is_null(&self) -> bool {
        Serialize::is_null(self)
    }
    #[inline]
    fn is_back_ref(&self) -> bool {
        Serialize::is_back_ref(self)
    }
    #[inline]
    fn is_ref_type(&self) -> bool {
        Serialize::is_ref_type(self)
    }
    #[inline]
    fn write_ref_flag(&self, ctx: &mut WriteContext, track: bool) -> Result<bool> {
        Serialize::write_ref_flag(self, ctx, track)
    }
    #[inline]
    fn write_type_info(&self, ctx: &mut WriteContext) -> Result<()> {
        Serialize::write_type_info(self, ctx)
    }
    #[inline]
    fn write_data(&self, ctx: &mut WriteContext) -> Result<()> {
        Serialize::write_data(self, ctx)
    }
}

/// A tuple element as a dynamic list element: its type is known only per value.
struct Elem<'a>(&'a dyn AnyItem);

impl WireType for Elem<'_> {
    const TYPE_ID: TypeId = TypeId::Unknown;
    const NULLABLE: bool = true;
}

impl Serialize for Elem<'_> {
    #[inline]
    fn write_type_info(&self, ctx: &mut WriteContext) -> Result<()> {
        self.0.write_type_info(ctx)
    }

    #[inline]
    fn write_data(&self, ctx: &mut WriteContext) -> Result<()> {
        self.0.write_data(ctx)
    }

    #[inline]
    fn is_null(&self) -> bool {
        self.0.is_null()
    }

    #[inline]
    fn is_back_ref(&self) -> bool {
        self.0.is_back_ref()
    }

    #[inline]
    fn is_ref_type(&self) -> bool {
        self.0.is_ref_type()
    }

    #[inline]
    fn write_ref_flag(&self, ctx: &mut WriteContext, track: bool) -> Result<bool> {
        self.0.write_ref_flag(ctx, track)
    }

    #[inline]
    fn same_type(&self, other: &Self) -> bool {
        match (self.0.key(), other.0.key()) {
            (ItemKey::Dynamic, _) | (_, ItemKey::Dynamic) => false,
            (a, b) => a == b,
        }
    }
}

/// An element of a tuple whose elements all have the wire type of `A`, in a declared position:
/// written as the elements of a declared `list<A>` (no type info), as pyfory writes a
/// `Tuple[int, int]` field.
struct DeclElem<'a, A>(&'a dyn AnyItem, std::marker::PhantomData<A>);

impl<A: WireType> WireType for DeclElem<'_, A> {
    const TYPE_ID: TypeId = A::TYPE_ID;
}

impl<A: WireType> Serialize for DeclElem<'_, A> {
    #[inline]
    fn write_data(&self, ctx: &mut WriteContext) -> Result<()> {
        self.0.write_data(ctx)
    }
}

/// True when a tuple of elements with these wire types and nullabilities is declared as a
/// list of its one element type (by pyfory, and so by us): every element of the same
/// non-null scalar, string, time, binary or dense-array type. Others are lists of UNKNOWN.
const fn homogeneous(ids: &[TypeId], nullable: &[bool]) -> bool {
    let Some(first) = ids.first() else {
        return false;
    };
    let leaf = matches!(
        first.row().family,
        Family::Bool
            | Family::Int
            | Family::Float
            | Family::String
            | Family::Time
            | Family::Binary
            | Family::Array
    );
    if !leaf {
        return false;
    }
    let mut i = 0;
    while i < ids.len() {
        if ids[i] as u8 != *first as u8 || nullable[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// Reads the elements of a tuple one position at a time, each as its own type, into `slots`
/// (a tuple of `Cell<Option<_>>`). `next` is the position of the next element to complete.
struct TupleReader<S> {
    next: Cell<usize>,
    slots: S,
}

/// The error for an element past the end of a tuple (the length was checked before, so only
/// an inconsistent stream gets here).
fn past_end(n: usize) -> Error {
    Error::new(ErrorKind::Invalid {
        what: format!("more than the {n} elements of the tuple"),
    })
}

/// Checks that the list payload at the read position declares `n` elements, without
/// consuming anything; `what` names the tuple type in the error.
fn check_tuple_len(ctx: &mut ReadContext<'_, '_>, n: usize, what: &str) -> Result<()> {
    let at = ctx.reader.position();
    let len = ctx.reader.var_u32()?;
    ctx.reader.rewind_to(at)?;
    if len as usize == n {
        Ok(())
    } else {
        Err(Error::at(
            ErrorKind::TypeMismatch {
                expected: format!("{what} ({n} elements)"),
                found: format!("a list of {len} elements"),
            },
            at,
        ))
    }
}

/// The number of identifiers given.
macro_rules! count {
    () => { 0usize };
    ($head:ident $($tail:ident)*) => { 1usize + count!($($tail)*) };
}

/// Tuples are LISTs, laid out as pyfory lays out a Python tuple: by [`write_elements`], with
/// one shared type info when every non-null element has the same type info (`SAME_TYPE`),
/// null flags when one is null, and a type info per element otherwise; never `DECL_TYPE`
/// (a peer declares a tuple field as a list of UNKNOWN, so the elements are written as
/// undeclared values even in a struct field). Elements of the same internal type share a
/// type info; so do elements of the same user type (compared by Rust type name); dynamic
/// values ([`crate::Value`]) never do.
///
/// Reading accepts any LIST layout (pyfory's, and the official crate's type info per
/// element), reads position `i` as the tuple's `i`-th type, and requires exactly as many
/// elements as the tuple has: another count is a [`ErrorKind::TypeMismatch`] at the length.
macro_rules! tuple {
    ($(($T:ident, $idx:tt)),+) => {
        impl<$($T: WireType),+> WireType for ($($T,)+) {
            #[inline]
            fn reach(reach: &mut crate::registry::Reach<'_>) -> crate::error::Result<()> {
                $($T::reach(reach)?;)+
                Ok(())
            }

            const TYPE_ID: TypeId = TypeId::List;
            const REF_TYPE: bool = true;
            /// A list of UNKNOWN elements, as pyfory declares a `Tuple[...]` field, or a list
            /// of the one element type when all elements have it (see `homogeneous`).
            fn field_type(registry: &Registry, compatible: bool) -> FieldType {
                let mut t = FieldType::leaf(TypeId::List);
                if homogeneous(&[$($T::TYPE_ID),+], &[$($T::NULLABLE),+]) {
                    t.children.push(A::field_type(registry, compatible));
                } else {
                    t.children.push(FieldType::leaf(TypeId::Unknown));
                }
                t
            }
        }

        impl<$($T: Serialize),+> Serialize for ($($T,)+) {
            fn visit_buffers<'v>(&'v self, out: &mut Vec<&'v [u8]>) {
                $(self.$idx.visit_buffers(out);)+
            }

            fn write_data(&self, ctx: &mut WriteContext) -> Result<()> {
                let items = [$(Elem(&self.$idx as &dyn AnyItem)),+];
                write_elements(items.len(), items.iter(), false, ctx)
            }

            fn write_declared(&self, ctx: &mut WriteContext) -> Result<()> {
                if homogeneous(&[$($T::TYPE_ID),+], &[$($T::NULLABLE),+]) {
                    let items = [$(DeclElem::<A>(&self.$idx as &dyn AnyItem, std::marker::PhantomData)),+];
                    write_elements(items.len(), items.iter(), true, ctx)
                } else {
                    Serialize::write_data(self, ctx)
                }
            }
        }

        impl<'de, $($T: Deserialize<'de>),+> ItemReader<'de>
            for TupleReader<($(Cell<Option<$T>>,)+)>
        {
            type Out = ();

            fn dynamic_refs(&self) -> bool {
                match self.next.get() {
                    $($idx => $T::DYNAMIC_REFS,)+
                    _ => false,
                }
            }

            fn null(&self, ctx: &ReadContext<'de, '_>) -> Result<()> {
                let i = self.next.get();
                match i {
                    $($idx => self.slots.$idx.set(Some(null_of::<$T>(ctx)?)),)+
                    _ => return Err(past_end(count!($($T)+))),
                }
                self.next.set(i + 1);
                Ok(())
            }

            fn type_info(&self, ctx: &mut ReadContext<'de, '_>) -> Result<TypeId> {
                match self.next.get() {
                    $($idx => super::read_type_info::<$T>(ctx),)+
                    _ => Err(past_end(count!($($T)+))),
                }
            }

            fn read(&self, ctx: &mut ReadContext<'de, '_>, id: Option<TypeId>) -> Result<()> {
                let i = self.next.get();
                match i {
                    $($idx => {
                        let v = match id {
                            Some(id) => $T::read_typed(ctx, id)?,
                            None => $T::read_data(ctx)?,
                        };
                        self.slots.$idx.set(Some(v));
                    })+
                    _ => return Err(past_end(count!($($T)+))),
                }
                self.next.set(i + 1);
                Ok(())
            }

            fn resolve_ref(&self, ctx: &ReadContext<'de, '_>, id: u32, at: usize) -> Result<()> {
                let i = self.next.get();
                match i {
                    $($idx => self.slots.$idx.set(Some($T::from_ref(ctx, id, at)?)),)+
                    _ => return Err(past_end(count!($($T)+))),
                }
                self.next.set(i + 1);
                Ok(())
            }

            fn begin_ref(&self, ctx: &mut ReadContext<'de, '_>, slot: usize) {
                match self.next.get() {
                    $($idx => $T::begin_ref(ctx, slot),)+
                    _ => {}
                }
            }

            fn keep_ref(&self, ctx: &mut ReadContext<'de, '_>, _v: (), slot: usize) {
                // The element just completed is the one before `next`.
                match self.next.get().wrapping_sub(1) {
                    $($idx => {
                        if let Some(v) = self.slots.$idx.take() {
                            self.slots.$idx.set(Some(v.keep_ref(ctx, slot)));
                        }
                    })+
                    _ => {}
                }
            }
        }

        impl<'de, $($T: Deserialize<'de>),+> Deserialize<'de> for ($($T,)+) {
            /// The missing value of every element, if each has one.
            fn missing() -> Option<Self> {
                Some(($($T::missing()?,)+))
            }

            fn stand_in() -> Option<Self> {
                Some(($($T::stand_in()?,)+))
            }

            /// A tuple of one plain element type, in the layout this side writes for a
            /// declared one: the element count, the header `SAME_TYPE | DECL_TYPE`, the bare
            /// payloads.
            const DIRECT: bool =
                homogeneous(&[$($T::TYPE_ID),+], &[$($T::NULLABLE),+]) $(&& $T::DIRECT)+;

            #[inline(always)]
            fn read_direct(
                r: &mut crate::buffer::Reader<'de>,
                ctx: &ReadContext<'de, '_>,
            ) -> Option<Self> {
                if !Self::DIRECT
                    || r.var_u32().ok()? as usize != count!($($T)+)
                    || r.u8().ok()? != crate::types::elements::SAME_TYPE | crate::types::elements::DECL_TYPE
                {
                    return None;
                }
                Some(($($T::read_direct(r, ctx)?,)+))
            }

            fn read_data(ctx: &mut ReadContext<'de, '_>) -> Result<Self> {
                if Self::DIRECT {
                    let mut r = ctx.reader.clone();
                    if let Some(v) = Self::read_direct(&mut r, ctx) {
                        ctx.reader = r;
                        return Ok(v);
                    }
                }
                let n = count!($($T)+);
                check_tuple_len(ctx, n, std::any::type_name::<Self>())?;
                let reader = TupleReader {
                    next: Cell::new(0),
                    slots: ($(Cell::new(None::<$T>),)+),
                };
                read_elements_with(ctx, &reader)?;
                Ok(($(reader.slots.$idx.take().ok_or_else(|| past_end(n))?,)+))
            }
        }
    };
}

tuple!((A, 0));
tuple!((A, 0), (B, 1));
tuple!((A, 0), (B, 1), (C, 2));
tuple!((A, 0), (B, 1), (C, 2), (D, 3));
tuple!((A, 0), (B, 1), (C, 2), (D, 3), (E, 4));
tuple!((A, 0), (B, 1), (C, 2), (D, 3), (E, 4), (F, 5));
tuple!((A, 0), (B, 1), (C, 2), (D, 3), (E, 4), (F, 5), (G, 6));
tuple!(
    (A, 0),
    (B, 1),
    (C, 2),
    (D, 3),
    (E, 4),
    (F, 5),
    (G, 6),
    (H, 7)
);
tuple!(
    (A, 0),
    (B, 1),
    (C, 2),
    (D, 3),
    (E, 4),
    (F, 5),
    (G, 6),
    (H, 7),
    (I, 8)
);
tuple!(
    (A, 0),
    (B, 1),
    (C, 2),
    (D, 3),
    (E, 4),
    (F, 5),
    (G, 6),
    (H, 7),
    (I, 8),
    (J, 9)
);
tuple!(
    (A, 0),
    (B, 1),
    (C, 2),
    (D, 3),
    (E, 4),
    (F, 5),
    (G, 6),
    (H, 7),
    (I, 8),
    (J, 9),
    (K, 10)
);
tuple!(
    (A, 0),
    (B, 1),
    (C, 2),
    (D, 3),
    (E, 4),
    (F, 5),
    (G, 6),
    (H, 7),
    (I, 8),
    (J, 9),
    (K, 10),
    (L, 11)
);
