//! Wire primitives: little-endian fixed-width numbers, varints, tagged 64-bit integers and
//! raw byte runs. [`Writer`] appends to a reusable `Vec<u8>`; [`Reader`] decodes a `&[u8]`
//! with bounds checks on every read.

mod array_view;
mod numbers;
mod reader;
mod reserved;
mod text;
mod utf8;
mod writer;

pub use array_view::{ArrayView, ViewElement};
pub(crate) use numbers::bytes_as_i8;
pub use numbers::LeNumber;
pub use reader::Reader;
pub use reserved::Room;
pub(crate) use text::is_ascii;
pub(crate) use text::{ascii_str, utf8_str};
pub use text::{ascii_to_string, utf8_to_string};
pub(crate) use utf8::is_utf8;
#[cfg(test)]
pub(crate) use writer::var_u32_len;
pub(crate) use writer::zigzag64;
pub use writer::{encode_var_u64, Writer, MAX_VARINT64_LEN};

#[cfg(test)]
mod tests;
