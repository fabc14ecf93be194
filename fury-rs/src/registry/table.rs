//! The registry of user types (structs and enums) of one `Fury` instance.

use super::names::EncodedTypeName;
use crate::error::{Error, ErrorKind, Result};
use crate::meta::typedef::{FieldInfo, TypeDef, TypeDefRegistration};
use crate::types::TypeId;
use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::{Arc, OnceLock};

/// What kind of user type a registration is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum UserKind {
    /// A struct (`#[derive(FuryObject)]` on a struct with named fields).
    Struct,
    /// A unit-only enum.
    Enum,
    /// A tagged union (an enum whose variants are unit or hold one value).
    Union,
    /// A type with its own serializer (`#[fury(ext)]` and a [`crate::Ext`] impl).
    Ext,
}

impl UserKind {
    /// The wire kind when registered by numeric id.
    pub const fn id_kind(self) -> TypeId {
        match self {
            UserKind::Struct => TypeId::Struct,
            UserKind::Enum => TypeId::Enum,
            UserKind::Union => TypeId::TypedUnion,
            UserKind::Ext => TypeId::Ext,
        }
    }

    /// The wire kind when registered by namespace and name.
    pub const fn named_kind(self) -> TypeId {
        match self {
            UserKind::Struct => TypeId::NamedStruct,
            UserKind::Enum => TypeId::NamedEnum,
            UserKind::Union => TypeId::NamedUnion,
            UserKind::Ext => TypeId::NamedExt,
        }
    }
}

/// How a user type is identified on the wire.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Registration {
    /// By a numeric user type id (written as a varuint32 after the kind byte).
    Id(u32),
    /// By namespace and type name (written as two meta strings after the kind byte).
    Name {
        /// Namespace, possibly empty.
        namespace: String,
        /// Type name.
        type_name: String,
    },
}

impl Registration {
    /// Whether a TypeDef's registration names this one.
    pub(crate) fn is(&self, def: &TypeDefRegistration) -> bool {
        match (self, def) {
            (Registration::Id(a), TypeDefRegistration::Id(b)) => a == b,
            (
                Registration::Name {
                    namespace,
                    type_name,
                },
                TypeDefRegistration::Name {
                    namespace: ns,
                    type_name: tn,
                },
            ) => namespace == ns && type_name == tn,
            _ => false,
        }
    }
}

/// The registry key of `T`: the `TypeId` of its `'static` form.
#[inline]
pub fn type_key<T: UserType + ?Sized>() -> std::any::TypeId {
    std::any::TypeId::of::<T::Static>()
}

/// What the registry needs of a user type: its kind, its registration and its TypeDef
/// fields. `#[derive(FuryObject)]` implements it; [`FuryObject`](crate::FuryObject) is
/// this plus the serialization traits.
#[doc(hidden)]
pub trait UserType {
    /// The type with every lifetime `'static`: what registrations are keyed by, so that a
    /// struct borrowing from its input (`Foo<'a>`) is one registered type for every `'a`.
    type Static: ?Sized + 'static;

    /// Struct or enum.
    const KIND: UserKind;

    /// The registration named by the type's `#[fury(..)]` attributes, if any.
    fn registration() -> Option<Registration>;

    /// The type's registry lookup hint (a `static` per type).
    fn type_slot() -> &'static TypeSlot;

    /// The fields a TypeDef of this type lists, in wire order, for `compress_int` (empty for
    /// enums).
    fn typedef_fields(registry: &Registry, compress_int: bool) -> Vec<FieldInfo> {
        let _ = (registry, compress_int);
        Vec::new()
    }

    /// Reads a value of this type into a `Box<dyn AnyObject>` once its type info was read:
    /// how a `dyn AnyObject` field finds the concrete type a peer named. `None` for types
    /// that borrow from their input (they cannot be boxed as `'static`).
    fn any_reader() -> Option<AnyReaderSlot> {
        None
    }

    /// `(field, alias)` pairs: other names a peer's TypeDef may give a field
    /// (`#[fury(alias = "..")]`), matched when no field has the peer's name.
    fn field_aliases() -> &'static [(&'static str, &'static str)] {
        &[]
    }

    /// Walks the types the fields (or variants) of this type reach (see [`Reach`]).
    fn reach_fields(reach: &mut Reach<'_>) -> Result<()> {
        let _ = reach;
        Ok(())
    }

    /// Registers what comes with this type's registration `own`: the case structs of an
    /// enum's variants with several fields (see [`case_struct_registration`]).
    fn register_parts(registry: &mut Registry, own: &Registration) -> Result<()> {
        let _ = (registry, own);
        Ok(())
    }
}

/// The registration of the case struct that carries the fields of an enum variant with
/// several fields, from the enum's own registration `own` and the variant's name: by name,
/// the enum's namespace and name joined by a dot as namespace and the variant's name as type
/// name (the names `foryc` gives a type nested in another); by id, the id `foryc` would
/// derive from the qualified name `"{id}.{variant}"` (MurmurHash3 x86 32-bit, seed 0; see
/// `spec/10-unions.md`).
///
/// ```
/// use fury::registry::{case_struct_registration, Registration};
/// let by_id = case_struct_registration(&Registration::Id(310), "Received");
/// assert_eq!(by_id, Registration::Id(3_946_252_467));
/// let by_name = Registration::Name { namespace: "inventory".into(), type_name: "Event".into() };
/// assert_eq!(
///     case_struct_registration(&by_name, "Moved"),
///     Registration::Name { namespace: "inventory.Event".into(), type_name: "Moved".into() }
/// );
/// ```
pub fn case_struct_registration(own: &Registration, variant: &str) -> Registration {
    match own {
        Registration::Id(id) => {
            Registration::Id(fury_types::ids::name_type_id(&format!("{id}.{variant}")))
        }
        Registration::Name {
            namespace,
            type_name,
        } => Registration::Name {
            namespace: if namespace.is_empty() {
                type_name.clone()
            } else {
                format!("{namespace}.{type_name}")
            },
            type_name: variant.to_string(),
        },
    }
}

/// How a registered type is read as a `Box<dyn AnyObject>` once its type info was read (see
/// [`UserType::any_reader`]). The reader's signature names the read context, which sits
/// above the registry, so the registry keeps it as an opaque value and the `dyn AnyObject`
/// reader takes its type back out.
#[doc(hidden)]
#[derive(Clone)]
pub struct AnyReaderSlot(Arc<dyn std::any::Any + Send + Sync>);

impl AnyReaderSlot {
    /// Keeps `reader`.
    pub fn new<F: std::any::Any + Send + Sync>(reader: F) -> Self {
        AnyReaderSlot(Arc::new(reader))
    }

    /// The reader, if it is an `F`.
    #[inline]
    pub(crate) fn get<F: std::any::Any>(&self) -> Option<&F> {
        self.0.downcast_ref()
    }
}

impl std::fmt::Debug for AnyReaderSlot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("AnyReaderSlot")
    }
}

/// Where a user type was last found in a registry: a hint that makes the common lookup an
/// index and one compare instead of a hash lookup. `#[derive(FuryObject)]` gives every type
/// one (in a `static`); it is only a hint, checked on every use, so several instances with
/// different registrations stay correct (they only miss more often).
#[derive(Debug)]
pub struct TypeSlot(std::sync::atomic::AtomicU32);

impl TypeSlot {
    /// A slot with no hint yet.
    pub const fn new() -> Self {
        TypeSlot(std::sync::atomic::AtomicU32::new(0))
    }
}

impl Default for TypeSlot {
    fn default() -> Self {
        Self::new()
    }
}

/// One registered user type.
#[derive(Debug, Clone)]
pub struct TypeEntry {
    /// The Rust type.
    key: std::any::TypeId,
    /// Position in the registry.
    index: u32,
    /// Struct or enum.
    pub kind: UserKind,
    /// Its wire identity.
    pub registration: Registration,
    /// The Rust type's name, for error messages.
    pub rust_name: std::borrow::Cow<'static, str>,
    /// Wire bytes of the namespace and type name meta strings (first occurrence form),
    /// prepared at registration for named types.
    pub(crate) names: Option<EncodedTypeName>,
    /// The whole type info of an id registration as written outside compatible mode (kind
    /// byte, then the id as varuint32), in the low bytes of a little-endian word, with its
    /// length. `None` for named types.
    pub(crate) id_info: Option<(u64, u8)>,
    /// Builds the TypeDef fields (in wire order) for `compress_int`.
    pub(crate) typedef_fields: fn(&Registry, bool) -> Vec<FieldInfo>,
    /// The TypeDef fields of a traced type (no Rust type behind it), per `compress_int`.
    pub(crate) traced_fields: Option<Arc<[Vec<FieldInfo>; 2]>>,
    /// The local TypeDef per `compress_int`, built on first use.
    pub(crate) typedefs: [OnceLock<Arc<LocalTypeDef>>; 2],
    /// The same-schema hash per `compress_int`, for generic types (whose instantiations
    /// share the derive's `static` caches); built on first use.
    pub(crate) schema_hashes: [OnceLock<i32>; 2],
    /// Reads a value of this type as a `dyn AnyObject` (see [`UserType::any_reader`]).
    pub(crate) any_reader: Option<AnyReaderSlot>,
    /// Other names of fields in peers' TypeDefs (see [`UserType::field_aliases`]).
    pub(crate) aliases: &'static [(&'static str, &'static str)],
}

/// Human-readable registration, e.g. `id 100` or `demo.Person`.
fn describe(registration: &Registration) -> String {
    match registration {
        Registration::Id(id) => format!("id {id}"),
        Registration::Name {
            namespace,
            type_name,
        } if namespace.is_empty() => type_name.clone(),
        Registration::Name {
            namespace,
            type_name,
        } => format!("{namespace}.{type_name}"),
    }
}

/// The TypeDef of a local type, as written in compatible mode.
#[derive(Debug)]
pub struct LocalTypeDef {
    /// Complete encoding, header included.
    pub bytes: Vec<u8>,
    /// The 8-byte header (identity).
    pub header: u64,
    /// Its fields, in wire order.
    pub fields: Vec<FieldInfo>,
    /// For a struct, the first bytes of a compatible stream whose root it is (header byte,
    /// NOT_NULL flag, kind byte, meta-share marker 0 and this TypeDef); empty for other kinds.
    pub stream_head: Vec<u8>,
}

impl TypeEntry {
    /// Human-readable registration, e.g. `id 100` or `demo.Person`.
    pub fn describe(&self) -> String {
        describe(&self.registration)
    }
}

impl TypeEntry {
    /// The encoded names of a type registered by name, or the error saying it is registered
    /// by id.
    pub(crate) fn encoded_names(&self) -> Result<&EncodedTypeName> {
        self.names.as_ref().ok_or_else(|| {
            Error::new(ErrorKind::Invalid {
                what: format!("{} is not registered by name", self.rust_name),
            })
        })
    }

    /// The registry key of the Rust type (see [`type_key`]).
    #[inline]
    pub(crate) fn key(&self) -> std::any::TypeId {
        self.key
    }

    /// Position of this entry in its registry (see [`Registry::at`]).
    #[inline]
    pub fn index(&self) -> u32 {
        self.index
    }

    /// The local TypeDef for `compress_int` (built on first use).
    #[inline]
    pub fn local_typedef(
        &self,
        registry: &Registry,
        compress_int: bool,
    ) -> Result<&Arc<LocalTypeDef>> {
        match self.typedefs[compress_int as usize].get() {
            Some(td) => Ok(td),
            None => self.build_local_typedef(registry, compress_int),
        }
    }

    #[cold]
    fn build_local_typedef(
        &self,
        registry: &Registry,
        compress_int: bool,
    ) -> Result<&Arc<LocalTypeDef>> {
        let cell = &self.typedefs[compress_int as usize];
        let registration = match &self.registration {
            Registration::Id(id) => TypeDefRegistration::Id(*id),
            Registration::Name {
                namespace,
                type_name,
            } => TypeDefRegistration::Name {
                namespace: namespace.clone(),
                type_name: type_name.clone(),
            },
        };
        let (bytes, fields) = match (self.kind, &registration) {
            (UserKind::Struct, _) => {
                let fields = match &self.traced_fields {
                    Some(f) => f[compress_int as usize].clone(),
                    None => (self.typedef_fields)(registry, compress_int),
                };
                (
                    TypeDef::encode_struct(&registration, true, &fields)?,
                    fields,
                )
            }
            (
                UserKind::Enum,
                TypeDefRegistration::Name {
                    namespace,
                    type_name,
                },
            ) => (
                TypeDef::encode_named_enum(namespace, type_name)?,
                Vec::new(),
            ),
            (UserKind::Enum, TypeDefRegistration::Id(_)) => {
                return Err(Error::new(ErrorKind::Invalid {
                    what: format!(
                        "{}: an enum registered by id has no TypeDef",
                        self.rust_name
                    ),
                }))
            }
            // pyfory 1.7.7 cannot write a name-registered union in compatible mode, and writes
            // a name-registered extension type there as a struct, so there are no peer bytes
            // to follow for their TypeDefs yet.
            (UserKind::Union | UserKind::Ext, _) => {
                return Err(Error::new(ErrorKind::Unsupported {
                    what: format!(
                        "{}: a union or extension type registered by name in compatible mode \
                         (register it by id)",
                        self.rust_name
                    ),
                }))
            }
        };
        let header = bytes
            .first_chunk::<8>()
            .map(|h| u64::from_le_bytes(*h))
            .unwrap_or(0);
        let stream_head = match self.kind {
            UserKind::Struct => compatible_stream_head(
                matches!(self.registration, Registration::Name { .. }),
                &bytes,
            ),
            _ => Vec::new(),
        };
        let td = Arc::new(LocalTypeDef {
            bytes,
            header,
            fields,
            stream_head,
        });
        Ok(cell.get_or_init(|| td))
    }
}

/// The first bytes of a compatible stream whose root is a struct with TypeDef `typedef`,
/// when no TypeDef was shared before in it: what `serializer::object::write_stream_prefix`
/// writes otherwise in parts (header byte, NOT_NULL flag, kind byte, meta-share marker 0,
/// the TypeDef).
fn compatible_stream_head(named: bool, typedef: &[u8]) -> Vec<u8> {
    let kind = if named {
        TypeId::NamedCompatibleStruct
    } else {
        TypeId::CompatibleStruct
    };
    let mut head = Vec::with_capacity(typedef.len() + 4);
    head.extend_from_slice(&[
        crate::types::header::XLANG,
        crate::types::RefFlag::NotNull.byte(),
        kind as u8,
        0,
    ]);
    head.extend_from_slice(typedef);
    head
}

/// Hashes a `std::any::TypeId` (already a good hash) by taking its bits as they come.
#[derive(Default)]
pub(crate) struct TypeIdHasher(u64);

impl Hasher for TypeIdHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ b as u64;
        }
    }
    fn write_u64(&mut self, v: u64) {
        self.0 ^= v;
    }
    fn write_u128(&mut self, v: u128) {
        self.0 ^= (v as u64) ^ ((v >> 64) as u64);
    }
}

type ByType = HashMap<std::any::TypeId, usize, BuildHasherDefault<TypeIdHasher>>;

/// The user types a `Fury` instance knows: [`Fury::registry`](crate::Fury::registry).
/// Types are registered through the `Fury` (`register`, `register_by_id`,
/// `register_by_name`); the registry answers which type has which identity.
///
/// ```
/// use fury::registry::Registration;
/// use fury::{Fury, FuryObject};
///
/// #[derive(FuryObject)]
/// struct Point {
///     x: i32,
///     y: i32,
/// }
///
/// let mut fury = Fury::default();
/// fury.register_by_id::<Point>(100)?;
/// let entry = fury.registry().entry::<Point>()?;
/// assert_eq!(entry.registration, Registration::Id(100));
/// assert_eq!(entry.describe(), "id 100");
/// assert!(fury.registry().at(entry.index()).is_some());
/// # Ok::<(), fury::Error>(())
/// ```
#[derive(Debug, Clone, Default)]
pub struct Registry {
    ref_tracking: bool,
    /// Whether the owning instance writes compatible mode (some registrations have no form
    /// there, and are refused when made).
    compatible: bool,
    /// Whether any type is registered by name (if not, no lookup is needed to tell).
    has_named: bool,
    entries: Vec<TypeEntry>,
    by_type: ByType,
    /// The entry (its position) that values known only by their wire identity are read as.
    by_id: HashMap<(UserKind, u32), usize>,
    by_name: HashMap<(String, String), usize>,
    /// The serde types registered, by their traced layouts: `crate::serde`'s own state,
    /// which the registry keeps without knowing its type (the serde module builds on the
    /// registry, not the other way round).
    #[cfg(feature = "serde")]
    serde: Option<Arc<dyn std::any::Any + Send + Sync>>,
}

impl std::fmt::Debug for TypeIdHasher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("TypeIdHasher")
    }
}

impl Registry {
    /// An empty registry for an instance with reference tracking `ref_tracking`.
    pub fn new(ref_tracking: bool) -> Self {
        Registry {
            ref_tracking,
            ..Default::default()
        }
    }

    /// Whether the owning instance tracks references (`#[fury(ref)]` fields are then marked
    /// in TypeDefs).
    pub fn ref_tracking(&self) -> bool {
        self.ref_tracking
    }

    /// Registers `T` (of `kind`) under `registration`. Registering the same type again with
    /// the same identity is allowed; a different identity, or an identity taken by another
    /// type, is an error.
    pub fn add<T: UserType>(&mut self, kind: UserKind, registration: Registration) -> Result<()> {
        let key = type_key::<T>();
        let rust_name = std::any::type_name::<T>();
        self.check_compatible_form(kind, &registration, rust_name)?;
        let taken = self.taken(kind, &registration);
        // Another type under this identity: allowed only for a mirror of it (an owned type
        // and its borrowed form, which write the same fields).
        let mut mirror = false;
        if let Some(other) = taken {
            let other = self.entries.get(other);
            if other.is_none_or(|o| o.key != key) {
                match other {
                    Some(o) if o.kind == kind && self.same_fields(o, T::typedef_fields) => {
                        mirror = true;
                    }
                    o => {
                        return Err(Error::new(ErrorKind::Invalid {
                            what: format!(
                                "cannot register {rust_name} as {}: {} is registered as it{}",
                                describe(&registration),
                                o.map_or("another type", |o| &o.rust_name),
                                if o.is_some_and(|o| o.kind == kind) {
                                    " (with other fields)"
                                } else {
                                    ""
                                }
                            ),
                        }));
                    }
                }
            }
        }
        if let Some(old) = self.by_type.get(&key).and_then(|&i| self.entries.get(i)) {
            if old.registration != registration {
                return Err(Error::new(ErrorKind::Invalid {
                    what: format!("{rust_name} is already registered as {}", old.describe()),
                }));
            }
            return Ok(());
        }
        // A mirror keeps the identity's lookup (for values known only by their wire
        // identity) on the type registered first, unless only the mirror can be read boxed.
        let lookup = !mirror || (T::any_reader().is_some() && !self.any_readable(taken));
        let at = self.push_entry(
            key,
            kind,
            registration,
            rust_name.into(),
            lookup,
            T::typedef_fields,
        )?;
        self.by_type.insert(key, at);
        if let Some(e) = self.entries.get_mut(at) {
            e.any_reader = T::any_reader();
            e.aliases = T::field_aliases();
        }
        let own = self.entries.last().map(|e| e.registration.clone());
        match own {
            Some(own) => T::register_parts(self, &own),
            None => Ok(()),
        }
    }

    /// The entry registered under `kind` and `registration`, if any.
    fn taken(&self, kind: UserKind, registration: &Registration) -> Option<usize> {
        match registration {
            Registration::Id(id) => self.by_id.get(&(kind, *id)),
            Registration::Name {
                namespace,
                type_name,
            } => self.by_name.get(&(namespace.clone(), type_name.clone())),
        }
        .copied()
    }

    /// Refuses what has no compatible-mode form: a union or extension type registered by
    /// name (pyfory 1.7.7 writes these as structs of their attributes, `_case_id` and
    /// `_value` for a union, not in their own format: no peer form to follow).
    fn check_compatible_form(
        &self,
        kind: UserKind,
        registration: &Registration,
        rust_name: &str,
    ) -> Result<()> {
        if self.compatible
            && matches!(kind, UserKind::Union | UserKind::Ext)
            && matches!(registration, Registration::Name { .. })
        {
            return Err(Error::new(ErrorKind::Unsupported {
                what: format!(
                    "cannot register {rust_name} by name in compatible mode: a union or \
                     extension type registered by name has no compatible-mode form that the \
                     peers share (pyfory 1.7.7 writes it as a struct of its attributes); \
                     register it by id"
                ),
            }));
        }
        Ok(())
    }

    /// Appends an entry with its wire identity prepared, and makes it the one its identity is
    /// looked up as when `lookup`; returns its position.
    fn push_entry(
        &mut self,
        key: std::any::TypeId,
        kind: UserKind,
        registration: Registration,
        rust_name: std::borrow::Cow<'static, str>,
        lookup: bool,
        typedef_fields: fn(&Registry, bool) -> Vec<FieldInfo>,
    ) -> Result<usize> {
        let at = self.entries.len();
        let index = u32::try_from(at).map_err(|_| {
            Error::new(ErrorKind::Invalid {
                what: "too many registered types".to_string(),
            })
        })?;
        let names = match &registration {
            Registration::Id(id) => {
                if lookup {
                    self.by_id.insert((kind, *id), at);
                }
                None
            }
            Registration::Name {
                namespace,
                type_name,
            } => {
                self.has_named = true;
                if lookup {
                    self.by_name
                        .insert((namespace.clone(), type_name.clone()), at);
                }
                Some(EncodedTypeName::new(namespace, type_name)?)
            }
        };
        let id_info = match registration {
            Registration::Id(id) => {
                let kind_byte = kind.id_kind() as u8;
                let mut varint = [0u8; crate::buffer::MAX_VARINT64_LEN];
                let n = crate::buffer::encode_var_u64(u64::from(id), &mut varint);
                let mut word = [0u8; 8];
                word[0] = kind_byte;
                word[1..1 + n].copy_from_slice(&varint[..n]);
                Some((u64::from_le_bytes(word), 1 + n as u8))
            }
            Registration::Name { .. } => None,
        };
        self.entries.push(TypeEntry {
            key,
            index,
            kind,
            registration,
            rust_name,
            names,
            id_info,
            typedef_fields,
            traced_fields: None,
            typedefs: [OnceLock::new(), OnceLock::new()],
            schema_hashes: [OnceLock::new(), OnceLock::new()],
            any_reader: None,
            aliases: &[],
        });
        Ok(at)
    }

    /// Registers a type known by its traced layout rather than by a Rust type (the serde
    /// types of [`crate::serde`]): `fields` are its TypeDef fields in wire order, per
    /// `compress_int` (index 1 for on). Returns its position; the same identity registered
    /// again as a traced type of the same kind is that entry.
    #[cfg(feature = "serde")]
    pub(crate) fn add_traced(
        &mut self,
        kind: UserKind,
        registration: Registration,
        rust_name: String,
        fields: [Vec<FieldInfo>; 2],
    ) -> Result<usize> {
        struct Traced;
        let key = std::any::TypeId::of::<Traced>();
        self.check_compatible_form(kind, &registration, &rust_name)?;
        let taken = self.taken(kind, &registration);
        if let Some(at) = taken {
            return match self.entries.get(at) {
                Some(e) if e.key == key && e.kind == kind => Ok(at),
                o => Err(Error::new(ErrorKind::Invalid {
                    what: format!(
                        "cannot register {rust_name} as {}: {} is registered as it",
                        describe(&registration),
                        o.map_or("another type", |o| &o.rust_name),
                    ),
                })),
            };
        }
        let at = self.push_entry(key, kind, registration, rust_name.into(), true, |_, _| {
            Vec::new()
        })?;
        if let Some(e) = self.entries.get_mut(at) {
            e.traced_fields = Some(Arc::new(fields));
        }
        Ok(at)
    }

    /// Whether `a` and a type with TypeDef fields `b` write the same fields in both integer
    /// encodings.
    fn same_fields(&self, a: &TypeEntry, b: fn(&Registry, bool) -> Vec<FieldInfo>) -> bool {
        [true, false]
            .into_iter()
            .all(|c| (a.typedef_fields)(self, c) == b(self, c))
    }

    /// Whether the type registered under a lookup key can be read boxed.
    fn any_readable(&self, at: Option<usize>) -> bool {
        at.and_then(|i| self.entries.get(i))
            .is_some_and(|e| e.any_reader.is_some())
    }

    /// Registers `C`, the case struct of `variant` of an enum registered as `own` (see
    /// [`case_struct_registration`]).
    pub fn add_case_struct<C: UserType>(
        &mut self,
        own: &Registration,
        variant: &str,
    ) -> Result<()> {
        self.add::<C>(UserKind::Struct, case_struct_registration(own, variant))
    }

    /// Whether the owning instance writes compatible mode.
    #[cfg(feature = "serde")]
    #[inline]
    pub(crate) fn is_compatible(&self) -> bool {
        self.compatible
    }

    /// The state `crate::serde` keeps in the registry, if it set one.
    #[cfg(feature = "serde")]
    #[inline]
    pub(crate) fn serde_state(&self) -> Option<&(dyn std::any::Any + Send + Sync)> {
        self.serde.as_deref()
    }

    #[cfg(feature = "serde")]
    pub(crate) fn set_serde_state(&mut self, state: Arc<dyn std::any::Any + Send + Sync>) {
        self.serde = Some(state);
    }

    /// Sets the TypeDef fields of the traced entry at `index` (see [`Self::add_traced`]).
    #[cfg(feature = "serde")]
    pub(crate) fn set_traced_fields(&mut self, index: u32, fields: [Vec<FieldInfo>; 2]) {
        if let Some(e) = self.entries.get_mut(index as usize) {
            e.traced_fields = Some(Arc::new(fields));
        }
    }

    /// Makes the registry refuse what compatible mode cannot write (set by the builder).
    pub(crate) fn set_compatible(&mut self, compatible: bool) {
        self.compatible = compatible;
    }

    /// The registration of `T`, if any.
    #[inline]
    pub fn get<T: UserType>(&self) -> Option<&TypeEntry> {
        let key = type_key::<T>();
        let slot = T::type_slot();
        let hint = slot.0.load(std::sync::atomic::Ordering::Relaxed) as usize;
        match self.entries.get(hint) {
            Some(e) if e.key == key => Some(e),
            _ => self.get_slow(key, slot),
        }
    }

    #[cold]
    #[inline(never)]
    fn get_slow(&self, key: std::any::TypeId, slot: &TypeSlot) -> Option<&TypeEntry> {
        let i = *self.by_type.get(&key)?;
        slot.0.store(i as u32, std::sync::atomic::Ordering::Relaxed);
        self.entries.get(i)
    }

    /// Every registered type, in the order of registration (a type registered with another,
    /// such as an enum's case structs, right after it).
    pub fn iter(&self) -> impl Iterator<Item = &TypeEntry> {
        self.entries.iter()
    }

    /// The entry at position `index` in the registry.
    #[inline]
    pub fn at(&self, index: u32) -> Option<&TypeEntry> {
        self.entries.get(index as usize)
    }

    /// The entry of kind `kind` registered as `registration`, if any (for values known only
    /// by their wire identity, such as a `Value::Struct`).
    pub(crate) fn find(
        &self,
        kind: UserKind,
        registration: &TypeDefRegistration,
    ) -> Option<&TypeEntry> {
        let at = match registration {
            TypeDefRegistration::Id(id) => self.by_id.get(&(kind, *id))?,
            TypeDefRegistration::Name {
                namespace,
                type_name,
            } => self.by_name.get(&(namespace.clone(), type_name.clone()))?,
        };
        let e = self.entries.get(*at)?;
        (e.kind == kind).then_some(e)
    }

    /// The registration of `T`, or the error naming the unregistered type.
    #[inline]
    pub fn entry<T: UserType>(&self) -> Result<&TypeEntry> {
        self.get::<T>().ok_or_else(|| {
            Error::new(ErrorKind::Invalid {
                what: format!(
                    "type {} is not registered (call Fury::register first)",
                    std::any::type_name::<T>()
                ),
            })
        })
    }

    /// True when `T` is registered by name (so its type info must accompany its values).
    #[inline]
    pub fn is_named<T: UserType>(&self) -> bool {
        self.has_named
            && matches!(
                self.get::<T>(),
                Some(TypeEntry {
                    registration: Registration::Name { .. },
                    ..
                })
            )
    }
}

// ---- Registration that follows the types: registering a type also registers the derived
// types its fields reach (through variants, containers and generic arguments) that name their
// own registration, and refuses one that names none and is not registered yet, with the path
// of the field that reaches it.

/// A walk over the types reachable from one registered type. Generated code calls
/// [`Reach::field`] for each field and `WireType::reach` for its type; a user type calls
/// [`Reach::user`].
#[doc(hidden)]
pub struct Reach<'a> {
    registry: &'a mut Registry,
    /// The field names from the root to the current field.
    path: Vec<&'static str>,
    root: &'static str,
    seen: HashSet<std::any::TypeId>,
}

impl<'a> Reach<'a> {
    /// Walks the fields of `T`, already registered in `registry`.
    pub(crate) fn walk<T: UserType>(registry: &'a mut Registry) -> Result<()> {
        let mut reach = Reach {
            registry,
            path: Vec::new(),
            root: short_name(std::any::type_name::<T>()),
            seen: HashSet::new(),
        };
        reach.seen.insert(type_key::<T>());
        T::reach_fields(&mut reach)
    }

    /// Walks what the field `name` reaches with `walk`.
    pub fn field(
        &mut self,
        name: &'static str,
        walk: impl FnOnce(&mut Self) -> Result<()>,
    ) -> Result<()> {
        self.path.push(name);
        let r = walk(self);
        self.path.pop();
        r
    }

    /// A user type reached: registered from its attributes if it is not registered yet (an
    /// error if it has none), then its own fields, once per walk.
    pub fn user<T: UserType>(&mut self) -> Result<()> {
        if !self.seen.insert(type_key::<T>()) {
            return Ok(());
        }
        if self.registry.get::<T>().is_none() {
            let Some(registration) = T::registration() else {
                return Err(self.unregistered::<T>());
            };
            self.registry.add::<T>(T::KIND, registration)?;
        }
        T::reach_fields(self)
    }

    #[cold]
    fn unregistered<T>(&self) -> Error {
        let mut at = self.root.to_string();
        for p in &self.path {
            at.push('.');
            at.push_str(p);
        }
        Error::new(ErrorKind::Invalid {
            what: format!(
                "{at}: {} is not registered and its type names no registration \
                 (#[fury(id = ..)] or #[fury(namespace = .., name = ..)]); register it \
                 with register_by_id or register_by_name first",
                std::any::type_name::<T>()
            ),
        })
    }
}

/// `a::b::Name<c::D>` -> `Name<c::D>`: the type's own name, for field paths.
fn short_name(full: &'static str) -> &'static str {
    let end = full.find('<').unwrap_or(full.len());
    let start = full
        .get(..end)
        .and_then(|head| head.rfind("::"))
        .map_or(0, |i| i + 2);
    full.get(start..).unwrap_or(full)
}
