//! Sharp polygons answer every query with the same bits as before polygons could be rounded:
//! the hash of the bits of the closed-form and conservative-advancement times of impact, the
//! contact manifolds, the exact and GJK distances and the ray casts of seeded pairs with a
//! polygon (against every kind) is pinned. A change that moves it changes what a sharp
//! polygon does; it must be made on purpose, with the constant, and said why.

use impact_geometry::{Point, Real, Shape, Sweep, Vector};
use impact_narrowphase::ray::{Ray, cast_ray};
use impact_narrowphase::{
    GjkCache, Toi, ToiOptions, contact_manifold, distance, gjk_distance, time_of_impact,
};
use impact_testkit::SplitMix64;
use impact_testkit::audit::random_rotating_case;

/// The hash of [`sharp_polygon_queries`], the same before polygons could be rounded (checked
/// by running this file against the sources of then) as after.
const SHARP_POLYGONS: u64 = 0x817248dfde4caa11;

/// FNV-1a over the bits of the numbers fed to it.
struct Hash(u64);

impl Hash {
    fn real(&mut self, x: Real) {
        for byte in x.to_bits().to_le_bytes() {
            self.0 ^= u64::from(byte);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }

    fn point(&mut self, p: &Point) {
        self.real(p.x);
        self.real(p.y);
    }

    fn vector(&mut self, v: &Vector) {
        self.real(v.x);
        self.real(v.y);
    }

    fn toi(&mut self, toi: &Toi) {
        match toi {
            Toi::Hit(h) => {
                self.real(1.0);
                self.real(h.fraction);
                self.point(&h.point);
                self.vector(&h.normal);
            }
            Toi::Overlapping => self.real(2.0),
            Toi::Separated => self.real(3.0),
            Toi::NotConverged { safe_fraction } => {
                self.real(4.0);
                self.real(*safe_fraction);
            }
        }
    }
}

/// Pairs with at least one polygon (the other any kind), thrown and turning as the audit's
/// random cases are: every query on them, hashed.
fn sharp_polygon_queries() -> u64 {
    let mut rng = SplitMix64::new(0x5a4b_0001);
    let mut hash = Hash(0xcbf2_9ce4_8422_2325);
    let options = ToiOptions::default().with_max_iterations(256).unwrap();
    let (mut pairs, mut polygons) = (0, 0);
    while pairs < 4_000 {
        let case = random_rotating_case(&mut rng);
        let has_polygon = |s: &Shape| matches!(s, Shape::Polygon(_));
        if !(has_polygon(&case.a) || has_polygon(&case.b)) {
            continue;
        }
        pairs += 1;
        polygons += usize::from(has_polygon(&case.a)) + usize::from(has_polygon(&case.b));
        let (a, b) = (&case.a, &case.b);
        // Turning, then the same throw without the turn (the closed forms).
        hash.toi(&time_of_impact(
            a,
            &case.sweep_a,
            b,
            &case.sweep_b,
            &options,
        ));
        let still = |s: &Sweep| Sweep::translating(s.start(), s.displacement()).unwrap();
        let (ta, tb) = (still(&case.sweep_a), still(&case.sweep_b));
        hash.toi(&time_of_impact(a, &ta, b, &tb, &options));
        // At the start, and midway through the throw.
        for t in [0.0, 0.5] {
            let (pa, pb) = (case.sweep_a.pose_at(t), case.sweep_b.pose_at(t));
            let m = contact_manifold(a, &pa, b, &pb, 0.1);
            hash.vector(&m.normal);
            for p in m.points() {
                hash.point(&p.point);
                hash.real(p.separation);
            }
            let d = distance(a, &pa, b, &pb);
            hash.real(d.distance);
            hash.point(&d.point_a);
            hash.point(&d.point_b);
            let g = gjk_distance(a, &pa, b, &pb, &mut GjkCache::default());
            hash.real(g.distance);
            hash.point(&g.point_a);
        }
        // A ray from A's start toward B's, solid and hollow.
        let ray = Ray::between(
            Point::from(case.sweep_a.start().translation.vector),
            Point::from(case.sweep_b.start().translation.vector + Vector::new(0.3, -0.2)),
        );
        for solid in [true, false] {
            for (shape, pose) in [(a, case.sweep_a.start()), (b, case.sweep_b.start())] {
                if let Some(hit) = cast_ray(shape, &pose, &ray, 1.0, solid) {
                    hash.real(hit.fraction);
                    hash.vector(&hit.normal);
                }
            }
        }
    }
    assert!(polygons > 4_000, "only {polygons} polygons");
    hash.0
}

#[test]
fn sharp_polygons_answer_as_they_always_have() {
    let h = sharp_polygon_queries();
    assert_eq!(h, SHARP_POLYGONS, "got {h:#018x}");
}
