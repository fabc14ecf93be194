use fury::FuryObject;

mod as_int {
    pub type Wire = i64;
    pub fn to_wire(v: &u8) -> i64 {
        *v as i64
    }
    pub fn from_wire(w: i64) -> fury::Result<u8> {
        Ok(w as u8)
    }
}

#[derive(FuryObject)]
struct S {
    #[fury(with = "as_int", encoding = "fixed")]
    a: u8,
}

fn main() {}
