//! Code generation for enums whose variants have no fields: the variant id as a varuint32.

use crate::ast::{Container, Variant};
use proc_macro2::TokenStream;
use quote::quote;

pub fn derive(cont: &Container, variants: &[Variant]) -> TokenStream {
    let name = cont.ident;
    let (impl_generics, ty_generics, where_clause) = cont.generics.split_for_impl();
    let de_impl_generics = crate::structs::de_impl_generics(cont.generics);
    let user_type = crate::structs::user_type(
        cont,
        &crate::structs::names(cont, crate::bound::own_where(cont.generics)),
        quote! { ::fury::__private::UserKind::Enum },
        quote! {},
    );
    let mut arms_write = Vec::new();
    let mut arms_read = Vec::new();
    let mut arms_direct = Vec::new();
    for (index, v) in variants.iter().enumerate() {
        let id = v.attrs.id.get().copied().unwrap_or(index as u32);
        let ident = v.ident;
        arms_write.push(quote! { Self::#ident => #id, });
        arms_read.push(quote! { #id => Self::#ident, });
        arms_direct.push(quote! { #id => ::std::option::Option::Some(Self::#ident), });
    }
    let missing = match variants.first() {
        Some(v) => {
            let v = v.ident;
            quote! { ::std::option::Option::Some(Self::#v) }
        }
        None => quote! { ::std::option::Option::None },
    };
    let missing_fns = crate::structs::missing_fns(cont, missing, true);
    let (type_info_write, type_info_read) = crate::structs::user_type_info_methods();
    quote! {
        const _: () = {
            impl #impl_generics ::fury::WireType for #name #ty_generics #where_clause {
                const TYPE_ID: ::fury::__private::TypeId = ::fury::__private::TypeId::Enum;

                #[inline]
                fn reach(reach: &mut ::fury::__private::Reach<'_>) -> ::fury::Result<()> {
                    reach.user::<Self>()
                }
            }

            impl #impl_generics ::fury::Serialize for #name #ty_generics #where_clause {
                #type_info_write

                #[inline]
                fn write_data(&self, ctx: &mut ::fury::__private::WriteContext) -> ::fury::Result<()> {
                    let id: u32 = match self { #(#arms_write)* };
                    ctx.writer.var_u32(id);
                    ::std::result::Result::Ok(())
                }
            }

            impl #de_impl_generics ::fury::Deserialize<'de> for #name #ty_generics #where_clause {
                #type_info_read

                const DIRECT: bool = true;

                #[inline(always)]
                fn read_direct(
                    r: &mut ::fury::__private::Reader<'de>,
                    _ctx: &::fury::__private::ReadContext<'de, '_>,
                ) -> ::std::option::Option<Self> {
                    match r.var_u32().ok()? {
                        #(#arms_direct)*
                        _ => ::std::option::Option::None,
                    }
                }

                #[inline]
                fn read_typed(ctx: &mut ::fury::__private::ReadContext<'de, '_>, id: ::fury::__private::TypeId) -> ::fury::Result<Self> {
                    ::fury::__private::check_user_kind::<Self>(ctx, id)?;
                    <Self as ::fury::Deserialize<'de>>::read_data(ctx)
                }

                #missing_fns

                #[inline]
                fn read_data(ctx: &mut ::fury::__private::ReadContext<'de, '_>) -> ::fury::Result<Self> {
                    let at = ctx.reader.position();
                    let id = ctx.reader.var_u32()?;
                    ::std::result::Result::Ok(match id {
                        #(#arms_read)*
                        other => return ::std::result::Result::Err(
                            ::fury::__private::bad_enum_variant::<Self>(ctx, at, other)
                        ),
                    })
                }
            }

            #user_type
        };
    }
}
