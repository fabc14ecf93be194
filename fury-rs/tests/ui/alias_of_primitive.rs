use fury::FuryObject;

type Meters = f64;

#[derive(FuryObject)]
struct S {
    length: Meters,
}

fn main() {}
