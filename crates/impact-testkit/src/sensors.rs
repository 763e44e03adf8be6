//! What the tests of sensor events share: a bullet crossing a sensor inside one step, turned
//! or stopped mid-step by a wall after the sensor or before it ([`Crossing`]), and the
//! oracle of when it enters and leaves ([`Crossing::expected`]).
//!
//! The oracle shares no code with the world: it knows the bullet's centre path as straight
//! legs (the wall hit found by bisection on the exact distance of the centre to the wall,
//! the bounce reflected by hand), and each sensor shape by the exact distance of a point to
//! it, written out here. Along a straight leg that distance is a convex function of time,
//! so the times the bullet overlaps the sensor form one interval: its smallest value by a
//! ternary search, then its ends by bisection to rounding.

use crate::SplitMix64;
use crate::scenes::Scene;
use impact_geometry::tolerances::TOI_TARGET_SEPARATION;
use impact_geometry::{
    Capsule, Circle, ConvexPolygon, Isometry, Point, Real, Segment, Shape, Vector,
};
use impact_solver::RigidBodyDef;
use impact_stepper::WorldSettings;

/// The shape of a sensor, in its own frame (centred on its origin, long along `y`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum SensorShape {
    /// A box of half width `half_width` (along `x`) and half height `half_height`.
    Slab {
        /// Half its thickness.
        half_width: Real,
        /// Half its length.
        half_height: Real,
    },
    /// A disc.
    Disc {
        /// Its radius.
        radius: Real,
    },
    /// A zero-thickness segment from `(0, -half_length)` to `(0, half_length)`.
    Stick {
        /// Half its length.
        half_length: Real,
    },
    /// That segment rounded by `radius`.
    Capsule {
        /// Half the length of its core.
        half_length: Real,
        /// Its radius.
        radius: Real,
    },
}

impl SensorShape {
    /// The shape.
    ///
    /// # Panics
    /// For a size that is not positive and finite.
    pub fn shape(&self) -> Shape {
        let ends = |h: Real| (Point::new(0.0, -h), Point::new(0.0, h));
        match *self {
            Self::Slab {
                half_width,
                half_height,
            } => ConvexPolygon::rectangle(half_width, half_height)
                .expect("a positive size")
                .into(),
            Self::Disc { radius } => Circle::new(radius).expect("a positive radius").into(),
            Self::Stick { half_length } => {
                let (a, b) = ends(half_length);
                Segment::new(a, b).expect("distinct ends").into()
            }
            Self::Capsule {
                half_length,
                radius,
            } => {
                let (a, b) = ends(half_length);
                Capsule::new(a, b, radius).expect("a positive size").into()
            }
        }
    }

    /// The exact distance from `p` (in the sensor's frame) to the shape: zero inside.
    pub fn distance(&self, p: Point) -> Real {
        let to_core = |h: Real| {
            let y = p.y.clamp(-h, h);
            (p - Point::new(0.0, y)).norm()
        };
        match *self {
            Self::Slab {
                half_width,
                half_height,
            } => {
                let dx = (p.x.abs() - half_width).max(0.0);
                let dy = (p.y.abs() - half_height).max(0.0);
                dx.hypot(dy)
            }
            Self::Disc { radius } => (p.coords.norm() - radius).max(0.0),
            Self::Stick { half_length } => to_core(half_length),
            Self::Capsule {
                half_length,
                radius,
            } => (to_core(half_length) - radius).max(0.0),
        }
    }

    /// How far from its origin the shape reaches.
    pub fn reach(&self) -> Real {
        match *self {
            Self::Slab {
                half_width,
                half_height,
            } => half_width.hypot(half_height),
            Self::Disc { radius } => radius,
            Self::Stick { half_length } => half_length,
            Self::Capsule {
                half_length,
                radius,
            } => half_length + radius,
        }
    }
}

/// What a wall does to the bullet when it reaches the target separation from it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AtWall {
    /// It bounces, elastic and without friction (`FirstTimeOfImpact`, which resolves the
    /// impact where it happens).
    Bounce,
    /// It stops there for the rest of the step (`MotionClamping`'s clamp).
    Stop,
}

/// A disc bullet from the origin, a static sensor and perhaps a static zero-thickness
/// wall, without gravity; the bullet and the wall have restitution 1 and no friction.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Crossing {
    /// The bullet's radius.
    pub radius: Real,
    /// Its velocity (world units per second).
    pub velocity: Vector,
    /// The sensor's shape and pose.
    pub sensor: SensorShape,
    /// Where the sensor is.
    pub sensor_pose: Isometry,
    /// The wall's ends, if there is one.
    pub wall: Option<(Point, Point)>,
}

/// One leg of the bullet's centre path: from `start` seconds into the step, at `at`,
/// moving at `velocity`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Leg {
    /// When it starts (seconds into the step).
    pub start: Real,
    /// Where the centre is then.
    pub at: Point,
    /// Its velocity on the leg.
    pub velocity: Vector,
}

/// The distance from `p` to the segment `(a, b)`.
fn to_segment(p: Point, (a, b): (Point, Point)) -> Real {
    let d = b - a;
    let s = ((p - a).dot(&d) / d.norm_squared()).clamp(0.0, 1.0);
    (p - (a + d * s)).norm()
}

/// Where on the segment `(a, b)` is nearest to `p`.
fn nearest_on_segment(p: Point, (a, b): (Point, Point)) -> Point {
    let d = b - a;
    let s = ((p - a).dot(&d) / d.norm_squared()).clamp(0.0, 1.0);
    a + d * s
}

/// The smallest value of the convex `f` on `[lo, hi]`: where (ternary search).
fn argmin(f: &impl Fn(Real) -> Real, mut lo: Real, mut hi: Real) -> Real {
    for _ in 0..200 {
        let (m1, m2) = (lo + (hi - lo) / 3.0, hi - (hi - lo) / 3.0);
        if f(m1) < f(m2) {
            hi = m2;
        } else {
            lo = m1;
        }
    }
    0.5 * (lo + hi)
}

/// The boundary between `inside` (where `f <= level`) and `outside` by bisection, to
/// rounding: the point on the inside.
fn boundary(f: &impl Fn(Real) -> Real, level: Real, mut inside: Real, mut outside: Real) -> Real {
    for _ in 0..200 {
        let mid = 0.5 * (inside + outside);
        if mid == inside || mid == outside {
            break;
        }
        if f(mid) <= level {
            inside = mid;
        } else {
            outside = mid;
        }
    }
    inside
}

/// Where the convex `f` is at most `level` on `[t0, t1]`, if anywhere.
fn interval(
    f: &impl Fn(Real) -> Real,
    level: Real,
    (t0, t1): (Real, Real),
) -> Option<(Real, Real)> {
    let m = argmin(f, t0, t1);
    if f(m) > level {
        return None;
    }
    let a = if f(t0) <= level {
        t0
    } else {
        boundary(f, level, m, t0)
    };
    let b = if f(t1) <= level {
        t1
    } else {
        boundary(f, level, m, t1)
    };
    Some((a, b))
}

impl Crossing {
    /// A seeded crossing: speed 200 to 10,000 units/s (log-uniform) in any direction,
    /// radius 0.01 to 0.2, a sensor of any of the four shapes (1 mm across at the least),
    /// turned any way, that the bullet's path crosses well inside; with one case in three
    /// no wall, one a wall beyond the sensor (the bullet crosses, bounces and may cross
    /// again), one a wall before it with the sensor on the rebound.
    pub fn random(rng: &mut SplitMix64) -> Self {
        let speed =
            (200.0 as Real).ln() + rng.unit() * ((10_000.0 as Real).ln() - (200.0 as Real).ln());
        let speed = speed.exp();
        let angle = rng.range(-core::f64::consts::PI, core::f64::consts::PI);
        let direction = Vector::new(angle.cos(), angle.sin());
        let velocity = direction * speed;
        let radius = rng.range(0.01, 0.2);
        let sensor = match rng.below(4) {
            0 => SensorShape::Slab {
                half_width: rng.range(0.0005, 0.3),
                half_height: rng.range(0.5, 2.0),
            },
            1 => SensorShape::Disc {
                radius: rng.range(0.0005, 1.0),
            },
            2 => SensorShape::Stick {
                half_length: rng.range(0.3, 2.0),
            },
            _ => SensorShape::Capsule {
                half_length: rng.range(0.1, 1.0),
                radius: rng.range(0.0005, 0.3),
            },
        };
        let travel = speed / 60.0;
        let mut crossing = Self {
            radius,
            velocity,
            sensor,
            sensor_pose: Isometry::identity(),
            wall: None,
        };
        let kind = rng.below(3);
        loop {
            let (sensor_at, wall) = match kind {
                0 => (rng.range(0.2, 0.8) * travel, None),
                1 => {
                    let s = rng.range(0.1, 0.5) * travel;
                    (
                        s,
                        Some(s + sensor.reach() + radius + rng.range(0.05, 0.3) * travel),
                    )
                }
                _ => (0.0, Some(rng.range(0.1, 0.4) * travel)),
            };
            crossing.wall = wall.map(|d| {
                // A long wall across the path, tilted by up to 40 degrees.
                let tilt = rng.range(-0.7, 0.7);
                let along = Vector::new(-direction.y, direction.x);
                let across = along * tilt.cos() + direction * tilt.sin();
                let centre = Point::from(direction * d);
                (centre - across * 20.0, centre + across * 20.0)
            });
            let legs = crossing.course(AtWall::Bounce, 1.0 / 60.0);
            // On the incoming path, or on the rebound for a wall before the sensor.
            let (from, heading) = match (kind, legs.get(1)) {
                (2, Some(rebound)) => (rebound.at, rebound.velocity.normalize()),
                (2, None) => continue,
                _ => (Point::origin(), direction),
            };
            let ahead = if kind == 2 {
                rng.range(0.1, 0.5) * travel
            } else {
                sensor_at
            };
            let side = Vector::new(-heading.y, heading.x);
            let offset = rng.range(-0.5, 0.5) * sensor.reach().min(1.0);
            let centre = from + heading * ahead + side * offset;
            crossing.sensor_pose = Isometry::new(centre.coords, rng.range(-3.2, 3.2));
            if crossing.is_clean() {
                return crossing;
            }
        }
    }

    /// Whether the bullet starts clear of the sensor and the wall, meets the wall (if any)
    /// head-on enough to bounce elastically, and neither grazes the sensor (its closest
    /// approach on every leg, bouncing or stopping at the wall, is well inside or well
    /// outside): the times then have a well-conditioned answer.
    fn is_clean(&self) -> bool {
        let dt = 1.0 / 60.0;
        if self.sensor_distance(Point::origin()) <= 1.5 * self.radius {
            return false;
        }
        let bounce = self.course(AtWall::Bounce, dt);
        if let Some(wall) = self.wall {
            if to_segment(Point::origin(), wall) <= 1.5 * (self.radius + TOI_TARGET_SEPARATION) {
                return false;
            }
            if let Some(rebound) = bounce.get(1)
                && self.velocity.dot(&self.wall_normal(rebound.at)).abs() < 10.0
            {
                return false;
            }
        }
        let margin = 1e-4 * self.radius;
        [bounce, self.course(AtWall::Stop, dt)].iter().all(|legs| {
            legs.iter().enumerate().all(|(i, leg)| {
                let end = legs.get(i + 1).map_or(dt, |l| l.start);
                let f = |t: Real| self.sensor_distance(leg.at + leg.velocity * (t - leg.start));
                let low = f(argmin(&f, leg.start, end));
                (low - self.radius).abs() > margin
            })
        })
    }

    /// The distance of the point `p` (world) to the sensor.
    fn sensor_distance(&self, p: Point) -> Real {
        self.sensor
            .distance(self.sensor_pose.inverse_transform_point(&p))
    }

    /// The unit normal from the wall toward `p`.
    fn wall_normal(&self, p: Point) -> Vector {
        let wall = self.wall.expect("a wall");
        (p - nearest_on_segment(p, wall)).normalize()
    }

    /// The scene: the wall (if any), the sensor, then the bullet.
    pub fn scene(&self) -> Scene {
        let mut bodies = Vec::new();
        if let Some((a, b)) = self.wall {
            bodies.push(
                RigidBodyDef::fixed(Segment::new(a, b).expect("distinct ends").into())
                    .restitution(1.0)
                    .friction(0.0),
            );
        }
        bodies.push(
            RigidBodyDef::fixed(self.sensor.shape())
                .pose(self.sensor_pose)
                .sensor(true),
        );
        bodies.push(
            RigidBodyDef::new(Circle::new(self.radius).expect("a positive radius").into())
                .linvel(self.velocity)
                .restitution(1.0)
                .friction(0.0)
                .ccd(true),
        );
        Scene {
            name: "crossing".to_owned(),
            settings: WorldSettings::with_gravity(Vector::zeros()),
            bodies,
        }
    }

    /// The bullet centre's legs over a step of `dt`: straight from the origin, and after
    /// the wall (reached at the target separation, found by bisection) the rebound or a
    /// stop, as `at_wall` says.
    pub fn course(&self, at_wall: AtWall, dt: Real) -> Vec<Leg> {
        let first = Leg {
            start: 0.0,
            at: Point::origin(),
            velocity: self.velocity,
        };
        let Some(wall) = self.wall else {
            return vec![first];
        };
        let f = |t: Real| to_segment(Point::origin() + self.velocity * t, wall);
        let level = self.radius + TOI_TARGET_SEPARATION;
        let m = argmin(&f, 0.0, dt);
        if f(m) > level {
            return vec![first];
        }
        let hit = boundary(&f, level, m, 0.0);
        let at = Point::origin() + self.velocity * hit;
        let n = self.wall_normal(at);
        let velocity = match at_wall {
            AtWall::Bounce => self.velocity - n * (2.0 * self.velocity.dot(&n)),
            AtWall::Stop => Vector::zeros(),
        };
        vec![
            first,
            Leg {
                start: hit,
                at,
                velocity,
            },
        ]
    }

    /// When the bullet begins (`true`) and ends (`false`) overlapping the sensor over a
    /// step of `dt` (seconds into the step), in time order, on [`Crossing::course`].
    pub fn expected(&self, at_wall: AtWall, dt: Real) -> Vec<(bool, Real)> {
        let legs = self.course(at_wall, dt);
        let mut events = Vec::new();
        let mut inside = false;
        for (i, leg) in legs.iter().enumerate() {
            let end = legs.get(i + 1).map_or(dt, |l| l.start);
            let f = |t: Real| self.sensor_distance(leg.at + leg.velocity * (t - leg.start));
            let Some((a, b)) = interval(&f, self.radius, (leg.start, end)) else {
                continue;
            };
            if !inside || a > leg.start {
                events.push((true, a));
            }
            inside = b >= end;
            if !inside {
                events.push((false, b));
            }
        }
        events
    }
}
