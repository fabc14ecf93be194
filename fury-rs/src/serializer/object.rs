//! Support for derived structs and enums: the [`FuryObject`] trait, user type info, struct
//! fields and the same-schema hash. `#[derive(FuryObject)]` generates calls into this module.

pub use super::string::room_str;
use super::{Deserialize, Serialize, WireType};
use crate::context::{ReadContext, WriteContext};
use crate::error::{Error, ErrorKind, Result};
use crate::meta::MetaStringEncoder;
use crate::registry::{Registration, UserKind, UserType};
use crate::types::{RefFlag, TypeId};

/// A user type (struct or enum) that can be registered on a `Fury` instance.
///
/// Implemented by `#[derive(FuryObject)]`, which also implements [`WireType`],
/// [`Serialize`] and [`Deserialize`]. Structs may have named fields, be tuple or unit
/// structs, and be generic (each instantiation is registered on its own). Enums take every
/// shape serde accepts: a unit-only enum is an ENUM, an enum with data a tagged union (see
/// below). Field types are whatever implements the traits: type aliases and type parameters
/// are ordered on the wire by what they are, not by how they are spelled.
///
/// ```
/// use fury::{Fury, FuryObject};
///
/// type OrderId = u64;
///
/// #[derive(FuryObject, Debug, PartialEq)]
/// #[fury(namespace = "shop", name = "Order")]
/// struct Order {
///     id: OrderId,
///     #[fury(rename = "customerName")]
///     customer: String,
///     lines: Vec<Line>,
/// }
///
/// #[derive(FuryObject, Debug, PartialEq)]
/// #[fury(id = 21)]
/// struct Line(String, #[fury(encoding = "fixed")] u32);
///
/// let mut fury = Fury::default();
/// fury.register::<Order>()?.register::<Line>()?;
/// let order = Order { id: 7, customer: "Ada".into(), lines: vec![Line("tea".into(), 2)] };
/// let bytes = fury.serialize(&order)?;
/// assert_eq!(fury.deserialize::<Order>(&bytes)?, order);
/// # Ok::<(), fury::Error>(())
/// ```
///
/// # Attributes
///
/// On the type:
/// - `#[fury(id = N)]` or `#[fury(namespace = "..", name = "..")]`: the registration that
///   [`Fury::register`](crate::Fury::register) uses (or pass one to `register_by_id` /
///   `register_by_name`).
/// - `#[fury(transparent)]` on a struct with one field: written exactly as that field (no
///   registration of its own).
/// - `#[fury(bound = "T: ..")]`: the where clause of the generated impls, instead of the
///   inferred `T: Serialize + DeserializeOwned + 'static` for each type parameter a field
///   uses.
/// - `#[fury(rename_all = "camelCase")]`: serde's case conventions (`lowercase`,
///   `UPPERCASE`, `PascalCase`, `camelCase`, `snake_case`, `SCREAMING_SNAKE_CASE`,
///   `kebab-case`, `SCREAMING-KEBAB-CASE`) for the field names of a struct, or for the variant
///   names of an enum (the names its case structs take).
/// - `#[fury(default)]` or `#[fury(default = "path")]`: the value a field of this type takes
///   when a peer's TypeDef lacks it (compatible mode, without
///   [`strict`](crate::FuryBuilder::strict)). Without it, such a field of a struct or union
///   type is an error ([`ErrorKind::MissingField`](crate::ErrorKind::MissingField)), never an
///   invented value; a unit-only enum takes its first variant, as in pyfory.
/// - serde's `tag`, `content` and `untagged` are compile errors: an enum with data is always a
///   tagged union here.
/// - `#[fury(form = "fory")]`: `form = "fory"` on every field whose type has an official-crate
///   form (see the field attribute); the other fields are unaffected.
///
/// On a field:
/// - `#[fury(id = N)]`: a tag id, which replaces the name in field order, fingerprint and
///   TypeDef (as pyfory's `field(id=..)`).
/// - `#[fury(rename = "..")]`: the peers' field name (tuple fields are `_0`, `_1`, ...).
/// - `#[fury(alias = "..")]` (any number): another name a peer's field may have; in
///   compatible mode a peer field of that name, when no field has its name, is read into
///   this one.
/// - `#[fury(skip)]`: not serialized; read as `Default::default()`.
/// - `#[fury(nullable)]`: a null flag precedes a field whose Rust type cannot be null.
/// - `#[fury(ref)]` (or `ref = false`): the field tracks references when reference tracking
///   is on.
/// - `#[fury(untracked_elements)]`: with tracking on, the elements of the list (the values of
///   the map) this field holds carry no reference flags, as pyfory's `List[Ref[T, False]]`
///   (what foryc generates for a list or map of messages).
/// - `#[fury(encoding = "fixed" | "varint" | "tagged")]`: the encoding of an `i32`, `u32`,
///   `i64` or `u64` field (and of its `Option`); `tagged` for 64-bit ones only.
/// - `#[fury(with = "module")]`: the field is written as `module::Wire`, converted by
///   `module::to_wire(&Field) -> Wire` and `module::from_wire(Wire) -> fury::Result<Field>`;
///   for types the user does not own.
/// - `#[fury(form = "fory")]`: written in the form of the official Rust crate `fory` 1.7.7
///   where it differs from pyfory's (the default), so that crate reads it in both modes: a
///   `Vec` of a primitive as a LIST (`Vec<u8>` too, not BINARY), `Vec<Vec<P>>` as a LIST of
///   LISTs, a tuple (one to six elements) as a LIST whose elements carry their type info,
///   `[u8; N]` with the crate's fingerprint; an `Option` of one of these too (see
///   [`crate::ForyForm`]). Reading accepts both forms in compatible mode. A compile error on
///   a field of another type.
/// - `#[fury(default)]` or `#[fury(default = "path")]`: the value (`Default::default()` or
///   `path()`) of a field that a peer's TypeDef lacks, or that the peer declares nullable and
///   sends as a null, in compatible mode. With [`strict`](crate::FuryBuilder::strict), the
///   only way a missing field is accepted.
/// - serde's `flatten`, `skip_serializing_if`, `skip_serializing`, `skip_deserializing`,
///   `serialize_with` and `deserialize_with` are compile errors that say what to use instead
///   (a nested struct, `Option<T>` or `skip`, `with`).
///
/// On an enum variant: `#[fury(id = N)]`, the variant id (default: its position from 0).
///
/// An enum with data, of any variant shapes, is a tagged union, as pyfory's `Union` and Fory's
/// IDL `union`: TYPED_UNION (by id) or NAMED_UNION (by name; same-schema mode only, a
/// compatible `Fury` refuses the registration), then the case id and the case value. A unit
/// variant (also `V {}`, `V()`) is an empty case (a null); a variant with one field (`V(T)` or
/// `V { x: T }`) carries that value; a variant with several fields (`V { a: A, b: B }`,
/// `V(A, B)`) carries a *case struct* of its fields (named as written, `_0`, `_1`, ... for a
/// tuple variant; field attributes apply), which the derive declares and registers with the
/// enum under a registration derived from the enum's (see
/// [`case_struct_registration`](crate::registry::case_struct_registration)). Generic enums
/// derive as generic structs do. `#[fury(id = K)]` on a variant is its case id (default: its
/// position among the cases, from 1); a variant `#[fury(unknown)] Other(fury::UnknownCase)`
/// keeps cases this side does not know (without one they are an error).
///
/// ```
/// #[derive(fury::FuryObject, Debug, PartialEq)]
/// #[fury(id = 301)]
/// struct Dog { name: String }
///
/// #[derive(fury::FuryObject, Debug, PartialEq)]
/// #[fury(id = 300)]
/// enum Animal { Dog(Dog), Label(String), Empty }
///
/// let mut fury = fury::Fury::builder().compatible(false).build();
/// fury.register::<Dog>().unwrap();
/// fury.register::<Animal>().unwrap();
/// // pyfory 1.7.7's bytes for Animal(case 2, "hi") (conformance/vectors/union has more)
/// let bytes = [0x01, 0xff, 0x22, 0xac, 0x02, 0x02, 0xff, 0x15, 0x08, 0x68, 0x69];
/// assert_eq!(fury.deserialize::<Animal>(&bytes).unwrap(), Animal::Label("hi".into()));
/// assert_eq!(fury.serialize(&Animal::Label("hi".into())).unwrap(), bytes);
///
/// // Several fields: a case struct, registered as id murmur3_x86_32("310.Adjusted").
/// #[derive(fury::FuryObject, Debug, PartialEq)]
/// #[fury(id = 310)]
/// enum Event { #[fury(id = 3)] Adjusted(String, i32), Audited }
/// fury.register::<Event>().unwrap();
/// // pyfory 1.7.7's vector union/same_schema/event/adjusted: TYPED_UNION 310, case 3, flag,
/// // STRUCT 738060571, the case struct's hash, _1 = -2, _0 = "A-1".
/// let bytes = [
///     0x01, 0xff, 0x22, 0xb6, 0x02, 0x03, 0xff, 0x1b, 0x9b, 0xd2, 0xf7, 0xdf, 0x02,
///     0xf7, 0xa2, 0x56, 0x63, 0x03, 0x0c, 0x41, 0x2d, 0x31,
/// ];
/// assert_eq!(fury.serialize(&Event::Adjusted("A-1".into(), -2)).unwrap(), bytes);
/// assert_eq!(fury.deserialize::<Event>(&bytes).unwrap(), Event::Adjusted("A-1".into(), -2));
/// ```
///
/// Setting an attribute twice, or two that contradict each other (`skip` with anything
/// else, `with` with `encoding`), is a compile error at the attribute; every error of a
/// derive is reported at once.
pub trait FuryObject: UserType + Serialize {}

impl<T: UserType + Serialize> FuryObject for T {}

impl Registration {
    /// The registration that `T`'s `#[fury(id = ..)]` or `#[fury(namespace = .., name = ..)]`
    /// attribute names, if it has one.
    ///
    /// ```
    /// use fury::registry::Registration;
    /// use fury::FuryObject;
    ///
    /// #[derive(FuryObject)]
    /// #[fury(id = 7)]
    /// struct Point { x: i32 }
    ///
    /// assert_eq!(Registration::of::<Point>(), Some(Registration::Id(7)));
    /// ```
    pub fn of<T: FuryObject>() -> Option<Registration> {
        T::registration()
    }
}

/// Writes the first bytes of a stream whose root is a `T` when a shortcut applies, and
/// returns whether it did (the caller then writes the body; otherwise the general path
/// writes everything). Without reference tracking: for a `T` registered by id outside
/// compatible mode, header byte, NOT_NULL flag and the prepared type info in one store; for
/// a struct in compatible mode, header byte and NOT_NULL flag in one store, then its shared
/// type info.
#[inline(always)]
pub fn write_stream_prefix<T: FuryObject>(ctx: &mut WriteContext) -> Result<bool> {
    if ctx.ref_tracking() {
        return Ok(false);
    }
    let Some(entry) = ctx.registry().get::<T>() else {
        return Ok(false);
    };
    write_entry_stream_prefix(ctx, entry, T::KIND)
}

/// [`write_stream_prefix`] for the registry entry `entry` of a user type of kind `kind`
/// (reference tracking off).
#[inline(always)]
pub(crate) fn write_entry_stream_prefix(
    ctx: &mut WriteContext,
    entry: &crate::registry::TypeEntry,
    kind: UserKind,
) -> Result<bool> {
    let head = u64::from(crate::types::header::XLANG) | (u64::from(RefFlag::NotNull.byte()) << 8);
    if ctx.compatible() {
        if kind != UserKind::Struct {
            return Ok(false);
        }
        if ctx.nothing_shared() {
            // The root's TypeDef is the stream's first: everything up to the body is fixed.
            let td = entry.local_typedef(ctx.registry(), ctx.compress_int())?;
            ctx.writer.bytes(&td.stream_head);
            ctx.shared_marker(entry.index());
            return Ok(true);
        }
        let named = matches!(entry.registration, Registration::Name { .. });
        ctx.writer.word_prefix(head, 2);
        write_shared_type_info(ctx, entry, struct_kind_of(named, true))?;
        return Ok(true);
    }
    // The type info takes at most 6 bytes (kind byte and a varuint32), so all fits a word.
    match entry.id_info {
        Some((word, n)) if n <= 6 => {
            ctx.writer
                .word_prefix(head | (word << 16), usize::from(n) + 2);
            Ok(true)
        }
        _ => Ok(false),
    }
}

/// Writes the type info of a user type: the kind byte, then its user id or names.
#[inline(always)]
pub fn write_user_type_info<T: FuryObject>(ctx: &mut WriteContext) -> Result<()> {
    if let Some(entry) = ctx.registry().get::<T>() {
        if T::KIND == UserKind::Struct && ctx.compatible() {
            let named = matches!(entry.registration, Registration::Name { .. });
            return write_shared_type_info(ctx, entry, struct_kind_of(named, true));
        }
        // An id registration outside compatible mode (and any enum by id): prepared bytes.
        if let Some((word, n)) = entry.id_info {
            if !ctx.compatible() || T::KIND != UserKind::Struct {
                ctx.writer.word_prefix(word, usize::from(n));
                return Ok(());
            }
        }
    }
    write_user_type_info_general::<T>(ctx)
}

/// [`write_user_type_info`] for named types, compatible structs and unregistered types.
#[inline(never)]
fn write_user_type_info_general<T: FuryObject>(ctx: &mut WriteContext) -> Result<()> {
    let entry = ctx.registry().entry::<T>()?;
    let compatible = ctx.compatible();
    let named = matches!(entry.registration, Registration::Name { .. });
    // Structs share a TypeDef in compatible mode; enums and unions only when named.
    let shared = compatible && (T::KIND == UserKind::Struct || named);
    let kind = match (T::KIND, named) {
        (UserKind::Struct, _) => struct_kind_of(named, compatible),
        (kind, false) => kind.id_kind(),
        (kind, true) => kind.named_kind(),
    };
    if shared {
        return write_shared_type_info(ctx, entry, kind);
    }
    ctx.writer.u8(kind as u8);
    match &entry.registration {
        Registration::Id(id) => {
            ctx.writer.var_u32(*id);
            Ok(())
        }
        Registration::Name { .. } => write_type_name(entry, ctx),
    }
}

/// Compatible mode: the kind byte, the meta-share marker and, the first time in the stream,
/// the TypeDef.
#[inline(always)]
pub(crate) fn write_shared_type_info(
    ctx: &mut WriteContext,
    entry: &crate::registry::TypeEntry,
    kind: TypeId,
) -> Result<()> {
    let (marker, first) = ctx.shared_marker(entry.index());
    if marker < 0x80 {
        // The kind byte and a one-byte marker in one store.
        ctx.writer
            .word_prefix(u64::from(kind as u8) | (u64::from(marker) << 8), 2);
    } else {
        ctx.writer.u8(kind as u8);
        ctx.writer.var_u32(marker);
    }
    if first {
        let td = entry.local_typedef(ctx.registry(), ctx.compress_int())?;
        ctx.writer.bytes(&td.bytes);
    }
    Ok(())
}

/// Consumes `T`'s whole type info (kind byte and user id) if the input holds exactly the
/// bytes this side writes for it outside compatible mode, returning whether it did. The
/// general path ([`read_user_type_info`]) handles everything else.
#[inline]
pub fn take_id_info<'de, T: FuryObject>(ctx: &mut ReadContext<'de, '_>) -> bool {
    if T::KIND == UserKind::Struct && ctx.compatible() {
        return false;
    }
    match ctx.registry().get::<T>().and_then(|e| e.id_info) {
        Some((word, n)) => ctx.reader.take_prefix(word, usize::from(n)),
        None => false,
    }
}

/// In compatible mode, consumes a struct's whole type info (kind byte, TypeDef marker and
/// TypeDef) if it announces exactly `T`'s local TypeDef, as this side writes it, and records
/// it like [`read_user_type_info`] does; returns whether it did. The body that follows is
/// then read with the local schema. On `false` nothing was consumed.
#[inline]
pub fn take_local_typedef_info<'de, T: FuryObject>(ctx: &mut ReadContext<'de, '_>) -> Result<bool> {
    if T::KIND != UserKind::Struct || !ctx.compatible() {
        return Ok(false);
    }
    let Some(entry) = ctx.registry().get::<T>() else {
        return Ok(false);
    };
    let named = matches!(entry.registration, Registration::Name { .. });
    let start = ctx.reader.position();
    if !ctx.reader.take_if(struct_kind_of(named, true) as u8) {
        return Ok(false);
    }
    if ctx.read_local_typedef(entry, crate::registry::type_key::<T>())? {
        return Ok(true);
    }
    ctx.reader.rewind_to(start)?;
    Ok(false)
}

/// Checks that a struct kind byte `id` (read at `at`) is of this `Fury`'s mode: the two modes
/// give structs different kind bytes, and one read in the other mode would otherwise fail
/// later with an error about the bytes after it.
#[inline]
pub(crate) fn check_struct_mode(ctx: &ReadContext<'_, '_>, id: TypeId, at: usize) -> Result<()> {
    let stream_compatible = match id {
        TypeId::CompatibleStruct | TypeId::NamedCompatibleStruct => true,
        TypeId::Struct | TypeId::NamedStruct => false,
        _ => return Ok(()),
    };
    if stream_compatible == ctx.compatible() {
        return Ok(());
    }
    Err(mode_mismatch(stream_compatible, at))
}

#[cold]
fn mode_mismatch(stream_compatible: bool, at: usize) -> Error {
    let (stream, local) = if stream_compatible {
        ("compatible", "same-schema")
    } else {
        ("same-schema", "compatible")
    };
    Error::at(ErrorKind::ModeMismatch { stream, local }, at)
        .with_hint("build the reading Fury with the writer's mode: Fury::builder().compatible(..)")
}

/// Reads the rest of a user type's type info (after its kind byte `id`) and checks that it
/// names `T` as registered. In compatible mode a struct's TypeDef is read (or found) and
/// recorded for the body that follows.
pub fn read_user_type_info<'de, T: FuryObject>(
    ctx: &mut ReadContext<'de, '_>,
    id: TypeId,
) -> Result<()> {
    let at = ctx.reader.position().saturating_sub(1);
    if T::KIND == UserKind::Struct {
        check_struct_mode(ctx, id, at)?;
    }
    let entry = ctx
        .registry()
        .entry::<T>()
        .map_err(|e| Error::at(e.kind().clone(), at))?;
    let mismatch = |found: String| {
        Error::at(
            ErrorKind::TypeMismatch {
                expected: format!("{} ({})", entry.rust_name, entry.describe()),
                found,
            },
            at,
        )
    };
    let shared = matches!(id, TypeId::CompatibleStruct | TypeId::NamedCompatibleStruct)
        || (matches!(
            id,
            TypeId::NamedEnum | TypeId::NamedUnion | TypeId::NamedExt
        ) && ctx.compatible());
    if shared {
        let expect_kind = match T::KIND {
            UserKind::Struct => {
                matches!(id, TypeId::CompatibleStruct | TypeId::NamedCompatibleStruct)
            }
            kind => id == kind.named_kind(),
        };
        if !expect_kind {
            return Err(mismatch(id.name().to_string()));
        }
        if T::KIND == UserKind::Struct
            && ctx.read_local_typedef(entry, crate::registry::type_key::<T>())?
        {
            return Ok(());
        }
        let def = ctx.read_shared_typedef()?;
        if !entry.registration.is(&def.def.registration) {
            return Err(mismatch(format!("a TypeDef of {:?}", def.def.registration)));
        }
        if T::KIND == UserKind::Struct {
            ctx.set_current_typedef(crate::registry::type_key::<T>(), def);
        }
        return Ok(());
    }
    match (&entry.registration, id) {
        (Registration::Id(want), got) if got == T::KIND.id_kind() => {
            let id_at = ctx.reader.position();
            let found = ctx.reader.var_u32()?;
            if found != *want {
                return Err(Error::at(
                    ErrorKind::TypeMismatch {
                        expected: format!("{} (user type id {want})", entry.rust_name),
                        found: format!("user type id {found}"),
                    },
                    id_at,
                ));
            }
            Ok(())
        }
        (Registration::Name { .. }, got) if got == T::KIND.named_kind() => {
            read_type_name(entry, ctx)
        }
        _ => Err(mismatch(id.name().to_string())),
    }
}

/// The kind a struct `T` is written with under `registry` (by id or by name) and mode.
pub fn struct_kind<T: FuryObject>(
    registry: &crate::registry::Registry,
    compatible: bool,
) -> TypeId {
    struct_kind_of(registry.is_named::<T>(), compatible)
}

#[inline]
pub(crate) fn struct_kind_of(named: bool, compatible: bool) -> TypeId {
    match (named, compatible) {
        (false, false) => TypeId::Struct,
        (false, true) => TypeId::CompatibleStruct,
        (true, false) => TypeId::NamedStruct,
        (true, true) => TypeId::NamedCompatibleStruct,
    }
}

/// Checks that the kind byte `id` (whose type info was read already) is one `T` is written
/// with.
#[inline]
pub fn check_user_kind<'de, T: FuryObject>(ctx: &ReadContext<'de, '_>, id: TypeId) -> Result<()> {
    let compatible_kind = T::KIND == UserKind::Struct
        && matches!(id, TypeId::CompatibleStruct | TypeId::NamedCompatibleStruct);
    if id == T::KIND.id_kind() || id == T::KIND.named_kind() || compatible_kind {
        Ok(())
    } else {
        Err(ctx.mismatch(std::any::type_name::<T>(), id))
    }
}

/// Writes one struct field: a null flag if the field is nullable, the type info if its type
/// needs it in a declared position (named structs, dynamic values), then the payload.
#[inline(always)]
pub fn write_field<F: Serialize>(v: &F, ctx: &mut WriteContext) -> Result<()> {
    if F::DIRECT_MAX > 0 && v.write_direct(ctx) {
        return Ok(());
    }
    if F::FIELD_NULLABLE {
        if v.is_null() {
            ctx.ref_flag(RefFlag::Null);
            return Ok(());
        }
        ctx.ref_flag(RefFlag::NotNull);
    }
    if F::needs_type_info(ctx.registry()) || (F::POLYMORPHIC && ctx.compatible()) {
        v.write_type_info(ctx)?;
    }
    v.write_declared(ctx)
}

/// Writes a `#[fury(untracked_elements)]` field: as [`write_field`], with no reference flags on
/// the elements of the list or map it holds (pyfory's `List[Ref[T, False]]`).
#[inline]
pub fn write_untracked_elements_field<F: Serialize>(v: &F, ctx: &mut WriteContext) -> Result<()> {
    ctx.untracked_elements = true;
    let r = write_field(v, ctx);
    ctx.untracked_elements = false;
    r
}

/// How pyfory flags a `ref` field of a given kind when tracking is on.
#[derive(Clone, Copy, PartialEq, Eq)]
enum RefFieldFlag {
    /// Numbers, bools and strings: as an ordinary field (a flag only if nullable).
    Inline,
    /// Enums, 16-bit floats, dense arrays: always a NULL/NOT_NULL flag.
    Plain,
    /// Tracked kinds (containers, binary, time, structs, shared pointers): a reference flag.
    Tracked,
}

fn ref_field_flag<F: WireType>() -> RefFieldFlag {
    use TypeId::*;
    match F::TYPE_ID {
        _ if F::REF_TYPE => RefFieldFlag::Tracked,
        Bool | Int8 | Int16 | Int32 | VarInt32 | Int64 | VarInt64 | TaggedInt64 | UInt8
        | UInt16 | UInt32 | VarUInt32 | UInt64 | VarUInt64 | TaggedUInt64 | Float32 | Float64
        | String => RefFieldFlag::Inline,
        Unknown => RefFieldFlag::Tracked,
        _ => RefFieldFlag::Plain,
    }
}

/// Writes a `#[fury(ref)]` field: with tracking on, tracked kinds get a reference flag (a
/// back reference if the value is a shared pointer written before), enums and dense arrays a
/// null flag, numbers and strings none (as pyfory writes them); then as [`write_field`].
#[inline]
pub fn write_ref_field<F: Serialize>(v: &F, ctx: &mut WriteContext) -> Result<()> {
    if !ctx.ref_tracking() {
        return write_field(v, ctx);
    }
    match ref_field_flag::<F>() {
        RefFieldFlag::Inline => return write_field(v, ctx),
        RefFieldFlag::Plain => {
            if super::refs::write_plain_flag(v.is_null(), false, ctx)? {
                return Ok(());
            }
        }
        RefFieldFlag::Tracked => {
            if v.write_ref_flag(ctx, true)? {
                return Ok(());
            }
        }
    }
    if F::needs_type_info(ctx.registry()) || (F::POLYMORPHIC && ctx.compatible()) {
        v.write_type_info(ctx)?;
    }
    v.write_declared(ctx)
}

/// Reads a field written by [`write_ref_field`].
#[inline]
pub fn read_ref_field<'de, F: Deserialize<'de>>(ctx: &mut ReadContext<'de, '_>) -> Result<F> {
    if !ctx.ref_tracking() || ref_field_flag::<F>() == RefFieldFlag::Inline {
        return read_field(ctx);
    }
    let item = super::Typed::<F>::new();
    match super::refs::read_flag(ctx, &item)? {
        super::refs::Flagged::Done(v) => Ok(v),
        super::refs::Flagged::Read(slot) => {
            // The writer gives a dynamic value in a tracked field an id whatever its kind
            // (`write_ref_field`), so its renumbering counts it.
            let dynamic = F::DYNAMIC_REFS && ref_field_flag::<F>() == RefFieldFlag::Tracked;
            if dynamic {
                ctx.set_count(Some(true));
            }
            let v = read_field_body::<F>(ctx);
            if dynamic {
                ctx.set_count(None);
            }
            Ok(super::refs::finish(ctx, &item, v?, slot))
        }
    }
}

/// Reads one struct field written by [`write_field`].
#[inline(always)]
pub fn read_field<'de, F: Deserialize<'de>>(ctx: &mut ReadContext<'de, '_>) -> Result<F> {
    if F::FIELD_NULLABLE {
        // The two flags of a field that does not track references, without the general
        // reference machinery.
        match ctx.reader.rest().first() {
            Some(&b) if b == RefFlag::NotNull.byte() => {
                ctx.reader.u8()?;
                return read_field_body(ctx);
            }
            Some(&b) if b == RefFlag::Null.byte() => {
                ctx.reader.u8()?;
                if let Some(v) = F::null() {
                    return Ok(v);
                }
                // Cannot hold a null: let the general path report it.
                ctx.reader
                    .rewind_to(ctx.reader.position().saturating_sub(1))?;
            }
            _ => {}
        }
        let item = super::Typed::<F>::new();
        return match super::refs::read_flag(ctx, &item)? {
            super::refs::Flagged::Done(v) => Ok(v),
            super::refs::Flagged::Read(slot) => {
                let v = read_field_body::<F>(ctx)?;
                Ok(super::refs::finish(ctx, &item, v, slot))
            }
        };
    }
    read_field_body(ctx)
}

#[inline(always)]
fn read_field_body<'de, F: Deserialize<'de>>(ctx: &mut ReadContext<'de, '_>) -> Result<F> {
    if F::needs_type_info(ctx.registry()) || (F::POLYMORPHIC && ctx.compatible()) {
        let id = super::read_type_info::<F>(ctx)?;
        F::read_typed(ctx, id)
    } else {
        F::read_data(ctx)
    }
}

/// Reads one struct field as [`read_field`] does, on the direct path (see
/// [`Deserialize::read_direct`]): the null flag of an optional field, then the value.
#[inline(always)]
pub fn read_field_direct<'de, F: Deserialize<'de>>(
    r: &mut crate::buffer::Reader<'de>,
    ctx: &ReadContext<'de, '_>,
) -> Option<F> {
    if F::FIELD_NULLABLE {
        let flag = r.u8().ok()?;
        if flag == RefFlag::Null.byte() {
            return F::null();
        }
        if flag != RefFlag::NotNull.byte() {
            return None;
        }
    }
    F::read_direct(r, ctx)
}

/// [`Deserialize::read_direct`] of a derived struct in a declared position: what precedes
/// the body there, then the body. Same-schema: the schema hash (a struct registered by name
/// carries its type info too, left to the general path). Compatible: the type info, which
/// must name by back reference a TypeDef that the stream announced before and that is this
/// side's own (the first announcement takes the general path, which records it).
#[inline(always)]
pub fn struct_read_direct<'de, T: StructRead<'de>>(
    r: &mut crate::buffer::Reader<'de>,
    ctx: &ReadContext<'de, '_>,
) -> Option<T> {
    let compress_int = ctx.compress_int();
    let registry = ctx.registry();
    if ctx.compatible() {
        let head = r.array::<2>().ok()?;
        if !ctx.is_local_typedef_ref::<T>(head) {
            return None;
        }
    } else {
        if registry.is_named::<T>() {
            return None;
        }
        if r.i32().ok()? != T::schema_hash(registry, compress_int) {
            return None;
        }
    }
    T::read_direct_body(r, ctx, compress_int)
}

/// Reads a struct body on the direct path where the body starts (after its hash or type
/// info): on `None`, nothing was consumed and the general path reads it.
#[inline(always)]
pub fn struct_body_direct<'de, T: StructRead<'de>>(
    ctx: &mut ReadContext<'de, '_>,
    compress_int: bool,
) -> Option<T> {
    let mut r = ctx.reader.clone();
    let v = T::read_direct_body(&mut r, ctx, compress_int)?;
    ctx.reader = r;
    Some(v)
}

/// Appends one field's part of the schema fingerprint: `name,type,ref,nullable[children];`.
pub fn fingerprint_field<F: Serialize>(
    out: &mut String,
    name: &str,
    track_ref: bool,
    nullable: bool,
) {
    out.push_str(name);
    out.push(',');
    let t = F::field_type(&crate::registry::Registry::default(), false);
    super::render_fingerprint(out, &t, track_ref, nullable);
    out.push(';');
}

/// Writes a field declared nullable whose Rust type cannot be null: always the not-null flag,
/// then as [`write_field`].
#[inline]
pub fn write_flagged_field<F: Serialize>(v: &F, ctx: &mut WriteContext) -> Result<()> {
    ctx.ref_flag(RefFlag::NotNull);
    write_field(v, ctx)
}

/// Reads a field written by [`write_flagged_field`]; a null is an error naming the field.
#[inline]
pub fn read_flagged_field<'de, F: Deserialize<'de>>(
    ctx: &mut ReadContext<'de, '_>,
    field: &str,
) -> Result<F> {
    let at = ctx.reader.position();
    match ctx.ref_flag()? {
        RefFlag::Null => F::null().ok_or_else(|| {
            Error::at(
                ErrorKind::UnexpectedNull {
                    expected: format!("{} in field `{field}`", std::any::type_name::<F>()),
                },
                at,
            )
        }),
        RefFlag::Ref => Err(ctx.error(ErrorKind::Invalid {
            what: format!("a back reference in field `{field}`, which does not track references"),
        })),
        RefFlag::NotNull | RefFlag::RefValue => read_field(ctx),
    }
}

/// Computes a schema hash once per process and encoding choice.
pub struct SchemaHash {
    cells: [std::sync::OnceLock<i32>; 2],
}

impl SchemaHash {
    /// An empty cache (usable in a `static`).
    pub const fn new() -> Self {
        SchemaHash {
            cells: [std::sync::OnceLock::new(), std::sync::OnceLock::new()],
        }
    }

    /// The hash for `compress_int`, computing the fingerprint with `make` the first time.
    #[inline]
    pub fn get(&self, compress_int: bool, make: impl FnOnce(bool) -> String) -> i32 {
        *self.cells[compress_int as usize].get_or_init(|| schema_hash(&make(compress_int)))
    }
}

impl Default for SchemaHash {
    fn default() -> Self {
        Self::new()
    }
}

/// The schema hash of a generic struct `T` for `compress_int`, kept in `T`'s registry entry
/// (a `static` in generated code would be shared by every instantiation).
#[inline]
pub fn registry_schema_hash<T: FuryObject>(
    registry: &crate::registry::Registry,
    compress_int: bool,
    make: fn(bool) -> String,
) -> i32 {
    match registry.get::<T>() {
        Some(e) => {
            *e.schema_hashes[compress_int as usize].get_or_init(|| schema_hash(&make(compress_int)))
        }
        None => schema_hash(&make(compress_int)),
    }
}

/// The 32-bit same-schema hash of a fingerprint: the low 32 bits of the first half of
/// MurmurHash3 x64_128 with seed 47, as a signed integer (47 for an empty fingerprint).
pub fn schema_hash(fingerprint: &str) -> i32 {
    if fingerprint.is_empty() {
        return 47;
    }
    let (h1, _) = crate::meta::murmur3_x64_128(fingerprint.as_bytes(), 47);
    h1 as u32 as i32
}

/// Reads and checks the 4-byte schema hash in front of a same-schema struct body.
#[inline(always)]
pub fn check_schema_hash<'de, T>(ctx: &mut ReadContext<'de, '_>, expected: i32) -> Result<()> {
    let at = ctx.reader.position();
    let found = ctx.reader.i32()?;
    if found != expected {
        return Err(schema_hash_mismatch::<T>(expected, found, at));
    }
    Ok(())
}

/// The error for a schema hash other than the local one, found at offset `at`.
#[cold]
#[inline(never)]
fn schema_hash_mismatch<T>(expected: i32, found: i32, at: usize) -> Error {
    Error::at(
        ErrorKind::TypeMismatch {
            expected: format!(
                "{} with schema hash {expected:#010x}",
                std::any::type_name::<T>()
            ),
            found: format!(
                "schema hash {found:#010x} (the peer's struct has other fields or field types)"
            ),
        },
        at,
    )
}

/// The error for an enum variant id that the enum does not have.
#[cold]
pub fn bad_enum_variant<'de, T>(ctx: &ReadContext<'de, '_>, at: usize, found: u32) -> Error {
    let _ = ctx;
    Error::at(
        ErrorKind::Invalid {
            what: format!(
                "enum {} has no variant with id {found}",
                std::any::type_name::<T>()
            ),
        },
        at,
    )
}

/// Writes the namespace and type name of a named type (with per-stream deduplication).
pub(crate) fn write_type_name(
    entry: &crate::registry::TypeEntry,
    ctx: &mut WriteContext,
) -> Result<()> {
    let n = entry.encoded_names()?;
    ctx.write_meta_string(&n.namespace);
    ctx.write_meta_string(&n.type_name);
    Ok(())
}

/// Reads the namespace and type name of a named type and checks them against `entry`.
pub(crate) fn read_type_name<'de>(
    entry: &crate::registry::TypeEntry,
    ctx: &mut ReadContext<'de, '_>,
) -> Result<()> {
    let n = entry.encoded_names()?;
    let at = ctx.reader.position();
    let (ns, ty) = ctx.read_type_name_strings()?;
    if ns.matches(&n.namespace) && ty.matches(&n.type_name) {
        return Ok(());
    }
    let found_ns = ns
        .decode(&MetaStringEncoder::namespace())
        .unwrap_or_else(|_| "?".into());
    let found_ty = ty
        .decode(&MetaStringEncoder::type_name())
        .unwrap_or_else(|_| "?".into());
    Err(Error::at(
        ErrorKind::TypeMismatch {
            expected: format!("{} ({})", entry.rust_name, entry.describe()),
            found: if found_ns.is_empty() {
                format!("named type {found_ty}")
            } else {
                format!("named type {found_ns}.{found_ty}")
            },
        },
        at,
    ))
}

// ---- the protocol of a derived struct: generated code supplies the bodies ----

/// The parts of a derived struct that depend on its fields; `#[derive(FuryObject)]`
/// implements it, and the generic functions below do the rest of `Serialize` and
/// `Deserialize` with them.
pub trait StructBody: FuryObject + super::layout::StructLayout {
    /// The schema fingerprint for `compress_int` (see `spec/`).
    fn fingerprint(compress_int: bool) -> String;
    /// The same-schema hash for `compress_int`, cached.
    fn schema_hash(registry: &crate::registry::Registry, compress_int: bool) -> i32;
    /// One body: the hash (if any) and the fields in wire order.
    fn write_body(
        &self,
        ctx: &mut WriteContext,
        compress_int: bool,
        hash: Option<i32>,
    ) -> Result<()>;
    /// The fields in wire order into `room` (for [`Serialize::write_direct`]); only called
    /// when `Self::DIRECT_MAX > 0`.
    fn write_direct_body(&self, room: &mut crate::buffer::Room<'_, '_>, compress_int: bool);
}

/// The reading half of [`StructBody`], for input that lives for `'de` (a struct that borrows
/// from its input reads only from input that outlives it).
pub trait StructRead<'de>: StructBody + Deserialize<'de> {
    /// The fields in the local wire order.
    fn read_local(ctx: &mut ReadContext<'de, '_>, compress_int: bool) -> Result<Self>;
    /// The fields of a peer's TypeDef, matched to the local ones by `plan`.
    fn read_plan(
        ctx: &mut ReadContext<'de, '_>,
        plan: &crate::registry::plan::ReadPlan,
    ) -> Result<Self>;
    /// The fields in the local wire order on the direct path ([`Deserialize::read_direct`]);
    /// only called when `Self::DIRECT`.
    fn read_direct_body(
        r: &mut crate::buffer::Reader<'de>,
        ctx: &ReadContext<'de, '_>,
        compress_int: bool,
    ) -> Option<Self>;
}

/// What every body written in one call shares: the integer encoding, and the schema hash
/// that same-schema mode puts first (compatible mode shares a TypeDef in the type info
/// instead).
#[inline(always)]
fn struct_write_setup<T: StructBody>(ctx: &WriteContext) -> (bool, Option<i32>) {
    let compress_int = ctx.compress_int();
    let hash = if ctx.compatible() {
        None
    } else {
        Some(T::schema_hash(ctx.registry(), compress_int))
    };
    (compress_int, hash)
}

/// [`Serialize::write_data`] of a derived struct.
#[inline(always)]
pub fn struct_write_data<T: StructBody>(v: &T, ctx: &mut WriteContext) -> Result<()> {
    ctx.enter()?;
    let (compress_int, hash) = struct_write_setup::<T>(ctx);
    v.write_body(ctx, compress_int, hash)?;
    ctx.leave();
    Ok(())
}

/// [`Serialize::write_run`] of a derived struct: the set-up of `write_data` once for the run.
#[inline(always)]
pub fn struct_write_run<'b, T, I>(items: I, ctx: &mut WriteContext) -> Result<()>
where
    T: StructBody + 'b,
    I: Iterator<Item = &'b T>,
{
    ctx.enter()?;
    let (compress_int, hash) = struct_write_setup::<T>(ctx);
    for item in items {
        item.write_body(ctx, compress_int, hash)?;
    }
    ctx.leave();
    Ok(())
}

/// [`Serialize::write_direct`] of a derived struct: the type info (compatible: kind and the
/// one-byte back reference to the TypeDef this stream wrote before) or the schema hash, and
/// the body, in one room of `T::DIRECT_MAX` bytes.
#[inline(always)]
pub fn struct_write_direct<T: StructBody>(v: &T, ctx: &mut WriteContext) -> bool {
    let compress_int = ctx.compress_int();
    let registry = ctx.registry();
    if ctx.compatible() {
        let key = crate::registry::type_key::<T>();
        let (kind, marker) = match ctx.direct_memo {
            Some((k, kind, marker)) if k == key => (kind, marker),
            _ => {
                let Some(entry) = registry.get::<T>() else {
                    return false;
                };
                let Some(marker) = ctx.shared_back_reference(entry.index()) else {
                    return false;
                };
                let named = matches!(entry.registration, Registration::Name { .. });
                let kind = struct_kind_of(named, true) as u8;
                ctx.direct_memo = Some((key, kind, marker));
                (kind, marker)
            }
        };
        let mut room = ctx.writer.room(T::DIRECT_MAX);
        room.u8(kind);
        room.u8(marker);
        // Both branches take the same budget, so the room's checks fold.
        room.spend(2);
        v.write_direct_body(&mut room, compress_int);
    } else {
        if registry.is_named::<T>() {
            return false;
        }
        let hash = T::schema_hash(registry, compress_int);
        let mut room = ctx.writer.room(T::DIRECT_MAX);
        room.i32(hash);
        v.write_direct_body(&mut room, compress_int);
    }
    true
}

/// [`Serialize::write_stream`] of a derived struct: the one-store prefix when it applies.
#[inline(always)]
pub fn struct_write_stream<T: StructBody>(v: &T, ctx: &mut WriteContext) -> Result<()> {
    if write_stream_prefix::<T>(ctx)? {
        // The root's body here, not behind a call of its `write_data`.
        struct_write_data(v, ctx)
    } else {
        super::write_stream(v, ctx)
    }
}

/// [`Deserialize::read_data`] of a derived struct, inlined where the value is wanted.
#[inline(always)]
pub fn struct_read_data<'de, T: StructRead<'de>>(ctx: &mut ReadContext<'de, '_>) -> Result<T> {
    ctx.enter()?;
    let compress_int = ctx.compress_int();
    let value = if ctx.compatible() {
        match super::compatible::plan_for::<T>(ctx, compress_int)? {
            None => T::read_local(ctx, compress_int)?,
            Some(plan) => T::read_plan(ctx, &plan)?,
        }
    } else {
        let hash = T::schema_hash(ctx.registry(), compress_int);
        check_schema_hash::<T>(ctx, hash)?;
        T::read_local(ctx, compress_int)?
    };
    ctx.leave();
    Ok(value)
}

/// [`Deserialize::read_typed`] of a derived struct.
#[inline]
pub fn struct_read_typed<'de, T: StructRead<'de>>(
    ctx: &mut ReadContext<'de, '_>,
    id: TypeId,
) -> Result<T> {
    check_user_kind::<T>(ctx, id)?;
    T::read_data(ctx)
}

/// [`Deserialize::read_root`] of a derived struct: the usual NOT_NULL root is built where
/// the caller wants it.
#[inline(always)]
pub fn struct_read_root<'de, T: StructRead<'de>>(ctx: &mut ReadContext<'de, '_>) -> Result<T> {
    if ctx.reader.take_if(RefFlag::NotNull.byte()) {
        if take_local_typedef_info::<T>(ctx)? {
            // Our own TypeDef: the body follows the local schema.
            ctx.enter()?;
            let value = T::read_local(ctx, ctx.compress_int())?;
            ctx.leave();
            return Ok(value);
        }
        if !take_id_info::<T>(ctx) {
            let id = super::read_type_info::<T>(ctx)?;
            check_user_kind::<T>(ctx, id)?;
        }
        struct_read_data(ctx)
    } else {
        super::read_with_flag(ctx)
    }
}

/// [`Deserialize::read_run`] of a derived struct: the set-up of `read_typed`/`read_data`
/// once for the run (every element follows the one type info and TypeDef read before it).
#[inline(always)]
pub fn struct_read_run<'de, T: StructRead<'de>>(
    ctx: &mut ReadContext<'de, '_>,
    id: Option<TypeId>,
    n: usize,
    out: &mut Vec<T>,
) -> Result<()> {
    if let Some(id) = id {
        check_user_kind::<T>(ctx, id)?;
    }
    ctx.enter()?;
    let compress_int = ctx.compress_int();
    if ctx.compatible() {
        match super::compatible::plan_for::<T>(ctx, compress_int)? {
            None => {
                for _ in 0..n {
                    out.push(T::read_local(ctx, compress_int)?);
                }
            }
            Some(plan) => {
                for _ in 0..n {
                    out.push(T::read_plan(ctx, &plan)?);
                }
            }
        }
    } else {
        let hash = T::schema_hash(ctx.registry(), compress_int);
        for _ in 0..n {
            check_schema_hash::<T>(ctx, hash)?;
            out.push(T::read_local(ctx, compress_int)?);
        }
    }
    ctx.leave();
    Ok(())
}

/// A union case (see `union.rs`) whose value is an enum variant's case struct: here, beside
/// the struct writer it uses.
/// Writes a case whose value is the case struct `C` of an enum variant with several fields,
/// without building a `C`: its id, the flag and type info of a `C`, then the body that
/// `body` writes from the variant's fields (given the integer encoding and, in same-schema
/// mode, `C`'s schema hash to put first).
#[inline]
pub fn write_union_struct_case<C, F>(case_id: u32, ctx: &mut WriteContext, body: F) -> Result<()>
where
    C: StructBody,
    F: FnOnce(&mut WriteContext, bool, Option<i32>) -> Result<()>,
{
    ctx.writer.var_u32(case_id);
    ctx.enter()?;
    // A case struct is a fresh value: it takes a reference id with tracking on, as pyfory's
    // reader gives the REF_VALUE it reads one, but nothing can refer back to it.
    super::refs::write_plain_flag(false, true, ctx)?;
    let r = write_user_type_info::<C>(ctx).and_then(|()| {
        // The struct's own level, as its reader counts it.
        ctx.enter()?;
        let compress_int = ctx.compress_int();
        let hash = if ctx.compatible() {
            None
        } else {
            Some(C::schema_hash(ctx.registry(), compress_int))
        };
        let r = body(ctx, compress_int, hash);
        ctx.leave();
        r
    });
    ctx.leave();
    r
}
