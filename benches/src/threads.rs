//! Multi-thread throughput: 1 and 2 threads sharing one registered instance (`&Fury` across
//! `std::thread::scope`), each thread with its own output buffer.

use crate::datasets::{Visit, THREAD_DATASETS};
use crate::measure::{median, Rng, Settings};
use crate::peers::{with_codec, Codec, Dataset, Engines, Op, Peer, WithCodec};
use std::hint::black_box;
use std::sync::Barrier;
use std::time::{Duration, Instant};

/// Throughput of one dataset, peer and op with 1 and 2 threads.
#[derive(Clone, Debug)]
pub struct ThreadRow {
    /// Dataset name.
    pub dataset: &'static str,
    /// Serializer.
    pub peer: Peer,
    /// Serialize or deserialize.
    pub op: Op,
    /// Median total ops/s with one thread.
    pub one: f64,
    /// Median total ops/s with two threads.
    pub two: f64,
    /// `Ok` when every thread's result decoded back to the value.
    pub check: Result<(), String>,
}

impl ThreadRow {
    /// Two-thread over one-thread throughput (2.0 is perfect scaling).
    pub fn scaling(&self) -> f64 {
        if self.one > 0.0 {
            self.two / self.one
        } else {
            0.0
        }
    }
}

/// Runs `n` ops on each of `threads` threads sharing `codec`; returns the wall time from the
/// common start to the last thread's end, and whether every thread's last result round-trips.
fn run<T: Dataset, C: Codec<T>>(
    codec: &C,
    wire: &C::Wire,
    bytes: &[u8],
    value: &T,
    op: Op,
    threads: usize,
    n: u64,
) -> (Duration, Result<(), String>) {
    let barrier = Barrier::new(threads + 1);
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                let barrier = &barrier;
                s.spawn(move || {
                    let mut out = Vec::with_capacity(bytes.len() * 2);
                    barrier.wait();
                    match op {
                        Op::Serialize => {
                            for _ in 0..n {
                                out.clear();
                                black_box(codec.encode(black_box(wire), &mut out).is_ok());
                            }
                        }
                        Op::Deserialize => {
                            for _ in 0..n {
                                black_box(&codec.decode(black_box(bytes)));
                            }
                            out.extend_from_slice(bytes);
                        }
                    }
                    let end = Instant::now();
                    let check = codec
                        .decode(&out)
                        .map_err(|e| e.to_string())
                        .and_then(|w| codec.back(w))
                        .and_then(|v| {
                            if v == *value {
                                Ok(())
                            } else {
                                Err("a thread's result decodes to another value".to_string())
                            }
                        });
                    (end, check)
                })
            })
            .collect();
        barrier.wait();
        let start = Instant::now();
        let mut end = start;
        let mut check = Ok(());
        for h in handles {
            let (e, c) = h.join().expect("benchmark thread panicked");
            end = end.max(e);
            if check.is_ok() {
                check = c;
            }
        }
        (end - start, check)
    })
}

/// Runs `n` ops on each of `threads` threads: wall time and the round-trip check.
type ThreadRun = Box<dyn Fn(usize, u64) -> (Duration, Result<(), String>) + Send + Sync>;

/// One (dataset, peer, op) ready to run with any number of threads.
struct Unit {
    dataset: &'static str,
    peer: Peer,
    op: Op,
    run: ThreadRun,
    encoded: Result<(), String>,
}

fn unit<T: Dataset, C: Codec<T>>(
    dataset: &'static str,
    peer: Peer,
    codec: C,
    value: &T,
    op: Op,
) -> Unit {
    let wire = codec.wire(value);
    let mut bytes = Vec::new();
    let encoded = codec
        .encode(&wire, &mut bytes)
        .map_err(|e| format!("encode: {e}"));
    let value = value.clone();
    Unit {
        dataset,
        peer,
        op,
        run: Box::new(move |threads, n| run(&codec, &wire, &bytes, &value, op, threads, n)),
        encoded,
    }
}

/// Iterations for a one-thread batch of about `4 × target`.
fn calibrate(u: &Unit, settings: &Settings) -> u64 {
    if settings.smoke {
        return settings.smoke_iters;
    }
    let mut n = 16u64;
    loop {
        let (e, _) = (u.run)(1, n);
        if e >= settings.target / 2 || n >= 1 << 30 {
            let per = e.as_secs_f64() / n as f64;
            return ((4.0 * settings.target.as_secs_f64() / per.max(1e-12)) as u64).max(1);
        }
        n *= 4;
    }
}

/// [`unit`] for [`with_codec`].
struct MakeUnit<'a, T> {
    dataset: &'static str,
    peer: Peer,
    value: &'a T,
    op: Op,
}

impl<T: Dataset> WithCodec<T> for MakeUnit<'_, T> {
    type Out = Unit;
    fn with<C: Codec<T>>(self, codec: C) -> Unit {
        unit(self.dataset, self.peer, codec, self.value, self.op)
    }
}

/// Runs the thread benchmark over [`THREAD_DATASETS`] and [`Peer::THREADS`]: every unit is
/// calibrated, then each of up to 5 rounds runs every unit (in a shuffled order) with 1 and
/// with 2 threads, so a neighbour's load spreads over all rows.
pub fn thread_rows(engines: &Engines, settings: &Settings) -> Vec<ThreadRow> {
    struct V<'a> {
        engines: &'a Engines,
        out: Vec<Unit>,
    }
    impl Visit for V<'_> {
        fn visit<T: Dataset>(&mut self, name: &'static str, value: &T) {
            if !THREAD_DATASETS.contains(&name) {
                return;
            }
            for op in Op::ALL {
                for peer in Peer::THREADS {
                    let make = MakeUnit {
                        dataset: name,
                        peer,
                        value,
                        op,
                    };
                    let u = with_codec(self.engines, peer, make)
                        .unwrap_or_else(|_| panic!("{peer:?}: a thread row without a codec"));
                    self.out.push(u);
                }
            }
        }
    }
    let mut v = V {
        engines,
        out: Vec::new(),
    };
    crate::datasets::visit_datasets(&mut v);
    let units = v.out;
    let iters: Vec<u64> = units
        .iter()
        .map(|u| {
            if u.encoded.is_ok() {
                calibrate(u, settings)
            } else {
                0
            }
        })
        .collect();
    let mut ones: Vec<Vec<f64>> = vec![Vec::new(); units.len()];
    let mut twos: Vec<Vec<f64>> = vec![Vec::new(); units.len()];
    let mut checks: Vec<Result<(), String>> = units.iter().map(|u| u.encoded.clone()).collect();
    let mut order: Vec<usize> = (0..units.len()).collect();
    let mut rng = Rng::new(0x7EAD);
    for round in 0..settings.rounds.clamp(1, 5) {
        rng.shuffle(&mut order);
        for &i in &order {
            if checks[i].is_err() {
                continue;
            }
            let counts = if round % 2 == 0 { [1usize, 2] } else { [2, 1] };
            for threads in counts {
                let n = iters[i];
                let (e, c) = (units[i].run)(threads, n);
                let ops = (threads as u64 * n) as f64 / e.as_secs_f64().max(1e-12);
                if threads == 1 {
                    ones[i].push(ops)
                } else {
                    twos[i].push(ops)
                }
                if let Err(e) = c {
                    checks[i] = Err(e);
                }
            }
        }
    }
    units
        .iter()
        .zip(ones.iter_mut().zip(twos.iter_mut()))
        .zip(checks)
        .map(|((u, (one, two)), check)| ThreadRow {
            dataset: u.dataset,
            peer: u.peer,
            op: u.op,
            one: median(one),
            two: median(two),
            check,
        })
        .collect()
}
