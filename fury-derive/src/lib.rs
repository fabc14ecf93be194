//! Derive macros for the `fury` crate: `#[derive(FuryObject)]` and `#[derive(FuryRow)]` (the
//! row format; `row.rs`).
//!
//! For a struct (named fields, tuple or unit, generic or not), the derive generates
//! `fury::WireType`, `fury::Serialize`, `fury::Deserialize` and `fury::FuryObject`
//! implementations that write the fields directly, in the xlang field order. For an enum
//! whose variants have no fields it writes the variant id; an enum with data of any shape is
//! a tagged union (`unions.rs`), its variants of several fields carried by case structs that
//! it declares and registers with the enum. The attributes are documented on
//! `fury::FuryObject`.
//!
//! The derive works in three passes over one parsed model, as serde's does: attributes are
//! parsed once (`attr`), checked against each other (`check`), then code is generated
//! (`structs`, `enums`); every error of every pass is reported, each at its span.

mod ast;
mod attr;
mod bound;
mod case;
mod check;
mod ctxt;
mod enums;
mod ext;
mod fields;
mod row;
mod structs;
mod unions;

// The wire-type table and snake_case the runtime uses too (one copy of each).
use fury_types::{snake, table};

use proc_macro::TokenStream;

/// Implements `fury::WireType`, `fury::Serialize`, `fury::Deserialize` and
/// `fury::FuryObject`; see `fury::FuryObject` for the attributes.
#[proc_macro_derive(FuryObject, attributes(fury))]
pub fn derive_fury_object(input: TokenStream) -> TokenStream {
    let input = syn::parse_macro_input!(input as syn::DeriveInput);
    expand(&input)
        .unwrap_or_else(|e| e.to_compile_error())
        .into()
}

fn expand(input: &syn::DeriveInput) -> syn::Result<proc_macro2::TokenStream> {
    let cx = ctxt::Ctxt::default();
    let Some(cont) = ast::Container::from_ast(&cx, input) else {
        cx.check()?;
        return Ok(proc_macro2::TokenStream::new());
    };
    check::check(&cx, &cont);
    let out = match &cont.data {
        _ if cont.attrs.ext.is_set() => ext::derive(&cont),
        ast::Data::Struct(style, fields) => structs::derive(&cx, &cont, *style, fields),
        ast::Data::Enum(variants) if unions::is_union(variants) => unions::derive(&cont, variants),
        ast::Data::Enum(variants) => enums::derive(&cont, variants),
    };
    cx.check()?;
    Ok(out)
}

/// Implements `fury::row::FuryRow` and a view type `FooRow<'a>`; see `fury::row::FuryRow`
/// for the attributes (`#[fury_row(field_order = "name")]`, `#[fury_row(view = "Name")]`).
#[proc_macro_derive(FuryRow, attributes(fury_row))]
pub fn derive_fury_row(input: TokenStream) -> TokenStream {
    let input = syn::parse_macro_input!(input as syn::DeriveInput);
    row::derive(&input)
        .unwrap_or_else(|e| e.to_compile_error())
        .into()
}
