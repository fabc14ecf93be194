//! Code generation for unit-only enums: the variant id as a varuint32.

use crate::attrs;
use proc_macro2::TokenStream;
use quote::quote;
use syn::spanned::Spanned;

pub fn derive(input: &syn::DeriveInput, data: &syn::DataEnum) -> syn::Result<TokenStream> {
    let name = &input.ident;
    let type_attrs = attrs::type_attrs(&input.attrs)?;
    let mut ids = std::collections::HashMap::new();
    let mut arms_write = Vec::new();
    let mut arms_read = Vec::new();
    for (index, v) in data.variants.iter().enumerate() {
        if !matches!(v.fields, syn::Fields::Unit) {
            return Err(syn::Error::new(
                v.span(),
                "#[derive(FuryObject)] supports enums whose variants have no fields",
            ));
        }
        let va = attrs::variant_attrs(&v.attrs)?;
        let id = match va.id {
            Some(id) => id,
            None => {
                u32::try_from(index).map_err(|_| syn::Error::new(v.span(), "too many variants"))?
            }
        };
        if let Some(prev) = ids.insert(id, v.ident.to_string()) {
            return Err(syn::Error::new(
                v.span(),
                format!("duplicate enum variant id {id}: already used by `{prev}`"),
            ));
        }
        let ident = &v.ident;
        arms_write.push(quote! { #name::#ident => #id, });
        arms_read.push(quote! { #id => #name::#ident, });
    }
    let registration = crate::structs::registration(&type_attrs);
    let first = data.variants.first().map(|v| &v.ident);
    let missing = match first {
        Some(v) => quote! { ::std::option::Option::Some(#name::#v) },
        None => quote! { ::std::option::Option::None },
    };
    Ok(quote! {
        const _: () = {
            impl ::fury::WireType for #name {
                const TYPE_ID: ::fury::TypeId = ::fury::TypeId::Enum;
            }

            impl ::fury::Serialize for #name {
                #[inline]
                fn write_static_type_info(ctx: &mut ::fury::__private::WriteContext) -> ::fury::Result<()> {
                    ::fury::__private::write_user_type_info::<Self>(ctx)
                }

                #[inline]
                fn write_type_info(&self, ctx: &mut ::fury::__private::WriteContext) -> ::fury::Result<()> {
                    ::fury::__private::write_user_type_info::<Self>(ctx)
                }

                #[inline]
                fn write_data(&self, ctx: &mut ::fury::__private::WriteContext) -> ::fury::Result<()> {
                    let id: u32 = match self { #(#arms_write)* };
                    ctx.writer.var_u32(id);
                    ::std::result::Result::Ok(())
                }


            }

            impl<'de> ::fury::Deserialize<'de> for #name {
                #[inline]
                fn read_type_info_rest(ctx: &mut ::fury::__private::ReadContext<'de, '_>, id: ::fury::TypeId) -> ::fury::Result<()> {
                    ::fury::__private::read_user_type_info::<Self>(ctx, id)
                }

                #[inline]
                fn read_typed(ctx: &mut ::fury::__private::ReadContext<'de, '_>, id: ::fury::TypeId) -> ::fury::Result<Self> {
                    ::fury::__private::check_user_kind::<Self>(ctx, id)?;
                    <Self as ::fury::Deserialize<'de>>::read_data(ctx)
                }

                fn missing() -> ::std::option::Option<Self> {
                    #missing
                }

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

            impl ::fury::FuryObject for #name {
                const KIND: ::fury::UserKind = ::fury::UserKind::Enum;

                fn registration() -> ::std::option::Option<::fury::Registration> {
                    #registration
                }

                #[inline]
                fn type_slot() -> &'static ::fury::__private::TypeSlot {
                    static SLOT: ::fury::__private::TypeSlot = ::fury::__private::TypeSlot::new();
                    &SLOT
                }
            }
        };
    })
}
