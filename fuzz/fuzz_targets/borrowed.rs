#![no_main]
// Borrowed decoding (&str, &[u8], Cow, ArrayView, borrowed structs) in both modes; the first
// byte picks the type and mode (fury_fuzz::checks::borrowed::table).
libfuzzer_sys::fuzz_target!(|data: &[u8]| fury_fuzz::checks::borrowed::borrowed(data));
