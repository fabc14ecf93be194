#![no_main]
// fury::Value, same-schema mode, no reference tracking: decode, re-encode, decode again.
libfuzzer_sys::fuzz_target!(|data: &[u8]| fury_fuzz::checks::value(false, false, data));
