#[derive(fury::FuryObject)]
struct S {
    #[fury(form = "fory")]
    name: String,
    #[fury(form = "official")]
    data: Vec<u8>,
}

fn main() {}
