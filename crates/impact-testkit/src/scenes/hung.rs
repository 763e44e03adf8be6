//! [`HungCounter`]: the bodies of a scene left hanging in mid-air.

use super::Scene;
use impact_broadphase::Broadphase;
use impact_geometry::{Point, Real};
use impact_solver::BodyType;
use impact_stepper::{Stepper, World};

/// Counts the dynamic bodies of a scene that hang in mid-air, from positions alone, so that
/// the bodies of any engine running the same scene are judged the same way: the rain
/// bench's count beside [`TunnelCounter`](super::TunnelCounter)'s tunnels.
///
/// A body is *hung* when it is above a height where nothing holds a body up (for the rain,
/// the bottom of its column, [`RainField::column_bottom`](super::RainField::column_bottom)),
/// and its position has not changed at all over the last [`HungCounter::STEPS`]
/// observations (one after each step). Gravity moves every free body there, so such a body
/// was stopped step after step: a CCD stepper's safety net firing every step on a pair it
/// cannot resolve.
///
/// ```
/// use impact_broadphase::RTreeBroadphase;
/// use impact_stepper::{Discrete, World};
/// use impact_testkit::scenes::{self, HungCounter};
///
/// let scene = scenes::rain(20, 1);
/// let (mut world, _) = scene.build::<RTreeBroadphase, Discrete>().unwrap();
/// let mut hung = HungCounter::new(&scene, scenes::rain_field(20).column_bottom());
/// for _ in 0..10 {
///     world.step(1.0 / 60.0).unwrap();
///     hung.observe_world(&world);
/// }
/// assert_eq!(hung.hung(), 0);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct HungCounter {
    above: Real,
    /// Each dynamic body's position at the last observation (at the start, its definition's).
    before: Vec<Point>,
    /// Per body, the observations in a row that found it above `above` where it was.
    still: Vec<usize>,
    /// The positions `observe_world` gathers, kept from call to call.
    scratch: Vec<Point>,
}

impl HungCounter {
    /// How many observations in a row a body must be found where it was, above the height
    /// given to [`HungCounter::new`], to be hung.
    pub const STEPS: usize = 5;

    /// A counter for the dynamic bodies of `scene`, which start at the poses of their
    /// definitions, judged above the height `above`.
    pub fn new(scene: &Scene, above: Real) -> Self {
        let before: Vec<Point> = scene
            .bodies
            .iter()
            .filter(|def| def.body_type == BodyType::Dynamic)
            .map(|def| Point::from(def.pose.translation.vector))
            .collect();
        Self {
            above,
            still: vec![0; before.len()],
            before,
            scratch: Vec::new(),
        }
    }

    /// Takes the positions of the dynamic bodies after a step, in the scene's order.
    ///
    /// # Panics
    /// If `positions` does not hold one position per dynamic body of the scene.
    pub fn observe(&mut self, positions: &[Point]) {
        assert_eq!(
            positions.len(),
            self.before.len(),
            "one position per dynamic body of the scene"
        );
        for ((before, now), still) in self.before.iter_mut().zip(positions).zip(&mut self.still) {
            *still = if before == now && now.y > self.above {
                *still + 1
            } else {
                0
            };
            *before = *now;
        }
    }

    /// [`HungCounter::observe`] with the positions of the dynamic bodies of `world`, in slot
    /// order (the scene's order for a world built by [`Scene::build`] with no body removed
    /// since).
    ///
    /// # Panics
    /// If the world does not hold one dynamic body per dynamic body of the scene.
    pub fn observe_world<B: Broadphase, S: Stepper>(&mut self, world: &World<B, S>) {
        let mut positions = core::mem::take(&mut self.scratch);
        super::dynamic_positions(world, &mut positions);
        self.observe(&positions);
        self.scratch = positions;
    }

    /// How many bodies are hung at the last observation.
    pub fn hung(&self) -> usize {
        self.still.iter().filter(|&&k| k >= Self::STEPS).count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use impact_geometry::{Circle, Isometry};
    use impact_solver::RigidBodyDef;

    #[test]
    fn a_body_is_hung_after_five_still_observations_above_the_height() {
        let disc = |x: Real, y: Real| {
            RigidBodyDef::new(Circle::new(0.1).unwrap().into()).pose(Isometry::translation(x, y))
        };
        let scene = Scene {
            name: "hung".into(),
            settings: Default::default(),
            bodies: vec![disc(0.0, 5.0), disc(1.0, 0.5), disc(2.0, 5.0)],
        };
        let mut counter = HungCounter::new(&scene, 1.0);
        // The first stays put above the height, the second stays put below it, the third
        // moves once in the middle.
        let mut third = Point::new(2.0, 5.0);
        for step in 0..HungCounter::STEPS {
            if step == 2 {
                third.y -= 0.1;
            }
            counter.observe(&[Point::new(0.0, 5.0), Point::new(1.0, 0.5), third]);
        }
        assert_eq!(counter.hung(), 1);
        counter.observe(&[Point::new(0.0, 5.0), Point::new(1.0, 0.5), third]);
        assert_eq!(counter.hung(), 1, "three still observations for the third");
        counter.observe(&[Point::new(0.0, 4.9), Point::new(1.0, 0.5), third]);
        assert_eq!(counter.hung(), 0);
    }
}
