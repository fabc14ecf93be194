//! Types for the interop rows of the kinds a derive alone does not cover (issue 14):
//! unions, decimals, extension types and `any` fields. Where the two crates need different
//! Rust declarations (the official crate's union must carry an `UnknownCase` variant, its
//! decimal is a `BigInt` and its `any` is `Box<dyn Any>`), each side has its own type and the
//! row compares decoded values across the pair.
//!
//! Every string here holds a character above U+FFFF, which pyfory, fury-rs and the crate all
//! write as UTF-8: with ASCII text the crate's UTF-8 flag (spec/DISAGREEMENTS.md, D4) would
//! make every row differ, hiding what the kinds themselves write.

use fury::wire::{ReadContext, WriteContext};
use fury::Ext;
use std::any::Any;

/// A union case's payload: a plain struct both crates derive.
#[derive(fury::FuryObject, fory::ForyStruct, Debug, Clone, PartialEq, Default)]
#[fury(id = 210)]
pub struct Pet {
    pub name: String,
    pub age: i32,
}

/// The union as fury-rs declares it: case 1 a struct, case 2 a string, case 3 empty.
#[derive(fury::FuryObject, Debug, Clone, PartialEq)]
#[fury(id = 211)]
pub enum Shape {
    #[fury(id = 1)]
    Pet(Pet),
    #[fury(id = 2)]
    Label(String),
    #[fury(id = 3)]
    Empty,
}

/// The same union as the official crate declares it: the derive requires an unknown-case
/// carrier and a default case.
#[derive(fory::ForyUnion, Clone)]
pub enum ForyShape {
    #[fory(unknown)]
    Unknown(fory::UnknownCase),
    #[fory(id = 1, default)]
    Pet(Pet),
    #[fory(id = 2)]
    Label(String),
    #[fory(id = 3)]
    Empty,
}

/// A struct with a union field (fury-rs side).
#[derive(fury::FuryObject, Debug, Clone, PartialEq)]
#[fury(id = 212)]
pub struct Pen {
    pub shape: Shape,
    pub note: String,
}

/// A struct with a union field (official crate side).
#[derive(fory::ForyStruct, Clone)]
pub struct ForyPen {
    pub shape: ForyShape,
    pub note: String,
}

/// Whether the two sides' union values are the same case with the same payload.
pub fn same_shape(a: &Shape, b: &ForyShape) -> bool {
    match (a, b) {
        (Shape::Pet(x), ForyShape::Pet(y)) => x == y,
        (Shape::Label(x), ForyShape::Label(y)) => x == y,
        (Shape::Empty, ForyShape::Empty) => true,
        _ => false,
    }
}

/// The official crate's mirror of a fury-rs union value.
pub fn fory_shape(a: &Shape) -> ForyShape {
    match a {
        Shape::Pet(p) => ForyShape::Pet(p.clone()),
        Shape::Label(s) => ForyShape::Label(s.clone()),
        Shape::Empty => ForyShape::Empty,
    }
}

/// The union values of the rows: one per case.
pub fn shapes() -> Vec<Shape> {
    vec![
        Shape::Pet(Pet {
            name: "rex🐕".into(),
            age: 3,
        }),
        Shape::Label("hello🌍".into()),
        Shape::Empty,
    ]
}

/// The union values on both sides, one per case.
pub fn shape_pairs() -> Vec<(Shape, ForyShape)> {
    shapes()
        .into_iter()
        .map(|s| {
            let b = fory_shape(&s);
            (s, b)
        })
        .collect()
}

/// A struct holding each union value, on both sides.
pub fn pens() -> Vec<(Pen, ForyPen)> {
    let note = "n📝";
    shape_pairs()
        .into_iter()
        .map(|(a, b)| {
            (
                Pen {
                    shape: a,
                    note: note.into(),
                },
                ForyPen {
                    shape: b,
                    note: note.into(),
                },
            )
        })
        .collect()
}

/// Decimal fields (fury-rs side).
#[derive(fury::FuryObject, Debug, Clone, PartialEq)]
#[fury(id = 213)]
pub struct Prices {
    pub small: fury::Decimal,
    pub negative: fury::Decimal,
    pub whole: fury::Decimal,
    pub big: fury::Decimal,
}

/// Decimal fields (official crate side).
#[derive(fory::ForyStruct, Debug, Clone, PartialEq)]
pub struct ForyPrices {
    pub small: fory::Decimal,
    pub negative: fory::Decimal,
    pub whole: fory::Decimal,
    pub big: fory::Decimal,
}

/// The decimal values of the rows as (unscaled, scale): small, negative, scale 0, and an
/// unscaled value beyond 64 bits.
pub const DECIMALS: [(i128, i32); 4] = [
    (12_345, 2),
    (-98_765, 3),
    (42, 0),
    (123_456_789_012_345_678_901_234_567, 10),
];

/// The fury-rs decimal of one of [`DECIMALS`].
pub fn fury_decimal((unscaled, scale): (i128, i32)) -> fury::Decimal {
    fury::Decimal::new(unscaled, scale)
}

/// The official crate's decimal of one of [`DECIMALS`].
pub fn fory_decimal((unscaled, scale): (i128, i32)) -> fory::Decimal {
    fory::Decimal::new(num_bigint::BigInt::from(unscaled), scale)
}

/// The decimal struct on both sides.
pub fn prices() -> (Prices, ForyPrices) {
    let [a, b, c, d] = DECIMALS;
    (
        Prices {
            small: fury_decimal(a),
            negative: fury_decimal(b),
            whole: fury_decimal(c),
            big: fury_decimal(d),
        },
        ForyPrices {
            small: fory_decimal(a),
            negative: fory_decimal(b),
            whole: fory_decimal(c),
            big: fory_decimal(d),
        },
    )
}

/// An extension type registered by id on both sides, written by its own code as three
/// varint32s (the same payload for both crates).
#[derive(fury::FuryObject, Debug, Clone, PartialEq, Default)]
#[fury(ext, id = 214)]
pub struct Point3 {
    pub x: i32,
    pub y: i32,
    pub z: i32,
}

impl Ext for Point3 {
    fn write_ext(&self, ctx: &mut WriteContext) -> fury::Result<()> {
        ctx.writer.var_i32(self.x);
        ctx.writer.var_i32(self.y);
        ctx.writer.var_i32(self.z);
        Ok(())
    }
    fn read_ext(ctx: &mut ReadContext<'_, '_>) -> fury::Result<Self> {
        Ok(Point3 {
            x: ctx.reader.var_i32()?,
            y: ctx.reader.var_i32()?,
            z: ctx.reader.var_i32()?,
        })
    }
}

impl fory::Serializer for Point3 {
    type Target = Self;

    fn write_data(value: &Self, context: &mut fory::WriteContext) -> Result<(), fory::Error> {
        context.writer.write_var_i32(value.x);
        context.writer.write_var_i32(value.y);
        context.writer.write_var_i32(value.z);
        Ok(())
    }

    fn read_data(context: &mut fory::ReadContext) -> Result<Self, fory::Error> {
        Ok(Point3 {
            x: context.reader.read_var_i32()?,
            y: context.reader.read_var_i32()?,
            z: context.reader.read_var_i32()?,
        })
    }
}

/// A struct with an extension-type field, both crates deriving it.
#[derive(fury::FuryObject, fory::ForyStruct, Debug, Clone, PartialEq, Default)]
#[fury(id = 215)]
pub struct Located {
    pub at: Point3,
    pub name: String,
}

/// The extension values of the rows.
pub fn located() -> (Point3, Located) {
    let p = Point3 {
        x: 3,
        y: -4,
        z: 300,
    };
    (
        p.clone(),
        Located {
            at: p,
            name: "origin📍".into(),
        },
    )
}

/// An `any` field (fury-rs side).
#[derive(fury::FuryObject, Debug)]
#[fury(id = 216)]
pub struct Holder {
    pub value: Box<dyn fury::AnyObject>,
    pub label: String,
}

/// An `any` field (official crate side).
#[derive(fory::ForyStruct)]
pub struct ForyHolder {
    pub value: Box<dyn Any>,
    pub label: String,
}

/// Whether two `any` values hold the same `Pet` or the same `String`.
pub fn same_any(a: &dyn Any, b: &dyn Any) -> bool {
    if let (Some(x), Some(y)) = (a.downcast_ref::<Pet>(), b.downcast_ref::<Pet>()) {
        return x == y;
    }
    if let (Some(x), Some(y)) = (a.downcast_ref::<String>(), b.downcast_ref::<String>()) {
        return x == y;
    }
    false
}

/// The `any` rows: a registered struct, and a string.
pub fn holders() -> Vec<(&'static str, Holder, ForyHolder)> {
    let pet = Pet {
        name: "tom🐈".into(),
        age: 7,
    };
    vec![
        (
            "AnyStruct",
            Holder {
                value: Box::new(pet.clone()),
                label: "l🏷".into(),
            },
            ForyHolder {
                value: Box::new(pet),
                label: "l🏷".into(),
            },
        ),
        (
            "AnyString",
            Holder {
                value: Box::new("text🔤".to_string()),
                label: "l🏷".into(),
            },
            ForyHolder {
                value: Box::new("text🔤".to_string()),
                label: "l🏷".into(),
            },
        ),
    ]
}
