//! The cores of both shapes placed at the current evaluation: their vertices relative to
//! their centres of mass, in the bodies' own axes (fixed over a query) and turned into world
//! axes (the arms, turned only when something reads them all), with the rotations and the
//! offset between the centres; and the distance read off a face of one core against a vertex
//! of the other, exact without GJK when that face realises it.

use super::faces::{facing_face, side_normal};
use super::mover::{CURVED_MAX_VERTICES, Mover};
use crate::gjk::{GjkCache, GjkOutput};
use impact_geometry::{Isometry, Point, Real, Rotation, Shape, Vector, rotations_by};

/// The zero vector as a constant: `[Vector::zeros(); N]` would build each array on the stack
/// and copy it into place.
const ZERO: Vector = Vector::new(0.0, 0.0);

/// The core vertices of both shapes relative to their centres of mass, in world axes, at the
/// current poses.
#[repr(C)]
pub(super) struct Frame {
    /// The core vertices relative to the centres of mass in the bodies' own axes: fixed over
    /// the query, turned into the arms at each placement.
    pub(super) local_a: [Vector; CURVED_MAX_VERTICES],
    pub(super) local_b: [Vector; CURVED_MAX_VERTICES],
    pub(super) arms_a: [Vector; CURVED_MAX_VERTICES],
    pub(super) arms_b: [Vector; CURVED_MAX_VERTICES],
    /// Room for [`face_step`](Self::face_step)'s bounds, one per vertex: kept here, it is
    /// cleared once per query, not at every step (declared beside the arrays, with
    /// `repr(C)`, so that one `memset` clears them all).
    pub(super) family: [(Real, Real, Real); CURVED_MAX_VERTICES],
    pub(super) count_a: usize,
    pub(super) count_b: usize,
    /// From A's centre of mass to B's.
    pub(super) centers: Vector,
    /// A's centre of mass, in world coordinates.
    pub(super) center_a: Point,
    /// The bodies' rotations.
    pub(super) rotation_a: Rotation,
    pub(super) rotation_b: Rotation,
    /// Whether the arms are not turned to the current rotations (see
    /// [`place_at`](Self::place_at)).
    stale: bool,
}

impl Frame {
    /// Whether both shapes have few enough vertices for the curved bounds.
    #[inline]
    pub(super) fn fits(a: &[Point], b: &[Point]) -> bool {
        a.len() <= CURVED_MAX_VERTICES && b.len() <= CURVED_MAX_VERTICES
    }

    /// An empty frame for the two shapes, to be [`place`](Self::place)d; they must
    /// [`fit`](Self::fits). Made once per query and refilled in place at every step, which
    /// fills the arrays only up to the vertex counts and copies nothing out.
    ///
    /// Made empty and [`load`](Self::load)ed in place: built full and moved, its arrays would
    /// be copied.
    #[inline(always)]
    pub(super) fn new(a: &Mover<'_>, b: &Mover<'_>) -> Self {
        Self {
            local_a: [ZERO; CURVED_MAX_VERTICES],
            local_b: [ZERO; CURVED_MAX_VERTICES],
            arms_a: [ZERO; CURVED_MAX_VERTICES],
            arms_b: [ZERO; CURVED_MAX_VERTICES],
            count_a: a.core.len(),
            count_b: b.core.len(),
            centers: Vector::zeros(),
            center_a: Point::origin(),
            rotation_a: Rotation::identity(),
            rotation_b: Rotation::identity(),
            family: [(0.0, 0.0, 0.0); CURVED_MAX_VERTICES],
            stale: false,
        }
    }

    /// The core vertices relative to the centres of mass, once per query.
    #[inline]
    pub(super) fn load(&mut self, a: &Mover<'_>, b: &Mover<'_>) {
        let (center_a, center_b) = (a.sweep.local_center(), b.sweep.local_center());
        for (l, p) in self.local_a.iter_mut().zip(a.core) {
            *l = p - center_a;
        }
        for (l, p) in self.local_b.iter_mut().zip(b.core) {
            *l = p - center_b;
        }
    }

    /// The face (see [`Evaluator::face`](super::evaluator::Evaluator::face)) of the edge GJK's
    /// simplex in `cache` ends on, if it ends edge against vertex (`normals`: A's outward
    /// normals, then B's; `normal` from A toward B): the fused and the generic paths read it
    /// the same way.
    #[inline]
    pub(super) fn face_of_simplex(
        &self,
        cache: &GjkCache,
        (normals_a, normals_b): (&[Vector], &[Vector]),
        normal: &Vector,
    ) -> Option<(bool, usize, Vector)> {
        let (on_a, i, j, _) = cache.edge_against_vertex()?;
        let normals = if on_a { normals_a } else { normals_b };
        self.face_of_edge(on_a, i, j, normals, normal)
    }

    /// The face (see [`Evaluator::face`](super::evaluator::Evaluator::face)) whose edge joins
    /// vertices `i` and `j` of A's core (`on_a`) or B's, if they are adjacent: a polygon's own
    /// face (`normals` are its outward normals), or the side of a segment's or capsule's core
    /// facing the other body, which lies along `normal` (from A toward B) from it.
    fn face_of_edge(
        &self,
        on_a: bool,
        i: usize,
        j: usize,
        normals: &[Vector],
        normal: &Vector,
    ) -> Option<(bool, usize, Vector)> {
        let (n, local, rotation) = if on_a {
            (self.count_a, &self.local_a, &self.rotation_a)
        } else {
            (self.count_b, &self.local_b, &self.rotation_b)
        };
        if n == 2 && i < 2 && j < 2 {
            let outward = if on_a { *normal } else { -normal };
            let side = side_normal(
                &(local[1] - local[0]),
                &rotation.inverse_transform_vector(&outward),
            )?;
            return Some((on_a, 0, side));
        }
        if normals.len() != n || i >= n || j >= n {
            return None;
        }
        let k = if j == (i + 1) % n {
            i
        } else if i == (j + 1) % n {
            j
        } else {
            return None;
        };
        Some((on_a, k, normals[k]))
    }

    /// The arms at the given poses (the generic path, which has built them).
    #[inline]
    pub(super) fn place(
        &mut self,
        a: &Mover<'_>,
        pose_a: &Isometry,
        b: &Mover<'_>,
        pose_b: &Isometry,
    ) {
        self.turn(&pose_a.rotation, &pose_b.rotation);
        let (center_a, center_b) = (a.sweep.local_center(), b.sweep.local_center());
        self.center_a = pose_a * center_a;
        self.centers = pose_b * center_b - self.center_a;
    }

    /// The rotations and centres of mass at fraction `t` of the sweeps (the fused path: no
    /// pose is built).
    ///
    /// The arms are left as they were, marked stale: the face tests and the face step read
    /// the face's own two vertices and the other core in its own axes, and most evaluations
    /// need nothing more (see [`freshen`](Self::freshen)).
    #[inline]
    pub(super) fn place_at(&mut self, a: &Mover<'_>, b: &Mover<'_>, t: Real) {
        let (rotation_a, rotation_b) = if a.turn != 0.0 && b.turn != 0.0 {
            // Both turn: both sines and cosines at once (the same bits as `rotation_at`).
            let [turn_a, turn_b] = rotations_by([a.angle_at(t), b.angle_at(t)]);
            (
                a.sweep.start().rotation * turn_a,
                b.sweep.start().rotation * turn_b,
            )
        } else {
            (a.rotation_at(t), b.rotation_at(t))
        };
        self.rotation_a = rotation_a;
        self.rotation_b = rotation_b;
        self.stale = true;
        self.center_a = a.center_at(t);
        self.centers = b.center_at(t) - self.center_a;
    }

    /// Turns the arms [`place_at`](Self::place_at) left stale, for whatever reads them all
    /// (GJK, the fixed-normal and facing-face bounds).
    #[inline]
    pub(super) fn freshen(&mut self) {
        if self.stale {
            self.turn_a();
            self.turn_b();
            self.stale = false;
        }
    }

    #[inline]
    fn turn_a(&mut self) {
        let (count, rotation) = (self.count_a, self.rotation_a);
        for (arm, l) in self.arms_a[..count].iter_mut().zip(&self.local_a[..count]) {
            *arm = rotation * l;
        }
    }

    #[inline]
    fn turn_b(&mut self) {
        let (count, rotation) = (self.count_b, self.rotation_b);
        for (arm, l) in self.arms_b[..count].iter_mut().zip(&self.local_b[..count]) {
            *arm = rotation * l;
        }
    }

    #[inline]
    fn turn(&mut self, rotation_a: &Rotation, rotation_b: &Rotation) {
        self.rotation_a = *rotation_a;
        self.rotation_b = *rotation_b;
        self.turn_a();
        self.turn_b();
        self.stale = false;
    }
}

/// What [`face_distance`] finds: the output as GJK would give it, the side (A's face or B's),
/// the face's two vertex indices and the other core's vertex, for GJK's cache.
pub(super) type FaceFound = (GjkOutput, bool, usize, usize, usize);

/// [`face_distance`] for the face of `shape` (A's if `on_a`, turned by `rotation`) that faces
/// along `direction` ([`facing_face`]), with that face's normal in the body's axes. Inlined
/// into every caller: near contact it runs at nearly every evaluation, and a call costs a
/// sizeable share of the test itself.
#[inline(always)]
pub(super) fn facing_face_distance(
    frame: &Frame,
    on_a: bool,
    shape: &Shape,
    rotation: &Rotation,
    direction: &Vector,
    (radius_a, radius_b): (Real, Real),
) -> Option<(FaceFound, Vector)> {
    let (k, n) = facing_face(shape, rotation, direction)?;
    let found = face_distance(frame, on_a, k, &n, radius_a, radius_b)?;
    Some((found, n))
}

/// The distance between the cores placed in `frame` when it is realised by face `k` (of A's
/// core if `on_a`, else of B's; `local_normal` its outward normal in the body's axes) against
/// a vertex of the other core, without GJK: `None` when it is not, and GJK decides. A face is
/// a polygon's, or the side of a segment's or capsule's core facing the other body.
///
/// The core lies on the inner side of its face's line, so the separation along the face
/// normal, the smallest height `h` of the other core's vertices over that line, is a lower
/// bound on the distance (a separating axis); when the lowest vertex projects onto the face
/// itself, it is `h` away from a point of the core, so the distance is exactly `h`. One pass
/// over the other core's vertices, where GJK runs supports, a simplex and a norm: near
/// contact, where conservative advancement takes most of its steps, polygons meet face to
/// vertex, and the face that realised the last distance almost always realises the next.
///
/// Returns the output as GJK would (in the frame, A's centre of mass at the origin), the side,
/// the face's two vertex indices and the other core's vertex, for GJK's cache.
#[inline(always)]
pub(super) fn face_distance(
    frame: &Frame,
    on_a: bool,
    k: usize,
    local_normal: &Vector,
    radius_a: Real,
    radius_b: Real,
) -> Option<FaceFound> {
    // The face's vertices relative to its body's centre in the body's axes, its placement
    // offset, the other core in its own axes, its rotation and offset: the face body's vertex
    // `i` is at `face_offset + rotation * local[i]`, the other's `j` at `other_offset +
    // other_rotation * other_local[j]` (the arms may be stale).
    let (local, n, face_offset, rotation, other_local, other_rotation, other_offset) = if on_a {
        (
            &frame.local_a,
            frame.count_a,
            ZERO,
            &frame.rotation_a,
            &frame.local_b[..frame.count_b],
            &frame.rotation_b,
            frame.centers,
        )
    } else {
        (
            &frame.local_b,
            frame.count_b,
            frame.centers,
            &frame.rotation_b,
            &frame.local_a[..frame.count_a],
            &frame.rotation_a,
            ZERO,
        )
    };
    let l = k + 1;
    let l = if l == n { 0 } else { l };
    let (first, second) = (rotation * local[k], rotation * local[l]);
    let normal = rotation * local_normal;
    // The other core's lowest vertex along the normal, found in its own axes.
    let axis = other_rotation.inverse_transform_vector(&normal);
    let (mut low, mut low_height) = (0, Real::INFINITY);
    for (j, p) in other_local.iter().enumerate() {
        let h = axis.dot(p);
        if h < low_height {
            (low, low_height) = (j, h);
        }
    }
    let from = face_offset + first;
    let vertex = other_offset + other_rotation * other_local[low];
    let h = normal.dot(&(vertex - from));
    // Positive by more than rounding (GJK's own test for touching cores), and the vertex
    // over the face itself, not beyond either end.
    let edge = second - first;
    let along = (vertex - from).dot(&edge);
    let clear = h * h
        > 64.0 * Real::EPSILON * Real::EPSILON * (vertex.norm_squared() + from.norm_squared());
    if !clear || h <= 0.0 || along < 0.0 || along > edge.norm_squared() {
        return None;
    }
    let foot = vertex - normal * h;
    // From A toward B.
    let (normal, core_a, core_b) = if on_a {
        (normal, foot, vertex)
    } else {
        (-normal, vertex, foot)
    };
    let out = GjkOutput {
        distance: h - radius_a - radius_b,
        normal,
        point_a: Point::from(core_a + normal * radius_a),
        point_b: Point::from(core_b - normal * radius_b),
        cores_overlap: false,
        iterations: 0,
    };
    Some((out, on_a, k, l, low))
}
