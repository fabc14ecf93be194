//! The serde attributes this format can honour: container `rename_all` (serde's case names)
//! and field `alias` (other names a peer's field may have, matched in compatible mode). The
//! ones it cannot (`flatten`, `skip_serializing_if`, `tag`, ...) are compile errors saying
//! what to do instead (tests/ui/serde_attrs_without_a_form.rs).

use fury::registry::{case_struct_registration, Registration};
use fury::{Fury, FuryObject};

#[derive(FuryObject, Debug, PartialEq)]
#[fury(id = 500, rename_all = "camelCase")]
struct Person {
    home_town: String,
    #[fury(rename = "years")]
    age_in_years: i32,
}

/// `Person` with the names spelled out.
#[derive(FuryObject, Debug, PartialEq)]
#[fury(id = 500)]
struct PersonSpelled {
    #[fury(rename = "homeTown")]
    home_town: String,
    #[fury(rename = "years")]
    age_in_years: i32,
}

#[test]
fn rename_all_names_fields_as_rename_would() {
    for compatible in [true, false] {
        let mut a = Fury::builder().compatible(compatible).build();
        a.register::<Person>().unwrap();
        let mut b = Fury::builder().compatible(compatible).build();
        b.register::<PersonSpelled>().unwrap();
        let p = Person {
            home_town: "Oslo".into(),
            age_in_years: 9,
        };
        let q = PersonSpelled {
            home_town: "Oslo".into(),
            age_in_years: 9,
        };
        assert_eq!(a.serialize(&p).unwrap(), b.serialize(&q).unwrap());
    }
    let fury = {
        let mut f = Fury::default();
        f.register::<Person>().unwrap();
        f
    };
    let td = fury
        .registry()
        .get::<Person>()
        .unwrap()
        .local_typedef(fury.registry(), true)
        .unwrap();
    let names: Vec<String> = td.fields.iter().map(|f| format!("{:?}", f.id)).collect();
    assert!(names.iter().any(|n| n.contains("homeTown")), "{names:?}");
}

/// On an enum, `rename_all` renames the variants: the names its case structs take.
#[derive(FuryObject, Debug, PartialEq)]
#[fury(id = 510, rename_all = "snake_case")]
enum Stock {
    InStock { qty: u32, bin: u32 },
    Gone,
}

#[test]
fn rename_all_on_an_enum_renames_the_variants_for_its_case_structs() {
    let mut fury = Fury::default();
    fury.register::<Stock>().unwrap();
    let want = case_struct_registration(&Registration::Id(510), "in_stock");
    assert!(fury.registry().iter().any(|e| e.registration == want));
    let v = Stock::InStock { qty: 3, bin: 4 };
    let bytes = fury.serialize(&v).unwrap();
    assert_eq!(fury.deserialize::<Stock>(&bytes).unwrap(), v);
}

#[derive(FuryObject, Debug, PartialEq)]
#[fury(id = 520)]
struct ItemV1 {
    title: String,
    qty: i32,
}

#[derive(FuryObject, Debug, PartialEq)]
#[fury(id = 520)]
struct ItemV2 {
    #[fury(alias = "title", alias = "heading")]
    name: String,
    qty: i32,
}

#[test]
fn an_alias_matches_a_peers_field_of_the_old_name() {
    let mut old = Fury::default();
    old.register::<ItemV1>().unwrap();
    let mut new = Fury::default();
    new.register::<ItemV2>().unwrap();
    let bytes = old
        .serialize(&ItemV1 {
            title: "tea".into(),
            qty: 2,
        })
        .unwrap();
    let got: ItemV2 = new.deserialize(&bytes).unwrap();
    assert_eq!(
        got,
        ItemV2 {
            name: "tea".into(),
            qty: 2
        }
    );
}
