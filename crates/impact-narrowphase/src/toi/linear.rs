//! The shared closed form for translating shapes: build the configuration-space obstacle of
//! the two cores and cast the relative motion against it (see [`crate::minkowski`]).

use crate::minkowski::{Cast, CastInput, CorePoints, cast, minkowski_sum};
use crate::{Hit, NoClosedForm, Toi, ToiOptions};
use impact_geometry::{Isometry, Point, Real, Sweep, Vector};

/// A core moving without rotation: body-frame vertices, the pose at t = 0 and the
/// displacement over the step.
pub(crate) struct LinearBody<'a> {
    pub core: &'a [Point],
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
            radius,
            start: sweep.start(),
            displacement: sweep.displacement(),
        })
    }
}

/// Core points in the world frame minus `origin`; a zero-length segment becomes a point.
pub(crate) fn relative_points(
    core: &[Point],
    pose: &Isometry,
    origin: &Vector,
    negate: bool,
) -> CorePoints {
    let mut out = CorePoints::new();
    let offset = pose.translation.vector - origin;
    let sign = if negate { -1.0 } else { 1.0 };
    for p in core {
        out.push((pose.rotation * p.coords + offset) * sign);
    }
    if core.len() == 2 && core[0] == core[1] {
        let mut single = CorePoints::new();
        single.push(out.as_slice()[0]);
        return single;
    }
    out
}

/// The exact time of impact of two translating rounded cores.
pub(crate) fn cast_linear(a: &LinearBody<'_>, b: &LinearBody<'_>, options: &ToiOptions) -> Toi {
    // Work relative to A's position so that scenes far from the world origin keep their
    // relative accuracy.
    let origin = a.start.translation.vector;
    let a_pts = relative_points(a.core, &a.start, &origin, false);
    let q_pts = relative_points(b.core, &b.start, &origin, true);
    let k = minkowski_sum(a_pts.as_slice(), q_pts.as_slice());
    let radius_sum = a.radius + b.radius;
    let input = CastInput {
        d: b.displacement - a.displacement,
        radius_sum,
        rho: radius_sum + options.target_separation(),
        tolerance: options.tolerance(),
        max_fraction: options.max_fraction(),
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
            let midway = a.radius + 0.5 * (distance - radius_sum);
            Toi::Hit(Hit {
                fraction: t,
                point: Point::from(origin + on_a + a.displacement * t + normal * midway),
                normal,
            })
        }
    }
}
