//! Time of impact with a piece of a concave outline (a polygon with seams, see
//! [`ConvexPolygon::with_seams`](impact_geometry::ConvexPolygon::with_seams)): the plain
//! polygon's answer (closed form or conservative advancement), without the hits whose normal
//! the outline's surface does not have there.
//!
//! A hit is dropped when its normal (from the piece toward the other shape, at the time of
//! the hit, in the piece's frame) is, by `seam_cone`, the normal of an internal edge, or a
//! direction at a vertex outside the outline's cone there: at a vertex where an internal
//! edge meets the outline, the directions between the normals of the outline's two edges
//! there (which may be other pieces'), both included, when the outline turns convex; only
//! those two normals when it is concave or straight; none at a vertex whose two edges are
//! both internal.
//!
//! The two normals at a concave vertex are kept although the neighbouring face is as near: a
//! shape sliding along one face at the target separation (as a time-of-impact stepper leaves
//! it after an impact) reaches the vertex with that face's normal, and that face, which the
//! shape never approaches, has no hit to report; the next face's piece must. (Found with a
//! bullet sliding into a reflex corner of the outline under `FirstTimeOfImpact`.)
//!
//! Why another piece reports the impact no later. At the hit, the other shape's nearest
//! point `s` is `x + t d` for the piece's nearest point `x`, the target separation `t` and
//! the normal `d`. Call `U` the union of the pieces (the filled outline).
//!
//! - `x` inside an internal edge: the edge is also the neighbour's across it, which lies on
//!   the side `d` points to, so `s` is within `t` of the neighbour, nearer than `t` unless
//!   the neighbour has no width there.
//! - `x` a vertex where the outline is convex and `d` beyond the normal `m_in` of the
//!   outline's edge `e` coming in (the other side is alike): `d` then points back along `e`,
//!   `d . u = -sin(a) < 0` for `e`'s direction `u` and the angle `a` by which `d` is past
//!   `m_in`. If the foot of `s` on `e`'s line lies on `e`, `s` is `t cos(a) < t` from it;
//!   else `e` is shorter than `t sin(a)`, and its far end `w` is at
//!   `|s - w|^2 = t^2 + |e| (|e| - 2 t sin(a)) < t^2`. Either way the piece holding `e` is
//!   within `t`.
//! - `x` a vertex where the outline is concave or straight, `d` not one of its faces'
//!   normals: its exterior there lies within the half-planes in front of its two edges, so
//!   `d` either points along one of them, past its normal (the same computation puts that
//!   edge nearer than `t`), or into `U`, where the segment from `x` to `s` starts inside
//!   `U`: `s` is inside another piece, or the segment leaves `U` through its surface nearer
//!   to `s` than `t`.
//! - `x` a vertex of two internal edges: `d` is outside the outline's cone (as above, a
//!   nearer piece), or inside it, where the pieces holding the outline's edges at `x` are
//!   as near as this one and their cones hold `d`.
//!
//! So at the time of every dropped hit another piece is within the target separation, and
//! its own first hit is no later (to the methods' tolerance). By induction over the pieces'
//! first hits, the earliest of them comes from a piece whose normal is on the outline's
//! surface, and it is the outline's own first contact: the earliest hit over all the pieces
//! of a body is what the outline filled in would give. A query of one piece alone may be
//! `Separated` where its plain polygon is hit: the body's other pieces hold the impact.

use crate::seam_cone::toi_allows;
use crate::toi_result::Toi;
use impact_geometry::{Shape, Sweep, Vector};

/// `toi` (A's answer on `sweep_a` against B on `sweep_b`), without a hit whose normal either
/// side, if it is a piece of an outline, does not have at the hit's feature.
pub(crate) fn under_rules(toi: Toi, a: &Shape, sweep_a: &Sweep, b: &Shape, sweep_b: &Sweep) -> Toi {
    let Toi::Hit(hit) = toi else {
        return toi;
    };
    let allows = |shape: &Shape, sweep: &Sweep, d: Vector| match shape {
        Shape::Polygon(p) if p.has_seams() => {
            let rotation = sweep.pose_at(hit.fraction).rotation;
            toi_allows(p, &rotation.inverse_transform_vector(&d))
        }
        _ => true,
    };
    if allows(a, sweep_a, hit.normal) && allows(b, sweep_b, -hit.normal) {
        toi
    } else {
        Toi::Separated
    }
}
