use fury::FuryObject;

#[derive(FuryObject)]
#[fury(transparent)]
struct S(i32, String);

fn main() {}
