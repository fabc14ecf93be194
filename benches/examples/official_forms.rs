//! The forms the official crate `fory` 1.7.7 writes for tuples, fixed arrays, `Vec` of a
//! primitive, nested vectors and `Option` of each, as one-field structs (user id 126): the
//! bytes of fury-rs and of the crate in both modes, and whether each reads the other's
//! (spec/DISAGREEMENTS.md, section 54).
//!
//! `cargo run -p fury-benches --example official_forms`

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
        fury.register::<T>().expect(label);
        let mut fory = fory::Fory::builder()
            .xlang(true)
            .compatible(compatible)
            .build();
        fory.register::<T>(126).expect(label);
        let a = fury.serialize(v).expect("fury-rs writes");
        let b = match fory.serialize(v) {
            Ok(b) => b,
            Err(e) => {
                println!("{label} fory fails to write: {e}");
                continue;
            }
        };
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
    one_field!(T1, pos3: [(f64, f64, f64)] = (1.5, -2.0, 64.25));
    one_field!(T2, pair: [(i32, i32)] = (3, -4));
    one_field!(T3, mixed: [(i64, String)] = (7, "seven".into()));
    one_field!(T4, small: [(u8, bool)] = (200, true));
    one_field!(T5, opt_pair: [Option<(i32, i32)>] = Some((1, 2)));
    one_field!(T6, opt_pair_none: [Option<(i32, i32)>] = None);
    one_field!(A1, rot: [[f32; 3]] = [0.5, 1.0, -2.0]);
    one_field!(A2, uuid: [[u8; 16]] = [7; 16]);
    one_field!(A3, ids: [[u32; 4]] = [1, 2, 3, 4]);
    one_field!(A4, names: [[String; 2]] = ["x".into(), "y".into()]);
    one_field!(A5, bits: [[bool; 3]] = [true, false, true]);
    one_field!(A6, wide: [[i64; 2]] = [-1, 1 << 40]);
    one_field!(A7, opt_rot: [Option<[f32; 3]>] = Some([0.5, 1.0, -2.0]));
    one_field!(V1, data: [Vec<u8>] = vec![1, 2, 255]);
    one_field!(V2, flags: [Vec<bool>] = vec![true, false]);
    one_field!(V3, i8s: [Vec<i8>] = vec![-1, 2]);
    one_field!(V4, i16s: [Vec<i16>] = vec![-1, 300]);
    one_field!(V5, i32s: [Vec<i32>] = vec![-1, 70000]);
    one_field!(V6, i64s: [Vec<i64>] = vec![-1, 1 << 40]);
    one_field!(V7, u16s: [Vec<u16>] = vec![1, 65535]);
    one_field!(V8, u32s: [Vec<u32>] = vec![1, 70000]);
    one_field!(V9, u64s: [Vec<u64>] = vec![1, 1 << 40]);
    one_field!(V10, f32s: [Vec<f32>] = vec![0.5, -1.0]);
    one_field!(V11, f64s: [Vec<f64>] = vec![0.5, -1.0]);
    one_field!(N1, chunks: [Vec<Vec<u8>>] = vec![vec![1, 2], vec![3]]);
    one_field!(N2, path: [Vec<Vec<u16>>] = vec![vec![6, 7, 8]]);
    one_field!(N3, points: [Vec<[f32; 3]>] = vec![[1.0, 2.0, 3.0]]);
    one_field!(N4, pairs: [Vec<(i32, i32)>] = vec![(1, 2)]);
    one_field!(O1, opt_data: [Option<Vec<u8>>] = Some(vec![9, 8]));
    one_field!(O2, opt_u16s: [Option<Vec<u16>>] = Some(vec![5]));
    one_field!(O3, opt_flags: [Option<Vec<bool>>] = Some(vec![true]));
    one_field!(O4, opt_i32s: [Option<Vec<i32>>] = Some(vec![-3]));
    // Tuple roots, the crate's against fury::ForyForm's.
    let fory = fory::Fory::builder().xlang(true).build();
    let fury = fury::Fury::default();
    macro_rules! root {
        ($v:expr) => {{
            let b = fory.serialize(&$v).expect("fory writes");
            let a = fury.serialize(&fury::ForyForm($v)).expect("fury-rs writes");
            let same = if a == b { "  (identical)" } else { "" };
            println!(
                "root {}\n  fory     {}{same}\n  ForyForm {}",
                stringify!($v),
                hex(&b),
                hex(&a)
            );
        }};
    }
    root!((1i64, Some(2i64)));
    root!((1i64, None::<i64>));
    root!((1i64, 2i64));
    root!((1i32, String::from("a")));
}
