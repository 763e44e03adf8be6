//! [`CrossingCounter`]: the pairs of discs of a scene that pass through each other.

use super::Scene;
use crate::stepper::Stepper;
use crate::world::World;
use impact_broadphase::Broadphase;
use impact_geometry::{Point, Real, Shape};
use impact_narrowphase::toi::moving_points::moving_spheres;
use impact_solver::BodyType;

/// Counts the pairs of dynamic discs of a scene that pass through each other between two
/// observations (one after each step), from positions alone, so that the discs of any
/// engine running the same scene are judged the same way: the rain bench's count of
/// bullets through bullets, beside [`TunnelCounter`](super::TunnelCounter)'s bullets through
/// paper.
///
/// A pair of discs *crossed* between two observations when
/// 1. neither changed course inside the step (an engine that bends paths there says where,
///    as a [`CourseRecorder`](super::CourseRecorder) does for `FirstTimeOfImpact`), so each
///    centre moved along its chord;
/// 2. they were apart at both observations: centres at least the sum of the radii apart;
/// 3. the chords bring one centre inside the other disc: moving each centre along its chord
///    at a constant rate, the closest approach of the two is less than the larger radius.
///
/// No contact response lets a centre into the other disc, so such a pair went through each
/// other unseen. The count is exact for an engine that moves bodies at constant velocity
/// within a step; where substeps change velocities inside the step (a soft solver's), a
/// chord stands for a path that bends by what those substeps changed.
///
/// Pairs that meet conditions 2 and 3 but not 1 (a disc of the pair changed course inside
/// the step) are not judged: their chords cut the corners of their paths. They are counted
/// apart, in [`CrossingCounter::bent`]. A pair is counted at every observation it crosses
/// at. Dynamic bodies that are not discs centred on their body origin are ignored.
///
/// ```
/// use impact_geometry::Point;
/// use impact_stepper::scenes::{self, CrossingCounter};
///
/// // Two discs of the rain, swapped between two observations: head on, through each other.
/// let scene = scenes::rain(2, 1);
/// let mut counter = CrossingCounter::new(&scene);
/// let start: Vec<Point> = scene.bodies[scene.bodies.len() - 2..]
///     .iter()
///     .map(|b| Point::from(b.pose.translation.vector))
///     .collect();
/// assert_eq!(counter.observe(&[start[1], start[0]], &[]), 1);
/// assert_eq!(counter.crossings(), 1);
/// ```
#[derive(Debug, Clone)]
pub struct CrossingCounter {
    /// Per dynamic body, in the scene's order: its disc's radius (`None`: not a disc).
    radii: Vec<Option<Real>>,
    /// Per dynamic body: its position at the last observation.
    previous: Vec<Point>,
    crossings: usize,
    bent: usize,
    /// Kept from call to call: per disc the box of its chord grown by its radius, sorted by
    /// the box's left side, and which bodies turned.
    boxes: Vec<ChordBox>,
    turned: Vec<bool>,
    /// The positions [`CrossingCounter::observe_world`] gathers.
    positions: Vec<Point>,
}

/// A disc's chord over one step, and the box that holds the disc along it.
#[derive(Debug, Clone, Copy)]
struct ChordBox {
    body: u32,
    min: Point,
    max: Point,
}

impl CrossingCounter {
    /// A counter for the dynamic bodies of `scene`, which start at the poses of their
    /// definitions.
    pub fn new(scene: &Scene) -> Self {
        let (mut radii, mut previous) = (Vec::new(), Vec::new());
        for def in scene
            .bodies
            .iter()
            .filter(|d| d.body_type == BodyType::Dynamic)
        {
            radii.push(match &def.shape {
                Shape::Circle(c) if c.center() == Point::origin() => Some(c.radius()),
                _ => None,
            });
            previous.push(Point::from(def.pose.translation.vector));
        }
        Self {
            radii,
            previous,
            crossings: 0,
            bent: 0,
            boxes: Vec::new(),
            turned: Vec::new(),
            positions: Vec::new(),
        }
    }

    /// [`CrossingCounter::observe`] with the positions of the dynamic bodies of `world`, in
    /// slot order (the scene's order for a world built by [`Scene::build`] with no body
    /// removed since), and `turns` (a [`CourseRecorder`](super::CourseRecorder)'s, or none).
    ///
    /// # Panics
    /// As [`CrossingCounter::observe`].
    pub fn observe_world<B: Broadphase, S: Stepper>(
        &mut self,
        world: &World<B, S>,
        turns: &[(usize, Point)],
    ) -> usize {
        let mut positions = core::mem::take(&mut self.positions);
        super::dynamic_positions(world, &mut positions);
        let new = self.observe(&positions, turns);
        self.positions = positions;
        new
    }

    /// Takes the positions of the dynamic bodies after a step, in the scene's order, and the
    /// step's turns, `(body, position)` for each change of course inside it (bodies numbered
    /// as the positions; empty for an engine whose bodies move straight within a step).
    /// Returns how many pairs crossed since the last observation.
    ///
    /// # Panics
    /// If `positions` does not hold one position per dynamic body of the scene, or a body of
    /// `turns` is out of range.
    pub fn observe(&mut self, positions: &[Point], turns: &[(usize, Point)]) -> usize {
        assert_eq!(
            positions.len(),
            self.previous.len(),
            "one position per dynamic body of the scene"
        );
        self.turned.clear();
        self.turned.resize(positions.len(), false);
        for &(body, _) in turns {
            self.turned[body] = true;
        }
        self.boxes.clear();
        for (i, (&p0, &p1)) in self.previous.iter().zip(positions).enumerate() {
            let Some(r) = self.radii[i] else { continue };
            if !(p0.x.is_finite() && p0.y.is_finite() && p1.x.is_finite() && p1.y.is_finite()) {
                continue;
            }
            self.boxes.push(ChordBox {
                body: i as u32,
                min: Point::new(p0.x.min(p1.x) - r, p0.y.min(p1.y) - r),
                max: Point::new(p0.x.max(p1.x) + r, p0.y.max(p1.y) + r),
            });
        }
        // Sweep and prune along x: only pairs whose boxes meet can cross.
        self.boxes.sort_unstable_by(|a, b| {
            a.min
                .x
                .total_cmp(&b.min.x)
                .then_with(|| a.body.cmp(&b.body))
        });
        let (mut crossings, mut bent) = (0, 0);
        for (k, a) in self.boxes.iter().enumerate() {
            for b in self.boxes[k + 1..]
                .iter()
                .take_while(|b| b.min.x <= a.max.x)
            {
                if b.min.y > a.max.y || a.min.y > b.max.y {
                    continue;
                }
                let (i, j) = (a.body as usize, b.body as usize);
                let (ri, rj) = (self.radii[i].unwrap_or(0.0), self.radii[j].unwrap_or(0.0));
                if crossed(
                    (self.previous[i], positions[i]),
                    (self.previous[j], positions[j]),
                    ri,
                    rj,
                ) {
                    if self.turned[i] || self.turned[j] {
                        bent += 1;
                    } else {
                        crossings += 1;
                    }
                }
            }
        }
        self.previous.copy_from_slice(positions);
        self.crossings += crossings;
        self.bent += bent;
        crossings
    }

    /// How many crossings were counted so far (see the type's definition).
    #[inline]
    pub fn crossings(&self) -> usize {
        self.crossings
    }

    /// How many pairs met conditions 2 and 3 of the definition while one of their discs
    /// changed course inside the step: not judged, since their chords are not their paths.
    #[inline]
    pub fn bent(&self) -> usize {
        self.bent
    }

    /// How many dynamic bodies the counter follows (discs or not).
    #[inline]
    pub fn bodies(&self) -> usize {
        self.previous.len()
    }
}

/// Conditions 2 and 3 of [`CrossingCounter`]'s definition for discs of radii `ri` and `rj`
/// whose centres went from `.0` to `.1`: apart at both ends, and a point moving with one
/// centre comes within the larger radius of the other (seed 004's moving spheres, one of
/// them that radius, the other a point).
fn crossed(i: (Point, Point), j: (Point, Point), ri: Real, rj: Real) -> bool {
    let contact = ri + rj;
    if (j.0 - i.0).norm() < contact || (j.1 - i.1).norm() < contact {
        return false;
    }
    moving_spheres(i.0, i.1, ri.max(rj), j.0, j.1, 0.0).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;
    use impact_geometry::Vector;
    use impact_narrowphase::audit::SplitMix64;

    fn p(x: Real, y: Real) -> Point {
        Point::new(x, y)
    }

    #[test]
    fn head_on_through_each_other_crosses_and_a_near_miss_does_not() {
        let r = 0.05;
        // Through each other, centres meeting.
        assert!(crossed(
            (p(0.0, 0.0), p(1.0, 0.0)),
            (p(1.0, 0.0), p(0.0, 0.0)),
            r,
            r
        ));
        // Side by side, the centres passing 0.049 apart: one inside the other.
        assert!(crossed(
            (p(0.0, 0.0), p(1.0, 0.0)),
            (p(1.0, 0.049), p(0.0, 0.049)),
            r,
            r
        ));
        // 0.051 apart: the discs overlap, but no centre gets inside the other disc.
        assert!(!crossed(
            (p(0.0, 0.0), p(1.0, 0.0)),
            (p(1.0, 0.051), p(0.0, 0.051)),
            r,
            r
        ));
        // Touching at the end of the step: not apart at both observations.
        assert!(!crossed(
            (p(0.0, 0.0), p(1.0, 0.0)),
            (p(1.0, 0.0), p(1.09, 0.0)),
            r,
            r
        ));
        // Both still.
        assert!(!crossed(
            (p(0.0, 0.0), p(0.0, 0.0)),
            (p(1.0, 0.0), p(1.0, 0.0)),
            r,
            r
        ));
        // A small disc through the edge of a large one: the larger radius decides.
        assert!(crossed(
            (p(0.0, 0.0), p(0.0, 0.0)),
            (p(-2.0, 0.9), p(2.0, 0.9)),
            1.0,
            0.01
        ));
    }

    /// The sweep along x finds exactly the pairs that testing every pair finds.
    #[test]
    fn the_sweep_counts_what_every_pair_counts() {
        let mut rng = SplitMix64::new(7);
        for round in 0..20 {
            let n = 50 + 10 * round;
            let radii: Vec<Option<Real>> = (0..n)
                .map(|k| (k % 11 != 3).then(|| 0.05 + 0.2 * rng.range(0.0, 1.0)))
                .collect();
            let start: Vec<Point> = (0..n)
                .map(|_| p(4.0 * rng.range(0.0, 1.0), 4.0 * rng.range(0.0, 1.0)))
                .collect();
            let end: Vec<Point> = start
                .iter()
                .map(|s| {
                    s + Vector::new(rng.range(0.0, 1.0) - 0.5, rng.range(0.0, 1.0) - 0.5) * 2.0
                })
                .collect();
            let turns: Vec<(usize, Point)> =
                (0..n).filter(|k| k % 7 == 1).map(|k| (k, end[k])).collect();
            let mut counter = CrossingCounter {
                radii: radii.clone(),
                previous: start.clone(),
                crossings: 0,
                bent: 0,
                boxes: Vec::new(),
                turned: Vec::new(),
                positions: Vec::new(),
            };
            let counted = counter.observe(&end, &turns);
            let (mut want, mut want_bent) = (0, 0);
            for i in 0..n {
                for j in 0..i {
                    let (Some(ri), Some(rj)) = (radii[i], radii[j]) else {
                        continue;
                    };
                    if crossed((start[i], end[i]), (start[j], end[j]), ri, rj) {
                        if i % 7 == 1 || j % 7 == 1 {
                            want_bent += 1;
                        } else {
                            want += 1;
                        }
                    }
                }
            }
            assert_eq!(
                (counted, counter.bent()),
                (want, want_bent),
                "round {round}"
            );
            assert!(
                want > 0 && want_bent > 0,
                "round {round}: the scene crosses"
            );
        }
    }
}
