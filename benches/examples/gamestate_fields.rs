//! The bytes of GameState's `Entity` field by field: for each field, a one-field struct
//! (user id 126, `EntityKind` as 125) written by fury-rs and by the official crate `fory`
//! 1.7.7 in both modes, and whether each reads the other's; then the whole `Entity`.
//! `benches/scripts/gamestate_fields.py` prints pyfory's bytes for the same values
//! (spec/DISAGREEMENTS.md, section 49).
//!
//! `cargo run -p fury-benches --example gamestate_fields`
use fury_benches::data::{Entity, EntityKind};

fn hex(b: &[u8]) -> String {
    b.iter()
        .map(|x| format!("{x:02x}"))
        .collect::<Vec<_>>()
        .join(" ")
}

fn report<T>(label: &str, v: &T)
where
    T: fury::FuryObject
        + fury::DeserializeOwned
        + fory::Serializer<Target = T>
        + fory::StructSerializer
        + PartialEq
        + std::fmt::Debug,
{
    for compatible in [false, true] {
        let mut fury = fury::Fury::builder().compatible(compatible).build();
        fury.register::<EntityKind>().expect("EntityKind");
        fury.register::<T>().expect(label);
        let mut fory = fory::Fory::builder()
            .xlang(true)
            .compatible(compatible)
            .build();
        fory.register::<EntityKind>(125).expect("EntityKind");
        fory.register::<T>(126).expect(label);
        let a = fury.serialize(v).expect("fury-rs writes");
        let b = fory.serialize(v).expect("fory writes");
        let read = |r: Result<T, String>| match r {
            Ok(x) if x == *v => "reads".to_string(),
            Ok(x) => format!("another value: {x:?}"),
            Err(e) => format!("fails: {e}"),
        };
        let mode = if compatible {
            "compatible"
        } else {
            "same-schema"
        };
        println!("{label} ({mode})");
        println!("  fury-rs  {}", hex(&a));
        println!(
            "  fory     {}{}",
            hex(&b),
            if a == b { "  (identical)" } else { "" }
        );
        let ours = fury.deserialize::<T>(&b).map_err(|e| e.to_string());
        let theirs = fory.deserialize::<T>(&a).map_err(|e| e.to_string());
        println!("  fury-rs reading fory's: {}", read(ours));
        println!("  fory reading fury-rs's: {}", read(theirs));
    }
}

macro_rules! one_field {
    ($name:ident, $field:ident: [$($ty:tt)*] = $val:expr) => {{
        #[derive(fury::FuryObject, fory::ForyStruct, Debug, Clone, PartialEq, Default)]
        #[fury(id = 126)]
        struct $name {
            $field: $($ty)*,
        }
        report(stringify!($field), &$name { $field: $val });
    }};
}

fn main() {
    // The field types are passed as tokens: the official derive does not accept a tuple type
    // that went through a `ty` macro fragment.
    one_field!(Id, id: [u64] = 1_000_007);
    one_field!(Kind, kind: [EntityKind] = EntityKind::Monster);
    one_field!(Position, position: [(f32, f32)] = (1.5, -2.0));
    one_field!(Ids, ids: [[u32; 4]] = [1, 3, 77, u32::MAX - 1]);
    one_field!(Health, health: [Option<u32>] = Some(101));
    one_field!(Target, target: [Option<u64>] = None);
    one_field!(Flags, flags: [Vec<bool>] = vec![false, true]);
    one_field!(Inventory, inventory: [Vec<u16>] = vec![31, 38, 45]);
    one_field!(Path, path: [Vec<Vec<u16>>] = vec![vec![6, 7, 8]]);
    report(
        "Entity",
        &Entity {
            id: 1_000_007,
            kind: EntityKind::Monster,
            position: (1.5, -2.0),
            velocity: (0.25, 0.5),
            ids: [1, 3, 77, u32::MAX - 1],
            health: Some(101),
            target: None,
            flags: vec![false, true],
            inventory: vec![31, 38, 45],
            path: vec![vec![6, 7, 8]],
        },
    );
}
