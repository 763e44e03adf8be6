//! The contacts a jointed group keeps after its impacts in a step of
//! [`FirstTimeOfImpact`](super::FirstTimeOfImpact) (see `groups` and
//! `docs/algorithms/joints-ccd.md`, "Contacts kept"): the touch each group impact leaves
//! ([`Touch`]), held as a one-sided row by the group's rigid advances for the rest of the
//! step; the pairs the group keeps in contact, which the plan leaves to that touch while, and
//! only while, a held advance moves them ([`Run::keeps`]).

use super::queue::Entry;
use super::state::Run;
use crate::motion::shape_at;
use impact_geometry::{Point, Real, Vector};
use impact_solver::{BodyHandle, RigidBody, Touch};

impl Run<'_> {
    /// Whether the impact `e` at `point` with `normal` is a pair the group already keeps in
    /// contact, met again along its new courses while its points part: the group's advance
    /// holds the pair's touch (see [`Touch`]), but the straight course of a body turning about
    /// the contact dips toward what it touches before it ends the step clear of it, and
    /// resolving that meeting would be a second impact at one instant, a Zeno sequence that
    /// stops the body. The pair is the group's from here (marked, nothing more of it planned)
    /// while the advance that holds its touch moves it ([`Run::keeps`]); on any other course
    /// the meeting is an impact like any other.
    pub(super) fn kept_by_group(&mut self, e: &Entry, (point, normal): (Point, Vector)) -> bool {
        let (a, b) = (e.a as usize, e.b as usize);
        let (Some(ha), Some(hb)) = (self.proxies[a], self.proxies[b]) else {
            return false;
        };
        if !self
            .s
            .touches
            .iter()
            .any(|t| (t.a, t.b) == (ha, hb) || (t.a, t.b) == (hb, ha))
            || !self.keeps(a, b)
        {
            return false;
        }
        let t = e.time;
        let point_velocity = |slot: usize| -> Option<Vector> {
            let pose = self.pose_at(slot, t)?;
            let body = self.bodies.get(self.proxies[slot]?)?;
            let (v, w) = self.velocity_at(slot, t)?;
            let r = point - pose * body.local_center();
            Some(v + Vector::new(-w * r.y, w * r.x))
        };
        let (Some(va), Some(vb)) = (point_velocity(a), point_velocity(b)) else {
            return false;
        };
        // Closing by less than the tolerance over the rest of the step is not closing.
        let closing = -(vb - va).dot(&normal) * (self.dt - t);
        if closing > self.settings.toi.tolerance() {
            return false;
        }
        self.pair_state(e.a, e.b).kept = true;
        true
    }

    /// Whether the courses of the bodies of slots `a` and `b` are ones on which a touch of
    /// theirs holds: each is either still (a wall, a stopped body) or on the course of a held
    /// rigid advance after an impact, both moving ones on the same advance's. Any other course
    /// (at its velocities after an advance that did not hold, a stop's, a hook's) was not
    /// advanced with the touch, and nothing but a plan keeps it out of what it touches: a
    /// link of a chain kept against a wall, sent on at its velocities when a later impact's
    /// advance failed, ended the step through it.
    pub(super) fn keeps(&self, a: usize, b: usize) -> bool {
        let (hot, of) = (&self.s.hot, &self.s.advance_of);
        match (hot[a].still, hot[b].still) {
            (true, true) => true,
            (true, false) => of[b] != 0,
            (false, true) => of[a] != 0,
            (false, false) => of[a] != 0 && of[a] == of[b],
        }
    }

    /// The touches the group keeps after the impact of `ha` and `hb` (shapes `shapes`) at
    /// `point` (and `second`) with `normal`: where one body is of infinite mass (a wall), the
    /// other's whole struck shape held off the plane through the point of impact, by its
    /// nearest corner's distance at the impact (a body turning about the point it struck
    /// would otherwise swing its far end through a thin wall, its course no longer planned
    /// against it: see [`Run::kept_by_group`]); between two bodies that move, the points
    /// that met.
    pub(super) fn keep_touch(
        &mut self,
        (ha, hb): (BodyHandle, BodyHandle),
        shapes: [u32; 2],
        (point, second): (Point, Option<Point>),
        normal: Vector,
    ) {
        let (Some(a), Some(b)) = (self.bodies.get(ha), self.bodies.get(hb)) else {
            return;
        };
        // The wall first, the normal from it toward the mover.
        let (wall, mover, shape, toward) = match (a.is_dynamic(), b.is_dynamic()) {
            (false, true) => (ha, hb, shapes[1], normal),
            (true, false) => (hb, ha, shapes[0], -normal),
            _ => {
                // Two bodies that move: where one meets the other with a face, the other's
                // whole shape held off that face's plane, which turns with the face's body
                // (rows at the points that met let a link turning about them swing its far
                // end into the other: links of a chain ended a step crossed by 6 cm);
                // where neither does (corner on corner, discs), the points that met.
                let face_a = face_alignment(a, shapes[0], normal);
                let face_b = face_alignment(b, shapes[1], -normal);
                let held = if face_a.min(face_b) > FACE_ALIGNMENT {
                    None
                } else if face_a <= face_b {
                    Some(((ha, hb), shapes[1], normal))
                } else {
                    Some(((hb, ha), shapes[0], -normal))
                };
                if let Some(((face, mover), shape, toward)) = held
                    && let (Some(body), Some(touch)) = (
                        self.bodies.get(mover),
                        Touch::at(self.bodies, (face, mover), point, toward),
                    )
                {
                    let gap = shape_at(body, shape)
                        .core()
                        .iter()
                        .map(|c| (body.pose() * c - point).dot(&toward))
                        .fold(Real::INFINITY, Real::min);
                    if gap.is_finite() {
                        self.s.touches.push(Touch {
                            gap,
                            shape: Some(shape),
                            ..touch
                        });
                        return;
                    }
                }
                for p in core::iter::once(point).chain(second) {
                    if let Some(touch) = Touch::at(self.bodies, (ha, hb), p, normal) {
                        self.s.touches.push(touch);
                    }
                }
                return;
            }
        };
        let Some(body) = self.bodies.get(mover) else {
            return;
        };
        let gap = shape_at(body, shape)
            .core()
            .iter()
            .map(|c| (body.pose() * c - point).dot(&toward))
            .fold(Real::INFINITY, Real::min)
            .max(0.0);
        if let Some(touch) = Touch::at(self.bodies, (wall, mover), point, toward) {
            self.s.touches.push(Touch {
                gap,
                shape: Some(shape),
                ..touch
            });
        }
    }
}

/// The least cosine between a kept touch's normal and a contact's for the touch to hold the
/// contact (see [`holds_contact`]): about 2.6 degrees. A wall's other face, or
/// its end, meets at a right angle or more and keeps its own touch.
const HELD_NORMAL: Real = 0.999;

/// Whether the contact of `x` and `y` (shapes `[sx, sy]`) with the world unit `normal` from
/// X toward Y holds what `touch` holds (its world normal `touch_normal`, from its A toward
/// its B): the same two bodies, normals within [`HELD_NORMAL`] of each other, and for a
/// touch that holds a whole shape, that shape of its B in the contact.
pub(super) fn holds_contact(
    touch: &Touch,
    touch_normal: Vector,
    (x, y): (BodyHandle, BodyHandle),
    [sx, sy]: [u32; 2],
    normal: Vector,
) -> bool {
    let (toward, shape) = if (touch.a, touch.b) == (x, y) {
        (normal, sy)
    } else if (touch.a, touch.b) == (y, x) {
        (-normal, sx)
    } else {
        return false;
    };
    touch_normal.dot(&toward) >= HELD_NORMAL && touch.shape.is_none_or(|s| s == shape)
}

/// How far from a face an edge may lean toward a normal (the sine of the angle between
/// them) for [`face_alignment`] to count it as a face meeting along that normal.
const FACE_ALIGNMENT: Real = 1e-3;

/// How squarely the shape `shape` of `body` (at its pose) meets along the unit `toward`
/// with a face: the sine of the angle between `toward` and the normal of the edge between
/// the two corners of its core farthest along it, 0 for a face met square on; 1 for a core
/// of one corner (a disc's) or none.
fn face_alignment(body: &RigidBody, shape: u32, toward: Vector) -> Real {
    let pose = body.pose();
    let mut best: [Option<(Real, Point)>; 2] = [None, None];
    for c in shape_at(body, shape).core() {
        let p = pose * c;
        let d = p.coords.dot(&toward);
        if best[0].is_none_or(|(b, _)| d > b) {
            best[1] = best[0];
            best[0] = Some((d, p));
        } else if best[1].is_none_or(|(b, _)| d > b) {
            best[1] = Some((d, p));
        }
    }
    let (Some((_, p)), Some((_, q))) = (best[0], best[1]) else {
        return 1.0;
    };
    let edge = q - p;
    let length = edge.norm();
    if length.is_nan() || length <= 0.0 {
        return 1.0;
    }
    (edge.dot(&toward) / length).abs()
}
