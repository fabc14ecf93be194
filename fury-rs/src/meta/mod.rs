//! The type metadata of the format: meta strings (the compact encoding of namespaces, type
//! names and field names) and TypeDefs (the schema a compatible stream shares for each
//! struct), for tools that read streams without their types, such as `fury inspect`.
//!
//! * [`MetaStringEncoder`] chooses an encoding for a context and encodes or decodes text
//!   ([`MetaString`], [`MetaEncoding`]); inside type info the crate writes and reads them
//!   deduplicated per stream, as described below;
//! * [`murmur3_x64_128`] is the hash that identifies long meta strings on the wire;
//! * [`TypeDef`] parses and builds TypeDefs: the registration ([`TypeDefRegistration`]) and
//!   the fields ([`FieldInfo`]: a [`FieldId`] and a [`FieldType`]), within
//!   [`TypeDefLimits`] for untrusted input.
//!
//! All of it matches pyfory 1.7.7 byte for byte (checked against vectors pyfory wrote, in
//! `conformance/vectors/meta/`). The selection rule is on
//! [`MetaStringEncoder::compute_encoding`].
//!
//! # Encodings
//!
//! A meta string packs a namespace, type name or field name into fewer bytes than UTF-8 when
//! its characters allow it. The packed encodings are bit streams, most significant bit first:
//! bit 0 of byte 0 is the *strip flag*, then one 5- or 6-bit code per character, then zero
//! padding up to the byte boundary. The strip flag is set when the padding is long enough to
//! hold one more character, telling the decoder to drop that phantom character.
//!
//! Character codes (5 bits): `a`–`z` = 0–25, `.` = 26, `_` = 27, `$` = 28, `|` = 29.
//! Character codes (6 bits): `a`–`z` = 0–25, `A`–`Z` = 26–51, `0`–`9` = 52–61, then the
//! context's two special characters as 62 and 63 (`.` `_` for namespaces, `$` `_` for type and
//! field names).
//!
//! # In type info
//!
//! Every meta string (the namespace, then the type name, of a `NAMED_ENUM`, `NAMED_STRUCT`,
//! `NAMED_EXT`, ... in schema-consistent mode) starts with an unsigned varint32 header:
//!
//! * first occurrence in the stream: `header = len << 1`, where `len` is the number of
//!   encoded bytes, then
//!   - `len == 0`: nothing more (the empty string);
//!   - `1 <= len <= 16`: one byte, the [`MetaEncoding`] id, then the `len` bytes;
//!   - `len > 16`: an 8-byte little-endian hash, then the `len` bytes. The hash is the first
//!     64-bit half of MurmurHash3 x64_128 of the bytes with seed 47, with its low byte
//!     replaced by the encoding id (so the encoding travels in the hash);
//! * a repeat: `header = ((id + 1) << 1) | 1`, where `id` counts the first occurrences
//!   written before it in the same stream, from 0. Namespaces and type names share one
//!   numbering, and an empty string takes an id too.
//!
//! Example: `NAMED_ENUM` registered as `"demo.Color"` (type id byte not shown):
//! `06 01 0c 8c 70` (namespace `demo`: len 3, LOWER_SPECIAL, 3 bytes) then
//! `08 03 89 cb 74 40` (type name `Color`: len 4, FIRST_TO_LOWER_SPECIAL, 4 bytes). A second
//! type in the `demo` namespace later in the same stream writes its namespace as `03` (id 0).
//!
//! What counts as "the same" meta string follows pyfory: strings are interned by content
//! (encoding and bytes) when they are non-empty and at most 2048 bytes long, so equal ones
//! are written once per stream whichever registration they come from; the empty string and
//! longer strings are only repeated by reference when they come from the same registration
//! (here: clones of the same encoded meta string of a registration).
//!
//! # Where this differs from pyfory
//!
//! Only where pyfory fails or loses information; every string pyfory encodes faithfully gets
//! the same encoding and bytes here.
//!
//! * Character classes are ASCII. pyfory classifies with Python's Unicode-aware
//!   `islower`/`isupper`/`isdigit` and then raises for non-ASCII letters and digits (`café`,
//!   `x²`); such strings are UTF8 here. The one string family pyfory encodes without error
//!   but lossily (U+212A KELVIN SIGN, lower-cased to ASCII `k`) is UTF8 here too.
//! * In the TypeDef namespace and field-name contexts pyfory picks FIRST_TO_LOWER_SPECIAL for
//!   strings like `Foo` although the context cannot carry it, and raises. Here the rule moves
//!   on to ALL_TO_LOWER_SPECIAL or LOWER_UPPER_DIGIT_SPECIAL.
//! * Decoding accepts only the canonical bytes an encoder produces (see
//!   [`MetaStringEncoder::decode`]); pyfory's decoder is more lenient.
//! * The reader checks the hash of every long meta string; pyfory skips the check when the
//!   hash is already in its cache.
//! * pyfory stops interning after 8192 distinct meta strings per `Fory` instance; that limit
//!   is not reproduced.
//!
//! # Example
//!
//! The TypeDef a compatible stream shares for a registered struct, read back without the
//! type (the crate-internal writing and reading of meta strings in type info is shown by the
//! unit test `doc_examples::meta_strings_are_written_once_per_stream_and_read_back`):
//!
//! ```
//! use fury::meta::{FieldId, MetaEncoding, MetaStringEncoder, TypeDef, TypeDefLimits};
//! use fury::meta::TypeDefRegistration;
//! use fury::wire::Reader;
//! use fury::{Fury, FuryObject};
//!
//! let ns = MetaStringEncoder::namespace().encode("demo")?;
//! assert_eq!((ns.encoding(), ns.bytes()), (MetaEncoding::LowerSpecial, &[0x0c, 0x8c, 0x70][..]));
//!
//! #[derive(FuryObject)]
//! #[fury(namespace = "demo", name = "Point")]
//! struct Point {
//!     x: i32,
//!     y: i32,
//! }
//! let mut fury = Fury::default();
//! fury.register::<Point>()?;
//! let entry = fury.registry().get::<Point>().expect("registered");
//! let bytes = &entry.local_typedef(fury.registry(), true)?.bytes;
//!
//! let def = TypeDef::read(&mut Reader::new(bytes), &TypeDefLimits::default())?;
//! assert!(def.is_struct());
//! assert_eq!(
//!     def.registration,
//!     TypeDefRegistration::Name { namespace: "demo".into(), type_name: "Point".into() }
//! );
//! let names: Vec<_> = def.fields.iter().map(|f| f.id.clone()).collect();
//! assert_eq!(names, [FieldId::Name("x".into()), FieldId::Name("y".into())]);
//! # Ok::<(), fury::Error>(())
//! ```

mod meta_string;
mod murmur3;
pub(crate) mod typedef;
mod wire;

#[cfg(test)]
pub(crate) use meta_string::MAX_META_STRING_CHARS;
pub use meta_string::{MetaEncoding, MetaString, MetaStringEncoder};
pub use murmur3::murmur3_x64_128;
pub use typedef::{FieldId, FieldInfo, FieldType, TypeDef, TypeDefLimits, TypeDefRegistration};
#[cfg(test)]
pub(crate) use wire::meta_string_hash;
pub(crate) use wire::{
    EncodedMetaString, MetaStringReadState, MetaStringWriteState, WireMetaString,
};

#[cfg(test)]
mod tests;
