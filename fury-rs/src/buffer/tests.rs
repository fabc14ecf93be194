//! Wire primitives: boundaries, hostile encodings and round-trip properties.

use crate::buffer::{Reader, Writer};
use crate::ErrorKind;
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
            assert_eq!(b.len() as u32, crate::buffer::var_u32_len(v), "{v}");
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
            let mut reference = [0u8; crate::buffer::MAX_VARINT64_LEN];
            let n = crate::buffer::encode_var_u64(v, &mut reference);
            assert_eq!(b, &reference[..n], "{v:#x}");
            assert_eq!(Reader::new(&b).var_u64().unwrap(), v);
        }
    }
}

/// A vector whose spare capacity is exactly `spare` bytes after `used` bytes of content.
fn with_spare(used: usize, spare: usize) -> Vec<u8> {
    let mut v = Vec::with_capacity(used + spare);
    v.resize(used, 0xaa);
    // `with_capacity` may round up; shrink the content side instead of trusting it.
    let extra = v.capacity() - (used + spare);
    v.resize(used + extra, 0xaa);
    assert_eq!(v.capacity() - v.len(), spare);
    v
}

/// The reference encoding of a varuint64 (7 bits per byte, 9th byte whole).
fn reference_var_u64(mut v: u64) -> Vec<u8> {
    let mut out = Vec::new();
    for _ in 0..8 {
        if v < 0x80 {
            out.push(v as u8);
            return out;
        }
        out.push((v as u8 & 0x7f) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
    out
}

#[test]
fn writes_at_exact_capacity_and_one_byte_short() {
    // Every write that stores whole words needs room for the word; with the room exactly
    // there, or one byte short of it, the result must be the same bytes and no more.
    let values: Vec<u64> = (0..64)
        .flat_map(|s| [1u64 << s, (1u64 << s) - 1])
        .chain([u64::MAX])
        .collect();
    for &v in &values {
        let expected = reference_var_u64(v);
        for spare in [0, 1, 7, 8, 9, 10] {
            let mut out = with_spare(5, spare);
            let mut w = Writer::new(&mut out);
            w.var_u64(v);
            w.u8(0x55);
            drop(w);
            assert_eq!(
                out.get(5..out.len() - 1),
                Some(&expected[..]),
                "{v} spare {spare}"
            );
            assert_eq!(out.last(), Some(&0x55));
            if v <= u32::MAX as u64 {
                let mut out = with_spare(3, spare);
                let mut w = Writer::new(&mut out);
                w.var_u32(v as u32);
                drop(w);
                assert_eq!(out.get(3..), Some(&expected[..]), "{v} spare {spare}");
            }
        }
    }
}

#[test]
fn byte_runs_of_every_short_length_at_capacity_boundaries() {
    for n in 0..=80usize {
        let data: Vec<u8> = (0..n as u8).map(|i| i.wrapping_mul(37) & 0x7f).collect();
        for spare in [n.saturating_sub(1), n, n + 1, n + 9] {
            let mut out = with_spare(2, spare);
            let mut w = Writer::new(&mut out);
            w.bytes(&data);
            w.u8(0x55);
            drop(w);
            assert_eq!(out.len(), 2 + n + 1);
            assert_eq!(out.get(2..2 + n), Some(&data[..]), "n {n} spare {spare}");
        }
    }
}

#[test]
fn tagged_runs_pick_the_tag_from_every_byte() {
    for n in 0..=80usize {
        let ascii: Vec<u8> = (0..n).map(|i| b'a' + (i % 26) as u8).collect();
        let mut cases = vec![(ascii.clone(), true)];
        for hi in 0..n {
            let mut d = ascii.clone();
            d[hi] = 0xc3;
            cases.push((d, false));
        }
        for (data, is_ascii) in cases {
            assert_eq!(crate::buffer::is_ascii(&data), is_ascii);
            let header = ((n as u64) << 2) | if is_ascii { 0 } else { 2 };
            let mut expected = reference_var_u64(header);
            expected.extend_from_slice(&data);
            for spare in [n, n + 8, n + 9] {
                let mut out = with_spare(1, spare);
                let mut w = Writer::new(&mut out);
                w.tagged_run(&data, 0, 2);
                drop(w);
                assert_eq!(out.get(1..), Some(&expected[..]), "n {n} spare {spare}");
            }
        }
    }
    // A header of two bytes (length 32 and up) keeps its tag in the first byte.
    let long = vec![b'x'; 200];
    let mut out = Vec::new();
    Writer::new(&mut out).tagged_run(&long, 1, 2);
    assert_eq!(out.get(..2), Some(&[0xa1, 0x06][..]));
    // Headers of two and three bytes at the lengths where they change, ASCII or not.
    for n in [4095usize, 4096, 5000] {
        for is_ascii in [true, false] {
            let mut data = vec![b'y'; n];
            if !is_ascii {
                data[n / 2] = 0xa9;
            }
            let header = ((n as u64) << 2) | if is_ascii { 1 } else { 2 };
            let mut expected = reference_var_u64(header);
            expected.extend_from_slice(&data);
            let mut out = Vec::new();
            Writer::new(&mut out).tagged_run(&data, 1, 2);
            assert_eq!(out, expected, "n {n} ascii {is_ascii}");
        }
    }
}

#[test]
fn number_runs_round_trip_and_refuse_short_input() {
    let ints: Vec<i32> = vec![0, 1, -1, i32::MIN, i32::MAX, 300];
    let floats: Vec<f64> = vec![0.5, -0.0, f64::INFINITY, 1e300];
    let mut out = Vec::new();
    let mut w = Writer::new(&mut out);
    w.numbers(&ints);
    w.numbers(&floats);
    drop(w);
    let mut expected = Vec::new();
    ints.iter().for_each(|x| expected.extend(x.to_le_bytes()));
    floats.iter().for_each(|x| expected.extend(x.to_le_bytes()));
    assert_eq!(out, expected);
    let mut r = Reader::new(&out);
    assert_eq!(r.numbers::<i32>(ints.len()).unwrap(), ints);
    assert_eq!(r.numbers::<f64>(floats.len()).unwrap(), floats);
    assert_eq!(r.remaining(), 0);
    // One byte short, and a count whose byte size overflows, are errors.
    let mut r = Reader::new(&out[..23]);
    assert!(r.numbers::<i32>(6).is_err());
    let mut r = Reader::new(&out);
    assert!(r.numbers::<u64>(usize::MAX / 4).is_err());
    assert!(Reader::new(&[]).numbers::<u16>(0).unwrap().is_empty());
}

#[test]
fn owned_strings_only_from_valid_text() {
    use crate::buffer::{ascii_to_string, utf8_to_string};
    for n in 0..=40usize {
        let s: String = (0..n).map(|i| (b'A' + (i % 26) as u8) as char).collect();
        assert_eq!(ascii_to_string(s.as_bytes()).as_deref(), Some(s.as_str()));
        assert_eq!(utf8_to_string(s.as_bytes()).as_deref(), Some(s.as_str()));
        if n > 0 {
            let mut bad = s.clone().into_bytes();
            bad[n - 1] = 0xff;
            assert_eq!(ascii_to_string(&bad), None);
            assert_eq!(utf8_to_string(&bad), None);
        }
    }
    assert_eq!(utf8_to_string("héllo".as_bytes()).as_deref(), Some("héllo"));
    assert_eq!(ascii_to_string("héllo".as_bytes()), None);
    assert_eq!(utf8_to_string(&[0xc3]), None);
}

#[test]
fn rooms_of_any_size_write_what_the_writer_writes() {
    // A room smaller than its writes (down to zero) must grow, not overrun; the bytes are the
    // same as the plain writer's whatever the room and spare capacity.
    let expected = written(|w| {
        w.u8(1);
        w.var_u32(300);
        w.var_i32(-70_000);
        w.var_u64(u64::MAX);
        w.var_i64(i64::MIN);
        w.tagged_i64(1 << 40);
        w.tagged_i64(-5);
        w.tagged_u64(7);
        w.tagged_u64(u64::MAX);
        w.i16(-2);
        w.u16(65_000);
        w.i32(-3);
        w.u32(4);
        w.i64(-5);
        w.u64(6);
        w.f32(1.5);
        w.f64(-2.25);
        w.bool(true);
        w.i8(-1);
    });
    for room in 0..=expected.len() + 8 {
        for spare in [0, 1, 8, room, room + 3] {
            let mut out = with_spare(0, spare);
            let mut w = Writer::new(&mut out);
            let mut r = w.room(room);
            r.u8(1);
            r.var_u32(300);
            r.var_i32(-70_000);
            r.var_u64(u64::MAX);
            r.var_i64(i64::MIN);
            r.tagged_i64(1 << 40);
            r.tagged_i64(-5);
            r.tagged_u64(7);
            r.tagged_u64(u64::MAX);
            r.i16(-2);
            r.u16(65_000);
            r.i32(-3);
            r.u32(4);
            r.i64(-5);
            r.u64(6);
            r.f32(1.5);
            r.f64(-2.25);
            r.spend(3);
            r.bool(true);
            r.i8(-1);
            drop(r);
            w.u8(0x55);
            drop(w);
            assert_eq!(
                out.get(..expected.len()),
                Some(&expected[..]),
                "room {room}"
            );
            assert_eq!(out.get(expected.len()..), Some(&[0x55][..]));
        }
    }
}

#[test]
fn word_prefixes_write_exactly_their_bytes_at_every_spare_capacity() {
    let word = u64::from_le_bytes([1, 2, 3, 4, 5, 6, 7, 8]);
    for n in 0..=8usize {
        for spare in 0..=9 {
            let mut out = with_spare(3, spare);
            let mut w = Writer::new(&mut out);
            w.word_prefix(word, n);
            w.u8(0xee);
            drop(w);
            let mut expected = vec![0xaa; out.len() - n - 1];
            expected.extend_from_slice(&[1, 2, 3, 4, 5, 6, 7, 8][..n]);
            expected.push(0xee);
            assert_eq!(out, expected, "n {n} spare {spare}");
        }
    }
}

#[test]
fn taken_prefixes_match_every_byte_near_the_end_of_the_input() {
    let bytes = [0x1b, 0x64, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99];
    let word = u64::from_le_bytes([0x1b, 0x64, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88]);
    // `skip` bytes read before: the rest then lies at the end of a longer input (the path
    // that takes the input's last word).
    for skip in 0..=9usize {
        for len in 0..=bytes.len() {
            for n in 0..=8usize {
                let mut input = vec![0xee; skip];
                input.extend_from_slice(&bytes[..len]);
                let mut r = Reader::new(&input);
                r.bytes(skip).unwrap();
                let hit = r.take_prefix(word, n);
                assert_eq!(hit, n <= len, "skip {skip} len {len} n {n}");
                assert_eq!(r.position(), skip + if hit { n } else { 0 });
                // A difference in any one of the n bytes is a miss.
                for k in 0..n.min(len) {
                    let mut changed = input.clone();
                    changed[skip + k] ^= 0x01;
                    let mut r = Reader::new(&changed);
                    r.bytes(skip).unwrap();
                    assert!(
                        !r.take_prefix(word, n),
                        "skip {skip} len {len} n {n} byte {k}"
                    );
                    assert_eq!(r.position(), skip);
                }
            }
        }
    }
}

#[test]
fn string_runs_in_rooms_of_any_size_write_what_the_writer_writes() {
    // Runs around the lengths where the copy and the header change, ASCII or not, written
    // into rooms from far too small to exact, on vectors with various spare capacities.
    let mut runs: Vec<Vec<u8>> = Vec::new();
    for n in [0usize, 1, 3, 4, 7, 8, 16, 17, 31, 32, 33, 64, 65, 200, 5000] {
        runs.push(vec![b'a'; n]);
        if n > 0 {
            let mut d = vec![b'b'; n];
            d[n - 1] = 0xc3;
            runs.push(d);
        }
    }
    // The expected bytes come from the reference varint and the runs themselves.
    let mut expected = Vec::new();
    for r in &runs {
        let tag = if r.is_ascii() { 0 } else { 2 };
        expected.extend(reference_var_u64(((r.len() as u64) << 2) | tag));
        expected.extend_from_slice(r);
    }
    let exact: usize = runs.iter().map(|r| r.len() + 9).sum();
    for room in [0, 1, 9, 100, exact - 1, exact] {
        for spare in [0, 1, 9, room, room + 3] {
            let mut out = with_spare(0, spare);
            let mut w = Writer::new(&mut out);
            let mut r = w.room(room);
            for run in &runs {
                r.tagged_run(run, 0, 2);
            }
            drop(r);
            drop(w);
            assert_eq!(out, expected, "room {room} spare {spare}");
        }
    }
}

/// The varuint64 rules, byte by byte: at most 9 bytes, the ninth carrying 8 bits, and no
/// final zero byte after the first (overlong). `Some((value, bytes used))` or `None`.
fn reference_read_var_u64(b: &[u8]) -> Option<(u64, usize)> {
    let mut v = 0u64;
    for i in 0..9 {
        let byte = *b.get(i)?;
        if i == 8 {
            return (byte != 0).then_some((v | (u64::from(byte) << 56), 9));
        }
        v |= u64::from(byte & 0x7f) << (7 * i);
        if byte < 0x80 {
            return (byte != 0 || i == 0).then_some((v, i + 1));
        }
    }
    None
}

#[test]
fn var_u64_reads_agree_with_the_byte_by_byte_rules() {
    let check = |b: &[u8]| {
        let mut r = Reader::new(b);
        let got = r.var_u64().ok().map(|v| (v, r.position()));
        assert_eq!(got, reference_read_var_u64(b), "{b:02x?}");
    };
    // Every input of up to 10 bytes drawn from the bytes that decide the cases.
    let classes = [0x00u8, 0x01, 0x7f, 0x80, 0x81, 0xff];
    let mut buf = Vec::new();
    fn each(depth: usize, classes: &[u8], buf: &mut Vec<u8>, check: &dyn Fn(&[u8])) {
        check(buf);
        if depth == 0 {
            return;
        }
        for &c in classes {
            buf.push(c);
            each(depth - 1, classes, buf, check);
            buf.pop();
        }
    }
    each(7, &classes, &mut buf, &check);
    // Longer ones at random, and every value length with and without bytes after it.
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    for _ in 0..200_000 {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let len = (seed % 13) as usize;
        let bytes: Vec<u8> = (0..len)
            .map(|i| {
                let x = (seed >> (4 * i)) as u8;
                if i < 9 && seed & (1 << (40 + i)) != 0 {
                    x | 0x80
                } else {
                    x
                }
            })
            .collect();
        check(&bytes);
    }
    for shift in 0..64 {
        for v in [1u64 << shift, (1u64 << shift) - 1, u64::MAX >> shift] {
            let mut b = reference_var_u64(v);
            check(&b);
            b.extend_from_slice(&[0xff; 9]);
            check(&b);
        }
    }
}
