//! Small types for the interop table, one per Rust shape that the core issue added to the
//! derive and the std impls: do fury-rs and the official `fory` crate write the same bytes
//! for them, and read each other's? Informative only, like the rest of the table.

use std::collections::VecDeque;

/// A type alias of a primitive, and a tuple struct.
pub type OrderId = u64;

/// Type aliases of primitives, ordered by what they are.
#[derive(fury::FuryObject, fory::ForyStruct, Debug, Clone, PartialEq, Default)]
#[fury(id = 201)]
pub struct Aliased {
    pub label: String,
    pub id: OrderId,
    pub count: i32,
}

/// Tuple fields.
#[derive(fury::FuryObject, fory::ForyStruct, Debug, Clone, PartialEq, Default)]
#[fury(id = 202)]
pub struct Tuples {
    pub position: (f32, f32),
    pub pair: (i64, String),
}

/// Fixed-size array fields.
#[derive(fury::FuryObject, fory::ForyStruct, Debug, Clone, PartialEq, Default)]
#[fury(id = 203)]
pub struct Arrays {
    pub ids: [u32; 4],
    pub names: [String; 2],
}

/// `VecDeque` fields.
#[derive(fury::FuryObject, fory::ForyStruct, Debug, Clone, PartialEq, Default)]
#[fury(id = 204)]
pub struct Deques {
    pub numbers: VecDeque<i32>,
    pub words: VecDeque<String>,
}

/// `Vec<bool>` and `Vec<i32>` fields (dense arrays in fury-rs and pyfory).
#[derive(fury::FuryObject, fory::ForyStruct, Debug, Clone, PartialEq, Default)]
#[fury(id = 205)]
pub struct Vectors {
    pub flags: Vec<bool>,
    pub values: Vec<i32>,
}

/// A `usize` field (fory refuses it in xlang mode; fury-rs writes it as a u64).
#[derive(fury::FuryObject, fory::ForyStruct, Debug, Clone, PartialEq, Default)]
#[fury(id = 206)]
pub struct Sizes {
    pub len: usize,
}

/// Every row: the type's name and a value.
pub fn values() -> (Aliased, Tuples, Arrays, Deques, Vectors, Sizes) {
    (
        Aliased {
            label: "a".into(),
            id: 9_000_000_001,
            count: -3,
        },
        Tuples {
            position: (1.5, -2.0),
            pair: (7, "seven".into()),
        },
        Arrays {
            ids: [1, 2, 3, 4],
            names: ["x".into(), "y".into()],
        },
        Deques {
            numbers: VecDeque::from(vec![1, 2, 3]),
            words: VecDeque::from(vec!["w".to_string()]),
        },
        Vectors {
            flags: vec![true, false, true],
            values: vec![1, -2, 3],
        },
        Sizes { len: 300 },
    )
}
