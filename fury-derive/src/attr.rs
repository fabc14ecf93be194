//! `#[fury(...)]` attributes, parsed once. Setting one twice is an error at the second one;
//! unknown names are errors listing the accepted ones. Contradictions between attributes are
//! checked later, in `check.rs`, over the parsed model.

use crate::ctxt::Ctxt;
use proc_macro2::Span;
use syn::meta::ParseNestedMeta;
use syn::{Attribute, LitBool, LitInt, LitStr};

/// One attribute's value and where it was written.
pub struct Attr<T> {
    name: &'static str,
    value: Option<(T, Span)>,
}

impl<T> Attr<T> {
    fn none(name: &'static str) -> Self {
        Attr { name, value: None }
    }

    fn set(&mut self, cx: &Ctxt, span: Span, v: T) {
        if self.value.is_some() {
            cx.error_at(span, format!("duplicate fury attribute `{}`", self.name));
        } else {
            self.value = Some((v, span));
        }
    }

    pub fn get(&self) -> Option<&T> {
        self.value.as_ref().map(|(v, _)| v)
    }

    pub fn span(&self) -> Option<Span> {
        self.value.as_ref().map(|(_, s)| *s)
    }

    pub fn is_set(&self) -> bool {
        self.value.is_some()
    }
}

/// Integer encoding chosen by `#[fury(encoding = "..")]`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Encoding {
    Varint,
    Fixed,
    Tagged,
}

/// What `#[fury(default)]` fills a field with when the peer's TypeDef lacks it.
pub enum DefaultValue {
    /// `#[fury(default)]`: `Default::default()`.
    Trait,
    /// `#[fury(default = "path")]`: a call of `path()`.
    Path(syn::ExprPath),
}

/// The value of `form = "..."`: only `"fory"` (the official Rust crate's forms) exists.
fn form_value(meta: &syn::meta::ParseNestedMeta) -> syn::Result<()> {
    let lit = str_value(meta)?;
    if lit.value() == "fory" {
        Ok(())
    } else {
        Err(syn::Error::new(
            lit.span(),
            format!(
                "unknown form `{}`: expected \"fory\" (the official Rust crate's forms; pyfory's are the default)",
                lit.value()
            ),
        ))
    }
}

/// `#[fury(...)]` on the struct or enum.
pub struct ContainerAttrs {
    pub id: Attr<u32>,
    pub namespace: Attr<String>,
    pub name: Attr<String>,
    pub transparent: Attr<()>,
    pub bound: Attr<Vec<syn::WherePredicate>>,
    /// `#[fury(ext)]`: written by the type's own `fury::Ext` impl, as EXT / NAMED_EXT.
    pub ext: Attr<()>,
    /// `#[fury(rename_all = "camelCase")]`: serde's case conventions for field names (of a
    /// struct) or variant names (of an enum).
    pub rename_all: Attr<crate::case::RenameRule>,
    /// `#[fury(default)]` or `#[fury(default = "path")]`: the value of a field of this type
    /// that a peer's TypeDef lacks (without it, a struct or enum field the peer lacks is an
    /// error rather than an invented value).
    pub default: Attr<DefaultValue>,
    /// `#[fury(form = "fory")]`: every field with an official-crate form takes it.
    pub form: Attr<()>,
}

/// `#[fury(...)]` on a field.
pub struct FieldAttrs {
    pub tag: Attr<u32>,
    pub rename: Attr<String>,
    pub skip: Attr<()>,
    pub nullable: Attr<()>,
    pub track_ref: Attr<bool>,
    /// `#[fury(untracked_elements)]`.
    pub untracked_elements: Attr<()>,
    pub encoding: Attr<Encoding>,
    pub with: Attr<syn::Path>,
    /// `#[fury(form = "fory")]`: the official crate's form (`fury::ForyForm`).
    pub form: Attr<()>,
    pub default: Attr<DefaultValue>,
    /// `#[fury(alias = "..")]`, any number: other names a peer's field may have (compatible
    /// mode).
    pub aliases: Vec<(String, Span)>,
}

/// `#[fury(...)]` on an enum variant.
pub struct VariantAttrs {
    pub id: Attr<u32>,
    /// `#[fury(unknown)]`: the union variant that keeps unknown cases.
    pub unknown: Attr<()>,
}

/// Calls `f` for each item of every `#[fury(...)]` attribute.
fn each(cx: &Ctxt, attrs: &[Attribute], mut f: impl FnMut(&ParseNestedMeta) -> syn::Result<()>) {
    for attr in attrs.iter().filter(|a| a.path().is_ident("fury")) {
        if let Err(e) = attr.parse_nested_meta(|meta| f(&meta)) {
            cx.syn_error(e);
        }
    }
}

fn key(meta: &ParseNestedMeta) -> String {
    meta.path
        .get_ident()
        .map(|i| i.to_string())
        .unwrap_or_default()
}

fn span(meta: &ParseNestedMeta) -> Span {
    syn::spanned::Spanned::span(&meta.path)
}

fn u32_value(meta: &ParseNestedMeta) -> syn::Result<u32> {
    let lit: LitInt = meta.value()?.parse()?;
    lit.base10_parse::<u32>()
}

fn str_value(meta: &ParseNestedMeta) -> syn::Result<LitStr> {
    meta.value()?.parse()
}

/// `default` (the `Default` impl) or `default = "path"` (a call of `path()`).
fn default_value(meta: &ParseNestedMeta) -> syn::Result<DefaultValue> {
    Ok(if meta.input.peek(syn::Token![=]) {
        DefaultValue::Path(str_value(meta)?.parse()?)
    } else {
        DefaultValue::Trait
    })
}

impl ContainerAttrs {
    pub fn parse(cx: &Ctxt, attrs: &[Attribute]) -> Self {
        let mut out = ContainerAttrs {
            id: Attr::none("id"),
            namespace: Attr::none("namespace"),
            name: Attr::none("name"),
            transparent: Attr::none("transparent"),
            bound: Attr::none("bound"),
            ext: Attr::none("ext"),
            rename_all: Attr::none("rename_all"),
            default: Attr::none("default"),
            form: Attr::none("form"),
        };
        each(cx, attrs, |meta| {
            let sp = span(meta);
            match key(meta).as_str() {
                // #[fury(id = 100)]
                "id" => out.id.set(cx, sp, u32_value(meta)?),
                // #[fury(namespace = "demo")]
                "namespace" => out.namespace.set(cx, sp, str_value(meta)?.value()),
                // #[fury(name = "Person")]
                "name" => out.name.set(cx, sp, str_value(meta)?.value()),
                // #[fury(transparent)]
                "transparent" => out.transparent.set(cx, sp, ()),
                // #[fury(ext)]
                "ext" => out.ext.set(cx, sp, ()),
                // #[fury(default)] or #[fury(default = "path::to::fn")]
                "default" => out.default.set(cx, sp, default_value(meta)?),
                // #[fury(bound = "T: fury::Serialize + fury::DeserializeOwned + 'static")]
                "bound" => {
                    let lit = str_value(meta)?;
                    let preds = lit.parse_with(
                        syn::punctuated::Punctuated::<syn::WherePredicate, syn::Token![,]>::parse_terminated,
                    )?;
                    out.bound.set(cx, sp, preds.into_iter().collect());
                }
                // #[fury(rename_all = "camelCase")]
                "rename_all" => {
                    let lit = str_value(meta)?;
                    let rule =
                        crate::case::RenameRule::from_name(&lit.value()).ok_or_else(|| {
                            syn::Error::new(
                                lit.span(),
                                format!(
                                    "unknown rename_all rule `{}`: expected {}",
                                    lit.value(),
                                    crate::case::RenameRule::NAMES
                                ),
                            )
                        })?;
                    out.rename_all.set(cx, sp, rule);
                }
                // #[fury(form = "fory")]
                "form" => {
                    form_value(meta)?;
                    out.form.set(cx, sp, ());
                }
                // serde's enum representations have no xlang form.
                "tag" | "content" | "untagged" => {
                    return Err(meta.error(format!(
                        "`{}` has no form in this format: an enum with data is always a tagged \
                         union (a case id, then the case value), which every peer reads; \
                         remove the attribute (a case struct carries a variant's fields)",
                        key(meta)
                    )))
                }
                _ => return Err(meta.error(
                    "unknown fury attribute on a type: expected `id = N`, `namespace = \"..\"`, \
                         `name = \"..\"`, `transparent`, `ext`, `bound = \"..\"`, \
                         `rename_all = \"..\"`, `default` or `form = \"fory\"`",
                )),
            }
            Ok(())
        });
        out
    }
}

impl FieldAttrs {
    pub fn parse(cx: &Ctxt, attrs: &[Attribute]) -> Self {
        let mut out = FieldAttrs {
            tag: Attr::none("id"),
            rename: Attr::none("rename"),
            skip: Attr::none("skip"),
            nullable: Attr::none("nullable"),
            track_ref: Attr::none("ref"),
            untracked_elements: Attr::none("untracked_elements"),
            encoding: Attr::none("encoding"),
            with: Attr::none("with"),
            form: Attr::none("form"),
            default: Attr::none("default"),
            aliases: Vec::new(),
        };
        each(cx, attrs, |meta| {
            let sp = span(meta);
            match key(meta).as_str() {
                // #[fury(id = 3)]: the field's tag id
                "id" => out.tag.set(cx, sp, u32_value(meta)?),
                // #[fury(rename = "homeTown")]
                "rename" => out.rename.set(cx, sp, str_value(meta)?.value()),
                // #[fury(skip)]
                "skip" => out.skip.set(cx, sp, ()),
                // #[fury(nullable)]
                "nullable" => out.nullable.set(cx, sp, ()),
                // #[fury(ref)] or #[fury(ref = false)]
                "ref" => {
                    let on = if meta.input.peek(syn::Token![=]) {
                        let b: LitBool = meta.value()?.parse()?;
                        b.value
                    } else {
                        true
                    };
                    out.track_ref.set(cx, sp, on);
                }
                // #[fury(untracked_elements)]
                "untracked_elements" => out.untracked_elements.set(cx, sp, ()),
                // #[fury(encoding = "fixed" | "varint" | "tagged")]
                "encoding" => {
                    let lit = str_value(meta)?;
                    let enc = match lit.value().as_str() {
                        "varint" => Encoding::Varint,
                        "fixed" => Encoding::Fixed,
                        "tagged" => Encoding::Tagged,
                        other => {
                            return Err(syn::Error::new(
                                lit.span(),
                                format!("unknown encoding `{other}`: expected \"fixed\", \"varint\" or \"tagged\""),
                            ))
                        }
                    };
                    out.encoding.set(cx, sp, enc);
                }
                // #[fury(form = "fory")]
                "form" => {
                    form_value(meta)?;
                    out.form.set(cx, sp, ());
                }
                // #[fury(with = "module")]
                "with" => {
                    let lit = str_value(meta)?;
                    out.with.set(cx, sp, lit.parse::<syn::Path>()?);
                }
                // #[fury(default)] or #[fury(default = "path::to::fn")]
                "default" => out.default.set(cx, sp, default_value(meta)?),
                // #[fury(alias = "oldName")], repeatable
                "alias" => {
                    let name = str_value(meta)?.value();
                    if out.aliases.iter().any(|(a, _)| *a == name) {
                        cx.error_at(sp, format!("duplicate alias `{name}`"));
                    } else {
                        out.aliases.push((name, sp));
                    }
                }
                "flatten" => {
                    return Err(meta.error(
                        "`flatten` has no form in this format: a struct field is a nested struct \
                         on the wire, and the peers declare it as one; keep the nested struct, \
                         or write its fields out in this struct",
                    ))
                }
                "skip_serializing_if" | "skip_serializing" | "skip_deserializing" => {
                    return Err(meta.error(format!(
                        "`{}` has no form in this format: every field is written, because the \
                         schema (field order, hash, TypeDef) lists it; use `Option<T>` for a value \
                         that may be absent, or `skip` for a field that is never written",
                        key(meta)
                    )))
                }
                "serialize_with" | "deserialize_with" => {
                    return Err(meta.error(
                        "use `with = \"module\"`: `module::to_wire` and `module::from_wire` \
                         convert the field to and from a type this format writes",
                    ))
                }
                _ => {
                    return Err(meta.error(
                        "unknown fury attribute on a field: expected `id = N`, `rename = \"..\"`, \
                         `alias = \"..\"`, `skip`, `nullable`, `ref`, `untracked_elements`, `encoding = \"..\"`, \
                         `with = \"..\"` or `default`",
                    ))
                }
            }
            Ok(())
        });
        out
    }
}

impl VariantAttrs {
    pub fn parse(cx: &Ctxt, attrs: &[Attribute]) -> Self {
        let mut out = VariantAttrs {
            id: Attr::none("id"),
            unknown: Attr::none("unknown"),
        };
        each(cx, attrs, |meta| {
            let sp = span(meta);
            match key(meta).as_str() {
                // #[fury(id = 5)]
                "id" => out.id.set(cx, sp, u32_value(meta)?),
                // #[fury(unknown)]
                "unknown" => out.unknown.set(cx, sp, ()),
                _ => {
                    return Err(meta.error(
                        "unknown fury attribute on a variant: expected `id = N` or `unknown`",
                    ))
                }
            }
            Ok(())
        });
        out
    }
}
