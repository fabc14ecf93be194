//! The xlang field order of a struct, computed at compile time from the field types' own
//! [`WireType`](super::WireType) metadata, so that a type alias or a generic parameter is
//! ordered by what it is, not by how it is spelled.
//!
//! The order: non-nullable primitives, then nullable primitives (each group fixed-size before
//! variable-length, larger before smaller, then by type id, then by name), then every other
//! field by name (tag ids first, by id). The derive ranks the names; the rest comes from the
//! types here.

use crate::types::TypeId;

/// One field's sort key.
#[derive(Clone, Copy, Debug)]
pub struct FieldKey {
    group: u8,
    compressed: bool,
    size: u8,
    type_id: u8,
    rank: u32,
}

impl FieldKey {
    /// The key of a field of wire type `id`, nullable or not, whose name comes `rank`-th among
    /// the struct's field names (tag ids first).
    pub const fn new(id: TypeId, nullable: bool, rank: u32) -> Self {
        let row = id.row();
        if row.size > 0 {
            FieldKey {
                group: nullable as u8,
                compressed: row.compressed,
                size: row.size,
                type_id: id as u8,
                rank,
            }
        } else {
            FieldKey {
                group: 2,
                compressed: false,
                size: 0,
                type_id: 0,
                rank,
            }
        }
    }

    /// True when `self` is written before `other` (for orders computed at run time).
    #[cfg(feature = "serde")]
    pub(crate) fn precedes(&self, other: &FieldKey) -> bool {
        self.before(other)
    }

    /// True when `self` is written before `other`.
    const fn before(&self, other: &FieldKey) -> bool {
        if self.group != other.group {
            return self.group < other.group;
        }
        if self.compressed != other.compressed {
            return !self.compressed;
        }
        if self.size != other.size {
            return self.size > other.size;
        }
        if self.type_id != other.type_id {
            return self.type_id < other.type_id;
        }
        self.rank < other.rank
    }
}

/// The fields' indices (declaration order) in wire order.
pub const fn field_order<const N: usize>(keys: [FieldKey; N]) -> [usize; N] {
    let mut order = [0usize; N];
    let mut i = 0;
    while i < N {
        order[i] = i;
        i += 1;
    }
    // Insertion sort: structs have few fields, and this runs in the compiler.
    let mut i = 1;
    while i < N {
        let mut j = i;
        while j > 0 && keys[order[j]].before(&keys[order[j - 1]]) {
            let t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
            j -= 1;
        }
        i += 1;
    }
    order
}

/// True when both orders are the same.
pub const fn same_order(a: &[usize], b: &[usize]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// The error for a field that a derived reader's order did not reach, which a correct
/// order (a permutation of the fields) never gives.
#[cold]
pub fn unordered_field<T>() -> crate::Error {
    crate::Error::new(crate::ErrorKind::Invalid {
        what: format!(
            "the field order of {} misses a field",
            std::any::type_name::<T>()
        ),
    })
}

/// The field order of a derived struct, for both integer encodings (`compress_int` on and
/// off), and whether it is the order the derive assumed from the spelling of the field types
/// (then the generated code with that order built in is used; otherwise a general one that
/// follows these tables).
pub trait StructLayout {
    /// Wire order with `compress_int` on.
    const ORDER_C: &'static [usize];
    /// Wire order with `compress_int` off.
    const ORDER_F: &'static [usize];
    /// Both orders are the ones the derive assumed.
    const AS_SPELLED: bool;
}

#[cfg(test)]
mod tests {
    use super::{field_order, FieldKey};
    use crate::types::TypeId;

    #[test]
    fn primitives_first_then_by_size_then_others_by_name() {
        let keys = [
            FieldKey::new(TypeId::String, false, 0),   // a: String
            FieldKey::new(TypeId::VarInt32, false, 1), // b: i32
            FieldKey::new(TypeId::Int64, false, 2),    // c: Fixed<i64>
            FieldKey::new(TypeId::Float64, true, 3),   // d: Option<f64>
            FieldKey::new(TypeId::Bool, false, 4),     // e: bool
            FieldKey::new(TypeId::List, false, 5),     // f: Vec<String>
            FieldKey::new(TypeId::Int64, false, 6),    // g: Fixed<i64>
        ];
        assert_eq!(field_order(keys), [2, 6, 4, 1, 3, 0, 5]);
    }
}
