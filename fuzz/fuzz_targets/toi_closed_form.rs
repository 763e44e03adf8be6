//! Closed-form time of impact: separation at the hit, nothing closer before it, swap symmetry.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| impact_testkit::fuzzing::check_closed_form(data));
