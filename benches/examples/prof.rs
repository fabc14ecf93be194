//! Profiling harness: `valgrind --tool=callgrind target/release/examples/prof ser|de`.
use fury_benches::values;
use std::hint::black_box;

fn main() {
    let mode = std::env::args().nth(1).unwrap_or_else(|| "ser".into());
    let fury = fury_benches::peers::fury_rs(false, false);
    let v = values::numeric_struct(1);
    let bytes = fury.serialize(&v).unwrap();
    let mut out = Vec::with_capacity(256);
    for _ in 0..200_000 {
        if mode == "ser" {
            out.clear();
            fury.serialize_into(black_box(&v), &mut out).unwrap();
            black_box(&out);
        } else {
            black_box(
                fury.deserialize::<fury_benches::data::NumericStruct>(black_box(&bytes))
                    .unwrap(),
            );
        }
    }
}
