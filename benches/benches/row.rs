//! The row format: random access without decoding.
//! `cargo bench -p fury-benches --bench row`
//!
//! * one field of a 100-field row, one element of a 100,000-element array: fury-rs rows
//!   (validate then read, or read through a view validated once), the official crate's row
//!   views (`fory::from_row`, which checks a struct's fixed region or an array's count on
//!   each access), and fury-rs decoding the xlang stream of the same value in full;
//! * MediaContent as a row (its two enums as i32 ordinals: rows have no enums): encode,
//!   validate and read every field, validate and read one field, against rkyv 0.8's
//!   validated access (`rkyv::access`, bytecheck) of the same struct.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use fury::row::FuryRow;
use std::hint::black_box;

macro_rules! wide {
    ($($f:ident),*) => {
        #[derive(FuryRow, fury::FuryObject, Clone)]
        #[fury(id = 900)]
        struct Wide { $($f: i64),* }
        #[derive(fory::ForyRow)]
        struct WideF { $($f: i64),* }
        fn wide() -> (Wide, WideF) {
            let mut k = 0i64;
            let w = Wide { $($f: { k += 1; k * 1_000_003 }),* };
            let f = WideF { $($f: w.$f),* };
            (w, f)
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

#[derive(FuryRow)]
struct Series {
    values: Vec<i64>,
}

#[derive(fory::ForyRow)]
struct SeriesF {
    values: Vec<i64>,
}

fn one_field(c: &mut Criterion) {
    let (w, f) = wide();
    let row = w.to_row();
    assert_eq!(row, fory::to_row(&f).unwrap());
    let mut fury = fury::Fury::default();
    fury.register::<Wide>().unwrap();
    let stream = fury.serialize(&w).unwrap();

    let mut g = c.benchmark_group("row/one_field_of_100");
    g.bench_function("fury_row_validate_and_read", |b| {
        b.iter(|| Wide::view_row(black_box(&row)).unwrap().a57())
    });
    let view = Wide::view_row(&row).unwrap();
    g.bench_function("fury_row_read_validated_view", |b| {
        b.iter(|| black_box(&view).a57())
    });
    g.bench_function("fory_row_view_read", |b| {
        b.iter(|| {
            fory::from_row::<WideF>(black_box(&row))
                .unwrap()
                .a57()
                .unwrap()
        })
    });
    g.bench_function("fury_xlang_full_decode", |b| {
        b.iter(|| fury.deserialize::<Wide>(black_box(&stream)).unwrap().a57)
    });
    g.finish();
}

fn one_element(c: &mut Criterion) {
    let values: Vec<i64> = (0..100_000).map(|i| i * 7919).collect();
    let s = Series {
        values: values.clone(),
    };
    let row = s.to_row();
    assert_eq!(
        row,
        fory::to_row(&SeriesF {
            values: values.clone()
        })
        .unwrap()
    );
    let fury = fury::Fury::default();
    let stream = fury.serialize(&values).unwrap();

    let mut g = c.benchmark_group("row/one_element_of_100000");
    g.bench_function("fury_row_validate_and_get", |b| {
        b.iter(|| {
            Series::view_row(black_box(&row))
                .unwrap()
                .values()
                .get(90_001)
        })
    });
    let view = Series::view_row(&row).unwrap();
    g.bench_function("fury_row_get_validated_view", |b| {
        b.iter(|| black_box(&view).values().get(90_001))
    });
    g.bench_function("fory_row_view_get", |b| {
        b.iter(|| {
            fory::from_row::<SeriesF>(black_box(&row))
                .unwrap()
                .values()
                .unwrap()
                .get(90_001)
                .unwrap()
        })
    });
    g.bench_function("fury_xlang_array_view_get", |b| {
        b.iter(|| {
            fury.deserialize::<fury::ArrayView<'_, i64>>(black_box(&stream))
                .unwrap()
                .get(90_001)
        })
    });
    g.bench_function("fury_xlang_full_decode", |b| {
        b.iter(|| fury.deserialize::<Vec<i64>>(black_box(&stream)).unwrap()[90_001])
    });
    g.finish();
}

// MediaContent as a row and as rkyv: one struct per format, the same fields.

#[derive(FuryRow, rkyv::Archive, rkyv::Serialize, Clone)]
struct Media {
    uri: String,
    title: Option<String>,
    width: i32,
    height: i32,
    format: String,
    duration: i64,
    size: i64,
    bitrate: i32,
    has_bitrate: bool,
    persons: Vec<String>,
    player: i32,
    copyright: Option<String>,
}

#[derive(FuryRow, rkyv::Archive, rkyv::Serialize, Clone)]
struct Image {
    uri: String,
    title: Option<String>,
    width: i32,
    height: i32,
    size: i32,
}

#[derive(FuryRow, rkyv::Archive, rkyv::Serialize, Clone)]
struct MediaContent {
    media: Media,
    images: Vec<Image>,
}

fn media_content() -> MediaContent {
    let m = fury_benches::values::media_content(0);
    MediaContent {
        media: Media {
            uri: m.media.uri,
            title: m.media.title,
            width: m.media.width,
            height: m.media.height,
            format: m.media.format,
            duration: m.media.duration,
            size: m.media.size,
            bitrate: m.media.bitrate,
            has_bitrate: m.media.has_bitrate,
            persons: m.media.persons,
            player: m.media.player as i32,
            copyright: m.media.copyright,
        },
        images: m
            .images
            .into_iter()
            .map(|i| Image {
                uri: i.uri,
                title: i.title,
                width: i.width,
                height: i.height,
                size: i.size as i32,
            })
            .collect(),
    }
}

/// Every field, folded into one number so none is skipped.
fn read_all_row(v: &MediaContentRow<'_>) -> usize {
    let m = v.media();
    let mut n = m.uri().len()
        + m.title().map_or(0, str::len)
        + m.width() as usize
        + m.height() as usize
        + m.format().len()
        + m.duration() as usize
        + m.size() as usize
        + m.bitrate() as usize
        + m.has_bitrate() as usize
        + m.player() as usize
        + m.copyright().map_or(0, str::len);
    for p in m.persons() {
        n += p.len();
    }
    for i in v.images() {
        n += i.uri().len()
            + i.title().map_or(0, str::len)
            + i.width() as usize
            + i.height() as usize
            + i.size() as usize;
    }
    n
}

fn read_all_rkyv(v: &ArchivedMediaContent) -> usize {
    let m = &v.media;
    let mut n = m.uri.len()
        + m.title.as_ref().map_or(0, |t| t.len())
        + m.width.to_native() as usize
        + m.height.to_native() as usize
        + m.format.len()
        + m.duration.to_native() as usize
        + m.size.to_native() as usize
        + m.bitrate.to_native() as usize
        + m.has_bitrate as usize
        + m.player.to_native() as usize
        + m.copyright.as_ref().map_or(0, |t| t.len());
    for p in m.persons.iter() {
        n += p.len();
    }
    for i in v.images.iter() {
        n += i.uri.len()
            + i.title.as_ref().map_or(0, |t| t.len())
            + i.width.to_native() as usize
            + i.height.to_native() as usize
            + i.size.to_native() as usize;
    }
    n
}

fn rkyv_access(b: &[u8]) -> &ArchivedMediaContent {
    rkyv::access::<ArchivedMediaContent, rkyv::rancor::Error>(b).unwrap()
}

fn media(c: &mut Criterion) {
    let mc = media_content();
    let row = mc.to_row();
    let archived = rkyv::to_bytes::<rkyv::rancor::Error>(&mc).unwrap();
    assert_eq!(
        read_all_row(&MediaContent::view_row(&row).unwrap()),
        read_all_rkyv(rkyv_access(&archived))
    );
    eprintln!(
        "MediaContent: row {} bytes, rkyv {} bytes",
        row.len(),
        archived.len()
    );

    let mut g = c.benchmark_group("row/media_content");
    g.throughput(Throughput::Elements(1));
    let mut buf = Vec::with_capacity(row.len());
    g.bench_function("fury_row_encode", |b| {
        b.iter(|| {
            buf.clear();
            black_box(&mc).write_row(&mut buf).unwrap();
            buf.len()
        })
    });
    let mut arena = rkyv::util::AlignedVec::<16>::with_capacity(archived.len());
    g.bench_function("rkyv_encode", |b| {
        b.iter(|| {
            arena.clear();
            arena = rkyv::api::high::to_bytes_in::<_, rkyv::rancor::Error>(
                black_box(&mc),
                std::mem::take(&mut arena),
            )
            .unwrap();
            arena.len()
        })
    });
    g.bench_function("fury_row_validate_read_all", |b| {
        b.iter(|| read_all_row(&MediaContent::view_row(black_box(&row)).unwrap()))
    });
    g.bench_function("rkyv_validate_read_all", |b| {
        b.iter(|| read_all_rkyv(rkyv_access(black_box(&archived))))
    });
    g.bench_function("fury_row_validate_read_one", |b| {
        b.iter(|| {
            MediaContent::view_row(black_box(&row))
                .unwrap()
                .media()
                .uri()
                .len()
        })
    });
    g.bench_function("rkyv_validate_read_one", |b| {
        b.iter(|| rkyv_access(black_box(&archived)).media.uri.len())
    });
    let view = MediaContent::view_row(&row).unwrap();
    g.bench_function("fury_row_read_one_validated_view", |b| {
        b.iter(|| black_box(&view).media().uri().len())
    });
    // SAFETY: `archived` was written by rkyv just above for this type.
    let unchecked = unsafe { rkyv::access_unchecked::<ArchivedMediaContent>(&archived) };
    g.bench_function("rkyv_read_one_unchecked", |b| {
        b.iter(|| black_box(unchecked).media.uri.len())
    });
    g.finish();
}

criterion_group!(benches, one_field, one_element, media);
criterion_main!(benches);
