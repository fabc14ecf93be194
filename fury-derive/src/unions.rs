//! Code generation for tagged unions: enums with data. The payload is the case id
//! (varuint32) and the case value as a whole value (flag, type info, payload); a unit case is
//! the NULL flag. A variant with one field carries that field's value; a variant with several
//! fields carries a *case struct*: a struct of the variant's fields that the derive declares
//! (hidden) and that the enum registers with itself, under a registration derived from its
//! own (`fury::registry::case_struct_registration`). The enum writes the case struct straight
//! from the variant's fields, with the struct writer's code, and reads a case struct and
//! moves its fields into the variant.

use crate::ast::{Container, Style, Variant};
use crate::fields::{guessed_order, rank, Plan};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

/// The case id of each variant, `None` for the `#[fury(unknown)]` one: `#[fury(id = K)]`, or
/// the position among the known cases counted from 1.
pub fn case_ids(variants: &[Variant]) -> Vec<Option<u32>> {
    let mut next = 1u32;
    variants
        .iter()
        .map(|v| {
            if v.attrs.unknown.is_set() {
                return None;
            }
            let id = v.attrs.id.get().copied().unwrap_or(next);
            next = next.saturating_add(1);
            Some(id)
        })
        .collect()
}

/// True when the enum is a union: some variant holds a value.
pub fn is_union(variants: &[Variant]) -> bool {
    variants
        .iter()
        .any(|v| !v.fields.is_empty() || v.attrs.unknown.is_set())
}

/// The name of a variant on the wire: its identifier as written, or under the enum's
/// `rename_all` rule.
fn variant_name(cont: &Container, v: &Variant) -> String {
    let name = v.ident.to_string().trim_start_matches("r#").to_string();
    match cont.attrs.rename_all.get() {
        Some(rule) => rule.variant(&name),
        None => name,
    }
}

/// The hidden case struct of a variant with several fields, and its type (with the enum's
/// generics, all of which it declares; a `PhantomData` marks those no field uses).
fn case_struct(
    cont: &Container,
    v: &Variant,
    where_clause: &syn::WhereClause,
) -> (TokenStream, TokenStream) {
    let ident = format_ident!("{}__{}", cont.ident, v.ident);
    let generics = cont.generics;
    let (_, ty_generics, _) = generics.split_for_impl();
    // The enum's bounds: a parameter only the phantom mentions is bounded as in the enum.
    let where_clause = (!where_clause.predicates.is_empty()).then_some(where_clause);
    let fury_attrs = |f: &syn::Field| -> Vec<syn::Attribute> {
        f.attrs
            .iter()
            .filter(|a| a.path().is_ident("fury"))
            .cloned()
            .collect()
    };
    let phantom = if generics.params.is_empty() {
        None
    } else {
        let parts = generics.params.iter().map(|p| match p {
            syn::GenericParam::Lifetime(l) => {
                let l = &l.lifetime;
                quote! { &#l () }
            }
            syn::GenericParam::Type(t) => {
                let i = &t.ident;
                quote! { fn() -> #i }
            }
            syn::GenericParam::Const(c) => {
                let i = &c.ident;
                quote! { [(); #i] }
            }
        });
        Some(quote! { ::std::marker::PhantomData<(#(#parts,)*)> })
    };
    let fields = v.original.fields.iter();
    let body = match v.style {
        Style::Named => {
            let fs = fields.map(|f| {
                let attrs = fury_attrs(f);
                let (i, ty) = (&f.ident, &f.ty);
                quote! { #(#attrs)* #i: #ty, }
            });
            let ph = phantom.map(|p| quote! { #[fury(skip)] __fury_phantom: #p, });
            quote! { #where_clause { #(#fs)* #ph } }
        }
        _ => {
            let fs = fields.map(|f| {
                let attrs = fury_attrs(f);
                let ty = &f.ty;
                quote! { #(#attrs)* #ty, }
            });
            let ph = phantom.map(|p| quote! { #[fury(skip)] #p, });
            quote! { ( #(#fs)* #ph ) #where_clause; }
        }
    };
    let decl = quote! {
        #[derive(::fury::FuryObject)]
        #[allow(non_camel_case_types, dead_code)]
        struct #ident #generics #body
    };
    (decl, quote! { #ident #ty_generics })
}

/// The bindings of a variant's serialized fields, in declaration order.
fn binding(i: usize) -> syn::Ident {
    format_ident!("__fury_v{}", i)
}

/// The pattern that binds the serialized fields of a variant with several fields.
fn case_pattern(v: &Variant) -> TokenStream {
    let ident = v.ident;
    let mut next = 0;
    let mut parts = Vec::new();
    for f in &v.fields {
        if f.attrs.skip.is_set() {
            parts.push(None);
        } else {
            parts.push(Some(binding(next)));
            next += 1;
        }
    }
    match v.style {
        Style::Named => {
            let named = v.fields.iter().zip(&parts).filter_map(|(f, b)| {
                let m = &f.member;
                b.as_ref().map(|b| quote! { #m: #b })
            });
            quote! { Self::#ident { #(#named,)* .. } }
        }
        _ => {
            let pos = parts.iter().map(|b| match b {
                Some(b) => quote! { #b },
                None => quote! { _ },
            });
            quote! { Self::#ident(#(#pos),*) }
        }
    }
}

/// The write of a case struct from the variant's fields: the struct writer's code, with
/// each field read through its binding and the layout of the case struct.
fn case_write(cont: &Container, v: &Variant, id: u32, case_ty: &TokenStream) -> TokenStream {
    let lifetimes: Vec<&syn::Lifetime> = cont.generics.lifetimes().map(|l| &l.lifetime).collect();
    let mut plans: Vec<Plan> = v
        .fields
        .iter()
        .filter(|f| !f.attrs.skip.is_set())
        .enumerate()
        .map(|(i, f)| {
            let mut p = Plan::new(f, i, &lifetimes, None, false);
            p.binding = Some(binding(i));
            p
        })
        .collect();
    rank(&mut plans);
    let body_c = crate::structs::write_body(&plans, &guessed_order(&plans, true), true);
    let body_f = crate::structs::write_body(&plans, &guessed_order(&plans, false), false);
    let general = crate::structs::general_write(&plans, case_ty);
    let pattern = case_pattern(v);
    quote! {
        #pattern => ::fury::__private::write_union_struct_case::<#case_ty, _>(
            #id,
            ctx,
            |ctx, compress_int, hash| {
                if <#case_ty as ::fury::__private::StructLayout>::AS_SPELLED {
                    if compress_int { #body_c } else { #body_f }
                } else {
                    #general
                }
                ::std::result::Result::Ok(())
            },
        ),
    }
}

/// The read of a case struct, its fields moved into the variant.
fn case_read(v: &Variant, id: u32, case_ty: &TokenStream) -> TokenStream {
    let ident = v.ident;
    let members: Vec<&syn::Member> = v.fields.iter().map(|f| &f.member).collect();
    let value = match v.style {
        Style::Named => quote! { Self::#ident { #(#members: __fury_c.#members,)* } },
        _ => quote! { Self::#ident(#(__fury_c.#members,)*) },
    };
    quote! {
        #id => {
            let __fury_c = ::fury::__private::read_union_case::<#case_ty>(ctx)?;
            #value
        }
    }
}

/// The buffers of a case struct's fields.
fn case_visit(v: &Variant) -> TokenStream {
    let pattern = case_pattern(v);
    let visits = v
        .fields
        .iter()
        .filter(|f| !f.attrs.skip.is_set())
        .enumerate()
        .filter(|(_, f)| !f.attrs.with.is_set())
        .map(|(i, _)| {
            let b = binding(i);
            quote! { ::fury::Serialize::visit_buffers(#b, out); }
        });
    quote! { #pattern => { #(#visits)* } }
}

pub fn derive(cont: &Container, variants: &[Variant]) -> TokenStream {
    let name = cont.ident;
    let where_clause = crate::bound::variants_where(cont, variants);
    let (impl_generics, ty_generics, _) = cont.generics.split_for_impl();
    let de_impl_generics = crate::structs::de_impl_generics(cont.generics);
    let ids = case_ids(variants);
    let mut writes = Vec::new();
    let mut reads = Vec::new();
    let mut visits = Vec::new();
    let mut unknown_read = None;
    let mut first_unit = None;
    let mut case_structs = Vec::new();
    let mut parts = Vec::new();
    for (v, id) in variants.iter().zip(&ids) {
        let ident = v.ident;
        match (id, v.fields.len()) {
            (None, _) => {
                writes.push(quote! {
                    Self::#ident(u) => ::fury::__private::write_union_unknown(u, ctx),
                });
                unknown_read = Some(quote! {
                    other => Self::#ident(::fury::__private::read_union_unknown(ctx, other)?),
                });
            }
            (Some(id), 0) => {
                let pattern = match v.style {
                    Style::Named => quote! { Self::#ident {} },
                    Style::Tuple => quote! { Self::#ident() },
                    Style::Unit => quote! { Self::#ident },
                };
                writes.push(quote! {
                    #pattern => ::fury::__private::write_union_unit(#id, ctx),
                });
                reads.push(quote! {
                    #id => {
                        ::fury::__private::read_union_unit(ctx)?;
                        #pattern
                    }
                });
                first_unit.get_or_insert(pattern);
            }
            (Some(id), 1) => {
                let (pattern, value) = match (v.style, v.fields.first().map(|f| &f.member)) {
                    (Style::Named, Some(m)) => (
                        quote! { Self::#ident { #m: v } },
                        quote! { Self::#ident { #m: ::fury::__private::read_union_case(ctx)? } },
                    ),
                    _ => (
                        quote! { Self::#ident(v) },
                        quote! { Self::#ident(::fury::__private::read_union_case(ctx)?) },
                    ),
                };
                writes.push(quote! {
                    #pattern => ::fury::__private::write_union_case(#id, v, ctx),
                });
                reads.push(quote! { #id => #value, });
                visits.push(quote! {
                    #pattern => ::fury::Serialize::visit_buffers(v, out),
                });
            }
            (Some(id), _) => {
                let (decl, case_ty) = case_struct(cont, v, &where_clause);
                writes.push(case_write(cont, v, *id, &case_ty));
                reads.push(case_read(v, *id, &case_ty));
                visits.push(case_visit(v));
                let vname = variant_name(cont, v);
                parts.push(quote! { registry.add_case_struct::<#case_ty>(own, #vname)?; });
                case_structs.push(decl);
            }
        }
    }
    // The types each variant's fields reach, named `Variant` or `Variant.field`.
    let reaches = variants
        .iter()
        .filter(|v| !v.attrs.unknown.is_set())
        .flat_map(|v| {
            let one = v.fields.len() == 1;
            v.fields
                .iter()
                .filter(|f| !f.attrs.skip.is_set() && !f.attrs.with.is_set())
                .map(move |f| {
                    let path = match (&f.member, one) {
                        (_, true) => variant_name(cont, v),
                        (syn::Member::Named(i), _) => format!("{}.{}", variant_name(cont, v), i),
                        (syn::Member::Unnamed(i), _) => {
                            format!("{}._{}", variant_name(cont, v), i.index)
                        }
                    };
                    let ty = f.ty;
                    quote! { reach.field(#path, <#ty as ::fury::WireType>::reach)?; }
                })
        });
    let parts_extra_reach = quote! {
        fn reach_fields(reach: &mut ::fury::__private::Reach<'_>) -> ::fury::Result<()> {
            #(#reaches)*
            ::std::result::Result::Ok(())
        }
    };
    let register_parts = if parts.is_empty() {
        quote! {}
    } else {
        quote! {
            fn register_parts(
                registry: &mut ::fury::__private::Registry,
                own: &::fury::__private::Registration,
            ) -> ::fury::Result<()> {
                #(#parts)*
                ::std::result::Result::Ok(())
            }
        }
    };
    let user_type = crate::structs::user_type(
        cont,
        &crate::structs::names(cont, where_clause.clone()),
        quote! { ::fury::__private::UserKind::Union },
        quote! { #register_parts #parts_extra_reach },
    );
    let fallback = unknown_read.unwrap_or_else(|| {
        quote! {
            other => return ::std::result::Result::Err(
                ::fury::__private::bad_union_case::<Self>(at, other)
            ),
        }
    });
    let missing = match first_unit {
        Some(v) => quote! { ::std::option::Option::Some(#v) },
        None => quote! { ::std::option::Option::None },
    };
    let missing_fns = crate::structs::missing_fns(cont, missing, false);
    let (type_info_write, type_info_read) = crate::structs::user_type_info_methods();
    quote! {
        const _: () = {
            #(#case_structs)*

            impl #impl_generics ::fury::WireType for #name #ty_generics #where_clause {
                const TYPE_ID: ::fury::__private::TypeId = ::fury::__private::TypeId::Union;
                // pyfory tracks unions: a list of them carries REF_VALUE flags.
                const REF_TYPE: bool = true;

                #[inline]
                fn reach(reach: &mut ::fury::__private::Reach<'_>) -> ::fury::Result<()> {
                    reach.user::<Self>()
                }
            }

            impl #impl_generics ::fury::Serialize for #name #ty_generics #where_clause {
                #type_info_write

                fn write_data(&self, ctx: &mut ::fury::__private::WriteContext) -> ::fury::Result<()> {
                    match self { #(#writes)* }
                }

                fn visit_buffers<'v>(&'v self, out: &mut ::std::vec::Vec<&'v [u8]>) {
                    #[allow(unreachable_patterns)]
                    match self {
                        #(#visits)*
                        _ => {}
                    }
                }
            }

            impl #de_impl_generics ::fury::Deserialize<'de> for #name #ty_generics #where_clause {
                #type_info_read

                #[inline]
                fn read_typed(ctx: &mut ::fury::__private::ReadContext<'de, '_>, id: ::fury::__private::TypeId) -> ::fury::Result<Self> {
                    if id != ::fury::__private::TypeId::Union {
                        ::fury::__private::check_user_kind::<Self>(ctx, id)?;
                    }
                    <Self as ::fury::Deserialize<'de>>::read_data(ctx)
                }

                #missing_fns

                fn read_data(ctx: &mut ::fury::__private::ReadContext<'de, '_>) -> ::fury::Result<Self> {
                    let (case, at) = ::fury::__private::read_union_case_id(ctx)?;
                    let _ = at;
                    ::std::result::Result::Ok(match case {
                        #(#reads)*
                        #fallback
                    })
                }
            }

            #user_type
        };
    }
}
