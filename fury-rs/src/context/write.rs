//! The write context's settings, nesting depth and lengths.

use super::{Depth, WriteContext, SHARED_INLINE};
use crate::buffer::Writer;
use crate::config::Config;
use crate::error::{Error, ErrorKind, Result};
use crate::registry::Registry;

/// The error for a length that does not fit a varuint32.
#[cold]
#[inline(never)]
pub(super) fn length_too_large(len: usize) -> Error {
    Error::new(ErrorKind::LengthTooLarge {
        what: "collection or byte run",
        declared: len as u64,
        limit: u32::MAX as u64,
    })
}

impl<'a> WriteContext<'a> {
    /// A context appending to `out`.
    pub(crate) fn new(out: &'a mut Vec<u8>, registry: &'a Registry, config: &'a Config) -> Self {
        WriteContext {
            writer: Writer::new(out),
            registry,
            config,
            depth: Depth {
                depth: 0,
                max: config.max_depth,
            },
            shared_types: [0; SHARED_INLINE],
            shared_len: 0,
            next_ref: 0,
            extra: None,
            oob: None,
            direct_memo: None,
            untracked_elements: false,
        }
    }

    /// Whether the list or map being written is a `#[fury(untracked_elements)]` field's
    /// (clears the mark, so the collections inside its elements are written as usual).
    #[inline]
    pub(crate) fn take_untracked_elements(&mut self) -> bool {
        std::mem::take(&mut self.untracked_elements)
    }

    /// Writes the payload of a BINARY: in a stream with out-of-band buffers, the in-band
    /// flag `01` before the length and bytes, or `00` alone for bytes that went out of band.
    #[inline]
    pub(crate) fn binary(&mut self, bytes: &[u8]) -> Result<()> {
        if let Some(oob) = self.oob.as_mut() {
            if oob.take(bytes) {
                self.writer.u8(0);
                return Ok(());
            }
            self.writer.u8(1);
        }
        self.length(bytes.len())?;
        self.writer.bytes(bytes);
        Ok(())
    }

    /// The registered user types.
    #[inline]
    pub fn registry(&self) -> &'a Registry {
        self.registry
    }

    /// Whether i32/u32/i64/u64 struct fields default to varints.
    #[inline]
    pub fn compress_int(&self) -> bool {
        self.config.compress_int
    }

    /// Whether structs use the compatible (schema-evolution) layout.
    #[inline]
    pub fn compatible(&self) -> bool {
        self.config.compatible
    }

    /// Enters one level of nesting (a container or struct body).
    #[inline]
    pub fn enter(&mut self) -> Result<()> {
        let tracking = self.config.ref_tracking;
        self.depth.enter().map_err(|k| depth_error(k, tracking))
    }

    /// Leaves one level of nesting.
    #[inline]
    pub fn leave(&mut self) {
        self.depth.leave();
    }

    /// Whether reference tracking is on.
    #[inline]
    pub fn ref_tracking(&self) -> bool {
        self.config.ref_tracking
    }

    /// Writes a length as varuint32, failing for lengths above `u32::MAX`.
    #[inline(always)]
    pub(crate) fn length(&mut self, len: usize) -> Result<()> {
        match u32::try_from(len) {
            Ok(n) => {
                self.writer.var_u32(n);
                Ok(())
            }
            Err(_) => Err(length_too_large(len)),
        }
    }
}

/// The depth error of a writer: without reference tracking, the likely cause is a cycle,
/// which only tracking can write.
#[cold]
fn depth_error(kind: ErrorKind, tracking: bool) -> Error {
    let e = Error::new(kind);
    if tracking {
        return e;
    }
    e.with_hint(
        "if the value is cyclic (an Rc or Arc that reaches itself), build the Fury with \
         ref_tracking(true), which writes a shared value once and then back references to it",
    )
}
