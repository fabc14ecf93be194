#![no_main]
// TypeDef parser and meta strings: the harness gives a fuzzed TypeDef body its valid hash.
libfuzzer_sys::fuzz_target!(|data: &[u8]| fury_fuzz::checks::typedef(data));
