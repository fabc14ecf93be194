//! Informative only: do fury-rs and the official `fory` crate write the same bytes for the
//! benchmark datasets, and can each read the other's?

use crate::datasets::Visit;
use crate::peers::{Dataset, Engines};

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
    let save = save_values();
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
        reg!(SaveBytes, SaveTuples, SaveArrays, SaveVectors, PlayerSave);
        reg!(
            SaveBytesFory,
            SaveTuplesFory,
            SaveArraysFory,
            SaveVectorsFory,
            PlayerSaveFory
        );
        out.push(row("Aliased", compatible, &fury, &fory, &aliased));
        out.push(row("Tuples", compatible, &fury, &fory, &tuples));
        out.push(row("Arrays", compatible, &fury, &fory, &arrays));
        out.push(row("Deques", compatible, &fury, &fory, &deques));
        out.push(row("Vectors", compatible, &fury, &fory, &vectors));
        out.push(row("Sizes", compatible, &fury, &fory, &sizes));
        out.push(row("SaveBytes", compatible, &fury, &fory, &save.0));
        out.push(row("SaveTuples", compatible, &fury, &fory, &save.1));
        out.push(row("SaveArrays", compatible, &fury, &fory, &save.2));
        out.push(row("SaveVectors", compatible, &fury, &fory, &save.3));
        out.push(row("PlayerSave", compatible, &fury, &fory, &save.4));
        let official = (
            SaveBytesFory::from(save.0.clone()),
            SaveTuplesFory::from(save.1.clone()),
            SaveArraysFory::from(save.2.clone()),
            SaveVectorsFory::from(save.3.clone()),
            PlayerSaveFory::from(save.4.clone()),
        );
        out.push(row(
            "SaveBytes/form=fory",
            compatible,
            &fury,
            &fory,
            &official.0,
        ));
        out.push(row(
            "SaveTuples/form=fory",
            compatible,
            &fury,
            &fory,
            &official.1,
        ));
        out.push(row(
            "SaveArrays/form=fory",
            compatible,
            &fury,
            &fory,
            &official.2,
        ));
        out.push(row(
            "SaveVectors/form=fory",
            compatible,
            &fury,
            &fory,
            &official.3,
        ));
        out.push(row(
            "PlayerSave/form=fory",
            compatible,
            &fury,
            &fory,
            &official.4,
        ));
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
    crate::datasets::visit_datasets(&mut v);
    v.out
}

/// One row over values that each crate declares with its own Rust type: `a` (fury-rs) and
/// `b` (the official crate) are the same value, `eq` says whether decoded values match.
/// Several pairs make one row: identical when every pair is, read when every pair is.
fn pair_row<A, B>(
    dataset: &'static str,
    compatible: bool,
    fury: &fury::Fury,
    fory: &fory::Fory,
    pairs: &[(A, B)],
    eq: impl Fn(&A, &B) -> bool,
) -> InteropRow
where
    A: fury::Serialize + fury::DeserializeOwned,
    B: fory::Serializer<Target = B>,
{
    let mut identical = true;
    let mut fory_reads_fury = Ok(());
    let mut fury_reads_fory = Ok(());
    for (i, (a, b)) in pairs.iter().enumerate() {
        let x = fury.serialize(a).unwrap_or_default();
        let y = fory.serialize(b).unwrap_or_default();
        identical &= !x.is_empty() && x == y;
        let check = |ok: Result<bool, String>| match ok {
            Ok(true) => Ok(()),
            Ok(false) => Err(format!("value {i} decodes to another value")),
            Err(e) => Err(format!("value {i}: {e}")),
        };
        if fory_reads_fury.is_ok() {
            fory_reads_fury = check(
                fory.deserialize::<B>(&x)
                    .map(|v| eq(a, &v))
                    .map_err(|e| e.to_string()),
            );
        }
        if fury_reads_fory.is_ok() {
            fury_reads_fory = check(
                fury.deserialize::<A>(&y)
                    .map(|v| eq(&v, b))
                    .map_err(|e| e.to_string()),
            );
        }
    }
    InteropRow {
        dataset,
        compatible,
        identical,
        fory_reads_fury,
        fury_reads_fory,
    }
}

/// A fury-rs and an official-crate instance in one mode with the types of
/// [`crate::interop_kinds`] registered under the same ids (the union with the crate's
/// `register_union`, the extension type with its `register_serializer`).
pub fn kind_engines(compatible: bool) -> (fury::Fury, fory::Fory) {
    use crate::interop_kinds::*;
    use crate::peers::type_id_of;
    let mut fury = fury::Fury::builder().compatible(compatible).build();
    let mut fory = fory::Fory::builder()
        .xlang(true)
        .compatible(compatible)
        .build();
    let reg = |e: Result<(), fory::Error>, what: &str| {
        if let Err(e) = e {
            panic!("fory registers {what}: {e}");
        }
    };
    fury.register::<Pet>().expect("Pet");
    fury.register::<Shape>().expect("Shape");
    fury.register::<Pen>().expect("Pen");
    fury.register::<Prices>().expect("Prices");
    fury.register::<Point3>().expect("Point3");
    fury.register::<Located>().expect("Located");
    fury.register::<Holder>().expect("Holder");
    reg(fory.register::<Pet>(type_id_of::<Pet>()), "Pet");
    reg(
        fory.register_union::<ForyShape>(type_id_of::<Shape>()),
        "ForyShape",
    );
    reg(fory.register::<ForyPen>(type_id_of::<Pen>()), "ForyPen");
    reg(
        fory.register::<ForyPrices>(type_id_of::<Prices>()),
        "ForyPrices",
    );
    reg(
        fory.register_serializer::<Point3>(type_id_of::<Point3>()),
        "Point3",
    );
    reg(fory.register::<Located>(type_id_of::<Located>()), "Located");
    reg(
        fory.register::<ForyHolder>(type_id_of::<Holder>()),
        "ForyHolder",
    );
    (fury, fory)
}

/// Cross-checks the kinds of [`crate::interop_kinds`] in both modes: a union at the root and
/// as a field, decimals at the root and as fields, an extension type at the root and as a
/// field, and `any` fields holding a registered struct and a string.
pub fn kind_rows() -> Vec<InteropRow> {
    use crate::interop_kinds::*;
    let mut out = Vec::new();
    for compatible in [false, true] {
        let (fury, fory) = kind_engines(compatible);
        out.push(pair_row(
            "Union",
            compatible,
            &fury,
            &fory,
            &shape_pairs(),
            same_shape,
        ));
        out.push(pair_row(
            "UnionField",
            compatible,
            &fury,
            &fory,
            &pens(),
            |a, b| same_shape(&a.shape, &b.shape) && a.note == b.note,
        ));

        let decimals: Vec<(fury::Decimal, fory::Decimal)> = DECIMALS
            .iter()
            .map(|d| (fury_decimal(*d), fory_decimal(*d)))
            .collect();
        out.push(pair_row(
            "Decimal",
            compatible,
            &fury,
            &fory,
            &decimals,
            fury_decimal_eq,
        ));
        out.push(pair_row(
            "DecimalFields",
            compatible,
            &fury,
            &fory,
            &[prices()],
            |a, b| {
                fury_decimal_eq(&a.small, &b.small)
                    && fury_decimal_eq(&a.negative, &b.negative)
                    && fury_decimal_eq(&a.whole, &b.whole)
                    && fury_decimal_eq(&a.big, &b.big)
            },
        ));

        let (point, at) = located();
        out.push(row("Ext", compatible, &fury, &fory, &point));
        out.push(row("ExtField", compatible, &fury, &fory, &at));

        for (name, a, b) in holders() {
            out.push(pair_row(
                name,
                compatible,
                &fury,
                &fory,
                &[(a, b)],
                |a, b| a.label == b.label && same_any(a.value.as_any(), b.value.as_ref()),
            ));
        }
    }
    out
}

/// Whether a fury-rs decimal and the official crate's are the same number with the same scale.
fn fury_decimal_eq(a: &fury::Decimal, b: &fory::Decimal) -> bool {
    let (sign, mag) = b.unscaled.to_bytes_le();
    // fury-rs keeps the magnitude without trailing zero bytes (zero is empty).
    let n = mag.iter().rposition(|&x| x != 0).map_or(0, |p| p + 1);
    a.scale() == b.scale
        && a.is_negative() == (sign == num_bigint::Sign::Minus)
        && Some(a.magnitude_le()) == mag.get(..n)
}

#[cfg(test)]
mod tests {
    use super::fury_decimal_eq;
    use crate::interop_kinds::{
        fory_decimal, fory_shape, fury_decimal, same_any, same_shape, shapes, ForyShape, Pet,
        DECIMALS,
    };

    #[test]
    fn the_cross_crate_comparisons_tell_values_apart() {
        for d in DECIMALS {
            assert!(fury_decimal_eq(&fury_decimal(d), &fory_decimal(d)), "{d:?}");
            assert!(!fury_decimal_eq(
                &fury_decimal((-d.0, d.1)),
                &fory_decimal(d)
            ));
            assert!(!fury_decimal_eq(
                &fury_decimal((d.0, d.1 + 1)),
                &fory_decimal(d)
            ));
            assert!(!fury_decimal_eq(
                &fury_decimal((d.0 + 256, d.1)),
                &fory_decimal(d)
            ));
        }
        assert!(fury_decimal_eq(
            &fury_decimal((0, 0)),
            &fory_decimal((0, 0))
        ));
        let pet = Pet {
            name: "a".into(),
            age: 1,
        };
        let other = Pet {
            name: "a".into(),
            age: 2,
        };
        assert!(same_any(&pet, &pet.clone()));
        assert!(!same_any(&pet, &other));
        assert!(!same_any(&pet, &"a".to_string()));
        assert!(same_any(&"a".to_string(), &"a".to_string()));
        let all = shapes();
        for (i, a) in all.iter().enumerate() {
            for (j, b) in all.iter().enumerate() {
                assert_eq!(same_shape(a, &fory_shape(b)), i == j, "{a:?} / {b:?}");
            }
        }
        assert!(!same_shape(&all[1], &ForyShape::Label("other".into())));
    }
}
