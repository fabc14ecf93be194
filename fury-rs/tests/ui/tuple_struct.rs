use fury::FuryObject;

#[derive(FuryObject)]
struct S(i32, i32);

fn main() {}
