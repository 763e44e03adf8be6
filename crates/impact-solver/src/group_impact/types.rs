//! The types of an impact on a jointed group and of what it keeps: the contact
//! ([`GroupContact`]), the other points struck at its instant ([`GroupPoint`]), what it did
//! ([`GroupImpulse`]) and the contacts a group keeps afterwards ([`Touch`]).

#[cfg(doc)]
use super::GroupImpactSolver;
use crate::body_set::{BodyHandle, BodySet};
use crate::impact::Impulse;
use crate::material::Material;
use impact_geometry::{Point, Real, Vector};

/// The impact a [`GroupImpactSolver`] resolves: bodies `a` and `b` touching at `point`
/// (world) with unit `normal` from A toward B, with the contact's own `material`, or `None`
/// for the combination of the two bodies' materials (as
/// [`resolve_impact_with`](crate::resolve_impact_with)).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GroupContact {
    /// Body A.
    pub a: BodyHandle,
    /// Body B.
    pub b: BodyHandle,
    /// Where they touch (world): where the impulse is reported to act.
    pub point: Point,
    /// Where they also touch, for two faces that meet along a stretch (world): `point` and
    /// `second` are then the stretch's ends, each a normal row of its own, so that a flat
    /// face landing on another stops turning into it (one row at the middle would stop the
    /// approach there and none of the turn). `None` for one point of contact.
    pub second: Option<Point>,
    /// The unit normal from A toward B.
    pub normal: Vector,
    /// The contact's material, if not the bodies'.
    pub material: Option<Material>,
}

/// Another place where the group of a [`GroupContact`] touches something at the impact's
/// instant (see [`GroupImpactSolver::resolve_with`]): bodies `a` and `b` touching at
/// `point` (world) with unit `normal` from A toward B, with the contact's own `material`
/// or `None` for the combination of the two bodies' materials. One of the two is a movable
/// body of the group; the other, if not, acts with infinite mass.
///
/// A group that meets a wall flat with several of its bodies at once (two welded boxes side
/// by side, a chain lying along the wall) has one point of contact per body at one instant.
/// Resolved one after another, each impact with restitution 0 stops its own point by turning
/// the group about it, which drives the next body's point in faster; the last impact then
/// throws the group off the wall turning: two welded boxes meeting a wall flat at 20 units/s
/// left it at 3.6 units/s turning at 90 rad/s, a 10-link chain at 49% of its speed. Solved
/// together, as one velocity problem, every point that takes an impulse leaves at
/// restitution times its approach (Poisson's hypothesis per point) and the group stops.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GroupPoint {
    /// Body A.
    pub a: BodyHandle,
    /// Body B.
    pub b: BodyHandle,
    /// Where they touch (world).
    pub point: Point,
    /// The unit normal from A toward B.
    pub normal: Vector,
    /// The contact's material, if not the bodies'.
    pub material: Option<Material>,
}

/// A normal row of an impact's contact: its unit normal (from A toward B), the lever arms
/// of its point from A's and B's centres of mass, and its friction and restitution.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct ContactRow {
    pub(super) normal: Vector,
    pub(super) arms: (Vector, Vector),
    pub(super) friction: Real,
    pub(super) restitution: Real,
}

/// What [`GroupImpactSolver::resolve`] did.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GroupImpulse {
    /// The contact's impulse, as [`resolve_impact_with`](crate::resolve_impact_with) reports
    /// it (its normal and friction parts).
    pub impulse: Impulse,
    /// How many joint rows took part (0: the two bodies were resolved alone).
    pub joint_rows: usize,
    /// The largest violation of a row's condition after a stage, over the largest row
    /// velocity before it (or the largest target): below `1e-9`, else the active set did not
    /// settle and the impulses are the last round's.
    pub residual: Real,
    /// How many factorisations the stages took.
    pub rounds: u32,
}

/// A contact a jointed group keeps after an impact (see [`GroupImpactSolver::set_touches`]):
/// the material points of bodies `a` and `b` that met, in each body's own frame, and the
/// normal from A toward B in A's frame. Their gap along the normal is what the row holds at
/// `gap` or more.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Touch {
    /// Body A.
    pub a: BodyHandle,
    /// Body B.
    pub b: BodyHandle,
    /// The point of A that met B (A's frame).
    pub point_a: Point,
    /// The point of B that met A (B's frame).
    pub point_b: Point,
    /// The unit normal from A toward B (A's frame).
    pub normal: Vector,
    /// The gap the row keeps (world units): B's point stays at least this far past A's
    /// along the normal.
    pub gap: Real,
    /// With `Some(i)`, the row holds B's whole shape at place `i` (its core's corners) off
    /// the plane through A's point: its point is whichever corner is nearest the plane where
    /// the row is built, and `point_b` is not read. What keeps a body struck by a wall from
    /// swinging its far end through it, where a row at the point that met would not.
    pub shape: Option<u32>,
}

impl Touch {
    /// The touch of `a` and `b` (in `bodies`, at the instant they meet) at the world
    /// `point` with the world unit `normal` from A toward B; `None` if a body is not in
    /// `bodies`.
    pub fn at(
        bodies: &BodySet,
        (a, b): (BodyHandle, BodyHandle),
        point: Point,
        normal: Vector,
    ) -> Option<Self> {
        let (pa, pb) = (bodies.get(a)?.pose(), bodies.get(b)?.pose());
        Some(Self {
            a,
            b,
            point_a: pa.inverse_transform_point(&point),
            point_b: pb.inverse_transform_point(&point),
            normal: pa.rotation.inverse() * normal,
            gap: 0.0,
            shape: None,
        })
    }
}

/// Whether a body is held in place by the caller (see [`GroupImpactSolver::gather`]).
pub type Held<'a> = &'a dyn Fn(BodyHandle) -> bool;
