//! The declared layout of serde types, traced once at registration with serde-reflection, in
//! the terms the derive uses: field order, schema hash and TypeDef fields come from the same
//! tables (`FieldKey`, `render_fingerprint`, the field types of the built-in types).

use crate::error::{Error, ErrorKind, Result};
use crate::meta::typedef::{FieldId, FieldInfo, FieldType};
use crate::registry::{Registration, Registry, UserKind};
use crate::serializer::layout::FieldKey;
use crate::types::TypeId;
use serde_reflection::{ContainerFormat, Format, Named, VariantFormat};
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

/// The declared type of a value, as far as the wire is concerned.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Shape {
    Bool,
    I8,
    I16,
    I32,
    I64,
    U8,
    U16,
    U32,
    U64,
    F32,
    F64,
    Str,
    /// `serde_bytes` and the like: BINARY.
    Bytes,
    Option(Box<Shape>),
    /// A dense array for a sequence of numbers or bools (BINARY for `u8`), else a LIST.
    /// Also a fixed-size array or tuple of strings (see `shape`).
    Seq(Box<Shape>),
    Map(Box<Shape>, Box<Shape>),
    /// A struct of the table (its index).
    Struct(usize),
    /// A unit-only enum of the table (its index).
    Enum(usize),
    /// An enum with data of the table (its index): a tagged union.
    Union(usize),
}

impl Shape {
    /// The wire type of a value of this shape; `fixed` for a struct field outside
    /// `compress_int` (32- and 64-bit integers then have fixed width, as in the derive).
    pub(crate) fn type_id(&self, fixed: bool) -> TypeId {
        use TypeId as T;
        match self {
            Shape::Bool => T::Bool,
            Shape::I8 => T::Int8,
            Shape::I16 => T::Int16,
            Shape::I32 if fixed => T::Int32,
            Shape::I32 => T::VarInt32,
            Shape::I64 if fixed => T::Int64,
            Shape::I64 => T::VarInt64,
            Shape::U8 => T::UInt8,
            Shape::U16 => T::UInt16,
            Shape::U32 if fixed => T::UInt32,
            Shape::U32 => T::VarUInt32,
            Shape::U64 if fixed => T::UInt64,
            Shape::U64 => T::VarUInt64,
            Shape::F32 => T::Float32,
            Shape::F64 => T::Float64,
            Shape::Str => T::String,
            Shape::Bytes => T::Binary,
            Shape::Option(inner) => inner.type_id(fixed),
            Shape::Seq(e) => e.dense().unwrap_or(T::List),
            Shape::Map(..) => T::Map,
            Shape::Struct(_) => T::Struct,
            Shape::Enum(_) => T::Enum,
            Shape::Union(_) => T::Union,
        }
    }

    /// The dense array type of a sequence of this element shape, if it has one.
    pub(crate) fn dense(&self) -> Option<TypeId> {
        use TypeId as T;
        Some(match self {
            Shape::Bool => T::BoolArray,
            Shape::I8 => T::Int8Array,
            Shape::I16 => T::Int16Array,
            Shape::I32 => T::Int32Array,
            Shape::I64 => T::Int64Array,
            Shape::U8 => T::Binary,
            Shape::U16 => T::UInt16Array,
            Shape::U32 => T::UInt32Array,
            Shape::U64 => T::UInt64Array,
            Shape::F32 => T::Float32Array,
            Shape::F64 => T::Float64Array,
            _ => return None,
        })
    }

    /// True for structs, which keep their type info in declared positions where other
    /// types drop it (pyfory treats them as possibly polymorphic).
    pub(crate) fn polymorphic(&self) -> bool {
        matches!(self, Shape::Struct(_))
    }

    /// The declared field type, as a TypeDef and the schema fingerprint describe it.
    pub(crate) fn field_type(&self, table: &Table, registry: &Registry, fixed: bool) -> FieldType {
        let compatible = registry.is_compatible();
        match self {
            Shape::Option(inner) => {
                let mut t = inner.field_type(table, registry, fixed);
                t.nullable = true;
                t
            }
            Shape::Seq(e) if e.dense().is_some() => FieldType::leaf(self.type_id(false)),
            Shape::Seq(e) => {
                let mut t = FieldType::leaf(TypeId::List);
                t.children.push(e.field_type(table, registry, false));
                t
            }
            Shape::Map(k, v) => {
                let mut t = FieldType::leaf(TypeId::Map);
                t.children.push(k.field_type(table, registry, false));
                t.children.push(v.field_type(table, registry, false));
                t
            }
            // An enum (union) field names ENUM (UNION) whatever its registration, as the
            // derive's.
            Shape::Enum(_) => FieldType::leaf(TypeId::Enum),
            Shape::Union(_) => FieldType::leaf(TypeId::Union),
            Shape::Struct(i) => {
                let named = table
                    .types
                    .get(*i)
                    .and_then(|t| registry.at(t.entry))
                    .is_some_and(|e| matches!(e.registration, Registration::Name { .. }));
                FieldType::leaf(crate::serializer::object::struct_kind_of(named, compatible))
            }
            _ => FieldType::leaf(self.type_id(fixed)),
        }
    }
}

/// One field of a traced struct.
#[derive(Debug)]
pub(crate) struct FieldDef {
    /// The name serde gives it (after `rename`), which is the name on the wire.
    pub name: String,
    pub shape: Shape,
    /// For a field whose value fits a word (see [`Shape::scalar`]): its fixed-width type
    /// (`Int32` for `i32`, ...), and whether it is an `Option`. Writing takes such fields in
    /// one pass over the value and puts them out in wire order.
    pub scalar: Option<(TypeId, bool)>,
}

/// How many fields of a struct (the first, in declaration order) can be taken as scalars.
pub(crate) const SCALAR_SLOTS: usize = 16;

impl Shape {
    /// For a value a word holds (a number, a bool, a unit-only enum's ordinal) or an
    /// `Option` of one: that shape, and whether it is in an `Option`.
    pub(crate) fn scalar(&self) -> Option<(&Shape, bool)> {
        match self {
            Shape::Option(inner) => match inner.scalar() {
                Some((s, false)) => Some((s, true)),
                _ => None,
            },
            Shape::Bool
            | Shape::I8
            | Shape::I16
            | Shape::I32
            | Shape::I64
            | Shape::U8
            | Shape::U16
            | Shape::U32
            | Shape::U64
            | Shape::F32
            | Shape::F64
            | Shape::Enum(_) => Some((self, false)),
            _ => None,
        }
    }
}

/// How a struct is written in one mode: a pass over the value that takes its scalar fields
/// (if it has any), then one pass per run of the other fields whose declaration order
/// ascends in wire order; the scalars are put out between the fields of those passes, at
/// their wire positions.
#[derive(Debug)]
pub(crate) struct WritePlan {
    pub capture: bool,
    pub passes: Vec<Vec<usize>>,
    /// The wire position of each field, by declaration index.
    pub wire_pos: Vec<usize>,
    /// How the field at each wire position is put out, if it is a scalar.
    pub puts: Vec<Put>,
}

/// How one scalar field is put out: from slot `slot` (its declaration index), after a null
/// flag if `nullable`, as the wire type `id` (`None` at the position of a field that is not
/// a scalar).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Put {
    pub slot: u8,
    pub nullable: bool,
    pub id: Option<TypeId>,
    /// How many puts from this one on (at least 1) have the same `id` and `nullable`: a
    /// run is put out by one loop.
    pub run: u8,
}

impl WritePlan {
    fn new(fields: &[FieldDef], order: &[usize], fixed: bool) -> WritePlan {
        let mut puts: Vec<Put> = order
            .iter()
            .map(|&d| match fields.get(d).filter(|f| f.scalar.is_some()) {
                Some(f) => {
                    let (shape, nullable) = f.shape.scalar().unwrap_or((&f.shape, false));
                    Put {
                        slot: d as u8,
                        nullable,
                        id: Some(shape.type_id(fixed)),
                        run: 1,
                    }
                }
                None => Put {
                    slot: 0,
                    nullable: false,
                    id: None,
                    run: 1,
                },
            })
            .collect();
        for i in (0..puts.len().saturating_sub(1)).rev() {
            let (a, b) = (puts[i], puts[i + 1]);
            if a.id == b.id && a.nullable == b.nullable && b.run < u8::MAX {
                puts[i].run = b.run + 1;
            }
        }
        let mut wire_pos = vec![0; fields.len()];
        for (p, &d) in order.iter().enumerate() {
            if let Some(slot) = wire_pos.get_mut(d) {
                *slot = p;
            }
        }
        let others: Vec<usize> = order
            .iter()
            .copied()
            .filter(|&d| fields.get(d).is_some_and(|f| f.scalar.is_none()))
            .collect();
        WritePlan {
            capture: fields.iter().any(|f| f.scalar.is_some()),
            passes: runs_of(&others),
            wire_pos,
            puts,
        }
    }
}

/// How many fields of a struct (the first, in declaration order) a read can take ahead of
/// the one serde asks for.
pub(crate) const AHEAD_SLOTS: usize = 32;

/// How a struct is read in one mode when serde takes its fields as a sequence, in
/// declaration order, and the input holds them in wire order: before each field, the
/// fields that precede it on the wire and were not read yet are taken ahead (scalars into
/// slots, strings and dense arrays as their input offset), so that the field is next.
/// Only fields whose reading has no effect but on the position are taken ahead; the
/// scalars that lead the wire order are all taken before the first field.
#[derive(Debug)]
pub(crate) struct SeqPlan {
    /// By declaration index.
    pub steps: Vec<SeqStep>,
    /// By wire position: how the field there is taken ahead.
    pub ahead: Vec<Ahead>,
    /// Whether a BINARY is taken ahead (which an out-of-band stream cannot do).
    pub takes_binary: bool,
}

#[derive(Debug, Clone, Copy)]
pub(crate) struct SeqStep {
    /// The wire position to take ahead up to (exclusive) before this field.
    pub ahead_to: u32,
    pub from: Source,
    /// For a field served from its slot: its fixed-width type (`Int32` for `i32`, `Enum`
    /// for a unit-only enum), and whether it is an `Option`.
    pub id: TypeId,
    pub nullable: bool,
}

/// Where a field is read from when serde asks for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Source {
    /// The input, where it is next.
    Next,
    /// Its slot: a scalar taken ahead.
    Slot,
    /// The input at the offset in its slot (taken ahead).
    At,
}

/// How the field at a wire position is taken ahead, into the slot of its declaration
/// index: a scalar (`id` its wire type; a unit-only enum's ordinal, `id` `Enum`, is checked
/// against traced type `index`) after its null flag if `nullable`; or (`at`) its input
/// offset, and then it is skipped: its null flag if `index` is 1 (`nullable` is for the
/// scalars' flag), and a payload of wire type `id` (a string, BINARY or a dense array).
/// Positions never taken ahead have `Ahead::NO`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Ahead {
    pub id: TypeId,
    pub slot: u8,
    pub nullable: bool,
    pub at: bool,
    pub index: u32,
}

impl Ahead {
    pub(crate) const NO: Ahead = Ahead {
        id: TypeId::Unknown,
        slot: 0,
        nullable: false,
        at: false,
        index: u32::MAX,
    };
}

impl SeqPlan {
    /// The plan for fields `fields` in wire order `order`, if every field that must be taken
    /// ahead can be.
    fn new(fields: &[FieldDef], order: &[usize], fixed: bool) -> Option<SeqPlan> {
        let mut wire_pos = vec![0; fields.len()];
        for (p, &d) in order.iter().enumerate() {
            *wire_pos.get_mut(d)? = p;
        }
        let mut plan = SeqPlan {
            steps: Vec::with_capacity(fields.len()),
            ahead: vec![Ahead::NO; order.len()],
            takes_binary: false,
        };
        let mut wp = 0;
        for (q, &d) in order.iter().enumerate() {
            if plan.take_scalar(q, fields.get(d)?, d, fixed).is_none() {
                break;
            }
            wp = q + 1;
        }
        for (d, f) in fields.iter().enumerate() {
            let p = *wire_pos.get(d)?;
            let (id, nullable) = match f.shape.scalar() {
                Some((s, nullable)) => (s.type_id(true), nullable),
                None => (TypeId::Unknown, false),
            };
            if p < wp {
                let a = plan.ahead.get(p)?;
                let from = match a.id {
                    _ if a.at => Source::At,
                    TypeId::Unknown => return None,
                    _ => Source::Slot,
                };
                plan.steps.push(SeqStep {
                    ahead_to: u32::try_from(wp).ok()?,
                    from,
                    id,
                    nullable,
                });
                continue;
            }
            for q in wp..p {
                let d = *order.get(q)?;
                plan.take(q, fields.get(d)?, d, fixed)?;
            }
            plan.steps.push(SeqStep {
                ahead_to: u32::try_from(p).ok()?,
                from: Source::Next,
                id,
                nullable,
            });
            wp = p + 1;
        }
        Some(plan)
    }

    /// Takes field `d`, at wire position `q`, ahead as a scalar, if it is one.
    fn take_scalar(&mut self, q: usize, f: &FieldDef, d: usize, fixed: bool) -> Option<()> {
        let (shape, nullable) = f.shape.scalar()?;
        *self.ahead.get_mut(q)? = Ahead {
            id: shape.type_id(fixed),
            slot: slot_of(d)?,
            nullable,
            at: false,
            index: match shape {
                Shape::Enum(i) => u32::try_from(*i).ok()?,
                _ => u32::MAX,
            },
        };
        Some(())
    }

    /// Takes field `d`, at wire position `q`, ahead: a scalar into its slot; a string, bytes
    /// or a dense array (or an `Option` of one) by its offset.
    fn take(&mut self, q: usize, f: &FieldDef, d: usize, fixed: bool) -> Option<()> {
        if self.take_scalar(q, f, d, fixed).is_some() {
            return Some(());
        }
        let (inner, nullable) = match &f.shape {
            Shape::Option(inner) => (&**inner, true),
            s => (s, false),
        };
        let id = match inner {
            Shape::Str | Shape::Bytes => inner.type_id(fixed),
            Shape::Seq(e) => e.dense()?,
            _ => return None,
        };
        *self.ahead.get_mut(q)? = Ahead {
            id,
            slot: slot_of(d)?,
            nullable: false,
            at: true,
            index: u32::from(nullable),
        };
        self.takes_binary |= id == TypeId::Binary;
        Some(())
    }
}

/// The slot of the field with declaration index `d`, if it has one.
fn slot_of(d: usize) -> Option<u8> {
    u8::try_from(d)
        .ok()
        .filter(|&s| usize::from(s) < AHEAD_SLOTS)
}

/// A traced struct: its fields in declaration order and, per `compress_int` (index 1 for
/// on), its wire order, how a value is written in that order, and its schema hash.
#[derive(Debug)]
pub(crate) struct StructDef {
    pub fields: Vec<FieldDef>,
    pub order: [Vec<usize>; 2],
    pub plan: [WritePlan; 2],
    /// How serde reads it as a sequence, per mode (`None`: as a map, by field index).
    pub seq: [Option<SeqPlan>; 2],
    pub hash: [i32; 2],
    /// A tuple struct (fields `_0`, `_1`, ...): serde hands its fields over without names
    /// and reads them as a sequence, in declaration order.
    pub tuple: bool,
    /// Set once a whole value was written with the traced field names (the writes check
    /// them until then).
    pub names_checked: std::sync::atomic::AtomicBool,
}

impl StructDef {
    #[inline]
    pub(crate) fn checked(&self) -> bool {
        self.names_checked
            .load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Whether a write compares serde's field names with the traced ones: until a whole
    /// value was written with them, and never for tuple structs (serde names none).
    #[inline]
    pub(crate) fn check_names(&self) -> bool {
        !self.tuple && !self.checked()
    }

    #[inline]
    pub(crate) fn check_passed(&self) {
        if !self.checked() {
            self.names_checked
                .store(true, std::sync::atomic::Ordering::Relaxed);
        }
    }
}

/// What a traced type is.
#[derive(Debug)]
// One per traced type, read in place: its size does not matter.
#[allow(clippy::large_enum_variant)]
pub(crate) enum Body {
    Struct(StructDef),
    /// A unit-only enum: its variant names, in declaration order (the ordinals).
    Enum(Vec<String>),
    /// An enum with data: its cases in declaration order (case id = position + 1).
    Union(Vec<Case>),
    /// Registered, not laid out yet (while the types of one registration refer to each
    /// other).
    Pending(UserKind),
}

/// One case of a union.
#[derive(Debug)]
pub(crate) struct Case {
    pub value: CaseValue,
}

/// What a union case holds.
#[derive(Debug)]
pub(crate) enum CaseValue {
    /// Nothing: written as a NULL flag.
    Unit,
    /// One value (a newtype variant).
    Value(Shape),
    /// Several named fields: a case struct of the table (its index).
    Struct(usize),
}

/// A traced type: its serde name, its registry entry and its layout.
#[derive(Debug)]
pub(crate) struct TyDef {
    pub name: String,
    pub entry: u32,
    pub body: Body,
    /// Read plans for peers' TypeDefs of this struct, by TypeDef header (a few: a peer that
    /// sends more variants gets plans built per read).
    pub plans: std::sync::Mutex<Vec<(u64, Arc<crate::registry::plan::ReadPlan>)>>,
}

impl TyDef {
    fn new(name: String, entry: u32, body: Body) -> Self {
        TyDef {
            name,
            entry,
            body,
            plans: std::sync::Mutex::new(Vec::new()),
        }
    }

    /// The plan for reading the peer's TypeDef `remote` into this struct, whose local
    /// TypeDef (with `compress_int` on) has `local` fields.
    pub(crate) fn plan(
        &self,
        remote: &crate::meta::typedef::TypeDef,
        local: &[FieldInfo],
    ) -> Result<Arc<crate::registry::plan::ReadPlan>> {
        const KEEP: usize = 16;
        if let Ok(plans) = self.plans.lock() {
            if let Some((_, p)) = plans.iter().find(|(h, _)| *h == remote.header) {
                return Ok(p.clone());
            }
        }
        let plan = Arc::new(crate::registry::plan::build_plan(
            &remote.fields,
            local,
            &[],
            &self.name,
        )?);
        if let Ok(mut plans) = self.plans.lock() {
            if plans.len() < KEEP {
                plans.push((remote.header, plan.clone()));
            }
        }
        Ok(plan)
    }
}

/// Traces one Rust type into a tracer with the samples given (kept to replay every
/// registration in a fresh tracer: a nested enum is complete only if it was traced on its own
/// before).
pub(crate) type TraceFn = fn(
    &mut serde_reflection::Tracer,
    &'static serde_reflection::Samples,
) -> serde_reflection::Result<()>;

/// Records one sample value into a tracer's samples.
pub(crate) type SampleFn = Arc<
    dyn Fn(
            &mut serde_reflection::Tracer,
            &mut serde_reflection::Samples,
        ) -> serde_reflection::Result<()>
        + Send
        + Sync,
>;

/// The sample values given with `Fury::add_serde_sample`, and the samples they make.
#[derive(Clone, Default)]
pub(crate) struct SampleSet {
    pub values: Vec<SampleFn>,
    /// Built when a value is added. serde-reflection reads samples for the lifetime of the
    /// values it deserializes, and a type that borrows is traced as `T<'static>`, so they
    /// live for the rest of the process (one set per value added, at start-up).
    pub samples: Option<&'static serde_reflection::Samples>,
}

impl std::fmt::Debug for SampleSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "SampleSet({} values)", self.values.len())
    }
}

/// The serde types of one registry.
#[derive(Debug, Clone, Default)]
pub(crate) struct Table {
    pub types: Vec<Arc<TyDef>>,
    pub by_name: HashMap<String, usize>,
    /// `std::any::type_name` of each registered Rust type, to its traced type (looked up
    /// through `root_slots`, a hash of the name's length and last bytes).
    pub roots: Vec<(&'static str, usize)>,
    /// `roots` by [`root_hash`], open-addressed (position + 1; 0 is empty).
    root_slots: Vec<u32>,
    pub traces: Vec<TraceFn>,
    pub samples: SampleSet,
}

/// The serde types of `registry` (none yet: an empty table).
#[inline]
pub(crate) fn table(registry: &Registry) -> &Table {
    static EMPTY: std::sync::OnceLock<Table> = std::sync::OnceLock::new();
    match registry
        .serde_state()
        .and_then(|s| s.downcast_ref::<Table>())
    {
        Some(t) => t,
        None => EMPTY.get_or_init(Table::default),
    }
}

/// Replaces the serde types of `registry`.
pub(crate) fn set_table(registry: &mut Registry, table: Table) {
    registry.set_serde_state(Arc::new(table));
}

impl Table {
    /// The traced type at `i`.
    pub(crate) fn ty(&self, i: usize) -> Result<&TyDef> {
        self.types.get(i).map(|t| &**t).ok_or_else(|| {
            Error::new(ErrorKind::Invalid {
                what: format!("serde type {i} is not registered"),
            })
        })
    }

    /// The shape of a value of the traced type at `i`.
    pub(crate) fn shape_of(&self, i: usize) -> Shape {
        match self.types.get(i).map(|t| &t.body) {
            Some(Body::Enum(_)) => Shape::Enum(i),
            Some(Body::Union(_)) => Shape::Union(i),
            _ => Shape::Struct(i),
        }
    }

    /// Adds the Rust type named `rust` (unless known) as traced type `at`.
    pub(crate) fn add_root(&mut self, rust: &'static str, at: usize) {
        if self.roots.iter().any(|(k, _)| *k == rust) {
            return;
        }
        self.roots.push((rust, at));
        let size = (self.roots.len() * 2).next_power_of_two();
        self.root_slots = vec![0; size];
        for (n, (k, _)) in self.roots.iter().enumerate() {
            let mut h = root_hash(k, size);
            while self.root_slots.get(h).is_some_and(|&x| x != 0) {
                h = (h + 1) & (size - 1);
            }
            if let Some(slot) = self.root_slots.get_mut(h) {
                *slot = n as u32 + 1;
            }
        }
    }

    /// The traced type of the Rust type named `rust`, if registered.
    #[inline]
    pub(crate) fn root(&self, rust: &'static str) -> Option<(usize, &TyDef)> {
        let size = self.root_slots.len();
        let mut h = root_hash(rust, size);
        for _ in 0..size {
            let n = *self.root_slots.get(h)?;
            let &(k, i) = self.roots.get((n as usize).checked_sub(1)?)?;
            // `type_name` gives the same string each time: its address settles it first.
            if std::ptr::eq(k, rust) || k == rust {
                return Some((i, self.types.get(i)?));
            }
            h = (h + 1) & (size - 1);
        }
        None
    }
}

/// The home slot of a root name in a table of `size` (a power of two) slots: its length and
/// last 8 bytes (where type names differ), mixed. Names are compared whole on a hit.
fn root_hash(name: &str, size: usize) -> usize {
    let b = name.as_bytes();
    // The last 8 bytes in one load (names are longer than 8 bytes but for a few std types).
    let tail = match b.last_chunk::<8>() {
        Some(last) => u64::from_le_bytes(*last),
        None => b.iter().fold(0, |t, &x| (t << 8) | u64::from(x)),
    };
    let h = (tail ^ b.len() as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    (h >> 32) as usize & size.wrapping_sub(1)
}

fn unsupported(path: &str, what: &str) -> Error {
    Error::new(ErrorKind::Unsupported {
        what: format!("{path}: {what}"),
    })
}

/// Registers the containers of `formats` reached from `root` that the table does not know
/// yet, under registrations derived from `root_registration` (the root's own) or by name.
pub(crate) fn add_traced(
    registry: &mut Registry,
    formats: &BTreeMap<String, ContainerFormat>,
    root: &str,
    root_registration: Registration,
) -> Result<usize> {
    let mut table = self::table(registry).clone();
    // Every container reached from the root, in first-reached order.
    let mut reached = Vec::new();
    collect(
        formats,
        root,
        &mut reached,
        &mut std::collections::HashSet::new(),
        root,
    )?;
    // First, give every new type an index and a registry entry (their layouts refer to
    // each other by index, and their field types to the entries' registrations).
    let namespace = match &root_registration {
        Registration::Name { namespace, .. } => namespace.clone(),
        Registration::Id(_) => String::new(),
    };
    if let Some(&known) = table.by_name.get(root) {
        let entry = table.types.get(known).and_then(|t| registry.at(t.entry));
        if let Some(e) = entry {
            if e.registration != root_registration {
                return Err(Error::new(ErrorKind::Invalid {
                    what: format!(
                        "serde type {root} is already registered as {} (a type is registered \
                         before the types that reach it)",
                        e.describe()
                    ),
                }));
            }
        }
    }
    let mut new = Vec::new();
    for name in &reached {
        if table.by_name.contains_key(name) {
            continue;
        }
        let format = formats
            .get(name)
            .ok_or_else(|| unsupported(name, "serde-reflection traced no format for it"))?;
        let kind = match format {
            ContainerFormat::Struct(_) => UserKind::Struct,
            ContainerFormat::Enum(variants)
                if variants
                    .values()
                    .all(|v| matches!(v.value, VariantFormat::Unit)) =>
            {
                UserKind::Enum
            }
            ContainerFormat::Enum(_) => UserKind::Union,
            ContainerFormat::UnitStruct => {
                return Err(unsupported(name, "a unit struct has no xlang form"))
            }
            ContainerFormat::NewTypeStruct(_) | ContainerFormat::TupleStruct(_) => UserKind::Struct,
        };
        let registration = if name == root {
            root_registration.clone()
        } else {
            Registration::Name {
                namespace: namespace.clone(),
                type_name: name.clone(),
            }
        };
        let placeholder = [Vec::new(), Vec::new()];
        let entry = registry.add_traced(kind, registration.clone(), name.clone(), placeholder)?;
        let index = table.types.len();
        table.by_name.insert(name.clone(), index);
        table.types.push(Arc::new(TyDef::new(
            name.clone(),
            entry as u32,
            Body::Pending(kind),
        )));
        new.push((index, Layout::Container(format)));
        // The case structs of the variants with several fields, registered with the union
        // (as the derive registers them).
        if let ContainerFormat::Enum(variants) = format {
            for v in variants.values() {
                let layout = match &v.value {
                    VariantFormat::Struct(fields) => Layout::Case(fields),
                    VariantFormat::Tuple(fields) => Layout::TupleCase(fields),
                    _ => continue,
                };
                {
                    {
                        let key = case_key(name, &v.name);
                        let reg = crate::registry::case_struct_registration(&registration, &v.name);
                        let entry = registry.add_traced(
                            UserKind::Struct,
                            reg,
                            key.clone(),
                            [Vec::new(), Vec::new()],
                        )?;
                        let index = table.types.len();
                        table.by_name.insert(key.clone(), index);
                        table.types.push(Arc::new(TyDef::new(
                            key,
                            entry as u32,
                            Body::Pending(UserKind::Struct),
                        )));
                        new.push((index, layout));
                    }
                }
            }
        }
    }
    // Then their layouts.
    for &(index, layout) in &new {
        let name = table.types[index].name.clone();
        let body = match layout {
            Layout::Container(ContainerFormat::Struct(fields)) | Layout::Case(fields) => {
                Body::Struct(struct_def(&table, &name, fields, false)?)
            }
            Layout::Container(ContainerFormat::NewTypeStruct(f)) => Body::Struct(struct_def(
                &table,
                &name,
                &tuple_fields(std::slice::from_ref(&**f)),
                true,
            )?),
            Layout::Container(ContainerFormat::TupleStruct(fs)) | Layout::TupleCase(fs) => {
                Body::Struct(struct_def(&table, &name, &tuple_fields(fs), true)?)
            }
            Layout::Container(ContainerFormat::Enum(variants))
                if variants
                    .values()
                    .all(|v| matches!(v.value, VariantFormat::Unit)) =>
            {
                Body::Enum(variants.values().map(|v| v.name.clone()).collect())
            }
            Layout::Container(ContainerFormat::Enum(variants)) => {
                let mut cases = Vec::with_capacity(variants.len());
                for v in variants.values() {
                    let path = format!("{name}::{}", v.name);
                    let value = match &v.value {
                        VariantFormat::NewType(f) => match shape(&table, f, &path)? {
                            Shape::Option(_) => {
                                return Err(unsupported(&path, "a case holding an Option"))
                            }
                            s => CaseValue::Value(s),
                        },
                        VariantFormat::Struct(_) | VariantFormat::Tuple(_) => {
                            let key = case_key(&name, &v.name);
                            CaseValue::Struct(*table.by_name.get(&key).ok_or_else(|| {
                                unsupported(&path, "its case struct is not registered")
                            })?)
                        }
                        _ => CaseValue::Unit,
                    };
                    cases.push(Case { value });
                }
                Body::Union(cases)
            }
            Layout::Container(_) => Body::Pending(UserKind::Struct),
        };
        let entry = table.types[index].entry;
        table.types[index] = Arc::new(TyDef::new(name, entry, body));
    }
    // Then the TypeDef fields, which name the kinds of the nested types.
    for &(index, _) in &new {
        let ty = &table.types[index];
        if let Body::Struct(s) = &ty.body {
            let fields = [false, true].map(|c| typedef_fields(&table, registry, s, c));
            registry.set_traced_fields(ty.entry, fields);
        }
    }
    let at = *table
        .by_name
        .get(root)
        .ok_or_else(|| unsupported(root, "not traced"))?;
    set_table(registry, table);
    Ok(at)
}

/// What a new type is laid out from.
#[derive(Clone, Copy)]
enum Layout<'f> {
    Container(&'f ContainerFormat),
    /// The fields of a variant, for its case struct.
    Case(&'f Vec<Named<Format>>),
    /// The fields of a tuple variant, for its case struct.
    TupleCase(&'f Vec<Format>),
}

/// The fields of a tuple struct or variant, named as the derive names them: `_0`, `_1`, ...
fn tuple_fields(fs: &[Format]) -> Vec<Named<Format>> {
    fs.iter()
        .enumerate()
        .map(|(i, f)| Named {
            name: format!("_{i}"),
            value: f.clone(),
        })
        .collect()
}

/// The table's key of the case struct of `variant` of the union `name`.
fn case_key(name: &str, variant: &str) -> String {
    format!("{name}::{variant}")
}

/// Every container name reached from `name`, depth first, each once.
fn collect(
    formats: &BTreeMap<String, ContainerFormat>,
    name: &str,
    out: &mut Vec<String>,
    seen: &mut std::collections::HashSet<String>,
    path: &str,
) -> Result<()> {
    if !seen.insert(name.to_string()) {
        return Ok(());
    }
    out.push(name.to_string());
    let Some(format) = formats.get(name) else {
        return Err(unsupported(path, &format!("no traced format for {name}")));
    };
    let mut walk = |f: &Format, p: &str| -> Result<()> {
        let mut names = Vec::new();
        type_names(f, &mut names);
        for n in names {
            collect(formats, &n, out, seen, p)?;
        }
        Ok(())
    };
    match format {
        ContainerFormat::Struct(fields) => {
            for Named { name: f, value } in fields {
                walk(value, &format!("{path}.{f}"))?;
            }
        }
        ContainerFormat::NewTypeStruct(f) => walk(f, path)?,
        ContainerFormat::TupleStruct(fs) => {
            for f in fs {
                walk(f, path)?;
            }
        }
        ContainerFormat::Enum(vs) => {
            for v in vs.values() {
                match &v.value {
                    VariantFormat::NewType(f) => walk(f, path)?,
                    VariantFormat::Tuple(fs) => {
                        for f in fs {
                            walk(f, path)?;
                        }
                    }
                    VariantFormat::Struct(fs) => {
                        for f in fs {
                            walk(&f.value, path)?;
                        }
                    }
                    _ => {}
                }
            }
        }
        ContainerFormat::UnitStruct => {}
    }
    Ok(())
}

fn type_names(f: &Format, out: &mut Vec<String>) {
    match f {
        Format::TypeName(n) => out.push(n.clone()),
        Format::Option(x) | Format::Seq(x) => type_names(x, out),
        Format::Map { key, value } => {
            type_names(key, out);
            type_names(value, out);
        }
        Format::Tuple(xs) => xs.iter().for_each(|x| type_names(x, out)),
        Format::TupleArray { content, .. } => type_names(content, out),
        _ => {}
    }
}

fn shape(table: &Table, f: &Format, path: &str) -> Result<Shape> {
    Ok(match f {
        Format::Bool => Shape::Bool,
        Format::I8 => Shape::I8,
        Format::I16 => Shape::I16,
        Format::I32 => Shape::I32,
        Format::I64 => Shape::I64,
        Format::U8 => Shape::U8,
        Format::U16 => Shape::U16,
        Format::U32 => Shape::U32,
        Format::U64 => Shape::U64,
        Format::F32 => Shape::F32,
        Format::F64 => Shape::F64,
        Format::Str => Shape::Str,
        Format::Bytes => Shape::Bytes,
        Format::Option(x) => match shape(table, x, path)? {
            Shape::Option(_) => {
                return Err(unsupported(path, "Option<Option<T>> has no xlang form"))
            }
            s => Shape::Option(Box::new(s)),
        },
        Format::Seq(x) => Shape::Seq(Box::new(element(table, x, path)?)),
        Format::Map { key, value } => Shape::Map(
            Box::new(element(table, key, path)?),
            Box::new(element(table, value, path)?),
        ),
        Format::TypeName(n) => {
            let i = *table
                .by_name
                .get(n)
                .ok_or_else(|| unsupported(path, &format!("{n} is not traced")))?;
            match table.types.get(i).map(|t| &t.body) {
                Some(Body::Enum(_) | Body::Pending(UserKind::Enum)) => Shape::Enum(i),
                Some(Body::Union(_) | Body::Pending(UserKind::Union)) => Shape::Union(i),
                _ => Shape::Struct(i),
            }
        }
        Format::Variable(_) => {
            return Err(unsupported(
                path,
                "serde-reflection could not trace this type without samples (a custom \
                 Deserialize impl, or an enum reached before it was registered): register \
                 the type it names first with register_serde",
            ))
        }
        Format::Unit => return Err(unsupported(path, "() has no xlang form")),
        Format::Char => {
            return Err(unsupported(
                path,
                "char has no xlang form (use String or u32)",
            ))
        }
        Format::I128 | Format::U128 => {
            return Err(unsupported(path, "128-bit integers have no xlang form"))
        }
        // serde hands over `[T; N]` and a tuple of one type alike (`serialize_tuple`), and
        // serde-reflection traces both as a `TupleArray`. The derive writes them alike only
        // for strings (a LIST of STRING): numbers go into a dense array from `[T; N]` but a
        // LIST from a tuple, and a tuple of other types is a list of dynamic values.
        Format::TupleArray { content, .. } => match element(table, content, path)? {
            Shape::Str => Shape::Seq(Box::new(Shape::Str)),
            _ => {
                return Err(unsupported(
                    path,
                    "serde describes a fixed-size array and a tuple of one type alike, and \
                     the derive writes them differently unless they hold strings: use a Vec \
                     (written as the array is) or a struct",
                ))
            }
        },
        Format::Tuple(_) => {
            return Err(unsupported(
                path,
                "a tuple of mixed types is a list of dynamic values, which the serde path \
                 does not write: use a struct",
            ))
        }
    })
}

/// An element of a list or map: nested `Option`s are element nullability.
fn element(table: &Table, f: &Format, path: &str) -> Result<Shape> {
    shape(table, f, path)
}

fn struct_def(
    table: &Table,
    name: &str,
    fields: &[Named<Format>],
    tuple: bool,
) -> Result<StructDef> {
    let mut defs = Vec::with_capacity(fields.len());
    for (i, Named { name: f, value }) in fields.iter().enumerate() {
        let shape = shape(table, value, &format!("{name}.{f}"))?;
        defs.push(FieldDef {
            name: f.clone(),
            scalar: shape
                .scalar()
                .filter(|_| i < SCALAR_SLOTS)
                .map(|(s, nullable)| (s.type_id(true), nullable)),
            shape,
        });
    }
    // Rank by the snake_case name, then the name (as the derive does without tag ids).
    let snake: Vec<String> = defs
        .iter()
        .map(|f| fury_types::snake::snake_case(&f.name))
        .collect();
    let mut by_name: Vec<usize> = (0..defs.len()).collect();
    by_name.sort_by(|&a, &b| (&snake[a], &defs[a].name).cmp(&(&snake[b], &defs[b].name)));
    let mut rank = vec![0u32; defs.len()];
    for (r, &i) in by_name.iter().enumerate() {
        rank[i] = r as u32;
    }
    let order = [true, false].map(|fixed| {
        let keys: Vec<FieldKey> = defs
            .iter()
            .zip(&rank)
            .map(|(f, &r)| {
                FieldKey::new(
                    f.shape.type_id(fixed),
                    matches!(f.shape, Shape::Option(_)),
                    r,
                )
            })
            .collect();
        sort_keys(&keys)
    });
    let seq = [
        SeqPlan::new(&defs, &order[0], true),
        SeqPlan::new(&defs, &order[1], false),
    ];
    // serde reads a tuple struct's fields in declaration order only (no map protocol): the
    // fields the wire has before one must all be fields a read can take ahead.
    let reordered = |o: &Vec<usize>| o.iter().enumerate().any(|(i, &f)| i != f);
    if tuple
        && order
            .iter()
            .zip(&seq)
            .any(|(o, p)| reordered(o) && p.is_none())
    {
        return Err(unsupported(
            name,
            "the fields of this tuple struct go on the wire in another order than declared \
             (primitives first, then by kind), and serde reads a tuple struct's fields in \
             order: a field read ahead of its place can only be a number, bool, unit-only \
             enum, string, bytes or number array (or an Option of one); give it named fields",
        ));
    }
    let plan = [
        WritePlan::new(&defs, &order[0], true),
        WritePlan::new(&defs, &order[1], false),
    ];
    let hash = [true, false].map(|fixed| {
        let mut out = String::new();
        for &i in &by_name {
            let f = &defs[i];
            out.push_str(&snake[i]);
            out.push(',');
            let t = f.shape.field_type(table, &Registry::default(), fixed);
            crate::serializer::render_fingerprint(
                &mut out,
                &t,
                false,
                matches!(f.shape, Shape::Option(_)),
            );
            out.push(';');
        }
        crate::serializer::object::schema_hash(&out)
    });
    Ok(StructDef {
        fields: defs,
        order,
        plan,
        seq,
        hash,
        tuple,
        names_checked: std::sync::atomic::AtomicBool::new(false),
    })
}

/// The wire order of fields with sort keys `keys`, by the derive's rules (the comparison of
/// `field_order`, which the derive runs at compile time on an array).
fn sort_keys(keys: &[FieldKey]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..keys.len()).collect();
    order.sort_by(|&a, &b| {
        if FieldKey::precedes(&keys[a], &keys[b]) {
            std::cmp::Ordering::Less
        } else if FieldKey::precedes(&keys[b], &keys[a]) {
            std::cmp::Ordering::Greater
        } else {
            std::cmp::Ordering::Equal
        }
    });
    order
}

/// Splits a wire order into runs whose declaration indices ascend.
fn runs_of(order: &[usize]) -> Vec<Vec<usize>> {
    let mut runs: Vec<Vec<usize>> = Vec::new();
    for &i in order {
        match runs.last_mut() {
            Some(run) if run.last().is_some_and(|&l| l < i) => run.push(i),
            _ => runs.push(vec![i]),
        }
    }
    runs
}

fn typedef_fields(
    table: &Table,
    registry: &Registry,
    s: &StructDef,
    compress: bool,
) -> Vec<FieldInfo> {
    let order = &s.order[compress as usize];
    order
        .iter()
        .filter_map(|&i| s.fields.get(i))
        .map(|f| {
            // The types the fields are written as: fixed-width integers outside compress_int.
            FieldInfo {
                id: FieldId::Name(f.name.clone()),
                field_type: f.shape.field_type(table, registry, !compress),
            }
        })
        .collect()
}
