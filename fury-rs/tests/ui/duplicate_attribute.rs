use fury::FuryObject;

#[derive(FuryObject)]
struct S {
    #[fury(id = 1, id = 2)]
    a: i32,
}

fn main() {}
