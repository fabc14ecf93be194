//! The values measured: one builder per dataset.

use crate::data::*;

/// `NumericStruct` number `k`: small, large and negative values, so varints vary in length.
pub fn numeric_struct(k: i32) -> NumericStruct {
    NumericStruct {
        f1: 1 + k,
        f2: -2 - k,
        f3: 300 + k,
        f4: 40_000 + k,
        f5: 5_000_000 + k,
        f6: -600_000_000 + k,
        f7: 7 * k,
        f8: 88,
        f9: 999 - k,
        f10: (1 << 20) + k,
        f11: -12_345,
        f12: i32::MAX - k,
    }
}

/// Five [`NumericStruct`]s.
pub fn numeric_struct_list() -> NumericStructList {
    NumericStructList {
        items: (0..5).map(numeric_struct).collect(),
    }
}

/// `Sample` number `k` (the values of jvm-serializers' `Sample.populate`, arrays of 6).
pub fn sample(k: i32) -> Sample {
    let k16 = k as i16;
    Sample {
        int_value: 123 + k,
        long_value: 1_230_000 + i64::from(k),
        float_value: 12.345 + k as f32,
        double_value: 1.234_567 + f64::from(k),
        short_value: 12_345 - k16,
        char_value: u16::from(b'!') + k as u16,
        boolean_value: k % 2 == 0,
        int_value_boxed: Some(321 + k),
        long_value_boxed: Some(3_210_000 + i64::from(k)),
        float_value_boxed: Some(54.321 + k as f32),
        double_value_boxed: Some(7.654_321 + f64::from(k)),
        short_value_boxed: Some(32_100 - k16),
        char_value_boxed: Some(u16::from(b'$') + k as u16),
        boolean_value_boxed: Some(k % 2 == 1),
        int_array: vec![-1234, -123, -12, -1, 0, 1 + k],
        long_array: vec![-123_400, -12_340, -1_234, -1, 0, 1 + i64::from(k)],
        float_array: vec![-12.34, -12.3, -1.2, -1.0, 0.0, 1.0 + k as f32],
        double_array: vec![-1.234, -1.23, -12.0, -1.0, 0.0, 1.0 + f64::from(k)],
        short_array: vec![-1234, -123, -12, -1, 0, 1 + k16],
        char_array: "asdfA"
            .encode_utf16()
            .chain([u16::from(b'0') + k as u16])
            .collect(),
        boolean_array: vec![false, false, true, false, true, k % 2 == 0],
        string: format!("Hello, world! {k}"),
    }
}

/// Five [`Sample`]s.
pub fn sample_list() -> SampleList {
    SampleList {
        items: (0..5).map(sample).collect(),
    }
}

/// The classic jvm-serializers `MediaContent`, number `k`.
pub fn media_content(k: i32) -> MediaContent {
    let suffix = if k == 0 {
        String::new()
    } else {
        format!("_{k}")
    };
    MediaContent {
        media: Media {
            uri: format!("http://javaone.com/keynote{suffix}.mpg"),
            title: Some("Javaone Keynote".to_string()),
            width: 640,
            height: 480,
            format: "video/mpg4".to_string(),
            duration: 18_000_000 + i64::from(k),
            size: 58_982_400,
            bitrate: 262_144,
            has_bitrate: true,
            persons: vec!["Bill Gates".to_string(), "Steve Jobs".to_string()],
            player: if k % 2 == 0 {
                Player::Java
            } else {
                Player::Flash
            },
            copyright: None,
        },
        images: vec![
            Image {
                uri: format!("http://javaone.com/keynote_large{suffix}.jpg"),
                title: Some("Javaone Keynote".to_string()),
                width: 1024,
                height: 768,
                size: Size::Large,
            },
            Image {
                uri: format!("http://javaone.com/keynote_small{suffix}.jpg"),
                title: None,
                width: 320,
                height: 240,
                size: Size::Small,
            },
        ],
    }
}

/// Five [`MediaContent`]s.
pub fn media_content_list() -> MediaContentList {
    MediaContentList {
        items: (0..5).map(media_content).collect(),
    }
}

/// A skill hitting nine targets.
pub fn skill_fire() -> SkillFire {
    SkillFire {
        attacker_id: 100_086,
        harms: (0..9)
            .map(|i| HarmDto {
                cur_hp: 1520.5 - 130.25 * i as f32,
                dead: i == 4,
                max_hp: 2000.0 + 100.0 * i as f32,
                real: 1 + i % 2,
                target_id: 200_000 + 17 * i,
                harm_type: i % 3,
                value: 133.75 + 10.5 * i as f32,
            })
            .collect(),
        index: 3,
        param1: 7,
        param2: 1_024,
        param3: -1,
        category: SkillCategory::Spell,
    }
}

/// A user and its group, mostly Chinese text.
pub fn user() -> User {
    User {
        id: 9_007_199_254,
        name: "张伟".to_string(),
        nickname: "小张同学".to_string(),
        email: "zhangwei@example.cn".to_string(),
        city: "北京市海淀区中关村大街".to_string(),
        bio: "热爱开源软件和分布式系统，喜欢在周末爬山、读书、写代码。\
              目前在一家互联网公司负责序列化框架的性能优化工作。"
            .to_string(),
        age: 31,
        verified: true,
        group: Group {
            id: 42,
            name: "高性能序列化兴趣小组".to_string(),
            description: "讨论跨语言序列化协议、零拷贝、JIT 代码生成以及各种基准测试的结果。\
                          欢迎所有对性能有追求的工程师加入！"
                .to_string(),
            tags: vec![
                "序列化".to_string(),
                "性能".to_string(),
                "开源".to_string(),
                "Rust".to_string(),
            ],
        },
        roles: vec!["管理员".to_string(), "版主".to_string(), "成员".to_string()],
    }
}

#[rustfmt::skip]
const CUSTOMERS: [[&str; 11]; 20] = [
    [
        "ALFKI",
        "Alfreds Futterkiste",
        "Maria Anders",
        "Sales Representative",
        "Obere Str. 57",
        "Berlin",
        "",
        "12209",
        "Germany",
        "030-0074321",
        "030-0076545",
    ],
    [
        "ANATR",
        "Ana Trujillo Emparedados y helados",
        "Ana Trujillo",
        "Owner",
        "Avda. de la Constitución 2222",
        "México D.F.",
        "",
        "05021",
        "Mexico",
        "(5) 555-4729",
        "(5) 555-3745",
    ],
    [
        "ANTON",
        "Antonio Moreno Taquería",
        "Antonio Moreno",
        "Owner",
        "Mataderos 2312",
        "México D.F.",
        "",
        "05023",
        "Mexico",
        "(5) 555-3932",
        "",
    ],
    [
        "AROUT",
        "Around the Horn",
        "Thomas Hardy",
        "Sales Representative",
        "120 Hanover Sq.",
        "London",
        "",
        "WA1 1DP",
        "UK",
        "(171) 555-7788",
        "(171) 555-6750",
    ],
    [
        "BERGS",
        "Berglunds snabbköp",
        "Christina Berglund",
        "Order Administrator",
        "Berguvsvägen 8",
        "Luleå",
        "",
        "S-958 22",
        "Sweden",
        "0921-12 34 65",
        "0921-12 34 67",
    ],
    [
        "BLAUS",
        "Blauer See Delikatessen",
        "Hanna Moos",
        "Sales Representative",
        "Forsterstr. 57",
        "Mannheim",
        "",
        "68306",
        "Germany",
        "0621-08460",
        "0621-08924",
    ],
    [
        "BLONP",
        "Blondesddsl père et fils",
        "Frédérique Citeaux",
        "Marketing Manager",
        "24, place Kléber",
        "Strasbourg",
        "",
        "67000",
        "France",
        "88.60.15.31",
        "88.60.15.32",
    ],
    [
        "BOLID",
        "Bólido Comidas preparadas",
        "Martín Sommer",
        "Owner",
        "C/ Araquil, 67",
        "Madrid",
        "",
        "28023",
        "Spain",
        "(91) 555 22 82",
        "(91) 555 91 99",
    ],
    [
        "BONAP",
        "Bon app'",
        "Laurence Lebihan",
        "Owner",
        "12, rue des Bouchers",
        "Marseille",
        "",
        "13008",
        "France",
        "91.24.45.40",
        "91.24.45.41",
    ],
    [
        "BOTTM",
        "Bottom-Dollar Markets",
        "Elizabeth Lincoln",
        "Accounting Manager",
        "23 Tsawassen Blvd.",
        "Tsawassen",
        "BC",
        "T2F 8M4",
        "Canada",
        "(604) 555-4729",
        "(604) 555-3745",
    ],
    [
        "BSBEV",
        "B's Beverages",
        "Victoria Ashworth",
        "Sales Representative",
        "Fauntleroy Circus",
        "London",
        "",
        "EC2 5NT",
        "UK",
        "(171) 555-1212",
        "",
    ],
    [
        "CACTU",
        "Cactus Comidas para llevar",
        "Patricio Simpson",
        "Sales Agent",
        "Cerrito 333",
        "Buenos Aires",
        "",
        "1010",
        "Argentina",
        "(1) 135-5555",
        "(1) 135-4892",
    ],
    [
        "CENTC",
        "Centro comercial Moctezuma",
        "Francisco Chang",
        "Marketing Manager",
        "Sierras de Granada 9993",
        "México D.F.",
        "",
        "05022",
        "Mexico",
        "(5) 555-3392",
        "(5) 555-7293",
    ],
    [
        "CHOPS",
        "Chop-suey Chinese",
        "Yang Wang",
        "Owner",
        "Hauptstr. 29",
        "Bern",
        "",
        "3012",
        "Switzerland",
        "0452-076545",
        "",
    ],
    [
        "COMMI",
        "Comércio Mineiro",
        "Pedro Afonso",
        "Sales Associate",
        "Av. dos Lusíadas, 23",
        "São Paulo",
        "SP",
        "05432-043",
        "Brazil",
        "(11) 555-7647",
        "",
    ],
    [
        "CONSH",
        "Consolidated Holdings",
        "Elizabeth Brown",
        "Sales Representative",
        "Berkeley Gardens 12 Brewery",
        "London",
        "",
        "WX1 6LT",
        "UK",
        "(171) 555-2282",
        "(171) 555-9199",
    ],
    [
        "DRACD",
        "Drachenblut Delikatessen",
        "Sven Ottlieb",
        "Order Administrator",
        "Walserweg 21",
        "Aachen",
        "",
        "52066",
        "Germany",
        "0241-039123",
        "0241-059428",
    ],
    [
        "DUMON",
        "Du monde entier",
        "Janine Labrune",
        "Owner",
        "67, rue des Cinquante Otages",
        "Nantes",
        "",
        "44000",
        "France",
        "40.67.88.88",
        "40.67.89.89",
    ],
    [
        "EASTC",
        "Eastern Connection",
        "Ann Devon",
        "Sales Agent",
        "35 King George",
        "London",
        "",
        "WX3 6FW",
        "UK",
        "(171) 555-0297",
        "(171) 555-3373",
    ],
    [
        "ERNSH",
        "Ernst Handel",
        "Roland Mendel",
        "Sales Manager",
        "Kirchgasse 6",
        "Graz",
        "",
        "8010",
        "Austria",
        "7675-3425",
        "7675-3426",
    ],
];

/// Twenty Northwind-style customers.
pub fn customer_list() -> CustomerList {
    CustomerList {
        customers: CUSTOMERS
            .iter()
            .map(|c| Customer {
                customer_id: c[0].to_string(),
                company_name: c[1].to_string(),
                contact_name: c[2].to_string(),
                contact_title: c[3].to_string(),
                address: c[4].to_string(),
                city: c[5].to_string(),
                region: c[6].to_string(),
                postal_code: c[7].to_string(),
                country: c[8].to_string(),
                phone: c[9].to_string(),
                fax: c[10].to_string(),
            })
            .collect(),
    }
}

/// `n` small user records.
pub fn user_model_list(n: i32) -> UserModelList {
    UserModelList {
        users: (0..n)
            .map(|i| UserModel {
                user_id: 10_000 + i,
                name: format!("user_{i:03}"),
                age: 18 + i % 50,
            })
            .collect(),
    }
}

/// `n` log records from a handful of services (the borrowed-decoding section uses 1,000):
/// short ASCII host, service and logger names and a message of about 60 characters.
pub fn log_list(n: i32) -> LogList {
    const SERVICES: [&str; 4] = ["auth", "billing", "search", "gateway"];
    const VERBS: [&str; 4] = ["GET", "POST", "PUT", "DELETE"];
    LogList {
        entries: (0..n)
            .map(|i| {
                let service = SERVICES[(i % 4) as usize];
                LogEntry {
                    timestamp: 1_764_590_400_000 + i64::from(i) * 37,
                    level: i % 5,
                    thread: 1 + i % 16,
                    line: 100 + (i * 7) % 900,
                    host: format!("web-{:02}.eu-west-1.internal", i % 12),
                    service: service.to_string(),
                    logger: format!("com.example.{service}.RequestHandler"),
                    message: format!(
                        "{} /api/v1/{service}/{} completed with status {} in {} ms",
                        VERBS[(i % 4) as usize],
                        10_000 + i * 13,
                        if i % 17 == 0 { 500 } else { 200 },
                        1 + (i * 31) % 250
                    ),
                }
            })
            .collect(),
    }
}

/// Triangles in the `Geometry` dataset.
pub const TRIANGLES: usize = 20_000;
/// Entities in the `GameState` dataset.
pub const ENTITIES: usize = 5_000;

/// A small deterministic float from `i`: varied mantissas, both signs.
fn coord(i: usize, salt: usize) -> f32 {
    let h = (i.wrapping_mul(2_654_435_761) ^ salt.wrapping_mul(40_503)) % 20_000;
    (h as f32 - 10_000.0) / 97.0
}

/// A mesh of `n` triangles.
pub fn mesh(n: usize) -> Mesh {
    let v = |i: usize, s: usize| Vec3 {
        x: coord(i, s),
        y: coord(i, s + 1),
        z: coord(i, s + 2),
    };
    Mesh {
        triangles: (0..n)
            .map(|i| Triangle {
                a: v(i, 0),
                b: v(i, 3),
                c: v(i, 6),
                normal: Vec3 {
                    x: 0.0,
                    y: (i % 3) as f32 / 3.0,
                    z: 1.0,
                },
            })
            .collect(),
    }
}

/// A game state of `n` entities: a mix of kinds, some without health or target, short flag
/// and inventory lists and a path of a few segments.
pub fn game_state(n: usize) -> GameState {
    const KINDS: [EntityKind; 4] = [
        EntityKind::Player,
        EntityKind::Monster,
        EntityKind::Projectile,
        EntityKind::Item,
    ];
    GameState {
        tick: 1_234_567,
        entities: (0..n)
            .map(|i| Entity {
                id: 1_000_000 + i as u64 * 7,
                kind: KINDS[i % 4],
                position: (coord(i, 0), coord(i, 1)),
                velocity: (coord(i, 2) / 100.0, coord(i, 3) / 100.0),
                ids: [i as u32, (i * 3) as u32, 77, u32::MAX - i as u32],
                health: (i % 4 != 2).then_some(100 + (i % 900) as u32),
                target: (i % 3 == 0).then_some(1_000_000 + (i as u64 * 13) % 50_000),
                flags: (0..(i % 5) + 1).map(|k| (i + k) % 2 == 0).collect(),
                inventory: (0..i % 8).map(|k| (i * 31 + k * 7) as u16).collect(),
                path: (0..i % 3)
                    .map(|s| (0..3 + s).map(|k| (i + s * 5 + k) as u16).collect())
                    .collect(),
            })
            .collect(),
    }
}
