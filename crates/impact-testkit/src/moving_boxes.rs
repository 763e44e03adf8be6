//! Deterministic scenes of moving boxes, shared by the broadphase's tests, its example and
//! the broadphase benchmarks so that all of them exercise the same motion.
//!
//! A scene only moves boxes (no shapes, no contacts): each step it produces the swept box of
//! every body that moved, which is exactly what a stepper hands to
//! [`Broadphase::update_batch`](impact_broadphase::Broadphase::update_batch). Lengths are
//! world units, displacements are per step (a speed of 0.05 per step is 3 units per second
//! at 60 Hz).

use crate::SplitMix64;
use impact_broadphase::ProxyId;
use impact_geometry::{Aabb, Point, Real, Vector};

#[derive(Debug, Clone, Copy)]
struct Body {
    center: Point,
    half: Vector,
    vel: Vector,
    /// Rain only: steps left resting on the floor before respawning at the top.
    rest: u32,
    is_static: bool,
}

impl Body {
    fn aabb(&self) -> Aabb {
        Aabb::new(self.center - self.half, self.center + self.half)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    RandomWalk,
    Rain,
}

/// A reproducible scene: the same `(kind, n, seed)` gives the same boxes at every step.
#[derive(Debug, Clone)]
pub struct Scene {
    kind: Kind,
    bodies: Vec<Body>,
    moved: Vec<(ProxyId, Aabb)>,
    rng: SplitMix64,
    /// Size of the square (random walk) or height of the rain column above the floor.
    extent: Real,
    /// Size of the square (random walk) or width of the floor (rain).
    width: Real,
}

/// Largest speed of a random-walking body (world units per step).
const WALK_MAX_SPEED: Real = 0.05;
/// Height of the floor tiles and of the floor's top face (world units).
const FLOOR_TOP: Real = 0.5;

impl Scene {
    /// `n` boxes (half extents 0.2 to 0.5) in a square sized for 2 square units per body, so
    /// the density, and the number of pairs per body, does not depend on `n`. Every body
    /// moves every step: its velocity takes a random kick (up to 0.01 per axis) and is
    /// clamped to 0.05 per step; bodies bounce off the square's sides.
    pub fn random_walk(n: usize, seed: u64) -> Self {
        let mut rng = SplitMix64::new(seed);
        let side = (2.0 * n as Real).sqrt().max(1.0);
        let bodies = (0..n)
            .map(|_| Body {
                center: Point::new(rng.range(0.0, side), rng.range(0.0, side)),
                half: Vector::new(rng.range(0.2, 0.5), rng.range(0.2, 0.5)),
                vel: Vector::new(
                    rng.range(-WALK_MAX_SPEED, WALK_MAX_SPEED),
                    rng.range(-WALK_MAX_SPEED, WALK_MAX_SPEED),
                ),
                rest: 0,
                is_static: false,
            })
            .collect();
        Self {
            kind: Kind::RandomWalk,
            bodies,
            moved: Vec::new(),
            rng,
            extent: side,
            width: side,
        }
    }

    /// A static floor of `n / 10` unit tiles (touching their neighbours) under a dense column
    /// of `n - n / 10` drops (half extents 0.15 to 0.25, 3 per square unit). Drops fall at 0.1
    /// to 0.3 per step, so they leave their fat boxes every step; a drop reaching the floor
    /// rests on it for 10 to 30 steps (it does not move and is not reported), then reappears
    /// at the top of the column (a teleport: its new box, not a sweep).
    pub fn rain(n: usize, seed: u64) -> Self {
        let mut rng = SplitMix64::new(seed);
        let tiles = (n / 10).max(1).min(n);
        let drops = n - tiles;
        let width = tiles as Real;
        let height = (drops as Real / (3.0 * width)).max(1.0);
        let mut bodies: Vec<Body> = (0..tiles)
            .map(|i| Body {
                center: Point::new(i as Real + 0.5, 0.5 * FLOOR_TOP),
                half: Vector::new(0.5, 0.5 * FLOOR_TOP),
                vel: Vector::zeros(),
                rest: 0,
                is_static: true,
            })
            .collect();
        for _ in 0..drops {
            let half = rng.range(0.15, 0.25);
            bodies.push(Body {
                center: Point::new(
                    rng.range(0.0, width),
                    FLOOR_TOP + half + rng.range(0.0, height),
                ),
                half: Vector::new(half, half),
                vel: Vector::new(0.0, -rng.range(0.1, 0.3)),
                rest: 0,
                is_static: false,
            });
        }
        Self {
            kind: Kind::Rain,
            bodies,
            moved: Vec::new(),
            rng,
            extent: height,
            width,
        }
    }

    /// The number of bodies.
    pub fn len(&self) -> usize {
        self.bodies.len()
    }

    /// Whether the scene has no body.
    pub fn is_empty(&self) -> bool {
        self.bodies.is_empty()
    }

    /// The current box of every body, by handle (handles are `0..len`).
    pub fn boxes(&self) -> Vec<(ProxyId, Aabb)> {
        self.bodies
            .iter()
            .enumerate()
            .map(|(i, b)| (ProxyId(i as u32), b.aabb()))
            .collect()
    }

    /// The bodies that moved during the last [`Scene::step`], each with the box it swept
    /// over the step, in handle order.
    pub fn moved(&self) -> &[(ProxyId, Aabb)] {
        &self.moved
    }

    /// Advances every body by one step and records the swept boxes in [`Scene::moved`].
    pub fn step(&mut self) {
        self.moved.clear();
        for i in 0..self.bodies.len() {
            let before = self.bodies[i].aabb();
            let swept = match self.kind {
                Kind::RandomWalk => self.walk(i),
                Kind::Rain => self.fall(i),
            };
            if let Some(swept) = swept {
                let after = self.bodies[i].aabb();
                let aabb = if swept { before.merged(&after) } else { after };
                self.moved.push((ProxyId(i as u32), aabb));
            }
        }
    }

    /// Moves random-walk body `i`; it always moves along a sweep.
    fn walk(&mut self, i: usize) -> Option<bool> {
        let kick = Vector::new(self.rng.range(-0.01, 0.01), self.rng.range(-0.01, 0.01));
        let body = &mut self.bodies[i];
        body.vel = (body.vel + kick).map(|v| v.clamp(-WALK_MAX_SPEED, WALK_MAX_SPEED));
        body.center += body.vel;
        for k in 0..2 {
            if body.center[k] < 0.0 || body.center[k] > self.extent {
                body.vel[k] = -body.vel[k];
                body.center[k] = body.center[k].clamp(0.0, self.extent);
            }
        }
        Some(true)
    }

    /// Moves rain body `i`: `None` if it did not move, `Some(true)` for a sweep,
    /// `Some(false)` for a teleport.
    fn fall(&mut self, i: usize) -> Option<bool> {
        let top = FLOOR_TOP + self.extent;
        let respawn_x = self.rng.range(0.0, self.width);
        let rest_steps = 10 + (self.rng.next_u64() % 21) as u32;
        let body = &mut self.bodies[i];
        if body.is_static {
            return None;
        }
        if body.rest > 0 {
            body.rest -= 1;
            if body.rest > 0 {
                return None;
            }
            // Respawn at the top, anywhere across the column.
            body.center = Point::new(respawn_x, top + body.half.y);
            return Some(false);
        }
        body.center += body.vel;
        let floor = FLOOR_TOP + body.half.y;
        if body.center.y <= floor {
            body.center.y = floor;
            body.rest = rest_steps;
        }
        Some(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_scene() {
        for make in [Scene::random_walk, Scene::rain] {
            let mut a = make(200, 7);
            let mut b = make(200, 7);
            for _ in 0..50 {
                a.step();
                b.step();
                assert_eq!(a.moved(), b.moved());
            }
            assert_ne!(make(200, 8).boxes(), a.boxes());
        }
    }

    #[test]
    fn rain_reaches_a_steady_mix_of_falling_and_resting_drops() {
        let mut scene = Scene::rain(2_000, 1);
        for _ in 0..200 {
            scene.step();
        }
        let moving = scene.moved().len();
        // 1,800 drops: some rest on the floor, many fall; the 200 floor tiles never move.
        assert!(moving > 300 && moving < 1_800, "{moving} drops moved");
    }
}
