//! Time of impact with one segment of a chain: the plain segment's time of impact (its
//! closed form, or conservative advancement), under the chain's two rules.
//!
//! - **One-sided.** A hit is dropped when, at its time, the centre of the shape's core (its
//!   vertices' mean) is behind the segment, and behind each neighbour whose joint with it is
//!   convex (the contacts' test, `chain_cone`): the shape came from the back, and passes. So
//!   a shape that starts behind and moves through the segment gets no hit, and neither does
//!   one that starts in front and moves away from it (its distance to the segment's line
//!   grows: only a convex vertex can still meet it, and that hit is kept). Judged at the hit
//!   rather than at the start, a shape that starts behind the line but goes round the end of
//!   the segment and strikes its front is hit (the contacts would hold it there too); and
//!   overlapping at the start counts only for a shape whose centre is in front then.
//! - **Ghosts.** A hit whose normal (from the segment toward the shape, at the time of the
//!   hit) lies outside the segment's cone is dropped: the face normal (to
//!   [`PARALLEL_FACES_ANGLE`]), and at a joint that turns convex by any amount (the exact
//!   sign, not the contacts' tolerance) the directions between the two faces' normals, both
//!   ends included. The neighbour reports such an impact no later: at the moment of a hit
//!   whose normal leaves the cone toward a joint, the shape's nearest point lies in front of
//!   the neighbour, over its face (the joint is flat or concave: the neighbour's face is the
//!   nearer) or beyond the neighbour's normal (convex), so the neighbour is within the target
//!   by then. Hence the earliest hit over a chain's segments is the polyline's own first
//!   contact on its front, found by a segment whose cone holds its normal; both segments at a
//!   convex vertex report a hit on it.
//!
//! What the rules cannot do: at an open end of a chain the ghost extends the end segment
//! (see [`Chain`](impact_geometry::Chain)), so a hit on the end's corner from beyond the end
//! is nobody's, and a shape may pass round it until it is over the end segment.
//!
//! [`PARALLEL_FACES_ANGLE`]: impact_geometry::tolerances::PARALLEL_FACES_ANGLE

use super::ghost;
use crate::chain_cone::Cone;
use crate::options::ToiOptions;
use crate::toi_result::{Hit, Toi};
use impact_geometry::{ChainSegment, Isometry, Real, Shape, Sweep, Vector};

/// Whether `other` is thin static geometry's kind, a segment or another chain segment,
/// which a chain segment never meets (both are static in practice, and neither has a side a
/// body could be on).
#[inline]
pub(crate) fn thin(other: &Shape) -> bool {
    matches!(other, Shape::Segment(_) | Shape::ChainSegment(_))
}

/// `toi`, the plain segment's answer for `other` (A, on `sweep_other`) against `chain` (B, on
/// `sweep_chain`), under the chain's rules (see the module docs): a hit is [`Toi::Separated`]
/// if, at its time, `other`'s centre is behind the segment; a hit whose normal lies in the
/// segment's cone is kept, and any other is a ghost, settled against the face that owns its
/// direction and followed past it ([`ghost::follow`], asking `query`, the plain segment's
/// answer, again); an overlap at the start is kept if `other`'s centre is not behind the
/// segment then.
pub(crate) fn under_rules(
    toi: Toi,
    (other, sweep_other): (&Shape, &Sweep),
    (chain, sweep_chain): (&ChainSegment, &Sweep),
    options: &ToiOptions,
    query: impl Fn(&Shape, &Sweep, &Shape, &Sweep, &ToiOptions) -> Option<Toi>,
) -> Toi {
    let cone = Cone::of(chain);
    let is_behind = |at: Real| {
        behind(
            &cone,
            other,
            &sweep_other.pose_at(at),
            chain,
            &sweep_chain.pose_at(at),
        )
    };
    match toi {
        Toi::Overlapping if is_behind(0.0) => return Toi::Separated,
        Toi::Hit(_) => {}
        _ => return toi,
    }
    let judge = |hit: &Hit| {
        if is_behind(hit.fraction) {
            return Err(Toi::Separated);
        }
        // From the segment toward the shape, in the segment's frame.
        let rotation = sweep_chain.pose_at(hit.fraction).rotation;
        let d = rotation.inverse_transform_vector(&(-hit.normal));
        let [convex_a, convex_b] = cone.convex();
        let reported = cone.is_face(&d)
            || (convex_a && cone.in_arc_at_a(&d))
            || (convex_b && cone.in_arc_at_b(&d));
        Ok((!reported).then(|| rotation * ghost_owner(&cone, &d)))
    };
    let segment = plain(chain);
    let ask = |from: Real| {
        ghost::from_fraction(
            from,
            (other, sweep_other),
            (&segment, sweep_chain),
            options,
            &query,
        )
    };
    ghost::follow(
        toi,
        judge,
        ask,
        (other, sweep_other),
        (&segment, sweep_chain),
        options,
    )
}

/// The face normal that owns the ghost direction `d` (segment frame, outside the segment's
/// cone): past a convex joint the neighbour's, at a flat or concave one the segment's own
/// (in front of both faces there, the shape meets this face as it closes in on it).
fn ghost_owner(cone: &Cone, d: &Vector) -> Vector {
    let [convex_a, convex_b] = cone.convex();
    match (cone.toward_b(d), convex_a, convex_b) {
        (true, _, true) => cone.n2,
        (false, true, _) => cone.n0,
        _ => cone.n1,
    }
}

/// Whether the centre of `other`'s core (its vertices' mean) at `pose_other` is behind
/// `chain` at `pose_chain`, by the contacts' test.
fn behind(
    cone: &Cone,
    other: &Shape,
    pose_other: &Isometry,
    chain: &ChainSegment,
    pose_chain: &Isometry,
) -> bool {
    let core = other.core();
    if core.is_empty() {
        return false;
    }
    let sum = core.iter().map(|p| (pose_other * p).coords).sum::<Vector>();
    let center = pose_chain.inverse_transform_point(&(sum / core.len() as Real).into());
    cone.behind(&(center - chain.a()), &(center - chain.b()), cone.convex())
}

/// The plain segment a chain segment is for every query but its rules.
#[inline]
pub(crate) fn plain(chain: &ChainSegment) -> Shape {
    Shape::Segment(chain.segment())
}

#[cfg(test)]
mod tests {
    use crate::options::ToiOptions;
    use crate::toi::{closed_form_toi, time_of_impact, toi_conservative_advancement};
    use crate::toi_result::Toi;
    use impact_geometry::{Chain, Circle, Isometry, Point, Shape, Sweep, Vector};

    fn ground() -> Vec<Shape> {
        Chain::open(&[
            Point::new(4.0, 0.0),
            Point::new(0.0, 0.0),
            Point::new(-4.0, 0.0),
        ])
        .unwrap()
        .segments()
        .map(Shape::from)
        .collect()
    }

    #[test]
    fn a_disc_sliding_over_the_joint_is_not_stopped_by_the_next_segment() {
        // Sliding left 2 mm above the ground, within the target separation (5 mm) of the
        // first segment, toward the second: a plain segment there is met at its end with a
        // tilted normal (a ghost); the chain's second segment leaves it to the first.
        let disc = Shape::from(Circle::new(0.5).unwrap());
        let sweep = Sweep::translating(
            Isometry::translation(1.0, 0.5 + 0.002),
            Vector::new(-2.0, 0.0),
        )
        .unwrap();
        let still = Sweep::stationary(Isometry::identity()).unwrap();
        let options = ToiOptions::default();
        let second = &ground()[1];
        let Shape::ChainSegment(chain) = second else {
            unreachable!()
        };
        let plain = Shape::Segment(chain.segment());
        let ghost = closed_form_toi(&disc, &sweep, &plain, &still, &options).unwrap();
        let Toi::Hit(ghost) = ghost else {
            panic!("{ghost:?}")
        };
        // Tilted by about 6 degrees: sqrt(0.505^2 - 0.502^2) / 0.502.
        assert!(ghost.normal.x < -0.1, "{ghost:?}");
        for segment in ground() {
            let toi = closed_form_toi(&disc, &sweep, &segment, &still, &options).unwrap();
            assert_eq!(toi, Toi::Separated);
        }
        // From the back: nothing, even head on.
        let up =
            Sweep::translating(Isometry::translation(1.0, -2.0), Vector::new(0.0, 4.0)).unwrap();
        for segment in ground() {
            assert_eq!(
                time_of_impact(&disc, &up, &segment, &still, &options),
                Toi::Separated
            );
            assert_eq!(
                toi_conservative_advancement(&disc, &up, &segment, &still, &options),
                Toi::Separated
            );
        }
        // From the front: a hit on the first segment, with the face normal.
        let down =
            Sweep::translating(Isometry::translation(1.0, 2.0), Vector::new(0.0, -4.0)).unwrap();
        let hit = time_of_impact(&disc, &down, &ground()[0], &still, &ToiOptions::exact());
        let Toi::Hit(hit) = hit else {
            panic!("{hit:?}")
        };
        assert!((hit.fraction - 0.375).abs() < 1e-15);
        assert_eq!(hit.normal, Vector::new(0.0, -1.0));
    }
}
