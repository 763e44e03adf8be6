//! Helpers shared by the integration tests.

#![allow(dead_code)]

use impact_broadphase::Broadphase;
use impact_stepper::{Stepper, World};

/// 60 Hz, the step of every scene test.
pub const DT: f64 = 1.0 / 60.0;

/// FNV-1a over the bits of every body's handle, pose, angle and velocities, in body order.
/// A hand-written hash, so the value does not depend on the standard library's hasher.
pub fn state_hash<B: Broadphase, S: Stepper>(world: &World<B, S>) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |word: u64| {
        for byte in word.to_le_bytes() {
            h ^= u64::from(byte);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    };
    for (handle, body) in world.bodies() {
        eat(u64::from(handle.index) << 32 | u64::from(handle.generation));
        let pose = body.pose();
        eat(pose.translation.x.to_bits());
        eat(pose.translation.y.to_bits());
        eat(pose.rotation.re.to_bits());
        eat(pose.rotation.im.to_bits());
        eat(body.linvel().x.to_bits());
        eat(body.linvel().y.to_bits());
        eat(body.angvel().to_bits());
    }
    h
}
