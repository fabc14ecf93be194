//! Out-of-band buffers (conformance/vectors/oob, written by pyfory 1.7.7 with a
//! `buffer_callback`): fury-rs reads each stream with its buffers to the expected value,
//! writes the same stream and the same buffers when its callback gives pyfory's answers,
//! lends the buffers from the value and borrows from them when reading. The streams fury-rs
//! writes go to target/conformance/fury-rs-oob.json, which
//! `check_peer.py --group oob` has pyfory read back (scripts/test-all.sh).

use fury::{Fury, Value};
use serde_json::{json, Value as Json};

#[derive(fury::FuryObject, Debug, Clone, PartialEq)]
#[fury(namespace = "demo", name = "Blob")]
struct Blob {
    name: String,
    data: Vec<u8>,
    opt: Option<Vec<u8>>,
}

/// The same type, borrowing its bytes from wherever they are (the stream or a buffer).
#[derive(fury::FuryObject, Debug, Clone, PartialEq)]
#[fury(namespace = "demo", name = "Blob")]
struct BlobRef<'a> {
    name: &'a str,
    data: &'a [u8],
    opt: Option<&'a [u8]>,
}

struct OobVector {
    name: String,
    schema: String,
    settings: Json,
    value: Json,
    stream: Vec<u8>,
    in_band: Vec<bool>,
    buffers: Vec<Vec<u8>>,
}

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

fn vectors() -> Vec<OobVector> {
    let path = fury_conformance::groups::file("oob");
    let doc: Json = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    assert_eq!(doc["format"], "fury-conformance/1");
    doc["vectors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| OobVector {
            name: v["name"].as_str().unwrap().to_string(),
            schema: v["schema"].as_str().unwrap().to_string(),
            settings: v["settings"].clone(),
            value: v["value"].clone(),
            stream: unhex(v["hex"].as_str().unwrap()),
            in_band: v["in_band"]
                .as_array()
                .unwrap()
                .iter()
                .map(|b| b.as_bool().unwrap())
                .collect(),
            buffers: v["buffers"]
                .as_array()
                .unwrap()
                .iter()
                .map(|b| unhex(b.as_str().unwrap()))
                .collect(),
        })
        .collect()
}

fn fury_for(v: &OobVector) -> Fury {
    let mut fury = Fury::builder()
        .ref_tracking(v.settings["ref"].as_bool().unwrap())
        .compatible(v.settings["compatible"].as_bool().unwrap())
        .build();
    fury.register::<Blob>().unwrap();
    fury
}

fn borrowing_fury(v: &OobVector) -> Fury {
    let mut fury = Fury::builder()
        .ref_tracking(v.settings["ref"].as_bool().unwrap())
        .compatible(v.settings["compatible"].as_bool().unwrap())
        .build();
    fury.register::<BlobRef<'static>>().unwrap();
    fury
}

/// The vector's Blob, from its value node.
fn blob_of(node: &Json) -> Blob {
    let f = &node["fields"];
    let bytes = |n: &Json| unhex(n["hex"].as_str().unwrap());
    Blob {
        name: f["name"]["value"].as_str().unwrap().to_string(),
        data: bytes(&f["data"]),
        opt: (f["opt"]["type"] != "null").then(|| bytes(&f["opt"])),
    }
}

/// A callback that answers as pyfory's did, and counts the questions.
fn replay(answers: &[bool]) -> impl FnMut(&[u8]) -> bool + '_ {
    let mut next = answers.iter();
    move |_| *next.next().expect("more questions than pyfory was asked")
}

fn inside(outer: &[u8], part: &[u8]) -> bool {
    let r = outer.as_ptr_range();
    r.start <= part.as_ptr() && part.as_ptr_range().end <= r.end
}

/// Reads the vector, writes it back, and returns fury-rs's stream and buffers.
fn check(v: &OobVector) -> Result<(Vec<u8>, Vec<Vec<u8>>), String> {
    let fury = fury_for(v);
    let buffers: Vec<&[u8]> = v.buffers.iter().map(Vec::as_slice).collect();
    let (stream, lent) = if v.schema == "Blob" {
        let want = blob_of(&v.value);
        let got: Blob = fury
            .deserialize_with_buffers(&v.stream, &buffers)
            .map_err(|e| format!("decode: {e}"))?;
        if got != want {
            return Err(format!("decoded {got:?}, expected {want:?}"));
        }
        // A borrowing mirror takes its bytes from the buffers themselves.
        let view: BlobRef<'_> = borrowing_fury(v)
            .deserialize_with_buffers(&v.stream, &buffers)
            .map_err(|e| format!("borrowed decode: {e}"))?;
        if !buffers.iter().any(|b| inside(b, view.data)) || view.data != want.data {
            return Err("the borrowed data field is not the first buffer".into());
        }
        let (s, lent) = fury
            .serialize_with_buffers(&got, replay(&v.in_band))
            .map_err(|e| format!("encode: {e}"))?;
        check_lent(
            &lent,
            &[got.data.as_slice(), got.opt.as_deref().unwrap_or(&[])],
        )?;
        (s, lent.iter().map(|b| b.to_vec()).collect::<Vec<_>>())
    } else {
        let want = fury_conformance::node_to_value(&v.value).map_err(|e| e.to_string())?;
        let got: Value = fury
            .deserialize_with_buffers(&v.stream, &buffers)
            .map_err(|e| format!("decode: {e}"))?;
        if got != want {
            return Err(format!("decoded {got:?}, expected {want:?}"));
        }
        let (s, lent) = fury
            .serialize_with_buffers(&got, replay(&v.in_band))
            .map_err(|e| format!("encode: {e}"))?;
        (s, lent.iter().map(|b| b.to_vec()).collect())
    };
    Ok((stream, lent))
}

/// Every lent buffer is one of `fields`, not a copy.
fn check_lent(lent: &[&[u8]], fields: &[&[u8]]) -> Result<(), String> {
    for b in lent {
        if !fields.iter().any(|f| std::ptr::eq(*b, *f)) {
            return Err("a buffer was not lent from the value".into());
        }
    }
    Ok(())
}

#[test]
fn pyfory_out_of_band_vectors_read_and_write_back_byte_for_byte() {
    let vectors = vectors();
    assert!(vectors.len() >= 12, "{} vectors", vectors.len());
    let mut failures = Vec::new();
    let mut written = Vec::new();
    for v in &vectors {
        match check(v) {
            Ok((stream, buffers)) => {
                if stream != v.stream || buffers != v.buffers {
                    failures.push(format!(
                        "{}: wrote {} with {} buffers, pyfory wrote {} with {}",
                        v.name,
                        fury_conformance::hex_encode(&stream),
                        buffers.len(),
                        fury_conformance::hex_encode(&v.stream),
                        v.buffers.len()
                    ));
                }
                written.push(json!({
                    "name": v.name,
                    "hex": fury_conformance::hex_encode(&stream),
                    "buffers": buffers.iter().map(|b| fury_conformance::hex_encode(b)).collect::<Vec<_>>(),
                }));
            }
            Err(e) => failures.push(format!("{}: {e}", v.name)),
        }
    }
    let out = fury_conformance::groups::peer_bytes("oob");
    std::fs::create_dir_all(out.parent().unwrap()).unwrap();
    std::fs::write(&out, serde_json::to_string_pretty(&written).unwrap()).unwrap();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn a_buffer_too_few_or_too_many_or_a_wrong_header_is_an_error() {
    for v in vectors() {
        let fury = fury_for(&v);
        let buffers: Vec<&[u8]> = v.buffers.iter().map(Vec::as_slice).collect();
        let read = |stream: &[u8], buffers: &[&[u8]]| -> fury::Result<()> {
            if v.schema == "Blob" {
                fury.deserialize_with_buffers::<Blob>(stream, buffers)
                    .map(drop)
            } else {
                fury.deserialize_with_buffers::<Value>(stream, buffers)
                    .map(drop)
            }
        };
        assert!(read(&v.stream, &buffers).is_ok(), "{}", v.name);
        // An out-of-band stream read as an in-band one.
        assert!(fury.deserialize::<Value>(&v.stream).is_err(), "{}", v.name);
        if let Some((_, fewer)) = buffers.split_last() {
            let e = read(&v.stream, fewer).unwrap_err();
            assert!(e.to_string().contains("buffer"), "{}: {e}", v.name);
        }
        let mut more = buffers.clone();
        more.push(b"extra");
        let e = read(&v.stream, &more).unwrap_err();
        assert!(e.to_string().contains("took"), "{}: {e}", v.name);
        // Without the header bit, the buffers do not belong to the stream.
        let mut in_band = v.stream.clone();
        in_band[0] &= !0x02;
        assert!(read(&in_band, &buffers).is_err(), "{}", v.name);
        // Every prefix, and every byte changed to each flag value, is an error or a value;
        // never a panic.
        for n in 0..v.stream.len() {
            assert!(
                read(&v.stream[..n], &buffers).is_err(),
                "{}: prefix {n}",
                v.name
            );
        }
        for i in 0..v.stream.len() {
            for b in [0x00, 0x01, 0x02, 0xff] {
                let mut s = v.stream.clone();
                s[i] = b;
                let _ = read(&s, &buffers);
            }
        }
    }
}

#[test]
fn bytes_the_value_cannot_lend_stay_in_band() {
    use std::cell::RefCell;
    use std::rc::Rc;
    let fury = Fury::default();
    // Behind a RefCell the bytes are not lent for the value's lifetime: in band, and the
    // callback is not asked.
    let cell = Rc::new(RefCell::new(vec![1u8, 2, 3]));
    let (stream, lent) = fury
        .serialize_with_buffers(&cell, |_| panic!("not asked"))
        .unwrap();
    assert!(lent.is_empty());
    // The same bytes as pyfory's oob/root/kept_in_band layout: header 03, flag 01, length.
    assert_eq!(&stream[..2], [0x03, 0xff]);
    assert_eq!(&stream[stream.len() - 5..], [0x01, 0x03, 1, 2, 3]);
    let back: Vec<u8> = fury.deserialize_with_buffers(&stream, &[]).unwrap();
    assert_eq!(back, [1, 2, 3]);
}

#[test]
fn a_large_buffer_is_lent_not_copied() {
    let blob = Blob {
        name: "big".into(),
        data: vec![0xab; 64 << 20],
        opt: None,
    };
    let mut f = Fury::default();
    f.register::<Blob>().unwrap();
    let (stream, lent) = f.serialize_with_buffers(&blob, |_| false).unwrap();
    assert!(stream.len() < 128, "{} bytes", stream.len());
    assert_eq!(lent.len(), 1);
    assert!(std::ptr::eq(lent[0], blob.data.as_slice()));
    let mut g = Fury::default();
    g.register::<BlobRef<'static>>().unwrap();
    let view: BlobRef<'_> = g.deserialize_with_buffers(&stream, &lent).unwrap();
    assert!(std::ptr::eq(view.data, blob.data.as_slice()));
}
