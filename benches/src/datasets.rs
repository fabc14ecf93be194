//! The datasets measured: one table, the `dataset_table!` block below, read by everything
//! that iterates them (the report's tables and chart, the criterion `datasets` bench, the
//! smoke test, the fury-rs / fory interop rows, the thread rows, the borrowed-decoding
//! section, the `probe` example and, through `probe --instruction-datasets`,
//! `benches/scripts/instructions.sh`).
//!
//! # How to add a dataset
//!
//! 1. Its types, inside the `dataset_types!` block of `src/data.rs` (each with a
//!    `#[fury(id = ..)]` of its own; the derives of every peer come with the block), their
//!    protobuf mirrors in `src/pb.rs` (`impl Mirror`) and a function building its value in
//!    `src/values.rs`.
//! 2. One row below: the name the report prints, the expression of its value, and the sections
//!    it runs in. Rows run in table order in every section but the borrowed-decoding one,
//!    which runs in the order of its `borrowed(N)` keys.
//!
//! The sections (a row lists those it is in):
//! - `main`: the report's main tables and chart, `cargo bench --bench datasets`, the smoke
//!   test, the interop rows;
//! - `threads`: the 1 vs 2 threads table (a `main` dataset);
//! - `instructions`: the default datasets of `benches/scripts/instructions.sh`;
//! - `borrowed(N)`: the borrowed-decoding section, N its sort key there; the type also needs
//!   borrowed mirrors in `src/views.rs`, registered in `crate::borrowed::fury_borrowed`, and an
//!   `impl Borrowed` (the `borrowed!` list of `src/borrowed.rs`).

use crate::borrowed::{Borrowed, LOG_RECORDS};
use crate::data::Dataset;
use crate::table::{count, select};
use crate::values;

dataset_table! {
    // name                 value                                  sections
    "NumericStruct"     => values::numeric_struct(0),             [main, instructions];
    "Sample"            => values::sample(0),                     [main, instructions];
    "MediaContent"      => values::media_content(0),
                                                [main, threads, instructions, borrowed(2)];
    "NumericStructList" => values::numeric_struct_list(),         [main, instructions];
    "SampleList"        => values::sample_list(),                 [main, threads, borrowed(3)];
    "MediaContentList"  => values::media_content_list(),          [main];
    "SkillFire"         => values::skill_fire(),                  [main];
    "User"              => values::user(),                        [main, instructions, borrowed(0)];
    "CustomerList"      => values::customer_list(),
                                                [main, threads, instructions, borrowed(1)];
    "UserModelList0"    => values::user_model_list(0),            [main];
    "UserModelList1"    => values::user_model_list(1),            [main];
    "UserModelList10"   => values::user_model_list(10),           [main, instructions];
    "UserModelList100"  => values::user_model_list(100),          [main];
    "Geometry"          => values::mesh(values::TRIANGLES),       [main];
    "GameState"         => values::game_state(values::ENTITIES),  [main];
    "LogList"           => values::log_list(LOG_RECORDS),         [borrowed(4)];
}

/// One row of the table: a dataset's name and the sections it runs in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DatasetRow {
    /// The name in the report, criterion ids and `probe`'s argument.
    pub name: &'static str,
    /// In the main tables (and the criterion bench, the smoke test, the interop rows).
    pub main: bool,
    /// In the thread table.
    pub threads: bool,
    /// Counted by default by `benches/scripts/instructions.sh`.
    pub instructions: bool,
    /// In the borrowed-decoding section, with this sort key.
    pub borrowed: Option<u32>,
}

impl DatasetRow {
    /// A row in no section (the defaults of a row's flags).
    const NONE: DatasetRow = DatasetRow {
        name: "",
        main: false,
        threads: false,
        instructions: false,
        borrowed: None,
    };
}

/// Whether row `a` comes before row `b` in the borrowed-decoding section (by key, then in
/// table order).
const fn borrowed_before(a: usize, b: usize) -> bool {
    match (DATASET_ROWS[a].borrowed, DATASET_ROWS[b].borrowed) {
        (Some(ka), Some(kb)) => ka < kb || (ka == kb && a < b),
        _ => false,
    }
}

/// The names of the borrowed-decoding section's rows, in the order of their keys.
const fn borrowed_names<const N: usize>() -> [&'static str; N] {
    let mut out = [""; N];
    let mut n = 0;
    let mut last: Option<usize> = None;
    while n < N {
        // The first row after `last`.
        let mut next: Option<usize> = None;
        let mut i = 0;
        while i < DATASET_ROWS.len() {
            let after_last = match last {
                Some(l) => borrowed_before(l, i),
                None => DATASET_ROWS[i].borrowed.is_some(),
            };
            let before_next = match next {
                Some(x) => borrowed_before(i, x),
                None => true,
            };
            if after_last && before_next {
                next = Some(i);
            }
            i += 1;
        }
        match next {
            Some(i) => {
                out[n] = DATASET_ROWS[i].name;
                last = Some(i);
            }
            None => panic!("fewer borrowed rows than counted"),
        }
        n += 1;
    }
    out
}

/// The datasets of the main tables, in table order.
pub const DATASETS: [&str; count(IN_MAIN)] = select(NAMES, IN_MAIN, "");

/// The datasets measured with 1 and 2 threads.
pub const THREAD_DATASETS: [&str; count(IN_THREADS)] = select(NAMES, IN_THREADS, "");

/// The datasets `benches/scripts/instructions.sh` counts when given none.
pub const INSTRUCTION_DATASETS: [&str; count(IN_INSTRUCTIONS)] = select(NAMES, IN_INSTRUCTIONS, "");

/// The datasets of the borrowed-decoding section, in its table order.
pub const BORROWED_DATASETS: [&str; count(IN_BORROWED)] = borrowed_names();

/// Calls `f` with each dataset's name and value (a generic visitor, since the types differ).
pub trait Visit {
    /// Called once per dataset.
    fn visit<T: Dataset>(&mut self, name: &'static str, value: &T);
}

/// Calls `f` with each dataset of the borrowed-decoding section.
pub trait VisitBorrowed {
    /// Called once per dataset.
    fn visit<T: Borrowed>(&mut self, name: &'static str, value: &T);
}

/// The table: the rows ([`DATASET_ROWS`]), [`visit_datasets`] over the `main` rows and
/// [`visit_borrowed_datasets`] over the `borrowed(N)` ones.
macro_rules! dataset_table {
    ($(
        $name:literal => $value:expr, [$($flag:ident $(($key:literal))?),* $(,)?];
    )*) => {
        /// Every row of the table, in table order.
        pub const DATASET_ROWS: &[DatasetRow] = &[$(dataset_row!($name [$($flag $(($key))?),*]),)*];

        /// The rows' names, in table order.
        const NAMES: &[&str] = &[$($name),*];

        /// Which rows are in each section.
        const IN_MAIN: &[bool] = &[$(dataset_row!($name [$($flag $(($key))?),*]).main),*];
        const IN_THREADS: &[bool] = &[$(dataset_row!($name [$($flag $(($key))?),*]).threads),*];
        const IN_INSTRUCTIONS: &[bool] =
            &[$(dataset_row!($name [$($flag $(($key))?),*]).instructions),*];
        const IN_BORROWED: &[bool] =
            &[$(dataset_row!($name [$($flag $(($key))?),*]).borrowed.is_some()),*];

        /// Runs `v` over the datasets of the main tables, in [`DATASETS`] order.
        pub fn visit_datasets(v: &mut impl Visit) {
            $(
                dataset_if_main!([$($flag)*] v.visit($name, &$value));
            )*
        }

        /// Runs `v` over the datasets of the borrowed-decoding section, in
        /// [`BORROWED_DATASETS`] order.
        pub fn visit_borrowed_datasets<V: VisitBorrowed>(v: &mut V) {
            let mut rows: Vec<(u32, fn(&mut V))> = Vec::new();
            $(
                dataset_if_borrowed!(
                    [$($flag $(($key))?)*]
                    |key| rows.push((key, |v: &mut V| v.visit($name, &$value)))
                );
            )*
            // Stable: equal keys keep table order.
            rows.sort_by_key(|r| r.0);
            for (_, visit) in rows {
                visit(v);
            }
        }
    };
}
use dataset_table;

/// The row of a name and its flags.
macro_rules! dataset_row {
    ($name:literal [$($flag:ident $(($key:literal))?),*]) => {{
        let mut row = DatasetRow::NONE;
        row.name = $name;
        $(row.$flag = dataset_flag!($flag $(($key))?);)*
        row
    }};
}
use dataset_row;

/// A flag of a row as the value of its field.
macro_rules! dataset_flag {
    (borrowed($key:literal)) => {
        Some($key)
    };
    ($flag:ident) => {
        true
    };
}
use dataset_flag;

/// `$body` when the flags hold `main`.
macro_rules! dataset_if_main {
    ([] $($body:tt)*) => {};
    ([main $($rest:ident)*] $($body:tt)*) => {
        $($body)*
    };
    ([$other:ident $($rest:ident)*] $($body:tt)*) => {
        dataset_if_main!([$($rest)*] $($body)*)
    };
}
use dataset_if_main;

/// `$body` with `key` bound to N when the flags hold `borrowed(N)` (only then: the value's type
/// implements [`Borrowed`]).
macro_rules! dataset_if_borrowed {
    ([] |$k:ident| $body:expr) => {};
    ([borrowed($key:literal) $($rest:tt)*] |$k:ident| $body:expr) => {{
        let $k: u32 = $key;
        $body
    }};
    ([$other:ident $($rest:tt)*] |$k:ident| $body:expr) => {
        dataset_if_borrowed!([$($rest)*] |$k| $body)
    };
}
use dataset_if_borrowed;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sections_follow_the_table() {
        assert_eq!(DATASETS.len(), 15);
        assert_eq!(DATASETS[0], "NumericStruct");
        assert_eq!(DATASETS[14], "GameState");
        assert!(!DATASETS.contains(&"LogList"));
        assert_eq!(
            THREAD_DATASETS,
            ["MediaContent", "SampleList", "CustomerList"]
        );
        assert_eq!(
            BORROWED_DATASETS,
            [
                "User",
                "CustomerList",
                "MediaContent",
                "SampleList",
                "LogList"
            ]
        );
        // Every name once.
        for (i, r) in DATASET_ROWS.iter().enumerate() {
            assert!(
                DATASET_ROWS[..i].iter().all(|o| o.name != r.name),
                "{} twice",
                r.name
            );
        }
    }

    #[test]
    fn the_visitors_follow_the_sections() {
        struct Names(Vec<&'static str>);
        impl Visit for Names {
            fn visit<T: Dataset>(&mut self, name: &'static str, _: &T) {
                self.0.push(name);
            }
        }
        impl VisitBorrowed for Names {
            fn visit<T: Borrowed>(&mut self, name: &'static str, _: &T) {
                self.0.push(name);
            }
        }
        let mut main = Names(Vec::new());
        visit_datasets(&mut main);
        assert_eq!(main.0, DATASETS);
        let mut borrowed = Names(Vec::new());
        visit_borrowed_datasets(&mut borrowed);
        assert_eq!(borrowed.0, BORROWED_DATASETS);
    }
}
