//! Reference tracking: the REF_VALUE / REF flags, reference ids, and shared pointers
//! (`Rc<T>`, `Arc<T>`) whose sharing survives a round trip.
//!
//! With tracking on, a value in a tracked position is written with REF_VALUE (`0x00`) and
//! takes the next reference id (ids count REF_VALUE flags in stream order, from 0); a shared
//! pointer written again is a REF (`0xfe`) followed by the varuint32 id of its first
//! occurrence. With tracking off only NULL (`0xfd`) and NOT_NULL (`0xff`) are written, and
//! nothing is hashed or allocated for references.

use super::items::ItemReader;
use super::{Deserialize, Serialize, WireType};
use crate::context::{ReadContext, RefSlot, WriteContext};
use crate::error::{Error, ErrorKind, Result};
use crate::meta::typedef::FieldType;
use crate::registry::Registry;
use crate::types::{RefFlag, TypeId};
use std::rc::Rc;
use std::sync::Arc;

/// Whether a value written with type id `id` is tracked, as pyfory tracks it: lists, sets,
/// maps and binary are; strings, numbers and dense arrays are not.
pub const fn container_is_ref_type(id: TypeId) -> bool {
    id.row().tracked
}

/// The flag of a value without identity: NULL, REF_VALUE (a new id) in a tracked position
/// when tracking is on, NOT_NULL otherwise. Returns true for a null.
#[inline]
pub fn write_plain_flag(is_null: bool, track: bool, ctx: &mut WriteContext) -> Result<bool> {
    if is_null {
        ctx.ref_flag(RefFlag::Null);
        return Ok(true);
    }
    if track && ctx.ref_tracking() {
        ctx.ref_flag(RefFlag::RefValue);
        ctx.next_ref_id();
    } else {
        ctx.ref_flag(RefFlag::NotNull);
    }
    Ok(false)
}

/// What a flag read before a value means.
pub enum Flagged<T> {
    /// A null or a back reference: the value is complete.
    Done(T),
    /// A value follows; it takes reference slot `Some(slot)` if flagged REF_VALUE.
    Read(Option<usize>),
}

/// Reads a reference/null flag for an item read by `item`.
#[inline]
pub fn read_flag<'de, R: ItemReader<'de>>(
    ctx: &mut ReadContext<'de, '_>,
    item: &R,
) -> Result<Flagged<R::Out>> {
    match ctx.ref_flag()? {
        RefFlag::Null => Ok(Flagged::Done(item.null(ctx)?)),
        RefFlag::NotNull => Ok(Flagged::Read(None)),
        // Without tracking a value takes no reference slot, whatever its flag says (the
        // official crate writes REF_VALUE in places with tracking off): nothing can refer
        // back to it, so no input builds a graph (a cycle) this side could not write back.
        RefFlag::RefValue if !ctx.ref_tracking() => Ok(Flagged::Read(None)),
        RefFlag::RefValue => {
            ctx.charge(std::mem::size_of::<RefSlot>() + std::mem::size_of::<u32>())?;
            let slot = ctx.reserve_ref(!item.dynamic_refs());
            item.begin_ref(ctx, slot);
            Ok(Flagged::Read(Some(slot)))
        }
        RefFlag::Ref => {
            let at = ctx.reader.position();
            let id = ctx.reader.var_u32()?;
            Ok(Flagged::Done(item.resolve_ref(ctx, id, at)?))
        }
    }
}

/// Completes a value read after [`read_flag`]: records it under its reference slot.
#[inline]
pub fn finish<'de, R: ItemReader<'de>>(
    ctx: &mut ReadContext<'de, '_>,
    item: &R,
    v: R::Out,
    slot: Option<usize>,
) -> R::Out {
    match slot {
        Some(slot) => item.keep_ref(ctx, v, slot),
        None => v,
    }
}

macro_rules! shared_pointer {
    ($ptr:ident, $slot:ident, $($bound:tt)*) => {
        impl<T: WireType $($bound)*> WireType for $ptr<T> {
            #[inline]
            fn reach(reach: &mut crate::registry::Reach<'_>) -> crate::error::Result<()> {
                T::reach(reach)
            }

            const TYPE_ID: TypeId = T::TYPE_ID;
            const NULLABLE: bool = T::NULLABLE;
            const POLYMORPHIC: bool = T::POLYMORPHIC;
            const REF_TYPE: bool = true;
            #[inline]
            fn needs_type_info(registry: &Registry) -> bool {
                T::needs_type_info(registry)
            }
            fn field_type(registry: &Registry, compatible: bool) -> FieldType {
                T::field_type(registry, compatible)
            }
        }

        impl<T: Serialize $($bound)*> Serialize for $ptr<T> {
            #[inline]
            fn visit_buffers<'v>(&'v self, out: &mut Vec<&'v [u8]>) {
                (**self).visit_buffers(out)
            }

            #[inline]
            fn write_type_info(&self, ctx: &mut WriteContext) -> Result<()> {
                (**self).write_type_info(ctx)
            }

            #[inline]
            fn write_static_type_info(ctx: &mut WriteContext) -> Result<()> {
                T::write_static_type_info(ctx)
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

            /// The same allocation written twice is a back reference to its first id.
            fn write_ref_flag(&self, ctx: &mut WriteContext, track: bool) -> Result<bool> {
                if !(track && ctx.ref_tracking()) {
                    return write_plain_flag(self.is_null(), false, ctx);
                }
                let addr = $ptr::as_ptr(self) as *const () as usize;
                match ctx.shared_ref(addr) {
                    Ok(id) => {
                        ctx.ref_flag(RefFlag::Ref);
                        ctx.writer.var_u32(id);
                        Ok(true)
                    }
                    Err(_) => {
                        ctx.ref_flag(RefFlag::RefValue);
                        Ok(false)
                    }
                }
            }

        }

        impl<'de, T: Deserialize<'de> $($bound)*> Deserialize<'de> for $ptr<T> {
            #[inline]
            fn read_type_info_rest(ctx: &mut ReadContext<'de, '_>, id: TypeId) -> Result<()> {
                T::read_type_info_rest(ctx, id)
            }

            #[inline]
            fn read_data(ctx: &mut ReadContext<'de, '_>) -> Result<Self> {
                ctx.charge(std::mem::size_of::<$ptr<T>>() * 2 + std::mem::size_of::<T>())?;
                T::read_data(ctx).map($ptr::new)
            }

            #[inline]
            fn read_typed(ctx: &mut ReadContext<'de, '_>, id: TypeId) -> Result<Self> {
                ctx.charge(std::mem::size_of::<$ptr<T>>() * 2 + std::mem::size_of::<T>())?;
                if T::DYNAMIC_REFS {
                    // The pointer took the id (its flag's slot): the dynamic value inside
                    // takes none of its own.
                    ctx.set_count(Some(false));
                }
                T::read_typed(ctx, id).map($ptr::new)
            }

            fn null() -> Option<Self> {
                T::null().map($ptr::new)
            }

            fn missing() -> Option<Self> {
                T::missing().map($ptr::new)
            }

            fn stand_in() -> Option<Self> {
                T::stand_in().map($ptr::new)
            }

            fn from_ref(ctx: &ReadContext<'de, '_>, id: u32, at: usize) -> Result<Self> {
                match ctx.ref_slot(id, at)? {
                    RefSlot::$slot(any) => any.clone().downcast::<T>().map_err(|_| {
                        Error::at(
                            ErrorKind::TypeMismatch {
                                expected: std::any::type_name::<Self>().to_string(),
                                found: format!("a reference to another type (id {id})"),
                            },
                            at,
                        )
                    }),
                    _ => Err(Error::at(
                        ErrorKind::TypeMismatch {
                            expected: std::any::type_name::<Self>().to_string(),
                            found: format!("a reference to a value of another kind (id {id})"),
                        },
                        at,
                    )),
                }
            }

            /// For a cell type, a placeholder allocation is registered before the content is
            /// read, so a reference from inside (a cycle) resolves to it.
            fn begin_ref(ctx: &mut ReadContext<'de, '_>, slot: usize) {
                if let Some(p) = T::placeholder() {
                    ctx.set_ref(slot, RefSlot::$slot($ptr::new(p)));
                    fn clear<'x, U: Deserialize<'x> $($bound)*>(s: &RefSlot) {
                        if let RefSlot::$slot(any) = s {
                            if let Some(cell) = any.downcast_ref::<U>() {
                                cell.empty_placeholder();
                            }
                        }
                    }
                    ctx.note_placeholder(slot, clear::<T>);
                }
            }

            fn keep_ref(self, ctx: &mut ReadContext<'de, '_>, slot: usize) -> Self {
                let placeholder = match ctx.ref_slot_raw(slot) {
                    Some(RefSlot::$slot(any)) => any.clone().downcast::<T>().ok(),
                    _ => None,
                };
                // Move the content into the allocation that inner references already hold.
                // If that cannot be done, keep the fresh allocation: inner references then
                // point at the placeholder, but no content is lost.
                let fresh = match (placeholder, $ptr::try_unwrap(self)) {
                    (Some(p), Ok(content)) => match (*p).fill_placeholder(content) {
                        Ok(()) => return p,
                        Err(content) => $ptr::new(content),
                    },
                    (_, Ok(content)) => $ptr::new(content),
                    (_, Err(shared)) => shared,
                };
                ctx.set_ref(slot, RefSlot::$slot(fresh.clone()));
                fresh
            }
        }
    };
}

shared_pointer!(Rc, Rc, + 'static);
shared_pointer!(Arc, Arc, + Send + Sync + 'static);

/// The error for a cell that is already borrowed mutably while being written.
fn busy<T>() -> Error {
    Error::new(ErrorKind::Invalid {
        what: format!(
            "{} is borrowed mutably while being serialized",
            std::any::type_name::<T>()
        ),
    })
}

macro_rules! cell {
    ($cell:ident, $borrow:ident, $borrow_mut:ident, $new:expr, $into:expr, $($bound:tt)*) => {
        impl<T: WireType $($bound)*> WireType for $cell<T> {
            #[inline]
            fn reach(reach: &mut crate::registry::Reach<'_>) -> crate::error::Result<()> {
                T::reach(reach)
            }

            const TYPE_ID: TypeId = T::TYPE_ID;
            const NULLABLE: bool = T::NULLABLE;
            const POLYMORPHIC: bool = T::POLYMORPHIC;
            const REF_TYPE: bool = T::REF_TYPE;
            fn needs_type_info(registry: &Registry) -> bool {
                T::needs_type_info(registry)
            }
            fn field_type(registry: &Registry, compatible: bool) -> FieldType {
                T::field_type(registry, compatible)
            }
        }

        impl<T: Serialize $($bound)*> Serialize for $cell<T> {
            fn write_type_info(&self, ctx: &mut WriteContext) -> Result<()> {
                self.$borrow().map_err(|_| busy::<Self>())?.write_type_info(ctx)
            }

            fn write_static_type_info(ctx: &mut WriteContext) -> Result<()> {
                T::write_static_type_info(ctx)
            }

            fn write_data(&self, ctx: &mut WriteContext) -> Result<()> {
                self.$borrow().map_err(|_| busy::<Self>())?.write_data(ctx)
            }

            fn write_declared(&self, ctx: &mut WriteContext) -> Result<()> {
                self.$borrow().map_err(|_| busy::<Self>())?.write_declared(ctx)
            }


        }

        impl<'de, T: Deserialize<'de> $($bound)*> Deserialize<'de> for $cell<T> {
            const DYNAMIC_REFS: bool = T::DYNAMIC_REFS;

            fn read_type_info_rest(ctx: &mut ReadContext<'de, '_>, id: TypeId) -> Result<()> {
                T::read_type_info_rest(ctx, id)
            }

            fn read_data(ctx: &mut ReadContext<'de, '_>) -> Result<Self> {
                T::read_data(ctx).map($new)
            }

            fn read_typed(ctx: &mut ReadContext<'de, '_>, id: TypeId) -> Result<Self> {
                T::read_typed(ctx, id).map($new)
            }

            fn null() -> Option<Self> {
                T::null().map($new)
            }

            fn missing() -> Option<Self> {
                T::missing().map($new)
            }

            fn stand_in() -> Option<Self> {
                T::stand_in().map($new)
            }

            /// A cell can stand in for its value before the value is read (cycles).
            fn placeholder() -> Option<Self> {
                T::stand_in().map($new)
            }

            fn empty_placeholder(&self) {
                let Some(fresh) = T::stand_in() else { return };
                let old = match self.$borrow_mut() {
                    Ok(mut slot) => std::mem::replace(&mut *slot, fresh),
                    Err(_) => return,
                };
                // Dropped after the borrow ends: its drop may reach this cell again.
                drop(old);
            }

            fn fill_placeholder(&self, from: Self) -> std::result::Result<(), Self> {
                match self.$borrow_mut() {
                    Ok(mut slot) => {
                        *slot = $into(from);
                        Ok(())
                    }
                    Err(_) => Err(from),
                }
            }
        }
    };
}

cell!(
    RefCell,
    try_borrow,
    try_borrow_mut,
    std::cell::RefCell::new,
    |c: RefCell<T>| c.into_inner(),
    + 'static
);
cell!(
    Mutex,
    lock,
    lock,
    std::sync::Mutex::new,
    |m: Mutex<T>| m.into_inner().unwrap_or_else(|poisoned| poisoned.into_inner()),
    + Send + 'static
);

macro_rules! weak_pointer {
    ($weak:ident, $strong:ident, $($bound:tt)*) => {
        /// A weak pointer is written as the value it points to (a back reference when that
        /// value was written before, as in a child's link to its parent); a dangling one as
        /// null. It reads back as a downgrade of the shared value.
        impl<T: WireType $($bound)*> WireType for $weak<T> {
            #[inline]
            fn reach(reach: &mut crate::registry::Reach<'_>) -> crate::error::Result<()> {
                T::reach(reach)
            }

            const TYPE_ID: TypeId = T::TYPE_ID;
            const NULLABLE: bool = true;
            // A dead link is written as null, but the field declares the pointee's type, as
            // pyfory declares a `ref` field of a struct type: not nullable.
            const FIELD_NULLABLE: bool = false;
            const POLYMORPHIC: bool = T::POLYMORPHIC;
            const REF_TYPE: bool = true;
            fn needs_type_info(registry: &Registry) -> bool {
                T::needs_type_info(registry)
            }
            fn field_type(registry: &Registry, compatible: bool) -> FieldType {
                T::field_type(registry, compatible)
            }
        }

        impl<T: Serialize $($bound)*> Serialize for $weak<T> {
            fn write_type_info(&self, ctx: &mut WriteContext) -> Result<()> {
                match self.upgrade() {
                    Some(s) => s.write_type_info(ctx),
                    None => T::write_static_type_info(ctx),
                }
            }

            fn write_static_type_info(ctx: &mut WriteContext) -> Result<()> {
                T::write_static_type_info(ctx)
            }

            fn write_data(&self, ctx: &mut WriteContext) -> Result<()> {
                match self.upgrade() {
                    Some(s) => s.write_data(ctx),
                    None => Ok(()),
                }
            }

            fn write_declared(&self, ctx: &mut WriteContext) -> Result<()> {
                match self.upgrade() {
                    Some(s) => s.write_declared(ctx),
                    None => Ok(()),
                }
            }

            fn is_null(&self) -> bool {
                self.strong_count() == 0
            }

            fn write_ref_flag(&self, ctx: &mut WriteContext, track: bool) -> Result<bool> {
                match self.upgrade() {
                    Some(s) => s.write_ref_flag(ctx, track),
                    None => write_plain_flag(true, track, ctx),
                }
            }


        }

        impl<'de, T: Deserialize<'de> $($bound)*> Deserialize<'de> for $weak<T> {
            fn read_type_info_rest(ctx: &mut ReadContext<'de, '_>, id: TypeId) -> Result<()> {
                T::read_type_info_rest(ctx, id)
            }

            fn read_data(ctx: &mut ReadContext<'de, '_>) -> Result<Self> {
                <$strong<T>>::read_data(ctx).map(|s| $strong::downgrade(&s))
            }

            fn read_typed(ctx: &mut ReadContext<'de, '_>, id: TypeId) -> Result<Self> {
                <$strong<T>>::read_typed(ctx, id).map(|s| $strong::downgrade(&s))
            }

            fn null() -> Option<Self> {
                Some($weak::new())
            }

            fn missing() -> Option<Self> {
                Some($weak::new())
            }

            fn from_ref(ctx: &ReadContext<'de, '_>, id: u32, at: usize) -> Result<Self> {
                <$strong<T>>::from_ref(ctx, id, at).map(|s| $strong::downgrade(&s))
            }

            fn begin_ref(ctx: &mut ReadContext<'de, '_>, slot: usize) {
                <$strong<T>>::begin_ref(ctx, slot)
            }

            fn keep_ref(self, ctx: &mut ReadContext<'de, '_>, slot: usize) -> Self {
                match self.upgrade() {
                    Some(s) => $strong::downgrade(&s.keep_ref(ctx, slot)),
                    None => self,
                }
            }
        }
    };
}

weak_pointer!(RcWeak, Rc, + 'static);
weak_pointer!(ArcWeak, Arc, + Send + Sync + 'static);

use std::cell::RefCell;
use std::rc::Weak as RcWeak;
use std::sync::Mutex;
use std::sync::Weak as ArcWeak;
