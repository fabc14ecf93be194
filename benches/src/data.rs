//! The benchmark datasets' types, each defined once.
//!
//! Every type is declared inside `dataset_types!`, which gives it the derives of every peer:
//! `fury::FuryObject` (fury-rs), `fory::ForyStruct` / `fory::ForyEnum` (the official `fory`
//! crate), serde's traits (rmp-serde, bincode, serde_json, postcard), bitcode's `Encode` /
//! `Decode` and rkyv's `Archive` / `Serialize` / `Deserialize`: each peer reads and writes the
//! very same Rust types, so no peer is measured on a shape of its own choosing. [`Dataset`] is
//! what those derives give (the bound every generic case takes), and [`visit_types`] lists the
//! types for the registrations (`crate::peers::fury_rs`, `crate::peers::fory`).
//! Protobuf needs its own message types; they live in [`crate::pb`] with conversions both ways.
//! The borrowed mirrors of the borrowed-decoding section are in [`crate::views`]; the values
//! measured, and which datasets each section runs, in [`crate::datasets`].
//!
//! A peer that needs another derive on every type adds it to the derive list of
//! `dataset_type!` (and, if its codec needs the trait, to [`Dataset`]); a dataset adds its
//! types inside the `dataset_types!` block below (`pub struct Name { .. }`, or
//! `pub struct Name: Copy { .. }` for derives of its own, such as `Copy` or `Eq`).
//!
//! The shapes follow the classic jvm-serializers / Fory benchmark models.

use crate::pb::Mirror;
use crate::peers::Rkyv;
use serde::{Deserialize, Serialize};
use std::fmt::Debug;

/// Declares the dataset types: each struct or enum gets the derives every peer needs (and the
/// extra ones named after a colon, `pub struct Vec3: Copy { .. }`, in the same `derive`), and
/// [`visit_types`] visits them all, in declaration order.
macro_rules! dataset_types {
    ($(
        $(#[$attr:meta])*
        pub $kind:ident $name:ident $(: $($extra:ident),+)? { $($body:tt)* }
    )*) => {
        $(
            dataset_type! {
                $kind [$($($extra),+)?]
                $(#[$attr])*
                pub $kind $name { $($body)* }
            }
        )*

        /// Calls `v` with every dataset type, nested ones included, in declaration order (the
        /// order they are registered in).
        pub fn visit_types(v: &mut impl TypeVisitor) {
            $( v.visit::<$name>(); )*
        }
    };
}

/// One item of `dataset_types!`: the derives of every peer, for a struct or an enum (the
/// official crate derives them differently).
macro_rules! dataset_type {
    (struct $($rest:tt)*) => {
        dataset_type!(@ ForyStruct $($rest)*);
    };
    (enum $($rest:tt)*) => {
        dataset_type!(@ ForyEnum $($rest)*);
    };
    (@ $fory:ident [$($extra:ident),*] $($item:tt)*) => {
        #[derive(
            fury::FuryObject,
            fory::$fory,
            Serialize,
            Deserialize,
            Debug,
            Clone,
            $($extra,)*
            PartialEq,
            Default,
            rkyv::Archive,
            rkyv::Serialize,
            rkyv::Deserialize,
            bitcode::Encode,
            bitcode::Decode,
        )]
        $($item)*
    };
}

/// A trait for the types with all of `$bound`, and its blanket impl (a trait alias).
macro_rules! all_of {
    ($(#[$attr:meta])* pub trait $name:ident: $($bound:tt)+) => {
        $(#[$attr])*
        pub trait $name: $($bound)+ {}

        impl<T> $name for T where T: $($bound)+ {}
    };
}

all_of! {
    /// What every type of `dataset_types!` is, whether measured on its own or nested: what
    /// the registrations need (fury-rs's derive and serde path, fory).
    pub trait DatasetType: fury::FuryObject
        + fory::StructSerializer
        + serde::Serialize
        + serde::de::DeserializeOwned
        + 'static
}

/// Called with each dataset type by [`visit_types`].
pub trait TypeVisitor {
    /// Called once per type.
    fn visit<T: DatasetType>(&mut self);
}

all_of! {
    /// What a measured dataset type implements: the traits the derives of `dataset_types!`
    /// give (fury-rs, fory, serde, bitcode, rkyv) and the prost mirror of [`crate::pb`].
    pub trait Dataset: fury::FuryObject
        + fury::DeserializeOwned
        + fory::Serializer<Target = Self>
        + serde::Serialize
        + serde::de::DeserializeOwned
        + bitcode::Encode
        + bitcode::DecodeOwned
        + Rkyv
        + Mirror
        + Clone
        + PartialEq
        + Debug
        + Send
        + Sync
        + 'static
}

dataset_types! {
    // -----------------------------------------------------------------------------------------
    // NumericStruct: 12 i32 fields
    // -----------------------------------------------------------------------------------------

    /// Twelve `i32` fields.
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
    #[fury(id = 102)]
    pub struct NumericStructList {
        pub items: Vec<NumericStruct>,
    }

    // -----------------------------------------------------------------------------------------
    // Sample: primitives, boxed (optional) primitives, 7 primitive arrays, one string
    // -----------------------------------------------------------------------------------------

    /// Java's `Sample` (jvm-serializers): `char` is a `u16` here.
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
    #[fury(id = 104)]
    pub struct SampleList {
        pub items: Vec<Sample>,
    }

    // -----------------------------------------------------------------------------------------
    // MediaContent
    // -----------------------------------------------------------------------------------------

    /// `Media.Player`.
    #[fury(id = 105)]
    pub enum Player: Copy, Eq {
        #[default]
        Java,
        Flash,
    }

    /// `Image.Size`.
    #[fury(id = 106)]
    pub enum Size: Copy, Eq {
        #[default]
        Small,
        Large,
    }

    /// A media item.
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
    #[fury(id = 108)]
    pub struct Image {
        pub uri: String,
        pub title: Option<String>,
        pub width: i32,
        pub height: i32,
        pub size: Size,
    }

    /// A [`Media`] with its [`Image`]s.
    #[fury(id = 109)]
    pub struct MediaContent {
        pub media: Media,
        pub images: Vec<Image>,
    }

    /// Five [`MediaContent`]s.
    #[fury(id = 110)]
    pub struct MediaContentList {
        pub items: Vec<MediaContent>,
    }

    // -----------------------------------------------------------------------------------------
    // SkillFire: a game server's reply
    // -----------------------------------------------------------------------------------------

    /// The kind of skill that was fired.
    #[fury(id = 111)]
    pub enum SkillCategory: Copy, Eq {
        #[default]
        Melee,
        Ranged,
        Spell,
        Heal,
    }

    /// The harm one target took (`type` is `harm_type` in Rust).
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

    // -----------------------------------------------------------------------------------------
    // User with a nested Group: UTF-8 heavy (Chinese text)
    // -----------------------------------------------------------------------------------------

    /// A group of users.
    #[fury(id = 114)]
    pub struct Group {
        pub id: i32,
        pub name: String,
        pub description: String,
        pub tags: Vec<String>,
    }

    /// A user profile.
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

    // -----------------------------------------------------------------------------------------
    // CustomerList: Northwind-style customers, 11 string fields each
    // -----------------------------------------------------------------------------------------

    /// A Northwind customer.
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
    #[fury(id = 117)]
    pub struct CustomerList {
        pub customers: Vec<Customer>,
    }

    // -----------------------------------------------------------------------------------------
    // UserModelList: 0, 1, 10, 100 small records
    // -----------------------------------------------------------------------------------------

    /// A small user record.
    #[fury(id = 118)]
    pub struct UserModel {
        pub user_id: i32,
        pub name: String,
        pub age: i32,
    }

    /// A list of [`UserModel`]s.
    #[fury(id = 119)]
    pub struct UserModelList {
        pub users: Vec<UserModel>,
    }

    // -----------------------------------------------------------------------------------------
    // LogList: log records, a few small numbers and four strings each (borrowed-decoding section)
    // -----------------------------------------------------------------------------------------

    /// One log record.
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
    #[fury(id = 121)]
    pub struct LogList {
        pub entries: Vec<LogEntry>,
    }

    // -----------------------------------------------------------------------------------------
    // Geometry: a mesh of triangles, each three nested `{x, y, z: f32}` vertices and a normal
    // -----------------------------------------------------------------------------------------

    /// A point or direction in space.
    #[fury(id = 122)]
    pub struct Vec3: Copy {
        pub x: f32,
        pub y: f32,
        pub z: f32,
    }

    /// One triangle of a mesh: three vertices and the face normal.
    #[fury(id = 123)]
    pub struct Triangle: Copy {
        pub a: Vec3,
        pub b: Vec3,
        pub c: Vec3,
        pub normal: Vec3,
    }

    /// A mesh: a large list of [`Triangle`]s.
    #[fury(id = 124)]
    pub struct Mesh {
        pub triangles: Vec<Triangle>,
    }

    // -----------------------------------------------------------------------------------------
    // GameState: entities with tuples, fixed arrays, options, a unit enum and small lists
    // -----------------------------------------------------------------------------------------

    /// What an entity is.
    #[fury(id = 125)]
    pub enum EntityKind: Copy, Eq {
        #[default]
        Player,
        Monster,
        Projectile,
        Item,
    }

    /// One entity of a game world.
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
    #[fury(id = 127)]
    pub struct GameState {
        pub tick: u64,
        pub entities: Vec<Entity>,
    }
}
