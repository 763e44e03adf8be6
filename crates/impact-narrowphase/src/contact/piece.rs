//! Contact with a piece of a concave outline: a convex polygon with seams (internal edges,
//! see [`ConvexPolygon::with_seams`]), without ghost collisions where pieces meet.
//!
//! The pair is first collided as plain cores (`point_core` or `clipping`); the normal `d` of
//! that manifold, seen from each piece of the pair, is then judged by `seam_cone` and the
//! manifold kept, dropped or redone:
//!
//! - **Keep**: an outer face, a vertex of two outer edges, or a direction of a convex vertex
//!   of the outline that this piece owns (its outer edge leaves the vertex).
//! - **Leave**: a direction another piece answers for (the owner of a convex vertex, a
//!   neighbour whose outer face `d` points beyond, a vertex with only internal edges): no
//!   contact.
//! - **Clamp**: a direction tilted from an outer face toward a vertex where the outline is
//!   concave or straight (the seam of two nearly collinear faces): the manifold is redone on
//!   that face alone, as a chain does at a flat joint (the other's incident edge clipped to
//!   the face, separations along its normal, nothing if the other lies wholly beyond the
//!   face's end; a point core only if it projects onto the face), if the centre of the
//!   other's core is in front of the face; else nothing (it is over the other face there).
//! - **Internal**: the plain manifold took an internal edge as its face. Where the cores
//!   overlap, the axes are searched again without the internal edges (and the other's faces
//!   parallel to them), keeping only those with the other's centre in front of the piece's
//!   surface there: a box pressed into a reflex corner straddles the diagonal, each piece's
//!   least penetration, and is pushed out of each wall. Where they do not (the internal edge
//!   parts them), or no axis qualifies, the other is across the edge, or outside the outline
//!   beside the edge's end: no contact (the neighbour, or the face there, answers).
//!
//! Whatever the verdict, a piece that holds the centre of the other shape's core (its
//! vertices' mean) pushes it out through its own outer face of least penetration: the other
//! is deep inside the outline, where a push across a diagonal would only carry it into the
//! neighbour, which would push it back, and where ghost normals no longer matter.
//!
//! Where a face of the other shape is the reference and the piece meets it with an internal
//! edge, the points clipped along that edge would be inside the outline: only the edge's
//! ends, vertices of the outline, are points, each where the face's normal points out of the
//! outline there (not through its material to a face on its far side).
//!
//! So a body sliding along the outline's surface gets only the normals of the faces it is
//! over, and each of the outline's convex corners gives its directions once.

use super::clipping::{
    collide_rounded_any, incident, max_separation_where, reference_face, reference_face_ends,
    reference_face_within,
};
use super::manifold::{ContactId, ContactPoint, Manifold, edge_feature};
use super::rounded_core::{Core, Rounded};
use crate::seam_cone::{Verdict, contact_verdict};
use impact_geometry::tolerances::LINEAR_SLOP;
use impact_geometry::{ConvexPolygon, Isometry, Point, Real, Rotation, Shape, Vector};

/// The piece a shape is, if it is a polygon with seams.
#[inline]
pub(crate) fn piece_of(shape: &Shape) -> Option<&ConvexPolygon> {
    match shape {
        Shape::Polygon(p) if p.has_seams() => Some(p),
        _ => None,
    }
}

/// One side of the pair: its core placed in the world and, for a piece, its polygon and
/// rotation (to judge normals in its body frame).
struct Side<'a> {
    core: Rounded,
    piece: Option<(&'a ConvexPolygon, Rotation)>,
}

impl<'a> Side<'a> {
    fn new(shape: &'a Shape, pose: &Isometry) -> Self {
        let core = match shape {
            Shape::Polygon(p) => {
                let mut core = Rounded::empty();
                core.set_polygon(p, pose);
                core
            }
            _ => Rounded::new(shape.core(), shape.radius(), pose),
        };
        Self {
            core,
            piece: piece_of(shape).map(|p| (p, pose.rotation)),
        }
    }

    /// The verdict on world direction `d` from this side toward the other, for a contact at
    /// this side's vertex `at_vertex` if it is a corner's (see `contact_verdict`).
    fn verdict(&self, d: &Vector, at_vertex: Option<usize>) -> Verdict {
        match self.piece {
            Some((piece, rotation)) => {
                contact_verdict(piece, &rotation.inverse_transform_vector(d), at_vertex)
            }
            None => Verdict::Keep,
        }
    }

    /// Whether world direction `d` at this piece's vertex `k` points out of the outline: in
    /// front of either of the outline's edges there where it is convex, of both where it is
    /// concave or straight (a contact there along `d` is with the outline's surface, not
    /// through its material). Always for a shape that is not a piece.
    fn outward_at(&self, k: usize, d: &Vector) -> bool {
        let Some((piece, rotation)) = self.piece else {
            return true;
        };
        let d = rotation.inverse_transform_vector(d);
        let [m_in, m_out] = piece.outline_normals(k);
        let (front_in, front_out) = (d.dot(&m_in) >= 0.0, d.dot(&m_out) >= 0.0);
        if impact_geometry::cross(&m_in, &m_out) > 0.0 {
            front_in || front_out
        } else {
            front_in && front_out
        }
    }

    /// The vertex of this side's core nearest to `p`.
    fn nearest_vertex(&self, p: Vector) -> usize {
        let v = self.core.v();
        (0..v.len())
            .min_by(|&i, &j| {
                (v[i] - p)
                    .norm_squared()
                    .total_cmp(&(v[j] - p).norm_squared())
            })
            .unwrap_or(0)
    }

    /// Whether edge `i` is an internal edge.
    fn internal(&self, i: usize) -> bool {
        self.piece.is_some_and(|(p, _)| p.is_internal_edge(i))
    }
}

/// The manifold of `a` at `pose_a` and `b` at `pose_b` (normal from A to B), one of them at
/// least a polygon with seams and neither a chain segment, under the rules of the module
/// docs.
pub(crate) fn contact_with_piece(
    a: &Shape,
    pose_a: &Isometry,
    b: &Shape,
    pose_b: &Isometry,
    speculative: Real,
) -> Manifold {
    let (a, b) = (Side::new(a, pose_a), Side::new(b, pose_b));
    if a.core.v().is_empty() || b.core.v().is_empty() {
        return Manifold::EMPTY;
    }
    let plain = collide_rounded_any(&a.core, &b.core, speculative);
    if plain.is_empty() {
        return plain;
    }
    judged(&a, &b, plain, speculative)
}

/// `manifold` (normal from `a` to `b`, kept by both sides), redone where a face of one side
/// is its reference and the other side, a piece, meets it with an internal edge: that edge is inside the outline
/// but at its ends, so the points clipped along it are not on the outline's surface (a box
/// sunk into a flat top, its end just past a seam, had a point on the neighbour's diagonal).
fn on_outer_incident(
    a: &Side<'_>,
    b: &Side<'_>,
    manifold: Manifold,
    speculative: Real,
) -> Manifold {
    if a.core.v().len() < 2 || b.core.v().len() < 2 {
        return manifold;
    }
    if let Some(e) = a.core.n().iter().position(|n| *n == manifold.normal) {
        return reference(a, b, e, speculative, false);
    }
    if let Some(e) = b.core.n().iter().position(|n| *n == -manifold.normal) {
        return reference(b, a, e, speculative, false).swapped();
    }
    manifold
}

/// The manifold with face `e1` of `p1` as the reference (normal from `p1` to `p2`) and the
/// edge of `p2` most against it as the incident edge, clipped to the face (with `within`,
/// nothing if it lies wholly beyond the face's ends). If that edge is internal, only its ends
/// can touch, each where the face's normal, seen from `p2`, points out of the outline there.
fn reference(p1: &Side<'_>, p2: &Side<'_>, e1: usize, speculative: Real, within: bool) -> Manifold {
    let normal = p1.core.n()[e1];
    let i21 = incident(&p2.core, normal);
    if !p2.internal(i21) {
        return if within {
            reference_face_within(&p1.core, &p2.core, e1, speculative)
        } else {
            reference_face(&p1.core, &p2.core, e1, speculative)
        };
    }
    reference_face_ends(&p1.core, &p2.core, e1, i21, speculative, |k| {
        p2.outward_at(k, &-normal)
    })
}

/// `manifold` (normal from `a` to `b`) kept, dropped or redone by both sides' verdicts;
/// `manifold` (normal from `a` to `b`) kept, dropped or redone by both sides' verdicts: a
/// piece holding the other's centre pushes it out through its own outer surface whatever
/// the verdict (see [`deep`]); otherwise a side's `Leave` or `Internal` drops it and a
/// `Clamp` redoes it on that face.
fn judged(a: &Side<'_>, b: &Side<'_>, manifold: Manifold, speculative: Real) -> Manifold {
    let (va, vb) = verdicts(a, b, &manifold);
    if (va, vb) == (Verdict::Keep, Verdict::Keep) {
        return on_outer_incident(a, b, manifold, speculative);
    }
    if va != Verdict::Keep && a.piece.is_some() && centre_inside(&b.core, &a.core) {
        return deep(a, b, manifold, speculative);
    }
    if vb != Verdict::Keep && b.piece.is_some() && centre_inside(&a.core, &b.core) {
        return deep(b, a, manifold.swapped(), speculative).swapped();
    }
    match (va, vb) {
        (Verdict::Leave, _) | (_, Verdict::Leave) => Manifold::EMPTY,
        (Verdict::Internal, _) | (_, Verdict::Internal) if cores_overlap(&a.core, &b.core) => {
            let again = across_internal(a, b, speculative);
            keep_only(
                again,
                verdicts(a, b, &again) == (Verdict::Keep, Verdict::Keep),
            )
        }
        (Verdict::Internal, _) | (_, Verdict::Internal) => Manifold::EMPTY,
        (Verdict::Clamp(face), _) if in_front(&b.core, &a.core, face) => {
            let clamped = on_face(a, b, face, speculative);
            keep_only(clamped, verdicts(a, b, &clamped).1 == Verdict::Keep)
        }
        (Verdict::Keep, Verdict::Clamp(face)) if in_front(&a.core, &b.core, face) => {
            let clamped = on_face(b, a, face, speculative).swapped();
            keep_only(clamped, verdicts(a, b, &clamped).0 == Verdict::Keep)
        }
        (Verdict::Clamp(_), _) | (_, Verdict::Clamp(_)) => Manifold::EMPTY,
        (Verdict::Keep, Verdict::Keep) => on_outer_incident(a, b, manifold, speculative),
    }
}

/// Both sides' verdicts on `manifold` (normal from `a` to `b`). A manifold of one point whose
/// normal is neither side's face normal is corner against corner (or a point core against a
/// corner): each side's vertex there is the one nearest to its end of the contact.
fn verdicts(a: &Side<'_>, b: &Side<'_>, manifold: &Manifold) -> (Verdict, Verdict) {
    let normal = manifold.normal;
    let corner = match manifold.points() {
        [only] if !a.core.n().contains(&normal) && !b.core.n().contains(&-normal) => Some(only),
        _ => None,
    };
    let at = |side: &Side<'_>, toward: Vector| {
        corner.map(|c| {
            let end = c.point.coords - toward * (side.core.radius + 0.5 * c.separation);
            side.nearest_vertex(end)
        })
    };
    (
        a.verdict(&normal, at(a, normal)),
        b.verdict(&-normal, at(b, -normal)),
    )
}

/// The manifold of a pair whose plain manifold took an internal edge as its face: searched
/// again over the axes that are neither an internal edge nor parallel to one, and that have
/// the other shape's centre in front of the piece's surface there (the piece's face, or
/// its corner on the other's face's axis): a box pressed into a reflex corner of the outline
/// straddles the diagonal there, the least penetration of each piece, and is pushed out of
/// each wall. Nothing if no axis qualifies (the other is across the diagonal, or beside its
/// end outside the outline, where another piece answers).
fn across_internal(a: &Side<'_>, b: &Side<'_>, speculative: Real) -> Manifold {
    let (ca, cb) = (centre(&a.core), centre(&b.core));
    if a.core.v().len() == 1 || b.core.v().len() == 1 {
        let (piece, point, swap) = if a.core.v().len() == 1 {
            (b, a, true)
        } else {
            (a, b, false)
        };
        let c = point.core.v()[0];
        let (face, separation) = max_separation_where(&piece.core, &PointCore(c), |i| {
            !piece.internal(i) && piece.core.n()[i].dot(&(c - piece.core.v()[i])) >= 0.0
        });
        if separation == Real::NEG_INFINITY {
            return Manifold::EMPTY;
        }
        let m = on_face(piece, point, face, speculative);
        return if swap { m.swapped() } else { m };
    }
    // An axis of `s1`'s face `i`, normal `n` from `s1` toward `s2`: allowed if neither side
    // sees it as an internal edge's normal and each piece's centre test passes.
    let allowed = |s1: &Side<'_>, s2: &Side<'_>, c1: Vector, c2: Vector, i: usize| {
        let n = s1.core.n()[i];
        !s1.internal(i)
            && s2.verdict(&-n, None) != Verdict::Internal
            && (s1.piece.is_none() || n.dot(&(c2 - s1.core.v()[i])) >= 0.0)
            && (s2.piece.is_none() || (-n).dot(&(c1 - support(&s2.core, -n))) >= 0.0)
    };
    let (edge_a, separation_a) =
        max_separation_where(&a.core, &b.core, |i| allowed(a, b, ca, cb, i));
    let (edge_b, separation_b) =
        max_separation_where(&b.core, &a.core, |j| allowed(b, a, cb, ca, j));
    if separation_a == Real::NEG_INFINITY && separation_b == Real::NEG_INFINITY {
        return Manifold::EMPTY;
    }
    // Prefer A's face unless B's is clearly better, as the plain kernel does.
    if separation_b > separation_a + 0.1 * LINEAR_SLOP {
        reference(b, a, edge_b, speculative, false).swapped()
    } else {
        reference(a, b, edge_a, speculative, false)
    }
}

/// Whether two cores overlap: no axis of either (internal edges included) separates them,
/// nor touches them. Only then does a search without the internal edges mean anything:
/// where an internal edge parts them, the rest of the axes can show an overlap that is not.
fn cores_overlap(a: &Rounded, b: &Rounded) -> bool {
    if a.v().len() == 1 {
        return max_separation_where(b, &PointCore(a.v()[0]), |_| true).1 < 0.0;
    }
    if b.v().len() == 1 {
        return max_separation_where(a, &PointCore(b.v()[0]), |_| true).1 < 0.0;
    }
    max_separation_where(a, b, |_| true).1 < 0.0 && max_separation_where(b, a, |_| true).1 < 0.0
}

/// The centre of a core: its vertices' mean.
fn centre(core: &Rounded) -> Vector {
    core.v().iter().sum::<Vector>() / core.v().len() as Real
}

/// The vertex of `core` farthest along `d`.
fn support(core: &Rounded, d: Vector) -> Vector {
    core.v()
        .iter()
        .copied()
        .max_by(|x, y| x.dot(&d).total_cmp(&y.dot(&d)))
        .unwrap_or_else(Vector::zeros)
}

/// `manifold` if `keep`, else no contact.
#[inline]
fn keep_only(manifold: Manifold, keep: bool) -> Manifold {
    if keep && !manifold.is_empty() {
        manifold
    } else {
        Manifold::EMPTY
    }
}

/// Whether the centre of `other`'s core (its vertices' mean) is in front of face `face` of
/// `piece`'s core (on its line included): a shape whose centre is behind the face's line is
/// over another face, or the outline's inside, and the face has no contact of its own with it
/// (the chain's one-sided test).
fn in_front(other: &Rounded, piece: &Rounded, face: usize) -> bool {
    let centre = other.v().iter().sum::<Vector>() / other.v().len() as Real;
    piece.n()[face].dot(&(centre - piece.v()[face])) >= 0.0
}

/// Whether the centre of `other`'s core (its vertices' mean) lies in `piece`'s core (on its
/// boundary included): the other shape is then deep in the piece, not beside its internal
/// edge, and must be pushed out through the outline's surface.
fn centre_inside(other: &Rounded, piece: &Rounded) -> bool {
    let centre = other.v().iter().sum::<Vector>() / other.v().len() as Real;
    max_separation_where(piece, &PointCore(centre), |_| true).1 <= 0.0
}

/// The manifold of `other` whose centre lies in `piece`: deep inside the outline, it is
/// pushed out through the piece's outer face of least penetration (the face the piece's
/// core would let it out through soonest), never across a diagonal, where the neighbour
/// would push it back. A piece with no outer face (inside a fan of pieces that meet at the
/// outline's vertices) leaves `plain`, its plain manifold (normal from the piece to the
/// other), to carry the other into a neighbour that has one.
fn deep(piece: &Side<'_>, other: &Side<'_>, plain: Manifold, speculative: Real) -> Manifold {
    let (face, separation) = if other.core.v().len() == 1 {
        max_separation_where(&piece.core, &PointCore(other.core.v()[0]), |i| {
            !piece.internal(i)
        })
    } else {
        max_separation_where(&piece.core, &other.core, |i| !piece.internal(i))
    };
    if separation == Real::NEG_INFINITY {
        return plain;
    }
    if other.core.v().len() == 1 {
        let c = other.core.v()[0];
        return face_contact(
            &piece.core,
            face,
            c,
            other.core.radius,
            separation,
            speculative,
        );
    }
    reference(piece, other, face, speculative, false)
}

/// The contact of a point core `c` (radius `rc`) with face `face` of `core`, whose
/// separation from the face's line is `face_separation`.
fn face_contact(
    core: &Rounded,
    face: usize,
    c: Vector,
    rc: Real,
    face_separation: Real,
    speculative: Real,
) -> Manifold {
    let separation = face_separation - core.radius - rc;
    if separation > speculative {
        return Manifold::EMPTY;
    }
    let normal = core.n()[face];
    Manifold::single(
        normal,
        ContactPoint {
            point: Point::from(c - normal * (rc + 0.5 * separation)),
            separation,
            id: ContactId::new(edge_feature(face), 0),
        },
    )
}

/// The manifold on face `face` of `p1` alone (normal from `p1` to `p2`): `p2`'s incident
/// edge clipped to it, nothing if that edge lies wholly beyond the face's ends; a point core
/// only if it projects onto the face.
fn on_face(s1: &Side<'_>, s2: &Side<'_>, face: usize, speculative: Real) -> Manifold {
    let (p1, p2) = (&s1.core, &s2.core);
    if p2.v().len() >= 2 {
        return reference(s1, s2, face, speculative, true);
    }
    let n = p1.v().len();
    let (v1, v2) = (p1.v()[face], p1.v()[(face + 1) % n]);
    let c = p2.v()[0];
    let along = v2 - v1;
    let s = (c - v1).dot(&along);
    if s < 0.0 || s > along.norm_squared() {
        return Manifold::EMPTY;
    }
    let face_separation = p1.n()[face].dot(&(c - v1));
    face_contact(p1, face, c, p2.radius, face_separation, speculative)
}

/// A single point as a core, for the separations of a polygon's faces from it.
struct PointCore(Vector);

impl Core for PointCore {
    fn v(&self) -> &[Vector] {
        core::slice::from_ref(&self.0)
    }

    fn n(&self) -> &[Vector] {
        &[]
    }

    fn radius(&self) -> Real {
        0.0
    }
}

/// A chain segment's manifold with a piece `piece` (A) at `pose` (normal from the piece
/// toward the chain segment): the chain's rules decide its shape, and the piece's only
/// whether it is the piece's to report (dropped when another piece answers for its
/// normal).
pub(crate) fn left_to_other_pieces(
    piece: &ConvexPolygon,
    pose: &Isometry,
    manifold: Manifold,
) -> Manifold {
    if manifold.is_empty() {
        return manifold;
    }
    let d = pose.rotation.inverse_transform_vector(&manifold.normal);
    match contact_verdict(piece, &d, None) {
        Verdict::Leave => Manifold::EMPTY,
        _ => manifold,
    }
}
