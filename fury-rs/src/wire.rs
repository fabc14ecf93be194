//! The wire machinery that hand-written implementations use: the byte [`Reader`] and
//! [`Writer`], the [`ReadContext`] and [`WriteContext`] of one call, and the type ids and
//! reference flags of the format.
//!
//! Derived types never need this module; a type with a serializer of its own (an
//! [`Ext`](crate::Ext), as a peer's custom serializer) writes and reads its payload here:
//!
//! ```
//! use fury::wire::{Reader, TypeId, Writer};
//!
//! let mut out = Vec::new();
//! let mut w = Writer::new(&mut out);
//! w.var_u32(300);
//! w.bytes(b"hi");
//! drop(w); // the writer keeps its length in `out` up to date when it goes
//! assert_eq!(out, [0xac, 0x02, b'h', b'i']);
//!
//! let mut r = Reader::new(&out);
//! assert_eq!(r.var_u32().unwrap(), 300);
//! assert_eq!(r.bytes(2).unwrap(), b"hi");
//! assert_eq!(TypeId::from_u8(21), Some(TypeId::String));
//! ```

pub use crate::buffer::{LeNumber, Reader, Writer};
pub use crate::context::{ReadContext, RefSlot, WriteContext};
pub use crate::types::{RefFlag, TypeId};
