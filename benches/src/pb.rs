//! Protobuf mirrors of [`crate::data`], hand-written with `#[derive(prost::Message)]` (no
//! protoc), and the conversions both ways.
//!
//! Protobuf has no 16-bit integers: `i16` / `u16` (Java's short / char) are `int32` / `uint32`
//! here. Nested messages are `Option`s, as prost makes them; enums are `int32` with a
//! `prost::Enumeration`.

use crate::data;

/// `NumericStruct`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct NumericStruct {
    #[prost(int32, tag = "1")]
    pub f1: i32,
    #[prost(int32, tag = "2")]
    pub f2: i32,
    #[prost(int32, tag = "3")]
    pub f3: i32,
    #[prost(int32, tag = "4")]
    pub f4: i32,
    #[prost(int32, tag = "5")]
    pub f5: i32,
    #[prost(int32, tag = "6")]
    pub f6: i32,
    #[prost(int32, tag = "7")]
    pub f7: i32,
    #[prost(int32, tag = "8")]
    pub f8: i32,
    #[prost(int32, tag = "9")]
    pub f9: i32,
    #[prost(int32, tag = "10")]
    pub f10: i32,
    #[prost(int32, tag = "11")]
    pub f11: i32,
    #[prost(int32, tag = "12")]
    pub f12: i32,
}

/// `NumericStructList`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct NumericStructList {
    #[prost(message, repeated, tag = "1")]
    pub items: Vec<NumericStruct>,
}

/// `Sample`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct Sample {
    #[prost(int32, tag = "1")]
    pub int_value: i32,
    #[prost(int64, tag = "2")]
    pub long_value: i64,
    #[prost(float, tag = "3")]
    pub float_value: f32,
    #[prost(double, tag = "4")]
    pub double_value: f64,
    #[prost(int32, tag = "5")]
    pub short_value: i32,
    #[prost(uint32, tag = "6")]
    pub char_value: u32,
    #[prost(bool, tag = "7")]
    pub boolean_value: bool,
    #[prost(int32, optional, tag = "8")]
    pub int_value_boxed: Option<i32>,
    #[prost(int64, optional, tag = "9")]
    pub long_value_boxed: Option<i64>,
    #[prost(float, optional, tag = "10")]
    pub float_value_boxed: Option<f32>,
    #[prost(double, optional, tag = "11")]
    pub double_value_boxed: Option<f64>,
    #[prost(int32, optional, tag = "12")]
    pub short_value_boxed: Option<i32>,
    #[prost(uint32, optional, tag = "13")]
    pub char_value_boxed: Option<u32>,
    #[prost(bool, optional, tag = "14")]
    pub boolean_value_boxed: Option<bool>,
    #[prost(int32, repeated, tag = "15")]
    pub int_array: Vec<i32>,
    #[prost(int64, repeated, tag = "16")]
    pub long_array: Vec<i64>,
    #[prost(float, repeated, tag = "17")]
    pub float_array: Vec<f32>,
    #[prost(double, repeated, tag = "18")]
    pub double_array: Vec<f64>,
    #[prost(int32, repeated, tag = "19")]
    pub short_array: Vec<i32>,
    #[prost(uint32, repeated, tag = "20")]
    pub char_array: Vec<u32>,
    #[prost(bool, repeated, tag = "21")]
    pub boolean_array: Vec<bool>,
    #[prost(string, tag = "22")]
    pub string: String,
}

/// `SampleList`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct SampleList {
    #[prost(message, repeated, tag = "1")]
    pub items: Vec<Sample>,
}

/// `Media.Player`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, prost::Enumeration)]
#[repr(i32)]
pub enum Player {
    Java = 0,
    Flash = 1,
}

/// `Image.Size`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, prost::Enumeration)]
#[repr(i32)]
pub enum Size {
    Small = 0,
    Large = 1,
}

/// `Media`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct Media {
    #[prost(string, tag = "1")]
    pub uri: String,
    #[prost(string, optional, tag = "2")]
    pub title: Option<String>,
    #[prost(int32, tag = "3")]
    pub width: i32,
    #[prost(int32, tag = "4")]
    pub height: i32,
    #[prost(string, tag = "5")]
    pub format: String,
    #[prost(int64, tag = "6")]
    pub duration: i64,
    #[prost(int64, tag = "7")]
    pub size: i64,
    #[prost(int32, tag = "8")]
    pub bitrate: i32,
    #[prost(bool, tag = "9")]
    pub has_bitrate: bool,
    #[prost(string, repeated, tag = "10")]
    pub persons: Vec<String>,
    #[prost(enumeration = "Player", tag = "11")]
    pub player: i32,
    #[prost(string, optional, tag = "12")]
    pub copyright: Option<String>,
}

/// `Image`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct Image {
    #[prost(string, tag = "1")]
    pub uri: String,
    #[prost(string, optional, tag = "2")]
    pub title: Option<String>,
    #[prost(int32, tag = "3")]
    pub width: i32,
    #[prost(int32, tag = "4")]
    pub height: i32,
    #[prost(enumeration = "Size", tag = "5")]
    pub size: i32,
}

/// `MediaContent`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct MediaContent {
    #[prost(message, optional, tag = "1")]
    pub media: Option<Media>,
    #[prost(message, repeated, tag = "2")]
    pub images: Vec<Image>,
}

/// `MediaContentList`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct MediaContentList {
    #[prost(message, repeated, tag = "1")]
    pub items: Vec<MediaContent>,
}

/// `SkillCategory`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, prost::Enumeration)]
#[repr(i32)]
pub enum SkillCategory {
    Melee = 0,
    Ranged = 1,
    Spell = 2,
    Heal = 3,
}

/// `HarmDto`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct HarmDto {
    #[prost(float, tag = "1")]
    pub cur_hp: f32,
    #[prost(bool, tag = "2")]
    pub dead: bool,
    #[prost(float, tag = "3")]
    pub max_hp: f32,
    #[prost(int32, tag = "4")]
    pub real: i32,
    #[prost(int32, tag = "5")]
    pub target_id: i32,
    #[prost(int32, tag = "6")]
    pub harm_type: i32,
    #[prost(float, tag = "7")]
    pub value: f32,
}

/// `SkillFire`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct SkillFire {
    #[prost(int32, tag = "1")]
    pub attacker_id: i32,
    #[prost(message, repeated, tag = "2")]
    pub harms: Vec<HarmDto>,
    #[prost(int32, tag = "3")]
    pub index: i32,
    #[prost(int32, tag = "4")]
    pub param1: i32,
    #[prost(int32, tag = "5")]
    pub param2: i32,
    #[prost(int32, tag = "6")]
    pub param3: i32,
    #[prost(enumeration = "SkillCategory", tag = "7")]
    pub category: i32,
}

/// `Group`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct Group {
    #[prost(int32, tag = "1")]
    pub id: i32,
    #[prost(string, tag = "2")]
    pub name: String,
    #[prost(string, tag = "3")]
    pub description: String,
    #[prost(string, repeated, tag = "4")]
    pub tags: Vec<String>,
}

/// `User`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct User {
    #[prost(int64, tag = "1")]
    pub id: i64,
    #[prost(string, tag = "2")]
    pub name: String,
    #[prost(string, tag = "3")]
    pub nickname: String,
    #[prost(string, tag = "4")]
    pub email: String,
    #[prost(string, tag = "5")]
    pub city: String,
    #[prost(string, tag = "6")]
    pub bio: String,
    #[prost(int32, tag = "7")]
    pub age: i32,
    #[prost(bool, tag = "8")]
    pub verified: bool,
    #[prost(message, optional, tag = "9")]
    pub group: Option<Group>,
    #[prost(string, repeated, tag = "10")]
    pub roles: Vec<String>,
}

/// `Customer`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct Customer {
    #[prost(string, tag = "1")]
    pub customer_id: String,
    #[prost(string, tag = "2")]
    pub company_name: String,
    #[prost(string, tag = "3")]
    pub contact_name: String,
    #[prost(string, tag = "4")]
    pub contact_title: String,
    #[prost(string, tag = "5")]
    pub address: String,
    #[prost(string, tag = "6")]
    pub city: String,
    #[prost(string, tag = "7")]
    pub region: String,
    #[prost(string, tag = "8")]
    pub postal_code: String,
    #[prost(string, tag = "9")]
    pub country: String,
    #[prost(string, tag = "10")]
    pub phone: String,
    #[prost(string, tag = "11")]
    pub fax: String,
}

/// `CustomerList`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct CustomerList {
    #[prost(message, repeated, tag = "1")]
    pub customers: Vec<Customer>,
}

/// `LogEntry`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct LogEntry {
    #[prost(int64, tag = "1")]
    pub timestamp: i64,
    #[prost(int32, tag = "2")]
    pub level: i32,
    #[prost(int32, tag = "3")]
    pub thread: i32,
    #[prost(int32, tag = "4")]
    pub line: i32,
    #[prost(string, tag = "5")]
    pub host: String,
    #[prost(string, tag = "6")]
    pub service: String,
    #[prost(string, tag = "7")]
    pub logger: String,
    #[prost(string, tag = "8")]
    pub message: String,
}

/// `LogList`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct LogList {
    #[prost(message, repeated, tag = "1")]
    pub entries: Vec<LogEntry>,
}

/// `UserModel`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct UserModel {
    #[prost(int32, tag = "1")]
    pub user_id: i32,
    #[prost(string, tag = "2")]
    pub name: String,
    #[prost(int32, tag = "3")]
    pub age: i32,
}

/// `UserModelList`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct UserModelList {
    #[prost(message, repeated, tag = "1")]
    pub users: Vec<UserModel>,
}

// ---------------------------------------------------------------------------------------------
// Conversions: `ToPb` from the dataset type, `FromPb` back (for round-trip checks).
// ---------------------------------------------------------------------------------------------

/// A dataset type with a protobuf mirror.
pub trait Mirror: Sized {
    /// The prost message.
    type Pb: prost::Message + Default + Clone + PartialEq + Send + Sync + 'static;
    /// Builds the message.
    fn to_pb(&self) -> Self::Pb;
    /// Builds the value back; fails on what the message cannot hold (e.g. a 16-bit overflow).
    fn from_pb(pb: Self::Pb) -> Result<Self, String>;
}

fn narrow<T: TryFrom<U>, U: Copy + std::fmt::Display>(v: U, what: &str) -> Result<T, String> {
    T::try_from(v).map_err(|_| format!("{what}: {v} out of range"))
}

fn narrow_vec<T: TryFrom<U>, U: Copy + std::fmt::Display>(
    v: Vec<U>,
    what: &str,
) -> Result<Vec<T>, String> {
    v.into_iter().map(|x| narrow(x, what)).collect()
}

fn required<T>(v: Option<T>, what: &str) -> Result<T, String> {
    v.ok_or_else(|| format!("{what}: missing"))
}

fn list<T: Mirror>(items: &[T]) -> Vec<T::Pb> {
    items.iter().map(Mirror::to_pb).collect()
}

fn unlist<T: Mirror>(items: Vec<T::Pb>) -> Result<Vec<T>, String> {
    items.into_iter().map(T::from_pb).collect()
}

impl Mirror for data::NumericStruct {
    type Pb = NumericStruct;
    fn to_pb(&self) -> NumericStruct {
        NumericStruct {
            f1: self.f1,
            f2: self.f2,
            f3: self.f3,
            f4: self.f4,
            f5: self.f5,
            f6: self.f6,
            f7: self.f7,
            f8: self.f8,
            f9: self.f9,
            f10: self.f10,
            f11: self.f11,
            f12: self.f12,
        }
    }
    fn from_pb(p: NumericStruct) -> Result<Self, String> {
        Ok(data::NumericStruct {
            f1: p.f1,
            f2: p.f2,
            f3: p.f3,
            f4: p.f4,
            f5: p.f5,
            f6: p.f6,
            f7: p.f7,
            f8: p.f8,
            f9: p.f9,
            f10: p.f10,
            f11: p.f11,
            f12: p.f12,
        })
    }
}

impl Mirror for data::NumericStructList {
    type Pb = NumericStructList;
    fn to_pb(&self) -> NumericStructList {
        NumericStructList {
            items: list(&self.items),
        }
    }
    fn from_pb(p: NumericStructList) -> Result<Self, String> {
        Ok(data::NumericStructList {
            items: unlist(p.items)?,
        })
    }
}

impl Mirror for data::Sample {
    type Pb = Sample;
    fn to_pb(&self) -> Sample {
        Sample {
            int_value: self.int_value,
            long_value: self.long_value,
            float_value: self.float_value,
            double_value: self.double_value,
            short_value: self.short_value.into(),
            char_value: self.char_value.into(),
            boolean_value: self.boolean_value,
            int_value_boxed: self.int_value_boxed,
            long_value_boxed: self.long_value_boxed,
            float_value_boxed: self.float_value_boxed,
            double_value_boxed: self.double_value_boxed,
            short_value_boxed: self.short_value_boxed.map(Into::into),
            char_value_boxed: self.char_value_boxed.map(Into::into),
            boolean_value_boxed: self.boolean_value_boxed,
            int_array: self.int_array.clone(),
            long_array: self.long_array.clone(),
            float_array: self.float_array.clone(),
            double_array: self.double_array.clone(),
            short_array: self.short_array.iter().map(|&x| x.into()).collect(),
            char_array: self.char_array.iter().map(|&x| x.into()).collect(),
            boolean_array: self.boolean_array.clone(),
            string: self.string.clone(),
        }
    }
    fn from_pb(p: Sample) -> Result<Self, String> {
        Ok(data::Sample {
            int_value: p.int_value,
            long_value: p.long_value,
            float_value: p.float_value,
            double_value: p.double_value,
            short_value: narrow(p.short_value, "short_value")?,
            char_value: narrow(p.char_value, "char_value")?,
            boolean_value: p.boolean_value,
            int_value_boxed: p.int_value_boxed,
            long_value_boxed: p.long_value_boxed,
            float_value_boxed: p.float_value_boxed,
            double_value_boxed: p.double_value_boxed,
            short_value_boxed: p
                .short_value_boxed
                .map(|x| narrow(x, "short_value_boxed"))
                .transpose()?,
            char_value_boxed: p
                .char_value_boxed
                .map(|x| narrow(x, "char_value_boxed"))
                .transpose()?,
            boolean_value_boxed: p.boolean_value_boxed,
            int_array: p.int_array,
            long_array: p.long_array,
            float_array: p.float_array,
            double_array: p.double_array,
            short_array: narrow_vec(p.short_array, "short_array")?,
            char_array: narrow_vec(p.char_array, "char_array")?,
            boolean_array: p.boolean_array,
            string: p.string,
        })
    }
}

impl Mirror for data::SampleList {
    type Pb = SampleList;
    fn to_pb(&self) -> SampleList {
        SampleList {
            items: list(&self.items),
        }
    }
    fn from_pb(p: SampleList) -> Result<Self, String> {
        Ok(data::SampleList {
            items: unlist(p.items)?,
        })
    }
}

fn player_to_pb(p: data::Player) -> i32 {
    match p {
        data::Player::Java => Player::Java as i32,
        data::Player::Flash => Player::Flash as i32,
    }
}

fn player_from_pb(v: i32) -> Result<data::Player, String> {
    match Player::try_from(v) {
        Ok(Player::Java) => Ok(data::Player::Java),
        Ok(Player::Flash) => Ok(data::Player::Flash),
        Err(_) => Err(format!("player: unknown value {v}")),
    }
}

fn size_to_pb(s: data::Size) -> i32 {
    match s {
        data::Size::Small => Size::Small as i32,
        data::Size::Large => Size::Large as i32,
    }
}

fn size_from_pb(v: i32) -> Result<data::Size, String> {
    match Size::try_from(v) {
        Ok(Size::Small) => Ok(data::Size::Small),
        Ok(Size::Large) => Ok(data::Size::Large),
        Err(_) => Err(format!("size: unknown value {v}")),
    }
}

impl Mirror for data::Media {
    type Pb = Media;
    fn to_pb(&self) -> Media {
        Media {
            uri: self.uri.clone(),
            title: self.title.clone(),
            width: self.width,
            height: self.height,
            format: self.format.clone(),
            duration: self.duration,
            size: self.size,
            bitrate: self.bitrate,
            has_bitrate: self.has_bitrate,
            persons: self.persons.clone(),
            player: player_to_pb(self.player),
            copyright: self.copyright.clone(),
        }
    }
    fn from_pb(p: Media) -> Result<Self, String> {
        Ok(data::Media {
            uri: p.uri,
            title: p.title,
            width: p.width,
            height: p.height,
            format: p.format,
            duration: p.duration,
            size: p.size,
            bitrate: p.bitrate,
            has_bitrate: p.has_bitrate,
            persons: p.persons,
            player: player_from_pb(p.player)?,
            copyright: p.copyright,
        })
    }
}

impl Mirror for data::Image {
    type Pb = Image;
    fn to_pb(&self) -> Image {
        Image {
            uri: self.uri.clone(),
            title: self.title.clone(),
            width: self.width,
            height: self.height,
            size: size_to_pb(self.size),
        }
    }
    fn from_pb(p: Image) -> Result<Self, String> {
        Ok(data::Image {
            uri: p.uri,
            title: p.title,
            width: p.width,
            height: p.height,
            size: size_from_pb(p.size)?,
        })
    }
}

impl Mirror for data::MediaContent {
    type Pb = MediaContent;
    fn to_pb(&self) -> MediaContent {
        MediaContent {
            media: Some(self.media.to_pb()),
            images: list(&self.images),
        }
    }
    fn from_pb(p: MediaContent) -> Result<Self, String> {
        Ok(data::MediaContent {
            media: data::Media::from_pb(required(p.media, "media")?)?,
            images: unlist(p.images)?,
        })
    }
}

impl Mirror for data::MediaContentList {
    type Pb = MediaContentList;
    fn to_pb(&self) -> MediaContentList {
        MediaContentList {
            items: list(&self.items),
        }
    }
    fn from_pb(p: MediaContentList) -> Result<Self, String> {
        Ok(data::MediaContentList {
            items: unlist(p.items)?,
        })
    }
}

impl Mirror for data::HarmDto {
    type Pb = HarmDto;
    fn to_pb(&self) -> HarmDto {
        HarmDto {
            cur_hp: self.cur_hp,
            dead: self.dead,
            max_hp: self.max_hp,
            real: self.real,
            target_id: self.target_id,
            harm_type: self.harm_type,
            value: self.value,
        }
    }
    fn from_pb(p: HarmDto) -> Result<Self, String> {
        Ok(data::HarmDto {
            cur_hp: p.cur_hp,
            dead: p.dead,
            max_hp: p.max_hp,
            real: p.real,
            target_id: p.target_id,
            harm_type: p.harm_type,
            value: p.value,
        })
    }
}

impl Mirror for data::SkillFire {
    type Pb = SkillFire;
    fn to_pb(&self) -> SkillFire {
        SkillFire {
            attacker_id: self.attacker_id,
            harms: list(&self.harms),
            index: self.index,
            param1: self.param1,
            param2: self.param2,
            param3: self.param3,
            category: match self.category {
                data::SkillCategory::Melee => SkillCategory::Melee as i32,
                data::SkillCategory::Ranged => SkillCategory::Ranged as i32,
                data::SkillCategory::Spell => SkillCategory::Spell as i32,
                data::SkillCategory::Heal => SkillCategory::Heal as i32,
            },
        }
    }
    fn from_pb(p: SkillFire) -> Result<Self, String> {
        Ok(data::SkillFire {
            attacker_id: p.attacker_id,
            harms: unlist(p.harms)?,
            index: p.index,
            param1: p.param1,
            param2: p.param2,
            param3: p.param3,
            category: match SkillCategory::try_from(p.category) {
                Ok(SkillCategory::Melee) => data::SkillCategory::Melee,
                Ok(SkillCategory::Ranged) => data::SkillCategory::Ranged,
                Ok(SkillCategory::Spell) => data::SkillCategory::Spell,
                Ok(SkillCategory::Heal) => data::SkillCategory::Heal,
                Err(_) => return Err(format!("category: unknown value {}", p.category)),
            },
        })
    }
}

impl Mirror for data::Group {
    type Pb = Group;
    fn to_pb(&self) -> Group {
        Group {
            id: self.id,
            name: self.name.clone(),
            description: self.description.clone(),
            tags: self.tags.clone(),
        }
    }
    fn from_pb(p: Group) -> Result<Self, String> {
        Ok(data::Group {
            id: p.id,
            name: p.name,
            description: p.description,
            tags: p.tags,
        })
    }
}

impl Mirror for data::User {
    type Pb = User;
    fn to_pb(&self) -> User {
        User {
            id: self.id,
            name: self.name.clone(),
            nickname: self.nickname.clone(),
            email: self.email.clone(),
            city: self.city.clone(),
            bio: self.bio.clone(),
            age: self.age,
            verified: self.verified,
            group: Some(self.group.to_pb()),
            roles: self.roles.clone(),
        }
    }
    fn from_pb(p: User) -> Result<Self, String> {
        Ok(data::User {
            id: p.id,
            name: p.name,
            nickname: p.nickname,
            email: p.email,
            city: p.city,
            bio: p.bio,
            age: p.age,
            verified: p.verified,
            group: data::Group::from_pb(required(p.group, "group")?)?,
            roles: p.roles,
        })
    }
}

impl Mirror for data::Customer {
    type Pb = Customer;
    fn to_pb(&self) -> Customer {
        Customer {
            customer_id: self.customer_id.clone(),
            company_name: self.company_name.clone(),
            contact_name: self.contact_name.clone(),
            contact_title: self.contact_title.clone(),
            address: self.address.clone(),
            city: self.city.clone(),
            region: self.region.clone(),
            postal_code: self.postal_code.clone(),
            country: self.country.clone(),
            phone: self.phone.clone(),
            fax: self.fax.clone(),
        }
    }
    fn from_pb(p: Customer) -> Result<Self, String> {
        Ok(data::Customer {
            customer_id: p.customer_id,
            company_name: p.company_name,
            contact_name: p.contact_name,
            contact_title: p.contact_title,
            address: p.address,
            city: p.city,
            region: p.region,
            postal_code: p.postal_code,
            country: p.country,
            phone: p.phone,
            fax: p.fax,
        })
    }
}

impl Mirror for data::CustomerList {
    type Pb = CustomerList;
    fn to_pb(&self) -> CustomerList {
        CustomerList {
            customers: list(&self.customers),
        }
    }
    fn from_pb(p: CustomerList) -> Result<Self, String> {
        Ok(data::CustomerList {
            customers: unlist(p.customers)?,
        })
    }
}

impl Mirror for data::UserModel {
    type Pb = UserModel;
    fn to_pb(&self) -> UserModel {
        UserModel {
            user_id: self.user_id,
            name: self.name.clone(),
            age: self.age,
        }
    }
    fn from_pb(p: UserModel) -> Result<Self, String> {
        Ok(data::UserModel {
            user_id: p.user_id,
            name: p.name,
            age: p.age,
        })
    }
}

impl Mirror for data::UserModelList {
    type Pb = UserModelList;
    fn to_pb(&self) -> UserModelList {
        UserModelList {
            users: list(&self.users),
        }
    }
    fn from_pb(p: UserModelList) -> Result<Self, String> {
        Ok(data::UserModelList {
            users: unlist(p.users)?,
        })
    }
}

impl Mirror for data::LogEntry {
    type Pb = LogEntry;
    fn to_pb(&self) -> LogEntry {
        LogEntry {
            timestamp: self.timestamp,
            level: self.level,
            thread: self.thread,
            line: self.line,
            host: self.host.clone(),
            service: self.service.clone(),
            logger: self.logger.clone(),
            message: self.message.clone(),
        }
    }
    fn from_pb(p: LogEntry) -> Result<Self, String> {
        Ok(data::LogEntry {
            timestamp: p.timestamp,
            level: p.level,
            thread: p.thread,
            line: p.line,
            host: p.host,
            service: p.service,
            logger: p.logger,
            message: p.message,
        })
    }
}

impl Mirror for data::LogList {
    type Pb = LogList;
    fn to_pb(&self) -> LogList {
        LogList {
            entries: list(&self.entries),
        }
    }
    fn from_pb(p: LogList) -> Result<Self, String> {
        Ok(data::LogList {
            entries: unlist(p.entries)?,
        })
    }
}

// ---- Geometry and GameState ----

/// `Vec3`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct Vec3 {
    #[prost(float, tag = "1")]
    pub x: f32,
    #[prost(float, tag = "2")]
    pub y: f32,
    #[prost(float, tag = "3")]
    pub z: f32,
}

/// `Triangle`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct Triangle {
    #[prost(message, optional, tag = "1")]
    pub a: Option<Vec3>,
    #[prost(message, optional, tag = "2")]
    pub b: Option<Vec3>,
    #[prost(message, optional, tag = "3")]
    pub c: Option<Vec3>,
    #[prost(message, optional, tag = "4")]
    pub normal: Option<Vec3>,
}

/// `Mesh`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct Mesh {
    #[prost(message, repeated, tag = "1")]
    pub triangles: Vec<Triangle>,
}

/// `EntityKind`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, prost::Enumeration)]
#[repr(i32)]
pub enum EntityKind {
    Player = 0,
    Monster = 1,
    Projectile = 2,
    Item = 3,
}

/// A `(f32, f32)` tuple.
#[derive(Clone, PartialEq, prost::Message)]
pub struct Vec2 {
    #[prost(float, tag = "1")]
    pub x: f32,
    #[prost(float, tag = "2")]
    pub y: f32,
}

/// One segment of `Entity.path`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct PathSegment {
    #[prost(uint32, repeated, tag = "1")]
    pub points: Vec<u32>,
}

/// `Entity`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct Entity {
    #[prost(uint64, tag = "1")]
    pub id: u64,
    #[prost(enumeration = "EntityKind", tag = "2")]
    pub kind: i32,
    #[prost(message, optional, tag = "3")]
    pub position: Option<Vec2>,
    #[prost(message, optional, tag = "4")]
    pub velocity: Option<Vec2>,
    #[prost(uint32, repeated, tag = "5")]
    pub ids: Vec<u32>,
    #[prost(uint32, optional, tag = "6")]
    pub health: Option<u32>,
    #[prost(uint64, optional, tag = "7")]
    pub target: Option<u64>,
    #[prost(bool, repeated, tag = "8")]
    pub flags: Vec<bool>,
    #[prost(uint32, repeated, tag = "9")]
    pub inventory: Vec<u32>,
    #[prost(message, repeated, tag = "10")]
    pub path: Vec<PathSegment>,
}

/// `GameState`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct GameState {
    #[prost(uint64, tag = "1")]
    pub tick: u64,
    #[prost(message, repeated, tag = "2")]
    pub entities: Vec<Entity>,
}

impl Mirror for data::Vec3 {
    type Pb = Vec3;
    fn to_pb(&self) -> Vec3 {
        Vec3 {
            x: self.x,
            y: self.y,
            z: self.z,
        }
    }
    fn from_pb(p: Vec3) -> Result<Self, String> {
        Ok(data::Vec3 {
            x: p.x,
            y: p.y,
            z: p.z,
        })
    }
}

fn vec3_from_pb(v: Option<Vec3>, what: &str) -> Result<data::Vec3, String> {
    data::Vec3::from_pb(required(v, what)?)
}

impl Mirror for data::Triangle {
    type Pb = Triangle;
    fn to_pb(&self) -> Triangle {
        Triangle {
            a: Some(self.a.to_pb()),
            b: Some(self.b.to_pb()),
            c: Some(self.c.to_pb()),
            normal: Some(self.normal.to_pb()),
        }
    }
    fn from_pb(p: Triangle) -> Result<Self, String> {
        Ok(data::Triangle {
            a: vec3_from_pb(p.a, "Triangle.a")?,
            b: vec3_from_pb(p.b, "Triangle.b")?,
            c: vec3_from_pb(p.c, "Triangle.c")?,
            normal: vec3_from_pb(p.normal, "Triangle.normal")?,
        })
    }
}

impl Mirror for data::Mesh {
    type Pb = Mesh;
    fn to_pb(&self) -> Mesh {
        Mesh {
            triangles: list(&self.triangles),
        }
    }
    fn from_pb(p: Mesh) -> Result<Self, String> {
        Ok(data::Mesh {
            triangles: unlist(p.triangles)?,
        })
    }
}

fn entity_kind_to_pb(k: data::EntityKind) -> i32 {
    match k {
        data::EntityKind::Player => EntityKind::Player as i32,
        data::EntityKind::Monster => EntityKind::Monster as i32,
        data::EntityKind::Projectile => EntityKind::Projectile as i32,
        data::EntityKind::Item => EntityKind::Item as i32,
    }
}

fn entity_kind_from_pb(v: i32) -> Result<data::EntityKind, String> {
    match EntityKind::try_from(v) {
        Ok(EntityKind::Player) => Ok(data::EntityKind::Player),
        Ok(EntityKind::Monster) => Ok(data::EntityKind::Monster),
        Ok(EntityKind::Projectile) => Ok(data::EntityKind::Projectile),
        Ok(EntityKind::Item) => Ok(data::EntityKind::Item),
        Err(_) => Err(format!("EntityKind: unknown value {v}")),
    }
}

fn pair_from_pb(v: Option<Vec2>, what: &str) -> Result<(f32, f32), String> {
    let v = required(v, what)?;
    Ok((v.x, v.y))
}

impl Mirror for data::Entity {
    type Pb = Entity;
    fn to_pb(&self) -> Entity {
        Entity {
            id: self.id,
            kind: entity_kind_to_pb(self.kind),
            position: Some(Vec2 {
                x: self.position.0,
                y: self.position.1,
            }),
            velocity: Some(Vec2 {
                x: self.velocity.0,
                y: self.velocity.1,
            }),
            ids: self.ids.to_vec(),
            health: self.health,
            target: self.target,
            flags: self.flags.clone(),
            inventory: self.inventory.iter().map(|&x| u32::from(x)).collect(),
            path: self
                .path
                .iter()
                .map(|s| PathSegment {
                    points: s.iter().map(|&x| u32::from(x)).collect(),
                })
                .collect(),
        }
    }
    fn from_pb(p: Entity) -> Result<Self, String> {
        let ids: [u32; 4] = p
            .ids
            .try_into()
            .map_err(|v: Vec<u32>| format!("Entity.ids: {} elements, expected 4", v.len()))?;
        Ok(data::Entity {
            id: p.id,
            kind: entity_kind_from_pb(p.kind)?,
            position: pair_from_pb(p.position, "Entity.position")?,
            velocity: pair_from_pb(p.velocity, "Entity.velocity")?,
            ids,
            health: p.health,
            target: p.target,
            flags: p.flags,
            inventory: narrow_vec(p.inventory, "Entity.inventory")?,
            path: p
                .path
                .into_iter()
                .map(|s| narrow_vec(s.points, "Entity.path"))
                .collect::<Result<_, _>>()?,
        })
    }
}

impl Mirror for data::GameState {
    type Pb = GameState;
    fn to_pb(&self) -> GameState {
        GameState {
            tick: self.tick,
            entities: list(&self.entities),
        }
    }
    fn from_pb(p: GameState) -> Result<Self, String> {
        Ok(data::GameState {
            tick: p.tick,
            entities: unlist(p.entities)?,
        })
    }
}
