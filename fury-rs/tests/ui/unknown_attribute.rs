use fury::FuryObject;

#[derive(FuryObject)]
struct S {
    #[fury(colour = "red")]
    a: i32,
}

fn main() {}
