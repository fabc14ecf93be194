//! The type info of the enums and unions a dynamic value holds: read into the registration
//! the stream gave ([`DynType`]), and written back from it.

use super::form::ReadForm;
use crate::context::{ReadContext, WriteContext};
use crate::error::{Error, ErrorKind, Result};
use crate::meta::typedef::{TypeDef, TypeDefRegistration};
use crate::meta::MetaStringEncoder;
use crate::registry::{EncodedTypeName, UserKind};
use crate::serializer::typedef_declared::{read_type_info_rest, TypeInfoRest};
use crate::types::{RefFlag, TypeId};
use crate::value::{DynType, DynamicValue, EnumValue, UnionValue};
use std::sync::Arc;

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
    write_user_type_info(e.dyn_type(), UserKind::Enum, what, ctx)
}

/// The type info of a union value in an `any` position.
pub(super) fn write_union_type_info<V>(u: &UnionValue<V>, ctx: &mut WriteContext) -> Result<()> {
    let what = || format!("union case {}", u.case);
    write_user_type_info(u.dyn_type(), UserKind::Union, what, ctx)
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
pub(super) fn read_union<'de, F: ReadForm<'de>>(
    ctx: &mut ReadContext<'de, '_>,
    id: TypeId,
) -> Result<UnionValue<DynamicValue<F>>> {
    let case = ctx.reader.var_u32()?;
    ctx.charge(std::mem::size_of::<UnionValue<DynamicValue<F>>>())?;
    let ty = if id == TypeId::Union {
        DynType::Untyped
    } else {
        ctx.dyn_type()
    };
    let value = if ctx.reader.take_if(RefFlag::Null.byte()) {
        DynamicValue::Null
    } else {
        crate::serializer::union::read_union_case::<DynamicValue<F>>(ctx)?
    };
    Ok(UnionValue::with_type(case, value, ty))
}
