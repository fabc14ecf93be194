#![no_main]
// fury::Value, compatible mode with reference tracking.
libfuzzer_sys::fuzz_target!(|data: &[u8]| fury_fuzz::checks::value(true, true, data));
