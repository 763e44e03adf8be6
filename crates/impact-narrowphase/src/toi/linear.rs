//! The shared closed form for translating shapes: build the configuration-space obstacle of
//! the two cores and cast the relative motion against it (see [`crate::minkowski`]).

use crate::face_middle::middle_along_faces;
use crate::minkowski::{
    Cast, CastInput, CorePoints, Obstacle, cast, is_point_like, largest_coordinate, minkowski_sum,
    relative_points, rounding_at,
};
use crate::options::ToiOptions;
use crate::toi_result::{Hit, NoClosedForm, Toi};
use impact_geometry::tolerances::{
    COORDINATE_ROUNDING_RELATIVE, PARALLEL_FACES_ANGLE, POINT_SEGMENT_RELATIVE,
};
use impact_geometry::{Isometry, Point, Real, Sweep, Vector};

/// A core moving without rotation: body-frame vertices (with the polygon's stored outward
/// edge normals, if it has them), the pose at t = 0 and the displacement over the step.
pub(crate) struct LinearBody<'a> {
    pub core: &'a [Point],
    pub normals: Option<&'a [Vector]>,
    pub radius: Real,
    pub start: Isometry,
    pub displacement: Vector,
}

impl<'a> LinearBody<'a> {
    /// The body as a translating core, if its motion has a closed form: it does not rotate,
    /// or its core is a single point at the centre of mass (a disc spinning in place).
    pub(crate) fn new(
        core: &'a [Point],
        radius: Real,
        sweep: &Sweep,
    ) -> Result<Self, NoClosedForm> {
        let spins_in_place = core.len() == 1 && core[0] == sweep.local_center();
        if sweep.rotates() && !spins_in_place {
            return Err(NoClosedForm);
        }
        Ok(Self {
            core,
            normals: None,
            radius,
            start: sweep.start(),
            displacement: sweep.displacement(),
        })
    }

    /// The same body with the polygon's precomputed outward edge normals (body frame).
    #[inline]
    pub(crate) fn with_normals(mut self, normals: &'a [Vector]) -> Self {
        self.normals = Some(normals);
        self
    }
}

/// The exact time of impact of two translating rounded cores.
#[inline]
pub(crate) fn cast_linear(a: &LinearBody<'_>, b: &LinearBody<'_>, options: &ToiOptions) -> Toi {
    if let Some(answer) = fast_cast(a, b, options) {
        return answer;
    }
    cast_with_obstacle(a, b, options)
}

/// Cores up to this many vertices take the fast path, on the stack.
const FAST_MAX: usize = 8;

/// A core in A's body frame with its outward edge normals (none for a point, two opposite
/// ones for a segment).
struct LocalCore {
    v: [Vector; FAST_MAX],
    n: [Vector; FAST_MAX],
    len: usize,
    edges: usize,
}

impl LocalCore {
    const EMPTY: Self = Self {
        v: [Vector::new(0.0, 0.0); FAST_MAX],
        n: [Vector::new(0.0, 0.0); FAST_MAX],
        len: 0,
        edges: 0,
    };

    /// Fills in `body`'s core mapped into the frame of `frame` (A's start pose); false if the
    /// core does not fit the fast path. Filled in place: returning this 270-byte value would
    /// cost a copy per query.
    #[inline(always)]
    fn fill(&mut self, body: &LinearBody<'_>, frame: &Isometry) -> bool {
        let len = body.core.len();
        if len > FAST_MAX || (len == 2 && body.core[0] == body.core[1]) {
            return false;
        }
        let rotation = frame.rotation.inverse() * body.start.rotation;
        let offset = frame
            .rotation
            .inverse_transform_vector(&(body.start.translation.vector - frame.translation.vector));
        self.len = len;
        self.edges = if len >= 2 { len } else { 0 };
        for (slot, p) in self.v.iter_mut().zip(body.core) {
            *slot = rotation * p.coords + offset;
        }
        // As in the exact path: a segment too short for its direction to survive rounding is
        // a point (both paths must see the same shape).
        if len == 2 && is_point_like(self.v[0], self.v[1], &offset) {
            self.v[0] = (self.v[0] + self.v[1]) * 0.5;
            self.len = 1;
            self.edges = 0;
            return true;
        }
        match (len, body.normals) {
            (0 | 1, _) => {}
            (2, _) => {
                // From the body-frame edge: the transformed end points may coincide.
                let e = body.core[1] - body.core[0];
                let Some(local) = Vector::new(e.y, -e.x).try_normalize(0.0) else {
                    return false;
                };
                let n = rotation * local;
                self.n[0] = n;
                self.n[1] = -n;
            }
            (_, Some(stored)) => {
                for (slot, n) in self.n.iter_mut().zip(stored) {
                    *slot = rotation * n;
                }
            }
            (_, None) => return false,
        }
        true
    }

    /// Whether an edge at vertex `i` faces `direction` (a unit vector): then the vertex is
    /// one end of a face, not a corner. A point core has no edge.
    #[inline]
    fn face_at(&self, i: usize, direction: &Vector) -> bool {
        self.face_end(i, direction).is_some()
    }

    /// The other end of the edge at vertex `i` that faces `direction` (a unit vector), if
    /// one does.
    #[inline]
    fn face_end(&self, i: usize, direction: &Vector) -> Option<Vector> {
        if self.edges == 0 {
            return None;
        }
        let before = if i == 0 { self.edges - 1 } else { i - 1 };
        if self.n[i].dot(direction) >= PARALLEL {
            Some(self.v[(i + 1) % self.len])
        } else if self.n[before].dot(direction) >= PARALLEL {
            Some(self.v[before])
        } else {
            None
        }
    }

    /// Index and value of the smallest `n . v` over the vertices.
    #[inline]
    fn min_along(&self, n: &Vector) -> (usize, Real) {
        let mut best = (0, n.dot(&self.v[0]));
        for (i, v) in self.v[..self.len].iter().enumerate().skip(1) {
            let x = n.dot(v);
            if x < best.1 {
                best = (i, x);
            }
        }
        best
    }
}

/// Which edge of the obstacle `K = A - B` the ray entered through: edge `edge` of A minus
/// vertex `support` of B, or vertex `support` of A minus edge `edge` of B.
#[derive(Clone, Copy)]
enum EntryFace {
    OfA { edge: usize, support: usize },
    OfB { edge: usize, support: usize },
}

/// [`Toi::Overlapping`] for cores that the separating-axis value puts clearly inside each
/// other, as the exact path would find them; `None` (the exact path decides) otherwise.
///
/// Behind every edge of `K` by more than a margin (each of `K`'s edge normals is one of the
/// cores', and there is at least one), the origin is inside `K`, whose signed distance is
/// then the separating-axis value to within it: `COORDINATE_ROUNDING_RELATIVE` of the
/// coordinates is hundreds of times the rounding of either computation, and more than the
/// depth [`crate::minkowski::signed_distance_to_origin`] asks of an inside point;
/// `POINT_SEGMENT_RELATIVE` of them covers a core segment that only one path takes for a
/// point. Below
/// `radius_sum - tolerance` by that margin too, the exact path's distance is below it, its
/// test for an overlap. A cast that starts inside a body thus skips building `K` (about half
/// the narrowphase's time in the translating casts of `benches/queries.rs`).
///
/// Cores apart (rounded shapes, or a point or segment `K` with no inside) overlap too when
/// two of their vertices are nearer than `radius_sum - tolerance` by the margin: the
/// distance to `K` is at most theirs.
#[inline]
fn deep_overlap(
    a: &LinearBody<'_>,
    b: &LinearBody<'_>,
    ca: &LocalCore,
    cb: &LocalCore,
    separation: Real,
    radius_sum: Real,
    options: &ToiOptions,
) -> Option<Toi> {
    // The separating-axis value is a lower bound of the distance: no overlap below it.
    let limit = radius_sum - options.tolerance();
    if separation.is_nan() || separation >= limit {
        return None;
    }
    let extent = |core: &LocalCore| largest_coordinate(core.v[..core.len].iter().copied());
    let placed_at = a
        .start
        .translation
        .vector
        .amax()
        .max(b.start.translation.vector.amax());
    // Rounding, and a segment that one path takes for a point and the other not (the test
    // scales differ: `is_point_like`), which moves `K` by at most half its length.
    let margin = (COORDINATE_ROUNDING_RELATIVE + POINT_SEGMENT_RELATIVE)
        * (extent(ca) + extent(cb) + placed_at);
    if ca.edges + cb.edges > 0 && separation < -margin && separation < limit - margin {
        return Some(Toi::Overlapping);
    }
    // Rounded shapes whose cores are apart (or only just inside): every difference of a
    // vertex of each core is a point of `K`, so the nearest of them bounds the distance
    // from above.
    let reach = limit - margin;
    if reach <= 0.0 {
        return None;
    }
    let near = ca.v[..ca.len].iter().any(|p| {
        cb.v[..cb.len]
            .iter()
            .any(|q| (p - q).norm_squared() < reach * reach)
    });
    near.then_some(Toi::Overlapping)
}

/// The swept separating-axis test on the two cores, without building `K`: every edge of `K`
/// has the normal of an edge of A or of B, and its offset follows from one support query.
/// It answers when the answer is certain without `K`'s corners (the ray misses the sharp
/// polygon, or enters it beside an edge) and returns `None` otherwise: shapes within
/// `rho + tolerance` at the start (touching, for which the exact path decides), entry beyond
/// the end of an edge into a corner's wedge (beyond it on a parallel face of the other core
/// is still the face: see [`entry_on_merged_face`]), and cores too large for the stack.
#[inline]
fn fast_cast(a: &LinearBody<'_>, b: &LinearBody<'_>, options: &ToiOptions) -> Option<Toi> {
    let frame = a.start;
    let (mut ca, mut cb) = (LocalCore::EMPTY, LocalCore::EMPTY);
    if !(ca.fill(a, &frame) && cb.fill(b, &frame)) {
        return None;
    }
    let d = frame
        .rotation
        .inverse_transform_vector(&(b.displacement - a.displacement));
    let radius_sum = a.radius + b.radius;
    let rho = radius_sum + options.target_separation();
    let mut separation = Real::NEG_INFINITY;
    let mut t_enter = 0.0;
    let mut t_exit = Real::INFINITY;
    let mut entry: Option<(EntryFace, Vector)> = None;
    let mut clip = |normal: Vector, h: Real, face: EntryFace| -> bool {
        separation = separation.max(-h);
        let s = h + rho;
        let dn = normal.dot(&d);
        if s < 0.0 {
            if dn >= 0.0 {
                return false;
            }
            let t = s / dn;
            if t > t_enter {
                t_enter = t;
                entry = Some((face, normal));
            }
        } else if dn > 0.0 {
            t_exit = t_exit.min(s / dn);
        }
        true
    };
    let mut reachable = true;
    for i in 0..ca.edges {
        let n = ca.n[i];
        let (support, lowest) = cb.min_along(&n);
        reachable &= clip(
            n,
            n.dot(&ca.v[i]) - lowest,
            EntryFace::OfA { edge: i, support },
        );
    }
    for j in 0..cb.edges {
        let m = cb.n[j];
        let (support, lowest) = ca.min_along(&m);
        reachable &= clip(
            -m,
            m.dot(&cb.v[j]) - lowest,
            EntryFace::OfB { edge: j, support },
        );
    }
    // Within the target plus the tolerance the shapes count as touching, a decision that
    // needs the exact distance: the separating-axis value is only a lower bound of it.
    if separation <= rho + options.tolerance() {
        return deep_overlap(a, b, &ca, &cb, separation, radius_sum, options);
    }
    if !reachable || t_enter > options.max_fraction() {
        return Some(Toi::Separated);
    }
    if t_enter > t_exit {
        return exit_before_entry(a, b, &ca, &cb, &d, t_enter - t_exit);
    }
    let (face, normal) = entry?;
    let (k0, k1, on_a_at) = match face {
        EntryFace::OfA { edge, support } => {
            let (a0, a1) = (ca.v[edge], ca.v[(edge + 1) % ca.len]);
            (a0 - cb.v[support], a1 - cb.v[support], (a0, a1))
        }
        EntryFace::OfB { edge, support } => {
            let a0 = ca.v[support];
            (a0 - cb.v[edge], a0 - cb.v[(edge + 1) % cb.len], (a0, a0))
        }
    };
    let p = d * t_enter;
    let e = k1 - k0;
    let len2 = e.norm_squared();
    let along = (p - k0).dot(&e);
    let mut on_a = if len2 > 0.0 && (0.0..=len2).contains(&along) {
        on_a_at.0 + (on_a_at.1 - on_a_at.0) * (along / len2)
    } else {
        entry_on_merged_face(face, &ca, &cb, &normal, &e, along, p - normal * rho)?
    };
    // The support vertex on the other side is one end of a face when that face is parallel
    // to the entry face: cheap to rule out before looking for the faces' common middle.
    let faces_meet = match face {
        EntryFace::OfA { support, .. } => cb.face_at(support, &-normal),
        EntryFace::OfB { support, .. } => ca.face_at(support, &normal),
    };
    if faces_meet {
        on_a = shared_face_middle(
            ca.v[..ca.len].iter().copied(),
            cb.v[..cb.len].iter().map(|v| v + p),
            &normal,
            on_a,
        );
    }
    let world_normal = frame.rotation * normal;
    let midway = a.radius + 0.5 * options.target_separation();
    Some(Toi::Hit(Hit {
        fraction: t_enter,
        point: frame * Point::from(on_a) + a.displacement * t_enter + world_normal * midway,
        normal: world_normal,
    }))
}

/// The answer when the ray enters the sharp polygon `late` (a time) after it leaves: a miss,
/// unless by a rounding-sized distance, a graze the exact path decides as it does for the
/// sliver of two parallel segments (`None`; found by fuzzing: two segments in an L meeting end
/// to end for an instant were a hit in one argument order and a miss here in the other).
///
/// The exact path's allowance for a graze (`minkowski::cast`), on this frame's numbers, but
/// measured along the ray rather than across the exit edge (keeping the exit edge would cost
/// every query its bookkeeping): a glancing exit can be a graze there and a miss here, the
/// flush-sliding case at target separation zero that `toi_properties` leaves out.
#[inline(always)]
fn exit_before_entry(
    a: &LinearBody<'_>,
    b: &LinearBody<'_>,
    ca: &LocalCore,
    cb: &LocalCore,
    d: &Vector,
    late: Real,
) -> Option<Toi> {
    let extent = |core: &LocalCore| largest_coordinate(core.v[..core.len].iter().copied());
    let placed_at = a
        .start
        .translation
        .vector
        .amax()
        .max(b.start.translation.vector.amax());
    let graze = COORDINATE_ROUNDING_RELATIVE * (extent(ca) + extent(cb) + d.amax() + placed_at);
    (late * d.amax() > graze).then_some(Toi::Separated)
}

/// The point of A's core where the ray enters `K` when the entry point, `along` (in units
/// of the entry edge's squared length) past the start of that edge, lies beyond the edge but
/// on `K`'s face once the parallel face of the other core is merged in: the entry edge seen
/// from one support vertex is only part of that face. `None` when it lies beyond that too,
/// in a corner's wedge, for the exact path. `onto_a` is the ray's entry point less the
/// contact distance along the normal: it takes a point of B's core at its start to the
/// point of A's core it touches.
///
/// An entry on the merged face is a hit as certain as one on the edge itself; without this,
/// a box sliding flush past another's corner went to the exact path in one argument order
/// only, whose allowance at a face's end could answer a rounding-sized distance earlier
/// (found by the aligned-features test at target separation zero).
#[cold]
#[inline(never)]
fn entry_on_merged_face(
    face: EntryFace,
    ca: &LocalCore,
    cb: &LocalCore,
    normal: &Vector,
    e: &Vector,
    along: Real,
    onto_a: Vector,
) -> Option<Vector> {
    let len2 = e.norm_squared();
    if len2 == 0.0 {
        return None;
    }
    // `K`'s face is the entry edge swept along the parallel face: its far end moves the
    // range of `along` by the face's extent along `e`, towards one side.
    let (extension, on_a) = match face {
        EntryFace::OfA { edge, support } => {
            let end = cb.face_end(support, &-normal)?;
            // A touches with the end of its edge that the entry passed.
            let corner = if along > len2 {
                (edge + 1) % ca.len
            } else {
                edge
            };
            ((cb.v[support] - end).dot(e), ca.v[corner])
        }
        EntryFace::OfB { edge, support } => {
            let end = ca.face_end(support, normal)?;
            // B touches with the end of its edge that the entry passed, across from A.
            let corner = if along > len2 {
                (edge + 1) % cb.len
            } else {
                edge
            };
            ((end - ca.v[support]).dot(e), cb.v[corner] + onto_a)
        }
    };
    (extension.min(0.0)..=len2 + extension.max(0.0))
        .contains(&along)
        .then_some(on_a)
}

/// How closely two edge normals must agree for their faces to be parallel.
const PARALLEL: Real = 1.0 - 1e-12;

/// A hit between parallel faces (within [`PARALLEL_FACES_ANGLE`]), moved from `on_a`, where
/// the entry found one end of the stretch the faces share, to its middle (see
/// [`crate::face_middle`]): either argument order finds the same stretch, so the hit point
/// does not depend on which shape comes first (without it, found by a test of aligned
/// features, a box landing flat and half over another had its point at one end or the other).
#[cold]
#[inline(never)]
fn shared_face_middle(
    a: impl Iterator<Item = Vector> + Clone,
    b: impl Iterator<Item = Vector> + Clone,
    normal: &Vector,
    on_a: Vector,
) -> Vector {
    let tangent = Vector::new(-normal.y, normal.x);
    let reach = |core: &mut dyn Iterator<Item = Vector>| {
        core.fold((0.0, 0.0), |(size, scale): (Real, Real), v| {
            (size.max(tangent.dot(&v).abs()), scale.max(v.amax()))
        })
    };
    let ((size_a, scale_a), (size_b, scale_b)) = (reach(&mut a.clone()), reach(&mut b.clone()));
    // Faces tilted by less than a billionth of a radian meet as parallel ones; rounding of the
    // coordinates is allowed for on top.
    let slack = PARALLEL_FACES_ANGLE * (size_a + size_b) + rounding_at(scale_a.max(scale_b));
    middle_along_faces(a, b, normal, slack, on_a).unwrap_or(on_a)
}

/// The exact time of impact through the obstacle `K`: handles every case, including starts
/// within the target, corner wedges and parallel edges.
pub(crate) fn cast_with_obstacle(
    a: &LinearBody<'_>,
    b: &LinearBody<'_>,
    options: &ToiOptions,
) -> Toi {
    // Work relative to A's position so that scenes far from the world origin keep their
    // relative accuracy.
    let origin = a.start.translation.vector;
    let mut a_pts = CorePoints::new();
    relative_points(&mut a_pts, a.core, &a.start, &origin, false);
    let mut q_pts = CorePoints::new();
    relative_points(&mut q_pts, b.core, &b.start, &origin, true);
    let mut k = Obstacle::new();
    minkowski_sum(&mut k, a_pts.as_slice(), q_pts.as_slice());
    let radius_sum = a.radius + b.radius;
    let input = CastInput {
        d: b.displacement - a.displacement,
        radius_sum,
        rho: radius_sum + options.target_separation(),
        tolerance: options.tolerance(),
        max_fraction: options.max_fraction(),
        placed_at: origin.amax().max(b.start.translation.vector.amax()),
    };
    match cast(k.as_slice(), &input) {
        Cast::Overlapping => Toi::Overlapping,
        Cast::Separated => Toi::Separated,
        Cast::Hit {
            t,
            feature,
            normal,
            distance,
        } => {
            let on_a = feature.point_on_a(k.as_slice(), a_pts.as_slice());
            // Not judged from `K`'s edges: rounding can keep two parallel faces apart in
            // it, as two edges meeting at the hit (found by the aligned scenes).
            let b_at_hit = q_pts.as_slice().iter().map(|q| input.d * t - q);
            let a_now = a_pts.as_slice().iter().copied();
            let on_a = shared_face_middle(a_now, b_at_hit, &normal, on_a);
            let midway = a.radius + 0.5 * (distance - radius_sum);
            Toi::Hit(Hit {
                fraction: t,
                point: Point::from(origin + on_a + a.displacement * t + normal * midway),
                normal,
            })
        }
    }
}

#[cfg(test)]
mod tests;
