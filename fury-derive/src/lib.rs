//! Derive macros for the `fury` crate.
//!
//! `#[derive(FuryObject)]` is being built (see the project's issue on struct support). Until
//! then this crate exports a derive that only reports a clear compile error, so that a user who
//! tries it learns what is missing instead of seeing an unresolved-macro error.

use proc_macro::TokenStream;
use quote::quote_spanned;
use syn::spanned::Spanned;

/// Placeholder for the struct/enum derive: emits a compile error naming the missing feature.
#[proc_macro_derive(FuryObject, attributes(fury))]
pub fn derive_fury_object(input: TokenStream) -> TokenStream {
    let ast = syn::parse_macro_input!(input as syn::DeriveInput);
    let span = ast.ident.span();
    let _ = ast.span();
    quote_spanned! {span=>
        compile_error!("#[derive(FuryObject)] is not implemented yet in this version of fury");
    }
    .into()
}
