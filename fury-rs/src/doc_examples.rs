//! Examples for internal items (their modules are private, so rustdoc cannot run them).

#![allow(unused_imports, clippy::all)]

/// From `buffer/text.rs`.
#[test]
fn buffer_text_line_78() -> crate::Result<()> {
    use crate::buffer::ascii_to_string;
    assert_eq!(ascii_to_string(b"abc").as_deref(), Some("abc"));
    assert_eq!(ascii_to_string(&[0xe9]), None);
    Ok(())
}

/// From `buffer/text.rs`.
#[test]
fn buffer_text_line_9() -> crate::Result<()> {
    assert!(crate::buffer::is_ascii(b"plain text"));
    assert!(!crate::buffer::is_ascii("héllo".as_bytes()));
    Ok(())
}

/// From `buffer/text.rs`.
#[test]
fn buffer_text_line_57() -> crate::Result<()> {
    use crate::buffer::utf8_to_string;
    assert_eq!(utf8_to_string("héllo".as_bytes()).as_deref(), Some("héllo"));
    assert_eq!(utf8_to_string(&[0xc3]), None);
    Ok(())
}

/// From `buffer/utf8.rs`.
#[test]
fn buffer_utf8_line_21() -> crate::Result<()> {
    assert!(crate::buffer::is_utf8("北京市海淀区".as_bytes()));
    assert!(!crate::buffer::is_utf8(&[0xe5, 0x8c]));
    Ok(())
}

/// From `meta/meta_string.rs`.
#[test]
fn meta_meta_string_line_45() -> crate::Result<()> {
    use crate::meta::MetaEncoding;
    assert_eq!(MetaEncoding::from_id(1), Some(MetaEncoding::LowerSpecial));
    assert_eq!(MetaEncoding::from_id(5), None);
    Ok(())
}

/// From `meta/meta_string.rs`.
#[test]
fn meta_meta_string_line_256() -> crate::Result<()> {
    use crate::meta::{MetaEncoding as E, MetaStringEncoder};
    let ty = MetaStringEncoder::type_name();
    assert_eq!(ty.compute_encoding("my_type"), E::LowerSpecial);
    assert_eq!(ty.compute_encoding("Point"), E::FirstToLowerSpecial);
    assert_eq!(ty.compute_encoding("myField"), E::AllToLowerSpecial); // 8 * 5 < 7 * 6
    assert_eq!(ty.compute_encoding("MyType"), E::LowerUpperDigitSpecial); // 8 * 5 >= 6 * 6
    assert_eq!(
        ty.compute_encoding("MyHTTPServer2"),
        E::LowerUpperDigitSpecial
    );
    assert_eq!(ty.compute_encoding("a-b"), E::Utf8);
    Ok(())
}

/// From `meta/meta_string.rs`.
#[test]
fn meta_meta_string_line_393() -> crate::Result<()> {
    use crate::meta::{MetaEncoding, MetaStringEncoder};
    let ns = MetaStringEncoder::namespace();
    assert_eq!(
        ns.decode(&[0x0c, 0x8c, 0x70], MetaEncoding::LowerSpecial)
            .unwrap(),
        "demo"
    );
    assert!(ns.decode(&[0xff, 0xfe], MetaEncoding::Utf8).is_err());
    Ok(())
}

/// From `meta/meta_string.rs`.
#[test]
fn meta_meta_string_line_116() -> crate::Result<()> {
    use crate::meta::{MetaEncoding, MetaStringEncoder};

    let ns = MetaStringEncoder::namespace().encode("demo").unwrap();
    assert_eq!(ns.encoding(), MetaEncoding::LowerSpecial);
    assert_eq!(ns.bytes(), [0x0c, 0x8c, 0x70]);

    let ty = MetaStringEncoder::type_name();
    let point = ty.encode("Point").unwrap();
    assert_eq!(point.encoding(), MetaEncoding::FirstToLowerSpecial);
    assert_eq!(ty.decode(point.bytes(), point.encoding()).unwrap(), "Point");
    Ok(())
}

/// From `meta/mod.rs`.
#[test]
fn meta_mod_line_75() -> crate::Result<()> {
    use crate::meta::{
        EncodedMetaString, MetaStringEncoder, MetaStringReadState, MetaStringWriteState,
    };
    use crate::{Reader, Writer};

    // At registration: encode once.
    let ns = EncodedMetaString::new(&MetaStringEncoder::namespace().encode("demo").unwrap());
    let ty = EncodedMetaString::new(&MetaStringEncoder::type_name().encode("Color").unwrap());

    // Per stream: write with deduplication.
    let mut out = Vec::new();
    let mut ws = MetaStringWriteState::new();
    let mut w = Writer::new(&mut out);
    for s in [&ns, &ty, &ns] {
        ws.write(&mut w, s);
    }
    drop(w); // brings `out` up to date
    assert_eq!(
        out,
        [0x06, 0x01, 0x0c, 0x8c, 0x70, 0x08, 0x03, 0x89, 0xcb, 0x74, 0x40, 0x03]
    );

    // Reading gives borrowed strings to compare with the registered ones.
    let mut r = Reader::new(&out);
    let mut rs = MetaStringReadState::new();
    assert!(rs.read(&mut r).unwrap().matches(&ns));
    assert_eq!(
        rs.read(&mut r)
            .unwrap()
            .decode(&MetaStringEncoder::type_name())
            .unwrap(),
        "Color"
    );
    assert!(rs.read(&mut r).unwrap().matches(&ns));
    Ok(())
}

/// From `meta/wire.rs`.
#[test]
fn meta_wire_line_65() -> crate::Result<()> {
    use crate::meta::{EncodedMetaString, MetaStringEncoder, MetaStringWriteState};
    use crate::Writer;

    let ns = EncodedMetaString::new(&MetaStringEncoder::namespace().encode("demo").unwrap());
    let mut out = Vec::new();
    let mut state = MetaStringWriteState::new();
    let mut w = Writer::new(&mut out);
    state.write(&mut w, &ns);
    state.write(&mut w, &ns);
    drop(w);
    assert_eq!(out, [0x06, 0x01, 0x0c, 0x8c, 0x70, 0x03]);
    Ok(())
}

/// From `meta/wire.rs`.
#[test]
fn meta_wire_line_362() -> crate::Result<()> {
    use crate::meta::{MetaStringEncoder, MetaStringReadState};
    use crate::Reader;

    let input = [0x06, 0x01, 0x0c, 0x8c, 0x70, 0x03];
    let mut r = Reader::new(&input);
    let mut state = MetaStringReadState::new();
    let first = state.read(&mut r).unwrap();
    let again = state.read(&mut r).unwrap();
    assert_eq!(first, again);
    assert_eq!(
        again.decode(&MetaStringEncoder::namespace()).unwrap(),
        "demo"
    );
    assert!(state.read(&mut Reader::new(&[0x05])).is_err()); // id 1 was never read
    Ok(())
}

/// From `meta/wire.rs`.
#[test]
fn meta_wire_line_31() -> crate::Result<()> {
    use crate::meta::{meta_string_hash, MetaEncoding};
    let h = meta_string_hash(&[0x0c, 0x8c, 0x70], MetaEncoding::LowerSpecial);
    assert_eq!(h & 0xff, 1);
    assert_eq!(meta_string_hash(&[], MetaEncoding::Utf8), 0);
    Ok(())
}

/// From `meta/murmur3.rs`.
#[test]
fn meta_murmur3_line_44() -> crate::Result<()> {
    use crate::meta::murmur3_x64_128;
    assert_eq!(murmur3_x64_128(b"", 0), (0, 0));
    // The hash pyfory puts on the wire for long meta strings starts from seed 47.
    let (h1, _) = murmur3_x64_128(b"some meta string bytes", 47);
    let _ = h1;
    Ok(())
}
