//! `rust_decimal::Decimal` as DECIMAL (feature `rust_decimal`), over pyfory 1.7.7's decimal
//! vectors (conformance/vectors/decimal): what fits reads to the same number and writes
//! pyfory's bytes back; what does not fit is an error, never a wrong number.
#![cfg(feature = "rust_decimal")]

use fury::{Fury, FuryObject};
use rust_decimal::Decimal as RustDecimal;
use std::str::FromStr;

#[path = "support/decimal_vectors.rs"]
mod decimal_vectors;
use decimal_vectors::{unhex, vectors};

#[test]
fn pyforys_decimals_read_into_rust_decimal_where_they_fit() {
    let fury = Fury::default();
    let (mut exact, mut refused) = (Vec::new(), Vec::new());
    for v in vectors() {
        let name = v["name"].as_str().unwrap();
        let bytes = unhex(v["hex"].as_str().unwrap());
        let unscaled = i128::from_str(v["value"]["unscaled"].as_str().unwrap()).ok();
        let scale = v["value"]["scale"].as_i64().unwrap();
        // What rust_decimal can hold: 96 bits, scale 0..=28 after a negative scale is
        // multiplied out.
        let expected = unscaled.and_then(|u| {
            let (mut u, mut s) = (u, scale);
            while s < 0 {
                u = u.checked_mul(10)?;
                s += 1;
            }
            RustDecimal::try_from_i128_with_scale(u, u32::try_from(s).ok()?).ok()
        });
        match (fury.deserialize::<RustDecimal>(&bytes), expected) {
            (Ok(got), Some(want)) => {
                assert_eq!(got, want, "{name}");
                assert_eq!(
                    (got.mantissa(), got.scale()),
                    (want.mantissa(), want.scale())
                );
                let again = fury.serialize(&got).unwrap();
                if scale >= 0 {
                    assert_eq!(again, bytes, "{name}: pyfory's bytes");
                    exact.push(name.to_string());
                } else {
                    // Scale 0 now: the same number, read back equal.
                    assert_eq!(fury.deserialize::<RustDecimal>(&again).unwrap(), got);
                }
                // The conversion agrees with the fury::Decimal reading.
                let d: fury::Decimal = fury.deserialize(&bytes).unwrap();
                assert_eq!(RustDecimal::try_from(&d).unwrap(), got, "{name}");
            }
            (Err(e), None) => {
                assert!(
                    e.to_string().contains("does not fit rust_decimal"),
                    "{name}: {e}"
                );
                refused.push(name.to_string());
            }
            (got, want) => panic!("{name}: read {got:?}, expected {want:?}"),
        }
    }
    for must in [
        "decimal/big_2_63",
        "decimal/big_fraction",
        "decimal/negative_small",
    ] {
        assert!(exact.iter().any(|n| n == must), "{must}: {exact:?}");
    }
    for must in [
        "decimal/big_negative",
        "decimal/big_40_digits",
        "decimal/tiny",
    ] {
        assert!(refused.iter().any(|n| n == must), "{must}: {refused:?}");
    }
    assert!(exact.len() >= 15, "{exact:?}");
}

#[test]
fn a_rust_decimal_field_is_declared_decimal() {
    #[derive(FuryObject, Debug, PartialEq)]
    struct Price {
        amount: RustDecimal,
    }
    #[derive(FuryObject, Debug, PartialEq)]
    struct PriceOwned {
        amount: fury::Decimal,
    }
    for compatible in [false, true] {
        let mut a = Fury::builder().compatible(compatible).build();
        a.register_by_id::<Price>(700).unwrap();
        let mut b = Fury::builder().compatible(compatible).build();
        b.register_by_id::<PriceOwned>(700).unwrap();
        let p = Price {
            amount: RustDecimal::new(-12345, 2),
        };
        let bytes = a.serialize(&p).unwrap();
        // The same schema and bytes as a fury::Decimal field.
        let owned = PriceOwned {
            amount: fury::Decimal::new(-12345, 2),
        };
        assert_eq!(bytes, b.serialize(&owned).unwrap());
        assert_eq!(a.deserialize::<Price>(&bytes).unwrap(), p);
        for n in 0..bytes.len() {
            assert!(a.deserialize::<Price>(&bytes[..n]).is_err());
        }
    }
}

#[test]
fn a_zero_with_a_huge_negative_scale_is_zero_without_looping() {
    let d = fury::Decimal::new(0, i32::MIN);
    assert_eq!(RustDecimal::try_from(&d).unwrap(), RustDecimal::ZERO);
    assert!(RustDecimal::try_from(&fury::Decimal::new(1, i32::MIN)).is_err());
}
