//! Per-call state of one serialize or deserialize call.

use crate::buffer::{Reader, Writer};
use crate::error::{Error, ErrorKind, Result};
use crate::meta::typedef::{TypeDef, TypeDefLimits};
use crate::meta::{EncodedMetaString, MetaStringReadState, MetaStringWriteState, WireMetaString};
use crate::resolver::{Registry, RemoteTypeDef, TypeDefCache};
use crate::types::{RefFlag, TypeId};
use std::sync::Arc;

/// Counts nesting levels against a limit, so that deep input is an error and not a stack
/// overflow.
struct Depth {
    depth: u32,
    max: u32,
}

impl Depth {
    #[inline]
    fn enter(&mut self) -> std::result::Result<(), ErrorKind> {
        if self.depth >= self.max {
            return Err(ErrorKind::DepthLimit { limit: self.max });
        }
        self.depth += 1;
        Ok(())
    }

    #[inline]
    fn leave(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }
}

/// Settings that generated code consults while writing or reading.
#[derive(Debug, Clone, Copy)]
pub struct Options {
    /// Default encoding of i32/u32/i64/u64 struct fields: varint (`true`) or fixed.
    pub compress_int: bool,
    /// Limit on nesting depth.
    pub max_depth: u32,
    /// Compatible (schema-evolution) mode for structs.
    pub compatible: bool,
    /// Limits on TypeDefs read from input.
    pub typedef_limits: TypeDefLimits,
    /// Reference tracking (shared and circular values).
    pub ref_tracking: bool,
}

/// The TypeDef that bodies of one local type currently follow, with the read plan resolved
/// for it (so a list of structs resolves its plan once, not per element).
struct CurrentDef {
    key: std::any::TypeId,
    /// `None`: the local TypeDef itself (the body is read as the local schema).
    def: Option<Arc<RemoteTypeDef>>,
    plan: Option<(bool, Option<Arc<crate::serializer::compatible::ReadPlan>>)>,
}

/// A local TypeDef announced by the stream, kept inline while every TypeDef announced so far
/// is a local one (the common case): no allocation and no per-thread state for it.
#[derive(Clone, Copy)]
struct InlineLocal {
    key: std::any::TypeId,
    entry: u32,
    compress_int: bool,
}

/// How many local TypeDefs are kept inline before moving to the general tables.
const INLINE_LOCALS: usize = 4;

/// A TypeDef announced in the stream (by its index of announcement).
enum SharedDef {
    /// Byte for byte the local TypeDef of registry entry `entry` under `compress_int`: found
    /// by comparing bytes, without parsing or a cache lookup.
    Local { entry: u32, compress_int: bool },
    /// Any other, parsed or taken from the instance's cache.
    Remote(Arc<RemoteTypeDef>),
}

/// What a reference id stands for while reading.
pub enum RefSlot {
    /// Reserved; the value is still being read.
    Pending,
    /// A value that cannot be shared in Rust (a back reference to it is an error).
    Plain,
    /// An `Rc` (type-erased).
    Rc(std::rc::Rc<dyn std::any::Any>),
    /// An `Arc` (type-erased).
    Arc(Arc<dyn std::any::Any + Send + Sync>),
}

/// Shared types (meta share) a write context tracks inline, before its extra state.
const SHARED_INLINE: usize = 8;

/// Write state that only some streams need (named types, shared pointers, dynamic values).
#[derive(Default)]
struct WriteExtra {
    meta_strings: MetaStringWriteState,
    seen: std::collections::HashMap<usize, u32>,
    ref_types: Vec<u8>,
    /// Registry indices of the shared types after the first `SHARED_INLINE` of a stream.
    shared_more: Vec<u32>,
}

/// Read state that only some streams need (TypeDefs, reference ids).
#[derive(Default)]
struct ReadExtra {
    typedefs: Vec<SharedDef>,
    current: Vec<CurrentDef>,
    refs: Vec<RefSlot>,
}

/// Above this many entries a used state is dropped instead of kept for the next stream, so
/// that one huge message does not make every later `clear` slow.
const SPARE_LIMIT: usize = 1024;

impl WriteExtra {
    /// Clears for reuse; false if it grew too large to keep.
    fn reset(&mut self) -> bool {
        if self.seen.capacity() > SPARE_LIMIT
            || self.ref_types.capacity() > SPARE_LIMIT
            || self.shared_more.capacity() > SPARE_LIMIT
            || self.meta_strings.len() > SPARE_LIMIT
        {
            return false;
        }
        self.meta_strings.reset();
        self.seen.clear();
        self.ref_types.clear();
        self.shared_more.clear();
        true
    }
}

impl ReadExtra {
    /// Clears for reuse; false if it grew too large to keep.
    fn reset(&mut self) -> bool {
        if self.refs.capacity() > SPARE_LIMIT || self.typedefs.capacity() > SPARE_LIMIT {
            return false;
        }
        self.typedefs.clear();
        self.current.clear();
        self.refs.clear();
        true
    }
}

thread_local! {
    // One spare of each per thread: a stream that needs the state takes it, and gives it back
    // cleared when its context is dropped, so steady traffic does not allocate it again.
    static SPARE_WRITE: std::cell::Cell<Option<Box<WriteExtra>>> = const { std::cell::Cell::new(None) };
    static SPARE_READ: std::cell::Cell<Option<Box<ReadExtra>>> = const { std::cell::Cell::new(None) };
}

type Spare<T> = std::thread::LocalKey<std::cell::Cell<Option<Box<T>>>>;

/// This thread's spare of `key`, or a new one.
#[cold]
fn take_spare<T: Default>(key: &'static Spare<T>) -> Box<T> {
    key.try_with(|c| c.take())
        .ok()
        .flatten()
        .unwrap_or_default()
}

/// Gives a used state back as this thread's spare, cleared, unless it grew too large.
#[inline]
fn give_spare<T>(key: &'static Spare<T>, mut extra: Box<T>, reset: impl FnOnce(&mut T) -> bool) {
    if reset(&mut extra) {
        let _ = key.try_with(|c| c.set(Some(extra)));
    }
}

#[inline]
fn take_write_extra() -> Box<WriteExtra> {
    take_spare(&SPARE_WRITE)
}

#[inline]
fn take_read_extra() -> Box<ReadExtra> {
    take_spare(&SPARE_READ)
}

/// State of one serialize call: the output, the registry and the nesting depth.
pub struct WriteContext<'a> {
    /// Output bytes.
    pub writer: Writer<'a>,
    registry: &'a Registry,
    options: Options,
    depth: Depth,
    /// Registry indices of the types shared so far in this stream (meta share), in order:
    /// the first `SHARED_INLINE` here, the others in the extra state.
    shared_types: [u32; SHARED_INLINE],
    shared_len: u32,
    next_ref: u32,
    extra: Option<Box<WriteExtra>>,
}

// The drops test for the rarely used extra state inline and hand it back out of line, so
// that dropping a context that never needed it costs a compare.
impl Drop for WriteContext<'_> {
    #[inline(always)]
    fn drop(&mut self) {
        if let Some(e) = self.extra.take() {
            give_back_write_extra(e);
        }
    }
}

impl Drop for ReadContext<'_, '_> {
    #[inline(always)]
    fn drop(&mut self) {
        if let Some(e) = self.extra.take() {
            give_back_read_extra(e);
        }
    }
}

#[cold]
#[inline(never)]
fn give_back_write_extra(e: Box<WriteExtra>) {
    give_spare(&SPARE_WRITE, e, WriteExtra::reset);
}

#[cold]
#[inline(never)]
fn give_back_read_extra(e: Box<ReadExtra>) {
    give_spare(&SPARE_READ, e, ReadExtra::reset);
}

impl<'a> WriteContext<'a> {
    /// A context appending to `out`.
    pub(crate) fn new(out: &'a mut Vec<u8>, registry: &'a Registry, options: Options) -> Self {
        WriteContext {
            writer: Writer::new(out),
            registry,
            options,
            depth: Depth {
                depth: 0,
                max: options.max_depth,
            },
            shared_types: [0; SHARED_INLINE],
            shared_len: 0,
            next_ref: 0,
            extra: None,
        }
    }

    /// The registered user types.
    #[inline]
    pub fn registry(&self) -> &'a Registry {
        self.registry
    }

    /// Whether i32/u32/i64/u64 struct fields default to varints.
    #[inline]
    pub fn compress_int(&self) -> bool {
        self.options.compress_int
    }

    /// Whether structs use the compatible (schema-evolution) layout.
    #[inline]
    pub fn compatible(&self) -> bool {
        self.options.compatible
    }

    /// Enters one level of nesting (a container or struct body).
    #[inline]
    pub fn enter(&mut self) -> Result<()> {
        self.depth.enter().map_err(Error::new)
    }

    /// Leaves one level of nesting.
    #[inline]
    pub fn leave(&mut self) {
        self.depth.leave();
    }

    /// Whether reference tracking is on.
    #[inline]
    pub fn ref_tracking(&self) -> bool {
        self.options.ref_tracking
    }

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

    /// The meta-share marker of the registered type at registry index `index`: `n << 1` the
    /// first time (for the `n`-th type shared in this stream; its TypeDef follows the
    /// marker), `(n << 1) | 1` afterwards; with whether it is the first time.
    #[inline]
    pub(crate) fn shared_marker(&mut self, index: u32) -> (u32, bool) {
        let n = self.shared_len as usize;
        let inline = self
            .shared_types
            .get(..n.min(SHARED_INLINE))
            .unwrap_or_default();
        let mut found = inline.iter().position(|&k| k == index);
        if found.is_none() && n > SHARED_INLINE {
            found = self.extra.as_ref().and_then(|e| {
                let i = e.shared_more.iter().position(|&k| k == index)?;
                Some(SHARED_INLINE + i)
            });
        }
        if let Some(i) = found {
            return (((i as u32) << 1) | 1, false);
        }
        match self.shared_types.get_mut(n) {
            Some(slot) => *slot = index,
            None => self
                .extra
                .get_or_insert_with(take_write_extra)
                .shared_more
                .push(index),
        }
        self.shared_len += 1;
        ((n as u32) << 1, true)
    }

    /// Writes a meta string, as a back reference if this stream already holds it.
    pub(crate) fn write_meta_string(&mut self, s: &EncodedMetaString) {
        let extra = self.extra.get_or_insert_with(take_write_extra);
        extra.meta_strings.write(&mut self.writer, s);
    }

    /// Writes a reference/null flag.
    #[inline]
    pub(crate) fn ref_flag(&mut self, flag: RefFlag) {
        self.writer.u8(flag.byte());
    }

    /// Writes a length as varuint32, failing for lengths above `u32::MAX`.
    #[inline(always)]
    pub(crate) fn length(&mut self, len: usize) -> Result<()> {
        match u32::try_from(len) {
            Ok(n) => {
                self.writer.var_u32(n);
                Ok(())
            }
            Err(_) => Err(length_too_large(len)),
        }
    }
}

/// The error for a length that does not fit a varuint32.
#[cold]
#[inline(never)]
fn length_too_large(len: usize) -> Error {
    Error::new(ErrorKind::LengthTooLarge {
        what: "collection or byte run",
        declared: len as u64,
        limit: u32::MAX as u64,
    })
}

/// State of one deserialize call: the input, the registry and the nesting depth.
pub struct ReadContext<'de, 'r> {
    /// Input bytes.
    pub reader: Reader<'de>,
    registry: &'r Registry,
    options: Options,
    depth: Depth,
    meta_strings: MetaStringReadState<'de>,
    typedef_cache: &'r TypeDefCache,
    /// The TypeDefs announced so far, while all are local ones (indices `0..inline_len`);
    /// moved into `extra` as soon as anything else is needed.
    inline_locals: [Option<InlineLocal>; INLINE_LOCALS],
    inline_len: u8,
    extra: Option<Box<ReadExtra>>,
}

impl<'de, 'r> ReadContext<'de, 'r> {
    /// A context reading `data`.
    pub(crate) fn new(
        data: &'de [u8],
        registry: &'r Registry,
        typedef_cache: &'r TypeDefCache,
        options: Options,
    ) -> Self {
        ReadContext {
            reader: Reader::new(data),
            registry,
            options,
            depth: Depth {
                depth: 0,
                max: options.max_depth,
            },
            meta_strings: MetaStringReadState::new(),
            typedef_cache,
            inline_locals: [None; INLINE_LOCALS],
            inline_len: 0,
            extra: None,
        }
    }

    /// Whether reference tracking is on.
    #[inline]
    pub fn ref_tracking(&self) -> bool {
        self.options.ref_tracking
    }

    /// The general tables, with any inline local TypeDefs moved into them first.
    #[inline]
    fn extra_mut(&mut self) -> &mut ReadExtra {
        if self.inline_len > 0 {
            self.spill_inline();
        }
        self.extra.get_or_insert_with(take_read_extra)
    }

    #[cold]
    fn spill_inline(&mut self) {
        let n = std::mem::take(&mut self.inline_len) as usize;
        let extra = self.extra.get_or_insert_with(take_read_extra);
        for l in self.inline_locals.iter_mut().take(n) {
            if let Some(l) = l.take() {
                extra.typedefs.push(SharedDef::Local {
                    entry: l.entry,
                    compress_int: l.compress_int,
                });
                if !extra.current.iter().any(|c| c.key == l.key) {
                    extra.current.push(CurrentDef {
                        key: l.key,
                        def: None,
                        plan: Some((l.compress_int, None)),
                    });
                }
            }
        }
    }

    /// The inline local TypeDef recorded for `key`, if any.
    #[inline]
    fn inline_local(&self, key: std::any::TypeId) -> Option<InlineLocal> {
        self.inline_locals
            .iter()
            .take(self.inline_len as usize)
            .flatten()
            .find(|l| l.key == key)
            .copied()
    }

    /// Reserves the next reference id (a REF_VALUE flag was read). Every slot was paid for
    /// by one input byte, so the table cannot outgrow the input.
    #[inline]
    pub(crate) fn reserve_ref(&mut self) -> usize {
        let refs = &mut self.extra.get_or_insert_with(take_read_extra).refs;
        refs.push(RefSlot::Pending);
        refs.len() - 1
    }

    /// Number of reference ids assigned so far.
    #[inline]
    pub(crate) fn ref_count(&self) -> usize {
        self.extra.as_ref().map_or(0, |e| e.refs.len())
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

    /// Reads a meta-share marker and the TypeDef it introduces (or names): new TypeDefs are
    /// parsed, or taken from the instance's cache by their header without parsing.
    pub(crate) fn read_shared_typedef(&mut self) -> Result<Arc<RemoteTypeDef>> {
        let at = self.reader.position();
        let marker = self.reader.var_u32()?;
        let index = (marker >> 1) as usize;
        if marker & 1 == 1 {
            let known = self.extra_mut().typedefs.len();
            let local = match self.extra_mut().typedefs.get(index) {
                Some(SharedDef::Remote(def)) => return Ok(def.clone()),
                Some(SharedDef::Local {
                    entry,
                    compress_int,
                }) => (*entry, *compress_int),
                None => {
                    return Err(Error::at(
                        ErrorKind::Invalid {
                            what: format!("TypeDef back reference {index}, but only {known} read"),
                        },
                        at,
                    ))
                }
            };
            // A local TypeDef named again by a reader that wants it parsed (rare).
            let def = self.parse_local(local.0, local.1)?;
            if let Some(slot) = self.extra_mut().typedefs.get_mut(index) {
                *slot = SharedDef::Remote(def.clone());
            }
            return Ok(def);
        }
        let known = self.extra_mut().typedefs.len();
        if index != known {
            return Err(Error::at(
                ErrorKind::Invalid {
                    what: format!("new TypeDef announced as index {index}, expected {known}"),
                },
                at,
            ));
        }
        let start = self.reader.position();
        let (header, size) = TypeDef::read_header(&mut self.reader, &self.options.typedef_limits)?;
        let def = match self.typedef_cache.get(header) {
            Some(def) => {
                self.reader.bytes(size)?;
                def
            }
            None => {
                let mut r = self.reader.clone();
                r.rewind_to(start)?;
                let parsed = TypeDef::read(&mut r, &self.options.typedef_limits)?;
                self.reader = r;
                let def = Arc::new(RemoteTypeDef::new(parsed));
                self.typedef_cache.insert(header, def.clone());
                def
            }
        };
        self.extra_mut()
            .typedefs
            .push(SharedDef::Remote(def.clone()));
        Ok(def)
    }

    #[cold]
    fn parse_local(&self, entry: u32, compress_int: bool) -> Result<Arc<RemoteTypeDef>> {
        let local = self
            .registry
            .at(entry)
            .ok_or_else(|| {
                self.error(ErrorKind::Invalid {
                    what: "a TypeDef of an unknown registry entry".to_string(),
                })
            })?
            .local_typedef(self.registry, compress_int)?;
        let parsed = TypeDef::read(&mut Reader::new(&local.bytes), &self.options.typedef_limits)?;
        Ok(Arc::new(RemoteTypeDef::new(parsed)))
    }

    /// The fast path of a compatible struct's type info: if the stream announces (or names
    /// again) exactly the local TypeDef of `entry`, consumes the marker and TypeDef, records
    /// that bodies of `key` follow the local schema, and returns true. Otherwise consumes
    /// nothing and returns false (the caller takes the general path).
    pub(crate) fn read_local_typedef(
        &mut self,
        entry: &crate::resolver::TypeEntry,
        key: std::any::TypeId,
    ) -> Result<bool> {
        let compress_int = self.options.compress_int;
        let local = entry.local_typedef(self.registry, compress_int)?;
        let rest = self.reader.rest();
        let marker = match rest.first() {
            Some(&m) if m < 0x80 => m,
            _ => return Ok(false),
        };
        let index = (marker >> 1) as usize;
        let is_new = marker & 1 == 0;
        // A new TypeDef is the local one when its bytes are (`new_len` with its marker).
        let new_is_local = is_new && rest.get(1..1 + local.bytes.len()) == Some(&local.bytes[..]);
        let new_len = 1 + local.bytes.len();
        // While nothing but local TypeDefs was announced, they are kept inline.
        if self.extra.as_ref().is_none_or(|e| e.typedefs.is_empty()) {
            let n = self.inline_len as usize;
            let used = if is_new {
                if index != n || n >= INLINE_LOCALS || !new_is_local {
                    None
                } else {
                    if let Some(slot) = self.inline_locals.get_mut(n) {
                        *slot = Some(InlineLocal {
                            key,
                            entry: entry.index(),
                            compress_int,
                        });
                    }
                    self.inline_len += 1;
                    Some(new_len)
                }
            } else {
                // A back reference to an inline local TypeDef of the same entry (so of the
                // same type): its bodies follow the local schema again.
                match self.inline_locals.get(index).copied().flatten() {
                    Some(l)
                        if index < n
                            && l.entry == entry.index()
                            && l.compress_int == compress_int =>
                    {
                        Some(1)
                    }
                    _ => None,
                }
            };
            // No other TypeDef was recorded yet (anything else moves the inline table out
            // first), so `key` has no current TypeDef besides these.
            if let Some(used) = used {
                self.reader.bytes(used)?;
                return Ok(true);
            }
            if self.inline_len > 0 {
                self.spill_inline();
            }
        }
        let extra = self.extra_mut();
        let used = if is_new {
            if index != extra.typedefs.len() || !new_is_local {
                return Ok(false);
            }
            extra.typedefs.push(SharedDef::Local {
                entry: entry.index(),
                compress_int,
            });
            new_len
        } else {
            match extra.typedefs.get(index) {
                Some(SharedDef::Local {
                    entry: e,
                    compress_int: c,
                }) if *e == entry.index() && *c == compress_int => 1,
                _ => return Ok(false),
            }
        };
        match extra.current.iter_mut().find(|c| c.key == key) {
            Some(slot) => {
                slot.def = None;
                slot.plan = Some((compress_int, None));
            }
            None => extra.current.push(CurrentDef {
                key,
                def: None,
                plan: Some((compress_int, None)),
            }),
        }
        self.reader.bytes(used)?;
        Ok(true)
    }

    /// Records `def` as the TypeDef that the next bodies of local type `key` follow.
    pub(crate) fn set_current_typedef(&mut self, key: std::any::TypeId, def: Arc<RemoteTypeDef>) {
        let current = &mut self.extra_mut().current;
        match current.iter_mut().find(|c| c.key == key) {
            Some(slot) => {
                if !slot.def.as_ref().is_some_and(|d| Arc::ptr_eq(d, &def)) {
                    slot.def = Some(def);
                    slot.plan = None;
                }
            }
            None => current.push(CurrentDef {
                key,
                def: Some(def),
                plan: None,
            }),
        }
    }

    /// The TypeDef the bodies of local type `key` currently follow, if one was read.
    pub(crate) fn current_typedef(&self, key: std::any::TypeId) -> Option<Arc<RemoteTypeDef>> {
        if self.inline_local(key).is_some() {
            return None;
        }
        self.extra
            .as_ref()?
            .current
            .iter()
            .find(|c| c.key == key)
            .and_then(|c| c.def.clone())
    }

    /// The read plan resolved for `key`'s current TypeDef and `compress_int`, if any:
    /// `Some(None)` means "read as the local schema".
    pub(crate) fn cached_plan(
        &self,
        key: std::any::TypeId,
        compress_int: bool,
    ) -> Option<Option<Arc<crate::serializer::compatible::ReadPlan>>> {
        if let Some(l) = self.inline_local(key) {
            return (l.compress_int == compress_int).then_some(None);
        }
        let c = self.extra.as_ref()?.current.iter().find(|c| c.key == key)?;
        match &c.plan {
            Some((compress, plan)) if *compress == compress_int => Some(plan.clone()),
            _ => None,
        }
    }

    /// Remembers the plan resolved for `key`'s current TypeDef.
    pub(crate) fn cache_plan(
        &mut self,
        key: std::any::TypeId,
        compress_int: bool,
        plan: Option<Arc<crate::serializer::compatible::ReadPlan>>,
    ) {
        if let Some(c) = self.extra_mut().current.iter_mut().find(|c| c.key == key) {
            c.plan = Some((compress_int, plan));
        }
    }

    /// The registered user types.
    #[inline]
    pub fn registry(&self) -> &'r Registry {
        self.registry
    }

    /// Whether i32/u32/i64/u64 struct fields default to varints.
    #[inline]
    pub fn compress_int(&self) -> bool {
        self.options.compress_int
    }

    /// Whether structs use the compatible (schema-evolution) layout.
    #[inline]
    pub fn compatible(&self) -> bool {
        self.options.compatible
    }

    /// An error of `kind` at the current input offset.
    #[cold]
    pub fn error(&self, kind: ErrorKind) -> Error {
        self.reader.error(kind)
    }

    /// A type-mismatch error: `expected` names what the reader wanted.
    #[cold]
    pub(crate) fn mismatch(&self, expected: &str, found: TypeId) -> Error {
        self.error(ErrorKind::TypeMismatch {
            expected: expected.to_string(),
            found: found.name().to_string(),
        })
    }

    /// Enters one level of nesting (a container or struct body).
    #[inline]
    pub fn enter(&mut self) -> Result<()> {
        let at = self.reader.position();
        self.depth.enter().map_err(|k| Error::at(k, at))
    }

    /// Leaves one level of nesting.
    #[inline]
    pub fn leave(&mut self) {
        self.depth.leave();
    }

    /// Reads the namespace and type name meta strings of a named type.
    pub(crate) fn read_type_name_strings(
        &mut self,
    ) -> Result<(WireMetaString<'de>, WireMetaString<'de>)> {
        let ns = self.meta_strings.read(&mut self.reader)?;
        let ty = self.meta_strings.read(&mut self.reader)?;
        Ok((ns, ty))
    }

    /// Reads a one-byte type id of an internal type.
    #[inline]
    pub fn type_id(&mut self) -> Result<TypeId> {
        let at = self.reader.position();
        let b = self.reader.u8()?;
        TypeId::parse(b).map_err(|k| Error::at(k, at))
    }

    /// Reads a reference/null flag.
    #[inline]
    pub(crate) fn ref_flag(&mut self) -> Result<RefFlag> {
        let at = self.reader.position();
        let b = self.reader.u8()?;
        RefFlag::parse(b).map_err(|k| Error::at(k, at))
    }
}

#[cfg(test)]
mod tests {
    use super::{Options, WriteContext, SHARED_INLINE};
    use crate::resolver::Registry;

    #[test]
    fn shared_markers_number_types_in_order_past_the_inline_table() {
        let registry = Registry::new(false);
        let options = Options {
            compress_int: true,
            max_depth: 16,
            compatible: true,
            typedef_limits: Default::default(),
            ref_tracking: false,
        };
        let mut out = Vec::new();
        let mut ctx = WriteContext::new(&mut out, &registry, options);
        let n = 3 * SHARED_INLINE as u32;
        // Registry indices in a scrambled order: the markers follow the order of first use.
        let index = |k: u32| (k * 7 + 3) % 101;
        for k in 0..n {
            assert_eq!(
                ctx.shared_marker(index(k)),
                (k << 1, true),
                "first use of {k}"
            );
        }
        for k in (0..n).rev() {
            assert_eq!(
                ctx.shared_marker(index(k)),
                ((k << 1) | 1, false),
                "again {k}"
            );
        }
    }
}
