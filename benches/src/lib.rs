//! Benchmarks for fury-rs (see benches/).
