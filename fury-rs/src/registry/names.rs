//! The namespace and type name of a named registration, encoded once at registration (the
//! serializer writes and checks them per stream, with meta-string deduplication).

use crate::error::Result;
use crate::meta::{EncodedMetaString, MetaStringEncoder};

/// Namespace and type name of a named type, ready to be written as meta strings.
#[derive(Debug, Clone)]
pub(crate) struct EncodedTypeName {
    pub(crate) namespace: EncodedMetaString,
    pub(crate) type_name: EncodedMetaString,
}

impl EncodedTypeName {
    pub(crate) fn new(namespace: &str, type_name: &str) -> Result<Self> {
        Ok(EncodedTypeName {
            namespace: EncodedMetaString::new(&MetaStringEncoder::namespace().encode(namespace)?),
            type_name: EncodedMetaString::new(&MetaStringEncoder::type_name().encode(type_name)?),
        })
    }
}
