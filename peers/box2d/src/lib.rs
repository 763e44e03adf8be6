//! impact, rapier2d and Box2D v3 on Box2D's benchmark scenes, in the same process.
//!
//! The scenes are `impact_testkit::scenes`' rebuilds of the scenes of Box2D's `benchmark`
//! program; [`box2d`] and [`rapier`] build the same bodies, shapes and joints in the two
//! peers, and [`timing`] times the engines in lockstep over the same steps, as Box2D's
//! benchmark program times one. The benches under `benches/` are the package's point; this
//! library is what they share.
//!
//! Box2D comes through the `boxdd` crate (0.6, Box2D 3.2.0-dev at commit `56edae7`) as it
//! builds Box2D by default: f32 (no `double-precision` feature) with SSE2 on x86-64 (Box2D's
//! default SIMD level; AVX2 only with boxdd's `simd-avx2` feature), C at `-O2`.

pub mod box2d;
pub mod ragdoll_rain;
pub mod rapier;
pub mod timing;

use impact_testkit::scenes::{JointedScene, Scene};
use impact2d::broadphase::Broadphase;
use impact2d::geometry::Real;
use impact2d::stepper::{Stepper, World};

/// The step of every scene (seconds): Box2D's benchmark runs at 60 Hz.
pub const DT: Real = 1.0 / 60.0;

/// Substeps per step: Box2D's benchmark runs 4, as impact's and rapier2d's defaults do.
pub const SUBSTEPS: i32 = 4;

/// `scene` with sleeping off: how Box2D's program runs the pyramids and the joint grid, and
/// the like-for-like run of every scene against engines with sleeping off.
pub fn awake(mut scene: Scene) -> Scene {
    scene.settings.sleeping = false;
    scene
}

/// [`awake`] for a scene with joints.
pub fn awake_jointed(mut scene: JointedScene) -> JointedScene {
    scene.scene.settings.sleeping = false;
    scene
}

/// The largest anchor separation of any joint of an impact world (world units): how far
/// its joints are from holding.
pub fn impact_stretch<B: Broadphase, S: Stepper>(world: &World<B, S>) -> Real {
    world
        .joints()
        .iter()
        .map(|(_, j)| {
            let a = world.body(j.body_a()).expect("live body");
            let b = world.body(j.body_b()).expect("live body");
            let pa = a.pose() * j.def().local_anchor_a;
            let pb = b.pose() * j.def().local_anchor_b;
            (pa - pb).norm()
        })
        .fold(0.0, Real::max)
}

/// The positions of an impact world's dynamic bodies, in creation order.
pub fn impact_positions<B: Broadphase, S: Stepper>(world: &World<B, S>) -> Vec<(Real, Real)> {
    world
        .bodies()
        .filter(|(_, b)| b.is_dynamic())
        .map(|(_, b)| {
            let t = b.pose().translation;
            (t.x, t.y)
        })
        .collect()
}

/// Panics unless `peer`'s dynamic bodies start where impact's do, to f32's rounding of
/// impact's coordinates (Box2D's are f32): both built the same scene.
pub fn assert_same_start(peer: &str, impact: &[(Real, Real)], other: &[(Real, Real)]) {
    assert_eq!(impact.len(), other.len(), "{peer} has as many bodies");
    for (i, (a, b)) in impact.iter().zip(other).enumerate() {
        let f32_of = |v: Real| Real::from(v as f32);
        assert!(
            (f32_of(a.0) == f32_of(b.0)) && (f32_of(a.1) == f32_of(b.1)),
            "body {i} starts at {a:?} in impact and {b:?} in {peer}"
        );
    }
}

/// How far a pile stands from where it started: the number of bodies more than half a unit
/// from their place (or not finite), of those how many are out sideways (`|dx| > 0.5`), and
/// the deepest sink of any body below its place. A tall pyramid of soft contacts sinks
/// without toppling, so the sideways count is the one that tells a collapse.
pub fn fallen(home: &[(Real, Real)], now: &[(Real, Real)]) -> (usize, usize, Real) {
    let mut fell = 0;
    let mut sideways = 0;
    let mut max_sink: Real = 0.0;
    for ((hx, hy), (x, y)) in home.iter().zip(now) {
        let finite = x.is_finite() && y.is_finite();
        max_sink = max_sink.max(hy - y);
        if !finite || (x - hx).abs() > 0.5 {
            sideways += 1;
        }
        if !finite || hy - y > 0.5 || (x - hx).abs() > 0.5 {
            fell += 1;
        }
    }
    (fell, sideways, max_sink)
}

#[cfg(test)]
mod tests {
    use super::fallen;

    #[test]
    fn fallen_counts_sinks_and_sideways_moves_apart() {
        let home = [(0.0, 0.5), (1.0, 0.5), (2.0, 0.5), (3.0, 0.5)];
        let now = [(0.0, 0.4), (1.0, -0.1), (2.6, 0.5), (f64::NAN, 0.5)];
        let (fell, sideways, sink) = fallen(&home, &now);
        assert_eq!((fell, sideways), (3, 2));
        assert!((sink - 0.6).abs() < 1e-12);
    }
}
