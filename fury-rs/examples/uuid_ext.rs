//! A type of another crate (`uuid::Uuid`) as an extension type, byte-compatible with a
//! pyfory custom serializer for Python's `uuid.UUID` that writes the 16 bytes:
//!
//! ```python
//! class UuidSerializer(pyfory.serializer.Serializer):
//!     def write(self, write_context, value): write_context.write_bytes(value.bytes)
//!     def read(self, read_context): return uuid.UUID(bytes=read_context.read_bytes(16))
//!     xwrite, xread = write, read
//! f.register_type(uuid.UUID, type_id=410, serializer=UuidSerializer(f.type_resolver, uuid.UUID))
//! ```
//!
//! With the feature `uuid`, a `uuid::Uuid` field is BINARY by default (its 16 bytes, which
//! Python reads as `bytes`); this example is for a Python side that wants `uuid.UUID`
//! objects. Rust's orphan rule keeps `impl fury::Ext for uuid::Uuid` out of your crate, so
//! the extension type is a newtype you own, and fields of the foreign type go through it
//! with `#[fury(with = "...")]`.
//!
//!     cargo run -p fury --features uuid --example uuid_ext
//!
//! The expected bytes are printed by `conformance/examples/uuid_ext.py` (pyfory 1.7.7).

use fury::wire::{ReadContext, WriteContext};
use fury::{Ext, Fury, FuryObject};
use uuid::Uuid;

/// The extension type: EXT 410, the 16 bytes of the UUID.
#[derive(FuryObject, Debug, PartialEq)]
#[fury(ext, id = 410)]
struct WireUuid(Uuid);

impl Ext for WireUuid {
    fn write_ext(&self, ctx: &mut WriteContext) -> fury::Result<()> {
        ctx.writer.bytes(self.0.as_bytes());
        Ok(())
    }
    fn read_ext(ctx: &mut ReadContext<'_, '_>) -> fury::Result<Self> {
        let b: [u8; 16] = ctx.reader.bytes(16)?.try_into().map_err(|_| {
            fury::Error::new(fury::ErrorKind::Invalid {
                what: "a UUID is 16 bytes".to_string(),
            })
        })?;
        Ok(WireUuid(Uuid::from_bytes(b)))
    }
}

/// The conversion module `#[fury(with)]` uses for `Uuid` fields.
mod uuid_field {
    pub type Wire = super::WireUuid;
    pub fn to_wire(u: &uuid::Uuid) -> super::WireUuid {
        super::WireUuid(*u)
    }
    pub fn from_wire(w: super::WireUuid) -> fury::Result<uuid::Uuid> {
        Ok(w.0)
    }
}

/// A model as Rust users write it: a plain `Uuid` field.
#[derive(FuryObject, Debug, PartialEq)]
#[fury(id = 411)]
struct Order {
    #[fury(with = "uuid_field")]
    id: Uuid,
    note: String,
}

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .filter_map(|i| s.get(i..i + 2).and_then(|b| u8::from_str_radix(b, 16).ok()))
        .collect()
}

fn main() -> fury::Result<()> {
    let id = Uuid::from_u128(0x12345678_9abc_def0_1234_56789abcdef0);
    // pyfory 1.7.7's bytes for the UUID and for Order(id, "n") (a dataclass registered as 411),
    // same-schema then compatible mode.
    let cases = [
        (
            false,
            "01ff1f9a03123456789abcdef0123456789abcdef0",
            "01ff1b9b0345ea5189123456789abcdef0123456789abcdef0046e",
        ),
        (
            true,
            "01ff1f9a03123456789abcdef0123456789abcdef0",
            "01ff1c000c20586b380d176dc29b03441fa060481535d3201f9a03123456789abcdef0123456789abcdef0046e",
        ),
    ];
    for (compatible, root, order) in cases {
        let mut fury = Fury::builder().compatible(compatible).build();
        fury.register::<WireUuid>()?;
        fury.register::<Order>()?;
        assert_eq!(fury.serialize(&WireUuid(id))?, unhex(root));
        assert_eq!(fury.deserialize::<WireUuid>(&unhex(root))?, WireUuid(id));
        let o = Order {
            id,
            note: "n".into(),
        };
        assert_eq!(fury.serialize(&o)?, unhex(order));
        assert_eq!(fury.deserialize::<Order>(&unhex(order))?, o);
        println!(
            "compatible={compatible}: {o:?} is pyfory's {} bytes",
            order.len() / 2
        );
    }
    Ok(())
}
