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

fn row<T>(
    dataset: &'static str,
    compatible: bool,
    fury: &fury::Fury,
    fory: &fory::Fory,
    value: &T,
) -> InteropRow
where
    T: fury::FuryObject
        + fury::DeserializeOwned
        + fory::Serializer<Target = T>
        + PartialEq
        + std::fmt::Debug,
{
    let a = fury.serialize(value).unwrap_or_default();
    let b = fory.serialize(value).unwrap_or_default();
    InteropRow {
        dataset,
        compatible,
        identical: !a.is_empty() && a == b,
        fory_reads_fury: same(fory.deserialize::<T>(&a), value),
        fury_reads_fory: same(fury.deserialize::<T>(&b), value),
    }
}

/// Cross-checks the small types of [`crate::interop_types`] (the Rust shapes added for the
/// core issue) in both modes, with instances of their own.
pub fn type_rows() -> Vec<InteropRow> {
    use crate::interop_types::*;
    let (aliased, tuples, arrays, deques, vectors, sizes) = values();
    let mut out = Vec::new();
    for compatible in [false, true] {
        let mut fury = fury::Fury::builder().compatible(compatible).build();
        let mut fory = fory::Fory::builder()
            .xlang(true)
            .compatible(compatible)
            .build();
        macro_rules! reg {
            ($($t:ty),*) => {$(
                fury.register::<$t>().expect(stringify!($t));
                let id = crate::peers::type_id_of::<$t>();
                fory.register::<$t>(id).expect(stringify!($t));
            )*};
        }
        reg!(Aliased, Tuples, Arrays, Deques, Vectors, Sizes);
        out.push(row("Aliased", compatible, &fury, &fory, &aliased));
        out.push(row("Tuples", compatible, &fury, &fory, &tuples));
        out.push(row("Arrays", compatible, &fury, &fory, &arrays));
        out.push(row("Deques", compatible, &fury, &fory, &deques));
        out.push(row("Vectors", compatible, &fury, &fory, &vectors));
        out.push(row("Sizes", compatible, &fury, &fory, &sizes));
    }
    out
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
                self.out.push(row(name, compatible, fury, fory, value));
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
