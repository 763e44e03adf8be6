//! The normals a piece of a concave outline answers for in a contact: what the manifolds of
//! a [`ConvexPolygon`] that has seams (internal edges, see [`ConvexPolygon::with_seams`])
//! are judged by.
//!
//! Directions are seen from the piece, in its body frame: a unit vector `d` from the piece
//! toward the other shape. Each direction belongs to one feature of the convex piece: an edge
//! when `d` is its normal (to [`PARALLEL_FACES_ANGLE`]), else the vertex whose normal cone
//! (between the normals of its two edges) holds `d`. The outline's surface is made of the
//! outer edges; so an internal edge answers for nothing, and at a vertex the outline's own
//! normal cone decides: at a vertex where the outline turns counter-clockwise (convex, by any
//! amount, the exact sign) the directions between the normals of the outline's two edges
//! there, `m_in` and `m_out`, which may belong to other pieces; at a vertex where it turns
//! clockwise (concave) or goes straight, none but the two faces'. (Outside a concave vertex
//! lies in front of both its faces: a direction there tilted from a face is a ghost to clamp
//! onto the face; one behind either face points into the material, at a shape on the
//! outline's far side.)
//!
//! Each direction is owned once, as a chain does at its joints: a convex vertex's directions
//! belong to the piece whose outer edge leaves it (`m_out` is that edge's normal), except
//! those within [`PARALLEL_FACES_ANGLE`] of `m_in`, the face of the piece whose outer edge
//! comes into it.

use impact_geometry::tolerances::PARALLEL_FACES_ANGLE;
use impact_geometry::{ConvexPolygon, Point, Real, Vector, cross};

/// What a contact's normal `d` is to a piece.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Verdict {
    /// The piece's own: an outer face, a vertex of two outer edges, or the owned directions
    /// of a convex vertex of the outline.
    Keep,
    /// Another piece's (a neighbour's face, the owner of a convex vertex, or a vertex with
    /// only internal edges): no contact from this piece.
    Leave,
    /// A direction tilted from this outer face (the given edge) toward a vertex where the
    /// outline is concave or straight: a ghost, redone on that face alone.
    Clamp(usize),
    /// The normal of an internal edge.
    Internal,
}

/// The feature of a convex polygon that a direction belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Feature {
    /// An edge, by index.
    Face(usize),
    /// A vertex, by index.
    Vertex(usize),
}

/// The feature of `piece` that direction `d` (body frame, unit) belongs to: the edge whose
/// normal it is to [`PARALLEL_FACES_ANGLE`], else the vertex whose cone holds it.
fn feature(piece: &ConvexPolygon, d: &Vector) -> Feature {
    let normals = piece.normals();
    let n = normals.len();
    let mut best = 0;
    let mut best_dot = Real::NEG_INFINITY;
    for (i, normal) in normals.iter().enumerate() {
        let dot = normal.dot(d);
        if dot > best_dot {
            best = i;
            best_dot = dot;
        }
    }
    let side = cross(&normals[best], d);
    if best_dot > 0.0 && side.abs() <= PARALLEL_FACES_ANGLE {
        Feature::Face(best)
    } else if side > 0.0 {
        // Counter-clockwise of the nearest normal: toward the edge's end.
        Feature::Vertex((best + 1) % n)
    } else {
        Feature::Vertex(best)
    }
}

/// The two edges at vertex `v` of a polygon of `n` vertices: the one coming in, the one
/// going out.
#[inline]
fn edges_at(v: usize, n: usize) -> (usize, usize) {
    ((v + n - 1) % n, v)
}

/// Whether the outline turns counter-clockwise at a vertex whose outline normals are
/// `[m_in, m_out]`.
#[inline]
fn convex([m_in, m_out]: [Vector; 2]) -> bool {
    cross(&m_in, &m_out) > 0.0
}

/// The face normal that owns the direction `d` (body frame, unit, from `piece` toward the
/// other shape) of a time of impact with the piece at `point` (body frame), if `d` is a ghost,
/// a direction the outline has no normal for there:
///
/// - at a vertex of one outer and one internal edge: past a convex vertex's cone (between the
///   internal edge's normal and the outline's nearer one) the neighbouring piece's face, whose
///   normal is that outline normal; at a concave or straight vertex, a direction in front of
///   both faces, the piece's own outer face there;
/// - an internal edge's normal, met beside the edge's nearer end outside the outline (in
///   front of the owner's face there, to `slack`): the neighbour's face across the edge at a
///   convex end, the piece's own outer face at a concave or straight one;
/// - at a vertex of two internal edges, or an internal edge's normal met beside such an end,
///   see [`spike_owner`].
///
/// Either owner's line has the whole piece behind it. `None` for every other direction: the
/// outline's own (its faces, its convex corners' cones), and those that meet the other shape
/// through the material, which the plain polygon answers as it is.
pub(crate) fn ghost_owner(
    piece: &ConvexPolygon,
    d: &Vector,
    point: &Point,
    slack: Real,
) -> Option<Vector> {
    let n = piece.vertices().len();
    match feature(piece, d) {
        Feature::Face(i) if piece.is_internal_edge(i) => {
            let (from, to) = (piece.vertices()[i], piece.vertices()[(i + 1) % n]);
            let along = to - from;
            let t = (point - from).dot(&along) / along.norm_squared();
            // The edge leaves its start and comes into its end.
            let (v, inner_in) = if t < 0.5 {
                (i, false)
            } else {
                ((i + 1) % n, true)
            };
            let (e_in, e_out) = edges_at(v, n);
            let [m_in, m_out] = piece.outline_normals(v);
            if piece.is_internal_edge(e_in) && piece.is_internal_edge(e_out) {
                return spike_owner(piece, v, d, [m_in, m_out]);
            }
            let outside = |m: &Vector| (point - piece.vertices()[v]).dot(m) >= -slack;
            if convex([m_in, m_out]) {
                let owner = if inner_in { m_in } else { m_out };
                outside(&owner).then_some(owner)
            } else if outside(&m_in) && outside(&m_out) {
                Some(if inner_in { m_out } else { m_in })
            } else {
                None
            }
        }
        Feature::Face(_) => None,
        Feature::Vertex(v) => {
            let (e_in, e_out) = edges_at(v, n);
            let inner_in = piece.is_internal_edge(e_in);
            let inner_out = piece.is_internal_edge(e_out);
            if !inner_in && !inner_out {
                return None;
            }
            let [m_in, m_out] = piece.outline_normals(v);
            let near = |m: &Vector| m.dot(d) > 0.0 && cross(m, d).abs() <= PARALLEL_FACES_ANGLE;
            if near(&m_in) || near(&m_out) {
                return None;
            }
            if inner_in && inner_out {
                return spike_owner(piece, v, d, [m_in, m_out]);
            }
            if convex([m_in, m_out]) {
                let inside = cross(&m_in, d) >= 0.0 && cross(d, &m_out) >= 0.0;
                match (inside, inner_in) {
                    (true, _) => None,
                    (false, true) => Some(m_in),
                    (false, false) => Some(m_out),
                }
            } else if d.dot(&m_in) >= 0.0 && d.dot(&m_out) >= 0.0 {
                Some(if inner_in { m_out } else { m_in })
            } else {
                None
            }
        }
    }
}

/// [`ghost_owner`] at a vertex `v` of two internal edges (a piece that meets the outline's
/// surface only there), where the outline's normals are `[m_in, m_out]`: a direction outside
/// the outline's cone (past a convex vertex, or in front of both faces of a concave or
/// straight one) is owned by the nearer of the two faces whose line has the whole piece
/// behind it (its normal in the piece's normal cone at `v`); `None` if neither has.
fn spike_owner(
    piece: &ConvexPolygon,
    v: usize,
    d: &Vector,
    [m_in, m_out]: [Vector; 2],
) -> Option<Vector> {
    let ghost = if convex([m_in, m_out]) {
        !(cross(&m_in, d) >= 0.0 && cross(d, &m_out) >= 0.0)
    } else {
        d.dot(&m_in) >= 0.0 && d.dot(&m_out) >= 0.0
    };
    if !ghost {
        return None;
    }
    let n = piece.vertices().len();
    let (e_in, e_out) = edges_at(v, n);
    let [a, b] = [piece.normals()[e_in], piece.normals()[e_out]];
    let in_cone = |m: &Vector| cross(&a, m) >= 0.0 && cross(m, &b) >= 0.0;
    [m_in, m_out]
        .into_iter()
        .filter(in_cone)
        .max_by(|x, y| x.dot(d).total_cmp(&y.dot(d)))
}

/// The verdict on a contact's normal `d` (body frame, unit, from `piece` toward the other
/// shape); see the module docs. `at_vertex` names the piece's vertex a contact of one point
/// lies at when its normal is the exact direction between two corners rather than a face's:
/// when the corners are apart by little more than rounding, that direction is noise and may
/// lie in a neighbouring vertex's cone, so the vertex decides (with `d` still judged against
/// its cone).
pub(crate) fn contact_verdict(
    piece: &ConvexPolygon,
    d: &Vector,
    at_vertex: Option<usize>,
) -> Verdict {
    let n = piece.vertices().len();
    let feature = match (feature(piece, d), at_vertex) {
        (Feature::Vertex(_), Some(v)) => Feature::Vertex(v),
        (found, _) => found,
    };
    match feature {
        Feature::Face(i) if piece.is_internal_edge(i) => Verdict::Internal,
        Feature::Face(_) => Verdict::Keep,
        Feature::Vertex(v) => {
            let (e_in, e_out) = edges_at(v, n);
            match (piece.is_internal_edge(e_in), piece.is_internal_edge(e_out)) {
                (false, false) => Verdict::Keep,
                (true, true) => Verdict::Leave,
                (inner_in, _) => {
                    let normals = piece.outline_normals(v);
                    if !convex(normals) {
                        // A direction past the end of this piece's outer face, toward the
                        // seam: at a concave or straight vertex the outline has no
                        // directions of its own there, only its faces'. Outside the outline
                        // there lies in front of both faces; a direction into the material
                        // meets the other shape through it (on the outline's far side).
                        if d.dot(&normals[0]) >= 0.0 && d.dot(&normals[1]) >= 0.0 {
                            Verdict::Clamp(if inner_in { e_out } else { e_in })
                        } else {
                            Verdict::Leave
                        }
                    } else if inner_in && cross(&normals[0], d) > PARALLEL_FACES_ANGLE {
                        // This piece's outer edge leaves the vertex: it owns the vertex's
                        // directions (`d` is within its own cone, so not beyond `m_out`).
                        Verdict::Keep
                    } else {
                        // The owner's, or beyond the outline's cone: a neighbour's face.
                        Verdict::Leave
                    }
                }
            }
        }
    }
}
