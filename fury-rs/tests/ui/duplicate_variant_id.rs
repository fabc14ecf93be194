use fury::FuryObject;

#[derive(FuryObject)]
enum E {
    #[fury(id = 1)]
    A,
    B,
}

fn main() {}
