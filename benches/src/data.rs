//! The benchmark datasets, each defined once.
//!
//! Every type derives `fury::FuryObject` (fury-rs), `fory::ForyStruct` / `fory::ForyEnum` (the
//! official `fory` crate), serde's traits (rmp-serde, bincode, serde_json, postcard), bitcode's
//! `Encode` / `Decode` and rkyv's `Archive` / `Serialize` / `Deserialize`: each peer reads and
//! writes the very same Rust types, so no peer is measured on a shape of its own choosing.
//! Protobuf needs its own message types; they live in [`crate::pb`] with conversions both ways.
//! The borrowed mirrors of the borrowed-decoding section are in [`crate::views`].
//!
//! The shapes follow the classic jvm-serializers / Fory benchmark models.

use serde::{Deserialize, Serialize};

// ---------------------------------------------------------------------------------------------
// NumericStruct: 12 i32 fields
// ---------------------------------------------------------------------------------------------

/// Twelve `i32` fields.
#[derive(
    fury::FuryObject,
    fory::ForyStruct,
    Serialize,
    Deserialize,
    Debug,
    Clone,
    PartialEq,
    Default,
    rkyv::Archive,
    rkyv::Serialize,
    rkyv::Deserialize,
    bitcode::Encode,
    bitcode::Decode,
)]
#[fury(id = 101)]
pub struct NumericStruct {
    pub f1: i32,
    pub f2: i32,
    pub f3: i32,
    pub f4: i32,
    pub f5: i32,
    pub f6: i32,
    pub f7: i32,
    pub f8: i32,
    pub f9: i32,
    pub f10: i32,
    pub f11: i32,
    pub f12: i32,
}

/// Five [`NumericStruct`]s.
#[derive(
    fury::FuryObject,
    fory::ForyStruct,
    Serialize,
    Deserialize,
    Debug,
    Clone,
    PartialEq,
    Default,
    rkyv::Archive,
    rkyv::Serialize,
    rkyv::Deserialize,
    bitcode::Encode,
    bitcode::Decode,
)]
#[fury(id = 102)]
pub struct NumericStructList {
    pub items: Vec<NumericStruct>,
}

// ---------------------------------------------------------------------------------------------
// Sample: primitives, boxed (optional) primitives, 7 primitive arrays, one string
// ---------------------------------------------------------------------------------------------

/// Java's `Sample` (jvm-serializers): `char` is a `u16` here.
#[derive(
    fury::FuryObject,
    fory::ForyStruct,
    Serialize,
    Deserialize,
    Debug,
    Clone,
    PartialEq,
    Default,
    rkyv::Archive,
    rkyv::Serialize,
    rkyv::Deserialize,
    bitcode::Encode,
    bitcode::Decode,
)]
#[fury(id = 103)]
pub struct Sample {
    pub int_value: i32,
    pub long_value: i64,
    pub float_value: f32,
    pub double_value: f64,
    pub short_value: i16,
    pub char_value: u16,
    pub boolean_value: bool,
    pub int_value_boxed: Option<i32>,
    pub long_value_boxed: Option<i64>,
    pub float_value_boxed: Option<f32>,
    pub double_value_boxed: Option<f64>,
    pub short_value_boxed: Option<i16>,
    pub char_value_boxed: Option<u16>,
    pub boolean_value_boxed: Option<bool>,
    pub int_array: Vec<i32>,
    pub long_array: Vec<i64>,
    pub float_array: Vec<f32>,
    pub double_array: Vec<f64>,
    pub short_array: Vec<i16>,
    pub char_array: Vec<u16>,
    pub boolean_array: Vec<bool>,
    pub string: String,
}

/// Five [`Sample`]s.
#[derive(
    fury::FuryObject,
    fory::ForyStruct,
    Serialize,
    Deserialize,
    Debug,
    Clone,
    PartialEq,
    Default,
    rkyv::Archive,
    rkyv::Serialize,
    rkyv::Deserialize,
    bitcode::Encode,
    bitcode::Decode,
)]
#[fury(id = 104)]
pub struct SampleList {
    pub items: Vec<Sample>,
}

// ---------------------------------------------------------------------------------------------
// MediaContent
// ---------------------------------------------------------------------------------------------

/// `Media.Player`.
#[derive(
    fury::FuryObject,
    fory::ForyEnum,
    Serialize,
    Deserialize,
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Default,
    rkyv::Archive,
    rkyv::Serialize,
    rkyv::Deserialize,
    bitcode::Encode,
    bitcode::Decode,
)]
#[fury(id = 105)]
pub enum Player {
    #[default]
    Java,
    Flash,
}

/// `Image.Size`.
#[derive(
    fury::FuryObject,
    fory::ForyEnum,
    Serialize,
    Deserialize,
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Default,
    rkyv::Archive,
    rkyv::Serialize,
    rkyv::Deserialize,
    bitcode::Encode,
    bitcode::Decode,
)]
#[fury(id = 106)]
pub enum Size {
    #[default]
    Small,
    Large,
}

/// A media item.
#[derive(
    fury::FuryObject,
    fory::ForyStruct,
    Serialize,
    Deserialize,
    Debug,
    Clone,
    PartialEq,
    Default,
    rkyv::Archive,
    rkyv::Serialize,
    rkyv::Deserialize,
    bitcode::Encode,
    bitcode::Decode,
)]
#[fury(id = 107)]
pub struct Media {
    pub uri: String,
    pub title: Option<String>,
    pub width: i32,
    pub height: i32,
    pub format: String,
    pub duration: i64,
    pub size: i64,
    pub bitrate: i32,
    pub has_bitrate: bool,
    pub persons: Vec<String>,
    pub player: Player,
    pub copyright: Option<String>,
}

/// An image of a media item.
#[derive(
    fury::FuryObject,
    fory::ForyStruct,
    Serialize,
    Deserialize,
    Debug,
    Clone,
    PartialEq,
    Default,
    rkyv::Archive,
    rkyv::Serialize,
    rkyv::Deserialize,
    bitcode::Encode,
    bitcode::Decode,
)]
#[fury(id = 108)]
pub struct Image {
    pub uri: String,
    pub title: Option<String>,
    pub width: i32,
    pub height: i32,
    pub size: Size,
}

/// A [`Media`] with its [`Image`]s.
#[derive(
    fury::FuryObject,
    fory::ForyStruct,
    Serialize,
    Deserialize,
    Debug,
    Clone,
    PartialEq,
    Default,
    rkyv::Archive,
    rkyv::Serialize,
    rkyv::Deserialize,
    bitcode::Encode,
    bitcode::Decode,
)]
#[fury(id = 109)]
pub struct MediaContent {
    pub media: Media,
    pub images: Vec<Image>,
}

/// Five [`MediaContent`]s.
#[derive(
    fury::FuryObject,
    fory::ForyStruct,
    Serialize,
    Deserialize,
    Debug,
    Clone,
    PartialEq,
    Default,
    rkyv::Archive,
    rkyv::Serialize,
    rkyv::Deserialize,
    bitcode::Encode,
    bitcode::Decode,
)]
#[fury(id = 110)]
pub struct MediaContentList {
    pub items: Vec<MediaContent>,
}

// ---------------------------------------------------------------------------------------------
// SkillFire: a game server's reply
// ---------------------------------------------------------------------------------------------

/// The kind of skill that was fired.
#[derive(
    fury::FuryObject,
    fory::ForyEnum,
    Serialize,
    Deserialize,
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Default,
    rkyv::Archive,
    rkyv::Serialize,
    rkyv::Deserialize,
    bitcode::Encode,
    bitcode::Decode,
)]
#[fury(id = 111)]
pub enum SkillCategory {
    #[default]
    Melee,
    Ranged,
    Spell,
    Heal,
}

/// The harm one target took (`type` is `harm_type` in Rust).
#[derive(
    fury::FuryObject,
    fory::ForyStruct,
    Serialize,
    Deserialize,
    Debug,
    Clone,
    PartialEq,
    Default,
    rkyv::Archive,
    rkyv::Serialize,
    rkyv::Deserialize,
    bitcode::Encode,
    bitcode::Decode,
)]
#[fury(id = 112)]
pub struct HarmDto {
    pub cur_hp: f32,
    pub dead: bool,
    pub max_hp: f32,
    pub real: i32,
    pub target_id: i32,
    #[serde(rename = "type")]
    pub harm_type: i32,
    pub value: f32,
}

/// The reply to a fired skill.
#[derive(
    fury::FuryObject,
    fory::ForyStruct,
    Serialize,
    Deserialize,
    Debug,
    Clone,
    PartialEq,
    Default,
    rkyv::Archive,
    rkyv::Serialize,
    rkyv::Deserialize,
    bitcode::Encode,
    bitcode::Decode,
)]
#[fury(id = 113)]
pub struct SkillFire {
    pub attacker_id: i32,
    pub harms: Vec<HarmDto>,
    pub index: i32,
    pub param1: i32,
    pub param2: i32,
    pub param3: i32,
    pub category: SkillCategory,
}

// ---------------------------------------------------------------------------------------------
// User with a nested Group: UTF-8 heavy (Chinese text)
// ---------------------------------------------------------------------------------------------

/// A group of users.
#[derive(
    fury::FuryObject,
    fory::ForyStruct,
    Serialize,
    Deserialize,
    Debug,
    Clone,
    PartialEq,
    Default,
    rkyv::Archive,
    rkyv::Serialize,
    rkyv::Deserialize,
    bitcode::Encode,
    bitcode::Decode,
)]
#[fury(id = 114)]
pub struct Group {
    pub id: i32,
    pub name: String,
    pub description: String,
    pub tags: Vec<String>,
}

/// A user profile.
#[derive(
    fury::FuryObject,
    fory::ForyStruct,
    Serialize,
    Deserialize,
    Debug,
    Clone,
    PartialEq,
    Default,
    rkyv::Archive,
    rkyv::Serialize,
    rkyv::Deserialize,
    bitcode::Encode,
    bitcode::Decode,
)]
#[fury(id = 115)]
pub struct User {
    pub id: i64,
    pub name: String,
    pub nickname: String,
    pub email: String,
    pub city: String,
    pub bio: String,
    pub age: i32,
    pub verified: bool,
    pub group: Group,
    pub roles: Vec<String>,
}

// ---------------------------------------------------------------------------------------------
// CustomerList: Northwind-style customers, 11 string fields each
// ---------------------------------------------------------------------------------------------

/// A Northwind customer.
#[derive(
    fury::FuryObject,
    fory::ForyStruct,
    Serialize,
    Deserialize,
    Debug,
    Clone,
    PartialEq,
    Default,
    rkyv::Archive,
    rkyv::Serialize,
    rkyv::Deserialize,
    bitcode::Encode,
    bitcode::Decode,
)]
#[fury(id = 116)]
pub struct Customer {
    pub customer_id: String,
    pub company_name: String,
    pub contact_name: String,
    pub contact_title: String,
    pub address: String,
    pub city: String,
    pub region: String,
    pub postal_code: String,
    pub country: String,
    pub phone: String,
    pub fax: String,
}

/// Twenty customers.
#[derive(
    fury::FuryObject,
    fory::ForyStruct,
    Serialize,
    Deserialize,
    Debug,
    Clone,
    PartialEq,
    Default,
    rkyv::Archive,
    rkyv::Serialize,
    rkyv::Deserialize,
    bitcode::Encode,
    bitcode::Decode,
)]
#[fury(id = 117)]
pub struct CustomerList {
    pub customers: Vec<Customer>,
}

// ---------------------------------------------------------------------------------------------
// UserModelList: 0, 1, 10, 100 small records
// ---------------------------------------------------------------------------------------------

/// A small user record.
#[derive(
    fury::FuryObject,
    fory::ForyStruct,
    Serialize,
    Deserialize,
    Debug,
    Clone,
    PartialEq,
    Default,
    rkyv::Archive,
    rkyv::Serialize,
    rkyv::Deserialize,
    bitcode::Encode,
    bitcode::Decode,
)]
#[fury(id = 118)]
pub struct UserModel {
    pub user_id: i32,
    pub name: String,
    pub age: i32,
}

/// A list of [`UserModel`]s.
#[derive(
    fury::FuryObject,
    fory::ForyStruct,
    Serialize,
    Deserialize,
    Debug,
    Clone,
    PartialEq,
    Default,
    rkyv::Archive,
    rkyv::Serialize,
    rkyv::Deserialize,
    bitcode::Encode,
    bitcode::Decode,
)]
#[fury(id = 119)]
pub struct UserModelList {
    pub users: Vec<UserModel>,
}

// ---------------------------------------------------------------------------------------------
// LogList: log records, a few small numbers and four strings each (borrowed-decoding section)
// ---------------------------------------------------------------------------------------------

/// One log record.
#[derive(
    fury::FuryObject,
    fory::ForyStruct,
    Serialize,
    Deserialize,
    Debug,
    Clone,
    PartialEq,
    Default,
    rkyv::Archive,
    rkyv::Serialize,
    rkyv::Deserialize,
    bitcode::Encode,
    bitcode::Decode,
)]
#[fury(id = 120)]
pub struct LogEntry {
    pub timestamp: i64,
    pub level: i32,
    pub thread: i32,
    pub line: i32,
    pub host: String,
    pub service: String,
    pub logger: String,
    pub message: String,
}

/// A batch of [`LogEntry`]s.
#[derive(
    fury::FuryObject,
    fory::ForyStruct,
    Serialize,
    Deserialize,
    Debug,
    Clone,
    PartialEq,
    Default,
    rkyv::Archive,
    rkyv::Serialize,
    rkyv::Deserialize,
    bitcode::Encode,
    bitcode::Decode,
)]
#[fury(id = 121)]
pub struct LogList {
    pub entries: Vec<LogEntry>,
}

// ---------------------------------------------------------------------------------------------
// Geometry: a mesh of triangles, each three nested `{x, y, z: f32}` vertices and a normal
// ---------------------------------------------------------------------------------------------

/// A point or direction in space.
#[derive(
    fury::FuryObject,
    fory::ForyStruct,
    Serialize,
    Deserialize,
    Debug,
    Clone,
    Copy,
    PartialEq,
    Default,
    rkyv::Archive,
    rkyv::Serialize,
    rkyv::Deserialize,
    bitcode::Encode,
    bitcode::Decode,
)]
#[fury(id = 122)]
pub struct Vec3 {
    pub x: f32,
    pub y: f32,
    pub z: f32,
}

/// One triangle of a mesh: three vertices and the face normal.
#[derive(
    fury::FuryObject,
    fory::ForyStruct,
    Serialize,
    Deserialize,
    Debug,
    Clone,
    Copy,
    PartialEq,
    Default,
    rkyv::Archive,
    rkyv::Serialize,
    rkyv::Deserialize,
    bitcode::Encode,
    bitcode::Decode,
)]
#[fury(id = 123)]
pub struct Triangle {
    pub a: Vec3,
    pub b: Vec3,
    pub c: Vec3,
    pub normal: Vec3,
}

/// A mesh: a large list of [`Triangle`]s.
#[derive(
    fury::FuryObject,
    fory::ForyStruct,
    Serialize,
    Deserialize,
    Debug,
    Clone,
    PartialEq,
    Default,
    rkyv::Archive,
    rkyv::Serialize,
    rkyv::Deserialize,
    bitcode::Encode,
    bitcode::Decode,
)]
#[fury(id = 124)]
pub struct Mesh {
    pub triangles: Vec<Triangle>,
}

// ---------------------------------------------------------------------------------------------
// GameState: entities with tuples, fixed arrays, options, a unit enum and small lists
// ---------------------------------------------------------------------------------------------

/// What an entity is.
#[derive(
    fury::FuryObject,
    fory::ForyEnum,
    Serialize,
    Deserialize,
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Default,
    rkyv::Archive,
    rkyv::Serialize,
    rkyv::Deserialize,
    bitcode::Encode,
    bitcode::Decode,
)]
#[fury(id = 125)]
pub enum EntityKind {
    #[default]
    Player,
    Monster,
    Projectile,
    Item,
}

/// One entity of a game world.
#[derive(
    fury::FuryObject,
    fory::ForyStruct,
    Serialize,
    Deserialize,
    Debug,
    Clone,
    PartialEq,
    Default,
    rkyv::Archive,
    rkyv::Serialize,
    rkyv::Deserialize,
    bitcode::Encode,
    bitcode::Decode,
)]
#[fury(id = 126)]
pub struct Entity {
    pub id: u64,
    pub kind: EntityKind,
    pub position: (f32, f32),
    pub velocity: (f32, f32),
    pub ids: [u32; 4],
    pub health: Option<u32>,
    pub target: Option<u64>,
    pub flags: Vec<bool>,
    pub inventory: Vec<u16>,
    pub path: Vec<Vec<u16>>,
}

/// A snapshot of the world: a tick and its entities.
#[derive(
    fury::FuryObject,
    fory::ForyStruct,
    Serialize,
    Deserialize,
    Debug,
    Clone,
    PartialEq,
    Default,
    rkyv::Archive,
    rkyv::Serialize,
    rkyv::Deserialize,
    bitcode::Encode,
    bitcode::Decode,
)]
#[fury(id = 127)]
pub struct GameState {
    pub tick: u64,
    pub entities: Vec<Entity>,
}
