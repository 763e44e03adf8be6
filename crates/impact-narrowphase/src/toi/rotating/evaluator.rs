//! The distance along the sweeps, evaluated by one of two paths ([`Path`]), with what the step
//! bounds need from the last evaluation: the placed cores, GJK's simplex, and the face that
//! realised the distance, which the next evaluation tries first.

use super::bounds::{Bounds, curved_step};
use super::frame::{Frame, face_distance, facing_face_distance};
use super::mover::Mover;
use crate::gjk::{GjkCache, GjkOutput, Placed, gjk_distance, gjk_placed};
use impact_geometry::{Isometry, Real, Rotation, Shape, Vector};

/// How [`advance`](super::advance::advance) evaluates the distance: the two paths answer the
/// same question and differ only in rounding; the tests hold the fused one to the generic one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Path {
    /// Poses for both shapes, then GJK on the shapes: any shapes.
    Generic,
    /// When both cores fit the curved bounds: both turned once per evaluation into the frame
    /// of A's centre of mass, where GJK and the step bounds share them (GJK then turns
    /// nothing, and no pose is built). Falls back to [`Path::Generic`] otherwise.
    Fused,
}

/// Evaluates the distance along the sweeps (by its [`Path`]) and keeps what the step bounds
/// need from the last evaluation.
pub(super) struct Evaluator<'f> {
    path: Path,
    /// The cores at the last evaluation, when they fit the curved bounds: placed from the
    /// rotations and centres by the fused path, from the poses by the generic one.
    /// Borrowed, not owned: the frame is large, and moving it cost more than it saved.
    frame: Option<&'f mut Frame>,
    /// The shapes' radii (their rounding), looked up once.
    radius_a: Real,
    radius_b: Real,
    /// The poses at the last evaluation (generic path only).
    pose_a: Isometry,
    pose_b: Isometry,
    /// GJK's simplex, carried from one evaluation to the next.
    cache: GjkCache,
    /// Whether an evaluation has run (the first one starts GJK from the facing vertices).
    started: bool,
    /// The polygons' outward face normals in their own axes (empty for other shapes).
    normals_a: &'f [Vector],
    normals_b: &'f [Vector],
    /// The face (of A if the flag is set, else of B; by the index of its first vertex and its
    /// outward unit normal in the body's axes) whose edge, against a vertex of the other core,
    /// realised the last distance: the next evaluation tries it first (see
    /// [`face_distance`]).
    face: Option<(bool, usize, Vector)>,
    /// Whether the shapes started touching and slide (see [`curved_step`](Self::curved_step)).
    pub(super) sliding: bool,
    /// The normal of the last evaluation (from A toward B).
    normal: Vector,
}

impl<'f> Evaluator<'f> {
    #[inline]
    pub(super) fn new(
        a: &Mover<'f>,
        b: &Mover<'f>,
        frame: Option<&'f mut Frame>,
        path: Path,
    ) -> Self {
        let path = if frame.is_some() { path } else { Path::Generic };
        let normals = |shape: &'f Shape| match shape {
            Shape::Polygon(p) => p.normals(),
            _ => &[],
        };
        Self {
            normals_a: normals(a.shape),
            normals_b: normals(b.shape),
            face: None,
            sliding: false,
            normal: Vector::zeros(),
            path,
            frame,
            radius_a: a.radius,
            radius_b: b.radius,
            pose_a: Isometry::identity(),
            pose_b: Isometry::identity(),
            cache: GjkCache::default(),
            started: false,
        }
    }

    /// GJK's answer at fraction `t`, with the points in world coordinates.
    pub(super) fn distance_at(&mut self, a: &Mover<'_>, b: &Mover<'_>, t: Real) -> GjkOutput {
        let first = !self.started;
        self.started = true;
        if let (Path::Fused, Some(frame)) = (self.path, self.frame.as_mut()) {
            // The arms wait: the face tests and the face step read the face's own two
            // vertices and the other core in its own axes; GJK turns them if it runs.
            frame.place_at(a, b, t);
            let (radius_a, radius_b) = (self.radius_a, self.radius_b);
            let try_face = |on_a: bool, shape: &Shape, rotation: &Rotation, d: &Vector| {
                facing_face_distance(frame, on_a, shape, rotation, d, (radius_a, radius_b))
            };
            let found = if first || self.face.is_none() {
                // No face is known yet: try the faces that face each other along the centres.
                // The larger body's face first: the other's vertex is likelier over it.
                let along = if first { frame.centers } else { self.normal };
                let found = if a.arm >= b.arm {
                    try_face(true, a.shape, &frame.rotation_a, &along)
                        .or_else(|| try_face(false, b.shape, &frame.rotation_b, &-along))
                } else {
                    try_face(false, b.shape, &frame.rotation_b, &-along)
                        .or_else(|| try_face(true, a.shape, &frame.rotation_a, &along))
                };
                found.map(|(found, n)| {
                    self.face = Some((found.1, found.2, n));
                    found
                })
            } else if let Some((on_a, k, n)) = self.face {
                face_distance(frame, on_a, k, &n, radius_a, radius_b).or_else(|| {
                    // Near contact the closest features change sides more often than faces
                    // of one body: the other body's face that faces this one, before GJK.
                    let (shape, rotation, toward) = if on_a {
                        (b.shape, &frame.rotation_b, -(frame.rotation_a * n))
                    } else {
                        (a.shape, &frame.rotation_a, -(frame.rotation_b * n))
                    };
                    let (found, n) = try_face(!on_a, shape, rotation, &toward)?;
                    self.face = Some((found.1, found.2, n));
                    Some(found)
                })
            } else {
                None
            };
            let mut out = match found {
                Some((out, on_a, i, j, v)) => {
                    self.cache.set_edge_against_vertex(on_a, i, j, v);
                    out
                }
                None => {
                    frame.freshen();
                    let placed_a = Placed {
                        arms: &frame.arms_a[..frame.count_a],
                        offset: Vector::zeros(),
                    };
                    let placed_b = Placed {
                        arms: &frame.arms_b[..frame.count_b],
                        offset: frame.centers,
                    };
                    if first {
                        self.cache = GjkCache::toward_placed(&placed_a, &placed_b, &frame.centers);
                    }
                    let out = gjk_placed(
                        &placed_a,
                        self.radius_a,
                        &placed_b,
                        self.radius_b,
                        &mut self.cache,
                    );
                    self.face = frame.face_of_simplex(
                        &self.cache,
                        (self.normals_a, self.normals_b),
                        &out.normal,
                    );
                    out
                }
            };
            self.normal = out.normal;
            // Placed relative to A's centre of mass: back to world coordinates.
            out.point_a += frame.center_a.coords;
            out.point_b += frame.center_a.coords;
            return out;
        }
        self.pose_a = a.pose_at(t);
        self.pose_b = b.pose_at(t);
        let (pose_a, pose_b) = (&self.pose_a, &self.pose_b);
        if first {
            self.cache = GjkCache::toward(
                a.shape,
                pose_a,
                b.shape,
                pose_b,
                &(pose_b * b.sweep.local_center() - pose_a * a.sweep.local_center()),
            );
        }
        let out = gjk_distance(a.shape, pose_a, b.shape, pose_b, &mut self.cache);
        if let Some(frame) = self.frame.as_mut() {
            // The step bounds read the cores and the face from here, as on the fused path.
            frame.place(a, pose_a, b, pose_b);
            self.face =
                frame.face_of_simplex(&self.cache, (self.normals_a, self.normals_b), &out.normal);
        }
        out
    }

    /// The step the curved bounds certify from the last evaluation: the turning bound of the
    /// face that realised the distance ([`Frame::face_step`]) when there is one (unless the
    /// shapes started touching and slide, and the last step was slow, `faces`), else
    /// the free [`curved_step`]'s (which tries the facing faces when `faces` is set); zero
    /// when the cores do not fit the curved bounds.
    ///
    /// The face's bound alone: the longest of it and the fixed-normal bound (and the facing
    /// faces on slow steps) would rarely be longer, and costs a pass over both cores at every
    /// step. Its curvature bound holds up to its own reach (see [`Frame::face_step`]), so it
    /// needs no horizon of a few linear steps either.
    #[inline]
    pub(super) fn curved_step(
        &mut self,
        a: &Mover<'_>,
        b: &Mover<'_>,
        normal: &Vector,
        bounds: &Bounds,
        remaining: Real,
        faces: bool,
    ) -> Real {
        let Some(frame) = self.frame.as_mut() else {
            return 0.0;
        };
        match self.face {
            // The face that realised the distance, turning with its body: the height of the
            // other core over it is the distance itself near contact (see `Frame::face_step`).
            Some((on_a, k, local_normal)) if !(self.sliding && faces) => {
                let (body, other) = if on_a { (a, b) } else { (b, a) };
                // The vertex that realised the distance: the likeliest lowest, whose own
                // bound gives the face's bound its reach.
                let hint = self.cache.edge_against_vertex().map_or(0, |e| e.3);
                frame.face_step(
                    body,
                    other,
                    on_a,
                    k,
                    &local_normal,
                    bounds.offset,
                    remaining,
                    hint,
                )
            }
            _ => {
                frame.freshen();
                curved_step(a, b, normal, bounds, remaining, faces, frame)
            }
        }
    }
}
