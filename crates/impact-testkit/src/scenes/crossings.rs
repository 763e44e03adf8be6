//! [`CrossingCounter`]: the pairs of discs of a scene that pass through each other.

use super::Scene;
use impact_broadphase::Broadphase;
use impact_geometry::{Point, Real, Shape, Vector};
use impact_narrowphase::toi::moving_points::moving_circles;
use impact_solver::BodyType;
use impact_stepper::{Stepper, World};

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
/// the step) are not judged by [`CrossingCounter::observe`]: their chords cut the corners of
/// their paths. They are counted apart, in [`CrossingCounter::bent`]. Given when each turn
/// happened ([`CrossingCounter::observe_timed`]), a pair with a disc that turned is judged
/// on its two paths in time instead: condition 3 holds on them, leg by leg, and nothing is
/// left as bent. A pair is counted at every observation it crosses at. Dynamic bodies that
/// are not discs centred on their body origin are ignored.
///
/// ```
/// use impact_geometry::Point;
/// use impact_testkit::scenes::{self, CrossingCounter};
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
    /// [`CrossingCounter::observe_timed`]'s turns as `(body, fraction, position)`, sorted by
    /// body then fraction, and where each body's start in it (one past the last at the end).
    legs: Vec<(u32, Real, Point)>,
    leg_start: Vec<u32>,
    /// The fractions at which either disc of a judged pair turns.
    breaks: Vec<Real>,
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
            legs: Vec::new(),
            leg_start: Vec::new(),
            breaks: Vec::new(),
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

    /// [`CrossingCounter::observe_timed`] with the positions of the dynamic bodies of `world`
    /// (in slot order, as for [`CrossingCounter::observe_world`]).
    ///
    /// # Panics
    /// As [`CrossingCounter::observe_timed`].
    pub fn observe_world_timed<B: Broadphase, S: Stepper>(
        &mut self,
        world: &World<B, S>,
        turns: &[(usize, Point)],
        fractions: &[Real],
    ) -> usize {
        let mut positions = core::mem::take(&mut self.positions);
        super::dynamic_positions(world, &mut positions);
        let new = self.observe_timed(&positions, turns, fractions);
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
        self.observe_paths(positions, turns, None)
    }

    /// [`CrossingCounter::observe`] for an engine whose discs move at constant velocity
    /// between the turns it records, with `fractions[k]` the fraction of the step at which
    /// `turns[k]` happened (a [`CourseRecorder`](super::CourseRecorder)'s, with the
    /// stepper's stops noted: [`CourseRecorder::note_stops`](super::CourseRecorder::note_stops)).
    /// A pair with a disc that turned is then judged on its two paths in time, leg by leg,
    /// rather than counted as bent: it crossed if the discs were apart at both observations
    /// and one centre came within the larger radius of the other at some moment between.
    ///
    /// # Panics
    /// As [`CrossingCounter::observe`], and if `fractions` is not as long as `turns`.
    pub fn observe_timed(
        &mut self,
        positions: &[Point],
        turns: &[(usize, Point)],
        fractions: &[Real],
    ) -> usize {
        assert_eq!(turns.len(), fractions.len(), "one fraction per turn");
        self.observe_paths(positions, turns, Some(fractions))
    }

    /// [`CrossingCounter::observe`], and with `fractions`, [`CrossingCounter::observe_timed`].
    fn observe_paths(
        &mut self,
        positions: &[Point],
        turns: &[(usize, Point)],
        fractions: Option<&[Real]>,
    ) -> usize {
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
        self.legs.clear();
        self.leg_start.clear();
        if let Some(fractions) = fractions {
            self.legs.extend(
                turns
                    .iter()
                    .zip(fractions)
                    .map(|(&(body, at), &f)| (body as u32, f, at)),
            );
            // Stable: turns at one instant keep their order.
            self.legs
                .sort_by(|a, b| a.0.cmp(&b.0).then_with(|| a.1.total_cmp(&b.1)));
            self.leg_start.resize(positions.len() + 1, 0);
            for &(body, ..) in &self.legs {
                self.leg_start[body as usize + 1] += 1;
            }
            for i in 1..self.leg_start.len() {
                self.leg_start[i] += self.leg_start[i - 1];
            }
        }
        self.boxes.clear();
        for (i, (&p0, &p1)) in self.previous.iter().zip(positions).enumerate() {
            let Some(r) = self.radii[i] else { continue };
            if !(p0.x.is_finite() && p0.y.is_finite() && p1.x.is_finite() && p1.y.is_finite()) {
                continue;
            }
            let (mut min, mut max) = (p0.inf(&p1), p0.sup(&p1));
            // A path that turned: its box holds every leg.
            for &(_, _, at) in self.legs_of(i) {
                (min, max) = (min.inf(&at), max.sup(&at));
            }
            self.boxes.push(ChordBox {
                body: i as u32,
                min: min - Vector::new(r, r),
                max: max + Vector::new(r, r),
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
                if fractions.is_some() && (self.turned[i] || self.turned[j]) {
                    let mut breaks = core::mem::take(&mut self.breaks);
                    let paths = (
                        self.path(i, positions[i], &mut breaks),
                        self.path(j, positions[j], &mut breaks),
                    );
                    if paths_crossed(paths, &mut breaks, ri, rj) {
                        crossings += 1;
                    }
                    self.breaks = breaks;
                    continue;
                }
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

    /// The timed turns of body `i` (empty without fractions).
    fn legs_of(&self, i: usize) -> &[(u32, Real, Point)] {
        match (self.leg_start.get(i), self.leg_start.get(i + 1)) {
            (Some(&from), Some(&to)) => &self.legs[from as usize..to as usize],
            _ => &[],
        }
    }

    /// Body `i`'s path over the step, from its last position to `end`, with the fractions
    /// of its turns added to `breaks`.
    fn path(&self, i: usize, end: Point, breaks: &mut Vec<Real>) -> Path<'_> {
        let legs = self.legs_of(i);
        breaks.extend(legs.iter().map(|l| l.1));
        Path {
            start: self.previous[i],
            legs,
            end,
        }
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

/// A disc's path over one step: from `start` through its timed turns to `end`, at constant
/// velocity between them.
struct Path<'a> {
    start: Point,
    legs: &'a [(u32, Real, Point)],
    end: Point,
}

impl Path<'_> {
    /// Where the disc is at fraction `f` of the step.
    fn at(&self, f: Real) -> Point {
        let (mut f0, mut p0) = (0.0, self.start);
        for &(_, f1, p1) in self
            .legs
            .iter()
            .chain(core::iter::once(&(0, 1.0, self.end)))
        {
            if f <= f1 {
                return if f1 > f0 {
                    p0 + (p1 - p0) * ((f - f0) / (f1 - f0))
                } else {
                    p1
                };
            }
            (f0, p0) = (f1, p1);
        }
        self.end
    }
}

/// [`CrossingCounter::observe_timed`]'s test for a pair with a disc that turned: apart at
/// both observations, and on the paths in time one centre came within the larger radius of
/// the other. `breaks` holds the fractions of both discs' turns (in any order); it is left
/// empty.
fn paths_crossed((i, j): (Path<'_>, Path<'_>), breaks: &mut Vec<Real>, ri: Real, rj: Real) -> bool {
    let contact = ri + rj;
    if (j.start - i.start).norm() < contact || (j.end - i.end).norm() < contact {
        breaks.clear();
        return false;
    }
    breaks.push(0.0);
    breaks.push(1.0);
    breaks.sort_by(|a, b| a.total_cmp(b));
    breaks.dedup();
    let inside = ri.max(rj);
    let crossed = breaks.windows(2).any(|w| {
        // Both move at constant velocity between two breaks: moving circles, as for the
        // chords.
        moving_circles(i.at(w[0]), i.at(w[1]), inside, j.at(w[0]), j.at(w[1]), 0.0).is_some()
    });
    breaks.clear();
    crossed
}

/// Conditions 2 and 3 of [`CrossingCounter`]'s definition for discs of radii `ri` and `rj`
/// whose centres went from `.0` to `.1`: apart at both ends, and a point moving with one
/// centre comes within the larger radius of the other ([`moving_circles`], one of
/// them that radius, the other a point).
fn crossed(i: (Point, Point), j: (Point, Point), ri: Real, rj: Real) -> bool {
    let contact = ri + rj;
    if (j.0 - i.0).norm() < contact || (j.1 - i.1).norm() < contact {
        return false;
    }
    moving_circles(i.0, i.1, ri.max(rj), j.0, j.1, 0.0).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::SplitMix64;
    use impact_geometry::Vector;

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
                legs: Vec::new(),
                leg_start: Vec::new(),
                breaks: Vec::new(),
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

    /// Where a disc on `path` (fraction, position), sorted, is at fraction `f`.
    fn along(path: &[(Real, Point)], f: Real) -> Point {
        for w in path.windows(2) {
            let ((f0, p0), (f1, p1)) = (w[0], w[1]);
            if f <= f1 {
                return if f1 > f0 {
                    p0 + (p1 - p0) * ((f - f0) / (f1 - f0))
                } else {
                    p1
                };
            }
        }
        path[path.len() - 1].1
    }

    /// `observe_timed` finds exactly the pairs that every pair's paths, sampled at every
    /// break of either and judged between breaks, find: the sweep's boxes hold the turned
    /// paths, and each disc's turns are put in time order whatever order they come in.
    #[test]
    fn timed_paths_count_what_every_pair_counts() {
        let mut rng = SplitMix64::new(11);
        for round in 0..20 {
            let n = 40 + 10 * round;
            let r = 0.1;
            let scene = Scene {
                name: "discs".into(),
                settings: Default::default(),
                bodies: (0..n)
                    .map(|_| {
                        let at = Vector::new(4.0 * rng.range(0.0, 1.0), 4.0 * rng.range(0.0, 1.0));
                        impact_solver::RigidBodyDef::new(
                            impact_geometry::Circle::new(r).unwrap().into(),
                        )
                        .pose(impact_geometry::Isometry::translation(at.x, at.y))
                    })
                    .collect(),
            };
            let mut counter = CrossingCounter::new(&scene);
            let start = counter.previous.clone();
            let mut paths: Vec<Vec<(Real, Point)>> =
                start.iter().map(|&s| vec![(0.0, s)]).collect();
            let mut turns = Vec::new();
            let mut fractions = Vec::new();
            for (k, path) in paths.iter_mut().enumerate() {
                for _ in 0..(k % 3) {
                    let f = rng.range(0.0, 1.0);
                    let at = path[0].1 + Vector::new(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0));
                    path.push((f, at));
                    turns.push((k, at));
                    fractions.push(f);
                }
                path.sort_by(|a, b| a.0.total_cmp(&b.0));
                let end = path[path.len() - 1].1
                    + Vector::new(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0));
                path.push((1.0, end));
            }
            // The recorder's order: by time over all discs, not by disc.
            let mut order: Vec<usize> = (0..turns.len()).collect();
            order.sort_by(|&a, &b| fractions[a].total_cmp(&fractions[b]));
            let turns: Vec<_> = order.iter().map(|&k| turns[k]).collect();
            let fractions: Vec<_> = order.iter().map(|&k| fractions[k]).collect();
            let end: Vec<Point> = paths.iter().map(|p| p[p.len() - 1].1).collect();
            let counted = counter.observe_timed(&end, &turns, &fractions);
            let mut want = 0;
            for i in 0..n {
                for j in 0..i {
                    let bent = paths[i].len() > 2 || paths[j].len() > 2;
                    let hit = if bent {
                        let apart =
                            |f: Real| (along(&paths[j], f) - along(&paths[i], f)).norm() >= 2.0 * r;
                        let mut breaks: Vec<Real> =
                            paths[i].iter().chain(&paths[j]).map(|p| p.0).collect();
                        breaks.sort_by(|a, b| a.total_cmp(b));
                        apart(0.0)
                            && apart(1.0)
                            && breaks.windows(2).any(|w| {
                                let (i0, i1) = (along(&paths[i], w[0]), along(&paths[i], w[1]));
                                let (j0, j1) = (along(&paths[j], w[0]), along(&paths[j], w[1]));
                                moving_circles(i0, i1, r, j0, j1, 0.0).is_some()
                            })
                    } else {
                        crossed((start[i], end[i]), (start[j], end[j]), r, r)
                    };
                    want += usize::from(hit);
                }
            }
            assert_eq!((counted, counter.bent()), (want, 0), "round {round}");
        }
    }

    /// Two discs that bounced off each other half way are judged apart on their paths; two
    /// that went through each other half way and then turned are judged crossed, which
    /// their chords do not show at all.
    #[test]
    fn a_bounce_is_not_a_crossing_and_a_crossing_that_turned_is() {
        let scene = scenes_of_two(p(0.0, 0.0), p(4.0, 0.0));
        // Head on, meeting at x = 1.9 and 2.1 half way, each back where it came from.
        let mut counter = CrossingCounter::new(&scene);
        let turns = [(0, p(1.9, 0.0)), (1, p(2.1, 0.0))];
        assert_eq!(
            counter.observe_timed(&[p(0.0, 0.0), p(4.0, 0.0)], &turns, &[0.5, 0.5]),
            0
        );
        // Through each other by the half (centres swapped at x = 2 +- 0.5), then up.
        let mut counter = CrossingCounter::new(&scene);
        let turns = [(0, p(2.5, 0.0)), (1, p(1.5, 0.0))];
        let ends = [p(2.5, 3.0), p(1.5, -3.0)];
        assert_eq!(counter.observe_timed(&ends, &turns, &[0.5, 0.5]), 1);
        // Their chords never bring one centre near the other: judged on chords, the pair
        // is not even flagged as bent.
        let mut chords = CrossingCounter::new(&scene);
        chords.observe(&ends, &turns);
        assert_eq!((chords.crossings(), chords.bent()), (0, 0));
    }

    /// A scene of two discs of radius 0.1 at `a` and `b`.
    fn scenes_of_two(a: Point, b: Point) -> Scene {
        let disc = |at: Point| {
            impact_solver::RigidBodyDef::new(impact_geometry::Circle::new(0.1).unwrap().into())
                .pose(impact_geometry::Isometry::translation(at.x, at.y))
        };
        Scene {
            name: "two".into(),
            settings: Default::default(),
            bodies: vec![disc(a), disc(b)],
        }
    }
}
