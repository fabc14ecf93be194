//! Code generation for structs with named fields (same-schema layout).

use crate::attrs::{self, TypeAttrs};
use crate::fields::{wire_order, Codec, Field};
use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;

pub fn derive(input: &syn::DeriveInput, data: &syn::DataStruct) -> syn::Result<TokenStream> {
    let name = &input.ident;
    let type_attrs = attrs::type_attrs(&input.attrs)?;
    let named = match &data.fields {
        syn::Fields::Named(n) => n,
        syn::Fields::Unnamed(u) => {
            return Err(syn::Error::new(
                u.span(),
                "#[derive(FuryObject)] supports structs with named fields; tuple structs are not supported",
            ))
        }
        syn::Fields::Unit => {
            return Err(syn::Error::new(
                input.ident.span(),
                "#[derive(FuryObject)] supports structs with named fields; use `struct Name {}` for an empty struct",
            ))
        }
    };

    let mut fields = Vec::new();
    let mut skipped = Vec::new();
    let mut tags = std::collections::HashMap::new();
    for f in &named.named {
        let Some(ident) = f.ident.clone() else {
            continue;
        };
        let fa = attrs::field_attrs(&f.attrs)?;
        if fa.skip {
            skipped.push(ident);
            continue;
        }
        if let Some(tag) = fa.tag {
            if let Some(prev) = tags.insert(tag, ident.to_string()) {
                return Err(syn::Error::new(
                    f.span(),
                    format!("duplicate field id {tag}: already used by field `{prev}`"),
                ));
            }
        }
        fields.push(Field::new(ident, f.ty.clone(), &fa)?);
    }
    let mut seen = std::collections::HashMap::new();
    for f in &fields {
        if f.tag.is_none() {
            if let Some(prev) = seen.insert(f.snake.clone(), f.ident.to_string()) {
                return Err(syn::Error::new(
                    f.ident.span(),
                    format!(
                        "fields `{prev}` and `{}` have the same wire name `{}`",
                        f.ident, f.snake
                    ),
                ));
            }
        }
    }

    let checks = fields.iter().map(type_check);
    let order_c = wire_order(&fields, true);
    let order_f = wire_order(&fields, false);
    let body_c = write_body(&fields, &order_c, true);
    let body_f = write_body(&fields, &order_f, false);
    let read_c = order_c.iter().map(|&i| read_field(&fields[i], true));
    let read_f = order_f.iter().map(|&i| read_field(&fields[i], false));
    let fingerprint_c = fingerprint(&fields, true);
    let fingerprint_f = fingerprint(&fields, false);
    let idents: Vec<_> = fields.iter().map(|f| &f.ident).collect();
    let registration = registration(&type_attrs);
    let field_tys: Vec<_> = fields.iter().map(|f| &f.ty).collect();
    let type_name = name.to_string();
    // The evolved read: one slot per field, numbered by its position in the wire order for
    // compress_int = true (the numbering of the plan).
    let slots: Vec<_> = order_c
        .iter()
        .map(|&i| format_ident!("__fury_slot_{}", fields[i].ident))
        .collect();
    let slot_tys: Vec<_> = order_c
        .iter()
        .map(|&i| codec_type(&fields[i], true))
        .collect();
    let positions: Vec<_> = (0..order_c.len()).collect();
    let slot_idents: Vec<_> = order_c.iter().map(|&i| &fields[i].ident).collect();
    let slot_names: Vec<_> = order_c
        .iter()
        .map(|&i| fields[i].wire_name.clone())
        .collect();
    let slot_unwraps: Vec<_> = order_c
        .iter()
        .map(|&i| unwrap_codec(&fields[i], true))
        .collect();
    let typedef_c = order_c.iter().map(|&i| typedef_field(&fields[i], true));
    let typedef_f = order_f.iter().map(|&i| typedef_field(&fields[i], false));

    Ok(quote! {
        const _: () = {
            #(#checks)*

            fn __fury_fingerprint(compress_int: bool) -> ::std::string::String {
                let mut out = ::std::string::String::new();
                if compress_int { #fingerprint_c } else { #fingerprint_f }
                out
            }

            static __FURY_HASH: ::fury::__private::SchemaHash =
                ::fury::__private::SchemaHash::new();

            impl ::fury::WireType for #name {
                const TYPE_ID: ::fury::TypeId = ::fury::TypeId::Struct;
                const POLYMORPHIC: bool = true;
                const REF_TYPE: bool = true;

                #[inline]
                fn needs_type_info(registry: &::fury::Registry) -> bool {
                    registry.is_named::<Self>()
                }

                fn field_type(registry: &::fury::Registry, compatible: bool) -> ::fury::__private::FieldType {
                    ::fury::__private::FieldType::leaf(
                        ::fury::__private::struct_kind::<Self>(registry, compatible),
                    )
                }
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
                fn write_stream(&self, ctx: &mut ::fury::__private::WriteContext) -> ::fury::Result<()> {
                    if ::fury::__private::write_stream_prefix::<Self>(ctx)? {
                        <Self as ::fury::Serialize>::write_data(self, ctx)
                    } else {
                        ::fury::__private::write_stream(self, ctx)
                    }
                }

                fn write_data(&self, ctx: &mut ::fury::__private::WriteContext) -> ::fury::Result<()> {
                    ctx.enter()?;
                    let (compress_int, hash) = __fury_write_setup(ctx);
                    __fury_write_body(self, ctx, compress_int, hash)?;
                    ctx.leave();
                    ::std::result::Result::Ok(())
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
                    // The set-up of `write_data`, once for the whole run.
                    ctx.enter()?;
                    let (compress_int, hash) = __fury_write_setup(ctx);
                    for item in items {
                        __fury_write_body(item, ctx, compress_int, hash)?;
                    }
                    ctx.leave();
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

                fn read_data(ctx: &mut ::fury::__private::ReadContext<'de, '_>) -> ::fury::Result<Self> {
                    __fury_read_data(ctx)
                }

                #[inline(always)]
                fn read_root(ctx: &mut ::fury::__private::ReadContext<'de, '_>) -> ::fury::Result<Self> {
                    if ctx.reader.take_if(::fury::RefFlag::NotNull.byte()) {
                        if ::fury::__private::take_local_typedef_info::<Self>(ctx)? {
                            // Our own TypeDef: the body follows the local schema.
                            ctx.enter()?;
                            let value = __fury_read_local(ctx, ctx.compress_int())?;
                            ctx.leave();
                            return ::std::result::Result::Ok(value);
                        }
                        if !::fury::__private::take_id_info::<Self>(ctx) {
                            let id = ::fury::__private::read_type_info::<Self>(ctx)?;
                            ::fury::__private::check_user_kind::<Self>(ctx, id)?;
                        }
                        __fury_read_data(ctx)
                    } else {
                        ::fury::__private::read_with_flag(ctx)
                    }
                }

                fn read_run(
                    ctx: &mut ::fury::__private::ReadContext<'de, '_>,
                    id: ::std::option::Option<::fury::TypeId>,
                    n: usize,
                    out: &mut ::std::vec::Vec<Self>,
                ) -> ::fury::Result<()> {
                    // The set-up of `read_typed`/`read_data`, once for the whole run: every
                    // element follows the one type info (and TypeDef) read before the run.
                    if let ::std::option::Option::Some(id) = id {
                        ::fury::__private::check_user_kind::<Self>(ctx, id)?;
                    }
                    ctx.enter()?;
                    let compress_int = ctx.compress_int();
                    if ctx.compatible() {
                        match ::fury::__private::plan_for::<Self>(ctx, compress_int)? {
                            ::std::option::Option::None => {
                                for _ in 0..n {
                                    out.push(__fury_read_local(ctx, compress_int)?);
                                }
                            }
                            ::std::option::Option::Some(plan) => {
                                for _ in 0..n {
                                    out.push(__fury_read_plan(ctx, &plan)?);
                                }
                            }
                        }
                    } else {
                        let hash = __FURY_HASH.get(compress_int, __fury_fingerprint);
                        for _ in 0..n {
                            ::fury::__private::check_schema_hash::<Self>(ctx, hash)?;
                            out.push(__fury_read_local(ctx, compress_int)?);
                        }
                    }
                    ctx.leave();
                    ::std::result::Result::Ok(())
                }

                fn missing() -> ::std::option::Option<Self> {
                    ::std::option::Option::Some(#name {
                        #(#idents: <#field_tys as ::fury::Deserialize<'_>>::missing()?,)*
                        #(#skipped: ::std::default::Default::default(),)*
                    })
                }
            }

            /// What every body written in this call shares: the integer encoding, and the
            /// schema hash that same-schema mode puts first (compatible mode shares a TypeDef
            /// in the type info instead).
            #[inline(always)]
            fn __fury_write_setup(
                ctx: &::fury::__private::WriteContext,
            ) -> (bool, ::std::option::Option<i32>) {
                let compress_int = ctx.compress_int();
                let hash = if ctx.compatible() {
                    ::std::option::Option::None
                } else {
                    ::std::option::Option::Some(__FURY_HASH.get(compress_int, __fury_fingerprint))
                };
                (compress_int, hash)
            }

            /// One struct body: the hash (if any) and the fields in wire order.
            #[inline(always)]
            fn __fury_write_body(
                this: &#name,
                ctx: &mut ::fury::__private::WriteContext,
                compress_int: bool,
                hash: ::std::option::Option<i32>,
            ) -> ::fury::Result<()> {
                if compress_int {
                    #body_c
                } else {
                    #body_f
                }
                ::std::result::Result::Ok(())
            }

            /// The payload of a value (`read_data`), inlined where the value is wanted.
            #[inline(always)]
            fn __fury_read_data<'de>(ctx: &mut ::fury::__private::ReadContext<'de, '_>) -> ::fury::Result<#name> {
                ctx.enter()?;
                let compress_int = ctx.compress_int();
                let value = if ctx.compatible() {
                    match ::fury::__private::plan_for::<#name>(ctx, compress_int)? {
                        ::std::option::Option::None => __fury_read_local(ctx, compress_int)?,
                        ::std::option::Option::Some(plan) => __fury_read_plan(ctx, &plan)?,
                    }
                } else {
                    let hash = __FURY_HASH.get(compress_int, __fury_fingerprint);
                    ::fury::__private::check_schema_hash::<#name>(ctx, hash)?;
                    __fury_read_local(ctx, compress_int)?
                };
                ctx.leave();
                ::std::result::Result::Ok(value)
            }

            /// The fields in the local wire order.
            #[inline(always)]
            fn __fury_read_local<'de>(
                ctx: &mut ::fury::__private::ReadContext<'de, '_>,
                compress_int: bool,
            ) -> ::fury::Result<#name> {
                // One struct literal per integer encoding, its fields read in wire order
                // right into it: no locals or tuple between the reads and the value, which
                // would be more moves of large values (memcpy calls).
                if compress_int {
                    ::std::result::Result::Ok(#name {
                        #(#read_c,)*
                        #(#skipped: ::std::default::Default::default(),)*
                    })
                } else {
                    ::std::result::Result::Ok(#name {
                        #(#read_f,)*
                        #(#skipped: ::std::default::Default::default(),)*
                    })
                }
            }

            /// The fields of a peer's TypeDef, matched to the local ones by `plan`.
            fn __fury_read_plan<'de>(
                ctx: &mut ::fury::__private::ReadContext<'de, '_>,
                plan: &::fury::__private::ReadPlan,
            ) -> ::fury::Result<#name> {
                #(let mut #slots: ::std::option::Option<#slot_tys> = ::std::option::Option::None;)*
                for step in plan.steps.iter() {
                    match step.local {
                        #(::std::option::Option::Some(#positions) => {
                            #slots = ::std::option::Option::Some(
                                ::fury::__private::read_evolved::<#slot_tys>(ctx, &step.field_type)?,
                            );
                        })*
                        _ => ::fury::__private::skip_field(ctx, &step.field_type)?,
                    }
                }
                ::std::result::Result::Ok(#name {
                    #(#slot_idents: ::fury::__private::missing_field::<#slot_tys>(#slots, #slot_names, #type_name)? #slot_unwraps,)*
                    #(#skipped: ::std::default::Default::default(),)*
                })
            }

            impl ::fury::FuryObject for #name {
                const KIND: ::fury::UserKind = ::fury::UserKind::Struct;

                fn registration() -> ::std::option::Option<::fury::Registration> {
                    #registration
                }

                #[inline]
                fn type_slot() -> &'static ::fury::__private::TypeSlot {
                    static SLOT: ::fury::__private::TypeSlot = ::fury::__private::TypeSlot::new();
                    &SLOT
                }

                fn typedef_fields(
                    registry: &::fury::Registry,
                    compress_int: bool,
                ) -> ::std::vec::Vec<::fury::__private::FieldInfo> {
                    if compress_int {
                        ::std::vec![#(#typedef_c),*]
                    } else {
                        ::std::vec![#(#typedef_f),*]
                    }
                }
            }
        };
    })
}

pub fn registration(a: &TypeAttrs) -> TokenStream {
    match (a.id, &a.name) {
        (Some(id), _) => quote! { ::std::option::Option::Some(::fury::Registration::Id(#id)) },
        (None, Some(type_name)) => {
            let namespace = a.namespace.clone().unwrap_or_default();
            quote! {
                ::std::option::Option::Some(::fury::Registration::Name {
                    namespace: ::std::string::String::from(#namespace),
                    type_name: ::std::string::String::from(#type_name),
                })
            }
        }
        (None, None) => quote! { ::std::option::Option::None },
    }
}

/// The type a field is written as, for the given `compress_int`.
fn codec_type(f: &Field, compress_int: bool) -> TokenStream {
    let inner = &f.inner;
    let wrapped = match f.codec(compress_int) {
        Codec::Plain => quote! { #inner },
        Codec::Fixed => quote! { ::fury::Fixed<#inner> },
        Codec::Tagged => quote! { ::fury::Tagged<#inner> },
    };
    if f.is_option {
        quote! { ::std::option::Option<#wrapped> }
    } else {
        wrapped
    }
}

fn write_field(f: &Field, compress_int: bool) -> TokenStream {
    let ident = &f.ident;
    let value = match (f.codec(compress_int), f.is_option) {
        (Codec::Plain, _) => quote! { &this.#ident },
        (Codec::Fixed, false) => quote! { &::fury::Fixed(this.#ident) },
        (Codec::Tagged, false) => quote! { &::fury::Tagged(this.#ident) },
        (Codec::Fixed, true) => quote! { &this.#ident.map(::fury::Fixed) },
        (Codec::Tagged, true) => quote! { &this.#ident.map(::fury::Tagged) },
    };
    if f.track_ref {
        quote! { ::fury::__private::write_ref_field(#value, ctx)?; }
    } else if f.flagged {
        quote! { ::fury::__private::write_flagged_field(#value, ctx)?; }
    } else {
        quote! { ::fury::__private::write_field(#value, ctx)?; }
    }
}

/// `.0` (or `.map(|v| v.0)`) to unwrap a field read through a `Fixed`/`Tagged` codec.
fn unwrap_codec(f: &Field, compress_int: bool) -> TokenStream {
    match (f.codec(compress_int), f.is_option) {
        (Codec::Plain, _) => quote! {},
        (_, false) => quote! { .0 },
        (_, true) => quote! { .map(|v| v.0) },
    }
}

/// The TypeDef field info of a field.
fn typedef_field(f: &Field, compress_int: bool) -> TokenStream {
    let ty = codec_type(f, compress_int);
    let nullable = f.nullable();
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
            let mut t = <#ty as ::fury::WireType>::field_type(registry, true);
            t.nullable = #nullable;
            // pyfory marks a ref field's nested element types with the field's ref bit too.
            ::fury::__private::FieldType::set_track_ref_deep(
                &mut t,
                #track_ref && registry.ref_tracking(),
            );
            ::fury::__private::FieldInfo { id: #id, field_type: t }
        }
    }
}

/// A field initialiser `ident: <read>`, for a struct literal that lists the fields in wire
/// order (initialisers run in the order they are written).
fn read_field(f: &Field, compress_int: bool) -> TokenStream {
    let ty = codec_type(f, compress_int);
    let wire_name = &f.wire_name;
    let call = if f.track_ref {
        quote! { ::fury::__private::read_ref_field::<#ty>(ctx) }
    } else if f.flagged {
        quote! { ::fury::__private::read_flagged_field::<#ty>(ctx, #wire_name) }
    } else {
        quote! { ::fury::__private::read_field::<#ty>(ctx) }
    };
    let unwrap = unwrap_codec(f, compress_int);
    let ident = &f.ident;
    // A `match` rather than `?`: `?` goes through `ControlFlow`, one more move of the value
    // that the optimiser does not always remove for large structs.
    quote! {
        #ident: match #call {
            ::std::result::Result::Ok(v) => v,
            ::std::result::Result::Err(e) => return ::std::result::Result::Err(e),
        } #unwrap
    }
}

/// One struct body for one integer encoding: the hash (when `hash` is `Some`) and the fields
/// in wire order. Runs of fields that can be written into a reserved [`fury::buffer::Room`]
/// (primitive scalars and their `Option`s, then at most one string or `Option<String>`)
/// share one room: one capacity check for the run, sized from constants and the length of
/// its string. The first room also holds the hash. Other fields are written one by one
/// between the rooms.
fn write_body(fields: &[Field], order: &[usize], compress_int: bool) -> TokenStream {
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
        // is worth less than the budget arithmetic of a second one (measured on
        // CustomerList, 11 strings: 12% slower with all in one room).
        let write = room_write(&fields[i], compress_int).filter(|(_, _, len)| {
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
                out.push(write_field(&fields[i], compress_int));
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
fn room_write(f: &Field, compress_int: bool) -> Option<(TokenStream, usize, Option<TokenStream>)> {
    if f.track_ref || f.flagged {
        return None;
    }
    let ident = &f.ident;
    if f.is_string {
        // `String::as_str` only accepts a std `String`: another type named `String` fails
        // to compile here instead of being written as a string.
        let len = if f.is_option {
            quote! { this.#ident.as_ref().map_or(0, ::std::string::String::len) }
        } else {
            quote! { ::std::string::String::len(&this.#ident) }
        };
        let write = if f.is_option {
            quote! {
                match &this.#ident {
                    ::std::option::Option::Some(s) => {
                        room.u8(::fury::RefFlag::NotNull.byte());
                        ::fury::__private::room_str(&mut room, ::std::string::String::as_str(s));
                    }
                    ::std::option::Option::None => {
                        room.u8(::fury::RefFlag::Null.byte());
                        room.spend(9);
                    }
                }
            }
        } else {
            quote! {
                ::fury::__private::room_str(&mut room, ::std::string::String::as_str(&this.#ident));
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
    let (method, budget) = match f.prim(compress_int)?.type_id {
        1 => ("bool", 1),
        2 => ("i8", 1),
        3 => ("i16", 2),
        4 => ("i32", 4),
        5 => ("var_i32", 5),
        6 => ("i64", 8),
        7 => ("var_i64", 9),
        8 => ("tagged_i64", 9),
        9 => ("u8", 1),
        10 => ("u16", 2),
        11 => ("u32", 4),
        12 => ("var_u32", 5),
        13 => ("u64", 8),
        14 => ("var_u64", 9),
        15 => ("tagged_u64", 9),
        19 => ("f32", 4),
        20 => ("f64", 8),
        _ => return None,
    };
    let m = format_ident!("{}", method);
    if f.is_option {
        Some((
            quote! {
                match this.#ident {
                    ::std::option::Option::Some(v) => {
                        room.u8(::fury::RefFlag::NotNull.byte());
                        room.#m(v);
                    }
                    ::std::option::Option::None => {
                        room.u8(::fury::RefFlag::Null.byte());
                        room.spend(#budget);
                    }
                }
            },
            budget + 1,
            None,
        ))
    } else {
        Some((quote! { room.#m(this.#ident); }, budget, None))
    }
}

fn fingerprint(fields: &[Field], compress_int: bool) -> TokenStream {
    let mut sorted: Vec<&Field> = fields.iter().collect();
    sorted.sort_by_key(|f| f.name_key());
    let parts = sorted.iter().map(|f| {
        let ty = codec_type(f, compress_int);
        let name = f.fingerprint_name();
        let nullable = f.nullable();
        let track_ref = f.track_ref;
        quote! {
            ::fury::__private::fingerprint_field::<#ty>(&mut out, #name, #track_ref, #nullable);
        }
    });
    quote! { #(#parts)* }
}

/// Compile-time checks that the derive classified each field's type as the trait impls do:
/// a type alias of a primitive would otherwise be ordered as a non-primitive.
fn type_check(f: &Field) -> TokenStream {
    let ty = codec_type(f, true);
    let span = f.ty.span();
    let name = f.ident.to_string();
    match f.prim(true) {
        Some(p) => {
            let id = p.type_id;
            let msg = format!("fury: field `{name}` was classified as primitive type id {id}, but its Serialize impl says otherwise");
            quote_spanned! {span=>
                const _: () = ::std::assert!(<#ty as ::fury::WireType>::TYPE_ID as u8 == #id, #msg);
            }
        }
        None => {
            let msg = format!(
                "fury: field `{name}` has a primitive wire type hidden behind another name (a type alias?); \
                 write the primitive type (i32, Option<f64>, ...) directly so the field order is right"
            );
            quote_spanned! {span=>
                const _: () = ::std::assert!(!<#ty as ::fury::WireType>::TYPE_ID.is_primitive(), #msg);
            }
        }
    }
}
