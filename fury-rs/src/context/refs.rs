//! Reference ids: assigned on the write side, resolved on the read side.

use super::spare::{take_read_extra, take_write_extra};
use super::{ClearCell, ReadContext, RefSlot, WriteContext};
use crate::error::{Error, ErrorKind, Result};
use crate::types::RefFlag;

impl<'a> WriteContext<'a> {
    /// Takes the next reference id (a value written with the REF_VALUE flag).
    #[inline]
    pub(crate) fn next_ref_id(&mut self) -> u32 {
        let id = self.next_ref;
        self.next_ref += 1;
        id
    }

    /// The next reference id to be assigned.
    #[inline]
    pub(crate) fn peek_ref_id(&self) -> u32 {
        self.next_ref
    }

    /// Records the type id of the value that took reference id `id` (dynamic values, so a
    /// later back reference can name its type).
    pub(crate) fn set_ref_type(&mut self, id: u32, type_id: u8) {
        let i = id as usize;
        let types = &mut self.extra.get_or_insert_with(take_write_extra).ref_types;
        if types.len() <= i {
            types.resize(i + 1, 0);
        }
        if let Some(t) = types.get_mut(i) {
            *t = type_id;
        }
    }

    /// The type id recorded for reference id `id`.
    pub(crate) fn ref_type(&self, id: u32) -> Option<u8> {
        self.extra.as_ref()?.ref_types.get(id as usize).copied()
    }

    /// For a shared pointer at `addr`: `Ok(id)` if it was written before in this stream,
    /// otherwise `Err(id)` with the id it now takes.
    pub(crate) fn shared_ref(&mut self, addr: usize) -> std::result::Result<u32, u32> {
        let next = self.next_ref;
        let seen = &mut self.extra.get_or_insert_with(take_write_extra).seen;
        match seen.get(&addr) {
            Some(&id) => Ok(id),
            None => {
                seen.insert(addr, next);
                self.next_ref += 1;
                Err(next)
            }
        }
    }

    /// Writes a reference/null flag.
    #[inline]
    pub(crate) fn ref_flag(&mut self, flag: RefFlag) {
        self.writer.u8(flag.byte());
    }
}

impl<'de, 'r> ReadContext<'de, 'r> {
    /// Reserves the next reference id (a REF_VALUE flag was read). Every slot was paid for
    /// by one input byte, so the table cannot outgrow the input. `typed`: a static type's
    /// reader takes it, so the writer numbers the value it holds; a dynamic `Value` counts
    /// its own values (see [`bump_canon`](Self::bump_canon)).
    #[inline]
    pub(crate) fn reserve_ref(&mut self, typed: bool) -> usize {
        let e = self.extra.get_or_insert_with(take_read_extra);
        e.refs.push(RefSlot::Pending);
        if typed {
            e.slot_canon.push(e.canon);
            e.canon = e.canon.saturating_add(1);
        } else {
            e.slot_canon.push(u32::MAX);
        }
        e.refs.len() - 1
    }

    /// The id a static type's value in slot `slot` takes in the writer's numbering.
    pub(crate) fn typed_slot_canon(&self, slot: usize) -> Option<u32> {
        let e = self.extra.as_ref()?;
        e.slot_canon.get(slot).copied().filter(|&c| c != u32::MAX)
    }

    /// Number of reference ids assigned so far.
    #[inline]
    pub(crate) fn ref_count(&self) -> usize {
        self.extra.as_ref().map_or(0, |e| e.refs.len())
    }

    /// Checks that a back reference names an id already assigned in this stream.
    pub(crate) fn check_ref_id(&self, id: u32, at: usize) -> Result<()> {
        if (id as usize) < self.ref_count() {
            Ok(())
        } else {
            Err(Error::at(
                ErrorKind::Invalid {
                    what: format!(
                        "reference to id {id}, but only {} ids were assigned",
                        self.ref_count()
                    ),
                },
                at,
            ))
        }
    }

    /// Records what reference id `slot` stands for.
    #[inline]
    pub(crate) fn set_ref(&mut self, slot: usize, value: RefSlot) {
        if let Some(s) = self
            .extra
            .get_or_insert_with(take_read_extra)
            .refs
            .get_mut(slot)
        {
            *s = value;
        }
    }

    /// What copies of `Value`s may still take: a back reference to a value the writer gives
    /// no id (a number, a string, an enum, a union, a dense array) reads as a copy of it, and
    /// the heap those copies take together may grow by 8 bytes per input byte read so far
    /// (plus 4 KiB), so that a few bytes of `fe` cannot multiply a large value (spec 09
    /// §9.11). Counted from the bytes read, not the input's length, so that a message decodes
    /// alike alone and as the prefix of a longer input.
    pub(crate) fn copy_allowance(&self) -> usize {
        let copied = self.extra.as_ref().map_or(0, |e| e.copied.get());
        let read = self.reader.position();
        read.saturating_mul(8)
            .saturating_add(4096)
            .saturating_sub(copied)
    }

    /// Counts a copy of `bytes` against [`copy_allowance`](Self::copy_allowance).
    pub(crate) fn spend_copy(&self, bytes: usize) {
        if let Some(e) = self.extra.as_ref() {
            e.copied.set(e.copied.get().saturating_add(bytes));
        }
    }

    /// Keeps a copy of a borrowed dynamic value in reference slot `slot`
    /// (see [`RefSlot::Borrowed`]).
    pub(crate) fn keep_borrowed_copy(&mut self, slot: usize, copy: crate::value::ValueRef<'de>) {
        let copies = &mut self.borrowed_copies.get_or_insert_with(Box::default).0;
        copies.push(copy);
        let i = copies.len() - 1;
        self.set_ref(slot, RefSlot::Borrowed(i));
    }

    /// The borrowed copy that [`keep_borrowed_copy`](Self::keep_borrowed_copy) kept as `i`.
    pub(crate) fn borrowed_copy(&self, i: usize) -> Option<&crate::value::ValueRef<'de>> {
        self.borrowed_copies.as_ref()?.0.get(i)
    }

    /// The root is a dynamic `Value`: the writer numbers it whatever its kind.
    pub(crate) fn set_canon_root(&mut self) {
        self.extra.get_or_insert_with(take_read_extra).canon_root = true;
    }

    /// True (once) while the root `Value` is about to be read.
    #[inline]
    pub(crate) fn take_canon_root(&mut self) -> bool {
        self.extra
            .as_mut()
            .is_some_and(|e| std::mem::take(&mut e.canon_root))
    }

    /// With tracking on, the back references of dynamic `Value`s are renumbered as the
    /// writer numbers values (what `Value::Ref` holds), wherever they are in the stream.
    #[inline]
    pub(crate) fn values_canonical(&self) -> bool {
        self.ref_tracking()
    }

    /// The id the next value the writer flags will take.
    #[inline]
    pub(crate) fn peek_canon(&self) -> u32 {
        self.extra.as_ref().map_or(0, |e| e.canon)
    }

    /// Gives the value being read the next id in the writer's numbering.
    pub(crate) fn bump_canon(&mut self) {
        let e = self.extra.get_or_insert_with(take_read_extra);
        e.canon = e.canon.saturating_add(1);
    }

    /// Says whether the writer gives the next value an id (`Some`), where its position
    /// decides that rather than its kind: `Some(true)` for the present side of a null map
    /// pair, `Some(false)` for a struct field not declared ref. `None` leaves it to the kind.
    #[inline]
    pub(crate) fn set_count(&mut self, count: Option<bool>) {
        if !self.ref_tracking() {
            return;
        }
        if count.is_some() {
            self.extra.get_or_insert_with(take_read_extra).count = count;
        } else if let Some(e) = self.extra.as_mut() {
            e.count = None;
        }
    }

    /// What [`set_count`](Self::set_count) said of the value being read (and forgets it).
    #[inline]
    pub(crate) fn take_count(&mut self) -> Option<bool> {
        self.extra.as_mut().and_then(|e| e.count.take())
    }

    /// Notes that `slot` holds a placeholder cell that `empty_placeholder` can empty.
    pub(crate) fn note_placeholder(&mut self, slot: usize, clear: ClearCell) {
        self.extra
            .get_or_insert_with(take_read_extra)
            .placeholders
            .push((slot, clear));
    }

    /// After a failed decode: empties every placeholder cell of this stream. A cycle of
    /// shared pointers can only close through a cell that was referenced before its content
    /// was read, so this breaks every cycle the decode made and nothing it built leaks.
    #[cold]
    pub(crate) fn break_cycles(&mut self) {
        let Some(extra) = self.extra.as_mut() else {
            return;
        };
        for &(slot, clear) in &extra.placeholders {
            if let Some(s) = extra.refs.get(slot) {
                clear(s);
            }
        }
    }

    /// The slot of reference id `slot`, whatever it holds.
    pub(crate) fn ref_slot_raw(&self, slot: usize) -> Option<&RefSlot> {
        self.extra.as_ref()?.refs.get(slot)
    }

    /// What reference id `id` stands for, or the error for a back reference that cannot be
    /// resolved (unknown id, a value still being read, or one Rust cannot share).
    pub(crate) fn ref_slot(&self, id: u32, at: usize) -> Result<&RefSlot> {
        let fail = |what: String| Error::at(ErrorKind::Invalid { what }, at);
        match self.extra.as_ref().and_then(|e| e.refs.get(id as usize)) {
            None => Err(fail(format!(
                "reference to id {id}, but only {} ids were assigned",
                self.ref_count()
            ))),
            Some(RefSlot::Pending) => Err(fail(format!(
                "reference to id {id}, a value still being read (a cycle): not supported for this type"
            ))),
            Some(RefSlot::Plain) => Err(fail(format!(
                "reference to id {id}, a value whose Rust type cannot be shared (use Rc or Arc)"
            ))),
            Some(slot) => Ok(slot),
        }
    }

    /// Reads a reference/null flag.
    #[inline]
    pub(crate) fn ref_flag(&mut self) -> Result<RefFlag> {
        let at = self.reader.position();
        let b = self.reader.u8()?;
        RefFlag::parse(b).map_err(|k| Error::at(k, at))
    }
}
