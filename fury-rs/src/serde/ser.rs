//! Writing serde values by their traced layout: the bytes the derive writes for the same
//! struct. Struct fields come in declaration order from serde and go out in wire order. A
//! first pass over the value takes the fields a word holds (numbers, bools, enum ordinals);
//! then the value is serialized once per run of the other fields that ascends in
//! declaration order (see `WritePlan`), writing the fields of that run and, before each, the
//! taken words that precede it in wire order. No field that writes type info is written out
//! of its place, which keeps meta-share indices in wire order.

use super::shape::{Body, CaseValue, Put, Shape, StructDef, Table, WritePlan, SCALAR_SLOTS};
use crate::context::WriteContext;
use crate::error::{Error, ErrorKind, Result};
use crate::registry::{Registration, UserKind};
use crate::types::{elements, kv, RefFlag, TypeId};
use ::serde::ser::{self, Impossible, Serialize};

/// The writing state: the context and the traced types.
pub(crate) struct W<'c, 'a> {
    pub ctx: &'c mut WriteContext<'a>,
    pub table: &'c Table,
}

fn err(what: String) -> Error {
    Error::new(ErrorKind::Invalid { what })
}

fn unexpected(what: &str) -> Error {
    Error::new(ErrorKind::TypeMismatch {
        expected: "the traced layout".to_string(),
        found: format!("serde value {what}"),
    })
}

/// Implements the listed `Serializer` methods as errors: each serializer takes only the
/// calls its position allows.
macro_rules! refuse_methods {
    ($($m:ident)*) => { $(refuse_method!($m);)* };
}

macro_rules! refuse_method {
    (serialize_some) => {
        fn serialize_some<T: Serialize + ?Sized>(self, _: &T) -> Result<Self::Ok> {
            Err(unexpected("Some"))
        }
    };
    (serialize_newtype_struct) => {
        fn serialize_newtype_struct<T: Serialize + ?Sized>(
            self,
            _: &'static str,
            _: &T,
        ) -> Result<Self::Ok> {
            Err(unexpected("newtype struct"))
        }
    };
    (serialize_newtype_variant) => {
        fn serialize_newtype_variant<T: Serialize + ?Sized>(
            self,
            _: &'static str,
            _: u32,
            _: &'static str,
            _: &T,
        ) -> Result<Self::Ok> {
            Err(unexpected("newtype variant"))
        }
    };
    (serialize_seq) => {
        fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq> {
            Err(unexpected("sequence"))
        }
    };
    (serialize_map) => {
        fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap> {
            Err(unexpected("map"))
        }
    };
    (serialize_struct) => {
        fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self::SerializeStruct> {
            Err(unexpected("struct"))
        }
    };
    (serialize_tuple) => {
        fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple> {
            Err(unexpected("tuple"))
        }
    };
    (serialize_tuple_struct) => {
        fn serialize_tuple_struct(
            self,
            _: &'static str,
            _: usize,
        ) -> Result<Self::SerializeTupleStruct> {
            Err(unexpected("tuple struct"))
        }
    };
    (serialize_tuple_variant) => {
        fn serialize_tuple_variant(
            self,
            _: &'static str,
            _: u32,
            _: &'static str,
            _: usize,
        ) -> Result<Self::SerializeTupleVariant> {
            Err(unexpected("tuple variant"))
        }
    };
    (serialize_struct_variant) => {
        fn serialize_struct_variant(
            self,
            _: &'static str,
            _: u32,
            _: &'static str,
            _: usize,
        ) -> Result<Self::SerializeStructVariant> {
            Err(unexpected("struct variant"))
        }
    };
    (serialize_unit_struct) => {
        fn serialize_unit_struct(self, _: &'static str) -> Result<Self::Ok> {
            Err(unexpected("unit struct"))
        }
    };
    (serialize_unit_variant) => {
        fn serialize_unit_variant(
            self,
            _: &'static str,
            _: u32,
            _: &'static str,
        ) -> Result<Self::Ok> {
            Err(unexpected("unit variant"))
        }
    };
    (serialize_none) => {
        fn serialize_none(self) -> Result<Self::Ok> {
            Err(unexpected("None"))
        }
    };
    (serialize_unit) => {
        fn serialize_unit(self) -> Result<Self::Ok> {
            Err(unexpected("()"))
        }
    };
    (serialize_bytes) => {
        fn serialize_bytes(self, _: &[u8]) -> Result<Self::Ok> {
            Err(unexpected("bytes"))
        }
    };
    (serialize_str) => {
        fn serialize_str(self, _: &str) -> Result<Self::Ok> {
            Err(unexpected("string"))
        }
    };
    (serialize_char) => {
        fn serialize_char(self, _: char) -> Result<Self::Ok> {
            Err(unexpected("char"))
        }
    };
    ($m:ident) => {
        refuse_scalar!($m);
    };
}

macro_rules! refuse_scalar {
    (serialize_bool) => { refuse_scalar!(@ serialize_bool bool); };
    (serialize_i8) => { refuse_scalar!(@ serialize_i8 i8); };
    (serialize_i16) => { refuse_scalar!(@ serialize_i16 i16); };
    (serialize_i32) => { refuse_scalar!(@ serialize_i32 i32); };
    (serialize_i64) => { refuse_scalar!(@ serialize_i64 i64); };
    (serialize_u8) => { refuse_scalar!(@ serialize_u8 u8); };
    (serialize_u16) => { refuse_scalar!(@ serialize_u16 u16); };
    (serialize_u32) => { refuse_scalar!(@ serialize_u32 u32); };
    (serialize_u64) => { refuse_scalar!(@ serialize_u64 u64); };
    (serialize_f32) => { refuse_scalar!(@ serialize_f32 f32); };
    (serialize_f64) => { refuse_scalar!(@ serialize_f64 f64); };
    (@ $m:ident $t:ty) => {
        fn $m(self, _: $t) -> Result<Self::Ok> {
            Err(unexpected(stringify!($t)))
        }
    };
}

/// The field calls of a pass over a struct's fields (`CapturePass`, `StructPass`), for
/// structs, struct variants, tuple structs and tuple variants alike: each goes to the
/// pass's `field`, `skipped` and `done`.
macro_rules! field_pass_impls {
    ($ty:ty) => {
        impl ser::SerializeStruct for $ty {
            type Ok = ();
            type Error = Error;
            #[inline(always)]
            fn serialize_field<T: Serialize + ?Sized>(
                &mut self,
                key: &'static str,
                v: &T,
            ) -> Result<()> {
                self.field(key, v)
            }
            fn skip_field(&mut self, key: &'static str) -> Result<()> {
                self.skipped(key)
            }
            fn end(self) -> Result<()> {
                self.done()
            }
        }

        impl ser::SerializeStructVariant for $ty {
            type Ok = ();
            type Error = Error;
            fn serialize_field<T: Serialize + ?Sized>(
                &mut self,
                key: &'static str,
                v: &T,
            ) -> Result<()> {
                self.field(key, v)
            }
            fn skip_field(&mut self, key: &'static str) -> Result<()> {
                self.skipped(key)
            }
            fn end(self) -> Result<()> {
                self.done()
            }
        }

        impl ser::SerializeTupleStruct for $ty {
            type Ok = ();
            type Error = Error;
            fn serialize_field<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<()> {
                self.field("", v)
            }
            fn end(self) -> Result<()> {
                self.done()
            }
        }

        impl ser::SerializeTupleVariant for $ty {
            type Ok = ();
            type Error = Error;
            fn serialize_field<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<()> {
                self.field("", v)
            }
            fn end(self) -> Result<()> {
                self.done()
            }
        }
    };
}

field_pass_impls!(CapturePass<'_>);
field_pass_impls!(StructPass<'_, '_, '_>);

/// How a pass (`CapturePass`, `StructPass`) enters the value it goes over: a struct, a tuple
/// struct (only where the trace says tuple), a newtype struct (its one field `_0` when
/// traced as a tuple struct, otherwise what it wraps), or the struct inside a `Some` whose
/// nullness the caller has written.
macro_rules! pass_entries {
    () => {
        fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self> {
            Ok(self)
        }
        fn serialize_newtype_struct<T: Serialize + ?Sized>(
            mut self,
            _: &'static str,
            v: &T,
        ) -> Result<()> {
            if self.def.tuple {
                self.field("_0", v)?;
                return self.done();
            }
            v.serialize(self)
        }
        fn serialize_some<T: Serialize + ?Sized>(self, v: &T) -> Result<()> {
            v.serialize(self)
        }
        fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<Self> {
            if self.def.tuple {
                Ok(self)
            } else {
                Err(unexpected("tuple struct"))
            }
        }
    };
}

/// Writes the type info of the traced type `i` (kind byte, then id, names or shared TypeDef).
pub(crate) fn write_type_info(w: &mut W, i: usize) -> Result<()> {
    let t = w.table.ty(i)?;
    let registry = w.ctx.registry();
    let entry = registry
        .at(t.entry)
        .ok_or_else(|| err(format!("{} has no registry entry", t.name)))?;
    let named = matches!(entry.registration, Registration::Name { .. });
    let compatible = w.ctx.compatible();
    match entry.kind {
        UserKind::Struct if compatible => crate::serializer::object::write_shared_type_info(
            w.ctx,
            entry,
            crate::serializer::object::struct_kind_of(named, true),
        ),
        kind => {
            if let Some((word, n)) = entry.id_info {
                w.ctx.writer.word_prefix(word, usize::from(n));
                return Ok(());
            }
            let id = if kind == UserKind::Struct {
                crate::serializer::object::struct_kind_of(named, false)
            } else {
                kind.named_kind()
            };
            if compatible && named {
                return crate::serializer::object::write_shared_type_info(w.ctx, entry, id);
            }
            w.ctx.writer.u8(id as u8);
            crate::serializer::object::write_type_name(entry, w.ctx)
        }
    }
}

/// Whether a value of `shape` in a declared position (a struct field) carries its type info:
/// structs registered by name, and every struct in compatible mode (as the derive; enums
/// never do).
fn field_type_info(w: &W, shape: &Shape) -> bool {
    match shape {
        Shape::Struct(_) if w.ctx.compatible() => true,
        Shape::Struct(i) => w
            .table
            .types
            .get(*i)
            .and_then(|t| w.ctx.registry().at(t.entry))
            .is_some_and(|e| matches!(e.registration, Registration::Name { .. })),
        _ => false,
    }
}

/// Writes a struct field: its null flag if nullable, its type info if it needs one, then its
/// payload.
pub(crate) fn write_field<T: Serialize + ?Sized>(
    w: &mut W,
    shape: &Shape,
    fixed: bool,
    v: &T,
) -> Result<()> {
    match shape {
        Shape::Option(inner) => v.serialize(OptionSer { w, inner, fixed }),
        _ => {
            if field_type_info(w, shape) {
                if let Shape::Struct(i) | Shape::Enum(i) = shape {
                    write_type_info(w, *i)?;
                }
            }
            write_payload(w, shape, fixed, v)
        }
    }
}

/// Writes the payload of a value of `shape` (no flag, no type info).
pub(crate) fn write_payload<T: Serialize + ?Sized>(
    w: &mut W,
    shape: &Shape,
    fixed: bool,
    v: &T,
) -> Result<()> {
    match shape {
        Shape::Struct(i) => write_struct(w, *i, v),
        Shape::Union(i) => write_union(w, *i, v),
        Shape::Seq(e) if matches!(**e, Shape::Option(_)) => {
            let has_null = v.serialize(NullScan)?;
            v.serialize(PayloadSer {
                w,
                shape,
                fixed,
                has_null,
            })
        }
        _ => v.serialize(PayloadSer {
            w,
            shape,
            fixed,
            has_null: false,
        }),
    }
}

/// Writes a struct's payload: the schema hash outside compatible mode, then the fields.
pub(crate) fn write_struct<T: Serialize + ?Sized>(w: &mut W, i: usize, v: &T) -> Result<()> {
    let table = w.table;
    let t = table.ty(i)?;
    let Body::Struct(def) = &t.body else {
        return Err(err(format!("{} is not a struct", t.name)));
    };
    let compress = w.ctx.compress_int();
    if !w.ctx.compatible() {
        w.ctx.writer.i32(def.hash[compress as usize]);
    }
    w.ctx.enter()?;
    let plan = &def.plan[compress as usize];
    let mut cap = Captured::new();
    if plan.capture {
        v.serialize(CapturePass::new(def, &t.name, &mut cap))?;
    }
    let mut wpos = 0;
    for run in &plan.passes {
        v.serialize(StructPass::new(w, def, &t.name, run, &cap, &mut wpos))?;
    }
    put_scalars(w, puts(plan, wpos, plan.puts.len()), &cap)?;
    def.check_passed();
    w.ctx.leave();
    Ok(())
}

/// The scalar fields of one struct value, by declaration index: the value's bits
/// (sign-extended integers, float bits, enum ordinals), and which `Option` ones are `None`.
pub(crate) struct Captured {
    slots: [u64; SCALAR_SLOTS],
    none: u64,
}

impl Captured {
    fn new() -> Self {
        Captured {
            slots: [0; SCALAR_SLOTS],
            none: 0,
        }
    }

    #[inline(always)]
    fn set(&mut self, i: usize, bits: u64) {
        // Scalar fields have declaration indices below SCALAR_SLOTS (a power of two).
        self.slots[i & (SCALAR_SLOTS - 1)] = bits;
    }

    fn set_none(&mut self, i: usize) {
        self.none |= 1 << (i & 63);
    }
}

/// Writes the taken scalar fields `puts` (a range of wire positions, each a scalar).
#[inline]
fn put_scalars(w: &mut W, puts: &[Put], cap: &Captured) -> Result<()> {
    if puts.is_empty() {
        return Ok(());
    }
    put_some(w, puts, cap)
}

fn put_some(w: &mut W, puts: &[Put], cap: &Captured) -> Result<()> {
    // A flag byte and at most 9 bytes of value per field.
    let mut room = w.ctx.writer.room(puts.len() * 10);
    let mut rest = puts;
    // Runs of one wire type are put out by one loop each.
    while let Some(p) = rest.first() {
        let (run, more) = rest.split_at(usize::from(p.run).clamp(1, rest.len()));
        rest = more;
        macro_rules! put_run {
            ($($id:ident => |$b:ident| $put:ident($v:expr);)*) => {
                match p.id {
                    $(Some(TypeId::$id) if !p.nullable => {
                        for q in run {
                            let $b = cap.slots[usize::from(q.slot) & (SCALAR_SLOTS - 1)];
                            room.$put($v);
                        }
                    })*
                    $(Some(TypeId::$id) => {
                        for q in run {
                            if cap.none & (1 << (q.slot & 63)) != 0 {
                                room.u8(RefFlag::Null.byte());
                                continue;
                            }
                            room.u8(RefFlag::NotNull.byte());
                            let $b = cap.slots[usize::from(q.slot) & (SCALAR_SLOTS - 1)];
                            room.$put($v);
                        }
                    })*
                    _ => return Err(err("a field that is not a scalar, put out as one".into())),
                }
            };
        }
        put_run! {
            VarInt32 => |b| var_i32(b as i32);
            VarInt64 => |b| var_i64(b as i64);
            Int32 => |b| i32(b as i32);
            Int64 => |b| i64(b as i64);
            Float32 => |b| f32(f32::from_bits(b as u32));
            Float64 => |b| f64(f64::from_bits(b));
            Bool => |b| bool(b != 0);
            Int8 => |b| i8(b as i8);
            Int16 => |b| i16(b as i16);
            UInt8 => |b| u8(b as u8);
            UInt16 => |b| u16(b as u16);
            UInt32 => |b| u32(b as u32);
            // A unit-only enum's ordinal is a varuint32.
            VarUInt32 => |b| var_u32(b as u32);
            Enum => |b| var_u32(b as u32);
            UInt64 => |b| u64(b);
            VarUInt64 => |b| var_u64(b);
        }
    }
    Ok(())
}

/// The plan of `def` in the writing mode.
#[inline]
fn plan_of<'d>(w: &W, def: &'d StructDef) -> &'d WritePlan {
    &def.plan[w.ctx.compress_int() as usize]
}

/// The scalars from wire position `from` to `to` of `plan`.
#[inline]
fn puts(plan: &WritePlan, from: usize, to: usize) -> &[Put] {
    plan.puts.get(from..to).unwrap_or_default()
}

/// The pass over a struct value that takes its scalar fields.
struct CapturePass<'s> {
    def: &'s StructDef,
    name: &'s str,
    cap: &'s mut Captured,
    index: usize,
    /// Whether serde's field names are checked against the traced ones (see
    /// `StructDef::names_checked`), decided once per pass.
    check_names: bool,
}

impl<'s> CapturePass<'s> {
    fn new(def: &'s StructDef, name: &'s str, cap: &'s mut Captured) -> Self {
        CapturePass {
            def,
            name,
            cap,
            index: 0,
            check_names: def.check_names(),
        }
    }

    #[inline(always)]
    fn field<T: Serialize + ?Sized>(&mut self, key: &'static str, v: &T) -> Result<()> {
        let i = self.index;
        self.index += 1;
        let Some(f) = self.def.fields.get(i) else {
            return Err(too_many_fields(self.name));
        };
        if self.check_names && f.name != key {
            return Err(wrong_field(self.name, key, &f.name));
        }
        match f.scalar {
            Some((kind, nullable)) => v.serialize(Capture {
                cap: &mut *self.cap,
                i,
                kind,
                nullable,
            }),
            None => Ok(()),
        }
    }

    /// A skipped scalar field is taken as its empty value (see `StructPass::skipped`).
    fn skipped(&mut self, _: &'static str) -> Result<()> {
        let i = self.index;
        self.index += 1;
        if let Some(Some((_, true))) = self.def.fields.get(i).map(|f| f.scalar) {
            self.cap.set_none(i);
        }
        Ok(())
    }

    fn done(self) -> Result<()> {
        if self.index != self.def.fields.len() {
            return Err(err(format!(
                "{}: serde wrote {} fields where {} were traced",
                self.name,
                self.index,
                self.def.fields.len()
            )));
        }
        Ok(())
    }
}

impl ser::Serializer for CapturePass<'_> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Impossible<(), Error>;
    type SerializeTuple = Impossible<(), Error>;
    type SerializeTupleStruct = Self;
    type SerializeTupleVariant = Self;
    type SerializeMap = Impossible<(), Error>;
    type SerializeStruct = Self;
    type SerializeStructVariant = Self;

    pass_entries!();
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self> {
        Ok(self)
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self> {
        Ok(self)
    }
    refuse_methods! { serialize_bool serialize_i8 serialize_i16 serialize_i32 serialize_i64 serialize_u8 serialize_u16 serialize_u32 serialize_u64 serialize_f32 serialize_f64 serialize_char serialize_str serialize_bytes serialize_none serialize_unit serialize_unit_struct serialize_unit_variant serialize_newtype_variant serialize_seq serialize_map serialize_tuple }
}

#[cold]
fn too_many_fields(name: &str) -> Error {
    err(format!("{name}: more fields than traced"))
}

#[cold]
fn wrong_field(name: &str, key: &str, traced: &str) -> Error {
    err(format!(
        "{name}: serde wrote field `{key}` where the traced layout has `{traced}`"
    ))
}

/// One scalar field's value, into its slot.
struct Capture<'s> {
    cap: &'s mut Captured,
    i: usize,
    /// The field's fixed-width type (inside its `Option`, if nullable).
    kind: TypeId,
    nullable: bool,
}

impl Capture<'_> {
    #[inline(always)]
    fn put(self, bits: u64) -> Result<()> {
        self.cap.set(self.i, bits);
        Ok(())
    }

    fn int(self, v: i64) -> Result<()> {
        let fits = match self.kind {
            TypeId::Int8 => i8::try_from(v).is_ok(),
            TypeId::Int16 => i16::try_from(v).is_ok(),
            TypeId::Int32 => i32::try_from(v).is_ok(),
            TypeId::Int64 => true,
            _ => return Err(unexpected("signed integer")),
        };
        if !fits {
            return Err(out_of_range(v));
        }
        self.put(v as u64)
    }

    fn uint(self, v: u64) -> Result<()> {
        let fits = match self.kind {
            TypeId::UInt8 => u8::try_from(v).is_ok(),
            TypeId::UInt16 => u16::try_from(v).is_ok(),
            TypeId::UInt32 => u32::try_from(v).is_ok(),
            TypeId::UInt64 => true,
            _ => return Err(unexpected("unsigned integer")),
        };
        if !fits {
            return Err(out_of_range(v));
        }
        self.put(v)
    }
}

impl ser::Serializer for Capture<'_> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Impossible<(), Error>;
    type SerializeTuple = Impossible<(), Error>;
    type SerializeTupleStruct = Impossible<(), Error>;
    type SerializeTupleVariant = Impossible<(), Error>;
    type SerializeMap = Impossible<(), Error>;
    type SerializeStruct = Impossible<(), Error>;
    type SerializeStructVariant = Impossible<(), Error>;

    fn serialize_bool(self, v: bool) -> Result<()> {
        match self.kind {
            TypeId::Bool => self.put(v.into()),
            _ => Err(unexpected("bool")),
        }
    }
    fn serialize_i8(self, v: i8) -> Result<()> {
        self.int(v.into())
    }
    fn serialize_i16(self, v: i16) -> Result<()> {
        self.int(v.into())
    }
    #[inline(always)]
    fn serialize_i32(self, v: i32) -> Result<()> {
        match self.kind {
            TypeId::Int32 => self.put(v as u64),
            _ => self.int(v.into()),
        }
    }
    #[inline(always)]
    fn serialize_i64(self, v: i64) -> Result<()> {
        match self.kind {
            TypeId::Int64 => self.put(v as u64),
            _ => self.int(v),
        }
    }
    fn serialize_u8(self, v: u8) -> Result<()> {
        self.uint(v.into())
    }
    fn serialize_u16(self, v: u16) -> Result<()> {
        self.uint(v.into())
    }
    fn serialize_u32(self, v: u32) -> Result<()> {
        self.uint(v.into())
    }
    fn serialize_u64(self, v: u64) -> Result<()> {
        self.uint(v)
    }
    fn serialize_f32(self, v: f32) -> Result<()> {
        match self.kind {
            TypeId::Float32 => self.put(v.to_bits().into()),
            _ => Err(unexpected("f32")),
        }
    }
    fn serialize_f64(self, v: f64) -> Result<()> {
        match self.kind {
            TypeId::Float64 => self.put(v.to_bits()),
            _ => Err(unexpected("f64")),
        }
    }
    fn serialize_unit_variant(self, _: &'static str, index: u32, _: &'static str) -> Result<()> {
        match self.kind {
            TypeId::Enum => self.put(index.into()),
            _ => Err(unexpected("unit variant")),
        }
    }
    fn serialize_none(self) -> Result<()> {
        if !self.nullable {
            return Err(unexpected("None"));
        }
        self.cap.set_none(self.i);
        Ok(())
    }
    fn serialize_some<T: Serialize + ?Sized>(self, v: &T) -> Result<()> {
        v.serialize(self)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _: &'static str, v: &T) -> Result<()> {
        v.serialize(self)
    }
    refuse_methods! { serialize_char serialize_str serialize_bytes serialize_unit serialize_unit_struct serialize_tuple serialize_tuple_struct serialize_tuple_variant serialize_struct_variant serialize_newtype_variant serialize_seq serialize_map serialize_struct }
}

/// Writes the type info of a value of `shape` where the value is written whole (a union
/// case): user types their own, the others their type id.
fn write_value_type_info(w: &mut W, shape: &Shape) -> Result<()> {
    match shape {
        Shape::Struct(i) | Shape::Enum(i) | Shape::Union(i) => write_type_info(w, *i),
        s => {
            w.ctx.writer.u8(s.type_id(false) as u8);
            Ok(())
        }
    }
}

/// Writes a union's payload: the case id (position + 1), then the case value whole (flag,
/// type info, payload), or the NULL flag for a unit case. A case struct is written by runs
/// as a struct is: the first in the call that finds the case, the others in calls of their
/// own.
pub(crate) fn write_union<T: Serialize + ?Sized>(w: &mut W, i: usize, v: &T) -> Result<()> {
    let table = w.table;
    let t = table.ty(i)?;
    let Body::Union(cases) = &t.body else {
        return Err(err(format!("{} is not a union", t.name)));
    };
    w.ctx.enter()?;
    let mut cap = Captured::new();
    let mut wpos = 0;
    let case_struct = v.serialize(UnionSer {
        w: &mut *w,
        cases,
        name: &t.name,
        cap: &mut cap,
        wpos: &mut wpos,
    })?;
    if let Some(ci) = case_struct {
        let Body::Struct(def) = &table.ty(ci)?.body else {
            return Err(err(format!(
                "{}: a case struct that is not a struct",
                t.name
            )));
        };
        let compress = w.ctx.compress_int();
        let plan = &def.plan[compress as usize];
        // The first call took the scalars, or else wrote the first run.
        let done = usize::from(!plan.capture);
        for run in plan.passes.iter().skip(done) {
            v.serialize(CaseRun {
                pass: StructPass::new(w, def, &t.name, run, &cap, &mut wpos),
            })?;
        }
        put_scalars(w, puts(plan, wpos, plan.puts.len()), &cap)?;
        def.check_passed();
        w.ctx.leave();
    }
    w.ctx.leave();
    Ok(())
}

/// The first pass over a union value: writes the case, or for a case struct its head and
/// first run; returns the case struct written, if any.
struct UnionSer<'s, 'c, 'a> {
    w: &'s mut W<'c, 'a>,
    cases: &'s [super::shape::Case],
    name: &'s str,
    cap: &'s mut Captured,
    wpos: &'s mut usize,
}

/// The case of variant `index` of the union `name`.
fn case<'s>(cases: &'s [super::shape::Case], name: &str, index: u32) -> Result<&'s CaseValue> {
    cases
        .get(index as usize)
        .map(|c| &c.value)
        .ok_or_else(|| err(format!("{name}: no variant {index}")))
}

impl<'s, 'c, 'a> ser::Serializer for UnionSer<'s, 'c, 'a> {
    type Ok = Option<usize>;
    type Error = Error;
    type SerializeSeq = Impossible<Option<usize>, Error>;
    type SerializeTuple = Impossible<Option<usize>, Error>;
    type SerializeTupleStruct = Impossible<Option<usize>, Error>;
    type SerializeTupleVariant = CaseHead<'s, 'c, 'a>;
    type SerializeMap = Impossible<Option<usize>, Error>;
    type SerializeStruct = Impossible<Option<usize>, Error>;
    type SerializeStructVariant = CaseHead<'s, 'c, 'a>;

    fn serialize_unit_variant(
        self,
        _: &'static str,
        index: u32,
        _: &'static str,
    ) -> Result<Option<usize>> {
        match case(self.cases, self.name, index)? {
            CaseValue::Unit => {
                self.w.ctx.writer.var_u32(index + 1);
                self.w.ctx.ref_flag(RefFlag::Null);
                Ok(None)
            }
            _ => Err(unexpected("unit variant")),
        }
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        index: u32,
        _: &'static str,
        v: &T,
    ) -> Result<Option<usize>> {
        let CaseValue::Value(shape) = case(self.cases, self.name, index)? else {
            return Err(unexpected("newtype variant"));
        };
        self.w.ctx.writer.var_u32(index + 1);
        self.w.ctx.ref_flag(RefFlag::NotNull);
        write_value_type_info(self.w, shape)?;
        write_payload(self.w, shape, false, v)?;
        Ok(None)
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        index: u32,
        _: &'static str,
        _: usize,
    ) -> Result<CaseHead<'s, 'c, 'a>> {
        self.case_struct(index)
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        index: u32,
        _: &'static str,
        _: usize,
    ) -> Result<CaseHead<'s, 'c, 'a>> {
        self.case_struct(index)
    }
    fn serialize_some<T: Serialize + ?Sized>(self, v: &T) -> Result<Option<usize>> {
        v.serialize(self)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        v: &T,
    ) -> Result<Option<usize>> {
        v.serialize(self)
    }
    refuse_methods! { serialize_bool serialize_i8 serialize_i16 serialize_i32 serialize_i64 serialize_u8 serialize_u16 serialize_u32 serialize_u64 serialize_f32 serialize_f64 serialize_char serialize_str serialize_bytes serialize_none serialize_unit serialize_unit_struct serialize_seq serialize_map serialize_struct serialize_tuple serialize_tuple_struct }
}

impl<'s, 'c, 'a> UnionSer<'s, 'c, 'a> {
    /// The head of a case struct (case id, flag, type info, hash) and its first run.
    fn case_struct(self, index: u32) -> Result<CaseHead<'s, 'c, 'a>> {
        let &CaseValue::Struct(ci) = case(self.cases, self.name, index)? else {
            return Err(unexpected("struct variant"));
        };
        let table = self.w.table;
        let t = table.ty(ci)?;
        let Body::Struct(def) = &t.body else {
            return Err(err(format!(
                "{}: a case struct that is not a struct",
                t.name
            )));
        };
        self.w.ctx.writer.var_u32(index + 1);
        self.w.ctx.ref_flag(RefFlag::NotNull);
        write_type_info(self.w, ci)?;
        let compress = self.w.ctx.compress_int();
        if !self.w.ctx.compatible() {
            self.w.ctx.writer.i32(def.hash[compress as usize]);
        }
        self.w.ctx.enter()?;
        let plan = &def.plan[compress as usize];
        if plan.capture {
            return Ok(CaseHead {
                pass: Head::Capture(CapturePass::new(def, &t.name, self.cap)),
                ci,
            });
        }
        const NONE: &[usize] = &[];
        let run = plan.passes.first().map_or(NONE, |r| r.as_slice());
        Ok(CaseHead {
            pass: Head::Pass(StructPass::new(
                self.w, def, &t.name, run, self.cap, self.wpos,
            )),
            ci,
        })
    }
}

/// The first pass over a case struct's fields: the one that takes its scalars, or else
/// the one that writes its first run.
struct CaseHead<'s, 'c, 'a> {
    pass: Head<'s, 'c, 'a>,
    ci: usize,
}

enum Head<'s, 'c, 'a> {
    Capture(CapturePass<'s>),
    Pass(StructPass<'s, 'c, 'a>),
}

impl Head<'_, '_, '_> {
    fn field<T: Serialize + ?Sized>(&mut self, key: &'static str, v: &T) -> Result<()> {
        match self {
            Head::Capture(p) => p.field(key, v),
            Head::Pass(p) => p.field(key, v),
        }
    }

    fn skipped(&mut self, key: &'static str) -> Result<()> {
        match self {
            Head::Capture(p) => p.skipped(key),
            Head::Pass(p) => p.skipped(key),
        }
    }

    fn done(self) -> Result<()> {
        match self {
            Head::Capture(p) => p.done(),
            Head::Pass(p) => p.done(),
        }
    }
}

impl ser::SerializeTupleVariant for CaseHead<'_, '_, '_> {
    type Ok = Option<usize>;
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<()> {
        self.pass.field("", v)
    }
    fn end(self) -> Result<Option<usize>> {
        let ci = self.ci;
        self.pass.done()?;
        Ok(Some(ci))
    }
}

impl ser::SerializeStructVariant for CaseHead<'_, '_, '_> {
    type Ok = Option<usize>;
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, v: &T) -> Result<()> {
        self.pass.field(key, v)
    }
    fn skip_field(&mut self, key: &'static str) -> Result<()> {
        self.pass.skipped(key)
    }
    fn end(self) -> Result<Option<usize>> {
        let ci = self.ci;
        self.pass.done()?;
        Ok(Some(ci))
    }
}

/// A later run of a case struct's fields.
struct CaseRun<'s, 'c, 'a> {
    pass: StructPass<'s, 'c, 'a>,
}

impl<'s, 'c, 'a> ser::Serializer for CaseRun<'s, 'c, 'a> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Impossible<(), Error>;
    type SerializeTuple = Impossible<(), Error>;
    type SerializeTupleStruct = Impossible<(), Error>;
    type SerializeTupleVariant = StructPass<'s, 'c, 'a>;
    type SerializeMap = Impossible<(), Error>;
    type SerializeStruct = Impossible<(), Error>;
    type SerializeStructVariant = StructPass<'s, 'c, 'a>;

    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<StructPass<'s, 'c, 'a>> {
        Ok(self.pass)
    }
    fn serialize_some<T: Serialize + ?Sized>(self, v: &T) -> Result<()> {
        v.serialize(self)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _: &'static str, v: &T) -> Result<()> {
        v.serialize(self)
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant> {
        Ok(self.pass)
    }
    refuse_methods! { serialize_bool serialize_i8 serialize_i16 serialize_i32 serialize_i64 serialize_u8 serialize_u16 serialize_u32 serialize_u64 serialize_f32 serialize_f64 serialize_char serialize_str serialize_bytes serialize_none serialize_unit serialize_unit_struct serialize_unit_variant serialize_newtype_variant serialize_seq serialize_map serialize_struct serialize_tuple serialize_tuple_struct }
}

/// The empty value of a shape, as serde calls (for a field serde skipped).
struct Empty<'s>(&'s Shape);

impl Serialize for Empty<'_> {
    fn serialize<S: ser::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        use ser::{Error as _, SerializeMap, SerializeSeq};
        match self.0 {
            Shape::Option(_) => s.serialize_none(),
            Shape::Bool => s.serialize_bool(false),
            Shape::I8 => s.serialize_i8(0),
            Shape::I16 => s.serialize_i16(0),
            Shape::I32 => s.serialize_i32(0),
            Shape::I64 => s.serialize_i64(0),
            Shape::U8 => s.serialize_u8(0),
            Shape::U16 => s.serialize_u16(0),
            Shape::U32 => s.serialize_u32(0),
            Shape::U64 => s.serialize_u64(0),
            Shape::F32 => s.serialize_f32(0.0),
            Shape::F64 => s.serialize_f64(0.0),
            Shape::Str => s.serialize_str(""),
            Shape::Bytes => s.serialize_bytes(&[]),
            Shape::Seq(_) => s.serialize_seq(Some(0))?.end(),
            Shape::Map(..) => s.serialize_map(Some(0))?.end(),
            Shape::Struct(_) | Shape::Enum(_) | Shape::Union(_) => {
                Err(S::Error::custom("no empty value"))
            }
        }
    }
}

/// One pass over a struct's fields, writing those of `run`, each after the taken scalars
/// that precede it in wire order.
struct StructPass<'s, 'c, 'a> {
    w: &'s mut W<'c, 'a>,
    def: &'s StructDef,
    name: &'s str,
    run: &'s [usize],
    /// Position in `run` of the next field to write.
    next: usize,
    /// Declaration index of the next field serde hands over.
    index: usize,
    fixed: bool,
    cap: &'s Captured,
    /// The wire position of the next field to write (across the passes over one value).
    wpos: &'s mut usize,
}

impl<'s, 'c, 'a> StructPass<'s, 'c, 'a> {
    fn new(
        w: &'s mut W<'c, 'a>,
        def: &'s StructDef,
        name: &'s str,
        run: &'s [usize],
        cap: &'s Captured,
        wpos: &'s mut usize,
    ) -> Self {
        let fixed = !w.ctx.compress_int();
        StructPass {
            w,
            def,
            name,
            run,
            next: 0,
            index: 0,
            fixed,
            cap,
            wpos,
        }
    }

    /// Writes the taken scalars before the field `i`, and moves past it.
    fn reach(&mut self, i: usize) -> Result<()> {
        let plan = plan_of(self.w, self.def);
        let p = plan.wire_pos.get(i).copied().unwrap_or(0);
        if p > *self.wpos {
            put_scalars(self.w, puts(plan, *self.wpos, p), self.cap)?;
        }
        *self.wpos = p + 1;
        Ok(())
    }

    /// Skips the fields of other runs in place (the common case), and writes this run's.
    #[inline(always)]
    fn field<T: Serialize + ?Sized>(&mut self, key: &'static str, v: &T) -> Result<()> {
        let i = self.index;
        self.index += 1;
        if self.run.get(self.next) != Some(&i) {
            return Ok(());
        }
        self.write(i, key, v)
    }

    #[inline(never)]
    fn write<T: Serialize + ?Sized>(&mut self, i: usize, key: &'static str, v: &T) -> Result<()> {
        self.next += 1;
        let f = self
            .def
            .fields
            .get(i)
            .ok_or_else(|| err(format!("{}: more fields than traced", self.name)))?;
        // serde's derive hands fields over in one order whatever the value; a hand-written
        // Serialize that does otherwise is caught on the first value written.
        if self.def.check_names() && f.name != key {
            return Err(err(format!(
                "{}: serde wrote field `{key}` where the traced layout has `{}`",
                self.name, f.name
            )));
        }
        self.reach(i)?;
        write_field(self.w, &f.shape, self.fixed, v)
    }

    /// A field serde skipped (`skip_serializing_if`): every xlang field is on the wire, so
    /// it is written as its type's empty value (`None`, `0`, `false`, `""`, empty
    /// collections), which is what the usual predicates (`Option::is_none`,
    /// `Vec::is_empty`, ...) skip.
    fn skipped(&mut self, key: &'static str) -> Result<()> {
        let i = self.index;
        self.index += 1;
        if self.run.get(self.next) != Some(&i) {
            return Ok(());
        }
        self.next += 1;
        let f = self
            .def
            .fields
            .get(i)
            .ok_or_else(|| err(format!("{}: more fields than traced", self.name)))?;
        self.reach(i)?;
        write_field(self.w, &f.shape, self.fixed, &Empty(&f.shape)).map_err(|_| {
            Error::new(ErrorKind::Unsupported {
                what: format!(
                    "{}.{key}: serde skipped the field (skip_serializing_if), and a field of \
                     this type has no empty value to write in its place; use Option<T>",
                    self.name
                ),
            })
        })
    }

    fn done(self) -> Result<()> {
        if self.next != self.run.len() {
            return Err(err(format!(
                "{}: serde wrote fewer fields than traced",
                self.name
            )));
        }
        Ok(())
    }
}

impl<'s, 'c, 'a> ser::Serializer for StructPass<'s, 'c, 'a> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Impossible<(), Error>;
    type SerializeTuple = Impossible<(), Error>;
    type SerializeTupleStruct = Self;
    type SerializeTupleVariant = Impossible<(), Error>;
    type SerializeMap = Impossible<(), Error>;
    type SerializeStruct = Self;
    type SerializeStructVariant = Impossible<(), Error>;

    pass_entries!();
    refuse_methods! { serialize_bool serialize_i8 serialize_i16 serialize_i32 serialize_i64 serialize_u8 serialize_u16 serialize_u32 serialize_u64 serialize_f32 serialize_f64 serialize_char serialize_str serialize_bytes serialize_none serialize_unit serialize_unit_struct serialize_unit_variant serialize_newtype_variant serialize_seq serialize_map serialize_tuple serialize_tuple_variant serialize_struct_variant }
}

/// A struct field of `Option` type: the null flag, then the value as a field of `inner`.
struct OptionSer<'s, 'c, 'a> {
    w: &'s mut W<'c, 'a>,
    inner: &'s Shape,
    fixed: bool,
}

impl<'s, 'c, 'a> ser::Serializer for OptionSer<'s, 'c, 'a> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Impossible<(), Error>;
    type SerializeTuple = Impossible<(), Error>;
    type SerializeTupleStruct = Impossible<(), Error>;
    type SerializeTupleVariant = Impossible<(), Error>;
    type SerializeMap = Impossible<(), Error>;
    type SerializeStruct = Impossible<(), Error>;
    type SerializeStructVariant = Impossible<(), Error>;

    fn serialize_none(self) -> Result<()> {
        self.w.ctx.ref_flag(RefFlag::Null);
        Ok(())
    }
    fn serialize_some<T: Serialize + ?Sized>(self, v: &T) -> Result<()> {
        self.w.ctx.ref_flag(RefFlag::NotNull);
        write_field(self.w, self.inner, self.fixed, v)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _: &'static str, v: &T) -> Result<()> {
        v.serialize(self)
    }
    refuse_methods! { serialize_bool serialize_i8 serialize_i16 serialize_i32 serialize_i64 serialize_u8 serialize_u16 serialize_u32 serialize_u64 serialize_f32 serialize_f64 serialize_char serialize_str serialize_bytes serialize_unit serialize_unit_struct serialize_unit_variant serialize_tuple serialize_tuple_struct serialize_tuple_variant serialize_struct_variant serialize_newtype_variant serialize_seq serialize_map serialize_struct }
}

/// The payload of a value that is not a struct.
struct PayloadSer<'s, 'c, 'a> {
    w: &'s mut W<'c, 'a>,
    shape: &'s Shape,
    fixed: bool,
    /// For a list of `Option`s: whether one is `None`.
    has_null: bool,
}

#[cold]
fn out_of_range(v: impl ToString) -> Error {
    Error::new(ErrorKind::OutOfRange {
        value: v.to_string(),
        target: "the traced integer type",
    })
}

impl PayloadSer<'_, '_, '_> {
    fn int(self, v: i64) -> Result<()> {
        let w = &mut self.w.ctx.writer;
        match self.shape {
            Shape::I8 => w.i8(i8::try_from(v).map_err(|_| out_of_range(v))?),
            Shape::I16 => w.i16(i16::try_from(v).map_err(|_| out_of_range(v))?),
            Shape::I32 => {
                let v = i32::try_from(v).map_err(|_| out_of_range(v))?;
                if self.fixed {
                    w.i32(v)
                } else {
                    w.var_i32(v)
                }
            }
            Shape::I64 if self.fixed => w.i64(v),
            Shape::I64 => w.var_i64(v),
            _ => return Err(unexpected("signed integer")),
        }
        Ok(())
    }

    fn uint(self, v: u64) -> Result<()> {
        let w = &mut self.w.ctx.writer;
        match self.shape {
            Shape::U8 => w.u8(u8::try_from(v).map_err(|_| out_of_range(v))?),
            Shape::U16 => w.u16(u16::try_from(v).map_err(|_| out_of_range(v))?),
            Shape::U32 => {
                let v = u32::try_from(v).map_err(|_| out_of_range(v))?;
                if self.fixed {
                    w.u32(v)
                } else {
                    w.var_u32(v)
                }
            }
            Shape::U64 if self.fixed => w.u64(v),
            Shape::U64 => w.var_u64(v),
            _ => return Err(unexpected("unsigned integer")),
        }
        Ok(())
    }
}

impl<'s, 'c, 'a> ser::Serializer for PayloadSer<'s, 'c, 'a> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = SeqWriter<'s, 'c, 'a>;
    type SerializeTuple = SeqWriter<'s, 'c, 'a>;
    type SerializeTupleStruct = Impossible<(), Error>;
    type SerializeTupleVariant = Impossible<(), Error>;
    type SerializeMap = MapWriter<'s, 'c, 'a>;
    type SerializeStruct = Impossible<(), Error>;
    type SerializeStructVariant = Impossible<(), Error>;

    fn serialize_bool(self, v: bool) -> Result<()> {
        match self.shape {
            Shape::Bool => {
                self.w.ctx.writer.bool(v);
                Ok(())
            }
            _ => Err(unexpected("bool")),
        }
    }
    fn serialize_i8(self, v: i8) -> Result<()> {
        self.int(v.into())
    }
    fn serialize_i16(self, v: i16) -> Result<()> {
        self.int(v.into())
    }
    #[inline]
    fn serialize_i32(self, v: i32) -> Result<()> {
        match (self.shape, self.fixed) {
            (Shape::I32, false) => self.w.ctx.writer.var_i32(v),
            (Shape::I32, true) => self.w.ctx.writer.i32(v),
            _ => return self.int(v.into()),
        }
        Ok(())
    }
    #[inline]
    fn serialize_i64(self, v: i64) -> Result<()> {
        match (self.shape, self.fixed) {
            (Shape::I64, false) => self.w.ctx.writer.var_i64(v),
            (Shape::I64, true) => self.w.ctx.writer.i64(v),
            _ => return self.int(v),
        }
        Ok(())
    }
    fn serialize_u8(self, v: u8) -> Result<()> {
        self.uint(v.into())
    }
    fn serialize_u16(self, v: u16) -> Result<()> {
        self.uint(v.into())
    }
    fn serialize_u32(self, v: u32) -> Result<()> {
        self.uint(v.into())
    }
    fn serialize_u64(self, v: u64) -> Result<()> {
        self.uint(v)
    }
    fn serialize_f32(self, v: f32) -> Result<()> {
        match self.shape {
            Shape::F32 => {
                self.w.ctx.writer.f32(v);
                Ok(())
            }
            _ => Err(unexpected("f32")),
        }
    }
    fn serialize_f64(self, v: f64) -> Result<()> {
        match self.shape {
            Shape::F64 => {
                self.w.ctx.writer.f64(v);
                Ok(())
            }
            _ => Err(unexpected("f64")),
        }
    }
    fn serialize_str(self, v: &str) -> Result<()> {
        match self.shape {
            Shape::Str => {
                crate::serializer::string::write_str(v, self.w.ctx);
                Ok(())
            }
            _ => Err(unexpected("string")),
        }
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<()> {
        match self.shape {
            Shape::Bytes => self.w.ctx.binary(v),
            Shape::Seq(e) if **e == Shape::U8 => self.w.ctx.binary(v),
            _ => Err(unexpected("bytes")),
        }
    }
    fn serialize_some<T: Serialize + ?Sized>(self, v: &T) -> Result<()> {
        // A `Some` in a position the trace saw as not nullable (an `Option` element is
        // flagged by the list or map).
        v.serialize(self)
    }
    fn serialize_unit_variant(self, _: &'static str, index: u32, _: &'static str) -> Result<()> {
        match self.shape {
            Shape::Enum(_) => {
                self.w.ctx.writer.var_u32(index);
                Ok(())
            }
            _ => Err(unexpected("unit variant")),
        }
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _: &'static str, v: &T) -> Result<()> {
        v.serialize(self)
    }
    fn serialize_seq(self, len: Option<usize>) -> Result<SeqWriter<'s, 'c, 'a>> {
        // serde writes a `&[u8]` as a sequence and reads it as bytes (BINARY either way).
        const BYTE: Shape = Shape::U8;
        let e = match self.shape {
            Shape::Seq(e) => &**e,
            Shape::Bytes => &BYTE,
            _ => return Err(unexpected("sequence")),
        };
        let len = len.ok_or_else(|| {
            Error::new(ErrorKind::Unsupported {
                what: "a serde sequence of unknown length".to_string(),
            })
        })?;
        SeqWriter::start(self.w, e, len, self.has_null)
    }
    /// A fixed-size array or tuple of strings, written as a sequence.
    fn serialize_tuple(self, len: usize) -> Result<SeqWriter<'s, 'c, 'a>> {
        self.serialize_seq(Some(len))
    }
    fn serialize_map(self, len: Option<usize>) -> Result<MapWriter<'s, 'c, 'a>> {
        let Shape::Map(k, v) = self.shape else {
            return Err(unexpected("map"));
        };
        let len = len.ok_or_else(|| {
            Error::new(ErrorKind::Unsupported {
                what: "a serde map of unknown length".to_string(),
            })
        })?;
        self.w.ctx.length(len)?;
        if len > 0 {
            self.w.ctx.enter()?;
        }
        Ok(MapWriter {
            w: self.w,
            key: k,
            value: v,
            len,
            open: None,
        })
    }
    refuse_methods! { serialize_tuple_struct serialize_tuple_variant serialize_struct_variant serialize_char serialize_none serialize_unit serialize_unit_struct serialize_newtype_variant serialize_struct }
}

/// The elements of a sequence: a dense array (written as they come after its byte length,
/// or collected when bytes may go out of band), or a list.
pub(crate) enum SeqWriter<'s, 'c, 'a> {
    Dense {
        w: &'s mut W<'c, 'a>,
        shape: &'s Shape,
        bytes: Vec<u8>,
        len: usize,
    },
    /// Elements written in place: the byte length (from the element count serde gave) is
    /// written first, and the bytes written are checked against it at the end (`end`: the
    /// output length they must reach). The room is reserved for the count serde gave (up
    /// to a bound: the count is the `Serialize` impl's word).
    InPlace {
        room: crate::buffer::Room<'s, 'a>,
        shape: &'s Shape,
        end: usize,
    },
    List {
        w: &'s mut W<'c, 'a>,
        element: &'s Shape,
        flags: bool,
        len: usize,
    },
}

impl<'s, 'c, 'a> SeqWriter<'s, 'c, 'a> {
    fn start(w: &'s mut W<'c, 'a>, e: &'s Shape, len: usize, has_null: bool) -> Result<Self> {
        if let Some(id) = e.dense() {
            let width = match id {
                TypeId::BoolArray | TypeId::Int8Array | TypeId::Binary => 1,
                TypeId::Int16Array | TypeId::UInt16Array => 2,
                TypeId::Int32Array | TypeId::UInt32Array | TypeId::Float32Array => 4,
                _ => 8,
            };
            if id != TypeId::Binary || w.ctx.oob.is_none() {
                if id == TypeId::Binary {
                    w.ctx.length(len)?;
                } else {
                    w.ctx.length(len.saturating_mul(width))?;
                }
                const MOST: usize = 1 << 16;
                let bytes = len.saturating_mul(width);
                let room = w.ctx.writer.room(bytes.min(MOST));
                return Ok(SeqWriter::InPlace {
                    end: room.len().saturating_add(bytes),
                    room,
                    shape: e,
                });
            }
            return Ok(SeqWriter::Dense {
                w,
                shape: e,
                bytes: Vec::with_capacity(len.saturating_mul(width)),
                len,
            });
        }
        w.ctx.length(len)?;
        if len == 0 {
            return Ok(SeqWriter::List {
                w,
                element: e,
                flags: false,
                len,
            });
        }
        let inner = match e {
            Shape::Option(x) => &**x,
            x => x,
        };
        // As write_elements: one shared type, declared unless the elements are structs.
        let decl = !inner.polymorphic();
        let mut header = elements::SAME_TYPE;
        if decl {
            header |= elements::DECL_TYPE;
        }
        if has_null {
            header |= elements::HAS_NULL;
        }
        w.ctx.writer.u8(header);
        w.ctx.enter()?;
        if !decl {
            if let Shape::Struct(i) = inner {
                write_type_info(w, *i)?;
            }
        }
        Ok(SeqWriter::List {
            w,
            element: e,
            flags: has_null,
            len,
        })
    }
}

impl ser::SerializeSeq for SeqWriter<'_, '_, '_> {
    type Ok = ();
    type Error = Error;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<()> {
        match self {
            SeqWriter::Dense { shape, bytes, .. } => v.serialize(DenseSer { shape, bytes }),
            SeqWriter::InPlace { room, shape, .. } => v.serialize(InPlaceSer { shape, out: room }),
            SeqWriter::List {
                w, element, flags, ..
            } => match element {
                Shape::Option(inner) if *flags => v.serialize(FlaggedSer { w, inner }),
                // Without nulls, `Some(x)` is written as `x` (the payload writers see
                // through `Some`).
                Shape::Option(inner) => write_payload(w, inner, false, v),
                e => write_payload(w, e, false, v),
            },
        }
    }
    fn end(self) -> Result<()> {
        match self {
            SeqWriter::Dense {
                w,
                shape,
                bytes,
                len,
            } => {
                let _ = len;
                if *shape == Shape::U8 {
                    w.ctx.binary(&bytes)
                } else {
                    w.ctx.length(bytes.len())?;
                    w.ctx.writer.bytes(&bytes);
                    Ok(())
                }
            }
            SeqWriter::InPlace { room, end, .. } if room.len() == end => Ok(()),
            SeqWriter::InPlace { .. } => Err(wrong_length()),
            SeqWriter::List { w, len, .. } => {
                if len > 0 {
                    w.ctx.leave();
                }
                Ok(())
            }
        }
    }
}

impl ser::SerializeTuple for SeqWriter<'_, '_, '_> {
    type Ok = ();
    type Error = Error;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<()> {
        ser::SerializeSeq::serialize_element(self, v)
    }
    fn end(self) -> Result<()> {
        ser::SerializeSeq::end(self)
    }
}

#[cold]
fn wrong_length() -> Error {
    err("a serde sequence handed over another number of elements than its length".into())
}

/// One element of a dense array, written little-endian in place.
struct InPlaceSer<'s, 'r, 'a> {
    shape: &'s Shape,
    out: &'s mut crate::buffer::Room<'r, 'a>,
}

macro_rules! in_place {
    ($($m:ident($t:ty) => $shape:ident $put:ident;)*) => {
        $(#[inline]
        fn $m(self, v: $t) -> Result<()> {
            match self.shape {
                Shape::$shape => {
                    self.out.$put(v);
                    Ok(())
                }
                _ => Err(unexpected(stringify!($t))),
            }
        })*
    };
}

impl ser::Serializer for InPlaceSer<'_, '_, '_> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Impossible<(), Error>;
    type SerializeTuple = Impossible<(), Error>;
    type SerializeTupleStruct = Impossible<(), Error>;
    type SerializeTupleVariant = Impossible<(), Error>;
    type SerializeMap = Impossible<(), Error>;
    type SerializeStruct = Impossible<(), Error>;
    type SerializeStructVariant = Impossible<(), Error>;

    in_place! {
        serialize_bool(bool) => Bool bool; serialize_i8(i8) => I8 i8;
        serialize_i16(i16) => I16 i16; serialize_i32(i32) => I32 i32;
        serialize_i64(i64) => I64 i64; serialize_u8(u8) => U8 u8;
        serialize_u16(u16) => U16 u16; serialize_u32(u32) => U32 u32;
        serialize_u64(u64) => U64 u64; serialize_f32(f32) => F32 f32;
        serialize_f64(f64) => F64 f64;
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _: &'static str, v: &T) -> Result<()> {
        v.serialize(self)
    }
    refuse_methods! { serialize_char serialize_str serialize_bytes serialize_none serialize_unit serialize_unit_struct serialize_unit_variant serialize_tuple serialize_tuple_struct serialize_tuple_variant serialize_struct_variant serialize_some serialize_newtype_variant serialize_seq serialize_map serialize_struct }
}

/// An element of a list that has nulls: NULL, or NOT_NULL and the payload.
struct FlaggedSer<'s, 'c, 'a> {
    w: &'s mut W<'c, 'a>,
    inner: &'s Shape,
}

impl ser::Serializer for FlaggedSer<'_, '_, '_> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Impossible<(), Error>;
    type SerializeTuple = Impossible<(), Error>;
    type SerializeTupleStruct = Impossible<(), Error>;
    type SerializeTupleVariant = Impossible<(), Error>;
    type SerializeMap = Impossible<(), Error>;
    type SerializeStruct = Impossible<(), Error>;
    type SerializeStructVariant = Impossible<(), Error>;

    fn serialize_none(self) -> Result<()> {
        self.w.ctx.ref_flag(RefFlag::Null);
        Ok(())
    }
    fn serialize_some<T: Serialize + ?Sized>(self, v: &T) -> Result<()> {
        self.w.ctx.ref_flag(RefFlag::NotNull);
        write_payload(self.w, self.inner, false, v)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _: &'static str, v: &T) -> Result<()> {
        v.serialize(self)
    }
    refuse_methods! { serialize_bool serialize_i8 serialize_i16 serialize_i32 serialize_i64 serialize_u8 serialize_u16 serialize_u32 serialize_u64 serialize_f32 serialize_f64 serialize_char serialize_str serialize_bytes serialize_unit serialize_unit_struct serialize_unit_variant serialize_tuple serialize_tuple_struct serialize_tuple_variant serialize_struct_variant serialize_newtype_variant serialize_seq serialize_map serialize_struct }
}

/// Whether a sequence holds a `None` (the header of a list says so before its elements).
struct NullScan;

impl ser::Serializer for NullScan {
    type Ok = bool;
    type Error = Error;
    type SerializeSeq = NullScanSeq;
    type SerializeTuple = NullScanSeq;
    type SerializeTupleStruct = Impossible<bool, Error>;
    type SerializeTupleVariant = Impossible<bool, Error>;
    type SerializeMap = Impossible<bool, Error>;
    type SerializeStruct = Impossible<bool, Error>;
    type SerializeStructVariant = Impossible<bool, Error>;

    fn serialize_seq(self, _: Option<usize>) -> Result<NullScanSeq> {
        Ok(NullScanSeq(false))
    }
    fn serialize_tuple(self, _: usize) -> Result<NullScanSeq> {
        Ok(NullScanSeq(false))
    }
    fn serialize_none(self) -> Result<bool> {
        Ok(true)
    }
    fn serialize_some<T: Serialize + ?Sized>(self, _: &T) -> Result<bool> {
        Ok(false)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        v: &T,
    ) -> Result<bool> {
        v.serialize(self)
    }
    fn serialize_bool(self, _: bool) -> Result<bool> {
        Ok(false)
    }
    fn serialize_i8(self, _: i8) -> Result<bool> {
        Ok(false)
    }
    fn serialize_i16(self, _: i16) -> Result<bool> {
        Ok(false)
    }
    fn serialize_i32(self, _: i32) -> Result<bool> {
        Ok(false)
    }
    fn serialize_i64(self, _: i64) -> Result<bool> {
        Ok(false)
    }
    fn serialize_u8(self, _: u8) -> Result<bool> {
        Ok(false)
    }
    fn serialize_u16(self, _: u16) -> Result<bool> {
        Ok(false)
    }
    fn serialize_u32(self, _: u32) -> Result<bool> {
        Ok(false)
    }
    fn serialize_u64(self, _: u64) -> Result<bool> {
        Ok(false)
    }
    fn serialize_f32(self, _: f32) -> Result<bool> {
        Ok(false)
    }
    fn serialize_f64(self, _: f64) -> Result<bool> {
        Ok(false)
    }
    fn serialize_char(self, _: char) -> Result<bool> {
        Ok(false)
    }
    fn serialize_str(self, _: &str) -> Result<bool> {
        Ok(false)
    }
    fn serialize_bytes(self, _: &[u8]) -> Result<bool> {
        Ok(false)
    }
    fn serialize_unit(self) -> Result<bool> {
        Ok(false)
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<bool> {
        Ok(false)
    }
    fn serialize_unit_variant(self, _: &'static str, _: u32, _: &'static str) -> Result<bool> {
        Ok(false)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<bool> {
        Ok(false)
    }
    refuse_methods! { serialize_tuple_struct serialize_tuple_variant serialize_map serialize_struct serialize_struct_variant }
}

struct NullScanSeq(bool);

impl ser::SerializeSeq for NullScanSeq {
    type Ok = bool;
    type Error = Error;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<()> {
        if !self.0 {
            self.0 = v.serialize(NullScan)?;
        }
        Ok(())
    }
    fn end(self) -> Result<bool> {
        Ok(self.0)
    }
}

impl ser::SerializeTuple for NullScanSeq {
    type Ok = bool;
    type Error = Error;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<()> {
        ser::SerializeSeq::serialize_element(self, v)
    }
    fn end(self) -> Result<bool> {
        Ok(self.0)
    }
}

/// One element of a dense array, appended little-endian to `bytes`.
struct DenseSer<'s> {
    shape: &'s Shape,
    bytes: &'s mut Vec<u8>,
}

macro_rules! dense {
    ($($m:ident($t:ty) => $shape:ident;)*) => {
        $(fn $m(self, v: $t) -> Result<()> {
            match self.shape {
                Shape::$shape => {
                    self.bytes.extend_from_slice(&v.to_le_bytes());
                    Ok(())
                }
                _ => Err(unexpected(stringify!($t))),
            }
        })*
    };
}

impl ser::Serializer for DenseSer<'_> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Impossible<(), Error>;
    type SerializeTuple = Impossible<(), Error>;
    type SerializeTupleStruct = Impossible<(), Error>;
    type SerializeTupleVariant = Impossible<(), Error>;
    type SerializeMap = Impossible<(), Error>;
    type SerializeStruct = Impossible<(), Error>;
    type SerializeStructVariant = Impossible<(), Error>;

    fn serialize_bool(self, v: bool) -> Result<()> {
        match self.shape {
            Shape::Bool => {
                self.bytes.push(v as u8);
                Ok(())
            }
            _ => Err(unexpected("bool")),
        }
    }
    dense! {
        serialize_i8(i8) => I8; serialize_i16(i16) => I16; serialize_i32(i32) => I32;
        serialize_i64(i64) => I64; serialize_u8(u8) => U8; serialize_u16(u16) => U16;
        serialize_u32(u32) => U32; serialize_u64(u64) => U64; serialize_f32(f32) => F32;
        serialize_f64(f64) => F64;
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _: &'static str, v: &T) -> Result<()> {
        v.serialize(self)
    }
    refuse_methods! { serialize_char serialize_str serialize_bytes serialize_none serialize_unit serialize_unit_struct serialize_unit_variant serialize_tuple serialize_tuple_struct serialize_tuple_variant serialize_struct_variant serialize_some serialize_newtype_variant serialize_seq serialize_map serialize_struct }
}

/// The pairs of a map, in chunks as `write_map` makes them: one chunk per 255 pairs of the
/// (static) key and value types, a chunk of its own for a pair with a `None` value.
pub(crate) struct MapWriter<'s, 'c, 'a> {
    w: &'s mut W<'c, 'a>,
    key: &'s Shape,
    value: &'s Shape,
    len: usize,
    /// The open chunk: position of its count byte, and its pair count.
    open: Option<(usize, u8)>,
}

impl MapWriter<'_, '_, '_> {
    fn decl(&self, s: &Shape) -> bool {
        !(s.polymorphic() && self.w.ctx.compatible())
    }

    fn close(&mut self) {
        if let Some((at, n)) = self.open.take() {
            self.w.ctx.writer.patch_u8(at, n);
        }
    }

    fn pair<K: Serialize + ?Sized, V: Serialize + ?Sized>(&mut self, k: &K, v: &V) -> Result<()> {
        let (k_decl, v_decl) = (self.decl(self.key), self.decl(self.value));
        let value_null = matches!(self.value, Shape::Option(_)) && v.serialize(NullScan)?;
        if value_null {
            self.close();
            if k_decl {
                self.w.ctx.writer.u8(kv::VALUE_NULL | kv::KEY_DECL_TYPE);
                return write_payload(self.w, self.key, false, k);
            }
            self.w.ctx.writer.u8(kv::VALUE_NULL | kv::KEY_TRACK_REF);
            self.w.ctx.ref_flag(RefFlag::NotNull);
            if let Shape::Struct(i) = self.key {
                write_type_info(self.w, *i)?;
            }
            return write_payload(self.w, self.key, false, k);
        }
        let fits = matches!(self.open, Some((_, n)) if usize::from(n) < kv::MAX_CHUNK);
        if !fits {
            self.close();
            let mut header = 0;
            if k_decl {
                header |= kv::KEY_DECL_TYPE;
            }
            if v_decl {
                header |= kv::VALUE_DECL_TYPE;
            }
            self.w.ctx.writer.u8(header);
            let at = self.w.ctx.writer.len();
            self.w.ctx.writer.u8(0);
            if !k_decl {
                if let Shape::Struct(i) = self.key {
                    write_type_info(self.w, *i)?;
                }
            }
            if !v_decl {
                if let Shape::Struct(i) = unwrap_option(self.value) {
                    write_type_info(self.w, *i)?;
                }
            }
            self.open = Some((at, 0));
        }
        write_payload(self.w, self.key, false, k)?;
        match self.value {
            Shape::Option(inner) => write_payload(self.w, inner, false, v)?,
            s => write_payload(self.w, s, false, v)?,
        }
        if let Some((_, n)) = self.open.as_mut() {
            *n += 1;
        }
        Ok(())
    }
}

fn unwrap_option(s: &Shape) -> &Shape {
    match s {
        Shape::Option(x) => x,
        x => x,
    }
}

impl ser::SerializeMap for MapWriter<'_, '_, '_> {
    type Ok = ();
    type Error = Error;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, _: &T) -> Result<()> {
        Err(Error::new(ErrorKind::Unsupported {
            what: "a serde map written key by key (its Serialize must use serialize_entry, \
                   as the standard maps do)"
                .to_string(),
        }))
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, _: &T) -> Result<()> {
        Err(unexpected("map value without key"))
    }
    fn serialize_entry<K: Serialize + ?Sized, V: Serialize + ?Sized>(
        &mut self,
        k: &K,
        v: &V,
    ) -> Result<()> {
        self.pair(k, v)
    }
    fn end(mut self) -> Result<()> {
        self.close();
        if self.len > 0 {
            self.w.ctx.leave();
        }
        Ok(())
    }
}
