use fury::FuryObject;

#[derive(FuryObject)]
struct S {
    #[fury(encoding = "tagged")]
    n: i32,
}

fn main() {}
