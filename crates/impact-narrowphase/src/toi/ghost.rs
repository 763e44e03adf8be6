//! What a time of impact with a part of a larger surface (a chain segment, a piece of a
//! concave outline) does with a *ghost*: a hit whose normal the surface does not have there,
//! found at a joint or a seam vertex the part shares with a neighbour.
//!
//! A ghost is met by a shape already within the target separation of the neighbour's face
//! (the neighbour's face is nearer than the vertex in that direction): a shape resting on the
//! neighbour, or sliding along it after an impact, reaches the vertex's shell before anything
//! else. The surface there is the face the direction belongs to, its *owner* (the neighbour's
//! face past a convex joint, the part's own face at a flat or concave one), so the hit is
//! judged against that face:
//!
//! - the shape approaches the owner's face at the hit fast enough to close in on it by more
//!   than the tolerance before the sweeps end: an impact, with the owner's normal, at the
//!   shape's deepest point toward that face (a box sliding into a concave joint meets the
//!   next face with its front corner, and turns along it);
//! - it does not, and neither body turns past that bound either: nothing, ever, from this
//!   part. The part lies behind the owner's line (a segment on it, a convex piece behind each
//!   of its faces' lines, the neighbour's face past a convex joint turning away), and the
//!   shape, not closing in on that line by more than the tolerance, cannot come nearer the
//!   part by more than that either (a disc sliding over a flat seam passes it);
//! - it does not at the hit but a turning body could (a corner of a spinning box swinging
//!   down): the plain hit stands, as an impact with the part's own plain normal, which keeps
//!   the shape out at the cost of a ghost's kick.
//!
//! So no hit is dropped on the promise of a neighbour that may not be asked, or may answer
//! nothing (a pair the contact solver holds, a shape sliding parallel to it).

use crate::options::ToiOptions;
use crate::seam_cone::ghost_owner;
use crate::toi_result::{Hit, Toi};
use impact_geometry::{ConvexPolygon, Real, Shape, Sweep, Vector};

/// How far any point of `shape`'s core lies from the centre `sweep` turns it about (the
/// rounding turns with the core's points, and the support of a rounded core along a
/// direction is its core's, moved by the radius): zero for a disc about its centre.
fn core_reach(shape: &Shape, sweep: &Sweep) -> Real {
    let center = sweep.local_center();
    shape
        .core()
        .iter()
        .map(|p| (p - center).norm())
        .fold(0.0, Real::max)
}

/// What [`settle`] makes of a ghost hit.
enum Settled {
    /// The answer: an impact with the owner's face, or nothing.
    Answer(Toi),
    /// Nothing until this fraction of the sweeps, from which the part is asked again.
    From(Real),
}

/// How many times [`follow`] asks a part again past a ghost before it keeps the plain hit.
const FOLLOW: usize = 32;

/// `hit`, the plain answer of `other` (on `sweep_other`, the query's shape A) against the
/// part `part` (on `sweep_part`), whose direction seen from the part is a ghost owned by the
/// face of unit normal `owner` (world frame, from the surface toward `other`): judged as the
/// module docs say. Where only turning could close in, the time it takes to close in by the
/// tolerance at the bound's rate is skipped: until then the shape comes no nearer the part,
/// which lies behind the owner's line, by more than the tolerance.
fn settle(
    hit: Hit,
    (other, sweep_other): (&Shape, &Sweep),
    (part, sweep_part): (&Shape, &Sweep),
    owner: Vector,
    options: &ToiOptions,
) -> Settled {
    let at = hit.fraction;
    // The point of `other`'s core deepest toward the owner's face: the rounding keeps its
    // distance along the normal, so the shape closes in on the face as this point does.
    let pose = sweep_other.pose_at(at);
    let deepest = other
        .core()
        .iter()
        .map(|p| pose * p)
        .min_by(|p, q| p.coords.dot(&owner).total_cmp(&q.coords.dot(&owner)))
        .unwrap_or(hit.point);
    let relative = sweep_other.velocity_at(at, &deepest) - sweep_part.velocity_at(at, &deepest);
    let approach = -relative.dot(&owner);
    let rest = (1.0 - at).max(0.0) * sweep_other.dt();
    if approach * rest > options.tolerance() {
        // Where the shape meets the owner's face: its deepest point toward it, between the
        // two surfaces (a box sliding into a concave joint strikes the next face with its
        // front corner, not where the joint's vertex is).
        let point = deepest - owner * (other.radius() + 0.5 * options.target_separation());
        return Settled::Answer(Toi::Hit(Hit {
            fraction: at,
            point,
            normal: -owner,
        }));
    }
    // How much faster than that point another point of either shape can close in, by
    // turning: the velocities of two points of a body differ by its turn rate times at most
    // the sum of their distances from its centre.
    let turning = |shape: &Shape, sweep: &Sweep| {
        let lever = (deepest - sweep.center_at(at)).norm();
        sweep.angvel().abs() * (core_reach(shape, sweep) + lever)
    };
    let rate = approach.max(0.0) + turning(other, sweep_other) + turning(part, sweep_part);
    if rate * rest <= options.tolerance() {
        Settled::Answer(Toi::Separated)
    } else {
        Settled::From(at + options.tolerance() / (rate * sweep_other.dt()))
    }
}

/// Follows a part's answer past its ghosts: `toi` is its answer from the start, `judge`
/// says what a hit is to the part (`Ok(None)` its own, `Ok(Some(owner))` a ghost owned by the
/// face of that normal, `Err(answer)` what the part's other rules make of it), and `ask`
/// answers from a later fraction (its fractions the whole sweeps'; `None` where it cannot).
/// Each ghost is settled ([`settle`]); one that only turning could close in on is asked again
/// after the time that takes, up to [`FOLLOW`] times, after which (or where `ask` cannot) the
/// plain hit stands.
pub(crate) fn follow(
    mut toi: Toi,
    judge: impl Fn(&Hit) -> Result<Option<Vector>, Toi>,
    ask: impl Fn(Real) -> Option<Toi>,
    other: (&Shape, &Sweep),
    part: (&Shape, &Sweep),
    options: &ToiOptions,
) -> Toi {
    for _ in 0..FOLLOW {
        let Toi::Hit(hit) = toi else {
            return toi;
        };
        let owner = match judge(&hit) {
            Ok(None) => return toi,
            Ok(Some(owner)) => owner,
            Err(answer) => return answer,
        };
        match settle(hit, other, part, owner, options) {
            Settled::Answer(answer) => return answer,
            Settled::From(from) if from >= options.max_fraction() => return Toi::Separated,
            Settled::From(from) => match ask(from) {
                Some(next) => toi = next,
                None => return toi,
            },
        }
    }
    toi
}

/// `query` of `a` on `sweep_a` and `b` on `sweep_b` from fraction `from` of the sweeps on,
/// its fractions those of the whole sweeps; `None` if the rest of the sweeps cannot be asked
/// or the shapes overlap there.
pub(crate) fn from_fraction(
    from: Real,
    (a, sweep_a): (&Shape, &Sweep),
    (b, sweep_b): (&Shape, &Sweep),
    options: &ToiOptions,
    query: impl Fn(&Shape, &Sweep, &Shape, &Sweep, &ToiOptions) -> Option<Toi>,
) -> Option<Toi> {
    let (rest_a, rest_b) = (
        sweep_a.remainder_from(from).ok()?,
        sweep_b.remainder_from(from).ok()?,
    );
    let span = 1.0 - from;
    let max = ((options.max_fraction() - from) / span).clamp(0.0, 1.0);
    let rest_options = options.with_max_fraction(max).ok()?;
    match query(a, &rest_a, b, &rest_b, &rest_options)? {
        Toi::Hit(hit) => Some(Toi::Hit(Hit {
            fraction: from + hit.fraction * span,
            ..hit
        })),
        Toi::NotConverged { safe_fraction } => Some(Toi::NotConverged {
            safe_fraction: from + safe_fraction * span,
        }),
        Toi::Separated => Some(Toi::Separated),
        Toi::Overlapping => None,
    }
}

/// `toi`, the plain answer of `a` on `sweep_a` against `b` on `sweep_b`, under the seams of
/// either that is a piece of a concave outline (a polygon with seams): a hit whose direction
/// is a ghost to the piece ([`ghost_owner`]) is settled against the face that owns it, and
/// followed past it ([`follow`], asking `query`, the plain answer, again). Every other answer,
/// and every answer between shapes without seams, is `toi` as it is.
pub(crate) fn under_seam_rules(
    toi: Toi,
    (a, sweep_a): (&Shape, &Sweep),
    (b, sweep_b): (&Shape, &Sweep),
    options: &ToiOptions,
    query: impl Fn(&Shape, &Sweep, &Shape, &Sweep, &ToiOptions) -> Option<Toi> + Copy,
) -> Toi {
    let toi = match b {
        Shape::Polygon(piece) if piece.has_seams() => {
            piece_rule(toi, (a, sweep_a), (piece, b, sweep_b), options, query)
        }
        _ => toi,
    };
    match a {
        Shape::Polygon(piece) if piece.has_seams() => {
            let swapped = |x: &Shape, sx: &Sweep, y: &Shape, sy: &Sweep, o: &ToiOptions| {
                query(y, sy, x, sx, o).map(Toi::swapped)
            };
            piece_rule(
                toi.swapped(),
                (b, sweep_b),
                (piece, a, sweep_a),
                options,
                swapped,
            )
            .swapped()
        }
        _ => toi,
    }
}

/// `toi` of `other` against the piece `piece` (the shape `part`, on `sweep_part`), with its
/// ghosts followed ([`follow`]; `query` the plain answer).
fn piece_rule(
    toi: Toi,
    (other, sweep_other): (&Shape, &Sweep),
    (piece, part, sweep_part): (&ConvexPolygon, &Shape, &Sweep),
    options: &ToiOptions,
    query: impl Fn(&Shape, &Sweep, &Shape, &Sweep, &ToiOptions) -> Option<Toi>,
) -> Toi {
    let slack = options.target_separation() + options.tolerance();
    let judge = |hit: &Hit| {
        let pose = sweep_part.pose_at(hit.fraction);
        let d = pose.rotation.inverse_transform_vector(&(-hit.normal));
        let point = pose.inverse_transform_point(&hit.point);
        Ok(ghost_owner(piece, &d, &point, slack).map(|owner| pose.rotation * owner))
    };
    let ask = |from: Real| {
        from_fraction(
            from,
            (other, sweep_other),
            (part, sweep_part),
            options,
            &query,
        )
    };
    follow(
        toi,
        judge,
        ask,
        (other, sweep_other),
        (part, sweep_part),
        options,
    )
}

#[cfg(test)]
mod tests {
    use crate::options::ToiOptions;
    use crate::toi::time_of_impact;
    use crate::toi_result::Toi;
    use impact_geometry::{
        Chain, Circle, ConcaveOutline, ConvexPolygon, Isometry, Point, Real, Shape, Sweep, Vector,
    };

    /// Ground running from (4, 0) to the origin, then rising to the left by `rise` over 4: a
    /// concave joint at the origin for a positive `rise`, flat for zero.
    fn valley(rise: Real) -> Vec<Shape> {
        Chain::open(&[
            Point::new(4.0, 0.0),
            Point::origin(),
            Point::new(-4.0, rise),
        ])
        .unwrap()
        .segments()
        .map(Shape::from)
        .collect()
    }

    #[test]
    fn a_disc_sliding_into_a_concave_joint_meets_the_next_face() {
        // Resting on the first segment (within the target separation of it), sliding left
        // into a joint concave by 2.9 degrees: the plain second segment is met at its end
        // vertex with a normal tilted by about 8 degrees (a ghost), before the disc is over
        // it. The chain meets its face there: the face's normal, at the same time.
        let disc = Shape::from(Circle::new(0.5).unwrap());
        let sweep =
            Sweep::translating(Isometry::translation(1.0, 0.5), Vector::new(-2.0, 0.0)).unwrap();
        let still = Sweep::stationary(Isometry::identity()).unwrap();
        let options = ToiOptions::default();
        let ground = valley(0.2);
        let Shape::ChainSegment(second) = &ground[1] else {
            unreachable!()
        };
        let plain = Shape::Segment(second.segment());
        let Toi::Hit(ghost) = time_of_impact(&disc, &sweep, &plain, &still, &options) else {
            panic!("the plain segment is hit")
        };
        let Toi::Hit(hit) = time_of_impact(&disc, &sweep, &ground[1], &still, &options) else {
            panic!("the chain segment is hit")
        };
        assert_eq!(hit.fraction, ghost.fraction);
        assert!((hit.normal + second.normal()).norm() < 1e-15, "{hit:?}");
        assert!((ghost.normal + second.normal()).norm() > 0.05, "{ghost:?}");
        // The first segment: the disc slides along it.
        assert_eq!(
            time_of_impact(&disc, &sweep, &ground[0], &still, &options),
            Toi::Separated
        );
    }

    #[test]
    fn a_shape_sliding_over_a_flat_joint_meets_nothing() {
        let still = Sweep::stationary(Isometry::identity()).unwrap();
        let options = ToiOptions::default();
        let shapes: [(Shape, Real); 2] = [
            (Circle::new(0.5).unwrap().into(), 0.5),
            (ConvexPolygon::rectangle(0.3, 0.5).unwrap().into(), 0.5),
        ];
        for (shape, lift) in shapes {
            for height in [lift - 1e-4, lift, lift + 0.002] {
                let sweep =
                    Sweep::translating(Isometry::translation(1.0, height), Vector::new(-2.0, 0.0))
                        .unwrap();
                for segment in valley(0.0) {
                    let toi = time_of_impact(&shape, &sweep, &segment, &still, &options);
                    assert!(
                        matches!(toi, Toi::Separated | Toi::Overlapping),
                        "{shape:?} at {height}: {toi:?}"
                    );
                }
            }
        }
    }

    /// A frame under a flat top along y = 0 from (3, 0) to the origin, dented by `depth` at
    /// `x = 1.5` (a reflex vertex there by a hair, where the decomposition cuts), as its
    /// pieces.
    fn dented_top(depth: Real) -> Vec<Shape> {
        let outline = [
            Point::new(0.0, -2.0),
            Point::new(1.0, -2.0),
            Point::new(1.0, -1.0),
            Point::new(2.0, -1.0),
            Point::new(2.0, -2.0),
            Point::new(3.0, -2.0),
            Point::new(3.0, 0.0),
            Point::new(1.5, -depth),
            Point::new(0.0, 0.0),
        ];
        ConcaveOutline::new(&outline)
            .unwrap()
            .convex_pieces()
            .into_iter()
            .map(Shape::from)
            .collect()
    }

    #[test]
    fn a_shape_sliding_over_a_seam_is_never_met_at_a_tilt() {
        // A disc and a box resting on the top (and a hair above it), sliding
        // either way across the seam at the dent: every piece's answer is nothing, or the top's
        // own normal (up to the dent's tilt). The plain pieces are met at the seam's vertex
        // with normals tilted by up to about 8 degrees.
        let still = Sweep::stationary(Isometry::identity()).unwrap();
        let options = ToiOptions::default();
        let pieces = dented_top(1e-6);
        assert!(pieces.len() > 2, "{pieces:?}");
        let shapes: [(Shape, Real, Real); 2] = [
            (Circle::new(0.5).unwrap().into(), 0.5, 0.0),
            (ConvexPolygon::rectangle(0.3, 0.5).unwrap().into(), 0.5, 0.3),
        ];
        let mut tilted = 0;
        for (shape, lift, half) in &shapes {
            for height in [*lift, lift + 0.002] {
                for direction in [1.0, -1.0] {
                    let x = if direction > 0.0 { *half } else { 3.0 - half };
                    let sweep = Sweep::translating(
                        Isometry::translation(x, height),
                        Vector::new(direction * (3.0 - 2.0 * half), 0.0),
                    )
                    .unwrap();
                    for piece in &pieces {
                        let plain = match piece {
                            Shape::Polygon(p) => {
                                Shape::from(ConvexPolygon::new(p.vertices()).unwrap())
                            }
                            other => other.clone(),
                        };
                        if let Toi::Hit(h) = time_of_impact(shape, &sweep, &plain, &still, &options)
                        {
                            tilted += usize::from(h.normal.x.abs() > 0.01);
                        }
                        match time_of_impact(shape, &sweep, piece, &still, &options) {
                            Toi::Hit(h) => assert!(
                                h.normal.x.abs() < 1e-5,
                                "{shape:?} at {height}, {direction}: {h:?}"
                            ),
                            Toi::Separated | Toi::Overlapping => {}
                            other => panic!("{other:?}"),
                        }
                    }
                }
            }
        }
        assert!(
            tilted > 4,
            "the plain pieces were met at a tilt {tilted} times"
        );
    }

    #[test]
    fn a_spinning_box_at_a_ghost_is_met_where_it_could_close_in() {
        // A box resting on a chain's first segment, spinning, sliding into a flat joint: a
        // corner could swing down into the second segment's face, so the plain hit at the
        // joint is not dropped (it is kept, or met with the face's normal); the same box not
        // spinning passes.
        let still = Sweep::stationary(Isometry::identity()).unwrap();
        let options = ToiOptions::default();
        let ground = valley(0.0);
        let shape: Shape = ConvexPolygon::rectangle(0.3, 0.3).unwrap().into();
        let start = Isometry::translation(0.5, 0.3 + 0.001);
        let slide = Vector::new(-1.0, 0.0);
        let plain = Shape::Segment(match &ground[1] {
            Shape::ChainSegment(s) => s.segment(),
            _ => unreachable!(),
        });
        for spin in [-0.2, 0.2] {
            let spinning = Sweep::new(start, Point::origin(), slide, spin, 1.0).unwrap();
            let theirs = time_of_impact(&shape, &spinning, &plain, &still, &options);
            let ours = time_of_impact(&shape, &spinning, &ground[1], &still, &options);
            match (theirs, ours) {
                (Toi::Hit(plain), Toi::Hit(hit)) => {
                    assert_eq!(hit.fraction, plain.fraction);
                    assert!(hit.normal == plain.normal || hit.normal == Vector::new(0.0, -1.0));
                }
                other => assert_eq!(other.0, other.1, "spin {spin}"),
            }
        }
        let sliding = Sweep::translating(start, slide).unwrap();
        assert_eq!(
            time_of_impact(&shape, &sliding, &ground[1], &still, &options),
            Toi::Separated
        );
    }
}
