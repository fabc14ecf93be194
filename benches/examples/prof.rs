//! Profiling harness: `valgrind --tool=callgrind target/release/examples/prof ser|de <case>
//! [compat] [fory]`. With `fory` as the last argument the official crate runs the same loop.
use fury_benches::peers::{Codec, Dataset, ForyCodec, FuryRsCodec};
use fury_benches::values;
use std::hint::black_box;
use std::sync::Arc;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let mode = args.get(1).cloned().unwrap_or_else(|| "ser".into());
    let which = args.get(2).cloned().unwrap_or_else(|| "numeric".into());
    let compat = args.iter().skip(3).any(|a| a == "compat");
    let official = args.iter().skip(3).any(|a| a == "fory");
    if official {
        let codec = ForyCodec(Arc::new(fury_benches::peers::fory(compat)));
        dispatch(&codec, &mode, &which);
    } else {
        let codec = FuryRsCodec(Arc::new(fury_benches::peers::fury_rs(compat, false)));
        dispatch(&codec, &mode, &which);
    }
}

fn dispatch<C>(codec: &C, mode: &str, which: &str)
where
    C: Codec<fury_benches::data::NumericStruct>
        + Codec<fury_benches::data::UserModelList>
        + Codec<fury_benches::data::MediaContent>
        + Codec<fury_benches::data::CustomerList>
        + Codec<fury_benches::data::Sample>
        + Codec<fury_benches::data::SkillFire>
        + Codec<fury_benches::data::User>,
{
    match which {
        "users" => run(codec, mode, &values::user_model_list(100)),
        "media" => run(codec, mode, &values::media_content(1)),
        "users0" => run(codec, mode, &values::user_model_list(0)),
        "customers" => run(codec, mode, &values::customer_list()),
        "sample" => run(codec, mode, &values::sample(1)),
        "skill" => run(codec, mode, &values::skill_fire()),
        "user" => run(codec, mode, &values::user()),
        _ => run(codec, mode, &values::numeric_struct(1)),
    }
}

fn run<T: Dataset, C: Codec<T>>(codec: &C, mode: &str, v: &T) {
    let wire = codec.wire(v);
    let mut bytes = Vec::new();
    codec.encode(&wire, &mut bytes).unwrap();
    let mut out = Vec::with_capacity(256);
    let iters: usize = std::env::var("ITERS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(20_000);
    let start = std::time::Instant::now();
    for _ in 0..iters {
        if mode == "ser" {
            out.clear();
            codec.encode(black_box(&wire), &mut out).unwrap();
            black_box(&out);
        } else {
            black_box(codec.decode(black_box(&bytes)).unwrap());
        }
    }
    if std::env::var_os("ITERS").is_some() {
        eprintln!(
            "{:.1} ns/op",
            start.elapsed().as_nanos() as f64 / iters as f64
        );
    }
}
