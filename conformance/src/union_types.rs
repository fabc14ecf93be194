//! The union of the union group (`vectors/union/union.json`, written by pyfory 1.7.7):
//! `Animal` (id 300) with the cases dog, cat, label and nothing, and its struct cases. One
//! definition for the union tests, the testee and the rejection vectors.

use fury::FuryObject;

/// Case 1 of [`Animal`].
#[derive(FuryObject, Debug, Clone, PartialEq)]
#[fury(id = 301)]
pub struct Dog {
    #[fury(id = 1)]
    pub name: String,
    #[fury(id = 2)]
    pub age: i32,
}

/// Case 2 of [`Animal`].
#[derive(FuryObject, Debug, Clone, PartialEq)]
#[fury(id = 302)]
pub struct Cat {
    #[fury(id = 1)]
    pub name: String,
    #[fury(id = 2)]
    pub lives: i32,
}

/// Cases 1 to 4 by position; case 4 is empty.
#[derive(FuryObject, Debug, Clone, PartialEq)]
#[fury(id = 300)]
pub enum Animal {
    Dog(Dog),
    Cat(Cat),
    Label(String),
    Nothing,
}
