use fury::FuryRow;

// Written out, these are refused by the derive, each at its span, naming i64.
#[derive(FuryRow)]
struct Unsigned64 {
    id: u64,
    sizes: Vec<usize>,
    big: Option<i128>,
}

// A tuple of mixed types (and a type alias of u64) meets the trait's message.
type Id = u64;

#[derive(FuryRow)]
struct Mixed {
    pair: (i32, String),
    id: Id,
}

fn main() {}
