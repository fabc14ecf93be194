//! Borrowed decoding of strings and bytes: `&str` and `&[u8]` point into the input. The inputs
//! are pyfory 1.7.7's bytes (conformance/vectors/builtins, the vector named in each comment).

use fury::Fury;
use std::borrow::Cow;
use std::collections::HashMap;

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

fn inside(input: &[u8], part: &[u8]) -> bool {
    let range = input.as_ptr_range();
    range.start <= part.as_ptr() && part.as_ptr_range().end <= range.end
}

#[test]
fn ascii_and_utf8_strings_borrow_from_the_input() {
    let fury = Fury::default();
    // strings/ascii_word (LATIN1 flag, all ASCII)
    let input = unhex("01ff153068656c6c6f2c20776f726c64");
    let s: &str = fury.deserialize(&input).unwrap();
    assert_eq!(s, "hello, world");
    assert!(inside(&input, s.as_bytes()));
    // strings/utf8_mixed_all
    let input = unhex("01ff152a61c3a9e4bda0f09f9880");
    let s: &str = fury.deserialize(&input).unwrap();
    assert_eq!(s, "a\u{e9}\u{4f60}\u{1f600}");
    assert!(inside(&input, s.as_bytes()));
    // lists/strings_ascii
    let input = unhex("01ff160408150461086263001468656c6c6f");
    let v: Vec<&str> = fury.deserialize(&input).unwrap();
    assert_eq!(v, ["a", "bc", "", "hello"]);
    assert!(v.iter().all(|s| inside(&input, s.as_bytes())));
}

#[test]
fn text_that_is_not_utf8_in_the_input_cannot_be_borrowed() {
    let fury = Fury::default();
    // strings/latin1_hello: "h\u{e9}llo" as LATIN1 bytes
    let e = fury
        .deserialize::<&str>(&unhex("01ff151468e96c6c6f"))
        .unwrap_err();
    assert!(e.to_string().contains("LATIN1"), "{e}");
    assert!(e.to_string().contains("offset 4"), "{e}");
    // strings/utf16_nihao
    let e = fury
        .deserialize::<&str>(&unhex("01ff1511604f7d59"))
        .unwrap_err();
    assert!(e.to_string().contains("UTF-16"), "{e}");
    // Owned strings read both.
    assert_eq!(
        fury.deserialize::<String>(&unhex("01ff151468e96c6c6f"))
            .unwrap(),
        "h\u{e9}llo"
    );
}

#[test]
fn bytes_borrow_from_the_input() {
    let fury = Fury::default();
    // binary_arrays/binary/small
    let input = unhex("01ff29026162");
    let b: &[u8] = fury.deserialize(&input).unwrap();
    assert_eq!(b, b"ab");
    assert!(inside(&input, b));
    // A map of borrowed strings, written by fury-rs and read back.
    let mut m = HashMap::new();
    m.insert("k".to_string(), "v".to_string());
    let bytes = fury.serialize(&m).unwrap();
    let back: HashMap<&str, &str> = fury.deserialize(&bytes).unwrap();
    assert_eq!(back.get("k"), Some(&"v"));
    // Truncated input is an error, not a panic.
    assert!(fury.deserialize::<&[u8]>(&input[..5]).is_err());
    assert!(fury.deserialize::<&str>(&unhex("01ff1530686565")).is_err());
}

// pyfory's Person and Point (conformance/vectors/structs, structs/named/person), owned and
// borrowed: the same fields, `String` against `&str`.
#[derive(fury::FuryObject, Debug, Clone, PartialEq)]
#[fury(id = 100)]
struct Point {
    x: i32,
    #[fury(encoding = "fixed")]
    y: i32,
}

#[derive(fury::FuryObject, Debug, Clone, PartialEq)]
#[fury(namespace = "demo", name = "Person")]
struct Person {
    name: String,
    nick: Option<String>,
    home: Point,
    tags: Vec<String>,
    age: u8,
}

#[derive(fury::FuryObject, Debug, Clone, PartialEq)]
#[fury(namespace = "demo", name = "Person")]
struct PersonRef<'a> {
    name: &'a str,
    nick: Option<&'a str>,
    home: Point,
    tags: Vec<&'a str>,
    age: u8,
}

const PERSON: &str =
    "01ff1d06010c8c7008033c91939a6c2fc6822451a199edfcffffff060c416461ff20636f756e746573\
    73020c106d6174681c656e67696e6573";

#[test]
fn a_borrowed_struct_reads_pyfory_bytes_and_writes_what_its_owned_mirror_writes() {
    let py = unhex(PERSON);
    let mut borrowed = Fury::builder().compatible(false).build();
    borrowed.register::<Point>().unwrap();
    borrowed.register::<PersonRef<'static>>().unwrap();
    let p: PersonRef<'_> = borrowed.deserialize(&py).unwrap();
    assert_eq!(
        p,
        PersonRef {
            name: "Ada",
            nick: Some("countess"),
            home: Point { x: 3, y: -4 },
            tags: vec!["math", "engines"],
            age: 36,
        }
    );
    assert!(inside(&py, p.name.as_bytes()) && p.tags.iter().all(|t| inside(&py, t.as_bytes())));
    assert_eq!(borrowed.serialize(&p).unwrap(), py);
    // In compatible mode the owned and borrowed mirrors write the same bytes (the same
    // TypeDef) and read each other's.
    let mut owned = Fury::default();
    owned.register::<Point>().unwrap();
    owned.register::<Person>().unwrap();
    let mut compat = Fury::default();
    compat.register::<Point>().unwrap();
    compat.register::<PersonRef<'static>>().unwrap();
    let person = Person {
        name: "Ada".into(),
        nick: None,
        home: Point { x: 3, y: -4 },
        tags: vec!["math".into()],
        age: 36,
    };
    let bytes = owned.serialize(&person).unwrap();
    let view: PersonRef<'_> = compat.deserialize(&bytes).unwrap();
    assert_eq!(compat.serialize(&view).unwrap(), bytes);
    assert_eq!(view.name, "Ada");
    assert_eq!(view.nick, None);
}

#[test]
fn dense_arrays_are_read_in_place() {
    let fury = Fury::default();
    // binary_arrays/int32_array/boundaries
    let input = unhex("01ff2e1400000080ffffffff0000000001000000ffffff7f");
    let view: fury::ArrayView<'_, i32> = fury.deserialize(&input).unwrap();
    assert_eq!(view.len(), 5);
    assert_eq!(view.to_vec(), [i32::MIN, -1, 0, 1, i32::MAX]);
    assert_eq!(view.get(4), Some(i32::MAX));
    assert_eq!(view.get(5), None);
    assert!(inside(&input, view.as_bytes()));
    // Written back, the same bytes; a view of another element type is a type mismatch.
    assert_eq!(fury.serialize(&view).unwrap(), input);
    assert!(fury
        .deserialize::<fury::ArrayView<'_, i64>>(&input)
        .is_err());
    // A byte length that is not a multiple of the element size is an error.
    assert!(fury
        .deserialize::<fury::ArrayView<'_, i32>>(&unhex("01ff2e03000000"))
        .is_err());
}

/// A struct field may be an array view: same wire type as the `Vec` it stands for.
#[derive(fury::FuryObject, Debug, PartialEq)]
#[fury(namespace = "demo", name = "Samples")]
struct Samples {
    label: String,
    values: Vec<f64>,
}

#[derive(fury::FuryObject, Debug, PartialEq)]
#[fury(namespace = "demo", name = "Samples")]
struct SamplesView<'a> {
    label: &'a str,
    values: fury::ArrayView<'a, f64>,
}

#[test]
fn an_array_view_field_reads_what_a_vec_field_writes() {
    for compatible in [false, true] {
        let mut owned = Fury::builder().compatible(compatible).build();
        owned.register::<Samples>().unwrap();
        let mut viewing = Fury::builder().compatible(compatible).build();
        viewing.register::<SamplesView<'static>>().unwrap();
        let s = Samples {
            label: "t".into(),
            values: (0..1000).map(|i| i as f64 / 4.0).collect(),
        };
        let bytes = owned.serialize(&s).unwrap();
        let v: SamplesView<'_> = viewing.deserialize(&bytes).unwrap();
        assert_eq!(v.values.len(), 1000);
        assert_eq!(v.values.get(999), Some(999.0 / 4.0));
        assert_eq!(viewing.serialize(&v).unwrap(), bytes);
    }
}

// pyfory's Scalars (conformance/vectors/structs, structs/scalars/*), owned and with `Cow`
// fields whose lifetime is the struct's: those borrow where the input holds UTF-8 text or
// bytes, and own the text pyfory wrote as non-ASCII LATIN1 or as UTF-16.
#[derive(fury::FuryObject, Debug, Clone, PartialEq)]
#[fury(id = 113)]
struct Scalars {
    text: String,
    data: Vec<u8>,
    day: fury::Date,
    at: fury::Timestamp,
    span: fury::Duration,
    opt_text: Option<String>,
    opt_data: Option<Vec<u8>>,
    opt_day: Option<fury::Date>,
    opt_at: Option<fury::Timestamp>,
    opt_span: Option<fury::Duration>,
}

#[derive(fury::FuryObject, Debug, Clone, PartialEq)]
#[fury(id = 113)]
struct ScalarsCow<'a> {
    text: Cow<'a, str>,
    data: Cow<'a, [u8]>,
    day: fury::Date,
    at: fury::Timestamp,
    span: fury::Duration,
    opt_text: Option<Cow<'a, str>>,
    opt_data: Option<Cow<'a, [u8]>>,
    opt_day: Option<fury::Date>,
    opt_at: Option<fury::Timestamp>,
    opt_span: Option<fury::Duration>,
}

const SCALARS: [(&str, &str); 5] = [
    ("ascii", "01ff1b71922afc1ff5900c5e0000000000ca5b07030001ffac9d02fdfdfdfdfd02881300001468656c6c6f"),
    ("all_present", "01ff1b71922afc1fffffffffffffffff0065cd1d0001ff000000000000000000000000ff0107ff00ff80c60a00000000ff0c6f70740118c69a3b00"),
    ("latin1", "01ff1b71922afc1f000cbb3800000000000000000090ac01fdfdfdfdff10636166e900000000001468e96c6c6f"),
    ("utf16", "01ff1b71922afc1f0000008000000000000000000178ae8403fdfdfdfdff090001ffd11f0000000011604f7d59"),
    ("utf8", "01ff1b71922afc1f7f41f4ff3a000000000000000179c082e602fdfdfdfdff2a61c3a9e4bda0f09f98808e80bbdd830500ca5b071ef09f9880206f6b"),
];

#[allow(clippy::ptr_arg)] // whether it is borrowed is the point
fn is_borrowed_from<T: ?Sized + ToOwned + AsRef<[u8]>>(input: &[u8], c: &Cow<'_, T>) -> bool {
    matches!(c, Cow::Borrowed(_)) && inside(input, (**c).as_ref())
}

#[test]
fn cow_fields_borrow_what_the_input_holds_as_it_is_and_own_the_rest() {
    let mut owned = Fury::builder().compatible(false).build();
    owned.register::<Scalars>().unwrap();
    let mut cows = Fury::builder().compatible(false).build();
    cows.register::<ScalarsCow<'static>>().unwrap();
    for (name, hex) in SCALARS {
        let input = unhex(hex);
        let want: Scalars = owned.deserialize(&input).unwrap();
        let got: ScalarsCow<'_> = cows.deserialize(&input).unwrap();
        assert_eq!(got.text, want.text, "{name}");
        assert_eq!(*got.data, *want.data, "{name}");
        assert_eq!(got.opt_text.as_deref(), want.opt_text.as_deref(), "{name}");
        assert_eq!(got.opt_data.as_deref(), want.opt_data.as_deref(), "{name}");
        // Text borrows unless pyfory wrote it as non-ASCII LATIN1 or as UTF-16.
        let text_borrows = !matches!(name, "latin1" | "utf16");
        assert_eq!(
            is_borrowed_from(&input, &got.text),
            text_borrows,
            "{name}: {:?}",
            got.text
        );
        // Bytes always borrow (an empty slice has no address to check).
        assert!(matches!(got.data, Cow::Borrowed(_)), "{name}");
        if let Some(d) = &got.opt_data {
            assert!(d.is_empty() || is_borrowed_from(&input, d), "{name}");
        }
        // The same bytes back: the owned mirror and pyfory wrote these.
        assert_eq!(
            cows.serialize(&got).unwrap(),
            owned.serialize(&want).unwrap(),
            "{name}"
        );
    }
    // Compatible mode: the same TypeDef, and the fields read by plan borrow too.
    let mut owned = Fury::default();
    owned.register::<Scalars>().unwrap();
    let mut cows = Fury::default();
    cows.register::<ScalarsCow<'static>>().unwrap();
    let mut same = Fury::builder().compatible(false).build();
    same.register::<Scalars>().unwrap();
    let want: Scalars = same.deserialize(&unhex(SCALARS[4].1)).unwrap();
    let bytes = owned.serialize(&want).unwrap();
    let got: ScalarsCow<'_> = cows.deserialize(&bytes).unwrap();
    assert!(is_borrowed_from(&bytes, &got.text) && got.text == want.text);
    assert_eq!(cows.serialize(&got).unwrap(), bytes);
    // Every prefix of a vector is an error, not a panic.
    let input = unhex(SCALARS[4].1);
    for n in 0..input.len() {
        assert!(cows.deserialize::<ScalarsCow<'_>>(&input[..n]).is_err());
    }
}

#[test]
fn a_cow_that_is_not_a_struct_field_owns_and_stays_deserialize_owned() {
    fn owned<T: fury::DeserializeOwned>() {}
    owned::<Cow<'static, str>>();
    let fury = Fury::default();
    let s: Cow<'_, str> = fury
        .deserialize(&unhex("01ff153068656c6c6f2c20776f726c64"))
        .unwrap();
    assert!(matches!(s, Cow::Owned(_)));
}

#[test]
fn signed_bytes_borrow_from_the_input() {
    let fury = Fury::default();
    // binary_arrays/int8_array/boundaries
    let input = unhex("01ff2c0580ff00017f");
    let v: &[i8] = fury.deserialize(&input).unwrap();
    assert_eq!(v, [-128, -1, 0, 1, 127]);
    let range = input.as_ptr_range();
    assert!(range.start <= v.as_ptr().cast() && v.as_ptr_range().end.cast() <= range.end);
    let c: Cow<'_, [i8]> = {
        #[derive(fury::FuryObject)]
        #[fury(id = 300)]
        struct Wrap<'a>(Cow<'a, [i8]>);
        let mut f = Fury::default();
        f.register::<Wrap<'static>>().unwrap();
        let bytes = f
            .serialize(&Wrap(Cow::Borrowed(&[-128, -1, 0, 1, 127])))
            .unwrap();
        // The field's payload is the vector's: INT8_ARRAY, 5 bytes.
        assert!(bytes.ends_with(&input[3..]));
        let w: Wrap<'_> = f.deserialize(&bytes).unwrap();
        assert!(matches!(w.0, Cow::Borrowed(_)));
        Cow::Owned(w.0.into_owned())
    };
    assert_eq!(*c, [-128, -1, 0, 1, 127]);
    assert!(fury.deserialize::<&[i8]>(&input[..6]).is_err());
}
