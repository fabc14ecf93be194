//! Type metadata shared within one stream: meta-share markers and meta strings on the write
//! side, announced TypeDefs, the current TypeDef per local type and its read plan on the read
//! side.

use super::spare::{take_read_extra, take_write_extra};
use super::{
    AnyTarget, CurrentDef, InlineLocal, LastUserType, ReadContext, SharedDef, WriteContext,
    INLINE_LOCALS, SHARED_INLINE,
};
use crate::buffer::Reader;
use crate::error::{Error, ErrorKind, Result};
use crate::meta::typedef::TypeDef;
use crate::meta::{EncodedMetaString, WireMetaString};
use crate::registry::RemoteTypeDef;
use std::sync::Arc;

impl<'a> WriteContext<'a> {
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

    /// Whether no type was shared yet in this stream (nor on its connection before it).
    #[inline(always)]
    pub(crate) fn nothing_shared(&self) -> bool {
        self.shared_len == 0
    }

    /// [`WriteContext::shared_marker`] for a TypeDef that no registry entry owns (the one a
    /// `Value::Struct` was read with), identified by its 8-byte header. It takes a synthetic
    /// index counted down from `u32::MAX`, far above any registry position.
    pub(crate) fn shared_marker_dynamic(&mut self, header: u64) -> (u32, bool) {
        let extra = self.extra.get_or_insert_with(take_write_extra);
        let i = match extra.dynamic_defs.iter().position(|&h| h == header) {
            Some(i) => i,
            None => {
                extra.dynamic_defs.push(header);
                extra.dynamic_defs.len() - 1
            }
        };
        self.shared_marker(u32::MAX - i as u32)
    }

    /// The one-byte meta-share marker that names again the type at registry index `index`,
    /// if this stream shared it before among its first types; `None` otherwise (the general
    /// path then writes what is needed).
    #[inline(always)]
    pub(crate) fn shared_back_reference(&self, index: u32) -> Option<u8> {
        let n = (self.shared_len as usize).min(SHARED_INLINE);
        let i = self
            .shared_types
            .get(..n)?
            .iter()
            .position(|&k| k == index)?;
        u8::try_from((i << 1) | 1).ok().filter(|&m| m < 0x80)
    }

    /// Writes a meta string, as a back reference if this stream already holds it.
    pub(crate) fn write_meta_string(&mut self, s: &EncodedMetaString) {
        let extra = self.extra.get_or_insert_with(take_write_extra);
        extra.meta_strings.write(&mut self.writer, s);
    }
}

impl<'de, 'r> ReadContext<'de, 'r> {
    #[cold]
    pub(super) fn spill_inline(&mut self) {
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
    pub(super) fn inline_local(&self, key: std::any::TypeId) -> Option<InlineLocal> {
        self.inline_locals
            .iter()
            .take(self.inline_len as usize)
            .flatten()
            .find(|l| l.key == key)
            .copied()
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
        let (header, size) = TypeDef::read_header(&mut self.reader, &self.config.typedef_limits)?;
        let def = match self.typedef_cache.get(header) {
            Some(def) => {
                self.reader.bytes(size)?;
                def
            }
            None => {
                let mut r = self.reader.clone();
                r.rewind_to(start)?;
                let parsed = TypeDef::read(&mut r, &self.config.typedef_limits)?;
                // What the message made the decoder hold counts against its budget.
                self.charge(parsed.heap_bytes())?;
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
    pub(super) fn parse_local(&self, entry: u32, compress_int: bool) -> Result<Arc<RemoteTypeDef>> {
        let local = self
            .registry
            .at(entry)
            .ok_or_else(|| {
                self.error(ErrorKind::Invalid {
                    what: "a TypeDef of an unknown registry entry".to_string(),
                })
            })?
            .local_typedef(self.registry, compress_int)?;
        let parsed = TypeDef::read(&mut Reader::new(&local.bytes), &self.config.typedef_limits)?;
        Ok(Arc::new(RemoteTypeDef::new(parsed)))
    }

    /// The fast path of a compatible struct's type info: if the stream announces (or names
    /// again) exactly the local TypeDef of `entry`, consumes the marker and TypeDef, records
    /// that bodies of `key` follow the local schema, and returns true. Otherwise consumes
    /// nothing and returns false (the caller takes the general path).
    pub(crate) fn read_local_typedef(
        &mut self,
        entry: &crate::registry::TypeEntry,
        key: std::any::TypeId,
    ) -> Result<bool> {
        let compress_int = self.config.compress_int;
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

    /// The direct path's check of a compatible struct's type info `head` (its first two
    /// bytes): true when they are a compatible struct kind and a one-byte back reference to
    /// a TypeDef that the stream announced as the own TypeDef of local type `T` (under the
    /// current integer encoding). Either compatible kind is accepted, as on the general
    /// path: the TypeDef names the type. Any other form is left to the general path.
    #[inline(always)]
    pub(crate) fn is_local_typedef_ref<T: crate::registry::UserType>(&self, head: [u8; 2]) -> bool {
        let key = crate::registry::type_key::<T>();
        let memo = (key, u16::from_le_bytes(head));
        if self.direct_memo.get() == Some(memo) {
            return true;
        }
        let [kind, marker] = head;
        if kind | 2 != crate::types::TypeId::NamedCompatibleStruct as u8 || marker & 0x81 != 1 {
            return false;
        }
        let index = usize::from(marker >> 1);
        let local = if self.inline_len == 0 {
            self.is_spilled_local_typedef::<T>(index)
        } else {
            index < usize::from(self.inline_len)
                && matches!(
                    self.inline_locals.get(index),
                    Some(Some(l)) if l.key == key && l.compress_int == self.config.compress_int
                )
        };
        if local {
            self.direct_memo.set(Some(memo));
        }
        local
    }

    /// [`Self::is_local_typedef_ref`] once the TypeDefs moved to the general tables.
    #[inline(never)]
    fn is_spilled_local_typedef<T: crate::registry::UserType>(&self, index: usize) -> bool {
        let Some(entry) = self.registry.get::<T>() else {
            return false;
        };
        matches!(
            self.extra.as_ref().and_then(|e| e.typedefs.get(index)),
            Some(SharedDef::Local { entry: e, compress_int: c })
                if *e == entry.index() && *c == self.config.compress_int
        )
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

    /// Keeps the registration a dynamic value's type info named, for the values after it.
    pub(crate) fn set_dyn_type(&mut self, ty: crate::value::DynType) {
        self.extra
            .get_or_insert_with(take_read_extra)
            .last_user_type = LastUserType::Value(ty);
    }

    /// The registration kept by [`set_dyn_type`](Self::set_dyn_type).
    pub(crate) fn dyn_type(&self) -> crate::value::DynType {
        match self.extra.as_ref().map(|e| &e.last_user_type) {
            Some(LastUserType::Value(t)) => t.clone(),
            _ => crate::value::DynType::Untyped,
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
    ) -> Option<Option<Arc<crate::registry::plan::ReadPlan>>> {
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
        plan: Option<Arc<crate::registry::plan::ReadPlan>>,
    ) {
        if let Some(c) = self.extra_mut().current.iter_mut().find(|c| c.key == key) {
            c.plan = Some((compress_int, plan));
        }
    }

    /// Records the registered type that a `dyn AnyObject` type info just named.
    pub(crate) fn set_any_target(&mut self, target: AnyTarget) {
        self.extra_mut().last_user_type = LastUserType::Any(target);
    }

    /// Forgets the registered type the last `dyn AnyObject` type info named: the next
    /// payload has none (a field the peer declared as an enum, read into a `dyn AnyObject`).
    pub(crate) fn clear_any_target(&mut self) {
        if let Some(e) = self.extra.as_mut() {
            e.last_user_type = LastUserType::None;
        }
    }

    /// The registered type that the last `dyn AnyObject` type info named, if any.
    pub(crate) fn any_target(&self) -> Option<AnyTarget> {
        match &self.extra.as_ref()?.last_user_type {
            LastUserType::Any(t) => Some(t.clone()),
            _ => None,
        }
    }

    /// Reads the namespace and type name meta strings of a named type.
    pub(crate) fn read_type_name_strings(
        &mut self,
    ) -> Result<(WireMetaString<'r>, WireMetaString<'r>)> {
        let ns = self.meta_strings.read(&mut self.reader)?;
        let ty = self.meta_strings.read(&mut self.reader)?;
        Ok((ns, ty))
    }
}

#[cfg(test)]
mod tests {
    use super::{WriteContext, SHARED_INLINE};
    use crate::registry::Registry;

    #[test]
    fn shared_markers_number_types_in_order_past_the_inline_table() {
        let registry = Registry::new(false);
        let config = crate::Config {
            max_depth: 16,
            ..Default::default()
        };
        let mut out = Vec::new();
        let mut ctx = WriteContext::new(&mut out, &registry, &config);
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
