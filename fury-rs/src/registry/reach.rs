//! Registration that follows the types: registering a type also registers the derived types
//! its fields reach (through variants, containers and generic arguments) that name their own
//! registration, and refuses one that names none and is not registered yet, with the path of
//! the field that reaches it.

use super::table::{type_key, Registry, UserType};
use crate::error::{Error, ErrorKind, Result};
use std::collections::HashSet;

/// A walk over the types reachable from one registered type. Generated code calls
/// [`Reach::field`] for each field and `WireType::reach` for its type; a user type calls
/// [`Reach::user`].
#[doc(hidden)]
pub struct Reach<'a> {
    registry: &'a mut Registry,
    /// The field names from the root to the current field.
    path: Vec<&'static str>,
    root: &'static str,
    seen: HashSet<std::any::TypeId>,
}

impl<'a> Reach<'a> {
    /// Walks the fields of `T`, already registered in `registry`.
    pub(crate) fn walk<T: UserType>(registry: &'a mut Registry) -> Result<()> {
        let mut reach = Reach {
            registry,
            path: Vec::new(),
            root: short_name(std::any::type_name::<T>()),
            seen: HashSet::new(),
        };
        reach.seen.insert(type_key::<T>());
        T::reach_fields(&mut reach)
    }

    /// Walks what the field `name` reaches with `walk`.
    pub fn field(
        &mut self,
        name: &'static str,
        walk: impl FnOnce(&mut Self) -> Result<()>,
    ) -> Result<()> {
        self.path.push(name);
        let r = walk(self);
        self.path.pop();
        r
    }

    /// A user type reached: registered from its attributes if it is not registered yet (an
    /// error if it has none), then its own fields, once per walk.
    pub fn user<T: UserType>(&mut self) -> Result<()> {
        if !self.seen.insert(type_key::<T>()) {
            return Ok(());
        }
        if self.registry.get::<T>().is_none() {
            let Some(registration) = T::registration() else {
                return Err(self.unregistered::<T>());
            };
            self.registry.add::<T>(T::KIND, registration)?;
        }
        T::reach_fields(self)
    }

    #[cold]
    fn unregistered<T>(&self) -> Error {
        let mut at = self.root.to_string();
        for p in &self.path {
            at.push('.');
            at.push_str(p);
        }
        Error::new(ErrorKind::Invalid {
            what: format!(
                "{at}: {} is not registered and its type names no registration \
                 (#[fury(id = ..)] or #[fury(namespace = .., name = ..)]); register it \
                 with register_by_id or register_by_name first",
                std::any::type_name::<T>()
            ),
        })
    }
}

/// `a::b::Name<c::D>` -> `Name<c::D>`: the type's own name, for field paths.
fn short_name(full: &'static str) -> &'static str {
    let end = full.find('<').unwrap_or(full.len());
    let start = full
        .get(..end)
        .and_then(|head| head.rfind("::"))
        .map_or(0, |i| i + 2);
    full.get(start..).unwrap_or(full)
}
