//! Code generation for structs: named, tuple and unit structs, and `transparent` newtypes.
//!
//! Each body is generated twice over: with the field order that the spelling of the field
//! types implies built in (rooms for runs of primitives, one struct literal read in wire
//! order), and in a general form that follows the order computed from the types' metadata.
//! A constant chooses between them, so the compiler keeps one.

use crate::ast::{Container, Field, Style};
use crate::attr::DefaultValue;
use crate::ctxt::Ctxt;
use crate::fields::{guessed_order, rank, Codec, Plan};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

/// The names every generated impl uses.
pub struct Names<'a> {
    name: &'a syn::Ident,
    impl_generics: syn::ImplGenerics<'a>,
    ty_generics: syn::TypeGenerics<'a>,
    where_clause: syn::WhereClause,
    /// `<'de, ...>` for the `Deserialize<'de>` impl.
    de_impl_generics: TokenStream,
}

pub fn derive(cx: &Ctxt, cont: &Container, style: Style, fields: &[Field]) -> TokenStream {
    let lifetimes: Vec<&syn::Lifetime> = cont.generics.lifetimes().map(|l| &l.lifetime).collect();
    let mut plans: Vec<Plan> = fields
        .iter()
        .filter(|f| !f.attrs.skip.is_set())
        .enumerate()
        .map(|(i, f)| {
            Plan::new(
                f,
                i,
                &lifetimes,
                cont.attrs.rename_all.get().copied(),
                cont.attrs.form.is_set(),
            )
        })
        .collect();
    rank(&mut plans);
    let mut seen = std::collections::HashMap::new();
    for p in plans.iter().filter(|p| p.tag.is_none()) {
        if let Some(prev) = seen.insert(p.snake.clone(), p.wire_name.clone()) {
            cx.error_spanned_by(
                p.ty,
                format!(
                    "fields `{prev}` and `{}` have the same wire name `{}`",
                    p.wire_name, p.snake
                ),
            );
        }
    }
    let skipped: Vec<syn::Member> = fields
        .iter()
        .filter(|f| f.attrs.skip.is_set())
        .map(|f| f.member.clone())
        .collect();
    let names = names(cont, crate::bound::where_clause(cont, &plans));
    if cont.attrs.transparent.is_set() {
        return match plans.first() {
            Some(p) => transparent(&names, p, &skipped),
            None => TokenStream::new(),
        };
    }
    let _ = style;
    object(cont, &names, &plans, &skipped)
}

fn object(cont: &Container, n: &Names, plans: &[Plan], skipped: &[syn::Member]) -> TokenStream {
    let Names {
        name,
        impl_generics,
        ty_generics,
        where_clause,
        de_impl_generics,
    } = n;
    let generic = !cont.generics.params.is_empty();
    let count = plans.len();
    let keys_c = plans.iter().map(|p| field_key(p, true));
    let keys_f = plans.iter().map(|p| field_key(p, false));
    let order_c = guessed_order(plans, true);
    let order_f = guessed_order(plans, false);
    let body_c = write_body(plans, &order_c, true);
    let body_f = write_body(plans, &order_f, false);
    let general_write = general_write(plans, &quote! { Self });
    let read_c: Vec<_> = order_c
        .iter()
        .map(|&i| read_init(&plans[i], true))
        .collect();
    let read_f: Vec<_> = order_f
        .iter()
        .map(|&i| read_init(&plans[i], false))
        .collect();
    let general_read = general_read(plans, skipped);
    let layout_name = quote! { <Self as ::fury::__private::StructLayout> };
    // The direct writer: every field a plain number written into one room.
    let direct_writes =
        |order: &[usize], compress_int: bool| -> Option<(Vec<TokenStream>, usize)> {
            let mut writes = Vec::new();
            let mut budget = 0;
            for &i in order {
                let (w, b, len) = room_write(&plans[i], compress_int)?;
                if len.is_some() || plans[i].is_string {
                    return None;
                }
                writes.push(w);
                budget += b;
            }
            Some((writes, budget))
        };
    let (write_direct_max, write_direct_body) = match (
        direct_writes(&order_c, true),
        direct_writes(&order_f, false),
    ) {
        (Some((wc, bc)), Some((wf, bf))) if !plans.is_empty() => {
            // 4 for the hash or type info, 8 of slack for whole-word varint stores.
            let max = 4 + 8 + bc.max(bf);
            (
                quote! { if #layout_name::AS_SPELLED { #max } else { 0 } },
                quote! {
                    let this = self;
                    if compress_int { #(#wc)* } else { #(#wf)* }
                },
            )
        }
        _ => (quote! { 0 }, quote! { let _ = (room, compress_int); }),
    };
    // Whether each field is a struct (or an optional one).
    let nested: Vec<_> = plans
        .iter()
        .map(|p| {
            let ty = codec_type(p, true);
            quote! { (<#ty as ::fury::WireType>::TYPE_ID as u8 == ::fury::__private::TypeId::Struct as u8) }
        })
        .collect();
    // Fields with a conversion, a flag of their own or reference tracking are read on the
    // general path only.
    let direct_fields = plans
        .iter()
        .all(|p| p.with.is_none() && p.borrow.is_none() && !p.flagged && !p.track_ref);
    let direct_c: Vec<_> = order_c
        .iter()
        .map(|&i| direct_init(&plans[i], true))
        .collect();
    let direct_f: Vec<_> = order_f
        .iter()
        .map(|&i| direct_init(&plans[i], false))
        .collect();
    let direct_tys: Vec<_> = plans
        .iter()
        .flat_map(|p| [codec_type(p, true), codec_type(p, false)])
        .collect();
    let (direct_const, direct_body) = if direct_fields {
        (
            quote! {
                <Self as ::fury::__private::StructLayout>::AS_SPELLED
                    #(&& <#direct_tys as ::fury::Deserialize<'de>>::DIRECT)*
            },
            quote! {
                if compress_int {
                    ::std::option::Option::Some(Self {
                        #(#direct_c,)*
                        #(#skipped: ::std::default::Default::default(),)*
                    })
                } else {
                    ::std::option::Option::Some(Self {
                        #(#direct_f,)*
                        #(#skipped: ::std::default::Default::default(),)*
                    })
                }
            },
        )
    } else {
        (
            quote! { false },
            quote! {
                let _ = (r, ctx, compress_int);
                ::std::option::Option::None
            },
        )
    };
    // `with` fields are written from a temporary: nothing in them can be lent.
    let visits = plans.iter().filter(|p| p.with.is_none()).map(|p| {
        let m = &p.member;
        quote! { ::fury::Serialize::visit_buffers(&self.#m, out); }
    });
    let visit_buffers = quote! { let _ = &out; #(#visits)* };
    let (type_info_write, type_info_read) = user_type_info_methods();
    let read_plan = read_plan(plans, skipped, &name.to_string());
    let fingerprint_c = fingerprint(plans, true);
    let fingerprint_f = fingerprint(plans, false);
    let typedef_infos = plans.iter().map(typedef_info);
    let stand_ins = plans.iter().map(|p| {
        let m = &p.member;
        let ty = codec_type(p, true);
        let v = quote! { <#ty as ::fury::Deserialize<'_>>::stand_in()? };
        let v = match &p.with {
            Some(with) => quote! { #with::from_wire(#v).ok()? },
            None => convert(p, true, v),
        };
        quote! { #m: #v }
    });
    let missing_fns = missing_fns(
        cont,
        quote! {
            ::std::option::Option::Some(Self {
                #(#stand_ins,)*
                #(#skipped: ::std::default::Default::default(),)*
            })
        },
        false,
    );
    let (hash_static, hash_get) = if generic {
        (
            quote! {},
            quote! { ::fury::__private::registry_schema_hash::<Self>(registry, compress_int, <Self as ::fury::__private::StructBody>::fingerprint) },
        )
    } else {
        (
            quote! {
                static __FURY_HASH: ::fury::__private::SchemaHash = ::fury::__private::SchemaHash::new();
            },
            quote! { __FURY_HASH.get(compress_int, <Self as ::fury::__private::StructBody>::fingerprint) },
        )
    };
    let layout = quote! { <Self as ::fury::__private::StructLayout> };
    let aliases = plans.iter().flat_map(|p| {
        let wire = &p.wire_name;
        p.aliases.iter().map(move |a| quote! { (#wire, #a) })
    });
    let reaches = plans.iter().map(|p| {
        let ty = codec_type(p, true);
        let name = &p.wire_name;
        quote! { reach.field(#name, <#ty as ::fury::WireType>::reach)?; }
    });
    let user_type = user_type(
        cont,
        n,
        quote! { ::fury::__private::UserKind::Struct },
        quote! {
            fn reach_fields(reach: &mut ::fury::__private::Reach<'_>) -> ::fury::Result<()> {
                #(#reaches)*
                ::std::result::Result::Ok(())
            }

            fn field_aliases() -> &'static [(&'static str, &'static str)] {
                &[#(#aliases),*]
            }

            fn typedef_fields(
                registry: &::fury::__private::Registry,
                compress_int: bool,
            ) -> ::std::vec::Vec<::fury::__private::FieldInfo> {
                let order = if compress_int { #layout::ORDER_C } else { #layout::ORDER_F };
                let mut all: [::std::option::Option<::fury::__private::FieldInfo>; #count] =
                    [#(::std::option::Option::Some(#typedef_infos)),*];
                order
                    .iter()
                    .filter_map(|&i| all.get_mut(i).and_then(::std::option::Option::take))
                    .collect()
            }
        },
    );

    quote! {
        const _: () = {
            #hash_static

            impl #impl_generics ::fury::__private::StructLayout for #name #ty_generics #where_clause {
                const ORDER_C: &'static [usize] = &::fury::__private::field_order::<#count>([#(#keys_c),*]);
                const ORDER_F: &'static [usize] = &::fury::__private::field_order::<#count>([#(#keys_f),*]);
                const AS_SPELLED: bool =
                    ::fury::__private::same_order(Self::ORDER_C, &[#(#order_c),*])
                    && ::fury::__private::same_order(Self::ORDER_F, &[#(#order_f),*]);
            }

            impl #impl_generics ::fury::__private::StructBody for #name #ty_generics #where_clause {
                fn fingerprint(compress_int: bool) -> ::std::string::String {
                    let mut out = ::std::string::String::new();
                    if compress_int { #fingerprint_c } else { #fingerprint_f }
                    out
                }

                #[inline(always)]
                fn schema_hash(registry: &::fury::__private::Registry, compress_int: bool) -> i32 {
                    let _ = registry;
                    #hash_get
                }

                #[inline(always)]
                fn write_body(
                    &self,
                    ctx: &mut ::fury::__private::WriteContext<'_>,
                    compress_int: bool,
                    hash: ::std::option::Option<i32>,
                ) -> ::fury::Result<()> {
                    let this = self;
                    if #layout::AS_SPELLED {
                        if compress_int {
                            #body_c
                        } else {
                            #body_f
                        }
                    } else {
                        #general_write
                    }
                    ::std::result::Result::Ok(())
                }

                #[inline(always)]
                fn write_direct_body(
                    &self,
                    room: &mut ::fury::__private::Room<'_, '_>,
                    compress_int: bool,
                ) {
                    #write_direct_body
                }
            }

            impl #de_impl_generics ::fury::__private::StructRead<'de> for #name #ty_generics #where_clause {
                // With the order built in: one struct literal per integer encoding, its
                // fields read in wire order right into it (no locals between the reads and
                // the value, which would be more moves of large values).
                #[inline(always)]
                fn read_local(
                    ctx: &mut ::fury::__private::ReadContext<'de, '_>,
                    compress_int: bool,
                ) -> ::fury::Result<Self> {
                    // Only a body with struct fields gains from the direct path: a flat one
                    // reads as fast on the general path.
                    if <Self as ::fury::Deserialize<'de>>::DIRECT && (false #(|| #nested)*) {
                        if let ::std::option::Option::Some(v) =
                            ::fury::__private::struct_body_direct::<Self>(ctx, compress_int)
                        {
                            return ::std::result::Result::Ok(v);
                        }
                    }
                    if #layout::AS_SPELLED {
                        if compress_int {
                            ::std::result::Result::Ok(Self {
                                #(#read_c,)*
                                #(#skipped: ::std::default::Default::default(),)*
                            })
                        } else {
                            ::std::result::Result::Ok(Self {
                                #(#read_f,)*
                                #(#skipped: ::std::default::Default::default(),)*
                            })
                        }
                    } else {
                        #general_read
                    }
                }

                fn read_plan(
                    ctx: &mut ::fury::__private::ReadContext<'de, '_>,
                    plan: &::fury::__private::ReadPlan,
                ) -> ::fury::Result<Self> {
                    #read_plan
                }

                #[inline(always)]
                fn read_direct_body(
                    r: &mut ::fury::__private::Reader<'de>,
                    ctx: &::fury::__private::ReadContext<'de, '_>,
                    compress_int: bool,
                ) -> ::std::option::Option<Self> {
                    #direct_body
                }
            }

            impl #impl_generics ::fury::WireType for #name #ty_generics #where_clause {
                const TYPE_ID: ::fury::__private::TypeId = ::fury::__private::TypeId::Struct;
                const POLYMORPHIC: bool = true;
                const REF_TYPE: bool = true;

                #[inline]
                fn reach(reach: &mut ::fury::__private::Reach<'_>) -> ::fury::Result<()> {
                    reach.user::<Self>()
                }

                #[inline]
                fn needs_type_info(registry: &::fury::__private::Registry) -> bool {
                    registry.is_named::<Self>()
                }

                fn field_type(registry: &::fury::__private::Registry, compatible: bool) -> ::fury::__private::FieldType {
                    ::fury::__private::FieldType::leaf(
                        ::fury::__private::struct_kind::<Self>(registry, compatible),
                    )
                }
            }

            impl #impl_generics ::fury::Serialize for #name #ty_generics #where_clause {
                #type_info_write

                fn visit_buffers<'v>(&'v self, out: &mut ::std::vec::Vec<&'v [u8]>) {
                    #visit_buffers
                }

                const DIRECT_MAX: usize = #write_direct_max;

                #[inline(always)]
                fn write_direct(&self, ctx: &mut ::fury::__private::WriteContext) -> bool {
                    ::fury::__private::struct_write_direct(self, ctx)
                }

                #[inline(always)]
                fn write_stream(&self, ctx: &mut ::fury::__private::WriteContext) -> ::fury::Result<()> {
                    ::fury::__private::struct_write_stream(self, ctx)
                }

                fn write_data(&self, ctx: &mut ::fury::__private::WriteContext) -> ::fury::Result<()> {
                    ::fury::__private::struct_write_data(self, ctx)
                }

                fn write_run<'b, I>(
                    items: I,
                    _declared: bool,
                    ctx: &mut ::fury::__private::WriteContext,
                ) -> ::fury::Result<()>
                where
                    Self: 'b,
                    I: ::std::iter::Iterator<Item = &'b Self>,
                {
                    ::fury::__private::struct_write_run(items, ctx)
                }
            }

            impl #de_impl_generics ::fury::Deserialize<'de> for #name #ty_generics #where_clause {
                #type_info_read

                #[inline]
                fn read_typed(ctx: &mut ::fury::__private::ReadContext<'de, '_>, id: ::fury::__private::TypeId) -> ::fury::Result<Self> {
                    ::fury::__private::struct_read_typed(ctx, id)
                }

                const DIRECT: bool = #direct_const;

                #[inline(always)]
                fn read_direct(
                    r: &mut ::fury::__private::Reader<'de>,
                    ctx: &::fury::__private::ReadContext<'de, '_>,
                ) -> ::std::option::Option<Self> {
                    ::fury::__private::struct_read_direct::<Self>(r, ctx)
                }

                fn read_data(ctx: &mut ::fury::__private::ReadContext<'de, '_>) -> ::fury::Result<Self> {
                    ::fury::__private::struct_read_data(ctx)
                }

                #[inline(always)]
                fn read_root(ctx: &mut ::fury::__private::ReadContext<'de, '_>) -> ::fury::Result<Self> {
                    ::fury::__private::struct_read_root(ctx)
                }

                fn read_run(
                    ctx: &mut ::fury::__private::ReadContext<'de, '_>,
                    id: ::std::option::Option<::fury::__private::TypeId>,
                    n: usize,
                    out: &mut ::std::vec::Vec<Self>,
                ) -> ::fury::Result<()> {
                    ::fury::__private::struct_read_run(ctx, id, n, out)
                }

                #missing_fns
            }

            #user_type
        };
    }
}

/// A `transparent` newtype: every trait delegates to its one field.
fn transparent(n: &Names, p: &Plan, skipped: &[syn::Member]) -> TokenStream {
    let Names {
        name,
        impl_generics,
        ty_generics,
        where_clause,
        de_impl_generics,
    } = n;
    let ty = p.ty;
    let m = &p.member;
    quote! {
        const _: () = {
            impl #impl_generics ::fury::WireType for #name #ty_generics #where_clause {
                const TYPE_ID: ::fury::__private::TypeId = <#ty as ::fury::WireType>::TYPE_ID;
                const NULLABLE: bool = <#ty as ::fury::WireType>::NULLABLE;
                const FIELD_NULLABLE: bool = <#ty as ::fury::WireType>::FIELD_NULLABLE;
                const REF_TYPE: bool = <#ty as ::fury::WireType>::REF_TYPE;
                const POLYMORPHIC: bool = <#ty as ::fury::WireType>::POLYMORPHIC;

                #[inline]
                fn needs_type_info(registry: &::fury::__private::Registry) -> bool {
                    <#ty as ::fury::WireType>::needs_type_info(registry)
                }

                fn field_type(registry: &::fury::__private::Registry, compatible: bool) -> ::fury::__private::FieldType {
                    <#ty as ::fury::WireType>::field_type(registry, compatible)
                }

                #[inline]
                fn reach(reach: &mut ::fury::__private::Reach<'_>) -> ::fury::Result<()> {
                    <#ty as ::fury::WireType>::reach(reach)
                }
            }

            impl #impl_generics ::fury::Serialize for #name #ty_generics #where_clause {
                #[inline]
                fn write_type_info(&self, ctx: &mut ::fury::__private::WriteContext) -> ::fury::Result<()> {
                    ::fury::Serialize::write_type_info(&self.#m, ctx)
                }

                #[inline]
                fn write_static_type_info(ctx: &mut ::fury::__private::WriteContext) -> ::fury::Result<()> {
                    <#ty as ::fury::Serialize>::write_static_type_info(ctx)
                }

                #[inline]
                fn write_data(&self, ctx: &mut ::fury::__private::WriteContext) -> ::fury::Result<()> {
                    ::fury::Serialize::write_data(&self.#m, ctx)
                }

                #[inline]
                fn write_declared(&self, ctx: &mut ::fury::__private::WriteContext) -> ::fury::Result<()> {
                    ::fury::Serialize::write_declared(&self.#m, ctx)
                }

                #[inline]
                fn is_null(&self) -> bool {
                    ::fury::Serialize::is_null(&self.#m)
                }

                #[inline]
                fn is_ref_type(&self) -> bool {
                    ::fury::Serialize::is_ref_type(&self.#m)
                }

                #[inline]
                fn write_ref_flag(&self, ctx: &mut ::fury::__private::WriteContext, track: bool) -> ::fury::Result<bool> {
                    ::fury::Serialize::write_ref_flag(&self.#m, ctx, track)
                }

                #[inline]
                fn visit_buffers<'v>(&'v self, out: &mut ::std::vec::Vec<&'v [u8]>) {
                    ::fury::Serialize::visit_buffers(&self.#m, out)
                }
            }

            impl #de_impl_generics ::fury::Deserialize<'de> for #name #ty_generics #where_clause {
                #[inline]
                fn read_type_info_rest(ctx: &mut ::fury::__private::ReadContext<'de, '_>, id: ::fury::__private::TypeId) -> ::fury::Result<()> {
                    <#ty as ::fury::Deserialize<'de>>::read_type_info_rest(ctx, id)
                }

                #[inline]
                fn read_typed(ctx: &mut ::fury::__private::ReadContext<'de, '_>, id: ::fury::__private::TypeId) -> ::fury::Result<Self> {
                    ::std::result::Result::Ok(Self {
                        #m: <#ty as ::fury::Deserialize<'de>>::read_typed(ctx, id)?,
                        #(#skipped: ::std::default::Default::default(),)*
                    })
                }

                #[inline]
                fn read_data(ctx: &mut ::fury::__private::ReadContext<'de, '_>) -> ::fury::Result<Self> {
                    ::std::result::Result::Ok(Self {
                        #m: <#ty as ::fury::Deserialize<'de>>::read_data(ctx)?,
                        #(#skipped: ::std::default::Default::default(),)*
                    })
                }

                #[inline]
                fn null() -> ::std::option::Option<Self> {
                    ::std::option::Option::Some(Self {
                        #m: <#ty as ::fury::Deserialize<'de>>::null()?,
                        #(#skipped: ::std::default::Default::default(),)*
                    })
                }

                #[inline]
                fn missing() -> ::std::option::Option<Self> {
                    ::std::option::Option::Some(Self {
                        #m: <#ty as ::fury::Deserialize<'de>>::missing()?,
                        #(#skipped: ::std::default::Default::default(),)*
                    })
                }

                #[inline]
                fn stand_in() -> ::std::option::Option<Self> {
                    ::std::option::Option::Some(Self {
                        #m: <#ty as ::fury::Deserialize<'de>>::stand_in()?,
                        #(#skipped: ::std::default::Default::default(),)*
                    })
                }
            }
        };
    }
}

/// The names of the generated impls of `cont`, with `where_clause`.
pub fn names<'a>(cont: &'a Container, where_clause: syn::WhereClause) -> Names<'a> {
    let (impl_generics, ty_generics, _) = cont.generics.split_for_impl();
    Names {
        name: cont.ident,
        impl_generics,
        ty_generics,
        where_clause,
        de_impl_generics: de_impl_generics(cont.generics),
    }
}

/// The impl generics of `generics` with `'de` first, for `impl<'de, ..> Deserialize<'de>`.
pub fn de_impl_generics(generics: &syn::Generics) -> TokenStream {
    let mut g = generics.clone();
    let lifetimes: Vec<&syn::Lifetime> = generics.lifetimes().map(|l| &l.lifetime).collect();
    let de: syn::LifetimeParam = if lifetimes.is_empty() {
        syn::parse_quote!('de)
    } else {
        syn::parse_quote!('de: #(#lifetimes)+*)
    };
    g.params.insert(0, syn::GenericParam::Lifetime(de));
    let (impl_generics, _, _) = g.split_for_impl();
    quote! { #impl_generics }
}

/// The `UserType` impl (the registry's view of the type) of a struct or enum: its kind, its
/// registration, its lookup hint, and `extra` items (a struct's TypeDef fields).
/// The type-info methods of an enum, union or extension type, which write and read the
/// kind byte and the registration of the type: (those of `Serialize`, those of
/// `Deserialize`).
pub fn user_type_info_methods() -> (TokenStream, TokenStream) {
    (
        quote! {
            #[inline]
            fn write_static_type_info(ctx: &mut ::fury::__private::WriteContext) -> ::fury::Result<()> {
                ::fury::__private::write_user_type_info::<Self>(ctx)
            }

            #[inline]
            fn write_type_info(&self, ctx: &mut ::fury::__private::WriteContext) -> ::fury::Result<()> {
                ::fury::__private::write_user_type_info::<Self>(ctx)
            }
        },
        quote! {
            #[inline]
            fn read_type_info_rest(ctx: &mut ::fury::__private::ReadContext<'de, '_>, id: ::fury::__private::TypeId) -> ::fury::Result<()> {
                ::fury::__private::read_user_type_info::<Self>(ctx, id)
            }
        },
    )
}

pub fn user_type(
    cont: &Container,
    n: &Names,
    kind: TokenStream,
    extra: TokenStream,
) -> TokenStream {
    let Names {
        name,
        impl_generics,
        ty_generics,
        where_clause,
        ..
    } = n;
    let registration = registration(cont);
    // The type with every lifetime 'static: the registry's key.
    let args = cont.generics.params.iter().map(|p| match p {
        syn::GenericParam::Lifetime(_) => quote! { 'static },
        syn::GenericParam::Type(t) => {
            let i = &t.ident;
            quote! { #i }
        }
        syn::GenericParam::Const(c) => {
            let i = &c.ident;
            quote! { #i }
        }
    });
    let statics = if cont.generics.params.is_empty() {
        quote! { Self }
    } else {
        quote! { #name<#(#args),*> }
    };
    // A type that owns its data can be read into a `Box<dyn AnyObject>` (one that borrows
    // from its input cannot be `'static`).
    let any_reader = if cont.generics.lifetimes().next().is_none() {
        quote! {
            #[inline]
            fn any_reader() -> ::std::option::Option<::fury::__private::AnyReaderSlot> {
                #[allow(unused_imports)]
                use ::fury::__private::{AnyLocalProbe as _, AnySendProbe as _};
                // Resolves to the `Send` reader only where `Self: Send + Sync` holds.
                let send = (&::fury::__private::AnyProbe::<Self>::new()).send_reader();
                ::fury::__private::any_reader::<Self>(send)
            }
        }
    } else {
        quote! {}
    };
    quote! {
        impl #impl_generics ::fury::__private::UserType for #name #ty_generics #where_clause {
            type Static = #statics;
            const KIND: ::fury::__private::UserKind = #kind;

            fn registration() -> ::std::option::Option<::fury::__private::Registration> {
                #registration
            }

            #[inline]
            fn type_slot() -> &'static ::fury::__private::TypeSlot {
                static SLOT: ::fury::__private::TypeSlot = ::fury::__private::TypeSlot::new();
                &SLOT
            }

            #any_reader

            #extra
        }
    }
}

pub fn registration(cont: &Container) -> TokenStream {
    let a = &cont.attrs;
    match (a.id.get(), a.name.get()) {
        (Some(id), _) => {
            quote! { ::std::option::Option::Some(::fury::__private::Registration::Id(#id)) }
        }
        (None, Some(type_name)) => {
            let namespace = a.namespace.get().cloned().unwrap_or_default();
            quote! {
                ::std::option::Option::Some(::fury::__private::Registration::Name {
                    namespace: ::std::string::String::from(#namespace),
                    type_name: ::std::string::String::from(#type_name),
                })
            }
        }
        (None, None) => quote! { ::std::option::Option::None },
    }
}

/// The type a field is written as, for the given `compress_int`.
fn codec_type(f: &Plan, compress_int: bool) -> TokenStream {
    if let Some(with) = &f.with {
        return quote! { #with::Wire };
    }
    let inner = &f.inner;
    let wrapped = match f.codec(compress_int) {
        _ if f.borrow.is_some() => {
            let b = &f.borrow;
            quote! { #b }
        }
        Codec::Plain => quote! { #inner },
        Codec::Fixed => quote! { ::fury::Fixed<#inner> },
        Codec::Tagged => quote! { ::fury::Tagged<#inner> },
        Codec::Fory => quote! { ::fury::ForyForm<#inner> },
    };
    if f.is_option {
        quote! { ::std::option::Option<#wrapped> }
    } else {
        wrapped
    }
}

/// Whether the field is nullable on the wire: from its type's metadata, or the attribute.
fn nullable(f: &Plan, compress_int: bool) -> TokenStream {
    let ty = codec_type(f, compress_int);
    let flagged = f.flagged;
    quote! { (<#ty as ::fury::WireType>::FIELD_NULLABLE || #flagged) }
}

/// The field's sort key, from its type's metadata.
fn field_key(f: &Plan, compress_int: bool) -> TokenStream {
    let ty = codec_type(f, compress_int);
    let nullable = nullable(f, compress_int);
    let rank = f.rank;
    quote! {
        ::fury::__private::FieldKey::new(<#ty as ::fury::WireType>::TYPE_ID, #nullable, #rank)
    }
}

/// A reference to the value written for the field, of its codec type.
fn write_value(f: &Plan, compress_int: bool) -> TokenStream {
    let v = f.access();
    if let Some(with) = &f.with {
        return quote! { &#with::to_wire(&#v) };
    }
    match (f.codec(compress_int), f.is_option) {
        (Codec::Plain, _) => quote! { &#v },
        (Codec::Fixed, false) => quote! { &::fury::Fixed(#v) },
        (Codec::Tagged, false) => quote! { &::fury::Tagged(#v) },
        (Codec::Fixed, true) => quote! { &#v.map(::fury::Fixed) },
        (Codec::Tagged, true) => quote! { &#v.map(::fury::Tagged) },
        (Codec::Fory, false) => quote! { &::fury::__private::ForyFormRef(&#v) },
        (Codec::Fory, true) => quote! { &#v.as_ref().map(::fury::__private::ForyFormRef) },
    }
}

fn write_field(f: &Plan, compress_int: bool) -> TokenStream {
    let value = write_value(f, compress_int);
    if f.track_ref {
        quote! { ::fury::__private::write_ref_field(#value, ctx)?; }
    } else if f.flagged {
        quote! { ::fury::__private::write_flagged_field(#value, ctx)?; }
    } else if f.untracked_elements {
        quote! { ::fury::__private::write_untracked_elements_field(#value, ctx)?; }
    } else {
        quote! { ::fury::__private::write_field(#value, ctx)?; }
    }
}

/// Turns `v`, a value of the field's codec type, into the field's value (or returns the
/// error of a `with` conversion).
fn convert(f: &Plan, compress_int: bool, v: TokenStream) -> TokenStream {
    if let Some(with) = &f.with {
        return quote! {
            match #with::from_wire(#v) {
                ::std::result::Result::Ok(x) => x,
                ::std::result::Result::Err(e) => return ::std::result::Result::Err(e),
            }
        };
    }
    match (f.codec(compress_int), f.is_option) {
        (Codec::Plain, _) if f.borrow.is_none() => v,
        (_, false) => quote! { #v.0 },
        (_, true) => quote! { #v.map(|x| x.0) },
    }
}

/// The expression reading the field's value (returning on an error).
fn read_value(f: &Plan, compress_int: bool) -> TokenStream {
    let ty = codec_type(f, compress_int);
    let wire_name = &f.wire_name;
    let call = if f.track_ref {
        quote! { ::fury::__private::read_ref_field::<#ty>(ctx) }
    } else if f.flagged {
        quote! { ::fury::__private::read_flagged_field::<#ty>(ctx, #wire_name) }
    } else {
        quote! { ::fury::__private::read_field::<#ty>(ctx) }
    };
    // A `match` rather than `?`: `?` goes through `ControlFlow`, one more move of the value
    // that the optimiser does not always remove for large structs.
    let got = quote! {
        match #call {
            ::std::result::Result::Ok(v) => v,
            ::std::result::Result::Err(e) => return ::std::result::Result::Err(e),
        }
    };
    convert(f, compress_int, got)
}

/// A field initialiser `member: <read>`, for a struct literal that lists the fields in wire
/// order (initialisers run in the order they are written).
fn read_init(f: &Plan, compress_int: bool) -> TokenStream {
    let m = &f.member;
    let v = read_value(f, compress_int);
    quote! { #m: #v }
}

/// A field initialiser `member: <read>` on the direct path (returning `None` when the
/// field is not as that path expects). Only emitted for structs without `with` or borrowed
/// fields, whose values the plain reader gives as they are.
fn direct_init(f: &Plan, compress_int: bool) -> TokenStream {
    let m = &f.member;
    let ty = codec_type(f, compress_int);
    let got = quote! {
        match ::fury::__private::read_field_direct::<#ty>(r, ctx) {
            ::std::option::Option::Some(v) => v,
            ::std::option::Option::None => return ::std::option::Option::None,
        }
    };
    let v = convert(f, compress_int, got);
    quote! { #m: #v }
}

fn slot(f: &Plan) -> syn::Ident {
    format_ident!("__fury_slot_{}", f.index)
}

/// The body writer that follows the order computed from the types' metadata.
pub fn general_write(plans: &[Plan], layout: &TokenStream) -> TokenStream {
    let arms = plans.iter().map(|f| {
        let i = f.index;
        let c = write_field(f, true);
        let u = write_field(f, false);
        quote! { #i => if compress_int { #c } else { #u }, }
    });
    quote! {
        if let ::std::option::Option::Some(h) = hash {
            ctx.writer.i32(h);
        }
        let order = if compress_int {
            <#layout as ::fury::__private::StructLayout>::ORDER_C
        } else {
            <#layout as ::fury::__private::StructLayout>::ORDER_F
        };
        for &i in order {
            match i {
                #(#arms)*
                _ => {}
            }
        }
    }
}

/// The body reader that follows the order computed from the types' metadata: each field
/// into a slot, then the value from the slots.
fn general_read(plans: &[Plan], skipped: &[syn::Member]) -> TokenStream {
    let slots: Vec<_> = plans.iter().map(slot).collect();
    let tys = plans.iter().map(|f| f.ty);
    let arms = plans.iter().map(|f| {
        let i = f.index;
        let s = slot(f);
        let c = read_value(f, true);
        let u = read_value(f, false);
        quote! { #i => #s = ::std::option::Option::Some(if compress_int { #c } else { #u }), }
    });
    let members = plans.iter().map(|f| &f.member);
    quote! {
        #(let mut #slots: ::std::option::Option<#tys> = ::std::option::Option::None;)*
        let order = if compress_int {
            <Self as ::fury::__private::StructLayout>::ORDER_C
        } else {
            <Self as ::fury::__private::StructLayout>::ORDER_F
        };
        for &i in order {
            match i {
                #(#arms)*
                _ => {}
            }
        }
        ::std::result::Result::Ok(Self {
            #(#members: match #slots {
                ::std::option::Option::Some(v) => v,
                ::std::option::Option::None => {
                    return ::std::result::Result::Err(::fury::__private::unordered_field::<Self>())
                }
            },)*
            #(#skipped: ::std::default::Default::default(),)*
        })
    }
}

/// The `missing` and `stand_in` methods of a derived struct, enum or union: a field of this
/// type that a peer lacks takes the type's `#[fury(default)]`, and nothing when it has none
/// (no value is invented); `stand_in` is the value a reference cell holds while a cycle
/// through it is read, overwritten before anyone sees it.
///
/// `first_variant`: a unit-only enum without a default takes its first variant, as pyfory
/// gives a missing enum field its first member.
pub fn missing_fns(cont: &Container, stand_in: TokenStream, first_variant: bool) -> TokenStream {
    let missing = match cont.attrs.default.get() {
        Some(DefaultValue::Trait) => {
            quote! { ::std::option::Option::Some(::std::default::Default::default()) }
        }
        Some(DefaultValue::Path(p)) => quote! { ::std::option::Option::Some(#p()) },
        None if first_variant => stand_in.clone(),
        None => quote! { ::std::option::Option::None },
    };
    quote! {
        fn missing() -> ::std::option::Option<Self> {
            #missing
        }

        fn stand_in() -> ::std::option::Option<Self> {
            #stand_in
        }
    }
}

/// The value of a field that the peer's TypeDef lacks: `#[fury(default)]`, or the type's
/// own `missing` value; `None` when there is none.
fn missing_value(f: &Plan) -> TokenStream {
    match f.default {
        Some(DefaultValue::Trait) => quote! { ::std::default::Default::default() },
        Some(DefaultValue::Path(p)) => quote! { #p() },
        None => {
            let ty = codec_type(f, true);
            let v = quote! { <#ty as ::fury::Deserialize<'_>>::missing()? };
            if let Some(with) = &f.with {
                quote! { #with::from_wire(#v).ok()? }
            } else {
                convert(f, true, v)
            }
        }
    }
}

/// The reader of a peer's fields by a read plan: slots of the codec types (compress_int on,
/// the numbering of the local TypeDef), then the value, missing fields defaulted.
fn read_plan(plans: &[Plan], skipped: &[syn::Member], type_name: &str) -> TokenStream {
    let slots: Vec<_> = plans.iter().map(slot).collect();
    let tys: Vec<_> = plans.iter().map(|f| codec_type(f, true)).collect();
    let arms = plans.iter().zip(&slots).zip(&tys).map(|((f, s), ty)| {
        let i = f.index;
        // A field with a default of its own takes it for a null too.
        let read = match f.default {
            Some(_) => quote! {
                ::fury::__private::read_evolved_or_null::<#ty>(ctx, &step.field_type)?
            },
            None => quote! {
                ::std::option::Option::Some(
                    ::fury::__private::read_evolved::<#ty>(ctx, &step.field_type)?,
                )
            },
        };
        quote! {
            ::std::option::Option::Some(#i) => {
                #s = #read;
            }
        }
    });
    let inits = plans.iter().zip(&slots).zip(&tys).map(|((f, s), ty)| {
        let m = &f.member;
        let name = &f.wire_name;
        let value = match f.default {
            Some(_) => {
                let d = missing_value(f);
                let got = convert(f, true, quote! { v });
                quote! {
                    match #s {
                        ::std::option::Option::Some(v) => #got,
                        ::std::option::Option::None => #d,
                    }
                }
            }
            None => convert(
                f,
                true,
                quote! { ::fury::__private::missing_field::<#ty>(ctx, #s, #name, #type_name)? },
            ),
        };
        quote! { #m: #value }
    });
    quote! {
        #(let mut #slots: ::std::option::Option<#tys> = ::std::option::Option::None;)*
        let local = <Self as ::fury::__private::StructLayout>::ORDER_C;
        for step in plan.steps.iter() {
            match step.local.and_then(|p| local.get(p).copied()) {
                #(#arms)*
                _ => ::fury::__private::skip_field(ctx, &step.field_type)?,
            }
        }
        ::std::result::Result::Ok(Self {
            #(#inits,)*
            #(#skipped: ::std::default::Default::default(),)*
        })
    }
}

/// The TypeDef field info of a field, for `compress_int` (a variable of the caller).
fn typedef_info(f: &Plan) -> TokenStream {
    let ty_c = codec_type(f, true);
    let ty_f = codec_type(f, false);
    let null_c = nullable(f, true);
    let null_f = nullable(f, false);
    let track_ref = f.track_ref;
    let id = match f.tag {
        Some(t) => quote! { ::fury::__private::FieldId::Tag(#t) },
        None => {
            let n = &f.wire_name;
            quote! { ::fury::__private::FieldId::Name(::std::string::String::from(#n)) }
        }
    };
    quote! {
        {
            let (mut t, nullable) = if compress_int {
                (<#ty_c as ::fury::WireType>::field_type(registry, true), #null_c)
            } else {
                (<#ty_f as ::fury::WireType>::field_type(registry, true), #null_f)
            };
            t.nullable = nullable;
            // pyfory marks a ref field's nested element types with the field's ref bit too.
            ::fury::__private::FieldType::set_track_ref_deep(
                &mut t,
                #track_ref && registry.ref_tracking(),
            );
            ::fury::__private::FieldInfo { id: #id, field_type: t }
        }
    }
}

/// One struct body for one integer encoding, with the guessed order built in: the hash (when
/// `hash` is `Some`) and the fields in wire order. Runs of fields that can be written into a
/// reserved `Room` (primitive scalars and their `Option`s, then at most one string or
/// `Option<String>`) share one room: one capacity check for the run, sized from constants
/// and the length of its string. The first room also holds the hash. Other fields are
/// written one by one between the rooms.
pub fn write_body(plans: &[Plan], order: &[usize], compress_int: bool) -> TokenStream {
    struct Run {
        writes: Vec<TokenStream>,
        budget: usize,
        lengths: Vec<TokenStream>,
    }
    let open = |first: bool| Run {
        writes: if first {
            vec![quote! {
                match hash {
                    ::std::option::Option::Some(h) => room.i32(h),
                    ::std::option::Option::None => room.spend(4),
                }
            }]
        } else {
            Vec::new()
        },
        // 8 bytes of slack for whole-word varint stores, and 4 for the hash.
        budget: if first { 4 + 8 } else { 8 },
        lengths: Vec::new(),
    };
    let close = |run: Run| {
        let Run {
            writes,
            budget,
            lengths,
        } = run;
        quote! {
            {
                let mut room = ctx.writer.room(#budget #(.saturating_add(#lengths))*);
                #(#writes)*
            }
        }
    };
    let mut out = Vec::new();
    let mut run = Some(open(true));
    for &i in order {
        // A string joins an open room only as its first string: the capacity check it saves
        // is worth less than the budget arithmetic of a second one.
        let write = room_write(&plans[i], compress_int).filter(|(_, _, len)| {
            len.is_none() || run.as_ref().is_some_and(|r| r.lengths.is_empty())
        });
        match write {
            Some((w, b, len)) => {
                let r = run.get_or_insert_with(|| open(false));
                r.writes.push(w);
                r.budget += b;
                r.lengths.extend(len);
            }
            None => {
                if let Some(r) = run.take() {
                    out.push(close(r));
                }
                out.push(write_field(&plans[i], compress_int));
            }
        }
    }
    if let Some(r) = run.take() {
        out.push(close(r));
    }
    quote! { #(#out)* }
}

/// The `Room` write of a field, the constant budget it takes and, for strings, the
/// expression of their length (which the budget needs too), if the field qualifies.
fn room_write(f: &Plan, compress_int: bool) -> Option<(TokenStream, usize, Option<TokenStream>)> {
    if f.track_ref || f.flagged || f.with.is_some() {
        return None;
    }
    let v = f.access();
    if f.is_string {
        // `String::as_str` only accepts a std `String`: another type named `String` fails
        // to compile here instead of being written as a string.
        let len = if f.is_option {
            quote! { #v.as_ref().map_or(0, ::std::string::String::len) }
        } else {
            quote! { ::std::string::String::len(&#v) }
        };
        let write = if f.is_option {
            quote! {
                match &#v {
                    ::std::option::Option::Some(s) => {
                        room.u8(::fury::__private::RefFlag::NotNull.byte());
                        ::fury::__private::room_str(&mut room, ::std::string::String::as_str(s));
                    }
                    ::std::option::Option::None => {
                        room.u8(::fury::__private::RefFlag::Null.byte());
                        room.spend(9);
                    }
                }
            }
        } else {
            quote! {
                ::fury::__private::room_str(&mut room, ::std::string::String::as_str(&#v));
            }
        };
        return Some((write, 9 + usize::from(f.is_option), Some(len)));
    }
    let scalar = f.scalar.as_deref()?;
    if !matches!(
        scalar,
        "bool" | "i8" | "i16" | "i32" | "i64" | "u8" | "u16" | "u32" | "u64" | "f32" | "f64"
    ) {
        return None;
    }
    let (method, budget) = match f.prim(compress_int)?.name {
        "BOOL" => ("bool", 1),
        "INT8" => ("i8", 1),
        "INT16" => ("i16", 2),
        "INT32" => ("i32", 4),
        "VARINT32" => ("var_i32", 5),
        "INT64" => ("i64", 8),
        "VARINT64" => ("var_i64", 9),
        "TAGGED_INT64" => ("tagged_i64", 9),
        "UINT8" => ("u8", 1),
        "UINT16" => ("u16", 2),
        "UINT32" => ("u32", 4),
        "VAR_UINT32" => ("var_u32", 5),
        "UINT64" => ("u64", 8),
        "VAR_UINT64" => ("var_u64", 9),
        "TAGGED_UINT64" => ("tagged_u64", 9),
        "FLOAT32" => ("f32", 4),
        "FLOAT64" => ("f64", 8),
        _ => return None,
    };
    let method = format_ident!("{}", method);
    if f.is_option {
        Some((
            quote! {
                match #v {
                    ::std::option::Option::Some(v) => {
                        room.u8(::fury::__private::RefFlag::NotNull.byte());
                        room.#method(v);
                    }
                    ::std::option::Option::None => {
                        room.u8(::fury::__private::RefFlag::Null.byte());
                        room.spend(#budget);
                    }
                }
            },
            budget + 1,
            None,
        ))
    } else {
        Some((quote! { room.#method(#v); }, budget, None))
    }
}

fn fingerprint(plans: &[Plan], compress_int: bool) -> TokenStream {
    let mut sorted: Vec<&Plan> = plans.iter().collect();
    sorted.sort_by_key(|f| f.name_key());
    let parts = sorted.iter().map(|f| {
        let ty = codec_type(f, compress_int);
        let name = f.fingerprint_name();
        let nullable = nullable(f, compress_int);
        let track_ref = f.track_ref;
        quote! {
            ::fury::__private::fingerprint_field::<#ty>(&mut out, #name, #track_ref, #nullable);
        }
    });
    quote! { #(#parts)* }
}
