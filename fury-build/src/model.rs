//! The schema model both front ends produce (Fory IDL and proto3 map onto it as foryc maps
//! them), and the code generator reads.

pub use crate::lexer::OptValue;
use std::path::PathBuf;

/// Where a declaration starts in its file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pos {
    /// Line, from 1.
    pub line: u32,
    /// Column, from 1.
    pub col: u32,
}

/// Which grammar a file was written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Fory IDL (`.fdl`).
    Fdl,
    /// proto3 (`.proto`).
    Proto,
}

/// One parsed schema file.
#[derive(Debug, Clone)]
pub struct Schema {
    /// The file it was read from.
    pub file: PathBuf,
    /// Its grammar.
    pub format: Format,
    /// `package a.b;` (or `None`).
    pub package: Option<String>,
    /// Fory IDL's `package a.b alias c;`: the name type ids are derived from instead.
    pub package_alias: Option<String>,
    /// The paths of `import "...";`, as written.
    pub imports: Vec<String>,
    /// File options (`option x = y;`).
    pub options: Vec<(String, OptValue)>,
    /// Top-level enums.
    pub enums: Vec<Enum>,
    /// Top-level unions.
    pub unions: Vec<Union>,
    /// Top-level messages.
    pub messages: Vec<Message>,
    /// Services (a tonic client and server each; see the crate docs).
    pub services: Vec<Service>,
}

impl Schema {
    pub(crate) fn option(&self, name: &str) -> Option<&OptValue> {
        self.options
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v)
    }
}

/// A scalar kind of the IDL.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum Prim {
    Bool,
    Int8,
    Int16,
    Int32,
    Int64,
    Uint8,
    Uint16,
    Uint32,
    Uint64,
    Float16,
    Bfloat16,
    Float32,
    Float64,
    String,
    Bytes,
    Date,
    Timestamp,
    Duration,
    Decimal,
    Any,
}

impl Prim {
    /// The IDL keyword of a scalar, or `None` if `name` is none.
    pub fn from_fdl(name: &str) -> Option<Prim> {
        Some(match name {
            "bool" => Prim::Bool,
            "int8" => Prim::Int8,
            "int16" => Prim::Int16,
            "int32" => Prim::Int32,
            "int64" => Prim::Int64,
            "uint8" => Prim::Uint8,
            "uint16" => Prim::Uint16,
            "uint32" => Prim::Uint32,
            "uint64" => Prim::Uint64,
            "float16" => Prim::Float16,
            "bfloat16" => Prim::Bfloat16,
            "float32" => Prim::Float32,
            "float64" => Prim::Float64,
            "string" => Prim::String,
            "bytes" => Prim::Bytes,
            "date" => Prim::Date,
            "timestamp" => Prim::Timestamp,
            "duration" => Prim::Duration,
            "decimal" => Prim::Decimal,
            "any" => Prim::Any,
            _ => return None,
        })
    }

    /// Numbers and bools: the element kinds of `array<T>` (dense arrays).
    pub fn is_numeric(self) -> bool {
        matches!(
            self,
            Prim::Bool
                | Prim::Int8
                | Prim::Int16
                | Prim::Int32
                | Prim::Int64
                | Prim::Uint8
                | Prim::Uint16
                | Prim::Uint32
                | Prim::Uint64
                | Prim::Float16
                | Prim::Bfloat16
                | Prim::Float32
                | Prim::Float64
        )
    }
}

/// An integer encoding chosen in the schema (`fixed int32`, `tagged int64`, ...).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Encoding {
    /// The type's default (varint for 32/64-bit integers).
    #[default]
    Default,
    /// Fixed width.
    Fixed,
    /// Tagged (64-bit only).
    Tagged,
}

/// A field's type.
#[derive(Debug, Clone, PartialEq)]
pub enum Type {
    /// A scalar with its encoding.
    Prim(Prim, Encoding),
    /// A message, enum or union, by the name written (resolved later).
    Named(String),
    /// `list<T>` / `repeated T`.
    List {
        /// The element type.
        elem: Box<Type>,
        /// `list<optional T>`.
        elem_optional: bool,
        /// `list<ref T>`.
        elem_ref: bool,
    },
    /// `array<T>`: a dense array of numbers.
    Array(Prim),
    /// `map<K, V>`.
    Map {
        /// The key type.
        key: Box<Type>,
        /// The value type.
        value: Box<Type>,
        /// `map<K, optional V>`.
        value_optional: bool,
        /// `map<K, ref V>`.
        value_ref: bool,
    },
}

/// A message field or a union case.
#[derive(Debug, Clone)]
pub struct Field {
    /// Its name as written.
    pub name: String,
    /// Its type.
    pub ty: Type,
    /// The field number: the tag id (or the union case id).
    pub number: u32,
    /// `optional` (or made nullable by the rules foryc applies).
    pub optional: bool,
    /// `ref`: tracks references.
    pub is_ref: bool,
    /// The elements of this list (values of this map) are messages or unions that foryc's
    /// Python output declares `Ref[T, False]`: pyfory writes them without reference flags.
    /// Set by the resolver.
    pub untracked_elements: bool,
    /// The comment before it.
    pub doc: Option<String>,
    /// Where it is.
    pub pos: Pos,
}

/// A message.
#[derive(Debug, Clone)]
pub struct Message {
    /// Its name.
    pub name: String,
    /// `[id=N]` (after resolution: the id foryc would give it, unless ids are off).
    pub id: Option<u32>,
    /// Fields in declaration order.
    pub fields: Vec<Field>,
    /// Nested messages.
    pub messages: Vec<Message>,
    /// Nested enums.
    pub enums: Vec<Enum>,
    /// Nested unions (proto `oneof`s become these).
    pub unions: Vec<Union>,
    /// Type options (`[alias="..."]`, ...).
    pub options: Vec<(String, OptValue)>,
    /// The comment before it.
    pub doc: Option<String>,
    /// Where it is.
    pub pos: Pos,
}

/// One value of an enum.
#[derive(Debug, Clone)]
pub struct EnumValue {
    /// Its name.
    pub name: String,
    /// Its number (the value written on the wire).
    pub value: i64,
    /// The comment before it.
    pub doc: Option<String>,
    /// Where it is.
    pub pos: Pos,
}

/// An enum.
#[derive(Debug, Clone)]
pub struct Enum {
    /// Its name.
    pub name: String,
    /// Its type id.
    pub id: Option<u32>,
    /// Its values.
    pub values: Vec<EnumValue>,
    /// Type options.
    pub options: Vec<(String, OptValue)>,
    /// The comment before it.
    pub doc: Option<String>,
    /// Where it is.
    pub pos: Pos,
}

/// A union (a tagged union: one case at a time).
#[derive(Debug, Clone)]
pub struct Union {
    /// Its name.
    pub name: String,
    /// Its type id.
    pub id: Option<u32>,
    /// The cases (their `number` is the case id).
    pub cases: Vec<Field>,
    /// Type options.
    pub options: Vec<(String, OptValue)>,
    /// The comment before it.
    pub doc: Option<String>,
    /// Where it is.
    pub pos: Pos,
}

/// One method of a service.
#[derive(Debug, Clone)]
pub struct Method {
    /// Its name.
    pub name: String,
    /// The request message, as written.
    pub request: String,
    /// The response message, as written.
    pub response: String,
    /// `stream` request.
    pub client_streaming: bool,
    /// `stream` response.
    pub server_streaming: bool,
    /// The comment before it.
    pub doc: Option<String>,
    /// Where it is.
    pub pos: Pos,
}

/// A service definition.
#[derive(Debug, Clone)]
pub struct Service {
    /// Its name.
    pub name: String,
    /// Its methods.
    pub methods: Vec<Method>,
    /// The comment before it.
    pub doc: Option<String>,
    /// Where it is.
    pub pos: Pos,
}

/// Options as written: name and value, in order.
pub type Options = Vec<(String, OptValue)>;

pub(crate) fn type_option<'a>(
    options: &'a [(String, OptValue)],
    name: &str,
) -> Option<&'a OptValue> {
    options
        .iter()
        .rev()
        .find(|(n, _)| n == name)
        .map(|(_, v)| v)
}
