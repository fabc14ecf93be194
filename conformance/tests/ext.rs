//! Extension types (conformance/vectors/ext, written by pyfory 1.7.7 with a custom
//! serializer): `#[fury(ext)]` types with a `fury::Ext` impl read each vector and write
//! pyfory's bytes back. The bytes go to target/conformance/fury-rs-ext.json for
//! `check_peer.py --group ext`.

use fury::wire::{ReadContext, WriteContext};
use fury::{Ext, Fury, FuryObject};
use serde_json::{json, Value as Json};

/// Two zigzag varint32s, as the vectors' pyfory serializer writes a Point.
#[derive(FuryObject, Debug, Clone, PartialEq)]
#[fury(ext, id = 400)]
struct Point {
    x: i32,
    y: i32,
}

impl Ext for Point {
    fn write_ext(&self, ctx: &mut WriteContext) -> fury::Result<()> {
        ctx.writer.var_i32(self.x);
        ctx.writer.var_i32(self.y);
        Ok(())
    }
    fn read_ext(ctx: &mut ReadContext<'_, '_>) -> fury::Result<Self> {
        Ok(Point {
            x: ctx.reader.var_i32()?,
            y: ctx.reader.var_i32()?,
        })
    }
}

/// The same payload, registered by name.
#[derive(FuryObject, Debug, Clone, PartialEq)]
#[fury(ext, namespace = "geo", name = "Point")]
struct NamedPoint(Point);

impl Ext for NamedPoint {
    fn write_ext(&self, ctx: &mut WriteContext) -> fury::Result<()> {
        self.0.write_ext(ctx)
    }
    fn read_ext(ctx: &mut ReadContext<'_, '_>) -> fury::Result<Self> {
        Point::read_ext(ctx).map(NamedPoint)
    }
}

#[derive(FuryObject, Debug, Clone, PartialEq)]
#[fury(id = 401)]
struct Shape {
    name: String,
    origin: Point,
    path: Vec<Point>,
    maybe: Option<Point>,
}

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

fn point(v: &Json) -> Point {
    let n = |k: &str| i32::try_from(v[k].as_i64().unwrap()).unwrap();
    Point {
        x: n("x"),
        y: n("y"),
    }
}

fn shape(v: &Json) -> Shape {
    Shape {
        name: v["name"].as_str().unwrap().to_string(),
        origin: point(&v["origin"]),
        path: v["path"].as_array().unwrap().iter().map(point).collect(),
        maybe: (!v["maybe"].is_null()).then(|| point(&v["maybe"])),
    }
}

fn round_trip<T>(fury: &Fury, bytes: &[u8], want: &T) -> Result<Vec<u8>, String>
where
    T: fury::Serialize + fury::DeserializeOwned + PartialEq + std::fmt::Debug,
{
    let got: T = fury
        .deserialize(bytes)
        .map_err(|e| format!("decode: {e}"))?;
    if &got != want {
        return Err(format!("decoded {got:?}, expected {want:?}"));
    }
    fury.serialize(&got).map_err(|e| format!("encode: {e}"))
}

fn fury_for(v: &Json) -> Fury {
    let mut fury = Fury::builder()
        .compatible(v["settings"]["compatible"].as_bool().unwrap())
        .build();
    if v["registered_by_name"].as_bool().unwrap() {
        fury.register::<NamedPoint>().unwrap();
    } else {
        fury.register::<Point>().unwrap();
    }
    fury.register::<Shape>().unwrap();
    fury
}

fn check(v: &Json) -> Result<Vec<u8>, String> {
    let bytes = unhex(v["hex"].as_str().unwrap());
    let fury = fury_for(v);
    let value = &v["value"];
    match v["schema"].as_str().unwrap() {
        "Point" if v["registered_by_name"].as_bool().unwrap() => {
            round_trip(&fury, &bytes, &NamedPoint(point(value)))
        }
        "Point" => round_trip(&fury, &bytes, &point(value)),
        "list<Point>" => {
            let want: Vec<Point> = value.as_array().unwrap().iter().map(point).collect();
            round_trip(&fury, &bytes, &want)
        }
        "Shape" => round_trip(&fury, &bytes, &shape(value)),
        other => Err(format!("no mirror for {other}")),
    }
}

fn vectors() -> Vec<Json> {
    let path = fury_conformance::groups::file("ext");
    let doc: Json = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    doc["vectors"].as_array().unwrap().clone()
}

#[test]
fn pyfory_extension_vectors_read_and_write_back_byte_for_byte() {
    let mut failures = Vec::new();
    let mut written = Vec::new();
    for v in vectors() {
        let name = v["name"].as_str().unwrap();
        match check(&v) {
            Ok(ours) => {
                let hex = fury_conformance::hex_encode(&ours);
                if hex != v["hex"].as_str().unwrap() {
                    failures.push(format!("{name}: wrote {hex}, pyfory wrote {}", v["hex"]));
                }
                written.push(json!({"name": name, "hex": hex}));
            }
            Err(e) => failures.push(format!("{name}: {e}")),
        }
    }
    let out = fury_conformance::groups::peer_bytes("ext");
    std::fs::create_dir_all(out.parent().unwrap()).unwrap();
    std::fs::write(&out, serde_json::to_string_pretty(&written).unwrap()).unwrap();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn an_extension_without_its_serializer_is_an_error_naming_it() {
    let v = &vectors()[0];
    let bytes = unhex(v["hex"].as_str().unwrap());
    // Not registered: the typed reader says which type it expected.
    let e = Fury::default().deserialize::<Point>(&bytes).unwrap_err();
    assert!(e.to_string().contains("Point"), "{e}");
    // Read dynamically: the payload's length is unknown, so it cannot be skipped.
    let e = Fury::default()
        .deserialize::<fury::Value>(&bytes)
        .unwrap_err();
    assert!(e.to_string().contains("EXT"), "{e}");
    // Every prefix and mutation of every vector: errors or values, no panic.
    for v in vectors() {
        let bytes = unhex(v["hex"].as_str().unwrap());
        let fury = fury_for(&v);
        for n in 0..bytes.len() {
            assert!(fury.deserialize::<Shape>(&bytes[..n]).is_err());
            assert!(fury.deserialize::<Point>(&bytes[..n]).is_err());
        }
        for i in 0..bytes.len() {
            for b in [0x00, 0x1f, 0x20, 0x7f, 0xff] {
                let mut m = bytes.clone();
                m[i] = b;
                let _ = fury.deserialize::<Shape>(&m);
                let _ = fury.deserialize::<Vec<Point>>(&m);
            }
        }
    }
}
