#![no_main]
// Derived types (struct mirror, reference types), same-schema mode; the first byte picks the type.
libfuzzer_sys::fuzz_target!(|data: &[u8]| fury_fuzz::checks::derived(
    fury_fuzz::checks::same_schema(),
    data
));
