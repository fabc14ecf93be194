use fury::FuryObject;

#[derive(FuryObject)]
enum E {
    A,
    B(i32),
}

fn main() {}
