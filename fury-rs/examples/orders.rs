//! An order system modelled the way a Rust team writes its types (aliases, a generic page, a
//! tuple struct, tuples, fixed arrays, `usize`, `VecDeque`, `Arc<str>`, a field of a foreign
//! type), serialized in both modes and read back.
//!
//! `cargo run -q -p fury --example orders`

use fury::{Fury, FuryObject};
use std::collections::{HashMap, VecDeque};
use std::net::Ipv4Addr;
use std::sync::Arc;

type OrderId = u64;
type Cents = i64;

/// A foreign type (`Ipv4Addr`) written as its `u32`.
mod ipv4 {
    pub type Wire = u32;
    pub fn to_wire(a: &std::net::Ipv4Addr) -> u32 {
        u32::from(*a)
    }
    pub fn from_wire(w: u32) -> fury::Result<std::net::Ipv4Addr> {
        Ok(std::net::Ipv4Addr::from(w))
    }
}

#[derive(FuryObject, Debug, Clone, PartialEq)]
#[fury(namespace = "shop", name = "Money")]
struct Money(Cents, Arc<str>);

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
    id: OrderId,
    lines: Vec<Line>,
    location: (f64, f64),
    totals: HashMap<String, (Cents, u32)>,
    #[fury(with = "ipv4")]
    client: Ipv4Addr,
    #[fury(rename = "customerNote")]
    note: Option<String>,
}

#[derive(FuryObject, Debug, Clone, PartialEq)]
#[fury(namespace = "shop", name = "OrderPage")]
struct Page<T> {
    items: Vec<T>,
    next: Option<String>,
}

pub fn main() -> fury::Result<()> {
    let order = Order {
        id: 9_000_000_001,
        lines: vec![Line {
            sku: "tea-01".into(),
            quantity: 3,
            price: Money(450, "EUR".into()),
            dims: [10, 20, 5],
            tags: VecDeque::from(vec!["green".to_string()]),
        }],
        location: (52.52, 13.405),
        totals: HashMap::from([("EUR".to_string(), (1350, 1))]),
        client: Ipv4Addr::new(192, 0, 2, 1),
        note: Some("ring twice".into()),
    };
    let page = Page {
        items: vec![order.clone(), order],
        next: Some("cursor-2".into()),
    };
    for compatible in [false, true] {
        let mut fury = Fury::builder().compatible(compatible).build();
        fury.register::<Money>()?
            .register::<Line>()?
            .register::<Order>()?
            .register::<Page<Order>>()?;
        let bytes = fury.serialize(&page)?;
        let back: Page<Order> = fury.deserialize(&bytes)?;
        assert_eq!(back, page);
        let mode = if compatible {
            "compatible"
        } else {
            "same-schema"
        };
        println!(
            "{mode:>11}: a page of 2 orders is {} bytes, and reads back equal",
            bytes.len()
        );
    }
    Ok(())
}
