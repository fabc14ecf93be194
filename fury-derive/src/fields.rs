//! Struct fields: classification by Rust type, and the wire order of the xlang format.

use crate::attrs::{Encoding, FieldAttrs};
use syn::{GenericArgument, PathArguments, Type};

/// A primitive field's place in the ordering: wire type id, size in bytes, and whether the
/// encoding is variable-length.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Prim {
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
}

/// One serialized field.
pub struct Field {
    pub ident: syn::Ident,
    pub ty: Type,
    /// Name on the wire (after `rename`), as the peers' field name.
    pub wire_name: String,
    pub snake: String,
    pub tag: Option<u32>,
    /// `Option<..>` in Rust.
    pub is_option: bool,
    /// `#[fury(nullable)]` on a non-`Option` field.
    pub flagged: bool,
    /// `#[fury(ref)]`: the field tracks references (with tracking on).
    pub track_ref: bool,
    /// The base scalar type's name when it is one of the integer types an encoding applies to.
    pub int_base: Option<String>,
    pub encoding: Option<Encoding>,
    /// The type inside `Option`, or the type itself.
    pub inner: Type,
    /// The base type ident when the field is a primitive scalar (after `Option`).
    pub scalar: Option<String>,
    /// The type (after `Option`) is written `String`, with no generic arguments.
    pub is_string: bool,
}

/// Converts a field name to snake_case the way the peers do: an upper-case letter starts a
/// new word after a lower-case letter or digit, or after an upper-case letter when a
/// lower-case letter follows; trailing underscores are dropped.
pub fn snake_case(name: &str) -> String {
    let chars: Vec<char> = name.chars().collect();
    let mut out = String::with_capacity(name.len() + 4);
    let mut prev: Option<char> = None;
    for (i, &c) in chars.iter().enumerate() {
        if c == '_' {
            out.push('_');
            prev = Some(c);
            continue;
        }
        if c.is_uppercase() {
            let next_lower = chars.get(i + 1).is_some_and(|n| n.is_lowercase());
            let after_word = prev.is_some_and(|p| p.is_lowercase() || p.is_ascii_digit());
            let after_upper = prev.is_some_and(|p| p.is_uppercase());
            if !out.is_empty() && !out.ends_with('_') && (after_word || (after_upper && next_lower))
            {
                out.push('_');
            }
            out.extend(c.to_lowercase());
        } else {
            out.push(c);
        }
        prev = Some(c);
    }
    out.trim_end_matches('_').to_string()
}

/// `Option<T>` -> `Some(T)`.
fn option_inner(ty: &Type) -> Option<&Type> {
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

/// The last path segment's ident of a plain path type (`i32`, `fury::F16`).
fn last_ident(ty: &Type) -> Option<String> {
    match ty {
        Type::Path(p) if p.qself.is_none() => p.path.segments.last().map(|s| s.ident.to_string()),
        _ => None,
    }
}

/// The first generic argument's last ident (`Fixed<i32>` -> `i32`).
fn wrapped_ident(ty: &Type) -> Option<String> {
    let Type::Path(p) = ty else { return None };
    let last = p.path.segments.last()?;
    let PathArguments::AngleBracketed(args) = &last.arguments else {
        return None;
    };
    match args.args.first()? {
        GenericArgument::Type(t) => last_ident(t),
        _ => None,
    }
}

impl Field {
    pub fn new(ident: syn::Ident, ty: Type, attrs: &FieldAttrs) -> syn::Result<Self> {
        let wire_name = attrs
            .rename
            .clone()
            .unwrap_or_else(|| ident.to_string().trim_start_matches("r#").to_string());
        let is_option = option_inner(&ty).is_some();
        let inner = option_inner(&ty).cloned().unwrap_or_else(|| ty.clone());
        let base = last_ident(&inner);
        let int_base = base
            .clone()
            .filter(|b| matches!(b.as_str(), "i32" | "i64" | "u32" | "u64"));
        let is_string = base.as_deref() == Some("String")
            && matches!(&inner, Type::Path(p) if p.path.segments.last().is_some_and(|s| s.arguments.is_empty()));
        let scalar = match base.as_deref() {
            Some(
                "bool" | "i8" | "i16" | "i32" | "i64" | "u8" | "u16" | "u32" | "u64" | "f32"
                | "f64" | "F16" | "BF16",
            ) if matches!(&inner, Type::Path(p) if p.path.segments.last().is_some_and(|s| s.arguments.is_empty())) => {
                base.clone()
            }
            Some(w @ ("Fixed" | "Tagged")) => {
                let arg = wrapped_ident(&inner);
                match (w, arg.as_deref()) {
                    ("Fixed", Some(a @ ("i32" | "i64" | "u32" | "u64"))) => {
                        Some(format!("Fixed<{a}>"))
                    }
                    ("Tagged", Some(a @ ("i64" | "u64"))) => Some(format!("Tagged<{a}>")),
                    _ => None,
                }
            }
            _ => None,
        };
        if let Some((enc, span)) = attrs.encoding {
            let ok = matches!(
                (int_base.as_deref(), enc),
                (Some(_), Encoding::Varint | Encoding::Fixed)
                    | (Some("i64" | "u64"), Encoding::Tagged)
            );
            if !ok || scalar.as_deref() != int_base.as_deref() {
                return Err(syn::Error::new(
                    span,
                    "`encoding` applies to i32, u32, i64 and u64 fields (and their Option); \
                     \"tagged\" only to i64 and u64",
                ));
            }
        }
        Ok(Field {
            snake: snake_case(&wire_name),
            wire_name,
            tag: attrs.tag,
            is_option,
            flagged: attrs.nullable && !is_option,
            track_ref: attrs.track_ref,
            encoding: attrs.encoding.map(|(e, _)| e),
            int_base: if scalar.as_deref() == int_base.as_deref() {
                int_base
            } else {
                None
            },
            ident,
            ty,
            inner,
            scalar,
            is_string,
        })
    }

    /// True when the field's wire form is nullable (Option, or declared nullable).
    pub fn nullable(&self) -> bool {
        self.is_option || self.flagged
    }

    /// The wrapper used when `compress_int` is as given.
    pub fn codec(&self, compress_int: bool) -> Codec {
        match (self.int_base.as_deref(), self.encoding) {
            (None, _) => Codec::Plain,
            (Some(_), Some(Encoding::Fixed)) => Codec::Fixed,
            (Some(_), Some(Encoding::Tagged)) => Codec::Tagged,
            (Some(_), Some(Encoding::Varint)) => Codec::Plain,
            (Some(_), None) if compress_int => Codec::Plain,
            (Some(_), None) => Codec::Fixed,
        }
    }

    /// Type id, size and compression of a primitive field; `None` for other fields.
    pub fn prim(&self, compress_int: bool) -> Option<Prim> {
        let scalar = self.scalar.as_deref()?;
        let codec = self.codec(compress_int);
        let p = |type_id, size, compressed| {
            Some(Prim {
                type_id,
                size,
                compressed,
            })
        };
        match (scalar, codec) {
            ("bool", _) => p(1, 1, false),
            ("i8", _) => p(2, 1, false),
            ("i16", _) => p(3, 2, false),
            ("i32", Codec::Plain) => p(5, 4, true),
            ("i32", _) | ("Fixed<i32>", _) => p(4, 4, false),
            ("i64", Codec::Plain) => p(7, 8, true),
            ("i64", Codec::Fixed) | ("Fixed<i64>", _) => p(6, 8, false),
            ("i64", Codec::Tagged) | ("Tagged<i64>", _) => p(8, 8, true),
            ("u8", _) => p(9, 1, false),
            ("u16", _) => p(10, 2, false),
            ("u32", Codec::Plain) => p(12, 4, true),
            ("u32", _) | ("Fixed<u32>", _) => p(11, 4, false),
            ("u64", Codec::Plain) => p(14, 8, true),
            ("u64", Codec::Fixed) | ("Fixed<u64>", _) => p(13, 8, false),
            ("u64", Codec::Tagged) | ("Tagged<u64>", _) => p(15, 8, true),
            ("F16", _) => p(17, 2, false),
            ("BF16", _) => p(18, 2, false),
            ("f32", _) => p(19, 4, false),
            ("f64", _) => p(20, 8, false),
            _ => None,
        }
    }

    /// Sort key shared by every group: tag ids first (by id), then by snake_case name, then
    /// by the name itself.
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

/// Indices of `fields` in wire order for the given `compress_int`: non-nullable primitives,
/// then nullable primitives (each: fixed-size before variable-length, larger first, then by
/// type id, then by name key), then every other field by name key.
pub fn wire_order(fields: &[Field], compress_int: bool) -> Vec<usize> {
    let mut prims = Vec::new();
    let mut nullable_prims = Vec::new();
    let mut others = Vec::new();
    for (i, f) in fields.iter().enumerate() {
        match f.prim(compress_int) {
            Some(p) if f.nullable() => nullable_prims.push((i, p)),
            Some(p) => prims.push((i, p)),
            None => others.push(i),
        }
    }
    let prim_key = |&(i, p): &(usize, Prim)| {
        (
            p.compressed,
            std::cmp::Reverse(p.size),
            p.type_id,
            fields[i].name_key(),
        )
    };
    prims.sort_by_key(prim_key);
    nullable_prims.sort_by_key(prim_key);
    others.sort_by_key(|&i| fields[i].name_key());
    prims
        .into_iter()
        .chain(nullable_prims)
        .map(|(i, _)| i)
        .chain(others)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::snake_case;

    #[test]
    fn snake_case_matches_the_peers() {
        for (input, want) in [
            ("myField", "my_field"),
            ("MyHTTPServer2", "my_http_server2"),
            ("already_snake", "already_snake"),
            ("ABC", "abc"),
            ("userID", "user_id"),
            ("x1Y", "x1_y"),
            ("trailing_", "trailing"),
            ("_private", "_private"),
        ] {
            assert_eq!(snake_case(input), want, "{input}");
        }
    }
}
