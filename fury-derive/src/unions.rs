//! Code generation for tagged unions: enums whose variants are unit or hold one value. The
//! payload is the case id (varuint32) and the case value as a whole value (flag, type info,
//! payload); a unit case is the NULL flag.

use crate::ast::{Container, Variant};
use proc_macro2::TokenStream;
use quote::quote;

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
        .any(|v| !v.original.fields.is_empty() || v.attrs.unknown.is_set())
}

pub fn derive(cont: &Container, variants: &[Variant]) -> TokenStream {
    let name = cont.ident;
    let (impl_generics, ty_generics, where_clause) = cont.generics.split_for_impl();
    let de_impl_generics = crate::structs::de_impl_generics(cont.generics);
    let user_type = crate::structs::user_type(
        cont,
        &crate::structs::names(cont, crate::bound::own_where(cont.generics)),
        quote! { ::fury::__private::UserKind::Union },
        quote! {},
    );
    let ids = case_ids(variants);
    let mut writes = Vec::new();
    let mut reads = Vec::new();
    let mut visits = Vec::new();
    let mut unknown_read = None;
    let mut first_unit = None;
    for (v, id) in variants.iter().zip(&ids) {
        let ident = v.ident;
        let has_value = !v.original.fields.is_empty();
        match (id, has_value) {
            (None, _) => {
                writes.push(quote! {
                    Self::#ident(u) => ::fury::__private::write_union_unknown(u, ctx),
                });
                unknown_read = Some(quote! {
                    other => Self::#ident(::fury::__private::read_union_unknown(ctx, other)?),
                });
            }
            (Some(id), true) => {
                writes.push(quote! {
                    Self::#ident(v) => ::fury::__private::write_union_case(#id, v, ctx),
                });
                reads.push(quote! {
                    #id => Self::#ident(::fury::__private::read_union_case(ctx)?),
                });
                visits.push(quote! {
                    Self::#ident(v) => ::fury::Serialize::visit_buffers(v, out),
                });
            }
            (Some(id), false) => {
                writes.push(quote! {
                    Self::#ident => ::fury::__private::write_union_unit(#id, ctx),
                });
                reads.push(quote! {
                    #id => {
                        ::fury::__private::read_union_unit(ctx)?;
                        Self::#ident
                    }
                });
                first_unit.get_or_insert(ident);
            }
        }
    }
    let fallback = unknown_read.unwrap_or_else(|| {
        quote! {
            other => return ::std::result::Result::Err(
                ::fury::__private::bad_union_case::<Self>(at, other)
            ),
        }
    });
    let missing = match first_unit {
        Some(v) => quote! { ::std::option::Option::Some(Self::#v) },
        None => quote! { ::std::option::Option::None },
    };
    let (type_info_write, type_info_read) = crate::structs::user_type_info_methods();
    quote! {
        const _: () = {
            impl #impl_generics ::fury::WireType for #name #ty_generics #where_clause {
                const TYPE_ID: ::fury::__private::TypeId = ::fury::__private::TypeId::Union;
                // pyfory tracks unions: a list of them carries REF_VALUE flags.
                const REF_TYPE: bool = true;
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

                fn missing() -> ::std::option::Option<Self> {
                    #missing
                }

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
