use fury::FuryObject;

#[derive(FuryObject)]
struct S {
    #[fury(encoding = "fixed")]
    name: String,
}

fn main() {}
