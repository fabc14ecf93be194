//! Examples for crate-internal items, which rustdoc cannot run: each item's documentation
//! names its example here, and the test is named after what it shows.

#![allow(unused_imports, clippy::all)]

/// From `buffer/text.rs`.
#[test]
fn ascii_to_string_copies_only_ascii() -> crate::Result<()> {
    use crate::buffer::ascii_to_string;
    assert_eq!(ascii_to_string(b"abc").as_deref(), Some("abc"));
    assert_eq!(ascii_to_string(&[0xe9]), None);
    Ok(())
}

/// From `buffer/text.rs`.
#[test]
fn is_ascii_tells_ascii_from_other_bytes() -> crate::Result<()> {
    assert!(crate::buffer::is_ascii(b"plain text"));
    assert!(!crate::buffer::is_ascii("héllo".as_bytes()));
    Ok(())
}

/// From `buffer/text.rs`.
#[test]
fn utf8_to_string_copies_only_utf8() -> crate::Result<()> {
    use crate::buffer::utf8_to_string;
    assert_eq!(utf8_to_string("héllo".as_bytes()).as_deref(), Some("héllo"));
    assert_eq!(utf8_to_string(&[0xc3]), None);
    Ok(())
}

/// From `buffer/utf8.rs`.
#[test]
fn is_utf8_checks_whole_sequences() -> crate::Result<()> {
    assert!(crate::buffer::is_utf8("北京市海淀区".as_bytes()));
    assert!(!crate::buffer::is_utf8(&[0xe5, 0x8c]));
    Ok(())
}

/// From `meta/mod.rs`.
#[test]
fn meta_strings_are_written_once_per_stream_and_read_back() -> crate::Result<()> {
    use crate::buffer::{Reader, Writer};
    use crate::meta::{
        EncodedMetaString, MetaStringEncoder, MetaStringReadState, MetaStringWriteState,
    };

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
fn a_repeated_meta_string_is_written_as_its_id() -> crate::Result<()> {
    use crate::buffer::Writer;
    use crate::meta::{EncodedMetaString, MetaStringEncoder, MetaStringWriteState};

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
fn a_meta_string_id_reads_as_the_string_it_names() -> crate::Result<()> {
    use crate::buffer::Reader;
    use crate::meta::{MetaStringEncoder, MetaStringReadState};

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
fn meta_string_hash_carries_the_encoding_in_its_low_byte() -> crate::Result<()> {
    use crate::meta::{meta_string_hash, MetaEncoding};
    let h = meta_string_hash(&[0x0c, 0x8c, 0x70], MetaEncoding::LowerSpecial);
    assert_eq!(h & 0xff, 1);
    assert_eq!(meta_string_hash(&[], MetaEncoding::Utf8), 0);
    Ok(())
}
