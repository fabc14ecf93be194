//! Collects every error of one derive, so the user sees all of them at once (as serde does).

use std::cell::RefCell;
use std::fmt::Display;

/// The errors found so far.
#[derive(Default)]
pub struct Ctxt {
    errors: RefCell<Vec<syn::Error>>,
}

impl Ctxt {
    /// An error at `span`.
    pub fn error_at(&self, span: proc_macro2::Span, msg: impl Display) {
        self.errors
            .borrow_mut()
            .push(syn::Error::new(span, msg.to_string()));
    }

    /// An error covering the tokens of `obj`.
    pub fn error_spanned_by(&self, obj: impl quote::ToTokens, msg: impl Display) {
        self.errors
            .borrow_mut()
            .push(syn::Error::new_spanned(obj, msg.to_string()));
    }

    /// An error from syn's parsers.
    pub fn syn_error(&self, e: syn::Error) {
        self.errors.borrow_mut().push(e);
    }

    /// All errors as one, if there were any.
    pub fn check(self) -> syn::Result<()> {
        let mut all = self.errors.into_inner().into_iter();
        let Some(mut first) = all.next() else {
            return Ok(());
        };
        for e in all {
            first.combine(e);
        }
        Err(first)
    }
}
