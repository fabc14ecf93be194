//! Type metadata shared across the messages of a connection (fury::connection::WriteMeta / ReadMeta).
//! pyfory 1.7.7 has no such state across messages (its scoped meta share is reset after
//! every serialize and deserialize), so what is checked against the peer is that a first
//! message is exactly the stream `serialize` writes (which pyfory reads, per the compat
//! vectors), and that later messages differ from it only by naming earlier TypeDefs.

use fury::connection::{ReadMeta, WriteMeta};
use fury::{ErrorKind, Fury, FuryObject};
use std::collections::{HashMap, VecDeque};
use std::sync::Arc;

// The order model of fury-rs/examples/orders.rs (the "Order" shape).
#[derive(FuryObject, Debug, Clone, PartialEq)]
#[fury(namespace = "shop", name = "Money")]
struct Money(i64, Arc<str>);

#[derive(FuryObject, Debug, Clone, PartialEq)]
#[fury(namespace = "shop", name = "Line")]
struct Line {
    sku: Arc<str>,
    quantity: usize,
    price: Money,
    dims: [u16; 3],
    tags: VecDeque<String>,
}

#[derive(FuryObject, Debug, Clone, PartialEq)]
#[fury(namespace = "shop", name = "Order")]
struct Order {
    id: u64,
    lines: Vec<Line>,
    location: (f64, f64),
    totals: HashMap<String, (i64, u32)>,
    #[fury(rename = "customerNote")]
    note: Option<String>,
}

fn order(i: u64) -> Order {
    Order {
        id: 9_000_000_000 + i,
        lines: vec![
            Line {
                sku: "tea-01".into(),
                quantity: 3,
                price: Money(450, "EUR".into()),
                dims: [10, 20, 5],
                tags: VecDeque::from(vec!["green".to_string()]),
            },
            Line {
                sku: format!("cup-{i}").into(),
                quantity: 1,
                price: Money(1200, "EUR".into()),
                dims: [8, 8, 10],
                tags: VecDeque::new(),
            },
        ],
        location: (52.52, 13.405),
        totals: HashMap::from([("EUR".to_string(), (2550, 2))]),
        note: i.is_multiple_of(2).then(|| "ring twice".to_string()),
    }
}

fn shop(compatible: bool) -> Fury {
    let mut fury = Fury::builder().compatible(compatible).build();
    fury.register::<Money>()
        .unwrap()
        .register::<Line>()
        .unwrap()
        .register::<Order>()
        .unwrap()
        .register::<Color>()
        .unwrap();
    fury
}

#[test]
fn orders_with_shared_meta_are_within_ten_percent_of_same_schema() {
    let compat = shop(true);
    let same = shop(false);
    let (mut send, mut recv) = (WriteMeta::new(), ReadMeta::new());
    let mut same_send = WriteMeta::new();
    let mut sizes = Vec::new();
    for i in 0..20 {
        let o = order(i);
        let mut msg = Vec::new();
        compat.serialize_with_meta(&o, &mut msg, &mut send).unwrap();
        let mut same_msg = Vec::new();
        same.serialize_with_meta(&o, &mut same_msg, &mut same_send)
            .unwrap();
        let plain = compat.serialize(&o).unwrap();
        let same_len = same.serialize(&o).unwrap().len();
        if i == 0 {
            assert_eq!(msg, plain, "a first message is the stream serialize writes");
        } else {
            assert!(
                msg.len() as f64 <= same_len as f64 * 1.10,
                "message {i}: {} bytes with shared meta, {same_len} same-schema",
                msg.len()
            );
            let err = compat.deserialize::<Order>(&msg).unwrap_err();
            assert!(
                err.to_string().contains("TypeDef back reference"),
                "a reader without the connection's metadata: {err}"
            );
        }
        let back: Order = compat.deserialize_with_meta(&msg, &mut recv).unwrap();
        assert_eq!(back, o);
        sizes.push((msg.len(), plain.len(), same_len, same_msg.len()));
    }
    assert_eq!(send.len(), 3, "Order, Line, Money");
    assert_eq!(recv.len(), 3);
    let (shared, plain, same_len, same_shared) = sizes[1];
    eprintln!(
        "Order: {plain} bytes compatible, {shared} with shared meta, {same_len} same-schema, \
         {same_shared} same-schema with shared meta"
    );
}

#[test]
fn numbering_goes_on_across_messages_with_new_types_appearing_later() {
    let fury = shop(true);
    let (mut send, mut recv) = (WriteMeta::new(), ReadMeta::new());
    let money = Money(5, "USD".into());
    let line = order(1).lines.remove(0);
    let mut a = Vec::new();
    fury.serialize_with_meta(&money, &mut a, &mut send).unwrap();
    assert_eq!(a, fury.serialize(&money).unwrap());
    let mut b = Vec::new();
    fury.serialize_with_meta(&line, &mut b, &mut send).unwrap();
    let mut c = Vec::new();
    fury.serialize_with_meta(&order(2), &mut c, &mut send)
        .unwrap();
    assert_eq!(send.len(), 3);
    assert_eq!(
        fury.deserialize_with_meta::<Money>(&a, &mut recv).unwrap(),
        money
    );
    assert_eq!(
        fury.deserialize_with_meta::<Line>(&b, &mut recv).unwrap(),
        line
    );
    assert_eq!(
        fury.deserialize_with_meta::<Order>(&c, &mut recv).unwrap(),
        order(2)
    );
    // Out of order: the reader of `c` alone has not seen Line's TypeDef (announced in `b`).
    let mut late = ReadMeta::new();
    fury.deserialize_with_meta::<Money>(&a, &mut late).unwrap();
    assert!(fury.deserialize_with_meta::<Order>(&c, &mut late).is_err());
}

#[test]
fn a_failed_write_announces_nothing() {
    #[derive(FuryObject, Debug)]
    #[fury(id = 700)]
    struct Unregistered {
        x: i32,
    }
    let fury = shop(true);
    let mut send = WriteMeta::new();
    let mut out = vec![0xee];
    let failing = (order(0), Unregistered { x: 1 });
    assert!(fury
        .serialize_with_meta(&failing, &mut out, &mut send)
        .is_err());
    assert_eq!(out, [0xee]);
    assert!(
        send.is_empty(),
        "the failed message's TypeDefs were never sent"
    );
    let mut msg = Vec::new();
    fury.serialize_with_meta(&order(0), &mut msg, &mut send)
        .unwrap();
    assert_eq!(msg, fury.serialize(&order(0)).unwrap());
}

/// Another version of `Money` on the writer's side: the reader's TypeDefs are remote ones
/// (parsed, not its own), kept across messages too.
#[derive(FuryObject, Debug, Clone, PartialEq)]
#[fury(namespace = "shop", name = "Money")]
struct MoneyV2 {
    amount: i64,
    currency: String,
    rounded: bool,
}

#[derive(FuryObject, Debug, Clone, PartialEq, Default)]
#[fury(namespace = "shop", name = "Money")]
struct MoneyV1 {
    amount: i64,
    currency: String,
}

#[test]
fn remote_typedefs_of_another_version_are_kept_across_messages() {
    let mut writer = Fury::default();
    writer.register::<MoneyV2>().unwrap();
    let mut reader = Fury::default();
    reader.register::<MoneyV1>().unwrap();
    let (mut send, mut recv) = (WriteMeta::new(), ReadMeta::new());
    for i in 0..5 {
        let v = MoneyV2 {
            amount: i,
            currency: "EUR".into(),
            rounded: true,
        };
        let mut msg = Vec::new();
        writer.serialize_with_meta(&v, &mut msg, &mut send).unwrap();
        let back: MoneyV1 = reader.deserialize_with_meta(&msg, &mut recv).unwrap();
        assert_eq!(
            back,
            MoneyV1 {
                amount: i,
                currency: "EUR".into()
            }
        );
    }
}

#[test]
fn hostile_markers_are_errors() {
    let fury = shop(true);
    let (mut send, mut recv) = (WriteMeta::new(), ReadMeta::new());
    let money = Money(5, "USD".into());
    let mut a = Vec::new();
    fury.serialize_with_meta(&money, &mut a, &mut send).unwrap();
    let mut b = Vec::new();
    fury.serialize_with_meta(&money, &mut b, &mut send).unwrap();
    fury.deserialize_with_meta::<Money>(&a, &mut recv).unwrap();
    // `b` names TypeDef 0 with the marker 01 right after the kind byte; name 5 instead.
    let at = b.iter().position(|&x| x == 0x01).unwrap();
    let at = at + 1 + b[at + 1..].iter().position(|&x| x == 0x01).unwrap();
    let mut bad = b.clone();
    bad[at] = (5 << 1) | 1;
    let err = fury
        .deserialize_with_meta::<Money>(&bad, &mut recv)
        .unwrap_err();
    assert!(matches!(err.kind(), ErrorKind::Invalid { .. }), "{err}");
    // A new TypeDef announced out of sequence (index 3 while 1 are known).
    bad[at] = 3 << 1;
    assert!(fury
        .deserialize_with_meta::<Money>(&bad, &mut recv)
        .is_err());
    // The state survived: the honest message still reads.
    assert_eq!(
        fury.deserialize_with_meta::<Money>(&b, &mut recv).unwrap(),
        money
    );
    // Every prefix of it is an error, never a panic.
    for cut in 0..b.len() {
        let mut r = ReadMeta::new();
        fury.deserialize_with_meta::<Money>(&a, &mut r).unwrap();
        assert!(fury
            .deserialize_with_meta::<Money>(&b[..cut], &mut r)
            .is_err());
    }
}

#[derive(FuryObject, Debug, Clone, Copy, PartialEq)]
#[fury(namespace = "shop", name = "Color")]
enum Color {
    Red,
    Green,
}

#[test]
fn names_of_named_types_cross_the_connection_once_in_same_schema_mode() {
    let fury = shop(false);
    let (mut send, mut recv) = (WriteMeta::new(), ReadMeta::new());
    let mut msgs = Vec::new();
    for i in 0..3 {
        let mut m = Vec::new();
        fury.serialize_with_meta(&order(i), &mut m, &mut send)
            .unwrap();
        msgs.push(m);
    }
    // The first message is the plain stream; later ones name "shop", "Order", "Line" and
    // "Money" by back references, each one or two bytes.
    assert_eq!(msgs[0], fury.serialize(&order(0)).unwrap());
    for (i, m) in msgs.iter().enumerate().skip(1) {
        let plain = fury.serialize(&order(i as u64)).unwrap();
        assert!(
            m.len() + 10 <= plain.len(),
            "message {i}: {} bytes shared, {} plain",
            m.len(),
            plain.len()
        );
    }
    for (i, m) in msgs.iter().enumerate() {
        assert_eq!(
            fury.deserialize_with_meta::<Order>(m, &mut recv).unwrap(),
            order(i as u64)
        );
    }
    // A reader that did not read the first message cannot resolve the names.
    let err = fury
        .deserialize_with_meta::<Order>(&msgs[1], &mut ReadMeta::new())
        .unwrap_err();
    assert!(
        err.to_string().contains("meta string back reference"),
        "{err}"
    );
    // A new named type later on the connection: its name is new, its namespace is not.
    let mut c = Vec::new();
    fury.serialize_with_meta(&Color::Green, &mut c, &mut send)
        .unwrap();
    assert!(c.len() < fury.serialize(&Color::Green).unwrap().len());
    assert_eq!(
        fury.deserialize_with_meta::<Color>(&c, &mut recv).unwrap(),
        Color::Green
    );
    // Every prefix of a later message is an error, never a panic.
    for cut in 0..msgs[1].len() {
        let mut r = ReadMeta::new();
        fury.deserialize_with_meta::<Order>(&msgs[0], &mut r)
            .unwrap();
        assert!(fury
            .deserialize_with_meta::<Order>(&msgs[1][..cut], &mut r)
            .is_err());
    }
}

#[test]
fn dynamic_values_without_namespace_add_no_name_per_message() {
    // A `Value` builds its names afresh on every write, and an empty namespace is matched
    // within a stream by identity only; across the messages of a connection it is matched
    // by content, so a long connection does not reach the reader's bound.
    let fury = {
        let mut f = Fury::builder().compatible(false).build();
        f.register::<Plain>().unwrap();
        f
    };
    #[derive(FuryObject, Debug, Clone, Copy, PartialEq)]
    #[fury(name = "Plain")]
    enum Plain {
        A,
        B,
    }
    let v = fury::Value::Enum(fury::EnumValue::named("Plain", 1));
    let (mut send, mut recv) = (WriteMeta::new(), ReadMeta::new());
    let n = fury::connection::MAX_CONNECTION_META_STRINGS + 10;
    let mut last = Vec::new();
    for i in 0..n {
        let mut m = Vec::new();
        fury.serialize_with_meta(&v, &mut m, &mut send).unwrap();
        if i == 0 {
            assert_eq!(m, fury.serialize(&v).unwrap(), "the first message is plain");
        }
        let back: Plain = fury
            .deserialize_with_meta(&m, &mut recv)
            .unwrap_or_else(|e| panic!("message {i}: {e}"));
        assert_eq!(back, Plain::B);
        last = m;
    }
    assert!(last.len() < fury.serialize(&v).unwrap().len());
}

#[test]
fn a_failed_write_announces_no_names() {
    #[derive(FuryObject, Debug)]
    #[fury(id = 700)]
    struct Unregistered {
        x: i32,
    }
    let fury = shop(false);
    let mut send = WriteMeta::new();
    // The order's names are written before the unregistered struct fails the message.
    let mut out = Vec::new();
    assert!(fury
        .serialize_with_meta(&(order(0), Unregistered { x: 1 }), &mut out, &mut send)
        .is_err());
    let mut msg = Vec::new();
    fury.serialize_with_meta(&order(0), &mut msg, &mut send)
        .unwrap();
    assert_eq!(msg, fury.serialize(&order(0)).unwrap());
}

#[test]
fn a_connection_keeps_a_bounded_number_of_names() {
    // A peer that never refers back announces two new strings per message; the reader keeps
    // at most MAX_CONNECTION_META_STRINGS of them and then refuses the connection.
    let fury = shop(false);
    let plain = fury.serialize(&Color::Red).unwrap();
    let mut recv = ReadMeta::new();
    let limit = fury::connection::MAX_CONNECTION_META_STRINGS / 2;
    for i in 0..limit {
        assert_eq!(
            fury.deserialize_with_meta::<Color>(&plain, &mut recv)
                .unwrap_or_else(|e| panic!("message {i}: {e}")),
            Color::Red
        );
    }
    let err = fury
        .deserialize_with_meta::<Color>(&plain, &mut recv)
        .unwrap_err();
    assert!(
        matches!(err.kind(), ErrorKind::LengthTooLarge { .. }),
        "{err}"
    );
    // The refused message announced nothing, and what the connection held stays valid: a
    // message naming the first strings by back reference still reads (issue 29: the table
    // used to be cleared, and every later message failed).
    let mut send = WriteMeta::new();
    let mut first = Vec::new();
    fury.serialize_with_meta(&Color::Red, &mut first, &mut send)
        .unwrap();
    let mut by_reference = Vec::new();
    fury.serialize_with_meta(&Color::Red, &mut by_reference, &mut send)
        .unwrap();
    assert!(by_reference.len() < first.len());
    assert_eq!(
        fury.deserialize_with_meta::<Color>(&by_reference, &mut recv)
            .unwrap(),
        Color::Red
    );
    assert!(fury
        .deserialize_with_meta::<Color>(&plain, &mut recv)
        .is_err());
}

#[cfg(feature = "tokio")]
#[test]
fn a_frame_too_large_to_send_announces_no_names() {
    use fury::frame::FuryCodec;
    use tokio_util::codec::{Decoder, Encoder};
    let fury = Arc::new(shop(false));
    let plain_color = fury.serialize(&Color::Red).unwrap().len();
    let mut client = FuryCodec::<Color>::new(fury.clone())
        .share_meta(true)
        .max_frame_len(plain_color + 4);
    let mut server = FuryCodec::<Color>::new(fury.clone()).share_meta(true);
    let mut wire = bytes::BytesMut::new();
    assert!(client.encode(order(0), &mut wire).is_err(), "too large");
    assert!(wire.is_empty());
    // "shop" was written in the refused frame; this frame must announce it again.
    client.encode(Color::Red, &mut wire).unwrap();
    assert_eq!(
        server.decode(&mut wire).unwrap().unwrap().unwrap(),
        Color::Red
    );
}

#[cfg(feature = "tokio")]
#[test]
fn the_codec_shares_meta_per_connection_when_asked() {
    use fury::frame::FuryCodec;
    use tokio_util::codec::{Decoder, Encoder};
    let fury = Arc::new(shop(true));
    let mut client = FuryCodec::<Order>::new(fury.clone()).share_meta(true);
    let mut server = FuryCodec::<Order>::new(fury.clone()).share_meta(true);
    let mut plain = FuryCodec::<Order>::new(fury.clone());
    let mut wire = bytes::BytesMut::new();
    let mut lens = Vec::new();
    for i in 0..4 {
        let before = wire.len();
        client.encode(order(i), &mut wire).unwrap();
        lens.push(wire.len() - before);
    }
    let mut plain_wire = bytes::BytesMut::new();
    plain.encode(order(0), &mut plain_wire).unwrap();
    assert_eq!(lens[0], plain_wire.len(), "the first frame is a plain one");
    assert!(lens[1] < lens[0] * 3 / 4, "{lens:?}");
    for i in 0..4 {
        assert_eq!(
            server.decode(&mut wire).unwrap().unwrap().unwrap(),
            order(i)
        );
    }
    // A fresh codec for a new connection starts over.
    let mut next = client.clone();
    let mut w = bytes::BytesMut::new();
    next.encode(order(0), &mut w).unwrap();
    assert_eq!(w.len(), lens[0]);
}

macro_rules! small_types {
    ($($t:ident = $id:literal),*) => {$(
        #[derive(FuryObject, Debug, Clone, Copy, PartialEq)]
        #[fury(id = $id)]
        struct $t {
            x: i32,
        }
    )*};
}
small_types!(T0 = 900, T1 = 901, T2 = 902);

/// The reader's version of `T0`..`T2`: one more field, so the writer's TypeDefs are not its
/// own (a connection keeps them parsed).
macro_rules! reader_types {
    ($($t:ident = $id:literal),*) => {$(
        #[derive(FuryObject, Debug, Clone, Copy, PartialEq)]
        #[fury(id = $id)]
        struct $t {
            x: i32,
            y: Option<i32>,
        }
    )*};
}
reader_types!(R0 = 900, R1 = 901, R2 = 902);

/// A connection's TypeDefs are bounded in heap bytes (issue 29 item 1): a message past the
/// budget is refused naming it, and what the connection held before stays valid.
#[test]
fn a_connection_keeps_typedefs_within_its_byte_budget() {
    let mut fury = Fury::default();
    fury.register::<T0>().unwrap();
    fury.register::<T1>().unwrap();
    fury.register::<T2>().unwrap();
    let mut reader = Fury::default();
    reader.register::<R0>().unwrap();
    reader.register::<R1>().unwrap();
    reader.register::<R2>().unwrap();
    let mut send = WriteMeta::new();
    let mut msgs: Vec<Vec<u8>> = Vec::new();
    for (i, m) in [0, 1, 2, 0].into_iter().enumerate() {
        let mut out = Vec::new();
        let x = i as i32;
        match m {
            0 => fury.serialize_with_meta(&T0 { x }, &mut out, &mut send),
            1 => fury.serialize_with_meta(&T1 { x }, &mut out, &mut send),
            _ => fury.serialize_with_meta(&T2 { x }, &mut out, &mut send),
        }
        .unwrap();
        msgs.push(out);
    }
    // One TypeDef's cost, then a budget for two and a half.
    let mut probe = ReadMeta::new();
    let _: R0 = reader.deserialize_with_meta(&msgs[0], &mut probe).unwrap();
    let one = probe.typedef_bytes();
    assert!(one > 0);
    let mut recv = ReadMeta::with_typedef_budget(one * 5 / 2);
    let r0: R0 = reader.deserialize_with_meta(&msgs[0], &mut recv).unwrap();
    assert_eq!((r0.x, r0.y), (0, None));
    let r1: R1 = reader.deserialize_with_meta(&msgs[1], &mut recv).unwrap();
    assert_eq!(r1.x, 1);
    let e = reader
        .deserialize_with_meta::<R2>(&msgs[2], &mut recv)
        .unwrap_err();
    assert!(
        matches!(e.kind(), ErrorKind::LengthTooLarge { .. })
            && e.to_string().contains("heap bytes of the TypeDefs"),
        "{e}"
    );
    assert!(recv.typedef_bytes() <= one * 5 / 2);
    // T0 again, by back reference: the connection still holds it.
    let again: R0 = reader.deserialize_with_meta(&msgs[3], &mut recv).unwrap();
    assert_eq!(again.x, 3);
}
