//! `bigdecimal::BigDecimal` as DECIMAL (feature `bigdecimal`), over pyfory 1.7.7's decimal
//! vectors (conformance/vectors/decimal): every one reads to the digits and scale pyfory
//! wrote and writes pyfory's bytes back, big and negative-scale values included.
#![cfg(feature = "bigdecimal")]

use bigdecimal::num_bigint::BigInt;
use bigdecimal::BigDecimal;
use fury::{Fury, FuryObject};
use std::str::FromStr;

#[path = "support/decimal_vectors.rs"]
mod decimal_vectors;
use decimal_vectors::{unhex, vectors};

#[test]
fn pyforys_decimals_read_into_bigdecimal_and_write_back_byte_for_byte() {
    let vectors = vectors();
    assert!(vectors.len() >= 20, "{} vectors", vectors.len());
    for v in vectors {
        let name = v["name"].as_str().unwrap();
        let compatible = v["settings"]["compatible"].as_bool().unwrap();
        let fury = Fury::builder().compatible(compatible).build();
        let bytes = unhex(v["hex"].as_str().unwrap());
        let unscaled = BigInt::from_str(v["value"]["unscaled"].as_str().unwrap()).unwrap();
        let scale = v["value"]["scale"].as_i64().unwrap();
        let got: BigDecimal = fury.deserialize(&bytes).unwrap();
        let (digits, got_scale) = got.as_bigint_and_scale();
        assert_eq!((digits.as_ref(), got_scale), (&unscaled, scale), "{name}");
        assert_eq!(
            fury.serialize(&got).unwrap(),
            bytes,
            "{name}: pyfory's bytes"
        );
        // The conversions agree with the fury::Decimal reading, both ways.
        let d: fury::Decimal = fury.deserialize(&bytes).unwrap();
        assert_eq!(BigDecimal::from(&d), got, "{name}");
        assert_eq!(fury::Decimal::try_from(&got).unwrap(), d, "{name}");
        for n in 0..bytes.len() {
            assert!(
                fury.deserialize::<BigDecimal>(&bytes[..n]).is_err(),
                "{name}"
            );
        }
    }
}

#[test]
fn a_bigdecimal_field_is_declared_decimal() {
    #[derive(FuryObject, Debug, PartialEq)]
    struct Price {
        amount: BigDecimal,
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
        let text = "-123456789012345678901234567890.12345";
        let p = Price {
            amount: BigDecimal::from_str(text).unwrap(),
        };
        let bytes = a.serialize(&p).unwrap();
        // The same schema and bytes as a fury::Decimal field.
        let owned = PriceOwned {
            amount: text.parse().unwrap(),
        };
        assert_eq!(bytes, b.serialize(&owned).unwrap());
        assert_eq!(a.deserialize::<Price>(&bytes).unwrap(), p);
    }
}

#[test]
fn a_scale_beyond_32_bits_is_an_error_when_written() {
    let huge = BigDecimal::new(BigInt::from(7), i64::from(i32::MAX) + 1);
    let e = Fury::default().serialize(&huge).unwrap_err();
    assert!(e.to_string().contains("32-bit"), "{e}");
    assert!(fury::Decimal::try_from(&huge).is_err());
}
