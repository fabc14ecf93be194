use fury::FuryObject;

#[derive(FuryObject)]
struct S {
    #[fury(skip, nullable, id = 9)]
    a: i32,
}

fn main() {}
