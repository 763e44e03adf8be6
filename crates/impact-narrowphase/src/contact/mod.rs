//! Contact manifolds for the solver: up to two points per pair of shapes, each with its
//! separation and a feature id for warm starting, produced up to a speculative distance before
//! the shapes touch.
//!
//! Every shape is a rounded polygon here (`rounded_core`): its core placed in world
//! coordinates with its edges' outward normals and its radius; a circle is one vertex, a
//! segment or capsule two, a polygon its corners (with its own radius when rounded). Two
//! kernels do the work: a point core against any core (`point_core`: the Voronoi regions of
//! the core) for every pair with a circle, and two cores with edges (`clipping`: separating
//! axes, then the incident edge clipped against the reference face) for the others. One
//! module per pair in canonical order (circle < segment < capsule < polygon), each a few lines
//! that place the cores and call a kernel; the dispatcher below swaps the reverse order.
//! `manifold` holds the types, `segment_side` the manifold held to one side of a
//! zero-thickness segment, and `chain_segment` the one-sided segment of a chain against any
//! other shape (last in the canonical order: its rules sit on top of the plain segment's
//! manifold). `piece` holds the rules of a piece of a concave outline (a polygon with
//! seams), on top of the plain cores' manifold in the same way.

mod capsule_capsule;
mod capsule_polygon;
mod chain_segment;
mod circle_capsule;
mod circle_circle;
mod circle_polygon;
mod circle_segment;
mod clipping;
mod face_apart;
mod manifold;
mod piece;
mod point_core;
mod polygon_polygon;
mod rounded_core;
mod segment_capsule;
mod segment_pair;
mod segment_polygon;
mod segment_segment;
mod segment_side;

pub use capsule_capsule::contact_capsule_capsule;
pub use capsule_polygon::contact_capsule_polygon;
pub use chain_segment::contact_chain_segment;
pub use circle_capsule::contact_circle_capsule;
pub use circle_circle::contact_circle_circle;
pub use circle_polygon::contact_circle_polygon;
pub use circle_segment::contact_circle_segment;
pub use manifold::{ContactId, ContactPoint, Manifold};
pub use polygon_polygon::contact_polygon_polygon;
pub use segment_capsule::contact_segment_capsule;
pub use segment_polygon::contact_segment_polygon;
pub use segment_segment::contact_segment_segment;
pub use segment_side::contact_manifold_on_side;

// Where two flush faces touch: defined at the crate root, beside the time of impact that
// places its hits with it, and offered here with the manifolds.
pub use crate::face_middle::shared_face_middle;

use impact_geometry::{Isometry, Real, Shape};

/// The contact manifold of `a` at `pose_a` and `b` at `pose_b`, with points wherever the
/// surfaces are closer than `speculative_distance` (world units, zero or more; see
/// [`impact_geometry::tolerances::SPECULATIVE_DISTANCE`]).
///
/// A [`ChainSegment`](impact_geometry::ChainSegment) is one-sided and leaves its neighbours'
/// contacts to them (see [`contact_chain_segment`]); against a segment or another chain
/// segment it gives no contact. A [`ConvexPolygon`](impact_geometry::ConvexPolygon) with
/// seams (a piece of a concave outline) never takes an internal edge as its face and leaves
/// to the other pieces the normals they answer for, so that the pieces make one surface
/// (see [`ConvexPolygon::with_seams`](impact_geometry::ConvexPolygon::with_seams) and
/// `docs/algorithms/outlines.md`); against a chain segment, the chain's rules shape the
/// manifold and the piece's only drop what another piece answers for.
pub fn contact_manifold(
    a: &Shape,
    pose_a: &Isometry,
    b: &Shape,
    pose_b: &Isometry,
    speculative_distance: Real,
) -> Manifold {
    use Shape::{
        Capsule as Cap, ChainSegment as Chn, Circle as Cir, Polygon as Pol, Segment as Seg,
    };
    let spec = speculative_distance;
    match (a, b) {
        // Any shape and a chain segment: one kernel, whatever the other (nothing for thin
        // against thin); the chain's rules decide.
        (_, Chn(y)) => {
            let manifold = contact_chain_segment(a, pose_a, y, pose_b, spec);
            match piece::piece_of(a) {
                Some(p) => piece::left_to_other_pieces(p, pose_a, manifold),
                None => manifold,
            }
        }
        (Chn(_), _) => contact_manifold(b, pose_b, a, pose_a, spec).swapped(),
        // A piece of an outline: the plain cores' manifold under the piece's rules.
        _ if piece::piece_of(a).is_some() || piece::piece_of(b).is_some() => {
            piece::contact_with_piece(a, pose_a, b, pose_b, spec)
        }
        (Cir(x), Cir(y)) => contact_circle_circle(x, pose_a, y, pose_b, spec),
        (Cir(x), Seg(y)) => contact_circle_segment(x, pose_a, y, pose_b, spec),
        (Cir(x), Cap(y)) => contact_circle_capsule(x, pose_a, y, pose_b, spec),
        (Cir(x), Pol(y)) => contact_circle_polygon(x, pose_a, y, pose_b, spec),
        (Seg(x), Seg(y)) => contact_segment_segment(x, pose_a, y, pose_b, spec),
        (Seg(x), Cap(y)) => contact_segment_capsule(x, pose_a, y, pose_b, spec),
        (Seg(x), Pol(y)) => contact_segment_polygon(x, pose_a, y, pose_b, spec),
        (Cap(x), Cap(y)) => contact_capsule_capsule(x, pose_a, y, pose_b, spec),
        (Cap(x), Pol(y)) => contact_capsule_polygon(x, pose_a, y, pose_b, spec),
        (Pol(x), Pol(y)) => contact_polygon_polygon(x, pose_a, y, pose_b, spec),
        (Seg(_) | Cap(_) | Pol(_), Cir(_)) | (Cap(_) | Pol(_), Seg(_)) | (Pol(_), Cap(_)) => {
            contact_manifold(b, pose_b, a, pose_a, spec).swapped()
        }
    }
}
