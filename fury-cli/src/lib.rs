//! `fury compile` (see [`run_compile`]) compiles Fory IDL and proto3 schemas to Rust with
//! fury-build. `fury inspect`: takes any Fory xlang stream apart without knowing its types, into a tree
//! whose leaves cover every byte exactly once, each with its offset and meaning.
//!
//! Everything a stream says about itself is decoded: the header, reference flags (with the
//! reference ids they assign), type ids by name, lengths, scalars, strings, dense arrays,
//! lists, sets and map chunks (every header bit), meta strings with their encoding and
//! back references, TypeDefs with their field names and types, and compatible-mode struct
//! fields (read by the TypeDef's field types). A same-schema struct's fields are not on the
//! wire in a self-describing form: the inspector shows its hash and stops there, and it
//! stops with a pointer to the offset where a broken stream stops making sense.
//!
//! ```
//! let insp = fury_cli::inspect(&[0x01, 0xff, 0x05, 0x04]);
//! assert!(insp.stop.is_none());
//! let text = insp.render_text();
//! assert!(text.contains("VARINT32"), "{text}");
//! assert!(text.contains("varint32 2"), "{text}");
//! ```

mod compile;
pub use compile::{parse_compile_args, run_compile, CompileArgs, COMPILE_USAGE};

use fury::meta::{
    FieldId, FieldInfo, FieldType, MetaEncoding, MetaStringEncoder, TypeDef, TypeDefLimits,
    TypeDefRegistration,
};
use fury::wire::{Reader, TypeId};
use serde_json::{json, Value as Json};

/// One node of the tree: a leaf owns the bytes `offset..offset + len`; an inner node groups
/// its children (and spans them).
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    /// First byte.
    pub offset: usize,
    /// Byte count (of the children, for an inner node).
    pub len: usize,
    /// What the bytes mean.
    pub what: String,
    /// Children, in stream order; empty for a leaf.
    pub children: Vec<Node>,
}

impl Node {
    /// Every leaf, in stream order.
    pub fn leaves(&self) -> Vec<&Node> {
        if self.children.is_empty() {
            return vec![self];
        }
        self.children.iter().flat_map(Node::leaves).collect()
    }
}

/// Why the inspection stopped before the end of the stream.
#[derive(Debug, Clone, PartialEq)]
pub struct Stop {
    /// The offset where the stream stops making sense (or where typeless reading ends).
    pub offset: usize,
    /// What was expected there.
    pub why: String,
    /// The stream is not broken: the rest needs a type (a same-schema struct's fields).
    pub needs_type: bool,
}

/// The result of [`inspect`].
#[derive(Debug, Clone)]
pub struct Inspection {
    /// The stream as a tree; the leaves cover every byte once (the bytes after a stop are
    /// one last leaf).
    pub root: Node,
    /// Where and why reading stopped, if it did not reach the end.
    pub stop: Option<Stop>,
    /// The stream was read in compatible mode (TypeDefs, meta-share markers).
    pub compatible: bool,
    /// The input.
    pub bytes: Vec<u8>,
    /// TypeDefs read.
    pub typedefs: usize,
}

/// Inspects a stream. The mode (same-schema or compatible) is taken from the one that reads
/// further: the two differ only in what follows a NAMED_ENUM or NAMED_STRUCT kind byte.
pub fn inspect(bytes: &[u8]) -> Inspection {
    let a = run(bytes, false);
    let b = run(bytes, true);
    let reach = |i: &Inspection| i.stop.as_ref().map_or(usize::MAX, |s| s.offset);
    // a tie goes to compatible mode when the stream holds TypeDefs
    if reach(&b) > reach(&a) || (reach(&b) == reach(&a) && b.typedefs > 0) {
        b
    } else {
        a
    }
}

/// Inspects a stream in the given mode.
pub fn inspect_mode(bytes: &[u8], compatible: bool) -> Inspection {
    run(bytes, compatible)
}

fn run(bytes: &[u8], compatible: bool) -> Inspection {
    let mut p = P {
        r: Reader::new(bytes),
        compatible,
        meta: Vec::new(),
        typedefs: Vec::new(),
        next_ref: 0,
        depth: 0,
    };
    let mut children = Vec::new();
    let stop = p.stream(&mut children).err();
    if let Some(s) = &stop {
        // the rest of the stream is one leaf, so the leaves still cover every byte once
        let at = leaf_end(&children);
        if at < bytes.len() {
            children.push(Node {
                offset: at,
                len: bytes.len() - at,
                what: if s.needs_type {
                    format!("{} bytes not decodable without the type", bytes.len() - at)
                } else {
                    format!(
                        "!! {} bytes unread: the stream stops making sense at offset {} ({})",
                        bytes.len() - at,
                        s.offset,
                        s.why
                    )
                },
                children: Vec::new(),
            });
        }
    }
    Inspection {
        root: Node {
            offset: 0,
            len: bytes.len(),
            what: format!(
                "stream, {} bytes ({} mode)",
                bytes.len(),
                if compatible {
                    "compatible"
                } else {
                    "same-schema"
                }
            ),
            children,
        },
        stop,
        compatible,
        bytes: bytes.to_vec(),
        typedefs: p.typedefs.len(),
    }
}

fn leaf_end(nodes: &[Node]) -> usize {
    nodes
        .iter()
        .flat_map(Node::leaves)
        .map(|l| l.offset + l.len)
        .max()
        .unwrap_or(0)
}

type R<T> = Result<T, Stop>;

const MAX_DEPTH: u32 = 64;

/// Type info as read: the kind and, for compatible structs, the TypeDef's index.
#[derive(Clone, Copy)]
struct Info {
    id: TypeId,
    typedef: Option<usize>,
}

enum Flag {
    Null,
    Ref,
    Value,
}

struct P<'a> {
    r: Reader<'a>,
    compatible: bool,
    meta: Vec<String>,
    typedefs: Vec<TypeDef>,
    next_ref: u32,
    depth: u32,
}

fn io<T>(at: usize, what: &str, r: fury::Result<T>) -> R<T> {
    r.map_err(|e| Stop {
        offset: at,
        why: format!("{what}: {e}"),
        needs_type: false,
    })
}

fn latin1(b: &[u8]) -> String {
    b.iter().map(|&c| char::from(c)).collect()
}

fn short(s: &str) -> String {
    let mut out: String = s.chars().take(60).collect();
    if s.chars().count() > 60 {
        out.push('…');
    }
    format!("{out:?}")
}

fn field_type_name(t: &FieldType) -> String {
    let base = TypeId::from_u8(t.type_id)
        .map_or_else(|| format!("type {}", t.type_id), |i| i.name().to_string());
    let mut s = if t.children.is_empty() {
        base
    } else {
        let kids: Vec<String> = t.children.iter().map(field_type_name).collect();
        format!("{base}<{}>", kids.join(", "))
    };
    if t.nullable {
        s.push('?');
    }
    if t.track_ref {
        s.push_str(" (ref)");
    }
    s
}

fn field_name(f: &FieldInfo) -> String {
    match &f.id {
        FieldId::Name(n) => n.clone(),
        FieldId::Tag(t) => format!("#{t}"),
    }
}

impl P<'_> {
    fn pos(&self) -> usize {
        self.r.position()
    }

    fn stop(&self, at: usize, why: impl Into<String>) -> Stop {
        Stop {
            offset: at,
            why: why.into(),
            needs_type: false,
        }
    }

    fn leaf(&self, out: &mut Vec<Node>, start: usize, what: String) {
        out.push(Node {
            offset: start,
            len: self.pos() - start,
            what,
            children: Vec::new(),
        });
    }

    /// Runs `f` into a new inner node labelled `what` (dropped if it got no bytes).
    fn group(
        &mut self,
        out: &mut Vec<Node>,
        what: String,
        f: impl FnOnce(&mut Self, &mut Vec<Node>) -> R<()>,
    ) -> R<()> {
        let start = self.pos();
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.stop(start, format!("nesting deeper than {MAX_DEPTH}")));
        }
        let mut kids = Vec::new();
        let r = f(self, &mut kids);
        self.depth -= 1;
        let end = leaf_end(&kids).max(start);
        if !kids.is_empty() {
            out.push(Node {
                offset: start,
                len: end - start,
                what,
                children: kids,
            });
        }
        r
    }

    fn stream(&mut self, out: &mut Vec<Node>) -> R<()> {
        let h = io(0, "header byte", self.r.u8())?;
        let mut bits = Vec::new();
        if h & 1 != 0 {
            bits.push("xlang");
        }
        if h & 2 != 0 {
            bits.push("out-of-band buffers");
        }
        self.leaf(
            out,
            0,
            format!(
                "header 0x{h:02x}: {}",
                if bits.is_empty() {
                    "native (not xlang)".to_string()
                } else {
                    bits.join(", ")
                }
            ),
        );
        if h & !3 != 0 {
            return Err(self.stop(0, format!("header bits 0x{:02x} are reserved", h & !3)));
        }
        self.group(out, "root".into(), |p, o| p.flagged_dynamic(o))?;
        if self.r.remaining() > 0 {
            let at = self.pos();
            return Err(self.stop(
                at,
                format!("{} bytes after the root value", self.r.remaining()),
            ));
        }
        Ok(())
    }

    fn flag(&mut self, out: &mut Vec<Node>) -> R<Flag> {
        let start = self.pos();
        let b = io(start, "reference flag", self.r.u8())?;
        let (what, flag) = match b {
            0xfd => ("ref flag NULL (fd)".to_string(), Flag::Null),
            0xff => ("ref flag NOT_NULL (ff)".to_string(), Flag::Value),
            0x00 => {
                let id = self.next_ref;
                self.next_ref += 1;
                (
                    format!("ref flag REF_VALUE (00): this value takes reference id {id}"),
                    Flag::Value,
                )
            }
            0xfe => {
                let id = io(start, "reference id", self.r.var_u32())?;
                if id >= self.next_ref {
                    return Err(self.stop(
                        start,
                        format!(
                            "back reference to id {id}, but only {} ids were given",
                            self.next_ref
                        ),
                    ));
                }
                (
                    format!("ref flag REF (fe): back reference to id {id}"),
                    Flag::Ref,
                )
            }
            other => {
                return Err(self.stop(
                    start,
                    format!("a reference flag (fd, fe, ff or 00) expected, found 0x{other:02x}"),
                ))
            }
        };
        self.leaf(out, start, what);
        Ok(flag)
    }

    /// A flag, type info and payload (the root, mixed list elements, lone map sides).
    fn flagged_dynamic(&mut self, out: &mut Vec<Node>) -> R<()> {
        if let Flag::Value = self.flag(out)? {
            let info = self.type_info(out)?;
            self.payload(out, info)?;
        }
        Ok(())
    }

    fn type_info(&mut self, out: &mut Vec<Node>) -> R<Info> {
        let start = self.pos();
        let b = io(start, "type id", self.r.u8())?;
        let id = TypeId::from_u8(b)
            .ok_or_else(|| self.stop(start, format!("unknown type id {b} (0x{b:02x})")))?;
        self.leaf(out, start, format!("type {} ({b})", id.name()));
        let mut typedef = None;
        match id {
            TypeId::Enum | TypeId::Struct | TypeId::Ext | TypeId::TypedUnion => {
                let s = self.pos();
                let uid = io(s, "user type id", self.r.var_u32())?;
                self.leaf(out, s, format!("user type id {uid}"));
            }
            TypeId::CompatibleStruct | TypeId::NamedCompatibleStruct => {
                typedef = Some(self.marker(out)?)
            }
            TypeId::NamedEnum | TypeId::NamedStruct | TypeId::NamedExt | TypeId::NamedUnion => {
                if self.compatible {
                    typedef = Some(self.marker(out)?);
                } else {
                    self.meta_string(out, "namespace", MetaStringEncoder::namespace())?;
                    self.meta_string(out, "type name", MetaStringEncoder::type_name())?;
                }
            }
            _ => {}
        }
        Ok(Info { id, typedef })
    }

    fn marker(&mut self, out: &mut Vec<Node>) -> R<usize> {
        let start = self.pos();
        let m = io(start, "meta-share marker", self.r.var_u32())?;
        let index = (m >> 1) as usize;
        if m & 1 == 1 {
            if index >= self.typedefs.len() {
                return Err(self.stop(
                    start,
                    format!(
                        "meta-share marker refers to TypeDef {index}, but {} were read",
                        self.typedefs.len()
                    ),
                ));
            }
            self.leaf(
                out,
                start,
                format!(
                    "meta-share marker {m}: TypeDef {index} again ({})",
                    self.typedef_summary(index)
                ),
            );
            return Ok(index);
        }
        if index != self.typedefs.len() {
            return Err(self.stop(
                start,
                format!(
                    "meta-share marker announces TypeDef {index}, the next is {}",
                    self.typedefs.len()
                ),
            ));
        }
        self.leaf(
            out,
            start,
            format!("meta-share marker {m}: new TypeDef {index} follows"),
        );
        let s = self.pos();
        let td = TypeDef::read(&mut self.r, &TypeDefLimits::default())
            .map_err(|e| self.stop(s, format!("TypeDef: {e}")))?;
        self.typedefs.push(td);
        let fields: Vec<String> = self.typedefs[index]
            .fields
            .iter()
            .map(|f| format!("{}: {}", field_name(f), field_type_name(&f.field_type)))
            .collect();
        let what = format!(
            "TypeDef {index}: {}, header 0x{:016x}; fields in wire order: {}",
            self.typedef_summary(index),
            self.typedefs[index].header,
            if fields.is_empty() {
                "none".to_string()
            } else {
                fields.join(", ")
            }
        );
        self.leaf(out, s, what);
        Ok(index)
    }

    fn typedef_summary(&self, index: usize) -> String {
        let Some(td) = self.typedefs.get(index) else {
            return "?".into();
        };
        let reg = match &td.registration {
            TypeDefRegistration::Id(id) => format!("id {id}"),
            TypeDefRegistration::Name {
                namespace,
                type_name,
            } if namespace.is_empty() => format!("{type_name:?}"),
            TypeDefRegistration::Name {
                namespace,
                type_name,
            } => format!("\"{namespace}.{type_name}\""),
        };
        format!(
            "{} {reg}, {} fields",
            if td.is_struct() { "struct" } else { "enum" },
            td.fields.len()
        )
    }

    fn meta_string(
        &mut self,
        out: &mut Vec<Node>,
        role: &str,
        decoder: MetaStringEncoder,
    ) -> R<()> {
        let start = self.pos();
        let h = io(start, "meta-string header", self.r.var_u32())?;
        if h & 1 == 1 {
            let index = (h >> 1) as usize;
            let text = index
                .checked_sub(1)
                .and_then(|i| self.meta.get(i))
                .cloned()
                .ok_or_else(|| self.stop(start, format!("{role}: meta-string back reference {index} to a string not read yet ({} read)", self.meta.len())))?;
            self.leaf(
                out,
                start,
                format!(
                    "{role}: back reference to meta string {} = {}",
                    index - 1,
                    short(&text)
                ),
            );
            return Ok(());
        }
        let len = (h >> 1) as usize;
        if len == 0 {
            self.meta.push(String::new());
            self.leaf(
                out,
                start,
                format!("{role}: empty meta string (entry {})", self.meta.len() - 1),
            );
            return Ok(());
        }
        let enc_byte = if len <= 16 {
            io(start, "meta-string encoding", self.r.u8())?
        } else {
            let hash = io(start, "meta-string hash", self.r.u64())?;
            (hash & 0xff) as u8
        };
        let enc = MetaEncoding::from_id(enc_byte).ok_or_else(|| {
            self.stop(
                start,
                format!("{role}: unknown meta-string encoding {enc_byte}"),
            )
        })?;
        let head = if len <= 16 {
            "encoding byte"
        } else {
            "8-byte hash, low byte the encoding"
        };
        self.leaf(
            out,
            start,
            format!(
                "{role}: new meta string of {len} bytes, {head}: {}",
                enc.name()
            ),
        );
        let s = self.pos();
        let bytes = io(s, "meta-string bytes", self.r.bytes(len))?;
        let text = decoder
            .decode(bytes, enc)
            .map_err(|e| self.stop(s, format!("{role}: {e}")))?;
        self.meta.push(text.clone());
        self.leaf(
            out,
            s,
            format!(
                "{role} {} (meta string {})",
                short(&text),
                self.meta.len() - 1
            ),
        );
        Ok(())
    }

    fn payload(&mut self, out: &mut Vec<Node>, info: Info) -> R<()> {
        let start = self.pos();
        macro_rules! scalar {
            ($read:ident, $name:literal) => {{
                let v = io(start, $name, self.r.$read())?;
                self.leaf(out, start, format!(concat!($name, " {}"), v));
            }};
        }
        match info.id {
            TypeId::Bool => scalar!(bool, "bool"),
            TypeId::Int8 => scalar!(i8, "int8"),
            TypeId::Int16 => scalar!(i16, "int16"),
            TypeId::Int32 => scalar!(i32, "int32"),
            TypeId::VarInt32 => scalar!(var_i32, "varint32"),
            TypeId::Int64 => scalar!(i64, "int64"),
            TypeId::VarInt64 => scalar!(var_i64, "varint64"),
            TypeId::TaggedInt64 => scalar!(tagged_i64, "tagged_int64"),
            TypeId::UInt8 => scalar!(u8, "uint8"),
            TypeId::UInt16 => scalar!(u16, "uint16"),
            TypeId::UInt32 => scalar!(u32, "uint32"),
            TypeId::VarUInt32 => scalar!(var_u32, "var_uint32"),
            TypeId::UInt64 => scalar!(u64, "uint64"),
            TypeId::VarUInt64 => scalar!(var_u64, "var_uint64"),
            TypeId::TaggedUInt64 => scalar!(tagged_u64, "tagged_uint64"),
            TypeId::Float16 | TypeId::BFloat16 => {
                let v = io(start, "16-bit float", self.r.u16())?;
                let f = if info.id == TypeId::Float16 {
                    fury::F16(v).to_f32()
                } else {
                    fury::BF16(v).to_f32()
                };
                self.leaf(
                    out,
                    start,
                    format!("{} bits 0x{v:04x} ({f})", info.id.name().to_lowercase()),
                );
            }
            TypeId::Float32 => {
                let v = io(start, "float32", self.r.f32())?;
                self.leaf(
                    out,
                    start,
                    format!("float32 {v:?} (bits 0x{:08x})", v.to_bits()),
                );
            }
            TypeId::Float64 => {
                let v = io(start, "float64", self.r.f64())?;
                self.leaf(
                    out,
                    start,
                    format!("float64 {v:?} (bits 0x{:016x})", v.to_bits()),
                );
            }
            TypeId::String => self.string(out)?,
            TypeId::Binary
            | TypeId::BoolArray
            | TypeId::Int8Array
            | TypeId::Int16Array
            | TypeId::Int32Array
            | TypeId::Int64Array
            | TypeId::UInt8Array
            | TypeId::UInt16Array
            | TypeId::UInt32Array
            | TypeId::UInt64Array
            | TypeId::Float16Array
            | TypeId::BFloat16Array
            | TypeId::Float32Array
            | TypeId::Float64Array => self.dense(out, info.id)?,
            TypeId::Duration => {
                let s = io(start, "duration seconds", self.r.var_i64())?;
                self.leaf(out, start, format!("duration seconds {s} (varint64)"));
                let n0 = self.pos();
                let n = io(n0, "duration nanos", self.r.i32())?;
                self.leaf(out, n0, format!("duration nanos {n} (int32)"));
            }
            TypeId::Timestamp => {
                let s = io(start, "timestamp seconds", self.r.i64())?;
                self.leaf(out, start, format!("timestamp seconds {s} (int64)"));
                let n0 = self.pos();
                let n = io(n0, "timestamp nanos", self.r.u32())?;
                self.leaf(out, n0, format!("timestamp nanos {n} (uint32)"));
            }
            TypeId::Date => scalar!(var_i64, "date: days since 1970-01-01, varint64"),
            TypeId::None => {}
            TypeId::List | TypeId::Set => self.collection(out, info.id, None)?,
            TypeId::Map => self.map(out, None, None)?,
            TypeId::Enum | TypeId::NamedEnum => scalar!(var_u32, "enum variant id"),
            TypeId::Struct | TypeId::NamedStruct => {
                let h = io(start, "struct hash", self.r.i32())?;
                self.leaf(
                    out,
                    start,
                    format!("struct schema hash {h} (0x{:08x})", h as u32),
                );
                let at = self.pos();
                return Err(Stop {
                    offset: at,
                    why: "a same-schema struct's fields follow, which only its type describes"
                        .into(),
                    needs_type: true,
                });
            }
            TypeId::CompatibleStruct | TypeId::NamedCompatibleStruct => {
                let index = info.typedef.unwrap_or(usize::MAX);
                let fields = self
                    .typedefs
                    .get(index)
                    .map(|t| t.fields.clone())
                    .ok_or_else(|| self.stop(start, "a compatible struct without a TypeDef"))?;
                for f in &fields {
                    let what = format!(
                        "field {}: {}",
                        field_name(f),
                        field_type_name(&f.field_type)
                    );
                    self.group(out, what, |p, o| p.field(o, &f.field_type))?;
                }
            }
            other => {
                return Err(self.stop(
                    start,
                    format!("the payload of {} is not inspected", other.name()),
                ))
            }
        }
        Ok(())
    }

    fn string(&mut self, out: &mut Vec<Node>) -> R<()> {
        let start = self.pos();
        let h = io(start, "string header", self.r.var_u64())?;
        let len =
            usize::try_from(h >> 2).map_err(|_| self.stop(start, "string length too large"))?;
        let enc = match h & 3 {
            0 => "LATIN1",
            1 => "UTF-16LE",
            2 => "UTF-8",
            _ => return Err(self.stop(start, "string encoding 3 is reserved")),
        };
        self.leaf(out, start, format!("string header {h}: {len} bytes, {enc}"));
        if len == 0 {
            return Ok(());
        }
        let s = self.pos();
        let b = io(s, "string bytes", self.r.bytes(len))?;
        let text = match h & 3 {
            0 => latin1(b),
            1 => {
                if !len.is_multiple_of(2) {
                    return Err(self.stop(s, "UTF-16 string of an odd byte length"));
                }
                let units: Vec<u16> = b
                    .chunks_exact(2)
                    .map(|c| u16::from_le_bytes([c[0], c[1]]))
                    .collect();
                String::from_utf16(&units).map_err(|e| self.stop(s, format!("UTF-16: {e}")))?
            }
            _ => std::str::from_utf8(b)
                .map_err(|e| self.stop(s, format!("UTF-8: {e}")))?
                .to_string(),
        };
        self.leaf(out, s, format!("string {}", short(&text)));
        Ok(())
    }

    fn dense(&mut self, out: &mut Vec<Node>, id: TypeId) -> R<()> {
        let start = self.pos();
        let n = io(start, "byte length", self.r.var_u32())? as usize;
        let size = match id {
            TypeId::Binary | TypeId::BoolArray | TypeId::Int8Array | TypeId::UInt8Array => 1,
            TypeId::Int16Array
            | TypeId::UInt16Array
            | TypeId::Float16Array
            | TypeId::BFloat16Array => 2,
            TypeId::Int32Array | TypeId::UInt32Array | TypeId::Float32Array => 4,
            _ => 8,
        };
        if !n.is_multiple_of(size) {
            return Err(self.stop(
                start,
                format!("{} byte length {n} is not a multiple of {size}", id.name()),
            ));
        }
        self.leaf(
            out,
            start,
            format!("byte length {n} ({} elements of {size} bytes)", n / size),
        );
        if n > 0 {
            let s = self.pos();
            let b = io(s, "array bytes", self.r.bytes(n))?;
            let shown: Vec<String> = b
                .chunks(size)
                .take(8)
                .map(|c| {
                    let mut w = [0u8; 8];
                    w[..c.len()].copy_from_slice(c);
                    let v = u64::from_le_bytes(w);
                    match id {
                        TypeId::Int8Array => (v as u8 as i8).to_string(),
                        TypeId::Int16Array => (v as u16 as i16).to_string(),
                        TypeId::Int32Array => (v as u32 as i32).to_string(),
                        TypeId::Int64Array => (v as i64).to_string(),
                        TypeId::Float32Array => format!("{:?}", f32::from_bits(v as u32)),
                        TypeId::Float64Array => format!("{:?}", f64::from_bits(v)),
                        TypeId::BoolArray => (v != 0).to_string(),
                        TypeId::Float16Array | TypeId::BFloat16Array | TypeId::Binary => {
                            format!("{v:0w$x}", w = size * 2)
                        }
                        _ => v.to_string(),
                    }
                })
                .collect();
            let more = if n / size > 8 { ", …" } else { "" };
            self.leaf(
                out,
                s,
                format!("{} [{}{more}]", id.name().to_lowercase(), shown.join(", ")),
            );
        }
        Ok(())
    }

    /// A list or set payload; `decl` is the element type a struct field declares.
    fn collection(&mut self, out: &mut Vec<Node>, kind: TypeId, decl: Option<&FieldType>) -> R<()> {
        let start = self.pos();
        let n = io(start, "element count", self.r.var_u32())?;
        self.leaf(out, start, format!("{} of {n} elements", kind.name()));
        if n == 0 {
            return Ok(());
        }
        if n as usize > self.r.remaining() {
            return Err(self.stop(
                start,
                format!("{n} elements, but only {} bytes remain", self.r.remaining()),
            ));
        }
        let hs = self.pos();
        let h = io(hs, "elements header", self.r.u8())?;
        let (track, nulls, declared, same) = (h & 1 != 0, h & 2 != 0, h & 4 != 0, h & 8 != 0);
        let mut bits = Vec::new();
        for (on, name) in [
            (track, "TRACKING_REF"),
            (nulls, "HAS_NULL"),
            (declared, "DECL_TYPE"),
            (same, "SAME_TYPE"),
        ] {
            if on {
                bits.push(name);
            }
        }
        self.leaf(
            out,
            hs,
            format!(
                "elements header 0x{h:02x}: {}",
                if bits.is_empty() {
                    "a type info per element".to_string()
                } else {
                    bits.join(" | ")
                }
            ),
        );
        if h & 0xf0 != 0 {
            return Err(self.stop(
                hs,
                format!("elements header bits 0x{:02x} are reserved", h & 0xf0),
            ));
        }
        if declared && decl.is_none() {
            return Err(self.stop(
                hs,
                "DECL_TYPE outside a declared field: the element type is not on the wire",
            ));
        }
        let elem: Option<Info> = if !declared && same {
            Some(self.type_info(out)?)
        } else {
            None
        };
        for i in 0..n {
            self.group(out, format!("[{i}]"), |p, o| {
                let flagged = track || nulls;
                if flagged && !matches!(p.flag(o)?, Flag::Value) {
                    return Ok(());
                }
                match (declared, elem) {
                    (true, _) => p.declared(o, decl_elem(decl)),
                    (false, Some(info)) => p.payload(o, info),
                    (false, None) => {
                        let info = p.type_info(o)?;
                        p.payload(o, info)
                    }
                }
            })?;
        }
        Ok(())
    }

    /// A map payload; `kdecl` / `vdecl` are the key and value types a struct field declares.
    fn map(
        &mut self,
        out: &mut Vec<Node>,
        kdecl: Option<&FieldType>,
        vdecl: Option<&FieldType>,
    ) -> R<()> {
        let start = self.pos();
        let n = io(start, "pair count", self.r.var_u32())?;
        self.leaf(out, start, format!("MAP of {n} pairs"));
        let mut left = n;
        let mut chunk = 0;
        while left > 0 {
            let cs = self.pos();
            let h = io(cs, "chunk header", self.r.u8())?;
            if h & 0xc0 != 0 {
                return Err(self.stop(
                    cs,
                    format!("chunk header bits 0x{:02x} are reserved", h & 0xc0),
                ));
            }
            let names = [
                (1, "KEY_TRACK_REF"),
                (2, "KEY_NULL"),
                (4, "KEY_DECLARED"),
                (8, "VALUE_TRACK_REF"),
                (0x10, "VALUE_NULL"),
                (0x20, "VALUE_DECLARED"),
            ];
            let bits: Vec<&str> = names
                .iter()
                .filter(|(b, _)| h & b != 0)
                .map(|(_, n)| *n)
                .collect();
            let hdesc = format!(
                "chunk header 0x{h:02x}: {}",
                if bits.is_empty() {
                    "-".to_string()
                } else {
                    bits.join(" | ")
                }
            );
            let what = format!("chunk {chunk}");
            chunk += 1;
            if h & 0x12 != 0 {
                // a pair with a null key or value is a chunk of its own
                left -= 1;
                self.group(out, what, |p, o| {
                    p.leaf(o, cs, hdesc);
                    let (key_null, value_null) = (h & 2 != 0, h & 0x10 != 0);
                    if !key_null {
                        p.group(o, "key".into(), |p, o| {
                            p.lone_side(o, h & 4 != 0, h & 1 != 0, kdecl)
                        })?;
                    }
                    if !value_null {
                        p.group(o, "value".into(), |p, o| {
                            p.lone_side(o, h & 0x20 != 0, h & 8 != 0, vdecl)
                        })?;
                    }
                    Ok(())
                })?;
                continue;
            }
            let mut size = 0u32;
            self.group(out, what, |p, o| {
                p.leaf(o, cs, hdesc);
                let ss = p.pos();
                size = u32::from(io(ss, "chunk size", p.r.u8())?);
                p.leaf(o, ss, format!("chunk size {size}"));
                if size == 0 || size > left {
                    return Err(p.stop(ss, format!("chunk size {size} with {left} pairs left")));
                }
                let kinfo = if h & 4 == 0 {
                    Some(p.type_info(o)?)
                } else {
                    None
                };
                let vinfo = if h & 0x20 == 0 {
                    Some(p.type_info(o)?)
                } else {
                    None
                };
                for i in 0..size {
                    p.group(o, format!("pair {i}"), |p, o| {
                        p.group(o, "key".into(), |p, o| {
                            p.chunk_side(o, h & 1 != 0, kinfo, kdecl)
                        })?;
                        p.group(o, "value".into(), |p, o| {
                            p.chunk_side(o, h & 8 != 0, vinfo, vdecl)
                        })
                    })?;
                }
                Ok(())
            })?;
            left -= size;
        }
        Ok(())
    }

    /// The present side of a null pair: a flag exactly when its track-ref bit is set (spec
    /// 04 §4.4: pyfory sets it and writes the flag, the official crate writes neither).
    fn lone_side(
        &mut self,
        out: &mut Vec<Node>,
        declared: bool,
        track: bool,
        decl: Option<&FieldType>,
    ) -> R<()> {
        if track && !matches!(self.flag(out)?, Flag::Value) {
            return Ok(());
        }
        if declared {
            let d = decl.cloned().ok_or_else(|| {
                let at = self.pos();
                self.stop(at, "a declared map side outside a declared field")
            })?;
            return self.declared(out, d);
        }
        let info = self.type_info(out)?;
        self.payload(out, info)
    }

    fn chunk_side(
        &mut self,
        out: &mut Vec<Node>,
        track: bool,
        info: Option<Info>,
        decl: Option<&FieldType>,
    ) -> R<()> {
        if track && !matches!(self.flag(out)?, Flag::Value) {
            return Ok(());
        }
        match info {
            Some(i) => self.payload(out, i),
            None => {
                let d = decl.cloned().ok_or_else(|| {
                    let at = self.pos();
                    self.stop(at, "a declared map side outside a declared field")
                })?;
                self.declared(out, d)
            }
        }
    }

    /// A struct field of a compatible struct, by its TypeDef field type.
    fn field(&mut self, out: &mut Vec<Node>, t: &FieldType) -> R<()> {
        let kind = TypeId::from_u8(t.type_id).unwrap_or(TypeId::Unknown);
        let dynamic = matches!(kind, TypeId::Unknown);
        // spec 09 §9.8: a ref field of an inline kind has no flag (only the nullable one);
        // a field of type `any` carries none unless it is nullable or ref
        let inline =
            t.type_id <= TypeId::Float64 as u8 && kind != TypeId::Unknown || kind == TypeId::String;
        let inline = inline && !matches!(kind, TypeId::Float16 | TypeId::BFloat16 | TypeId::Float8);
        if (t.nullable || (t.track_ref && !inline)) && !matches!(self.flag(out)?, Flag::Value) {
            return Ok(());
        }
        if dynamic {
            let info = self.type_info(out)?;
            return self.payload(out, info);
        }
        self.declared(out, t.clone())
    }

    /// A value whose type is declared (struct fields, declared elements and map sides).
    fn declared(&mut self, out: &mut Vec<Node>, t: FieldType) -> R<()> {
        let kind = TypeId::from_u8(t.type_id).unwrap_or(TypeId::Unknown);
        match kind {
            TypeId::List | TypeId::Set => self.collection(out, kind, Some(&t)),
            TypeId::Map => self.map(out, t.children.first(), t.children.get(1)),
            TypeId::Enum | TypeId::NamedEnum => {
                let s = self.pos();
                let v = io(s, "enum variant id", self.r.var_u32())?;
                self.leaf(out, s, format!("enum variant id {v}"));
                Ok(())
            }
            TypeId::Unknown
            | TypeId::Struct
            | TypeId::NamedStruct
            | TypeId::CompatibleStruct
            | TypeId::NamedCompatibleStruct
            | TypeId::Ext
            | TypeId::NamedExt => {
                // struct-typed positions carry their type info every time in this mode
                let info = self.type_info(out)?;
                self.payload(out, info)
            }
            other => self.payload(
                out,
                Info {
                    id: other,
                    typedef: None,
                },
            ),
        }
    }
}

/// The declared element type of a list/set field type.
fn decl_elem(decl: Option<&FieldType>) -> FieldType {
    decl.and_then(|d| d.children.first())
        .cloned()
        .unwrap_or_else(|| FieldType::leaf(TypeId::Unknown))
}

impl Inspection {
    /// The tree as text: one line per node, `offset  bytes  meaning`, indented by depth.
    pub fn render_text(&self) -> String {
        let mut s = String::new();
        render(&self.root, &self.bytes, 0, &mut s);
        match &self.stop {
            Some(st) if st.needs_type => s.push_str(&format!(
                "stopped at offset {} (0x{:04x}): {}\n",
                st.offset, st.offset, st.why
            )),
            Some(st) => s.push_str(&format!(
                "!! broken at offset {} (0x{:04x}): {}\n",
                st.offset, st.offset, st.why
            )),
            None => {}
        }
        s
    }

    /// The tree as JSON (`fury-inspect/1`): nodes with `offset`, `len`, `hex` (leaves),
    /// `what` and `children`.
    pub fn to_json(&self) -> Json {
        json!({
            "format": "fury-inspect/1",
            "compatible": self.compatible,
            "length": self.bytes.len(),
            "stop": self.stop.as_ref().map(|s| json!({"offset": s.offset, "why": s.why, "needs_type": s.needs_type})),
            "root": node_json(&self.root, &self.bytes),
        })
    }
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

fn node_json(n: &Node, bytes: &[u8]) -> Json {
    let mut j = json!({"offset": n.offset, "len": n.len, "what": n.what});
    if n.children.is_empty() {
        j["hex"] = Json::String(hex(bytes.get(n.offset..n.offset + n.len).unwrap_or(&[])));
    } else {
        j["children"] = Json::Array(n.children.iter().map(|c| node_json(c, bytes)).collect());
    }
    j
}

fn render(n: &Node, bytes: &[u8], depth: usize, out: &mut String) {
    let indent = "  ".repeat(depth);
    if n.children.is_empty() {
        let b = bytes.get(n.offset..n.offset + n.len).unwrap_or(&[]);
        let mut shown: String = b.iter().take(12).map(|x| format!("{x:02x} ")).collect();
        if b.len() > 12 {
            shown.push_str("… ");
        }
        out.push_str(&format!(
            "{:06x}  {shown:<39} {indent}{}\n",
            n.offset, n.what
        ));
    } else {
        out.push_str(&format!(
            "{:06x}  {:<39} {indent}{}\n",
            n.offset, "", n.what
        ));
        for c in &n.children {
            render(c, bytes, depth + 1, out);
        }
    }
}
