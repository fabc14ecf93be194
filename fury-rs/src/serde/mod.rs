//! serde types over the xlang format, without a second derive (feature `serde`).
//!
//! A struct that derives only serde's `Serialize` and `Deserialize` is registered with
//! [`Fury::register_serde`](crate::Fury::register_serde) (or `_by_id` / `_by_name`) and
//! written and read through the wrapper [`Serde`]. Registration traces the type with
//! serde-reflection, once, and builds the layout `#[derive(FuryObject)]` would build for the
//! same struct: field order, schema hash and TypeDef, so the bytes are the derive's, in both
//! modes, and pyfory reads them as it reads the derive's.
//!
//! ```
//! use fury::serde::Serde;
//! use serde::{Deserialize, Serialize};
//!
//! #[derive(Serialize, Deserialize, Debug, PartialEq)]
//! struct Order {
//!     id: u64,
//!     customer: String,
//!     lines: Vec<Line>,
//!     note: Option<String>,
//! }
//!
//! #[derive(Serialize, Deserialize, Debug, PartialEq)]
//! struct Line {
//!     sku: String,
//!     count: u32,
//! }
//!
//! let mut fury = fury::Fury::builder().compatible(true).build();
//! fury.register_serde_by_id::<Line>(21)?;
//! fury.register_serde_by_id::<Order>(20)?;
//! let order = Order {
//!     id: 7,
//!     customer: "Ada".into(),
//!     lines: vec![Line { sku: "tea".into(), count: 2 }],
//!     note: None,
//! };
//! let bytes = fury.serialize(&Serde(&order))?;
//! let back: Serde<Order> = fury.deserialize(&bytes)?;
//! assert_eq!(back.0, order);
//! # Ok::<(), fury::Error>(())
//! ```
//!
//! # What a serde type may hold
//!
//! Fields of `bool`, the integers up to 64 bits, `f32`, `f64`, `String` (or `&str`,
//! `Cow<str>`, borrowed from the input when it is UTF-8 on the wire; `&[u8]` borrowed too),
//! `Option<T>`, `Vec<T>` (a dense array for numbers and bools, BINARY for `u8`, else a
//! LIST), maps, other serde
//! structs with named fields, unit-only enums (ENUM) and enums with data (tagged unions: a
//! unit variant is an empty case, a newtype variant holds its value, a struct variant a case
//! struct), each mapped as the derive maps the same Rust type. serde's `rename`, `rename_all`, `skip` and `default` take effect as on the
//! derive: the name serde uses is the name on the wire.
//!
//! Tuple structs and tuple variants are structs with fields `_0`, `_1`, ... as for the derive
//! (a newtype struct too; `#[serde(transparent)]` is the inner value). serde reads their
//! fields in declaration order, while the wire puts primitives first (`Line(String, u32)`
//! has the `u32` first) and sorts the others by name (`_10` before `_2`): a field the wire
//! has before its place is read ahead, which a number, bool, unit-only enum, string, bytes
//! or number array (or an `Option` of one) can be, among the first 32 fields. A tuple struct
//! that would need a list, map or struct read ahead is refused (give it named fields), and
//! so is, when read, a peer's TypeDef that orders its fields otherwise.
//!
//! Fixed-size arrays and tuples of strings are lists of strings, as for the derive. serde
//! hands over `[T; N]` and a tuple of one type alike, while the derive writes numbers in an
//! array densely and in a tuple as a list: arrays and tuples of anything else are refused
//! (use a `Vec` or a struct).
//!
//! Refused at registration, with the field path: tuples of mixed types, unit structs,
//! `char`, 128-bit integers, `Option` as a union case, `()`, `#[serde(flatten)]`, untagged or
//! internally tagged enums (what serde-reflection cannot trace as a struct or enum), and
//! reference tracking on the `Fury`. A field serde skips with `skip_serializing_if` is written as its
//! type's empty value (`None`, `0`, `""`, an empty collection: what the usual predicates
//! skip), since every xlang field is on the wire; a struct or enum field has none (an error
//! when serializing: make it an `Option`).
//!
//! A nested enum is traced completely only on its own: register every enum a struct holds
//! before the struct (`register_serde::<Color>()`), or registration says which one to add.
//! A type reached from a registered one and not registered itself is registered by name: the
//! serde name of the type, in the namespace of the type that reaches it.
//!
//! Compatible mode reads a peer's TypeDef field by field: fields are matched by name, unknown
//! ones skipped, and a missing one is left to serde: `Option` fields become `None`, fields
//! with `#[serde(default)]` take their default, and any other is serde's "missing field"
//! error. A field whose declared type differs from the local one is an error (the derive's
//! conversions between integer widths and list forms are not made).

pub(crate) mod de;
pub(crate) mod ser;
pub(crate) mod shape;

use crate::context::{ReadContext, WriteContext};
use crate::error::{Error, ErrorKind, Result};
use crate::registry::Registration;
use crate::serializer::{Deserialize, Serialize, WireType};
use crate::types::{RefFlag, TypeId};
use crate::Fury;

/// A value of a serde type, written and read by the layout traced at its registration (see
/// the [module documentation](self)).
///
/// Serialize a borrowed value (`Serde(&value)`) or an owned one; deserialize into
/// `Serde<T>` and take `.0`.
///
/// ```
/// use fury::serde::Serde;
/// #[derive(serde::Serialize, serde::Deserialize, Debug, PartialEq)]
/// struct Point { x: i32, y: i32 }
///
/// let mut fury = fury::Fury::builder().compatible(false).build();
/// fury.register_serde::<Point>()?;
/// let bytes = fury.serialize(&Serde(Point { x: 1, y: 2 }))?;
/// assert_eq!(fury.deserialize::<Serde<Point>>(&bytes)?.0, Point { x: 1, y: 2 });
/// # Ok::<(), fury::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Serde<T>(pub T);

/// The registry key of a serde type: its Rust name without the references a caller may have
/// wrapped it in (`Serde(&value)`).
fn rust_key<T: ?Sized>() -> &'static str {
    let mut name = std::any::type_name::<T>();
    while let Some(rest) = name
        .strip_prefix("&mut ")
        .or_else(|| name.strip_prefix('&'))
    {
        name = rest;
    }
    name
}

/// The traced root of `T`. `T`'s own name is looked up first: registration adds `T`, `&T`
/// and `&mut T`, the forms `Serde` wraps, so that the usual lookup is one probe that the
/// name's address settles. Other wrappings are looked up without their references.
#[inline]
fn root_of<T: ?Sized>(table: &shape::Table) -> Result<(usize, &shape::TyDef)> {
    match table.root(std::any::type_name::<T>()) {
        Some(found) => Ok(found),
        None => table.root(rust_key::<T>()).ok_or_else(unregistered::<T>),
    }
}

fn unregistered<T: ?Sized>() -> Error {
    Error::new(ErrorKind::Invalid {
        what: format!(
            "serde type {} is not registered (call Fury::register_serde first)",
            rust_key::<T>()
        ),
    })
}

impl<T> WireType for Serde<T> {
    const TYPE_ID: TypeId = TypeId::Struct;
    const REF_TYPE: bool = true;
    const POLYMORPHIC: bool = true;
}

impl<T: ::serde::Serialize> Serialize for Serde<T> {
    fn write_type_info(&self, ctx: &mut WriteContext) -> Result<()> {
        let table = shape::table(ctx.registry());
        let (i, _) = root_of::<T>(table)?;
        ser::write_type_info(&mut ser::W { ctx, table }, i)
    }

    fn write_data(&self, ctx: &mut WriteContext) -> Result<()> {
        let table = shape::table(ctx.registry());
        let (i, _) = root_of::<T>(table)?;
        ser::write_payload(
            &mut ser::W { ctx, table },
            &table.shape_of(i),
            false,
            &self.0,
        )
    }

    fn write_stream(&self, ctx: &mut WriteContext) -> Result<()> {
        let table = shape::table(ctx.registry());
        let (i, t) = root_of::<T>(table)?;
        // The shapes of user types own nothing: no drop to run.
        let shape = std::mem::ManuallyDrop::new(table.shape_of(i));
        // Header, flag and type info in one go where the derive's root takes that shortcut.
        let prefixed = match ctx.registry().at(t.entry) {
            Some(entry) if !ctx.ref_tracking() => {
                crate::serializer::object::write_entry_stream_prefix(ctx, entry, entry.kind)?
            }
            _ => false,
        };
        let mut w = ser::W { ctx, table };
        if !prefixed {
            w.ctx.writer.u8(crate::types::header::XLANG);
            w.ctx.ref_flag(RefFlag::NotNull);
            ser::write_type_info(&mut w, i)?;
        }
        ser::write_payload(&mut w, &shape, false, &self.0)
    }
}

impl<'de, T: ::serde::Deserialize<'de>> Deserialize<'de> for Serde<T> {
    fn read_data(ctx: &mut ReadContext<'de, '_>) -> Result<Self> {
        Err(ctx.error(ErrorKind::Unsupported {
            what: format!(
                "Serde<{}> is read as the root of a stream only",
                rust_key::<T>()
            ),
        }))
    }

    fn read_root(ctx: &mut ReadContext<'de, '_>) -> Result<Self> {
        let table = shape::table(ctx.registry());
        let (i, t) = root_of::<T>(table)?;
        let at = ctx.reader.position();
        match ctx.ref_flag()? {
            RefFlag::NotNull | RefFlag::RefValue => {}
            flag => {
                return Err(Error::at(
                    ErrorKind::TypeMismatch {
                        expected: format!("a {} value", t.name),
                        found: format!("{flag:?}"),
                    },
                    at,
                ))
            }
        }
        // The shapes of user types own nothing: no drop to run.
        let shape = std::mem::ManuallyDrop::new(table.shape_of(i));
        // The type info this side writes for it, taken whole where the derive's root does.
        let prepared = ctx
            .registry()
            .at(t.entry)
            .filter(|e| !(e.kind == crate::registry::UserKind::Struct && ctx.compatible()))
            .and_then(|e| e.id_info);
        let mut r = de::R { ctx, table };
        let def = match prepared {
            Some((word, n)) if r.ctx.reader.take_prefix(word, usize::from(n)) => None,
            _ => de::read_type_info(&mut r, i)?,
        };
        let payload = de::PayloadDe {
            r: &mut r,
            shape: &shape,
            fixed: false,
            def,
        };
        T::deserialize(payload).map(Serde)
    }
}

impl ::serde::ser::Error for Error {
    fn custom<M: std::fmt::Display>(msg: M) -> Self {
        Error::new(ErrorKind::Invalid {
            what: msg.to_string(),
        })
    }
}

impl ::serde::de::Error for Error {
    fn custom<M: std::fmt::Display>(msg: M) -> Self {
        Error::new(ErrorKind::Invalid {
            what: msg.to_string(),
        })
    }

    fn missing_field(field: &'static str) -> Self {
        Error::new(ErrorKind::MissingField {
            ty: de::MISSING_IN.to_string(),
            field: field.to_string(),
        })
    }
}

fn trace<T: ::serde::Deserialize<'static>>(
    tracer: &mut serde_reflection::Tracer,
    samples: &'static serde_reflection::Samples,
) -> serde_reflection::Result<()> {
    tracer.trace_type::<T>(samples).map(|_| ())
}

/// What a tracing error means for a serde type.
fn trace_error(e: &serde_reflection::Error) -> String {
    use serde_reflection::Error as E;
    match e {
        E::NotSupported(what) => format!(
            "serde-reflection cannot trace it ({what}): `#[serde(flatten)]`, untagged and \
             internally tagged enums and other attributes of self-describing formats have no \
             xlang form"
        ),
        E::Custom(_) | E::DeserializationError(_) | E::UnexpectedDeserializationFormat(..) => {
            format!(
                "{e}: its Deserialize refused a value made up for tracing; give a sample of \
                 the type that refuses it with Fury::add_serde_sample"
            )
        }
        e => e.to_string(),
    }
}

/// A tracer that uses the recorded samples of structs (the default uses them only for
/// newtype and tuple structs).
fn tracer() -> serde_reflection::Tracer {
    serde_reflection::Tracer::new(
        serde_reflection::TracerConfig::default().record_samples_for_structs(true),
    )
}

fn no_samples() -> &'static serde_reflection::Samples {
    static EMPTY: std::sync::OnceLock<serde_reflection::Samples> = std::sync::OnceLock::new();
    EMPTY.get_or_init(serde_reflection::Samples::new)
}

impl Fury {
    /// Registers the serde type `T` (a struct with named fields, or a unit-only enum) by its
    /// serde name, in the empty namespace, with the types it reaches (see the
    /// [`serde` module](crate::serde)).
    ///
    /// ```
    /// #[derive(serde::Serialize, serde::Deserialize)]
    /// struct Point { x: i32, y: i32 }
    /// let mut fury = fury::Fury::default();
    /// fury.register_serde::<Point>()?;
    /// # Ok::<(), fury::Error>(())
    /// ```
    pub fn register_serde<T>(&mut self) -> Result<&mut Self>
    where
        T: ::serde::Serialize + ::serde::Deserialize<'static>,
    {
        self.register_serde_as::<T>(None)
    }

    /// Registers the serde type `T` under a numeric user type id (see
    /// [`Fury::register_serde`]).
    pub fn register_serde_by_id<T>(&mut self, id: u32) -> Result<&mut Self>
    where
        T: ::serde::Serialize + ::serde::Deserialize<'static>,
    {
        self.register_serde_as::<T>(Some(Registration::Id(id)))
    }

    /// Registers the serde type `T` under a namespace (may be empty) and type name (see
    /// [`Fury::register_serde`]).
    pub fn register_serde_by_name<T>(
        &mut self,
        namespace: &str,
        type_name: &str,
    ) -> Result<&mut Self>
    where
        T: ::serde::Serialize + ::serde::Deserialize<'static>,
    {
        self.register_serde_as::<T>(Some(Registration::Name {
            namespace: namespace.to_string(),
            type_name: type_name.to_string(),
        }))
    }

    /// Gives serde-reflection a value to trace with: a type whose `Deserialize` refuses the
    /// values tracing makes up (a struct that validates its fields, say) is traced from a
    /// sample instead. Add the samples before registering the types that hold them. Samples
    /// are kept for the rest of the process (serde-reflection borrows them for every type
    /// traced), so give them at start-up, not per request.
    ///
    /// ```
    /// use serde::{de, Deserialize, Deserializer, Serialize};
    ///
    /// /// A percentage: `Deserialize` refuses values above 100.
    /// #[derive(Serialize, Debug, PartialEq)]
    /// struct Percent { value: u8 }
    ///
    /// impl<'de> Deserialize<'de> for Percent {
    ///     fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
    ///         #[derive(Deserialize)]
    ///         #[serde(rename = "Percent")]
    ///         struct Raw { value: u8 }
    ///         let raw = Raw::deserialize(d)?;
    ///         if raw.value > 100 || raw.value == 0 {
    ///             return Err(de::Error::custom("not a percentage in 1..=100"));
    ///         }
    ///         Ok(Percent { value: raw.value })
    ///     }
    /// }
    ///
    /// #[derive(Serialize, Deserialize, Debug, PartialEq)]
    /// struct Progress { done: Percent }
    ///
    /// let mut fury = fury::Fury::builder().compatible(false).build();
    /// // Tracing makes up a value 0, which `Percent` refuses.
    /// assert!(fury.register_serde::<Progress>().is_err());
    /// fury.add_serde_sample(Percent { value: 50 })?;
    /// fury.register_serde::<Progress>()?;
    /// let p = Progress { done: Percent { value: 80 } };
    /// let bytes = fury.serialize(&fury::serde::Serde(&p))?;
    /// assert_eq!(fury.deserialize::<fury::serde::Serde<Progress>>(&bytes)?.0, p);
    /// # Ok::<(), fury::Error>(())
    /// ```
    pub fn add_serde_sample<V>(&mut self, value: V) -> Result<&mut Self>
    where
        V: ::serde::Serialize + Send + Sync + 'static,
    {
        let mut set = shape::table(&self.registry).samples.clone();
        set.values.push(std::sync::Arc::new(move |tracer, samples| {
            tracer.trace_value(samples, &value).map(drop)
        }));
        let mut samples = serde_reflection::Samples::new();
        let mut scratch = tracer();
        for v in &set.values {
            v(&mut scratch, &mut samples).map_err(|e| {
                Error::new(ErrorKind::Invalid {
                    what: format!("a serde sample could not be traced: {}", e.explanation()),
                })
            })?;
        }
        set.samples = Some(Box::leak(Box::new(samples)));
        let mut table = shape::table(&self.registry).clone();
        table.samples = set;
        shape::set_table(&mut self.registry, table);
        Ok(self)
    }

    fn register_serde_as<T>(&mut self, registration: Option<Registration>) -> Result<&mut Self>
    where
        T: ::serde::Serialize + ::serde::Deserialize<'static>,
    {
        let rust = rust_key::<T>();
        let fail = |what: String| {
            Error::new(ErrorKind::Unsupported {
                what: format!("cannot register serde type {rust}: {what}"),
            })
        };
        if self.registry.ref_tracking() {
            return Err(fail(
                "the serde path does not support reference tracking yet".to_string(),
            ));
        }
        // Replay the earlier registrations, so that the enums they traced are complete.
        let mut tracer = tracer();
        let table = shape::table(&self.registry);
        let samples = table.samples.samples.unwrap_or_else(no_samples);
        // The tracer knows the formats of the samples' types only if it traced them.
        let mut scratch = serde_reflection::Samples::new();
        for v in &table.samples.values {
            v(&mut tracer, &mut scratch).map_err(|e| fail(e.to_string()))?;
        }
        for t in table.traces.clone() {
            t(&mut tracer, samples).map_err(|e| fail(e.to_string()))?;
        }
        let (format, _) = tracer
            .trace_type::<T>(samples)
            .map_err(|e| fail(trace_error(&e)))?;
        let serde_reflection::Format::TypeName(name) = format else {
            return Err(fail(
                "only structs with named fields and enums can be registered".to_string(),
            ));
        };
        let formats = tracer.registry().map_err(|e| match e {
            serde_reflection::Error::MissingVariants(names) => fail(format!(
                "the enums {names:?} it reaches were not traced completely: register each \
                 with register_serde (or by id or name) before it"
            )),
            e => fail(e.to_string()),
        })?;
        let registration = registration.unwrap_or(Registration::Name {
            namespace: String::new(),
            type_name: name.clone(),
        });
        let mut next = self.registry.clone();
        let at = shape::add_traced(&mut next, &formats, &name, registration)?;
        let mut table = shape::table(&next).clone();
        table.add_root(rust, at);
        table.add_root(std::any::type_name::<&T>(), at);
        table.add_root(std::any::type_name::<&mut T>(), at);
        table.traces.push(trace::<T>);
        shape::set_table(&mut next, table);
        self.registry = next;
        Ok(self)
    }
}
