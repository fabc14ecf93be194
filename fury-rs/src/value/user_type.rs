//! The user types a dynamic value knows only as a stream named them: an enum value
//! ([`EnumValue`]) and the registration that enums and unions keep ([`DynType`]), so that
//! the value writes back with the same type info.

use crate::meta::typedef::TypeDefRegistration;
use crate::registry::RemoteTypeDef;
use std::sync::Arc;

/// A value of an enum: its variant id, and the enum's registration where it is known.
///
/// Read from an `any` position (a root, an element of a `list<any>`, an `any` field), an
/// enum value carries its type info, and the value keeps it: it writes back as the same
/// ENUM + id or NAMED_ENUM + name (or, in compatible mode, the same TypeDef). Read from a
/// field whose TypeDef declares an enum, only the variant id is on the wire, and
/// [`type_name`](Self::type_name) is `None`; such a value writes in declared positions
/// only.
///
/// ```
/// use fury::{EnumValue, Fury, FuryObject, Value};
///
/// #[derive(FuryObject, Debug, PartialEq)]
/// enum Color {
///     Red,
///     Green,
/// }
///
/// let mut fury = Fury::default();
/// fury.register_by_name::<Color>("example", "Color").unwrap();
/// let bytes = fury.serialize(&Color::Green).unwrap();
///
/// // A process without the `Color` type reads it and writes it back unchanged.
/// let reader = Fury::default();
/// let v: Value = reader.deserialize(&bytes).unwrap();
/// assert_eq!(v, Value::Enum(EnumValue::named("example.Color", 1)));
/// assert_eq!(reader.serialize(&v).unwrap(), bytes);
/// ```
#[derive(Clone)]
pub struct EnumValue {
    /// The variant's id: its position from 0, or its `#[fury(id = ..)]`.
    pub variant: u32,
    ty: DynType,
}

impl EnumValue {
    /// A variant without its enum's registration: for fields whose TypeDef declares the
    /// enum, where no type info is written.
    pub fn new(variant: u32) -> Self {
        EnumValue {
            variant,
            ty: DynType::Untyped,
        }
    }

    /// A variant of the enum registered as `type_name`: `#<id>` for an id registration,
    /// `namespace.name` (split at the last dot) or `name` for a name registration.
    pub fn named(type_name: &str, variant: u32) -> Self {
        EnumValue {
            variant,
            ty: DynType::parse(type_name),
        }
    }

    /// The enum's registration as `#<id>`, `namespace.name` or `name`, if known.
    pub fn type_name(&self) -> Option<String> {
        self.ty.display()
    }

    pub(crate) fn with_type(variant: u32, ty: DynType) -> Self {
        EnumValue { variant, ty }
    }

    /// The registration the value writes its type info with.
    pub(crate) fn dyn_type(&self) -> &DynType {
        &self.ty
    }

    /// Whether two values write the same type info (so may share one in a list chunk).
    pub(crate) fn same_type(&self, other: &EnumValue) -> bool {
        self.ty.same(&other.ty)
    }
}

/// The variant and the registration's name, not how the stream gave it.
impl std::fmt::Debug for EnumValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EnumValue")
            .field("variant", &self.variant)
            .field("type_name", &self.type_name())
            .finish()
    }
}

/// Two enum values are equal when their variants and their type names are.
impl PartialEq for EnumValue {
    fn eq(&self, other: &Self) -> bool {
        self.variant == other.variant && self.ty.display() == other.ty.display()
    }
}

/// A user type's registration as a stream named it.
#[derive(Debug, Clone, Default)]
pub(crate) enum DynType {
    /// Not given (a declared field).
    #[default]
    Untyped,
    /// By user type id.
    Id(u32),
    /// By namespace and name (same-schema mode, or built by hand).
    Name(Arc<(String, String)>),
    /// By the TypeDef a compatible stream shared for it.
    Def(Arc<RemoteTypeDef>),
}

impl DynType {
    pub(crate) fn parse(type_name: &str) -> DynType {
        if let Some(id) = type_name.strip_prefix('#').and_then(|d| d.parse().ok()) {
            return DynType::Id(id);
        }
        let (ns, name) = type_name.rsplit_once('.').unwrap_or(("", type_name));
        DynType::Name(Arc::new((ns.to_string(), name.to_string())))
    }

    /// Whether two registrations write the same type info.
    pub(crate) fn same(&self, other: &DynType) -> bool {
        match (self, other) {
            (DynType::Def(a), DynType::Def(b)) => {
                a.def.header == b.def.header && a.def.encoded == b.def.encoded
            }
            (DynType::Def(_), _) | (_, DynType::Def(_)) => false,
            (a, b) => a.display() == b.display(),
        }
    }

    pub(crate) fn display(&self) -> Option<String> {
        Some(match self {
            DynType::Untyped => return None,
            DynType::Id(id) => format!("#{id}"),
            DynType::Name(n) => display_name(&n.0, &n.1),
            DynType::Def(d) => registration_name(&d.def.registration),
        })
    }

    pub(crate) fn registration(&self) -> Option<TypeDefRegistration> {
        Some(match self {
            DynType::Untyped => return None,
            DynType::Id(id) => TypeDefRegistration::Id(*id),
            DynType::Name(n) => TypeDefRegistration::Name {
                namespace: n.0.clone(),
                type_name: n.1.clone(),
            },
            DynType::Def(d) => d.def.registration.clone(),
        })
    }
}

fn display_name(namespace: &str, type_name: &str) -> String {
    if namespace.is_empty() {
        type_name.to_string()
    } else {
        format!("{namespace}.{type_name}")
    }
}

/// `#<id>`, `namespace.name` or `name`: how dynamic values name a registration.
pub(crate) fn registration_name(r: &TypeDefRegistration) -> String {
    match r {
        TypeDefRegistration::Id(id) => format!("#{id}"),
        TypeDefRegistration::Name {
            namespace,
            type_name,
        } => display_name(namespace, type_name),
    }
}
