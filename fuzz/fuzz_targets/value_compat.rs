#![no_main]
// fury::Value, compatible mode (TypeDefs, a second decode through the TypeDef cache).
libfuzzer_sys::fuzz_target!(|data: &[u8]| fury_fuzz::checks::value(true, false, data));
