//! TypeDef: the self-describing schema of a struct (or named enum) that compatible mode
//! shares once per stream, so a reader with another version of the type can still read it.
//!
//! ```text
//! | 8-byte header (LE u64)                 | [varuint32 size - 255] | body               |
//! | 52-bit hash | 3 reserved | compress | size (8 bits, 255 = more) |                    |
//!
//! body (struct): | meta header | [varuint32 count - 31] | registration | field info ... |
//!   meta header: 0x80 struct | 0x40 compatible | 0x20 by name | field count (5 bits)
//!   registration: varuint32 user id, or namespace and type name (6-bit size, 2-bit encoding)
//!   field info: | header | field type | [field name bytes] |
//!     header: bits 6-7 name encoding (3 = tag id), bits 2-5 size, bit 1 nullable, bit 0 ref
//! ```

use crate::buffer::{Reader, Writer};
use crate::error::{Error, ErrorKind, Result};
use crate::meta::{murmur3_x64_128, MetaEncoding, MetaStringEncoder};
use crate::types::TypeId;

/// Meta header flag: the TypeDef describes a struct.
pub const STRUCT_FLAG: u8 = 0x80;
/// Meta header flag: the struct is in compatible (schema-evolution) mode.
pub const COMPATIBLE_FLAG: u8 = 0x40;
/// Meta header flag: registered by namespace and name.
pub const BY_NAME_FLAG: u8 = 0x20;
/// Field counts from this value on continue in a varuint32.
pub const SMALL_FIELD_COUNT: usize = 0x1f;
/// Header size field value meaning "size continues in a varuint32".
pub const SIZE_MASK: u64 = 0xff;
/// Header bit: the body is compressed (never written by this crate; rejected on read).
pub const COMPRESS_FLAG: u64 = 1 << 8;
/// Bits of the header holding the 52-bit hash.
pub const HASH_MASK: u64 = !((1u64 << 12) - 1);
/// TypeDef name size values from this on continue in a varuint32.
const BIG_NAME: usize = 0x3f;
/// Field name sizes (minus one) and tag ids from this on continue in a varuint32.
const FIELD_SIZE_INLINE: usize = 0x0f;
/// Field header name-encoding value meaning "tag id instead of a name".
const TAG_ID_ENCODING: u8 = 3;

/// The declared type of a TypeDef field, with the types of its elements.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct FieldType {
    /// Internal type id (a struct field carries the kind only, e.g. COMPATIBLE_STRUCT).
    pub type_id: u8,
    /// The field (or element) may be null.
    pub nullable: bool,
    /// Reference tracking is on for it.
    pub track_ref: bool,
    /// Element type of a list or set; key and value types of a map.
    pub children: Vec<FieldType>,
}

impl FieldType {
    /// The heap bytes of its children, recursively.
    fn heap_bytes(&self) -> usize {
        self.children.capacity() * std::mem::size_of::<FieldType>()
            + self
                .children
                .iter()
                .map(FieldType::heap_bytes)
                .sum::<usize>()
    }

    /// A type without children.
    pub fn leaf(id: TypeId) -> Self {
        FieldType {
            type_id: id as u8,
            nullable: false,
            track_ref: false,
            children: Vec::new(),
        }
    }

    /// Sets the ref bit of this type and of every nested element type.
    pub fn set_track_ref_deep(&mut self, on: bool) {
        self.track_ref = on;
        for c in &mut self.children {
            c.set_track_ref_deep(on);
        }
    }

    /// The internal type, if the id is known.
    pub fn id(&self) -> Option<TypeId> {
        TypeId::from_u8(self.type_id)
    }

    fn write_nested(&self, w: &mut Writer) {
        let v =
            ((self.type_id as u32) << 2) | ((self.nullable as u32) << 1) | self.track_ref as u32;
        w.var_u32(v);
        self.write_children(w);
    }

    fn write_children(&self, w: &mut Writer) {
        for c in &self.children {
            c.write_nested(w);
        }
    }

    fn read_children(&mut self, r: &mut Reader, depth: u32) -> Result<()> {
        let n = match TypeId::from_u8(self.type_id) {
            Some(TypeId::List | TypeId::Set) => 1,
            Some(TypeId::Map) => 2,
            _ => 0,
        };
        for _ in 0..n {
            self.children.push(FieldType::read_nested(r, depth + 1)?);
        }
        Ok(())
    }

    fn read_nested(r: &mut Reader, depth: u32) -> Result<Self> {
        if depth > MAX_TYPE_NESTING {
            return Err(r.error(ErrorKind::DepthLimit {
                limit: MAX_TYPE_NESTING,
            }));
        }
        let at = r.position();
        let v = r.var_u32()?;
        let type_id = u8::try_from(v >> 2).map_err(|_| {
            Error::at(
                ErrorKind::Invalid {
                    what: format!("field type id {} out of range", v >> 2),
                },
                at,
            )
        })?;
        let mut t = FieldType {
            type_id,
            nullable: v & 2 != 0,
            track_ref: v & 1 != 0,
            children: Vec::new(),
        };
        t.read_children(r, depth)?;
        Ok(t)
    }
}

/// Deepest nesting of list/set/map field types accepted in a TypeDef.
pub const MAX_TYPE_NESTING: u32 = 32;

/// How a TypeDef field is identified.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum FieldId {
    /// By name (the peer's field name, matched by its snake_case form).
    Name(String),
    /// By tag id.
    Tag(u32),
}

/// One field of a TypeDef.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct FieldInfo {
    /// Name or tag id.
    pub id: FieldId,
    /// Declared type; `nullable`/`track_ref` of the top level come from the field header.
    pub field_type: FieldType,
}

/// How the described type is registered.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum TypeDefRegistration {
    /// By user type id.
    Id(u32),
    /// By namespace and type name.
    Name {
        /// Namespace (may be empty).
        namespace: String,
        /// Type name.
        type_name: String,
    },
}

/// A parsed (or locally built) TypeDef.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TypeDef {
    /// The 8-byte header: hash, flags and size.
    pub header: u64,
    /// The first byte of the body.
    pub meta_header: u8,
    /// Registration of the described type.
    pub registration: TypeDefRegistration,
    /// Fields in the order their values are written.
    pub fields: Vec<FieldInfo>,
    /// The complete encoding, header included.
    pub encoded: Vec<u8>,
}

/// Limits applied when parsing a TypeDef from untrusted input.
#[derive(Debug, Clone, Copy)]
pub struct TypeDefLimits {
    /// Largest accepted body size in bytes.
    pub max_size: usize,
    /// Largest accepted field count.
    pub max_fields: usize,
}

impl Default for TypeDefLimits {
    fn default() -> Self {
        TypeDefLimits {
            max_size: 64 * 1024,
            max_fields: 1024,
        }
    }
}

impl TypeDef {
    /// The heap bytes this parsed definition holds (its encoding, fields, names and nested
    /// types): what keeping it costs a connection or a cache.
    pub fn heap_bytes(&self) -> usize {
        let fields: usize = self
            .fields
            .iter()
            .map(|f| {
                let name = match &f.id {
                    FieldId::Name(n) => n.capacity(),
                    FieldId::Tag(_) => 0,
                };
                name + f.field_type.heap_bytes()
            })
            .sum();
        self.encoded.capacity() + self.fields.capacity() * std::mem::size_of::<FieldInfo>() + fields
    }
}

impl TypeDef {
    /// True for a struct TypeDef.
    pub fn is_struct(&self) -> bool {
        self.meta_header & STRUCT_FLAG != 0
    }

    /// The 52-bit identity in the high bits of the header (with the size bits, as compared
    /// by readers that cache TypeDefs).
    pub fn id(&self) -> u64 {
        self.header
    }

    /// Encodes a struct TypeDef.
    pub fn encode_struct(
        registration: &TypeDefRegistration,
        compatible: bool,
        fields: &[FieldInfo],
    ) -> Result<Vec<u8>> {
        let mut body = Vec::new();
        let mut w = Writer::new(&mut body);
        let n = fields.len();
        let mut mh = STRUCT_FLAG | n.min(SMALL_FIELD_COUNT) as u8;
        if compatible {
            mh |= COMPATIBLE_FLAG;
        }
        if matches!(registration, TypeDefRegistration::Name { .. }) {
            mh |= BY_NAME_FLAG;
        }
        w.u8(mh);
        if n >= SMALL_FIELD_COUNT {
            w.var_u32((n - SMALL_FIELD_COUNT) as u32);
        }
        write_registration(&mut w, registration)?;
        for f in fields {
            write_field(&mut w, f)?;
        }
        drop(w);
        Ok(with_header(body))
    }

    /// Encodes the TypeDef of a named enum (kind code 1), which carries no fields.
    pub fn encode_named_enum(namespace: &str, type_name: &str) -> Result<Vec<u8>> {
        let mut body = Vec::new();
        let mut w = Writer::new(&mut body);
        w.u8(1);
        write_registration(
            &mut w,
            &TypeDefRegistration::Name {
                namespace: namespace.to_string(),
                type_name: type_name.to_string(),
            },
        )?;
        drop(w);
        Ok(with_header(body))
    }

    /// Reads the 8-byte header (and size extension) at the reader's position, returning the
    /// header and the body size, without reading the body.
    pub fn read_header(r: &mut Reader, limits: &TypeDefLimits) -> Result<(u64, usize)> {
        let at = r.position();
        let header = r.u64()?;
        if header & COMPRESS_FLAG != 0 || header & (0b111 << 9) != 0 {
            return Err(Error::at(
                ErrorKind::Unsupported {
                    what: format!("TypeDef header {header:#018x} with compressed or reserved bits"),
                },
                at,
            ));
        }
        let mut size = (header & SIZE_MASK) as usize;
        if size == SIZE_MASK as usize {
            size += r.var_u32()? as usize;
        }
        if size > limits.max_size {
            return Err(Error::at(
                ErrorKind::LengthTooLarge {
                    what: "TypeDef",
                    declared: size as u64,
                    limit: limits.max_size as u64,
                },
                at,
            ));
        }
        let size = r.check_count("TypeDef", size as u64, 1, at)?;
        Ok((header, size))
    }

    /// Parses a TypeDef (header included) at the reader's position, checking its hash.
    pub fn read(r: &mut Reader, limits: &TypeDefLimits) -> Result<TypeDef> {
        let start = r.position();
        let (header, size) = Self::read_header(r, limits)?;
        let body_at = r.position();
        let body = r.bytes(size)?;
        let low = header & !HASH_MASK;
        if header_hash(body, low) != header & HASH_MASK {
            return Err(Error::at(
                ErrorKind::Invalid {
                    what: "TypeDef hash does not match its body".to_string(),
                },
                start,
            ));
        }
        let mut td = parse_body(body, body_at, limits)?;
        td.header = header;
        td.encoded = r_slice(r, start)?;
        Ok(td)
    }
}

fn r_slice(r: &Reader, start: usize) -> Result<Vec<u8>> {
    r.consumed_since(start).map(<[u8]>::to_vec)
}

/// The 52-bit hash of a body: MurmurHash3 x64_128 (seed 47) of the body followed by the two
/// low header bytes; the first half shifted left by 12, made non-negative as a signed value.
fn header_hash(body: &[u8], low_bits: u64) -> u64 {
    let mut input = Vec::with_capacity(body.len() + 2);
    input.extend_from_slice(body);
    input.push((low_bits & 0xff) as u8);
    input.push(((low_bits >> 8) & 0xff) as u8);
    let (h1, _) = murmur3_x64_128(&input, 47);
    let shifted = (h1 << 12) as i64;
    let positive = if shifted != i64::MIN && shifted < 0 {
        -shifted
    } else {
        shifted
    };
    positive as u64 & HASH_MASK
}

fn with_header(body: Vec<u8>) -> Vec<u8> {
    let size = body.len() as u64;
    let low = size.min(SIZE_MASK);
    let header = header_hash(&body, low) | low;
    let mut out = Vec::with_capacity(body.len() + 13);
    let mut w = Writer::new(&mut out);
    w.u64(header);
    if size >= SIZE_MASK {
        w.var_u32((size - SIZE_MASK) as u32);
    }
    w.bytes(&body);
    drop(w);
    out
}

fn write_name(w: &mut Writer, encoder: &MetaStringEncoder, s: &str) -> Result<()> {
    let ms = encoder.encode(s)?;
    let flag = encoder
        .encodings()
        .iter()
        .position(|e| *e == ms.encoding())
        .unwrap_or(0) as u8;
    let len = ms.bytes().len();
    if len >= BIG_NAME {
        w.u8(((BIG_NAME as u8) << 2) | flag);
        w.var_u32((len - BIG_NAME) as u32);
    } else {
        w.u8(((len as u8) << 2) | flag);
    }
    w.bytes(ms.bytes());
    Ok(())
}

fn read_name(r: &mut Reader, encoder: &MetaStringEncoder) -> Result<String> {
    let at = r.position();
    let b = r.u8()?;
    let flag = (b & 3) as usize;
    let mut len = (b >> 2) as usize;
    if len == BIG_NAME {
        len += r.var_u32()? as usize;
    }
    let encoding = *encoder.encodings().get(flag).ok_or_else(|| {
        Error::at(
            ErrorKind::Invalid {
                what: format!("TypeDef name encoding flag {flag} is not defined here"),
            },
            at,
        )
    })?;
    let len = r.check_count("TypeDef name", len as u64, 1, at)?;
    let bytes = r.bytes(len)?;
    encoder
        .decode(bytes, encoding)
        .map_err(|e| Error::at(e.kind().clone(), at))
}

fn write_registration(w: &mut Writer, reg: &TypeDefRegistration) -> Result<()> {
    match reg {
        TypeDefRegistration::Id(id) => w.var_u32(*id),
        TypeDefRegistration::Name {
            namespace,
            type_name,
        } => {
            write_name(w, &MetaStringEncoder::typedef_namespace(), namespace)?;
            write_name(w, &MetaStringEncoder::typedef_type_name(), type_name)?;
        }
    }
    Ok(())
}

fn write_field(w: &mut Writer, f: &FieldInfo) -> Result<()> {
    let mut header = (f.field_type.nullable as u8) << 1 | f.field_type.track_ref as u8;
    let name_bytes;
    let size = match &f.id {
        FieldId::Tag(tag) => {
            header |= TAG_ID_ENCODING << 6;
            name_bytes = None;
            *tag as usize
        }
        FieldId::Name(name) => {
            let enc = MetaStringEncoder::field_name();
            let ms = enc.encode(name)?;
            let flag = enc
                .encodings()
                .iter()
                .position(|e| *e == ms.encoding())
                .unwrap_or(0) as u8;
            header |= flag << 6;
            let len = ms.bytes().len();
            if len == 0 {
                return Err(Error::new(ErrorKind::Invalid {
                    what: "empty field name".to_string(),
                }));
            }
            name_bytes = Some(ms.bytes().to_vec());
            len - 1
        }
    };
    if size >= FIELD_SIZE_INLINE {
        w.u8(header | (FIELD_SIZE_INLINE as u8) << 2);
        w.var_u32((size - FIELD_SIZE_INLINE) as u32);
    } else {
        w.u8(header | (size as u8) << 2);
    }
    w.u8(f.field_type.type_id);
    f.field_type.write_children(w);
    if let Some(b) = name_bytes {
        w.bytes(&b);
    }
    Ok(())
}

fn parse_body(body: &[u8], body_at: usize, limits: &TypeDefLimits) -> Result<TypeDef> {
    let mut r = Reader::new(body);
    let shift = |e: Error| match e.offset() {
        Some(o) => Error::at(e.kind().clone(), body_at + o),
        None => e,
    };
    let meta_header = r.u8().map_err(shift)?;
    if meta_header & STRUCT_FLAG == 0 {
        // A non-struct TypeDef: a kind code (0 enum, 1 named enum, 2 ext, 3 named ext, 4 typed
        // union, 5 named union), then the registration.
        if meta_header > 5 {
            return Err(Error::at(
                ErrorKind::Invalid {
                    what: format!("unknown TypeDef kind code {meta_header}"),
                },
                body_at,
            ));
        }
        let registration = if meta_header & 1 == 1 {
            read_named(&mut r).map_err(shift)?
        } else {
            TypeDefRegistration::Id(r.var_u32().map_err(shift)?)
        };
        return Ok(TypeDef {
            header: 0,
            meta_header,
            registration,
            fields: Vec::new(),
            encoded: Vec::new(),
        });
    }
    let mut n = (meta_header as usize) & SMALL_FIELD_COUNT;
    if n == SMALL_FIELD_COUNT {
        n += r.var_u32().map_err(shift)? as usize;
    }
    if n > limits.max_fields {
        return Err(Error::at(
            ErrorKind::LengthTooLarge {
                what: "TypeDef field count",
                declared: n as u64,
                limit: limits.max_fields as u64,
            },
            body_at,
        ));
    }
    // Every field takes at least two bytes (header and type).
    r.check_count("TypeDef fields", n as u64, 2, 0)
        .map_err(shift)?;
    let registration = if meta_header & BY_NAME_FLAG != 0 {
        read_named(&mut r).map_err(shift)?
    } else {
        TypeDefRegistration::Id(r.var_u32().map_err(shift)?)
    };
    let mut fields: Vec<FieldInfo> = Vec::with_capacity(n);
    for _ in 0..n {
        let at = r.position();
        let f = read_field(&mut r).map_err(shift)?;
        if fields.iter().any(|g| g.id == f.id) {
            return Err(Error::at(
                ErrorKind::Invalid {
                    what: format!("TypeDef lists field {:?} twice", f.id),
                },
                body_at + at,
            ));
        }
        fields.push(f);
    }
    if r.remaining() != 0 {
        return Err(Error::at(
            ErrorKind::Invalid {
                what: format!(
                    "{} unread bytes at the end of a TypeDef body",
                    r.remaining()
                ),
            },
            body_at + r.position(),
        ));
    }
    Ok(TypeDef {
        header: 0,
        meta_header,
        registration,
        fields,
        encoded: Vec::new(),
    })
}

fn read_named(r: &mut Reader) -> Result<TypeDefRegistration> {
    let namespace = read_name(r, &MetaStringEncoder::typedef_namespace())?;
    let type_name = read_name(r, &MetaStringEncoder::typedef_type_name())?;
    Ok(TypeDefRegistration::Name {
        namespace,
        type_name,
    })
}

fn read_field(r: &mut Reader) -> Result<FieldInfo> {
    let at = r.position();
    let header = r.u8()?;
    let mut size = ((header >> 2) & 0x0f) as usize;
    if size == FIELD_SIZE_INLINE {
        size += r.var_u32()? as usize;
    }
    let type_id = r.u8()?;
    let mut field_type = FieldType {
        type_id,
        nullable: header & 2 != 0,
        track_ref: header & 1 != 0,
        children: Vec::new(),
    };
    field_type.read_children(r, 0)?;
    let encoding = header >> 6;
    let id = if encoding == TAG_ID_ENCODING {
        FieldId::Tag(u32::try_from(size).map_err(|_| {
            Error::at(
                ErrorKind::Invalid {
                    what: "tag id out of range".to_string(),
                },
                at,
            )
        })?)
    } else {
        let enc = MetaStringEncoder::field_name();
        let encoding: MetaEncoding = *enc.encodings().get(encoding as usize).ok_or_else(|| {
            Error::at(
                ErrorKind::Invalid {
                    what: format!("field name encoding flag {encoding}"),
                },
                at,
            )
        })?;
        let len = size + 1;
        let len = r.check_count("field name", len as u64, 1, at)?;
        let bytes = r.bytes(len)?;
        FieldId::Name(
            enc.decode(bytes, encoding)
                .map_err(|e| Error::at(e.kind().clone(), at))?,
        )
    };
    Ok(FieldInfo { id, field_type })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hex(s: &str) -> Vec<u8> {
        s.split_whitespace()
            .map(|b| u8::from_str_radix(b, 16).unwrap())
            .collect()
    }

    /// pyfory 1.7.7, compatible mode: `@dataclass class Point: x: Int32; y: Int32`,
    /// registered with type_id=100.
    const POINT: &str = "08 b0 cd 7c 24 8d af 6d c2 64 40 05 5c 40 05 60";

    #[test]
    fn parses_and_rebuilds_pyfory_point() {
        let bytes = hex(POINT);
        let td = TypeDef::read(&mut Reader::new(&bytes), &TypeDefLimits::default()).unwrap();
        assert_eq!(td.registration, TypeDefRegistration::Id(100));
        assert!(td.is_struct() && td.meta_header & COMPATIBLE_FLAG != 0);
        let names: Vec<_> = td.fields.iter().map(|f| f.id.clone()).collect();
        assert_eq!(
            names,
            [FieldId::Name("x".into()), FieldId::Name("y".into())]
        );
        assert_eq!(td.fields[0].field_type, FieldType::leaf(TypeId::VarInt32));
        let again = TypeDef::encode_struct(&td.registration, true, &td.fields).unwrap();
        assert_eq!(again, bytes);
        assert_eq!(td.encoded, bytes);
    }

    #[test]
    fn rejects_a_wrong_hash_and_truncation() {
        let mut bytes = hex(POINT);
        bytes[9] ^= 1;
        assert!(TypeDef::read(&mut Reader::new(&bytes), &TypeDefLimits::default()).is_err());
        let bytes = hex(POINT);
        for cut in 0..bytes.len() {
            assert!(
                TypeDef::read(&mut Reader::new(&bytes[..cut]), &TypeDefLimits::default()).is_err()
            );
        }
    }
}
