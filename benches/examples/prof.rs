//! Profiling harness: `valgrind --tool=callgrind target/release/examples/prof ser|de`.
use fury_benches::values;
use std::hint::black_box;

fn main() {
    let mode = std::env::args().nth(1).unwrap_or_else(|| "ser".into());
    let compat = std::env::args().nth(3).is_some_and(|a| a == "compat");
    let fury = fury_benches::peers::fury_rs(compat, false);
    let which = std::env::args().nth(2).unwrap_or_else(|| "numeric".into());
    match which.as_str() {
        "users" => run(&fury, &mode, &values::user_model_list(100)),
        "media" => run(&fury, &mode, &values::media_content(1)),
        "users0" => run(&fury, &mode, &values::user_model_list(0)),
        "customers" => run(&fury, &mode, &values::customer_list()),
        "sample" => run(&fury, &mode, &values::sample(1)),
        "skill" => run(&fury, &mode, &values::skill_fire()),
        _ => run(&fury, &mode, &values::numeric_struct(1)),
    }
}

fn run<T: fury::Serialize + fury::Deserialize>(fury: &fury::Fury, mode: &str, v: &T) {
    let bytes = fury.serialize(v).unwrap();
    let mut out = Vec::with_capacity(256);
    for _ in 0..20_000 {
        if mode == "ser" {
            out.clear();
            fury.serialize_into(black_box(v), &mut out).unwrap();
            black_box(&out);
        } else {
            black_box(fury.deserialize::<T>(black_box(&bytes)).unwrap());
        }
    }
}
