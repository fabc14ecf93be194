//! Read plans: how the fields of a peer's TypeDef map onto a local struct's fields. Built once
//! per (remote TypeDef, local type, integer encoding) and cached beside the TypeDef.

use crate::error::{Error, ErrorKind, Result};
use crate::meta::typedef::{FieldId, FieldInfo, FieldType};
use crate::types::table::{wire_type, wire_type_named, Family};
use crate::types::TypeId;

/// How to read the fields of one remote TypeDef into one local struct.
#[derive(Debug)]
pub struct ReadPlan {
    /// Per remote field, in wire order: the local field (its position in the local wire order
    /// for `compress_int = true`) or `None` to skip it, and the remote declared type.
    pub steps: Vec<PlanStep>,
}

/// One remote field.
#[derive(Debug)]
pub struct PlanStep {
    /// Index of the local field receiving the value, if any.
    pub local: Option<usize>,
    /// The remote declared type.
    pub field_type: FieldType,
}

fn same_id(a: &FieldId, b: &FieldId) -> bool {
    use crate::types::snake::snake_case as snake;
    match (a, b) {
        (FieldId::Tag(x), FieldId::Tag(y)) => x == y,
        (FieldId::Name(x), FieldId::Name(y)) => x == y || snake(x) == snake(y),
        _ => false,
    }
}

fn family(id: u8) -> Option<Family> {
    wire_type(id).map(|t| t.family)
}

/// The family of a dense array's elements (`INT32_ARRAY` -> integers); `None` for other
/// types and for the untyped `ARRAY`.
fn element_family(id: u8) -> Option<Family> {
    let row = wire_type(id).filter(|t| t.family == Family::Array)?;
    let element = row.name.strip_suffix("_ARRAY")?;
    wire_type_named(element).map(|t| t.family)
}

/// A scalar family whose values convert into each other (integers by range, floats by
/// precision).
fn convertible(a: Option<Family>, b: Option<Family>) -> bool {
    matches!(
        (a, b),
        (Some(Family::Int), Some(Family::Int))
            | (Some(Family::Float), Some(Family::Float))
            | (Some(Family::Bool), Some(Family::Bool))
    )
}

/// A LIST of one primitive family on one side and a dense array of that family on the other
/// (the official crate declares `Vec<i32>` fields as LIST, pyfory and fury-rs as
/// INT32_ARRAY): read element by element, converted.
fn list_and_array(remote: &FieldType, local: &FieldType) -> bool {
    let list_elem = |t: &FieldType| match t.children.as_slice() {
        [e] if t.type_id == TypeId::List as u8 => family(e.type_id),
        _ => None,
    };
    convertible(list_elem(remote), element_family(local.type_id))
        || convertible(element_family(remote.type_id), list_elem(local))
}

/// Whether a value declared `remote` can be read into a field declared `local`.
fn readable(remote: &FieldType, local: &FieldType) -> bool {
    let (r, l) = (remote.type_id, local.type_id);
    if l == TypeId::Unknown as u8 || r == TypeId::Unknown as u8 {
        return true; // dynamic on one side: the value carries its type info
    }
    let (fr, fl) = (family(r), family(l));
    if convertible(fr, fl) && fr != Some(Family::Bool) {
        return true; // range- or precision-checked when read
    }
    if fr == fl && matches!(fr, Some(Family::Struct | Family::Enum)) {
        return true; // the nested TypeDef / variant id decides
    }
    if list_and_array(remote, local) {
        return true;
    }
    r == l
        && remote.children.len() == local.children.len()
        && remote
            .children
            .iter()
            .zip(&local.children)
            .all(|(a, b)| readable(a, b))
}

/// A field's name for messages: its name, or `#tag`.
pub(crate) fn name_of(id: &FieldId) -> String {
    match id {
        FieldId::Name(n) => n.clone(),
        FieldId::Tag(t) => format!("#{t}"),
    }
}

/// Builds the plan for reading `remote` fields into local fields `local` (wire order).
pub fn build_plan(remote: &[FieldInfo], local: &[FieldInfo], rust_name: &str) -> Result<ReadPlan> {
    let mut steps = Vec::with_capacity(remote.len());
    for rf in remote {
        let found = local.iter().position(|lf| same_id(&lf.id, &rf.id));
        if let Some(lf) = found.and_then(|i| local.get(i)) {
            if !readable(&rf.field_type, &lf.field_type) {
                return Err(Error::new(ErrorKind::TypeMismatch {
                    expected: format!(
                        "field `{}` of {rust_name} declared as type id {}",
                        name_of(&lf.id),
                        lf.field_type.type_id
                    ),
                    found: format!(
                        "the peer's field `{}` declared as type id {} (no conversion)",
                        name_of(&rf.id),
                        rf.field_type.type_id
                    ),
                }));
            }
        }
        steps.push(PlanStep {
            local: found,
            field_type: rf.field_type.clone(),
        });
    }
    Ok(ReadPlan { steps })
}
