//! Serialized fields: what the derive can tell from the spelling of their types, and the
//! field order that spelling implies.
//!
//! The spelling is only a guess that lets the common case get code with the order built in:
//! the real order comes from the field types' `WireType` metadata at compile time
//! (`fury::__private::field_order`), and generated code checks the guess against it, falling
//! back to general code where they differ (a type alias of a primitive, a generic parameter).

use crate::ast;
use crate::attr::{DefaultValue, Encoding};
use crate::snake::snake_case;
use crate::table;
use syn::{GenericArgument, PathArguments, Type};

/// A primitive field's place in the ordering, from the wire-type table.
#[derive(Clone, Copy, Debug)]
pub struct Prim {
    pub name: &'static str,
    pub type_id: u8,
    pub size: u8,
    pub compressed: bool,
}

/// Which wrapper (if any) writes an integer field with the chosen encoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Codec {
    /// The field's own type.
    Plain,
    /// `fury::Fixed<T>`.
    Fixed,
    /// `fury::Tagged<T>`.
    Tagged,
    /// `fury::ForyForm<T>`: `#[fury(form = "fory")]`.
    Fory,
}

/// One serialized field.
pub struct Plan<'a> {
    pub member: syn::Member,
    pub ty: &'a Type,
    /// Name on the wire (after `rename`; `_0`, `_1`, ... for tuple fields).
    pub wire_name: String,
    pub snake: String,
    pub tag: Option<u32>,
    /// Spelled `Option<..>`.
    pub is_option: bool,
    /// `#[fury(nullable)]`.
    pub flagged: bool,
    /// `#[fury(ref)]`.
    pub track_ref: bool,
    /// `#[fury(untracked_elements)]`.
    pub untracked_elements: bool,
    pub encoding: Option<Encoding>,
    /// The spelled integer type an encoding applies to (`i32`, `u64`, ...), after `Option`.
    pub int_base: Option<String>,
    /// The type inside a spelled `Option`, or the type itself.
    pub inner: Type,
    /// The spelled primitive (`i32`, `f64`, `Fixed<i64>`, ...), after `Option`.
    pub scalar: Option<String>,
    /// Spelled `String` (after `Option`).
    pub is_string: bool,
    /// `#[fury(with = "module")]`.
    pub with: Option<syn::Path>,
    /// For a `Cow<'a, T>` (after `Option`) whose lifetime is one of the container's: the
    /// reader that borrows, `fury::__private::BorrowCow<'a, T>`.
    pub borrow: Option<Type>,
    pub default: Option<&'a DefaultValue>,
    /// Position of the name key among the struct's fields (tag ids first).
    pub rank: u32,
    /// Position in declaration order among the serialized fields.
    pub index: usize,
    /// For the fields of an enum variant written as its case struct: the name the variant's
    /// pattern binds the field to (a reference), read where a struct reads `this.member`.
    pub binding: Option<syn::Ident>,
    /// `#[fury(alias = "..")]`: other names the field may have in a peer's TypeDef.
    pub aliases: Vec<String>,
    /// `#[fury(form = "fory")]` (on the field, or on the container for a field of a type
    /// that has an official-crate form).
    pub fory_form: bool,
}

/// Whether `ty` (after `Option`) is written differently by the official crate `fory` 1.7.7
/// than by pyfory, so `#[fury(form = "fory")]` applies: a `Vec` of a primitive, a `Vec` of
/// those, a tuple of one to six elements, or `[u8; N]` (the types `fury::ForyForm` takes).
pub fn has_official_form(ty: &Type) -> bool {
    const PRIMITIVES: &[&str] = &[
        "bool", "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64", "f32", "f64",
    ];
    let vec_of = |t: &Type| -> Option<Type> {
        let Type::Path(p) = t else { return None };
        let last = p.path.segments.last()?;
        if last.ident != "Vec" {
            return None;
        }
        let PathArguments::AngleBracketed(args) = &last.arguments else {
            return None;
        };
        match args.args.first()? {
            GenericArgument::Type(e) => Some(e.clone()),
            _ => None,
        }
    };
    let primitive = |t: &Type| plain_ident(t).is_some_and(|n| PRIMITIVES.contains(&n.as_str()));
    match ty {
        Type::Tuple(t) => (1..=6).contains(&t.elems.len()),
        Type::Array(a) => plain_ident(&a.elem).as_deref() == Some("u8"),
        Type::Paren(p) => has_official_form(&p.elem),
        _ => match vec_of(ty) {
            Some(e) => primitive(&e) || vec_of(&e).is_some_and(|x| primitive(&x)),
            None => false,
        },
    }
}

/// `Option<T>` -> `Some(T)`.
pub fn option_inner(ty: &Type) -> Option<&Type> {
    let Type::Path(p) = ty else { return None };
    let last = p.path.segments.last()?;
    if last.ident != "Option" {
        return None;
    }
    let PathArguments::AngleBracketed(args) = &last.arguments else {
        return None;
    };
    match args.args.first()? {
        GenericArgument::Type(t) => Some(t),
        _ => None,
    }
}

/// The ident of a plain path type without generic arguments (`i32`, `fury::F16`).
pub fn plain_ident(ty: &Type) -> Option<String> {
    match ty {
        Type::Path(p) if p.qself.is_none() => p
            .path
            .segments
            .last()
            .filter(|s| s.arguments.is_empty())
            .map(|s| s.ident.to_string()),
        _ => None,
    }
}

/// `Cow<'a, T>` with `'a` among `lifetimes` -> `fury::__private::BorrowCow<'a, T>`.
fn borrowing_cow(ty: &Type, lifetimes: &[&syn::Lifetime]) -> Option<Type> {
    let Type::Path(p) = ty else { return None };
    let last = p.path.segments.last()?;
    if last.ident != "Cow" || p.qself.is_some() {
        return None;
    }
    let PathArguments::AngleBracketed(args) = &last.arguments else {
        return None;
    };
    let mut it = args.args.iter();
    let (Some(GenericArgument::Lifetime(l)), Some(GenericArgument::Type(t)), None) =
        (it.next(), it.next(), it.next())
    else {
        return None;
    };
    if !lifetimes.contains(&l) {
        return None;
    }
    Some(syn::parse_quote! { ::fury::__private::BorrowCow<#l, #t> })
}

/// `Fixed<i32>` -> `("Fixed", "i32")`.
fn wrapper(ty: &Type) -> Option<(String, String)> {
    let Type::Path(p) = ty else { return None };
    let last = p.path.segments.last()?;
    let PathArguments::AngleBracketed(args) = &last.arguments else {
        return None;
    };
    match args.args.first()? {
        GenericArgument::Type(t) => Some((last.ident.to_string(), plain_ident(t)?)),
        _ => None,
    }
}

impl<'a> Plan<'a> {
    pub fn new(
        f: &'a ast::Field<'a>,
        index: usize,
        lifetimes: &[&syn::Lifetime],
        rename_all: Option<crate::case::RenameRule>,
        container_form: bool,
    ) -> Self {
        let a = &f.attrs;
        let wire_name = match (a.rename.get(), &f.member, rename_all) {
            (Some(r), _, _) => r.clone(),
            (None, syn::Member::Named(i), rule) => {
                let name = i.to_string().trim_start_matches("r#").to_string();
                rule.map_or(name.clone(), |r| r.field(&name))
            }
            (None, syn::Member::Unnamed(i), _) => format!("_{}", i.index),
        };
        let with = a.with.get().cloned();
        let is_option = with.is_none() && option_inner(f.ty).is_some();
        let inner = option_inner(f.ty)
            .filter(|_| is_option)
            .cloned()
            .unwrap_or_else(|| f.ty.clone());
        let base = plain_ident(&inner).filter(|_| with.is_none());
        let int_base = base
            .clone()
            .filter(|b| matches!(b.as_str(), "i32" | "i64" | "u32" | "u64"));
        let is_string = base.as_deref() == Some("String");
        let scalar = match base.as_deref() {
            Some(
                b @ ("bool" | "i8" | "i16" | "i32" | "i64" | "u8" | "u16" | "u32" | "u64" | "f32"
                | "f64" | "F16" | "BF16"),
            ) => Some(b.to_string()),
            _ if with.is_some() => None,
            _ => match wrapper(&inner) {
                Some((w, arg)) => match (w.as_str(), arg.as_str()) {
                    ("Fixed", "i32" | "i64" | "u32" | "u64") | ("Tagged", "i64" | "u64") => {
                        Some(format!("{w}<{arg}>"))
                    }
                    _ => None,
                },
                None => None,
            },
        };
        let borrow = borrowing_cow(&inner, lifetimes).filter(|_| with.is_none());
        let fory_form =
            (a.form.is_set() || container_form) && with.is_none() && has_official_form(&inner);
        Plan {
            borrow,
            snake: snake_case(&wire_name),
            wire_name,
            tag: a.tag.get().copied(),
            is_option,
            flagged: a.nullable.is_set(),
            track_ref: a.track_ref.get().copied().unwrap_or(false),
            untracked_elements: a.untracked_elements.is_set(),
            encoding: a.encoding.get().copied(),
            int_base,
            member: f.member.clone(),
            ty: f.ty,
            scalar,
            is_string,
            with,
            default: a.default.get(),
            rank: 0,
            index,
            binding: None,
            aliases: a.aliases.iter().map(|(n, _)| n.clone()).collect(),
            fory_form,
            inner,
        }
    }

    /// The place the field's value is read from when writing: `this.member` in a struct's
    /// own writer, `(*binding)` in an enum variant's.
    pub fn access(&self) -> proc_macro2::TokenStream {
        match &self.binding {
            Some(b) => quote::quote! { (*#b) },
            None => {
                let m = &self.member;
                quote::quote! { this.#m }
            }
        }
    }

    /// The wrapper used when `compress_int` is as given.
    pub fn codec(&self, compress_int: bool) -> Codec {
        if self.fory_form {
            return Codec::Fory;
        }
        match (self.encoding, self.int_base.is_some()) {
            (Some(Encoding::Fixed), _) => Codec::Fixed,
            (Some(Encoding::Tagged), _) => Codec::Tagged,
            (Some(Encoding::Varint), _) => Codec::Plain,
            (None, true) if !compress_int => Codec::Fixed,
            (None, _) => Codec::Plain,
        }
    }

    /// The guessed wire type of a primitive field; `None` for other fields.
    pub fn prim(&self, compress_int: bool) -> Option<Prim> {
        let scalar = self.scalar.as_deref()?;
        let name = match (scalar, self.codec(compress_int)) {
            ("bool", _) => "BOOL",
            ("i8", _) => "INT8",
            ("i16", _) => "INT16",
            ("u8", _) => "UINT8",
            ("u16", _) => "UINT16",
            ("F16", _) => "FLOAT16",
            ("BF16", _) => "BFLOAT16",
            ("f32", _) => "FLOAT32",
            ("f64", _) => "FLOAT64",
            ("i32", Codec::Plain) => "VARINT32",
            ("i32", _) | ("Fixed<i32>", _) => "INT32",
            ("i64", Codec::Plain) => "VARINT64",
            ("i64", Codec::Fixed) | ("Fixed<i64>", _) => "INT64",
            ("i64", Codec::Tagged) | ("Tagged<i64>", _) => "TAGGED_INT64",
            ("u32", Codec::Plain) => "VAR_UINT32",
            ("u32", _) | ("Fixed<u32>", _) => "UINT32",
            ("u64", Codec::Plain) => "VAR_UINT64",
            ("u64", Codec::Fixed) | ("Fixed<u64>", _) => "UINT64",
            ("u64", Codec::Tagged) | ("Tagged<u64>", _) => "TAGGED_UINT64",
            _ => return None,
        };
        let row = table::wire_type_named(name)?;
        Some(Prim {
            name: row.name,
            type_id: row.id,
            size: row.size,
            compressed: row.compressed,
        })
    }

    /// True when the spelling says the field's wire form is nullable.
    pub fn spelled_nullable(&self) -> bool {
        self.is_option || self.flagged
    }

    /// Sort key of names: tag ids first (by id), then by snake_case name, then by the name.
    pub fn name_key(&self) -> (u8, u32, String, String) {
        match self.tag {
            Some(t) => (0, t, String::new(), String::new()),
            None => (1, 0, self.snake.clone(), self.wire_name.clone()),
        }
    }

    /// The field's identity in the schema fingerprint: the tag id or the snake_case name.
    pub fn fingerprint_name(&self) -> String {
        match self.tag {
            Some(t) => t.to_string(),
            None => self.snake.clone(),
        }
    }
}

/// Sets each plan's `rank`: its position when sorted by name key.
pub fn rank(plans: &mut [Plan]) {
    let mut by_name: Vec<usize> = (0..plans.len()).collect();
    by_name.sort_by_key(|&i| plans[i].name_key());
    for (r, i) in by_name.into_iter().enumerate() {
        plans[i].rank = r as u32;
    }
}

/// Indices of `plans` in the wire order that their spelling implies, for `compress_int`:
/// non-nullable primitives, then nullable primitives (each: fixed-size before
/// variable-length, larger first, then by type id, then by name), then every other field by
/// name. The same rules as `fury::__private::field_order`, applied to the guesses.
pub fn guessed_order(plans: &[Plan], compress_int: bool) -> Vec<usize> {
    let key = |i: usize| {
        let f = &plans[i];
        match f.prim(compress_int) {
            Some(p) => (
                f.spelled_nullable() as u8,
                p.compressed,
                std::cmp::Reverse(p.size),
                p.type_id,
                f.rank,
            ),
            None => (2, false, std::cmp::Reverse(0), 0, f.rank),
        }
    };
    let mut order: Vec<usize> = (0..plans.len()).collect();
    order.sort_by_key(|&i| key(i));
    order
}
