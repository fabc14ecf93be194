#![no_main]
// Out-of-band buffers, unions, extension types, decimals and rows: the first byte picks the
// decoder (fury_fuzz::checks::kinds::KINDS); decode, re-encode, decode again.
libfuzzer_sys::fuzz_target!(|data: &[u8]| fury_fuzz::checks::kinds::kinds(data));
