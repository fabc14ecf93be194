//! Reading serde values by their traced layout. A struct is handed to serde as a map whose
//! keys are field indices (declaration order), in wire order; strings and bytes borrow from
//! the input where the wire form allows it.

use super::shape::{Body, CaseValue, SeqPlan, Shape, Source, StructDef, Table, AHEAD_SLOTS};
use crate::context::ReadContext;
use crate::error::{Error, ErrorKind, Result};
use crate::meta::typedef::FieldType;
use crate::registry::plan::ReadPlan;
use crate::registry::RemoteTypeDef;
use crate::registry::{Registration, UserKind};
use crate::types::{elements, kv, RefFlag, TypeId};
use ::serde::de::{self, DeserializeSeed, IntoDeserializer, Visitor};
use std::sync::Arc;

/// The reading state: the context and the traced types.
pub(crate) struct R<'c, 'de, 'r> {
    pub ctx: &'c mut ReadContext<'de, 'r>,
    pub table: &'c Table,
}

/// Reads the type info of a value of the traced type `i` and checks that it names it;
/// returns the TypeDef its payload follows (compatible mode).
pub(crate) fn read_type_info(r: &mut R, i: usize) -> Result<Option<Arc<RemoteTypeDef>>> {
    let t = r.table.ty(i)?;
    let at = r.ctx.reader.position();
    let id = r.ctx.type_id()?;
    let registry = r.ctx.registry();
    let entry = registry.at(t.entry).ok_or_else(|| {
        Error::new(ErrorKind::Invalid {
            what: format!("{} has no registry entry", t.name),
        })
    })?;
    let mismatch = |found: String| {
        Error::at(
            ErrorKind::TypeMismatch {
                expected: format!("{} ({})", t.name, entry.describe()),
                found,
            },
            at,
        )
    };
    if entry.kind == UserKind::Struct {
        crate::serializer::object::check_struct_mode(r.ctx, id, at)?;
    }
    let shared = matches!(id, TypeId::CompatibleStruct | TypeId::NamedCompatibleStruct)
        || (id == TypeId::NamedEnum && r.ctx.compatible());
    if shared {
        if (entry.kind == UserKind::Struct)
            != matches!(id, TypeId::CompatibleStruct | TypeId::NamedCompatibleStruct)
        {
            return Err(mismatch(id.name().to_string()));
        }
        let def = r.ctx.read_shared_typedef()?;
        if !entry.registration.is(&def.def.registration) {
            return Err(mismatch(format!("a TypeDef of {:?}", def.def.registration)));
        }
        return Ok(Some(def));
    }
    match (&entry.registration, id) {
        (Registration::Id(want), got) if got == entry.kind.id_kind() => {
            let id_at = r.ctx.reader.position();
            let found = r.ctx.reader.var_u32()?;
            if found != *want {
                return Err(Error::at(
                    ErrorKind::TypeMismatch {
                        expected: format!("{} (user type id {want})", t.name),
                        found: format!("user type id {found}"),
                    },
                    id_at,
                ));
            }
            Ok(None)
        }
        (Registration::Name { .. }, got) if got == entry.kind.named_kind() => {
            crate::serializer::object::read_type_name(entry, r.ctx)?;
            Ok(None)
        }
        _ => Err(mismatch(id.name().to_string())),
    }
}

/// Whether a struct field of `shape` carries its type info (as `ser::field_type_info`).
fn field_type_info(r: &R, shape: &Shape) -> bool {
    match shape {
        Shape::Struct(_) if r.ctx.compatible() => true,
        Shape::Struct(i) => r
            .table
            .types
            .get(*i)
            .and_then(|t| r.ctx.registry().at(t.entry))
            .is_some_and(|e| matches!(e.registration, Registration::Name { .. })),
        _ => false,
    }
}

/// Reads the type info of a non-user type that a list or map wrote, checking it against the
/// element's wire type.
fn check_type_id(r: &mut R, shape: &Shape) -> Result<Option<Arc<RemoteTypeDef>>> {
    match shape {
        Shape::Struct(i) | Shape::Enum(i) | Shape::Union(i) => read_type_info(r, *i),
        s => {
            let at = r.ctx.reader.position();
            let id = r.ctx.type_id()?;
            let want = s.type_id(false);
            if id != want {
                return Err(Error::at(
                    ErrorKind::TypeMismatch {
                        expected: want.name().to_string(),
                        found: id.name().to_string(),
                    },
                    at,
                ));
            }
            Ok(None)
        }
    }
}

/// A struct field: null flag, type info, payload. By the local layout, or (`remote`) as the
/// peer's TypeDef declares it, with its nullability and integer encoding (compatible mode,
/// a TypeDef other than the local one; the field's own name for errors).
pub(crate) struct FieldDe<'s, 'c, 'de, 'r> {
    pub r: &'s mut R<'c, 'de, 'r>,
    pub shape: &'s Shape,
    pub fixed: bool,
    pub remote: Option<(&'s FieldType, &'s str)>,
}

fn fixed_of(remote: &FieldType) -> bool {
    matches!(
        TypeId::from_u8(remote.type_id),
        Some(TypeId::Int32 | TypeId::Int64 | TypeId::UInt32 | TypeId::UInt64)
    )
}

/// `deserialize_*` methods that read a value of the matching scalar shape directly (no
/// remote declared type to check), and hand anything else to `deserialize_any`: the common
/// field and element reads then skip the general match.
macro_rules! scalar_fast_paths {
    ($($m:ident => $shape:ident $visit:ident $var:ident $fixed:ident;)*) => {
        $(#[inline(always)]
        fn $m<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
            if self.fast() && matches!(self.shape, Shape::$shape) {
                let reader = &mut self.r.ctx.reader;
                let v = if self.fixed { reader.$fixed()? } else { reader.$var()? };
                return visitor.$visit(v);
            }
            de::Deserializer::deserialize_any(self, visitor)
        })*
        #[inline]
        fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
            if self.fast() && matches!(self.shape, Shape::Str) {
                return match crate::serializer::string::read_str_cow(self.r.ctx)? {
                    std::borrow::Cow::Borrowed(s) => visitor.visit_borrowed_str(s),
                    std::borrow::Cow::Owned(s) => visitor.visit_string(s),
                };
            }
            de::Deserializer::deserialize_any(self, visitor)
        }
        #[inline]
        fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
            de::Deserializer::deserialize_str(self, visitor)
        }
    };
}

macro_rules! scalar_fast_paths_all {
    () => {
        scalar_fast_paths! {
            deserialize_bool => Bool visit_bool bool bool;
            deserialize_i8 => I8 visit_i8 i8 i8;
            deserialize_i16 => I16 visit_i16 i16 i16;
            deserialize_i32 => I32 visit_i32 var_i32 i32;
            deserialize_i64 => I64 visit_i64 var_i64 i64;
            deserialize_u8 => U8 visit_u8 u8 u8;
            deserialize_u16 => U16 visit_u16 u16 u16;
            deserialize_u32 => U32 visit_u32 var_u32 u32;
            deserialize_u64 => U64 visit_u64 var_u64 u64;
            deserialize_f32 => F32 visit_f32 f32 f32;
            deserialize_f64 => F64 visit_f64 f64 f64;
        }
    };
}

impl FieldDe<'_, '_, '_, '_> {
    /// Whether the field is read as its local type without more ado.
    #[inline]
    fn fast(&self) -> bool {
        self.remote.is_none()
    }
}

impl PayloadDe<'_, '_, '_, '_> {
    #[inline]
    fn fast(&self) -> bool {
        true
    }
}

impl<'de> de::Deserializer<'de> for FieldDe<'_, '_, 'de, '_> {
    type Error = Error;

    // Out of line: the fast paths that fall back to it stay small enough to inline.
    #[inline(never)]
    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let (shape, nullable) = match self.shape {
            Shape::Option(inner) => (&**inner, true),
            s => (s, false),
        };
        let (fixed, flagged) = match self.remote {
            None => (self.fixed, nullable),
            Some((remote, name)) => {
                let fixed = fixed_of(remote);
                let local = shape.field_type(self.r.table, self.r.ctx.registry(), fixed);
                if local.type_id != remote.type_id || local.children != remote.children {
                    return Err(self.r.ctx.error(ErrorKind::Unsupported {
                        what: format!(
                            "field {name}: the peer declares type {:?}, this side {:?} (the \
                             serde path reads a field only as its own type)",
                            TypeId::from_u8(remote.type_id),
                            TypeId::from_u8(local.type_id)
                        ),
                    }));
                }
                (fixed, remote.nullable)
            }
        };
        if flagged && self.r.ctx.ref_flag()? == RefFlag::Null {
            if nullable {
                return visitor.visit_none();
            }
            return Err(self.r.ctx.error(ErrorKind::UnexpectedNull {
                expected: format!("field {}", self.remote.map_or("", |(_, n)| n)),
            }));
        }
        let def = match shape {
            Shape::Struct(i) if field_type_info(self.r, shape) => read_type_info(self.r, *i)?,
            _ => None,
        };
        let payload = PayloadDe {
            r: self.r,
            shape,
            fixed,
            def,
        };
        if nullable {
            visitor.visit_some(payload)
        } else {
            de::Deserializer::deserialize_any(payload, visitor)
        }
    }

    scalar_fast_paths_all!();

    ::serde::forward_to_deserialize_any! {
        i128 u128 char bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map struct enum
        identifier ignored_any
    }
}

/// The payload of a value of `shape`; `def` is the TypeDef a struct's payload follows.
pub(crate) struct PayloadDe<'s, 'c, 'de, 'r> {
    pub r: &'s mut R<'c, 'de, 'r>,
    pub shape: &'s Shape,
    pub fixed: bool,
    pub def: Option<Arc<RemoteTypeDef>>,
}

impl<'de> de::Deserializer<'de> for PayloadDe<'_, '_, 'de, '_> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let fixed = self.fixed;
        let ctx = &mut *self.r.ctx;
        match self.shape {
            Shape::Bool => visitor.visit_bool(ctx.reader.bool()?),
            Shape::I8 => visitor.visit_i8(ctx.reader.i8()?),
            Shape::I16 => visitor.visit_i16(ctx.reader.i16()?),
            Shape::I32 if fixed => visitor.visit_i32(ctx.reader.i32()?),
            Shape::I32 => visitor.visit_i32(ctx.reader.var_i32()?),
            Shape::I64 if fixed => visitor.visit_i64(ctx.reader.i64()?),
            Shape::I64 => visitor.visit_i64(ctx.reader.var_i64()?),
            Shape::U8 => visitor.visit_u8(ctx.reader.u8()?),
            Shape::U16 => visitor.visit_u16(ctx.reader.u16()?),
            Shape::U32 if fixed => visitor.visit_u32(ctx.reader.u32()?),
            Shape::U32 => visitor.visit_u32(ctx.reader.var_u32()?),
            Shape::U64 if fixed => visitor.visit_u64(ctx.reader.u64()?),
            Shape::U64 => visitor.visit_u64(ctx.reader.var_u64()?),
            Shape::F32 => visitor.visit_f32(ctx.reader.f32()?),
            Shape::F64 => visitor.visit_f64(ctx.reader.f64()?),
            Shape::Str => match crate::serializer::string::read_str_cow(ctx)? {
                std::borrow::Cow::Borrowed(s) => visitor.visit_borrowed_str(s),
                std::borrow::Cow::Owned(s) => visitor.visit_string(s),
            },
            Shape::Bytes => visitor.visit_borrowed_bytes(ctx.binary()?),
            // A value whose nullness was handled by the caller (an element without nulls).
            Shape::Option(inner) => visitor.visit_some(PayloadDe {
                r: self.r,
                shape: inner,
                fixed,
                def: self.def,
            }),
            Shape::Seq(e) => match e.dense() {
                Some(_) if **e == Shape::U8 => {
                    let bytes = ctx.binary()?;
                    let mut seq =
                        de::value::SeqDeserializer::<_, Error>::new(bytes.iter().copied());
                    let v = visitor.visit_seq(&mut seq)?;
                    // A reader that stops early (a fixed-size array) leaves none.
                    seq.end()?;
                    Ok(v)
                }
                Some(_) => dense(self.r, e, visitor),
                None => list(self.r, e, visitor),
            },
            Shape::Map(k, v) => map(self.r, k, v, visitor),
            Shape::Enum(i) => {
                let at = ctx.reader.position();
                let ordinal = ctx.reader.var_u32()?;
                check_ordinal(self.r.table, *i, ordinal.into(), at)?;
                visitor.visit_enum(UnitVariant(ordinal))
            }
            Shape::Struct(i) => read_struct(self.r, *i, self.def, visitor),
            Shape::Union(i) => {
                let table = self.r.table;
                let t = table.ty(*i)?;
                let Body::Union(cases) = &t.body else {
                    return Err(ctx.error(ErrorKind::Invalid {
                        what: format!("{} is not a union", t.name),
                    }));
                };
                let (id, at) = crate::serializer::union::read_union_case_id(ctx)?;
                let index = id.wrapping_sub(1);
                let Some(case) = cases.get(index as usize) else {
                    return Err(Error::at(
                        ErrorKind::Invalid {
                            what: format!("union case id {id} is not a case of {}", t.name),
                        },
                        at,
                    ));
                };
                ctx.enter()?;
                let v = visitor.visit_enum(UnionAccess {
                    r: &mut *self.r,
                    index,
                    case: &case.value,
                });
                self.r.ctx.leave();
                v
            }
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_any(visitor)
    }

    scalar_fast_paths_all!();

    ::serde::forward_to_deserialize_any! {
        i128 u128 char bytes byte_buf
        unit unit_struct newtype_struct seq tuple tuple_struct map struct enum identifier
        ignored_any
    }
}

/// A value as a serde deserializer whose errors are ours.
trait IntoDe<'de>: IntoDeserializer<'de, Error> + Sized {
    fn into_de(self) -> Self::Deserializer {
        self.into_deserializer()
    }
}

impl<'de, T: IntoDeserializer<'de, Error>> IntoDe<'de> for T {}

/// A union's case: its variant index and what it holds.
struct UnionAccess<'s, 'c, 'de, 'r> {
    r: &'s mut R<'c, 'de, 'r>,
    index: u32,
    case: &'s CaseValue,
}

impl<'de> de::EnumAccess<'de> for UnionAccess<'_, '_, 'de, '_> {
    type Error = Error;
    type Variant = Self;
    fn variant_seed<S: DeserializeSeed<'de>>(self, seed: S) -> Result<(S::Value, Self)> {
        let v = seed.deserialize(self.index.into_de())?;
        Ok((v, self))
    }
}

impl UnionAccess<'_, '_, '_, '_> {
    /// The flag of a case value: NOT_NULL, or REF_VALUE (which the official crate writes
    /// before a struct case).
    fn present(&mut self) -> Result<()> {
        let at = self.r.ctx.reader.position();
        match self.r.ctx.ref_flag()? {
            RefFlag::NotNull | RefFlag::RefValue => Ok(()),
            flag => Err(Error::at(
                ErrorKind::TypeMismatch {
                    expected: "a union case value".to_string(),
                    found: format!("{flag:?}"),
                },
                at,
            )),
        }
    }
}

impl<'de> de::VariantAccess<'de> for UnionAccess<'_, '_, 'de, '_> {
    type Error = Error;
    fn unit_variant(self) -> Result<()> {
        match self.case {
            CaseValue::Unit => crate::serializer::union::read_union_unit(self.r.ctx),
            _ => Err(<Error as de::Error>::custom(
                "a unit case where the type has data",
            )),
        }
    }
    fn newtype_variant_seed<S: DeserializeSeed<'de>>(mut self, seed: S) -> Result<S::Value> {
        let CaseValue::Value(shape) = self.case else {
            return Err(<Error as de::Error>::custom(
                "a value case where the type has none",
            ));
        };
        self.present()?;
        let def = check_type_id(self.r, shape)?;
        seed.deserialize(PayloadDe {
            r: self.r,
            shape,
            fixed: false,
            def,
        })
    }
    fn tuple_variant<V: Visitor<'de>>(mut self, _: usize, visitor: V) -> Result<V::Value> {
        let &CaseValue::Struct(ci) = self.case else {
            return Err(<Error as de::Error>::custom(
                "a tuple case where the type has none",
            ));
        };
        self.present()?;
        let def = read_type_info(self.r, ci)?;
        read_struct(self.r, ci, def, visitor)
    }
    fn struct_variant<V: Visitor<'de>>(
        mut self,
        _: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        let &CaseValue::Struct(ci) = self.case else {
            return Err(<Error as de::Error>::custom(
                "a struct case where the type has none",
            ));
        };
        self.present()?;
        let def = read_type_info(self.r, ci)?;
        read_struct(self.r, ci, def, visitor)
    }
}

/// A unit variant by its ordinal.
struct UnitVariant(u32);

impl<'de> de::EnumAccess<'de> for UnitVariant {
    type Error = Error;
    type Variant = Self;
    fn variant_seed<S: DeserializeSeed<'de>>(self, seed: S) -> Result<(S::Value, Self)> {
        let v = seed.deserialize(self.0.into_de())?;
        Ok((v, self))
    }
}

impl<'de> de::VariantAccess<'de> for UnitVariant {
    type Error = Error;
    fn unit_variant(self) -> Result<()> {
        Ok(())
    }
    fn newtype_variant_seed<S: DeserializeSeed<'de>>(self, _: S) -> Result<S::Value> {
        Err(<Error as de::Error>::custom("a unit variant was expected"))
    }
    fn tuple_variant<V: Visitor<'de>>(self, _: usize, _: V) -> Result<V::Value> {
        Err(<Error as de::Error>::custom("a unit variant was expected"))
    }
    fn struct_variant<V: Visitor<'de>>(self, _: &'static [&'static str], _: V) -> Result<V::Value> {
        Err(<Error as de::Error>::custom("a unit variant was expected"))
    }
}

/// A dense array: byte length, then the values little-endian.
fn dense<'de, V: Visitor<'de>>(r: &mut R<'_, 'de, '_>, e: &Shape, visitor: V) -> Result<V::Value> {
    let width = match e {
        Shape::Bool | Shape::I8 | Shape::U8 => 1,
        Shape::I16 | Shape::U16 => 2,
        Shape::I32 | Shape::U32 | Shape::F32 => 4,
        _ => 8,
    };
    let at = r.ctx.reader.position();
    let n = r.ctx.reader.var_u32()? as usize;
    if !n.is_multiple_of(width) {
        return Err(Error::at(
            ErrorKind::Invalid {
                what: format!("a dense array of {n} bytes for elements of {width}"),
            },
            at,
        ));
    }
    let bytes = r.ctx.reader.bytes(n)?;
    let mut access = DenseAccess {
        chunks: bytes.chunks_exact(width),
        shape: e,
    };
    let v = visitor.visit_seq(&mut access)?;
    if access.chunks.len() != 0 {
        return Err(more_elements(at, access.chunks.len()));
    }
    Ok(v)
}

/// A sequence with elements left after serde took what it wanted: a fixed-size array (or
/// a `Deserialize` that stops early) of fewer elements than the input has.
#[cold]
fn more_elements(at: usize, left: usize) -> Error {
    Error::at(
        ErrorKind::TypeMismatch {
            expected: "as many elements as the array or tuple has".to_string(),
            found: format!("{left} more"),
        },
        at,
    )
}

struct DenseAccess<'de, 's> {
    chunks: std::slice::ChunksExact<'de, u8>,
    shape: &'s Shape,
}

impl<'de> de::SeqAccess<'de> for DenseAccess<'de, '_> {
    type Error = Error;
    fn next_element_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<Option<S::Value>> {
        let Some(c) = self.chunks.next() else {
            return Ok(None);
        };
        // The chunks are exactly the element's width: each conversion is one load.
        macro_rules! le {
            ($t:ty) => {
                match c.try_into() {
                    Ok(b) => <$t>::from_le_bytes(b),
                    Err(_) => return Err(<Error as de::Error>::custom("a short array element")),
                }
            };
        }
        let v: Result<S::Value> = match self.shape {
            Shape::Bool => seed.deserialize((le!(u8) != 0).into_de()),
            Shape::I8 => seed.deserialize(le!(i8).into_de()),
            Shape::I16 => seed.deserialize(le!(i16).into_de()),
            Shape::U16 => seed.deserialize(le!(u16).into_de()),
            Shape::I32 => seed.deserialize(le!(i32).into_de()),
            Shape::U32 => seed.deserialize(le!(u32).into_de()),
            Shape::F32 => seed.deserialize(le!(f32).into_de()),
            Shape::I64 => seed.deserialize(le!(i64).into_de()),
            Shape::U64 => seed.deserialize(le!(u64).into_de()),
            Shape::F64 => seed.deserialize(le!(f64).into_de()),
            _ => Err(<Error as de::Error>::custom("not a dense array element")),
        };
        v.map(Some)
    }
    fn size_hint(&self) -> Option<usize> {
        Some(self.chunks.len())
    }
}

/// A LIST: length, elements header, shared type info if any, elements.
fn list<'de, V: Visitor<'de>>(r: &mut R<'_, 'de, '_>, e: &Shape, visitor: V) -> Result<V::Value> {
    let at = r.ctx.reader.position();
    let len = r.ctx.reader.var_u32()? as usize;
    r.ctx.claim_elements(len, at)?;
    if len == 0 {
        return visitor.visit_seq(ListAccess {
            r,
            element: e,
            left: 0,
            header: 0,
            def: None,
        });
    }
    let hat = r.ctx.reader.position();
    let header = r.ctx.reader.u8()?;
    if header & elements::TRACK_REF != 0 {
        return Err(Error::at(
            ErrorKind::Unsupported {
                what: "a list with reference flags (the serde path reads streams without \
                       reference tracking)"
                    .to_string(),
            },
            hat,
        ));
    }
    let inner = match e {
        Shape::Option(x) => &**x,
        x => x,
    };
    let def = if header & elements::SAME_TYPE != 0 && header & elements::DECL_TYPE == 0 {
        check_type_id(r, inner)?
    } else {
        None
    };
    r.ctx.enter()?;
    let mut access = ListAccess {
        r: &mut *r,
        element: e,
        left: len,
        header,
        def,
    };
    let v = visitor.visit_seq(&mut access);
    let left = access.left;
    r.ctx.leave();
    let v = v?;
    if left != 0 {
        return Err(more_elements(at, left));
    }
    Ok(v)
}

struct ListAccess<'s, 'c, 'de, 'r> {
    r: &'s mut R<'c, 'de, 'r>,
    element: &'s Shape,
    left: usize,
    header: u8,
    def: Option<Arc<RemoteTypeDef>>,
}

impl<'de> de::SeqAccess<'de> for ListAccess<'_, '_, 'de, '_> {
    type Error = Error;
    fn next_element_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<Option<S::Value>> {
        if self.left == 0 {
            return Ok(None);
        }
        self.left -= 1;
        let (inner, nullable) = match self.element {
            Shape::Option(x) => (&**x, true),
            x => (x, false),
        };
        if self.header & elements::HAS_NULL != 0 && self.r.ctx.ref_flag()? == RefFlag::Null {
            if !nullable {
                return Err(self.r.ctx.error(ErrorKind::UnexpectedNull {
                    expected: "a list element".to_string(),
                }));
            }
            return seed.deserialize(NoneDe).map(Some);
        }
        let def = if self.header & elements::SAME_TYPE == 0 {
            check_type_id(self.r, inner)?
        } else {
            self.def.clone()
        };
        let payload = PayloadDe {
            r: self.r,
            shape: inner,
            fixed: false,
            def,
        };
        if nullable {
            seed.deserialize(SomeDe(payload)).map(Some)
        } else {
            seed.deserialize(payload).map(Some)
        }
    }
    fn size_hint(&self) -> Option<usize> {
        Some(self.left)
    }
}

/// `None`.
struct NoneDe;

impl<'de> de::Deserializer<'de> for NoneDe {
    type Error = Error;
    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_none()
    }
    ::serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map struct enum
        identifier ignored_any
    }
}

/// `Some` of a payload.
struct SomeDe<'s, 'c, 'de, 'r>(PayloadDe<'s, 'c, 'de, 'r>);

impl<'de> de::Deserializer<'de> for SomeDe<'_, '_, 'de, '_> {
    type Error = Error;
    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_some(self.0)
    }
    ::serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map struct enum
        identifier ignored_any
    }
}

/// A MAP: size, then chunks.
fn map<'de, V: Visitor<'de>>(
    r: &mut R<'_, 'de, '_>,
    k: &Shape,
    v: &Shape,
    visitor: V,
) -> Result<V::Value> {
    let at = r.ctx.reader.position();
    let len = r.ctx.reader.var_u32()? as usize;
    r.ctx.claim_pairs(len, at)?;
    r.ctx.enter()?;
    let out = visitor.visit_map(MapAccess {
        r: &mut *r,
        key: k,
        value: v,
        left: len,
        chunk_left: 0,
        key_def: None,
        value_def: None,
        null_value: false,
    });
    r.ctx.leave();
    out
}

struct MapAccess<'s, 'c, 'de, 'r> {
    r: &'s mut R<'c, 'de, 'r>,
    key: &'s Shape,
    value: &'s Shape,
    left: usize,
    chunk_left: u8,
    key_def: Option<Arc<RemoteTypeDef>>,
    value_def: Option<Arc<RemoteTypeDef>>,
    /// The pair being read has a null value.
    null_value: bool,
}

impl<'de> de::MapAccess<'de> for MapAccess<'_, '_, 'de, '_> {
    type Error = Error;
    fn next_key_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<Option<S::Value>> {
        if self.left == 0 {
            return Ok(None);
        }
        self.left -= 1;
        self.null_value = false;
        if self.chunk_left == 0 {
            let at = self.r.ctx.reader.position();
            let header = self.r.ctx.reader.u8()?;
            if header & (kv::KEY_NULL | kv::VALUE_NULL) != 0 {
                if header & kv::KEY_NULL != 0 {
                    return Err(Error::at(
                        ErrorKind::Unsupported {
                            what: "a map with a null key".to_string(),
                        },
                        at,
                    ));
                }
                // A pair with a null value, a chunk of its own.
                self.null_value = true;
                let def = if header & kv::KEY_DECL_TYPE != 0 {
                    None
                } else {
                    if self.r.ctx.ref_flag()? == RefFlag::Null {
                        return Err(self.r.ctx.error(ErrorKind::UnexpectedNull {
                            expected: "a map key".to_string(),
                        }));
                    }
                    check_type_id(self.r, self.key)?
                };
                return seed
                    .deserialize(PayloadDe {
                        r: self.r,
                        shape: self.key,
                        fixed: false,
                        def,
                    })
                    .map(Some);
            }
            if header & (kv::KEY_TRACK_REF | kv::VALUE_TRACK_REF) != 0 {
                return Err(Error::at(
                    ErrorKind::Unsupported {
                        what: "a map with reference flags (the serde path reads streams \
                               without reference tracking)"
                            .to_string(),
                    },
                    at,
                ));
            }
            let count = self.r.ctx.reader.u8()?;
            if count == 0 {
                return Err(Error::at(
                    ErrorKind::Invalid {
                        what: "a map chunk of 0 pairs".to_string(),
                    },
                    at,
                ));
            }
            self.chunk_left = count;
            self.key_def = if header & kv::KEY_DECL_TYPE == 0 {
                check_type_id(self.r, self.key)?
            } else {
                None
            };
            let inner = match self.value {
                Shape::Option(x) => &**x,
                x => x,
            };
            self.value_def = if header & kv::VALUE_DECL_TYPE == 0 {
                check_type_id(self.r, inner)?
            } else {
                None
            };
        }
        self.chunk_left -= 1;
        seed.deserialize(PayloadDe {
            r: self.r,
            shape: self.key,
            fixed: false,
            def: self.key_def.clone(),
        })
        .map(Some)
    }

    fn next_value_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<S::Value> {
        if self.null_value {
            if !matches!(self.value, Shape::Option(_)) {
                return Err(self.r.ctx.error(ErrorKind::UnexpectedNull {
                    expected: "a map value".to_string(),
                }));
            }
            return seed.deserialize(NoneDe);
        }
        match self.value {
            Shape::Option(inner) => seed.deserialize(SomeDe(PayloadDe {
                r: self.r,
                shape: inner,
                fixed: false,
                def: self.value_def.clone(),
            })),
            v => seed.deserialize(PayloadDe {
                r: self.r,
                shape: v,
                fixed: false,
                def: self.value_def.clone(),
            }),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.left)
    }
}

/// A struct's payload: schema hash and fields (same-schema mode), or the fields its TypeDef
/// lists (compatible mode).
pub(crate) fn read_struct<'de, V: Visitor<'de>>(
    r: &mut R<'_, 'de, '_>,
    i: usize,
    def: Option<Arc<RemoteTypeDef>>,
    visitor: V,
) -> Result<V::Value> {
    let table = r.table;
    let t = table.ty(i)?;
    let Body::Struct(s) = &t.body else {
        return Err(Error::new(ErrorKind::Invalid {
            what: format!("{} is not a struct", t.name),
        }));
    };
    let compress = r.ctx.compress_int();
    let steps = if r.ctx.compatible() {
        let Some(def) = def else {
            return Err(r.ctx.error(ErrorKind::Invalid {
                what: format!("{}: a compatible struct without its TypeDef", t.name),
            }));
        };
        let entry = r.ctx.registry().at(t.entry).ok_or_else(|| {
            Error::new(ErrorKind::Invalid {
                what: format!("{} has no registry entry", t.name),
            })
        })?;
        // The TypeDef header is a hash of its bytes: equal headers, the local layout.
        let local = entry.local_typedef(r.ctx.registry(), compress)?;
        if local.header == def.def.header {
            Steps::Local(&s.order[compress as usize], !compress)
        } else {
            let local_true = entry.local_typedef(r.ctx.registry(), true)?;
            Steps::Plan(t.plan(&def.def, &local_true.fields)?)
        }
    } else {
        let at = r.ctx.reader.position();
        let hash = r.ctx.reader.i32()?;
        let want = s.hash[compress as usize];
        if hash != want {
            return Err(Error::at(
                ErrorKind::TypeMismatch {
                    expected: format!("{} with schema hash {want}", t.name),
                    found: format!("schema hash {hash}"),
                },
                at,
            ));
        }
        Steps::Local(&s.order[compress as usize], !compress)
    };
    r.ctx.enter()?;
    let access = FieldsAccess {
        r: &mut *r,
        def: s,
        name: &t.name,
        steps,
        pos: 0,
        current: None,
        last: None,
    };
    // A BINARY taken ahead would take its out-of-band buffer twice (when skipped, and when
    // read): such a stream is read in wire order.
    let seq = s.seq[compress as usize]
        .as_ref()
        .filter(|p| !(p.takes_binary && access.r.ctx.has_buffers()));
    let v = match (&access.steps, seq) {
        // serde-reflection traced the struct through `visit_seq`, so its visitor takes one.
        (Steps::Local(_, fixed), Some(plan)) => {
            let fixed = *fixed;
            let mut seq = SeqFields {
                r: access.r,
                def: s,
                plan,
                fixed,
                next: 0,
                wp: 0,
                slots: [0; AHEAD_SLOTS],
                none: 0,
            };
            let v = visitor.visit_seq(&mut seq)?;
            if seq.next != seq.plan.steps.len() {
                return Err(seq.r.ctx.error(ErrorKind::Invalid {
                    what: format!(
                        "{}: serde took {} of its {} fields",
                        t.name,
                        seq.next,
                        seq.plan.steps.len()
                    ),
                }));
            }
            Ok(v)
        }
        _ if s.tuple => visitor.visit_seq(access),
        _ => visitor.visit_map(access),
    };
    r.ctx.leave();
    // serde's "missing field" knows the field, not the struct.
    v.map_err(|e| match e.kind() {
        ErrorKind::MissingField { ty, field } if ty == MISSING_IN => {
            Error::new(ErrorKind::MissingField {
                ty: t.name.clone(),
                field: field.clone(),
            })
            .with_hint("give the field #[serde(default)] or make it an Option")
        }
        _ => e,
    })
}

/// A struct's fields handed to serde in declaration order (see [`SeqPlan`]).
struct SeqFields<'s, 'c, 'de, 'r> {
    r: &'s mut R<'c, 'de, 'r>,
    def: &'s StructDef,
    plan: &'s SeqPlan,
    fixed: bool,
    /// The declaration index served next.
    next: usize,
    /// The wire position read next.
    wp: usize,
    /// Fields taken ahead, by declaration index: a scalar's bits or an input offset.
    slots: [u64; AHEAD_SLOTS],
    /// The `Option` scalars taken ahead that are `None`.
    none: u32,
}

impl SeqFields<'_, '_, '_, '_> {
    /// Takes the fields at wire positions `self.wp..to` ahead.
    #[inline(never)]
    fn take_ahead(&mut self, to: usize) -> Result<()> {
        let plan = self.plan;
        let ahead = plan.ahead.get(self.wp..to).unwrap_or_default();
        self.wp = to;
        let ctx = &mut *self.r.ctx;
        for a in ahead {
            let slot = usize::from(a.slot) & (AHEAD_SLOTS - 1);
            if a.nullable && ctx.ref_flag()? == RefFlag::Null {
                self.none |= 1 << slot;
                continue;
            }
            let reader = &mut ctx.reader;
            self.slots[slot] = match a.id {
                TypeId::VarInt32 => reader.var_i32()? as u64,
                TypeId::VarInt64 => reader.var_i64()? as u64,
                TypeId::Int32 => reader.i32()? as u64,
                TypeId::Int64 => reader.i64()? as u64,
                TypeId::Float32 => u64::from(reader.f32()?.to_bits()),
                TypeId::Float64 => reader.f64()?.to_bits(),
                TypeId::Bool => u64::from(reader.bool()?),
                TypeId::Int8 => reader.i8()? as u64,
                TypeId::Int16 => reader.i16()? as u64,
                TypeId::UInt8 => u64::from(reader.u8()?),
                TypeId::UInt16 => u64::from(reader.u16()?),
                TypeId::UInt32 => u64::from(reader.u32()?),
                TypeId::VarUInt32 => u64::from(reader.var_u32()?),
                TypeId::UInt64 => reader.u64()?,
                TypeId::VarUInt64 => reader.var_u64()?,
                TypeId::Enum => {
                    let at = reader.position();
                    let ordinal = reader.var_u32()?;
                    check_ordinal(self.r.table, a.index as usize, ordinal.into(), at)?;
                    u64::from(ordinal)
                }
                _ if a.at => take_at(ctx, a)?,
                _ => {
                    return Err(ctx.error(ErrorKind::Invalid {
                        what: "a field that cannot be taken ahead".into(),
                    }))
                }
            };
        }
        Ok(())
    }
}

/// Takes a string, BINARY or dense array field ahead: its input offset (at its null flag,
/// if it has one: `index` 1), after reading past it.
#[inline(never)]
fn take_at(ctx: &mut ReadContext<'_, '_>, a: &super::shape::Ahead) -> Result<u64> {
    let at = ctx.reader.position() as u64;
    if a.index == 1 && ctx.ref_flag()? == RefFlag::Null {
        return Ok(at);
    }
    crate::serializer::skip::skip_leaf(ctx, a.id)?;
    Ok(at)
}

impl<'de> SeqFields<'_, '_, 'de, '_> {
    /// The next field, wherever it is.
    #[inline(never)]
    fn element<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<S::Value> {
        let d = self.next;
        let (Some(step), Some(f)) = (self.plan.steps.get(d), self.def.fields.get(d)) else {
            return Err(<Error as de::Error>::custom(
                "a field beyond the traced ones",
            ));
        };
        self.next = d + 1;
        if self.wp < step.ahead_to as usize {
            self.take_ahead(step.ahead_to as usize)?;
        }
        let slot = d & (AHEAD_SLOTS - 1);
        let field = |r| FieldDe {
            r,
            shape: &f.shape,
            fixed: self.fixed,
            remote: None,
        };
        match step.from {
            Source::Next => {
                self.wp += 1;
                seed.deserialize(field(self.r))
            }
            Source::Slot => seed.deserialize(SlotDe {
                bits: self.slots[slot],
                none: self.none & (1 << slot) != 0,
                id: step.id,
                nullable: step.nullable,
            }),
            Source::At => {
                let back = self.r.ctx.reader.position();
                self.r.ctx.reader.seek(self.slots[slot] as usize)?;
                let v = seed.deserialize(field(self.r))?;
                self.r.ctx.reader.seek(back)?;
                Ok(v)
            }
        }
    }
}

/// Checks that `ordinal` (read at `at`) names a variant of the unit-only enum `i`.
fn check_ordinal(table: &Table, i: usize, ordinal: u64, at: usize) -> Result<()> {
    let t = table.ty(i)?;
    let n = match &t.body {
        Body::Enum(names) => names.len(),
        _ => 0,
    };
    if ordinal >= n as u64 {
        return Err(Error::at(
            ErrorKind::Invalid {
                what: format!("{}: no variant with ordinal {ordinal}", t.name),
            },
            at,
        ));
    }
    Ok(())
}

impl<'de> de::SeqAccess<'de> for &mut SeqFields<'_, '_, 'de, '_> {
    type Error = Error;

    #[inline(always)]
    fn next_element_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<Option<S::Value>> {
        let d = self.next;
        match self.plan.steps.get(d) {
            // The common case stays small enough to inline into serde's visitor.
            Some(step) if step.from == Source::Slot && self.wp >= step.ahead_to as usize => {
                self.next = d + 1;
                let slot = d & (AHEAD_SLOTS - 1);
                seed.deserialize(SlotDe {
                    bits: self.slots[slot],
                    none: self.none & (1 << slot) != 0,
                    id: step.id,
                    nullable: step.nullable,
                })
                .map(Some)
            }
            Some(_) => self.element(seed).map(Some),
            None => Ok(None),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.plan.steps.len().saturating_sub(self.next))
    }

    #[inline(always)]
    fn next_element<T: de::Deserialize<'de>>(&mut self) -> Result<Option<T>> {
        self.next_element_seed(std::marker::PhantomData)
    }
}

/// A scalar field taken ahead: its bits (as `SeqFields::take_ahead` stored them), its
/// fixed-width type `id`, and whether it is an `Option` (`none`: it is `None`).
struct SlotDe {
    bits: u64,
    none: bool,
    id: TypeId,
    nullable: bool,
}

macro_rules! slot_fast_paths {
    ($($m:ident => $id:ident $visit:ident $conv:expr;)*) => {
        $(#[inline(always)]
        fn $m<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
            if self.id == TypeId::$id && !self.nullable {
                let f = $conv;
                return visitor.$visit(f(self.bits));
            }
            de::Deserializer::deserialize_any(self, visitor)
        })*
    };
}

impl<'de> de::Deserializer<'de> for SlotDe {
    type Error = Error;

    #[inline(never)]
    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let b = self.bits;
        if self.nullable {
            return if self.none {
                visitor.visit_none()
            } else {
                visitor.visit_some(SlotDe {
                    nullable: false,
                    ..self
                })
            };
        }
        match self.id {
            TypeId::Bool => visitor.visit_bool(b != 0),
            TypeId::Int8 => visitor.visit_i8(b as i8),
            TypeId::Int16 => visitor.visit_i16(b as i16),
            TypeId::Int32 => visitor.visit_i32(b as i32),
            TypeId::Int64 => visitor.visit_i64(b as i64),
            TypeId::UInt8 => visitor.visit_u8(b as u8),
            TypeId::UInt16 => visitor.visit_u16(b as u16),
            TypeId::UInt32 => visitor.visit_u32(b as u32),
            TypeId::UInt64 => visitor.visit_u64(b),
            TypeId::Float32 => visitor.visit_f32(f32::from_bits(b as u32)),
            TypeId::Float64 => visitor.visit_f64(f64::from_bits(b)),
            TypeId::Enum => visitor.visit_enum(UnitVariant(b as u32)),
            _ => Err(<Error as de::Error>::custom(
                "a field taken ahead that is not a scalar",
            )),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        de::Deserializer::deserialize_any(self, visitor)
    }

    slot_fast_paths! {
        deserialize_bool => Bool visit_bool |b: u64| b != 0;
        deserialize_i8 => Int8 visit_i8 |b: u64| b as i8;
        deserialize_i16 => Int16 visit_i16 |b: u64| b as i16;
        deserialize_i32 => Int32 visit_i32 |b: u64| b as i32;
        deserialize_i64 => Int64 visit_i64 |b: u64| b as i64;
        deserialize_u8 => UInt8 visit_u8 |b: u64| b as u8;
        deserialize_u16 => UInt16 visit_u16 |b: u64| b as u16;
        deserialize_u32 => UInt32 visit_u32 |b: u64| b as u32;
        deserialize_u64 => UInt64 visit_u64 |b: u64| b;
        deserialize_f32 => Float32 visit_f32 |b: u64| f32::from_bits(b as u32);
        deserialize_f64 => Float64 visit_f64 |b: u64| f64::from_bits(b);
    }

    ::serde::forward_to_deserialize_any! {
        i128 u128 char str string bytes byte_buf
        unit unit_struct newtype_struct seq tuple tuple_struct map struct enum
        identifier ignored_any
    }
}

/// The struct name of a missing-field error before `read_struct` names it.
pub(crate) const MISSING_IN: &str = "a serde struct";

enum Steps<'s> {
    /// The local wire order, and whether integers are fixed-width.
    Local(&'s [usize], bool),
    Plan(Arc<ReadPlan>),
}

struct FieldsAccess<'s, 'c, 'de, 'r> {
    r: &'s mut R<'c, 'de, 'r>,
    def: &'s StructDef,
    name: &'s str,
    steps: Steps<'s>,
    pos: usize,
    /// The field whose value comes next (declaration index).
    current: Option<usize>,
    /// The field read last, for a tuple struct (whose fields serde takes in order).
    last: Option<usize>,
}

impl<'de> de::SeqAccess<'de> for FieldsAccess<'_, '_, 'de, '_> {
    type Error = Error;

    fn next_element_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<Option<S::Value>> {
        let Some(decl) = de::MapAccess::next_key_seed(self, std::marker::PhantomData::<u64>)?
        else {
            return Ok(None);
        };
        let expected = self.last.map_or(0, |l| l + 1);
        if decl as usize != expected {
            return Err(self.r.ctx.error(ErrorKind::Unsupported {
                what: format!(
                    "{}: the peer's fields of this tuple struct do not come in declaration \
                     order (field _{decl} where _{expected} was expected)",
                    self.name
                ),
            }));
        }
        self.last = Some(expected);
        de::MapAccess::next_value_seed(self, seed).map(Some)
    }
}

impl<'de> de::MapAccess<'de> for FieldsAccess<'_, '_, 'de, '_> {
    type Error = Error;

    fn next_key_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<Option<S::Value>> {
        let decl = match &self.steps {
            Steps::Local(order, _) => match order.get(self.pos) {
                Some(&d) => {
                    self.pos += 1;
                    d
                }
                None => return Ok(None),
            },
            Steps::Plan(plan) => loop {
                let Some(step) = plan.steps.get(self.pos) else {
                    return Ok(None);
                };
                self.pos += 1;
                match step.local.and_then(|p| self.def.order[1].get(p)) {
                    Some(&d) => break d,
                    None => {
                        crate::serializer::compatible::skip_field(self.r.ctx, &step.field_type)?
                    }
                }
            },
        };
        self.current = Some(decl);
        seed.deserialize((decl as u64).into_de()).map(Some)
    }

    fn next_value_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<S::Value> {
        let f = self
            .current
            .take()
            .and_then(|d| self.def.fields.get(d))
            .ok_or_else(|| <Error as de::Error>::custom("a field value without its key"))?;
        match &self.steps {
            Steps::Local(_, fixed) => seed.deserialize(FieldDe {
                r: self.r,
                shape: &f.shape,
                fixed: *fixed,
                remote: None,
            }),
            Steps::Plan(plan) => {
                let plan = plan.clone();
                let step = plan
                    .steps
                    .get(self.pos.wrapping_sub(1))
                    .ok_or_else(|| <Error as de::Error>::custom("a field beyond the plan"))?;
                seed.deserialize(FieldDe {
                    r: self.r,
                    shape: &f.shape,
                    fixed: false,
                    remote: Some((&step.field_type, &f.name)),
                })
            }
        }
    }
}
