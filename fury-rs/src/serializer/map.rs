//! MAP payloads: `varuint32 size | chunk | chunk | ...`.
//!
//! A chunk is `kv header | pair count (1..=255) | [key type] | [value type] | pairs`, and
//! holds pairs whose keys share one type and whose values share one type. A pair with a null
//! key or value is a chunk of its own, without count byte or shared type info.

use super::items::{ItemReader, Typed};
use super::{Deserialize, Serialize, WireType};
use crate::context::{ReadContext, WriteContext};
use crate::error::{Error, ErrorKind, Result};
use crate::types::{kv, TypeId};

/// Writes `len` pairs as a map payload, chunking as pyfory does: a new chunk starts when the
/// key or value type changes, after 255 pairs, and after a null pair. When the map is
/// `declared` (a struct field, or inside one), every statically typed side is marked declared
/// in the chunk header and its type info is left out.
pub fn write_map<'b, K, V, I>(
    len: usize,
    pairs: I,
    declared: bool,
    ctx: &mut WriteContext,
) -> Result<()>
where
    K: Serialize + 'b,
    V: Serialize + 'b,
    I: Iterator<Item = (&'b K, &'b V)>,
{
    let untracked = ctx.take_untracked_elements();
    ctx.length(len)?;
    if len == 0 {
        return Ok(());
    }
    // In a struct field pyfory declares every static key and value type, structs included.
    // (In compatible mode, struct keys and values keep their type info: a TypeDef reference.)
    let compatible = ctx.compatible();
    let k_decl = declared && K::TYPE_ID != TypeId::Unknown && !(K::POLYMORPHIC && compatible);
    let v_decl = declared && V::TYPE_ID != TypeId::Unknown && !(V::POLYMORPHIC && compatible);
    let mut decl_bits = 0;
    if k_decl {
        decl_bits |= kv::KEY_DECL_TYPE;
    }
    if v_decl {
        decl_bits |= kv::VALUE_DECL_TYPE;
    }
    ctx.enter()?;
    // Open chunk: position of its count byte, its pair count, and its first pair.
    let mut open: Option<(usize, u8, &K, &V)> = None;
    let (mut k_track, mut v_track) = (false, false);
    for (k, v) in pairs {
        let k_null = K::NULLABLE && k.is_null();
        let v_null = V::NULLABLE && v.is_null();
        if k_null || v_null {
            close_chunk(&mut open, ctx);
            write_null_pair(k, v, k_null, v_null, decl_bits, declared, ctx)?;
            continue;
        }
        let fits = match open {
            Some((_, n, fk, fv)) => {
                // A back reference needs the flags of a tracked side.
                (n as usize) < kv::MAX_CHUNK
                    && fk.same_type(k)
                    && fv.same_type(v)
                    && (k_track || !k.is_back_ref())
                    && (v_track || !v.is_back_ref())
            }
            None => false,
        };
        if !fits {
            close_chunk(&mut open, ctx);
            // With tracking on, keys or values of a tracked kind carry reference flags.
            // (Not the values of a `#[fury(untracked_elements)]` field, pyfory's
            // `Dict[K, Ref[V, False]]`, unless one is a back reference.)
            let tracking = ctx.ref_tracking();
            k_track = tracking && k.is_ref_type();
            v_track = tracking && v.is_ref_type() && (!untracked || v.is_back_ref());
            let mut header = decl_bits;
            if k_track {
                header |= kv::KEY_TRACK_REF;
            }
            if v_track {
                header |= kv::VALUE_TRACK_REF;
            }
            ctx.writer.u8(header); // no nulls
            let count_at = ctx.writer.len();
            ctx.writer.u8(0);
            if !k_decl {
                k.write_type_info(ctx)?;
            }
            if !v_decl {
                v.write_type_info(ctx)?;
            }
            open = Some((count_at, 0, k, v));
        }
        if !(k_track && k.write_ref_flag(ctx, true)?) {
            write_body(k, declared, ctx)?;
        }
        if !(v_track && v.write_ref_flag(ctx, true)?) {
            write_body(v, declared, ctx)?;
        }
        if let Some((_, n, _, _)) = open.as_mut() {
            *n += 1;
        }
    }
    close_chunk(&mut open, ctx);
    ctx.leave();
    Ok(())
}

/// A key or value payload, declared or not.
#[inline]
fn write_body<T: Serialize>(x: &T, declared: bool, ctx: &mut WriteContext) -> Result<()> {
    if declared {
        x.write_declared(ctx)
    } else {
        x.write_data(ctx)
    }
}

#[inline]
fn close_chunk<K, V>(open: &mut Option<(usize, u8, &K, &V)>, ctx: &mut WriteContext) {
    if let Some((at, n, _, _)) = open.take() {
        ctx.writer.patch_u8(at, n);
    }
}

/// A pair with a null side is a chunk of its own. The present side is written with flag and
/// type info, unless its type is declared, in which case only its payload follows.
fn write_null_pair<K: Serialize, V: Serialize>(
    k: &K,
    v: &V,
    k_null: bool,
    v_null: bool,
    decl_bits: u8,
    declared: bool,
    ctx: &mut WriteContext,
) -> Result<()> {
    match (k_null, v_null) {
        (true, true) => {
            ctx.writer.u8(kv::KEY_NULL | kv::VALUE_NULL);
            Ok(())
        }
        (false, true) if decl_bits & kv::KEY_DECL_TYPE != 0 => {
            ctx.writer.u8(kv::VALUE_NULL | kv::KEY_DECL_TYPE);
            k.write_declared(ctx)
        }
        (false, true) => {
            ctx.writer.u8(kv::VALUE_NULL | kv::KEY_TRACK_REF);
            write_lone(k, declared, ctx)
        }
        _ if decl_bits & kv::VALUE_DECL_TYPE != 0 => {
            ctx.writer.u8(kv::KEY_NULL | kv::VALUE_DECL_TYPE);
            v.write_declared(ctx)
        }
        _ => {
            ctx.writer.u8(kv::KEY_NULL | kv::VALUE_TRACK_REF);
            write_lone(v, declared, ctx)
        }
    }
}

/// Flag, type info and payload of the present side of a null pair.
fn write_lone<T: Serialize>(x: &T, declared: bool, ctx: &mut WriteContext) -> Result<()> {
    // pyfory tracks the present side of a null pair whatever its kind.
    if x.write_ref_flag(ctx, true)? {
        return Ok(());
    }
    x.write_type_info(ctx)?;
    write_body(x, declared, ctx)
}

/// Where a map reader puts the pairs it reads: told the declared size first (which the
/// stream's element budget has already bounded), then given each pair in wire order.
pub trait PairSink<K, V> {
    /// The map declares `size` pairs.
    #[inline]
    fn reserve(&mut self, size: usize) {
        let _ = size;
    }
    /// One pair.
    fn put(&mut self, k: K, v: V);
}

impl<K, V, F: FnMut(K, V)> PairSink<K, V> for F {
    #[inline]
    fn put(&mut self, k: K, v: V) {
        self(k, v)
    }
}

/// Collects the pairs into a vector with room for exactly the declared size (growing by
/// doubling could hold twice the memory the input pays for).
pub struct PairVec<'a, K, V>(pub &'a mut Vec<(K, V)>);

impl<K, V> PairSink<K, V> for PairVec<'_, K, V> {
    #[inline]
    fn reserve(&mut self, size: usize) {
        self.0.reserve_exact(size);
    }
    #[inline]
    fn put(&mut self, k: K, v: V) {
        self.0.push((k, v));
    }
}

/// Reads a map payload, handing every pair to `insert` in wire order.
#[inline]
pub fn read_map<'de, K, V, F>(ctx: &mut ReadContext<'de, '_>, insert: F) -> Result<()>
where
    K: Deserialize<'de>,
    V: Deserialize<'de>,
    F: PairSink<K, V>,
{
    read_map_with(ctx, &Typed::<K>::new(), &Typed::<V>::new(), insert)
}

/// Reads a map payload with `key` and `value` reading the two sides.
pub fn read_map_with<'de, KR, VR, F>(
    ctx: &mut ReadContext<'de, '_>,
    key: &KR,
    value: &VR,
    mut insert: F,
) -> Result<()>
where
    KR: ItemReader<'de>,
    VR: ItemReader<'de>,
    F: PairSink<KR::Out, VR::Out>,
{
    let at = ctx.reader.position();
    let size = ctx.reader.var_u32()?;
    // Each pair costs at least one byte (a chunk header or a key payload byte).
    let mut left = ctx.reader.check_count("map", size as u64, 1, at)?;
    ctx.claim_pairs(left, at)?;
    ctx.charge(
        left.saturating_mul(std::mem::size_of::<KR::Out>() + std::mem::size_of::<VR::Out>()),
    )?;
    insert.reserve(left);
    ctx.enter()?;
    while left > 0 {
        let header_at = ctx.reader.position();
        let header = ctx.reader.u8()?;
        if header & 0xc0 != 0 {
            return Err(Error::at(
                ErrorKind::Invalid {
                    what: format!("map chunk header 0x{header:02x} has reserved bits set"),
                },
                header_at,
            ));
        }
        let k_null = header & kv::KEY_NULL != 0;
        let v_null = header & kv::VALUE_NULL != 0;
        if k_null || v_null {
            let k = if k_null {
                key.null(ctx)?
            } else {
                read_lone(
                    ctx,
                    key,
                    header & kv::KEY_DECL_TYPE != 0,
                    header & kv::KEY_TRACK_REF != 0,
                )?
            };
            let v = if v_null {
                value.null(ctx)?
            } else {
                read_lone(
                    ctx,
                    value,
                    header & kv::VALUE_DECL_TYPE != 0,
                    header & kv::VALUE_TRACK_REF != 0,
                )?
            };
            insert.put(k, v);
            left -= 1;
            continue;
        }
        let count_at = ctx.reader.position();
        let count = ctx.reader.u8()? as usize;
        if count == 0 || count > left {
            return Err(Error::at(
                ErrorKind::Invalid {
                    what: format!("map chunk of {count} pairs where 1..={left} remain"),
                },
                count_at,
            ));
        }
        let k_id = if header & kv::KEY_DECL_TYPE != 0 {
            None
        } else {
            Some(key.type_info(ctx)?)
        };
        let v_id = if header & kv::VALUE_DECL_TYPE != 0 {
            None
        } else {
            Some(value.type_info(ctx)?)
        };
        let k_ref = header & kv::KEY_TRACK_REF != 0;
        let v_ref = header & kv::VALUE_TRACK_REF != 0;
        for _ in 0..count {
            let k = read_in_chunk(ctx, key, k_id, k_ref)?;
            let v = read_in_chunk(ctx, value, v_id, v_ref)?;
            insert.put(k, v);
        }
        left -= count;
    }
    ctx.leave();
    Ok(())
}

/// The non-null side of a null pair: a flag exactly when the side's track-ref bit is set
/// (pyfory always sets it on an undeclared side and writes the flag; the official crate sets
/// neither), then the type info unless the side is declared, then the payload.
fn read_lone<'de, R: ItemReader<'de>>(
    ctx: &mut ReadContext<'de, '_>,
    item: &R,
    declared: bool,
    track: bool,
) -> Result<R::Out> {
    // The writer always flags this side: a dynamic value's renumbering counts it.
    ctx.set_count(Some(true));
    let r = read_lone_body(ctx, item, declared, track);
    ctx.set_count(None);
    r
}

#[inline]
fn read_lone_body<'de, R: ItemReader<'de>>(
    ctx: &mut ReadContext<'de, '_>,
    item: &R,
    declared: bool,
    track: bool,
) -> Result<R::Out> {
    let mut slot = None;
    if track {
        match super::refs::read_flag(ctx, item)? {
            super::refs::Flagged::Done(v) => return Ok(v),
            super::refs::Flagged::Read(s) => slot = s,
        }
    }
    let v = if declared {
        item.read(ctx, None)?
    } else {
        let id = item.type_info(ctx)?;
        item.read(ctx, Some(id))?
    };
    Ok(super::refs::finish(ctx, item, v, slot))
}
/// A key or value in a chunk: `id` is its shared type id, or `None` when declared.
#[inline]
fn read_in_chunk<'de, R: ItemReader<'de>>(
    ctx: &mut ReadContext<'de, '_>,
    item: &R,
    id: Option<TypeId>,
    track: bool,
) -> Result<R::Out> {
    let mut slot = None;
    if track {
        match super::refs::read_flag(ctx, item)? {
            super::refs::Flagged::Done(v) => return Ok(v),
            super::refs::Flagged::Read(s) => slot = s,
        }
    }
    let v = item.read(ctx, id)?;
    Ok(super::refs::finish(ctx, item, v, slot))
}

/// Implements the traits for a map type: `HashMap[S: bounds]` names the hasher parameter and
/// its bounds (any `BuildHasher + Default`), absent for ordered maps.
macro_rules! map_impl {
    ($($map:ident)::+ $([$s:ident: $($sb:tt)+])?, $($bound:tt)+) => {
        impl<K: WireType + $($bound)+, V: WireType $(, $s: $($sb)+)?> WireType
            for $($map)::+<K, V $(, $s)?>
        {
            #[inline]
            fn reach(reach: &mut crate::registry::Reach<'_>) -> crate::error::Result<()> {
                K::reach(reach)?;
                V::reach(reach)
            }

            const TYPE_ID: TypeId = TypeId::Map;
            const REF_TYPE: bool = true;
            fn field_type(
                registry: &crate::registry::Registry,
                compatible: bool,
            ) -> crate::meta::typedef::FieldType {
                super::map_field_type::<K, V>(registry, compatible)
            }
        }

        impl<K: Serialize + $($bound)+, V: Serialize $(, $s: $($sb)+)?> Serialize
            for $($map)::+<K, V $(, $s)?>
        {
            #[inline]
            fn visit_buffers<'v>(&'v self, out: &mut Vec<&'v [u8]>) {
                for (k, v) in self {
                    k.visit_buffers(out);
                    v.visit_buffers(out);
                }
            }

            #[inline]
            fn write_data(&self, ctx: &mut WriteContext) -> Result<()> {
                write_map(self.len(), self.iter(), false, ctx)
            }

            #[inline]
            fn write_declared(&self, ctx: &mut WriteContext) -> Result<()> {
                write_map(self.len(), self.iter(), true, ctx)
            }

        }

        impl<'de, K: Deserialize<'de> + $($bound)+, V: Deserialize<'de> $(, $s: $($sb)+)?>
            Deserialize<'de> for $($map)::+<K, V $(, $s)?>
        {
            #[inline]
            fn missing() -> Option<Self> {
                Some(Self::default())
            }

            #[inline]
            fn read_data(ctx: &mut ReadContext<'de, '_>) -> Result<Self> {
                let mut m = Self::default();
                read_map::<K, V, _>(ctx, |k, v| {
                    m.insert(k, v);
                })?;
                Ok(m)
            }
        }
    };
}

map_impl!(std::collections::HashMap[S: std::hash::BuildHasher + Default], Eq + std::hash::Hash);
map_impl!(std::collections::BTreeMap, Ord);
// `indexmap::IndexMap` (feature `indexmap`): a MAP written in insertion order and read in
// wire order (a later duplicate key keeps the first one's place and takes its value), so a
// dict read from pyfory writes back in the order pyfory wrote it.
#[cfg(feature = "indexmap")]
map_impl!(indexmap::IndexMap[S: std::hash::BuildHasher + Default], Eq + std::hash::Hash);

/// A MAP kept as its pairs in a `Vec<(K, V)>`: written in that order, read in wire order
/// (duplicate keys a stream holds are kept). Use it where the order of a peer's map matters,
/// e.g. to write back exactly the bytes pyfory wrote for a Python dict, which keeps
/// insertion order; `BTreeMap` writes its pairs sorted by key and `HashMap` in hash order.
/// Equality compares in order.
///
/// ```
/// use fury::{Fury, Map};
/// let fury = Fury::default();
/// // pyfory writes {"b": 1, "a": 2} in insertion order
/// let pyfory = [0x01, 0xff, 0x18, 0x02, 0x00, 0x02, 0x15, 0x07, 0x04, 0x62, 0x02, 0x04, 0x61, 0x04];
/// let map: Map<String, i64> = fury.deserialize(&pyfory).unwrap();
/// assert_eq!(map, Map(vec![("b".to_string(), 1), ("a".to_string(), 2)]));
/// assert_eq!(fury.serialize(&map).unwrap(), pyfory);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Map<K, V>(pub Vec<(K, V)>);

impl<K, V> Default for Map<K, V> {
    fn default() -> Self {
        Map(Vec::new())
    }
}

impl<K: WireType, V: WireType> WireType for Map<K, V> {
    #[inline]
    fn reach(reach: &mut crate::registry::Reach<'_>) -> crate::error::Result<()> {
        K::reach(reach)?;
        V::reach(reach)
    }

    const TYPE_ID: TypeId = TypeId::Map;
    const REF_TYPE: bool = true;
    fn field_type(
        registry: &crate::registry::Registry,
        compatible: bool,
    ) -> crate::meta::typedef::FieldType {
        super::map_field_type::<K, V>(registry, compatible)
    }
}

impl<K: Serialize, V: Serialize> Serialize for Map<K, V> {
    #[inline]
    fn visit_buffers<'v>(&'v self, out: &mut Vec<&'v [u8]>) {
        for (k, v) in &self.0 {
            k.visit_buffers(out);
            v.visit_buffers(out);
        }
    }

    #[inline]
    fn write_data(&self, ctx: &mut WriteContext) -> Result<()> {
        write_map(self.0.len(), self.0.iter().map(|(k, v)| (k, v)), false, ctx)
    }

    #[inline]
    fn write_declared(&self, ctx: &mut WriteContext) -> Result<()> {
        write_map(self.0.len(), self.0.iter().map(|(k, v)| (k, v)), true, ctx)
    }
}

impl<'de, K: Deserialize<'de>, V: Deserialize<'de>> Deserialize<'de> for Map<K, V> {
    #[inline]
    fn missing() -> Option<Self> {
        Some(Map(Vec::new()))
    }

    #[inline]
    fn read_data(ctx: &mut ReadContext<'de, '_>) -> Result<Self> {
        let mut pairs = Vec::new();
        read_map::<K, V, _>(ctx, PairVec(&mut pairs))?;
        Ok(Map(pairs))
    }
}
