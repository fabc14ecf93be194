//! Wire primitives: boundaries, hostile encodings and round-trip properties.

use fury::buffer::{Reader, Writer};
use fury::ErrorKind;
use proptest::prelude::*;

fn written(f: impl FnOnce(&mut Writer)) -> Vec<u8> {
    let mut out = Vec::new();
    f(&mut Writer::new(&mut out));
    out
}

#[test]
fn varuint32_sizes_at_boundaries() {
    // (value, encoded length) from the LEB128 definition: 7 bits per byte.
    for (v, n) in [
        (0u32, 1usize),
        (127, 1),
        (128, 2),
        (16383, 2),
        (16384, 3),
        (2_097_151, 3),
        (2_097_152, 4),
        (268_435_455, 4),
        (268_435_456, 5),
        (u32::MAX, 5),
    ] {
        let b = written(|w| w.var_u32(v));
        assert_eq!(b.len(), n, "{v}");
        assert_eq!(Reader::new(&b).var_u32().unwrap(), v);
    }
    assert_eq!(written(|w| w.var_u32(300)), [0xac, 0x02]);
    assert_eq!(
        written(|w| w.var_u32(u32::MAX)),
        [0xff, 0xff, 0xff, 0xff, 0x0f]
    );
}

#[test]
fn varuint64_uses_a_full_ninth_byte() {
    assert_eq!(written(|w| w.var_u64(u64::MAX)), [0xff; 9]);
    assert_eq!(
        written(|w| w.var_u64(1 << 56)),
        [0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01]
    );
    assert_eq!(written(|w| w.var_u64((1 << 56) - 1)).len(), 8);
    assert_eq!(Reader::new(&[0xff; 9]).var_u64().unwrap(), u64::MAX);
}

#[test]
fn zigzag_matches_the_definition() {
    // 0, -1, 1, -2, 2 map to 0, 1, 2, 3, 4
    for (v, z) in [(0i64, 0u8), (-1, 1), (1, 2), (-2, 3), (2, 4)] {
        assert_eq!(written(|w| w.var_i64(v)), [z]);
        assert_eq!(written(|w| w.var_i32(v as i32)), [z]);
    }
    assert_eq!(
        written(|w| w.var_i32(i32::MIN)),
        [0xff, 0xff, 0xff, 0xff, 0x0f]
    );
    assert_eq!(written(|w| w.var_i64(i64::MIN)), [0xff; 9]);
}

#[test]
fn tagged_int64_switches_form_at_2_pow_30() {
    assert_eq!(written(|w| w.tagged_i64((1 << 30) - 1)).len(), 4);
    assert_eq!(written(|w| w.tagged_i64(1 << 30)).len(), 9);
    assert_eq!(
        written(|w| w.tagged_i64(-(1 << 30))),
        [0x00, 0x00, 0x00, 0x80]
    );
    assert_eq!(written(|w| w.tagged_i64(-(1 << 30) - 1)).len(), 9);
    assert_eq!(
        written(|w| w.tagged_u64((1 << 31) - 1)),
        [0xfe, 0xff, 0xff, 0xff]
    );
    assert_eq!(written(|w| w.tagged_u64(1 << 31))[0], 0x01);
}

#[test]
fn overlong_varints_are_rejected() {
    // 0 encoded in two bytes
    let e = Reader::new(&[0x80, 0x00]).var_u32().unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::BadVarint { .. }), "{e}");
    assert_eq!(e.offset(), Some(0));
    assert!(Reader::new(&[0x80, 0x00]).var_u64().is_err());
    // six bytes, or a fifth byte carrying more than 4 bits
    assert!(Reader::new(&[0x80, 0x80, 0x80, 0x80, 0x80, 0x01])
        .var_u32()
        .is_err());
    assert!(Reader::new(&[0xff, 0xff, 0xff, 0xff, 0x1f])
        .var_u32()
        .is_err());
    // ninth byte zero is overlong for varuint64
    assert!(
        Reader::new(&[0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00])
            .var_u64()
            .is_err()
    );
}

#[test]
fn truncated_reads_report_the_offset() {
    let mut r = Reader::new(&[0x01, 0x80, 0x80]);
    assert_eq!(r.u8().unwrap(), 1);
    let e = r.var_u32().unwrap_err();
    assert_eq!(e.offset(), Some(1));
    let e = Reader::new(&[1, 2, 3]).u32().unwrap_err();
    assert!(
        matches!(
            e.kind(),
            ErrorKind::UnexpectedEof {
                needed: 4,
                remaining: 3
            }
        ),
        "{e}"
    );
    assert!(
        Reader::new(&[0x05]).tagged_i64().is_err(),
        "odd tag byte other than 1"
    );
    assert!(Reader::new(&[0x02]).bool().is_err(), "bool must be 0 or 1");
    assert!(Reader::new(&[1, 2]).bytes(usize::MAX).is_err());
}

proptest! {
    #[test]
    fn varints_round_trip(a in any::<u32>(), b in any::<i32>(), c in any::<u64>(), d in any::<i64>()) {
        let bytes = written(|w| { w.var_u32(a); w.var_i32(b); w.var_u64(c); w.var_i64(d); });
        let mut r = Reader::new(&bytes);
        prop_assert_eq!(r.var_u32().unwrap(), a);
        prop_assert_eq!(r.var_i32().unwrap(), b);
        prop_assert_eq!(r.var_u64().unwrap(), c);
        prop_assert_eq!(r.var_i64().unwrap(), d);
        prop_assert_eq!(r.remaining(), 0);
    }

    #[test]
    fn tagged_and_fixed_round_trip(a in any::<i64>(), b in any::<u64>(), f in any::<f64>(), g in any::<f32>()) {
        let bytes = written(|w| { w.tagged_i64(a); w.tagged_u64(b); w.f64(f); w.f32(g); w.i16(a as i16); });
        let mut r = Reader::new(&bytes);
        prop_assert_eq!(r.tagged_i64().unwrap(), a);
        prop_assert_eq!(r.tagged_u64().unwrap(), b);
        prop_assert_eq!(r.f64().unwrap().to_bits(), f.to_bits());
        prop_assert_eq!(r.f32().unwrap().to_bits(), g.to_bits());
        prop_assert_eq!(r.i16().unwrap(), a as i16);
    }

    #[test]
    fn arbitrary_bytes_never_panic_the_varint_readers(data in proptest::collection::vec(any::<u8>(), 0..12)) {
        let _ = Reader::new(&data).var_u32();
        let _ = Reader::new(&data).var_u64();
        let _ = Reader::new(&data).var_i64();
        let _ = Reader::new(&data).tagged_i64();
        let _ = Reader::new(&data).tagged_u64();
    }
}

#[test]
fn varuint32_length_formula_matches_encoding_everywhere_it_changes() {
    for shift in 0..32 {
        for v in [(1u32 << shift) - 1, 1u32 << shift, (1u32 << shift) + 1] {
            let b = written(|w| w.var_u32(v));
            assert_eq!(b.len() as u32, fury::buffer::var_u32_len(v), "{v}");
            assert_eq!(Reader::new(&b).var_u32().unwrap(), v);
            let mut via64 = Vec::new();
            Writer::new(&mut via64).var_u64(v as u64);
            assert_eq!(b, via64, "{v}: 32- and 64-bit encoders agree");
        }
    }
}

#[test]
fn varuint64_fast_path_matches_the_reference_encoder_at_every_length_change() {
    for shift in 0..64 {
        for v in [(1u64 << shift) - 1, 1u64 << shift, (1u64 << shift) | 1] {
            let b = written(|w| w.var_u64(v));
            let mut reference = [0u8; fury::buffer::MAX_VARINT64_LEN];
            let n = fury::buffer::encode_var_u64(v, &mut reference);
            assert_eq!(b, &reference[..n], "{v:#x}");
            assert_eq!(Reader::new(&b).var_u64().unwrap(), v);
        }
    }
}
