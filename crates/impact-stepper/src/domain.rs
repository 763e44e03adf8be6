//! [`Domain`]: the space the bodies of a world live in, unbounded or a periodic rectangle
//! (a torus), and [`PeriodicImages`], the wrapped broadphase queries a periodic world runs.
//!
//! # Wrapped queries, not image proxies
//! A periodic world keeps one broadphase proxy per body, in the primary cell. Pairs that meet
//! across a side are found by querying the broadphase a second time with the box translated
//! by a period, and only for boxes close enough to a side for such a pair to exist: the
//! broadphase trait stays as it is, every broadphase works unchanged, and proxies stay named
//! by body slot. The cost is a few extra queries per step for the bodies within one box size
//! of a side (a boundary layer, a fraction `~ 4 w / L` of the bodies in a square of side `L`
//! with boxes `w` across), and up to three extra swept queries per time-of-impact planning
//! near a side. Image proxies would instead put up to three more proxies per boundary body
//! in the broadphase and re-insert them as bodies cross sides, and every stepper would still
//! have to map each image back to its body and offset.

use crate::error::{WorldError, finite_vector};
use impact_broadphase::{Broadphase, BroadphaseError, ProxyId};
use impact_geometry::{Aabb, Isometry, Point, Real, Sweep, Vector};

/// The space a world's bodies live in.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Domain {
    /// The whole plane (the default).
    #[default]
    Unbounded,
    /// The rectangle `[min, max)` with opposite sides identified (a torus): a body that
    /// leaves through one side comes back through the other, and two bodies interact through
    /// the nearest of each other's images (the minimum image). Every body's origin is kept in
    /// the rectangle: it is wrapped when the body is created or moved, and at the start and
    /// end of every step. Bodies may not be larger than half the rectangle in either
    /// direction, so a pair meets through one image at a time.
    Periodic {
        /// The lower corner (world units), finite.
        min: Point,
        /// The upper corner (world units), finite, above `min` on both axes.
        max: Point,
    },
}

impl Domain {
    /// The periodic rectangle `[min, max)`.
    ///
    /// # Errors
    /// As [`Domain::validate`].
    pub fn periodic(min: Point, max: Point) -> Result<Self, WorldError> {
        let domain = Self::Periodic { min, max };
        domain.validate()?;
        Ok(domain)
    }

    /// The periodic square `[0, side)^2`.
    ///
    /// # Errors
    /// As [`Domain::validate`].
    pub fn periodic_square(side: Real) -> Result<Self, WorldError> {
        Self::periodic(Point::origin(), Point::new(side, side))
    }

    /// Checks the corners.
    ///
    /// # Errors
    /// [`WorldError::NotFinite`] naming `settings.domain.min.x` (`.y`, `max.*`) or
    /// `settings.domain.size.x` (`.y`, when `max - min` overflows);
    /// [`WorldError::NotPositive`] naming `settings.domain.size.x` or `.y` when `max` is not
    /// above `min`.
    pub fn validate(&self) -> Result<(), WorldError> {
        let Self::Periodic { min, max } = self else {
            return Ok(());
        };
        finite_vector("settings.domain.min", &min.coords)?;
        finite_vector("settings.domain.max", &max.coords)?;
        let size = max - min;
        finite_vector("settings.domain.size", &size)?;
        for (field, value) in [
            ("settings.domain.size.x", size.x),
            ("settings.domain.size.y", size.y),
        ] {
            if value <= 0.0 {
                return Err(WorldError::NotPositive {
                    field: field.to_owned(),
                    value,
                });
            }
        }
        Ok(())
    }

    /// Whether the domain is periodic.
    #[inline]
    pub fn is_periodic(&self) -> bool {
        matches!(self, Self::Periodic { .. })
    }

    /// The periods `max - min`, or `None` if unbounded.
    #[inline]
    pub fn size(&self) -> Option<Vector> {
        match self {
            Self::Unbounded => None,
            Self::Periodic { min, max } => Some(max - min),
        }
    }

    /// `point` moved by whole periods into `[min, max)`; unchanged (bit for bit) when it is
    /// already inside or the domain is unbounded.
    pub fn wrap_point(&self, point: Point) -> Point {
        match self {
            Self::Unbounded => point,
            Self::Periodic { min, max } => {
                Point::new(wrap(point.x, min.x, max.x), wrap(point.y, min.y, max.y))
            }
        }
    }

    /// `pose` with its translation wrapped by [`Domain::wrap_point`].
    pub fn wrap_pose(&self, pose: &Isometry) -> Isometry {
        let p = self.wrap_point(Point::from(pose.translation.vector));
        Isometry::from_parts(p.coords.into(), pose.rotation)
    }

    /// The shortest of `d + k * size` over whole `k` (the minimum-image convention); `d`
    /// itself when unbounded.
    pub fn minimum_image(&self, d: Vector) -> Vector {
        match self.size() {
            None => d,
            Some(size) => minimum_image(d, size),
        }
    }

    /// Checks that a body with box `aabb` fits the domain: at most half of it across.
    ///
    /// # Errors
    /// [`WorldError::OutOfRange`] naming `{field}.width` or `{field}.height`.
    pub(crate) fn check_fits(&self, aabb: &Aabb, field: &str) -> Result<(), WorldError> {
        match self.size().and_then(|size| oversize(aabb, &size)) {
            None => Ok(()),
            Some((name, value)) => Err(WorldError::OutOfRange {
                field: format!("{field}.{name}"),
                value,
                expected: "at most half the periodic domain in that direction",
            }),
        }
    }
}

/// The first axis on which `aabb` is more than half the period `size` across: its name
/// (`width` or `height`) and the box's extent on it. The one place this rule lives.
#[inline]
fn oversize(aabb: &Aabb, size: &Vector) -> Option<(&'static str, Real)> {
    let extent = aabb.maxs - aabb.mins;
    if extent.x > 0.5 * size.x {
        Some(("width", extent.x))
    } else if extent.y > 0.5 * size.y {
        Some(("height", extent.y))
    } else {
        None
    }
}

/// `aabb` translated by `by`.
#[inline]
pub(crate) fn shifted(aabb: &Aabb, by: &Vector) -> Aabb {
    Aabb {
        mins: aabb.mins + by,
        maxs: aabb.maxs + by,
    }
}

/// The shortest of `d + k * size` over whole `k`: [`Domain::minimum_image`] for a period
/// `size`.
#[inline]
pub(crate) fn minimum_image(d: Vector, size: Vector) -> Vector {
    Vector::new(
        d.x - size.x * (d.x / size.x).round(),
        d.y - size.y * (d.y / size.y).round(),
    )
}

/// `x` moved by whole periods into `[lo, hi)`: bit for bit itself when already inside.
#[inline]
fn wrap(x: Real, lo: Real, hi: Real) -> Real {
    if x >= lo && x < hi {
        return x;
    }
    let period = hi - lo;
    let mut y = x - period * ((x - lo) / period).floor();
    // Rounding can land exactly on the upper side, or an ulp outside.
    if y >= hi {
        y -= period;
    }
    if y < lo { lo } else { y }
}

/// The wrapped broadphase queries of a periodic world for one step: the periods, and the
/// region every box given to the broadphase this step lies in (the cell grown by how far any
/// box sticks out of it). A query box that comes within that region only once translated by
/// a period can meet a proxy through that period, and only then is the query repeated.
///
/// The world builds it before its broadphase stage and hands it to the stepper in
/// [`StepContext::periodic`](crate::StepContext::periodic); a stepper that gives the
/// broadphase a new box during the step must [`cover`](PeriodicImages::cover) it first.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PeriodicImages {
    size: Vector,
    /// Every box given to the broadphase this step lies in `[lo, hi]`.
    lo: Point,
    hi: Point,
}

impl PeriodicImages {
    /// The images of a periodic domain, for a step that has given the broadphase no box yet;
    /// `None` if the domain is unbounded.
    pub fn new(domain: &Domain) -> Option<Self> {
        match *domain {
            Domain::Unbounded => None,
            Domain::Periodic { min, max } => Some(Self {
                size: max - min,
                lo: min,
                hi: max,
            }),
        }
    }

    /// The periods.
    #[inline]
    pub fn size(&self) -> Vector {
        self.size
    }

    /// Whether `aabb` is at most half a period across on both axes (as
    /// [`Domain::check_fits`]): no wider box can meet a proxy through two images at once.
    #[inline]
    pub(crate) fn fits(&self, aabb: &Aabb) -> bool {
        oversize(aabb, &self.size).is_none()
    }

    /// Records that `aabb` was given to the broadphase.
    #[inline]
    pub fn cover(&mut self, aabb: &Aabb) {
        self.lo = self.lo.inf(&aabb.mins);
        self.hi = self.hi.sup(&aabb.maxs);
    }

    /// The non-zero translations `s` (whole periods, at most one per axis) for which a box
    /// `region` moved by `-s` may meet a box in the broadphase: an object in `region` meets
    /// the image, translated by `s`, of the proxies that query answers. Written to `out`;
    /// returns how many.
    pub fn shifts(&self, region: &Aabb, out: &mut [Vector; 8]) -> usize {
        let mut n = 0;
        for kx in [-1.0, 0.0, 1.0] {
            let sx = kx * self.size.x;
            if region.maxs.x - sx < self.lo.x || region.mins.x - sx > self.hi.x {
                continue;
            }
            for ky in [-1.0, 0.0, 1.0] {
                if kx == 0.0 && ky == 0.0 {
                    continue;
                }
                let sy = ky * self.size.y;
                if region.maxs.y - sy < self.lo.y || region.mins.y - sy > self.hi.y {
                    continue;
                }
                out[n] = Vector::new(sx, sy);
                n += 1;
            }
        }
        n
    }

    /// Every proxy whose box meets `aabb` moving by `translation` through some image:
    /// `(proxy, s)` means the object meets the proxy's image translated by `s`. The
    /// unshifted answers come first, with `s = 0`, in the broadphase's order.
    ///
    /// # Errors
    /// As [`Broadphase::query_swept`].
    pub fn query_swept<B: Broadphase + ?Sized>(
        images: Option<&Self>,
        broadphase: &B,
        aabb: &Aabb,
        translation: &Vector,
        scratch: &mut Vec<ProxyId>,
        out: &mut Vec<(ProxyId, Vector)>,
    ) -> Result<(), BroadphaseError> {
        out.clear();
        broadphase.query_swept(aabb, translation, scratch)?;
        out.extend(scratch.iter().map(|&p| (p, Vector::zeros())));
        let Some(images) = images else {
            return Ok(());
        };
        let region = aabb.merged(&shifted(aabb, translation));
        let mut shifts = [Vector::zeros(); 8];
        let n = images.shifts(&region, &mut shifts);
        for &s in &shifts[..n] {
            broadphase.query_swept(&shifted(aabb, &-s), translation, scratch)?;
            out.extend(scratch.iter().map(|&p| (p, s)));
        }
        Ok(())
    }
}

/// `pose` translated by `offset`, or `pose` itself (bit for bit) when `offset` is zero.
#[inline]
pub(crate) fn translated(pose: &Isometry, offset: &Vector) -> Isometry {
    if *offset == Vector::zeros() {
        *pose
    } else {
        Isometry::from_parts((pose.translation.vector + offset).into(), pose.rotation)
    }
}

/// `sweep` with its start translated by `offset`: the same motion of an image. `sweep`
/// itself (bit for bit) when `offset` is zero; `None` if the translate overflows.
#[inline]
pub(crate) fn translated_sweep(sweep: &Sweep, offset: &Vector) -> Option<Sweep> {
    if *offset == Vector::zeros() {
        return Some(*sweep);
    }
    Sweep::new(
        translated(&sweep.start(), offset),
        sweep.local_center(),
        sweep.linvel(),
        sweep.angvel(),
        sweep.dt(),
    )
    .ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrap_keeps_inside_points_and_folds_outside_ones() {
        let d = Domain::periodic(Point::new(-1.0, 0.0), Point::new(3.0, 2.0)).unwrap();
        let inside = Point::new(0.1 + 0.2, 1.999_999);
        assert_eq!(d.wrap_point(inside), inside);
        let p = d.wrap_point(Point::new(3.5, -0.5));
        assert!((p.x - -0.5).abs() < 1e-15 && (p.y - 1.5).abs() < 1e-15);
        assert_eq!(d.wrap_point(Point::new(3.0, 2.0)), Point::new(-1.0, 0.0));
        // An ulp below the lower side rounds onto the upper one; it must not stay there.
        let p = d.wrap_point(Point::new(-1.0 - 1e-17, -1e-300));
        assert!(p.x >= -1.0 && p.x < 3.0 && p.y >= 0.0 && p.y < 2.0, "{p:?}");
    }

    #[test]
    fn minimum_image_is_the_shortest() {
        let d = Domain::periodic_square(10.0).unwrap();
        let m = d.minimum_image(Vector::new(9.0, -6.0));
        assert_eq!(m, Vector::new(-1.0, 4.0));
    }

    #[test]
    fn bad_domains_name_the_field_and_value() {
        let e = Domain::periodic(Point::new(0.0, 0.0), Point::new(0.0, 1.0)).unwrap_err();
        assert_eq!(
            e.to_string(),
            "settings.domain.size.x: must be positive, got 0"
        );
        let e = Domain::periodic(Point::new(0.0, Real::NAN), Point::new(1.0, 1.0)).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("settings.domain.min.y: must be finite")
        );
        let e =
            Domain::periodic(Point::new(-Real::MAX, 0.0), Point::new(Real::MAX, 1.0)).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("settings.domain.size.x: must be finite")
        );
        let e = Domain::periodic_square(-2.0).unwrap_err();
        assert_eq!(
            e.to_string(),
            "settings.domain.size.x: must be positive, got -2"
        );
    }

    #[test]
    fn shifts_only_near_a_side() {
        let images = PeriodicImages::new(&Domain::periodic_square(10.0).unwrap()).unwrap();
        let mut out = [Vector::zeros(); 8];
        let middle = Aabb::from_points([Point::new(4.0, 4.0), Point::new(6.0, 6.0)]);
        assert_eq!(images.shifts(&middle, &mut out), 0);
        // Sticking out on the right: its left translate meets boxes on the left side.
        let right = Aabb::from_points([Point::new(9.5, 4.0), Point::new(10.5, 5.0)]);
        assert_eq!(images.shifts(&right, &mut out), 1);
        assert_eq!(out[0], Vector::new(10.0, 0.0));
        let corner = Aabb::from_points([Point::new(9.5, 9.5), Point::new(10.5, 10.5)]);
        assert_eq!(images.shifts(&corner, &mut out), 3);
    }

    #[test]
    fn query_swept_meets_a_proxy_through_its_image_across_a_side() {
        // The CCD steppers find their candidates in their own grid; this is the query a
        // stepper of one's own makes of the broadphase in a periodic world.
        let mut images = PeriodicImages::new(&Domain::periodic_square(10.0).unwrap()).unwrap();
        let mut broadphase = impact_broadphase::BruteForce::default();
        let near_left = Aabb::from_points([Point::new(0.1, 5.0), Point::new(0.3, 5.2)]);
        let middle = Aabb::from_points([Point::new(5.0, 5.0), Point::new(5.2, 5.2)]);
        for (i, aabb) in [near_left, middle].into_iter().enumerate() {
            images.cover(&aabb);
            broadphase.insert(ProxyId(i as u32), aabb).unwrap();
        }
        // Near the right side, moving right across it.
        let bullet = Aabb::from_points([Point::new(9.6, 5.0), Point::new(9.8, 5.2)]);
        let query = |images: Option<&PeriodicImages>| {
            let (mut scratch, mut out) = (Vec::new(), Vec::new());
            let translation = Vector::new(0.5, 0.0);
            PeriodicImages::query_swept(
                images,
                &broadphase,
                &bullet,
                &translation,
                &mut scratch,
                &mut out,
            )
            .unwrap();
            out
        };
        assert_eq!(
            query(Some(&images)),
            vec![(ProxyId(0), Vector::new(10.0, 0.0))]
        );
        // Unbounded, the same query meets nothing.
        assert_eq!(query(None), vec![]);
    }
}
