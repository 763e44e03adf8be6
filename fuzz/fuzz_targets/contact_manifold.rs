//! Contact manifolds are finite, present within the speculative distance, and as deep as the exact distance.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| impact_testkit::fuzzing::check_manifold(data));
