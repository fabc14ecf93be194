//! The registration of a user type known only dynamically (an enum or a union held in a
//! [`Value`](super::Value) or a [`ValueRef`](super::ValueRef)): kept as the stream gave it,
//! so that the value writes back with the same type info.

use super::codec::DynValue;
use super::Value;
use crate::context::{ReadContext, WriteContext};
use crate::error::{Error, ErrorKind, Result};
use crate::meta::typedef::{TypeDef, TypeDefRegistration};
use crate::meta::MetaStringEncoder;
use crate::registry::{EncodedTypeName, RemoteTypeDef, UserKind};
use crate::serializer::declared::{read_type_info_rest, TypeInfoRest};
use crate::types::TypeId;
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
#[derive(Debug, Clone)]
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

    /// Whether two values write the same type info (so may share one in a list chunk).
    pub(crate) fn same_type(&self, other: &EnumValue) -> bool {
        self.ty.same(&other.ty)
    }
}

/// Two enum values are equal when their variants and their type names are.
impl PartialEq for EnumValue {
    fn eq(&self, other: &Self) -> bool {
        self.variant == other.variant && self.ty.display() == other.ty.display()
    }
}

/// A value of a tagged union: its case id, the case's value ([`Value::Null`] for an empty
/// case), and the union's registration where it is known.
///
/// As for [`EnumValue`], a union read from an `any` position keeps its type info (TYPED_UNION
/// and the id, or NAMED_UNION and the name) and writes it back; one read from a field its
/// TypeDef declares UNION has none and writes in declared positions only.
///
/// ```
/// use fury::{Fury, UnionValue, Value};
///
/// // pyfory 1.7.7's bytes for a union registered with id 300, case 3 holding "hi"
/// let bytes = [0x01, 0xff, 0x22, 0xac, 0x02, 0x03, 0xff, 0x15, 0x08, 0x68, 0x69];
/// let fury = Fury::builder().compatible(false).build();
/// let v: Value = fury.deserialize(&bytes).unwrap();
/// let hand = UnionValue::named("#300", 3, Value::String("hi".into()));
/// assert_eq!(v, Value::Union(Box::new(hand)));
/// assert_eq!(fury.serialize(&v).unwrap(), bytes);
/// ```
///
/// The same struct, with `V` = [`ValueRef`](super::ValueRef), is the union of a borrowed
/// dynamic value ([`UnionRef`](super::UnionRef)).
#[derive(Debug, Clone)]
pub struct UnionValue<V = Value> {
    /// The case id.
    pub case: u32,
    /// The case's value; the null ([`Value::Null`]) for an empty case.
    pub value: V,
    ty: DynType,
}

impl<V> UnionValue<V> {
    /// A case without its union's registration: for fields whose TypeDef declares a union.
    pub fn new(case: u32, value: V) -> Self {
        UnionValue {
            case,
            value,
            ty: DynType::Untyped,
        }
    }

    /// A case of the union registered as `type_name` (`#<id>`, `namespace.name` or `name`,
    /// as for [`EnumValue::named`]).
    pub fn named(type_name: &str, case: u32, value: V) -> Self {
        UnionValue {
            case,
            value,
            ty: DynType::parse(type_name),
        }
    }

    /// The union's registration as `#<id>`, `namespace.name` or `name`, if known.
    pub fn type_name(&self) -> Option<String> {
        self.ty.display()
    }

    /// The same case and registration with the value mapped by `f` (from a borrowed union to
    /// an owned one, say).
    ///
    /// ```
    /// use fury::{UnionValue, Value};
    ///
    /// let u = UnionValue::named("#300", 2, 7i64);
    /// let v = u.map(|n| Value::VarInt64(*n));
    /// assert_eq!((v.case, v.type_name()), (2, Some("#300".to_string())));
    /// assert_eq!(v.value, Value::VarInt64(7));
    /// ```
    pub fn map<W>(&self, f: impl FnOnce(&V) -> W) -> UnionValue<W> {
        UnionValue {
            case: self.case,
            value: f(&self.value),
            ty: self.ty.clone(),
        }
    }

    pub(crate) fn same_type<W>(&self, other: &UnionValue<W>) -> bool {
        self.ty.same(&other.ty)
    }
}

/// Two union values are equal when their case ids, values and type names are.
impl<V: PartialEq> PartialEq for UnionValue<V> {
    fn eq(&self, other: &Self) -> bool {
        self.case == other.case
            && self.value == other.value
            && self.ty.display() == other.ty.display()
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
    fn parse(type_name: &str) -> DynType {
        if let Some(id) = type_name.strip_prefix('#').and_then(|d| d.parse().ok()) {
            return DynType::Id(id);
        }
        let (ns, name) = type_name.rsplit_once('.').unwrap_or(("", type_name));
        DynType::Name(Arc::new((ns.to_string(), name.to_string())))
    }

    /// Whether two registrations write the same type info.
    fn same(&self, other: &DynType) -> bool {
        match (self, other) {
            (DynType::Def(a), DynType::Def(b)) => {
                a.def.header == b.def.header && a.def.encoded == b.def.encoded
            }
            (DynType::Def(_), _) | (_, DynType::Def(_)) => false,
            (a, b) => a.display() == b.display(),
        }
    }

    fn display(&self) -> Option<String> {
        Some(match self {
            DynType::Untyped => return None,
            DynType::Id(id) => format!("#{id}"),
            DynType::Name(n) => display_name(&n.0, &n.1),
            DynType::Def(d) => registration_name(&d.def.registration),
        })
    }

    fn registration(&self) -> Option<TypeDefRegistration> {
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

/// Reads the rest of an enum's or a union's type info (after the kind byte) and keeps it for
/// the values that follow it (one, or every element of a list that shares it).
pub(super) fn read_user_type_info(ctx: &mut ReadContext<'_, '_>, id: TypeId) -> Result<()> {
    let at = ctx.reader.position();
    let ty = match read_type_info_rest(ctx, id)? {
        TypeInfoRest::Id(id) => DynType::Id(id),
        TypeInfoRest::TypeDef(def) if !def.def.is_struct() => DynType::Def(def),
        TypeInfoRest::TypeDef(_) | TypeInfoRest::Nothing => {
            return Err(Error::at(
                ErrorKind::Invalid {
                    what: format!("a {} type info names a struct's TypeDef", id.name()),
                },
                at,
            ))
        }
        TypeInfoRest::Names(ns, name) => {
            let ns = ns.decode(&MetaStringEncoder::namespace())?;
            let name = name.decode(&MetaStringEncoder::type_name())?;
            ctx.charge(ns.len() + name.len() + 64)?;
            DynType::Name(Arc::new((ns, name)))
        }
    };
    ctx.set_dyn_type(ty);
    Ok(())
}

/// The type info of an enum value in an `any` position.
pub(super) fn write_enum_type_info(e: &EnumValue, ctx: &mut WriteContext) -> Result<()> {
    let what = || format!("enum variant {}", e.variant);
    write_user_type_info(&e.ty, UserKind::Enum, what, ctx)
}

/// The type info of a union value in an `any` position.
pub(super) fn write_union_type_info<V>(u: &UnionValue<V>, ctx: &mut WriteContext) -> Result<()> {
    let what = || format!("union case {}", u.case);
    write_user_type_info(&u.ty, UserKind::Union, what, ctx)
}

fn write_user_type_info(
    ty: &DynType,
    kind: UserKind,
    what: impl Fn() -> String,
    ctx: &mut WriteContext,
) -> Result<()> {
    let unsupported = |why: &str| {
        Error::new(ErrorKind::Unsupported {
            what: format!("writing {} {why}", what()),
        })
    };
    let Some(reg) = ty.registration() else {
        return Err(unsupported(
            "without its type where type info is needed (build it with a registration: \
             EnumValue::named / UnionValue::named)",
        ));
    };
    let name = match reg {
        TypeDefRegistration::Id(id) => {
            ctx.writer.u8(kind.id_kind() as u8);
            ctx.writer.var_u32(id);
            return Ok(());
        }
        TypeDefRegistration::Name {
            namespace,
            type_name,
        } => (namespace, type_name),
    };
    if !ctx.compatible() {
        ctx.writer.u8(kind.named_kind() as u8);
        let n = EncodedTypeName::new(&name.0, &name.1)?;
        ctx.write_meta_string(&n.namespace);
        ctx.write_meta_string(&n.type_name);
        return Ok(());
    }
    // Compatible mode shares a TypeDef: the one read, else the registered type's, else (an
    // enum) one made from the name, as an enum's TypeDef holds only its name.
    let registry = ctx.registry();
    let by_name = TypeDefRegistration::Name {
        namespace: name.0.clone(),
        type_name: name.1.clone(),
    };
    let registered = registry
        .find(kind, &by_name)
        .map(|entry| {
            entry
                .local_typedef(registry, ctx.compress_int())
                .map(|l| (entry, l))
        })
        .transpose()?;
    if let Some((entry, local)) = registered {
        let same = match ty {
            DynType::Def(d) => d.def.encoded == local.bytes,
            _ => true,
        };
        if same {
            ctx.writer.u8(kind.named_kind() as u8);
            let (marker, first) = ctx.shared_marker(entry.index());
            ctx.writer.var_u32(marker);
            if first {
                ctx.writer.bytes(&local.bytes);
            }
            return Ok(());
        }
    }
    let made;
    let (header, bytes): (u64, &[u8]) = match ty {
        DynType::Def(d) => (d.def.header, &d.def.encoded),
        _ if kind == UserKind::Enum => {
            made = TypeDef::encode_named_enum(&name.0, &name.1)?;
            let header = made
                .get(..8)
                .and_then(|h| <[u8; 8]>::try_from(h).ok())
                .map(u64::from_le_bytes)
                .ok_or_else(|| unsupported("with a TypeDef shorter than its header"))?;
            (header, &made)
        }
        _ => {
            return Err(unsupported(
                "registered by name in compatible mode without its TypeDef (pyfory 1.7.7 \
                 writes no such stream, spec 10)",
            ))
        }
    };
    ctx.writer.u8(kind.named_kind() as u8);
    let (marker, first) = ctx.shared_marker_dynamic(header);
    ctx.writer.var_u32(marker);
    if first {
        ctx.writer.bytes(bytes);
    }
    Ok(())
}

/// The enum value whose variant id is next in the input, with the type info read last.
pub(super) fn read_enum(ctx: &mut ReadContext<'_, '_>) -> Result<EnumValue> {
    let variant = ctx.reader.var_u32()?;
    Ok(EnumValue::with_type(variant, ctx.dyn_type()))
}

/// The union value whose case id is next in the input: declared UNION (`id`) has no type
/// info; TYPED_UNION and NAMED_UNION have the one read last.
pub(super) fn read_union<'de, V: DynValue<'de>>(
    ctx: &mut ReadContext<'de, '_>,
    id: TypeId,
) -> Result<UnionValue<V>> {
    let case = ctx.reader.var_u32()?;
    ctx.charge(std::mem::size_of::<UnionValue<V>>())?;
    let ty = if id == TypeId::Union {
        DynType::Untyped
    } else {
        ctx.dyn_type()
    };
    let value = if ctx.reader.take_if(crate::types::RefFlag::Null.byte()) {
        V::NULL
    } else {
        crate::serializer::union::read_union_case::<V>(ctx)?
    };
    Ok(UnionValue { case, value, ty })
}
