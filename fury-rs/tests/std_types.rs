//! The standard-library types of `serializer/std_types.rs` (and hasher-generic maps and sets).
//!
//! Expected bytes come only from the peers, never from fury-rs itself:
//! * "pyfory": `pyfory==1.7.7`, `f = pyfory.Fory(xlang=True, ref=False)` (or `ref=True` where
//!   said), the call given in the comment; the hex is `f.serialize(value).hex()`;
//! * "fory 1.7.7": the official Rust crate, `fory::Fory::builder().xlang(true).build()` (with
//!   `.track_ref(true)` where said), `fory.serialize(&value)`.
//!
//! The official crate writes ASCII strings with the UTF-8 flag (header `06` for "a") where
//! pyfory and fury-rs use LATIN1 (`04`), so its bytes with strings are only read, not compared.

use fury::{DeserializeOwned, ErrorKind, Fury, FuryObject, List, Serialize, Value};
use proptest::prelude::*;
use std::borrow::Cow;
use std::collections::{BTreeMap, BinaryHeap, HashMap, HashSet, LinkedList, VecDeque};
use std::hash::BuildHasherDefault;
use std::rc::Rc;
use std::sync::Arc;

fn hex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

fn fury() -> Fury {
    Fury::default()
}

fn fury_ref() -> Fury {
    Fury::builder().ref_tracking(true).build()
}

/// Writes `v`, checks the bytes against `expected` (a peer's), and reads them back to `v`.
#[track_caller]
fn check<T>(fury: &Fury, v: &T, expected: &str)
where
    T: Serialize + DeserializeOwned + PartialEq + std::fmt::Debug,
{
    let bytes = fury.serialize(v).unwrap();
    assert_eq!(bytes, hex(expected), "bytes of {v:?}");
    assert_eq!(&fury.deserialize::<T>(&bytes).unwrap(), v);
}

/// Writes `v` and reads it back.
#[track_caller]
fn round_trip<T>(fury: &Fury, v: &T) -> T
where
    T: Serialize + DeserializeOwned + std::fmt::Debug,
{
    let bytes = fury.serialize(v).unwrap();
    match fury.deserialize::<T>(&bytes) {
        Ok(back) => back,
        Err(e) => panic!("{v:?} did not read back: {e}"),
    }
}

/// Every strict prefix of `bytes` is an error for `T` (and none panics).
#[track_caller]
fn prefixes_fail<T: DeserializeOwned + std::fmt::Debug>(fury: &Fury, bytes: &[u8]) {
    for n in 0..bytes.len() {
        let r = fury.deserialize::<T>(&bytes[..n]);
        assert!(r.is_err(), "prefix of {n} bytes read as {r:?}");
    }
}

// ---- hasher-generic HashMap / HashSet ----

/// A hasher other than the default one.
#[derive(Default)]
struct Fnv(u64);

impl std::hash::Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
        }
    }
}

type FnvBuild = BuildHasherDefault<Fnv>;

#[test]
fn hash_map_and_set_with_any_hasher() {
    let fury = fury();
    // pyfory: {"a": 1}
    let mut m: HashMap<String, i64, FnvBuild> = HashMap::default();
    m.insert("a".into(), 1);
    check(&fury, &m, "01ff180100011507046102");
    // pyfory: {1}
    let mut s: HashSet<i64, FnvBuild> = HashSet::default();
    s.insert(1);
    check(&fury, &s, "01ff1701080702");
    // fory 1.7.7: HashSet::from([1i32])
    let back: HashSet<i32, FnvBuild> = fury.deserialize(&hex("01ff1701080502")).unwrap();
    assert_eq!(back.into_iter().collect::<Vec<_>>(), [1]);
    // The std hasher still works, and larger maps round-trip.
    let big: HashMap<i64, Vec<String>, FnvBuild> =
        (0..300).map(|i| (i, vec![i.to_string()])).collect();
    assert_eq!(round_trip(&fury, &big), big);
    let std_map: HashMap<String, i64> = [("x".to_string(), 2)].into_iter().collect();
    assert_eq!(round_trip(&fury, &std_map), std_map);
    let std_set: HashSet<String> = ["x".to_string()].into_iter().collect();
    assert_eq!(round_trip(&fury, &std_set), std_set);
}

// ---- VecDeque, LinkedList, BinaryHeap ----

#[test]
fn ordered_set_and_map_keep_pyforys_order() {
    let fury = fury();
    // pyfory: {1, 8, 3}, which Python iterates as 8, 1, 3
    let set = fury::Set(vec![8i64, 1, 3]);
    check(&fury, &set, "01ff17030807100206");
    prefixes_fail::<fury::Set<i64>>(&fury, &hex("01ff17030807100206"));
    // pyfory: {"b": 1, "a": None, "c": 3}; the null pair is a chunk of its own
    let map = fury::Map(vec![
        ("b".to_string(), Some(1i64)),
        ("a".to_string(), None),
        ("c".to_string(), Some(3)),
    ]);
    let bytes = "01ff18030001150704620211ff15046100011507046306";
    check(&fury, &map, bytes);
    prefixes_fail::<fury::Map<String, Option<i64>>>(&fury, &hex(bytes));
    // a BTreeMap reads the same pairs, and writes them sorted
    let sorted: BTreeMap<String, Option<i64>> = fury.deserialize(&hex(bytes)).unwrap();
    assert_eq!(sorted.keys().collect::<Vec<_>>(), ["a", "b", "c"]);
    // pyfory's [1, 1] with its LIST type id changed to SET: the duplicate is kept as read
    let dup: fury::Set<i64> = fury.deserialize(&hex("01ff170208070202")).unwrap();
    assert_eq!(dup, fury::Set(vec![1, 1]));
    // a LIST is read as a set, as BTreeSet reads one
    let from_list: fury::Set<i64> = fury.deserialize(&hex("01ff160208070202")).unwrap();
    assert_eq!(from_list.0, [1, 1]);
}

#[test]
fn vec_deque_and_linked_list_are_lists_even_of_primitives() {
    let fury = fury();
    // fory 1.7.7: VecDeque::from(vec![1i32, 2]) (a LIST; a Vec<i32> would be INT32_ARRAY)
    check(&fury, &VecDeque::from(vec![1i32, 2]), "01ff160208050204");
    // fory 1.7.7: LinkedList::from_iter([1i32, 2]) -- the same bytes
    check(&fury, &LinkedList::from_iter([1i32, 2]), "01ff160208050204");
    // fory 1.7.7: LinkedList::from_iter([1i64])
    check(&fury, &LinkedList::from_iter([1i64]), "01ff1601080702");
    // pyfory: [1, 2, 3]
    check(
        &fury,
        &VecDeque::from(vec![1i64, 2, 3]),
        "01ff16030807020406",
    );
    // pyfory: ["a"]
    check(
        &fury,
        &VecDeque::from(vec!["a".to_string()]),
        "01ff160108150461",
    );
    // pyfory: [None, 1] -- nullable elements
    check(
        &fury,
        &LinkedList::from_iter([None, Some(1i64)]),
        "01ff16020a07fdff02",
    );
    // The dense array of a Vec<i32> (fory 1.7.7: vec![1i32, 2]) is read too.
    let d: VecDeque<i32> = fury.deserialize(&hex("01ff2e080100000002000000")).unwrap();
    assert_eq!(d, [1, 2]);
    // fory 1.7.7: VecDeque::from(vec!["a".to_string()]) (UTF-8 flag)
    let d: VecDeque<String> = fury.deserialize(&hex("01ff160108150661")).unwrap();
    assert_eq!(d, ["a"]);
    assert_eq!(round_trip(&fury, &VecDeque::<u8>::new()), VecDeque::new());
    let nested = LinkedList::from_iter([VecDeque::from(vec!["x".to_string()])]);
    assert_eq!(round_trip(&fury, &nested), nested);
    assert_eq!(round_trip(&fury_ref(), &nested), nested);
}

#[test]
fn binary_heap_is_a_set_in_iteration_order() {
    let fury = fury();
    // fory 1.7.7: BinaryHeap::from(vec![3i32, 1, 2]) -- SET, elements 3, 1, 2 as iterated
    let heap = BinaryHeap::from(vec![3i32, 1, 2]);
    assert_eq!(heap.iter().copied().collect::<Vec<_>>(), [3, 1, 2]);
    let bytes = fury.serialize(&heap).unwrap();
    assert_eq!(bytes, hex("01ff17030805060204"));
    let back: BinaryHeap<i32> = fury.deserialize(&bytes).unwrap();
    assert_eq!(back.into_sorted_vec(), [1, 2, 3]);
    // fory 1.7.7: BinaryHeap::from(vec![5i64])
    let one = BinaryHeap::from(vec![5i64]);
    assert_eq!(fury.serialize(&one).unwrap(), hex("01ff170108070a"));
    // A LIST is read too (pyfory: [1, 2, 3]); duplicates are kept.
    let back: BinaryHeap<i64> = fury.deserialize(&hex("01ff16030807020406")).unwrap();
    assert_eq!(back.into_sorted_vec(), [1, 2, 3]);
    let dup = BinaryHeap::from(vec![1i64, 1]);
    assert_eq!(round_trip(&fury, &dup).into_sorted_vec(), [1, 1]);
}

// ---- strings and slices behind pointers, Cow ----

#[test]
fn str_pointers_are_strings() {
    let fury = fury();
    // pyfory: "a"
    check(&fury, &Box::<str>::from("a"), "01ff150461");
    check(&fury, &Rc::<str>::from("a"), "01ff150461");
    check(&fury, &Arc::<str>::from("a"), "01ff150461");
    // pyfory: "hello"
    check(&fury, &Cow::<str>::Borrowed("hello"), "01ff151468656c6c6f");
    let back: Cow<'static, str> = fury.deserialize(&hex("01ff150461")).unwrap();
    assert!(matches!(back, Cow::Owned(ref s) if s == "a"));
    // fory 1.7.7: "a".to_string() (UTF-8 flag)
    let back: Box<str> = fury.deserialize(&hex("01ff150661")).unwrap();
    assert_eq!(&*back, "a");
    for s in ["", "é", "日本語", "x\u{1F600}"] {
        assert_eq!(&*round_trip(&fury, &Box::<str>::from(s)), s);
        assert_eq!(&*round_trip(&fury, &Rc::<str>::from(s)), s);
        assert_eq!(&*round_trip(&fury, &Arc::<str>::from(s)), s);
        assert_eq!(round_trip(&fury, &Cow::Borrowed(s)), s);
    }
    // pyfory: ["a"]
    check(&fury, &vec![Rc::<str>::from("a")], "01ff160108150461");
    let m: BTreeMap<Box<str>, Arc<str>> = [("k".into(), "v".into())].into_iter().collect();
    assert_eq!(round_trip(&fury, &m), m);
}

#[test]
fn slice_pointers_and_cow_slices_are_written_as_vec() {
    let fury = fury();
    // fory 1.7.7: vec![1i32, 2] -- INT32_ARRAY
    let ints = "01ff2e080100000002000000";
    check(&fury, &Box::<[i32]>::from([1, 2]), ints);
    check(&fury, &Rc::<[i32]>::from([1, 2]), ints);
    check(&fury, &Arc::<[i32]>::from([1, 2]), ints);
    check(&fury, &Cow::<[i32]>::Borrowed(&[1, 2]), ints);
    // fory 1.7.7: vec![true, false] -- BOOL_ARRAY
    check(&fury, &Box::<[bool]>::from([true, false]), "01ff2b020100");
    // fory 1.7.7: vec![1u8, 2, 3] -- BINARY
    check(&fury, &Rc::<[u8]>::from([1, 2, 3]), "01ff2903010203");
    // pyfory: ["a", "b"]
    let strs = "01ff1602081504610462";
    check(
        &fury,
        &Box::<[String]>::from(["a".to_string(), "b".to_string()]),
        strs,
    );
    check(
        &fury,
        &Cow::<[String]>::Owned(vec!["a".into(), "b".into()]),
        strs,
    );
    // pyfory: [1, 2, 3] (a LIST) is read into a slice of i64 too.
    let back: Arc<[i64]> = fury.deserialize(&hex("01ff16030807020406")).unwrap();
    assert_eq!(&*back, [1, 2, 3]);
    let empty: Box<[f64]> = Box::new([]);
    assert_eq!(round_trip(&fury, &empty), empty);
    let nested: Vec<Box<[String]>> = vec![Box::from(["x".to_string()]), Box::from([])];
    assert_eq!(round_trip(&fury, &nested), nested);
    assert_eq!(round_trip(&fury_ref(), &nested), nested);
    // Tracked like a Vec inside a tracked list: the same bytes as the Vec form.
    let as_vec: Vec<Vec<String>> = vec![vec!["x".to_string()], vec![]];
    assert_eq!(
        fury_ref().serialize(&nested).unwrap(),
        fury_ref().serialize(&as_vec).unwrap()
    );
    let cows: Vec<Cow<[String]>> = vec![Cow::Owned(vec!["x".to_string()]), Cow::Owned(vec![])];
    assert_eq!(
        fury_ref().serialize(&cows).unwrap(),
        fury_ref().serialize(&as_vec).unwrap()
    );
}

// ---- fixed arrays ----

#[test]
fn fixed_arrays_are_written_as_vec() {
    let fury = fury();
    // fory 1.7.7: [1i32, 2]
    check(&fury, &[1i32, 2], "01ff2e080100000002000000");
    // fory 1.7.7: [true, false, true]
    check(&fury, &[true, false, true], "01ff2b03010001");
    // fory 1.7.7: [1u8, 2, 3]
    check(&fury, &[1u8, 2, 3], "01ff2903010203");
    // fory 1.7.7: [0i64; 0]
    check(&fury, &[0i64; 0], "01ff2f00");
    // pyfory: ["a", "b"]
    check(
        &fury,
        &["a".to_string(), "b".to_string()],
        "01ff1602081504610462",
    );
    // fory 1.7.7: [Some(1i32), None]
    check(&fury, &[Some(1i32), None], "01ff16020a05ff02fd");
    // fory 1.7.7: ["a".to_string(), "b".to_string()] (UTF-8 flag)
    let back: [String; 2] = fury.deserialize(&hex("01ff1602081506610662")).unwrap();
    assert_eq!(back, ["a", "b"]);
    // pyfory: [1, 2, 3] read as a fixed array of i64 (a LIST where a dense array is written)
    let back: [i64; 3] = fury.deserialize(&hex("01ff16030807020406")).unwrap();
    assert_eq!(back, [1, 2, 3]);
    // Elements without Default or Copy.
    let boxed = [Box::new("x".to_string()), Box::new("y".to_string())];
    assert_eq!(round_trip(&fury, &boxed), boxed);
    let nested = [[1u16, 2], [3, 4]];
    assert_eq!(round_trip(&fury, &nested), nested);
    assert_eq!(round_trip(&fury_ref(), &nested), nested);
}

#[test]
fn fixed_array_of_another_length_is_an_error_at_the_length() {
    let fury = fury();
    // fory 1.7.7: [1i32, 2] read as [i32; 3] and [i32; 1]
    let two = hex("01ff2e080100000002000000");
    for e in [
        fury.deserialize::<[i32; 3]>(&two).unwrap_err(),
        fury.deserialize::<[i32; 1]>(&two).map(|_| ()).unwrap_err(),
    ] {
        match e.kind() {
            ErrorKind::TypeMismatch { expected, found } => {
                assert!(expected.contains("elements"), "{e}");
                assert_eq!(found, "2 elements", "{e}");
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(e.offset(), Some(3), "{e}");
    }
    let e = fury.deserialize::<[i32; 3]>(&two).unwrap_err();
    let ErrorKind::TypeMismatch { expected, .. } = e.kind() else {
        unreachable!()
    };
    assert!(expected.contains("3 elements"), "{e}");
    // pyfory: ["a", "b"] read as [String; 3]
    let e = fury
        .deserialize::<[String; 3]>(&hex("01ff1602081504610462"))
        .unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::TypeMismatch { .. }), "{e}");
    // An INT64_ARRAY is not an INT32 array.
    let e = fury.deserialize::<[i32; 0]>(&hex("01ff2f00")).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::TypeMismatch { .. }), "{e}");
}

// ---- usize, isize ----

#[test]
fn usize_and_isize_are_written_as_u64_and_i64() {
    let fury = fury();
    // fory 1.7.7: 300u64 (VAR_UINT64); the official crate refuses usize in xlang mode.
    check(&fury, &300usize, "01ff0eac02");
    // fory 1.7.7: u64::MAX
    #[cfg(target_pointer_width = "64")]
    check(&fury, &usize::MAX, "01ff0effffffffffffffffff");
    // fory 1.7.7: -3i64 (VARINT64); pyfory: -3 -- the same bytes
    check(&fury, &-3isize, "01ff0705");
    // fory 1.7.7: vec![1u64, 2] (UINT64_ARRAY)
    check(
        &fury,
        &vec![1usize, 2],
        "01ff331001000000000000000200000000000000",
    );
    // fory 1.7.7: vec![-1i64] (INT64_ARRAY)
    check(&fury, &vec![-1isize], "01ff2f08ffffffffffffffff");
    // pyfory: 300 (VARINT64) read as usize; pyfory: [1, 2, 3] (LIST) as Vec<usize>
    assert_eq!(fury.deserialize::<usize>(&hex("01ff07d804")).unwrap(), 300);
    let v: Vec<usize> = fury.deserialize(&hex("01ff16030807020406")).unwrap();
    assert_eq!(v, [1, 2, 3]);
    for x in [0usize, 1, 127, 128, u32::MAX as usize, usize::MAX] {
        assert_eq!(round_trip(&fury, &x), x);
    }
    for x in [0isize, -1, 63, -64, isize::MIN, isize::MAX] {
        assert_eq!(round_trip(&fury, &x), x);
    }
    let xs = [usize::MAX, 0, 7];
    assert_eq!(round_trip(&fury, &xs), xs);
}

#[test]
fn usize_and_isize_out_of_range_are_errors() {
    let fury = fury();
    // pyfory: -3 read as usize
    let e = fury.deserialize::<usize>(&hex("01ff0705")).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::OutOfRange { .. }), "{e}");
    assert_eq!(e.offset(), Some(3));
    // fory 1.7.7: u64::MAX read as isize
    let e = fury
        .deserialize::<isize>(&hex("01ff0effffffffffffffffff"))
        .unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::OutOfRange { .. }), "{e}");
    // fory 1.7.7: vec![u64::MAX] as Vec<isize>: another array type
    let e = fury
        .deserialize::<Vec<isize>>(&hex("01ff3308ffffffffffffffff"))
        .unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::TypeMismatch { .. }), "{e}");
    // pyfory: [None] read as Vec<usize>
    let e = fury
        .deserialize::<Vec<usize>>(&hex("01ff16010a24fd"))
        .unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::UnexpectedNull { .. }), "{e}");
}

// ---- tuples ----

#[test]
fn tuples_are_lists_as_pyfory_writes_them() {
    let fury = fury();
    // pyfory: (1, "a") -- mixed types: a type info per element
    check(&fury, &(1i64, "a".to_string()), "01ff1602000702150461");
    // pyfory: (1, 2) -- one type: SAME_TYPE and one type info
    check(&fury, &(1i64, 2i64), "01ff160208070204");
    // pyfory: (1,)
    check(&fury, &(1i64,), "01ff1601080702");
    // pyfory: ("a", "b")
    check(
        &fury,
        &("a".to_string(), "b".to_string()),
        "01ff1602081504610462",
    );
    // pyfory: (1, None) -- HAS_NULL, SAME_TYPE
    check(&fury, &(1i64, None::<i64>), "01ff16020a07ff02fd");
    // pyfory: (1, "a", None) -- HAS_NULL only
    check(
        &fury,
        &(1i64, "a".to_string(), None::<String>),
        "01ff160302ff0702ff150461fd",
    );
    // pyfory: (None, None) -- all null: NONE
    check(&fury, &(None::<i64>, None::<String>), "01ff16020a24fdfd");
    // pyfory: ("a", 1.5, True)
    check(
        &fury,
        &("a".to_string(), 1.5f64, true),
        "01ff16030015046114000000000000f83f0101",
    );
    // pyfory: tuple(range(1, 13))
    check(
        &fury,
        &(
            1i64, 2i64, 3i64, 4i64, 5i64, 6i64, 7i64, 8i64, 9i64, 10i64, 11i64, 12i64,
        ),
        "01ff160c0807020406080a0c0e1012141618",
    );
    // pyfory: (1, [2, 3]) -- a Python list is a LIST (List<i64>, not a dense Vec<i64>)
    check(
        &fury,
        &(1i64, List(vec![2i64, 3])),
        "01ff1602000702160208070406",
    );
    // pyfory: ((1,), (2,))
    check(&fury, &((1i64,), (2i64,)), "01ff160208160108070201080704");
    // pyfory: [(1, "a")]
    check(
        &fury,
        &vec![(1i64, "a".to_string())],
        "01ff1601081602000702150461",
    );
}

#[test]
fn tuples_with_reference_tracking_match_pyfory() {
    let fury = fury_ref();
    // pyfory ref=True: (1, "a")
    check(&fury, &(1i64, "a".to_string()), "0100160201ff0702ff150461");
    // pyfory ref=True: [(1, "a")] -- a tuple is a tracked kind (REF_VALUE)
    check(
        &fury,
        &vec![(1i64, "a".to_string())],
        "010016010916000201ff0702ff150461",
    );
    // pyfory ref=True: {"k": (1, 2)}
    let m: BTreeMap<String, (i64, i64)> = [("k".to_string(), (1, 2))].into_iter().collect();
    check(&fury, &m, "0100180108011516046b000208070204");
    // pyfory ref=True: l = [1]; (l, l) -- the second element is a back reference
    let l = Rc::new(List(vec![1i64]));
    let t = (l.clone(), l);
    let bytes = fury.serialize(&t).unwrap();
    assert_eq!(bytes, hex("0100160209160001080702fe01"));
    let back: (Rc<List<i64>>, Rc<List<i64>>) = fury.deserialize(&bytes).unwrap();
    assert!(Rc::ptr_eq(&back.0, &back.1));
    assert_eq!(back.0 .0, [1]);
    // pyfory ref=True: ([1], [1]) -- two lists, two ids
    let two = (Rc::new(List(vec![1i64])), Rc::new(List(vec![1i64])));
    let bytes = fury.serialize(&two).unwrap();
    assert_eq!(bytes, hex("01001602091600010807020001080702"));
    let back: (Rc<List<i64>>, Rc<List<i64>>) = fury.deserialize(&bytes).unwrap();
    assert!(!Rc::ptr_eq(&back.0, &back.1));
    // fory 1.7.7 track_ref: let l = Rc::new(vec!["x".to_string()]); (l.clone(), l)
    let back: (Rc<Vec<String>>, Rc<Vec<String>>) = fury
        .deserialize(&hex("01ff16020100160108150678fe00"))
        .unwrap();
    assert!(Rc::ptr_eq(&back.0, &back.1));
    assert_eq!(*back.0, ["x"]);
    // Arc, Box, Option and nested tuples round-trip with tracking on.
    let a = Arc::new("s".to_string());
    let v = (a.clone(), Some(a), Box::new((1u8, -1i16)), None::<Vec<i32>>);
    let back = round_trip(&fury, &v);
    assert_eq!(back, v);
    assert!(Arc::ptr_eq(&back.0, back.1.as_ref().unwrap()));
}

#[test]
fn tuples_read_the_official_crates_layout() {
    let fury = fury();
    // fory 1.7.7: (1i32, "a".to_string()) -- header 00, a type info per element
    let back: (i32, String) = fury.deserialize(&hex("01ff1602000502150661")).unwrap();
    assert_eq!(back, (1, "a".to_string()));
    // fory 1.7.7: (1i64, 2i64) -- no SAME_TYPE even for one type
    let back: (i64, i64) = fury.deserialize(&hex("01ff16020007020704")).unwrap();
    assert_eq!(back, (1, 2));
    // fory 1.7.7: (1i64, Some(2i64)) and (1i64, None::<i64>) -- HAS_NULL, flag per element
    let back: (i64, Option<i64>) = fury.deserialize(&hex("01ff160202ff0702ff0704")).unwrap();
    assert_eq!(back, (1, Some(2)));
    let back: (i64, Option<i64>) = fury.deserialize(&hex("01ff160202ff0702fd")).unwrap();
    assert_eq!(back, (1, None));
    // fory 1.7.7: ("a".to_string(), 1i32, true)
    let back: (String, i32, bool) = fury.deserialize(&hex("01ff16030015066105020101")).unwrap();
    assert_eq!(back, ("a".to_string(), 1, true));
    // fory 1.7.7: (vec![1i32], 2i64)
    let back: (Vec<i32>, i64) = fury
        .deserialize(&hex("01ff1602002e04010000000704"))
        .unwrap();
    assert_eq!(back, (vec![1], 2));
    // fory 1.7.7: (1i32, 2i32, ..., 12i32)
    type T12 = (i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32);
    let back: T12 = fury
        .deserialize(&hex(
            "01ff160c000502050405060508050a050c050e05100512051405160518",
        ))
        .unwrap();
    assert_eq!(back, (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12));
    // fory 1.7.7: vec![(1i32, "a".to_string())]
    let back: Vec<(i32, String)> = fury
        .deserialize(&hex("01ff1601081602000502150661"))
        .unwrap();
    assert_eq!(back, [(1, "a".to_string())]);
    // pyfory: (1, 2) read with narrower element types (range-checked)
    let back: (u8, i32) = fury.deserialize(&hex("01ff160208070204")).unwrap();
    assert_eq!(back, (1, 2));
}

#[test]
fn tuples_round_trip() {
    for fury in [
        fury(),
        fury_ref(),
        Fury::builder().compatible(false).build(),
    ] {
        let v = (
            1u8,
            2u16,
            3u32,
            4u64,
            -5i8,
            -6i16,
            -7i32,
            -8i64,
            1.5f32,
            2.5f64,
            true,
            'x'.to_string(),
        );
        assert_eq!(round_trip(&fury, &v), v);
        let v = (
            vec![1i32, 2],
            vec!["a".to_string()],
            HashMap::from([(1i64, 2i64)]),
        );
        assert_eq!(round_trip(&fury, &v), v);
        let v = (Value::Int64(1), Value::String("s".into()), Value::Null);
        assert_eq!(round_trip(&fury, &v), v);
        let v = ((), None::<()>, (Some(1i64), None::<String>));
        assert_eq!(round_trip(&fury, &v), v);
        let v = [(1i64, "a".to_string()), (2, "b".to_string())];
        assert_eq!(round_trip(&fury, &v), v);
        let v = (Cow::Borrowed("c"), Box::<str>::from("b"), [0u8; 4]);
        assert_eq!(round_trip(&fury, &v), v);
    }
}

#[test]
fn tuple_of_another_length_or_type_is_an_error() {
    let fury = fury();
    // pyfory: [1, 2, 3] read as a pair and as a 4-tuple
    let three = hex("01ff16030807020406");
    let e = fury.deserialize::<(i64, i64)>(&three).unwrap_err();
    match e.kind() {
        ErrorKind::TypeMismatch { expected, found } => {
            assert!(expected.contains("2 elements"), "{e}");
            assert_eq!(found, "a list of 3 elements");
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(e.offset(), Some(3));
    let e = fury
        .deserialize::<(i64, i64, i64, i64)>(&three)
        .unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::TypeMismatch { .. }), "{e}");
    // pyfory: () read as a 1-tuple
    let e = fury.deserialize::<(i64,)>(&hex("01ff1600")).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::TypeMismatch { .. }), "{e}");
    // pyfory: (1, "a") read as (i64, i64)
    let e = fury
        .deserialize::<(i64, i64)>(&hex("01ff1602000702150461"))
        .unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::TypeMismatch { .. }), "{e}");
    // pyfory: (1, None) read as (i64, i64): the null has nowhere to go
    let e = fury
        .deserialize::<(i64, i64)>(&hex("01ff16020a07ff02fd"))
        .unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::UnexpectedNull { .. }), "{e}");
    // pyfory: "a" is not a tuple
    let e = fury
        .deserialize::<(String,)>(&hex("01ff150461"))
        .unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::TypeMismatch { .. }), "{e}");
    // pyfory ref=True: l = [1]; (l, l) -- a back reference into a position that is not shared
    let e = fury_ref()
        .deserialize::<(List<i64>, List<i64>)>(&hex("0100160209160001080702fe01"))
        .unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::Invalid { .. }), "{e}");
}

// ---- () ----

#[test]
fn unit_is_a_null() {
    let fury = fury();
    // pyfory: None
    check(&fury, &(), "01fd");
    // pyfory: [None, None]
    check(&fury, &vec![(), ()], "01ff16020a24fdfd");
    // pyfory: {"a": None}
    let m: BTreeMap<String, ()> = [("a".to_string(), ())].into_iter().collect();
    check(&fury, &m, "01ff180111ff150461");
    // pyfory: () (an empty tuple) and the NONE type are read as () too
    fury.deserialize::<()>(&hex("01ff1600")).unwrap();
    fury.deserialize::<()>(&hex("01ff24")).unwrap();
    // ... but not a non-empty list: pyfory (1,)
    let e = fury.deserialize::<()>(&hex("01ff1601080702")).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::TypeMismatch { .. }), "{e}");
    assert_eq!(e.offset(), Some(3));
    // pyfory: 1
    let e = fury.deserialize::<()>(&hex("01ff0702")).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::TypeMismatch { .. }), "{e}");
}

// ---- in struct fields ----

// @dataclass class T1: t: Tuple[int, str]   (registered with type_id=100)
#[derive(FuryObject, Debug, Clone, PartialEq)]
#[fury(id = 100)]
struct T1 {
    t: (i64, String),
}

#[test]
fn tuple_field_matches_pyfory() {
    let mut fury = Fury::builder().compatible(false).build();
    fury.register::<T1>().unwrap();
    // pyfory (compatible=False): T1((1, "a")) -- a list of UNKNOWN, one type info per element
    check(
        &fury,
        &T1 {
            t: (1, "a".to_string()),
        },
        "01ff1b64e7859be002000702150461",
    );
}

// (`usize` / `isize` fields are left out: field ordering is the derive's business, and it
// has to place them as the u64 / i64 they are written as.)
#[derive(FuryObject, Debug, Clone, PartialEq)]
#[fury(id = 101)]
struct Everything {
    deque: VecDeque<i32>,
    list: LinkedList<String>,
    name: Box<str>,
    shared: Arc<str>,
    slice: Box<[u16]>,
    fixed: [i64; 3],
    pair: (u8, Option<String>),
    cow: Cow<'static, str>,
    unit: (),
    map: HashMap<String, i32, FnvBuild>,
}

#[test]
fn std_types_in_struct_fields_round_trip() {
    for compatible in [false, true] {
        let mut fury = Fury::builder().compatible(compatible).build();
        fury.register::<Everything>().unwrap();
        let v = Everything {
            deque: VecDeque::from(vec![1, 2]),
            list: LinkedList::from_iter(["x".to_string()]),
            name: "n".into(),
            shared: "s".into(),
            slice: Box::from([1u16, 2]),
            fixed: [1, 2, 3],
            pair: (7, None),
            cow: Cow::Borrowed("c"),
            unit: (),
            map: [("k".to_string(), 1)].into_iter().collect(),
        };
        assert_eq!(round_trip(&fury, &v), v, "compatible={compatible}");
    }
}

// ---- hostile input ----

#[test]
fn truncated_input_is_an_error() {
    let fury = fury();
    prefixes_fail::<(i64, String)>(&fury, &hex("01ff1602000702150461"));
    prefixes_fail::<(i64, Option<i64>)>(&fury, &hex("01ff16020a07ff02fd"));
    prefixes_fail::<[i32; 2]>(&fury, &hex("01ff2e080100000002000000"));
    prefixes_fail::<[String; 2]>(&fury, &hex("01ff1602081504610462"));
    prefixes_fail::<VecDeque<i64>>(&fury, &hex("01ff16030807020406"));
    prefixes_fail::<BinaryHeap<i32>>(&fury, &hex("01ff17030805060204"));
    prefixes_fail::<Box<str>>(&fury, &hex("01ff151468656c6c6f"));
    prefixes_fail::<Rc<[u8]>>(&fury, &hex("01ff2903010203"));
    prefixes_fail::<usize>(&fury, &hex("01ff0effffffffffffffffff"));
    prefixes_fail::<Vec<usize>>(&fury, &hex("01ff331001000000000000000200000000000000"));
    prefixes_fail::<()>(&fury, &hex("01fd"));
    prefixes_fail::<HashMap<String, i64, FnvBuild>>(&fury, &hex("01ff180100011507046102"));
    prefixes_fail::<(Rc<List<i64>>, Rc<List<i64>>)>(
        &fury_ref(),
        &hex("0100160209160001080702fe01"),
    );
}

#[test]
fn huge_declared_lengths_are_errors() {
    let fury = fury();
    // A LIST / SET / STRING / array claiming 2^32 - 1 elements or bytes, with nothing after.
    let list = hex("01ff16ffffffff0f08");
    let set = hex("01ff17ffffffff0f08");
    let string = hex("01ff15fcffffffffffffffff");
    let array = hex("01ff2ef8ffffff0f");
    let bytes = hex("01ff29ffffffff0f");
    assert!(fury.deserialize::<VecDeque<i64>>(&list).is_err());
    assert!(fury.deserialize::<LinkedList<String>>(&list).is_err());
    assert!(fury.deserialize::<BinaryHeap<i64>>(&set).is_err());
    assert!(fury.deserialize::<HashSet<i64, FnvBuild>>(&set).is_err());
    assert!(fury.deserialize::<(i64, i64)>(&list).is_err());
    assert!(fury.deserialize::<[i64; 2]>(&list).is_err());
    assert!(fury.deserialize::<[i32; 2]>(&array).is_err());
    assert!(fury.deserialize::<Box<[i32]>>(&array).is_err());
    assert!(fury.deserialize::<Arc<[u8]>>(&bytes).is_err());
    assert!(fury.deserialize::<Rc<str>>(&string).is_err());
    assert!(fury.deserialize::<Cow<str>>(&string).is_err());
    assert!(fury
        .deserialize::<Vec<usize>>(&hex("01ff33f8ffffff0f"))
        .is_err());
    let e = fury.deserialize::<VecDeque<i64>>(&list).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::LengthTooLarge { .. }), "{e}");
    let map = hex("01ff18ffffffff0f");
    assert!(fury
        .deserialize::<HashMap<i64, i64, FnvBuild>>(&map)
        .is_err());
}

#[test]
fn deep_nesting_of_tuples_is_an_error_not_a_crash() {
    // ((...((1,),)...),) 2000 levels deep: `16` then `01 08 16` per level, then `01 08 07 02`.
    let mut bytes = hex("01ff16");
    for _ in 0..2000 {
        bytes.extend_from_slice(&hex("010816"));
    }
    bytes.extend_from_slice(&hex("01080702"));
    type Deep = ((((((((i64,),),),),),),),);
    assert!(fury().deserialize::<Deep>(&bytes).is_err());
    let e = fury().deserialize::<Value>(&bytes).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::DepthLimit { .. }), "{e}");
}

proptest! {
    #[test]
    fn arbitrary_bytes_never_panic(body in proptest::collection::vec(any::<u8>(), 0..48)) {
        let fury = fury();
        let mut bytes = vec![0x01];
        bytes.extend_from_slice(&body);
        let _ = fury.deserialize::<(i64, String, Option<Vec<i32>>)>(&bytes);
        let _ = fury.deserialize::<[String; 2]>(&bytes);
        let _ = fury.deserialize::<[i32; 3]>(&bytes);
        let _ = fury.deserialize::<VecDeque<Option<i64>>>(&bytes);
        let _ = fury.deserialize::<BinaryHeap<i64>>(&bytes);
        let _ = fury.deserialize::<Box<[usize]>>(&bytes);
        let _ = fury.deserialize::<(isize, (), Cow<str>)>(&bytes);
        let _ = fury.deserialize::<HashMap<String, (u8,), FnvBuild>>(&bytes);
        let _ = fury_ref().deserialize::<(Rc<List<i64>>, Rc<List<i64>>, Arc<str>)>(&bytes);
    }

    #[test]
    fn tuples_of_values_round_trip(a in any::<i64>(), b in ".{0,8}", c in proptest::option::of(any::<u32>())) {
        let fury = fury();
        let v = (a, b.clone(), c, [a; 2], VecDeque::from(vec![b]));
        prop_assert_eq!(round_trip(&fury, &v), v);
    }
}

/// `@dataclass class Ti: t: Tuple[int, int]` registered as id 900, `Ti((1, 2))`, written by
/// pyfory 1.7.7 (`Fory(xlang=True, ref=False, compatible=False)`): a tuple whose elements
/// share one type is declared as a list of that type (fingerprint `t,22,0,0[7,0,0];`) and
/// written with a declared element type (header 0x0c).
#[derive(fury::FuryObject, Debug, PartialEq)]
#[fury(id = 900)]
struct Ti {
    t: (i64, i64),
}

#[test]
fn a_tuple_of_one_element_type_is_a_declared_list_like_pyfory() {
    let mut fury = Fury::builder().compatible(false).build();
    fury.register::<Ti>().unwrap();
    let py = [
        0x01, 0xff, 0x1b, 0x84, 0x07, 0x07, 0xfc, 0x13, 0x6a, 0x02, 0x0c, 0x02, 0x04,
    ];
    assert_eq!(fury.serialize(&Ti { t: (1, 2) }).unwrap(), py);
    assert_eq!(fury.deserialize::<Ti>(&py).unwrap(), Ti { t: (1, 2) });
}
