//! The namespace and type name of a named registration: encoded once at registration,
//! written and checked per stream with meta-string deduplication.

use crate::context::{ReadContext, WriteContext};
use crate::error::{Error, ErrorKind, Result};
use crate::meta::{EncodedMetaString, MetaStringEncoder};

/// Namespace and type name of a named type, ready to be written as meta strings.
#[derive(Debug, Clone)]
pub(crate) struct EncodedTypeName {
    namespace: EncodedMetaString,
    type_name: EncodedMetaString,
}

impl EncodedTypeName {
    pub(crate) fn new(namespace: &str, type_name: &str) -> Result<Self> {
        Ok(EncodedTypeName {
            namespace: EncodedMetaString::new(&MetaStringEncoder::namespace().encode(namespace)?),
            type_name: EncodedMetaString::new(&MetaStringEncoder::type_name().encode(type_name)?),
        })
    }
}

fn names(entry: &super::TypeEntry) -> Result<&EncodedTypeName> {
    entry.names.as_ref().ok_or_else(|| {
        Error::new(ErrorKind::Invalid {
            what: format!("{} is not registered by name", entry.rust_name),
        })
    })
}

/// Writes the namespace and type name of a named type (with per-stream deduplication).
pub(crate) fn write_type_name(entry: &super::TypeEntry, ctx: &mut WriteContext) -> Result<()> {
    let n = names(entry)?;
    ctx.write_meta_string(&n.namespace);
    ctx.write_meta_string(&n.type_name);
    Ok(())
}

/// Reads the namespace and type name of a named type and checks them against `entry`.
pub(crate) fn read_type_name<'de>(
    entry: &super::TypeEntry,
    ctx: &mut ReadContext<'de, '_>,
) -> Result<()> {
    let n = names(entry)?;
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
