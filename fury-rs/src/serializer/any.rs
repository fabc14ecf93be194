//! [`AnyObject`]: fields and elements whose Rust type is chosen at run time, among the
//! built-in types and the user types registered on the reading [`Fury`](crate::Fury).
//!
//! On the wire such a position is `any` (UNKNOWN): a TypeDef and the schema fingerprint
//! declare it as type 0, and the value carries its whole type info (kind byte, then the user
//! id, names or shared TypeDef) before its payload, exactly as pyfory writes a field
//! annotated `typing.Any` and as a [`Value`](crate::Value) writes there. Reading, the type
//! info picks the concrete type: a built-in type id its Rust type (see [`AnyObject`]), a
//! user type the registry entry of the `Fury` instance, whose reader was stored when the
//! type was registered.

use super::typedef_declared::{read_type_info_rest, TypeInfoRest};
use super::{Deserialize, Map, Serialize, Set, UInt8Array, WireType};
use crate::context::{AnyTarget, ReadContext, RefSlot, WriteContext};
use crate::error::{Error, ErrorKind, Result};
use crate::float16::{BF16, F16};
use crate::meta::typedef::TypeDefRegistration;
use crate::meta::MetaStringEncoder;
use crate::registry::{AnyReaderSlot, Registry, UserKind, UserType};
use crate::types::{RefFlag, TypeId};
use std::any::Any;
use std::rc::Rc;
use std::sync::Arc;

/// A value of any type fury can write, behind a pointer whose concrete type is decided at
/// run time: `Box<dyn AnyObject>`, `Rc<dyn AnyObject>` and `Arc<dyn AnyObject>` are struct
/// fields, list elements and map values of the xlang type `any`, as pyfory's `typing.Any`
/// fields and the official crate's `Box<dyn Any>` fields.
///
/// Implemented for every `#[derive(FuryObject)]` type that owns its data, and for the
/// built-in types: `bool`, the integers, `f32`, `f64`, [`F16`], [`BF16`], `String`,
/// `Vec<T>`, `HashMap`/`BTreeMap`, `HashSet`/`BTreeSet`, [`List`](crate::List),
/// [`Set`], [`Map`], [`Fixed`](crate::Fixed), [`Tagged`](crate::Tagged),
/// [`Duration`](crate::Duration), [`Timestamp`](crate::Timestamp), [`Date`](crate::Date),
/// [`Decimal`](crate::Decimal), [`UInt8Array`], [`Value`](crate::Value), and `()` (a null).
///
/// # Writing
///
/// The value is written with its own type info and payload, as it would be written at the
/// root of a stream. A user type must be registered on the writing `Fury`.
///
/// # Reading
///
/// The type info decides the Rust type of what comes back:
///
/// | wire type | Rust type |
/// |---|---|
/// | a struct, enum, union or extension type | the type registered under that id or name |
/// | NONE (a null) | `()` (see [`is_null`](trait.AnyObject.html#method.is_null)) |
/// | BOOL, INT8, INT16, UINT8, UINT16 | `bool`, `i8`, `i16`, `u8`, `u16` |
/// | INT32, VARINT32 / INT64, VARINT64, TAGGED_INT64 | `i32` / `i64` |
/// | UINT32, VAR_UINT32 / UINT64, VAR_UINT64, TAGGED_UINT64 | `u32` / `u64` |
/// | FLOAT16, BFLOAT16, FLOAT32, FLOAT64 | [`F16`], [`BF16`], `f32`, `f64` |
/// | STRING, BINARY | `String`, `Vec<u8>` |
/// | DURATION, TIMESTAMP, DATE, DECIMAL | [`Duration`](crate::Duration), [`Timestamp`](crate::Timestamp), [`Date`](crate::Date), [`Decimal`](crate::Decimal) |
/// | LIST | `Vec<Box<dyn AnyObject>>` |
/// | SET | [`Set<Box<dyn AnyObject>>`](Set) |
/// | MAP | [`Map<Box<dyn AnyObject>, Box<dyn AnyObject>>`](Map) (pairs in wire order) |
/// | BOOL_ARRAY .. FLOAT64_ARRAY | `Vec<bool>` .. `Vec<f64>` (`UINT8_ARRAY`: [`UInt8Array`]) |
///
/// The integer encoding is not kept (a fixed INT32 reads as an `i32`, which writes back as a
/// VARINT32); read a [`Value`](crate::Value) where the exact bytes matter. A type info that
/// names a type the reading `Fury` has not registered is an error naming the type id or name.
///
/// With reference tracking on, an `Rc<dyn AnyObject>` (or `Arc`) written twice is written
/// once, then as a back reference, and reads back as one allocation; a `Box` cannot be
/// shared, so a back reference read into a `Box<dyn AnyObject>` is an error.
///
/// For models that move between threads, `Box<dyn AnyObject + Send + Sync>` and
/// `Arc<dyn AnyObject + Send + Sync>` write the same bytes. Reading, a built-in type is boxed
/// as above (a LIST as `Vec<Box<dyn AnyObject + Send + Sync>>`), and a registered type only if
/// its derive found it `Send + Sync`: a type with an `Rc` inside, or a generic type (whose
/// generic impl cannot tell), is an `Unsupported` error there.
///
/// ```
/// use fury::{AnyObject, Fury, FuryObject};
///
/// #[derive(FuryObject, Debug, PartialEq)]
/// #[fury(id = 510)]
/// struct Tick { n: u32 }
///
/// #[derive(FuryObject, Debug)]
/// #[fury(id = 511)]
/// struct Envelope { body: Box<dyn AnyObject + Send + Sync> }
///
/// let mut fury = Fury::default();
/// fury.register::<Tick>()?.register::<Envelope>()?;
/// let bytes = fury.serialize(&Envelope { body: Box::new(Tick { n: 3 }) })?;
/// let e: Envelope = fury.deserialize(&bytes)?;
/// let n = std::thread::spawn(move || e.body.downcast_ref::<Tick>().map(|t| t.n)).join();
/// assert_eq!(n.unwrap(), Some(3));
/// # Ok::<(), fury::Error>(())
/// ```
///
/// ```
/// use fury::{AnyObject, Fury, FuryObject};
///
/// #[derive(FuryObject, Debug, PartialEq)]
/// #[fury(id = 500)]
/// struct Point { x: i32, y: i32 }
///
/// #[derive(FuryObject, Debug)]
/// #[fury(id = 501)]
/// struct Holder { name: String, value: Box<dyn AnyObject> }
///
/// let mut fury = Fury::builder().compatible(false).build();
/// fury.register::<Point>()?.register::<Holder>()?;
/// let h = Holder { name: "n".into(), value: Box::new(Point { x: 1, y: 2 }) };
/// let bytes = fury.serialize(&h)?;
/// let back: Holder = fury.deserialize(&bytes)?;
/// assert_eq!(back.value.downcast_ref::<Point>(), Some(&Point { x: 1, y: 2 }));
///
/// // pyfory 1.7.7's bytes for Holder("n", 5): the int is a VARINT64 (7), 5 as zigzag 0x0a.
/// let py = [0x01, 0xff, 0x1b, 0xf5, 0x03, 0x4b, 0x9e, 0x6b, 0x03, 0x04, 0x6e, 0x07, 0x0a];
/// let back: Holder = fury.deserialize(&py)?;
/// assert_eq!(back.value.downcast_ref::<i64>(), Some(&5));
/// assert_eq!(fury.serialize(&Holder { name: "n".into(), value: Box::new(5i64) })?, py);
/// # Ok::<(), fury::Error>(())
/// ```
pub trait AnyObject: Any {
    /// The value as `&dyn Any`, for `downcast_ref` (also on `dyn AnyObject` directly).
    fn as_any(&self) -> &dyn Any;
    /// The value as `&mut dyn Any`.
    fn as_any_mut(&mut self) -> &mut dyn Any;
    /// The box as `Box<dyn Any>`.
    fn into_any(self: Box<Self>) -> Box<dyn Any>;
    /// The `Rc` as `Rc<dyn Any>`.
    fn into_any_rc(self: Rc<Self>) -> Rc<dyn Any>;
    /// The name of the concrete Rust type (`std::any::type_name`).
    fn type_name(&self) -> &'static str;

    #[doc(hidden)]
    fn dyn_wire_type(&self) -> TypeId;
    #[doc(hidden)]
    fn dyn_same_type(&self, other: &dyn AnyObject) -> bool;
    #[doc(hidden)]
    fn dyn_write_type_info(&self, ctx: &mut WriteContext) -> Result<()>;
    #[doc(hidden)]
    fn dyn_write_data(&self, ctx: &mut WriteContext) -> Result<()>;
    #[doc(hidden)]
    fn dyn_is_null(&self) -> bool;
    #[doc(hidden)]
    fn dyn_is_ref_type(&self) -> bool;
    #[doc(hidden)]
    fn dyn_write_ref_flag(&self, ctx: &mut WriteContext, track: bool) -> Result<bool>;
    #[doc(hidden)]
    fn dyn_visit_buffers<'v>(&'v self, out: &mut Vec<&'v [u8]>);
}

/// True for the wire types whose type info is the kind byte alone.
fn is_builtin(id: TypeId) -> bool {
    id != TypeId::Unknown && user_kind(id).is_none() && id != TypeId::Union
}

/// The user kind a type info's kind byte introduces.
fn user_kind(id: TypeId) -> Option<UserKind> {
    use TypeId::*;
    match id {
        Struct | CompatibleStruct | NamedStruct | NamedCompatibleStruct => Some(UserKind::Struct),
        Enum | NamedEnum => Some(UserKind::Enum),
        Ext | NamedExt => Some(UserKind::Ext),
        TypedUnion | NamedUnion => Some(UserKind::Union),
        _ => Option::None,
    }
}

/// The methods of `AnyObject`, forwarded to the type's `Serialize`.
macro_rules! any_object_methods {
    () => {
        fn as_any(&self) -> &dyn Any {
            self
        }
        fn as_any_mut(&mut self) -> &mut dyn Any {
            self
        }
        fn into_any(self: Box<Self>) -> Box<dyn Any> {
            self
        }
        fn into_any_rc(self: Rc<Self>) -> Rc<dyn Any> {
            self
        }
        fn type_name(&self) -> &'static str {
            std::any::type_name::<Self>()
        }
        fn dyn_wire_type(&self) -> TypeId {
            <Self as WireType>::TYPE_ID
        }
        fn dyn_same_type(&self, other: &dyn AnyObject) -> bool {
            match other.as_any().downcast_ref::<Self>() {
                Some(o) => Serialize::same_type(self, o),
                // Two Rust types with one wire type (a `Vec<String>` and a
                // `Vec<Box<dyn AnyObject>>` are both a LIST) share a type info.
                None => {
                    is_builtin(<Self as WireType>::TYPE_ID)
                        && <Self as WireType>::TYPE_ID == other.dyn_wire_type()
                }
            }
        }
        fn dyn_write_type_info(&self, ctx: &mut WriteContext) -> Result<()> {
            Serialize::write_type_info(self, ctx)
        }
        fn dyn_write_data(&self, ctx: &mut WriteContext) -> Result<()> {
            Serialize::write_data(self, ctx)
        }
        fn dyn_is_null(&self) -> bool {
            Serialize::is_null(self)
        }
        fn dyn_is_ref_type(&self) -> bool {
            Serialize::is_ref_type(self)
        }
        fn dyn_write_ref_flag(&self, ctx: &mut WriteContext, track: bool) -> Result<bool> {
            Serialize::write_ref_flag(self, ctx, track)
        }
        fn dyn_visit_buffers<'v>(&'v self, out: &mut Vec<&'v [u8]>) {
            Serialize::visit_buffers(self, out)
        }
    };
}

impl<T: super::FuryObject + 'static> AnyObject for T {
    any_object_methods!();
}

macro_rules! any_object_builtin {
    ($($t:ty),* $(,)?) => {$(
        impl AnyObject for $t {
            any_object_methods!();
        }
    )*};
}

any_object_builtin!(
    (),
    bool,
    i8,
    i16,
    i32,
    i64,
    u8,
    u16,
    u32,
    u64,
    f32,
    f64,
    F16,
    BF16,
    String,
    crate::Duration,
    crate::Timestamp,
    crate::Date,
    crate::Decimal,
    UInt8Array,
    crate::Value,
    std::time::Duration,
    std::time::SystemTime,
    super::Fixed<i32>,
    super::Fixed<i64>,
    super::Fixed<u32>,
    super::Fixed<u64>,
    super::Tagged<i64>,
    super::Tagged<u64>,
);

macro_rules! any_object_generic {
    ($([$($p:ident),*] $t:ty),* $(,)?) => {$(
        impl<$($p: 'static),*> AnyObject for $t
        where
            $t: Serialize,
        {
            any_object_methods!();
        }
    )*};
}

any_object_generic!(
    [T] Vec<T>,
    [T] super::List<T>,
    [T] Set<T>,
    [K, V] Map<K, V>,
    [K, V, S] std::collections::HashMap<K, V, S>,
    [K, V] std::collections::BTreeMap<K, V>,
    [T, S] std::collections::HashSet<T, S>,
    [T] std::collections::BTreeSet<T>,
);

macro_rules! dyn_methods {
    ($dyn:ty) => {
        impl $dyn {
            /// True when the value is a `T`.
            pub fn is<T: Any>(&self) -> bool {
                self.as_any().is::<T>()
            }

            /// The value as a `T`, if it is one.
            ///
            /// ```
            /// let b: Box<dyn fury::AnyObject> = Box::new("hi".to_string());
            /// assert_eq!(b.downcast_ref::<String>().map(String::as_str), Some("hi"));
            /// assert_eq!(b.downcast_ref::<i64>(), None);
            /// ```
            pub fn downcast_ref<T: Any>(&self) -> Option<&T> {
                self.as_any().downcast_ref::<T>()
            }

            /// The value as a mutable `T`, if it is one.
            pub fn downcast_mut<T: Any>(&mut self) -> Option<&mut T> {
                self.as_any_mut().downcast_mut::<T>()
            }

            /// The box as a `Box<T>`, or itself when the value is not a `T`.
            ///
            /// ```
            /// let b: Box<dyn fury::AnyObject> = Box::new(7i32);
            /// let b = b.downcast::<String>().unwrap_err(); // not a String: the box comes back
            /// assert_eq!(*b.downcast::<i32>().unwrap(), 7);
            /// ```
            pub fn downcast<T: Any>(self: Box<Self>) -> std::result::Result<Box<T>, Box<Self>> {
                if !self.is::<T>() {
                    return Err(self);
                }
                // `is` just held, so the conversion succeeds; its error arm only satisfies the types.
                self.into_any()
                    .downcast::<T>()
                    .map_err(|_| Box::new(()) as Box<Self>)
            }

            /// The `Arc` as an `Arc<T>`, or itself when the value is not a `T`.
            ///
            /// ```
            /// use std::sync::Arc;
            /// let a: Arc<dyn fury::AnyObject> = Arc::new("x".to_string());
            /// assert_eq!(*a.downcast_arc::<String>().unwrap(), "x");
            /// ```
            #[allow(unsafe_code)] // `Arc<dyn Any>` has no safe downcast unless `Send + Sync`
            pub fn downcast_arc<T: Any>(self: Arc<Self>) -> std::result::Result<Arc<T>, Arc<Self>> {
                if !self.is::<T>() {
                    return Err(self);
                }
                let raw = Arc::into_raw(self).cast::<T>();
                // SAFETY: the pointer comes from `Arc::into_raw` of an `Arc` of this trait object whose
                // value is a `T` (checked just above), so its data pointer points at a `T` of `T`'s
                // size and alignment inside an `Arc` allocation, as `Arc::from_raw` requires; the
                // strong count taken by `into_raw` is handed to the new `Arc`.
                Ok(unsafe { Arc::from_raw(raw) })
            }

            /// True for a null: the `()` that a NONE type info (pyfory's `None` in an `Any` field)
            /// reads as.
            pub fn is_null(&self) -> bool {
                self.is::<()>()
            }
        }
    };
}

dyn_methods!(dyn AnyObject);
dyn_methods!(dyn AnyObject + Send + Sync);

impl dyn AnyObject {
    /// The `Rc` as an `Rc<T>`, or itself when the value is not a `T`.
    ///
    /// ```
    /// use std::rc::Rc;
    /// let a: Rc<dyn fury::AnyObject> = Rc::new(7i32);
    /// let b = a.clone();
    /// let a = a.downcast_rc::<i32>().unwrap();
    /// assert_eq!(*a, 7);
    /// assert!(std::ptr::addr_eq(Rc::as_ptr(&a), Rc::as_ptr(&b)));
    /// ```
    pub fn downcast_rc<T: Any>(self: Rc<Self>) -> std::result::Result<Rc<T>, Rc<Self>> {
        if !self.is::<T>() {
            return Err(self);
        }
        self.into_any_rc()
            .downcast::<T>()
            .map_err(|_| Rc::new(()) as Rc<Self>)
    }
}

impl std::fmt::Debug for dyn AnyObject {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("AnyObject").field(&self.type_name()).finish()
    }
}

impl std::fmt::Debug for dyn AnyObject + Send + Sync {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("AnyObject").field(&self.type_name()).finish()
    }
}

/// Reads a value of the registered type `T` into a box, its type info consumed (stored in
/// `T`'s registry entry by `#[derive(FuryObject)]`, see `UserType::any_reader`).
pub type AnyReader =
    for<'de, 'r> fn(&mut ReadContext<'de, 'r>, TypeId) -> Result<Box<dyn AnyObject>>;

/// As [`AnyReader`], into a box that can move between threads.
pub type AnySendReader =
    for<'de, 'r> fn(&mut ReadContext<'de, 'r>, TypeId) -> Result<Box<dyn AnyObject + Send + Sync>>;

/// The readers a registry entry keeps for a type: into `Box<dyn AnyObject>`, and into
/// `Box<dyn AnyObject + Send + Sync>` when the type is `Send + Sync`.
#[derive(Clone, Copy)]
struct AnyReaders {
    local: AnyReader,
    send: Option<AnySendReader>,
}

/// The readers of a registered type `T`, as its registry entry keeps them; `send` is what
/// [`AnyProbe`] found.
pub fn any_reader<T>(send: Option<AnySendReader>) -> Option<AnyReaderSlot>
where
    T: UserType + super::DeserializeOwned + AnyObject,
{
    Some(AnyReaderSlot::new(AnyReaders {
        local: read_any_object::<T>,
        send,
    }))
}

/// The [`AnyReader`] of a registered type `T`.
pub fn read_any_object<T>(ctx: &mut ReadContext<'_, '_>, id: TypeId) -> Result<Box<dyn AnyObject>>
where
    T: UserType + super::DeserializeOwned + AnyObject,
{
    ctx.charge(std::mem::size_of::<T>())?;
    Ok(Box::new(T::read_typed(ctx, id)?))
}

fn read_any_send<T>(
    ctx: &mut ReadContext<'_, '_>,
    id: TypeId,
) -> Result<Box<dyn AnyObject + Send + Sync>>
where
    T: UserType + super::DeserializeOwned + AnyObject + Send + Sync,
{
    ctx.charge(std::mem::size_of::<T>())?;
    Ok(Box::new(T::read_typed(ctx, id)?))
}

/// Finds out, in the code `#[derive(FuryObject)]` generates for a type without type
/// parameters, whether the type is `Send + Sync`, without requiring it: the method call
/// `(&AnyProbe::<T>::new()).send_reader()` resolves to [`AnySendProbe`] (found first) when
/// `T: Send + Sync` holds and to [`AnyLocalProbe`] otherwise. Inside a generic impl the
/// bound cannot be proven, so generic types get no `Send` reader.
pub struct AnyProbe<T>(std::marker::PhantomData<fn() -> T>);

impl<T> AnyProbe<T> {
    /// The probe of `T`.
    pub fn new() -> Self {
        AnyProbe(std::marker::PhantomData)
    }
}

impl<T> Default for AnyProbe<T> {
    fn default() -> Self {
        Self::new()
    }
}

/// See [`AnyProbe`]: the reader into `Box<dyn AnyObject + Send + Sync>`.
pub trait AnySendProbe {
    /// The reader.
    fn send_reader(&self) -> Option<AnySendReader>;
}

impl<T> AnySendProbe for AnyProbe<T>
where
    T: UserType + super::DeserializeOwned + AnyObject + Send + Sync,
{
    fn send_reader(&self) -> Option<AnySendReader> {
        Some(read_any_send::<T>)
    }
}

/// See [`AnyProbe`]: no reader, for types that are not `Send + Sync`.
pub trait AnyLocalProbe {
    /// No reader.
    fn send_reader(&self) -> Option<AnySendReader>;
}

impl<T> AnyLocalProbe for &AnyProbe<T> {
    fn send_reader(&self) -> Option<AnySendReader> {
        None
    }
}

/// The two boxes a `dyn AnyObject` position reads into: what differs between them.
trait AnyBox: Sized + 'static + for<'de> Deserialize<'de> {
    fn wrap<T: AnyObject + Send + Sync>(v: T) -> Self;
    fn list(items: Vec<Self>) -> Self;
    fn set(items: Set<Self>) -> Self;
    fn map(pairs: Map<Self, Self>) -> Self;
    /// The registered type's reader into this box, if it has one.
    fn user_reader(
        readers: &AnyReaders,
    ) -> Option<for<'de, 'r> fn(&mut ReadContext<'de, 'r>, TypeId) -> Result<Self>>;
}

impl AnyBox for Box<dyn AnyObject> {
    fn wrap<T: AnyObject + Send + Sync>(v: T) -> Self {
        Box::new(v)
    }
    fn list(items: Vec<Self>) -> Self {
        Box::new(items)
    }
    fn set(items: Set<Self>) -> Self {
        Box::new(items)
    }
    fn map(pairs: Map<Self, Self>) -> Self {
        Box::new(pairs)
    }
    fn user_reader(readers: &AnyReaders) -> Option<AnyReader> {
        Some(readers.local)
    }
}

impl AnyBox for Box<dyn AnyObject + Send + Sync> {
    fn wrap<T: AnyObject + Send + Sync>(v: T) -> Self {
        Box::new(v)
    }
    fn list(items: Vec<Self>) -> Self {
        Box::new(items)
    }
    fn set(items: Set<Self>) -> Self {
        Box::new(items)
    }
    fn map(pairs: Map<Self, Self>) -> Self {
        Box::new(pairs)
    }
    fn user_reader(readers: &AnyReaders) -> Option<AnySendReader> {
        readers.send
    }
}

/// Reads the rest of a type info whose kind byte `id` was read (at `at`), and for a user
/// kind records which registered type it names.
fn read_any_type_info<'de>(ctx: &mut ReadContext<'de, '_>, id: TypeId, at: usize) -> Result<()> {
    let Some(kind) = user_kind(id) else {
        return Ok(());
    };
    let (registration, def) = match read_type_info_rest(ctx, id)? {
        TypeInfoRest::Id(n) => (TypeDefRegistration::Id(n), None),
        TypeInfoRest::Names(ns, ty) => (
            TypeDefRegistration::Name {
                namespace: ns.decode(&MetaStringEncoder::namespace())?,
                type_name: ty.decode(&MetaStringEncoder::type_name())?,
            },
            None,
        ),
        TypeInfoRest::TypeDef(def) => (def.def.registration.clone(), Some(def)),
        TypeInfoRest::Nothing => (TypeDefRegistration::Id(0), None),
    };
    let registry: &Registry = ctx.registry();
    let Some(entry) = registry.find(kind, &registration) else {
        let named = match &registration {
            TypeDefRegistration::Id(n) => format!("user type id {n}"),
            TypeDefRegistration::Name {
                namespace,
                type_name,
            } if namespace.is_empty() => format!("type name {type_name:?}"),
            TypeDefRegistration::Name {
                namespace,
                type_name,
            } => format!("type name {namespace:?}.{type_name:?}"),
        };
        return Err(Error::at(
            ErrorKind::TypeMismatch {
                expected: "a type registered on this Fury (dyn AnyObject)".to_string(),
                found: format!("{} with {named}, which is not registered", id.name()),
            },
            at,
        ));
    };
    if entry.any_reader.is_none() {
        return Err(Error::at(
            ErrorKind::Unsupported {
                what: format!(
                    "{} borrows from its input, so it cannot be read as a dyn AnyObject",
                    entry.rust_name
                ),
            },
            at,
        ));
    }
    let target = AnyTarget {
        kind: id,
        entry: entry.index(),
        def: def.filter(|_| kind == UserKind::Struct),
    };
    ctx.set_any_target(target);
    Ok(())
}

/// Reads a payload of wire type `id` (its type info read by [`read_any_type_info`]) into a
/// box of the Rust type that type stands for.
fn read_any<'de, B: AnyBox>(ctx: &mut ReadContext<'de, '_>, id: TypeId) -> Result<B> {
    if user_kind(id).is_none() {
        return read_builtin(ctx, id);
    }
    let registry: &Registry = ctx.registry();
    let entry = ctx
        .any_target()
        .filter(|t| t.kind == id)
        .and_then(|t| Some((registry.at(t.entry)?, t)));
    let (entry, target) = entry.ok_or_else(|| {
        ctx.error(ErrorKind::Invalid {
            what: format!(
                "a {} payload of a dyn AnyObject without its type info",
                id.name()
            ),
        })
    })?;
    let readers = entry
        .any_reader
        .as_ref()
        .and_then(|r| r.get::<AnyReaders>().copied());
    let readers = readers.ok_or_else(|| {
        ctx.error(ErrorKind::Unsupported {
            what: format!("{} cannot be read as a dyn AnyObject", entry.rust_name),
        })
    })?;
    let read = B::user_reader(&readers).ok_or_else(|| {
        ctx.error(ErrorKind::Unsupported {
            what: format!(
                "{} in a dyn AnyObject + Send + Sync position: the derive found it is not \
                 Send + Sync (or it has type parameters, whose impls cannot tell); use \
                 Box<dyn AnyObject> there",
                entry.rust_name
            ),
        })
    })?;
    if let Some(def) = &target.def {
        ctx.set_current_typedef(entry.key(), def.clone());
    }
    let v = read(ctx, id)?;
    // The payload may hold other `dyn AnyObject`s: the next payload that shares this type
    // info (a list element) finds it again.
    ctx.set_any_target(target);
    Ok(v)
}

/// A built-in type's payload, as the Rust type of the table on [`AnyObject`].
fn read_builtin<'de, B: AnyBox>(ctx: &mut ReadContext<'de, '_>, id: TypeId) -> Result<B> {
    use TypeId::*;
    fn read<'de, T: Deserialize<'de>>(ctx: &mut ReadContext<'de, '_>, id: TypeId) -> Result<T> {
        ctx.charge(std::mem::size_of::<T>())?;
        T::read_typed(ctx, id)
    }
    fn boxed<'de, T: Deserialize<'de> + AnyObject + Send + Sync, B: AnyBox>(
        ctx: &mut ReadContext<'de, '_>,
        id: TypeId,
    ) -> Result<B> {
        read::<T>(ctx, id).map(B::wrap)
    }
    match id {
        None => boxed::<(), B>(ctx, id),
        Bool => boxed::<bool, B>(ctx, id),
        Int8 => boxed::<i8, B>(ctx, id),
        Int16 => boxed::<i16, B>(ctx, id),
        Int32 | VarInt32 => boxed::<i32, B>(ctx, id),
        Int64 | VarInt64 | TaggedInt64 => boxed::<i64, B>(ctx, id),
        UInt8 => boxed::<u8, B>(ctx, id),
        UInt16 => boxed::<u16, B>(ctx, id),
        UInt32 | VarUInt32 => boxed::<u32, B>(ctx, id),
        UInt64 | VarUInt64 | TaggedUInt64 => boxed::<u64, B>(ctx, id),
        Float16 => boxed::<F16, B>(ctx, id),
        BFloat16 => boxed::<BF16, B>(ctx, id),
        Float32 => boxed::<f32, B>(ctx, id),
        Float64 => boxed::<f64, B>(ctx, id),
        String => boxed::<std::string::String, B>(ctx, id),
        Binary => boxed::<Vec<u8>, B>(ctx, id),
        Duration => boxed::<crate::Duration, B>(ctx, id),
        Timestamp => boxed::<crate::Timestamp, B>(ctx, id),
        Date => boxed::<crate::Date, B>(ctx, id),
        Decimal => boxed::<crate::Decimal, B>(ctx, id),
        List => read::<Vec<B>>(ctx, id).map(B::list),
        Set => read::<super::Set<B>>(ctx, id).map(B::set),
        Map => read::<super::Map<B, B>>(ctx, id).map(B::map),
        BoolArray => boxed::<Vec<bool>, B>(ctx, id),
        Int8Array => boxed::<Vec<i8>, B>(ctx, id),
        Int16Array => boxed::<Vec<i16>, B>(ctx, id),
        Int32Array => boxed::<Vec<i32>, B>(ctx, id),
        Int64Array => boxed::<Vec<i64>, B>(ctx, id),
        UInt8Array => boxed::<super::UInt8Array, B>(ctx, id),
        UInt16Array => boxed::<Vec<u16>, B>(ctx, id),
        UInt32Array => boxed::<Vec<u32>, B>(ctx, id),
        UInt64Array => boxed::<Vec<u64>, B>(ctx, id),
        Float16Array => boxed::<Vec<F16>, B>(ctx, id),
        BFloat16Array => boxed::<Vec<BF16>, B>(ctx, id),
        Float32Array => boxed::<Vec<f32>, B>(ctx, id),
        Float64Array => boxed::<Vec<f64>, B>(ctx, id),
        other => Err(ctx.error(ErrorKind::Unsupported {
            what: format!("a {} value in a dyn AnyObject position", other.name()),
        })),
    }
}

/// The error for a `dyn AnyObject` in a position without type info.
fn needs_type_info(ctx: &ReadContext<'_, '_>) -> Error {
    ctx.error(ErrorKind::Invalid {
        what: "a declared element type where a dyn AnyObject needs its type info".to_string(),
    })
}

/// The traits for `Box`, `Rc` and `Arc` of `dyn AnyObject`: what they share.
macro_rules! dyn_pointer {
    ($ptr:ident, $dyn:ty, $ref_type:expr, { $($ser:tt)* }, { $($de:tt)* }) => {
        impl WireType for $ptr<$dyn> {
            /// The type info comes from the value: the position is `any`.
            const TYPE_ID: TypeId = TypeId::Unknown;
            const NULLABLE: bool = true;
            /// A null is the NONE type, as in pyfory's `Any` fields: no null flag.
            const FIELD_NULLABLE: bool = false;
            const REF_TYPE: bool = $ref_type;
            #[inline]
            fn needs_type_info(_registry: &Registry) -> bool {
                true
            }
        }

        impl Serialize for $ptr<$dyn> {
            fn write_type_info(&self, ctx: &mut WriteContext) -> Result<()> {
                (**self).dyn_write_type_info(ctx)
            }

            /// A run of nulls names no type.
            fn write_static_type_info(ctx: &mut WriteContext) -> Result<()> {
                ctx.writer.u8(TypeId::None as u8);
                Ok(())
            }

            fn write_data(&self, ctx: &mut WriteContext) -> Result<()> {
                (**self).dyn_write_data(ctx)
            }

            /// The value's type info precedes it, so its payload is one of an undeclared
            /// position (a list inside carries its element types).
            fn write_declared(&self, ctx: &mut WriteContext) -> Result<()> {
                (**self).dyn_write_data(ctx)
            }

            fn is_null(&self) -> bool {
                (**self).dyn_is_null()
            }

            fn same_type(&self, other: &Self) -> bool {
                (**self).dyn_same_type(&**other)
            }

            fn visit_buffers<'v>(&'v self, out: &mut Vec<&'v [u8]>) {
                (**self).dyn_visit_buffers(out)
            }

            $($ser)*
        }

        impl<'de> Deserialize<'de> for $ptr<$dyn> {
            fn read_data(ctx: &mut ReadContext<'de, '_>) -> Result<Self> {
                Err(needs_type_info(ctx))
            }

            fn read_type_info_rest(ctx: &mut ReadContext<'de, '_>, id: TypeId) -> Result<()> {
                let at = ctx.reader.position().saturating_sub(1);
                read_any_type_info(ctx, id, at)
            }

            fn read_typed(ctx: &mut ReadContext<'de, '_>, id: TypeId) -> Result<Self> {
                read_any::<Box<$dyn>>(ctx, id).map($ptr::from)
            }

            fn null() -> Option<Self> {
                Some($ptr::new(()))
            }

            /// A field the peer's struct lacks reads as a null.
            fn missing() -> Option<Self> {
                Some($ptr::new(()))
            }

            $($de)*
        }
    };
}

macro_rules! dyn_box {
    ($dyn:ty) => {
        dyn_pointer!(
            Box,
            $dyn,
            false,
            {
                fn is_ref_type(&self) -> bool {
                    (**self).dyn_is_ref_type()
                }

                fn write_ref_flag(&self, ctx: &mut WriteContext, track: bool) -> Result<bool> {
                    (**self).dyn_write_ref_flag(ctx, track)
                }
            },
            {}
        );
    };
}

dyn_box!(dyn AnyObject);
dyn_box!(dyn AnyObject + Send + Sync);

/// The parts of `Rc` and `Arc` of `dyn AnyObject` that reference tracking needs: the same
/// allocation written twice is a back reference, and reads back as one allocation (kept in
/// the reference slot as an `Rc` of the pointer).
macro_rules! dyn_shared {
    ($ptr:ident, $dyn:ty) => {
        dyn_pointer!(
            $ptr,
            $dyn,
            true,
            {
                fn write_ref_flag(&self, ctx: &mut WriteContext, track: bool) -> Result<bool> {
                    if !(track && ctx.ref_tracking()) || self.is_null() {
                        return super::refs::write_plain_flag(self.is_null(), false, ctx);
                    }
                    let addr = $ptr::as_ptr(self) as *const () as usize;
                    match ctx.shared_ref(addr) {
                        Ok(id) => {
                            ctx.ref_flag(RefFlag::Ref);
                            ctx.writer.var_u32(id);
                            Ok(true)
                        }
                        Err(_) => {
                            ctx.ref_flag(RefFlag::RefValue);
                            Ok(false)
                        }
                    }
                }
            },
            {
                fn from_ref(ctx: &ReadContext<'de, '_>, id: u32, at: usize) -> Result<Self> {
                    let found = match ctx.ref_slot(id, at)? {
                        RefSlot::Rc(any) => any.downcast_ref::<Self>().cloned(),
                        _ => None,
                    };
                    found.ok_or_else(|| {
                        Error::at(
                            ErrorKind::TypeMismatch {
                                expected: std::any::type_name::<Self>().to_string(),
                                found: format!(
                                    "a reference (id {id}) to a value read as another type"
                                ),
                            },
                            at,
                        )
                    })
                }

                fn keep_ref(self, ctx: &mut ReadContext<'de, '_>, slot: usize) -> Self {
                    ctx.set_ref(slot, RefSlot::Rc(Rc::new(self.clone())));
                    self
                }
            }
        );
    };
}

dyn_shared!(Rc, dyn AnyObject);
dyn_shared!(Arc, dyn AnyObject);
dyn_shared!(Arc, dyn AnyObject + Send + Sync);
