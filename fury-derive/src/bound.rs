//! The where clause of the generated impls: the type's own, plus either the bounds of
//! `#[fury(bound = "...")]` or, as serde infers them, `T: Serialize + DeserializeOwned +
//! 'static` for each type parameter that a serialized field's type mentions.

use crate::ast::Container;
use crate::fields::Plan;
use std::collections::HashSet;

/// The type's own where clause (empty if it has none).
pub fn own_where(generics: &syn::Generics) -> syn::WhereClause {
    generics
        .where_clause
        .clone()
        .unwrap_or_else(|| syn::WhereClause {
            where_token: Default::default(),
            predicates: Default::default(),
        })
}

pub fn where_clause(cont: &Container, plans: &[Plan]) -> syn::WhereClause {
    let mut clause = own_where(cont.generics);
    if let Some(preds) = cont.attrs.bound.get() {
        clause.predicates.extend(preds.iter().cloned());
        return clause;
    }
    let params: HashSet<String> = cont
        .generics
        .type_params()
        .map(|p| p.ident.to_string())
        .collect();
    let mut used = HashSet::new();
    for p in plans.iter().filter(|p| p.with.is_none()) {
        mentions(p.ty, &params, &mut used);
    }
    bound_used(&mut clause, cont, &used);
    clause
}

/// [`where_clause`] for an enum with data: the bounds for the type parameters that the
/// fields of its variants mention.
pub fn variants_where(cont: &Container, variants: &[crate::ast::Variant]) -> syn::WhereClause {
    let mut clause = own_where(cont.generics);
    if let Some(preds) = cont.attrs.bound.get() {
        clause.predicates.extend(preds.iter().cloned());
        return clause;
    }
    let params: HashSet<String> = cont
        .generics
        .type_params()
        .map(|p| p.ident.to_string())
        .collect();
    let mut used = HashSet::new();
    for f in variants.iter().flat_map(|v| &v.fields) {
        if !f.attrs.with.is_set() && !f.attrs.skip.is_set() {
            mentions(f.ty, &params, &mut used);
        }
    }
    bound_used(&mut clause, cont, &used);
    clause
}

fn bound_used(clause: &mut syn::WhereClause, cont: &Container, used: &HashSet<String>) {
    for param in cont.generics.type_params() {
        if used.contains(&param.ident.to_string()) {
            let ident = &param.ident;
            clause.predicates.push(syn::parse_quote! {
                #ident: ::fury::Serialize + ::fury::DeserializeOwned + 'static
            });
        }
    }
}

/// Adds to `used` the names of `params` that `ty` mentions.
fn mentions(ty: &syn::Type, params: &HashSet<String>, used: &mut HashSet<String>) {
    use syn::Type::*;
    match ty {
        Path(p) => {
            if let Some(q) = &p.qself {
                mentions(&q.ty, params, used);
            }
            if let Some(first) = p.path.segments.first() {
                let name = first.ident.to_string();
                if params.contains(&name) {
                    used.insert(name);
                }
            }
            for seg in &p.path.segments {
                if let syn::PathArguments::AngleBracketed(args) = &seg.arguments {
                    for arg in &args.args {
                        if let syn::GenericArgument::Type(t) = arg {
                            mentions(t, params, used);
                        }
                    }
                }
            }
        }
        Reference(r) => mentions(&r.elem, params, used),
        Slice(s) => mentions(&s.elem, params, used),
        Array(a) => mentions(&a.elem, params, used),
        Paren(p) => mentions(&p.elem, params, used),
        Group(g) => mentions(&g.elem, params, used),
        Ptr(p) => mentions(&p.elem, params, used),
        Tuple(t) => t.elems.iter().for_each(|e| mentions(e, params, used)),
        _ => {}
    }
}
