//! Checks over the parsed model, after parsing: attributes that contradict each other or do
//! not apply where they are written. Every problem is reported, each at its own span.

use crate::ast::{Container, Data, Style};
use crate::attr::Encoding;
use crate::ctxt::Ctxt;
use crate::fields::{option_inner, plain_ident};
use std::collections::HashMap;

pub fn check(cx: &Ctxt, cont: &Container) {
    let a = &cont.attrs;
    if let (Some(sp), true) = (a.id.span(), a.name.is_set() || a.namespace.is_set()) {
        cx.error_at(
            sp,
            "a type is registered either by `id` or by `namespace`/`name`, not both",
        );
    }
    if let (Some(sp), false) = (a.namespace.span(), a.name.is_set()) {
        cx.error_at(sp, "`namespace` needs a `name` too");
    }
    if let (Some(sp), true) = (a.default.span(), a.transparent.is_set()) {
        cx.error_at(
            sp,
            "a `transparent` type is its field: give the field's type the default, or the \
             fields of this type `#[fury(default)]`",
        );
    }
    if let Some(sp) = a.ext.span() {
        if a.transparent.is_set() {
            cx.error_at(sp, "`ext` and `transparent` exclude each other");
        }
        if !a.id.is_set() && !a.name.is_set() {
            cx.error_at(
                sp,
                "an `ext` type needs its registration: `id = N` or `namespace`/`name`, as the \
                 peer registers its serializer",
            );
        }
        return;
    }
    match &cont.data {
        Data::Enum(variants) => {
            if let Some(sp) = a.transparent.span() {
                cx.error_at(sp, "`transparent` applies to structs with one field");
            }
            if crate::unions::is_union(variants) {
                check_union(cx, cont, variants);
                return;
            }
            let mut ids = HashMap::new();
            for (i, v) in variants.iter().enumerate() {
                let id = v.attrs.id.get().copied().unwrap_or(i as u32);
                if let Some(prev) = ids.insert(id, v.ident.to_string()) {
                    cx.error_spanned_by(
                        v.original,
                        format!("duplicate enum variant id {id}: already used by `{prev}`"),
                    );
                }
            }
        }
        Data::Struct(style, fields) => {
            if let Some(sp) = a.transparent.span() {
                if a.id.is_set() || a.name.is_set() || a.namespace.is_set() {
                    cx.error_at(
                        sp,
                        "a `transparent` type is written as its field: it has no registration \
                         of its own (`id`, `name`)",
                    );
                }
                let kept = fields.iter().filter(|f| !f.attrs.skip.is_set()).count();
                if kept != 1 || *style == Style::Unit {
                    cx.error_at(
                        sp,
                        "`transparent` needs exactly one field that is not skipped",
                    );
                }
            }
            let mut tags = HashMap::new();
            for f in fields {
                let fa = &f.attrs;
                if fa.skip.is_set() {
                    for (set, name, sp) in [
                        (fa.tag.is_set(), "id", fa.tag.span()),
                        (fa.rename.is_set(), "rename", fa.rename.span()),
                        (fa.nullable.is_set(), "nullable", fa.nullable.span()),
                        (fa.track_ref.is_set(), "ref", fa.track_ref.span()),
                        (
                            fa.untracked_elements.is_set(),
                            "untracked_elements",
                            fa.untracked_elements.span(),
                        ),
                        (fa.encoding.is_set(), "encoding", fa.encoding.span()),
                        (fa.with.is_set(), "with", fa.with.span()),
                        (fa.form.is_set(), "form", fa.form.span()),
                        (fa.default.is_set(), "default", fa.default.span()),
                    ] {
                        if let (true, Some(sp)) = (set, sp) {
                            cx.error_at(
                                sp,
                                format!(
                                    "`{name}` has no effect on a skipped field: remove one of them"
                                ),
                            );
                        }
                    }
                    continue;
                }
                // Rust types without an xlang wire type, spelled out (an alias of one meets
                // the trait check instead).
                if !fa.with.is_set() {
                    let inner = option_inner(f.ty).unwrap_or(f.ty);
                    let hint = match plain_ident(inner).as_deref() {
                        Some("u128" | "i128") => Some(
                            "the xlang format has no 128-bit integer (the official fory crate \
                             refuses it too): use a `String`, two 64-bit fields, or \
                             `#[fury(with = \"module\")]`",
                        ),
                        Some("char") => Some(
                            "the xlang format has no `char`: use a `String`, a `u32`, or \
                             `#[fury(with = \"module\")]`",
                        ),
                        _ => None,
                    };
                    if let Some(hint) = hint {
                        cx.error_spanned_by(f.ty, hint);
                    }
                }
                if let Some(sp) = fa.form.span() {
                    let inner = option_inner(f.ty).unwrap_or(f.ty);
                    if fa.with.is_set() {
                        cx.error_at(sp, "`with` decides the field's wire type: it cannot be combined with `form`");
                    } else if !crate::fields::has_official_form(inner) {
                        cx.error_at(
                            sp,
                            "`form = \"fory\"` applies where the official crate's form differs from \
                             pyfory's: `Vec` of a primitive, `Vec<Vec<_>>` of one, a tuple of one to six \
                             elements, `[u8; N]`, or an `Option` of one of them",
                        );
                    }
                }
                if let (Some(sp), true) = (fa.with.span(), fa.encoding.is_set()) {
                    cx.error_at(
                        sp,
                        "`with` decides the field's wire type: it cannot be combined with `encoding`",
                    );
                }
                if let (Some(sp), Some(_)) = (fa.nullable.span(), option_inner(f.ty)) {
                    cx.error_at(sp, "`nullable` is implied: an `Option` field is nullable");
                }
                if let (Some(enc), Some(sp), false) =
                    (fa.encoding.get(), fa.encoding.span(), fa.with.is_set())
                {
                    let inner = option_inner(f.ty).unwrap_or(f.ty);
                    // An alias or a generic parameter is left to the trait check (Fixed<T>
                    // and Tagged<T> are implemented for the integers only).
                    if let Some(base) = plain_ident(inner) {
                        let ok = match base.as_str() {
                            "i32" | "u32" => *enc != Encoding::Tagged,
                            "i64" | "u64" => true,
                            "bool" | "i8" | "i16" | "u8" | "u16" | "f32" | "f64" | "F16"
                            | "BF16" | "String" | "usize" | "isize" => false,
                            _ => true,
                        };
                        if !ok {
                            cx.error_at(
                                sp,
                                "`encoding` applies to i32, u32, i64 and u64 fields (and their Option); \
                                 \"tagged\" only to i64 and u64",
                            );
                        }
                    }
                }
                if let Some(tag) = fa.tag.get() {
                    if let Some(prev) = tags.insert(*tag, f.member.clone()) {
                        let prev = match prev {
                            syn::Member::Named(i) => i.to_string(),
                            syn::Member::Unnamed(i) => i.index.to_string(),
                        };
                        cx.error_at(
                            fa.tag.span().unwrap_or_else(proc_macro2::Span::call_site),
                            format!("duplicate field id {tag}: already used by field `{prev}`"),
                        );
                    }
                }
            }
        }
    }
}

/// An enum with data is a union: at most one variant is `#[fury(unknown)]` (holding a
/// `fury::UnknownCase`), the field of a one-value variant has no attributes (its value is
/// written whole), and case ids are distinct.
fn check_union(cx: &Ctxt, _cont: &Container, variants: &[crate::ast::Variant]) {
    let mut unknown = None;
    for v in variants {
        let one_unnamed = v.style == crate::ast::Style::Tuple && v.fields.len() == 1;
        if v.fields.len() == 1 && !v.attrs.unknown.is_set() {
            let attributed = v
                .original
                .fields
                .iter()
                .flat_map(|f| &f.attrs)
                .find(|a| a.path().is_ident("fury"));
            if let Some(a) = attributed {
                cx.error_spanned_by(
                    a,
                    "the field of a one-value variant is written as a whole case value and \
                     takes no #[fury] attributes (put them on a field of the value's type)",
                );
            }
        }
        if let Some(sp) = v.attrs.unknown.span() {
            if !one_unnamed {
                cx.error_at(sp, "the `unknown` variant holds one `fury::UnknownCase`");
            }
            if v.attrs.id.is_set() {
                cx.error_at(sp, "the `unknown` variant has no case id of its own");
            }
            if let Some(prev) = unknown.replace(v.ident.to_string()) {
                cx.error_at(sp, format!("`{prev}` is already the `unknown` variant"));
            }
        }
    }
    let mut ids = HashMap::new();
    for (v, id) in variants.iter().zip(crate::unions::case_ids(variants)) {
        let Some(id) = id else { continue };
        if let Some(prev) = ids.insert(id, v.ident.to_string()) {
            cx.error_spanned_by(
                v.original,
                format!("duplicate union case id {id}: already used by `{prev}`"),
            );
        }
    }
}
