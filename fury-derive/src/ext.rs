//! Code generation for `#[fury(ext)]` types: the payload is whatever the type's own
//! `fury::Ext` impl writes, after the EXT / NAMED_EXT type info of its registration.

use crate::ast::Container;
use proc_macro2::TokenStream;
use quote::quote;

pub fn derive(cont: &Container) -> TokenStream {
    let name = cont.ident;
    let (impl_generics, ty_generics, where_clause) = cont.generics.split_for_impl();
    let de_impl_generics = crate::structs::de_impl_generics(cont.generics);
    let user_type = crate::structs::user_type(
        cont,
        &crate::structs::names(cont, crate::bound::own_where(cont.generics)),
        quote! { ::fury::__private::UserKind::Ext },
        quote! {},
    );
    let (type_info_write, type_info_read) = crate::structs::user_type_info_methods();
    quote! {
        const _: () = {
            impl #impl_generics ::fury::WireType for #name #ty_generics #where_clause {
                const TYPE_ID: ::fury::__private::TypeId = ::fury::__private::TypeId::Ext;
                // As pyfory: list elements carry the type info, and so do fields in
                // compatible mode, as for structs.
                const POLYMORPHIC: bool = true;

                #[inline]
                fn reach(reach: &mut ::fury::__private::Reach<'_>) -> ::fury::Result<()> {
                    reach.user::<Self>()
                }
            }

            impl #impl_generics ::fury::Serialize for #name #ty_generics #where_clause {
                #type_info_write

                fn write_data(&self, ctx: &mut ::fury::__private::WriteContext) -> ::fury::Result<()> {
                    ::fury::__private::write_ext(self, ctx)
                }
            }

            impl #de_impl_generics ::fury::Deserialize<'de> for #name #ty_generics #where_clause {
                #type_info_read

                #[inline]
                fn read_typed(ctx: &mut ::fury::__private::ReadContext<'de, '_>, id: ::fury::__private::TypeId) -> ::fury::Result<Self> {
                    ::fury::__private::check_user_kind::<Self>(ctx, id)?;
                    <Self as ::fury::Deserialize<'de>>::read_data(ctx)
                }

                fn read_data(ctx: &mut ::fury::__private::ReadContext<'de, '_>) -> ::fury::Result<Self> {
                    ::fury::__private::read_ext(ctx)
                }
            }

            #user_type
        };
    }
}
