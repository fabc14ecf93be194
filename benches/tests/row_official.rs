//! Row-format byte identity with the official crate `fory` 1.7.7 (a dependency of this
//! crate): for the same struct, `fury::row::FuryRow::to_row` and `fory::to_row` write the
//! same bytes, and each side reads the other's rows to the same values. Structs are declared
//! twice, once per derive; both keep declaration order.

use std::collections::BTreeMap;

use fury::row::FuryRow;

/// A small deterministic generator (no extra dependency), for many values per shape.
struct Lcg(u64);
impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 17
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn string(&mut self) -> String {
        let pool = ["", "a", "héllo", "12345678", "日本語テキスト", "x y z"];
        let mut s = pool[self.below(pool.len() as u64) as usize].to_string();
        for _ in 0..self.below(3) {
            s.push(char::from(b'a' + self.below(26) as u8));
        }
        s
    }
}

#[derive(FuryRow, Debug, PartialEq, Clone)]
struct Scalars {
    flag: bool,
    i8: i8,
    i16: i16,
    i32: i32,
    i64: i64,
    f32: f32,
    f64: f64,
    text: String,
    blob: Vec<u8>,
    maybe_int: Option<i32>,
    maybe_text: Option<String>,
}

#[derive(fory::ForyRow)]
struct ScalarsF {
    flag: bool,
    i8: i8,
    i16: i16,
    i32: i32,
    i64: i64,
    f32: f32,
    f64: f64,
    text: String,
    blob: Vec<u8>,
    maybe_int: Option<i32>,
    maybe_text: Option<String>,
}

fn scalars(r: &mut Lcg) -> (Scalars, ScalarsF) {
    let s = Scalars {
        flag: r.below(2) == 1,
        i8: r.next() as i8,
        i16: r.next() as i16,
        i32: r.next() as i32,
        i64: r.next() as i64 * if r.below(2) == 0 { -1 } else { 1 },
        f32: r.next() as f32 / 7.0,
        f64: r.next() as f64 / -3.0,
        text: r.string(),
        blob: (0..r.below(20)).map(|i| i as u8).collect(),
        maybe_int: (r.below(2) == 0).then(|| r.next() as i32),
        maybe_text: (r.below(2) == 0).then(|| r.string()),
    };
    let f = ScalarsF {
        flag: s.flag,
        i8: s.i8,
        i16: s.i16,
        i32: s.i32,
        i64: s.i64,
        f32: s.f32,
        f64: s.f64,
        text: s.text.clone(),
        blob: s.blob.clone(),
        maybe_int: s.maybe_int,
        maybe_text: s.maybe_text.clone(),
    };
    (s, f)
}

#[derive(FuryRow, Debug, PartialEq, Clone)]
struct Inner {
    id: i64,
    name: Option<String>,
}

#[derive(fory::ForyRow)]
struct InnerF {
    id: i64,
    name: Option<String>,
}

#[derive(FuryRow, Debug, PartialEq, Clone)]
struct Collections {
    ints: Vec<i32>,
    names: Vec<Option<String>>,
    flags: Vec<bool>,
    shorts: Vec<Vec<i16>>,
    counts: BTreeMap<String, i64>,
    groups: BTreeMap<i32, Vec<String>>,
    inner: Inner,
    maybe_inner: Option<Inner>,
    inners: Vec<Inner>,
}

#[derive(fory::ForyRow)]
struct CollectionsF {
    ints: Vec<i32>,
    names: Vec<Option<String>>,
    flags: Vec<bool>,
    shorts: Vec<Vec<i16>>,
    counts: BTreeMap<String, i64>,
    groups: BTreeMap<i32, Vec<String>>,
    inner: InnerF,
    maybe_inner: Option<InnerF>,
    inners: Vec<InnerF>,
}

fn inner(r: &mut Lcg) -> (Inner, InnerF) {
    let i = Inner {
        id: r.next() as i64,
        name: (r.below(3) != 0).then(|| r.string()),
    };
    let f = InnerF {
        id: i.id,
        name: i.name.clone(),
    };
    (i, f)
}

fn collections(r: &mut Lcg) -> (Collections, CollectionsF) {
    let ints: Vec<i32> = (0..r.below(12)).map(|_| r.next() as i32).collect();
    let names: Vec<Option<String>> = (0..r.below(6))
        .map(|_| (r.below(3) != 0).then(|| r.string()))
        .collect();
    let flags: Vec<bool> = (0..r.below(70)).map(|_| r.below(2) == 0).collect();
    let shorts: Vec<Vec<i16>> = (0..r.below(4))
        .map(|_| (0..r.below(5)).map(|_| r.next() as i16).collect())
        .collect();
    let counts: BTreeMap<String, i64> = (0..r.below(5))
        .map(|_| (r.string(), r.next() as i64))
        .collect();
    let groups: BTreeMap<i32, Vec<String>> = (0..r.below(4))
        .map(|_| {
            (
                r.next() as i32,
                (0..r.below(3)).map(|_| r.string()).collect(),
            )
        })
        .collect();
    let (i1, f1) = inner(r);
    let maybe = (r.below(2) == 0).then(|| inner(r));
    let many: Vec<(Inner, InnerF)> = (0..r.below(4)).map(|_| inner(r)).collect();
    let ours = Collections {
        ints: ints.clone(),
        names: names.clone(),
        flags: flags.clone(),
        shorts: shorts.clone(),
        counts: counts.clone(),
        groups: groups.clone(),
        inner: i1,
        maybe_inner: maybe.as_ref().map(|m| m.0.clone()),
        inners: many.iter().map(|m| m.0.clone()).collect(),
    };
    let theirs = CollectionsF {
        ints,
        names,
        flags,
        shorts,
        counts,
        groups,
        inner: f1,
        maybe_inner: maybe.map(|m| m.1),
        inners: many.into_iter().map(|m| m.1).collect(),
    };
    (ours, theirs)
}

#[derive(FuryRow, Debug, PartialEq, Clone)]
struct Times {
    day: fury::Date,
    at: fury::Timestamp,
    took: fury::Duration,
    days: Vec<fury::Date>,
    maybe_at: Option<fury::Timestamp>,
}

#[derive(fory::ForyRow)]
struct TimesF {
    day: fory::Date,
    at: fory::Timestamp,
    took: fory::Duration,
    days: Vec<fory::Date>,
    maybe_at: Option<fory::Timestamp>,
}

fn times(r: &mut Lcg) -> (Times, TimesF) {
    let us = |r: &mut Lcg| (r.next() as i64 >> 10) * if r.below(2) == 0 { -1 } else { 1 };
    let split = |us: i64| {
        (
            us.div_euclid(1_000_000),
            (us.rem_euclid(1_000_000) * 1000) as u32,
        )
    };
    let (day, at, took) = (r.next() as i32 as i64, us(r), us(r));
    let days: Vec<i64> = (0..r.below(5)).map(|_| r.next() as i32 as i64).collect();
    let maybe = (r.below(2) == 0).then(|| us(r));
    let ts = |us: i64| {
        let (s, n) = split(us);
        fury::Timestamp::new(s, n).unwrap()
    };
    let ours = Times {
        day: fury::Date::from_days(day),
        at: ts(at),
        took: {
            let (s, n) = split(took);
            fury::Duration::new(s, n).unwrap()
        },
        days: days.iter().map(|&d| fury::Date::from_days(d)).collect(),
        maybe_at: maybe.map(ts),
    };
    let theirs = TimesF {
        day: fory::Date::from_epoch_days(day),
        at: fory::Timestamp::from_epoch_micros(at),
        took: fory::Duration::from_micros(took),
        days: days
            .iter()
            .map(|&d| fory::Date::from_epoch_days(d))
            .collect(),
        maybe_at: maybe.map(fory::Timestamp::from_epoch_micros),
    };
    (ours, theirs)
}

/// Fixed arrays `[T; N]`, which the official crate lays out as arrays of `N` elements.
#[derive(FuryRow, Debug, PartialEq, Clone)]
struct Fixed {
    coords: [f64; 3],
    names: [String; 2],
    grid: [[i16; 2]; 2],
    maybe: [Option<i32>; 3],
    rows: Vec<[i64; 2]>,
}

#[derive(fory::ForyRow)]
struct FixedF {
    coords: [f64; 3],
    names: [String; 2],
    grid: [[i16; 2]; 2],
    maybe: [Option<i32>; 3],
    rows: Vec<[i64; 2]>,
}

fn fixed(r: &mut Lcg) -> (Fixed, FixedF) {
    let ours = Fixed {
        coords: [0; 3].map(|_| r.next() as f64 / -5.0),
        names: [0; 2].map(|_| r.string()),
        grid: [0; 2].map(|_| [0; 2].map(|_| r.next() as i16)),
        maybe: [0; 3].map(|_| (r.below(2) == 0).then(|| r.next() as i32)),
        rows: (0..r.below(4))
            .map(|_| [r.next() as i64, -(r.next() as i64)])
            .collect(),
    };
    let theirs = FixedF {
        coords: ours.coords,
        names: ours.names.clone(),
        grid: ours.grid,
        maybe: ours.maybe,
        rows: ours.rows.clone(),
    };
    (ours, theirs)
}

macro_rules! wide {
    ($($f:ident),*) => {
        #[derive(FuryRow, Debug, PartialEq)]
        struct Wide { $($f: Option<i64>),* }
        #[derive(fory::ForyRow)]
        struct WideF { $($f: Option<i64>),* }
        fn wide(r: &mut Lcg) -> (Wide, WideF) {
            let w = Wide { $($f: (r.below(4) != 0).then(|| r.next() as i64)),* };
            let f = WideF { $($f: w.$f),* };
            (w, f)
        }
        fn wide_same(ours: &WideRow<'_>, theirs: &WideFRowView<'_>) -> bool {
            true $(&& ours.$f() == theirs.$f().unwrap())*
        }
    };
}
wide!(
    a00, a01, a02, a03, a04, a05, a06, a07, a08, a09, a10, a11, a12, a13, a14, a15, a16, a17, a18,
    a19, a20, a21, a22, a23, a24, a25, a26, a27, a28, a29, a30, a31, a32, a33, a34, a35, a36, a37,
    a38, a39, a40, a41, a42, a43, a44, a45, a46, a47, a48, a49, a50, a51, a52, a53, a54, a55, a56,
    a57, a58, a59, a60, a61, a62, a63, a64, a65, a66, a67, a68, a69, a70, a71, a72, a73, a74, a75,
    a76, a77, a78, a79, a80, a81, a82, a83, a84, a85, a86, a87, a88, a89, a90, a91, a92, a93, a94,
    a95, a96, a97, a98, a99
);

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

#[test]
fn same_bytes_as_the_official_crate() {
    let mut r = Lcg(7);
    for round in 0..300 {
        let (s, f) = scalars(&mut r);
        let ours = s.to_row();
        let theirs = fory::to_row(&f).unwrap();
        assert_eq!(hex(&ours), hex(&theirs), "scalars, round {round}: {s:?}");
        // each side reads the other's row
        assert_eq!(Scalars::from_row(&theirs).unwrap(), s);
        let v = fory::from_row::<ScalarsF>(&ours).unwrap();
        assert_eq!(v.text().unwrap(), s.text);
        assert_eq!(v.maybe_text().unwrap(), s.maybe_text.as_deref());
        assert_eq!(v.i64().unwrap(), s.i64);

        let (c, f) = collections(&mut r);
        let ours = c.to_row();
        let theirs = fory::to_row(&f).unwrap();
        assert_eq!(
            hex(&ours),
            hex(&theirs),
            "collections, round {round}: {c:?}"
        );
        assert_eq!(Collections::from_row(&theirs).unwrap(), c);
        let v = fory::from_row::<CollectionsF>(&ours).unwrap();
        assert_eq!(v.ints().unwrap().len(), c.ints.len());
        assert_eq!(v.inner().unwrap().id().unwrap(), c.inner.id);

        let (t, f) = times(&mut r);
        let ours = t.to_row();
        let theirs = fory::to_row(&f).unwrap();
        assert_eq!(hex(&ours), hex(&theirs), "times, round {round}: {t:?}");
        assert_eq!(Times::from_row(&theirs).unwrap(), t);

        let (x, f) = fixed(&mut r);
        let ours = x.to_row();
        let theirs = fory::to_row(&f).unwrap();
        assert_eq!(hex(&ours), hex(&theirs), "fixed, round {round}: {x:?}");
        assert_eq!(Fixed::from_row(&theirs).unwrap(), x);
        let v = fory::from_row::<FixedF>(&ours).unwrap();
        assert_eq!(v.names().unwrap().get(1).unwrap(), x.names[1]);
        assert_eq!(v.maybe().unwrap().get(2).unwrap(), x.maybe[2]);

        let (w, f) = wide(&mut r);
        let ours = w.to_row();
        let theirs = fory::to_row(&f).unwrap();
        assert_eq!(hex(&ours), hex(&theirs), "wide, round {round}");
        assert!(wide_same(
            &Wide::view_row(&theirs).unwrap(),
            &fory::from_row::<WideF>(&ours).unwrap()
        ));
    }
}
