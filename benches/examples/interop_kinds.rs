//! Prints the streams behind the interop table's union, decimal, EXT and `any` rows: for
//! each value, what fury-rs writes and what the official crate `fory` 1.7.7 writes, in
//! both modes (spec/DISAGREEMENTS.md quotes them).
//!
//!     cargo run -p fury-benches --example interop_kinds

use fury_benches::interop::kind_engines;
use fury_benches::interop_kinds::*;

fn hex(b: &[u8]) -> String {
    b.iter()
        .map(|x| format!("{x:02x}"))
        .collect::<Vec<_>>()
        .join(" ")
}

fn show<E: std::fmt::Debug, F: std::fmt::Debug>(
    name: &str,
    a: Result<Vec<u8>, E>,
    b: Result<Vec<u8>, F>,
) {
    let (a, b) = (a.expect("fury-rs writes"), b.expect("fory writes"));
    let same = if a == b { "same" } else { "DIFFER" };
    println!(
        "{name} [{same}]\n  fury-rs {}\n  fory    {}",
        hex(&a),
        hex(&b)
    );
}

fn main() {
    for compatible in [false, true] {
        println!("== compatible({compatible})");
        let (fury, fory) = kind_engines(compatible);
        for (a, b) in shape_pairs() {
            show(&format!("{a:?}"), fury.serialize(&a), fory.serialize(&b));
        }
        for (a, b) in pens() {
            show(&format!("{a:?}"), fury.serialize(&a), fory.serialize(&b));
        }
        for d in DECIMALS {
            show(
                &format!("Decimal{d:?}"),
                fury.serialize(&fury_decimal(d)),
                fory.serialize(&fory_decimal(d)),
            );
        }
        let (a, b) = prices();
        show("Prices", fury.serialize(&a), fory.serialize(&b));
        let (p, l) = located();
        show(&format!("{p:?}"), fury.serialize(&p), fory.serialize(&p));
        show(&format!("{l:?}"), fury.serialize(&l), fory.serialize(&l));
        for (name, a, b) in holders() {
            show(name, fury.serialize(&a), fory.serialize(&b));
        }
    }
}
