//! Support for derived structs and enums: the [`FuryObject`] trait, user type info, struct
//! fields and the same-schema hash. `#[derive(FuryObject)]` generates calls into this module.

use super::{null_of, Deserialize, Serialize};
use crate::context::{ReadContext, WriteContext};
use crate::error::{Error, ErrorKind, Result};
use crate::resolver::{Registration, UserKind};
use crate::types::{RefFlag, TypeId};

/// A user type (struct or enum) that can be registered on a `Fury` instance.
///
/// Implemented by `#[derive(FuryObject)]`.
pub trait FuryObject: Serialize + Deserialize + 'static {
    /// Struct or enum.
    const KIND: UserKind;

    /// The registration named by the type's `#[fury(..)]` attributes, if any.
    fn registration() -> Option<Registration>;
}

/// Writes the type info of a user type: the kind byte, then its user id or names.
pub fn write_user_type_info<T: FuryObject>(ctx: &mut WriteContext) -> Result<()> {
    if T::KIND == UserKind::Struct && ctx.compatible() {
        return Err(compatible_unsupported::<T>());
    }
    let entry = ctx.registry().entry::<T>()?;
    match &entry.registration {
        Registration::Id(id) => {
            ctx.writer.u8(T::KIND.id_kind() as u8);
            ctx.writer.var_u32(*id);
            Ok(())
        }
        Registration::Name { .. } => {
            ctx.writer.u8(T::KIND.named_kind() as u8);
            crate::resolver::write_type_name(entry, ctx)
        }
    }
}

/// Reads the rest of a user type's type info (after its kind byte `id`) and checks that it
/// names `T` as registered.
pub fn read_user_type_info<T: FuryObject>(ctx: &mut ReadContext, id: TypeId) -> Result<()> {
    let at = ctx.reader.position().saturating_sub(1);
    if T::KIND == UserKind::Struct && ctx.compatible() {
        return Err(compatible_unsupported::<T>());
    }
    let entry = ctx
        .registry()
        .entry::<T>()
        .map_err(|e| Error::at(e.kind().clone(), at))?;
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
            crate::resolver::read_type_name(entry, ctx)
        }
        _ => Err(Error::at(
            ErrorKind::TypeMismatch {
                expected: format!("{} ({})", entry.rust_name, entry.describe()),
                found: id.name().to_string(),
            },
            at,
        )),
    }
}

/// The kind a struct `T` is written with under `registry` (by id or by name) and mode.
pub fn struct_kind<T: 'static>(registry: &crate::resolver::Registry, compatible: bool) -> TypeId {
    match (registry.is_named::<T>(), compatible) {
        (false, false) => TypeId::Struct,
        (false, true) => TypeId::CompatibleStruct,
        (true, false) => TypeId::NamedStruct,
        (true, true) => TypeId::NamedCompatibleStruct,
    }
}

/// Checks that the kind byte `id` (whose type info was read already) is one `T` is written
/// with.
#[inline]
pub fn check_user_kind<T: FuryObject>(ctx: &ReadContext, id: TypeId) -> Result<()> {
    if id == T::KIND.id_kind() || id == T::KIND.named_kind() {
        Ok(())
    } else {
        Err(ctx.mismatch(std::any::type_name::<T>(), id))
    }
}

fn compatible_unsupported<T>() -> Error {
    Error::new(ErrorKind::Unsupported {
        what: format!(
            "compatible mode for struct {} (TypeDef metadata is not implemented yet; \
             build the Fury with .compatible(false))",
            std::any::type_name::<T>()
        ),
    })
}

/// Writes one struct field: a null flag if the field is nullable, the type info if its type
/// needs it in a declared position (named structs, dynamic values), then the payload.
#[inline]
pub fn write_field<F: Serialize>(v: &F, ctx: &mut WriteContext) -> Result<()> {
    if F::FIELD_NULLABLE {
        if v.is_null() {
            ctx.ref_flag(RefFlag::Null);
            return Ok(());
        }
        ctx.ref_flag(RefFlag::NotNull);
    }
    if F::needs_type_info(ctx.registry()) {
        v.write_type_info(ctx)?;
    }
    v.write_declared(ctx)
}

/// Reads one struct field written by [`write_field`].
#[inline]
pub fn read_field<F: Deserialize>(ctx: &mut ReadContext) -> Result<F> {
    if F::FIELD_NULLABLE {
        match ctx.ref_flag()? {
            RefFlag::Null => return null_of::<F>(ctx),
            RefFlag::Ref => return Err(ctx.unsupported_ref()),
            RefFlag::NotNull | RefFlag::RefValue => {}
        }
    }
    if F::needs_type_info(ctx.registry()) {
        let id = super::read_type_info::<F>(ctx)?;
        F::read_typed(ctx, id)
    } else {
        F::read_data(ctx)
    }
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
    let t = F::field_type(&crate::resolver::Registry::default(), false);
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
pub fn read_flagged_field<F: Deserialize>(ctx: &mut ReadContext, field: &str) -> Result<F> {
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
        RefFlag::Ref => Err(ctx.unsupported_ref()),
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
#[inline]
pub fn check_schema_hash<T>(ctx: &mut ReadContext, expected: i32) -> Result<()> {
    let at = ctx.reader.position();
    let found = ctx.reader.i32()?;
    if found != expected {
        return Err(Error::at(
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
        ));
    }
    Ok(())
}

/// The error for an enum variant id that the enum does not have.
#[cold]
pub fn bad_enum_variant<T>(ctx: &ReadContext, at: usize, found: u32) -> Error {
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

/// The error for writing a struct in compatible mode (until TypeDefs exist).
pub fn check_same_schema<T>(compatible: bool) -> Result<()> {
    if compatible {
        Err(compatible_unsupported::<T>())
    } else {
        Ok(())
    }
}
