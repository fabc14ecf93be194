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

/// The bytes fields of a game save (`Vec<u8>` is BINARY in fury-rs and pyfory, LIST<UINT8> in
/// the official crate).
#[derive(fury::FuryObject, fory::ForyStruct, Debug, Clone, PartialEq, Default)]
#[fury(id = 220)]
pub struct SaveBytes {
    pub data: Vec<u8>,
    pub extra: Option<Vec<u8>>,
    pub chunks: Vec<Vec<u8>>,
}

/// Player positions as tuples (a list of FLOAT64 with DECL_TYPE in fury-rs and pyfory, a
/// list of nullable UNKNOWN in the official crate).
#[derive(fury::FuryObject, fory::ForyStruct, Debug, Clone, PartialEq, Default)]
#[fury(id = 221)]
pub struct SaveTuples {
    pub position: (f64, f64, f64),
    pub entered_nether_position: Option<(f64, f64, f64)>,
    pub spawn: Option<(i32, i32)>,
}

/// Fixed arrays: `[f32; 3]` and `[u8; 16]`.
#[derive(fury::FuryObject, fory::ForyStruct, Debug, Clone, PartialEq, Default)]
#[fury(id = 222)]
pub struct SaveArrays {
    pub rotation: [f32; 3],
    pub uuid: [u8; 16],
}

/// Vectors of primitives, nested and optional.
#[derive(fury::FuryObject, fory::ForyStruct, Debug, Clone, PartialEq, Default)]
#[fury(id = 223)]
pub struct SaveVectors {
    pub inventory: Vec<u16>,
    pub path: Vec<Vec<u16>>,
    pub scores: Option<Vec<i32>>,
}

/// A Minecraft-like player save with every form above in one struct.
#[derive(fury::FuryObject, fory::ForyStruct, Debug, Clone, PartialEq, Default)]
#[fury(id = 224)]
pub struct PlayerSave {
    pub name: String,
    pub data: Vec<u8>,
    pub position: (f64, f64, f64),
    pub entered_nether_position: Option<(f64, f64, f64)>,
    pub rotation: [f32; 3],
    pub uuid: [u8; 16],
    pub inventory: Vec<u16>,
    pub chunks: Vec<Vec<u8>>,
}

// The game-save types again with `#[fury(form = "fory")]`: fury-rs writes the official
// crate's forms for every field where they differ from pyfory's. (Spelled out: the official
// derive does not accept a tuple type that went through a `ty` macro fragment.)

/// `SaveBytes` in the official crate's forms.
#[derive(fury::FuryObject, fory::ForyStruct, Debug, Clone, PartialEq, Default)]
#[fury(id = 230, form = "fory")]
pub struct SaveBytesFory {
    pub data: Vec<u8>,
    pub extra: Option<Vec<u8>>,
    pub chunks: Vec<Vec<u8>>,
}

impl From<SaveBytes> for SaveBytesFory {
    fn from(v: SaveBytes) -> Self {
        SaveBytesFory {
            data: v.data,
            extra: v.extra,
            chunks: v.chunks,
        }
    }
}

/// `SaveTuples` in the official crate's forms.
#[derive(fury::FuryObject, fory::ForyStruct, Debug, Clone, PartialEq, Default)]
#[fury(id = 231, form = "fory")]
pub struct SaveTuplesFory {
    pub position: (f64, f64, f64),
    pub entered_nether_position: Option<(f64, f64, f64)>,
    pub spawn: Option<(i32, i32)>,
}

impl From<SaveTuples> for SaveTuplesFory {
    fn from(v: SaveTuples) -> Self {
        SaveTuplesFory {
            position: v.position,
            entered_nether_position: v.entered_nether_position,
            spawn: v.spawn,
        }
    }
}

/// `SaveArrays` in the official crate's forms.
#[derive(fury::FuryObject, fory::ForyStruct, Debug, Clone, PartialEq, Default)]
#[fury(id = 232, form = "fory")]
pub struct SaveArraysFory {
    pub rotation: [f32; 3],
    pub uuid: [u8; 16],
}

impl From<SaveArrays> for SaveArraysFory {
    fn from(v: SaveArrays) -> Self {
        SaveArraysFory {
            rotation: v.rotation,
            uuid: v.uuid,
        }
    }
}

/// `SaveVectors` in the official crate's forms.
#[derive(fury::FuryObject, fory::ForyStruct, Debug, Clone, PartialEq, Default)]
#[fury(id = 233, form = "fory")]
pub struct SaveVectorsFory {
    pub inventory: Vec<u16>,
    pub path: Vec<Vec<u16>>,
    pub scores: Option<Vec<i32>>,
}

impl From<SaveVectors> for SaveVectorsFory {
    fn from(v: SaveVectors) -> Self {
        SaveVectorsFory {
            inventory: v.inventory,
            path: v.path,
            scores: v.scores,
        }
    }
}

/// `PlayerSave` in the official crate's forms.
#[derive(fury::FuryObject, fory::ForyStruct, Debug, Clone, PartialEq, Default)]
#[fury(id = 234, form = "fory")]
pub struct PlayerSaveFory {
    pub name: String,
    pub data: Vec<u8>,
    pub position: (f64, f64, f64),
    pub entered_nether_position: Option<(f64, f64, f64)>,
    pub rotation: [f32; 3],
    pub uuid: [u8; 16],
    pub inventory: Vec<u16>,
    pub chunks: Vec<Vec<u8>>,
}

impl From<PlayerSave> for PlayerSaveFory {
    fn from(v: PlayerSave) -> Self {
        PlayerSaveFory {
            name: v.name,
            data: v.data,
            position: v.position,
            entered_nether_position: v.entered_nether_position,
            rotation: v.rotation,
            uuid: v.uuid,
            inventory: v.inventory,
            chunks: v.chunks,
        }
    }
}

/// The game-save rows' values.
pub fn save_values() -> (SaveBytes, SaveTuples, SaveArrays, SaveVectors, PlayerSave) {
    (
        SaveBytes {
            data: vec![1, 2, 255],
            extra: Some(vec![9, 8]),
            chunks: vec![vec![1, 2], vec![3]],
        },
        SaveTuples {
            position: (1.5, 64.0, -20.25),
            entered_nether_position: Some((8.0, 70.5, -3.0)),
            spawn: Some((100, -200)),
        },
        SaveArrays {
            rotation: [0.5, 90.0, -45.0],
            uuid: [7; 16],
        },
        SaveVectors {
            inventory: vec![31, 38, 45],
            path: vec![vec![6, 7, 8], vec![]],
            scores: Some(vec![-3, 70_000]),
        },
        PlayerSave {
            name: "steve".into(),
            data: vec![0, 1, 2, 3],
            position: (1.5, 64.0, -20.25),
            entered_nether_position: None,
            rotation: [0.5, 90.0, -45.0],
            uuid: [3; 16],
            inventory: vec![1, 2],
            chunks: vec![vec![4, 5]],
        },
    )
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
