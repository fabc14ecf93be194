//! The report: markdown tables and a hand-written SVG bar chart.

use crate::borrowed::{BorrowedSection, OOB_LOOPS};
use crate::datasets::{BORROWED_DATASETS, DATASETS};
use crate::interop::InteropRow;
use crate::measure::{Measured, Settings};
use crate::peers::{Op, Peer};
use crate::threads::ThreadRow;
use std::collections::HashMap;
use std::fmt::Write;

/// Everything one run produced.
pub struct Report {
    /// How it was measured.
    pub settings: Settings,
    /// Medians per dataset, peer and op.
    pub measured: Vec<Measured>,
    /// Encoded size per dataset and peer (successful round trips only).
    pub sizes: Vec<(&'static str, Peer, usize)>,
    /// Round-trip failures per dataset and peer (and bytes differing from a row's
    /// `same_bytes` row).
    pub failures: Vec<(&'static str, Peer, String)>,
    /// The cases a peer cannot do, with why (n/a in the tables).
    pub unavailable: Vec<(&'static str, Peer, String)>,
    /// Thread scaling.
    pub threads: Vec<ThreadRow>,
    /// fury-rs / fory byte comparison.
    pub interop: Vec<InteropRow>,
    /// The borrowed-decoding section (absent when not run).
    pub borrowed: Option<BorrowedSection>,
    /// The machine's 1-minute load average when the run started and ended (empty when not
    /// known): well above 0 at the start, or above 1 at the end, other work shared the machine.
    pub load: Vec<f64>,
    /// Seconds the run took.
    pub elapsed_secs: f64,
}

type Key = (&'static str, Peer, Op);

/// The largest 64 MiB / 1 MiB time ratio of an out-of-band loop judged not to grow with the
/// payload: a loop that copied the payload would take about 64 times as long, and one run on
/// a shared machine moves a loop of a few hundred nanoseconds by up to 2 times.
const OOB_GROWTH_LIMIT: f64 = 4.0;

impl Report {
    fn index(&self) -> HashMap<Key, &Measured> {
        self.measured
            .iter()
            .map(|m| ((m.dataset, m.peer, m.op), m))
            .collect()
    }

    fn ns(idx: &HashMap<Key, &Measured>, d: &'static str, p: Peer, op: Op) -> Option<f64> {
        idx.get(&(d, p, op)).map(|m| m.ns).filter(|&x| x > 0.0)
    }

    /// fury-rs speed over the peer's: peer ns / fury-rs ns (> 1: fury-rs is faster). The
    /// fury-rs mode is [`Peer::fury_counterpart`].
    fn fury_ratio(idx: &HashMap<Key, &Measured>, d: &'static str, p: Peer, op: Op) -> Option<f64> {
        Some(Self::ns(idx, d, p, op)? / Self::ns(idx, d, p.fury_counterpart(), op)?)
    }

    /// The peer's speed over bincode's: bincode ns / peer ns (> 1: faster than bincode).
    fn bincode_ratio(
        idx: &HashMap<Key, &Measured>,
        d: &'static str,
        p: Peer,
        op: Op,
    ) -> Option<f64> {
        Some(Self::ns(idx, d, Peer::Bincode, op)? / Self::ns(idx, d, p, op)?)
    }

    /// The (dataset, op, peer, fury-rs/peer) with the lowest ratios, non-fury-rs peers only
    /// (and no informative row: rkyv's access builds no value). The table's `fury_rs` and
    /// `informative` columns say which.
    pub fn worst_ratios(&self, count: usize) -> Vec<(&'static str, Op, Peer, f64)> {
        let idx = self.index();
        let mut v = Vec::new();
        for d in DATASETS {
            for op in Op::ALL {
                for p in Peer::ALL {
                    if p.row().fury_rs || p.informative() {
                        continue;
                    }
                    if let Some(r) = Self::fury_ratio(&idx, d, p, op) {
                        v.push((d, op, p, r));
                    }
                }
            }
        }
        v.sort_by(|a, b| a.3.total_cmp(&b.3));
        v.truncate(count);
        v
    }

    /// The markdown report.
    pub fn markdown(&self) -> String {
        let idx = self.index();
        let mut s = String::new();
        let w = &mut s;
        let _ = writeln!(w, "# fury-rs benchmark report\n");
        let _ = writeln!(
            w,
            "Made by `cargo run --release -p fury-benches --bin report{}` on {} ({} logical CPUs), \
             {} in {:.0} s. Each (dataset, op, peer) loop was calibrated to about {} ms per batch; \
             every round ran all batches in a shuffled order; the numbers are the medians of {} \
             round(s). `noise` is the median absolute deviation over the median. Serialize writes \
             into a reused, cleared `Vec<u8>`; deserialize builds a new value from a byte slice \
             (and drops it). prost is measured on its own message types (the conversion from the \
             dataset types is outside the loop).\n",
            if self.settings.smoke { " -- --smoke" } else { "" },
            utc_date(),
            std::thread::available_parallelism().map_or(0, |n| n.get()),
            if self.settings.smoke {
                "smoke mode (a few iterations, numbers meaningless)"
            } else {
                "full mode"
            },
            self.elapsed_secs,
            self.settings.target.as_millis(),
            self.settings.rounds,
        );
        let _ = writeln!(w, "{}\n", peer_list());
        if let Some(note) = self.load_note() {
            let _ = writeln!(w, "{note}\n");
        }
        if !self.failures.is_empty() {
            let _ = writeln!(w, "## Round-trip FAILURES\n");
            for (d, p, e) in &self.failures {
                let _ = writeln!(w, "- {d} / {}: {}", p.name(), e.replace('|', "\\|"));
            }
            let _ = writeln!(w);
        }
        if !self.unavailable.is_empty() {
            let _ = writeln!(w, "Not available (n/a in the tables):\n");
            for (d, p, why) in &self.unavailable {
                let _ = writeln!(w, "- {d} / {}: {}", p.name(), why.replace('|', "\\|"));
            }
            let _ = writeln!(w);
        }

        // Summary: ns/op per peer.
        let _ = writeln!(w, "## ns/op (lower is better; fastest in bold)\n");
        let _ = write!(w, "| dataset | op |");
        for p in Peer::ALL {
            let _ = write!(w, " {} |", column(p));
        }
        let _ = writeln!(w);
        let _ = write!(w, "|---|---|");
        for _ in Peer::ALL {
            let _ = write!(w, "---:|");
        }
        let _ = writeln!(w);
        for d in DATASETS {
            for op in Op::ALL {
                let best = Peer::ALL
                    .iter()
                    .filter(|p| !p.informative())
                    .filter_map(|&p| Self::ns(&idx, d, p, op))
                    .fold(f64::INFINITY, f64::min);
                let _ = write!(w, "| {d} | {} |", op.name());
                for p in Peer::ALL {
                    match Self::ns(&idx, d, p, op) {
                        Some(ns) if ns == best && !p.informative() => {
                            let _ = write!(w, " **{}** |", fmt_ns(ns));
                        }
                        Some(ns) => {
                            let _ = write!(w, " {} |", fmt_ns(ns));
                        }
                        None => {
                            let _ = write!(w, " n/a |");
                        }
                    }
                }
                let _ = writeln!(w);
            }
        }
        let _ = writeln!(w);

        // Geometric means of the fury-rs/peer ratio.
        let _ = writeln!(
            w,
            "## fury-rs/peer speed ratio, geometric mean over the {} datasets\n\n\
             `fury-rs/peer` = peer ns/op ÷ fury-rs ns/op: above 1 fury-rs is faster. It compares \
             with fury-rs same-schema, except for the compatible rows (fory compat, fury-rs \
             compat), which compare with fury-rs compatible. rkyv access, informative, is left \
             out.\n",
            DATASETS.len()
        );
        let _ = writeln!(w, "| peer | serialize | deserialize |\n|---|---:|---:|");
        for p in Peer::ALL {
            // The rows the others compare with are 1 against themselves.
            if p.fury_counterpart() == p || p.informative() {
                continue;
            }
            let _ = write!(w, "| {} |", p.name());
            for op in Op::ALL {
                let rs: Vec<f64> = DATASETS
                    .iter()
                    .filter_map(|&d| Self::fury_ratio(&idx, d, p, op))
                    .collect();
                let _ = write!(w, " {} |", fmt_ratio(geomean(&rs)));
            }
            let _ = writeln!(w);
        }
        let _ = writeln!(w);

        // Worst ratios.
        let worst = self.worst_ratios(10);
        if !worst.is_empty() {
            let _ = writeln!(w, "## Worst fury-rs/peer ratios\n");
            let _ = writeln!(
                w,
                "| dataset | op | peer | fury-rs/peer |\n|---|---|---|---:|"
            );
            for (d, op, p, r) in worst {
                let _ = writeln!(
                    w,
                    "| {d} | {} | {} | {} |",
                    op.name(),
                    p.name(),
                    fmt_ratio(r)
                );
            }
            let _ = writeln!(w);
        }

        // Sizes.
        let sizes: HashMap<(&str, Peer), usize> =
            self.sizes.iter().map(|&(d, p, n)| ((d, p), n)).collect();
        // rkyv access reads rkyv's archive: no column of its own.
        let sized: Vec<Peer> = Peer::ALL.into_iter().filter(|p| !p.informative()).collect();
        let _ = writeln!(
            w,
            "## Serialized size (bytes; smallest in bold)\n\n(rkyv access reads rkyv's \
             archive.)\n"
        );
        let _ = write!(w, "| dataset |");
        for p in &sized {
            let _ = write!(w, " {} |", p.name());
        }
        let _ = writeln!(w);
        let _ = write!(w, "|---|");
        for _ in &sized {
            let _ = write!(w, "---:|");
        }
        let _ = writeln!(w);
        for d in DATASETS {
            let best = sized
                .iter()
                .filter_map(|&p| sizes.get(&(d, p)).copied())
                .min()
                .unwrap_or(0);
            let _ = write!(w, "| {d} |");
            for &p in &sized {
                match sizes.get(&(d, p)) {
                    Some(&n) if n == best => {
                        let _ = write!(w, " **{n}** |");
                    }
                    Some(n) => {
                        let _ = write!(w, " {n} |");
                    }
                    None => {
                        let _ = write!(w, " n/a |");
                    }
                }
            }
            let _ = writeln!(w);
        }
        let _ = writeln!(w);

        // Threads.
        if !self.threads.is_empty() {
            let _ = writeln!(
                w,
                "## Threads: one shared instance, 1 vs 2 threads\n\n\
                 Total ops/s of all threads sharing one registered instance (`&Fury` across \
                 `std::thread::scope`; fory's `Fory` likewise; bincode has no instance and shows \
                 what this machine's second core gives). 2.00× is perfect scaling.\n"
            );
            let _ = writeln!(
                w,
                "| dataset | op | peer | 1 thread ops/s | 2 threads ops/s | scaling |\n\
                 |---|---|---|---:|---:|---:|"
            );
            for t in &self.threads {
                let _ = writeln!(
                    w,
                    "| {} | {} | {} | {} | {} | {}{} |",
                    t.dataset,
                    t.op.name(),
                    t.peer.name(),
                    if self.settings.smoke {
                        "–".to_string()
                    } else {
                        fmt_ops(t.one)
                    },
                    if self.settings.smoke {
                        "–".to_string()
                    } else {
                        fmt_ops(t.two)
                    },
                    if self.settings.smoke {
                        "–".to_string()
                    } else {
                        fmt_ratio(t.scaling())
                    },
                    match &t.check {
                        Ok(()) => String::new(),
                        Err(e) => format!(" FAILED: {}", e.replace('|', "\\|")),
                    }
                );
            }
            let _ = writeln!(w);
        }

        // Interop.
        if !self.interop.is_empty() {
            let _ = writeln!(
                w,
                "## fury-rs and fory 1.7.7 on the same values (informative)\n\n\
                 Same registrations (ids) on both sides. `same bytes`: the two streams are \
                 identical; the other columns decode the other side's stream. The rows from \
                 Union to AnyString (`benches/src/interop_kinds.rs`: a union, decimals, an \
                 extension type registered by id, `Box<dyn Any>` fields) hold several values \
                 each, declare each kind with each crate's own Rust type where the two differ, \
                 and compare the decoded values across the pair; their strings hold a \
                 character above U+FFFF, which both crates (and pyfory) write as UTF-8.\n"
            );
            let _ = writeln!(
                w,
                "| dataset | mode | same bytes | fory reads fury-rs | fury-rs reads fory |\n\
                 |---|---|:-:|---|---|"
            );
            for r in &self.interop {
                let _ = writeln!(
                    w,
                    "| {} | {} | {} | {} | {} |",
                    r.dataset,
                    if r.compatible {
                        "compatible"
                    } else {
                        "same-schema"
                    },
                    if r.identical { "yes" } else { "**no**" },
                    fmt_check(&r.fory_reads_fury),
                    fmt_check(&r.fury_reads_fory),
                );
            }
            let _ = writeln!(w);
        }

        if let Some(b) = &self.borrowed {
            self.borrowed_markdown(w, b);
        }

        // Details.
        let _ = writeln!(
            w,
            "## Details\n\n`vs bincode` = bincode ns/op ÷ peer ns/op (above 1: faster than \
             bincode).\n"
        );
        let _ = writeln!(
            w,
            "| dataset | op | peer | ns/op | ops/s | fury-rs/peer | vs bincode | noise | iters/batch |\n\
             |---|---|---|---:|---:|---:|---:|---:|---:|"
        );
        for d in DATASETS {
            for op in Op::ALL {
                for p in Peer::ALL {
                    if p.informative() && op == Op::Serialize {
                        // Decode only: its serialize is rkyv's row.
                        continue;
                    }
                    let Some(m) = idx.get(&(d, p, op)) else {
                        let _ =
                            writeln!(w, "| {d} | {} | {} | n/a | | | | | |", op.name(), column(p));
                        continue;
                    };
                    let _ = writeln!(
                        w,
                        "| {d} | {} | {} | {} | {} | {} | {} | {:.1}% | {} |",
                        op.name(),
                        column(p),
                        fmt_ns(m.ns),
                        fmt_ops(m.ops_per_sec()),
                        Self::fury_ratio(&idx, d, p, op).map_or("n/a".into(), fmt_ratio),
                        Self::bincode_ratio(&idx, d, p, op).map_or("n/a".into(), fmt_ratio),
                        m.noise_pct,
                        m.iters,
                    );
                }
            }
        }
        s
    }

    /// A sentence on the machine's load, when other work was running.
    fn load_note(&self) -> Option<String> {
        // The run itself keeps about one CPU busy, so it counts in the load at the end.
        let others = match self.load.as_slice() {
            [start, end] => start.max(end - 1.0),
            [one] => *one,
            _ => return None,
        };
        let cpus = std::thread::available_parallelism().map_or(1, |n| n.get()) as f64;
        (others >= 0.25 * cpus).then(|| {
            let loads: Vec<String> = self.load.iter().map(|l| format!("{l:.2}")).collect();
            format!(
                "**Shared machine:** other work was running during this run (1-minute load \
                 average {} at the start and the end, this run adding about 1, on {cpus:.0} \
                 CPUs), so timings are noisier than usual; close calls are better settled with \
                 instruction counts (`benches/scripts/instructions.sh`).",
                loads.join(" and ")
            )
        })
    }

    /// The borrowed-decoding section: ns/op per dataset and row, speed-ups, the goals and
    /// the out-of-band table.
    fn borrowed_markdown(&self, w: &mut String, b: &BorrowedSection) {
        let idx: HashMap<Key, &Measured> = b
            .measured
            .iter()
            .map(|m| ((m.dataset, m.peer, m.op), m))
            .collect();
        let ns = |d: &'static str, p: Peer| Self::ns(&idx, d, p, Op::Deserialize);
        let _ = writeln!(
            w,
            "## Borrowed decoding\n\n\
             Deserialize only, measured in rounds of their own (interleaved and shuffled like the \
             tables above). **fury-rs borrowed** decodes into mirrors of the dataset types with \
             `&str` for `String` (`benches/src/views.rs`, registered as `UserRef<'static>` under the \
             owned types' ids; `fury.deserialize::<UserRef<'_>>(&bytes)`) the bytes fury-rs writes for \
             the owned types, same-schema and, as **compat**, in compatible mode; Sample's mirror reads \
             its six numeric arrays as `fury::ArrayView`s (its `bool` array is copied). **fury-rs \
             ValueRef** decodes the compat bytes into a dynamic `fury::ValueRef` (strings borrowed, \
             structs from their TypeDefs, no type registered). **fury-rs** \
             and **fory 1.7.7** decode the owned types, as in the tables above. **postcard** 1 \
             decodes a serde mirror (`#[serde(borrow)]`, the same types; for Sample the arrays stay \
             `Vec`s, as postcard writes them as varints) from what it writes for the owned value; \
             **bitcode** 0.6 decodes the same mirrors (a columnar format: the informative floor); \
             **rkyv** 0.8 is `rkyv::access::<ArchivedT, rancor::Error>`, the validated access to \
             the archive (bytecheck; no value is built). Every row's round trip is checked before \
             it is timed: fury-rs's mirror writes back the bytes it read, postcard's and bitcode's \
             values equal the owned value's mirror, rkyv's archive deserializes to the value. \
             LogList is {} records of four numbers (`i64`, 3 × `i32`) and four ASCII strings. \
             Instructions per decode of any row, repeatable on a busy machine: \
             `OPS=\"de bde\" benches/scripts/instructions.sh User CustomerList` (fury-rs owned and \
             borrowed), `ROW=postcard OPS=bde benches/scripts/instructions.sh CustomerList` (a \
             peer's row; `Peer::slug` names).\n",
            group_thousands(crate::borrowed::LOG_RECORDS as u64)
        );
        if !b.failures.is_empty() {
            let _ = writeln!(w, "### Round-trip FAILURES\n");
            for (d, p, e) in &b.failures {
                let _ = writeln!(w, "- {d} / {}: {}", p.name(), e.replace('|', "\\|"));
            }
            let _ = writeln!(w);
        }
        let _ = writeln!(w, "### ns/op (lower is better; fastest in bold)\n");
        let _ = write!(w, "| dataset |");
        for p in Peer::BORROWED {
            let _ = write!(w, " {} |", p.name());
        }
        let _ = write!(w, "\n|---|");
        for _ in Peer::BORROWED {
            let _ = write!(w, "---:|");
        }
        let _ = writeln!(w);
        for d in BORROWED_DATASETS {
            let best = Peer::BORROWED
                .iter()
                .filter_map(|&p| ns(d, p))
                .fold(f64::INFINITY, f64::min);
            let _ = write!(w, "| {d} |");
            for p in Peer::BORROWED {
                let _ = match ns(d, p) {
                    Some(x) if x == best => write!(w, " **{}** |", fmt_ns(x)),
                    Some(x) => write!(w, " {} |", fmt_ns(x)),
                    None => write!(w, " n/a |"),
                };
            }
            let _ = writeln!(w);
        }
        let _ = writeln!(
            w,
            "\n### Speed-up of fury-rs borrowed (same-schema) over each row\n\n\
             Row ns/op ÷ fury-rs borrowed ns/op: above 1 the borrowed decode is faster; the compat \
             borrowed column is fury-rs compat ns/op ÷ fury-rs compat borrowed ns/op.\n"
        );
        let others = [
            Peer::FuryRs,
            Peer::Fory,
            Peer::Postcard,
            Peer::Rkyv,
            Peer::Bitcode,
        ];
        let _ = write!(w, "| dataset |");
        for p in others {
            let _ = write!(w, " vs {} |", p.name());
        }
        let _ = writeln!(w, " compat borrowed vs compat owned |");
        let _ = write!(w, "|---|");
        for _ in 0..=others.len() {
            let _ = write!(w, "---:|");
        }
        let _ = writeln!(w);
        let ratio = |d, num: Peer, den: Peer| -> Option<f64> { Some(ns(d, num)? / ns(d, den)?) };
        for d in BORROWED_DATASETS {
            let _ = write!(w, "| {d} |");
            for p in others {
                let r = ratio(d, p, Peer::FuryRsBorrowed);
                let _ = write!(w, " {} |", r.map_or("n/a".into(), fmt_ratio));
            }
            let r = ratio(d, Peer::FuryRsCompatible, Peer::FuryRsCompatibleBorrowed);
            let _ = writeln!(w, " {} |", r.map_or("n/a".into(), fmt_ratio));
        }
        let sizes: HashMap<(&str, Peer), usize> =
            b.sizes.iter().map(|&(d, p, n)| ((d, p), n)).collect();
        let _ = write!(w, "\n### Input bytes\n\n| dataset |");
        let sized = [
            Peer::FuryRs,
            Peer::FuryRsCompatible,
            Peer::Fory,
            Peer::Postcard,
            Peer::Bitcode,
            Peer::Rkyv,
        ];
        for p in sized {
            let _ = write!(w, " {} |", p.name());
        }
        let _ = write!(w, "\n|---|");
        for _ in sized {
            let _ = write!(w, "---:|");
        }
        let _ = writeln!(w);
        for d in BORROWED_DATASETS {
            let _ = write!(w, "| {d} |");
            for p in sized {
                let _ = match sizes.get(&(d, p)) {
                    Some(n) => write!(w, " {n} |"),
                    None => write!(w, " n/a |"),
                };
            }
            let _ = writeln!(w);
        }
        let _ = writeln!(
            w,
            "\n(The borrowed rows read the same bytes as their owned rows; rkyv's archive is its \
             own.)\n"
        );

        // Goals.
        let _ = writeln!(
            w,
            "### Goals (issue 13)\n\n| goal | measured | status |\n|---|---|---|"
        );
        for g in self.borrowed_goals(b) {
            let _ = writeln!(w, "| {} | {} | {} |", g.0, g.1, g.2);
        }
        let _ = writeln!(w);

        // Out of band.
        let _ = writeln!(
            w,
            "### Out-of-band buffers\n\n\
             A struct `Blob {{ id: i64, name: String, payload: Vec<u8> }}` with a 1 MiB and a \
             64 MiB payload. In band: `serialize_into` a reused `Vec<u8>` (the payload is copied \
             into the stream), `deserialize::<Blob>` (copied out) and `deserialize::<BlobRef<'_>>` \
             (`payload: &[u8]` borrowed from the stream). Out of band: \
             `serialize_with_buffers(&blob, |_| false)` (a new stream of a few bytes and the \
             payload lent as the one buffer, not copied) and \
             `deserialize_with_buffers::<BlobRef<'_>>(&stream, &buffers)` (the payload borrowed \
             from the buffer). Checked before timing: equal values, the borrowed payloads point \
             into the stream or at the buffer, the buffer is the value's own payload.\n"
        );
        let _ = write!(w, "| payload | stream bytes (in band / out of band) |");
        for l in OOB_LOOPS {
            let _ = write!(w, " {l} |");
        }
        let _ = write!(w, "\n|---|---:|");
        for _ in OOB_LOOPS {
            let _ = write!(w, "---:|");
        }
        let _ = writeln!(w);
        for r in &b.oob {
            let _ = write!(
                w,
                "| {} MiB | {} / {} |",
                r.payload >> 20,
                group_thousands(r.stream[0] as u64),
                r.stream[1]
            );
            match &r.check {
                Ok(()) => {
                    for t in &r.timings {
                        let _ = write!(w, " {} |", fmt_time(t.ns));
                    }
                }
                Err(e) => {
                    let _ = write!(w, " FAILED: {} |", e.replace('|', "\\|"));
                }
            }
            let _ = writeln!(w);
        }
        let _ = writeln!(w);
    }

    /// The goals of issue 13's benchmark item: (goal, measured, status) rows.
    pub fn borrowed_goals(&self, b: &BorrowedSection) -> Vec<(String, String, String)> {
        let idx: HashMap<Key, &Measured> = b
            .measured
            .iter()
            .map(|m| ((m.dataset, m.peer, m.op), m))
            .collect();
        let ns = |d: &'static str, p: Peer| Self::ns(&idx, d, p, Op::Deserialize);
        let smoke = self.settings.smoke;
        let status = |r: f64, need: f64| -> String {
            if smoke {
                "not judged (smoke mode)".to_string()
            } else if r >= need {
                if r < need * 1.1 {
                    "met (close: within 10%)".to_string()
                } else {
                    "met".to_string()
                }
            } else {
                format!("**missed**: {:.0}% short", 100.0 * (1.0 - r / need))
            }
        };
        let mut out = Vec::new();
        let d = "CustomerList";
        for (p, need) in [(Peer::FuryRs, 3.0), (Peer::Fory, 5.0)] {
            let r = ns(d, p)
                .zip(ns(d, Peer::FuryRsBorrowed))
                .map(|(a, b)| a / b);
            out.push((
                format!(
                    "{d}: fury-rs borrowed at least {need:.0}× faster than {} decode",
                    p.name()
                ),
                r.map_or("n/a".into(), |r| {
                    format!(
                        "{} ({} vs {} ns)",
                        fmt_ratio(r),
                        fmt_ns(ns(d, p).unwrap_or(0.0)),
                        fmt_ns(ns(d, Peer::FuryRsBorrowed).unwrap_or(0.0))
                    )
                }),
                r.map_or("n/a".into(), |r| status(r, need)),
            ));
        }
        for peer in [Peer::Postcard, Peer::Rkyv] {
            for ours in [Peer::FuryRsBorrowed, Peer::FuryRsCompatibleBorrowed] {
                let rs: Vec<(&str, f64)> = BORROWED_DATASETS
                    .iter()
                    .filter_map(|&d| Some((d, ns(d, peer)? / ns(d, ours)?)))
                    .collect();
                let Some(&(worst_d, worst)) = rs.iter().min_by(|a, b| a.1.total_cmp(&b.1)) else {
                    out.push((
                        format!("every {} row faster than {}", ours.name(), peer.name()),
                        "n/a".into(),
                        "n/a".into(),
                    ));
                    continue;
                };
                let misses: Vec<String> = rs
                    .iter()
                    .filter(|r| r.1 < 1.0)
                    .map(|(d, r)| format!("{d} {}", fmt_ratio(*r)))
                    .collect();
                out.push((
                    format!("every {} row faster than {}", ours.name(), peer.name()),
                    if misses.is_empty() {
                        format!("slowest margin {} ({worst_d})", fmt_ratio(worst))
                    } else {
                        format!("slower on {}", misses.join(", "))
                    },
                    status(worst, 1.0),
                ));
            }
        }
        if let [small, large] = b.oob.as_slice() {
            for (name, k) in [("serialize", 1), ("deserialize", 4)] {
                let r = small
                    .timings
                    .get(k)
                    .zip(large.timings.get(k))
                    .map(|(a, b)| b.ns / a.ns);
                out.push((
                    format!(
                        "out of band: {name} time does not grow with the payload ({} MiB → {} \
                         MiB; met below {OOB_GROWTH_LIMIT:.0}×, far from the {}× of a copy)",
                        small.payload >> 20,
                        large.payload >> 20,
                        large.payload / small.payload.max(1)
                    ),
                    r.map_or("n/a".into(), |r| format!("{} the 1 MiB time", fmt_ratio(r))),
                    r.map_or("n/a".into(), |r| {
                        if smoke {
                            "not judged (smoke mode)".into()
                        } else if r < OOB_GROWTH_LIMIT {
                            "met".into()
                        } else {
                            "**missed**".into()
                        }
                    }),
                ));
            }
        }
        out
    }

    /// A horizontal bar chart: per dataset and op, each peer's speed relative to bincode on a
    /// log2 axis (bars grow right of 1× when faster, left when slower).
    pub fn svg(&self) -> String {
        let idx = self.index();
        // Every peer but the informative rkyv access row, whose access-only decode is not a
        // decode to compare with (and would stretch the axis for the others).
        let charted: Vec<Peer> = Peer::ALL.into_iter().filter(|p| !p.informative()).collect();
        let bar = 6.0;
        let group_gap = 12.0;
        let label_w = 130.0;
        let plot_w = 420.0;
        let panel_w = label_w + plot_w + 30.0;
        let top = 92.0;
        let group_h = bar * charted.len() as f64 + group_gap;
        let legend_cols = 5;
        let legend_h = 20.0 * charted.len().div_ceil(legend_cols) as f64 + 20.0;
        let height = top + group_h * DATASETS.len() as f64 + legend_h;
        let width = 20.0 + 2.0 * panel_w;

        let mut ratios = Vec::new();
        for d in DATASETS {
            for op in Op::ALL {
                for &p in &charted {
                    if let Some(r) = Self::bincode_ratio(&idx, d, p, op) {
                        ratios.push(r);
                    }
                }
            }
        }
        let lo = ratios
            .iter()
            .copied()
            .fold(1.0f64, f64::min)
            .log2()
            .floor()
            .max(-8.0);
        let hi = ratios
            .iter()
            .copied()
            .fold(1.0f64, f64::max)
            .log2()
            .ceil()
            .min(8.0);
        let (lo, hi) = if hi - lo < 2.0 {
            (lo - 1.0, hi + 1.0)
        } else {
            (lo, hi)
        };
        let x_of = |x0: f64, r: f64| x0 + (r.log2().clamp(lo, hi) - lo) / (hi - lo) * plot_w;

        let mut s = String::new();
        let w = &mut s;
        let _ = writeln!(
            w,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0}" height="{height:.0}" viewBox="0 0 {width:.0} {height:.0}" font-family="Helvetica, Arial, sans-serif" font-size="11">"#
        );
        let _ = writeln!(w, r#"<rect width="100%" height="100%" fill="white"/>"#);
        let _ = writeln!(
            w,
            r#"<text x="20" y="24" font-size="16" font-weight="bold">fury-rs and peers: throughput relative to bincode (log scale; right of 1× = faster)</text>"#
        );
        let _ = writeln!(
            w,
            r#"<text x="20" y="42" fill="rgb(85,85,85)">{} — medians of {} round(s){}; hover a bar for ns/op; rkyv access (informative) is not charted</text>"#,
            utc_date(),
            self.settings.rounds,
            if self.settings.smoke {
                ", SMOKE MODE: numbers meaningless"
            } else {
                ""
            }
        );
        for (k, op) in Op::ALL.iter().enumerate() {
            let px = 20.0 + k as f64 * panel_w;
            let x0 = px + label_w;
            let _ = writeln!(
                w,
                r#"<text x="{:.1}" y="66" font-size="14" font-weight="bold" text-anchor="middle">{}</text>"#,
                x0 + plot_w / 2.0,
                op.name()
            );
            // Grid and axis labels.
            let mut e = lo as i32;
            while e <= hi as i32 {
                let x = x_of(x0, 2f64.powi(e));
                let label = if e >= 0 {
                    format!("{}×", 1u64 << e)
                } else {
                    format!("1/{}×", 1u64 << (-e))
                };
                let _ = writeln!(
                    w,
                    r#"<line x1="{x:.1}" y1="{:.1}" x2="{x:.1}" y2="{:.1}" stroke="{}" stroke-width="{}"/>"#,
                    top - 6.0,
                    top + group_h * DATASETS.len() as f64 - group_gap,
                    if e == 0 { "#333" } else { "#ddd" },
                    if e == 0 { 1.2 } else { 1.0 }
                );
                // Labels about 35 px wide: on a wide axis, every other one (1× always).
                if (hi - lo) <= 10.0 || e % 2 == 0 {
                    let _ = writeln!(
                        w,
                        r#"<text x="{x:.1}" y="{:.1}" text-anchor="middle" fill="rgb(85,85,85)">{label}</text>"#,
                        top - 10.0
                    );
                }
                e += 1;
            }
            let one = x_of(x0, 1.0);
            for (g, d) in DATASETS.iter().enumerate() {
                let gy = top + g as f64 * group_h;
                let _ = writeln!(
                    w,
                    r#"<text x="{:.1}" y="{:.1}" text-anchor="end">{}</text>"#,
                    x0 - 6.0,
                    gy + bar * charted.len() as f64 / 2.0 + 4.0,
                    esc(d)
                );
                for (i, p) in charted.iter().enumerate() {
                    let y = gy + i as f64 * bar;
                    let Some(r) = Self::bincode_ratio(&idx, d, *p, *op) else {
                        continue;
                    };
                    let x = x_of(x0, r);
                    let (a, b) = if x >= one { (one, x) } else { (x, one) };
                    let ns = Self::ns(&idx, d, *p, *op).unwrap_or(0.0);
                    let _ = writeln!(
                        w,
                        r#"<rect x="{a:.1}" y="{y:.1}" width="{:.1}" height="{:.1}" fill="{}"><title>{} {} {}: {} ns/op, {} vs bincode</title></rect>"#,
                        (b - a).max(0.8),
                        bar - 1.0,
                        p.color(),
                        esc(d),
                        op.name(),
                        esc(p.name()),
                        fmt_ns(ns),
                        fmt_ratio(r)
                    );
                }
            }
        }
        // Legend.
        let ly = top + group_h * DATASETS.len() as f64 + 10.0;
        for (i, p) in charted.iter().enumerate() {
            let col = i % legend_cols;
            let row = i / legend_cols;
            let x = 20.0 + label_w + col as f64 * 200.0;
            let y = ly + row as f64 * 20.0;
            let _ = writeln!(
                w,
                r#"<rect x="{x:.1}" y="{y:.1}" width="14" height="10" fill="{}"/><text x="{:.1}" y="{:.1}">{}</text>"#,
                p.color(),
                x + 20.0,
                y + 9.0,
                if *p == Peer::Bincode {
                    "bincode (the 1× line)".to_string()
                } else {
                    esc(p.name())
                }
            );
        }
        let _ = writeln!(w, "</svg>");
        s
    }
}

/// The report's paragraph on the peers of the main tables: each row's `about`, the listed ones
/// first, then what every peer shares, then the informative rows'.
fn peer_list() -> String {
    let listed: Vec<&str> = Peer::ALL
        .iter()
        .filter(|p| !p.informative())
        .map(|p| p.row().about)
        .filter(|a| !a.is_empty())
        .collect();
    let mut s = format!(
        "Peers: {}. Every peer decodes from a 16-byte aligned copy of its bytes (rkyv requires \
         its archive aligned).",
        listed.join(", ")
    );
    for p in Peer::ALL.iter().filter(|p| p.informative()) {
        s.push(' ');
        s.push_str(p.row().about);
    }
    s
}

/// A main-table column or row name: the peer's name, marked when the row is informative.
fn column(p: Peer) -> String {
    if p.informative() {
        format!("{} (informative)", p.name())
    } else {
        p.name().to_string()
    }
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

fn fmt_check(r: &Result<(), String>) -> String {
    match r {
        Ok(()) => "yes".to_string(),
        Err(e) => {
            let mut e = e.replace('|', "\\|").replace('\n', " ");
            if e.len() > 120 {
                let mut end = 120;
                while !e.is_char_boundary(end) {
                    end -= 1;
                }
                e.truncate(end);
                e.push('…');
            }
            format!("**no**: {e}")
        }
    }
}

/// ns with 3 significant digits (at least integer precision).
pub fn fmt_ns(ns: f64) -> String {
    if ns >= 100.0 {
        group_thousands(ns.round() as u64)
    } else if ns >= 10.0 {
        format!("{ns:.1}")
    } else {
        format!("{ns:.2}")
    }
}

/// A time in ns as `850 ns`, `12.3 µs` or `4.56 ms`.
pub fn fmt_time(ns: f64) -> String {
    if ns >= 1e6 {
        format!("{:.2} ms", ns / 1e6)
    } else if ns >= 1e3 {
        format!("{:.1} µs", ns / 1e3)
    } else {
        format!("{ns:.0} ns")
    }
}

/// ops/s as `12.3 M` / `456 k`.
pub fn fmt_ops(ops: f64) -> String {
    if ops >= 1e6 {
        format!("{:.2} M", ops / 1e6)
    } else if ops >= 1e3 {
        format!("{:.1} k", ops / 1e3)
    } else {
        format!("{ops:.0}")
    }
}

/// `1.23×`.
pub fn fmt_ratio(r: f64) -> String {
    if r.is_finite() && r > 0.0 {
        format!("{r:.2}×")
    } else {
        "n/a".to_string()
    }
}

fn group_thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Geometric mean (NaN for an empty slice).
pub fn geomean(v: &[f64]) -> f64 {
    if v.is_empty() {
        return f64::NAN;
    }
    (v.iter().map(|x| x.ln()).sum::<f64>() / v.len() as f64).exp()
}

/// Today's UTC date as YYYY-MM-DD.
pub fn utc_date() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let days = (secs / 86_400) as i64;
    // Civil from days (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = if m <= 2 { y + 1 } else { y };
    format!("{y:04}-{m:02}-{d:02}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats() {
        assert_eq!(fmt_ns(1234.4), "1,234");
        assert_eq!(fmt_ns(12.34), "12.3");
        assert_eq!(fmt_ops(2.5e6), "2.50 M");
        assert_eq!(group_thousands(1_000_000), "1,000,000");
        assert!((geomean(&[2.0, 8.0]) - 4.0).abs() < 1e-9);
        assert_eq!(utc_date().len(), 10);
    }
}
