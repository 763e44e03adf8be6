//! Replays every minimised fuzz finding in `fuzz/regressions/<target>/` through the same
//! check the fuzz target runs (`impact_testkit::fuzzing`), so a fixed crash stays fixed
//! without nightly or libFuzzer.

use std::fs;
use std::path::Path;

fn replay(target: &str, check: fn(&[u8])) -> usize {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz/regressions")
        .join(target);
    let mut entries: Vec<_> = fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("readable directory").path())
        .filter(|p| p.is_file() && p.file_name().is_some_and(|n| n != ".gitkeep"))
        .collect();
    entries.sort();
    for path in &entries {
        let data = fs::read(path).expect("readable regression file");
        check(&data);
    }
    entries.len()
}

#[test]
fn fuzz_regressions_replay() {
    use impact_testkit::fuzzing::*;
    let replayed = replay("toi_closed_form", check_closed_form)
        + replay("conservative_advancement", check_conservative_advancement)
        + replay("gjk_distance", check_gjk)
        + replay("contact_manifold", check_manifold);
    println!("replayed {replayed} fuzz regressions");
}

/// The checks must reject what they claim to: random bytes run clean, and the checks do run
/// on decodable input (a check that decodes nothing would pass everything).
#[test]
fn fuzz_checks_run_on_seeded_bytes() {
    use impact_testkit::SplitMix64;
    use impact_testkit::fuzzing::*;
    let mut rng = SplitMix64::new(5);
    for _ in 0..300 {
        let bytes: Vec<u8> = (0..256).map(|_| rng.next_u64() as u8).collect();
        check_closed_form(&bytes);
        check_conservative_advancement(&bytes);
        check_gjk(&bytes);
        check_manifold(&bytes);
    }
}
