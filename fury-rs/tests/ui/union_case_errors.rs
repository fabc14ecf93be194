// Variants of every shape derive (several fields go into a case struct), but two `unknown`
// variants, a duplicate case id and an attribute on the field of a one-value variant (whose
// value is written whole) are all reported.
#[derive(fury::FuryObject)]
#[fury(id = 1)]
enum Shape {
    Point(f64, f64),
    Circle { r: f64 },
    #[fury(unknown)]
    A(fury::UnknownCase),
    #[fury(unknown)]
    B(fury::UnknownCase),
    #[fury(id = 1)]
    Line(f64),
    Square(#[fury(encoding = "fixed")] u32),
}

fn main() {}
