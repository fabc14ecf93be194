//! Reading and writing dynamic values ([`Value`](crate::Value), [`ValueRef`](crate::ValueRef)):
//! one implementation for both forms of [`DynamicValue`](crate::value::DynamicValue), generic
//! over what differs between them ([`form::ReadForm`]: how leaves are read, where a copy for
//! back references is kept).
//!
//! * `read`: the `Deserialize` impl, structs from their TypeDef, reference renumbering;
//! * `write`: the `Serialize` impl, reference flags;
//! * `leaf`: numbers, text, bytes, time values, decimals and dense arrays;
//! * `structs`: a struct's type info and body, each field as its TypeDef declares it;
//! * `user_types`: the type info of enums and unions.

mod form;
mod leaf;
mod read;
mod structs;
mod user_types;
mod write;
