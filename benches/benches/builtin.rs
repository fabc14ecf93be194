//! Built-in types: serialize and deserialize throughput of common shapes.
//! `cargo bench -p fury-benches --bench builtin`

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use fury::{Fury, Value};
use std::collections::HashMap;
use std::hint::black_box;

fn strings() -> Vec<String> {
    (0..100)
        .map(|i| format!("user-{i:04}@example.org"))
        .collect()
}

fn map() -> HashMap<String, i64> {
    (0..100).map(|i| (format!("key{i}"), i * 7919)).collect()
}

fn ints() -> Vec<i64> {
    (0..1000).map(|i| i * 1_000_003).collect()
}

fn bench<T>(c: &mut Criterion, name: &str, value: &T)
where
    T: fury::Serialize + fury::DeserializeOwned,
{
    let fury = Fury::default();
    let bytes = fury.serialize(value).expect("serializes");
    let mut group = c.benchmark_group(name);
    group.throughput(Throughput::Bytes(bytes.len() as u64));
    let mut out = Vec::with_capacity(bytes.len());
    group.bench_function("serialize", |b| {
        b.iter(|| {
            out.clear();
            fury.serialize_into(black_box(value), &mut out)
                .expect("serializes");
            black_box(out.len())
        })
    });
    group.bench_function("deserialize", |b| {
        b.iter(|| black_box(fury.deserialize::<T>(black_box(&bytes)).expect("decodes")))
    });
    group.bench_function("deserialize_value", |b| {
        b.iter(|| {
            black_box(
                fury.deserialize::<Value>(black_box(&bytes))
                    .expect("decodes"),
            )
        })
    });
    group.finish();
}

fn builtin(c: &mut Criterion) {
    bench(c, "vec_string_100", &strings());
    bench(c, "map_string_i64_100", &map());
    bench(c, "vec_i64_1000", &ints());
}

criterion_group!(benches, builtin);
criterion_main!(benches);
