//! Informative only: do fury-rs and the official `fory` crate write the same bytes for the
//! benchmark datasets, and can each read the other's?

use crate::peers::{Dataset, Engines, Visit};

/// One dataset in one mode.
#[derive(Clone, Debug)]
pub struct InteropRow {
    /// Dataset name.
    pub dataset: &'static str,
    /// `compatible(true)` on both sides.
    pub compatible: bool,
    /// Byte-identical streams.
    pub identical: bool,
    /// fory decodes fury-rs's bytes to the value.
    pub fory_reads_fury: Result<(), String>,
    /// fury-rs decodes fory's bytes to the value.
    pub fury_reads_fory: Result<(), String>,
}

fn same<T: PartialEq + std::fmt::Debug, E: std::fmt::Display>(
    got: Result<T, E>,
    want: &T,
) -> Result<(), String> {
    match got {
        Ok(v) if v == *want => Ok(()),
        Ok(_) => Err("decodes to another value".to_string()),
        Err(e) => Err(e.to_string()),
    }
}

/// Cross-checks every dataset in both modes.
pub fn interop_rows(engines: &Engines) -> Vec<InteropRow> {
    struct V<'a> {
        engines: &'a Engines,
        out: Vec<InteropRow>,
    }
    impl Visit for V<'_> {
        fn visit<T: Dataset>(&mut self, name: &'static str, value: &T) {
            for compatible in [false, true] {
                let (fury, fory) = if compatible {
                    (&self.engines.fury_compatible, &self.engines.fory_compatible)
                } else {
                    (&self.engines.fury, &self.engines.fory)
                };
                let a = fury.serialize(value).unwrap_or_default();
                let b = fory.serialize(value).unwrap_or_default();
                self.out.push(InteropRow {
                    dataset: name,
                    compatible,
                    identical: !a.is_empty() && a == b,
                    fory_reads_fury: same(fory.deserialize::<T>(&a), value),
                    fury_reads_fory: same(fury.deserialize::<T>(&b), value),
                });
            }
        }
    }
    let mut v = V {
        engines,
        out: Vec::new(),
    };
    crate::peers::visit_datasets(&mut v);
    v.out
}
