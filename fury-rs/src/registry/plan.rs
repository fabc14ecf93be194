//! Read plans: how the fields of a peer's TypeDef map onto a local struct's fields. Built once
//! per (remote TypeDef, local type, integer encoding) and cached beside the TypeDef.

use crate::error::{Error, ErrorKind, Result};
use crate::meta::typedef::{FieldId, FieldInfo, FieldType};
use crate::types::table::{wire_type, Family};
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

/// The element type of the `Vec<T>` that is the dense array `id` in fury-rs: the wire type of
/// `T` (`i32` is VARINT32, so INT32_ARRAY goes with VARINT32). A LIST read into a local dense
/// array has its elements read as this type, and a local `List<T>` reads only the dense array
/// of its own `T`. `None` for other types (the tests check it against the impls).
fn dense_element(id: u8) -> Option<TypeId> {
    use TypeId as T;
    Some(match T::from_u8(id)? {
        T::BoolArray => T::Bool,
        T::Int8Array => T::Int8,
        T::Int16Array => T::Int16,
        T::Int32Array => T::VarInt32,
        T::Int64Array => T::VarInt64,
        T::UInt8Array => T::UInt8,
        T::UInt16Array => T::UInt16,
        T::UInt32Array => T::VarUInt32,
        T::UInt64Array => T::VarUInt64,
        T::Float16Array => T::Float16,
        T::BFloat16Array => T::BFloat16,
        T::Float32Array => T::Float32,
        T::Float64Array => T::Float64,
        _ => return None,
    })
}

/// Whether elements the peer declared as `remote` (and so wrote without type info) decode
/// right with the reader of local elements of type `local`: the same type, or the 32- and
/// 64-bit varints of one signedness, which share their encoding (the value is range-checked).
fn same_payload(remote: u8, local: u8) -> bool {
    use TypeId as T;
    let varint = |id: u8| id == T::VarInt32 as u8 || id == T::VarInt64 as u8;
    let var_uint = |id: u8| id == T::VarUInt32 as u8 || id == T::VarUInt64 as u8;
    remote == local || (varint(remote) && varint(local)) || (var_uint(remote) && var_uint(local))
}

/// The element type of a dense array, or of BINARY (`Vec<u8>`, which the official crate
/// declares as LIST<UINT8>).
fn array_element(id: u8) -> Option<TypeId> {
    if id == TypeId::Binary as u8 {
        return Some(TypeId::UInt8);
    }
    dense_element(id)
}

/// The declared element type of a LIST with one.
fn list_element(t: &FieldType) -> Option<u8> {
    match t.children.as_slice() {
        [e] if t.type_id == TypeId::List as u8 => Some(e.type_id),
        _ => None,
    }
}

/// A LIST of a primitive on one side and a dense array (or BINARY) on the other: the
/// official crate declares `Vec<i32>` as LIST<VARINT32> and `Vec<u8>` as LIST<UINT8>,
/// pyfory and fury-rs as INT32_ARRAY and BINARY. A LIST whose elements read as the array's
/// element type, or the dense array of the local LIST's element type.
fn list_and_array(remote: &FieldType, local: &FieldType) -> bool {
    if let (Some(r), Some(l)) = (list_element(remote), array_element(local.type_id)) {
        return same_payload(r, l as u8);
    }
    if let (Some(r), Some(l)) = (array_element(remote.type_id), list_element(local)) {
        return r as u8 == l;
    }
    false
}

/// For a field the peer declared as a LIST of lists or arrays of a primitive whose local
/// element type is the other form (`list_and_array` one level down: the official crate's
/// `Vec<Vec<u16>>` is LIST<LIST<UINT16>>, fury-rs's LIST<UINT16_ARRAY>): the peer's element
/// type, which the elements written without type info are read as
/// ([`crate::Deserialize`]'s `read_list_declared`). `None` for every other field.
pub(crate) fn declared_element(remote: &FieldType) -> Option<TypeId> {
    let [e] = remote.children.as_slice() else {
        return None;
    };
    if remote.type_id != TypeId::List as u8 {
        return None;
    }
    let form = array_element(e.type_id).is_some()
        || list_element(e)
            .is_some_and(|x| matches!(family(x), Some(Family::Bool | Family::Int | Family::Float)));
    if form {
        TypeId::from_u8(e.type_id)
    } else {
        None
    }
}

/// A LIST on both sides whose element types are `list_and_array` forms of one another.
fn list_of_list_and_array(remote: &FieldType, local: &FieldType) -> bool {
    match (remote.children.as_slice(), local.children.as_slice()) {
        ([r], [l]) if remote.type_id == TypeId::List as u8 && local.type_id == remote.type_id => {
            list_and_array(r, l) && declared_element(remote).is_some()
        }
        _ => false,
    }
}

/// Whether a value declared `remote` can be read into a field declared `local`. The
/// conversions apply to the field's own type; its element, key and value types must match
/// (see [`same_element`]).
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
    if list_and_array(remote, local) || list_of_list_and_array(remote, local) {
        return true;
    }
    r == l && same_children(remote, local)
}

/// Whether an element, key or value type the peer declared as `remote` is the local one: the
/// same type id at every depth (nullable and ref bits aside), or dynamic on one side, or a
/// struct or an enum on both (their own TypeDef / variant id decides). No conversion applies
/// here: elements written with DECL_TYPE carry no type info, so they can only be read as the
/// type the local container declares (spec 08, section 8.7).
fn same_element(remote: &FieldType, local: &FieldType) -> bool {
    let (r, l) = (remote.type_id, local.type_id);
    if l == TypeId::Unknown as u8 || r == TypeId::Unknown as u8 {
        return true;
    }
    let (fr, fl) = (family(r), family(l));
    if fr == fl && matches!(fr, Some(Family::Struct | Family::Enum)) {
        return true;
    }
    r == l && same_children(remote, local)
}

fn same_children(remote: &FieldType, local: &FieldType) -> bool {
    remote.children.len() == local.children.len()
        && remote
            .children
            .iter()
            .zip(&local.children)
            .all(|(a, b)| same_element(a, b))
}

/// A declared type for messages: its wire type name, with the element, key and value types
/// (`LIST<UINT16_ARRAY>`).
fn describe(t: &FieldType) -> String {
    let name = wire_type(t.type_id)
        .map(|row| row.name.to_string())
        .unwrap_or_else(|| format!("type id {}", t.type_id));
    if t.children.is_empty() {
        return name;
    }
    let children: Vec<String> = t.children.iter().map(describe).collect();
    format!("{name}<{}>", children.join(", "))
}

/// A field's name for messages: its name, or `#tag`.
pub(crate) fn name_of(id: &FieldId) -> String {
    match id {
        FieldId::Name(n) => n.clone(),
        FieldId::Tag(t) => format!("#{t}"),
    }
}

/// Builds the plan for reading `remote` fields into local fields `local` (wire order). A
/// remote field no local field is named after goes to the local field that has its name as
/// an alias (`aliases`: `(local name, alias)` pairs).
pub fn build_plan(
    remote: &[FieldInfo],
    local: &[FieldInfo],
    aliases: &[(&str, &str)],
    rust_name: &str,
) -> Result<ReadPlan> {
    let mut steps = Vec::with_capacity(remote.len());
    for rf in remote {
        let found = local
            .iter()
            .position(|lf| same_id(&lf.id, &rf.id))
            .or_else(|| {
                let (name, _) = aliases
                    .iter()
                    .find(|(_, alias)| same_id(&FieldId::Name((*alias).to_string()), &rf.id))?;
                let name = FieldId::Name((*name).to_string());
                local.iter().position(|lf| same_id(&lf.id, &name))
            });
        if let Some(lf) = found.and_then(|i| local.get(i)) {
            if !readable(&rf.field_type, &lf.field_type) {
                return Err(Error::new(ErrorKind::TypeMismatch {
                    expected: format!(
                        "field `{}` of {rust_name} declared as {}",
                        name_of(&lf.id),
                        describe(&lf.field_type)
                    ),
                    found: format!(
                        "the peer's field `{}` declared as {} (no conversion)",
                        name_of(&rf.id),
                        describe(&rf.field_type)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::serializer::WireType;
    use crate::{BF16, F16};

    fn check<T: WireType>() {
        let array = <Vec<T> as WireType>::TYPE_ID;
        assert_eq!(
            dense_element(array as u8),
            Some(T::TYPE_ID),
            "{}",
            std::any::type_name::<T>()
        );
    }

    #[test]
    fn dense_elements_are_the_element_types_of_the_vec_impls() {
        check::<bool>();
        check::<i8>();
        check::<i16>();
        check::<i32>();
        check::<i64>();
        check::<u16>();
        check::<u32>();
        check::<u64>();
        check::<F16>();
        check::<BF16>();
        check::<f32>();
        check::<f64>();
        // Vec<u8> is BINARY; UINT8_ARRAY is the fury::UInt8Array of u8
        assert_eq!(<crate::UInt8Array as WireType>::TYPE_ID, TypeId::UInt8Array);
        assert_eq!(dense_element(TypeId::UInt8Array as u8), Some(TypeId::UInt8));
    }

    fn list(e: FieldType) -> FieldType {
        FieldType {
            type_id: TypeId::List as u8,
            nullable: false,
            track_ref: false,
            children: vec![e],
        }
    }

    fn leaf(id: TypeId) -> FieldType {
        FieldType::leaf(id)
    }

    #[test]
    fn element_types_must_match_below_the_field() {
        use TypeId as T;
        // the field's own type converts
        assert!(readable(&leaf(T::VarInt32), &leaf(T::Int64)));
        assert!(readable(&list(leaf(T::UInt16)), &leaf(T::UInt16Array)));
        assert!(readable(&leaf(T::UInt16Array), &list(leaf(T::UInt16))));
        assert!(readable(&list(leaf(T::VarInt32)), &leaf(T::Int64Array)));
        // a LIST whose declared elements would be read with another layout
        assert!(!readable(&list(leaf(T::Int32)), &leaf(T::Int32Array)));
        assert!(!readable(&list(leaf(T::UInt16)), &leaf(T::UInt32Array)));
        assert!(!readable(&leaf(T::Int32Array), &list(leaf(T::VarInt64))));
        // nothing converts inside a container
        assert!(!readable(
            &list(leaf(T::VarInt32)),
            &list(leaf(T::VarInt64))
        ));
        // one level down, a LIST of a primitive and its dense array (or BINARY) are one
        // another's form: the official crate's nested vectors
        assert!(readable(
            &list(list(leaf(T::UInt16))),
            &list(leaf(T::UInt16Array))
        ));
        assert!(readable(
            &list(leaf(T::UInt16Array)),
            &list(list(leaf(T::UInt16)))
        ));
        assert!(readable(
            &list(list(leaf(T::UInt8))),
            &list(leaf(T::Binary))
        ));
        assert!(readable(&list(leaf(T::UInt8)), &leaf(T::Binary)));
        assert!(readable(&leaf(T::Binary), &list(leaf(T::UInt8))));
        // but not with another element layout, nor two levels down
        assert!(!readable(
            &list(list(leaf(T::UInt16))),
            &list(leaf(T::UInt32Array))
        ));
        assert!(!readable(
            &list(list(leaf(T::Int8))),
            &list(leaf(T::Binary))
        ));
        assert!(!readable(
            &list(list(list(leaf(T::UInt16)))),
            &list(list(leaf(T::UInt16Array)))
        ));
        // dynamic elements and nullability differences are read
        assert!(readable(&list(leaf(T::Unknown)), &list(leaf(T::Float32))));
        let mut nullable = leaf(T::String);
        nullable.nullable = true;
        assert!(readable(&list(nullable), &list(leaf(T::String))));
        assert_eq!(describe(&list(list(leaf(T::UInt16)))), "LIST<LIST<UINT16>>");
    }
}
