//! Parsing of `#[fury(...)]` attributes on types, fields and enum variants.

use syn::{spanned::Spanned, Attribute, Expr, ExprLit, Lit, Meta};

/// `#[fury(...)]` on the type.
#[derive(Default)]
pub struct TypeAttrs {
    pub id: Option<u32>,
    pub namespace: Option<String>,
    pub name: Option<String>,
}

/// Integer encoding chosen by `#[fury(encoding = "..")]`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Encoding {
    Varint,
    Fixed,
    Tagged,
}

/// `#[fury(...)]` on a field.
#[derive(Default)]
pub struct FieldAttrs {
    pub tag: Option<u32>,
    pub rename: Option<String>,
    pub skip: bool,
    pub nullable: bool,
    pub track_ref: bool,
    pub encoding: Option<(Encoding, proc_macro2::Span)>,
}

/// `#[fury(...)]` on an enum variant.
#[derive(Default)]
pub struct VariantAttrs {
    pub id: Option<u32>,
}

fn fury_metas(attrs: &[Attribute]) -> syn::Result<Vec<Meta>> {
    let mut out = Vec::new();
    for attr in attrs.iter().filter(|a| a.path().is_ident("fury")) {
        // `ref` is a keyword, which a meta path cannot hold: read it as `track_ref`.
        let tokens: proc_macro2::TokenStream = attr
            .meta
            .require_list()?
            .tokens
            .clone()
            .into_iter()
            .map(|t| match t {
                proc_macro2::TokenTree::Ident(i) if i == "ref" => {
                    proc_macro2::TokenTree::Ident(proc_macro2::Ident::new("track_ref", i.span()))
                }
                other => other,
            })
            .collect();
        let nested = syn::parse::Parser::parse2(
            syn::punctuated::Punctuated::<Meta, syn::Token![,]>::parse_terminated,
            tokens,
        )?;
        out.extend(nested);
    }
    Ok(out)
}

fn lit_str(expr: &Expr) -> syn::Result<String> {
    match expr {
        Expr::Lit(ExprLit {
            lit: Lit::Str(s), ..
        }) => Ok(s.value()),
        other => Err(syn::Error::new(other.span(), "expected a string literal")),
    }
}

fn lit_u32(expr: &Expr) -> syn::Result<u32> {
    match expr {
        Expr::Lit(ExprLit {
            lit: Lit::Int(i), ..
        }) => i.base10_parse::<u32>(),
        other => Err(syn::Error::new(
            other.span(),
            "expected an integer literal (0..=4294967295)",
        )),
    }
}

fn key_of(meta: &Meta) -> String {
    meta.path()
        .get_ident()
        .map(|i| i.to_string())
        .unwrap_or_default()
}

pub fn type_attrs(attrs: &[Attribute]) -> syn::Result<TypeAttrs> {
    let mut out = TypeAttrs::default();
    for meta in fury_metas(attrs)? {
        match (key_of(&meta).as_str(), &meta) {
            ("id", Meta::NameValue(nv)) => out.id = Some(lit_u32(&nv.value)?),
            ("namespace", Meta::NameValue(nv)) => out.namespace = Some(lit_str(&nv.value)?),
            ("name", Meta::NameValue(nv)) => out.name = Some(lit_str(&nv.value)?),
            _ => {
                return Err(syn::Error::new(
                    meta.span(),
                    "unknown fury attribute on a type: expected `id = N`, `namespace = \"..\"` or `name = \"..\"`",
                ))
            }
        }
    }
    if out.id.is_some() && (out.name.is_some() || out.namespace.is_some()) {
        return Err(syn::Error::new(
            proc_macro2::Span::call_site(),
            "a type is registered either by `id` or by `namespace`/`name`, not both",
        ));
    }
    if out.namespace.is_some() && out.name.is_none() {
        return Err(syn::Error::new(
            proc_macro2::Span::call_site(),
            "`namespace` needs a `name` too",
        ));
    }
    Ok(out)
}

pub fn field_attrs(attrs: &[Attribute]) -> syn::Result<FieldAttrs> {
    let mut out = FieldAttrs::default();
    for meta in fury_metas(attrs)? {
        match (key_of(&meta).as_str(), &meta) {
            ("id", Meta::NameValue(nv)) => out.tag = Some(lit_u32(&nv.value)?),
            ("rename", Meta::NameValue(nv)) => out.rename = Some(lit_str(&nv.value)?),
            ("skip", Meta::Path(_)) => out.skip = true,
            ("nullable", Meta::Path(_)) => out.nullable = true,
            ("track_ref", Meta::Path(_)) => out.track_ref = true,
            ("track_ref", Meta::NameValue(nv)) => {
                out.track_ref = match &nv.value {
                    Expr::Lit(ExprLit {
                        lit: Lit::Bool(b), ..
                    }) => b.value,
                    other => return Err(syn::Error::new(other.span(), "expected `ref = true` or `ref = false`")),
                }
            }
            ("encoding", Meta::NameValue(nv)) => {
                let enc = match lit_str(&nv.value)?.as_str() {
                    "varint" => Encoding::Varint,
                    "fixed" => Encoding::Fixed,
                    "tagged" => Encoding::Tagged,
                    other => {
                        return Err(syn::Error::new(
                            nv.value.span(),
                            format!("unknown encoding `{other}`: expected \"fixed\", \"varint\" or \"tagged\""),
                        ))
                    }
                };
                out.encoding = Some((enc, nv.value.span()));
            }
            _ => {
                return Err(syn::Error::new(
                    meta.span(),
                    "unknown fury attribute on a field: expected `id = N`, `rename = \"..\"`, `skip`, `nullable`, `ref` or `encoding = \"..\"`",
                ))
            }
        }
    }
    Ok(out)
}

pub fn variant_attrs(attrs: &[Attribute]) -> syn::Result<VariantAttrs> {
    let mut out = VariantAttrs::default();
    for meta in fury_metas(attrs)? {
        match (key_of(&meta).as_str(), &meta) {
            ("id", Meta::NameValue(nv)) => out.id = Some(lit_u32(&nv.value)?),
            _ => {
                return Err(syn::Error::new(
                    meta.span(),
                    "unknown fury attribute on a variant: expected `id = N`",
                ))
            }
        }
    }
    Ok(out)
}
