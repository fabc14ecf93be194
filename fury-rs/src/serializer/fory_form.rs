//! [`ForyForm`]: a value written in the form the official Rust crate `fory` 1.7.7 gives it
//! where that form differs from pyfory's (spec/DISAGREEMENTS.md, section 54). The derive
//! wraps a field in it for `#[fury(form = "fory")]`; reading accepts both forms.

use super::{Deserialize, Serialize, WireType};
use crate::context::{ReadContext, WriteContext};
use crate::error::Result;
use crate::meta::typedef::FieldType;
use crate::registry::Registry;
use crate::types::{elements, RefFlag, TypeId};

/// A value written as the official crate `fory` 1.7.7 writes it, so that the crate reads it
/// in both modes (same TypeDef field type, same-schema fingerprint and payload):
///
/// * `Vec<P>` of a primitive `P` (`bool`, `i8`…`i64`, `u8`…`u64`, `f32`, `f64`): a LIST of
///   `P` (pyfory's form is the dense array, BINARY for `Vec<u8>`);
/// * `Vec<Vec<P>>`: a LIST of LISTs of `P` (pyfory: a LIST of dense arrays);
/// * a tuple of up to six elements: a LIST of nullable UNKNOWN in the TypeDef, no element
///   type in the fingerprint, each element with its own type info (pyfory: a LIST of the
///   one element type with DECL_TYPE, or of UNKNOWN);
/// * `[u8; N]`: BINARY like pyfory, but a LIST of UINT8 in the same-schema fingerprint.
///
/// Reading takes either form. Struct fields get it with `#[fury(form = "fory")]`; the
/// wrapper can also be written out by hand.
///
/// ```
/// let fury = fury::Fury::default();
/// let bytes = fury.serialize(&fury::ForyForm(vec![1u8, 2])).unwrap();
/// // a LIST (0x16) of two elements, one type info (UINT8) for both: no BINARY
/// assert_eq!(bytes, [0x01, 0xff, 0x16, 0x02, 0x08, 0x09, 0x01, 0x02]);
/// let back: fury::ForyForm<Vec<u8>> = fury.deserialize(&bytes).unwrap();
/// assert_eq!(back.0, [1, 2]);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct ForyForm<T>(pub T);

/// [`ForyForm`] of a borrowed value: what a derived writer wraps a field in.
#[doc(hidden)]
#[derive(Debug, Clone, Copy)]
pub struct ForyFormRef<'a, T>(pub &'a T);

/// The types [`ForyForm`] applies to: their official-crate form.
#[doc(hidden)]
pub trait OfficialForm: WireType {
    /// The wire type id of the form.
    const FORM_ID: TypeId;
    /// The form's declared type (TypeDef for `compatible`, fingerprint otherwise).
    fn form_field_type(registry: &Registry, compatible: bool) -> FieldType;
    /// Writes the payload in the official crate's form (`declared`: in a struct field).
    fn write_form(&self, declared: bool, ctx: &mut WriteContext) -> Result<()>;
}

/// Reading an [`OfficialForm`] type, in either form.
#[doc(hidden)]
pub trait ReadForm<'de>: Sized {
    /// Reads the payload the official crate writes without type info before it.
    fn read_form(ctx: &mut ReadContext<'de, '_>) -> Result<Self>;
}

fn list_of(child: FieldType) -> FieldType {
    let mut t = FieldType::leaf(TypeId::List);
    t.children.push(child);
    t
}

macro_rules! primitive_vec {
    ($($p:ty),*) => {$(
        impl OfficialForm for Vec<$p> {
            const FORM_ID: TypeId = TypeId::List;

            fn form_field_type(registry: &Registry, compatible: bool) -> FieldType {
                list_of(<$p>::field_type(registry, compatible))
            }

            fn write_form(&self, declared: bool, ctx: &mut WriteContext) -> Result<()> {
                super::write_elements(self.len(), self.iter(), declared, ctx)
            }
        }

        impl<'de> ReadForm<'de> for Vec<$p> {
            fn read_form(ctx: &mut ReadContext<'de, '_>) -> Result<Self> {
                Self::read_typed(ctx, TypeId::List)
            }
        }

        impl OfficialForm for Vec<Vec<$p>> {
            const FORM_ID: TypeId = TypeId::List;

            fn form_field_type(registry: &Registry, compatible: bool) -> FieldType {
                list_of(<Vec<$p>>::form_field_type(registry, compatible))
            }

            fn write_form(&self, declared: bool, ctx: &mut WriteContext) -> Result<()> {
                let inner: Vec<ForyFormRef<'_, Vec<$p>>> = self.iter().map(ForyFormRef).collect();
                super::write_elements(inner.len(), inner.iter(), declared, ctx)
            }
        }

        impl<'de> ReadForm<'de> for Vec<Vec<$p>> {
            fn read_form(ctx: &mut ReadContext<'de, '_>) -> Result<Self> {
                Self::read_list_declared(ctx, TypeId::List)
            }
        }
    )*};
}

primitive_vec!(bool, i8, i16, i32, i64, u8, u16, u32, u64, f32, f64);

impl<const N: usize> OfficialForm for [u8; N] {
    const FORM_ID: TypeId = TypeId::Binary;

    /// BINARY in the TypeDef, but the crate's derive fingerprints `[u8; N]` as a LIST of
    /// UINT8 (it has no `u8` row among its fixed-array types).
    fn form_field_type(registry: &Registry, compatible: bool) -> FieldType {
        if compatible {
            FieldType::leaf(TypeId::Binary)
        } else {
            list_of(u8::field_type(registry, compatible))
        }
    }

    fn write_form(&self, _declared: bool, ctx: &mut WriteContext) -> Result<()> {
        self.write_data(ctx)
    }
}

impl<'de, const N: usize> ReadForm<'de> for [u8; N] {
    fn read_form(ctx: &mut ReadContext<'de, '_>) -> Result<Self> {
        Self::read_data(ctx)
    }
}

/// Writes one tuple element as the official crate does: its null flag when the header has
/// HAS_NULL, then its type info and payload.
fn write_tuple_element<E: Serialize>(e: &E, has_null: bool, ctx: &mut WriteContext) -> Result<()> {
    if has_null {
        if e.is_null() {
            ctx.ref_flag(RefFlag::Null);
            return Ok(());
        }
        ctx.ref_flag(RefFlag::NotNull);
    }
    e.write_type_info(ctx)?;
    e.write_data(ctx)
}

macro_rules! tuple_form {
    ($(($T:ident, $idx:tt)),+) => {
        impl<$($T: Serialize),+> OfficialForm for ($($T,)+) {
            const FORM_ID: TypeId = TypeId::List;

            /// A LIST of nullable UNKNOWN in a TypeDef; the fingerprint names no element.
            fn form_field_type(_registry: &Registry, compatible: bool) -> FieldType {
                if compatible {
                    let mut unknown = FieldType::leaf(TypeId::Unknown);
                    unknown.nullable = true;
                    list_of(unknown)
                } else {
                    FieldType::leaf(TypeId::List)
                }
            }

            /// Header 0 (every element with its type info), or HAS_NULL when an element
            /// type is nullable: the crate decides by the types, not the values.
            fn write_form(&self, _declared: bool, ctx: &mut WriteContext) -> Result<()> {
                let has_null = false $(|| $T::NULLABLE)+;
                let n = [$(stringify!($T)),+].len();
                ctx.length(n)?;
                ctx.writer.u8(if has_null { elements::HAS_NULL } else { 0 });
                $(write_tuple_element(&self.$idx, has_null, ctx)?;)+
                Ok(())
            }
        }

        impl<'de, $($T: Deserialize<'de>),+> ReadForm<'de> for ($($T,)+) {
            fn read_form(ctx: &mut ReadContext<'de, '_>) -> Result<Self> {
                Self::read_typed(ctx, TypeId::List)
            }
        }
    };
}

tuple_form!((A, 0));
tuple_form!((A, 0), (B, 1));
tuple_form!((A, 0), (B, 1), (C, 2));
tuple_form!((A, 0), (B, 1), (C, 2), (D, 3));
tuple_form!((A, 0), (B, 1), (C, 2), (D, 3), (E, 4));
tuple_form!((A, 0), (B, 1), (C, 2), (D, 3), (E, 4), (F, 5));

macro_rules! wire_type {
    ($($lt:lifetime)?, $ty:ty) => {
        impl<$($lt,)? T: OfficialForm> WireType for $ty {
            const TYPE_ID: TypeId = T::FORM_ID;
            const REF_TYPE: bool = T::REF_TYPE;

            fn reach(reach: &mut crate::registry::Reach<'_>) -> Result<()> {
                T::reach(reach)
            }

            fn field_type(registry: &Registry, compatible: bool) -> FieldType {
                T::form_field_type(registry, compatible)
            }
        }

        impl<$($lt,)? T: OfficialForm> Serialize for $ty {
            fn write_data(&self, ctx: &mut WriteContext) -> Result<()> {
                self.0.write_form(false, ctx)
            }

            fn write_declared(&self, ctx: &mut WriteContext) -> Result<()> {
                self.0.write_form(true, ctx)
            }
        }
    };
}

// The owned wrapper reads; the borrowed one is what a struct's writer wraps its field in.
wire_type!(, ForyForm<T>);
wire_type!('a, ForyFormRef<'a, T>);

impl<'de, T: OfficialForm + Deserialize<'de> + ReadForm<'de>> Deserialize<'de> for ForyForm<T> {
    fn missing() -> Option<Self> {
        T::missing().map(ForyForm)
    }

    fn read_data(ctx: &mut ReadContext<'de, '_>) -> Result<Self> {
        T::read_form(ctx).map(ForyForm)
    }

    /// Either form: the official crate's, or pyfory's (a dense array, BINARY, a LIST with
    /// DECL_TYPE), as the wrapped type reads it.
    fn read_typed(ctx: &mut ReadContext<'de, '_>, id: TypeId) -> Result<Self> {
        T::read_typed(ctx, id).map(ForyForm)
    }

    fn read_list_declared(ctx: &mut ReadContext<'de, '_>, element: TypeId) -> Result<Self> {
        T::read_list_declared(ctx, element).map(ForyForm)
    }
}
