//! GJK agrees with the exact distance, cold and warm-started.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| impact_testkit::fuzzing::check_gjk(data));
