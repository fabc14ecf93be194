//! The [`Fury`] facade and its builder.

use crate::config::Config;
use crate::context::{ReadContext, ReadMeta, WriteContext, WriteMeta};
use crate::error::{Error, ErrorKind, Result};
use crate::registry::{Registration, Registry, TypeDefCache};
use crate::serializer::{Deserialize, FuryObject, Serialize};
use crate::types::header;
use std::sync::Arc;

/// Builds a [`Fury`]: the mode (compatible or same-schema), reference tracking, integer
/// encodings and the limits applied to untrusted input. Start from [`Fury::builder`].
///
/// ```
/// use fury::Fury;
///
/// let fury = Fury::builder()
///     .compatible(false) // same-schema: no TypeDefs, a schema hash per struct
///     .ref_tracking(true) // shared and cyclic Rc/Arc graphs
///     .max_depth(64) // nesting limit for reading and writing
///     .max_alloc(16 << 20) // at most 16 MiB allocated by one decode
///     .build();
/// assert!(!fury.config().compatible());
/// assert_eq!(fury.config().max_depth(), 64);
/// ```
#[derive(Debug, Clone, Default)]
pub struct FuryBuilder {
    config: Config,
}

impl FuryBuilder {
    /// Enables reference tracking (shared and circular values). Default: off.
    pub fn ref_tracking(mut self, on: bool) -> Self {
        self.config.ref_tracking = on;
        self
    }

    /// Compatible (schema-evolution) mode for structs. Default: on, as in the peers.
    ///
    /// On: a struct's type info carries its TypeDef (field names and types), shared once per
    /// stream, so peers with other versions of the struct can read it (fields matched by tag
    /// id or name; unknown ones skipped, missing ones defaulted). Off ("same schema"): a
    /// 4-byte schema hash precedes the fields; both sides must have the same struct.
    pub fn compatible(mut self, on: bool) -> Self {
        self.config.compatible = on;
        self
    }

    /// Strict schema evolution (compatible mode): a field of a local struct that the peer's
    /// TypeDef lacks is an error ([`ErrorKind::MissingField`](crate::ErrorKind::MissingField),
    /// naming the struct and the field) unless the field has `#[fury(default)]` or
    /// `#[fury(default = "path")]`. Default: off, as in pyfory: such a field takes its type's
    /// default value (0, `""`, an empty collection, `None`), and a field whose type has no
    /// default value (a derived struct or enum without a type-level `#[fury(default)]`) is an
    /// error in both settings, never an invented value.
    ///
    /// ```
    /// use fury::{ErrorKind, Fury, FuryObject};
    ///
    /// mod v1 {
    ///     #[derive(fury::FuryObject)]
    ///     #[fury(id = 40)]
    ///     pub struct Item { pub sku: String }
    /// }
    /// #[derive(FuryObject, Debug)]
    /// #[fury(id = 40)]
    /// struct Item {
    ///     sku: String,
    ///     qty: u32,
    ///     #[fury(default)]
    ///     note: String,
    /// }
    ///
    /// let mut old = Fury::default();
    /// old.register::<v1::Item>()?;
    /// let bytes = old.serialize(&v1::Item { sku: "A-1".into() })?;
    ///
    /// let mut lenient = Fury::default();
    /// lenient.register::<Item>()?;
    /// assert_eq!(lenient.deserialize::<Item>(&bytes)?.qty, 0);
    ///
    /// let mut strict = Fury::builder().strict(true).build();
    /// strict.register::<Item>()?;
    /// let e = strict.deserialize::<Item>(&bytes).unwrap_err();
    /// assert!(matches!(e.kind(), ErrorKind::MissingField { field, .. } if field == "qty"), "{e}");
    /// # Ok::<(), fury::Error>(())
    /// ```
    pub fn strict(mut self, on: bool) -> Self {
        self.config.strict = on;
        self
    }

    /// Default encoding of `i32`/`u32`/`i64`/`u64` struct fields: varint when on (the
    /// default, as in the peers), fixed width when off. A field's `#[fury(encoding = ..)]`
    /// overrides it.
    pub fn compress_int(mut self, on: bool) -> Self {
        self.config.compress_int = on;
        self
    }

    /// Limits nesting depth; deeper input is an error instead of a stack overflow.
    pub fn max_depth(mut self, depth: u32) -> Self {
        self.config.max_depth = depth;
        self
    }

    /// Largest TypeDef body (bytes) accepted from input. Default: 64 KiB.
    pub fn max_typedef_size(mut self, bytes: usize) -> Self {
        self.config.typedef_limits.max_size = bytes;
        self
    }

    /// Most fields accepted in one TypeDef from input. Default: 1024.
    pub fn max_typedef_fields(mut self, fields: usize) -> Self {
        self.config.typedef_limits.max_fields = fields;
        self
    }

    /// Caps the memory one decoding call may allocate beyond copies of the input, in bytes:
    /// past it the call fails with [`ErrorKind::AllocLimit`](crate::ErrorKind::AllocLimit).
    /// Default: no fixed cap; the cap relative to the input's length
    /// ([`max_alloc_per_input_byte`](Self::max_alloc_per_input_byte)) applies, and the
    /// smaller of the two wins.
    ///
    /// What counts is what a message can multiply: containers (element count times the
    /// element's size in memory, charged before anything is reserved), boxes, shared
    /// pointers, reference-tracking slots and the structs of a dynamic `Value`. What is only
    /// copied out of the input (strings, bytes, dense arrays) does not count: it is at most
    /// twice the input's length, so a decode of `n` bytes holds at most about
    /// `2 * n + max_alloc`. The TypeDefs a decode parses count too (their heap size, once
    /// parsed). Bound `n` with the frame limit of your transport.
    ///
    /// ```
    /// use fury::{ErrorKind, Fury};
    /// let fury = Fury::builder().max_alloc(1024).build();
    /// // 1,000 strings of one byte: a 2 KiB message, and 24,000 bytes of `String`s.
    /// let names = vec!["x".to_string(); 1000];
    /// let bytes = fury.serialize(&names).unwrap();
    /// let e = fury.deserialize::<Vec<String>>(&bytes).unwrap_err();
    /// assert!(matches!(e.kind(), ErrorKind::AllocLimit { limit: 1024, .. }));
    /// let few = fury.serialize(&names[..10]).unwrap();
    /// assert_eq!(fury.deserialize::<Vec<String>>(&few).unwrap(), &names[..10]);
    /// ```
    pub fn max_alloc(mut self, bytes: usize) -> Self {
        self.config.max_alloc = bytes;
        self
    }

    /// Caps what one decode of `n` bytes may allocate beyond copies of its input at
    /// `per_byte * n` plus 1 MiB ([`Config::ALLOC_BASE`](crate::Config::ALLOC_BASE)), on top of
    /// [`max_alloc`](Self::max_alloc). Default: 14, so that with the copies (at most `2 * n`)
    /// any input of `n` bytes, hostile or not, holds at most `16 * n + 1 MiB` of heap
    /// while it is decoded, as a typed value, a `Value` or a `ValueRef`, its TypeDefs
    /// included. A message that legitimately expands more (a list of a million empty
    /// strings: 24 bytes of `String` per input byte) needs a larger factor;
    /// `usize::MAX` turns the relative cap off.
    ///
    /// ```
    /// use fury::{ErrorKind, Fury};
    /// let empty = vec![Vec::<i32>::new(); 1 << 20]; // 1 MiB of input, 24 MiB of Vecs
    /// let bytes = Fury::default().serialize(&empty).unwrap();
    /// let e = Fury::default().deserialize::<Vec<Vec<i32>>>(&bytes).unwrap_err();
    /// assert!(matches!(e.kind(), ErrorKind::AllocLimit { .. }), "{e}");
    /// let lenient = Fury::builder().max_alloc_per_input_byte(32).build();
    /// assert_eq!(lenient.deserialize::<Vec<Vec<i32>>>(&bytes).unwrap().len(), 1 << 20);
    /// ```
    pub fn max_alloc_per_input_byte(mut self, per_byte: usize) -> Self {
        self.config.alloc_per_input_byte = per_byte;
        self
    }

    /// Most remote TypeDefs kept parsed by the instance. Default: 1024.
    pub fn typedef_cache_entries(mut self, entries: usize) -> Self {
        self.config.typedef_cache_entries = entries;
        self
    }

    /// Most heap bytes the remote TypeDefs kept parsed by the instance take; the oldest are
    /// evicted to make room. Default: [`DEFAULT_TYPEDEF_CACHE_BYTES`](crate::registry::DEFAULT_TYPEDEF_CACHE_BYTES) (16 MiB).
    pub fn typedef_cache_bytes(mut self, bytes: usize) -> Self {
        self.config.typedef_cache_bytes = bytes;
        self
    }

    /// Finishes the builder.
    pub fn build(self) -> Fury {
        let mut registry = Registry::new(self.config.ref_tracking);
        registry.set_compatible(self.config.compatible);
        Fury {
            typedef_cache: Arc::new(TypeDefCache::with_limits(
                self.config.typedef_cache_entries,
                self.config.typedef_cache_bytes,
            )),
            registry,
            config: self.config,
        }
    }
}

/// Serializes and deserializes values in the xlang format.
///
/// A `Fury` is `Send + Sync` and cheap to share; every call uses its own state.
///
/// ```
/// use fury::Fury;
/// use std::collections::HashMap;
///
/// let fury = Fury::builder().ref_tracking(false).compatible(true).build();
/// let mut m = HashMap::new();
/// m.insert("k".to_string(), vec![1i64, 2, 3]);
/// let bytes = fury.serialize(&m).unwrap();
/// let back: HashMap<String, Vec<i64>> = fury.deserialize(&bytes).unwrap();
/// assert_eq!(back, m);
/// ```
#[derive(Debug, Clone)]
pub struct Fury {
    config: Config,
    pub(crate) registry: Registry,
    typedef_cache: Arc<TypeDefCache>,
}

impl Default for Fury {
    fn default() -> Self {
        Fury::builder().build()
    }
}

impl Fury {
    /// A builder with the default settings.
    pub fn builder() -> FuryBuilder {
        FuryBuilder::default()
    }

    /// The settings of this instance.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The cache of TypeDefs received from peers.
    pub fn typedef_cache(&self) -> &TypeDefCache {
        &self.typedef_cache
    }

    /// The registered user types.
    pub fn registry(&self) -> &Registry {
        &self.registry
    }

    /// Registers a derived struct or enum under the id or name given by its
    /// `#[fury(id = ..)]` / `#[fury(namespace = .., name = ..)]` attribute, together with
    /// every derived type it reaches through its fields, variants, containers and generic
    /// arguments that names its own registration (an enum's case structs too). A reached
    /// type that names none (a generic instantiation) must be registered before, by id or
    /// by name: otherwise this call fails with the path of the field that reaches it, and
    /// registers nothing. So do two types claiming one id or name.
    ///
    /// ```
    /// use fury::{Fury, FuryObject};
    /// #[derive(FuryObject, Debug, PartialEq)]
    /// #[fury(id = 100)]
    /// struct Point { x: i32, y: i32 }
    ///
    /// let mut fury = Fury::default();
    /// fury.register::<Point>().unwrap();
    /// let bytes = fury.serialize(&Point { x: 1, y: 2 }).unwrap();
    /// assert_eq!(fury.deserialize::<Point>(&bytes).unwrap(), Point { x: 1, y: 2 });
    /// ```
    pub fn register<T: FuryObject>(&mut self) -> Result<&mut Self> {
        let reg = T::registration().ok_or_else(|| {
            Error::new(ErrorKind::Invalid {
                what: format!(
                    "{} has no #[fury(id = ..)] or #[fury(namespace = .., name = ..)] attribute; \
                     use register_by_id or register_by_name",
                    std::any::type_name::<T>()
                ),
            })
        })?;
        self.register_as::<T>(reg)
    }

    /// Registers a derived struct or enum under a numeric user type id, with what it reaches
    /// (as [`Fury::register`]).
    pub fn register_by_id<T: FuryObject>(&mut self, id: u32) -> Result<&mut Self> {
        self.register_as::<T>(Registration::Id(id))
    }

    /// Registers a derived struct or enum under a namespace (may be empty) and type name,
    /// with what it reaches (as [`Fury::register`]).
    pub fn register_by_name<T: FuryObject>(
        &mut self,
        namespace: &str,
        type_name: &str,
    ) -> Result<&mut Self> {
        self.register_as::<T>(Registration::Name {
            namespace: namespace.to_string(),
            type_name: type_name.to_string(),
        })
    }

    /// Registers `T` and walks what it reaches; on an error nothing is registered.
    fn register_as<T: FuryObject>(&mut self, registration: Registration) -> Result<&mut Self> {
        let mut next = self.registry.clone();
        next.add::<T>(T::KIND, registration)?;
        crate::registry::Reach::walk::<T>(&mut next)?;
        self.registry = next;
        Ok(self)
    }

    /// Serializes `value` into a new vector.
    pub fn serialize<T: Serialize + ?Sized>(&self, value: &T) -> Result<Vec<u8>> {
        let mut out = Vec::with_capacity(64);
        self.serialize_into(value, &mut out)?;
        Ok(out)
    }

    /// Appends the serialization of `value` to `out`. On error, `out` is left as it was.
    pub fn serialize_into<T: Serialize + ?Sized>(
        &self,
        value: &T,
        out: &mut Vec<u8>,
    ) -> Result<()> {
        let start = out.len();
        let result = {
            let mut ctx = WriteContext::new(out, &self.registry, &self.config);
            value.write_stream(&mut ctx)
        };
        if result.is_err() {
            out.truncate(start);
        }
        result
    }

    /// Appends the serialization of `value` to `out`, sharing type metadata with the earlier
    /// messages of a connection: TypeDefs announced before under `meta` are named by a back
    /// reference, new ones are announced and recorded (see [`WriteMeta`]). The peer reads
    /// the messages in order with one [`ReadMeta`] ([`Fury::deserialize_with_meta`]). On
    /// error `out` and `meta` are left as they were.
    ///
    /// ```
    /// use fury::connection::{ReadMeta, WriteMeta};
    /// use fury::{Fury, FuryObject};
    /// #[derive(FuryObject, Debug, PartialEq)]
    /// #[fury(id = 100)]
    /// struct Point { x: i32, y: i32 }
    ///
    /// let mut fury = Fury::default(); // compatible mode: structs carry TypeDefs
    /// fury.register::<Point>().unwrap();
    /// let (mut send, mut recv) = (WriteMeta::new(), ReadMeta::new());
    /// let (mut first, mut second) = (Vec::new(), Vec::new());
    /// fury.serialize_with_meta(&Point { x: 1, y: 2 }, &mut first, &mut send).unwrap();
    /// fury.serialize_with_meta(&Point { x: 3, y: 4 }, &mut second, &mut send).unwrap();
    /// assert!(second.len() < first.len()); // the TypeDef crossed once
    /// let a: Point = fury.deserialize_with_meta(&first, &mut recv).unwrap();
    /// let b: Point = fury.deserialize_with_meta(&second, &mut recv).unwrap();
    /// assert_eq!((a.x, b.x), (1, 3));
    /// // Alone, the second message names a TypeDef its reader never saw.
    /// assert!(fury.deserialize::<Point>(&second).is_err());
    /// ```
    pub fn serialize_with_meta<T: Serialize + ?Sized>(
        &self,
        value: &T,
        out: &mut Vec<u8>,
        meta: &mut WriteMeta,
    ) -> Result<()> {
        let start = out.len();
        let mut ctx = WriteContext::new(out, &self.registry, &self.config);
        ctx.load_meta(meta);
        let result = value.write_stream(&mut ctx);
        ctx.store_meta(meta, result.is_ok());
        drop(ctx);
        if result.is_err() {
            out.truncate(start);
        }
        result
    }

    /// Deserializes a `T` from `bytes` (exactly one stream), a message of a connection whose
    /// earlier messages were read with the same `meta` (see
    /// [`Fury::serialize_with_meta`]). TypeDefs the message announces are kept in `meta`,
    /// also when a later part of the message is an error.
    pub fn deserialize_with_meta<'de, T: Deserialize<'de>>(
        &self,
        bytes: &'de [u8],
        meta: &mut ReadMeta,
    ) -> Result<T> {
        self.read_with_meta(
            bytes,
            #[cfg(feature = "bytes")]
            None,
            meta,
        )
    }

    /// One message of a connection sharing metadata; `source` is the `Bytes` that `bytes`
    /// views, if any.
    fn read_with_meta<'de, T: Deserialize<'de>>(
        &self,
        bytes: &'de [u8],
        #[cfg(feature = "bytes")] source: Option<&'de bytes::Bytes>,
        meta: &mut ReadMeta,
    ) -> Result<T> {
        let earlier = meta.take_strings();
        let mut ctx = ReadContext::new(bytes, &self.registry, &self.typedef_cache, &self.config);
        #[cfg(feature = "bytes")]
        if let Some(source) = source {
            ctx.set_source(source);
        }
        ctx.load_meta(meta, &earlier);
        let result = self.read_whole(&mut ctx);
        let kept = ctx.store_meta(meta);
        drop(ctx);
        let strings = meta.keep_strings(earlier);
        let value = result?;
        kept?;
        strings?;
        Ok(value)
    }

    /// [`Fury::deserialize_with_meta`] from a `bytes::Bytes` (feature `bytes`): `Bytes`
    /// values in `T` are slices of `input`, as in [`Fury::deserialize_bytes`].
    #[cfg(feature = "bytes")]
    pub fn deserialize_bytes_with_meta<'de, T: Deserialize<'de>>(
        &self,
        input: &'de bytes::Bytes,
        meta: &mut ReadMeta,
    ) -> Result<T> {
        self.read_with_meta(input, Some(input), meta)
    }

    /// Serializes `value` with out-of-band buffers, as pyfory's
    /// `serialize(obj, buffer_callback=...)` does: the stream's header says so, and each
    /// BINARY payload (a `Vec<u8>`, `&[u8]`, `Cow<[u8]>` or `Value::Binary`) is either kept in
    /// the stream or left out of it and returned as the next buffer, borrowed from `value`
    /// (never copied). `keep_in_band` decides for each: true keeps it in the stream.
    ///
    /// Only bytes the value can lend for as long as it lives go out of band; bytes behind a
    /// `RefCell` or `Mutex`, or made by a `#[fury(with)]` conversion, stay in band (and are
    /// not offered to `keep_in_band`).
    ///
    /// ```
    /// let fury = fury::Fury::default();
    /// let big = vec![7u8; 1 << 20];
    /// let value = vec![big.clone(), vec![1, 2]];
    /// let (stream, buffers) = fury.serialize_with_buffers(&value, |b| b.len() < 1024).unwrap();
    /// assert_eq!(buffers.len(), 1);
    /// assert!(std::ptr::eq(buffers[0], value[0].as_slice()));
    /// assert!(stream.len() < 64);
    /// let back: Vec<Vec<u8>> = fury.deserialize_with_buffers(&stream, &buffers).unwrap();
    /// assert_eq!(back, value);
    /// ```
    pub fn serialize_with_buffers<'v, T: Serialize + ?Sized>(
        &self,
        value: &'v T,
        keep_in_band: impl FnMut(&[u8]) -> bool,
    ) -> Result<(Vec<u8>, Vec<&'v [u8]>)> {
        let mut lendable = Vec::new();
        value.visit_buffers(&mut lendable);
        let mut sink = BufferSink {
            lendable: lendable
                .into_iter()
                .map(|b| ((b.as_ptr() as usize, b.len()), b))
                .collect(),
            keep_in_band,
            taken: Vec::new(),
        };
        let mut out = Vec::with_capacity(64);
        {
            let mut ctx = WriteContext::new(&mut out, &self.registry, &self.config);
            ctx.oob = Some(&mut sink);
            value.write_stream(&mut ctx)?;
        }
        if let Some(head) = out.first_mut() {
            *head |= header::OUT_OF_BAND;
        }
        Ok((out, sink.taken))
    }

    /// Deserializes a `T` from a stream written with out-of-band buffers (see
    /// [`Fury::serialize_with_buffers`], or pyfory's `serialize(obj, buffer_callback=...)`),
    /// given those buffers in order. Borrowed fields (`&[u8]`) borrow from the buffers. The
    /// stream must take every buffer given, and must say in its header that it has them.
    ///
    /// ```
    /// let fury = fury::Fury::default();
    /// let value = (String::from("id-7"), vec![0u8; 4096]);
    /// let (stream, buffers) = fury.serialize_with_buffers(&value, |_| false).unwrap();
    /// let (id, data): (String, &[u8]) = fury.deserialize_with_buffers(&stream, &buffers).unwrap();
    /// assert_eq!((id.as_str(), data.len()), ("id-7", 4096));
    /// assert!(fury.deserialize::<(String, Vec<u8>)>(&stream).is_err());
    /// ```
    pub fn deserialize_with_buffers<'de, T: Deserialize<'de>>(
        &self,
        stream: &'de [u8],
        buffers: &[&'de [u8]],
    ) -> Result<T> {
        let mut ctx = ReadContext::new(stream, &self.registry, &self.typedef_cache, &self.config);
        ctx.set_buffers(buffers);
        let value = self.read_whole(&mut ctx)?;
        let left = ctx.buffers_left();
        if left != 0 {
            drop(value);
            ctx.break_cycles();
            return Err(ctx.error(ErrorKind::Invalid {
                what: format!(
                    "{} out-of-band buffers were given but the stream took {}",
                    buffers.len(),
                    buffers.len() - left
                ),
            }));
        }
        Ok(value)
    }

    /// Serializes `value` into a new `bytes::Bytes` (feature `bytes`); the vector written
    /// becomes the `Bytes` without a copy.
    ///
    /// ```
    /// // Needs fury's feature `bytes` and the crate `bytes`.
    /// let fury = fury::Fury::default();
    /// let frame: bytes::Bytes = fury.serialize_bytes(&"hi").unwrap();
    /// assert_eq!(fury.deserialize_bytes::<String>(&frame).unwrap(), "hi");
    /// ```
    #[cfg(feature = "bytes")]
    pub fn serialize_bytes<T: Serialize + ?Sized>(&self, value: &T) -> Result<bytes::Bytes> {
        self.serialize(value).map(bytes::Bytes::from)
    }

    /// Appends the serialization of `value` to any `bytes::BufMut` (a `BytesMut`, a
    /// `Vec<u8>`, a chain; feature `bytes`), in one `put_slice`. On error nothing is written.
    ///
    /// ```
    /// // Needs fury's feature `bytes` and the crate `bytes`.
    /// use bytes::BufMut;
    /// let fury = fury::Fury::default();
    /// let mut frame = bytes::BytesMut::new();
    /// frame.put_u32_le(0); // room for a length prefix
    /// fury.serialize_to_buf(&vec![1i32, 2, 3], &mut frame).unwrap();
    /// let body = &frame[4..];
    /// assert_eq!(fury.deserialize::<Vec<i32>>(body).unwrap(), [1, 2, 3]);
    /// ```
    #[cfg(feature = "bytes")]
    pub fn serialize_to_buf<T: Serialize + ?Sized, B: bytes::BufMut + ?Sized>(
        &self,
        value: &T,
        buf: &mut B,
    ) -> Result<()> {
        with_scratch(|scratch| {
            let result = self.serialize_into(value, scratch);
            if result.is_ok() {
                buf.put_slice(scratch);
            }
            result
        })
    }

    /// Deserializes a `T` from a `bytes::Bytes` holding exactly one stream (feature
    /// `bytes`): as [`Fury::deserialize`], and `Bytes` values in `T` are slices of `input`
    /// (they share its buffer) instead of copies.
    #[cfg(feature = "bytes")]
    pub fn deserialize_bytes<'de, T: Deserialize<'de>>(
        &self,
        input: &'de bytes::Bytes,
    ) -> Result<T> {
        let mut ctx = ReadContext::new(input, &self.registry, &self.typedef_cache, &self.config);
        ctx.set_source(input);
        self.read_whole(&mut ctx)
    }

    /// Deserializes a `T` from `bytes`, which must hold exactly one stream.
    #[inline]
    pub fn deserialize<'de, T: Deserialize<'de>>(&self, bytes: &'de [u8]) -> Result<T> {
        let mut ctx = ReadContext::new(bytes, &self.registry, &self.typedef_cache, &self.config);
        self.read_whole(&mut ctx)
    }

    /// Deserializes a `T` from the front of `bytes`, returning it with the number of bytes
    /// used, for inputs that hold several streams back to back.
    pub fn deserialize_prefix<'de, T: Deserialize<'de>>(
        &self,
        bytes: &'de [u8],
    ) -> Result<(T, usize)> {
        let mut ctx = ReadContext::new(bytes, &self.registry, &self.typedef_cache, &self.config);
        match self.read_stream(&mut ctx) {
            Ok(value) => Ok((value, ctx.reader.position())),
            Err(e) => {
                ctx.break_cycles();
                Err(e)
            }
        }
    }

    #[inline(always)]
    fn read_stream<'de, T: Deserialize<'de>>(&self, ctx: &mut ReadContext<'de, '_>) -> Result<T> {
        let b = ctx.reader.u8()?;
        if b & header::RESERVED != 0 || b & header::XLANG == 0 {
            return Err(Error::at(ErrorKind::BadHeader { byte: b }, 0));
        }
        if (b & header::OUT_OF_BAND != 0) != ctx.has_buffers() {
            return Err(Error::at(
                ErrorKind::Invalid {
                    what: oob_mismatch(b),
                },
                0,
            ));
        }
        T::read_root(ctx)
    }

    /// A whole input as one `T`: [`Self::read_stream`], then no byte may be left. Kept out of
    /// [`Self::deserialize`]: measured on MediaContent, the optimiser then makes one copy
    /// (`memcpy`) fewer of the large value on its way to the caller.
    #[inline(never)]
    fn read_whole<'de, T: Deserialize<'de>>(&self, ctx: &mut ReadContext<'de, '_>) -> Result<T> {
        let value = match self.read_stream(ctx) {
            Ok(v) => v,
            Err(e) => {
                ctx.break_cycles();
                return Err(e);
            }
        };
        let left = ctx.reader.remaining();
        if left != 0 {
            drop(value);
            ctx.break_cycles();
            return Err(ctx.error(ErrorKind::TrailingBytes { count: left }));
        }
        Ok(value)
    }
}

/// Takes the BINARY payloads of a stream that `keep_in_band` lets go out of band, among those
/// the value lends (found by `visit_buffers`, keyed by address and length: a payload the
/// writer offers is lent only if it is the very same bytes).
struct BufferSink<'v, F> {
    lendable: std::collections::HashMap<(usize, usize), &'v [u8]>,
    keep_in_band: F,
    taken: Vec<&'v [u8]>,
}

impl<F: FnMut(&[u8]) -> bool> crate::context::OutOfBand for BufferSink<'_, F> {
    fn take(&mut self, bytes: &[u8]) -> bool {
        match self.lendable.get(&(bytes.as_ptr() as usize, bytes.len())) {
            Some(&lent) if !(self.keep_in_band)(lent) => {
                self.taken.push(lent);
                true
            }
            _ => false,
        }
    }
}

#[cold]
fn oob_mismatch(header: u8) -> String {
    if header & header::OUT_OF_BAND != 0 {
        "the stream header announces out-of-band buffers (read it with \
         deserialize_with_buffers)"
            .to_string()
    } else {
        "out-of-band buffers were given for a stream whose header announces none".to_string()
    }
}

thread_local! {
    // The stream written before one `put_slice` or `write_all`, kept per thread so that
    // steady traffic does not allocate it again.
    static SCRATCH: std::cell::Cell<Vec<u8>> = const { std::cell::Cell::new(Vec::new()) };
}

/// Above this capacity the scratch vector is dropped instead of kept for the next call.
const SCRATCH_KEEP: usize = 1 << 20;

/// Runs `f` with this thread's scratch vector, emptied.
pub(crate) fn with_scratch<R>(f: impl FnOnce(&mut Vec<u8>) -> R) -> R {
    let mut scratch = SCRATCH.try_with(|c| c.take()).unwrap_or_default();
    scratch.clear();
    let result = f(&mut scratch);
    if scratch.capacity() <= SCRATCH_KEEP {
        let _ = SCRATCH.try_with(|c| c.set(scratch));
    }
    result
}
