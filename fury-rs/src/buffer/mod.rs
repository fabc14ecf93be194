//! Wire primitives: little-endian fixed-width numbers, varints, tagged 64-bit integers and
//! raw byte runs. [`Writer`] appends to a reusable `Vec<u8>`; [`Reader`] decodes a `&[u8]`
//! with bounds checks on every read.

mod numbers;
mod reader;
mod room;
mod text;
mod utf8;
mod writer;

pub use numbers::LeNumber;

pub use reader::Reader;
pub use room::Room;
pub use text::{ascii_to_string, is_ascii, utf8_to_string};
pub use utf8::is_utf8;
pub use writer::{
    encode_var_u64, var_u32_len, var_u64_len, zigzag32, zigzag64, Writer, MAX_VARINT32_LEN,
    MAX_VARINT64_LEN,
};
