//! Scene and query files: any bytes load or are refused without a panic; what loads
//! round-trips through its file, builds a world and steps.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| impact_testkit::fuzzing::check_scene_loader(data));
