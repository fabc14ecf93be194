use fury::FuryObject;

#[derive(FuryObject)]
struct S {
    #[fury(id = 1)]
    a: i32,
    #[fury(id = 1)]
    b: i32,
}

fn main() {}
