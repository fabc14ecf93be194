//! Dynamic values: any stream decoded without knowing its shape, as [`Value`] (owned) or
//! [`ValueRef`] (borrowing from the input).
//!
//! Both are [`DynamicValue`], generic over the [`Form`] that holds text, byte strings and
//! numeric arrays ([`Owned`], [`Borrowed`]); structs are [`DynamicStruct`] ([`StructValue`],
//! [`StructRef`]), enums [`EnumValue`] and unions [`UnionValue`] ([`UnionRef`]). This module
//! holds the data types only: they are read and written by `serializer::dynamic`, one
//! implementation for both forms.
//!
//! ```
//! use fury::value::{DynamicValue, Owned};
//! use fury::Value;
//!
//! let v: DynamicValue<Owned> = Value::List(vec![Value::from(1i32), Value::from("a")]);
//! assert_eq!(v.type_id().name(), "LIST");
//! ```

mod dynamic;
mod form;
mod user_type;

pub use dynamic::{
    DynamicStruct, DynamicValue, StructRef, StructValue, UnionRef, UnionValue, Value, ValueRef,
};
pub use form::{ArrayData, Borrowed, Elements, Form, Owned};
pub use user_type::EnumValue;
pub(crate) use user_type::{registration_name, DynType};
