//! What the pointer does to the world: grab a body through a mouse joint, drag it, let go
//! and throw it; fire a bullet.

use super::{Grab, Sim};
use crate::world_ops::world_mut;
use impact_geometry::{Circle, Isometry, Point, Real, Vector};
use impact_solver::{
    BodyHandle, BodyType, CollisionFilter, JointDef, JointKind, MouseJoint, RigidBodyDef,
};

impl Sim {
    /// Grabs the dynamic body under `point` through a mouse joint anchored on a static body
    /// (the scene's first, or one the viewer adds that collides with nothing).
    pub(super) fn grab(&mut self, point: Point) -> Result<(), String> {
        if self.grab.is_some() {
            self.release(Vector::zeros())?;
        }
        let Some((body, mass, local)) = self.body_at(point) else {
            return Ok(());
        };
        let anchor = match self.anchor {
            Some(a) if self.world.body_set().get(a).is_some() => a,
            _ => {
                let a = self.anchor_body()?;
                self.anchor = Some(a);
                a
            }
        };
        let gravity = self.world.settings().gravity.norm().max(1.0);
        let mut def = JointDef::new(
            anchor,
            body,
            JointKind::Mouse(MouseJoint::toward(point, 1000.0 * mass * gravity)),
        );
        def.local_anchor_b = local;
        def.collide_connected = true;
        let joint = world_mut(&mut *self.world)?.create_joint(def)?;
        self.grab = Some(Grab {
            joint,
            body,
            local,
            target: point,
        });
        Ok(())
    }

    /// The first static body, or a new one that collides with nothing.
    fn anchor_body(&mut self) -> Result<BodyHandle, String> {
        if let Some((h, _)) = self
            .world
            .body_set()
            .iter()
            .find(|(_, b)| b.body_type() == BodyType::Static)
        {
            return Ok(h);
        }
        let shape = Circle::new(0.01).map_err(|e| e.to_string())?;
        let def = RigidBodyDef::fixed(shape.into()).filter(CollisionFilter::new(0, 0));
        let h = world_mut(&mut *self.world)?.create_body(def)?;
        self.scene_dirty = true;
        Ok(h)
    }

    /// The dynamic body under `point`, its mass and the point in its frame.
    fn body_at(&self, point: Point) -> Option<(BodyHandle, Real, Point)> {
        self.world
            .body_set()
            .iter()
            .filter(|(_, b)| b.is_dynamic())
            .find_map(|(h, b)| {
                let local = b.pose().inverse_transform_point(&point);
                b.shapes()
                    .iter()
                    .any(|s| contains(s.shape().core(), s.shape().radius(), local))
                    .then_some((h, b.mass(), local))
            })
    }

    pub(super) fn drag(&mut self, point: Point) -> Result<(), String> {
        let Some(grab) = self.grab.as_mut() else {
            return Ok(());
        };
        grab.target = point;
        let joint = grab.joint;
        world_mut(&mut *self.world)?.set_mouse_target(joint, point)
    }

    /// Lets go: the joint is removed and the body takes the pointer's velocity.
    pub(super) fn release(&mut self, velocity: Vector) -> Result<(), String> {
        let Some(grab) = self.grab.take() else {
            return Ok(());
        };
        let angvel = self
            .world
            .body_set()
            .get(grab.body)
            .map_or(0.0, |b| b.angvel());
        let w = world_mut(&mut *self.world)?;
        w.remove_joint(grab.joint)?;
        w.set_velocity(grab.body, velocity, angvel)
    }

    pub(super) fn fire(
        &mut self,
        from: [Real; 2],
        direction: [Real; 2],
        speed: Real,
        radius: Real,
        restitution: Real,
    ) -> Result<(), String> {
        let d = Vector::new(direction[0], direction[1]).normalize();
        let shape = Circle::new(radius).map_err(|e| e.to_string())?;
        let def = RigidBodyDef::new(shape.into())
            .pose(Isometry::translation(from[0], from[1]))
            .linvel(d * speed)
            .ccd(true)
            .restitution(restitution)
            .friction(0.0);
        let h = world_mut(&mut *self.world)?.create_body(def)?;
        self.bullets.push(h);
        // The judge follows the bullet from where it starts, not from after its first step.
        self.detector
            .observe(self.world.body_set(), self.world.step_count());
        self.scene_dirty = true;
        Ok(())
    }
}

/// Whether `p` is in the shape of core `core` inflated by `radius` (body frame): within
/// `radius` of the core, or inside a polygon core (counter-clockwise, as shapes keep them).
fn contains(core: &[Point], radius: Real, p: Point) -> bool {
    let n = core.len();
    let inside_polygon = n >= 3
        && (0..n).all(|i| {
            let (a, b) = (core[i], core[(i + 1) % n]);
            (b - a).perp(&(p - a)) >= 0.0
        });
    inside_polygon
        || (0..n).any(|i| {
            let a = core[i];
            let b = core[(i + 1) % n];
            let ab = b - a;
            let t = if ab.norm_squared() > 0.0 {
                ((p - a).dot(&ab) / ab.norm_squared()).clamp(0.0, 1.0)
            } else {
                0.0
            };
            (a + ab * t - p).norm() <= radius
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_in_shapes() {
        let disc = [Point::new(0.0, 0.0)];
        assert!(contains(&disc, 1.0, Point::new(0.6, 0.6)));
        assert!(!contains(&disc, 1.0, Point::new(0.8, 0.8)));
        let square = [
            Point::new(-1.0, -1.0),
            Point::new(1.0, -1.0),
            Point::new(1.0, 1.0),
            Point::new(-1.0, 1.0),
        ];
        assert!(contains(&square, 0.0, Point::new(0.9, -0.9)));
        assert!(!contains(&square, 0.0, Point::new(1.1, 0.0)));
        assert!(contains(&square, 0.2, Point::new(1.1, 0.0)));
        let capsule = [Point::new(-1.0, 0.0), Point::new(1.0, 0.0)];
        assert!(contains(&capsule, 0.5, Point::new(0.3, 0.4)));
        assert!(!contains(&capsule, 0.5, Point::new(1.4, 0.4)));
    }
}
