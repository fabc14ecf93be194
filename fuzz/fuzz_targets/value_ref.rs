#![no_main]
// fury::Value, same-schema mode with reference tracking (REF_VALUE ids, back references).
libfuzzer_sys::fuzz_target!(|data: &[u8]| fury_fuzz::checks::value(false, true, data));
