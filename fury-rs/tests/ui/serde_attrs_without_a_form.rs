// serde attributes with no form in the xlang format: each is an error that says what to do.
#[derive(fury::FuryObject)]
#[fury(id = 1, tag = "type")]
enum Tagged {
    A(i32),
}

#[derive(fury::FuryObject)]
#[fury(id = 2, untagged)]
enum Untagged {
    A(i32),
}

#[derive(fury::FuryObject)]
#[fury(id = 3, rename_all = "Title Case")]
struct Inner {
    #[fury(flatten)]
    a: Vec<u8>,
    #[fury(skip_serializing_if = "Option::is_none")]
    b: Option<i32>,
}

fn main() {}
