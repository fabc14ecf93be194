use fury::FuryObject;

#[derive(FuryObject)]
#[fury(id = 1, name = "S")]
struct S {
    #[fury(encoding = "fixed")]
    a: String,
    #[fury(rename = "x", rename = "y")]
    b: i32,
    #[fury(nullable)]
    c: Option<i32>,
}

fn main() {}
