//! Borrowed mirrors of the datasets of the borrowed-decoding section ([`crate::borrowed`]):
//! the same fields as the owned types of [`crate::data`] with `&'a str` for `String`, and the
//! same `#[fury(id = ..)]`, so they read (and write) exactly the bytes the owned types write.
//!
//! One type per struct serves fury-rs, serde (postcard) and bitcode, except `Sample`: fury-rs
//! reads its dense arrays in place ([`fury::ArrayView`], [`SampleView`]), which serde and
//! bitcode cannot, so they decode [`SampleRef`] (the arrays as `Vec`s, the string borrowed).

use crate::data::{self, Player, Size};
use serde::{Deserialize, Serialize};

/// Borrowed [`data::Group`].
#[derive(
    fury::FuryObject,
    Serialize,
    Deserialize,
    bitcode::Encode,
    bitcode::Decode,
    Debug,
    Clone,
    PartialEq,
)]
#[fury(id = 114)]
pub struct GroupRef<'a> {
    pub id: i32,
    pub name: &'a str,
    pub description: &'a str,
    #[serde(borrow)]
    pub tags: Vec<&'a str>,
}

/// Borrowed [`data::User`].
#[derive(
    fury::FuryObject,
    Serialize,
    Deserialize,
    bitcode::Encode,
    bitcode::Decode,
    Debug,
    Clone,
    PartialEq,
)]
#[fury(id = 115)]
pub struct UserRef<'a> {
    pub id: i64,
    pub name: &'a str,
    pub nickname: &'a str,
    pub email: &'a str,
    pub city: &'a str,
    pub bio: &'a str,
    pub age: i32,
    pub verified: bool,
    #[serde(borrow)]
    pub group: GroupRef<'a>,
    #[serde(borrow)]
    pub roles: Vec<&'a str>,
}

/// Borrowed [`data::Customer`].
#[derive(
    fury::FuryObject,
    Serialize,
    Deserialize,
    bitcode::Encode,
    bitcode::Decode,
    Debug,
    Clone,
    PartialEq,
)]
#[fury(id = 116)]
pub struct CustomerRef<'a> {
    pub customer_id: &'a str,
    pub company_name: &'a str,
    pub contact_name: &'a str,
    pub contact_title: &'a str,
    pub address: &'a str,
    pub city: &'a str,
    pub region: &'a str,
    pub postal_code: &'a str,
    pub country: &'a str,
    pub phone: &'a str,
    pub fax: &'a str,
}

/// Borrowed [`data::CustomerList`].
#[derive(
    fury::FuryObject,
    Serialize,
    Deserialize,
    bitcode::Encode,
    bitcode::Decode,
    Debug,
    Clone,
    PartialEq,
)]
#[fury(id = 117)]
pub struct CustomerListRef<'a> {
    #[serde(borrow)]
    pub customers: Vec<CustomerRef<'a>>,
}

/// Borrowed [`data::Media`].
#[derive(
    fury::FuryObject,
    Serialize,
    Deserialize,
    bitcode::Encode,
    bitcode::Decode,
    Debug,
    Clone,
    PartialEq,
)]
#[fury(id = 107)]
pub struct MediaRef<'a> {
    pub uri: &'a str,
    #[serde(borrow)]
    pub title: Option<&'a str>,
    pub width: i32,
    pub height: i32,
    pub format: &'a str,
    pub duration: i64,
    pub size: i64,
    pub bitrate: i32,
    pub has_bitrate: bool,
    #[serde(borrow)]
    pub persons: Vec<&'a str>,
    pub player: Player,
    #[serde(borrow)]
    pub copyright: Option<&'a str>,
}

/// Borrowed [`data::Image`].
#[derive(
    fury::FuryObject,
    Serialize,
    Deserialize,
    bitcode::Encode,
    bitcode::Decode,
    Debug,
    Clone,
    PartialEq,
)]
#[fury(id = 108)]
pub struct ImageRef<'a> {
    pub uri: &'a str,
    #[serde(borrow)]
    pub title: Option<&'a str>,
    pub width: i32,
    pub height: i32,
    pub size: Size,
}

/// Borrowed [`data::MediaContent`].
#[derive(
    fury::FuryObject,
    Serialize,
    Deserialize,
    bitcode::Encode,
    bitcode::Decode,
    Debug,
    Clone,
    PartialEq,
)]
#[fury(id = 109)]
pub struct MediaContentRef<'a> {
    #[serde(borrow)]
    pub media: MediaRef<'a>,
    #[serde(borrow)]
    pub images: Vec<ImageRef<'a>>,
}

/// [`data::Sample`] as fury-rs reads it in place: the dense arrays as views of the input
/// (`bool` has no view: its array is copied), the string borrowed.
#[derive(fury::FuryObject, Debug, Clone, PartialEq)]
#[fury(id = 103)]
pub struct SampleView<'a> {
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
    pub int_array: fury::ArrayView<'a, i32>,
    pub long_array: fury::ArrayView<'a, i64>,
    pub float_array: fury::ArrayView<'a, f32>,
    pub double_array: fury::ArrayView<'a, f64>,
    pub short_array: fury::ArrayView<'a, i16>,
    pub char_array: fury::ArrayView<'a, u16>,
    pub boolean_array: Vec<bool>,
    pub string: &'a str,
}

/// Five [`SampleView`]s.
#[derive(fury::FuryObject, Debug, Clone, PartialEq)]
#[fury(id = 104)]
pub struct SampleListView<'a> {
    pub items: Vec<SampleView<'a>>,
}

/// [`data::Sample`] with its string borrowed (serde, bitcode).
#[derive(Serialize, Deserialize, bitcode::Encode, bitcode::Decode, Debug, Clone, PartialEq)]
pub struct SampleRef<'a> {
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
    pub string: &'a str,
}

/// Five [`SampleRef`]s.
#[derive(Serialize, Deserialize, bitcode::Encode, bitcode::Decode, Debug, Clone, PartialEq)]
pub struct SampleListRef<'a> {
    #[serde(borrow)]
    pub items: Vec<SampleRef<'a>>,
}

/// Borrowed [`data::LogEntry`].
#[derive(
    fury::FuryObject,
    Serialize,
    Deserialize,
    bitcode::Encode,
    bitcode::Decode,
    Debug,
    Clone,
    PartialEq,
)]
#[fury(id = 120)]
pub struct LogEntryRef<'a> {
    pub timestamp: i64,
    pub level: i32,
    pub thread: i32,
    pub line: i32,
    pub host: &'a str,
    pub service: &'a str,
    pub logger: &'a str,
    pub message: &'a str,
}

/// Borrowed [`data::LogList`].
#[derive(
    fury::FuryObject,
    Serialize,
    Deserialize,
    bitcode::Encode,
    bitcode::Decode,
    Debug,
    Clone,
    PartialEq,
)]
#[fury(id = 121)]
pub struct LogListRef<'a> {
    #[serde(borrow)]
    pub entries: Vec<LogEntryRef<'a>>,
}

/// A blob for the out-of-band table: a few fields and one large byte payload.
#[derive(fury::FuryObject, Debug, Clone, PartialEq)]
#[fury(id = 130)]
pub struct Blob {
    pub id: i64,
    pub name: String,
    pub payload: Vec<u8>,
}

/// Borrowed [`Blob`]: the payload borrows from the stream (in band) or from its buffer (out
/// of band).
#[derive(fury::FuryObject, Debug, Clone, PartialEq)]
#[fury(id = 130)]
pub struct BlobRef<'a> {
    pub id: i64,
    pub name: &'a str,
    pub payload: &'a [u8],
}

// The borrowed view of an owned value (what bitcode encodes, and what every borrowed decode
// is compared with).

fn strs(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

impl<'a> From<&'a data::Group> for GroupRef<'a> {
    fn from(g: &'a data::Group) -> Self {
        GroupRef {
            id: g.id,
            name: &g.name,
            description: &g.description,
            tags: strs(&g.tags),
        }
    }
}

impl<'a> From<&'a data::User> for UserRef<'a> {
    fn from(u: &'a data::User) -> Self {
        UserRef {
            id: u.id,
            name: &u.name,
            nickname: &u.nickname,
            email: &u.email,
            city: &u.city,
            bio: &u.bio,
            age: u.age,
            verified: u.verified,
            group: GroupRef::from(&u.group),
            roles: strs(&u.roles),
        }
    }
}

impl<'a> From<&'a data::Customer> for CustomerRef<'a> {
    fn from(c: &'a data::Customer) -> Self {
        CustomerRef {
            customer_id: &c.customer_id,
            company_name: &c.company_name,
            contact_name: &c.contact_name,
            contact_title: &c.contact_title,
            address: &c.address,
            city: &c.city,
            region: &c.region,
            postal_code: &c.postal_code,
            country: &c.country,
            phone: &c.phone,
            fax: &c.fax,
        }
    }
}

impl<'a> From<&'a data::CustomerList> for CustomerListRef<'a> {
    fn from(l: &'a data::CustomerList) -> Self {
        CustomerListRef {
            customers: l.customers.iter().map(CustomerRef::from).collect(),
        }
    }
}

impl<'a> From<&'a data::Media> for MediaRef<'a> {
    fn from(m: &'a data::Media) -> Self {
        MediaRef {
            uri: &m.uri,
            title: m.title.as_deref(),
            width: m.width,
            height: m.height,
            format: &m.format,
            duration: m.duration,
            size: m.size,
            bitrate: m.bitrate,
            has_bitrate: m.has_bitrate,
            persons: strs(&m.persons),
            player: m.player,
            copyright: m.copyright.as_deref(),
        }
    }
}

impl<'a> From<&'a data::Image> for ImageRef<'a> {
    fn from(i: &'a data::Image) -> Self {
        ImageRef {
            uri: &i.uri,
            title: i.title.as_deref(),
            width: i.width,
            height: i.height,
            size: i.size,
        }
    }
}

impl<'a> From<&'a data::MediaContent> for MediaContentRef<'a> {
    fn from(c: &'a data::MediaContent) -> Self {
        MediaContentRef {
            media: MediaRef::from(&c.media),
            images: c.images.iter().map(ImageRef::from).collect(),
        }
    }
}

impl<'a> From<&'a data::Sample> for SampleRef<'a> {
    fn from(s: &'a data::Sample) -> Self {
        SampleRef {
            int_value: s.int_value,
            long_value: s.long_value,
            float_value: s.float_value,
            double_value: s.double_value,
            short_value: s.short_value,
            char_value: s.char_value,
            boolean_value: s.boolean_value,
            int_value_boxed: s.int_value_boxed,
            long_value_boxed: s.long_value_boxed,
            float_value_boxed: s.float_value_boxed,
            double_value_boxed: s.double_value_boxed,
            short_value_boxed: s.short_value_boxed,
            char_value_boxed: s.char_value_boxed,
            boolean_value_boxed: s.boolean_value_boxed,
            int_array: s.int_array.clone(),
            long_array: s.long_array.clone(),
            float_array: s.float_array.clone(),
            double_array: s.double_array.clone(),
            short_array: s.short_array.clone(),
            char_array: s.char_array.clone(),
            boolean_array: s.boolean_array.clone(),
            string: &s.string,
        }
    }
}

impl<'a> From<&'a data::SampleList> for SampleListRef<'a> {
    fn from(l: &'a data::SampleList) -> Self {
        SampleListRef {
            items: l.items.iter().map(SampleRef::from).collect(),
        }
    }
}

impl<'a> From<&'a data::LogEntry> for LogEntryRef<'a> {
    fn from(e: &'a data::LogEntry) -> Self {
        LogEntryRef {
            timestamp: e.timestamp,
            level: e.level,
            thread: e.thread,
            line: e.line,
            host: &e.host,
            service: &e.service,
            logger: &e.logger,
            message: &e.message,
        }
    }
}

impl<'a> From<&'a data::LogList> for LogListRef<'a> {
    fn from(l: &'a data::LogList) -> Self {
        LogListRef {
            entries: l.entries.iter().map(LogEntryRef::from).collect(),
        }
    }
}
