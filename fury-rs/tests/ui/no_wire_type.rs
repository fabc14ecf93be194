use fury::FuryObject;

#[derive(FuryObject)]
struct S {
    big: u128,
    letter: Option<char>,
}

fn main() {}
