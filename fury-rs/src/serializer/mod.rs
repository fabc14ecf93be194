//! The [`Serialize`] / [`Deserialize`] traits and their implementations for built-in types.
//!
//! A value on the wire is `type info` + `payload` ("data"); where a value may be null or
//! shared, a one-byte reference flag precedes it. The traits split these parts so containers
//! can write the type info once for many elements and skip flags they do not need.

pub(crate) mod any;
pub(crate) mod array;
#[cfg(feature = "bigdecimal")]
mod bigdecimal;
#[cfg(feature = "bytes")]
mod bytes_crate;
#[cfg(feature = "chrono")]
mod chrono_crate;
mod collection;
pub mod compatible;
mod decimal;
mod dynamic;
pub(crate) mod ext;
pub(crate) mod fory_form;
mod items;
pub(crate) mod layout;
pub(crate) mod map;
pub mod object;
pub mod refs;
#[cfg(feature = "rust_decimal")]
mod rust_decimal;
mod scalar;
pub(crate) mod skip;
#[cfg(feature = "smallvec")]
mod smallvec_crate;
mod std_types;
pub(crate) mod string;
mod temporal;
pub(crate) mod typedef_declared;
pub(crate) mod union;
#[cfg(feature = "uuid")]
mod uuid_crate;
mod wrapper;

pub use any::AnyObject;
pub use array::UInt8Array;
pub use collection::{read_elements, write_elements, List, Set};
pub use ext::Ext;
pub use fory_form::ForyForm;
pub use items::{ItemReader, Typed};
pub use map::{read_map, write_map, Map};
pub use object::FuryObject;
pub use std_types::{BorrowCow, CowRead};
pub use union::UnknownCase;
pub use wrapper::{Fixed, Tagged};

use crate::context::{ReadContext, WriteContext};
use crate::error::{ErrorKind, Result};
use crate::meta::typedef::FieldType;
use crate::registry::Registry;
use crate::types::TypeId;

/// What a type is on the wire: its type id and the facts about it that containers, struct
/// layouts and TypeDefs need. Every [`Serialize`] and [`Deserialize`] type has one.
///
/// Only [`TYPE_ID`](WireType::TYPE_ID) is required; the rest are details that generated code
/// and the containers read.
///
/// ```
/// use fury::wire::TypeId;
/// use fury::WireType;
/// assert_eq!(<u32 as WireType>::TYPE_ID, TypeId::VarUInt32);
/// assert_eq!(<Vec<f64> as WireType>::TYPE_ID, TypeId::Float64Array);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no xlang wire type",
    label = "not a fury type",
    note = "derive `fury::FuryObject` for it, mark a newtype `#[fury(transparent)]`, or write the field through `#[fury(with = \"module\")]`"
)]
pub trait WireType {
    /// Wire type id of values of this type (for `Option<T>`, that of `T`; for user types the
    /// kind, e.g. `STRUCT`, whatever the registration).
    const TYPE_ID: TypeId;
    /// True when values may be null (`Option`), so containers must check for nulls.
    #[doc(hidden)]
    const NULLABLE: bool = false;
    /// True when a struct field of this type carries a null flag: `Option` only. (A dynamic
    /// `Value` field holds its null as the NONE type instead, as pyfory's `Any` fields do.)
    #[doc(hidden)]
    const FIELD_NULLABLE: bool = Self::NULLABLE;
    /// Wire type id used for a `Vec<Self>` / `[Self]`: `LIST` unless a dense array fits.
    #[doc(hidden)]
    const VEC_TYPE_ID: TypeId = TypeId::List;
    /// True for values that reference tracking follows (lists, sets, maps, structs, shared
    /// pointers): with tracking on, they carry a REF_VALUE flag and take a reference id.
    #[doc(hidden)]
    const REF_TYPE: bool = false;
    /// True for struct types: a list or set of them carries the element type info even when
    /// its element type is declared (pyfory treats structs as possibly polymorphic there).
    #[doc(hidden)]
    const POLYMORPHIC: bool = false;

    /// True when a value in a declared position still carries its type info: named structs
    /// and dynamic values. Depends on the registration, hence the registry argument.
    #[doc(hidden)]
    #[inline]
    fn needs_type_info(_registry: &Registry) -> bool
    where
        Self: Sized,
    {
        false
    }

    /// Walks the user types this type reaches, for registration (`Fury::register`): a
    /// container walks its element types, a derived type registers itself and walks its
    /// fields; other types reach none.
    #[doc(hidden)]
    #[inline]
    fn reach(reach: &mut crate::registry::Reach<'_>) -> crate::error::Result<()> {
        let _ = reach;
        Ok(())
    }

    /// The declared type of a field (or element) of this type, as a TypeDef describes it.
    /// User types name their registered kind (e.g. COMPATIBLE_STRUCT in compatible mode).
    #[doc(hidden)]
    fn field_type(registry: &Registry, compatible: bool) -> FieldType
    where
        Self: Sized,
    {
        let _ = (registry, compatible);
        FieldType::leaf(Self::TYPE_ID)
    }
}

/// A type that can be written in the xlang format.
///
/// Implemented for the built-in types; `#[derive(FuryObject)]` implements it for structs and
/// enums. The one required method writes the payload; the others are hooks that containers
/// and generated code use (hidden from the documentation).
///
/// ```
/// let fury = fury::Fury::default();
/// assert_eq!(fury.serialize(&7u8).unwrap(), [0x01, 0xff, 0x09, 0x07]);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be written by fury",
    label = "not a fury type",
    note = "derive `fury::FuryObject` for it, mark a newtype `#[fury(transparent)]`, or write the field through `#[fury(with = \"module\")]`"
)]
pub trait Serialize: WireType {
    /// Writes the type info of this value (one byte for internal types; the user type id or
    /// the registered names for structs and enums).
    #[doc(hidden)]
    #[inline]
    fn write_type_info(&self, ctx: &mut WriteContext) -> Result<()> {
        ctx.writer.u8(Self::TYPE_ID as u8);
        Ok(())
    }

    /// Writes the type info of this type without a value at hand (for a container whose
    /// items are all null).
    #[doc(hidden)]
    #[inline]
    fn write_static_type_info(ctx: &mut WriteContext) -> Result<()>
    where
        Self: Sized,
    {
        ctx.writer.u8(Self::TYPE_ID as u8);
        Ok(())
    }

    /// Writes the payload, without flag or type info, where the reader does not know the
    /// type statically (a root value or an element of an undeclared container).
    fn write_data(&self, ctx: &mut WriteContext) -> Result<()>;

    /// An upper bound of the bytes [`write_direct`](Self::write_direct) writes; 0 for types
    /// without that path. Derived structs whose fields are all plain numbers have it.
    #[doc(hidden)]
    const DIRECT_MAX: usize = 0;

    /// Writes this value as a declared struct field does (in compatible mode with its type
    /// info, else its schema hash, then the body) into one reserved room, without context
    /// calls or depth accounting; false when that does not apply now (a type registered by
    /// name, a TypeDef not written yet in this stream), and nothing was written.
    #[doc(hidden)]
    #[inline(always)]
    fn write_direct(&self, ctx: &mut WriteContext) -> bool {
        let _ = ctx;
        false
    }

    /// Writes the payload where the reader declared the type (a struct field, or inside a
    /// container that is): containers then skip the element type info.
    #[doc(hidden)]
    #[inline(always)]
    fn write_declared(&self, ctx: &mut WriteContext) -> Result<()> {
        self.write_data(ctx)
    }

    /// Writes a whole stream with this value as its root: the header byte, then the value as
    /// [`write_with_flag`] writes it (which is the default). Generated struct writers add a
    /// path that stores header, flag and a prepared type info in one go.
    #[doc(hidden)]
    #[inline]
    fn write_stream(&self, ctx: &mut WriteContext) -> Result<()> {
        write_stream(self, ctx)
    }

    /// Writes the payloads of a run of values one after another, each as
    /// [`write_declared`](Self::write_declared) (or [`write_data`](Self::write_data) when
    /// `declared` is false): the body of a list whose elements share one type info and need
    /// no flags. Generated struct writers override it to do their per-value set-up (nesting
    /// level, schema hash) once per run.
    #[doc(hidden)]
    #[inline]
    fn write_run<'b, I>(items: I, declared: bool, ctx: &mut WriteContext) -> Result<()>
    where
        Self: Sized + 'b,
        I: Iterator<Item = &'b Self>,
    {
        for item in items {
            if declared {
                item.write_declared(ctx)?;
            } else {
                item.write_data(ctx)?;
            }
        }
        Ok(())
    }

    /// True for the null value of a nullable type.
    #[doc(hidden)]
    #[inline]
    fn is_null(&self) -> bool {
        false
    }

    /// True for a dynamic back reference ([`crate::Value::Ref`]), written as a flag only.
    #[doc(hidden)]
    #[inline]
    fn is_back_ref(&self) -> bool {
        false
    }

    /// Like [`Serialize::REF_TYPE`], for this value (dynamic values decide per value).
    #[doc(hidden)]
    #[inline]
    fn is_ref_type(&self) -> bool {
        Self::REF_TYPE
    }

    /// Whether this value takes a reference id as an element of a list of mixed types
    /// (tracking on): pyfory gives one there to every value but strings, integers, bools
    /// and doubles, whatever their kind.
    #[doc(hidden)]
    #[inline]
    fn is_ref_among_mixed(&self) -> bool {
        self.is_ref_type()
    }

    /// Writes the reference/null flag of this value in a position that carries one. `track`
    /// says whether the position tracks references (only effective with tracking on).
    /// Returns true when nothing follows (a null, or a back reference to a shared value).
    #[doc(hidden)]
    #[inline]
    fn write_ref_flag(&self, ctx: &mut WriteContext, track: bool) -> Result<bool> {
        refs::write_plain_flag(self.is_null(), track, ctx)
    }

    /// True when `other` has the same wire type info as `self` (always, for static types),
    /// so both can share one type info in a list or map chunk.
    #[doc(hidden)]
    #[inline]
    fn same_type(&self, _other: &Self) -> bool
    where
        Self: Sized,
    {
        true
    }

    /// Adds to `out` the byte slices in this value that its writer may put out of band (its
    /// BINARY payloads), borrowed for as long as the value: how `serialize_with_buffers`
    /// hands out buffers without copying. A payload not added here is written in band.
    /// Types that hold bytes behind a guard (`RefCell`, `Mutex`) add nothing.
    #[doc(hidden)]
    #[inline]
    fn visit_buffers<'v>(&'v self, out: &mut Vec<&'v [u8]>) {
        let _ = out;
    }

    /// [`Serialize::visit_buffers`] for the elements of a `[Self]`.
    #[doc(hidden)]
    #[inline]
    fn visit_slice<'v>(items: &'v [Self], out: &mut Vec<&'v [u8]>)
    where
        Self: Sized,
    {
        for x in items {
            x.visit_buffers(out);
        }
    }

    /// Writes a slice as the payload of `Vec<Self>` (type [`Serialize::VEC_TYPE_ID`]);
    /// `declared` as for [`Serialize::write_declared`].
    #[doc(hidden)]
    #[inline(always)]
    fn write_vec(items: &[Self], declared: bool, ctx: &mut WriteContext) -> Result<()>
    where
        Self: Sized,
    {
        // An empty list is one byte: written where the field is, not behind a call.
        if items.is_empty() {
            return collection::write_empty(ctx);
        }
        write_elements(items.len(), items.iter(), declared, ctx)
    }
}

/// A list or set field type with element type `E`.
pub fn collection_field_type<E: WireType>(
    id: TypeId,
    registry: &Registry,
    compatible: bool,
) -> FieldType {
    let mut t = FieldType::leaf(id);
    t.children.push(E::field_type(registry, compatible));
    t
}

/// A map field type with key type `K` and value type `V`.
pub fn map_field_type<K: WireType, V: WireType>(
    registry: &Registry,
    compatible: bool,
) -> FieldType {
    let mut t = FieldType::leaf(TypeId::Map);
    t.children.push(K::field_type(registry, compatible));
    t.children.push(V::field_type(registry, compatible));
    t
}

/// Appends a field type to a schema fingerprint: `id,ref,nullable` then `[children]` (lists
/// and sets) or `[key|value]` (maps), the children with flags `0,0`.
pub fn render_fingerprint(out: &mut String, t: &FieldType, track_ref: bool, nullable: bool) {
    use std::fmt::Write;
    let id = TypeId::from_u8(t.type_id).map_or(0, |id| fingerprint_id(id) as u8);
    let _ = write!(out, "{id},{},{}", track_ref as u8, nullable as u8);
    if !t.children.is_empty() {
        out.push('[');
        for (i, c) in t.children.iter().enumerate() {
            if i > 0 {
                out.push('|');
            }
            render_fingerprint(out, c, false, false);
        }
        out.push(']');
    }
}

/// The id a type contributes to a schema fingerprint: user kinds count as UNKNOWN.
pub const fn fingerprint_id(id: TypeId) -> TypeId {
    match id {
        TypeId::Enum
        | TypeId::NamedEnum
        | TypeId::Struct
        | TypeId::CompatibleStruct
        | TypeId::NamedStruct
        | TypeId::NamedCompatibleStruct
        | TypeId::Ext
        | TypeId::NamedExt
        | TypeId::Union
        | TypeId::TypedUnion
        | TypeId::NamedUnion => TypeId::Unknown,
        other => other,
    }
}

/// A type that can be read from the xlang format, borrowing from input that lives for `'de`.
///
/// The lifetime is that of the input bytes: a type that owns its data implements
/// `Deserialize` for every `'de` (see [`DeserializeOwned`]). The one required method
/// reads the payload; the others are hooks that containers, reference tracking and generated
/// code use (hidden from the documentation).
///
/// ```
/// let fury = fury::Fury::default();
/// let n: u8 = fury.deserialize(&[0x01, 0xff, 0x09, 0x07]).unwrap();
/// assert_eq!(n, 7);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be read by fury",
    label = "not a fury type",
    note = "derive `fury::FuryObject` for it, mark a newtype `#[fury(transparent)]`, or write the field through `#[fury(with = \"module\")]`"
)]
pub trait Deserialize<'de>: WireType + Sized {
    /// Reads the payload of a value whose type is known: after a type info equal to
    /// `Self::TYPE_ID`, or in a declared position.
    fn read_data(ctx: &mut ReadContext<'de, '_>) -> Result<Self>;

    /// True when [`read_direct`](Self::read_direct) reads this type: plain values whose
    /// payload needs nothing from the context but the settings (numbers, bools, unit enums,
    /// structs of such fields). Their nesting is bounded by the type itself, so a run of them
    /// can be read with a copy of the reader held in registers, without depth accounting.
    #[doc(hidden)]
    const DIRECT: bool = false;

    /// True for the dynamic forms (`Value`, and values read only to be skipped), which with
    /// reference tracking on number their values themselves as a writer of them would; a
    /// static type's value takes the next id of that numbering whenever it is flagged
    /// REF_VALUE, since its writer flags it the same way.
    #[doc(hidden)]
    const DYNAMIC_REFS: bool = false;

    /// Reads a value in a declared position, as [`read_data`](Self::read_data) (plus, for
    /// structs, what precedes the body there: the schema hash, or in compatible mode a type
    /// info naming a local TypeDef already read), from `r`, a copy of the context's reader.
    /// `None` when anything is not as the fast path expects (a short input, a TypeDef not
    /// seen yet, an invalid byte): the caller then drops `r` and reads the same bytes again
    /// on the general path, which reports errors where they are.
    #[doc(hidden)]
    #[inline(always)]
    fn read_direct(r: &mut crate::buffer::Reader<'de>, ctx: &ReadContext<'de, '_>) -> Option<Self> {
        let _ = (r, ctx);
        None
    }

    /// Consumes what follows the kind byte `id` of a type info (the user type id or names
    /// of a struct or enum) and checks that it names `Self`. Built-in types have nothing
    /// after the byte.
    #[doc(hidden)]
    #[inline]
    fn read_type_info_rest(ctx: &mut ReadContext<'de, '_>, id: TypeId) -> Result<()> {
        let _ = (ctx, id);
        Ok(())
    }

    /// Reads the payload of a value whose complete type info (kind byte `id`, and for user
    /// types the rest, see [`Deserialize::read_type_info_rest`]) was already consumed. The
    /// default accepts only `Self::TYPE_ID`; numeric types also accept compatible encodings.
    #[doc(hidden)]
    #[inline]
    fn read_typed(ctx: &mut ReadContext<'de, '_>, id: TypeId) -> Result<Self> {
        if id == Self::TYPE_ID {
            Self::read_data(ctx)
        } else {
            Err(ctx.mismatch(std::any::type_name::<Self>(), id))
        }
    }

    /// Reads a LIST payload whose elements the peer declared as `element` (a LIST, BINARY or
    /// dense array of a primitive) where the local element type declares another of those
    /// forms (the official crate's `Vec<Vec<u16>>` is LIST<LIST<UINT16>>, pyfory's and
    /// fury-rs's LIST<UINT16_ARRAY>): elements written without type info are read as
    /// `element`. The default reads the LIST as [`read_typed`](Self::read_typed) does; `Vec`
    /// and `Option` pass the element type on.
    #[doc(hidden)]
    #[inline]
    fn read_list_declared(ctx: &mut ReadContext<'de, '_>, element: TypeId) -> Result<Self> {
        let _ = element;
        Self::read_typed(ctx, TypeId::List)
    }

    /// Reads a whole root value: its reference flag, its type info and its payload, as
    /// [`read_with_flag`] does (which is the default). Generated struct readers add a path
    /// for the usual NOT_NULL root that builds the value where the caller wants it.
    #[doc(hidden)]
    #[inline]
    fn read_root(ctx: &mut ReadContext<'de, '_>) -> Result<Self> {
        read_with_flag(ctx)
    }

    /// Reads `n` payloads one after another into `out`: after one shared type info (kind
    /// byte `Some(id)`, as [`read_typed`](Self::read_typed)) or of the declared type
    /// (`None`, as [`read_data`](Self::read_data)). The body of a list without flags.
    /// Generated struct readers override it to do their per-value set-up (kind check, nesting
    /// level, schema hash or read plan) once per run.
    #[doc(hidden)]
    #[inline]
    fn read_run(
        ctx: &mut ReadContext<'de, '_>,
        id: Option<TypeId>,
        n: usize,
        out: &mut Vec<Self>,
    ) -> Result<()> {
        for _ in 0..n {
            out.push(match id {
                Some(id) => Self::read_typed(ctx, id)?,
                None => Self::read_data(ctx)?,
            });
        }
        Ok(())
    }

    /// The value a null on the wire becomes, if this type can hold one.
    #[doc(hidden)]
    #[inline]
    fn null() -> Option<Self> {
        None
    }

    /// The value of a field that the peer's schema lacks (compatible mode): the type's
    /// default where it has one. Derived structs and enums have one only when the user gave
    /// it (`#[fury(default)]`): a value is never invented for them.
    #[doc(hidden)]
    #[inline]
    fn missing() -> Option<Self> {
        None
    }

    /// A value that holds the place of one being read (a reference cell while a cycle
    /// through it is read); never seen by the user. A derived struct builds one from its
    /// fields' stand-ins even when it has no `missing` value.
    #[doc(hidden)]
    #[inline]
    fn stand_in() -> Option<Self> {
        Self::missing()
    }

    /// The value a back reference to id `id` stands for (read at offset `at`). Only shared
    /// pointers (and dynamic values) can be referenced; other types give an error.
    #[doc(hidden)]
    fn from_ref(ctx: &ReadContext<'de, '_>, id: u32, at: usize) -> Result<Self> {
        ctx.ref_slot(id, at)?;
        Err(crate::Error::at(
            ErrorKind::Invalid {
                what: format!(
                    "a back reference where a {} was expected (use Rc or Arc for shared values)",
                    std::any::type_name::<Self>()
                ),
            },
            at,
        ))
    }

    /// Called when a REF_VALUE flag for this type was read, before its value: shared
    /// pointers to cells install a placeholder, so references from inside the value (cycles)
    /// resolve to the final allocation.
    #[doc(hidden)]
    #[inline]
    fn begin_ref(ctx: &mut ReadContext<'de, '_>, slot: usize) {
        let _ = (ctx, slot);
    }

    /// Records this freshly read value under reference slot `slot` and returns the value to
    /// use (shared pointers keep a handle so later back references share it, or fill the
    /// placeholder of [`Deserialize::begin_ref`]; other types leave the slot plain).
    #[doc(hidden)]
    #[inline]
    fn keep_ref(self, ctx: &mut ReadContext<'de, '_>, slot: usize) -> Self {
        ctx.set_ref(slot, crate::context::RefSlot::Plain);
        self
    }

    /// A value that can be created before its content is read and filled in afterwards
    /// (cells); `None` for other types.
    #[doc(hidden)]
    #[inline]
    fn placeholder() -> Option<Self> {
        None
    }

    /// Empties a placeholder cell (replaces its content with a fresh `missing` value): how a
    /// failed decode breaks the cycles it closed. Other types do nothing.
    #[doc(hidden)]
    #[inline]
    fn empty_placeholder(&self) {}

    /// Moves `from`'s content into this placeholder; gives `from` back if it cannot.
    #[doc(hidden)]
    #[inline]
    fn fill_placeholder(&self, from: Self) -> std::result::Result<(), Self> {
        Err(from)
    }

    /// Reads the payload of a `[Self]` whose type info was `id` into a `Cow`: borrowed where
    /// the input holds the elements as they are (bytes), owned otherwise.
    #[doc(hidden)]
    #[inline]
    fn read_slice_cow(
        ctx: &mut ReadContext<'de, '_>,
        id: TypeId,
    ) -> Result<std::borrow::Cow<'de, [Self]>>
    where
        Self: Clone,
    {
        Self::read_vec(ctx, id).map(std::borrow::Cow::Owned)
    }

    /// Reads the payload of a `[Self; N]` whose type info was `id` straight into an array,
    /// where the element type has a fixed-width dense form; `None` (nothing consumed) where
    /// the caller reads it as a `Vec` instead.
    #[doc(hidden)]
    #[inline]
    fn read_array<const N: usize>(
        ctx: &mut ReadContext<'de, '_>,
        id: TypeId,
    ) -> Result<Option<[Self; N]>> {
        let _ = (ctx, id);
        Ok(None)
    }

    /// Reads the payload of a `Vec<Self>` whose type info was `id`.
    #[doc(hidden)]
    #[inline]
    fn read_vec(ctx: &mut ReadContext<'de, '_>, id: TypeId) -> Result<Vec<Self>> {
        if id == TypeId::List {
            read_elements(ctx)
        } else {
            Err(ctx.mismatch(std::any::type_name::<Vec<Self>>(), id))
        }
    }
}

/// A type that can be read from input of any lifetime: it borrows nothing from it.
///
/// ```
/// fn decode<T: fury::DeserializeOwned>(fury: &fury::Fury, bytes: Vec<u8>) -> fury::Result<T> {
///     fury.deserialize(&bytes) // `bytes` is dropped here; `T` does not borrow from it
/// }
/// let fury = fury::Fury::default();
/// let bytes = fury.serialize("hi").unwrap();
/// assert_eq!(decode::<String>(&fury, bytes).unwrap(), "hi");
/// ```
pub trait DeserializeOwned: for<'de> Deserialize<'de> {}

impl<T: for<'de> Deserialize<'de>> DeserializeOwned for T {}

/// Writes `v` with a reference/null flag and its type info: the form of a root value, a
/// polymorphic element, or the lone side of a map pair whose other side is null.
#[inline]
pub fn write_with_flag<T: Serialize + ?Sized>(v: &T, ctx: &mut WriteContext) -> Result<()> {
    // With tracking on, pyfory tracks every root value, whatever its type.
    if v.write_ref_flag(ctx, true)? {
        return Ok(());
    }
    v.write_type_info(ctx)?;
    v.write_data(ctx)
}

/// Writes a whole stream with `v` as its root: the header byte, then `v` as
/// `write_with_flag` writes it. The default of [`Serialize::write_stream`].
#[inline]
pub fn write_stream<T: Serialize + ?Sized>(v: &T, ctx: &mut WriteContext) -> Result<()> {
    ctx.writer.u8(crate::types::header::XLANG);
    write_with_flag(v, ctx)
}

/// Reads a value written by `write_with_flag` (a flag, type info and payload).
#[inline]
pub fn read_with_flag<'de, T: Deserialize<'de>>(ctx: &mut ReadContext<'de, '_>) -> Result<T> {
    let item = Typed::<T>::new();
    match refs::read_flag(ctx, &item)? {
        refs::Flagged::Done(v) => Ok(v),
        refs::Flagged::Read(slot) => {
            let id = read_type_info::<T>(ctx)?;
            let v = T::read_typed(ctx, id)?;
            Ok(refs::finish(ctx, &item, v, slot))
        }
    }
}

/// Reads a complete type info for a value of type `T`: the kind byte and, for user types,
/// the user id or names. Returns the kind.
#[inline]
pub fn read_type_info<'de, T: Deserialize<'de>>(ctx: &mut ReadContext<'de, '_>) -> Result<TypeId> {
    let id = ctx.type_id()?;
    T::read_type_info_rest(ctx, id)?;
    Ok(id)
}

/// `T`'s null, or the error saying `T` cannot be null.
#[inline]
pub(crate) fn null_of<'de, T: Deserialize<'de>>(ctx: &ReadContext<'de, '_>) -> Result<T> {
    T::null().ok_or_else(|| {
        ctx.error(ErrorKind::UnexpectedNull {
            expected: std::any::type_name::<T>().to_string(),
        })
    })
}

// ---- generic wrappers: Option, Box, references, slices, Vec ----

impl<T: WireType> WireType for Option<T> {
    #[inline]
    fn reach(reach: &mut crate::registry::Reach<'_>) -> crate::error::Result<()> {
        T::reach(reach)
    }

    const TYPE_ID: TypeId = T::TYPE_ID;
    const NULLABLE: bool = true;
    const POLYMORPHIC: bool = T::POLYMORPHIC;
    const REF_TYPE: bool = T::REF_TYPE;
    #[inline]
    fn needs_type_info(registry: &Registry) -> bool {
        T::needs_type_info(registry)
    }
    fn field_type(registry: &Registry, compatible: bool) -> FieldType {
        let mut t = T::field_type(registry, compatible);
        t.nullable = true;
        t
    }
}

impl<T: Serialize> Serialize for Option<T> {
    #[inline]
    fn visit_buffers<'v>(&'v self, out: &mut Vec<&'v [u8]>) {
        if let Some(v) = self {
            v.visit_buffers(out);
        }
    }
    #[inline]
    fn is_ref_type(&self) -> bool {
        self.as_ref().is_none_or(|v| v.is_ref_type())
    }
    #[inline]
    fn is_ref_among_mixed(&self) -> bool {
        self.as_ref().is_none_or(|v| v.is_ref_among_mixed())
    }

    #[inline]
    fn write_ref_flag(&self, ctx: &mut WriteContext, track: bool) -> Result<bool> {
        match self {
            Some(v) if T::NULLABLE && v.is_null() => Err(some_of_null::<T>()),
            Some(v) => v.write_ref_flag(ctx, track),
            None => refs::write_plain_flag(true, track, ctx),
        }
    }

    #[inline]
    fn write_static_type_info(ctx: &mut WriteContext) -> Result<()> {
        T::write_static_type_info(ctx)
    }

    #[inline]
    fn write_type_info(&self, ctx: &mut WriteContext) -> Result<()> {
        match self {
            Some(v) => v.write_type_info(ctx),
            None => {
                ctx.writer.u8(TypeId::None as u8);
                Ok(())
            }
        }
    }

    #[inline]
    fn write_data(&self, ctx: &mut WriteContext) -> Result<()> {
        match self {
            Some(v) if T::NULLABLE && v.is_null() => Err(some_of_null::<T>()),
            Some(v) => v.write_data(ctx),
            None => Ok(()),
        }
    }

    #[inline(always)]
    fn write_declared(&self, ctx: &mut WriteContext) -> Result<()> {
        match self {
            Some(v) if T::NULLABLE && v.is_null() => Err(some_of_null::<T>()),
            Some(v) => v.write_declared(ctx),
            None => Ok(()),
        }
    }

    #[inline]
    fn is_null(&self) -> bool {
        self.is_none()
    }

    #[inline]
    fn same_type(&self, other: &Self) -> bool {
        match (self, other) {
            (Some(a), Some(b)) => a.same_type(b),
            _ => true,
        }
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Option<T> {
    const DYNAMIC_REFS: bool = T::DYNAMIC_REFS;

    fn from_ref(ctx: &ReadContext<'de, '_>, id: u32, at: usize) -> Result<Self> {
        T::from_ref(ctx, id, at).map(Some)
    }

    fn begin_ref(ctx: &mut ReadContext<'de, '_>, slot: usize) {
        T::begin_ref(ctx, slot)
    }

    fn keep_ref(self, ctx: &mut ReadContext<'de, '_>, slot: usize) -> Self {
        match self {
            Some(v) => Some(v.keep_ref(ctx, slot)),
            None => {
                ctx.set_ref(slot, crate::context::RefSlot::Plain);
                None
            }
        }
    }

    #[inline]
    fn read_type_info_rest(ctx: &mut ReadContext<'de, '_>, id: TypeId) -> Result<()> {
        T::read_type_info_rest(ctx, id)
    }

    #[inline]
    fn read_data(ctx: &mut ReadContext<'de, '_>) -> Result<Self> {
        T::read_data(ctx).map(Some)
    }

    // The flag in front of an optional field is read by the field reader.
    const DIRECT: bool = T::DIRECT;

    #[inline(always)]
    fn read_direct(r: &mut crate::buffer::Reader<'de>, ctx: &ReadContext<'de, '_>) -> Option<Self> {
        T::read_direct(r, ctx).map(Some)
    }

    #[inline]
    fn read_typed(ctx: &mut ReadContext<'de, '_>, id: TypeId) -> Result<Self> {
        T::read_typed(ctx, id).map(Some)
    }

    #[inline]
    fn read_list_declared(ctx: &mut ReadContext<'de, '_>, element: TypeId) -> Result<Self> {
        T::read_list_declared(ctx, element).map(Some)
    }

    #[inline]
    fn null() -> Option<Self> {
        Some(None)
    }

    #[inline]
    fn missing() -> Option<Self> {
        Some(None)
    }
}

/// The error for `Some(null)` of a nullable `T` (`Some(None)` of an `Option<Option<_>>`): the
/// format has one null per value, so it would read back as `None`.
#[cold]
fn some_of_null<T>() -> crate::Error {
    crate::Error::new(ErrorKind::Invalid {
        what: format!(
            "Some(None) of {}: the format has one null per value, so it would read back as              None (model the inner state with an enum or a second field)",
            std::any::type_name::<Option<T>>()
        ),
    })
}

/// `Box<T>` and `&T` are written exactly as `T`.
macro_rules! delegate_serialize {
    ($outer:ty, [$($bound:tt)*], { $($wextra:tt)* }, { $($extra:tt)* }) => {
        impl<T: WireType $($bound)*> WireType for $outer {
            #[inline]
            fn reach(reach: &mut crate::registry::Reach<'_>) -> crate::error::Result<()> {
                T::reach(reach)
            }

            const TYPE_ID: TypeId = T::TYPE_ID;
            const NULLABLE: bool = T::NULLABLE;

            $($wextra)*
        }

        impl<T: Serialize $($bound)*> Serialize for $outer {
            #[inline]
            fn write_type_info(&self, ctx: &mut WriteContext) -> Result<()> {
                (**self).write_type_info(ctx)
            }

            #[inline]
            fn write_data(&self, ctx: &mut WriteContext) -> Result<()> {
                (**self).write_data(ctx)
            }

            #[inline]
            fn write_declared(&self, ctx: &mut WriteContext) -> Result<()> {
                (**self).write_declared(ctx)
            }

            #[inline]
            fn is_null(&self) -> bool {
                (**self).is_null()
            }

            #[inline]
            fn visit_buffers<'v>(&'v self, out: &mut Vec<&'v [u8]>) {
                (**self).visit_buffers(out)
            }

            $($extra)*
        }
    };
}

delegate_serialize!(&T, [+ ?Sized], {}, {});
delegate_serialize!(
    Box<T>,
    [],
    {
        const POLYMORPHIC: bool = T::POLYMORPHIC;
        const REF_TYPE: bool = T::REF_TYPE;

        #[inline]
        fn needs_type_info(registry: &Registry) -> bool {
            T::needs_type_info(registry)
        }

        fn field_type(registry: &Registry, compatible: bool) -> FieldType {
            T::field_type(registry, compatible)
        }
    },
    {
        #[inline]
        fn is_ref_type(&self) -> bool {
            (**self).is_ref_type()
        }

        #[inline]
        fn is_ref_among_mixed(&self) -> bool {
            (**self).is_ref_among_mixed()
        }

        #[inline]
        fn write_ref_flag(&self, ctx: &mut WriteContext, track: bool) -> Result<bool> {
            (**self).write_ref_flag(ctx, track)
        }

        #[inline]
        fn write_static_type_info(ctx: &mut WriteContext) -> Result<()> {
            T::write_static_type_info(ctx)
        }
    }
);

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Box<T> {
    const DYNAMIC_REFS: bool = T::DYNAMIC_REFS;

    fn from_ref(ctx: &ReadContext<'de, '_>, id: u32, at: usize) -> Result<Self> {
        T::from_ref(ctx, id, at).map(Box::new)
    }

    fn begin_ref(ctx: &mut ReadContext<'de, '_>, slot: usize) {
        T::begin_ref(ctx, slot)
    }

    fn keep_ref(self, ctx: &mut ReadContext<'de, '_>, slot: usize) -> Self {
        Box::new((*self).keep_ref(ctx, slot))
    }

    #[inline]
    fn read_type_info_rest(ctx: &mut ReadContext<'de, '_>, id: TypeId) -> Result<()> {
        T::read_type_info_rest(ctx, id)
    }

    #[inline]
    fn read_data(ctx: &mut ReadContext<'de, '_>) -> Result<Self> {
        ctx.charge(std::mem::size_of::<T>())?;
        T::read_data(ctx).map(Box::new)
    }

    #[inline]
    fn read_typed(ctx: &mut ReadContext<'de, '_>, id: TypeId) -> Result<Self> {
        ctx.charge(std::mem::size_of::<T>())?;
        T::read_typed(ctx, id).map(Box::new)
    }

    #[inline]
    fn null() -> Option<Self> {
        T::null().map(Box::new)
    }

    #[inline]
    fn missing() -> Option<Self> {
        T::missing().map(Box::new)
    }

    #[inline]
    fn stand_in() -> Option<Self> {
        T::stand_in().map(Box::new)
    }
}

impl<T: WireType> WireType for [T] {
    #[inline]
    fn reach(reach: &mut crate::registry::Reach<'_>) -> crate::error::Result<()> {
        T::reach(reach)
    }

    const TYPE_ID: TypeId = T::VEC_TYPE_ID;
}

impl<T: Serialize> Serialize for [T] {
    #[inline]
    fn visit_buffers<'v>(&'v self, out: &mut Vec<&'v [u8]>) {
        T::visit_slice(self, out)
    }
    #[inline]
    fn write_data(&self, ctx: &mut WriteContext) -> Result<()> {
        T::write_vec(self, false, ctx)
    }

    #[inline]
    fn write_declared(&self, ctx: &mut WriteContext) -> Result<()> {
        T::write_vec(self, true, ctx)
    }
}

impl<T: WireType> WireType for Vec<T> {
    #[inline]
    fn reach(reach: &mut crate::registry::Reach<'_>) -> crate::error::Result<()> {
        T::reach(reach)
    }

    const TYPE_ID: TypeId = T::VEC_TYPE_ID;
    const REF_TYPE: bool = refs::container_is_ref_type(T::VEC_TYPE_ID);
    fn field_type(registry: &Registry, compatible: bool) -> FieldType {
        if T::VEC_TYPE_ID == TypeId::List {
            collection_field_type::<T>(TypeId::List, registry, compatible)
        } else {
            FieldType::leaf(T::VEC_TYPE_ID)
        }
    }
}

impl<T: Serialize> Serialize for Vec<T> {
    #[inline]
    fn visit_buffers<'v>(&'v self, out: &mut Vec<&'v [u8]>) {
        T::visit_slice(self, out)
    }
    #[inline]
    fn write_data(&self, ctx: &mut WriteContext) -> Result<()> {
        T::write_vec(self, false, ctx)
    }

    #[inline]
    fn write_declared(&self, ctx: &mut WriteContext) -> Result<()> {
        T::write_vec(self, true, ctx)
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Vec<T> {
    #[inline]
    fn missing() -> Option<Self> {
        Some(Vec::new())
    }

    #[inline]
    fn read_data(ctx: &mut ReadContext<'de, '_>) -> Result<Self> {
        T::read_vec(ctx, T::VEC_TYPE_ID)
    }

    #[inline]
    fn read_typed(ctx: &mut ReadContext<'de, '_>, id: TypeId) -> Result<Self> {
        T::read_vec(ctx, id)
    }

    fn read_list_declared(ctx: &mut ReadContext<'de, '_>, element: TypeId) -> Result<Self> {
        collection::read_elements_with(ctx, &items::Declared::<T>::new(element))
    }
}
