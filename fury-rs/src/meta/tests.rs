//! Meta strings against pyfory 1.7.7: encoding choice and bytes per context, MurmurHash3,
//! the type-info wire form with deduplication, and hostile input.
//!
//! The expected values come from `conformance/vectors/meta/meta_strings.json`, written by
//! `conformance/generators/meta.py` from pyfory itself.

use crate::buffer::{Reader, Writer};
use crate::meta::{
    meta_string_hash, murmur3_x64_128, EncodedMetaString, MetaEncoding, MetaStringEncoder,
    MetaStringReadState, MetaStringWriteState, MAX_META_STRING_CHARS,
};
use crate::ErrorKind;
use proptest::prelude::*;

// ---------------------------------------------------------------------------------------------
// Accessors over the vector file's JSON that fail the test loudly on an unexpected shape.

use serde_json::Value as Json;

trait JsonExt {
    fn at(&self, key: &str) -> &Json;
    fn str(&self) -> &str;
    fn int(&self) -> i128;
    fn arr(&self) -> &[Json];
    fn obj(&self) -> Vec<(&String, &Json)>;
    fn bool(&self) -> bool;
}

impl JsonExt for Json {
    fn at(&self, key: &str) -> &Json {
        self.get(key)
            .unwrap_or_else(|| panic!("missing key {key:?} in {self:?}"))
    }
    fn str(&self) -> &str {
        self.as_str()
            .unwrap_or_else(|| panic!("expected a string, found {self:?}"))
    }
    fn int(&self) -> i128 {
        self.as_i64()
            .map(i128::from)
            .or_else(|| self.as_u64().map(i128::from))
            .unwrap_or_else(|| panic!("expected an integer, found {self:?}"))
    }
    fn arr(&self) -> &[Json] {
        self.as_array()
            .unwrap_or_else(|| panic!("expected an array, found {self:?}"))
    }
    fn obj(&self) -> Vec<(&String, &Json)> {
        self.as_object()
            .unwrap_or_else(|| panic!("expected an object, found {self:?}"))
            .iter()
            .collect()
    }
    fn bool(&self) -> bool {
        self.as_bool()
            .unwrap_or_else(|| panic!("expected a bool, found {self:?}"))
    }
}

fn vectors() -> Json {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../conformance/vectors/meta/meta_strings.json"
    );
    let text = std::fs::read_to_string(path).expect("vector file");
    let doc: Json = serde_json::from_str(&text).expect("valid JSON");
    assert_eq!(doc.at("format").str(), "fury-meta-strings/1");
    assert_eq!(doc.at("peer").str(), "pyfory==1.7.7");
    doc
}

fn unhex(s: &str) -> Vec<u8> {
    assert!(s.len().is_multiple_of(2), "odd hex {s:?}");
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

fn hex_u64(s: &str) -> u64 {
    u64::from_str_radix(s, 16).unwrap()
}

fn encoder_for(context: &str) -> MetaStringEncoder {
    match context {
        "namespace" => MetaStringEncoder::namespace(),
        "type_name" => MetaStringEncoder::type_name(),
        "typedef_namespace" => MetaStringEncoder::typedef_namespace(),
        "typedef_type_name" => MetaStringEncoder::typedef_type_name(),
        "field_name" => MetaStringEncoder::field_name(),
        other => panic!("unknown context {other}"),
    }
}

fn encoding(id: i128) -> MetaEncoding {
    MetaEncoding::from_id(u8::try_from(id).unwrap()).unwrap()
}

// ---------------------------------------------------------------------------------------------
// pyfory vectors

#[test]
fn murmur3_matches_pyfory() {
    let doc = vectors();
    let cases = doc.at("murmur3").arr();
    assert!(cases.len() >= 200);
    for v in cases {
        let input = unhex(v.at("input").str());
        let seed = u64::try_from(v.at("seed").int()).unwrap();
        let got = murmur3_x64_128(&input, seed);
        let want = (hex_u64(v.at("h1").str()), hex_u64(v.at("h2").str()));
        assert_eq!(got, want, "seed {seed} input {}", v.at("input").str());
    }
}

#[test]
fn contexts_match_pyfory() {
    let doc = vectors();
    for (name, c) in doc.at("contexts").obj() {
        let enc = encoder_for(name);
        let ids: Vec<i128> = enc.encodings().iter().map(|e| e.id() as i128).collect();
        let want: Vec<i128> = c.at("encodings").arr().iter().map(|j| j.int()).collect();
        assert_eq!(ids, want, "{name}: encodings and their order");
        let (s1, s2) = enc.special_chars();
        assert_eq!(format!("{s1},{s2}"), c.at("special_chars").str(), "{name}");
    }
}

#[test]
fn encoder_matches_pyfory_in_every_context() {
    let doc = vectors();
    let mut compared = 0;
    let mut pyfory_refuses = 0;
    for entry in doc.at("strings").arr() {
        let text = entry.at("text").str();
        for (context, want) in entry.at("contexts").obj() {
            let enc = encoder_for(context);
            let ours = enc
                .encode(text)
                .unwrap_or_else(|e| panic!("{context} {text:?}: {e}"));
            // Whatever the choice, it must be allowed here and decode back to the text.
            assert!(
                enc.encodings().contains(&ours.encoding()),
                "{context} {text:?}"
            );
            assert_eq!(ours.as_str(), text);
            assert_eq!(
                enc.decode(ours.bytes(), ours.encoding()).unwrap(),
                text,
                "{context} {text:?} round trip"
            );
            if want.get("error").is_some() {
                // pyfory raises (non-ASCII letters or digits, or FIRST_TO_LOWER_SPECIAL chosen
                // where the context does not allow it). We pick an allowed encoding instead.
                pyfory_refuses += 1;
                if !text.is_ascii() {
                    assert_eq!(ours.encoding(), MetaEncoding::Utf8, "{context} {text:?}");
                } else {
                    assert_ne!(ours.encoding(), MetaEncoding::FirstToLowerSpecial);
                }
                continue;
            }
            let want_enc = encoding(want.at("encoding").int());
            let want_bytes = unhex(want.at("bytes").str());
            if let Some(lossy) = want.get("pyfory_decodes_to") {
                // pyfory lower-cases U+212A KELVIN SIGN to ASCII 'k' and so loses it; we keep
                // such text in UTF-8.
                assert_ne!(lossy.str(), text);
                assert_eq!(ours.encoding(), MetaEncoding::Utf8, "{context} {text:?}");
                assert_eq!(enc.decode(&want_bytes, want_enc).unwrap(), lossy.str());
                continue;
            }
            assert_eq!(
                enc.compute_encoding(text),
                want_enc,
                "{context} {text:?}: encoding choice"
            );
            assert_eq!(ours.encoding(), want_enc, "{context} {text:?}");
            assert_eq!(ours.bytes(), &want_bytes[..], "{context} {text:?}: bytes");
            assert_eq!(enc.decode(&want_bytes, want_enc).unwrap(), text);
            // An explicit encode with pyfory's choice gives the same bytes.
            assert_eq!(enc.encode_with(text, want_enc).unwrap(), ours);
            if let Some(h) = want.get("hash") {
                let h = hex_u64(h.str());
                assert_eq!(
                    meta_string_hash(&want_bytes, want_enc),
                    h,
                    "{context} {text:?}"
                );
                assert_eq!(EncodedMetaString::new(&ours).hash(), h);
            }
            compared += 1;
        }
    }
    assert!(compared >= 400, "only {compared} comparisons");
    assert!(pyfory_refuses > 0);
}

struct Registered {
    namespace: EncodedMetaString,
    type_name: EncodedMetaString,
}

fn register(types: &[Json]) -> Vec<Registered> {
    types
        .iter()
        .map(|t| Registered {
            namespace: MetaStringEncoder::namespace()
                .encode(t.at("namespace").str())
                .unwrap()
                .into(),
            type_name: MetaStringEncoder::type_name()
                .encode(t.at("type_name").str())
                .unwrap()
                .into(),
        })
        .collect()
}

#[test]
fn wire_writer_matches_pyfory_streams() {
    let doc = vectors();
    let streams = doc.at("streams").arr();
    assert!(streams.len() > 100);
    let mut state = MetaStringWriteState::new();
    let mut back_refs = 0;
    for v in streams {
        let name = v.at("name").str();
        let bytes = unhex(v.at("bytes").str());
        let registered = register(v.at("types").arr());
        state.reset();
        let mut whole = Vec::new();
        let mut expected_whole = Vec::new();
        for op in v.at("meta").arr() {
            let wire = unhex(op.at("wire").str());
            let offset = usize::try_from(op.at("offset").int()).unwrap();
            assert_eq!(
                &bytes[offset..offset + wire.len()],
                &wire[..],
                "{name}: file"
            );
            let t = &registered[usize::try_from(op.at("type").int()).unwrap()];
            let s = match op.at("role").str() {
                "namespace" => &t.namespace,
                _ => &t.type_name,
            };
            let mut piece = Vec::new();
            state.write(&mut Writer::new(&mut piece), s);
            assert_eq!(
                piece,
                wire,
                "{name}: {} {:?}",
                op.at("role").str(),
                op.at("text")
            );
            back_refs += usize::from(op.at("back_reference").bool());
            // The state does not depend on which buffer is written to.
            expected_whole.extend_from_slice(&wire);
            whole.extend_from_slice(&piece);
        }
        assert_eq!(whole, expected_whole);
    }
    assert!(back_refs >= 8, "only {back_refs} back references checked");
}

#[test]
fn wire_reader_reads_pyfory_streams() {
    let doc = vectors();
    for v in doc.at("streams").arr() {
        let name = v.at("name").str();
        let bytes = unhex(v.at("bytes").str());
        let registered = register(v.at("types").arr());
        let mut state = MetaStringReadState::new();
        for op in v.at("meta").arr() {
            let wire_len = op.at("wire").str().len() / 2;
            let offset = usize::try_from(op.at("offset").int()).unwrap();
            let mut r = Reader::new(&bytes);
            r.bytes(offset).unwrap();
            let got = state.read(&mut r).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(r.position(), offset + wire_len, "{name}: bytes consumed");
            let t = &registered[usize::try_from(op.at("type").int()).unwrap()];
            let (s, ctx) = match op.at("role").str() {
                "namespace" => (&t.namespace, MetaStringEncoder::namespace()),
                _ => (&t.type_name, MetaStringEncoder::type_name()),
            };
            assert!(
                got.matches(s),
                "{name}: read string differs from the registered one"
            );
            assert!(got == *s);
            assert_eq!(got.hash(), s.hash());
            assert_eq!(got.decode(&ctx).unwrap(), op.at("text").str(), "{name}");
            // Re-encoding what was read gives the first-occurrence bytes back.
            assert_eq!(
                EncodedMetaString::from_wire(&got).wire_bytes(),
                s.wire_bytes()
            );
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Hostile input: always an error, never a panic.

fn read_all(input: &[u8]) -> crate::Result<usize> {
    let mut r = Reader::new(input);
    let mut st = MetaStringReadState::new();
    while r.remaining() > 0 {
        st.read(&mut r)?;
    }
    Ok(st.len())
}

fn first_occurrences() -> Vec<Vec<u8>> {
    let doc = vectors();
    doc.at("streams")
        .arr()
        .iter()
        .flat_map(|v| v.at("meta").arr().iter())
        .filter(|op| !op.at("back_reference").bool())
        .map(|op| unhex(op.at("wire").str()))
        .collect()
}

#[test]
fn truncated_meta_strings_are_errors() {
    let mut checked = 0;
    for wire in first_occurrences() {
        for cut in 1..wire.len() {
            let prefix = &wire[..cut];
            let mut st = MetaStringReadState::new();
            let err = st.read(&mut Reader::new(prefix));
            assert!(err.is_err(), "prefix {prefix:02x?} of {wire:02x?}");
            assert!(err.unwrap_err().offset().is_some());
            checked += 1;
        }
        assert_eq!(read_all(&wire).unwrap(), 1);
    }
    assert!(checked > 1000);
}

#[test]
fn bad_encoding_ids_are_errors() {
    for bad in [5u8, 6, 0x7f, 0x80, 0xff] {
        let input = [0x06, bad, 0x0c, 0x8c, 0x70];
        let e = MetaStringReadState::new()
            .read(&mut Reader::new(&input))
            .unwrap_err();
        assert!(matches!(e.kind(), ErrorKind::Invalid { .. }), "{e}");
        assert_eq!(e.offset(), Some(1));
    }
    // A long string carries its encoding in the hash's low byte.
    let long = EncodedMetaString::new(
        &MetaStringEncoder::namespace()
            .encode(&"q".repeat(40))
            .unwrap(),
    );
    let mut wire = long.wire_bytes().to_vec();
    assert_eq!(wire[0], (long.bytes().len() as u8) << 1);
    assert_eq!(wire[1], MetaEncoding::LowerSpecial.id());
    wire[1] = 9;
    let e = MetaStringReadState::new()
        .read(&mut Reader::new(&wire))
        .unwrap_err();
    assert_eq!(e.offset(), Some(1), "{e}");
}

#[test]
fn long_meta_string_hash_must_match_its_bytes() {
    let long = EncodedMetaString::new(
        &MetaStringEncoder::type_name()
            .encode("MyVeryLongTypeNameForHashing")
            .unwrap(),
    );
    assert!(long.bytes().len() > 16);
    let good = long.wire_bytes().to_vec();
    assert_eq!(read_all(&good).unwrap(), 1);
    for i in 2..good.len() {
        let mut bad = good.clone();
        bad[i] ^= 0x10;
        let e = read_all(&bad).unwrap_err();
        assert!(
            matches!(e.kind(), ErrorKind::Invalid { .. }),
            "byte {i}: {e}"
        );
    }
}

#[test]
fn back_references_to_unknown_ids_are_errors() {
    // 0x01: id -1; 0x03: id 0 before anything was read; 0x05 after one string.
    for input in [
        &[0x01][..],
        &[0x03],
        &[0x06, 0x01, 0x0c, 0x8c, 0x70, 0x05],
        &[0xff, 0xff, 0xff, 0xff, 0x0f],
    ] {
        let e = read_all(input).unwrap_err();
        assert!(
            matches!(e.kind(), ErrorKind::Invalid { .. }),
            "{input:02x?}: {e}"
        );
    }
    let e = read_all(&[0x06, 0x01, 0x0c, 0x8c, 0x70, 0x05]).unwrap_err();
    assert_eq!(e.offset(), Some(5));
    // The same id after the string was read is fine; reset forgets it.
    assert_eq!(read_all(&[0x06, 0x01, 0x0c, 0x8c, 0x70, 0x03]).unwrap(), 1);
    let mut st = MetaStringReadState::new();
    st.read(&mut Reader::new(&[0x00])).unwrap();
    st.reset();
    assert!(st.read(&mut Reader::new(&[0x03])).is_err());
}

#[test]
fn huge_declared_lengths_are_errors() {
    // len = 2^31 - 1 (header 0xfffffffe), len 16 and len 17 with too few bytes.
    for (input, declared) in [
        (&[0xfe, 0xff, 0xff, 0xff, 0x0f][..], (1u64 << 31) - 1),
        (&[0x20, 0x01, 1, 2, 3][..], 16),
        (&[0x22, 1, 2, 3, 4, 5, 6, 7, 8, 9][..], 17),
    ] {
        let e = read_all(input).unwrap_err();
        match e.kind() {
            ErrorKind::LengthTooLarge { declared: d, .. } => assert_eq!(*d, declared),
            other => panic!("{input:02x?}: {other:?}"),
        }
        assert_eq!(e.offset(), Some(0));
    }
    // A header that is not a valid varint32.
    assert!(matches!(
        read_all(&[0xff, 0xff, 0xff, 0xff, 0xff])
            .unwrap_err()
            .kind(),
        ErrorKind::BadVarint { .. }
    ));
}

#[test]
fn malformed_encoded_bytes_are_decode_errors() {
    let ns = MetaStringEncoder::namespace();
    let cases: &[(&[u8], MetaEncoding, usize)] = &[
        // invalid UTF-8 after two good bytes
        (&[b'a', b'b', 0xff], MetaEncoding::Utf8, 2),
        // 5-bit codes 30 and 31
        (&[0b0111_1000], MetaEncoding::LowerSpecial, 0),
        (&[0b0000_0011, 0b1110_0000], MetaEncoding::LowerSpecial, 0),
        // one byte with the strip flag holds no character
        (&[0x80], MetaEncoding::LowerSpecial, 0),
        (&[0x80], MetaEncoding::LowerUpperDigitSpecial, 0),
        // three bytes with the strip flag: 3 characters, which take 2 bytes
        (&[0x80, 0x00, 0x00], MetaEncoding::LowerSpecial, 0),
        // padding bits set
        (&[0x01], MetaEncoding::LowerSpecial, 0),
        (&[0x0c, 0x8c, 0x71], MetaEncoding::LowerSpecial, 2),
        // ALL_TO_LOWER: trailing escape, escape before a non-letter
        (&[0b0111_0100], MetaEncoding::AllToLowerSpecial, 0),
        (
            &[0b1111_0111, 0b0100_0000],
            MetaEncoding::AllToLowerSpecial,
            0,
        ),
        // FIRST_TO_LOWER starting with '.'
        (&[0b0110_1000], MetaEncoding::FirstToLowerSpecial, 0),
    ];
    for &(data, enc, at) in cases {
        let e = ns.decode(data, enc).unwrap_err();
        assert_eq!(e.offset(), Some(at), "{data:02x?} {enc:?}: {e}");
    }
    // Errors of a string read from a stream carry the input offset.
    let input = [0x02, 0x00, 0xff];
    let mut r = Reader::new(&input);
    let s = MetaStringReadState::new().read(&mut r).unwrap();
    assert_eq!(s.decode(&ns).unwrap_err().offset(), Some(2));
    // The empty string decodes in every encoding.
    for e in MetaEncoding::ALL {
        assert_eq!(ns.decode(&[], e).unwrap(), "");
    }
}

#[test]
fn encoder_limits() {
    let ty = MetaStringEncoder::type_name();
    assert!(ty.encode(&"a".repeat(MAX_META_STRING_CHARS)).is_ok());
    let e = ty
        .encode(&"a".repeat(MAX_META_STRING_CHARS + 1))
        .unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::LengthTooLarge { .. }));
    // Unrepresentable characters for an explicit encoding.
    assert!(ty.encode_with("a-b", MetaEncoding::LowerSpecial).is_err());
    assert!(ty
        .encode_with("a.b", MetaEncoding::LowerUpperDigitSpecial)
        .is_err());
    assert!(ty
        .encode_with("foo", MetaEncoding::FirstToLowerSpecial)
        .is_err());
    assert!(ty
        .encode_with("a|B", MetaEncoding::AllToLowerSpecial)
        .is_err());
    assert!(ty
        .encode_with("x1", MetaEncoding::AllToLowerSpecial)
        .is_err());
    // The empty string is UTF8 with no bytes whatever is asked.
    let empty = ty.encode_with("", MetaEncoding::LowerSpecial).unwrap();
    assert_eq!(
        (empty.encoding(), empty.bytes()),
        (MetaEncoding::Utf8, &[][..])
    );
}

#[test]
fn writer_back_reference_ids_follow_first_occurrences() {
    let ns = MetaStringEncoder::namespace();
    let a: EncodedMetaString = ns.encode("a").unwrap().into();
    let b: EncodedMetaString = ns.encode("b").unwrap().into();
    let empty: EncodedMetaString = ns.encode("").unwrap().into();
    let mut out = Vec::new();
    let mut st = MetaStringWriteState::new();
    let mut w = Writer::new(&mut out);
    for s in [&a, &empty, &b, &b, &empty, &a] {
        st.write(&mut w, s);
    }
    drop(w);
    assert_eq!(
        out,
        [0x02, 0x01, 0x00, 0x00, 0x02, 0x01, 0x04, 0x07, 0x05, 0x03]
    );
    assert_eq!(st.len(), 3);
    st.reset();
    assert!(st.is_empty());
}

proptest! {
    #[test]
    fn decoding_arbitrary_bytes_never_panics(data in proptest::collection::vec(any::<u8>(), 0..40), id in 0u8..5) {
        let enc = MetaEncoding::from_id(id).unwrap();
        for ctx in [MetaStringEncoder::namespace(), MetaStringEncoder::type_name()] {
            if let Ok(text) = ctx.decode(&data, enc) {
                // What decodes is canonical: encoding the text again gives the same bytes.
                let again = ctx.encode_with(&text, enc).unwrap();
                prop_assert_eq!(again.bytes(), &data[..]);
            }
        }
    }

    #[test]
    fn reading_arbitrary_bytes_never_panics(data in proptest::collection::vec(any::<u8>(), 0..64)) {
        let _ = read_all(&data);
    }

    #[test]
    fn encode_decode_round_trip(text in "[a-zA-Z0-9._$|é-]{0,40}") {
        for ctx in [
            MetaStringEncoder::namespace(),
            MetaStringEncoder::type_name(),
            MetaStringEncoder::typedef_namespace(),
            MetaStringEncoder::typedef_type_name(),
            MetaStringEncoder::field_name(),
        ] {
            let m = ctx.encode(&text).unwrap();
            prop_assert!(ctx.encodings().contains(&m.encoding()));
            prop_assert_eq!(ctx.decode(m.bytes(), m.encoding()).unwrap(), text.clone());
        }
    }

    #[test]
    fn write_then_read_round_trip(picks in proptest::collection::vec(0usize..6, 0..30)) {
        let names = ["", "demo", "Color", "org.apache.fory.test.namespace", "x1", "MyHTTPServer2"];
        let ns = MetaStringEncoder::namespace();
        let registered: Vec<EncodedMetaString> =
            names.iter().map(|n| ns.encode(n).unwrap().into()).collect();
        let mut out = Vec::new();
        let mut ws = MetaStringWriteState::new();
        let mut w = Writer::new(&mut out);
        for &p in &picks {
            ws.write(&mut w, &registered[p]);
        }
        drop(w);
        let mut r = Reader::new(&out);
        let mut rs = MetaStringReadState::new();
        for &p in &picks {
            let got = rs.read(&mut r).unwrap();
            prop_assert!(got.matches(&registered[p]));
            prop_assert_eq!(got.decode(&ns).unwrap(), names[p]);
        }
        prop_assert_eq!(r.remaining(), 0);
        prop_assert_eq!(rs.len(), ws.len());
    }
}
