//! How far a joint is from the constraint it holds, read from its bodies' poses: the
//! unresolved position error a soft step, a failed rigid advance or a load too heavy for the
//! joint's softness leaves (Box2D v3.1's `b2Joint_GetLinearSeparation` and
//! `b2Joint_GetAngularSeparation`, `joint.c`, whose rules per kind this follows).

use super::set::Joint;
use super::solve::wrap_angle;
use super::{DistanceJoint, JointKind, JointSet};
use crate::{BodySet, SolverError};
use impact_geometry::{Real, Vector};

/// A joint's position error (see [`Joint::separation`]). Both parts are zero or more; a
/// constraint the joint's kind does not hold rigidly (a spring, a motor, the mouse joint's
/// pull) adds nothing to either.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct JointSeparation {
    /// The linear error (world units): the distance between the anchors of a revolute or
    /// rigid weld joint; how far a rigid distance joint's anchors are from its length, or a
    /// limited one's outside `[min_length, max_length]`; the offset of B's anchor off a
    /// prismatic or wheel joint's axis, combined (as the root of the sum of squares) with
    /// its translation past a limit.
    pub linear: Real,
    /// The angular error (radians, in `[0, pi]`): how far the joint angle (B's angle minus
    /// A's minus the reference angle, read in `(-pi, pi]`) is from 0 for a prismatic or
    /// rigid weld joint, or past a revolute joint's limit.
    pub angular: Real,
}

impl Joint {
    /// How far the joint is from its constraint at its bodies' poses in `bodies`: zero for
    /// a joint that holds exactly, whether or not it is enabled.
    ///
    /// Per kind: a **revolute** joint's linear error is the distance between its anchors
    /// and its angular error the joint angle past `[lower_angle, upper_angle]` when the
    /// limit is on; a **weld** joint's are the anchors' distance and the joint angle's size,
    /// each zero where that part is a spring (a positive frequency); a **distance** joint
    /// without a spring is off by `|distance - length|`, with one it is off only outside
    /// `[min_length, max_length]` with the limit on (a slack rope is not off); a
    /// **prismatic** or **wheel** joint's linear error combines B's anchor's offset across
    /// the axis (A's `local_axis_a` turned with A) with its translation along it past the
    /// limits, and a prismatic joint's angular error is the joint angle's size; the
    /// **motor** and **mouse** joints drive toward targets rather than hold, and are never
    /// off.
    ///
    /// # Errors
    /// [`SolverError::UnknownBody`] naming `joint.body_a` or `joint.body_b` if `bodies`
    /// does not hold that body (a joint read against another set than its own).
    ///
    /// ```
    /// use impact_geometry::{Circle, Isometry, Point};
    /// use impact_solver::{BodySet, JointDef, JointSet, RevoluteJoint, RigidBodyDef};
    ///
    /// let mut bodies = BodySet::new();
    /// let ground = bodies.insert(RigidBodyDef::fixed(Circle::new(0.1)?.into()))?;
    /// let bob = bodies.insert(RigidBodyDef::new(Circle::new(0.1)?.into())
    ///     .pose(Isometry::translation(2.0, 0.0)))?;
    /// let def = JointDef::at_world_anchor(&bodies, ground, bob, Point::origin(),
    ///     RevoluteJoint::default().into())?;
    /// let mut joints = JointSet::new();
    /// let hinge = joints.insert(&bodies, def)?;
    /// // The bob pulled 0.25 away from the hinge.
    /// bodies.get_mut(bob).unwrap().set_pose(Isometry::translation(2.25, 0.0))?;
    /// let off = joints.get(hinge).unwrap().separation(&bodies)?;
    /// assert!((off.linear - 0.25).abs() < 1e-12);
    /// assert_eq!(off.angular, 0.0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn separation(&self, bodies: &BodySet) -> Result<JointSeparation, SolverError> {
        let def = self.def();
        let a = bodies.try_get(def.body_a, "joint.body_a")?.pose();
        let b = bodies.try_get(def.body_b, "joint.body_b")?.pose();
        let dp = b * def.local_anchor_b - a * def.local_anchor_a;
        let joint_angle =
            || wrap_angle(b.rotation.angle() - a.rotation.angle() - def.reference_angle);
        let across = |axis: &Vector, limit: Option<(Real, Real)>| {
            let axis = a.rotation * axis.normalize();
            let perp = Vector::new(-axis.y, axis.x).dot(&dp);
            let along = limit.map_or(0.0, |(lower, upper)| past(axis.dot(&dp), lower, upper));
            perp.hypot(along)
        };
        Ok(match &def.kind {
            JointKind::Revolute(j) => JointSeparation {
                linear: dp.norm(),
                angular: if j.enable_limit {
                    past(joint_angle(), j.lower_angle, j.upper_angle)
                } else {
                    0.0
                },
            },
            JointKind::Weld(j) => JointSeparation {
                linear: if j.linear_hertz == 0.0 {
                    dp.norm()
                } else {
                    0.0
                },
                angular: if j.angular_hertz == 0.0 {
                    joint_angle().abs()
                } else {
                    0.0
                },
            },
            JointKind::Distance(j) => JointSeparation {
                linear: distance_error(j, dp.norm()),
                angular: 0.0,
            },
            JointKind::Prismatic(j) => JointSeparation {
                linear: across(
                    &j.local_axis_a,
                    j.enable_limit
                        .then_some((j.lower_translation, j.upper_translation)),
                ),
                angular: joint_angle().abs(),
            },
            JointKind::Wheel(j) => JointSeparation {
                linear: across(
                    &j.local_axis_a,
                    j.enable_limit
                        .then_some((j.lower_translation, j.upper_translation)),
                ),
                angular: 0.0,
            },
            JointKind::Motor(_) | JointKind::Mouse(_) => JointSeparation::default(),
        })
    }
}

impl JointSet {
    /// The largest linear and the largest angular [`Joint::separation`] over the set's
    /// joints whose bodies `bodies` holds (zero without joints): a whole scene's joint
    /// error in one read.
    pub fn largest_separation(&self, bodies: &BodySet) -> JointSeparation {
        self.iter()
            .filter_map(|(_, j)| j.separation(bodies).ok())
            .fold(JointSeparation::default(), |worst, s| JointSeparation {
                linear: worst.linear.max(s.linear),
                angular: worst.angular.max(s.angular),
            })
    }
}

/// How far `value` lies outside `[lower, upper]` (zero inside).
fn past(value: Real, lower: Real, upper: Real) -> Real {
    if value < lower {
        lower - value
    } else if value > upper {
        value - upper
    } else {
        0.0
    }
}

/// A distance joint's linear error at anchor distance `length`: rigid without a spring,
/// limits only with one.
fn distance_error(j: &DistanceJoint, length: Real) -> Real {
    if !j.enable_spring {
        (length - j.length).abs()
    } else if j.enable_limit {
        past(length, j.min_length, j.max_length)
    } else {
        0.0
    }
}
