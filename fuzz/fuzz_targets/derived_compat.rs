#![no_main]
// Derived types (compat mirror, evolution readers, reference types), compatible mode; the first byte picks the type.
libfuzzer_sys::fuzz_target!(|data: &[u8]| fury_fuzz::checks::derived(
    fury_fuzz::checks::compat_table(),
    data
));
