use fury::FuryRow;

#[derive(FuryRow)]
enum NotAStruct {
    A,
}

#[derive(FuryRow)]
struct Tuple(i32);

#[derive(FuryRow)]
#[fury_row(field_order = "random")]
struct BadOrder {
    a: i32,
}

fn main() {}
