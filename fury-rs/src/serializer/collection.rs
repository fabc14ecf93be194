//! LIST and SET payloads: `varuint32 length | elements header | [type info] | elements`.

use super::items::{ItemReader, Typed};
use super::{Deserialize, Serialize, WireType};
use crate::context::{ReadContext, WriteContext};
use crate::error::{ErrorKind, Result};
use crate::types::{elements, TypeId};

/// Writes `len` items as a list/set payload.
///
/// The elements header is chosen as pyfory chooses it: when all non-null items share one
/// type, `SAME_TYPE` is set and the type info is written once (`NONE` if every item is
/// null), or not at all when the collection is `declared` (a struct field, or inside one)
/// and the element type needs no type info (`DECL_TYPE`); `HAS_NULL` is set when some item
/// is null, and then every item carries a null/not-null flag. Mixed types get a type info per
/// item. An empty collection is the single byte `0`, with no header.
pub fn write_elements<'b, T, I>(
    len: usize,
    items: I,
    declared: bool,
    ctx: &mut WriteContext,
) -> Result<()>
where
    T: Serialize + 'b,
    I: Iterator<Item = &'b T> + Clone,
{
    let untracked = ctx.take_untracked_elements();
    ctx.length(len)?;
    if len == 0 {
        return Ok(());
    }
    let mut first: Option<&T> = None;
    let mut first_ref: Option<&T> = None;
    let mut has_null = false;
    let mut same = true;
    if T::NULLABLE || !is_static::<T>() {
        for item in items.clone() {
            if T::NULLABLE && item.is_null() {
                has_null = true;
                continue;
            }
            // A dynamic back reference is written as a flag and an id, whatever the shared
            // type info says, so only the other items decide it.
            if item.is_back_ref() {
                first_ref = first_ref.or(Some(item));
                continue;
            }
            match first {
                None => first = Some(item),
                Some(f) => same = same && f.same_type(item),
            }
        }
        // pyfory reads no reference flags in a list of one untracked kind (numbers,
        // strings), whatever its header says, so back references among such values make
        // the list one of mixed types, whose elements all carry flags.
        if first_ref.is_some() && first.is_some_and(|f| !f.is_ref_type()) {
            same = false;
        }
        // Only back references (and nulls): the type of the value the first one names.
        first = first.or(first_ref);
    } else {
        first = items.clone().next();
    }
    // pyfory declares the element type of a list in a struct field unless the elements are
    // structs (or dynamic values), which keep one shared type info.
    let decl = declared && is_static::<T>() && !T::POLYMORPHIC;
    // With tracking on, pyfory tracks the elements when they are of mixed types or of a
    // tracked kind (lists, maps, structs, shared pointers).
    // A `#[fury(untracked_elements)]` field (pyfory's `List[Ref[T, False]]`) has none, unless
    // an element is a back reference, which only a tracked list can hold.
    let track = ctx.ref_tracking()
        && !(untracked && first_ref.is_none())
        && (!same || first_ref.is_some() || first.is_some_and(|f| f.is_ref_type()));
    let mut header = 0u8;
    if track {
        header |= elements::TRACK_REF;
    }
    if same {
        header |= elements::SAME_TYPE;
    }
    if decl {
        header |= elements::DECL_TYPE;
    }
    if has_null {
        header |= elements::HAS_NULL;
    }
    ctx.writer.u8(header);
    ctx.enter()?;
    if same && !decl {
        match first {
            Some(f) => f.write_type_info(ctx)?,
            // Every item is null: a declared static type still names itself, as pyfory
            // does; an undeclared list has nothing to name but NONE.
            None if declared && is_static::<T>() => T::write_static_type_info(ctx)?,
            None => ctx.writer.u8(TypeId::None as u8),
        }
    }
    if same && !track && !has_null {
        T::write_run(items, declared, ctx)?;
        ctx.leave();
        return Ok(());
    }
    for item in items {
        // In a tracked list, values of untracked kinds (numbers, strings) still get NOT_NULL,
        // as pyfory writes them in mixed lists.
        let tracked = if same {
            item.is_ref_type()
        } else {
            item.is_ref_among_mixed()
        };
        if (track || has_null) && item.write_ref_flag(ctx, track && tracked)? {
            continue;
        }
        if !same {
            item.write_type_info(ctx)?;
        }
        if declared {
            item.write_declared(ctx)?;
        } else {
            item.write_data(ctx)?;
        }
    }
    ctx.leave();
    Ok(())
}

/// Writes an empty list/set payload, as [`write_elements`] does for no items: the length 0
/// (the mark of a `#[fury(untracked_elements)]` field is cleared all the same).
#[inline(always)]
pub(crate) fn write_empty(ctx: &mut WriteContext) -> Result<()> {
    ctx.take_untracked_elements();
    ctx.writer.u8(0);
    Ok(())
}

/// True when every value of `T` has the same type info, so no per-item check is needed.
#[inline]
fn is_static<T: Serialize>() -> bool {
    T::TYPE_ID != TypeId::Unknown
}

/// Reads a list/set payload into a `Vec`, obeying the header written by the peer.
#[inline]
pub fn read_elements<'de, T: Deserialize<'de>>(ctx: &mut ReadContext<'de, '_>) -> Result<Vec<T>> {
    read_elements_with(ctx, &Typed::<T>::new())
}

/// Reads a list/set payload with `item` reading each element.
pub fn read_elements_with<'de, R: ItemReader<'de>>(
    ctx: &mut ReadContext<'de, '_>,
    item: &R,
) -> Result<Vec<R::Out>> {
    let at = ctx.reader.position();
    let declared = ctx.reader.var_u32()?;
    if declared == 0 {
        return Ok(Vec::new());
    }
    // Every element costs at least one byte (a flag, a type id or a payload byte), except in
    // a run of bare payloads after one type info, where an empty compatible struct takes
    // none (pyfory writes `[Empty()] * 40` in 18 bytes); the zero-byte NONE payload is
    // refused below unless flags are present.
    let len = match ctx.reader.check_count("list", declared as u64, 1, at) {
        Ok(len) => {
            ctx.claim_elements(len, at)?;
            len
        }
        Err(e) => {
            let run = ctx.reader.rest().first().is_some_and(|&h| {
                h & (elements::TRACK_REF | elements::HAS_NULL) == 0 && h & elements::SAME_TYPE != 0
            });
            if !run {
                return Err(e);
            }
            ctx.claim_zero_size_elements(declared as usize, at)?;
            declared as usize
        }
    };
    ctx.charge(len.saturating_mul(std::mem::size_of::<R::Out>()))?;
    let header_at = ctx.reader.position();
    let header = ctx.reader.u8()?;
    if header & 0xf0 != 0 {
        return Err(crate::Error::at(
            ErrorKind::Invalid {
                what: format!("elements header 0x{header:02x} has reserved bits set"),
            },
            header_at,
        ));
    }
    let flagged = header & (elements::TRACK_REF | elements::HAS_NULL) != 0;
    // SAME_TYPE + DECL_TYPE: no type info, payloads of the declared type; SAME_TYPE alone:
    // one type info; neither: a type info per element.
    let declared = header & elements::SAME_TYPE != 0 && header & elements::DECL_TYPE != 0;
    let elem_id = if header & elements::SAME_TYPE != 0 && !declared {
        Some(item.type_info(ctx)?)
    } else {
        None
    };
    if elem_id == Some(TypeId::None) && !flagged {
        return Err(ctx.error(ErrorKind::Invalid {
            what: "list of NONE elements without null flags".to_string(),
        }));
    }
    let mut out = Vec::with_capacity(len);
    ctx.enter()?;
    if !flagged && (declared || elem_id.is_some()) {
        item.read_run(ctx, elem_id, len, &mut out)?;
        ctx.leave();
        return Ok(out);
    }
    for _ in 0..len {
        let mut slot = None;
        if flagged {
            match super::refs::read_flag(ctx, item)? {
                super::refs::Flagged::Done(v) => {
                    out.push(v);
                    continue;
                }
                super::refs::Flagged::Read(s) => slot = s,
            }
        }
        let value = if declared {
            item.read(ctx, None)?
        } else {
            let id = match elem_id {
                Some(id) => id,
                None => item.type_info(ctx)?,
            };
            // A dynamic value's renumbering: in a tracked list of mixed types the writer
            // numbers every value but those of the four untracked kinds.
            let mixed = elem_id.is_none() && header & elements::TRACK_REF != 0;
            if mixed && item.dynamic_refs() {
                ctx.set_count(Some(id.is_tracked_among_mixed()));
                let v = item.read(ctx, Some(id));
                ctx.set_count(None);
                v?
            } else {
                item.read(ctx, Some(id))?
            }
        };
        out.push(super::refs::finish(ctx, item, value, slot));
    }
    ctx.leave();
    Ok(out)
}

/// Implements the traits for a set type: `HashSet[S: bounds]` names the hasher parameter and
/// its bounds (any `BuildHasher + Default`), absent for ordered sets.
macro_rules! set_impl {
    ($($set:ident)::+ $([$s:ident: $($sb:tt)+])?, $($bound:tt)+) => {
        impl<T: WireType + $($bound)+ $(, $s: $($sb)+)?> WireType for $($set)::+<T $(, $s)?> {
            #[inline]
            fn reach(reach: &mut crate::registry::Reach<'_>) -> crate::error::Result<()> {
                T::reach(reach)
            }

            const TYPE_ID: TypeId = TypeId::Set;
            const REF_TYPE: bool = true;
            fn field_type(
                registry: &crate::registry::Registry,
                compatible: bool,
            ) -> crate::meta::typedef::FieldType {
                super::collection_field_type::<T>(TypeId::Set, registry, compatible)
            }
        }

        impl<T: Serialize + $($bound)+ $(, $s: $($sb)+)?> Serialize for $($set)::+<T $(, $s)?> {
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

        impl<'de, T: Deserialize<'de> + $($bound)+ $(, $s: $($sb)+)?> Deserialize<'de>
            for $($set)::+<T $(, $s)?>
        {
            #[inline]
            fn missing() -> Option<Self> {
                Some(Self::default())
            }

            #[inline]
            fn read_data(ctx: &mut ReadContext<'de, '_>) -> Result<Self> {
                Ok(read_elements::<T>(ctx)?.into_iter().collect())
            }

            #[inline]
            fn read_typed(ctx: &mut ReadContext<'de, '_>, id: TypeId) -> Result<Self> {
                // A LIST is accepted where a set is expected (duplicates collapse).
                if id == TypeId::Set || id == TypeId::List {
                    Self::read_data(ctx)
                } else {
                    Err(ctx.mismatch(std::any::type_name::<Self>(), id))
                }
            }
        }
    };
}

set_impl!(std::collections::HashSet[S: std::hash::BuildHasher + Default], Eq + std::hash::Hash);
set_impl!(std::collections::BTreeSet, Ord);
// `indexmap::IndexSet` (feature `indexmap`): a SET written in insertion order and read in
// wire order, so a set read from pyfory writes back in the order pyfory wrote it.
#[cfg(feature = "indexmap")]
set_impl!(indexmap::IndexSet[S: std::hash::BuildHasher + Default], Eq + std::hash::Hash);

/// A `Vec<T>` always written as a LIST, also for primitive `T` (whose plain `Vec` is a dense
/// array). Use it for fields that peers declare as lists, e.g. Python's `List[int]`.
///
/// ```
/// use fury::{Fury, List};
/// let fury = Fury::default();
/// // pyfory writes [1, 2] as a LIST of VARINT64
/// let bytes = fury.serialize(&List(vec![1i64, 2])).unwrap();
/// assert_eq!(bytes, [0x01, 0xff, 0x16, 0x02, 0x08, 0x07, 0x02, 0x04]);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct List<T>(pub Vec<T>);

impl<T> Default for List<T> {
    fn default() -> Self {
        List(Vec::new())
    }
}

impl<T> std::ops::Deref for List<T> {
    type Target = Vec<T>;
    fn deref(&self) -> &Vec<T> {
        &self.0
    }
}

impl<T> std::ops::DerefMut for List<T> {
    fn deref_mut(&mut self) -> &mut Vec<T> {
        &mut self.0
    }
}

impl<T> From<Vec<T>> for List<T> {
    fn from(v: Vec<T>) -> Self {
        List(v)
    }
}

impl<T: WireType> WireType for List<T> {
    #[inline]
    fn reach(reach: &mut crate::registry::Reach<'_>) -> crate::error::Result<()> {
        T::reach(reach)
    }

    const TYPE_ID: TypeId = TypeId::List;
    const REF_TYPE: bool = true;
    fn field_type(
        registry: &crate::registry::Registry,
        compatible: bool,
    ) -> crate::meta::typedef::FieldType {
        super::collection_field_type::<T>(TypeId::List, registry, compatible)
    }
}

impl<T: Serialize> Serialize for List<T> {
    #[inline]
    fn visit_buffers<'v>(&'v self, out: &mut Vec<&'v [u8]>) {
        self.0.iter().for_each(|x| x.visit_buffers(out))
    }

    #[inline]
    fn write_data(&self, ctx: &mut WriteContext) -> Result<()> {
        write_elements(self.0.len(), self.0.iter(), false, ctx)
    }

    #[inline]
    fn write_declared(&self, ctx: &mut WriteContext) -> Result<()> {
        write_elements(self.0.len(), self.0.iter(), true, ctx)
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for List<T> {
    #[inline]
    fn missing() -> Option<Self> {
        Some(List(Vec::new()))
    }

    #[inline]
    fn read_data(ctx: &mut ReadContext<'de, '_>) -> Result<Self> {
        read_elements(ctx).map(List)
    }

    /// A LIST, or (in compatible mode, for a peer that declares the field as a dense array)
    /// the dense array of `T`.
    #[inline]
    fn read_typed(ctx: &mut ReadContext<'de, '_>, id: TypeId) -> Result<Self> {
        if id == TypeId::List {
            read_elements(ctx).map(List)
        } else if id.row().family == crate::types::table::Family::Array {
            T::read_vec(ctx, id).map(List)
        } else {
            Err(ctx.mismatch(std::any::type_name::<Self>(), id))
        }
    }
}

/// A SET kept as a `Vec<T>` in its own order: written in that order, read in wire order
/// (duplicates a stream holds are kept). Use it where the order of a peer's set matters,
/// e.g. to write back exactly the bytes pyfory wrote for a Python set; `BTreeSet` writes
/// its elements sorted and `HashSet` in hash order. Equality compares in order.
///
/// ```
/// use fury::{Fury, Set};
/// let fury = Fury::default();
/// // pyfory iterates the Python set {1, 8} as 8, 1 and writes it so
/// let pyfory = [0x01, 0xff, 0x17, 0x02, 0x08, 0x07, 0x10, 0x02];
/// let set: Set<i64> = fury.deserialize(&pyfory).unwrap();
/// assert_eq!(set, Set(vec![8, 1]));
/// assert_eq!(fury.serialize(&set).unwrap(), pyfory);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Set<T>(pub Vec<T>);

impl<T> Default for Set<T> {
    fn default() -> Self {
        Set(Vec::new())
    }
}

impl<T: WireType> WireType for Set<T> {
    #[inline]
    fn reach(reach: &mut crate::registry::Reach<'_>) -> crate::error::Result<()> {
        T::reach(reach)
    }

    const TYPE_ID: TypeId = TypeId::Set;
    const REF_TYPE: bool = true;
    fn field_type(
        registry: &crate::registry::Registry,
        compatible: bool,
    ) -> crate::meta::typedef::FieldType {
        super::collection_field_type::<T>(TypeId::Set, registry, compatible)
    }
}

impl<T: Serialize> Serialize for Set<T> {
    #[inline]
    fn visit_buffers<'v>(&'v self, out: &mut Vec<&'v [u8]>) {
        self.0.iter().for_each(|x| x.visit_buffers(out))
    }

    #[inline]
    fn write_data(&self, ctx: &mut WriteContext) -> Result<()> {
        write_elements(self.0.len(), self.0.iter(), false, ctx)
    }

    #[inline]
    fn write_declared(&self, ctx: &mut WriteContext) -> Result<()> {
        write_elements(self.0.len(), self.0.iter(), true, ctx)
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Set<T> {
    #[inline]
    fn missing() -> Option<Self> {
        Some(Set(Vec::new()))
    }

    #[inline]
    fn read_data(ctx: &mut ReadContext<'de, '_>) -> Result<Self> {
        read_elements(ctx).map(Set)
    }

    /// A SET, or a LIST (as the other set types read one).
    #[inline]
    fn read_typed(ctx: &mut ReadContext<'de, '_>, id: TypeId) -> Result<Self> {
        if id == TypeId::Set || id == TypeId::List {
            read_elements(ctx).map(Set)
        } else {
            Err(ctx.mismatch(std::any::type_name::<Self>(), id))
        }
    }
}
