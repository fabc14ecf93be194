//! Prints the bytes the official `fory` 1.7.7 crate writes for a union, for the comparison in
//! spec/DISAGREEMENTS.md §44 (the same shapes as conformance/vectors/union).

#[derive(fory::ForyStruct, Debug, Clone, PartialEq, Default)]
struct Dog {
    #[fory(id = 1)]
    name: String,
    #[fory(id = 2)]
    age: i32,
}

#[derive(fory::ForyUnion, Debug, Clone, PartialEq)]
enum Animal {
    #[fory(unknown)]
    Unknown(fory::UnknownCase),
    #[fory(id = 1, default)]
    Dog(Dog),
    #[fory(id = 3)]
    Label(String),
}

impl Default for Animal {
    fn default() -> Self {
        Animal::Dog(Dog::default())
    }
}

fn main() {
    for compatible in [false, true] {
        let mut f = fory::Fory::builder()
            .xlang(true)
            .compatible(compatible)
            .build();
        f.register_union::<Animal>(300).unwrap();
        f.register::<Dog>(301).unwrap();
        for v in [
            Animal::Dog(Dog {
                name: "rex".into(),
                age: 3,
            }),
            Animal::Label("hi".into()),
        ] {
            let bytes = f.serialize(&v).unwrap();
            let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
            println!("compatible={compatible} {v:?}: {hex}");
        }
    }
}
