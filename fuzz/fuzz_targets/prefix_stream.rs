#![no_main]
// deserialize_prefix::<Value> over concatenated messages.
libfuzzer_sys::fuzz_target!(|data: &[u8]| fury_fuzz::checks::prefix_stream(data));
