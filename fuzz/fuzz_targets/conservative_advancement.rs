//! Conservative advancement never later than the closed form; rotating sweeps never miss the sampling oracle.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| impact_testkit::fuzzing::check_conservative_advancement(data));
