//! `#[derive(FuryRow)]`: the row layout of a struct with named fields, and its view type.
//!
//! Every field is checked, viewed and decoded as its own declared type, at one schema index
//! (the declaration order, or the fields sorted by name with `field_order = "name"`); the
//! runtime's `unsafe impl` contract rests on those three using the same type and index.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

/// How the schema orders the fields.
enum Order {
    Declaration,
    Name,
}

struct Options {
    order: Order,
    view: Option<syn::Ident>,
}

fn options(input: &syn::DeriveInput) -> syn::Result<Options> {
    let mut out = Options {
        order: Order::Declaration,
        view: None,
    };
    for attr in &input.attrs {
        if !attr.path().is_ident("fury_row") {
            continue;
        }
        attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("field_order") {
                let s: syn::LitStr = meta.value()?.parse()?;
                out.order = match s.value().as_str() {
                    "declaration" => Order::Declaration,
                    "name" => Order::Name,
                    other => {
                        return Err(syn::Error::new(
                            s.span(),
                            format!(
                            "unknown field_order `{other}`: expected \"declaration\" or \"name\""
                        ),
                        ))
                    }
                };
                Ok(())
            } else if meta.path.is_ident("view") {
                let s: syn::LitStr = meta.value()?.parse()?;
                out.view = Some(s.parse()?);
                Ok(())
            } else {
                Err(meta.error("unknown fury_row attribute: expected `field_order` or `view`"))
            }
        })?;
    }
    Ok(out)
}

pub fn derive(input: &syn::DeriveInput) -> syn::Result<TokenStream> {
    let opts = options(input)?;
    let fields = match &input.data {
        syn::Data::Struct(syn::DataStruct {
            fields: syn::Fields::Named(named),
            ..
        }) => &named.named,
        _ => {
            return Err(syn::Error::new(
                input.ident.span(),
                "FuryRow is derived for structs with named fields only",
            ))
        }
    };
    if let Some(lt) = input.generics.lifetimes().next() {
        return Err(syn::Error::new(
            lt.lifetime.span(),
            "FuryRow types own their data (from_row builds them): lifetime parameters are not supported",
        ));
    }
    let mut errors: Option<syn::Error> = None;
    for f in fields {
        no_layout(&f.ty, &mut errors);
    }
    if let Some(e) = errors {
        return Err(e);
    }
    let mut schema: Vec<&syn::Field> = fields.iter().collect();
    if let Order::Name = opts.order {
        schema.sort_by_key(|f| field_name(f));
    }

    let name = &input.ident;
    let vis = &input.vis;
    let view = opts
        .view
        .unwrap_or_else(|| format_ident!("{}Row", input.ident));
    let n = schema.len();
    let (impl_g, ty_g, where_clause) = input.generics.split_for_impl();
    let mut where_preds: Vec<TokenStream> = where_clause
        .map(|w| w.predicates.iter().map(|p| quote!(#p)).collect())
        .unwrap_or_default();
    // Bounds on the field types only where there are type parameters: on a concrete
    // recursive type (`children: Vec<Self>`) they would be cyclic.
    if input.generics.type_params().next().is_some() {
        for f in &schema {
            let ty = &f.ty;
            where_preds.push(quote!(#ty: ::fury::row::RowValue));
        }
    }
    let where_all = quote!(where #(#where_preds),*);
    let type_params: Vec<&syn::GenericParam> = input.generics.params.iter().collect();
    let view_params = quote!('__row #(, #type_params)*);
    let type_args: Vec<TokenStream> = input
        .generics
        .params
        .iter()
        .map(|p| match p {
            syn::GenericParam::Type(t) => {
                let id = &t.ident;
                quote!(#id)
            }
            syn::GenericParam::Const(c) => {
                let id = &c.ident;
                quote!(#id)
            }
            syn::GenericParam::Lifetime(l) => {
                let lt = &l.lifetime;
                quote!(#lt)
            }
        })
        .collect();
    let view_args = quote!('__row #(, #type_args)*);

    let mut accessors = Vec::new();
    let mut writes = Vec::new();
    let mut checks = Vec::new();
    let mut hashes = Vec::new();
    let mut builds = Vec::new();
    for (index, f) in schema.iter().enumerate() {
        let Some(ident) = f.ident.as_ref() else {
            continue;
        };
        let ty = &f.ty;
        let fvis = &f.vis;
        let text = field_name(f);
        let doc = format!("The `{text}` field (schema index {index}).");
        accessors.push(quote! {
            #[doc = #doc]
            #[inline(always)]
            #fvis fn #ident(&self) -> <#ty as ::fury::row::RowValue>::View<'__row> {
                self.__row.field::<#ty>(#index)
            }
        });
        writes.push(quote! { __w.field::<#ty>(__buf, #index, &self.#ident)?; });
        checks.push(quote! { __f.field::<#ty>(__cx, #index, #text)?; });
        hashes.push(quote! { let __h = <#ty as ::fury::row::RowValue>::hash_into(__h); });
        builds.push(quote! {
            #ident: <#ty as ::fury::row::RowValue>::from_view(__v.__row.field::<#ty>(#index))
        });
    }
    // Debug on the view shows the fields, for field views that are Debug.
    let debug = {
        let names = schema.iter().filter_map(|f| f.ident.as_ref());
        let texts = schema.iter().map(|f| field_name(f));
        let label = view.to_string();
        let mut preds = where_preds.clone();
        // As above: bounds only with type parameters (a recursive type's would be cyclic).
        if input.generics.type_params().next().is_some() {
            for f in &schema {
                let ty = &f.ty;
                preds
                    .push(quote!(<#ty as ::fury::row::RowValue>::View<'__row>: ::core::fmt::Debug));
            }
        }
        quote! {
            impl<#view_params> ::core::fmt::Debug for #view<#view_args> where #(#preds),* {
                fn fmt(&self, __f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                    __f.debug_struct(#label)
                        #(.field(#texts, &self.#names()))*
                        .finish()
                }
            }
        }
    };
    let view_doc = format!(
        "A validated row of [`{name}`]: one O(1) accessor per field (see `fury::row::FuryRow`)."
    );

    Ok(quote! {
        #[doc = #view_doc]
        #vis struct #view<#view_params> #where_all {
            __row: ::fury::row::StructView<'__row>,
            __type: ::core::marker::PhantomData<fn() -> #name #ty_g>,
        }

        impl<#view_params> ::core::clone::Clone for #view<#view_args> #where_all {
            #[inline(always)]
            fn clone(&self) -> Self {
                *self
            }
        }

        impl<#view_params> ::core::marker::Copy for #view<#view_args> #where_all {}

        impl<#view_params> #view<#view_args> #where_all {
            #(#accessors)*
        }

        #debug

        // SAFETY: every field is checked (`check`) and read (`view`, `from_view`) as its own
        // declared type at the same schema index.
        #[allow(unsafe_code)]
        unsafe impl #impl_g ::fury::row::RowValue for #name #ty_g #where_all {
            const WIDTH: usize = 8;
            const VARIABLE: bool = true;
            type View<'__row> = #view<#view_args>;

            fn hash_into(__h: u64) -> u64 {
                <Self as ::fury::row::FuryRow>::hash_fields(::fury::row::hash_step(__h, 27))
            }

            fn write_variable(&self, __buf: &mut ::std::vec::Vec<u8>) -> ::fury::Result<()> {
                let __w = ::fury::row::StructWriter::begin(__buf, #n);
                #(#writes)*
                ::core::result::Result::Ok(())
            }

            fn check(__bytes: &[u8], __cx: &mut ::fury::row::Check) -> ::fury::Result<()> {
                let mut __f = __cx.begin_struct(__bytes, #n)?;
                #(#checks)*
                __cx.end_struct();
                ::core::result::Result::Ok(())
            }

            #[inline(always)]
            unsafe fn view(_: bool, __bytes: &[u8]) -> Self::View<'_> {
                #view {
                    // SAFETY: the caller's promise: `__bytes` passed `check` above.
                    __row: unsafe { ::fury::row::StructView::new_unchecked(__bytes, #n) },
                    __type: ::core::marker::PhantomData,
                }
            }

            fn from_view(__v: Self::View<'_>) -> Self {
                #name { #(#builds),* }
            }
        }

        impl #impl_g ::fury::row::RowElement for #name #ty_g #where_all {}

        impl #impl_g ::fury::row::FuryRow for #name #ty_g #where_all {
            fn hash_fields(__h: u64) -> u64 {
                #(#hashes)*
                __h
            }
        }
    })
}

/// The field's name in the schema (a raw identifier without its `r#`).
fn field_name(f: &syn::Field) -> String {
    let s = f.ident.as_ref().map(|i| i.to_string()).unwrap_or_default();
    s.strip_prefix("r#").map(str::to_owned).unwrap_or(s)
}

/// Collects an error for each integer type written out in `ty` (at any depth: `Vec<u64>`,
/// `Option<usize>`) that has no row layout, naming what to use instead. A type alias of one
/// still fails, with the runtime trait's message.
fn no_layout(ty: &syn::Type, errors: &mut Option<syn::Error>) {
    match ty {
        syn::Type::Path(p) => {
            if let Some(q) = &p.qself {
                no_layout(&q.ty, errors);
            }
            let segs = &p.path.segments;
            if let (None, Some(last)) = (&p.qself, segs.last()) {
                let bare = segs.len() == 1 || {
                    // `std::primitive::u64` / `core::primitive::u64`
                    let first = segs.first().map(|s| s.ident.to_string());
                    segs.len() == 3
                        && matches!(first.as_deref(), Some("std" | "core"))
                        && segs.iter().nth(1).is_some_and(|s| s.ident == "primitive")
                };
                let name = last.ident.to_string();
                let why = match name.as_str() {
                    "u64" | "usize" => Some(
                        "has no row layout: the row format has no unsigned 64-bit integer and \
                         int64 does not hold every value (pyfory.format and the official crate \
                         have none either); use i64",
                    ),
                    "u128" | "i128" => Some(
                        "has no row layout: the row format's widest integer is int64; use i64, \
                         or a decimal string",
                    ),
                    _ => None,
                };
                if let (true, Some(why)) = (bare, why) {
                    let e = syn::Error::new(last.ident.span(), format!("`{name}` {why}"));
                    match errors {
                        Some(all) => all.combine(e),
                        None => *errors = Some(e),
                    }
                }
            }
            for seg in segs {
                if let syn::PathArguments::AngleBracketed(args) = &seg.arguments {
                    for arg in &args.args {
                        if let syn::GenericArgument::Type(t) = arg {
                            no_layout(t, errors);
                        }
                    }
                }
            }
        }
        syn::Type::Array(a) => no_layout(&a.elem, errors),
        syn::Type::Slice(a) => no_layout(&a.elem, errors),
        syn::Type::Group(g) => no_layout(&g.elem, errors),
        syn::Type::Paren(p) => no_layout(&p.elem, errors),
        syn::Type::Reference(r) => no_layout(&r.elem, errors),
        syn::Type::Tuple(t) => {
            for e in &t.elems {
                no_layout(e, errors);
            }
        }
        _ => {}
    }
}
