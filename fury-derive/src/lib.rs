//! Derive macros for the `fury` crate: `#[derive(FuryObject)]`.
//!
//! For a struct with named fields, the derive generates `fury::Serialize`,
//! `fury::Deserialize` and `fury::FuryObject` implementations that write the fields directly,
//! in the xlang field order, which is computed here at compile time. For a unit-only enum it
//! writes the variant id. See the `fury` crate for the attributes.

mod attrs;
mod enums;
mod fields;
mod structs;

use proc_macro::TokenStream;

/// Implements `fury::Serialize`, `fury::Deserialize` and `fury::FuryObject`.
///
/// Type attributes: `#[fury(id = N)]` or `#[fury(namespace = "..", name = "..")]` (used by
/// `Fury::register`). Field attributes: `#[fury(id = N)]` (tag id), `#[fury(rename = "..")]`,
/// `#[fury(skip)]` (read as `Default`), `#[fury(nullable)]`, `#[fury(encoding = "fixed" |
/// "varint" | "tagged")]` for i32/u32/i64/u64. Variant attribute: `#[fury(id = N)]`.
#[proc_macro_derive(FuryObject, attributes(fury))]
pub fn derive_fury_object(input: TokenStream) -> TokenStream {
    let ast = syn::parse_macro_input!(input as syn::DeriveInput);
    let result = if !ast.generics.params.is_empty() {
        Err(syn::Error::new_spanned(
            &ast.generics,
            "#[derive(FuryObject)] does not support generic types yet",
        ))
    } else {
        match &ast.data {
            syn::Data::Struct(s) => structs::derive(&ast, s),
            syn::Data::Enum(e) => enums::derive(&ast, e),
            syn::Data::Union(_) => Err(syn::Error::new_spanned(
                &ast.ident,
                "#[derive(FuryObject)] supports structs and enums, not unions",
            )),
        }
    };
    result.unwrap_or_else(|e| e.to_compile_error()).into()
}
