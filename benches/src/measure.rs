//! A quick interleaved measurement: every (case, op) loop is calibrated to a batch of about
//! `target`, then each round runs every batch once in a shuffled order, so slow drifts of a
//! busy machine spread over all peers instead of hitting one. The result is the median of the
//! rounds' ns/op.

use crate::peers::{Case, Op, Peer, Runner};
use std::time::{Duration, Instant};

/// How long and how often to measure.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Rounds; the median over them is reported.
    pub rounds: usize,
    /// Wall time of one batch.
    pub target: Duration,
    /// Smoke mode: `smoke_iters` iterations per batch, one round, no calibration.
    pub smoke: bool,
    /// Iterations per batch in smoke mode.
    pub smoke_iters: u64,
}

impl Settings {
    /// The full report's settings.
    pub fn full() -> Self {
        Settings {
            rounds: 15,
            target: Duration::from_millis(25),
            smoke: false,
            smoke_iters: 3,
        }
    }

    /// The CI smoke settings.
    pub fn smoke() -> Self {
        Settings {
            rounds: 1,
            target: Duration::from_millis(1),
            smoke: true,
            smoke_iters: 3,
        }
    }
}

/// The result for one dataset, peer and op.
#[derive(Clone, Debug)]
pub struct Measured {
    /// Dataset name.
    pub dataset: &'static str,
    /// Serializer.
    pub peer: Peer,
    /// Serialize or deserialize.
    pub op: Op,
    /// Median ns per operation over the rounds.
    pub ns: f64,
    /// Median absolute deviation over the median, in percent.
    pub noise_pct: f64,
    /// Iterations per batch.
    pub iters: u64,
}

impl Measured {
    /// Operations per second.
    pub fn ops_per_sec(&self) -> f64 {
        if self.ns > 0.0 {
            1e9 / self.ns
        } else {
            0.0
        }
    }
}

/// Median of `v` (sorted in place); 0 for an empty slice.
pub fn median(v: &mut [f64]) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
    v.sort_by(|a, b| a.total_cmp(b));
    let m = v.len() / 2;
    if v.len() % 2 == 1 {
        v[m]
    } else {
        (v[m - 1] + v[m]) / 2.0
    }
}

/// A small xorshift generator for the shuffles (deterministic, no dependency).
pub struct Rng(u64);

impl Rng {
    /// Seeded generator.
    pub fn new(seed: u64) -> Self {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    /// Next value.
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    /// Fisher-Yates shuffle.
    pub fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            let j = (self.next_u64() % (i as u64 + 1)) as usize;
            v.swap(i, j);
        }
    }
}

/// Iterations so that `run(n)` takes about `target` (at least 1).
pub fn calibrate(run: &mut dyn FnMut(u64), target: Duration) -> u64 {
    run(1); // warm up caches and lazily built state
    let mut n = 1u64;
    loop {
        let t = Instant::now();
        run(n);
        let e = t.elapsed();
        if e >= target / 8 || n >= 1 << 30 {
            let per = e.as_secs_f64() / n as f64;
            return ((target.as_secs_f64() / per.max(1e-12)) as u64).clamp(1, 1 << 32);
        }
        n *= 4;
    }
}

/// The median of one loop's rounds.
#[derive(Clone, Copy, Debug)]
pub struct Timing {
    /// Median ns per operation over the rounds.
    pub ns: f64,
    /// Median absolute deviation over the median, in percent.
    pub noise_pct: f64,
    /// Iterations per batch.
    pub iters: u64,
}

/// Measures `loops` together: each is calibrated, then every round runs each once in a
/// shuffled order. `progress` gets a line per round.
pub fn measure_loops(
    loops: &mut [&mut Runner],
    settings: &Settings,
    mut progress: impl FnMut(&str),
) -> Vec<Timing> {
    let started = Instant::now();
    let iters: Vec<u64> = loops
        .iter_mut()
        .map(|run| {
            if settings.smoke {
                settings.smoke_iters
            } else {
                calibrate(run.as_mut(), settings.target)
            }
        })
        .collect();
    progress(&format!(
        "calibrated {} loops in {:.1}s",
        loops.len(),
        started.elapsed().as_secs_f64()
    ));
    let mut samples: Vec<Vec<f64>> = vec![Vec::with_capacity(settings.rounds); loops.len()];
    let mut order: Vec<usize> = (0..loops.len()).collect();
    let mut rng = Rng::new(0x5EED);
    for round in 0..settings.rounds {
        rng.shuffle(&mut order);
        for &u in &order {
            let n = iters[u];
            let t = Instant::now();
            (loops[u])(n);
            let e = t.elapsed();
            samples[u].push(e.as_nanos() as f64 / n as f64);
        }
        progress(&format!(
            "round {}/{} done at {:.1}s",
            round + 1,
            settings.rounds,
            started.elapsed().as_secs_f64()
        ));
    }
    samples
        .into_iter()
        .zip(iters)
        .map(|(mut s, n)| {
            let med = median(&mut s);
            let mut dev: Vec<f64> = s.iter().map(|x| (x - med).abs()).collect();
            let mad = median(&mut dev);
            Timing {
                ns: med,
                noise_pct: if med > 0.0 { 100.0 * mad / med } else { 0.0 },
                iters: n,
            }
        })
        .collect()
}

/// Measures both ops of every case whose round trip succeeded (only deserialize of a
/// decode-only case). `progress` gets a line per round.
pub fn measure(
    cases: &mut [Case],
    settings: &Settings,
    progress: impl FnMut(&str),
) -> Vec<Measured> {
    measure_ops(cases, &Op::ALL, settings, progress)
}

/// Measures `ops` of every case whose round trip succeeded (a decode-only case has no
/// serialize loop to measure).
pub fn measure_ops(
    cases: &mut [Case],
    ops: &[Op],
    settings: &Settings,
    progress: impl FnMut(&str),
) -> Vec<Measured> {
    let mut units: Vec<(&'static str, Peer, Op)> = Vec::new();
    let mut loops: Vec<&mut Runner> = Vec::new();
    for c in cases.iter_mut().filter(|c| c.roundtrip.is_ok()) {
        let (dataset, peer) = (c.dataset, c.peer);
        for (op, run) in [
            (Op::Serialize, c.serialize.as_mut()),
            (Op::Deserialize, Some(&mut c.deserialize)),
        ] {
            if let Some(run) = run.filter(|_| ops.contains(&op)) {
                units.push((dataset, peer, op));
                loops.push(run);
            }
        }
    }
    let timings = measure_loops(&mut loops, settings, progress);
    units
        .into_iter()
        .zip(timings)
        .map(|((dataset, peer, op), t)| Measured {
            dataset,
            peer,
            op,
            ns: t.ns,
            noise_pct: t.noise_pct,
            iters: t.iters,
        })
        .collect()
}

/// The 1-minute load average (Linux), to tell in a report whether other work shared the
/// machine.
pub fn load_average() -> Option<f64> {
    std::fs::read_to_string("/proc/loadavg")
        .ok()?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}
