//! Type metadata shared across the messages of one connection: with a [`WriteMeta`] on the
//! sending side and a [`ReadMeta`] on the receiving side, each TypeDef and each name of a
//! named type crosses the connection once, and later messages name it with one byte.
//!
//! pyfory 1.7.7 and the official crate reset this state after every message, so sharing is
//! for fury-rs on both ends; without it every message is a plain stream any peer reads. The
//! tokio codec turns it on with [`FuryCodec::share_meta`](crate::frame::FuryCodec) (feature
//! `tokio`).
//!
//! ```
//! use fury::connection::{ReadMeta, WriteMeta};
//! use fury::{Fury, FuryObject};
//!
//! #[derive(FuryObject, Debug, PartialEq)]
//! #[fury(id = 100)]
//! struct Order {
//!     id: u64,
//!     item: String,
//! }
//!
//! let mut fury = Fury::default(); // compatible mode: each struct has a TypeDef
//! fury.register::<Order>()?;
//! let (mut send, mut recv) = (WriteMeta::new(), ReadMeta::new());
//! let mut sizes = Vec::new();
//! for id in 0..2 {
//!     let mut msg = Vec::new();
//!     fury.serialize_with_meta(&Order { id, item: "tea".into() }, &mut msg, &mut send)?;
//!     let back: Order = fury.deserialize_with_meta(&msg, &mut recv)?;
//!     assert_eq!(back.id, id);
//!     sizes.push(msg.len());
//! }
//! assert!(sizes[1] < sizes[0]); // the second message names the TypeDef by number
//! # Ok::<(), fury::Error>(())
//! ```

pub use crate::context::{
    ReadMeta, WriteMeta, DEFAULT_CONNECTION_TYPEDEF_BYTES, MAX_CONNECTION_META_STRINGS,
    MAX_CONNECTION_TYPEDEFS,
};
