//! The parsed model of the input: the container, its fields or variants, and their
//! attributes. Built once; the checks (`check.rs`) and the code generators read it.

use crate::attr::{ContainerAttrs, FieldAttrs, VariantAttrs};
use crate::ctxt::Ctxt;

pub struct Container<'a> {
    pub ident: &'a syn::Ident,
    pub generics: &'a syn::Generics,
    pub attrs: ContainerAttrs,
    pub data: Data<'a>,
}

pub enum Data<'a> {
    Struct(Style, Vec<Field<'a>>),
    Enum(Vec<Variant<'a>>),
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Style {
    /// `struct S { a: T }`
    Named,
    /// `struct S(T);`
    Tuple,
    /// `struct S;`
    Unit,
}

pub struct Field<'a> {
    /// `a` or `0`.
    pub member: syn::Member,
    pub ty: &'a syn::Type,
    pub attrs: FieldAttrs,
}

pub struct Variant<'a> {
    pub ident: &'a syn::Ident,
    pub attrs: VariantAttrs,
    pub style: Style,
    pub fields: Vec<Field<'a>>,
    pub original: &'a syn::Variant,
}

impl<'a> Container<'a> {
    /// The model of `input`; `None` (with an error) for a Rust `union`.
    pub fn from_ast(cx: &Ctxt, input: &'a syn::DeriveInput) -> Option<Container<'a>> {
        let attrs = ContainerAttrs::parse(cx, &input.attrs);
        let data = match &input.data {
            syn::Data::Struct(s) => Data::Struct(style_of(&s.fields), fields(cx, &s.fields)),
            syn::Data::Enum(e) => Data::Enum(
                e.variants
                    .iter()
                    .map(|v| Variant {
                        ident: &v.ident,
                        attrs: VariantAttrs::parse(cx, &v.attrs),
                        style: style_of(&v.fields),
                        fields: fields(cx, &v.fields),
                        original: v,
                    })
                    .collect(),
            ),
            syn::Data::Union(_) => {
                cx.error_spanned_by(
                    &input.ident,
                    "#[derive(FuryObject)] supports structs and enums, not Rust unions",
                );
                return None;
            }
        };
        Some(Container {
            ident: &input.ident,
            generics: &input.generics,
            attrs,
            data,
        })
    }
}

fn style_of(fields: &syn::Fields) -> Style {
    match fields {
        syn::Fields::Named(_) => Style::Named,
        syn::Fields::Unnamed(_) => Style::Tuple,
        syn::Fields::Unit => Style::Unit,
    }
}

fn fields<'a>(cx: &Ctxt, fields: &'a syn::Fields) -> Vec<Field<'a>> {
    fields
        .iter()
        .enumerate()
        .map(|(i, f)| Field {
            member: match &f.ident {
                Some(ident) => syn::Member::Named(ident.clone()),
                None => syn::Member::Unnamed(syn::Index {
                    index: i as u32,
                    span: proc_macro2::Span::call_site(),
                }),
            },
            ty: &f.ty,
            attrs: FieldAttrs::parse(cx, &f.attrs),
        })
        .collect()
}
