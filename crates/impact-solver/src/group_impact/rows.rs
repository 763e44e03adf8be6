//! The rows of a jointed group's velocity problem at one instant: what each kind of joint
//! holds rigidly there (the rows that can take an impulse in no time), and the contact's.
//!
//! A row is `J v`, the velocity of one body relative to another along a direction (or their
//! relative angular speed), with a target and a bound on its impulse. A spring, a soft weld,
//! a motor and the mouse joint apply a force, and a force passes no impulse in an instant:
//! they have no row here. The rigid parts of each kind, read from the two bodies' poses:
//!
//! | kind | rows |
//! |---|---|
//! | revolute | the two point rows; a limit as a one-sided row when the angle is within [`ANGULAR_SLOP`] of it |
//! | weld | the two point rows unless the linear part is a spring, the angle row unless the angular part is one |
//! | prismatic | the row across the axis and the angle row; a limit as a one-sided row within [`LINEAR_SLOP`] of it |
//! | wheel | the row across the axis; a limit likewise |
//! | distance | the length row when it is rigid (no spring); with a spring, `min_length` and `max_length` as one-sided rows within [`LINEAR_SLOP`] of them |
//! | motor, mouse | none |
//!
//! The Jacobians are Box2D v3's (`revolute_joint.c`, `prismatic_joint.c`, `weld_joint.c`,
//! `distance_joint.c`, `wheel_joint.c`), evaluated at the current poses.

use super::Touch;
use crate::joint::{DistanceJoint, Joint, JointKind, wrap_angle};
use impact_geometry::tolerances::{ANGULAR_SLOP, LINEAR_SLOP};
use impact_geometry::{Isometry, Point, Real, Vector, cross};

/// How a row's impulse is bounded.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Bound {
    /// Any impulse: the row holds its target exactly (a rigid joint row).
    Equal,
    /// An impulse of zero or more: the row's velocity is at least its target (a contact's
    /// normal, a limit at its bound).
    AtLeast,
    /// A friction row, its impulse within `[-limit, limit]` (the Coulomb bound of its
    /// point's normal impulse).
    Friction(Real),
}

/// One row: `J v = ja . (v_a, w_a) + jb . (v_b, w_b)`, between the members `a` and `b` of the
/// group's table, with the position error whose rate of change `J v` is.
#[derive(Debug, Clone, Copy)]
pub(super) struct Row {
    pub(super) a: u32,
    pub(super) b: u32,
    /// The linear and angular parts of the row on A.
    pub(super) ja: (Vector, Real),
    /// The same on B.
    pub(super) jb: (Vector, Real),
    /// What `J v` should be after the impact (0 for a joint: its anchors move together).
    pub(super) target: Real,
    pub(super) bound: Bound,
    /// The position error the row measures at the poses it was built at: 0 where a rigid
    /// row holds, positive where a one-sided row is slack (world units or radians; 0 for a
    /// contact's rows).
    pub(super) error: Real,
    /// For a one-sided row, how slack it may be and still count as at its bound
    /// ([`ANGULAR_SLOP`] or [`LINEAR_SLOP`]); 0 for the others.
    pub(super) slop: Real,
}

impl Row {
    /// A row along `dir` between the material points at lever arms `r_a` and `r_b`: the
    /// velocity of B's point minus A's, along `dir`.
    pub(super) fn linear(
        (a, b): (u32, u32),
        dir: Vector,
        (r_a, r_b): (Vector, Vector),
        bound: Bound,
    ) -> Self {
        Self {
            a,
            b,
            ja: (-dir, -cross(&r_a, &dir)),
            jb: (dir, cross(&r_b, &dir)),
            target: 0.0,
            bound,
            error: 0.0,
            slop: 0.0,
        }
    }

    /// The row with position error `error`.
    fn measuring(self, error: Real) -> Self {
        Self { error, ..self }
    }

    /// A one-sided row at its bound within `slop`.
    fn within(self, slop: Real) -> Self {
        Self { slop, ..self }
    }

    /// Whether the row acts at its poses: a rigid row always, a one-sided one at its bound.
    pub(super) fn acts(&self) -> bool {
        self.bound != Bound::AtLeast || self.error <= self.slop
    }

    /// B's angular speed minus A's, times `sign`.
    pub(super) fn angular((a, b): (u32, u32), sign: Real, bound: Bound) -> Self {
        Self {
            a,
            b,
            ja: (Vector::zeros(), -sign),
            jb: (Vector::zeros(), sign),
            target: 0.0,
            bound,
            error: 0.0,
            slop: 0.0,
        }
    }

    /// A row along a direction `dir` fixed in A (Box2D's prismatic and wheel rows): the
    /// rate of change of `dir . d`, with `d` B's anchor minus A's, as A turns `dir`.
    fn along_axis(
        (a, b): (u32, u32),
        dir: Vector,
        (d, r_a, r_b): (Vector, Vector, Vector),
        bound: Bound,
    ) -> Self {
        Self {
            a,
            b,
            ja: (-dir, -cross(&(d + r_a), &dir)),
            jb: (dir, cross(&r_b, &dir)),
            target: 0.0,
            bound,
            error: dir.dot(&d),
            slop: 0.0,
        }
    }

    /// `J v` for velocities `(v_a, w_a)` and `(v_b, w_b)`.
    #[inline]
    pub(super) fn velocity(&self, (va, wa): (Vector, Real), (vb, wb): (Vector, Real)) -> Real {
        self.ja.0.dot(&va) + self.ja.1 * wa + self.jb.0.dot(&vb) + self.jb.1 * wb
    }
}

/// Whether a joint of `kind` can hold its bodies rigidly at some instant: whether the group
/// search goes through it. A limit that is not at its bound, a slack rope, still counts; its
/// rows are decided at the instant ([`joint_rows`]).
pub(super) fn may_bind(kind: &JointKind) -> bool {
    match kind {
        JointKind::Revolute(_) | JointKind::Prismatic(_) | JointKind::Wheel(_) => true,
        JointKind::Weld(w) => w.linear_hertz == 0.0 || w.angular_hertz == 0.0,
        JointKind::Distance(d) => !d.enable_spring || d.enable_limit,
        JointKind::Motor(_) | JointKind::Mouse(_) => false,
    }
}

/// Where a body is: its pose and its centre of mass (world).
pub(super) type Placed<'a> = (&'a Isometry, Point);

/// Appends the rows `joint` holds rigidly with its bodies placed at `a` and `b` (members `ids`
/// of the group's table), each with its position error; see the module's table. With `all`,
/// every enabled limit's one-sided row, at its bound or not ([`Row::acts`] tells), in the
/// same order: the rows a position solve keeps while the bodies move.
pub(super) fn joint_rows(
    joint: &Joint,
    (a, b): (Placed<'_>, Placed<'_>),
    ids: (u32, u32),
    all: bool,
    out: &mut Vec<Row>,
) {
    let def = joint.def();
    let anchor_a = a.0 * def.local_anchor_a;
    let anchor_b = b.0 * def.local_anchor_b;
    let r_a = anchor_a - a.1;
    let r_b = anchor_b - b.1;
    let d = anchor_b - anchor_a;
    let point = |out: &mut Vec<Row>| {
        for (dir, error) in [(Vector::x(), d.x), (Vector::y(), d.y)] {
            out.push(Row::linear(ids, dir, (r_a, r_b), Bound::Equal).measuring(error));
        }
    };
    let angle =
        || wrap_angle((b.0.rotation * a.0.rotation.inverse()).angle() - def.reference_angle);
    match &def.kind {
        JointKind::Revolute(j) => {
            point(out);
            if j.enable_limit {
                let angle = angle();
                for (sign, error) in [(1.0, angle - j.lower_angle), (-1.0, j.upper_angle - angle)] {
                    let row = Row::angular(ids, sign, Bound::AtLeast).measuring(error);
                    push_limit(row.within(ANGULAR_SLOP), all, out);
                }
            }
        }
        JointKind::Weld(w) => {
            if w.linear_hertz == 0.0 {
                point(out);
            }
            if w.angular_hertz == 0.0 {
                out.push(Row::angular(ids, 1.0, Bound::Equal).measuring(angle()));
            }
        }
        JointKind::Prismatic(p) => {
            let axis = a.0.rotation * p.local_axis_a;
            let perp = Vector::new(-axis.y, axis.x);
            out.push(Row::along_axis(ids, perp, (d, r_a, r_b), Bound::Equal));
            out.push(Row::angular(ids, 1.0, Bound::Equal).measuring(angle()));
            if p.enable_limit {
                let range = (p.lower_translation, p.upper_translation);
                axial_limits(ids, axis, (d, r_a, r_b), range, all, out);
            }
        }
        JointKind::Wheel(w) => {
            let axis = a.0.rotation * w.local_axis_a;
            let perp = Vector::new(-axis.y, axis.x);
            out.push(Row::along_axis(ids, perp, (d, r_a, r_b), Bound::Equal));
            if w.enable_limit {
                let range = (w.lower_translation, w.upper_translation);
                axial_limits(ids, axis, (d, r_a, r_b), range, all, out);
            }
        }
        JointKind::Distance(j) => distance_rows(j, ids, (d, r_a, r_b), all, out),
        JointKind::Motor(_) | JointKind::Mouse(_) => {}
    }
}

/// Appends a limit's one-sided `row` if it acts, or with `all` whether or not.
fn push_limit(row: Row, all: bool, out: &mut Vec<Row>) {
    if all || row.acts() {
        out.push(row);
    }
}

/// A prismatic or wheel joint's limits on the translation `axis . d`, each a one-sided row
/// when the translation is within [`LINEAR_SLOP`] of it.
fn axial_limits(
    ids: (u32, u32),
    axis: Vector,
    arms: (Vector, Vector, Vector),
    (lower, upper): (Real, Real),
    all: bool,
    out: &mut Vec<Row>,
) {
    let translation = axis.dot(&arms.0);
    for (dir, error) in [(axis, translation - lower), (-axis, upper - translation)] {
        let row = Row::along_axis(ids, dir, arms, Bound::AtLeast).measuring(error);
        push_limit(row.within(LINEAR_SLOP), all, out);
    }
}

/// A distance joint's rows: the length row when rigid, else its limits at their bounds. The
/// direction is the anchors' (none when they coincide, as Box2D leaves it).
fn distance_rows(
    j: &DistanceJoint,
    ids: (u32, u32),
    (d, r_a, r_b): (Vector, Vector, Vector),
    all: bool,
    out: &mut Vec<Row>,
) {
    let length = d.norm();
    if length <= LINEAR_SLOP * 1e-3 {
        return;
    }
    let u = d / length;
    let arms = (r_a, r_b);
    if !j.enable_spring {
        out.push(Row::linear(ids, u, arms, Bound::Equal).measuring(length - j.length));
        return;
    }
    if j.enable_limit {
        let (short, long) = (length - j.min_length, j.max_length - length);
        for (dir, error) in [(u, short), (-u, long)] {
            let row = Row::linear(ids, dir, arms, Bound::AtLeast).measuring(error);
            push_limit(row.within(LINEAR_SLOP), all, out);
        }
    }
}

/// Appends the one-sided row of `touch` between its bodies placed at `a` and `b` (members
/// `ids`): B's point moving away from A's along the normal, its gap past `touch.gap` the
/// position error (if it acts, or with `all` whether or not). B's point is `touch.point_b`,
/// or for a touch that holds a shape, the corner of `corners` (B's frame) nearest the plane.
pub(super) fn touch_row(
    touch: &Touch,
    corners: &[Point],
    (a, b): (Placed<'_>, Placed<'_>),
    ids: (u32, u32),
    all: bool,
    out: &mut Vec<Row>,
) {
    let pa = a.0 * touch.point_a;
    let normal = a.0.rotation * touch.normal;
    let depth = |p: &Point| (p - pa).dot(&normal);
    let pb = if corners.is_empty() {
        b.0 * touch.point_b
    } else {
        corners
            .iter()
            .map(|c| b.0 * c)
            .min_by(|p, q| depth(p).total_cmp(&depth(q)))
            .unwrap_or(b.0 * touch.point_b)
    };
    let row = Row::linear(ids, normal, (pa - a.1, pb - b.1), Bound::AtLeast)
        .measuring(depth(&pb) - touch.gap)
        .within(LINEAR_SLOP);
    push_limit(row, all, out);
}
