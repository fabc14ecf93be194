// A union carries one value per case: a variant with two fields, one with named fields, two
// `unknown` variants and a duplicate case id are all reported.
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
    Square(f64),
}

fn main() {}
