//! The pieces of a concave outline (polygons with seams) against oracles that share no code
//! with their rules:
//! - hand-computed cases on an L: a disc or a box under its foot near the seam gets only the
//!   face's normal, its outer corner is reported by one piece, a box pressed into its reflex
//!   corner is pushed out of each wall, a box or disc deep inside is pushed out through the
//!   surface;
//! - over flat tops (an L, a U, a comb upside down, outlines under a flat top; bare, or dented
//!   by a hair so that pieces meet along them), a disc, a box, a capsule, a small box and a
//!   small disc at every offset along the top and across each seam to rounding, at heights
//!   from a slop deep to the speculative distance, placed level and turned: every normal is
//!   the face normal of its piece (to 1e-12), some piece always has the contact, and every
//!   separation is the height over the top (to the dents' depth); also as a proptest over
//!   seeded outlines and placements;
//! - time of impact is the plain polygon's but for its ghosts: shapes shot from outside at
//!   the outline's vertices and edges at up to 10,000 units/s, translating and turning, get
//!   from every piece its plain polygon's answer bit for bit or, where that is a hit whose
//!   direction the outline has no normal for, a hit no earlier or none; the earliest over
//!   the pieces is the plain pieces' earliest (to 1e-9, turning 1e-6), and no later than the
//!   dense-sampling oracle of the filled outline.

mod support;

use impact_geometry::tolerances::{LINEAR_SLOP, SPECULATIVE_DISTANCE};
use impact_geometry::{
    Capsule, Circle, ConcaveOutline, ConvexPolygon, Isometry, Point, Real, Shape, Sweep, Vector,
};
use impact_narrowphase::{Manifold, Toi, ToiOptions, contact_manifold, time_of_impact};
use impact_testkit::SplitMix64;
use impact_testkit::audit::first_contact_by_sampling;
use impact_testkit::outlines::{
    self, FlatTop as Top, OutlineShot, comb, dented, ell, flat_tops, on_top, under_flat_top,
    upside_down, you,
};
use proptest::prelude::*;
use support::gap;

/// The pieces of `outline` as shapes.
fn pieces(outline: &[Point]) -> Vec<Shape> {
    ConcaveOutline::new(outline)
        .unwrap()
        .convex_pieces()
        .into_iter()
        .map(Shape::from)
        .collect()
}

/// The same pieces without their seams: plain polygons.
fn plain(pieces: &[Shape]) -> Vec<Shape> {
    pieces
        .iter()
        .map(|s| match s {
            Shape::Polygon(p) => ConvexPolygon::new(p.vertices()).unwrap().into(),
            other => other.clone(),
        })
        .collect()
}

/// Every manifold of `shape` at `pose` with each piece at `ground` (normal from the piece
/// toward the shape).
fn manifolds(pieces: &[Shape], ground: &Isometry, shape: &Shape, pose: &Isometry) -> Vec<Manifold> {
    manifolds_within(pieces, ground, shape, pose, SPECULATIVE_DISTANCE)
}

/// [`manifolds`] with points up to `speculative` apart (a world widens the speculative
/// distance by how far a body moves in a step).
fn manifolds_within(
    pieces: &[Shape],
    ground: &Isometry,
    shape: &Shape,
    pose: &Isometry,
    speculative: Real,
) -> Vec<Manifold> {
    pieces
        .iter()
        .map(|piece| contact_manifold(piece, ground, shape, pose, speculative))
        .collect()
}

// ---------------------------------------------------------------------------------------
// Hand-computed cases on an L: foot along x from 0 to 3, leg up to y = 3, both 1 thick.

#[test]
fn under_the_foot_near_the_seam_only_the_foot_answers() {
    let l = pieces(&ell(3.0, 1.0));
    assert_eq!(l.len(), 2);
    let still = Isometry::identity();
    let disc = Shape::from(Circle::new(0.5).unwrap());
    // 1 mm below the bottom, 0.1 right of the corner, where the leg's piece meets the bottom
    // only at its corner: the plain leg would report that corner, tilted.
    let pose = Isometry::translation(0.1, -0.501);
    let ours = manifolds(&l, &still, &disc, &pose);
    let theirs = manifolds(&plain(&l), &still, &disc, &pose);
    assert!(theirs[1].normal.x > 0.1, "{:?}", theirs[1]);
    assert!(ours[1].is_empty(), "{:?}", ours[1]);
    assert_eq!(ours[0].normal, Vector::new(0.0, -1.0));
    assert!((ours[0].points()[0].separation - 0.001).abs() < 1e-15);
    // A box 1 cm into the bottom with its left side at the seam: the plain leg takes its
    // diagonal as the face and pushes the box sideways; with seams only the foot's face.
    let block = Shape::from(ConvexPolygon::rectangle(0.3, 0.3).unwrap());
    for angle in [0.0, 0.01, -0.01] {
        let pose = Isometry::new(Vector::new(0.3, -0.29), angle);
        let ours = manifolds(&l, &still, &block, &pose);
        let theirs = manifolds(&plain(&l), &still, &block, &pose);
        assert!(theirs[1].normal.x > 0.5, "{:?}", theirs[1]);
        assert!(ours[1].is_empty(), "{angle}: {:?}", ours[1]);
        assert_eq!(ours[0].points().len(), 2);
        assert_eq!(ours[0].normal, Vector::new(0.0, -1.0));
    }
}

#[test]
fn the_outer_corner_is_reported_once_and_the_reflex_corner_by_its_faces() {
    let l = pieces(&ell(3.0, 1.0));
    let still = Isometry::identity();
    let disc = Shape::from(Circle::new(0.5).unwrap());
    // Beyond the corner at the origin, touching it along (-0.6, -0.8).
    let ours = manifolds(&l, &still, &disc, &Isometry::translation(-0.3, -0.4));
    let reported: Vec<&Manifold> = ours.iter().filter(|m| !m.is_empty()).collect();
    assert_eq!(reported.len(), 1);
    assert!((reported[0].normal - Vector::new(-0.6, -0.8)).norm() < 1e-15);
    // In the reflex corner at (1, 1), touching both walls 1 mm deep: each wall its face.
    let ours = manifolds(&l, &still, &disc, &Isometry::translation(1.499, 1.499));
    let mut normals: Vec<Vector> = ours
        .iter()
        .filter(|m| !m.is_empty())
        .map(|m| m.normal)
        .collect();
    normals.sort_by(|a, b| a.x.total_cmp(&b.x));
    assert_eq!(normals, vec![Vector::new(0.0, 1.0), Vector::new(1.0, 0.0)]);
}

#[test]
fn a_box_pressed_into_the_reflex_corner_is_pushed_out_of_each_wall() {
    // The L's reflex corner at (1, 1): its diagonal to the origin parts the foot and the
    // leg, and a box in the corner straddles it, each piece's least penetration there.
    let l = pieces(&ell(3.0, 1.0));
    let still = Isometry::identity();
    let block = Shape::from(ConvexPolygon::rectangle(0.15, 0.15).unwrap());
    for (pose, depth) in [
        (Isometry::translation(1.14, 1.14), 0.01),
        (Isometry::new(Vector::new(0.998, 1.018), -0.73), 0.16),
    ] {
        let ours = manifolds(&l, &still, &block, &pose);
        let mut normals: Vec<Vector> = ours
            .iter()
            .filter(|m| !m.is_empty())
            .map(|m| m.normal)
            .collect();
        normals.sort_by(|a, b| a.x.total_cmp(&b.x));
        assert_eq!(
            normals,
            vec![Vector::new(0.0, 1.0), Vector::new(1.0, 0.0)],
            "{pose:?}"
        );
        for m in ours.iter().filter(|m| !m.is_empty()) {
            assert!(
                m.min_separation() < 0.0 && m.min_separation() > -depth - 0.1,
                "{m:?}"
            );
        }
    }
}

#[test]
fn deep_inside_the_outline_is_pushed_out_through_its_surface() {
    let l = pieces(&ell(3.0, 1.0));
    let still = Isometry::identity();
    // Centred on the diagonal from (0, 0) to (1, 1), where both plain pieces would push
    // across it: each piece pushes through one of its outer faces.
    let shapes = [
        Shape::from(ConvexPolygon::rectangle(0.3, 0.3).unwrap()),
        Shape::from(Circle::new(0.5).unwrap()),
    ];
    for shape in &shapes {
        for (x, y) in [(0.5, 0.5), (0.55, 0.5), (0.3, 0.31), (0.8, 0.75)] {
            let ours = manifolds(&l, &still, shape, &Isometry::translation(x, y));
            let pushes: Vec<&Manifold> = ours.iter().filter(|m| !m.is_empty()).collect();
            assert!(
                !pushes.is_empty(),
                "nothing pushes {shape:?} out at ({x}, {y})"
            );
            for m in pushes {
                // An outer face's normal: axis-aligned here, never the diagonal.
                assert!(
                    m.normal.x.abs() < 1e-15 || m.normal.y.abs() < 1e-15,
                    "{m:?}"
                );
                assert!(m.min_separation() < 0.0);
            }
        }
    }
}

// ---------------------------------------------------------------------------------------
// Flat tops.

/// The shapes slid over a top: a disc, a box, a capsule lying flat, a small box and a small
/// disc, each with the height of its centre over its lowest point and its half extent
/// along x.
fn sliders() -> Vec<(Shape, Real, Real)> {
    vec![
        (Circle::new(0.5).unwrap().into(), 0.5, 0.0),
        (
            ConvexPolygon::rectangle(0.5, 0.25).unwrap().into(),
            0.25,
            0.5,
        ),
        (Capsule::along_x(0.4, 0.2).unwrap().into(), 0.2, 0.4),
        (
            ConvexPolygon::rectangle(0.05, 0.05).unwrap().into(),
            0.05,
            0.05,
        ),
        (Circle::new(0.05).unwrap().into(), 0.05, 0.0),
    ]
}

/// The separations a shape's lowest point is placed at over y = 0: from a slop deep to just
/// inside the speculative distance from the dented top (which is up to its depth lower).
fn heights(top: &Top) -> Vec<Real> {
    let highest = SPECULATIVE_DISTANCE - 1e-6 - 1.01 * top.depth;
    let mut h: Vec<Real> = (0..=12)
        .map(|i| -LINEAR_SLOP + (highest + LINEAR_SLOP) * Real::from(i) / 12.0)
        .collect();
    h.extend([-1e-9, 0.0, 1e-9]);
    h
}

/// The x of every seam on the top: the vertices of the pieces on it (its ends and dents).
fn seams_on(top: &Top) -> Vec<Real> {
    top.outline
        .iter()
        .filter(|q| q.y.abs() <= 2.0 * top.depth && q.x >= 0.0 && q.x <= top.width)
        .map(|q| q.x)
        .collect()
}

/// The face normal on the top of the piece `piece` (world frame at `ground`), if it has a
/// face there.
fn top_face(piece: &Shape, ground: &Isometry) -> Option<Vector> {
    let Shape::Polygon(poly) = piece else {
        return None;
    };
    let n = poly.vertices().len();
    (0..n)
        .find(|&e| {
            let (a, b) = (poly.vertices()[e], poly.vertices()[(e + 1) % n]);
            !poly.is_internal_edge(e)
                && poly.normals()[e].y > 0.999
                && a.y.abs() < 1e-3
                && b.y.abs() < 1e-3
        })
        .map(|e| ground.rotation * poly.normals()[e])
}

/// Checks one placement: `shape` (centre `lift` above its lowest point, `half` its half
/// extent along x) with its centre at `x`, its lowest point `s` above y = 0, on `top` at
/// `ground`, with manifolds up to `speculative` apart: every normal is its piece's face
/// normal on the top, some piece has a contact, and every separation is the height over the
/// top (to the dents' depth).
fn check_placement(
    top: &Top,
    pieces: &[Shape],
    ground: &Isometry,
    (shape, lift, half): &(Shape, Real, Real),
    x: Real,
    s: Real,
    speculative: Real,
) -> Result<(), String> {
    let pose = ground * Isometry::translation(x, lift + s);
    let all = manifolds_within(pieces, ground, shape, &pose, speculative);
    let scale = 1e-12 * (1.0 + ground.translation.vector.amax() + top.width);
    let mut any = false;
    for (i, m) in all.iter().enumerate() {
        if m.is_empty() {
            continue;
        }
        any = true;
        let face = top_face(&pieces[i], ground).ok_or_else(|| {
            format!("piece {i} without a top face answered {m:?} at x {x}, height {s}")
        })?;
        if (m.normal - face).norm() > 1e-12 {
            return Err(format!(
                "ghost normal {:?} (face {face:?}) from piece {i} at x {x}, height {s}: {shape:?}",
                m.normal
            ));
        }
        for q in m.points() {
            if q.separation < s - scale - 1e-9 * half || q.separation > s + 1.01 * top.depth + scale
            {
                return Err(format!(
                    "separation {} for {s} from piece {i} at x {x}: {shape:?}",
                    q.separation
                ));
            }
        }
    }
    if !any {
        return Err(format!("lost at x {x}, height {s}: {shape:?}"));
    }
    Ok(())
}

/// How far a shape keeps from the ends of `top`: nothing on a bare top; a millimetre on a
/// dented one, whose ends are its highest points (the sag of the dents), so that a shape
/// reaching them rests on a corner of the outline (a true contact with the corner's normal,
/// within the outline's cone there but tilted from the faces by the sag's slope).
fn margin(top: &Top) -> Real {
    if top.depth > 0.0 { 1e-3 } else { 0.0 }
}

/// Offsets of a shape's centre along a top: a sweep over it, and each place where the
/// shape's middle, sides or ends cross a seam, to rounding either way; only those that keep
/// the shape over the top (and [`margin`] from its ends).
fn offsets(top: &Top, half: Real, fine: usize) -> Vec<Real> {
    let mut x: Vec<Real> = (0..=fine)
        .map(|i| top.width * Real::from(i as u32) / fine as Real)
        .collect();
    for seam in seams_on(top) {
        for edge in [0.0, half, 0.01, 0.2] {
            for side in [-1.0, 1.0] {
                for nudge in [0.0, 1e-12, 1e-9, 1e-6] {
                    x.push(seam + side * edge + nudge);
                    x.push(seam + side * edge - nudge);
                }
            }
        }
    }
    let keep = margin(top);
    x.retain(|&c| c - half >= keep && c + half <= top.width - keep);
    x
}

#[test]
fn along_flat_tops_only_the_faces_and_their_separations() {
    let mut rng = SplitMix64::new(0x5ea3_0002);
    let mut checked = 0usize;
    for top in flat_tops(&mut rng, 1e-5) {
        let pieces = pieces(&top.outline);
        for ground in [
            Isometry::identity(),
            Isometry::new(Vector::new(7.25, -3.5), 0.3),
            Isometry::new(Vector::new(-20.0, 11.0), -2.4),
        ] {
            for slider in sliders() {
                for &x in &offsets(&top, slider.2, 150) {
                    for &s in &heights(&top) {
                        // The speculative distance, and one a body moving 30 units/s at
                        // 60 Hz would be given.
                        for speculative in [SPECULATIVE_DISTANCE, 0.5] {
                            let checked_one =
                                check_placement(&top, &pieces, &ground, &slider, x, s, speculative);
                            if let Err(e) = checked_one {
                                panic!(
                                    "{e} (speculative {speculative})\noutline {:?}",
                                    top.outline
                                );
                            }
                            checked += 1;
                        }
                    }
                }
            }
        }
    }
    assert!(checked > 100_000, "{checked} placements");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn at_seams_of_seeded_tops_every_normal_is_the_face_normal(
        seed in any::<u64>(),
        which in 0usize..5,
        dents in 0usize..5,
        slider in 0usize..5,
        at in 0.0..1.0f64,
        off in -0.3..0.3f64,
        s in -LINEAR_SLOP..SPECULATIVE_DISTANCE - 2e-5,
        angle in -3.2..3.2f64,
        shift in (-30.0..30.0f64, -30.0..30.0f64),
        speculative in SPECULATIVE_DISTANCE..0.6,
    ) {
        let mut rng = SplitMix64::new(seed);
        let base = match which {
            0 => upside_down(&ell(rng.range(1.5, 4.0), rng.range(0.3, 1.0))),
            1 => upside_down(&you(rng.range(2.5, 5.0), rng.range(1.5, 3.0), rng.range(0.3, 1.0))),
            2 => {
                let scale = rng.range(2.0, 5.0);
                upside_down(&comb(&mut rng, 1 + dents, Vector::zeros(), scale))
            }
            _ => {
                let width = rng.range(2.0, 6.0);
                under_flat_top(&mut rng, width, 1 + 2 * dents)
            }
        };
        let top = on_top(&mut rng, &base, dents, 1e-5);
        let pieces = pieces(&top.outline);
        let slider = sliders().swap_remove(slider);
        let seams = seams_on(&top);
        let seam = seams[((at * seams.len() as Real) as usize).min(seams.len() - 1)];
        let keep = slider.2 + margin(&top);
        prop_assume!(top.width > 2.0 * keep);
        let x = (seam + off).clamp(keep, top.width - keep);
        let ground = Isometry::new(Vector::new(shift.0, shift.1), angle);
        let checked = check_placement(&top, &pieces, &ground, &slider, x, s, speculative);
        prop_assert!(checked.is_ok(), "{}\noutline {:?}", checked.unwrap_err(), top.outline);
    }
}

// ---------------------------------------------------------------------------------------
// Time of impact.

/// The earliest hit of `shot` over `shapes` (stationary at the identity): its fraction and
/// the shape's index (a safe fraction stands for a query that did not converge).
fn earliest(shot: &OutlineShot, shapes: &[Shape], options: &ToiOptions) -> Option<(Real, usize)> {
    let still = Sweep::stationary(Isometry::identity()).unwrap();
    shapes
        .iter()
        .enumerate()
        .filter_map(
            |(i, s)| match time_of_impact(&shot.shape, &shot.sweep, s, &still, options) {
                Toi::Hit(h) => Some((h.fraction, i)),
                Toi::NotConverged { safe_fraction } => Some((safe_fraction, i)),
                Toi::Overlapping => panic!("overlapping at the start: {shot:?}"),
                Toi::Separated => None,
            },
        )
        .min_by(|x, y| x.0.total_cmp(&y.0))
}

/// The outlines shot at: an L, a U, combs, stars and untangled random outlines, outlines
/// under a flat top with dents.
fn shot_outlines(rng: &mut SplitMix64) -> Vec<Vec<Point>> {
    let mut all = vec![ell(3.0, 1.0), you(4.0, 3.0, 0.8)];
    for _ in 0..3 {
        let c = Vector::new(rng.range(-3.0, 3.0), rng.range(-3.0, 3.0));
        let (teeth, points, steps, dents) = (
            3 + rng.below(4),
            9 + rng.below(9),
            4 + rng.below(5),
            1 + rng.below(3),
        );
        all.push(comb(rng, teeth, c, 4.0));
        all.push(outlines::star(rng, points, c, 3.0));
        all.push(outlines::untangled(rng, points + 1, c, 3.0));
        let top = under_flat_top(rng, 4.0, steps);
        let edge = top.len() - 1;
        all.push(dented(rng, &top, edge, dents, 1e-5));
    }
    all
}

/// Shoots `count` shots at the outlines (turning if `turning`): every piece's time of
/// impact is its plain polygon's, bit for bit, or where that is a ghost's hit a hit no
/// earlier or none (see the module docs); the earliest over the pieces is the plain
/// pieces', and never later than the dense-sampling oracle of the filled outline's first
/// contact. Returns how many shots hit.
fn shoot(count: usize, seed: u64, turning: bool, dense_every: usize) -> usize {
    let mut rng = SplitMix64::new(seed);
    let all = shot_outlines(&mut rng);
    let sets: Vec<(Vec<Point>, Vec<Shape>, Vec<Shape>)> = all
        .into_iter()
        .map(|o| {
            let ours = pieces(&o);
            let theirs = plain(&ours);
            (
                ConcaveOutline::new(&o).unwrap().vertices().to_vec(),
                ours,
                theirs,
            )
        })
        .collect();
    let options = ToiOptions::default();
    let still = Sweep::stationary(Isometry::identity()).unwrap();
    let (mut shots, mut hits) = (0, 0);
    while shots < count {
        let (outline, ours, theirs) = &sets[rng.below(sets.len())];
        let shot = outlines::shot_at(&mut rng, outline, turning);
        let start = shot.sweep.start();
        if !theirs
            .iter()
            .all(|q| gap(&shot.shape, &start, q, &Isometry::identity()) > 0.01)
        {
            continue;
        }
        shots += 1;
        for (o, t) in ours.iter().zip(theirs) {
            let a = time_of_impact(&shot.shape, &shot.sweep, o, &still, &options);
            let b = time_of_impact(&shot.shape, &shot.sweep, t, &still, &options);
            let same = format!("{a:?}") == format!("{b:?}");
            // A ghost: met with the owner's face then, or later (turning), or not at all.
            let settled = match (a, b) {
                (Toi::Hit(x), Toi::Hit(y)) => x.fraction >= y.fraction,
                (Toi::NotConverged { safe_fraction }, Toi::Hit(y)) => safe_fraction >= y.fraction,
                (Toi::Separated, Toi::Hit(_)) => true,
                _ => false,
            };
            assert!(same || settled, "{a:?} vs {b:?}: {shot:?} at {outline:?}");
        }
        let mine = earliest(&shot, ours, &options);
        let plain_first = earliest(&shot, theirs, &options);
        let slack = if turning { 1e-6 } else { 1e-9 };
        match (mine, plain_first) {
            (Some(m), Some(p)) => assert!(
                (m.0 - p.0).abs() <= slack,
                "{m:?} vs {p:?}: {shot:?} at {outline:?}"
            ),
            (m, p) => assert_eq!(m, p, "{shot:?} at {outline:?}"),
        }
        hits += usize::from(mine.is_some());
        if shots % dense_every == 0 {
            let dense = theirs
                .iter()
                .filter_map(|q| {
                    first_contact_by_sampling(
                        &shot.shape,
                        &shot.sweep,
                        q,
                        &still,
                        options.target_separation(),
                        1.0,
                        4000,
                    )
                })
                .fold(None, |b: Option<Real>, t| Some(b.map_or(t, |b| b.min(t))));
            if let Some(d) = dense {
                let t = mine.expect("the oracle saw a contact the pieces missed").0;
                assert!(
                    t <= d + 1e-9,
                    "pieces {t} later than dense sampling {d}: {shot:?}"
                );
            }
        }
    }
    hits
}

#[test]
fn translating_shots_are_the_plain_pieces_and_never_tunnel() {
    let hits = shoot(1_500, 0x5ea3_0003, false, 10);
    assert!(hits > 700, "{hits} hits");
}

#[test]
fn turning_shots_are_the_plain_pieces_and_never_tunnel() {
    let hits = shoot(300, 0x5ea3_0004, true, 6);
    assert!(hits > 150, "{hits} hits");
}
